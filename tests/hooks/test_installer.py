"""The hook installer and the hook scripts, in real repositories with real git commands.

Most tests put a stand-in `gitmem` first on PATH: a tiny script that records how it was called
and what it read, so they show what the hook scripts hand to gitmem (arguments, standard input,
order after a chained hook, exit codes) whatever `gitmem hook` itself does. One test runs the
real `gitmem hook pre-commit` through a real commit.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from clirunner import run

from gitmem import DISTRIBUTION
from gitmem.errors import UsageError
from gitmem.hooks.installer import (
    CHAINED_SUFFIX,
    CLIENT_HOOKS,
    MARKER,
    MERGE_DRIVER,
    SERVER_HOOKS,
    THIS_PYTHON,
    hooks_dir,
    install,
    is_gitmem_hook,
    merge_driver_config,
    script,
    uninstall,
)

from conftest import git, killed_at_rename
from entries import text

ALL_HOOKS = CLIENT_HOOKS + SERVER_HOOKS

STUB_GITMEM = """\
#!/bin/sh
echo "gitmem $*" >> "$STUB_LOG"
if [ -n "$STUB_STDIN" ]; then cat >> "$STUB_STDIN"; fi
exit "${STUB_EXIT:-0}"
"""

FOREIGN_HOOK = """\
#!/bin/sh
echo "foreign $*" >> "$STUB_LOG"
if [ -n "$FOREIGN_STDIN" ]; then cat >> "$FOREIGN_STDIN"; fi
exit "${FOREIGN_EXIT:-0}"
"""


@pytest.fixture
def stub(tmp_path: Path) -> dict[str, str]:
    """An environment whose PATH finds the stand-in gitmem first; its log path in STUB_LOG."""
    bin_dir = tmp_path / "stub-bin"
    bin_dir.mkdir()
    write_exec(bin_dir / "gitmem", STUB_GITMEM)
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(bin_dir), env["PATH"]])
    env["STUB_LOG"] = str(tmp_path / "calls.log")
    return env


def write_exec(path: Path, content: str | bytes, mode: int = 0o755) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, str):
        content = content.encode()
    path.write_bytes(content)
    path.chmod(mode)


def calls(env: dict[str, str]) -> list[str]:
    log = Path(env["STUB_LOG"])
    return log.read_text().splitlines() if log.exists() else []


def git_env(
    cwd: Path, env: dict[str, str], *args: str, input: str = ""
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", *args], cwd=cwd, env=env, input=input, capture_output=True, text=True, check=False
    )


def run_hook(
    path: Path, env: dict[str, str], *args: str, input: str = "", cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(path), *args],
        cwd=cwd or path.parent,
        env=env,
        input=input,
        capture_output=True,
        text=True,
        check=False,
    )


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {
        p.name: (p.read_bytes(), stat.S_IMODE(p.stat().st_mode))
        for p in sorted(folder.iterdir())
        if p.is_file()
    }


# -- the shipped scripts ---------------------------------------------------------------------


def test_the_scripts_in_the_tree_are_the_template_rendered() -> None:
    """gitmem/hooks/scripts/ (and so hooks/) holds exactly what the installer writes: the one
    template rendered per hook name (`make hooks` writes them again after an edit)."""
    folder = Path(__file__).resolve().parents[2] / "gitmem" / "hooks" / "scripts"
    assert sorted(p.name for p in folder.iterdir()) == sorted(ALL_HOOKS)
    for name in ALL_HOOKS:
        assert (folder / name).read_bytes() == script(name), f"run `make hooks`: {name} drifted"


def test_every_script_is_the_one_template_with_its_own_name() -> None:
    bodies = set()
    for name in ALL_HOOKS:
        lines = script(name).decode().splitlines()
        assert lines[0] == "#!/bin/sh"
        assert lines[1].startswith(MARKER.decode())
        assert f"hook={name}" in lines
        assert "install_python=''" in lines
        assert not re.search(r"@[A-Z]+@", script(name).decode())
        bodies.add("\n".join(x for x in lines if not x.startswith(("#", "hook="))))
    assert len(bodies) == 1


def test_the_recorded_interpreter_is_quoted_for_the_shell(tmp_path: Path) -> None:
    odd = tmp_path / "it's a venv" / "bin" / "python"
    lines = script("pre-commit", odd).decode().splitlines()
    head = lines[: lines.index(next(x for x in lines if x.startswith("install_package="))) + 1]
    assert "install_python='" + str(odd).replace("'", "'\\''") + "'" in lines
    done = subprocess.run(
        ["sh", "-c", "\n".join([*head, 'printf %s "$install_python"'])],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.stdout == str(odd)


def test_scripts_are_executable_in_the_package_and_in_git() -> None:
    source = Path(__file__).resolve().parents[2]
    folder = source / "gitmem" / "hooks" / "scripts"
    for name in ALL_HOOKS:
        assert os.access(folder / name, os.X_OK), name
    if not (source / ".git").exists():
        pytest.skip("not a git checkout")
    staged = git(source, "ls-files", "-s", "--", "gitmem/hooks/scripts")
    modes = {line.split("\t")[1].rsplit("/", 1)[1]: line.split()[0] for line in staged.splitlines()}
    if not modes:
        pytest.skip("the hook scripts are not committed in this checkout yet")
    assert modes == dict.fromkeys(ALL_HOOKS, "100755")
    assert (source / "hooks").resolve() == folder.resolve()


def test_scripts_parse_as_posix_sh() -> None:
    sh = shutil.which("dash") or shutil.which("sh")
    assert sh
    for name in ALL_HOOKS:
        done = subprocess.run([sh, "-n", "-c", script(name).decode()], capture_output=True)
        assert done.returncode == 0, (name, done.stderr)


def test_unknown_hook_name_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="unknown hook 'commit-msg'"):
        script("commit-msg")


# -- install, uninstall ------------------------------------------------------------------------


def test_install_writes_executable_marked_scripts_and_the_merge_driver(repo: Path) -> None:
    lines = install(repo)
    folder = repo / ".git" / "hooks"
    assert lines[0] == f"hooks folder: {folder}"
    assert lines[1:6] == [f"{name}: installed" for name in CLIENT_HOOKS]
    for name in CLIENT_HOOKS:
        path = folder / name
        assert path.read_bytes() == script(name, THIS_PYTHON)
        assert stat.S_IMODE(path.stat().st_mode) == 0o755
        assert is_gitmem_hook(path)
    assert not (folder / "pre-receive").exists()
    assert not list(folder.glob(".*.tmp")), "a temporary file was left behind"
    assert git(repo, "config", "merge.gitmem-index.name").strip() == (
        "gitmem INDEX.md regeneration"
    )
    driver = git(repo, "config", "merge.gitmem-index.driver").strip()
    assert (f"{MERGE_DRIVER}.driver", driver) in merge_driver_config(THIS_PYTHON)
    assert driver.endswith("; gitmem index --merge-driver %O %A %B %P")
    assert f"exec '{THIS_PYTHON}' -P -m gitmem index --merge-driver %O %A %B %P" in driver


def test_install_twice_changes_nothing(repo: Path) -> None:
    install(repo)
    folder = repo / ".git" / "hooks"
    before = snapshot(folder)
    config = (repo / ".git" / "config").read_bytes()
    lines = install(repo)
    assert lines[1:] == [f"{name}: already installed" for name in CLIENT_HOOKS] + [
        "INDEX.md merge driver (merge.gitmem-index): already configured"
    ]
    assert snapshot(folder) == before
    assert (repo / ".git" / "config").read_bytes() == config
    assert not list(folder.glob(f"*{CHAINED_SUFFIX}"))


def test_an_older_gitmem_script_is_updated_not_chained(repo: Path) -> None:
    folder = repo / ".git" / "hooks"
    write_exec(folder / "pre-commit", "#!/bin/sh\n# gitmem-managed-hook v0\nexec gitmem check\n")
    lines = install(repo)
    assert "pre-commit: updated" in lines
    assert (folder / "pre-commit").read_bytes() == script("pre-commit", THIS_PYTHON)
    assert not (folder / f"pre-commit{CHAINED_SUFFIX}").exists()


def test_uninstall_removes_only_gitmem_files_and_is_safe_twice(repo: Path) -> None:
    folder = repo / ".git" / "hooks"
    samples = snapshot(folder)
    install(repo)
    write_exec(folder / "commit-msg", "#!/bin/sh\nexit 0\n")
    lines = uninstall(repo)
    assert lines[1:] == [f"{name}: removed" for name in CLIENT_HOOKS] + [
        "INDEX.md merge driver (merge.gitmem-index): removed"
    ]
    after = snapshot(folder)
    assert after.pop("commit-msg")
    assert after == samples
    assert "gitmem-index" not in (repo / ".git" / "config").read_text()
    lines = uninstall(repo)
    assert lines[1:] == [f"{name}: not installed" for name in CLIENT_HOOKS] + [
        "INDEX.md merge driver (merge.gitmem-index): not configured"
    ]


def test_uninstall_leaves_a_hook_that_is_not_gitmems(repo: Path) -> None:
    folder = repo / ".git" / "hooks"
    write_exec(folder / "post-merge", "#!/bin/sh\necho mine\n")
    lines = uninstall(repo)
    assert "post-merge: not gitmem's, left alone" in lines
    assert (folder / "post-merge").read_text() == "#!/bin/sh\necho mine\n"


def test_a_foreign_hook_is_chained_and_restored_byte_for_byte(repo: Path) -> None:
    folder = repo / ".git" / "hooks"
    original = FOREIGN_HOOK.encode() + b"# \xff\xfe not even UTF-8\r\n"
    write_exec(folder / "pre-commit", original, mode=0o700)
    lines = install(repo)
    assert lines[1] == (
        f"pre-commit: installed; the existing hook now runs first, kept as "
        f"pre-commit{CHAINED_SUFFIX} (uninstall puts it back)"
    )
    assert (folder / f"pre-commit{CHAINED_SUFFIX}").read_bytes() == original
    assert (folder / "pre-commit").read_bytes() == script("pre-commit", THIS_PYTHON)
    assert install(repo)[1] == "pre-commit: already installed"

    lines = uninstall(repo)
    assert lines[1] == "pre-commit: removed; restored the previous hook"
    assert (folder / "pre-commit").read_bytes() == original
    assert stat.S_IMODE((folder / "pre-commit").stat().st_mode) == 0o700
    assert not (folder / f"pre-commit{CHAINED_SUFFIX}").exists()


def test_a_chained_hook_whose_gitmem_script_was_deleted_is_restored(repo: Path) -> None:
    folder = repo / ".git" / "hooks"
    write_exec(folder / "pre-push", FOREIGN_HOOK)
    install(repo)
    (folder / "pre-push").unlink()
    assert "pre-push: restored the previous hook" in uninstall(repo)
    assert (folder / "pre-push").read_text() == FOREIGN_HOOK


def test_a_symlinked_foreign_hook_is_chained_as_a_link(repo: Path, tmp_path: Path) -> None:
    folder = repo / ".git" / "hooks"
    target = tmp_path / "team-hooks" / "pre-commit"
    write_exec(target, FOREIGN_HOOK)
    (folder / "pre-commit").symlink_to(target)
    install(repo)
    assert (folder / f"pre-commit{CHAINED_SUFFIX}").readlink() == target
    uninstall(repo)
    assert (folder / "pre-commit").readlink() == target


def test_install_refuses_when_the_chained_name_is_taken_and_changes_nothing(
    repo: Path,
) -> None:
    folder = repo / ".git" / "hooks"
    write_exec(folder / "post-checkout", "#!/bin/sh\necho current\n")
    write_exec(folder / f"post-checkout{CHAINED_SUFFIX}", "#!/bin/sh\necho older\n")
    before = snapshot(folder)
    config = (repo / ".git" / "config").read_bytes()
    with pytest.raises(UsageError, match=r"post-checkout is not gitmem's and .* is taken too"):
        install(repo)
    assert snapshot(folder) == before
    assert (repo / ".git" / "config").read_bytes() == config


def test_every_refusal_is_named_at_once_as_a_usage_error_and_nothing_is_written(
    repo: Path,
) -> None:
    """Two hooks that cannot be installed, far apart in the order: both are named in one
    refusal before any hook is written, and the refusal is a setup for the user to resolve,
    exit 2 (it was exit 1, which says a rule failed)."""
    folder = repo / ".git" / "hooks"
    write_exec(folder / "pre-push", "#!/bin/sh\necho current\n")
    write_exec(folder / f"pre-push{CHAINED_SUFFIX}", "#!/bin/sh\necho older\n")
    (folder / "post-rewrite").mkdir()
    before = snapshot(folder)
    config = (repo / ".git" / "config").read_bytes()
    result = run(repo, "hooks", "install")
    assert result.exit_code == 2, result.output
    assert "nothing was installed: " in result.output
    assert f"{folder / 'pre-push'} is not gitmem's and pre-push{CHAINED_SUFFIX} is taken" in (
        result.output
    )
    assert f"{folder / 'post-rewrite'} is a folder, not a hook" in result.output
    assert snapshot(folder) == before and (folder / "post-rewrite").is_dir()
    assert (repo / ".git" / "config").read_bytes() == config


#: gitmem's command line (argv[4:]), whose call of the system named by argv[1] (os.rename, the
#: audit event of os.replace too, or os.remove, of unlink) fails with the errno named by
#: argv[3] when the file it moves or removes is named argv[2] (a prefix, for a temporary).
FAILING_AT = """
import errno, os, sys

event_name, name, code = sys.argv[1:4]
del sys.argv[1:4]


def on_event(event, args):
    if event == event_name and os.path.basename(os.fsdecode(args[0])).startswith(name):
        number = getattr(errno, code)
        raise OSError(number, os.strerror(number), os.fsdecode(args[0]))


sys.addaudithook(on_event)
from gitmem.launcher import main

main()
"""


def failing_at(repo: Path, event: str, name: str, code: str, *args: str) -> tuple[int, str]:
    """gitmem's command line args, run in repo with the system failing as FAILING_AT says;
    its exit code and its standard error on one line."""
    done = subprocess.run(
        [sys.executable, "-c", FAILING_AT, event, name, code, *args],
        cwd=repo, capture_output=True, text=True,
    )  # fmt: skip
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, " ".join(done.stderr.split())


def test_an_install_that_fails_half_way_says_what_is_installed_and_how_to_finish(
    repo: Path,
) -> None:
    """Writing the third hook fails after every check passed: the first two were installed,
    the others not, and the command ended on the system's error alone (a partial install
    that nothing named). It now says which hooks are installed, which are not, and how to
    finish or undo; each hook is whole (the user's, or gitmem's chaining it), and install
    run again finishes, uninstall puts the user's hooks back."""
    folder = repo / ".git" / "hooks"
    write_exec(folder / "pre-push", FOREIGN_HOOK)
    write_exec(folder / "post-merge", "#!/bin/sh\necho mine\n")
    # the rename of post-merge's temporary file into place fails
    code, said = failing_at(repo, "os.rename", ".post-merge.", "EPERM", "hooks", "install")
    assert code == 2 and "unexpected" not in said, said
    assert re.search(rf"{re.escape(str(folder))}/\.post-merge\.\S+: Operation not permitted", said)
    assert "installed: pre-commit, pre-push; not installed: post-merge, post-checkout, " in said
    assert "post-rewrite, nor the INDEX.md merge driver" in said
    assert "run `gitmem hooks install` again to finish, or `gitmem hooks uninstall`" in said
    assert is_gitmem_hook(folder / "pre-commit") and is_gitmem_hook(folder / "pre-push")
    assert (folder / f"pre-push{CHAINED_SUFFIX}").read_text() == FOREIGN_HOOK
    assert (folder / "post-merge").read_text() == "#!/bin/sh\necho mine\n"
    assert not (folder / "post-checkout").exists() and not list(folder.glob(".*.tmp"))
    assert git(repo, "config", "--get-regexp", "^merge\\.", check=False) == ""

    assert run(repo, "hooks", "install").exit_code == 0
    assert all(is_gitmem_hook(folder / name) for name in CLIENT_HOOKS)
    assert run(repo, "hooks", "uninstall").exit_code == 0
    assert (folder / "pre-push").read_text() == FOREIGN_HOOK
    assert (folder / "post-merge").read_text() == "#!/bin/sh\necho mine\n"


def test_an_uninstall_that_fails_half_way_says_what_it_removed_and_how_to_finish(
    repo: Path,
) -> None:
    """Putting the third hook's chained one back fails: the first two had been removed (one
    with its previous hook put back), the others not, and the command ended on the system's
    error alone, saying nothing of what it had removed, restored or left. It now says so,
    hook by hook, with the merge driver left configured, and that uninstall run again
    finishes; each hook is whole (gitmem's running the chained one, or that one back)."""
    folder = repo / ".git" / "hooks"
    write_exec(folder / "pre-push", FOREIGN_HOOK)
    write_exec(folder / "post-merge", "#!/bin/sh\necho mine\n")
    install(repo)
    chained = f"post-merge{CHAINED_SUFFIX}"
    code, said = failing_at(repo, "os.rename", chained, "EPERM", "hooks", "uninstall")
    assert code == 2, said
    assert "unexpected" not in said
    assert f"uninstalling gitmem's hooks in {folder} stopped: " in said
    assert f"{folder / chained}: Operation not permitted" in said, said
    assert (
        "removed: pre-commit, pre-push (the previous hook put back); not removed: post-merge "
        f"(the previous hook still kept as {chained}), post-checkout, post-rewrite, nor the "
        "INDEX.md merge driver. Fix the cause, then run `gitmem hooks uninstall` again to "
        "finish"
    ) in said, said
    assert not (folder / "pre-commit").exists()
    assert (folder / "pre-push").read_text() == FOREIGN_HOOK
    assert is_gitmem_hook(folder / "post-merge") and is_gitmem_hook(folder / "post-checkout")
    assert (folder / chained).read_text() == "#!/bin/sh\necho mine\n"
    assert git(repo, "config", "--get-regexp", "^merge\\.", check=False) != ""

    again = run(repo, "hooks", "uninstall")
    assert again.exit_code == 0, again.output
    assert (folder / "post-merge").read_text() == "#!/bin/sh\necho mine\n"
    assert not any(is_gitmem_hook(folder / name) for name in CLIENT_HOOKS)
    assert not (folder / chained).exists()
    assert git(repo, "config", "--get-regexp", "^merge\\.", check=False) == ""


@pytest.mark.parametrize(
    ("args", "event", "name", "account"),
    [
        (("hooks", "install"), "os.rename", ".post-merge.",
         "installed: pre-commit, pre-push; not installed: post-merge, post-checkout, "
         "post-rewrite, nor the INDEX.md merge driver"),
        (("hooks", "uninstall"), "os.remove", "post-checkout",
         "removed: pre-commit, pre-push, post-merge; not removed: post-checkout, "
         "post-rewrite, nor the INDEX.md merge driver"),
    ],
)  # fmt: skip
def test_an_io_error_half_way_is_unexpected_and_still_says_what_was_done(
    repo: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: tuple[str, ...],
    event: str,
    name: str,
    account: str,
) -> None:
    """An I/O error (EIO: a failing disk, a network file system gone) is no setup of the
    user's to fix: exit 3, unexpected, with its traceback in the log, as the command line
    reports one met anywhere else, where a stopped install said exit 2 for any error; the
    account of what was done stays."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    if args[-1] == "uninstall":
        install(repo)
    code, said = failing_at(repo, event, name, "EIO", *args)
    assert code == 3, said
    assert os.strerror(errno.EIO) in said and account in said, said
    (log,) = (tmp_path / "state" / "gitmem" / "errors").iterdir()
    assert f"(the traceback is in {log})" in said
    assert "OSError: [Errno 5]" in log.read_text()


def test_uninstall_refuses_up_front_what_it_cannot_put_back(repo: Path) -> None:
    """A chained hook that cannot go back to its name (a folder now stands there) was found
    only once the hooks before it were removed: uninstall now refuses first, exit 2, and
    removes nothing."""
    folder = repo / ".git" / "hooks"
    write_exec(folder / "post-merge", "#!/bin/sh\necho mine\n")
    install(repo)
    chained = folder / f"post-merge{CHAINED_SUFFIX}"
    chained.unlink()
    chained.mkdir()
    before = snapshot(folder)
    config = (repo / ".git" / "config").read_bytes()
    result = run(repo, "hooks", "uninstall")
    assert result.exit_code == 2, result.output
    assert f"nothing was uninstalled: {chained} is a folder, not a hook" in result.output
    assert snapshot(folder) == before and chained.is_dir()
    assert (repo / ".git" / "config").read_bytes() == config


def test_a_fifo_where_a_hook_belongs_is_named_without_waiting_on_it(repo: Path) -> None:
    """Looking for gitmem's marker, install and uninstall opened a named pipe at a hook's
    place to read it, and waited for a writer that never came: both hung for good."""
    fifo = repo / ".git" / "hooks" / "post-merge"
    fifo.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(fifo)
    for args in (["hooks", "install"], ["hooks", "uninstall"]):
        done = subprocess.run(
            [sys.executable, "-m", "gitmem", *args],
            cwd=repo,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert "Traceback" not in done.stderr and "unexpected" not in done.stderr
        if args[-1] == "install":
            assert done.returncode == 2, done.stdout + done.stderr
            assert f"{fifo} is a special file" in done.stderr
            assert not (fifo.parent / "pre-commit").exists()  # nothing was installed
        else:
            assert done.returncode == 0, done.stdout + done.stderr
            assert "post-merge: not gitmem's, left alone" in done.stdout
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def test_a_tracked_hook_is_never_renamed_but_one_calling_gitmem_is_kept(repo: Path) -> None:
    git(repo, "config", "core.hooksPath", ".githooks")
    shared = repo / ".githooks" / "pre-push"
    write_exec(shared, "#!/bin/sh\nmake lint\n")
    git(repo, "add", ".githooks")
    git(repo, "commit", "-q", "-m", "the team's hooks")
    with pytest.raises(UsageError, match=r'pre-push is tracked .* `gitmem hook pre-push "\$@"`'):
        install(repo)
    assert sorted(p.name for p in shared.parent.iterdir()) == ["pre-push"]
    assert git(repo, "status", "--porcelain") == ""

    write_exec(shared, '#!/bin/sh\nmake lint\ngitmem hook pre-push "$@"\n')
    lines = install(repo)
    assert "pre-push: left as is, it already runs `gitmem hook pre-push`" in lines
    assert shared.read_text().endswith('gitmem hook pre-push "$@"\n')
    assert (shared.parent / "pre-commit").read_bytes() == script("pre-commit")
    assert not (shared.parent / f"pre-push{CHAINED_SUFFIX}").exists()
    assert "pre-push: not gitmem's, left alone" in uninstall(repo)
    assert shared.exists()


def test_a_folder_managed_by_husky_is_refused(repo: Path) -> None:
    husky = repo / ".husky" / "_"
    write_exec(husky / "h", "#!/usr/bin/env sh\n")
    write_exec(husky / "pre-commit", '#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n')
    git(repo, "config", "core.hooksPath", ".husky/_")
    with pytest.raises(UsageError, match=r"managed by husky.* \.husky/<name>"):
        install(repo)
    assert sorted(p.name for p in husky.iterdir()) == ["h", "pre-commit"]


def test_install_outside_a_repository_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    with pytest.raises(UsageError, match="is not inside a git repository"):
        install(tmp_path / "plain")
    with pytest.raises(UsageError, match="is not a folder"):
        install(tmp_path / "missing")


@pytest.mark.parametrize("command", ["install", "uninstall"])
def test_a_git_config_git_cannot_parse_is_a_usage_error(repo: Path, command: str) -> None:
    """A broken line in .git/config stops git, and so the installer: it exited 1, the code of
    a rule refused, where the config is the user's to correct (exit 2, as every other
    command says it)."""
    config = repo / ".git" / "config"
    config.write_text(config.read_text() + "[broken\n")
    result = run(repo, "hooks", command)
    assert result.exit_code == 2, result.output
    assert "bad config line" in result.output
    assert result.output.endswith(": correct what git names, then run the command again\n")
    assert not (repo / ".git" / "hooks" / "pre-commit").exists()


# -- where the hooks go ------------------------------------------------------------------------


def test_relative_core_hooks_path_is_taken_from_the_work_tree_root(repo: Path) -> None:
    git(repo, "config", "core.hooksPath", ".githooks")
    (repo / "src").mkdir()
    install(repo / "src")
    for name in CLIENT_HOOKS:
        assert (repo / ".githooks" / name).read_bytes() == script(name)
        assert not (repo / ".git" / "hooks" / name).exists()
    assert hooks_dir(repo / "src") == repo / ".githooks"


def test_absolute_core_hooks_path_is_created_when_missing(repo: Path, tmp_path: Path) -> None:
    shared = tmp_path / "shared" / "hooks"
    git(repo, "config", "core.hooksPath", str(shared))
    install(repo)
    assert sorted(p.name for p in shared.iterdir()) == sorted(CLIENT_HOOKS)
    uninstall(repo)
    assert list(shared.iterdir()) == []


#: Where core.hooksPath leads, and whether the scripts written there travel with the
#: repository (then they record no interpreter: one machine's path means nothing on another).
HOOKS_FOLDERS = {
    "tracked, named by an absolute path": True,
    "tracked, through a link outside the work tree": True,
    "neither tracked nor ignored": True,
    "ignored, named by an absolute path": False,
    "ignored, named by a relative path": False,
    "excluded by info/exclude": False,
    "outside the work tree, ../hooks": False,
    "a link in the work tree to a folder outside": False,
}


@pytest.mark.parametrize("where", list(HOOKS_FOLDERS))
def test_a_hooks_folder_is_shared_when_what_is_written_there_travels_with_the_repository(
    repo: Path, tmp_path: Path, where: str
) -> None:
    """Any folder in the work tree was taken for one the team commits, however git treated
    it: a clone's own hooks folder in .gitignore (or info/exclude) got scripts that record no
    interpreter, which then failed in an IDE without gitmem on PATH. Where the files land
    decides it now, not how core.hooksPath spells the folder: in the work tree and not
    ignored by git (an absolute path as a relative one, a link followed)."""
    if where.startswith("tracked"):
        write_exec(repo / ".githooks" / "lint", "#!/bin/sh\nmake lint\n")
        git(repo, "add", ".githooks")
        git(repo, "commit", "-q", "-m", "the team's hooks")
        value = str(repo / ".githooks")
        if "link" in where:
            (tmp_path / "link").symlink_to(repo / ".githooks")
            value = str(tmp_path / "link")
    elif where.startswith("ignored"):
        (repo / ".gitignore").write_text(".local-hooks/\n")
        git(repo, "add", ".gitignore")
        git(repo, "commit", "-q", "-m", "a clone's own hooks are its own")
        value = str(repo / ".local-hooks") if "absolute" in where else ".local-hooks"
    elif where.startswith("excluded"):
        (repo / ".git" / "info").mkdir(exist_ok=True)
        (repo / ".git" / "info" / "exclude").write_text(".local-hooks/\n")
        value = ".local-hooks"
    elif where.startswith("outside"):
        value = "../hooks"
    elif where.startswith("a link"):
        (tmp_path / "machine-hooks").mkdir()
        (repo / "hooks-link").symlink_to(tmp_path / "machine-hooks")
        value = "hooks-link"
    else:
        value = ".githooks"
    git(repo, "config", "core.hooksPath", value)
    lines = install(repo)
    folder = hooks_dir(repo)
    shared = HOOKS_FOLDERS[where]
    assert (
        "the hooks are shared through the repository: they find gitmem on PATH" in lines
    ) == shared, lines
    for name in CLIENT_HOOKS:
        assert (folder / name).read_bytes() == script(name, None if shared else THIS_PYTHON)


def test_home_relative_core_hooks_path_is_expanded(repo: Path, tmp_path: Path) -> None:
    os.environ["HOME"] = str(tmp_path / "home")  # a HOME git can resolve; nothing is written
    git(repo, "config", "core.hooksPath", "~/git-hooks")
    assert hooks_dir(repo) == tmp_path / "home" / "git-hooks"


def test_hooks_path_ignores_the_calling_hooks_git_variables(repo: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    git(tmp_path, "init", "-q", str(other))
    os.environ["GIT_DIR"] = str(other / ".git")
    assert hooks_dir(repo) == repo / ".git" / "hooks"


def test_linked_worktree_installs_into_the_common_hooks_folder(
    repo: Path, tmp_path: Path, stub: dict[str, str]
) -> None:
    linked = tmp_path / "linked"
    git(repo, "worktree", "add", "-q", "-b", "side", str(linked))
    install(linked, python=None)
    assert hooks_dir(linked) == repo / ".git" / "hooks"
    assert (repo / ".git" / "hooks" / "pre-commit").read_bytes() == script("pre-commit")
    (linked / "notes.txt").write_text("from the linked worktree\n")
    git(linked, "add", "notes.txt")
    done = git_env(linked, stub, "commit", "-q", "-m", "in the linked worktree")
    assert done.returncode == 0, done.stderr
    assert calls(stub) == ["gitmem hook pre-commit"]


def test_server_install_into_a_bare_repository(tmp_path: Path) -> None:
    bare = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    with pytest.raises(UsageError, match="gitmem hooks install --server"):
        install(bare)
    lines = install(bare, server=True)
    assert lines[:2] == [f"hooks folder: {bare / 'hooks'}", "pre-receive: installed"]
    assert lines[2].startswith("policy (git config gitmem.*): written from the defaults")
    assert (bare / "hooks" / "pre-receive").read_bytes() == script("pre-receive", THIS_PYTHON)
    assert not (bare / "hooks" / "pre-commit").exists()
    assert "gitmem-index" not in (bare / "config").read_text()
    assert install(bare, server=True)[1:] == [
        "pre-receive: already installed",
        "policy (git config gitmem.*): already the defaults",
        "object checks (git config receive.fsckObjects): already on",
        "enforcement (git config gitmem.enforcement): enforce",
    ]
    assert uninstall(bare, server=True)[1] == "pre-receive: removed"


def test_server_install_writes_the_committed_policy_into_the_git_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pre-receive hook judges by the bare repository's git config; the installer
    writes it from the settings committed at HEAD's tip, and again when run again, keeping
    the reviewed exceptions an administrator recorded there."""
    bare = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    work = tmp_path / "work"
    git(tmp_path, "clone", "-q", str(bare), str(work))
    (work / ".gitmem.toml").write_text(
        '[memory]\ndir = "mem"\nrequirePusherMatch = true\ntypes = ["incident", "runbook"]\n'
        'policyAdmins = ["alice", "bob"]\nautoAdmitAudited = true\nmaxBody = 900\n'
    )
    git(work, "add", ".gitmem.toml")
    git(work, "commit", "-q", "-m", "settings")
    git(work, "push", "-q", "origin", "main")
    install(bare, server=True)

    def config(key: str) -> list[str]:
        return git(bare, "config", "--get-all", key, check=False).split()

    assert config("gitmem.branch") == ["main"] and config("gitmem.dir") == ["mem"]
    assert config("gitmem.requirePusherMatch") == ["true"]
    assert config("gitmem.autoAdmitAudited") == ["true"] and config("gitmem.maxBody") == ["900"]
    assert config("gitmem.types") == ["incident", "runbook"]
    assert config("gitmem.policyAdmins") == ["alice", "bob"]
    allowed = "github-pat:" + "0" * 32
    git(bare, "config", "--add", "gitmem.allow", allowed)
    (work / ".gitmem.toml").write_text('[memory]\ndir = "mem"\ntypes = ["incident"]\n')
    git(work, "commit", "-q", "-am", "fewer types")
    refused = subprocess.run(
        ["git", "push", "-q", "origin", "main"], cwd=work, capture_output=True, text=True
    )
    assert refused.returncode != 0 and "HISTORY-SETTINGS" in refused.stderr  # no admin pushed
    monkeypatch.setenv("GITMEM_PUSHER", "bob")  # who the server says pushed
    git(work, "push", "-q", "origin", "main")
    git(bare, "config", "gitmem.enforcement", "warn")
    lines = install(bare, server=True)
    assert "written from the settings committed at" in lines[-3]
    assert config("gitmem.enforcement") == ["warn"]  # set by an admin, kept like gitmem.allow
    assert config("gitmem.types") == ["incident"] and config("gitmem.requirePusherMatch") == [
        "false"
    ]
    assert config("gitmem.policyAdmins") == [] and config("gitmem.allow") == [allowed]


def test_the_server_mode_changes_only_when_asked(tmp_path: Path) -> None:
    """--warn sets gitmem.enforcement, a re-install without a flag keeps it (no committed file
    holds it), --enforce removes it; the policy keys are left as they were each time."""
    bare = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    install(bare, server=True)
    policy = git(bare, "config", "--get-regexp", r"^gitmem\.")
    warned = install(bare, server=True, enforcement="warn")[-1]
    assert warned.startswith("enforcement (git config gitmem.enforcement): set to warn: ")
    # what warn mode still rejects (gitmem.gate.check.ALWAYS_REFUSED), said in full
    assert "only a secret or a text too large to scan is rejected" in warned
    assert git(bare, "config", "gitmem.enforcement") == "warn\n"
    again = install(bare, server=True)
    assert again[-3] == "policy (git config gitmem.*): already the defaults"
    assert again[-1].startswith("enforcement (git config gitmem.enforcement): warn: ")
    assert "only a secret or a text too large to scan is rejected" in again[-1]
    assert "already" in install(bare, server=True, enforcement="warn")[-1]
    done = install(bare, server=True, enforcement="enforce")[-1]
    assert done.endswith("set to enforce: a push that breaks a rule is rejected")
    assert git(bare, "config", "--get-regexp", r"^gitmem\.") == policy
    with pytest.raises(UsageError, match="go with --server"):
        install(tmp_path, enforcement="warn")
    with pytest.raises(UsageError, match="not one of enforce, warn"):
        install(bare, server=True, enforcement="lenient")


def test_the_mode_flags_go_with_server(repo: Path) -> None:
    result = run(repo, "hooks", "install", "--warn")
    assert result.exit_code == 2 and "--warn goes with --server" in result.output


@pytest.mark.parametrize("order", [["--warn", "--enforce"], ["--enforce", "--warn"]])
def test_both_mode_flags_are_a_usage_error(tmp_path: Path, order: list[str]) -> None:
    """`--server --warn --enforce` set the mode the last flag named, without a word about the
    other; now neither is set and the command says they are opposite."""
    bare = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    result = run(bare, "hooks", "install", "--server", *order)
    assert result.exit_code == 2 and "--warn and --enforce are opposite modes" in result.output
    assert not (bare / "hooks" / "pre-receive").exists()
    assert git(bare, "config", "--get-regexp", r"^gitmem\.", check=False) == ""


# -- the scripts at work, in real git commands ---------------------------------------------------


@pytest.mark.e2e
def test_chained_pre_commit_runs_first_then_gitmem(repo: Path, stub: dict[str, str]) -> None:
    folder = repo / ".git" / "hooks"
    write_exec(folder / "pre-commit", FOREIGN_HOOK)
    install(repo, python=None)
    (repo / "README.md").write_text("# project\n\nmore\n")
    done = git_env(repo, stub, "commit", "-q", "-am", "change")
    assert done.returncode == 0, done.stderr
    assert calls(stub) == ["foreign ", "gitmem hook pre-commit"]


@pytest.mark.e2e
def test_a_failing_chained_hook_blocks_the_commit(repo: Path, stub: dict[str, str]) -> None:
    write_exec(repo / ".git" / "hooks" / "pre-commit", FOREIGN_HOOK)
    install(repo, python=None)
    head = git(repo, "rev-parse", "HEAD")
    (repo / "README.md").write_text("# changed\n")
    done = git_env(repo, {**stub, "FOREIGN_EXIT": "3"}, "commit", "-q", "-am", "change")
    assert done.returncode != 0
    assert calls(stub) == ["foreign "], "gitmem ran after the chained hook had failed"
    assert git(repo, "rev-parse", "HEAD") == head


@pytest.mark.e2e
def test_gitmems_failure_blocks_the_commit(repo: Path, stub: dict[str, str]) -> None:
    install(repo, python=None)
    head = git(repo, "rev-parse", "HEAD")
    (repo / "README.md").write_text("# changed\n")
    done = git_env(repo, {**stub, "STUB_EXIT": "1"}, "commit", "-q", "-am", "change")
    assert done.returncode != 0
    assert git(repo, "rev-parse", "HEAD") == head


@pytest.mark.e2e
def test_real_gitmem_pre_commit_runs_after_the_chained_hook(repo: Path, tmp_path: Path) -> None:
    """No stand-in: the real `gitmem hook pre-commit` refuses a broken memory file."""
    folder = repo / ".git" / "hooks"
    ran = tmp_path / "foreign-ran"
    write_exec(folder / "pre-commit", f"#!/bin/sh\necho ran >> '{ran}'\n")
    install(repo)
    env = dict(os.environ)

    entry = repo / ".gitmem" / "candidates" / "shop-method-20261129-run-hooks-through-gitmem.md"
    entry.parent.mkdir(parents=True)
    entry.write_text(text().replace("## Evidence", "## Proof"))
    git(repo, "add", ".gitmem")
    done = git_env(repo, env, "commit", "-q", "-m", "a broken memory")
    assert done.returncode != 0, "gitmem's pre-commit let a broken entry through"
    assert "shop-method-20261129-run-hooks-through-gitmem.md" in done.stderr
    assert ran.read_text() == "ran\n"

    git(repo, "rm", "-q", "-r", "--cached", ".gitmem")
    (repo / "README.md").write_text("# project\n\nno memory touched\n")
    done = git_env(repo, env, "commit", "-q", "-am", "an ordinary change")
    assert done.returncode == 0, done.stderr
    assert ran.read_text() == "ran\nran\n"


@pytest.mark.e2e
def test_real_gitmem_pre_receive_refuses_a_forged_entry(repo: Path, tmp_path: Path) -> None:
    """No stand-in: a bare server with the pre-receive hook rejects memory pushed around review."""
    remote = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    install(remote, server=True)
    env = dict(os.environ)
    done = git_env(repo, env, "push", "-q", str(remote), "main")
    assert done.returncode == 0, done.stderr
    head = git(repo, "rev-parse", "HEAD").strip()

    entry = (
        repo / ".gitmem" / "entries" / "method" / "shop-method-20261129-run-hooks-through-gitmem.md"
    )
    entry.parent.mkdir(parents=True)
    entry.write_text(text(status="admitted", admitted_by="human:alice", admitted="2026-11-30"))
    git(repo, "add", ".gitmem")
    git(repo, "commit", "-q", "--no-verify", "-m", "an entry that skipped review")
    done = git_env(repo, env, "push", "-q", str(remote), "main")
    assert done.returncode != 0, "the server accepted an entry pushed straight to main"
    assert "shop-method-20261129-run-hooks-through-gitmem" in done.stderr
    assert git(remote, "rev-parse", "main").strip() == head


@pytest.mark.e2e
def test_pre_push_stdin_reaches_the_chained_hook_and_gitmem(
    repo: Path, tmp_path: Path, stub: dict[str, str]
) -> None:
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(repo, "remote", "add", "origin", str(remote))
    git(repo, "branch", "side")
    write_exec(repo / ".git" / "hooks" / "pre-push", FOREIGN_HOOK)
    install(repo, python=None)
    env = {
        **stub,
        "STUB_STDIN": str(tmp_path / "gitmem.stdin"),
        "FOREIGN_STDIN": str(tmp_path / "foreign.stdin"),
    }
    done = git_env(repo, env, "push", "-q", "origin", "main", "side")
    assert done.returncode == 0, done.stderr
    assert calls(env) == [f"foreign origin {remote}", f"gitmem hook pre-push origin {remote}"]
    head = git(repo, "rev-parse", "HEAD").strip()
    expected = "".join(
        f"refs/heads/{b} {head} refs/heads/{b} {'0' * 40}\n" for b in ("main", "side")
    )
    assert (tmp_path / "foreign.stdin").read_text() == expected
    assert (tmp_path / "gitmem.stdin").read_text() == expected


@pytest.mark.e2e
def test_a_failing_chained_pre_push_stops_the_push(
    repo: Path, tmp_path: Path, stub: dict[str, str]
) -> None:
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    write_exec(repo / ".git" / "hooks" / "pre-push", FOREIGN_HOOK)
    install(repo, python=None)
    done = git_env(repo, {**stub, "FOREIGN_EXIT": "1"}, "push", "-q", str(remote), "main")
    assert done.returncode != 0
    assert calls(stub) == [f"foreign {remote} {remote}"]
    assert git(remote, "for-each-ref") == ""


@pytest.mark.e2e
def test_pre_receive_gets_the_pushed_refs_on_a_bare_server(
    repo: Path, tmp_path: Path, stub: dict[str, str]
) -> None:
    remote = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    write_exec(remote / "hooks" / "pre-receive", FOREIGN_HOOK)
    install(remote, server=True, python=None)
    env = {
        **stub,
        "STUB_STDIN": str(tmp_path / "gitmem.stdin"),
        "FOREIGN_STDIN": str(tmp_path / "foreign.stdin"),
    }
    done = git_env(repo, env, "push", "-q", str(remote), "main")
    assert done.returncode == 0, done.stderr
    assert calls(env) == ["foreign ", "gitmem hook pre-receive"]
    head = git(repo, "rev-parse", "HEAD").strip()
    line = f"{'0' * 40} {head} refs/heads/main\n"
    assert (tmp_path / "gitmem.stdin").read_text() == line
    assert (tmp_path / "foreign.stdin").read_text() == line

    (repo / "README.md").write_text("# refused\n")
    git(repo, "commit", "-q", "-am", "refused")
    done = git_env(repo, {**env, "STUB_EXIT": "1"}, "push", "-q", str(remote), "main")
    assert done.returncode != 0
    assert git(remote, "rev-parse", "main").strip() == head


@pytest.mark.e2e
@pytest.mark.parametrize("foreign", ["0", "4"])
def test_gitmem_s_post_hook_never_fails_the_git_command_and_the_chained_one_s_status_stands(
    repo: Path, stub: dict[str, str], foreign: str
) -> None:
    """git takes a post-checkout hook's status for the checkout's: gitmem's failing never
    fails it, and the hook chained before gitmem keeps the say it had (its failure was
    dropped too, so installing gitmem changed what the user's own hook did)."""
    folder = repo / ".git" / "hooks"
    write_exec(folder / "post-checkout", FOREIGN_HOOK)
    install(repo, python=None)
    env = {**stub, "STUB_EXIT": "3", "FOREIGN_EXIT": foreign}
    done = git_env(repo, env, "checkout", "-q", "-b", "other")
    assert (done.returncode == 0) == (foreign == "0"), done.stderr
    head = git(repo, "rev-parse", "HEAD").strip()
    assert calls(env) == [f"foreign {head} {head} 1", f"gitmem hook post-checkout {head} {head} 1"]


@pytest.mark.e2e
def test_post_rewrite_stdin_reaches_both(repo: Path, tmp_path: Path, stub: dict[str, str]) -> None:
    folder = repo / ".git" / "hooks"
    write_exec(folder / "post-rewrite", FOREIGN_HOOK)
    install(repo, python=None)
    old = git(repo, "rev-parse", "HEAD").strip()
    env = {
        **stub,
        "STUB_STDIN": str(tmp_path / "gitmem.stdin"),
        "FOREIGN_STDIN": str(tmp_path / "foreign.stdin"),
    }
    done = git_env(repo, env, "commit", "-q", "--amend", "-m", "amended")
    assert done.returncode == 0, done.stderr
    new = git(repo, "rev-parse", "HEAD").strip()
    assert calls(env)[-2:] == ["foreign amend", "gitmem hook post-rewrite amend"]
    assert (tmp_path / "gitmem.stdin").read_text() == f"{old} {new}\n"
    assert (tmp_path / "foreign.stdin").read_text() == f"{old} {new}\n"


#: A user's pre-push hook that records the name it was run under, its arguments and its
#: standard input, and exits with $NAMED_EXIT: in POSIX sh, in sh through env, in Python, and
#: a multi-call script (hook managers' way) that acts only when called by the hook's name.
NAMED_HOOKS = {
    "sh": """#!/bin/sh -e
printf '%s|%s|%s\\n' "$0" "$*" "$-" >> "$NAMED_LOG"
cat >> "$NAMED_LOG"
exit "${NAMED_EXIT:-0}"
""",
    "env sh": """#!/usr/bin/env sh
printf '%s|%s|\\n' "$0" "$*" >> "$NAMED_LOG"
cat >> "$NAMED_LOG"
exit "${NAMED_EXIT:-0}"
""",
    "python": f"""#!{sys.executable}
import os, sys
with open(os.environ["NAMED_LOG"], "a") as log:
    log.write(sys.argv[0] + "|" + " ".join(sys.argv[1:]) + "|\\n" + sys.stdin.read())
sys.exit(int(os.environ.get("NAMED_EXIT", "0")))
""",
    "bash": """#!/usr/bin/env bash
. "$(dirname "$0")/named-lib.sh"
named_log "$0" "$*"
exit "${NAMED_EXIT:-0}"
""",
    "multi-call": """#!/bin/sh
case $(basename "$0") in
    pre-push) printf '%s|%s|\\n' "$0" "$*" >> "$NAMED_LOG"; cat >> "$NAMED_LOG" ;;
    *) echo "unknown hook $0" >&2; exit 64 ;;
esac
exit "${NAMED_EXIT:-0}"
""",
}


@pytest.mark.e2e
@pytest.mark.parametrize("kind", sorted(NAMED_HOOKS))
def test_a_chained_hook_is_run_under_the_name_git_gives_it(
    repo: Path, tmp_path: Path, stub: dict[str, str], kind: str
) -> None:
    """A chained hook read its own name from $0 as `pre-push.gitmem-chained`: a multi-call
    script that dispatches on `basename "$0"` (as hook managers' do) refused every push, and
    one that logs its name logged the wrong one. It now sees what git gave it before gitmem
    was installed: a POSIX sh script the very path, any other a path of the same name (in a
    private temporary folder, removed after, holding links to the files beside the hook, so
    that a bash hook sourcing `$(dirname "$0")/lib.sh` finds it), with the same arguments,
    input and status."""
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(repo, "remote", "add", "origin", str(remote))
    folder = repo / ".git" / "hooks"
    if kind == "multi-call":
        write_exec(tmp_path / "hook-manager" / "dispatch", NAMED_HOOKS[kind])
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "pre-push").symlink_to(tmp_path / "hook-manager" / "dispatch")
    else:
        write_exec(folder / "pre-push", NAMED_HOOKS[kind])
    # a file beside the hook, which a hook finds by its own folder (`dirname "$0"`)
    (folder / "named-lib.sh").write_text(
        'named_log() { printf \'%s|%s|\\n\' "$1" "$2" >> "$NAMED_LOG"; cat >> "$NAMED_LOG"; }\n'
    )
    log = tmp_path / "named.log"
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    env = {**stub, "NAMED_LOG": str(log), "TMPDIR": str(temporary)}

    def push(branch: str, **extra: str) -> tuple[subprocess.CompletedProcess[str], list[str]]:
        log.unlink(missing_ok=True)
        git(repo, "branch", branch)
        done = git_env(repo, {**env, **extra}, "push", "-q", "origin", branch)
        return done, log.read_text().splitlines() if log.exists() else []

    done, before = push("before-gitmem")  # what git itself gives the hook
    assert done.returncode == 0, done.stderr
    install(repo, python=None)
    done, after = push("after-gitmem")
    assert done.returncode == 0, done.stderr
    name, args, options = before[0].split("|")
    assert after[0].split("|")[1:] == [args, options] and args == f"origin {remote}"
    if kind in ("sh", "env sh", "multi-call"):
        assert after[0].split("|")[0] == name  # git's own path, folder and all
    else:
        assert Path(after[0].split("|")[0]).name == Path(name).name == "pre-push"
    assert [line.replace("before-gitmem", "after-gitmem") for line in before[1:]] == after[1:]
    assert len(after) == 2
    assert calls(env)[-1] == f"gitmem hook pre-push origin {remote}"

    ran = len(calls(env))
    done, after = push("refused", NAMED_EXIT="3")
    assert done.returncode != 0 and len(after) == 2, done.stderr
    assert len(calls(env)) == ran, "gitmem ran after the chained hook had failed"
    assert git(remote, "branch", "--list", "refused") == ""
    assert list(temporary.iterdir()) == []


# -- when gitmem cannot be found -----------------------------------------------------------------


@pytest.fixture
def bare_path_env(tmp_path: Path) -> dict[str, str]:
    """A minimal environment (like `env -i PATH=/usr/bin:/bin`) with no gitmem reachable."""
    env = {"PATH": "/usr/bin:/bin", "HOME": os.environ["HOME"]}
    probe = subprocess.run(
        ["sh", "-c", "command -v gitmem || python3 -c 'import gitmem.cli.main'"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        check=False,
    )
    if probe.returncode == 0:
        pytest.skip("gitmem is reachable from /usr/bin:/bin on this machine")
    return env


@pytest.mark.parametrize(
    ("name", "code", "message"),
    [
        (
            "pre-commit",
            1,
            f"gitmem: pre-commit: gitmem is not installed: pipx install {DISTRIBUTION}, "
            "or skip once with git commit --no-verify",
        ),
        (
            "pre-push",
            1,
            f"gitmem: pre-push: gitmem is not installed: pipx install {DISTRIBUTION}, "
            "or skip once with git push --no-verify",
        ),
        (
            "post-merge",
            0,
            f"gitmem: post-merge: skipped, gitmem is not installed (pipx install {DISTRIBUTION})",
        ),
        ("post-checkout", 0, "gitmem: post-checkout: skipped, gitmem is not installed"),
        ("pre-receive", 1, "so the push cannot be checked and is refused"),
    ],
)
@pytest.mark.e2e
def test_a_missing_gitmem_is_said_clearly(
    tmp_path: Path, bare_path_env: dict[str, str], name: str, code: int, message: str
) -> None:
    hook = tmp_path / "hooks" / name
    write_exec(hook, script(name))
    done = run_hook(hook, bare_path_env, "0", cwd=tmp_path)
    assert done.returncode == code
    assert message in done.stderr
    assert done.stdout == ""


@pytest.mark.e2e
def test_a_missing_gitmem_still_runs_the_chained_post_hook(
    tmp_path: Path, bare_path_env: dict[str, str]
) -> None:
    folder = tmp_path / "hooks"
    write_exec(folder / "post-merge", script("post-merge"))
    write_exec(folder / f"post-merge{CHAINED_SUFFIX}", FOREIGN_HOOK)
    env = {**bare_path_env, "STUB_LOG": str(tmp_path / "calls.log")}
    done = run_hook(folder / "post-merge", env, "0", cwd=tmp_path)
    assert done.returncode == 0
    assert calls(env) == ["foreign 0"]
    assert "skipped, gitmem is not installed" in done.stderr


@pytest.mark.e2e
def test_python3_dash_m_gitmem_is_the_fallback(
    tmp_path: Path, bare_path_env: dict[str, str]
) -> None:
    """With no `gitmem` command but a python3 that imports gitmem, the script uses that."""
    bin_dir = tmp_path / "py-bin"
    write_exec(bin_dir / "python3", STUB_GITMEM.replace('echo "gitmem $*"', 'echo "python3 $*"'))
    env = {
        **bare_path_env,
        "PATH": f"{bin_dir}:{bare_path_env['PATH']}",
        "STUB_LOG": str(tmp_path / "calls.log"),
    }
    hook = tmp_path / "hooks" / "pre-commit"
    write_exec(hook, script("pre-commit"))
    done = run_hook(hook, env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert calls(env) == [
        "python3 -P -c import gitmem.cli.main",
        "python3 -P -m gitmem hook pre-commit",
    ]


@pytest.mark.e2e
def test_the_real_python_module_fallback_starts(
    tmp_path: Path, bare_path_env: dict[str, str]
) -> None:
    """This interpreter as the only python3 on a minimal PATH: gitmem's CLI answers."""
    bin_dir = tmp_path / "py-bin"
    write_exec(bin_dir / "python3", f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    env = {**bare_path_env, "PATH": f"{bin_dir}:{bare_path_env['PATH']}"}
    hook = tmp_path / "hooks" / "post-merge"
    write_exec(hook, script("post-merge"))
    done = run_hook(hook, env, "0", cwd=tmp_path)
    assert done.returncode == 0
    assert "gitmem is not installed" not in done.stderr


# -- the interpreter that installed the hooks ----------------------------------------------------


def test_hooks_find_the_gitmem_that_installed_them_without_path(
    repo: Path, bare_path_env: dict[str, str]
) -> None:
    """An IDE's git: PATH without the virtual environment. The hooks run the interpreter that
    installed them, for code-only commits and for memory alike (issue 14, case 6)."""
    install(repo)
    env = {**os.environ, "PATH": bare_path_env["PATH"]}
    (repo / "README.md").write_text("# project\n\ncode only\n")
    done = git_env(repo, env, "commit", "-q", "-am", "code only")
    assert done.returncode == 0, done.stderr
    assert "not installed" not in done.stderr

    entry = repo / ".gitmem" / "candidates" / "shop-method-20261129-run-hooks-through-gitmem.md"
    entry.parent.mkdir(parents=True)
    entry.write_text(text().replace("## Evidence", "## Proof"))
    git(repo, "add", ".gitmem")
    done = git_env(repo, env, "commit", "-q", "-m", "a broken memory")
    assert done.returncode == 1
    assert "SECTIONS" in done.stderr


@pytest.mark.parametrize("gone", ["interpreter", "package"])
def test_a_recorded_interpreter_that_is_gone_falls_back_to_path(
    repo: Path, tmp_path: Path, stub: dict[str, str], gone: str
) -> None:
    """A virtual environment deleted, or gitmem uninstalled from it: PATH's gitmem runs."""
    venv = tmp_path / "old-venv"
    python = venv / "bin" / "python"
    if gone == "package":
        write_exec(python, "#!/bin/sh\necho 'the old interpreter ran' >&2\nexit 9\n")
    install(repo, python=python, package=venv / "lib" / "gitmem")
    assert f"install_python='{python}'" in (repo / ".git" / "hooks" / "pre-commit").read_text()
    (repo / "README.md").write_text("# changed\n")
    done = git_env(repo, stub, "commit", "-q", "-am", "change")
    assert done.returncode == 0, done.stderr
    assert calls(stub) == ["gitmem hook pre-commit"]


def test_a_shared_hooks_folder_records_no_interpreter(repo: Path) -> None:
    git(repo, "config", "core.hooksPath", ".githooks")
    lines = install(repo)
    assert "the hooks are shared through the repository: they find gitmem on PATH" in lines
    assert "install_python=''" in (repo / ".githooks" / "pre-commit").read_text().splitlines()


def test_the_merge_driver_finds_the_gitmem_that_installed_it_without_path(
    tmp_path: Path, bare_path_env: dict[str, str]
) -> None:
    """Two clones admit one entry each; merging them conflicts on INDEX.md, which the driver
    regenerates, run by the installing interpreter from a git whose PATH lacks gitmem."""
    from clirunner import HOOKS, PROPOSE, ok, run

    server = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(server))
    first = tmp_path / "first"
    git(tmp_path, "init", "-q", "-b", "main", str(first))
    (first / "README.md").write_text("# project\n")
    ok(run(first, "init", "--hooks"))
    git(first, "add", "-A")
    git(first, "commit", "-q", "-m", "start")
    git(first, "remote", "add", "origin", str(server))
    git(first, "push", "-q", "-u", "origin", "main")
    second = tmp_path / "second"
    git(tmp_path, "clone", "-q", str(server), str(second))
    ok(run(second, "hooks", "install"))
    for clone, proposal in ((first, PROPOSE), (second, HOOKS)):
        ok(run(clone, "admit", ok(run(clone, *proposal)).output.split()[1]))
    git(first, "push", "-q", "origin", "main")
    git(second, "fetch", "-q", "origin")
    env = {**os.environ, "PATH": bare_path_env["PATH"]}
    done = git_env(second, env, "merge", "-q", "--no-edit", "origin/main")
    assert done.returncode == 0, done.stdout + done.stderr
    index = (second / ".gitmem" / "INDEX.md").read_text()
    assert "use-pygit2-inside-hooks" in index and "use-pygit2-inside-git-hooks" in index
    assert "<<<<<<<" not in index


PLANTED = "import pathlib, sys\npathlib.Path(sys.argv[0]).with_name('RAN').write_text('planted')\n"


def plant_gitmem(folder: Path) -> None:
    """A top-level gitmem.py and gitmem/ package that leave a RAN file when imported or run:
    what a hostile branch of any project may hold."""
    (folder / "gitmem.py").write_text(PLANTED.replace("sys.argv[0]", "__file__"))
    (folder / "gitmem").mkdir()
    (folder / "gitmem" / "__init__.py").write_text(PLANTED.replace("sys.argv[0]", "__file__"))
    (folder / "gitmem" / "__main__.py").write_text(PLANTED.replace("sys.argv[0]", "__file__"))


def test_checking_out_a_branch_never_runs_the_branchs_own_gitmem(memory: Path) -> None:
    """The hooks run `python -m gitmem`; Python puts the working folder first on the module
    path for -m, so without -P a branch holding gitmem.py or gitmem/ would run its code in
    gitmem's place on a mere checkout (post-checkout) or merge (post-merge)."""
    install(memory)
    git(memory, "checkout", "-q", "-b", "contributor")
    plant_gitmem(memory)
    git(memory, "add", "-A")
    git(memory, "commit", "-q", "--no-verify", "-m", "a contribution")
    git(memory, "checkout", "-q", "main")
    git(memory, "checkout", "-q", "contributor")  # post-checkout, the branch's files present
    git(memory, "checkout", "-q", "main")
    git(memory, "merge", "-q", "--no-edit", "contributor")  # post-merge
    assert not (memory / "RAN").exists() and not (memory / "gitmem" / "RAN").exists()


def test_the_github_steps_run_the_installed_gitmem_not_the_checkouts(
    memory: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The workflows' steps run gitmem in the checkout of the pull request's base; a gitmem.py
    or gitmem/ there must not stand in for the pinned gitmem (it would hold the job's token)."""
    from gitmem import __version__
    from gitmem.hooks import github_check
    from gitmem.repo.workspace import open_workspace

    plant_gitmem(memory)
    monkeypatch.chdir(memory)
    done = github_check.installed_gitmem(open_workspace(), "--version")
    assert done.returncode == 0 and __version__ in done.stdout, done
    assert not (memory / "RAN").exists() and not (memory / "gitmem" / "RAN").exists()


def test_a_hooks_folder_named_in_the_global_config_is_said_to_serve_every_repository(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """core.hooksPath in the user's global config names a folder every repository runs
    hooks from: installing there changed them all, and only the folder's path was printed."""
    shared = tmp_path / "everyones-hooks"
    config = tmp_path / "gitconfig"
    config.write_text(f"[core]\n\thooksPath = {shared}\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    lines = install(repo)
    assert lines[0] == f"hooks folder: {shared}"
    assert lines[1].startswith("note: core.hooksPath comes from your global git config: ")
    git(repo, "config", "core.hooksPath", ".git/hooks")
    assert not any(line.startswith("note:") for line in install(repo))


SHA256_WHY = "names its objects by SHA-256"


def sha256_repository_and_remote(tmp_path: Path) -> tuple[Path, Path]:
    """A SHA-256 repository with one commit, and an empty SHA-256 bare remote."""
    work = tmp_path / "work"
    git(tmp_path, "init", "-q", "-b", "main", "--object-format=sha256", str(work))
    (work / "README.md").write_text("# project\n")
    git(work, "add", "README.md")
    git(work, "commit", "-q", "-m", "initial")
    server = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", "--object-format=sha256", str(server))
    return work, server


@pytest.mark.e2e
def test_a_sha256_repository_is_refused_clearly_and_never_judged_half_way(
    tmp_path: Path,
) -> None:
    """A repository made with `git init --object-format=sha256`: libgit2 cannot open it.
    Every command said only "unknown object format 'sha256'"; `gitmem hooks install` wrote
    hooks that then refused every commit of memory and every push with that line, and
    `--server` wrote the pre-receive hook, then failed before the policy. Each command is
    refused now, naming SHA-256 and what to do (exit 2, nothing installed), and a hook that
    is there anyway (copied by hand) still rejects the push, saying why."""
    from conftest import run_gitmem

    work, server = sha256_repository_and_remote(tmp_path)
    for folder, args in [
        (work, ["init"]),
        (work, ["list"]),
        (work, ["recall", "hooks"]),
        (work, ["check"]),
        (work, ["index"]),
        (work, ["hooks", "install"]),
        (server, ["hooks", "install", "--server"]),
    ]:
        done = run_gitmem(folder, *args)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert SHA256_WHY in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert not (work / ".gitmem").exists()
    for folder in (work / ".git" / "hooks", server / "hooks"):
        assert not [p for p in folder.iterdir() if is_gitmem_hook(p)]
    assert git(server, "config", "--get-regexp", "^gitmem", check=False) == ""

    for name in SERVER_HOOKS:  # a hook copied there by hand refuses, never lets through
        write_exec(server / "hooks" / name, script(name, THIS_PYTHON).decode())
    done = git_env(work, dict(os.environ), "push", str(server), "main")
    assert done.returncode != 0 and "pre-receive hook declined" in done.stderr, done.stderr
    assert SHA256_WHY in done.stderr and "Traceback" not in done.stderr, done.stderr


@pytest.mark.e2e
def test_hooks_shared_by_a_global_hooks_path_pass_a_sha256_repository_without_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """gitmem's hooks in a folder the user's global git config names (core.hooksPath) run in
    every repository of the user: each push from a SHA-256 repository, which gitmem cannot
    read, was refused (exit 2), though it held nothing of gitmem's. Such a repository (no
    memory folder, no gitmem settings or config, no gitmem hook of its own) is passed with
    one line saying so; one that keeps a memory folder is still refused, saying why."""
    shared = tmp_path / "everyones-hooks"
    for name in CLIENT_HOOKS:
        write_exec(shared / name, script(name, THIS_PYTHON))
    config = tmp_path / "gitconfig"
    config.write_text(f"[core]\n\thooksPath = {shared}\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    env = dict(os.environ)
    work, server = sha256_repository_and_remote(tmp_path)

    done = git_env(work, env, "push", "-q", str(server), "main")
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stderr.splitlines() if "gitmem" in line]
    assert len(said) == 1 and "SHA-256" in said[0] and "no gitmem memory" in said[0], said
    assert git(server, "rev-parse", "main") == git(work, "rev-parse", "main")
    done = git_env(work, env, "checkout", "-q", "-b", "side")
    assert done.returncode == 0 and len(done.stderr.splitlines()) <= 1, done.stderr

    (work / ".gitmem" / "entries").mkdir(parents=True)
    (work / ".gitmem" / "entries" / "x.md").write_text("a lesson gitmem cannot judge here\n")
    git(work, "add", "-A")
    done = git_env(work, env, "commit", "-q", "-m", "memory")
    assert done.returncode != 0 and SHA256_WHY in done.stderr, done.stderr
    git(work, "commit", "-q", "--no-verify", "-m", "memory")
    done = git_env(work, env, "push", "-q", str(server), "side")
    assert done.returncode != 0 and SHA256_WHY in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert git(server, "branch", "--list", "side") == ""


#: gitmem's command line (argv[1:]), killed (SIGKILL) as it renames a chained hook back.
KILLED_RESTORING = """
import os, signal, sys


def on_event(event, args):
    if event == "os.rename" and os.fsdecode(args[0]).endswith(".gitmem-chained"):
        os.kill(os.getpid(), signal.SIGKILL)


sys.addaudithook(on_event)
from gitmem.launcher import main

main()
"""


def test_a_hook_chained_by_a_killed_install_or_uninstall_is_never_missing(repo: Path) -> None:
    """Chaining renamed the user's hook away, then wrote gitmem's in its place; restoring
    deleted gitmem's, then renamed the user's back: killed between, no pre-push hook ran
    at all until the next run. The user's hook now stays in place until gitmem's replaces
    it by a rename, and goes back over it by one rename."""
    hook = repo / ".git" / "hooks" / "pre-push"
    write_exec(hook, "#!/bin/sh\necho mine\n")
    killed_at_rename(repo, "pre-push", "hooks", "install")
    assert hook.read_bytes() == b"#!/bin/sh\necho mine\n"
    assert run(repo, "hooks", "install").exit_code == 0
    assert is_gitmem_hook(hook)
    chained = hook.with_name("pre-push" + CHAINED_SUFFIX)
    assert chained.read_bytes() == b"#!/bin/sh\necho mine\n"
    done = subprocess.run(
        [sys.executable, "-c", KILLED_RESTORING, "hooks", "uninstall"],
        cwd=repo, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == -9, done.stderr
    assert is_gitmem_hook(hook)  # still gitmem's, which runs the user's
    assert run(repo, "hooks", "uninstall").exit_code == 0
    assert hook.read_bytes() == b"#!/bin/sh\necho mine\n" and not chained.exists()


def test_uninstall_after_an_install_killed_before_its_rename_keeps_the_users_hook(
    repo: Path,
) -> None:
    """An install killed between linking the user's hook to its chained name and renaming
    gitmem's over it leaves one file under both names: uninstall drops the second."""
    hook = repo / ".git" / "hooks" / "pre-push"
    write_exec(hook, "#!/bin/sh\necho mine\n")
    killed_at_rename(repo, "pre-push", "hooks", "install")
    assert run(repo, "hooks", "uninstall").exit_code == 0
    assert hook.read_bytes() == b"#!/bin/sh\necho mine\n"
    assert not hook.with_name("pre-push" + CHAINED_SUFFIX).exists()


# -- beside the pre-commit framework's own hook --------------------------------------------------


def _pre_commit_framework(repo: Path, env: dict[str, str], *args: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pre_commit", *args],
        cwd=repo, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


def _beside_the_framework(
    repo: Path, stub: dict[str, str], tmp_path: Path
) -> tuple[dict[str, str], Path]:
    """repo with the pre-commit framework's config committed and its hook installed; the
    environment the framework runs in, and the hooks folder."""
    env = {**stub, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}
    (repo / ".pre-commit-config.yaml").write_text("repos: []\n")
    git(repo, "add", ".pre-commit-config.yaml")
    git(repo, "commit", "-q", "-m", "the framework's config")
    _pre_commit_framework(repo, env, "install")
    return env, repo / ".git" / "hooks"


@pytest.mark.e2e
def test_beside_the_pre_commit_framework_both_run_whichever_installs_again(
    repo: Path, stub: dict[str, str], tmp_path: Path
) -> None:
    """The framework's own hook is chained the framework's way: gitmem's script becomes the
    `.legacy` hook it runs first. Chained gitmem's way, the next `pre-commit install` moved
    gitmem's script to `.legacy`, which ran the framework's hook again from its chained
    name, and the framework refused every commit from then on ("installed in migration
    mode"); `gitmem hooks install` run again after `pre-commit install` did the same."""
    env, folder = _beside_the_framework(repo, stub, tmp_path)
    framework = (folder / "pre-commit").read_bytes()
    for step, again in enumerate(("framework", "gitmem", "both")):
        install(repo, python=None)
        if again in ("framework", "both"):
            _pre_commit_framework(repo, env, "install")
        if again in ("gitmem", "both"):
            install(repo, python=None)
        assert (folder / "pre-commit").read_bytes() == framework
        (repo / "README.md").write_text(f"# project {step}\n")
        done = git_env(repo, env, "commit", "-q", "-am", f"change {step}")
        assert done.returncode == 0, done.stdout + done.stderr
        assert calls(env)[-1] == "gitmem hook pre-commit", again
    uninstall(repo)
    assert (folder / "pre-commit").read_bytes() == framework
    assert not any(is_gitmem_hook(p) for p in folder.iterdir())


@pytest.mark.e2e
def test_install_repairs_the_loop_an_earlier_chaining_of_the_framework_left(
    repo: Path, stub: dict[str, str], tmp_path: Path
) -> None:
    """An earlier gitmem chained the framework's hook as pre-commit.gitmem-chained; once
    `pre-commit install` had moved gitmem's script to .legacy, every commit failed. Installing
    again now leaves that state working: the chained copy of the framework's own generated
    script, which gitmem's .legacy script ran, is removed."""
    env, folder = _beside_the_framework(repo, stub, tmp_path)
    # what the earlier chaining made, then the framework's own install again
    os.link(folder / "pre-commit", folder / ("pre-commit" + CHAINED_SUFFIX))
    (folder / "pre-commit").unlink()  # replaced by a rename, as the installer writes
    write_exec(folder / "pre-commit", script("pre-commit"))
    _pre_commit_framework(repo, env, "install")
    (repo / "README.md").write_text("# broken\n")
    assert git_env(repo, env, "commit", "-q", "-am", "broken").returncode != 0
    install(repo, python=None)
    assert not (folder / ("pre-commit" + CHAINED_SUFFIX)).exists()
    done = git_env(repo, env, "commit", "-q", "-am", "repaired")
    assert done.returncode == 0, done.stdout + done.stderr
    assert calls(env)[-1] == "gitmem hook pre-commit"


@pytest.mark.e2e
def test_uninstall_hands_the_hook_gitmem_chained_back_to_the_framework(
    repo: Path, stub: dict[str, str], tmp_path: Path
) -> None:
    """A user's hook, then `gitmem hooks install` (the user's chained beside gitmem's), then
    `pre-commit install` (gitmem's script moved to .legacy): uninstall removed .legacy and
    left the user's hook on disk with nothing running it, without a word."""
    folder = repo / ".git" / "hooks"
    write_exec(folder / "pre-commit", FOREIGN_HOOK)
    install(repo, python=None)
    env = {**stub, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}
    (repo / ".pre-commit-config.yaml").write_text("repos: []\n")
    git(repo, "add", ".pre-commit-config.yaml")
    git_env(repo, env, "commit", "-q", "-m", "the framework's config")
    _pre_commit_framework(repo, env, "install")
    said = uninstall(repo)
    assert any("the previous hook is its pre-commit.legacy again" in line for line in said), said
    assert not (folder / ("pre-commit" + CHAINED_SUFFIX)).exists()
    (repo / "README.md").write_text("# changed\n")
    done = git_env(repo, env, "commit", "-q", "-am", "after uninstall")
    assert done.returncode == 0, done.stdout + done.stderr
    assert calls(env)[-1].startswith("foreign"), calls(env)


def test_a_hook_that_only_mentions_gitmem_in_a_comment_is_chained(repo: Path) -> None:
    """`# we used to run: gitmem hook pre-commit` was taken for a call: the hook was left as
    it was, unchained, and commits went unjudged."""
    folder = repo / ".git" / "hooks"
    write_exec(folder / "pre-commit", '#!/bin/sh\n# we used to run: gitmem hook pre-commit "$@"\n')
    install(repo, python=None)
    assert is_gitmem_hook(folder / "pre-commit")
    assert (folder / ("pre-commit" + CHAINED_SUFFIX)).exists()


@pytest.mark.e2e
def test_a_moved_environment_is_named_with_what_to_run(
    tmp_path: Path, bare_path_env: dict[str, str]
) -> None:
    """With the environment that installed the hooks moved or deleted, the commit was
    refused saying only that gitmem is not installed."""
    hook = tmp_path / "hooks" / "pre-commit"
    write_exec(hook, script("pre-commit", python=tmp_path / "gone" / "bin" / "python3"))
    done = run_hook(hook, bare_path_env, cwd=tmp_path)
    assert done.returncode == 1
    assert f"the gitmem that installed this hook ({tmp_path}/gone/bin/python3) is gone" in (
        done.stderr
    )
    assert "run gitmem hooks install again" in done.stderr
