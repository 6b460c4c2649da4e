"""Shared fixtures: real repositories in temporary folders, isolated from the user's own setup.

Every test runs with a blank global and system git config, a fixed author and committer, no
GITMEM_* variables, a HOME that cannot be written (it lies below a regular file), so a test
that touches the real $HOME fails instead of passing by accident, and a TMPDIR of its own, so
that what gitmem's processes leave in the temporary folder (the agent hook's log of a bad
payload, say) stays with the test session instead of the machine's /tmp.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pygit2
import pytest
from clirunner import run
from hypothesis import settings

AUTHOR = ("Test Author", "author@example.com")

# The property tests draw the same examples on every run of `make test`: a commit whose suite
# passed passes again on a fresh machine, instead of failing there on a case the run before
# never drew (a full run did draw a new markdown case once, and it was a real defect: that is
# what exploring is for, on demand). GITMEM_HYPOTHESIS=thorough draws afresh each run, with
# more examples where a test asks for them. Loaded here, before any test module's @settings
# takes the profile's values as its own defaults.
settings.register_profile("repeatable", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)
settings.load_profile(
    "explore" if os.environ.get("GITMEM_HYPOTHESIS") == "thorough" else "repeatable"
)


#: The test files that take longest, slowest first, in seconds of one worker's time (`pytest
#: --durations=0` over the whole suite, setup, call and teardown summed by file; measured at
#: commit e1841af under Debian 12's CPython, which CI takes). They are handed out first; the
#: rest follow in the order pytest collects them. By default pytest-xdist hands out the files
#: with the most tests first, which left the few-but-slow ones (the demo, a killed update's
#: every write) for the end, one worker running them while the other idled.
HEAVIEST_FIRST = (
    "tests/hooks/test_github.py",  # 130
    "tests/gate/test_attacks.py",  # 118
    "tests/agents/test_agent_hook.py",  # 59
    "tests/gate/test_history_edges.py",  # 52
    "tests/gate/test_secrets.py",  # 46
    "tests/recall/test_semantic.py",  # 46
    "tests/recall/test_killed_update.py",  # 41
    "tests/agents/test_memory.py",  # 39
    "tests/recall/test_cache_model.py",  # 35 to 45, measured alone when it was added
    "tests/gate/test_history.py",  # 31
    "tests/recall/test_service.py",  # 29
    "tests/agents/test_mcp_server.py",  # 26
    "tests/hooks/test_precommit_framework.py",  # 22
    "tests/gate/test_history_model.py",  # 22
    "tests/lifecycle/test_recovery.py",  # 19
    "tests/site/test_build.py",  # 16
    "tests/test_demo.py",  # 15
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slowest files first (HEAVIEST_FIRST; the Makefile keeps pytest-xdist from
    reordering them), each file's tests in their own order."""
    rank = {name: place for place, name in enumerate(HEAVIEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))


def isolation(base: Path) -> dict[str, str]:
    """The variables every test runs with, made under base: an unwritable HOME (below a
    regular file), blank git config, a fixed author, a temporary folder of its own, a git
    template without sample hooks, and the gitmem beside this interpreter first on PATH, so
    hooks and subprocesses find it."""
    blocker = base / "not-a-dir"
    blocker.write_text("HOME lives below a file: nothing can be written there\n")
    config = base / "config"
    config.mkdir()
    temporary = base / "tmp"
    temporary.mkdir()
    # git's own template wrote fifteen files (sample hooks, a description) into every
    # repository the suite made, and nothing reads them: empty hooks and info folders stay
    template = base / "git-template"
    (template / "hooks").mkdir(parents=True)
    (template / "info").mkdir()
    return {
        "HOME": str(blocker / "home"),
        "TMPDIR": str(temporary),
        "XDG_CONFIG_HOME": str(config),
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": AUTHOR[0],
        "GIT_AUTHOR_EMAIL": AUTHOR[1],
        "GIT_COMMITTER_NAME": AUTHOR[0],
        "GIT_COMMITTER_EMAIL": AUTHOR[1],
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_TEMPLATE_DIR": str(template),
        "EDITOR": "false",
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
    }


@contextlib.contextmanager
def isolated(base: Path) -> Iterator[Path]:
    """The isolation every test runs in (see isolation), for as long as the block lasts; a
    fixture wider than one test (a browser, a site built once) takes it too."""
    saved = dict(os.environ)
    for key in list(os.environ):
        if key.startswith(("GITMEM_", "GIT_")):
            del os.environ[key]
    os.environ.update(isolation(base))
    levels = (
        pygit2.enums.ConfigLevel.GLOBAL,
        pygit2.enums.ConfigLevel.XDG,
        pygit2.enums.ConfigLevel.SYSTEM,
    )
    paths = {level: pygit2.settings.search_path[level] for level in levels}
    for level in levels:
        pygit2.settings.search_path[level] = str(base / "no-git-config")
    try:
        yield base / "config"
    finally:
        os.environ.clear()
        os.environ.update(saved)
        for level, path in paths.items():
            pygit2.settings.search_path[level] = path


@pytest.fixture(autouse=True)
def isolated_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with isolated(tmp_path_factory.mktemp("env")) as config:
        yield config


@pytest.fixture(autouse=True)
def seeded_samples(request: pytest.FixtureRequest) -> None:
    """The fake secrets a test draws at run time (secret_samples.rnd) depend on the test
    alone, not on which tests ran before it in the same worker: some 2% of random blobs fall
    under the scanner's entropy threshold, so an order-dependent draw failed now and then."""
    samples = sys.modules.get("secret_samples")
    if samples is not None:
        samples._rng.seed(request.node.nodeid)


def child_processes() -> list[str]:
    """The command names of this process's children, dead or alive (from /proc, Linux): a
    test that must leave no process behind asserts on it."""
    me = str(os.getpid())
    names = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue  # it ended meanwhile
        name, rest = text[text.index("(") + 1 : text.rindex(")")], text[text.rindex(")") + 2 :]
        if rest.split()[1] == me:
            names.append(name)
    return names


def git(cwd: Path, *args: str, check: bool = True, input: str | None = None) -> str:
    """Run the real git CLI in cwd and return its standard output."""
    done = subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, input=input, check=False
    )
    if check and done.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {done.stderr}{done.stdout}")
    return done.stdout


@contextlib.contextmanager
def read_only(folder: Path, but: Path | None = None) -> Iterator[list[str]]:
    """While the block lasts, the prefix of a command line that runs with folder read-only
    (all of it, or all but the folder `but` inside it).

    As a user, chmod does it (no folder below it writable; the prefix is empty). root writes
    whatever the permissions say, so as root the prefix bind-mounts folder read-only in a
    mount namespace of that one command's own (`unshare -m`); where root cannot do that
    either (a container without CAP_SYS_ADMIN), the test is skipped, saying why."""
    if os.geteuid() != 0:
        folders = [folder, *(p for p in folder.rglob("*") if p.is_dir())]
        if but is not None:
            folders = [p for p in folders if p != but and but not in p.parents]
        modes = {p: p.stat().st_mode for p in folders}
        for path, mode in modes.items():
            path.chmod(mode & ~0o222)
        try:
            yield []
        finally:
            for path, mode in modes.items():
                path.chmod(mode)
        return
    # `but` gets a writable mount of its own first, which --rbind carries along and the
    # read-only remount of the folder's own mount leaves as it is
    keep = 'mount --bind "$1" "$1" && ' if but is not None else ""
    script = f'{keep}mount --rbind "$0" "$0" && mount -o remount,bind,ro "$0" && shift && exec "$@"'
    prefix = ["unshare", "-m", "sh", "-c", script, str(folder), str(but or folder)]
    try:
        probe = subprocess.run(
            [*prefix, "sh", "-c", '! touch "$0/probe" 2>/dev/null', str(folder)],
            capture_output=True,
            text=True,
        )
    except OSError as exc:
        pytest.skip(f"running as root, and unshare is missing ({exc}): no read-only folder")
    (folder / "probe").unlink(missing_ok=True)
    if probe.returncode != 0:
        pytest.skip(
            "running as root, and a read-only bind mount in a mount namespace of its own "
            f"is refused here ({probe.stderr.strip() or 'the folder stayed writable'}): "
            "root writes through permissions, so no read-only folder"
        )
    yield prefix


@contextlib.contextmanager
def fed_fifo(path: Path, data: bytes) -> Iterator[None]:
    """While the block lasts, path is a FIFO that gives data, then its end, to the first
    process that opens it for reading and waits for it: a reader that opens it like a file
    reads data (where without this it would wait for a writer forever), so a test sees
    whether the code read it without any wait of its own. On leaving, a writer still
    waiting is released by a reader this holds open while it joins it (data must fit a
    pipe's buffer, and path must still be the FIFO: replace it after the block)."""
    path.unlink(missing_ok=True)
    os.mkfifo(path)

    def feed() -> None:
        try:
            with open(path, "wb") as pipe:  # waits until a reader opens it
                pipe.write(data)
        except OSError:
            pass  # the reader had gone (it never read): nothing to feed

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    try:
        yield
    finally:
        holder = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        try:
            feeder.join()
        finally:
            os.close(holder)


def run_gitmem(
    cwd: Path, *args: str, prefix: list[str] | None = None
) -> subprocess.CompletedProcess[str]:
    """gitmem in a process of its own (this interpreter's), run in cwd."""
    return subprocess.run(
        [*(prefix or []), sys.executable, "-m", "gitmem", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
    )


#: gitmem's command line, killed (SIGKILL) as it renames the temporary file of the file named
#: by argv[1] into place (atomic_write): the temporary written whole, not renamed yet.
KILLED_AT_RENAME = """
import os, signal, sys

name = sys.argv.pop(1)


def on_event(event, args):
    if event == "os.rename":
        source = os.path.basename(os.fsdecode(args[0]))
        if source.startswith(f".{name}.") and source.endswith(".tmp"):
            os.kill(os.getpid(), signal.SIGKILL)


sys.addaudithook(on_event)
from gitmem.launcher import main

main()
"""


def killed_at_rename(repo: Path, name: str, *args: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", KILLED_AT_RENAME, name, *args],
        cwd=repo, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == -9, (name, done.stdout, done.stderr)


def killed_at_fault(repo: Path, point: str, *args: str) -> None:
    """gitmem's command line (args) in a process of its own, killed (SIGKILL) at the named
    point of gitmem.lifecycle.writing's FAULT_ENV."""
    from gitmem.lifecycle.writing import FAULT_ENV

    env = {**os.environ, FAULT_ENV: point}
    done = subprocess.run(
        [sys.executable, "-m", "gitmem", *args], cwd=repo, env=env, capture_output=True, text=True
    )
    assert done.returncode == -9, (point, done.stdout, done.stderr)


def new_repo(path: Path) -> Path:
    """A non-bare repository at path on branch main with one commit holding a README."""
    git(path.parent, "init", "-q", "-b", "main", str(path))
    (path / "README.md").write_text("# project\n")
    git(path, "add", "README.md")
    git(path, "commit", "-q", "-m", "initial")
    return path


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A non-bare repository on branch main with one commit holding a README (new_repo)."""
    return new_repo(tmp_path / "work")


def set_up_memory(repo: Path) -> Path:
    """repo with `gitmem init` run and committed: the `memory` fixture's repository."""
    result = run(repo, "init")
    assert result.exit_code == 0, result.output
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "gitmem init")
    return repo


@pytest.fixture
def memory(repo: Path) -> Path:
    return set_up_memory(repo)
