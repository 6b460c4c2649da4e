"""`gitmem lint`: the health of the admitted memory as a whole, on the main branch.

`gitmem check` judges one file or one push; lint reads every entry on main together and
reports what only shows across files or over time.  It prints the usual
`path:line: RULE-ID message` lines and exits 1 when any rule fails.

Rules: every file rule of `gitmem check` but the refused-topic one (so SCHEMA reports type
misfits: a type the project does not know, a mistake without correction or detection_signal,
an import:-sourced entry that is not a method, an audit-sourced one that is neither a mistake
nor a code-structure; ID-PATH, ID-TYPE, ID-DATE report ids that disagree with their file),
and these:

- INDEX-DRIFT        INDEX.md disagrees with the entry files: a line missing, extra, or saying
                     another status or title than its file; or INDEX.md missing.
- LINEAGE-BROKEN     `supersedes` or `superseded_by` names an entry that is not on main.
- LINEAGE-ONE-SIDED  one side of a supersession is missing: A supersedes B but B is not
                     `superseded_by: A`, or the other way round.
- LINEAGE-CYCLE      following `superseded_by` comes back to the start.
- ID-DUPLICATE       two files carry the same id.
- ID-TITLE           the id's slug is not the slug of the title (plus an optional `-N`): the
                     title was changed after the id was made (not by a reviewed amendment,
                     which keeps the id on purpose).
- FILES-DEAD         an admitted entry cites a path that no longer exists on main (retired and
                     superseded entries are history: their files are not judged).
- CHANGELOG-BODY     the Context and Content sections hold CHANGELOG_LINES or more dated or
                     "Update:" lines.  A lesson states what holds now; a body that grew into a
                     log of edits is a sign it should be superseded by one clean entry.  A
                     log line is a line (optionally a list item) that starts with a date
                     (2026-11-29, 2026/11/29, 29.11.2026, 11/29/26, Nov 29, 29 Nov 2026) or
                     with update / updated / edit / edited / revised / changelog followed by
                     a colon within a few words.  The Evidence section is exempt: dated
                     commits and measurements belong there.
- RELATIVE-DATE      an admitted entry's prose says "yesterday", "last week", "recently", "3
                     days ago"…: words that lose their meaning once the entry is older than a
                     day.  Inline code and fenced code blocks are not prose and are skipped.
- CONTRADICTION      (a warning) two admitted entries apply to the same situation and
                     disagree: one says to do what the other says not to (gitmem.curate.hygiene
                     says how it is found and measured); the evidence is in the message.
- CODEOWNERS         CODEOWNERS (as committed) lacks the block memory.owners makes, holds
                     another, or has a later line that overrides it for the memory folder;
                     or memory.owners names a type the project does not have
                     (gitmem.curate.codeowners).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from gitmem.curate import codeowners
from gitmem.errors import UsageError
from gitmem.gate.check import Report
from gitmem.gate.rules import Context, check_bytes, check_one, place_of
from gitmem.index import indexmd as index_mod
from gitmem.model.entry import Entry, EntryError, id_slug, parse, slugify
from gitmem.model.fields import MAX_ENTRY_BYTES, field_line, normalise_text
from gitmem.model.markdown import fenced
from gitmem.model.names import quoted_id
from gitmem.model.problem import Problem
from gitmem.repo.snapshot import TreeSnapshot, read_entry
from gitmem.repo.store import Store
from gitmem.repo.workspace import Workspace
from gitmem.repo.workspace import memory_tree as memory_folder

CHANGELOG_LINES = 3
PROSE_FIELDS = ("title", "applies_when", "rationale", "correction", "detection_signal")
_SKIPPED_FILE_RULES = ("REFUSED-TOPIC", "FILES-MISSING")

_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_DATE = (
    r"(?:\d{4}-\d{1,2}-\d{1,2}|\d{4}/\d{1,2}/\d{1,2}|\d{1,2}[./]\d{1,2}[./]\d{2,4}"
    rf"|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?\b|\d{{1,2}}\s+{_MONTH}\s+\d{{4}})"
)
_LOG_LINE = re.compile(
    r"^\s*(?:[-*+]\s+|\d{1,3}[.)]\s+)?[*_(\[]*"
    rf"(?:{_DATE}|(?:update[ds]?|edit(?:ed)?|revised|changelog)\b[^:\n]{{0,30}}:)",
    re.IGNORECASE,
)
_NUMBER_WORDS = (
    r"(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple of|several)"
)
_UNITS = r"(?:minutes?|hours?|days?|weeks?|months?|years?|sprints?|releases?)"
_WEEKDAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_RELATIVE = re.compile(
    r"\b(?:"
    r"yesterday|today|tomorrow|tonight|recently|lately|nowadays|just now|the other day"
    rf"|(?:last|next|this|past|coming)\s+(?:weeks?|months?|years?|quarters?|sprints?|weekend"
    rf"|{_WEEKDAY})"
    rf"|{_NUMBER_WORDS}\s+{_UNITS}\s+ago"
    r"|earlier\s+this\s+(?:week|month|year|quarter)"
    r"|as\s+of\s+(?:now|today)"
    r")\b",
    re.IGNORECASE,
)
_INLINE_CODE = re.compile(r"`[^`\n]*`")


@dataclass(frozen=True)
class _File:
    path: str
    entry: Entry
    text: str


def lint(ws: Workspace, rev: str | None = None) -> Report:
    """Every lint rule over the memory folder at rev (default: the tip of main)."""
    store = ws.store
    # an empty --rev names no commit, as in git: it was taken for no --rev and linted main,
    # so `gitmem lint --rev "$SHA"` with SHA unset passed on the wrong commit
    # a memory branch missing here is named, never linted as an empty memory
    tip = store.resolve(rev) if rev is not None else ws.memory_tip()
    if rev is not None and tip is None:
        raise UsageError(f"--rev {quoted_id(rev)} is not a commit here (git fetch first?)")
    report = Report(unit="file", warnings=ws.settings.warning_lines(), command="gitmem lint")
    if tip is None:
        return report
    tree = store.tree_of(tip)
    memory_tree = memory_folder(ws, tree)
    if memory_tree is None:
        report.warnings.append(f"no {ws.dir}/ folder on {rev or ws.branch}: nothing to lint")
        return report
    snapshot = TreeSnapshot(store, tree)
    ctx = Context.from_snapshot(ws.settings, snapshot)
    ctx.path_exists = None  # dead files are judged below, as drift since admission
    files: list[_File] = []
    for item in store.walk(store.subtree(memory_tree, "entries"), f"{ws.dir}/entries/"):
        report.checked += 1
        if not item.is_file:  # a link (SYMLINK) or a submodule (LAYOUT), as every reader says
            try:
                read_entry(store, item)
            except EntryError as exc:
                report.problems.append(Problem(item.path, None, exc.rule, exc.message))
            continue
        place = place_of(item.path, ws.dir)
        if place.kind != "entry":
            # no entry's place (a merge tool's `….md.orig`, a file straight under entries/):
            # LAYOUT, as `gitmem check` says, and never read as an entry, whatever it holds
            report.problems.extend(check_one(snapshot, item.path, ctx))
            continue
        data = store.read(item.oid, path=item.path)
        for problem in check_bytes(item.path, data, ctx, place):
            if problem.rule not in _SKIPPED_FILE_RULES:
                report.problems.append(problem)
        if len(data) > MAX_ENTRY_BYTES:
            continue  # TOO-LARGE, reported by the file rules: no reader reads it (read_entry)
        try:
            # the text the parser reads (no BOM, LF line ends): the prose rules below read
            # its lines, and a `## Context` heading ending in CR was no heading to them
            text = normalise_text(data.decode("utf-8"))
            files.append(_File(item.path, parse(text), text))
        except (UnicodeDecodeError, EntryError):
            continue  # already reported by the file rules
    by_id = _ids(files, report)
    report.problems.extend(
        _index_drift(ws, store.read_path(tree, f"{ws.dir}/INDEX.md"), memory_tree)
    )
    for file in files:
        report.problems.extend(_lineage(file, by_id))
        report.problems.extend(_id_title(file))
        report.problems.extend(_dead_files(file, snapshot))
        report.problems.extend(_changelog(file))
        report.problems.extend(_relative_dates(file))
    leaked = {p.path for p in report.problems if p.rule == "SECRET"}
    report.problems.extend(_contradictions([f for f in files if f.path not in leaked]))
    report.problems.extend(codeowners.check(ws.settings, lambda path: _text_at(store, tree, path)))
    withheld = _withheld(report.problems, leaked, ctx.allowed)
    report.problems = sorted(withheld, key=Problem.sort_key)
    return report


_WITHHELD = (
    "not shown: {why}, which this message may quote (rule SECRET); remove the secret, then "
    "run gitmem lint again"
)


def _withheld(
    problems: list[Problem], leaked: set[str], allowed: frozenset[str]
) -> Iterator[Problem]:
    """The problems as a report may print them: lint quotes what it judges (a clause, a
    cited path, a title in INDEX.md), so a file holding a secret (rule SECRET, redacted by
    the scanner) keeps its other problems' place and rule with their message withheld, and
    any other message in which the scanner finds a secret (not one a reviewer allowed in
    allowed.md, as the file rules do not report it) is withheld too."""
    import dataclasses

    from gitmem.gate import secrets

    for problem in problems:
        if problem.rule == "SECRET":
            yield problem
        elif problem.path in leaked:
            why = "this file holds a secret"
            yield dataclasses.replace(problem, message=_WITHHELD.format(why=why))
        elif any(
            f.rule not in ("hidden-unicode", "scan-size-cap") and f.fingerprint not in allowed
            for f in secrets.scan_text(problem.message)
        ):
            why = "it holds a secret"
            yield dataclasses.replace(problem, message=_WITHHELD.format(why=why))
        else:
            yield problem


def _contradictions(files: list[_File]) -> Iterator[Problem]:
    """Admitted entries that apply to the same situation and disagree (gitmem.curate.hygiene
    says how that is measured): a warning with the evidence, for a person to judge."""
    from gitmem.curate import hygiene

    admitted = [(f.path, f.entry) for f in files if f.entry.status == "admitted"]
    for clash in hygiene.find_contradictions(admitted):
        yield Problem(
            clash.b.path,
            None,
            "CONTRADICTION",
            f"may contradict {clash.a.id}: {clash.evidence()}; supersede one or both "
            "(gitmem hygiene --propose proposes a candidate that does)",
            warning=True,
        )


def _text_at(store: Store, tree: str, path: str) -> str | None:
    data = store.read_path(tree, path)
    return data.decode("utf-8", "replace") if data is not None else None


def _ids(files: list[_File], report: Report) -> dict[str, _File]:
    by_id: dict[str, _File] = {}
    for file in sorted(files, key=lambda f: f.path):
        other = by_id.get(file.entry.id)
        if other is not None:
            report.problems.append(
                Problem(
                    file.path,
                    field_line(file.text, "id"),
                    "ID-DUPLICATE",
                    f"id {file.entry.id!r} is also the id of {other.path}: ids are unique",
                )
            )
            continue
        by_id[file.entry.id] = file
    return by_id


# ---------------------------------------------------------------------------------------------
# INDEX.md


def _index_drift(ws: Workspace, data: bytes | None, memory_tree: str) -> list[Problem]:
    path = f"{ws.dir}/INDEX.md"
    fix = "run `gitmem index` and commit it"
    if data is None:
        return [Problem(path, None, "INDEX-DRIFT", f"INDEX.md is missing: {fix}")]
    actual = data.decode("utf-8", "replace")
    expected = index_mod.generate(ws.store, memory_tree)
    if actual == expected:
        return []
    want = index_mod.parse_index(expected) or {}
    have = index_mod.parse_index(actual)
    if have is None:
        return [Problem(path, 1, "INDEX-DRIFT", f"INDEX.md was not written by gitmem: {fix}")]
    problems = []
    for entry_id, line in sorted(want.items()):
        if entry_id not in have:
            problems.append(Problem(path, None, "INDEX-DRIFT", f"does not list {entry_id}: {fix}"))
        elif have[entry_id].text != line.text:
            problems.append(
                Problem(
                    path,
                    have[entry_id].number,
                    "INDEX-DRIFT",
                    f"the line for {entry_id} reads {_tail(have[entry_id].text)!r} but its "
                    f"file says {_tail(line.text)!r}: {fix}",
                )
            )
    for entry_id in sorted(set(have) - set(want)):
        problems.append(
            Problem(
                path,
                have[entry_id].number,
                "INDEX-DRIFT",
                f"lists {entry_id}, which has no entry file: {fix}",
            )
        )
    if not problems:
        problems.append(
            Problem(
                path, None, "INDEX-DRIFT", f"INDEX.md is not in gitmem's order or layout: {fix}"
            )
        )
    return problems


def _tail(line: str) -> str:
    return line.split(") ", 1)[-1]


# ---------------------------------------------------------------------------------------------
# lineage, ids, files


def _lineage(file: _File, by_id: dict[str, _File]) -> Iterator[Problem]:
    entry = file.entry
    line = field_line(file.text, "supersedes")
    for old_id in entry.supersedes:
        old = by_id.get(old_id)
        if old is None:
            yield Problem(
                file.path,
                line,
                "LINEAGE-BROKEN",
                f"supersedes {old_id!r}, which is not an entry on main",
            )
        elif str(old.entry.meta.get("superseded_by", "")) != entry.id:
            yield Problem(
                file.path,
                line,
                "LINEAGE-ONE-SIDED",
                f"supersedes {old_id}, but {old.path} is {old.entry.status} and not "
                f"superseded_by {entry.id}: lineage must agree on both sides",
            )
    successor = str(entry.meta.get("superseded_by", ""))
    if not successor:
        return
    line = field_line(file.text, "superseded_by")
    newer = by_id.get(successor)
    if newer is None:
        yield Problem(
            file.path,
            line,
            "LINEAGE-BROKEN",
            f"superseded_by {successor!r}, which is not an entry on main",
        )
    elif entry.id not in newer.entry.supersedes:
        yield Problem(
            file.path,
            line,
            "LINEAGE-ONE-SIDED",
            f"superseded_by {successor}, but {newer.path} does not list {entry.id} in "
            "supersedes: lineage must agree on both sides",
        )
    seen = {entry.id}
    current: _File | None = newer
    while current is not None:
        if current.entry.id in seen:
            yield Problem(
                file.path,
                line,
                "LINEAGE-CYCLE",
                f"following superseded_by from {entry.id} comes back to {current.entry.id}",
            )
            return
        seen.add(current.entry.id)
        nxt = str(current.entry.meta.get("superseded_by", ""))
        current = by_id.get(nxt) if nxt else None


def _id_title(file: _File) -> Iterator[Problem]:
    entry = file.entry
    marker = f"-{entry.type}-{entry.created.replace('-', '')}-"
    if not entry.title or marker not in entry.id:
        return  # ID-TYPE / ID-DATE / SCHEMA already say what is wrong
    if entry.meta.get("amended"):
        return  # a reviewed amendment corrects the title in place and keeps the id
    tail = entry.id.split(marker, 1)[1]
    expected = id_slug(entry.title)
    # ids made before id_slug put a digest after a title beyond ASCII ended in its slug alone
    for made in {expected, slugify(entry.title)}:
        if tail == made or re.fullmatch(re.escape(made) + r"-[0-9]+", tail):
            return
    yield Problem(
        file.path,
        field_line(file.text, "id"),
        "ID-TITLE",
        f"id {entry.id!r} ends in {tail!r}, but the title's slug is {expected!r}: the title "
        "changed after the id was made; supersede the entry to rename it",
    )


def _dead_files(file: _File, snapshot: TreeSnapshot) -> Iterator[Problem]:
    if file.entry.status != "admitted":
        return
    for cited in file.entry.files:
        if snapshot.kind(cited) == "missing":
            yield Problem(
                file.path,
                field_line(file.text, "files"),
                "FILES-DEAD",
                f"files: {cited!r} no longer exists on main: correct the entry in place "
                f"(gitmem propose --amend {file.entry.id} --file NEW-PATH) or retire it "
                f"(gitmem propose --retire {file.entry.id} --reason …)",
            )


# ---------------------------------------------------------------------------------------------
# prose


def _body_lines(text: str) -> Iterator[tuple[int, str, str]]:
    """(line number, section, prose) for each body line outside fenced code, inline code
    blanked; section is Context, Content or Evidence."""
    lines = text.split("\n")
    start = 0
    if lines and lines[0].strip() == "---":
        for number in range(1, len(lines)):
            if lines[number].strip() == "---":
                start = number + 1
                break
    section = ""
    for number, (line, in_code) in enumerate(fenced(lines[start:]), start=start):
        if in_code:
            continue
        heading = re.match(r"^##[ \t]+(Context|Content|Evidence)[ \t]*$", line)
        if heading:
            section = heading.group(1)
            continue
        yield number + 1, section, _INLINE_CODE.sub(" ", line)


def _changelog(file: _File) -> Iterator[Problem]:
    hits = [
        number
        for number, section, line in _body_lines(file.text)
        if section in ("Context", "Content") and _LOG_LINE.match(line)
    ]
    if len(hits) >= CHANGELOG_LINES:
        yield Problem(
            file.path,
            hits[0],
            "CHANGELOG-BODY",
            f"{len(hits)} dated or 'update:' lines in Context and Content: the body grew "
            "into a change log; supersede it with one entry that states what holds now "
            "(dated facts go to Evidence)",
        )


def _relative_dates(file: _File) -> Iterator[Problem]:
    if file.entry.status != "admitted":
        return
    candidates: list[tuple[int | None, str]] = []
    for name in PROSE_FIELDS:
        value = file.entry.meta.get(name)
        if isinstance(value, str):
            candidates.append((field_line(file.text, name), _INLINE_CODE.sub(" ", value)))
    candidates.extend((number, line) for number, _, line in _body_lines(file.text))
    for number, line in candidates:
        match = _RELATIVE.search(line)
        if match:
            yield Problem(
                file.path,
                number,
                "RELATIVE-DATE",
                f"{match.group(0)!r} is relative to when it was written: give the date "
                "(e.g. 2026-11-29) or drop it; admitted text is read long after",
            )
