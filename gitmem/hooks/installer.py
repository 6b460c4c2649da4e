"""Install and remove gitmem's git hooks without ever losing someone else's.

Each script is the one template rendered for its hook (gitmem.hooks.template; the renderings
also sit in `gitmem/hooks/scripts/`, which `hooks/` at the top of the source tree points at).
Each one only finds gitmem and runs `gitmem hook <name>`; the installer's rendering tries first
the interpreter that ran it (an absolute path, with its gitmem package: an IDE or a GUI git
client runs hooks without the virtual environment on PATH), then `gitmem` on PATH, then
python3's gitmem module, the way pre-commit's own hook template does. A hooks folder shared
through the repository records no interpreter (one machine's path means nothing on another)
and its scripts find gitmem on PATH. Shared means that the files written there travel with
the repository: the folder, links followed, lies in the work tree (outside the git
directory), however core.hooksPath spells it (absolute, relative, `../hooks` is outside), and
git does not ignore the scripts' paths there (a tracked file never is; a folder neither
tracked nor ignored is shared, since `git add -A` commits what is written in it); a folder
in .gitignore is a clone's own. A script is recognised as gitmem's by its marker line, so
the installer can tell its own files from a user's:

- a hook that was there before gitmem (`X`) is moved to `X.gitmem-chained` and the gitmem
  script runs it first, with the same arguments and standard input, under the name git gives
  it (`$0` ends in `/X`: the template says how); when that name is taken too, the installer
  refuses rather than guess;
- the pre-commit framework's own hook is chained its way: gitmem's script is written as
  `X.legacy`, which the framework's hook runs first and `pre-commit install` and
  `pre-commit uninstall` keep (a `.legacy` that is not gitmem's is refused);
- a hook that already runs `gitmem hook NAME` itself is left as is; a hook tracked in the
  repository (core.hooksPath inside the work tree) is never renamed, and a folder husky manages
  is refused: the message says which line to add instead;
- every hook is checked before any file is touched, and every problem is named in one
  refusal (exit 2: a file in the way, a folder another tool manages, a hooks folder the
  user cannot write, a hook the user cannot read and so cannot tell from gitmem's, another
  user's hook in a folder with the sticky bit, are the user's to resolve, not a rule that
  failed); a write the system refuses after that (a full disk, a
  file it will not let gitmem replace) stops the install with the hooks installed and not
  installed named. Nothing is rolled back: each hook is whole at every moment (gitmem's
  script running the user's, or the user's alone), so running install again finishes and
  uninstall undoes, where a rollback would repeat the kind of write that just failed;
- installing twice changes nothing; an older gitmem script is replaced;
- uninstall removes only files carrying the marker and moves `X.gitmem-chained` back to `X`,
  byte for byte (it is a rename, never a rewrite). It too decides every hook's removal before
  it removes any (a folder where a chained hook should go back, a hooks folder it cannot
  write to, are refused with nothing changed), and a removal the system refuses after that
  stops it naming the hooks removed and those still installed: uninstall again finishes;
- a stop half-way is exit 2 when the system's reason is the user's to fix (no permission, a
  full or read-only disk: gitmem.errors.SYSTEM_ADVICE), exit 3 (unexpected, its traceback
  logged) for any other, such as an I/O error, as the command line reports them elsewhere.

With `--server`, the installer also writes the gate's policy into the repository's own git
config (`gitmem.branch`, `gitmem.dir`, … see gitmem.settings.policy), from the settings
committed at the tip of HEAD's branch (the defaults in an empty repository): the pre-receive
hook judges by that config alone, never by a pushed tree. Running it again updates those keys
to the settings committed then; the reviewed exceptions (`gitmem.allow`), which no committed
file holds, are left as they are, and so is the enforcement mode (`gitmem.enforcement`), which
only `--warn` (report, do not reject, save a secret) and `--enforce` (the default) change.
A run that finds every value in place writes no config, and so needs no git directory the
user can write, as a plain install with its merge driver configured needs none. Uninstall
leaves the config: a re-install finds it.

The hooks folder is the one git itself runs hooks from (`core.hooksPath`, relative, absolute or
`~`; the common folder of linked worktrees; bare repositories), asked of git directly.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import gitmem
from gitmem.errors import SYSTEM_ADVICE, UNEXPECTED, USAGE, GitmemError, UsageError
from gitmem.hooks.template import render, sh_quote
from gitmem.model.names import CLIENT_HOOKS, SERVER_HOOKS
from gitmem.repo.atomic import ABANDONED_AGE, atomic_write, open_regular, remove_temporaries_of
from gitmem.repo.gitcli import GitFailed, GitIn, PinnedRepository

MARKER = b"# gitmem-managed-hook"
CHAINED_SUFFIX = ".gitmem-chained"
#: The pre-commit framework's hook scripts say so in their first lines, and run the hook
#: beside them with this suffix first ("migration mode"); `pre-commit install` moves a hook
#: that is not its own to that name, and `pre-commit uninstall` puts it back.
FRAMEWORK_MARK = b"# File generated by pre-commit:"
FRAMEWORK_SUFFIX = ".legacy"

MERGE_DRIVER = "merge.gitmem-index"
_DRIVER_ARGS = "index --merge-driver %O %A %B %P"

# Where the marker may sit: the script's first lines (a shebang, then the marker).
_MARKER_WINDOW = 512


#: The interpreter running gitmem now and its gitmem package, which the hooks it installs
#: try first.
THIS_PYTHON = Path(sys.executable).absolute() if sys.executable else None
THIS_PACKAGE = Path(gitmem.__file__).absolute().parent


def script(name: str, python: Path | None = None, package: Path = THIS_PACKAGE) -> bytes:
    """gitmem's script for hook `name` (the one template, rendered) and, when given, the
    interpreter (an absolute path) it tries first while that gitmem package exists."""
    return render(name, python, package)


def merge_driver_config(
    python: Path | None = None, package: Path = THIS_PACKAGE
) -> tuple[tuple[str, str], ...]:
    """The git config of the INDEX.md merge driver. git runs the driver through the shell, so,
    like the hooks, it tries the interpreter that installed it while that gitmem exists, then
    gitmem on PATH: a merge in a GUI git client finds gitmem too. The config is the clone's
    own (never shared), so the path is recorded even when the hooks folder is shared."""
    driver = f"gitmem {_DRIVER_ARGS}"
    if python is not None:
        py, init = sh_quote(str(python)), sh_quote(str(package / "__init__.py"))
        driver = f"[ -x {py} ] && [ -f {init} ] && exec {py} -P -m gitmem {_DRIVER_ARGS}; {driver}"
    return (
        (f"{MERGE_DRIVER}.name", "gitmem INDEX.md regeneration"),
        (f"{MERGE_DRIVER}.driver", driver),
    )


def is_framework_hook(path: Path) -> bool:
    """Whether the file at path is the pre-commit framework's hook script.  It is chained
    the framework's way, gitmem's script written as its `.legacy` hook (_install_one): chained
    gitmem's way, the next `pre-commit install` moved gitmem's script to `.legacy`, which
    ran the framework's hook again from its chained name, and the framework refused every
    commit ("installed in migration mode"); so did `gitmem hooks install` run again after it."""
    return _marked(path, FRAMEWORK_MARK)


def is_gitmem_hook(path: Path) -> bool:
    """Whether the file at path is a gitmem script (any version), by its marker line."""
    return _marked(path, MARKER)


def _marked(path: Path, mark: bytes) -> bool:
    """Whether a line near the top of the file at path starts with mark (False: unreadable)."""
    head = _read_hook(path, _MARKER_WINDOW)
    return head is not None and any(line.strip().startswith(mark) for line in head.splitlines())


def _read_hook(path: Path, limit: int = -1) -> bytes | None:
    """The bytes of the hook at path (at most limit of them), through a link as git runs
    it; None when it cannot be read or is no regular file. A named pipe at a hook's place
    was opened to look for gitmem's marker, and install and uninstall waited for good for a
    writer: it is opened without waiting (O_NONBLOCK) and judged by what it is."""
    try:
        with open_regular(path, follow_links=True) as handle:
            return handle.read(limit)
    except (OSError, ValueError):
        return None


def hooks_dir(repo_path: Path, pinned: PinnedRepository | None = None) -> Path:
    """The folder git runs this repository's hooks from, as an absolute path.

    git answers itself (`rev-parse --git-path hooks`), so `core.hooksPath` is honoured exactly
    as git reads it: `~` expanded, a relative path taken from the work tree root (or from the
    git directory of a bare repository), and linked worktrees share the common folder. The
    hook's own GIT_* variables are stripped, since repo_path (or pinned) names the repository.
    """
    return _hooks_dir(GitIn(repo_path, pinned))


def _hooks_dir(git: GitIn) -> Path:
    out = git.output("rev-parse", "--path-format=absolute", "--git-path", "hooks")
    path = Path(out)
    if not path.is_absolute():
        raise UsageError(
            f"git answered a relative hooks folder ({out!r}): gitmem needs git 2.31 or newer"
        )
    return path


def install(
    repo_path: Path,
    *,
    server: bool = False,
    enforcement: str | None = None,
    python: Path | None = THIS_PYTHON,
    package: Path = THIS_PACKAGE,
    pinned: PinnedRepository | None = None,
) -> list[str]:
    """Install gitmem's client hooks (or, with server, the pre-receive hook) into repo_path
    (pinned, the repository GIT_DIR names, when a person set it).

    The scripts try python (by default the interpreter running this) first while its gitmem
    package exists, unless the hooks folder is shared through the repository. With server,
    enforcement (policy.ENFORCE or policy.WARN) sets the server's mode; None keeps it. Returns
    one line per action. Refuses, changing nothing, when a hook cannot be installed without
    losing a file.
    """
    from gitmem.settings.policy import MODES

    if enforcement is not None and not server:
        raise UsageError(
            "warn and enforce modes are the server's (its git config): they go with --server; "
            "the client hooks judge the same in either"
        )
    if enforcement is not None and enforcement not in MODES:
        raise UsageError(f"enforcement {enforcement!r} is not one of {', '.join(MODES)}")
    git = GitIn(repo_path, pinned)
    # everything is decided before anything is written: every refusal, and the policy a
    # server's config gets (read after the hook was written, a failure to read it left the
    # hook refusing every push with no policy beside it)
    names, folder, recorded, policy = _decide(git, server, python, package, enforcement)
    lines = [f"hooks folder: {folder}"]
    shared = _hooks_path_scope(git)
    if shared is not None:
        lines.append(
            f"note: core.hooksPath comes from your {shared} git config: these hooks run in "
            "every repository that uses that folder; to keep them to this one, set "
            "core.hooksPath in its own config (git config core.hooksPath .git/hooks) first"
        )
    if python is not None and recorded is None:
        lines.append("the hooks are shared through the repository: they find gitmem on PATH")
    installed: list[str] = []
    try:
        folder.mkdir(parents=True, exist_ok=True)
        # the temporary a killed install left beside a hook it was writing: in a hooks folder
        # shared through the repository (core.hooksPath), `git add -A` commits it
        remove_temporaries_of((folder / name for name in names), ABANDONED_AGE)
        for name in names:
            lines.append(_install_one(folder, name, script(name, recorded, package)))
            installed.append(name)
        if policy is not None:
            lines.append(_write_policy(git, *policy))
            lines.append(_configure_object_checks(git))
            lines.append(_configure_enforcement(git, enforcement))
        else:
            lines.append(_configure_merge_driver(git, merge_driver_config(python, package)))
    except (OSError, GitmemError) as exc:
        config = "the server's policy" if server else "the INDEX.md merge driver"
        again = f"gitmem hooks install{' --server' if server else ''}"
        rest = [name for name in names if name not in installed]
        raise _stopped(
            f"installing gitmem's hooks in {folder}",
            _account("installed", installed, rest, config),
            f"run `{again}` again to finish, or `gitmem hooks uninstall"
            + (" --server" if server else "")
            + "` to remove what is installed (chained hooks go back)",
            exc,
        ) from exc
    return lines


def check_install(
    repo_path: Path, *, server: bool = False, pinned: PinnedRepository | None = None
) -> None:
    """Refuse (UsageError, exit 2) what install would refuse before writing anything, and
    return when it would go ahead. A command that writes other files before it installs
    the hooks (`gitmem init --hooks`) asks first: it wrote the memory folder, then the hooks
    were refused, and the refusal said "nothing was installed" over the files it had made."""
    _decide(GitIn(repo_path, pinned), server)


def _decide(
    git: GitIn,
    server: bool,
    python: Path | None = THIS_PYTHON,
    package: Path = THIS_PACKAGE,
    enforcement: str | None = None,
) -> tuple[tuple[str, ...], Path, Path | None, tuple[str, list[tuple[str, str]]] | None]:
    """The hooks install writes, the folder it writes them in, the interpreter their
    scripts record (None: they find gitmem on PATH, being shared through the repository)
    and, with server, the policy the config gets (_policy_to_write), every refusal checked;
    python and package, those the hooks and the merge driver are to run, and enforcement,
    the server's mode (install's arguments)."""
    _refuse_object_format(git)
    if not server and _is_bare(git):
        raise UsageError(
            f"{git.folder} is a bare repository, where client hooks never run: install the "
            "server hook with `gitmem hooks install --server`"
        )
    names = SERVER_HOOKS if server else CLIENT_HOOKS
    folder = _hooks_dir(git)
    # a config it cannot write was met once the hooks were written ("every hook is
    # installed, but not the INDEX.md merge driver"); one that already holds every value
    # is not written, and needs no git directory the user can write
    policy = _policy_to_write(git) if server else None
    if policy is not None:
        configured = _server_config_differs(git, policy[1], enforcement)
    else:
        configured = _differs(git, merge_driver_config(python, package))
    recorded = None if _shared_through_repository(git, folder, names) else python
    texts = {name: script(name, recorded, package) for name in names}
    _refuse_conflicts(git, folder, texts, _unwritable_config(git, "install") if configured else [])
    return names, folder, recorded, policy


def _account(done_word: str, done: list[str], rest: list[str], config: str | None) -> str:
    """What a stopped install or uninstall did and did not, hook by hook (done: those it
    dealt with, rest: those it had still to, each said as the stop left it), and the config
    step it did not reach (None: none was left to do)."""
    if not rest:
        return f"every hook is {done_word}" + (f", but not {config}" if config else "")
    listed = f"{done_word}: {', '.join(done)}; " if done else f"no hook was {done_word}; "
    return f"{listed}not {done_word}: {', '.join(rest)}" + (f", nor {config}" if config else "")


def _stopped(doing: str, account: str, then: str, exc: Exception) -> GitmemError:
    """The error of an install or an uninstall that failed writing, after every check had
    passed (a full disk, a file the system would not let it replace or remove, a git config
    it could not write): doing (what stopped), account (what is done and what is not), then
    (how to finish or undo).

    Nothing is rolled back: each hook was written, removed or put back whole or not at all
    (a rename, an unlink), and a chained hook is the user's or gitmem's running it at every
    moment, so the folder is in a working state. Undoing would run the same kind of writes
    that just failed, and could leave less than it found. Run again, either command takes up
    where it stopped.

    Exit 2 when the system's reason is one its user fixes (errors.SYSTEM_ADVICE: no
    permission, a read-only or full disk, …) or git's refusal; any other (an I/O error,
    EIO: a failing disk or a network file system gone) is exit 3, unexpected, as the command
    line reports such an error anywhere else."""
    if isinstance(exc, GitFailed):  # the advice to fix and run again is this message's own
        reason, code = exc.reason, USAGE
    elif isinstance(exc, GitmemError):
        reason, code = exc.message, USAGE
    else:
        reason = _os_reason(exc)
        fixable = isinstance(exc, OSError) and exc.errno in SYSTEM_ADVICE
        code = USAGE if fixable else UNEXPECTED
    return GitmemError(
        f"{doing} stopped: {reason}; {account}. Fix the cause, then {then}", exit_code=code
    )


def _os_reason(exc: Exception) -> str:
    """What the system said (and about which path) for an OSError."""
    if not isinstance(exc, OSError):
        return str(exc)
    reason = exc.strerror or str(exc)
    return f"{exc.filename}: {reason}" if exc.filename else reason


def _refuse_object_format(git: GitIn) -> None:
    """Refuse, before any hook is written, a repository whose objects or refs gitmem cannot
    read (SHA-256 objects, reftable refs): its hooks would refuse every commit of memory and
    every push with an error, and the server's would be installed with no policy beside
    it. A git older than 2.45 echoes `--show-ref-format` back, and makes no reftable
    repository either."""
    from gitmem.repo.store import unsupported_extension, unsupported_object_format

    done = git.run("rev-parse", "--show-object-format")
    if done.returncode == 0 and done.stdout.strip() not in ("", "sha1"):
        raise UsageError(unsupported_object_format(str(git.folder)))
    done = git.run("rev-parse", "--show-ref-format")
    if done.returncode == 0 and done.stdout.strip() == "reftable":
        raise UsageError(unsupported_extension(str(git.folder), "refstorage"))


def _hooks_path_scope(git: GitIn) -> str | None:
    """The scope ("global" or "system") of a core.hooksPath set beyond the repository's config.

    The folder it names serves every repository of the user (or the machine): installing
    there, which git's own answer for the hooks folder leads to, changed them all with
    nothing said but the folder's path."""
    done = git.run("config", "--show-scope", "--get", "core.hooksPath")
    if done.returncode != 0:
        return None
    scope = done.stdout.split("\t", 1)[0].strip()
    return scope if scope in ("global", "system") else None


def uninstall(
    repo_path: Path, *, server: bool = False, pinned: PinnedRepository | None = None
) -> list[str]:
    """Remove gitmem's hooks (only files carrying the marker) and put chained hooks back.

    As install, it decides everything before it writes: what each hook's removal is, and
    whether it can be done (a folder where a chained hook should go back, a hooks folder it
    cannot write to are refused, nothing changed, exit 2). A removal the system refuses after
    that stops it saying which hooks were removed and which not, each whole (gitmem's running
    the chained one, or the chained one back); uninstall again finishes."""
    git = GitIn(repo_path, pinned)
    names = SERVER_HOOKS if server else CLIENT_HOOKS
    folder = _hooks_dir(git)
    removals = [_removal(folder, name) for name in names]
    driver = not server and _merge_driver_configured(git)
    pending = [r for r in removals if r.act is not None]
    problems = [r.problem for r in pending if r.problem]
    if driver:
        problems += _unwritable_config(git, "uninstall")
    if pending:
        problems += _unwritable(folder, "uninstall")
        problems += _held_files((p for r in pending for p in r.paths), "uninstall")
    if problems:
        raise UsageError("nothing was uninstalled: " + "; ".join(problems))
    lines = [f"hooks folder: {folder}"]
    done = 0  # of pending
    try:
        for removal in removals:
            if removal.act is not None:
                removal.act()
                done += 1
            lines.append(removal.line)
        if not server:
            lines.append(_remove_merge_driver(git))
    except (OSError, GitmemError) as exc:
        config = "the INDEX.md merge driver" if driver else None
        raise _stopped(
            f"uninstalling gitmem's hooks in {folder}",
            _account(
                "removed",
                [r.done for r in pending[:done]],
                [r.left for r in pending[done:]],
                config,
            ),
            f"run `gitmem hooks uninstall{' --server' if server else ''}` again to finish",
            exc,
        ) from exc
    return lines


# -- one hook ------------------------------------------------------------------------------


def _refuse_conflicts(
    git: GitIn, folder: Path, texts: dict[str, bytes], problems: list[str]
) -> None:
    """Check every hook before touching any (texts: each hook's name and the script to be
    written), so a refusal leaves the folder as it was, and name every problem at once,
    with those already found (problems). Each is a setup the user must resolve (a file in
    the way, a folder another tool manages), not a rule the input broke: UsageError, exit 2."""
    names = tuple(texts)
    if folder.exists() and not folder.is_dir():
        raise UsageError(
            f"{folder} is not a folder: git expects its hooks there; move the file away (or "
            "point core.hooksPath elsewhere) and install again"
        )
    if _managed_by_husky(folder):
        raise UsageError(
            f"{folder} is managed by husky, which rewrites it: instead add a line "
            '`gitmem hook <name> "$@"` to each of your .husky/<name> files '
            f"({', '.join(names)})"
        )
    foreign = [
        name
        for name in names
        if os.path.lexists(folder / name)
        and not is_gitmem_hook(folder / name)
        and not _already_runs_gitmem(folder / name, name)
    ]
    tracked = _tracked(git, [folder / name for name in foreign])
    for name in foreign:
        path = folder / name
        chained = folder / (name + CHAINED_SUFFIX)
        legacy = folder / (name + FRAMEWORK_SUFFIX)
        if path.is_dir() and not path.is_symlink():
            problems.append(f"{path} is a folder, not a hook: move it away and install again")
        elif not path.is_symlink() and not path.is_file():
            problems.append(
                f"{path} is a special file (a named pipe, a socket or a device), not a hook: "
                "move it away and install again"
            )
        elif path.exists() and not os.access(path, os.R_OK):
            problems.append(
                f"{path} cannot be read by you, so gitmem cannot tell whether it is its own "
                "hook or one to chain: make it readable (or run as its owner) and install again"
            )
        elif is_framework_hook(path) and path not in tracked:
            if os.path.lexists(legacy) and not is_gitmem_hook(legacy):
                problems.append(
                    f"{path} is the pre-commit framework's and {legacy.name}, the hook it runs "
                    "first, is taken: add gitmem's hooks to .pre-commit-config.yaml instead "
                    "(ids gitmem-check and gitmem-index)"
                )
        elif path in tracked:
            problems.append(
                f"{path} is tracked in this repository (core.hooksPath points into the work "
                f'tree), so gitmem will not rename it: add the line `gitmem hook {name} "$@"` '
                "to it and install again"
            )
        elif os.path.lexists(chained) and not _same_file(path, chained):
            problems.append(
                f"{path} is not gitmem's and {chained.name} is taken too, so it cannot be "
                f"chained: merge the two into one hook (or remove one) and install again"
            )
    problems += _unwritable(folder, "install")
    if folder.is_dir():
        touched = (p for name, text in texts.items() for p in _replaced(folder, name, text))
        problems += _held_files(touched, "install")
    if problems:
        raise UsageError("nothing was installed: " + "; ".join(problems))


def _replaced(folder: Path, name: str, text: bytes) -> list[Path]:
    """The files already in folder that installing hook name (its script: text) replaces,
    renames or removes, as _install_one does: none that already holds the script, which is
    left as it is, whoever's it is."""
    path = folder / name
    if not os.path.lexists(path):
        return []
    if is_gitmem_hook(path):
        # a link to the script is replaced by the file itself
        return [] if _holds(path, text) and not path.is_symlink() else [path]
    if _already_runs_gitmem(path, name):
        return []
    if is_framework_hook(path):
        legacy, chained = folder / (name + FRAMEWORK_SUFFIX), folder / (name + CHAINED_SUFFIX)
        return [p for p in (legacy,) if os.path.lexists(p) and not _holds(p, text)] + (
            [chained] if is_framework_hook(chained) else []
        )
    return [path]


def _holds(path: Path, text: bytes) -> bool:
    """Whether path is already the hook script text, whole and runnable: install leaves it
    as it is ("already installed")."""
    try:
        return path.read_bytes() == text and _executable(path)
    except OSError:
        return False


def _sticky_held(path: Path) -> bool:
    """Whether the sticky bit of path's folder keeps this user from replacing, renaming or
    removing path: there only the file's owner, the folder's and root may (a hooks folder
    everyone may write, as the system's temporary folder). Writing the folder is allowed, so
    the write check passed and the install or uninstall stopped half way at the first such
    file."""
    try:
        held_in, held = os.stat(path.parent), os.lstat(path)
    except OSError:
        return False
    me = os.geteuid()
    return bool(held_in.st_mode & stat.S_ISVTX) and me not in (0, held.st_uid, held_in.st_uid)


def _held_files(paths: Iterable[Path], verb: str) -> list[str]:
    """Why install or uninstall (verb) may not touch each of paths that it may not
    (_sticky_held): install and uninstall ask the same question of the files each touches."""
    return [
        f"{path} is another user's, in a folder where only its owner may replace or remove "
        f"it (the sticky bit): ask them to move it away (or point core.hooksPath elsewhere) "
        f"and {verb} again"
        for path in paths
        if _sticky_held(path)  # a file that is not there is held by nobody
    ]


def _unwritable(folder: Path, verb: str) -> list[str]:
    """Why install or uninstall (verb) cannot write in the hooks folder, if it cannot.

    A folder still to be made (a core.hooksPath not created yet) is made in the nearest
    folder above it that exists: one the user cannot write there stopped the install half
    way, at its first write, where it is a setup to refuse before anything is written."""
    if not folder.is_dir():
        above = next((p for p in folder.parents if p.is_dir()), folder.anchor)
        if os.access(above, os.W_OK | os.X_OK):
            return []
        return [
            f"{folder} does not exist and {above}, where it would be made, is not writable "
            f"for you: create {folder} (or point core.hooksPath elsewhere) and {verb} again"
        ]
    if os.access(folder, os.W_OK | os.X_OK):
        return []
    return [
        f"{folder} is not writable for you: make it writable (or run as its owner) and {verb} again"
    ]


def _managed_by_husky(folder: Path) -> bool:
    """husky (v4 to v9) keeps `husky.sh` or its `h` runner in the folder it points git at;
    renaming its stubs would silently stop the project's own hooks."""
    return (folder / "husky.sh").is_file() or (
        folder.name == "_" and folder.parent.name == ".husky"
    )


def _already_runs_gitmem(path: Path, name: str) -> bool:
    """A user's own hook that calls `gitmem hook NAME` itself needs no chaining: on a line
    that is no comment (`# we used to run: gitmem hook pre-commit`, taken for a call, left
    the hook unchained and every commit unjudged)."""
    text = _read_hook(path)
    call = f"gitmem hook {name}".encode()
    return text is not None and any(
        call in line and not line.lstrip().startswith(b"#") for line in text.splitlines()
    )


def _tracked(git: GitIn, paths: list[Path]) -> set[Path]:
    """Which of paths git tracks (a core.hooksPath inside the work tree, shared by a team)."""
    if not paths:
        return set()
    done = git.run("ls-files", "-z", "--full-name", "--", *map(str, paths))
    if done.returncode != 0:  # outside the work tree, or a bare repository: nothing tracked
        return set()
    top = git.output("rev-parse", "--show-toplevel")
    return {Path(top, name) for name in done.stdout.split("\0") if name}


def _shared_through_repository(git: GitIn, folder: Path, names: tuple[str, ...]) -> bool:
    """Whether the hook scripts written in folder travel with the repository (a
    core.hooksPath the team commits): folder, links followed, lies in the work tree, outside
    the git directory, and git does not ignore the scripts' paths there.

    Where the files land decides it, not how core.hooksPath spells the folder: an absolute
    path into the work tree is as shared as a relative one, `../hooks` is not, and a link is
    followed to the folder it leads to (the one written in). Being inside the work tree is
    not enough: a folder git ignores (a clone's own hooks, in .gitignore or info/exclude)
    is never committed, so its scripts record the interpreter like any clone's. A tracked
    script is never ignored (git's rule), and a folder neither tracked nor ignored counts as
    shared: its files show in `git status` and `git add -A` commits them, this machine's
    interpreter path with them."""
    done = git.run("rev-parse", "--show-toplevel")
    if done.returncode != 0:  # a bare repository
        return False
    shown = done.stdout.rstrip("\n")
    top, real = Path(shown).resolve(), folder.resolve()
    common = _common_dir(git)
    if not real.is_relative_to(top) or real.is_relative_to(common.resolve()):
        return False
    # spelled from the top git showed, so git matches its own work tree whatever links the
    # path went through
    paths = [str(Path(shown, real.relative_to(top), name)) for name in names]
    ignored = git.run("check-ignore", "--", *paths)
    if ignored.returncode == 1:  # none is ignored
        return True
    if ignored.returncode != 0:  # a path git cannot judge (in a submodule): not this one's
        return False
    # one path a line, as given (a folder named with a line break: taken for shared, which
    # records no path)
    return not set(paths) <= set(ignored.stdout.splitlines())


def _install_one(folder: Path, name: str, text: bytes) -> str:
    path = folder / name
    if os.path.lexists(path):
        if is_gitmem_hook(path):
            if _holds(path, text) and not path.is_symlink():
                return f"{name}: already installed"
            _write_script(path, text)
            return f"{name}: updated"
        if _already_runs_gitmem(path, name):
            return f"{name}: left as is, it already runs `gitmem hook {name}`"
        if is_framework_hook(path):
            legacy = folder / (name + FRAMEWORK_SUFFIX)
            chained = folder / (name + CHAINED_SUFFIX)
            if is_framework_hook(chained):
                # an earlier gitmem chained the framework's hook; `pre-commit install` then
                # made gitmem's script its .legacy, which ran this copy of the framework's
                # own generated script, and the framework refused every commit
                chained.unlink()
            if _holds(legacy, text):
                return f"{name}: already installed, as {legacy.name}"
            _write_script(legacy, text)
            return (
                f"{name}: installed as {legacy.name}, which the pre-commit framework's hook "
                "runs first (its own way of chaining a hook)"
            )
        chained = folder / (name + CHAINED_SUFFIX)
        # kept under its new name by a second link, then replaced by a rename: at every
        # point the hook is the user's or gitmem's (which runs it); a rename, then a write,
        # killed between, left no hook there at all. An install killed after the link left
        # both names on one file, which the next run takes up here.
        if not _same_file(path, chained):
            try:
                os.link(path, chained, follow_symlinks=False)
            except OSError:  # a file system without hard links: the old way, a short gap
                os.rename(path, chained)
        _write_script(path, text)
        return (
            f"{name}: installed; the existing hook now runs first, "
            f"kept as {chained.name} (uninstall puts it back)"
        )
    _write_script(path, text)
    return f"{name}: installed"


@dataclass(frozen=True)
class _Removal:
    """What uninstall does to one hook, decided before anything is removed: act (one unlink
    or one rename, or None: nothing to do), the line it prints, how a stopped uninstall names
    it once done and while left (still gitmem's), why it cannot be done (problem), and the
    files act renames or removes (paths)."""

    line: str
    act: Callable[[], None] | None = None
    done: str = ""
    left: str = ""
    problem: str = ""
    paths: tuple[Path, ...] = ()


def _removal(folder: Path, name: str) -> _Removal:
    path = folder / name
    chained = folder / (name + CHAINED_SUFFIX)
    legacy = folder / (name + FRAMEWORK_SUFFIX)
    if os.path.lexists(path) and not is_gitmem_hook(path):
        if path.exists() and not os.access(path, os.R_OK):
            # gitmem's own, installed by the file's owner, as likely as anyone's: "not
            # gitmem's" said the hook was gone when it may not be
            return _Removal(
                f"{name}: cannot be read by you, left alone (gitmem cannot tell whether it "
                "is its own: make it readable and uninstall again to know)"
            )
        if is_framework_hook(path) and is_gitmem_hook(legacy):
            if os.path.lexists(chained):
                # the hook gitmem chained before the framework was installed: the framework
                # runs it as its own .legacy again (unlinked, nothing ran it any more)
                return _Removal(
                    f"{name}: removed gitmem's hook, which the pre-commit framework's ran; "
                    f"the previous hook is its {legacy.name} again",
                    partial(os.replace, chained, legacy),
                    f"{name} (its {legacy.name} is the previous hook again)",
                    f"{name} ({legacy.name} is still gitmem's, the previous hook still "
                    f"{chained.name})",
                    _not_a_hook(chained),
                    (chained, legacy),
                )
            return _Removal(
                f"{name}: removed {legacy.name}, which the pre-commit framework's hook ran",
                legacy.unlink,
                f"{name} ({legacy.name})",
                f"{name} ({legacy.name} is still gitmem's)",
                paths=(legacy,),
            )
        if _same_file(path, chained):  # an install killed before its rename: one file
            return _Removal(
                f"{name}: not installed",
                chained.unlink,
                f"{name} (the second name {chained.name} of the hook)",
                f"{name} (the hook still has a second name, {chained.name})",
                paths=(chained,),
            )
        if os.path.lexists(chained):
            return _Removal(f"{name}: not gitmem's, left alone (and {chained.name} left beside it)")
        return _Removal(f"{name}: not gitmem's, left alone")
    removed = os.path.lexists(path)
    if os.path.lexists(chained):
        # one rename puts the previous hook back over gitmem's: an unlink first, killed
        # before the rename, left no hook there at all
        return _Removal(
            f"{name}: {'removed; ' if removed else ''}restored the previous hook",
            partial(os.replace, chained, path),
            f"{name} (the previous hook put back)",
            f"{name} (the previous hook still kept as {chained.name})",
            _not_a_hook(chained),
            (chained, path),
        )
    if removed:
        return _Removal(f"{name}: removed", path.unlink, name, name, paths=(path,))
    return _Removal(f"{name}: not installed")


def _not_a_hook(chained: Path) -> str:
    """Why chained cannot go back to its hook's name (a folder: a rename over a file fails),
    or ""."""
    if chained.is_dir() and not chained.is_symlink():
        return f"{chained} is a folder, not a hook: move it away and uninstall again"
    return ""


def _same_file(a: Path, b: Path) -> bool:
    """Whether a and b are two names of one file (os.link made b), links not followed."""
    try:
        first, second = os.lstat(a), os.lstat(b)
    except OSError:
        return False
    return (first.st_dev, first.st_ino) == (second.st_dev, second.st_ino)


def _write_script(path: Path, data: bytes) -> None:
    """Write path atomically with mode 0755: git never runs a half-written hook."""
    atomic_write(path, data, mode=0o755)


def _executable(path: Path) -> bool:
    return os.access(path, os.X_OK)


# -- the server's policy ---------------------------------------------------------------------


def _policy_to_write(git: GitIn) -> tuple[str, list[tuple[str, str]]]:
    """Where the policy comes from and the config values it gives (the settings committed at
    HEAD's tip, or the defaults); read before anything is written, so settings it cannot
    read refuse the install with the hook not written."""
    from gitmem.repo.store import Store
    from gitmem.repo.workspace import policy_at
    from gitmem.settings import policy as policy_mod

    store = Store.open(git.folder, pinned=git.pinned)
    tip = store.resolve("HEAD")
    where = f"the settings committed at {tip[:12]}" if tip else "the defaults"
    policy = policy_at(store, tip, where)
    return where, [(k, v) for k, v in policy_mod.config_values(policy) if k != "gitmem.allow"]


def _write_policy(git: GitIn, where: str, values: list[tuple[str, str]]) -> str:
    """Write the policy values (_policy_to_write) into the repository's git config."""
    from gitmem.settings import policy as policy_mod

    if _policy_held(git, values):
        return f"policy (git config gitmem.*): already {where}"
    for key in policy_mod.KEYS:
        if key != "gitmem.allow":
            git.run("config", "--local", "--unset-all", key)
    for key, value in values:
        git.output("config", "--local", "--add", key, value)
    shown = ", ".join(f"{k.removeprefix('gitmem.')}={v}" for k, v in values)
    return f"policy (git config gitmem.*): written from {where}: {shown}"


def _policy_held(git: GitIn, values: list[tuple[str, str]]) -> bool:
    """Whether the repository's config holds the policy values already, no more, no less."""
    from gitmem.settings import policy as policy_mod

    kept = ("gitmem.allow", policy_mod.ENFORCEMENT_KEY.lower())  # set by people, not files
    before = [(k, v) for k, v in _config_all(git) if k not in kept]
    return sorted(before) == sorted((k.lower(), v) for k, v in values)


def _server_config_differs(git: GitIn, values: list[tuple[str, str]], mode: str | None) -> bool:
    """Whether a server install writes the repository's config: the policy values
    (_write_policy), the object checks (_configure_object_checks) or the mode
    (_configure_enforcement) not what it holds. An install run again as it was changes
    none of them, and was refused all the same in a git directory the user cannot write."""
    if not _policy_held(git, values) or not _object_checks_on(git):
        return True
    return mode is not None and mode != _enforcement_now(git)


def _object_checks_on(git: GitIn) -> bool:
    done = git.run("config", "--bool", "receive.fsckObjects")
    return done.returncode == 0 and done.stdout.strip() == "true"


def _enforcement_now(git: GitIn) -> str:
    """The server's mode as its config holds it; "" when the value cannot be read."""
    from gitmem.settings.policy import ENFORCEMENT_KEY, PolicyError, enforcement

    current = [v for k, v in _config_all(git) if k == ENFORCEMENT_KEY.lower()]
    try:
        return enforcement({ENFORCEMENT_KEY: current})
    except PolicyError:
        return ""


def _configure_object_checks(git: GitIn) -> str:
    """Have git refuse malformed objects in a push (receive.fsckObjects), which the server
    hook requires (gitmem.gate.history.unchecked_objects says why); a setting that relaxes
    duplicateEntries is left for the hook to name."""
    shown = "object checks (git config receive.fsckObjects)"
    if _object_checks_on(git):
        return f"{shown}: already on"
    git.output("config", "--local", "receive.fsckObjects", "true")
    return (
        f"{shown}: turned on: git refuses a pushed tree with two entries of one name, which "
        "would show the gate one memory folder and a checkout another"
    )


def _configure_enforcement(git: GitIn, mode: str | None) -> str:
    """Set the server's enforcement mode (ENFORCE unsets the key: it is the default), or, when
    mode is None, say which one holds. An unreadable value is left for the hook to refuse."""
    from gitmem.settings.policy import ENFORCE, ENFORCEMENT_KEY, WARN, PolicyError, enforcement

    shown = f"enforcement (git config {ENFORCEMENT_KEY})"
    current = [v for k, v in _config_all(git) if k == ENFORCEMENT_KEY.lower()]
    try:
        now = enforcement({ENFORCEMENT_KEY: current})
    except PolicyError as exc:
        if mode is None:
            return f"{shown}: {exc}: the hook refuses every push until you fix it"
        now = ""
    if mode is None or mode == now:
        if now == WARN:
            return (
                f"{shown}: {now}{' already' if mode else ''}: pushes are judged and reported, "
                "only a secret or a text too large to scan is rejected; `gitmem hooks install "
                "--server --enforce` turns it off"
            )
        return f"{shown}: {ENFORCE}{' already' if mode else ''}"
    git.run("config", "--local", "--unset-all", ENFORCEMENT_KEY)
    if mode == WARN:
        git.output("config", "--local", ENFORCEMENT_KEY, WARN)
        return (
            f"{shown}: set to {WARN}: every push is judged and its findings printed under a "
            "banner, but only a secret or a text too large to scan is rejected; switch back with "
            "`gitmem hooks install --server --enforce`"
        )
    return f"{shown}: set to {ENFORCE}: a push that breaks a rule is rejected"


def _config_all(git: GitIn) -> list[tuple[str, str]]:
    """Every (key, value) of the repository's own gitmem.* config, keys in lower case."""
    done = git.run("config", "--local", "-z", "--get-regexp", r"^gitmem\.")
    pairs = []
    for item in done.stdout.split("\0") if done.returncode == 0 else []:
        if item:
            key, _, value = item.partition("\n")
            pairs.append((key.lower(), value))
    return pairs


# -- the INDEX.md merge driver ---------------------------------------------------------------


def _differs(git: GitIn, config: tuple[tuple[str, str], ...]) -> bool:
    """Whether the repository's config is to be written to hold config (it differs)."""
    return [_config_get(git, key) for key, _ in config] != [value for _, value in config]


def _common_dir(git: GitIn) -> Path:
    """The repository's common git directory (where its config is kept), as an absolute path."""
    return Path(git.output("rev-parse", "--path-format=absolute", "--git-common-dir"))


def _unwritable_config(git: GitIn, verb: str) -> list[str]:
    """Why install or uninstall (verb) cannot write the repository's git config, if it
    cannot: git writes it through a lock file beside it, in the common git directory."""
    common = _common_dir(git)
    if os.access(common, os.W_OK | os.X_OK):
        return []
    return [
        f"{common} is not writable for you, and the repository's git config, which "
        f"{verb} changes, is kept there: make it writable (or run as its owner) and "
        f"{verb} again"
    ]


def _configure_merge_driver(git: GitIn, config: tuple[tuple[str, str], ...]) -> str:
    if not _differs(git, config):
        return f"INDEX.md merge driver ({MERGE_DRIVER}): already configured"
    for key, value in config:
        git.output("config", "--local", key, value)
    return f"INDEX.md merge driver ({MERGE_DRIVER}): configured"


def _merge_driver_configured(git: GitIn) -> bool:
    return any(_config_get(git, key) is not None for key, _ in merge_driver_config())


def _remove_merge_driver(git: GitIn) -> str:
    if not _merge_driver_configured(git):
        return f"INDEX.md merge driver ({MERGE_DRIVER}): not configured"
    git.output("config", "--local", "--remove-section", MERGE_DRIVER)
    return f"INDEX.md merge driver ({MERGE_DRIVER}): removed"


def _config_get(git: GitIn, key: str) -> str | None:
    done = git.run("config", "--local", "--get", key)
    return done.stdout.rstrip("\n") if done.returncode == 0 else None


# -- git -------------------------------------------------------------------------------------


def _is_bare(git: GitIn) -> bool:
    return git.output("rev-parse", "--is-bare-repository") == "true"
