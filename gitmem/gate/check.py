"""`gitmem check`: the gates that run the rules, and the one report format they share.

- files and folders in the working tree (`gitmem check PATH…`),
- what git is committing (`--staged`, the pre-commit hook: the index named by GIT_INDEX_FILE),
- history (`--range`, `--pre-push`, `--pre-receive`): see history.py.

A commit that touches no memory file never gets here: the launcher answers it first.

Every gate judges in one of two modes (gitmem.settings.policy): enforce, where any error fails
it, or warn, for a team adopting gitmem on a repository with history, where every rule still
runs and every finding is printed under a banner saying so loudly, but only ALWAYS_REFUSED
fails it. The mode changes what fails, never what is judged.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Final

from gitmem.errors import UsageError
from gitmem.gate.rules import (
    MAX_FILE_BYTES,
    Context,
    Place,
    check_bytes,
    check_paths,
    killed_write,
    shown,
    variant_of,
)
from gitmem.model import allowed as allowed_mod
from gitmem.model.names import PROJECT_SETTINGS, PYPROJECT, SETTINGS_FILES
from gitmem.model.problem import Problem, shown_lines
from gitmem.repo.snapshot import (
    FILE,
    FOLDER,
    MISSING,
    STANDS,
    SYMLINK,
    StagedSnapshot,
    TreeSnapshot,
    WorktreeSnapshot,
)
from gitmem.repo.store import Store
from gitmem.repo.workspace import Workspace, require_memory_folder, settings_from
from gitmem.settings.load import Settings
from gitmem.settings.policy import ENFORCE, MODES, WARN

#: The rules that fail a gate in warn mode too. A secret that reaches a server is there for
#: good (clones, mirrors, backups, forks see it before anyone can rewrite history) and must be
#: rotated; every other finding can be put right by a later commit. A text too large to scan
#: (TOO-LARGE: a memory file, a commit or tag message, a note over its cap, refused unread)
#: may hold a secret no scan saw: warn mode let a token padded past the cap in.
ALWAYS_REFUSED: Final = frozenset({"SECRET", "TOO-LARGE"})
#: What warn mode prints, loudly, wherever a gate in warn mode reports.
WARN_BANNER: Final = "gitmem is in WARN mode: these pushes would be REJECTED in enforce mode"


@dataclass
class Report:
    problems: list[Problem] = field(default_factory=list)
    checked: int = 0
    warnings: list[str] = field(default_factory=list)
    unit: str = "file"
    command: str = "gitmem check"
    #: ENFORCE (every error fails) or WARN (only ALWAYS_REFUSED fails; see the module docstring)
    mode: str = ENFORCE

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"mode {self.mode!r} is not one of {MODES}")

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if not p.warning]

    @property
    def refusing(self) -> list[Problem]:
        """The errors that fail the gate in its mode."""
        if self.mode == WARN:
            return [p for p in self.errors if p.rule in ALWAYS_REFUSED]
        return self.errors

    @property
    def ok(self) -> bool:
        return not self.refusing

    def in_mode(self, mode: str) -> Report:
        """The same findings, judged in mode."""
        return replace(self, mode=mode)


def check_worktree(ws: Workspace, paths: Sequence[str]) -> Report:
    """Check files and folders on disk; no path = the whole memory folder. A file git
    converts on checkout (a `working-tree-encoding`, `filter` or `ident` attribute) whose
    bytes are not its staged blob's is refused, exit 2 (gitmem.repo.snapshot.ConvertedFile):
    a UTF-16 refused.md read as no refusals passed a candidate on a refused topic that the
    pre-commit hook, reading the blob, refuses."""
    root = ws.store.workdir
    if root is None:
        raise UsageError("this is a bare repository: use --range to check commits")
    # files git converts on checkout are refused, not judged as other bytes than git holds
    snapshot = WorktreeSnapshot(root, ws.store, staged_first=True)
    located = {p: _relative(root, p) for p in paths}
    outside = [p for p, rel in located.items() if rel is None]
    rel_paths = [rel for rel in located.values() if rel is not None]
    if not paths:
        kind = snapshot.kind(ws.dir)
        if kind == MISSING:  # no memory yet: nothing to judge
            return Report([], 0, ws.settings.warning_lines())
        require_memory_folder(ws, kind)
        rel_paths = [ws.dir]
    for path in rel_paths:
        if snapshot.kind(path) == MISSING:
            raise UsageError(f"{path}: no such file or folder")
    ctx = Context.from_snapshot(ws.settings, snapshot)
    # CANDIDATES.md is generated here and git-ignored: a problem only once git tracks it
    generated = f"{ws.dir}/CANDIDATES.md"
    skip = [] if ws.store.tracked(generated) else [generated]
    skip += [p for p in _killed_writes(root, ws.dir) if not ws.store.tracked(p)]
    problems = check_paths(snapshot, rel_paths, ctx, skip) + _unread_own_files(snapshot, ws.dir)
    checked = sum(1 for p in rel_paths for f in _expand(snapshot, p) if f not in skip)
    if not paths:
        problems += variant_paths(_variant_folders(root, ws.dir), ws.dir)
    for path in outside:
        problems.extend(_check_outside(path, ctx))
        checked += 1
    return Report(problems, checked, ws.settings.warning_lines())


def _killed_writes(root: Path, folder: str) -> list[str]:
    """The temporaries that a write of INDEX.md or CANDIDATES.md killed before its rename
    left in the memory folder (gitmem.repo.atomic): untracked, they are no memory file, and
    the next refresh a minute on removes them; staged, the LAYOUT rule names them."""
    try:
        names = [e.name for e in os.scandir(root / folder) if e.name.endswith(".tmp")]
    except OSError:
        return []
    return [f"{folder}/{name}" for name in names if killed_write(name)]


#: the memory folder's files a check reads its context from (Context.from_snapshot), and what
#: each holds
_CONTEXT_FILES = {
    "refused.md": "the refused topics: none is read from it, so a candidate on a refused "
    "topic passes",
    allowed_mod.NAME: "the reviewed secret-scanner exceptions: none is read from it",
}


def _unread_own_files(snapshot: WorktreeSnapshot, memory_dir: str) -> list[Problem]:
    """LAYOUT for refused.md or allowed.md when it is no regular file: the snapshot reads only
    a regular file, so a link (to a copy of itself, say) or a folder there was read as no
    refused topic at all, and a candidate on a refused topic passed without a word."""
    problems = []
    for name, holds in _CONTEXT_FILES.items():
        path = f"{memory_dir}/{name}"
        kind = snapshot.kind(path)
        if kind not in (FILE, MISSING):
            problems.append(
                Problem(
                    path,
                    None,
                    "LAYOUT",
                    f"is {STANDS[kind]}, where gitmem keeps {holds}; "
                    "put the file itself in its place",
                )
            )
    return problems


def _variant_folders(root: Path, memory_dir: str) -> list[str]:
    """Folders in the working tree that spell the memory folder's path another way (found
    on a case-sensitive disk; on a case-insensitive one they are the memory folder)."""
    level = [""]
    for part in memory_dir.split("/"):
        following = []
        for base in level:
            try:
                names = [e.name for e in os.scandir(root / base) if e.is_dir(follow_symlinks=False)]
            except OSError:
                continue
            for name in names:
                if name == part or variant_of(name, part):
                    following.append(f"{base}{name}/")
        level = following
    return [path for path in level if path.rstrip("/") != memory_dir]


def _check_outside(path: str, ctx: Context) -> list[Problem]:
    """A draft outside the repository: checked as a standalone entry (its cited files are
    looked up in the repository)."""
    folder = Path(path).absolute().parent
    snapshot = WorktreeSnapshot(folder)
    name = Path(path).name
    kind = snapshot.kind(name)
    if kind == MISSING:
        raise UsageError(f"{path}: no such file")
    if kind == SYMLINK:
        return [Problem(path, None, "SYMLINK", "is a symbolic link: a memory entry must be a file")]
    if kind != FILE:
        raise UsageError(f"{path}: not a file (folders are checked inside the repository only)")
    data = snapshot.read(name, MAX_FILE_BYTES)
    return check_bytes(path, data or b"", ctx, Place("outside"))


def _expand(snapshot: WorktreeSnapshot, path: str) -> Iterator[str]:
    if snapshot.kind(path) == FOLDER:
        yield from snapshot.files(path)
    else:
        yield path


def _relative(root: Path, path: str) -> str | None:
    """path relative to the repository root, or None when it lies outside.

    `..` is folded first, as git folds it in a pathspec: Path.absolute() keeps it, so `..`
    from inside the memory folder passed for a path inside the repository (`.gitmem/..`) and
    `../..` walked the folders above the repository, reading and reporting files outside it."""
    absolute = Path(os.path.normpath(Path.cwd() / path))
    try:
        rel = absolute.relative_to(root.absolute())
    except ValueError:
        return None
    return rel.as_posix() if rel.parts else "."


def variant_paths(paths: Sequence[str], memory_dir: str) -> list[Problem]:
    """LAYOUT for each path under a letter-case or spelling variant of the memory folder
    (`.GITMEM/…`): a case-insensitive checkout takes it for the memory folder."""
    wanted = memory_dir.split("/")
    problems = []
    for path in paths:
        parts = path.split("/")[: len(wanted)]
        if (
            len(parts) == len(wanted)
            and parts != wanted
            and all(p == w or variant_of(p, w) for p, w in zip(parts, wanted, strict=True))
        ):
            problems.append(
                Problem(
                    shown(path),
                    None,
                    "LAYOUT",
                    f"is under a letter-case or spelling variant of the memory folder "
                    f"{memory_dir}: a case-insensitive checkout takes it for the memory "
                    "folder; move it",
                )
            )
    return problems


def check_staged() -> Report:
    """The pre-commit gate: file rules over the memory files this commit adds or changes."""
    store = Store.open(None, from_env=True)
    snapshot = StagedSnapshot(store)
    settings = settings_from(store, snapshot, store.workdir)
    staged = snapshot.changed("")
    folder = settings.dir + "/"
    paths = [path for path in staged if path.startswith(folder)]
    touched = [*staged, *_settings_removed(store, snapshot)]
    variants = variant_paths(staged, settings.dir) + _settings_set_aside(settings, touched)
    if not paths:
        return Report(variants, len(variants), settings.warning_lines())
    ctx = Context.from_snapshot(settings, snapshot)
    problems = check_paths(snapshot, paths, ctx) + variants
    return Report(problems, len(paths) + len(variants), settings.warning_lines())


def _settings_removed(store: Store, snapshot: StagedSnapshot) -> list[str]:
    """.gitmem.toml when this commit removes it (or moves it away), which the staged changes
    do not list: its removal puts pyproject.toml's [tool.gitmem] in force."""
    if snapshot.kind(PROJECT_SETTINGS) != MISSING:  # the index first: HEAD only when needed
        return []
    head = store.resolve("HEAD")
    if head is None:
        return []
    before = TreeSnapshot(store, store.tree_of(head)).kind(PROJECT_SETTINGS)
    return [] if before == MISSING else [PROJECT_SETTINGS]


def _settings_set_aside(settings: Settings, staged: Iterable[str]) -> list[Problem]:
    """A commit that changes a settings file into one gitmem sets aside (not TOML, a value it
    cannot take, a link or a file beyond the size read) is refused: the settings then fall
    back to the defaults, the folder they named is judged as no memory, and the commit could
    bring a secret into it unseen. A warning that sets nothing aside (a built-in type listed
    in memory.types, a pyproject table .gitmem.toml overrides) does not refuse it. A settings
    file made a folder is staged as the files below it (`.gitmem.toml/x`), so a staged path
    counts by its first part. A .gitmem.toml changed or removed changes whether
    pyproject.toml's [tool.gitmem] is read, so what that sets aside counts too: removed, it
    brought a table nobody had read into force."""
    changed = {top for top in (path.split("/", 1)[0] for path in staged) if top in SETTINGS_FILES}
    if PROJECT_SETTINGS in changed:  # it decides whether pyproject.toml is read at all
        changed.add(PYPROJECT)
    problems = []
    for name in sorted(changed):
        for warning in settings.warnings:
            if warning.file != name or not warning.set_aside:
                continue
            problems.append(
                Problem(
                    name,
                    warning.line,
                    "SETTINGS",
                    f"{warning.text}: this commit leaves the settings in a state gitmem sets "
                    "aside, and the memory folder they name unjudged; fix them in this commit",
                )
            )
    return problems


# ---------------------------------------------------------------------------------------------
# output


def render(report: Report, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(
            {
                "ok": report.ok,
                "checked": report.checked,
                "problems": [
                    {
                        "path": p.path,
                        "line": p.line,
                        "rule": p.rule,
                        "message": p.message,
                        "severity": "warning" if p.warning else "error",
                    }
                    for p in report.problems
                ],
                "warnings": report.warnings,
                "mode": report.mode,
                "unit": report.unit,
                "command": report.command,
            },
            indent=2,
        )
    if fmt == "sarif":
        from gitmem.gate import sarif

        return sarif.render(report.problems, report.warnings)
    if fmt == "github":
        lines = [f"::warning title=gitmem WARN mode::{_gh_data(line)}" for line in banner(report)]
        lines += [_github(p) for p in report.problems]
        lines.extend(f"::warning title=gitmem settings::{_gh_data(w)}" for w in report.warnings)
        lines.append(summary(report))
        return "\n".join(lines)
    loud = banner(report)
    rule = ["=" * max(map(len, loud))] if loud and report.errors else []
    lines = [*rule, *loud, *rule, *shown_lines(report.problems, _see_all(report))]
    lines.append(summary(report))
    return "\n".join(lines)


def report_from_json(text: str) -> Report | None:
    """The report `render(report, "json")` wrote, read back whole (None when text is not one):
    a caller that judged in a process of its own (the GitHub check runs the installed gitmem)
    renders every other format from that one judgment instead of judging again for each."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    problems = data.get("problems")
    warnings = data.get("warnings")
    checked, mode = data.get("checked"), data.get("mode")
    unit, command = data.get("unit"), data.get("command")
    if not (
        isinstance(problems, list)
        and isinstance(warnings, list)
        and all(isinstance(w, str) for w in warnings)
        and type(checked) is int
        and mode in MODES
        and isinstance(unit, str)
        and isinstance(command, str)
    ):
        return None
    found = [p for p in map(_problem_from_json, problems) if p is not None]
    if len(found) != len(problems):  # one that is no problem: no report
        return None
    return Report(found, checked, warnings, unit, command, mode)


def _problem_from_json(data: object) -> Problem | None:
    if not isinstance(data, dict):
        return None
    path, line, rule, message = (data.get(k) for k in ("path", "line", "rule", "message"))
    if not (
        isinstance(path, str)
        and (line is None or type(line) is int)
        and isinstance(rule, str)
        and isinstance(message, str)
        and data.get("severity") in ("error", "warning")
    ):
        return None
    return Problem(path, line, rule, message, warning=data["severity"] == "warning")


def _see_all(report: Report) -> str:
    """How to list every problem of a report whose text leaves some out (shown_lines)."""
    if report.unit == "commit":  # a push or a range: the history rules
        return f"`{report.command} --range A..B --format json` over those commits lists them all"
    return f"`{report.command} --format json` with the same options lists them all"


def banner(report: Report) -> list[str]:
    """The lines that say a gate is in warn mode ([] in enforce mode): loud when it found what
    enforce mode would reject, one line when it found nothing."""
    if report.mode != WARN:
        return []
    if not report.errors:
        return ["gitmem is in WARN mode: nothing here would be rejected in enforce mode"]
    lines = [WARN_BANNER]
    if report.refusing:
        found = {p.rule for p in report.refusing}
        rules = ", ".join(sorted(found))
        why, fix = (
            ("a leaked secret cannot be taken back", "rotate the secret")
            if "SECRET" in found
            else ("a text too large to scan may hide a secret", "keep each text under its cap")
        )
        lines.append(
            f"but {rules} is refused in every mode ({why}): this is REJECTED; remove it, "
            f"rewrite the commits and {fix}"
        )
    else:
        many = len(report.errors) != 1
        lines.append(
            f"{len(report.errors)} problem{'s' if many else ''} reported, not enforced: "
            f"fix {'them' if many else 'it'}, then switch the gate to enforce mode"
        )
    return lines


#: GitLab shows a pre-receive hook's output to the pusher only on lines that begin with this.
GITLAB_PREFIX = "GL-HOOK-ERR: "


def for_server(text: str) -> str:
    """A pre-receive hook's report as the server shows it: under GitLab (GL_ID set), every
    line prefixed GL-HOOK-ERR; elsewhere as it is."""
    if not os.environ.get("GL_ID"):
        return text
    return "\n".join(f"{GITLAB_PREFIX}{line}" for line in text.splitlines())


def summary(report: Report) -> str:
    errors = len(report.errors)
    warned = len(report.problems) - errors
    files = len({p.path for p in report.errors})
    noun = report.unit if report.checked == 1 else report.unit + "s"
    if errors == 0:
        extra = f", {warned} warning{'s' if warned != 1 else ''}" if warned else ""
        mode = " (WARN mode)" if report.mode == WARN else ""
        return f"{report.command}: {report.checked} {noun} checked, no problems{extra}{mode}"
    found = (
        f"{report.command}: {errors} problem{'s' if errors != 1 else ''} in {files} "
        f"file{'s' if files != 1 else ''} ({report.checked} {noun} checked)"
    )
    if report.mode != WARN:
        return found
    if report.refusing:
        return f"{found}; WARN mode, but {len(report.refusing)} refused in every mode"
    return f"{found}; WARN mode: accepted, enforce mode would reject"


def _gh_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_prop(text: str) -> str:
    return _gh_data(text).replace(":", "%3A").replace(",", "%2C")


def _github(problem: Problem) -> str:
    level = "warning" if problem.warning else "error"
    props = [f"file={_gh_prop(problem.path)}"]
    if problem.line:
        props.append(f"line={problem.line}")
    props.append(f"title={_gh_prop('gitmem ' + problem.rule)}")
    return f"::{level} {','.join(props)}::{_gh_data(problem.message)}"
