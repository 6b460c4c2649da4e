"""The command line's group: every command loads, exit codes come back as values, and one place
maps what a command raises to its exit code."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import click
import pytest
from clirunner import PROPOSE, first_id, ok, run

from gitmem.cli import main as cli
from gitmem.errorlog import error_log_dir
from gitmem.errors import RuleError

from conftest import git


def test_every_command_is_listed_and_loads(memory: Path) -> None:
    for name in cli.COMMANDS:
        assert cli.main.get_command(None, name) is not None, name  # type: ignore[arg-type]
    listing = run(memory, "--help").output
    assert all(f"  {name}" in listing for name in cli.COMMANDS)


def test_every_command_that_reads_the_settings_says_which_it_set_aside(memory: Path) -> None:
    """A settings value gitmem cannot take (memory.dir given as a number) is set aside for
    the default with one warning line naming the file and the key, from every command that
    reads the settings: hygiene, harvest, import claude, export and review said nothing, and
    judged, proposed from and exported the default folder as if it were the one the project
    names."""
    from clirunner import SECRETS

    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    (memory / ".gitmem.toml").write_text("[memory]\ndir = 5\n")
    warned = "gitmem: warning: .gitmem.toml: memory.dir: expected a folder path"
    silent = []
    for command in (
        ["list"], ["show", first_id()], ["recall", "pygit2 hooks"], ["check"], ["index"],
        ["index", "--check"], ["candidates"], ["lint"], ["admit"], SECRETS,
        ["refuse", "nothing", "--reason", "none"],
        ["hygiene"], ["harvest", "--dry-run", "README.md"], ["import", "claude", "--dry-run"],
        ["export", "agents", "-o", "-"], ["review", first_id()],
        ["site", "--out", str(memory.parent / "site")],
    ):  # fmt: skip
        done = run(memory, *command)
        if done.stderr.count(warned) != 1:
            silent.append((command[0], done.exit_code, done.stderr))
    assert silent == []


def test_a_builtin_type_in_memory_types_is_named_as_doing_nothing(memory: Path) -> None:
    """`types = ["decision"]` was dropped without a word: the type is accepted anyway, and
    the person was left believing the line did something."""
    (memory / ".gitmem.toml").write_text('[memory]\ntypes = ["decision"]\n')
    done = run(memory, "list")
    assert done.exit_code == 0, done.output
    assert done.stderr == (
        "gitmem: warning: .gitmem.toml: memory.types holds the built-in type 'decision', which "
        "is accepted without being listed: remove it from memory.types\n"
    )


def test_the_code_is_returned_not_raised(memory: Path) -> None:
    old = Path.cwd()
    os.chdir(memory)
    try:
        assert cli.run(["check"]) == 0
        assert cli.run(["show", "no-such-id"]) == 2
        assert cli.run(["index", "--check"]) == 0
        assert cli.run(["--help"]) == 0
        assert cli.run(["no-such-command"]) == 2
    finally:
        os.chdir(old)


def test_expected_failures_map_to_their_codes_without_a_traceback(memory: Path) -> None:
    assert cli.exit_code(lambda: 1) == 1
    assert cli.exit_code(lambda: None) == 0

    def refused() -> None:
        raise RuleError("a rule said no: fix it")

    assert cli.exit_code(refused) == 1

    def interrupted() -> None:
        raise KeyboardInterrupt

    assert cli.exit_code(interrupted) == cli.INTERRUPTED


def test_an_unexpected_error_exits_3_with_a_private_log(
    memory: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(state))

    def broken() -> None:
        raise ValueError("boom")

    code = cli.exit_code(broken)
    assert code == 3
    logs = list(error_log_dir().iterdir())
    assert len(logs) == 1 and logs[0].parent == state / "gitmem" / "errors"
    assert "ValueError: boom" in logs[0].read_text()
    assert stat.S_IMODE(logs[0].stat().st_mode) == 0o600
    assert stat.S_IMODE(error_log_dir().stat().st_mode) == 0o700
    assert cli.exit_code(broken) == 3
    assert len(list(error_log_dir().iterdir())) == 2  # a new file each time


def test_a_real_process_prints_where_the_log_is(memory: Path, tmp_path: Path) -> None:
    """End to end, in its own process: a crash inside a command (a corrupt object the
    repository claims to have) exits 3 and names the log file."""
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    script = (
        "import sys\n"
        "from gitmem.cli import main as cli\n"
        "from gitmem.lifecycle import read\n"
        "def broken(*args, **kwargs):\n"
        "    raise ZeroDivisionError('planted')\n"
        "read.list_entries = broken\n"
        "sys.exit(cli.run(['list']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=memory, env=env, capture_output=True, text=True
    )
    assert done.returncode == 3, done.stderr
    assert "unexpected error (ZeroDivisionError('planted'))" in done.stderr
    assert str(tmp_path / "state" / "gitmem" / "errors") in done.stderr
    assert "Traceback" not in done.stderr
    git(memory, "status")  # the repository is untouched


#: one name longer than any file system takes (255 bytes): every look at it fails, ENAMETOOLONG
LONG = "a" * 300


@pytest.mark.parametrize(
    "args",
    [
        ["export", "agents", "-o", f"{LONG}.md"],
        ["site", "--out", LONG],
        ["import", "claude", "--from", LONG],
        ["harvest", f"{LONG}.md"],
        ["init", "--dir", LONG],
    ],
    ids=["export", "site", "import", "harvest", "init"],
)
def test_a_path_the_system_refuses_is_named_not_an_unexpected_error(
    memory: Path, args: list[str]
) -> None:
    """pathlib's is_dir() and exists() raise for a name too long (or a folder that cannot be
    searched): each of these ended in "unexpected error (OSError(36, 'File name too long'))",
    exit 3 and a log to report, for a path the user typed."""
    result = run(memory, *args)
    assert result.exit_code == 2, result.output
    said = re.fullmatch(
        r"gitmem: '(.*)…a*(\.md)?' \(\d{3} characters\): File name too long: give a shorter path\n",
        result.output,
    )
    assert said is not None, result.output
    assert "unexpected" not in result.output
    assert git(memory, "status", "--porcelain", "--untracked-files=all") == ""


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full")
def test_output_to_a_full_disk_is_said_as_such(memory: Path, tmp_path: Path) -> None:
    """`gitmem list > /dev/full` ended as an unexpected error to report (exit 3)."""
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [sys.executable, "-m", "gitmem", "list"],
            cwd=memory, env=env, stdout=full, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        "gitmem: cannot write the output: No space left on device: free some space on the "
        "disk, then run the command again\n"
    )
    assert not (tmp_path / "state").exists()  # no log: nothing to report


@pytest.mark.parametrize("command", [["list"], ["recall", "hooks"], ["check", "--staged"]])
def test_a_current_folder_deleted_under_the_shell_is_said_as_such(
    memory: Path, tmp_path: Path, command: list[str]
) -> None:
    """A folder of the work tree removed (`rm -r` in another terminal) while a shell sat in
    it: every command that looks for its repository ended as an unexpected error to report
    (exit 3, FileNotFoundError from os.getcwd()), where git says it cannot read the current
    folder. It is the user's to change: exit 2, and what to do."""
    (memory / "gone").mkdir()
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    done = subprocess.run(
        ["sh", "-c", 'cd gone && rmdir "$PWD" && exec "$0" -m gitmem "$@"', sys.executable,
         *command],
        cwd=memory, env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        "gitmem: the current folder no longer exists (it was deleted or moved after the shell "
        "entered it): cd into the repository again, then run the command again\n"
    )
    assert not (tmp_path / "state").exists()  # no log: nothing to report


@pytest.mark.parametrize(
    ("args", "said"),
    [
        ([b"check", b"\xff.md"], b"\\xff.md:1: FRONT-MATTER has no front matter"),
        ([b"export", b"agents", b"-o", b"\xfe.md"], b"wrote \\xfe.md: "),
    ],
    ids=["check", "export"],
)
def test_a_name_that_is_not_utf8_is_printed_escaped_in_a_utf8_locale(
    memory: Path, tmp_path: Path, args: list[bytes], said: bytes
) -> None:
    """In a UTF-8 locale (en_US.UTF-8: Python encodes the standard output strictly there), a
    file name given in bytes that are not UTF-8 failed the command once its work was done:
    "unexpected error (UnicodeEncodeError(… 'surrogates not allowed'))", exit 3, the file
    already checked or written. PYTHONIOENCODING stands in for a locale this machine may
    lack."""
    (memory / os.fsdecode(b"\xff.md")).write_text("not an entry\n")
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict", "PYTHONUTF8": "0", "LC_ALL": ""}
    env["XDG_STATE_HOME"] = str(tmp_path / "state")
    done = subprocess.run(
        [sys.executable.encode(), b"-m", b"gitmem", *args],
        cwd=memory, env=env, capture_output=True,
    )  # fmt: skip
    assert b"unexpected" not in done.stderr, done.stderr
    assert said in done.stdout, done.stdout
    assert done.returncode in (0, 1), done.stderr


def test_every_option_of_every_command_says_what_it_does() -> None:
    """`list --status` had no help, `init --branch` said "default main" (issue 14)."""
    main = cli.main
    ctx = click.Context(main)

    def options(command: click.Command, name: str) -> list[tuple[str, click.Option]]:
        if isinstance(command, click.Group):
            return [
                found
                for sub in command.list_commands(ctx)
                for found in options(command.get_command(ctx, sub), f"{name} {sub}")  # type: ignore[arg-type]
            ]
        return [(name, p) for p in command.params if isinstance(p, click.Option)]

    found = [o for n in cli.COMMANDS for o in options(main.get_command(ctx, n), n)]  # type: ignore[arg-type]
    assert len(found) > 50
    for name, option in found:
        assert option.help, f"gitmem {name} {option.opts[0]} has no help"
    helped = {f"{n} {o.opts[0]}": o.help or "" for n, o in found}
    assert "origin's default branch" in helped["init --branch"]
    assert "gate" in helped["recall --min-score"]


INTERRUPT_AT_IMPORT = """
import os, sys
target = os.environ["GITMEM_TEST_INTERRUPT_AT"]
class Interrupt:
    def find_spec(self, name, path=None, target_=None):
        if name == target:
            sys.meta_path.remove(self)
            raise KeyboardInterrupt
sys.meta_path.insert(0, Interrupt())
"""


def test_a_ctrl_c_inside_a_rust_extension_exits_130(memory: Path, tmp_path: Path) -> None:
    """A Ctrl-C while the schema library (Rust, pyo3) imports `decimal` came back as pyo3's
    PanicException, a BaseException: a Rust panic's traceback and exit 1, the rule-failure
    code. Simulated exactly: the import of `decimal` raises KeyboardInterrupt."""
    ok(run(memory, *PROPOSE))
    hook = tmp_path / "interrupt"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(INTERRUPT_AT_IMPORT)
    env = {**os.environ, "PYTHONPATH": str(hook), "GITMEM_TEST_INTERRUPT_AT": "decimal"}
    done = subprocess.run(
        [sys.executable, "-m", "gitmem", "admit", first_id()],
        cwd=memory, env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 130, done.stderr
    assert done.stderr == "gitmem: interrupted\n"
    assert git(memory, "branch", "--list", f"gitmem/{first_id()}").strip()


def test_a_ctrl_c_python_raises_again_as_another_error_exits_130(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A Ctrl-C while a lazy import made a dataclass came back as "RuntimeError: Error calling
    __set_name__ on 'Field' instance…", caused by the KeyboardInterrupt: an unexpected error
    to report (exit 3, a log) for the user's own Ctrl-C."""

    def made_a_class() -> None:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as exc:
            raise RuntimeError("Error calling __set_name__ on 'Field' instance 'number'") from exc

    assert cli.exit_code(made_a_class) == cli.INTERRUPTED
    assert capsys.readouterr().err == "gitmem: interrupted\n"

    def said_the_word() -> None:
        raise ValueError("no entry named KeyboardInterrupt")

    assert cli.exit_code(said_the_word) == 3  # an error that only quotes it is not one


@pytest.mark.parametrize("module", ["gitmem.repo.workspace", "gitmem.cli.main"])
def test_a_ctrl_c_outside_the_command_line_exits_130_without_a_traceback(
    memory: Path, tmp_path: Path, module: str
) -> None:
    """The agent hook (run without the command line) and the import of the command line
    itself ended a Ctrl-C in a KeyboardInterrupt traceback, killed by the signal."""
    hook = tmp_path / "interrupt"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(INTERRUPT_AT_IMPORT)
    env = {**os.environ, "PYTHONPATH": str(hook), "GITMEM_TEST_INTERRUPT_AT": module}
    args = ["agent-hook", "SessionStart"] if module.startswith("gitmem.repo") else ["list"]
    done = subprocess.run(
        [sys.executable, "-m", "gitmem", *args],
        cwd=memory, env=env, capture_output=True, text=True, input="{}",
    )  # fmt: skip
    assert done.returncode == 130, done.stderr
    assert done.stderr == "gitmem: interrupted\n"


PANIC = type("PanicException", (BaseException,), {"__module__": "pyo3_runtime"})


@pytest.mark.parametrize(
    ("message", "code", "said"),
    [
        ("failed to import: PyErr { type: <class 'KeyboardInterrupt'> }", 130, "interrupted"),
        ("index out of bounds", 3, "unexpected error"),
    ],
)
def test_a_rust_panic_is_an_interrupt_or_an_internal_error(
    message: str, code: int, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """pyo3's PanicException is a BaseException, which `except Exception` let through as a
    traceback: a Ctrl-C inside an extension is 130, any other panic is a bug (3, logged)."""

    def panics() -> int:
        raise PANIC(message)

    assert cli.exit_code(panics) == code
    assert said in capsys.readouterr().err


def _gitmem(cwd: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gitmem", *args],
        cwd=cwd, env={**os.environ, **env}, capture_output=True, text=True,
    )  # fmt: skip


def _dotfiles(memory: Path, tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    """A bare clone of memory with its work tree elsewhere, as dotfiles are kept, and the
    GIT_DIR and GIT_WORK_TREE that name it."""
    dot, home = tmp_path / "dot.git", tmp_path / "home"
    git(tmp_path, "clone", "-q", "--bare", str(memory), str(dot))
    home.mkdir()
    env = {"GIT_DIR": str(dot), "GIT_WORK_TREE": str(home)}
    for args in (["checkout", "-q", "main", "--", "."], ["reset", "-q"]):
        done = subprocess.run(
            ["git", *args], cwd=tmp_path, env={**os.environ, **env}, capture_output=True,
            text=True,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
    return dot, home, env


@pytest.mark.e2e
def test_git_dir_and_git_work_tree_name_the_repository_as_they_do_for_git(
    memory: Path, tmp_path: Path
) -> None:
    """GIT_DIR (and GIT_WORK_TREE) set by a person were ignored: gitmem found the repository
    around the working folder, so from inside another repository it read and wrote that
    one's memory, and a bare repository with its work tree elsewhere (as dotfiles are kept)
    was "not inside a git repository". Commands now work on the repository they name, and
    the hooks they install judge commits made there."""
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    other = tmp_path / "other"
    git(tmp_path, "init", "-q", "-b", "main", str(other))
    (other / "README.md").write_text("# other\n")
    git(other, "add", "README.md")
    git(other, "commit", "-q", "-m", "other")
    named = {"GIT_DIR": str(memory / ".git")}
    listed = _gitmem(other, named, "list")
    assert listed.returncode == 0 and first_id() in listed.stdout, listed.stderr

    dot, home, env = _dotfiles(memory, tmp_path)
    for args in (["hooks", "install"], ["list"], ["check"], ["index"], ["recall", "pygit2 hooks"]):
        done = _gitmem(tmp_path, env, *args)
        assert done.returncode == 0, (args, done.stdout, done.stderr)
    assert (dot / "hooks" / "pre-commit").exists()
    title = ["--title", "Keep dotfiles in a bare repository"]
    done = _gitmem(tmp_path, env, *PROPOSE[:3], *title, *PROPOSE[5:])
    assert done.returncode == 0, done.stderr
    entry_id = done.stdout.split()[1]
    done = _gitmem(tmp_path, env, "admit", entry_id, "--by", "human:alice")
    assert done.returncode == 0, done.stderr
    assert (home / f".gitmem/entries/decision/{entry_id}.md").is_file()
    status = subprocess.run(
        ["git", "status", "--porcelain"],
        cwd=tmp_path, env={**os.environ, **env}, capture_output=True, text=True,
    )  # fmt: skip
    assert status.stdout == "", status.stdout
    assert git(other, "branch", "--list", "gitmem/*") == ""
    assert not (other / ".gitmem").exists() and not (tmp_path / ".gitmem").exists()

    broken = home / ".gitmem/entries/decision/broken.md"
    broken.write_text("---\nid: x\n---\nbody\n")
    for args in (["add", str(broken)], ["commit", "-q", "-m", "broken"]):
        done = subprocess.run(
            ["git", *args], cwd=tmp_path, env={**os.environ, **env}, capture_output=True,
            text=True,
        )  # fmt: skip
    assert done.returncode != 0 and "SECTIONS" in done.stderr, done.stderr


def test_a_relative_git_work_tree_is_read_from_the_current_folder_as_git_reads_it(
    memory: Path, tmp_path: Path
) -> None:
    """`GIT_DIR=work/.git GIT_WORK_TREE=work gitmem check --staged`, run from the folder
    above, said GIT_DIR named no repository (exit 2), though git answers from there:
    libgit2 read the relative work tree from the git directory. Inside a hook of `git
    --git-dir=work/.git --work-tree=work commit`, git sets GIT_DIR=.git and GIT_WORK_TREE=.,
    and the work tree was taken to be the git directory."""
    broken = memory / ".gitmem/entries/decision/broken.md"
    broken.parent.mkdir(parents=True)
    broken.write_text("---\nid: x\n---\nbody\n")
    git(memory, "add", str(broken))
    relative = {"GIT_DIR": f"{memory.name}/.git", "GIT_WORK_TREE": memory.name}
    done = _gitmem(memory.parent, relative, "check", "--staged")
    assert done.returncode == 1 and "SECTIONS" in done.stdout, (done.stdout, done.stderr)

    in_a_hook = {**os.environ, "GIT_DIR": ".git", "GIT_WORK_TREE": "."}
    opened = subprocess.run(
        [sys.executable, "-c", "from gitmem.repo.store import Store; "
         "print(Store.open(None, from_env=True).workdir)"],
        cwd=memory, env=in_a_hook, capture_output=True, text=True,
    )  # fmt: skip
    assert opened.stdout.strip() == str(memory), opened.stderr


def test_a_git_directory_whose_core_worktree_names_its_work_tree_is_run_from_inside(
    memory: Path, tmp_path: Path
) -> None:
    """Run inside a git directory whose core.worktree names a work tree elsewhere (the other
    way of keeping dotfiles), gitmem opened the repository, then ran git in the work tree,
    which has no .git: `gitmem index` said "git cat-file failed: fatal: not a git
    repository". git itself works from there, and so does gitmem now."""
    dot, home, _ = _dotfiles(memory, tmp_path)
    git(dot, "config", "core.bare", "false")
    git(dot, "config", "core.worktree", str(home))
    for args in (["index"], ["index", "--check"], ["list"], ["check"]):
        done = _gitmem(dot, {}, *args)
        assert done.returncode == 0, (args, done.stdout, done.stderr)
    assert (home / ".gitmem" / "CANDIDATES.md").is_file()
    assert not (dot / ".gitmem").exists()


def test_recall_from_inside_a_git_directory_whose_core_worktree_names_its_work_tree(
    memory: Path, tmp_path: Path
) -> None:
    """`gitmem recall` run inside a git directory whose core.worktree names a work tree
    elsewhere said "<work tree> is not inside a git repository" (exit 2; `--format
    precedents` printed nothing): it looked for the memory from the work tree git named,
    which has no .git, where every other command opens the repository found here. It
    answers from there now, cold and warm (the cache kept in that git directory)."""
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    dot, home, _ = _dotfiles(memory, tmp_path)
    git(dot, "config", "core.bare", "false")
    git(dot, "config", "core.worktree", str(home))
    for _ in range(2):
        for fmt in ("text", "json", "precedents"):
            done = _gitmem(dot, {}, "recall", "--format", fmt, "pygit2 inside hooks")
            assert done.returncode == 0, (fmt, done.stdout, done.stderr)
            assert first_id() in done.stdout and done.stderr == "", (fmt, done.stdout, done.stderr)
    assert (dot / "gitmem" / "recall").is_dir()
    assert not (home / ".git").exists()


def test_hooks_install_names_the_repository_git_dir_names(memory: Path, tmp_path: Path) -> None:
    """`GIT_DIR=server.git gitmem hooks install --server` from another folder wrote the hook
    (git was told GIT_DIR), then read the policy from the folder it ran in ("not inside a
    git repository", exit 2, the server left with a hook and no policy). It installs into
    the repository GIT_DIR names, policy included, and uninstalls from it."""
    server = tmp_path / "server.git"
    git(tmp_path, "clone", "-q", "--bare", str(memory), str(server))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = _gitmem(elsewhere, {"GIT_DIR": str(server)}, "hooks", "install", "--server")
    assert done.returncode == 0, done.stderr
    assert (server / "hooks" / "pre-receive").is_file()
    assert git(server, "config", "gitmem.branch").strip() == "main"
    done = _gitmem(elsewhere, {"GIT_DIR": str(server)}, "hooks", "uninstall", "--server")
    assert done.returncode == 0, done.stderr
    assert not (server / "hooks" / "pre-receive").exists()


@pytest.mark.e2e
def test_the_post_hooks_find_the_repository_git_dir_names(memory: Path, tmp_path: Path) -> None:
    """With GIT_DIR and GIT_WORK_TREE set (dotfiles), every `git checkout` printed
    "gitmem: post-checkout: … is not inside a git repository": the post-* hooks looked for
    the repository from the work tree, which has no .git. They take it as commands do."""
    _, home, env = _dotfiles(memory, tmp_path)
    assert _gitmem(tmp_path, env, "hooks", "install").returncode == 0
    (home / ".gitmem/CANDIDATES.md").unlink(missing_ok=True)
    done = subprocess.run(
        ["git", "checkout", "-q", "-b", "side"],
        cwd=tmp_path, env={**os.environ, **env}, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0 and "gitmem" not in done.stderr, done.stderr
    assert (home / ".gitmem/CANDIDATES.md").is_file()  # the hook's work, done


def test_a_mistyped_command_names_the_closest_ones(memory: Path) -> None:
    """git answers `git comit` with the command it most likely meant; gitmem said only "No
    such command 'recal'". The closest commands are named (exit 2, nothing run), and a word
    like none of them is refused as before."""
    done = run(memory, "recal", "retries")
    assert done.exit_code == 2
    assert "No such command 'recal'. The most similar command is 'recall'." in done.output
    done = run(memory, "candidate")
    assert "The most similar command is 'candidates'." in done.output
    done = run(memory, "zzz")
    assert done.exit_code == 2 and "No such command 'zzz'." in done.output
    assert "most similar" not in done.output


def test_help_gives_a_commands_help_as_git_help_does(memory: Path) -> None:
    """`git help commit` is how git users ask; `gitmem help recall` said "No such command
    'help'". It gives the text of `gitmem recall --help` (a group's sub-command too), gitmem's
    own with no command, and names the closest commands for a mistyped one (exit 2)."""
    for words in (["recall"], ["hooks", "install"], []):
        assert ok(run(memory, "help", *words)).output == ok(run(memory, *words, "--help")).output
    mistyped = run(memory, "help", "hooks", "instal")
    assert mistyped.exit_code == 2, mistyped.output
    assert mistyped.output == (
        "gitmem: no command 'hooks instal'. The most similar commands are 'install', "
        "'uninstall'. `gitmem hooks --help` lists the commands\n"
    )
    unknown = run(memory, "help", "zzz")
    assert unknown.exit_code == 2 and "most similar" not in unknown.output


def test_a_system_without_git_is_told_to_install_it(memory: Path) -> None:
    """Commands that start git (admit, index, site, a push) went through a dozen places that
    each ran `git` and let the FileNotFoundError of a system without it through: exit 3, an
    "unexpected error" and a traceback file, for what is the user's to fix."""
    ok(run(memory, *PROPOSE))
    no_git = memory.parent / "bin-without-git"
    no_git.mkdir()
    env = {**os.environ, "PATH": str(no_git)}
    for args in (["admit", first_id()], ["index"], ["site", "--out", str(memory.parent / "s")]):
        done = subprocess.run(
            [sys.executable, "-m", "gitmem", *args],
            cwd=memory,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 2, (args, done.stderr)
        assert done.stderr == "gitmem: git is not installed (or not on PATH): install git first\n"
