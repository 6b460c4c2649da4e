"""Work split with a forked child: the child really does the second half, and its failure
costs only time."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gitmem import parallel as forked


def _where(items: list[int]) -> Iterator[tuple[int, int]]:
    for item in items:
        yield item, os.getpid()


def test_the_child_works_through_the_second_half() -> None:
    results = list(forked.in_two(list(range(10)), _where, minimum=4))
    assert [item for item, _ in results] == list(range(10))
    here = os.getpid()
    assert {pid for _, pid in results[:5]} == {here}
    assert len({pid for _, pid in results[5:]}) == 1 and results[5][1] != here
    assert {pid for _, pid in forked.in_two(list(range(3)), _where, minimum=4)} == {here}


def test_a_failing_child_leaves_its_half_to_this_process() -> None:
    here = os.getpid()

    def failing_in_child(items: list[int]) -> Iterator[tuple[int, int]]:
        if os.getpid() != here:
            raise RuntimeError("the child fails")
        return _where(items)

    results = list(forked.in_two(list(range(10)), failing_in_child, minimum=4))
    assert results == [(item, here) for item in range(10)]


def test_without_a_fork_all_is_done_here(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_fork() -> int:
        raise OSError("Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", no_fork)
    here = os.getpid()
    assert list(forked.in_two(list(range(10)), _where, minimum=4)) == [
        (item, here) for item in range(10)
    ]


# -- the rule ----------------------------------------------------------------------------------


def test_the_switch_and_running_threads_keep_the_work_here(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import threading

    here = os.getpid()
    assert forked.forks_allowed()
    for off in ("0", "false", "OFF", "no"):
        monkeypatch.setenv(forked.SWITCH, off)
        assert not forked.forks_allowed()
        assert {pid for _, pid in forked.in_two(list(range(10)), _where, minimum=4)} == {here}
    monkeypatch.setenv(forked.SWITCH, "1")
    assert forked.forks_allowed()
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert not forked.forks_allowed()  # a fork would copy the other thread's locks
        worker: forked.Worker[int, tuple[int, int]] = forked.Worker(lambda b: list(_where(b)))
        assert not worker.parallel
        worker.send([1, 2])
        assert worker.results() == [(1, here), (2, here)]
    finally:
        release.set()
        other.join()


# -- the worker ----------------------------------------------------------------------------------


def test_a_worker_works_every_batch_in_another_process_in_order() -> None:
    here = os.getpid()
    worker: forked.Worker[int, tuple[int, int]] = forked.Worker(lambda b: list(_where(b)))
    assert worker.parallel
    for start in range(0, 3000, 7):  # 429 batches, sent while the child works
        worker.send(list(range(start, min(start + 7, 3000))))
    results = worker.results()
    assert [item for item, _ in results] == list(range(3000))
    assert len({pid for _, pid in results}) == 1 and results[0][1] != here
    assert not worker.parallel and worker.results() == []


def test_a_failing_worker_leaves_its_batches_to_this_process() -> None:
    here = os.getpid()

    def failing_in_child(items: list[int]) -> list[tuple[int, int]]:
        if os.getpid() != here:
            raise RuntimeError("the child fails")
        return list(_where(items))

    worker: forked.Worker[int, tuple[int, int]] = forked.Worker(failing_in_child)
    assert worker.parallel
    worker.send([1, 2])
    worker.send([3])
    assert worker.results() == [(1, here), (2, here), (3, here)]


def test_a_worker_without_a_fork_works_here(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_fork() -> int:
        raise OSError("Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", no_fork)
    here = os.getpid()
    worker: forked.Worker[int, tuple[int, int]] = forked.Worker(lambda b: list(_where(b)))
    assert not worker.parallel
    worker.send([5])
    assert worker.results() == [(5, here)]


#: A process whose forked child writes its pid, then works slowly; the test kills the parent.
ORPHANED = """
import os, sys, time
from gitmem import parallel

def work(items):
    if items[0] >= 50:  # the child's half
        with open(sys.argv[1], "w") as out:
            out.write(str(os.getpid()))
    for item in items:
        time.sleep(0.2)
        yield item

list(parallel.in_two(list(range(100)), work, minimum=2))
"""


@pytest.mark.skipif(sys.platform != "linux", reason="forks are Linux's only")
def test_a_child_ends_when_its_parent_is_killed(tmp_path: Path) -> None:
    """A `kill -9` of a recall in its first build left its forked child embedding half the
    entries for nobody, at full CPU, until it was done."""
    pid_file = tmp_path / "child.pid"
    parent = subprocess.Popen([sys.executable, "-c", ORPHANED, str(pid_file)], cwd=tmp_path)
    try:
        deadline = time.monotonic() + 30
        while not pid_file.exists() or not pid_file.read_text():
            assert time.monotonic() < deadline, "the child never started"
            time.sleep(0.05)
        child = int(pid_file.read_text())
    finally:
        parent.kill()
        parent.wait()
    deadline = time.monotonic() + 5  # its work would take ten seconds more
    while Path(f"/proc/{child}").exists() and "Z" not in _state(child):
        assert time.monotonic() < deadline, "the child outlived its parent"
        time.sleep(0.05)


def _state(pid: int) -> str:
    """A process's state letter (Z: a zombie, ended and waiting to be reaped)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return "Z"
