"""`gitmem hooks install|uninstall` run by a user who may not write where a hook goes.

Both commands decide everything before they write, and a hooks folder (or a hook in it) the
user cannot write is refused up front: exit 2, the folder or file named with what to do,
nothing on disk changed, no traceback. root writes anywhere, so under root these tests run
the real command line as an unprivileged user (uid and gid 65534) in a folder of their own
that this user can reach, with its own HOME; as a user, chmod makes the folders read-only.
"""

from __future__ import annotations

import functools
import os
import shutil
import stat
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import gitmem
from gitmem.hooks.installer import CHAINED_SUFFIX, CLIENT_HOOKS, is_gitmem_hook

from conftest import git, new_repo

AS_ROOT = os.geteuid() == 0
#: Who runs the command under root: the conventional `nobody`, owner of nothing here.
OTHER = 65534

HOOK = b"#!/bin/sh\necho mine\n"


def _reachable(folder: Path) -> bool:
    """Whether every user may pass through folder and each folder above it."""
    return all(os.stat(p).st_mode & stat.S_IXOTH for p in (folder, *folder.parents))


@functools.cache
def _interpreter() -> tuple[str, str] | None:
    """A Python that the other user can run with this gitmem installed and its libraries
    (PYTHONPATH), and that PYTHONPATH: this interpreter, else one of the same version on
    PATH (a virtual environment's interpreter may be a link into a folder private to root);
    None when there is none."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    installed = str(Path(gitmem.__file__).parent.parent)  # with the libraries it needs
    libraries = (sysconfig.get_paths()[k] for k in ("purelib", "platlib"))
    given = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    paths = os.pathsep.join(dict.fromkeys(filter(None, (installed, *libraries, *given))))
    same = tuple(sys.version_info[:2])
    probe = f"import sys; assert sys.version_info[:2] == {same}; import gitmem.cli.main, pygit2"
    folders = os.environ.get("PATH", "").split(os.pathsep)
    found = (shutil.which(name, path=folder) for name in (version, "python3") for folder in folders)
    for candidate in dict.fromkeys((sys.executable, *filter(None, found))):
        try:
            done = subprocess.run(
                [candidate, "-c", probe],
                env={**os.environ, "PYTHONPATH": paths},
                cwd="/",
                capture_output=True,
                check=False,
                **({"user": OTHER, "group": OTHER, "extra_groups": []} if AS_ROOT else {}),
            )
        except OSError:  # not even started: a path this user may not pass through
            continue
        if done.returncode == 0:
            return candidate, paths
    return None


@dataclass
class Unprivileged:
    """A user who may not write everywhere, and a folder (base) this user can reach."""

    base: Path
    env: dict[str, str]
    python: str

    def run(self, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
        """The real `gitmem ARGS` run in cwd as this user."""
        return subprocess.run(
            [self.python, "-m", "gitmem", *args],
            cwd=cwd,
            env=self.env,
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
            **({"user": OTHER, "group": OTHER, "extra_groups": []} if AS_ROOT else {}),
        )

    def own(self, path: Path) -> None:
        """Give path and everything below it to this user (under root; a user owns it)."""
        if AS_ROOT:
            for p in (path, *path.rglob("*")):
                os.lchown(p, OTHER, OTHER)

    def lock(self, path: Path, mode: int) -> None:
        """Make path another's (root's, under root) with mode, and check that a mode that
        denies its owner writing holds this user back: a test that cannot hold the user back
        is skipped, never passed."""
        if AS_ROOT:
            os.lchown(path, 0, 0)
        path.chmod(mode)
        if not AS_ROOT and not mode & 0o200 and os.access(path, os.W_OK):
            pytest.skip(f"{path} stays writable with mode {mode:o}: no unwritable folder here")


@pytest.fixture
def user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Unprivileged]:
    found = _interpreter()
    if found is None:
        pytest.skip("no Python with this gitmem installed that an unprivileged user can run")
    python, paths = found
    parent = next(p for p in (tmp_path, *tmp_path.parents) if _reachable(p))
    base = Path(tempfile.mkdtemp(prefix="gitmem-perm-", dir=parent))
    base.chmod(0o755)
    home = base / "home"
    (home / "tmp").mkdir(parents=True)
    # the repository is the other user's, and this process runs git in it too
    config = home / ".gitconfig"
    config.write_text("[safe]\n\tdirectory = *\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    env = {
        **os.environ,
        "HOME": str(home),
        "TMPDIR": str(home / "tmp"),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_STATE_HOME": str(home / "state"),
        "PYTHONPATH": paths,
    }
    unprivileged = Unprivileged(base, env, python)
    unprivileged.own(home)
    try:
        yield unprivileged
    finally:
        for p in (base, *base.rglob("*")):
            if p.is_dir() and not p.is_symlink():
                p.chmod(0o755)
        shutil.rmtree(base)


@pytest.fixture
def work(user: Unprivileged) -> Path:
    """A repository of the user's own, with an (empty) hooks folder."""
    repo = new_repo(user.base / "work")
    (repo / ".git" / "hooks").mkdir(exist_ok=True)
    user.own(repo)
    return repo


Snapshot = dict[str, tuple[int, int, int, int]]


def snapshot(*folders: Path) -> Snapshot:
    """Every file under folders by what any change alters (inode, size, mode, mtime), read
    without opening any (some are unreadable on purpose)."""
    shot: Snapshot = {}
    for folder in folders:
        for p in (folder, *folder.rglob("*")) if folder.exists() else ():
            st = p.lstat()
            shot[str(p)] = (st.st_ino, st.st_size, st.st_mode, st.st_mtime_ns)
    return shot


def refused(done: subprocess.CompletedProcess[str], *said: str) -> str:
    """The standard error of a refusal, checked: exit 2, no traceback, each of said in it."""
    err = " ".join(done.stderr.split())
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and "unexpected" not in err, done.stderr
    for part in said:
        assert part in err, done.stderr
    return err


def write_hook(path: Path, data: bytes = HOOK) -> None:
    path.write_bytes(data)
    path.chmod(0o755)


# -- the hooks folder ------------------------------------------------------------------------


def test_install_refuses_a_hooks_folder_it_cannot_write(user: Unprivileged, work: Path) -> None:
    folder = work / ".git" / "hooks"
    write_hook(folder / "pre-push")
    user.own(folder / "pre-push")
    user.lock(folder, 0o555)
    before = snapshot(work / ".git")
    done = user.run(work, "hooks", "install")
    refused(done, f"nothing was installed: {folder} is not writable for you", "install again")
    assert snapshot(work / ".git") == before


def test_install_refuses_a_core_hooks_path_it_cannot_write(user: Unprivileged, work: Path) -> None:
    shared = user.base / "team-hooks"
    shared.mkdir()
    user.lock(shared, 0o555)
    git(work, "config", "core.hooksPath", str(shared))
    before = snapshot(work / ".git", shared)
    done = user.run(work, "hooks", "install")
    refused(done, f"nothing was installed: {shared} is not writable for you", "install again")
    assert snapshot(work / ".git", shared) == before


def test_install_refuses_a_core_hooks_path_it_cannot_create(user: Unprivileged, work: Path) -> None:
    """core.hooksPath names a folder still to be made, in one the user cannot write: the
    install stopped at its first write ("installing ... stopped", "run it again to finish")
    where nothing was to finish; it is refused up front, naming the folder and what to do."""
    locked = user.base / "locked"
    locked.mkdir()
    user.lock(locked, 0o555)
    folder = locked / "hooks"
    git(work, "config", "core.hooksPath", str(folder))
    before = snapshot(work / ".git", locked)
    done = user.run(work, "hooks", "install")
    refused(
        done,
        f"nothing was installed: {folder} does not exist and {locked}, where it would be "
        f"made, is not writable for you: create {folder} (or point core.hooksPath "
        "elsewhere) and install again",
    )
    assert snapshot(work / ".git", locked) == before


def test_uninstall_refuses_a_hooks_folder_it_cannot_write(user: Unprivileged, work: Path) -> None:
    folder = work / ".git" / "hooks"
    write_hook(folder / "post-merge")
    user.own(folder)
    assert user.run(work, "hooks", "install").returncode == 0
    user.lock(folder, 0o555)
    before = snapshot(work / ".git")
    done = user.run(work, "hooks", "uninstall")
    refused(done, f"nothing was uninstalled: {folder} is not writable for you", "uninstall again")
    assert snapshot(work / ".git") == before
    assert all(is_gitmem_hook(folder / name) for name in CLIENT_HOOKS)
    assert (folder / f"post-merge{CHAINED_SUFFIX}").read_bytes() == HOOK


def test_init_with_hooks_refuses_before_it_writes_the_memory_folder(
    user: Unprivileged, work: Path
) -> None:
    """`gitmem init --hooks` made the memory folder and settings, then the hooks were refused
    ("nothing was installed") with those files left behind: the hooks are now checked before
    init writes anything."""
    folder = work / ".git" / "hooks"
    user.lock(folder, 0o555)
    before = snapshot(work)
    done = user.run(work, "init", "--hooks")
    refused(done, f"nothing was installed: {folder} is not writable for you", "install again")
    assert snapshot(work) == before
    assert git(work, "status", "--short", "--ignored") == ""


# -- a hook in the folder --------------------------------------------------------------------


def test_install_refuses_a_hook_it_cannot_read(user: Unprivileged, work: Path) -> None:
    """A hook the user cannot read may be gitmem's own (installed by its owner) or anyone's:
    it was taken for a foreign hook and chained, gitmem's script running gitmem's script.
    install now refuses it up front, naming the file."""
    folder = work / ".git" / "hooks"
    hook = folder / "post-rewrite"
    write_hook(hook)
    user.lock(hook, 0o311)  # runnable, not readable
    if not AS_ROOT and os.access(hook, os.R_OK):
        pytest.skip(f"{hook} stays readable with mode 311")
    before = snapshot(work / ".git")
    done = user.run(work, "hooks", "install")
    refused(
        done,
        f"nothing was installed: {hook} cannot be read by you, so gitmem cannot tell whether "
        "it is its own hook or one to chain: make it readable (or run as its owner) and "
        "install again",
    )
    assert snapshot(work / ".git") == before


def test_uninstall_does_not_call_a_hook_it_cannot_read_someone_elses(
    user: Unprivileged, work: Path
) -> None:
    """A hook the user cannot read was reported "not gitmem's, left alone": uninstall said
    so of a gitmem script its owner installed, which stays. It now says it cannot tell."""
    folder = work / ".git" / "hooks"
    user.own(folder)
    assert user.run(work, "hooks", "install").returncode == 0
    hook = folder / "post-merge"
    user.lock(hook, 0o311)
    if not AS_ROOT and os.access(hook, os.R_OK):
        pytest.skip(f"{hook} stays readable with mode 311")
    done = user.run(work, "hooks", "uninstall")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "post-merge: cannot be read by you, left alone (gitmem cannot tell whether" in (
        done.stdout
    )
    assert "not gitmem's" not in done.stdout
    hook.chmod(0o755)  # to look, as the test
    assert is_gitmem_hook(hook) and not (folder / "pre-commit").exists()


def test_a_hook_the_user_may_not_write_is_chained_and_put_back_all_the_same(
    user: Unprivileged, work: Path
) -> None:
    """Chaining renames a hook, which its folder allows: a hook the user may not write (or,
    under root, another user's) in the user's own hooks folder is no reason to refuse."""
    folder = work / ".git" / "hooks"
    hook = folder / "pre-push"
    write_hook(hook)
    user.lock(hook, 0o555)
    done = user.run(work, "hooks", "install")
    assert done.returncode == 0, done.stdout + done.stderr
    chained = folder / f"pre-push{CHAINED_SUFFIX}"
    assert is_gitmem_hook(hook) and chained.read_bytes() == HOOK
    done = user.run(work, "hooks", "uninstall")
    assert done.returncode == 0, done.stdout + done.stderr
    assert hook.read_bytes() == HOOK and stat.S_IMODE(hook.stat().st_mode) == 0o555
    assert not chained.exists() and not (folder / "pre-commit").exists()


def _sticky(user: Unprivileged, folder: Path) -> None:
    """folder as the system's temporary folder is: root's, anyone may write, only a file's
    owner may replace it."""
    user.lock(folder, 0o1777)


#: A file of another user's for this user to meet: only root makes one.
needs_root = pytest.mark.skipif(not AS_ROOT, reason="only root gives a file to another user")


@needs_root
def test_install_refuses_a_hook_it_may_not_replace_in_a_sticky_folder(
    user: Unprivileged, work: Path
) -> None:
    """In a hooks folder with the sticky bit, another user's hook cannot be renamed or
    replaced, though the folder is writable: the check passed and the install stopped at
    that hook with the ones before it installed. It is refused up front, nothing written."""
    folder = work / ".git" / "hooks"
    hook = folder / "post-rewrite"
    write_hook(hook)
    _sticky(user, folder)
    before = snapshot(work / ".git")
    done = user.run(work, "hooks", "install")
    refused(
        done,
        f"nothing was installed: {hook} is another user's, in a folder where only its owner "
        "may replace or remove it (the sticky bit): ask them to move it away (or point "
        "core.hooksPath elsewhere) and install again",
    )
    assert snapshot(work / ".git") == before


@needs_root
def test_install_again_in_a_sticky_folder_leaves_another_user_s_same_hooks_alone(
    user: Unprivileged, work: Path
) -> None:
    """gitmem's hooks, as this user would write them, installed by another user in a shared
    folder with the sticky bit: install again has nothing to write ("already installed"),
    but the up-front check took every one for a file to replace and refused the install,
    telling the user to ask the other to move gitmem's own hooks away."""
    folder = work / ".git" / "hooks"
    user.own(folder)
    assert user.run(work, "hooks", "install").returncode == 0
    for name in CLIENT_HOOKS:
        os.lchown(folder / name, 0, 0)
    _sticky(user, folder)
    before = snapshot(folder)
    done = user.run(work, "hooks", "install")
    assert done.returncode == 0, done.stdout + done.stderr
    assert all(f"{name}: already installed" in done.stdout for name in CLIENT_HOOKS), done.stdout
    assert snapshot(folder) == before


@needs_root
def test_uninstall_refuses_a_hook_it_may_not_put_back_in_a_sticky_folder(
    user: Unprivileged, work: Path
) -> None:
    """The chained hook, another user's in a folder with the sticky bit, cannot be renamed
    back: uninstall stopped there with the hooks before it removed. It is refused up front."""
    folder = work / ".git" / "hooks"
    write_hook(folder / "post-rewrite")
    user.own(folder)
    assert user.run(work, "hooks", "install").returncode == 0
    chained = folder / f"post-rewrite{CHAINED_SUFFIX}"
    os.lchown(chained, 0, 0)
    _sticky(user, folder)
    before = snapshot(work / ".git")
    done = user.run(work, "hooks", "uninstall")
    refused(done, f"nothing was uninstalled: {chained} is another user's", "uninstall again")
    assert snapshot(work / ".git") == before
    assert all(is_gitmem_hook(folder / name) for name in CLIENT_HOOKS)


# -- the repository's git config -------------------------------------------------------------


@pytest.fixture
def own_hooks(user: Unprivileged, work: Path) -> Path:
    """A hooks folder of the user's own (core.hooksPath) for work."""
    hooks = user.base / "my-hooks"
    hooks.mkdir()
    user.own(hooks)
    git(work, "config", "core.hooksPath", str(hooks))
    return hooks


def test_install_refuses_a_git_config_it_cannot_write(
    user: Unprivileged, work: Path, own_hooks: Path
) -> None:
    """The hooks folder is the user's but the git directory, where the repository's config
    lives, is not writable: install wrote every hook, then stopped ("every hook is
    installed, but not the INDEX.md merge driver"). It now refuses before it writes."""
    gitdir = work / ".git"
    user.lock(gitdir, 0o555)
    before = snapshot(gitdir, own_hooks)
    done = user.run(work, "hooks", "install")
    refused(
        done,
        f"nothing was installed: {gitdir} is not writable for you, and the repository's git "
        "config, which install changes, is kept there: make it writable (or run as its "
        "owner) and install again",
    )
    assert snapshot(gitdir, own_hooks) == before


def test_uninstall_refuses_a_git_config_it_cannot_write(
    user: Unprivileged, work: Path, own_hooks: Path
) -> None:
    """As install: uninstall removed every hook, then stopped on the merge driver."""
    assert user.run(work, "hooks", "install").returncode == 0
    gitdir = work / ".git"
    user.lock(gitdir, 0o555)
    before = snapshot(gitdir, own_hooks)
    done = user.run(work, "hooks", "uninstall")
    refused(done, f"nothing was uninstalled: {gitdir} is not writable for you", "uninstall again")
    assert snapshot(gitdir, own_hooks) == before
    assert all(is_gitmem_hook(own_hooks / name) for name in CLIENT_HOOKS)


def test_server_install_again_needs_no_git_directory_it_cannot_write(
    user: Unprivileged,
) -> None:
    """A second `--server` install that changes nothing (the hook installed as it is, the
    config holding the policy, the object checks and the mode already) writes nothing in the
    git directory, so one the user cannot write is no reason to refuse it: it was refused
    (exit 2), while the plain install, its merge driver configured, went ahead. A change of
    mode still needs the config written, and is refused."""
    server = user.base / "server.git"
    git(user.base, "init", "-q", "--bare", str(server))
    (server / "hooks").mkdir(exist_ok=True)
    user.own(server)
    assert user.run(server, "hooks", "install", "--server").returncode == 0
    user.lock(server, 0o555)  # its hooks folder stays the user's
    before = snapshot(server)
    done = user.run(server, "hooks", "install", "--server")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1:] == [
        "pre-receive: already installed",
        "policy (git config gitmem.*): already the defaults",
        "object checks (git config receive.fsckObjects): already on",
        "enforcement (git config gitmem.enforcement): enforce",
    ]
    assert user.run(server, "hooks", "install", "--server", "--enforce").returncode == 0
    assert snapshot(server) == before
    done = user.run(server, "hooks", "install", "--server", "--warn")
    refused(done, f"nothing was installed: {server} is not writable for you", "install again")
    assert snapshot(server) == before


def test_server_install_refuses_a_hooks_folder_it_cannot_write(user: Unprivileged) -> None:
    """`--server` goes the same way: the bare repository's hooks folder is checked before the
    hook or the policy is written."""
    server = user.base / "server.git"
    git(user.base, "init", "-q", "--bare", str(server))
    (server / "hooks").mkdir(exist_ok=True)
    user.own(server)
    folder = server / "hooks"
    user.lock(folder, 0o555)
    before = snapshot(server)
    done = user.run(server, "hooks", "install", "--server")
    refused(done, f"nothing was installed: {folder} is not writable for you", "install again")
    assert snapshot(server) == before
