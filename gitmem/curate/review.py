"""`gitmem review ID`: what a reviewer needs before admitting a candidate, in one place.

- the candidate as it will read once admitted (status admitted, the admission fields filled in
  the way `gitmem admit` fills them, the reviewer shown as `human:<reviewer>`);
- what `gitmem check` says of it now (the rules admission applies);
- its near-duplicates among the admitted entries: the measure `gitmem hygiene` clusters by
  (TF-IDF cosine over title, applies_when and Content), every admitted entry at or above
  RELATED (0.2) listed best first, those at or above hygiene's DUPLICATE_THRESHOLD (0.42)
  marked as near-duplicates;
- the refused topics it matches exactly (a rule failure) or nearly (the REFUSED-TOPIC
  warning's measure);
- the entries it would supersede, and what they are now;
- for an amend or retire candidate (gitmem.model.curation), the entry it changes and a unified
  diff from the entry as it reads on the memory branch to the entry as the admission rewrites
  it, so that the reviewer sees the correction, not a whole new text to compare by eye.

A candidate in which the secret scanner found a secret is never printed: the review says so
instead, since it goes to terminals and job summaries that many people read; nor are the
messages of its other problems (a rule quotes the value it judges) or the ids it names that
are not on the memory branch.

Three renderings: text for a terminal, Markdown for a pull request's job summary (every value
an entry holds written as code, so nothing in it renders: no HTML, link, image or mention, and
no line that passes for the summary's own), and JSON for tools.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
from dataclasses import dataclass, field

from gitmem.curate import hygiene
from gitmem.errors import RuleError, UsageError
from gitmem.lifecycle import candidates as lifecycle
from gitmem.lifecycle.read import entries as main_entries
from gitmem.lifecycle.writing import today
from gitmem.model import curation
from gitmem.model import refused as refused_mod
from gitmem.model.entry import Entry, EntryError
from gitmem.model.markdown import block, cell, code
from gitmem.model.names import misplaced
from gitmem.model.problem import Problem, by_file, left_out, shown_lines
from gitmem.repo.workspace import Workspace

_WITHHELD = "Not shown: the candidate holds a secret (rule SECRET above); remove it first."
#: a problem's message when the candidate holds a secret: other rules quote what they judge
_WITHHELD_MESSAGE = (
    "not shown: the candidate holds a secret, which this message may quote (rule SECRET); "
    "remove the secret first"
)
_WITHHELD_ID = "(withheld: the candidate holds a secret)"
#: Who the review shows as admitting: the reviewer who approves is recorded there.
REVIEWER = "human:<reviewer>"
_NOT_ON_MAIN = "The entry it names is not on the memory branch: admit will refuse it."
RELATED = hygiene.RELATED_THRESHOLD
NEAR = hygiene.DUPLICATE_THRESHOLD
SHOWN = 5


@dataclass(frozen=True)
class Similar:
    id: str
    title: str
    status: str
    score: float

    @property
    def near_duplicate(self) -> bool:
        return self.score >= NEAR


@dataclass(frozen=True)
class Superseded:
    id: str
    title: str  # '' when the memory lacks it
    status: str  # 'missing' when the memory lacks it


@dataclass
class CandidateReview:
    id: str
    ref: str
    tip: str
    entry: Entry
    admitted: Entry  # as it will read once admitted
    problems: list[Problem] = field(default_factory=list)
    similar: list[Similar] = field(default_factory=list)
    refused_exact: refused_mod.Refusal | None = None
    refused_near: refused_mod.Refusal | None = None
    supersedes: list[Superseded] = field(default_factory=list)
    kind: str = "admit"  # or curation.AMEND / curation.RETIRE
    target: str = ""  # the entry an amend or retire candidate changes
    before: Entry | None = None  # that entry as it reads on the memory branch now
    before_path: str = ""  # its repository path there

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if not p.warning]

    @property
    def shown(self) -> str | None:
        """The entry as it will read, or None when it holds a secret: a review is printed to
        terminals and job summaries, which must not carry the secret the scanner found."""
        if any(p.rule == "SECRET" for p in self.problems):
            return None
        return self.admitted.render()

    @property
    def changes(self) -> str | None:
        """For an amend or retire candidate, the unified diff of the target entry from now to
        once admitted ('' when the target is not on the memory branch); None for a new entry
        or when the candidate holds a secret."""
        if self.kind == "admit" or self.shown is None:
            return None
        if self.before is None:
            return ""
        path = self.before_path
        diff = difflib.unified_diff(
            self.before.render().splitlines(keepends=True),
            self.shown.splitlines(keepends=True),
            f"a/{path}",
            f"b/{path}",
        )
        return "".join(diff)


def review(ws: Workspace, entry_id: str) -> CandidateReview:
    """The review of a pending candidate (its local branch, else a remote-tracking one)."""
    candidate = lifecycle.find_candidate(ws, entry_id)
    if candidate.data is None:
        raise UsageError(f"branch {candidate.ref} holds no {candidate.path}")
    try:
        entry = candidate.entry()
    except EntryError as exc:
        raise RuleError(
            f"{Problem(candidate.path, exc.line, exc.rule, exc.message)}: fix the candidate "
            "before reviewing it"
        ) from None
    # a copy at another entry's place holds the id it copies, and was counted a second time
    # among the near-duplicates: no entry, as `gitmem list` reads it
    found = [(p, e) for p, e in main_entries(ws) if misplaced(p, ws.dir, e.id, e.type) is None]
    on_main = [e for _, e in found]
    by_id = {e.id: e for e in on_main}
    path_of = {e.id: path for path, e in found}
    kind, target = curation.kind_of(entry), curation.target_of(entry)
    before = by_id.get(target) if target else None
    admitted = _as_admitted(entry, kind, before, REVIEWER, today())
    out = CandidateReview(candidate.id, candidate.ref, candidate.tip, entry, admitted)
    out.kind, out.target, out.before = kind, target, before
    out.before_path = path_of.get(target, "")
    out.problems = sorted(lifecycle.candidate_problems(ws, candidate), key=Problem.sort_key)
    itself = {entry.id, target}  # an amendment is not a near-duplicate of what it corrects
    admitted_entries = [e for e in on_main if e.status == "admitted" and e.id not in itself]
    out.similar = _similar(entry, admitted_entries)
    tip = ws.main_tip()
    text = ws.store.read_path(ws.store.tree_of(tip), f"{ws.dir}/refused.md") if tip else None
    refusals = refused_mod.parse((text or b"").decode("utf-8", "replace"))
    out.refused_exact = refusals.get(entry.topic)
    out.refused_near = refused_mod.near(entry.topic, refusals)
    for old in entry.supersedes:
        known = by_id.get(old)
        out.supersedes.append(
            Superseded(old, known.title, known.status) if known else Superseded(old, "", "missing")
        )
    if any(p.rule == "SECRET" for p in out.problems):
        _withhold(out)
    return out


def _withhold(done: CandidateReview) -> None:
    """A candidate holding a secret: what the review would print of its text goes. The
    SECRET lines stay (the scanner redacts them); every other rule's message, which may quote
    the value it judges (SCHEMA, FILES-MISSING…), is withheld, its place and rule kept; so
    are the ids it names that are not on the memory branch (only those are its own text)."""
    done.problems = [
        p if p.rule == "SECRET" else dataclasses.replace(p, message=_WITHHELD_MESSAGE)
        for p in done.problems
    ]
    done.supersedes = [
        Superseded(_WITHHELD_ID, "", s.status) if s.status == "missing" else s
        for s in done.supersedes
    ]
    if done.target and done.before is None:
        done.target = _WITHHELD_ID


def _as_admitted(entry: Entry, kind: str, before: Entry | None, by: str, date: str) -> Entry:
    """The file the admission writes: the candidate with the admission fields for a new
    entry; the target rewritten as gitmem admit rewrites it for an amendment or retirement
    (the candidate itself when the target is not an admitted entry: admit then refuses, and
    the checks above say why)."""
    if before is None or before.status != "admitted" or kind == "admit":
        return curation.as_admitted(entry, by, date)
    if kind == curation.AMEND:
        return curation.amended(before, entry, by, date)
    return curation.retired(before, str(entry.meta.get("retired_reason", "")), by, date)


def _similar(entry: Entry, admitted: list[Entry]) -> list[Similar]:
    """Admitted entries at least RELATED to the candidate, best first (ties by id)."""
    if not admitted:
        return []
    vectors = hygiene.tfidf([hygiene.terms_of(e) for e in [entry, *admitted]])
    scored = [
        Similar(other.id, other.title, other.status, round(hygiene.cosine(vectors[0], v), 3))
        for other, v in zip(admitted, vectors[1:], strict=True)
    ]
    close = [s for s in scored if s.score >= RELATED]
    close.sort(key=lambda s: (-s.score, s.id))
    return close[:SHOWN]


# ---------------------------------------------------------------------------------------------
# renderings


def as_json(done: CandidateReview) -> str:
    return json.dumps(
        {
            "id": done.id,
            "ref": done.ref,
            "tip": done.tip,
            "ok": not done.errors,
            "as_admitted": done.shown,
            "problems": [
                {
                    "path": p.path,
                    "line": p.line,
                    "rule": p.rule,
                    "message": p.message,
                    "severity": "warning" if p.warning else "error",
                }
                for p in done.problems
            ],
            "similar": [{**vars(s), "near_duplicate": s.near_duplicate} for s in done.similar],
            "refused": {
                "exact": vars(done.refused_exact) if done.refused_exact else None,
                "near": vars(done.refused_near) if done.refused_near else None,
            },
            "supersedes": [vars(s) for s in done.supersedes],
            "kind": done.kind,
            "target": done.target or None,
            "changes": done.changes,
        },
        indent=2,
    )


def as_text(done: CandidateReview) -> str:
    lines = [f"candidate {done.id}  ({done.ref} at {done.tip[:12]})", ""]
    lines.append(
        "checks: " + ("all rules pass" if not done.errors else f"{len(done.errors)} problem(s)")
    )
    lines.extend(f"  {line}" for line in shown_lines(done.problems, _see_all(done)))
    lines += ["", "near-duplicates among the admitted entries:"]
    if done.similar:
        for s in done.similar:
            mark = "near-duplicate" if s.near_duplicate else "related"
            lines.append(f"  {s.score:.2f}  {mark:<14}  {s.id}  {s.title}")
    else:
        lines.append("  none: no admitted entry comes close")
    lines += ["", "refused topics:"]
    if done.refused_exact:
        lines.append(f"  REFUSED {done.refused_exact.topic}: {done.refused_exact.describe()}")
    if done.refused_near:
        lines.append(f"  near {done.refused_near.topic}: {done.refused_near.describe()}")
    if not done.refused_exact and not done.refused_near:
        lines.append("  none matches")
    lines += ["", "supersedes:"]
    lines.extend(f"  {s.id}  {s.status}  {s.title}" for s in done.supersedes)
    if not done.supersedes:
        lines.append("  nothing")
    lines += _changes_text(done)
    lines += ["", "as it will read once admitted:", ""]
    lines.append(done.shown.rstrip("\n") if done.shown is not None else _WITHHELD)
    return "\n".join(lines)


def _see_all(done: CandidateReview) -> str:
    """How to list every problem of a review whose text leaves some out (shown_lines)."""
    return f"`gitmem review {done.id} --format json` lists them all"


def _changes_text(done: CandidateReview) -> list[str]:
    changes = done.changes
    if changes is None:
        return []
    lines = ["", f"{done.kind}s {done.target}:"]
    lines += [f"  {line}" for line in changes.splitlines()] if changes else [f"  {_NOT_ON_MAIN}"]
    return lines


def as_markdown(done: CandidateReview) -> str:
    """The review for a job summary. Every value that came from the candidate or the memory is
    written as code (gitmem.model.markdown: inline code, table cells, a fenced block longer
    than any backtick run inside), so no link, image, mention or HTML an entry holds renders,
    and no line of it can pass for the summary's own."""
    state = "passes every rule" if not done.errors else f"{len(done.errors)} problem(s)"
    out = [f"### gitmem review: {code(done.id)}", "", f"**Checks:** {state}", ""]
    if done.problems:
        out += ["| file | line | rule | message |", "| --- | --- | --- | --- |"]
        files = by_file(done.problems)
        out += [
            f"| {cell(p.path)} | {p.line or ''} | {cell(p.rule)}"
            f"{' (warning)' if p.warning else ''} | {cell(p.message)} |"
            for _, shown, _ in files
            for p in shown
        ]
        out.append("")
        notes = [code(left_out(path, left, _see_all(done))) for path, _, left in files if left]
        out += [*notes, ""] if notes else []
    out += ["#### Near-duplicates among the admitted entries", ""]
    if done.similar:
        out += ["| entry | title | similarity | |", "| --- | --- | --- | --- |"]
        out += [
            f"| {cell(s.id)} | {cell(s.title)} | {s.score:.2f} | "
            f"{'**near-duplicate**' if s.near_duplicate else 'related'} |"
            for s in done.similar
        ]
    else:
        out.append("None: no admitted entry comes close.")
    out += ["", "#### Refused topics", ""]
    if done.refused_exact:
        r = done.refused_exact
        out.append(f"**Refused before:** {code(r.topic)}: {code(r.describe())}")
    if done.refused_near:
        r = done.refused_near
        out.append(f"Near a refused topic: {code(r.topic)}: {code(r.describe())}")
    if not done.refused_exact and not done.refused_near:
        out.append("None matches.")
    out += ["", "#### Supersedes", ""]
    if done.supersedes:
        out += [f"- {code(s.id)} ({s.status}): {code(s.title)}" for s in done.supersedes]
    else:
        out.append("Nothing.")
    changes = done.changes
    if changes is not None:
        out += ["", f"#### {done.kind.capitalize()}s {code(done.target)}", ""]
        out.append(block(changes) if changes else _NOT_ON_MAIN)
    out += [
        "",
        "#### As it will read once admitted",
        "",
        "The file `gitmem admit` will write (the reviewer who approves is recorded as "
        "`admitted_by`):"
        if done.shown is not None
        else _WITHHELD,
    ]
    if done.shown is not None:
        out += ["", block(done.shown)]
    return "\n".join(out) + "\n"
