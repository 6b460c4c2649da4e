"""The file rules: one validator for every gate (files, the staging index, a commit's tree).

Each rule failure is a Problem printed `path:line: RULE-ID message`; the README's table lists
the rule ids.  A file is judged by where it lives under the memory folder:

    <dir>/entries/<type>/<id>.md   an admitted, superseded or retired entry
    <dir>/candidates/<id>.md       a candidate
    <dir>/refused.md, INDEX.md, allowed.md, .gitignore, README.md   gitmem's own files
    anything else under <dir>      refused (LAYOUT): CANDIDATES.md (generated, git-ignored),
                                   a file under entries/ that is not <type>/<id>.md, a name
                                   that is not UTF-8, a letter-case or spelling variant of a
                                   layout name (`Entries/`), which a case-insensitive checkout
                                   takes for the real one

A file named explicitly outside the memory folder (`gitmem check draft.md`) is checked as a
standalone entry: every rule but those tying an entry to its place.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from gitmem import parallel as forked
from gitmem.model import allowed as allowed_mod
from gitmem.model import entry as entry_mod
from gitmem.model import refused as refused_mod
from gitmem.model.entry import Entry, EntryError
from gitmem.model.fields import MAX_ENTRY_BYTES, TOO_LARGE, field_line
from gitmem.model.names import entry_place, id_disagrees, is_utf8, type_disagrees
from gitmem.model.problem import Problem
from gitmem.repo.atomic import is_temporary_of
from gitmem.repo.snapshot import FILE, FOLDER, LINK_PROBLEM, MISSING, SYMLINK, Snapshot
from gitmem.settings.load import Settings, fold_name

MAX_FILE_BYTES = MAX_ENTRY_BYTES
OWN_FILES = ("refused.md", "INDEX.md", allowed_mod.NAME, ".gitignore", "README.md")
LAYOUT_NAMES = ("entries", "candidates", *OWN_FILES)
_ID_TAIL = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


@functools.lru_cache(maxsize=4096)
def _skeleton(name: str) -> str:
    """A name as case-insensitive and normalising file systems compare it: letter case
    (Windows upper-cases, so `ı` is `i` there), Unicode compatibility forms, the invisible
    characters macOS ignores, the trailing dots and spaces Windows drops."""
    if name.isascii():
        return name.lower().rstrip(" .")
    text = unicodedata.normalize("NFKC", fold_name(name))
    return text.upper().lower()


def variant_of(name: str, target: str) -> bool:
    """Whether name is another spelling of target that some file system takes for it: its
    letter case, normal form or trailing dots aside (_skeleton), or its 8.3 short name."""
    return name != target and (
        _skeleton(name) == _skeleton(target) or _is_short_name(_skeleton(name), target)
    )


@functools.lru_cache(maxsize=64)
def _short_name_pattern(target: str) -> re.Pattern[str] | None:
    """What an NTFS volume with 8.3 names may call target besides its own name, lower-cased:
    the first six letters of its stem, `~` and a digit (`.gitmem` is `GITMEM~1`, `candidates`
    `CANDID~1`), or after four such the first two, four hex digits, `~` and a digit, then its
    extension's first three. Windows resolves a path through either, so a checkout writing
    `GITMEM~1/entries/…` after `.gitmem/` writes into the memory folder (git guards its own
    `.git` from `GIT~1` the same way). None for a name that is an 8.3 name itself."""
    bare = target.lstrip(".")
    stem, dot, extension = bare.rpartition(".")
    if not dot:
        stem, extension = bare, ""
    stem = re.sub(r"[ .]", "", stem).lower()
    extension = extension.lower()
    if bare == target and len(stem) <= 8 and len(extension) <= 3 and target.count(".") <= 1:
        return None
    tail = rf"\.{re.escape(extension[:3])}" if extension else ""
    return re.compile(
        rf"(?:{re.escape(stem[:6])}|{re.escape(stem[:2])}[0-9a-f]{{4}})~[1-9]{tail}", re.ASCII
    )


def _is_short_name(skeleton: str, target: str) -> bool:
    pattern = _short_name_pattern(target)
    return pattern is not None and pattern.fullmatch(skeleton) is not None


def shown(path: str) -> str:
    """A path as it can be printed: a byte that is not UTF-8 shows as \\xNN."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


@dataclass
class Context:
    """What the file rules need besides the file: settings, refused topics, and which paths
    exist in the tree that would admit the entry (None: skip the `files` rule)."""

    settings: Settings
    refused: dict[str, refused_mod.Refusal] = field(default_factory=dict)
    path_exists: Callable[[str], bool] | None = None
    scan_secrets: bool = True  # off where every commit's blobs were scanned already
    #: fingerprints of reviewed findings (gitmem.settings.policy): those are not reported
    allowed: frozenset[str] = frozenset()

    @classmethod
    def from_snapshot(cls, settings: Settings, snapshot: Snapshot) -> Context:
        """The context of a tree: its refused topics and allowed findings, its files."""
        data = snapshot.read(f"{settings.dir}/refused.md", MAX_FILE_BYTES * 16)
        refusals = refused_mod.parse(data.decode("utf-8", "replace")) if data else {}
        listed = snapshot.read(f"{settings.dir}/{allowed_mod.NAME}", MAX_FILE_BYTES * 16)
        allowed = allowed_mod.parse(listed.decode("utf-8", "replace")) if listed else {}

        def exists(path: str) -> bool:
            return snapshot.kind(path) != MISSING

        return cls(settings, refusals, exists, allowed=frozenset(allowed))


@dataclass(frozen=True)
class Place:
    """What a path's place in the memory folder says the file must be."""

    kind: str  # "entry", "candidate", "own", "generated", "stray", "outside"
    type: str | None = None
    id: str | None = None


def place_of(path: str, memory_dir: str) -> Place:
    prefix = memory_dir.strip("/") + "/"
    if not path.startswith(prefix):
        return Place("outside")
    rel = path[len(prefix) :]
    parts = rel.split("/")
    if not is_utf8(rel):
        return Place("unreadable")
    if parts[0] not in LAYOUT_NAMES and any(variant_of(parts[0], n) for n in LAYOUT_NAMES):
        return Place("variant")
    if len(parts) == 1 and parts[0] in OWN_FILES:
        return Place("own")
    if rel == "CANDIDATES.md":
        return Place("generated")
    entry = entry_place(path, memory_dir)
    if entry is not None:
        return Place("entry", type=entry[0], id=entry[1])
    if len(parts) == 2 and parts[0] == "candidates" and parts[1].endswith(".md"):
        return Place("candidate", id=parts[1][:-3])
    return Place("stray")


#: Files from which a check hands half of them to a second process (gitmem.parallel): a file
#: costs some 0.13 ms to judge, forking some 5 ms, so the split pays well below this.
PARALLEL_MIN = 1000


def check_paths(
    snapshot: Snapshot, paths: Iterable[str], ctx: Context, skip: Iterable[str] = ()
) -> list[Problem]:
    """Every file rule over paths (files, or folders expanded) in a snapshot; the paths in
    skip are passed over (a working tree's git-ignored CANDIDATES.md).  Files are judged one
    by one and independently, so a long list is split over two processes (in_two), which give
    the same problems as one."""
    targets: list[tuple[str, bool]] = []  # a file, and whether it was named itself
    seen: set[str] = set(skip)
    for path in paths:
        kind = snapshot.kind(path)
        for target in list(snapshot.files(path)) if kind == FOLDER else [path]:
            if target not in seen:
                seen.add(target)
                targets.append((target, target == path))

    def judged(part: list[tuple[str, bool]]) -> Iterator[Problem]:
        for target, named in part:
            yield from check_one(snapshot, target, ctx, named=named)

    problems = forked.in_two(targets, judged, minimum=PARALLEL_MIN)
    return sorted(problems, key=Problem.sort_key)


def killed_write(name: str) -> bool:
    """Whether a name in the memory folder is a temporary of INDEX.md or CANDIDATES.md that
    a write killed before its rename left (gitmem.repo.atomic.atomic_write)."""
    return any(is_temporary_of(name, target) for target in ("INDEX.md", "CANDIDATES.md"))


def check_one(snapshot: Snapshot, path: str, ctx: Context, *, named: bool = False) -> list[Problem]:
    place = place_of(path, ctx.settings.dir)
    if place.kind == "outside" and not named:
        return []
    if place.kind == "own":
        # gitmem's own files are judged by the history rules; only what a merge or rebase
        # left half-done is refused here, before it is committed
        if path.rsplit("/", 1)[-1] not in _MERGED_FILES or snapshot.kind(path) != FILE:
            return []
        data = snapshot.read(path, MAX_FILE_BYTES)
        return conflict_markers(path, data.decode("utf-8", "replace")) if data else []
    if place.kind == "generated":
        return [
            Problem(
                path,
                None,
                "LAYOUT",
                "CANDIDATES.md is generated locally and git-ignored: do not commit it "
                "(git rm --cached it)",
            )
        ]
    if place.kind == "unreadable":
        return [
            Problem(
                shown(path),
                None,
                "LAYOUT",
                "has a name that is not UTF-8: memory files have UTF-8 names; rename it",
            )
        ]
    if place.kind == "variant":
        return [
            Problem(
                path,
                None,
                "LAYOUT",
                "is a letter-case or spelling variant of a name of the memory folder's layout, "
                "which a case-insensitive checkout takes for the real one: remove it",
            )
        ]
    if place.kind == "stray":
        folder, _, name = path.rpartition("/")
        if folder == ctx.settings.dir and killed_write(name):
            message = (
                "is a temporary file that a killed gitmem left while writing the memory "
                "folder's index: no memory file; unstage it (git rm --cached) and delete it"
            )
        else:
            message = (
                f"is not a memory file: entries live in {ctx.settings.dir}/entries/<type>/"
                f"<id>.md and candidates in {ctx.settings.dir}/candidates/<id>.md"
            )
        return [Problem(path, None, "LAYOUT", message)]
    kind = snapshot.kind(path)
    if kind == SYMLINK:
        return [Problem(path, None, "SYMLINK", LINK_PROBLEM)]
    if kind == MISSING:
        return [Problem(path, None, "MISSING", "does not exist: check the path")]
    if kind != FILE:
        return [Problem(path, None, "LAYOUT", "is not a regular file")]
    data = snapshot.read(path, MAX_FILE_BYTES)
    if data is None:
        return [Problem(path, None, "MISSING", "cannot be read")]
    return check_bytes(path, data, ctx, place)


def check_bytes(path: str, data: bytes, ctx: Context, place: Place | None = None) -> list[Problem]:
    """Every file rule over one file's bytes."""
    place = place or place_of(path, ctx.settings.dir)
    if len(data) > MAX_FILE_BYTES:
        return [
            Problem(
                path,
                None,
                "TOO-LARGE",
                f"{TOO_LARGE} (body at most {ctx.settings.max_body} characters)",
            )
        ]
    try:
        text = entry_mod.decode(data)
    except EntryError as exc:
        return [Problem(path, exc.line, exc.rule, exc.message)]
    # scanned as the bytes hold it, as the history gates scan a pushed blob: a carriage return
    # that ends no line (it overwrites the line on a terminal) is hidden text there, and the
    # parser's line ends, where it is one, would have hidden it from this gate alone
    scanned = data.decode("utf-8") if b"\r" in data else text
    problems = _hidden_and_secrets(path, scanned, ctx.allowed) if ctx.scan_secrets else []
    try:
        parsed = entry_mod.parse(text)
    except EntryError as exc:
        problems.append(Problem(path, exc.line, exc.rule, exc.message))
        return problems
    problems.extend(check_entry(path, parsed, ctx, place, text))
    return problems


#: gitmem's own files that git merges as text (not a README.md a person writes, which may
#: quote a marker), and the lines git writes around a conflict it leaves for a person
#: (`<<<<<<< ours`, the diff3 style's `||||||| base`, `>>>>>>> theirs`); `=======` alone is
#: also a Markdown heading's underline, so it is not one.
_MERGED_FILES = ("refused.md", "INDEX.md", allowed_mod.NAME)
_CONFLICT_MARKER = re.compile(r"^(?:<{7}|\|{7}|>{7})(?: |$)", re.MULTILINE)


def conflict_markers(path: str, text: str) -> list[Problem]:
    """CONFLICT at the first conflict marker a merge, rebase or cherry-pick left in one of
    gitmem's own files (INDEX.md, refused.md, allowed.md): committed with `git commit -a`,
    it passed every file rule (they had none), and only the push was refused, as an edit,
    with the merge already made. Not in entries, whose fenced code may quote a marker."""
    found = _CONFLICT_MARKER.search(text)
    if found is None:
        return []
    return [
        Problem(
            path,
            text.count("\n", 0, found.start()) + 1,
            "CONFLICT",
            "holds a conflict marker left by a merge or rebase: resolve the conflict "
            "(`gitmem index` regenerates INDEX.md), then commit",
        )
    ]


def secret_problems(path: str, text: str, allowed: frozenset[str] = frozenset()) -> list[Problem]:
    """The SECRET problems of a text, but those a reviewer allowed by fingerprint (hidden
    Unicode aside): what a reader passing the text on to an agent must withhold."""
    return [p for p in _hidden_and_secrets(path, text, allowed) if p.rule == "SECRET"]


def _hidden_and_secrets(path: str, text: str, allowed: frozenset[str]) -> list[Problem]:
    """Secret and hidden-Unicode findings, but those a reviewer allowed by fingerprint."""
    from gitmem.gate import secrets

    problems = []
    seen: set[tuple[str, int]] = set()
    lines = text.split("\n")
    for finding in secrets.scan_text(text):  # hidden Unicode included
        if (finding.rule, finding.line) in seen or finding.fingerprint in allowed:
            continue
        seen.add((finding.rule, finding.line))
        held = lines[finding.line - 1] if 0 < finding.line <= len(lines) else ""
        marker = (
            f" (an inline {secrets.ALLOW_MARKER} marker exempts nothing)"
            if secrets.ALLOW_MARKER in held
            else ""
        )
        if finding.rule == "hidden-unicode":
            problems.append(
                Problem(
                    path,
                    finding.line or None,
                    "HIDDEN-UNICODE",
                    f"invisible character {finding.excerpt} ({finding.description}): "
                    f"remove it, it can hide text from reviewers{marker}",
                )
            )
        else:
            problems.append(
                Problem(
                    path,
                    finding.line or None,
                    "SECRET",
                    f"{finding.rule}: {finding.description} ({finding.excerpt}): remove it and "
                    "rotate it; if it is harmless, a reviewer other than its author records its "
                    f"fingerprint {finding.fingerprint} (gitmem admit --allow, or gitmem.allow "
                    f"in the server's git config){marker}",
                )
            )
    return problems


#: The fields that hold a date (amended a list of them): the schema gives their shape only.
DATE_FIELDS = ("created", "admitted", "amended", "retired")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _calendar_date(text: str) -> bool:
    """False for a YYYY-MM-DD that names no day (2026-02-30); True for anything else, whose
    shape the schema judges."""
    if not _DATE.fullmatch(text):
        return True
    try:
        dt.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def check_entry(
    path: str,
    entry: Entry,
    ctx: Context,
    place: Place,
    text: str | Callable[[], str] | None = None,
) -> list[Problem]:
    """The rules over a parsed entry: schema, id/path/type/date, status/folder, body, topic,
    cited files. text is the file's text (or what gives it, asked only for the line of a
    problem: a push judges thousands of entries that have none)."""
    from gitmem.gate import secrets
    from gitmem.model import schema

    def source() -> str:
        nonlocal text
        if not isinstance(text, str):
            text = text() if text else entry.render()
        return text

    problems: list[Problem] = []

    def add(rule: str, message: str, name: str | None = None, line: int | None = None) -> None:
        problems.append(
            Problem(path, line or (field_line(source(), name) if name else None), rule, message)
        )

    for message in schema.entry_problems(entry.meta, ctx.settings.types):
        name = message.split(":")[0].split(".")[0].split(" ")[0]
        quoted = re.search(r"'([a-z_]+)'", message)
        add(
            "SCHEMA", message, name if name in entry.meta else (quoted.group(1) if quoted else None)
        )

    # every date the schema shapes as YYYY-MM-DD must also be a day of the calendar
    for name in DATE_FIELDS:
        value = entry.meta.get(name)
        for date in value if isinstance(value, list) else [value]:
            if isinstance(date, str) and not _calendar_date(date):
                add("DATE", f"{name} {date!r} is not a calendar date", name)
    created = entry.created

    entry_id, type_ = entry.id, entry.type
    if entry_id and type_:
        marker = f"-{type_}-{created.replace('-', '')}-"
        if f"-{type_}-" not in entry_id:
            add(
                "ID-TYPE",
                f"id {entry_id!r} does not name its type {type_!r}: "
                f"ids read <project>-{type_}-<yyyymmdd>-<slug>",
                "id",
            )
        elif marker not in entry_id:
            add(
                "ID-DATE",
                f"id {entry_id!r} does not carry its created date "
                f"{created}: ids read <project>-{type_}-{created.replace('-', '')}-<slug>",
                "id",
            )
        else:
            project, _, tail = entry_id.partition(marker)
            if not _ID_TAIL.match(project or "") or not _ID_TAIL.match(tail or ""):
                add("ID-FORMAT", f"id {entry_id!r} is not <project>-<type>-<yyyymmdd>-<slug>", "id")

    if place.kind in ("entry", "candidate") and place.id != entry_id:
        add("ID-PATH", id_disagrees(entry_id, place.id), "id")
    if place.kind == "entry":
        if place.type != type_:
            add("ID-PATH", type_disagrees(type_, place.type), "type")
        if entry.status not in ("admitted", "superseded", "retired"):
            add(
                "STATUS-FOLDER",
                f"status {entry.status!r} does not fit entries/: only admitted, superseded "
                "or retired entries live there; candidates live on gitmem/<id> branches",
                "status",
            )
    elif place.kind == "candidate" and entry.status != "candidate":
        add(
            "STATUS-FOLDER",
            f"status {entry.status!r} does not fit candidates/: a proposal "
            "has status candidate; admission sets the rest",
            "status",
        )

    body_length = len(entry.body)
    if body_length > ctx.settings.max_body:
        add(
            "BODY-LENGTH",
            f"body is {body_length} characters, over the limit of "
            f"{ctx.settings.max_body} (memory.maxBody): keep one lesson, link the rest",
            line=entry.body_line,
        )

    for finding in secrets.scan_file_names(entry.files):
        add(
            "SECRET",
            f"files: {finding.excerpt} is a secret-like file ({finding.description}): "
            "a memory never points at credentials",
            "files",
        )

    # refused topics bind proposals only (an admitted entry was judged as a candidate)
    topic = entry.topic if entry.status == "candidate" and ctx.refused else ""
    refusal = ctx.refused.get(topic) if topic else None
    if refusal:
        add(
            "REFUSED-TOPIC",
            f"topic {topic!r} was {refusal.describe()}: it is not proposed again",
            "title",
        )
    elif entry.status == "candidate" and ctx.refused:
        close = refused_mod.near(topic, ctx.refused)
        if close:
            problems.append(
                Problem(
                    path,
                    field_line(source(), "title"),
                    "REFUSED-TOPIC",
                    f"close to refused topic {close.topic!r} ({close.describe()}, refused.md "
                    f"line {close.line})",
                    warning=True,
                )
            )

    # Cited files bind a candidate, and its admission (the history rules check them in the
    # admitting commit's tree); an admitted entry whose file moved later is stale, not invalid.
    # A retire candidate cites its entry's files as they were: a retirement changes no field.
    if ctx.path_exists is not None and entry.status == "candidate" and "retires" not in entry.meta:
        for cited in entry.files:
            if not ctx.path_exists(cited):
                add(
                    "FILES-MISSING",
                    f"files: {cited!r} does not exist in the repository: "
                    "cite paths that exist where the entry is admitted",
                    "files",
                )
    return problems
