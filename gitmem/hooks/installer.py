"""Install and remove gitmem's git hooks without ever losing someone else's.

Each script is the one template rendered for its hook (gitmem.hooks.template; the renderings
also sit in `gitmem/hooks/scripts/`, which `hooks/` at the top of the source tree points at).
Each one only finds gitmem and runs `gitmem hook <name>`; the installer's rendering tries first
the interpreter that ran it (an absolute path, with its gitmem package: an IDE or a GUI git
client runs hooks without the virtual environment on PATH), then `gitmem` on PATH, then
python3's gitmem module, the way pre-commit's own hook template does. A hooks folder inside the
work tree is shared through the repository, so its scripts record no interpreter (one machine's
path means nothing on another) and find gitmem on PATH. A script is recognised as gitmem's by
its marker line, so the installer can tell its own files from a user's:

- a hook that was there before gitmem (`X`) is moved to `X.gitmem-chained` and the gitmem
  script runs it first, with the same arguments and standard input; when that name is taken
  too, the installer refuses rather than guess;
- a hook that already runs `gitmem hook NAME` itself is left as is; a hook tracked in the
  repository (core.hooksPath inside the work tree) is never renamed, and a folder husky manages
  is refused: the message says which line to add instead;
- installing twice changes nothing; an older gitmem script is replaced;
- uninstall removes only files carrying the marker and moves `X.gitmem-chained` back to `X`,
  byte for byte (it is a rename, never a rewrite).

With `--server`, the installer also writes the gate's policy into the repository's own git
config (`gitmem.branch`, `gitmem.dir`, … see gitmem.settings.policy), from the settings
committed at the tip of HEAD's branch (the defaults in an empty repository): the pre-receive
hook judges by that config alone, never by a pushed tree. Running it again updates those keys
to the settings committed then; the reviewed exceptions (`gitmem.allow`), which no committed
file holds, are left as they are, and so is the enforcement mode (`gitmem.enforcement`), which
only `--warn` (report, do not reject, save a secret) and `--enforce` (the default) change.
Uninstall leaves the config: a re-install finds it.

The hooks folder is the one git itself runs hooks from (`core.hooksPath`, relative, absolute or
`~`; the common folder of linked worktrees; bare repositories), asked of git directly.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import gitmem
from gitmem.errors import GitmemError, UsageError
from gitmem.hooks.template import render, sh_quote
from gitmem.model.names import CLIENT_HOOKS, SERVER_HOOKS
from gitmem.repo.atomic import ABANDONED_AGE, atomic_write, remove_temporaries_of
from gitmem.repo.gitcli import GitIn, PinnedRepository

MARKER = b"# gitmem-managed-hook"
CHAINED_SUFFIX = ".gitmem-chained"

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


def is_gitmem_hook(path: Path) -> bool:
    """Whether the file at path is a gitmem script (any version), by its marker line."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(_MARKER_WINDOW)
    except OSError:
        return False
    return any(line.strip().startswith(MARKER) for line in head.splitlines())


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
        raise GitmemError(
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
    _refuse_object_format(git)
    bare = _is_bare(git)
    if bare and not server:
        raise UsageError(
            f"{repo_path} is a bare repository, where client hooks never run: install the "
            "server hook with `gitmem hooks install --server`"
        )
    names = SERVER_HOOKS if server else CLIENT_HOOKS
    folder = _hooks_dir(git)
    _refuse_conflicts(git, folder, names)
    folder.mkdir(parents=True, exist_ok=True)
    lines = [f"hooks folder: {folder}"]
    shared = _hooks_path_scope(git)
    if shared is not None:
        lines.append(
            f"note: core.hooksPath comes from your {shared} git config: these hooks run in "
            "every repository that uses that folder; to keep them to this one, set "
            "core.hooksPath in its own config (git config core.hooksPath .git/hooks) first"
        )
    recorded = python
    if python is not None and _inside_work_tree(git, folder):
        recorded = None
        lines.append("the hooks are shared through the repository: they find gitmem on PATH")
    # the temporary a killed install left beside a hook it was writing: in a hooks folder
    # shared through the repository (core.hooksPath), `git add -A` commits it
    remove_temporaries_of((folder / name for name in names), ABANDONED_AGE)
    for name in names:
        lines.append(_install_one(folder, name, script(name, recorded, package)))
    if server:
        lines.append(_configure_policy(git))
        lines.append(_configure_object_checks(git))
        lines.append(_configure_enforcement(git, enforcement))
    else:
        lines.append(_configure_merge_driver(git, merge_driver_config(python, package)))
    return lines


def _refuse_object_format(git: GitIn) -> None:
    """Refuse, before any hook is written, a repository whose objects gitmem cannot read
    (SHA-256): its hooks would refuse every commit of memory and every push with an error,
    and the server's would be installed with no policy beside it."""
    from gitmem.repo.store import unsupported_object_format

    done = git.run("rev-parse", "--show-object-format")
    if done.returncode == 0 and done.stdout.strip() not in ("", "sha1"):
        raise UsageError(unsupported_object_format(str(git.folder)))


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
    """Remove gitmem's hooks (only files carrying the marker) and put chained hooks back."""
    git = GitIn(repo_path, pinned)
    names = SERVER_HOOKS if server else CLIENT_HOOKS
    folder = _hooks_dir(git)
    lines = [f"hooks folder: {folder}"]
    for name in names:
        lines.append(_uninstall_one(folder, name))
    if not server:
        lines.append(_remove_merge_driver(git))
    return lines


# -- one hook ------------------------------------------------------------------------------


def _refuse_conflicts(git: GitIn, folder: Path, names: tuple[str, ...]) -> None:
    """Check every hook before touching any, so a refusal leaves the folder as it was."""
    if folder.exists() and not folder.is_dir():
        raise GitmemError(f"{folder} is not a folder: git expects its hooks there")
    if _managed_by_husky(folder):
        raise GitmemError(
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
    problems = []
    for name in foreign:
        path = folder / name
        chained = folder / (name + CHAINED_SUFFIX)
        if path.is_dir() and not path.is_symlink():
            problems.append(f"{path} is a folder, not a hook: move it away and install again")
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
    if problems:
        raise GitmemError("nothing was installed: " + "; ".join(problems))


def _managed_by_husky(folder: Path) -> bool:
    """husky (v4 to v9) keeps `husky.sh` or its `h` runner in the folder it points git at;
    renaming its stubs would silently stop the project's own hooks."""
    return (folder / "husky.sh").is_file() or (
        folder.name == "_" and folder.parent.name == ".husky"
    )


def _already_runs_gitmem(path: Path, name: str) -> bool:
    """A user's own hook that calls `gitmem hook NAME` itself needs no chaining."""
    try:
        return f"gitmem hook {name}".encode() in path.read_bytes()
    except OSError:
        return False


def _tracked(git: GitIn, paths: list[Path]) -> set[Path]:
    """Which of paths git tracks (a core.hooksPath inside the work tree, shared by a team)."""
    if not paths:
        return set()
    done = git.run("ls-files", "-z", "--full-name", "--", *map(str, paths))
    if done.returncode != 0:  # outside the work tree, or a bare repository: nothing tracked
        return set()
    top = git.output("rev-parse", "--show-toplevel")
    return {Path(top, name) for name in done.stdout.split("\0") if name}


def _inside_work_tree(git: GitIn, folder: Path) -> bool:
    """Whether folder lies in the work tree (a core.hooksPath the team commits)."""
    done = git.run("rev-parse", "--show-toplevel")
    if done.returncode != 0:  # a bare repository
        return False
    top = Path(done.stdout.rstrip("\n")).resolve()
    return folder.resolve().is_relative_to(top) and not folder.resolve().is_relative_to(
        Path(git.output("rev-parse", "--path-format=absolute", "--git-common-dir")).resolve()
    )


def _install_one(folder: Path, name: str, text: bytes) -> str:
    path = folder / name
    if os.path.lexists(path):
        if is_gitmem_hook(path):
            if path.read_bytes() == text and not path.is_symlink() and _executable(path):
                return f"{name}: already installed"
            _write_script(path, text)
            return f"{name}: updated"
        if _already_runs_gitmem(path, name):
            return f"{name}: left as is, it already runs `gitmem hook {name}`"
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


def _uninstall_one(folder: Path, name: str) -> str:
    path = folder / name
    chained = folder / (name + CHAINED_SUFFIX)
    if os.path.lexists(path) and not is_gitmem_hook(path):
        if _same_file(path, chained):  # an install killed before its rename: one file
            chained.unlink()
            return f"{name}: not installed"
        if os.path.lexists(chained):
            return f"{name}: not gitmem's, left alone (and {chained.name} left beside it)"
        return f"{name}: not gitmem's, left alone"
    removed = os.path.lexists(path)
    if os.path.lexists(chained):
        # one rename puts the previous hook back over gitmem's: an unlink first, killed
        # before the rename, left no hook there at all
        os.replace(chained, path)
        return f"{name}: {'removed; ' if removed else ''}restored the previous hook"
    if removed:
        path.unlink()
    return f"{name}: removed" if removed else f"{name}: not installed"


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


def _configure_policy(git: GitIn) -> str:
    """Write the policy committed at HEAD's tip into the repository's git config."""
    from gitmem.repo.store import Store
    from gitmem.repo.workspace import policy_at
    from gitmem.settings import policy as policy_mod

    store = Store.open(git.folder, pinned=git.pinned)
    tip = store.resolve("HEAD")
    where = f"the settings committed at {tip[:12]}" if tip else "the defaults"
    policy = policy_at(store, tip, where)
    values = [(k, v) for k, v in policy_mod.config_values(policy) if k != "gitmem.allow"]
    kept = ("gitmem.allow", policy_mod.ENFORCEMENT_KEY.lower())  # set by people, not files
    before = [(k, v) for k, v in _config_all(git) if k not in kept]
    if sorted(before) == sorted((k.lower(), v) for k, v in values):
        return f"policy (git config gitmem.*): already {where}"
    for key in policy_mod.KEYS:
        if key != "gitmem.allow":
            git.run("config", "--local", "--unset-all", key)
    for key, value in values:
        git.output("config", "--local", "--add", key, value)
    shown = ", ".join(f"{k.removeprefix('gitmem.')}={v}" for k, v in values)
    return f"policy (git config gitmem.*): written from {where}: {shown}"


def _configure_object_checks(git: GitIn) -> str:
    """Have git refuse malformed objects in a push (receive.fsckObjects), which the server
    hook requires (gitmem.gate.history.unchecked_objects says why); a setting that relaxes
    duplicateEntries is left for the hook to name."""
    shown = "object checks (git config receive.fsckObjects)"
    done = git.run("config", "--bool", "receive.fsckObjects")
    if done.returncode == 0 and done.stdout.strip() == "true":
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
                "only a secret is rejected; `gitmem hooks install --server --enforce` turns "
                "it off"
            )
        return f"{shown}: {ENFORCE}{' already' if mode else ''}"
    git.run("config", "--local", "--unset-all", ENFORCEMENT_KEY)
    if mode == WARN:
        git.output("config", "--local", ENFORCEMENT_KEY, WARN)
        return (
            f"{shown}: set to {WARN}: every push is judged and its findings printed under a "
            "banner, but only a secret is rejected; switch back with "
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


def _configure_merge_driver(git: GitIn, config: tuple[tuple[str, str], ...]) -> str:
    current = [_config_get(git, key) for key, _ in config]
    if current == [value for _, value in config]:
        return f"INDEX.md merge driver ({MERGE_DRIVER}): already configured"
    for key, value in config:
        git.output("config", "--local", key, value)
    return f"INDEX.md merge driver ({MERGE_DRIVER}): configured"


def _remove_merge_driver(git: GitIn) -> str:
    if all(_config_get(git, key) is None for key, _ in merge_driver_config()):
        return f"INDEX.md merge driver ({MERGE_DRIVER}): not configured"
    git.output("config", "--local", "--remove-section", MERGE_DRIVER)
    return f"INDEX.md merge driver ({MERGE_DRIVER}): removed"


def _config_get(git: GitIn, key: str) -> str | None:
    done = git.run("config", "--local", "--get", key)
    return done.stdout.rstrip("\n") if done.returncode == 0 else None


# -- git -------------------------------------------------------------------------------------


def _is_bare(git: GitIn) -> bool:
    return git.output("rev-parse", "--is-bare-repository") == "true"
