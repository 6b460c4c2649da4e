"""`gitmem harvest PATH…`: turn gaps that audits keep finding into `mistake` candidates.

An audit verdict file is Markdown with a verdict heading over a gap table:

    ## Verdict — GAPS

    | Severity | Axis | Gap | Evidence | Expected fix |
    | --- | --- | --- | --- | --- |
    | Blocking | tests | No test pushes to a bare repository | tests/test_history.py | Add one |

The heading reads `Verdict — VALID` or `Verdict — GAPS` (an en dash, a hyphen or `--` are
accepted for the em dash; 1 to 3 `#`).  The columns are found by name, in any order, and more
columns may follow.  A `|` inside a cell is written `\\|`.  One file is one batch.  Only
Blocking and Major rows count; Minor (and Nit, Info, Note) rows are read and left out.

Gaps from all files are grouped: two gaps are the same when their normalised text is equal or
the TF-IDF cosine of their terms (recall's analysis) is at least GROUP_THRESHOLD; groups are
the connected components.  A group seen in RECUR_BATCHES (3) or more distinct batches becomes
one candidate: type mistake, `source: audit:<the latest batch>`, `evidence_batches` = the
batches, `detection_signal` = the gap as the latest batch words it, `correction` = the
Expected fix of the latest batch that gives one, title = the gap as the earliest batch words it
(so the topic stays the same as more batches arrive).  "Latest" is the last in natural order of
the file paths (date- or number-named verdict files sort in time order).  A group in exactly
two batches is reported as "watch" and not proposed.  A topic already pending, on main or
refused, or a gap that an existing mistake entry or candidate already describes, is skipped.
A group whose rows hold a secret (gitmem.gate.secrets) is never proposed: it is reported as
`secret`, by file, line and rule, its text withheld. A verdict file whose path holds a
secret (the path is the batch's name, which reports print and a candidate carries) is not
read: a HARVEST-FILE problem says which rule, the path withheld.

Learning is due when a gap keeps recurring and nobody has learnt from it yet: harvest says "a
review of mistakes is due" and lists those gaps when at least one group recurs in two or more
batches (REVIEW_BATCHES) and is untreated. A group is treated when an admitted entry holds its
topic or describes it (a mistake), or its topic was refused: the team decided. Anything else is
untreated: watched (two batches), proposed now or pending as a candidate (proposed, not yet
learnt), or not proposable. The note is a prompt for the team's review, not a rule failure:
the exit code does not change.

Hostile input is reported, never a traceback: a file over MAX_FILE_BYTES, binary or not UTF-8,
without a verdict heading, a GAPS verdict without its table, or table rows whose cell count
disagrees with the header each give a `path:line: RULE-ID message` line, and the other files
are still harvested. A file named twice (through `..` or a linked folder), or holding the very
text of another, is one batch.
"""

from __future__ import annotations

import contextlib
import os
import re
import unicodedata
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import re2 as _re2

from gitmem.curate import dry_problems
from gitmem.errors import RuleError, UsageError
from gitmem.model.entry import EntryError, topic_of
from gitmem.model.markdown import UnreadableFile, fenced, read_text, table_cells
from gitmem.model.names import is_utf8
from gitmem.model.problem import Problem
from gitmem.model.proposal import ProposalFields
from gitmem.repo.workspace import Workspace

if TYPE_CHECKING:
    from gitmem.gate.secrets import Finding

MAX_FILE_BYTES = 1024 * 1024
MAX_FILES = 1000
MAX_ROWS = 500
MAX_CELL = 1000
GROUP_THRESHOLD = 0.5
RECUR_BATCHES = 3
#: From how many distinct batches an untreated gap makes a review of mistakes due.
REVIEW_BATCHES = 2
COUNTED = ("blocking", "major")
KNOWN_SEVERITIES = (*COUNTED, "minor", "nit", "info", "note", "trivial")
COLUMNS = ("severity", "axis", "gap", "evidence", "expected fix")
SECRET = "secret"
WITHHELD = "(withheld: it holds a secret)"
WITHHELD_PATH = "(withheld: its path holds a secret)"

_VERDICT = re.compile(
    r"^#{1,3}[ \t]+verdict[ \t]*(?:—|–|--|-|:)[ \t]*(valid|gaps)\b[^\n]*$", re.IGNORECASE
)
_HEADING = re.compile(r"^#{1,6}[ \t]")
_SEPARATOR_CELL = re.compile(r"^:?-{1,}:?$")
# RE2, not re: a long run of path characters without a '/' made re backtrack quadratically
_PATHLIKE = _re2.compile(
    r"[A-Za-z0-9_.\-]+(?:/[A-Za-z0-9_.\-]+)+|[A-Za-z0-9_\-]+\.[A-Za-z0-9]{1,8}"
)


@dataclass(frozen=True)
class Gap:
    batch: str
    line: int
    severity: str
    axis: str
    gap: str
    evidence: str
    fix: str


@dataclass
class Verdict:
    batch: str
    verdict: str
    gaps: list[Gap] = field(default_factory=list)


@dataclass
class Group:
    gaps: list[Gap]
    batches: list[str]
    outcome: str = ""  # proposed, would propose, watch, once, duplicate, refused, invalid, secret
    detail: str = ""
    id: str | None = None
    branch: str | None = None
    #: an admitted entry holds or describes it, or its topic was refused (see the docstring)
    treated: bool = False

    @property
    def title(self) -> str:
        return _one_line(self.first.gap, 200)

    @property
    def shown_title(self) -> str:
        """The title as reports show it: never the text of a gap holding a secret."""
        return WITHHELD if self.outcome == SECRET else self.title

    @property
    def first(self) -> Gap:
        return min(self.gaps, key=lambda g: (natural_key(g.batch), g.line))

    @property
    def latest(self) -> Gap:
        return max(self.gaps, key=lambda g: (natural_key(g.batch), g.line))


@dataclass
class Harvest:
    verdicts: list[Verdict] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)

    @property
    def review_due(self) -> list[Group]:
        """The untreated gaps recurring in REVIEW_BATCHES or more batches: when there is one,
        a review of mistakes is due."""
        return [g for g in self.groups if len(g.batches) >= REVIEW_BATCHES and not g.treated]

    @property
    def ok(self) -> bool:
        return not any(not p.warning for p in self.problems) and not any(
            g.outcome in ("invalid", SECRET) for g in self.groups
        )


def natural_key(text: str) -> list[tuple[int, int | str]]:
    """Sort key where digit runs compare as numbers: batch-2 before batch-10."""
    return [(0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", text)]


def _one_line(text: str, limit: int) -> str:
    line = " ".join(text.split()).rstrip(".")
    if len(line) <= limit:
        return line
    return line[:limit].rsplit(" ", 1)[0] or line[:limit]


# ---------------------------------------------------------------------------------------------
# reading verdict files


def _plain(cell: str) -> str:
    return " ".join(re.sub(r"\*\*|__|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)", "", cell).split())


def parse_verdict(batch: str, text: str) -> tuple[Verdict | None, list[Problem]]:
    """A verdict file's counted gaps, and the problems found reading it."""
    lines = text.split("\n")
    problems: list[Problem] = []
    # a heading is neither in code (a fenced block, four spaces of indent) nor quoted: a
    # README of the audits folder that shows the format is no verdict
    code = [in_code for _, in_code in fenced(lines)]
    start = next(
        (
            n
            for n, line in enumerate(lines)
            if not code[n] and _indent(line) <= 3 and _VERDICT.match(line.strip())
        ),
        None,
    )
    if start is None:
        return None, [
            Problem(
                batch,
                None,
                "HARVEST-VERDICT",
                "no '## Verdict — VALID' or '## Verdict — GAPS' heading: not an audit verdict",
            )
        ]
    match = _VERDICT.match(lines[start].strip())
    assert match is not None
    verdict = Verdict(batch, match.group(1).upper())
    table = _find_table(lines, start + 1)
    if table is None:
        if verdict.verdict == "GAPS":
            problems.append(
                Problem(
                    batch,
                    start + 1,
                    "HARVEST-TABLE",
                    "a GAPS verdict without its table: add '| Severity | Axis | Gap | Evidence "
                    "| Expected fix |' under the heading",
                )
            )
        return verdict, problems
    header_at = table
    header = [_plain(c).lower() for c in table_cells(lines[header_at])]
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        problems.append(
            Problem(
                batch,
                header_at + 1,
                "HARVEST-TABLE",
                f"the table has no {', '.join(repr(m) for m in missing)} column: the header "
                "reads | Severity | Axis | Gap | Evidence | Expected fix |",
            )
        )
        return verdict, problems
    column = {name: header.index(name) for name in COLUMNS}
    separator = lines[header_at + 1] if header_at + 1 < len(lines) else ""
    if not all(_SEPARATOR_CELL.match(c.strip()) for c in table_cells(separator)):
        problems.append(
            Problem(
                batch,
                header_at + 2,
                "HARVEST-TABLE",
                "the header row is not followed by a '| --- | --- |' separator row",
            )
        )
        return verdict, problems
    for number in range(header_at + 2, len(lines)):
        raw = lines[number]
        if not raw.strip().startswith("|"):
            break
        cells = table_cells(raw)
        if len(cells) != len(header):
            problems.append(
                Problem(
                    batch,
                    number + 1,
                    "HARVEST-ROW",
                    f"row has {len(cells)} cells, the header {len(header)}: write a '|' "
                    "inside a cell as '\\|'; row skipped",
                )
            )
            continue
        severity = _plain(cells[column["severity"]]).lower()
        if severity not in KNOWN_SEVERITIES:
            problems.append(
                Problem(
                    batch,
                    number + 1,
                    "HARVEST-ROW",
                    f"unknown severity {_shown_cell(severity)}: use Blocking, Major or "
                    "Minor; row skipped",
                    warning=True,
                )
            )
            continue
        if severity not in COUNTED:
            continue
        gap_text = _plain(cells[column["gap"]])
        if not gap_text:
            problems.append(
                Problem(batch, number + 1, "HARVEST-ROW", "the Gap cell is empty; row skipped")
            )
            continue
        if len(verdict.gaps) >= MAX_ROWS:
            problems.append(
                Problem(
                    batch,
                    number + 1,
                    "HARVEST-ROW",
                    f"more than {MAX_ROWS} Blocking or Major rows: the rest are not read",
                )
            )
            break
        verdict.gaps.append(
            Gap(
                batch,
                number + 1,
                severity.capitalize(),
                _one_line(_plain(cells[column["axis"]]), 100),
                _one_line(gap_text, MAX_CELL),
                _one_line(_plain(cells[column["evidence"]]), MAX_CELL),
                _one_line(_plain(cells[column["expected fix"]]), MAX_CELL),
            )
        )
    return verdict, problems


def _indent(line: str) -> int:
    """The columns of a line's indent (a tab to the next multiple of four)."""
    blank = line[: len(line) - len(line.lstrip(" \t"))]
    return len(blank.expandtabs(4))


def _find_table(lines: list[str], start: int) -> int | None:
    """The header row of the first table under the verdict heading, before the next heading."""
    for number in range(start, len(lines)):
        line = lines[number].strip()
        if _HEADING.match(line):
            return None
        if line.startswith("|"):
            return number
    return None


def _expand(paths: Sequence[Path]) -> Iterator[Path]:
    for path in paths:
        if path.is_dir() and not path.is_symlink():
            yield from sorted(path.rglob("*.md"), key=lambda p: natural_key(p.as_posix()))
        else:
            yield path


def read_verdicts(paths: Sequence[Path], show: Any) -> tuple[list[Verdict], list[Problem]]:
    """Every verdict file among paths (folders: their .md files), with reading problems."""
    verdicts: list[Verdict] = []
    problems: list[Problem] = []
    seen: set[str] = set()
    texts: dict[str, str] = {}  # a verdict's text → the batch it was read as
    for count, path in enumerate(_expand(paths)):
        batch = show(path)
        in_path = _path_secrets(batch) if is_utf8(batch) else []
        if count >= MAX_FILES:
            problems.append(
                Problem(
                    WITHHELD_PATH if in_path else batch,
                    None,
                    "HARVEST-FILE",
                    f"over {MAX_FILES} files: rest skipped",
                )
            )
            break
        if batch in seen:
            continue
        seen.add(batch)
        if in_path:  # the name goes into the report, the candidate's source and batches
            rules = ", ".join(f"{f.rule}: {f.description} ({f.excerpt})" for f in in_path)
            problems.append(
                Problem(
                    WITHHELD_PATH,
                    None,
                    "HARVEST-FILE",
                    f"its path holds a secret ({rules}): rename it; the file is not read",
                )
            )
            continue
        if not is_utf8(batch):  # the name goes into the candidate, which is UTF-8
            shown = batch.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
            problems.append(
                Problem(shown, None, "HARVEST-FILE", "its name is not UTF-8: rename it")
            )
            continue
        text, problem = _read(path, batch)
        if problem is not None:
            problems.append(problem)
            continue
        assert text is not None
        verdict, found = parse_verdict(batch, text)
        if verdict is not None and verdict.gaps and text in texts:
            # a copy is no other audit: its gaps recur in no other batch
            problems.append(
                Problem(
                    batch,
                    None,
                    "HARVEST-FILE",
                    f"the same verdict as {texts[text]}, word for word: read once, as that batch",
                    warning=True,
                )
            )
            continue
        texts.setdefault(text, batch)
        problems.extend(found)
        if verdict is not None:
            verdicts.append(verdict)
    return verdicts, problems


def _shown_cell(cell: str) -> str:
    """A table cell as a problem quotes it (its first 40 characters on one line), or that it
    is withheld when the scanner finds a secret in the cell: a message is printed and kept
    in CI logs."""
    from gitmem.gate import secrets

    if any(f.rule not in ("hidden-unicode", "scan-size-cap") for f in secrets.scan_text(cell)):
        return WITHHELD
    return repr(_one_line(cell, 40))


def _path_secrets(name: str) -> list[Finding]:
    """The secrets a verdict file's path holds: it is the batch's name, which reports print
    and a candidate carries (source, evidence_batches, Evidence)."""
    from gitmem.gate import secrets

    return [f for f in secrets.scan_text(name) if f.rule not in ("hidden-unicode", "scan-size-cap")]


def _read(path: Path, batch: str) -> tuple[str | None, Problem | None]:
    if not path.exists():
        return None, Problem(batch, None, "HARVEST-FILE", "no such file")
    try:
        return read_text(path, MAX_FILE_BYTES, kind="verdict file"), None
    except UnreadableFile as exc:
        return None, Problem(batch, exc.line, "HARVEST-FILE", exc.message)


# ---------------------------------------------------------------------------------------------
# grouping


def _normalised(text: str) -> str:
    """A gap's words, case-folded: letters and digits of any script (kept to ASCII, every
    gap written in Japanese, Greek or Russian was the same empty text)."""
    return " ".join(re.findall(r"[^\W_]+", unicodedata.normalize("NFKC", text).casefold()))


def group_gaps(gaps: Sequence[Gap]) -> list[Group]:
    """Gaps grouped by equal normalised text or TF-IDF cosine >= GROUP_THRESHOLD."""
    from gitmem.curate import hygiene
    from gitmem.recall.engine import analyze

    vectors = hygiene.tfidf([analyze(g.gap) for g in gaps])
    edges = [(s, i, j) for (i, j), s in hygiene.scored_pairs(vectors, GROUP_THRESHOLD).items()]
    first: dict[str, int] = {}
    for number, gap in enumerate(gaps):
        key = _normalised(gap.gap)
        if not key:
            continue  # no words: equal to nothing
        if key in first:
            edges.append((1.0, first[key], number))
        else:
            first[key] = number
    grouped = hygiene.components(len(gaps), edges)
    inside = {n for g in grouped for n in g}
    grouped += [[n] for n in range(len(gaps)) if n not in inside]
    out = []
    for numbers in grouped:
        members = [gaps[n] for n in numbers]
        batches = sorted({g.batch for g in members}, key=natural_key)
        out.append(Group(members, batches))
    return sorted(out, key=lambda g: (-len(g.batches), natural_key(g.first.batch), g.first.line))


# ---------------------------------------------------------------------------------------------
# proposing


def mistake_fields(group: Group, exists: Any, max_body: int) -> ProposalFields | None:
    """The candidate for a recurring gap, fitted into max_body: the other wordings, then the
    evidence rows (the latest last), then the rows' Evidence text go (the verdict files keep
    it); None without an Expected fix, or when even so it does not fit."""
    latest = group.latest
    with_fix = [g for g in group.gaps if g.fix]
    if not with_fix:
        return None
    fix = max(with_fix, key=lambda g: (natural_key(g.batch), g.line)).fix
    axes = Counter(g.axis for g in group.gaps if g.axis)
    axis = axes.most_common(1)[0][0] if axes else ""
    files: list[str] = []
    for gap in group.gaps:
        for token in _PATHLIKE.findall(gap.evidence):
            path = token.removeprefix("./").rstrip(".")
            if path not in files and exists(path):
                files.append(path)
    severities = Counter(g.severity for g in group.gaps)
    counted = ", ".join(f"{n} {s}" for s, n in sorted(severities.items()))
    context = (
        f"Audits flagged this gap in {len(group.batches)} distinct batches ({counted}); "
        "gitmem harvest proposed it as a recurring mistake."
    )
    wordings = list(dict.fromkeys(g.gap for g in group.gaps))
    content = f"The gap: {group.first.gap}\n\nThe fix: {fix}"
    if len(wordings) > 1:
        content += "\n\nOther wordings:\n" + "\n".join(f"- {w}" for w in wordings[1:])
    ordered = sorted(group.gaps, key=lambda g: (natural_key(g.batch), g.line))
    bare = [
        f"- {g.batch}:{g.line} ({g.severity}" + (f", {g.axis}" if g.axis else "") + ")"
        for g in ordered
    ]
    rows = [
        row + (f": {g.evidence}" if g.evidence else "")
        for row, g in zip(bare, ordered, strict=True)
    ]
    from gitmem.model.entry import Entry

    attempts = [(rows, keep) for keep in range(len(rows), 0, -1)]
    attempts += [(bare, keep) for keep in range(len(bare), 0, -1)]  # Evidence text cut
    for shown, keep in attempts:
        for body in (content, f"The gap: {group.first.gap}\n\nThe fix: {fix}"):
            evidence = "\n".join(shown[:keep])
            if keep < len(shown):
                evidence += f"\n- … and {len(shown) - keep} more rows"
            if shown is bare:
                evidence += "\n- (the rows' Evidence is in the verdict files)"
            if len(Entry({}, context, body, evidence).body) <= max_body:
                return ProposalFields(
                    type="mistake",
                    title=group.title,
                    applies_when=(
                        f"work audited on the {axis} axis" if axis else "work that audits review"
                    ),
                    source=f"audit:{latest.batch}",
                    evidence_batches=tuple(group.batches[:100]),
                    correction=_one_line(fix, MAX_CELL),
                    detection_signal=_one_line(latest.gap, MAX_CELL),
                    files=tuple(files[:50]),
                    context=context,
                    content=body,
                    evidence=evidence,
                )
    return None


def harvest(ws: Workspace, paths: Sequence[Path], *, dry_run: bool = False) -> Harvest:
    """Read the verdict files, group their Blocking and Major gaps, and propose a mistake
    candidate for each gap recurring in RECUR_BATCHES or more distinct batches."""
    if not paths:
        raise UsageError("name the audit verdict files (or folders of them) to harvest")
    ws.memory_tip()  # a memory branch missing here is named, not taken for an empty memory
    # a bare repository has no working tree: its names are the ones from where harvest runs
    root = ws.store.workdir or Path.cwd()

    def show(path: Path) -> str:
        # one file, one name, however it was reached: its folder with `..` and links
        # resolved (the file itself is not followed: a linked file is refused when read)
        where = path.absolute().parent.resolve() / path.name
        # relative to the repository even outside it: the name goes into the memory
        # (source, evidence_batches), where a machine's own path has no place
        with contextlib.suppress(ValueError):  # on another drive
            return Path(os.path.relpath(where, root.resolve())).as_posix()
        return where.as_posix()

    result = Harvest()
    result.verdicts, result.problems = read_verdicts(paths, show)
    gaps = [g for v in result.verdicts for g in v.gaps]
    result.groups = group_gaps(gaps)
    state = _State.load(ws)
    for group in result.groups:
        _decide(ws, group, state, dry_run)
    return result


@dataclass
class _State:
    topics: dict[str, str]
    #: the topics an admitted entry holds (a gap with one is treated)
    admitted: set[str]
    refusals: dict[str, Any]
    mistakes: list[tuple[str, str]]  # (what holds it, its text)
    tree: str | None
    #: each mistake's term counts, analysed once; how many mistakes hold each term, and which
    _counts: list[Counter[str]] = field(default_factory=list)
    _df: Counter[str] = field(default_factory=Counter)
    _holding: dict[str, list[int]] = field(default_factory=dict)

    @classmethod
    def load(cls, ws: Workspace) -> _State:
        from gitmem.lifecycle import read as memory
        from gitmem.lifecycle.candidates import pending
        from gitmem.model import refused

        topics: dict[str, str] = {}
        admitted: set[str] = set()
        mistakes: list[tuple[str, str]] = []
        for path, entry in memory.entries(ws):
            topics.setdefault(entry.topic, f"{entry.status} entry {entry.id}")
            if entry.status == "admitted":
                admitted.add(entry.topic)
            if entry.type == "mistake" and entry.status == "admitted":
                signal = str(entry.meta.get("detection_signal", ""))
                mistakes.append((f"admitted entry {entry.id} ({path})", f"{entry.title}. {signal}"))
        for candidate in pending(ws):
            with contextlib.suppress(EntryError):
                entry = candidate.entry()
                topics.setdefault(entry.topic, f"pending candidate {candidate.id}")
                if entry.type == "mistake":
                    signal = str(entry.meta.get("detection_signal", ""))
                    mistakes.append(
                        (f"pending candidate {candidate.id}", f"{entry.title}. {signal}")
                    )
        tip = ws.main_tip()
        tree = ws.store.tree_of(tip) if tip else None
        data = ws.store.read_path(tree, f"{ws.dir}/refused.md") if tree else None
        refusals = dict(refused.parse(data.decode("utf-8", "replace"))) if data else {}
        return cls(topics, admitted, refusals, mistakes, tree)

    def covering(self, group: Group) -> str | None:
        """What existing mistake already describes the group's gap, if any: the first whose
        TF-IDF cosine (over the two wordings of the gap and every mistake) with the gap's
        first or latest wording is at least GROUP_THRESHOLD. Each mistake is analysed once,
        and only those sharing a term with the gap are weighed (the others score 0)."""
        from gitmem.curate import vectors
        from gitmem.recall.engine import analyze

        self._analyse()
        if not self.mistakes:
            return None
        gap = [Counter(analyze(group.first.gap)), Counter(analyze(group.latest.gap))]
        near = sorted({n for counts in gap for term in counts for n in self._holding.get(term, ())})
        terms = {t for n in near for t in self._counts[n]} | set(gap[0]) | set(gap[1])
        df = {t: self._df[t] + (t in gap[0]) + (t in gap[1]) for t in terms}
        size = len(self.mistakes) + 2
        first, latest = (vectors.weigh(counts, df, size) for counts in gap)
        for number in near:
            vector = vectors.weigh(self._counts[number], df, size)
            best = max(vectors.cosine(first, vector), vectors.cosine(latest, vector))
            if best >= GROUP_THRESHOLD:
                return self.mistakes[number][0]
        return None

    def _analyse(self) -> None:
        """Bring the term counts up to the mistakes (harvest adds the ones it proposes)."""
        from gitmem.recall.engine import analyze

        for number in range(len(self._counts), len(self.mistakes)):
            counts = Counter(analyze(self.mistakes[number][1]))
            self._counts.append(counts)
            self._df.update(counts.keys())
            for term in counts:
                self._holding.setdefault(term, []).append(number)


def _secret_lines(group: Group) -> list[str]:
    """The secrets a group's rows hold, each as `batch:line: SECRET rule: …` with a redacted
    excerpt. Checked before anything else: a gap quoting a leaked token was printed in full as
    the group's title (watched, or listed as due for review) and, once it recurred, reached
    propose, whose refusal named the candidate file after the token's slug."""
    from gitmem.gate import secrets

    found: list[str] = []
    for gap in sorted(group.gaps, key=lambda g: (natural_key(g.batch), g.line)):
        text = "\n".join((gap.axis, gap.gap, gap.evidence, gap.fix))
        for finding in secrets.scan_text(text):
            if finding.rule in ("hidden-unicode", "scan-size-cap"):
                continue
            line = (
                f"{gap.batch}:{gap.line}: SECRET {finding.rule}: {finding.description} "
                f"({finding.excerpt})"
            )
            if line not in found:
                found.append(line)
    return found


def _decide(ws: Workspace, group: Group, state: _State, dry_run: bool) -> None:
    from gitmem.lifecycle.propose import propose

    count = len(group.batches)
    topic = topic_of(group.title)
    refusal = state.refusals.get(topic)
    holder = state.covering(group) if count >= REVIEW_BATCHES else None
    group.treated = (
        refusal is not None
        or topic in state.admitted
        or (holder is not None and holder.startswith("admitted entry"))
    )
    found = _secret_lines(group)
    if found:  # never proposed, its text never shown: where and which rule, redacted
        group.outcome, group.detail = SECRET, "\n".join(found)
        return
    if count < RECUR_BATCHES:
        group.outcome = "watch" if count == RECUR_BATCHES - 1 else "once"
        return
    if refusal is not None:
        group.outcome, group.detail = "refused", f"topic {topic!r} was {refusal.describe()}"
        return
    if topic in state.topics:
        group.outcome, group.detail = (
            "duplicate",
            f"topic {topic!r} is already a {state.topics[topic]}",
        )
        return
    if holder is not None:
        group.outcome, group.detail = "duplicate", f"already described by {holder}"
        return

    def exists(path: str) -> bool:
        tree = state.tree
        return tree is not None and (
            ws.store.item(tree, path) is not None or ws.store.subtree(tree, path) is not None
        )

    fields = mistake_fields(group, exists, ws.settings.max_body)
    if fields is None:
        group.outcome, group.detail = (
            ("invalid", "no batch gives an Expected fix: nothing to propose")
            if not any(g.fix for g in group.gaps)
            else (
                "invalid",
                f"too long for memory.maxBody ({ws.settings.max_body} characters) even with "
                "its evidence cut: shorten the gap or its Expected fix in the verdict files",
            )
        )
        return
    state.topics[topic] = "candidate of this harvest"
    state.mistakes.append(
        ("candidate of this harvest", f"{group.title}. {fields.detection_signal}")
    )
    if dry_run:
        problems = dry_problems(ws, fields)
        group.outcome, group.detail = ("invalid", problems) if problems else ("would propose", "")
        return
    try:
        proposal = propose(ws, fields)
    except RuleError as exc:
        group.outcome, group.detail = "invalid", exc.message
        return
    group.outcome, group.id, group.branch = "proposed", proposal.id, proposal.branch
