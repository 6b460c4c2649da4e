"""One writer at a time where the file system takes no flock (some network mounts answer
ENOLCK): an admission still lands, the recall cache is still saved and kept, and the held
file that stands in for the flock is taken over when its writer is gone."""

from __future__ import annotations

import errno
import fcntl
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from clirunner import ok, run

from gitmem.repo import locks

from conftest import git

PROPOSAL = ["propose", "--type", "method", "--title", "Keep hooks thin",
            "--applies-when", "writing a hook", "--content", "Call gitmem hook NAME."]  # fmt: skip


def _refused(fd: object, operation: int) -> None:
    raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))


@pytest.fixture
def no_flock(monkeypatch: pytest.MonkeyPatch) -> None:
    """flock as a mount without its lock service answers it (the file system is the only
    thing stood in for: git, the repository and gitmem's files are real)."""
    monkeypatch.setattr(fcntl, "flock", _refused)


def _lock_file(tmp_path: Path) -> tuple[int, Path]:
    path = tmp_path / "lock"
    return os.open(path, os.O_RDWR | os.O_CREAT, 0o666), path


def _gone_pid() -> int:
    """The number of a process that has ended (its parent reaped it)."""
    child = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], check=True,
                           capture_output=True, text=True)  # fmt: skip
    return int(child.stdout)


@pytest.mark.usefixtures("no_flock")
def test_without_flock_a_held_file_stands_in_and_is_removed_after(tmp_path: Path) -> None:
    fd, path = _lock_file(tmp_path)
    held = tmp_path / "lock.held"
    with locks.exclusive(fd, path):
        host, pid, _ = held.read_text().split()
        assert (host, int(pid)) == (socket.gethostname(), os.getpid())
    assert not held.exists()
    os.close(fd)


@pytest.mark.usefixtures("no_flock")
def test_a_live_writer_s_held_file_makes_the_next_one_wait(tmp_path: Path) -> None:
    fd, path = _lock_file(tmp_path)
    held = tmp_path / "lock.held"
    held.write_text(f"{socket.gethostname()} {os.getpid()} 0\n")  # alive: this process
    entered: list[float] = []

    def second() -> None:
        with locks.exclusive(fd, path):
            entered.append(time.monotonic())

    waiter = threading.Thread(target=second)
    waiter.start()
    time.sleep(0.3)
    assert not entered, "entered while a live writer held the turn"
    released = time.monotonic()
    held.unlink()
    waiter.join(timeout=10)
    assert entered and entered[0] >= released
    os.close(fd)


@pytest.mark.usefixtures("no_flock")
@pytest.mark.parametrize(
    "left",
    ["this host, process gone", "another host, older than STALE_AGE"],
)
def test_a_held_file_no_live_writer_owns_is_taken_over(tmp_path: Path, left: str) -> None:
    fd, path = _lock_file(tmp_path)
    held = tmp_path / "lock.held"
    if left.startswith("this host"):
        held.write_text(f"{socket.gethostname()} {_gone_pid()} 0\n")
    else:
        held.write_text("elsewhere.example 1 0\n")
        old = time.time() - locks.STALE_AGE - 60
        os.utime(held, (old, old))
    with locks.exclusive(fd, path):
        assert held.read_text().split()[1] == str(os.getpid())
    assert not held.exists()
    os.close(fd)


@pytest.mark.usefixtures("no_flock")
def test_a_held_file_of_another_host_is_waited_for_while_it_is_young(tmp_path: Path) -> None:
    """A holder on another host cannot be asked whether it runs: its file is waited for,
    until it is older than STALE_AGE."""
    held = tmp_path / "lock.held"
    held.write_text("elsewhere.example 1 0\n")
    assert locks._stale(held) is False
    old = time.time() - locks.STALE_AGE - 1
    os.utime(held, (old, old))
    assert locks._stale(held) is True


@pytest.mark.usefixtures("no_flock")
def test_an_admission_lands_where_the_file_system_takes_no_flock(memory: Path) -> None:
    """The admission's turn was an flock only: ENOLCK ended `gitmem admit` with a traceback."""
    out = ok(run(memory, *PROPOSAL))
    entry_id = out.output.split()[1]
    ok(run(memory, "admit", entry_id))
    assert f"entries/method/{entry_id}.md" in git(memory, "ls-tree", "-r", "--name-only", "main")
    assert not list((memory / ".git").glob("*.held"))


def test_the_recall_cache_is_kept_where_the_file_system_takes_no_flock(
    memory: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cache's writer took an flock only: ENOLCK set the cache aside, rebuilt it from
    every entry and saved nothing, at every recall."""
    out = ok(run(memory, *PROPOSAL))
    ok(run(memory, "admit", out.output.split()[1]))
    cache = memory / ".git" / "gitmem" / "recall"
    if cache.exists():  # the admission's own warm-up, which took the flock: start cold
        shutil.rmtree(cache)
    monkeypatch.setattr(fcntl, "flock", _refused)
    first = ok(run(memory, "recall", "writing a hook")).output
    states = list(cache.rglob("state.json"))
    assert states, sorted(str(p.relative_to(memory)) for p in cache.rglob("*"))
    saved = states[0].stat().st_mtime_ns
    assert ok(run(memory, "recall", "writing a hook")).output == first
    assert states[0].stat().st_mtime_ns == saved, "rebuilt and saved again"
    assert not list(cache.parent.glob("recall.broken-*")), "set aside"
    assert not list(cache.rglob("*.held"))
