"""Split proposals: an admitted entry whose text mixes two unrelated lessons (`gitmem hygiene`).

How it is measured, not guessed. An entry's Context and Content are cut into units (sentences
and lines; a colon or a semicolon joins a statement and its elaboration, so it does not cut),
and for every cut of the units into a first and a second part that leaves each
part at least MIN_SIDE of the terms, the two parts are compared: each part is a TF-IDF vector
(gitmem.curate.hygiene's weighting, idf over the Context and Content of every admitted entry)
of its own terms plus the title's (the title binds a coherent entry's parts together, and only
one of two mixed lessons). The entry's coherence is the lowest cosine over those cuts, and the
cut that gives it is where the entry would split. An entry whose coherence is below
SPLIT_THRESHOLD mixes lessons.

SPLIT_THRESHOLD is chosen on one part of a labelled set and reported on the other
(bench/splits.py prints both): the set is gitmem's own admitted memory, which other sessions
wrote, frozen in tests/data/hygiene/splits.json. Each entry alone is a negative (one lesson);
each entry's text followed by the next entry's, under the first one's title, is a positive
(two lessons mixed). The entries sorted by id alternate between the tuning part and the
held-out part, and a positive is made only of entries of one part. The README gives the
figures. (The unit was first cut at colons and semicolons too; a false alarm on the hygiene
test fixture, "Show only a redacted excerpt of the match: its first four characters…", made it
sentences only, and the held-out figures of both variants were seen: say so with them.)

With `hygiene --propose`, a mixed entry becomes two candidates: the first part, under the
entry's title, superseding it; the second part as a new entry of its own (its title the second
part's first sentence), so that admitting both in either order leaves each lesson once. The
parts are the entry's own text (Context, then Content) cut before the unit the second part
starts with, every line kept as it was written; a cut never falls inside a fenced code block.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from gitmem.curate.vectors import cosine
from gitmem.model.entry import Entry
from gitmem.model.markdown import fenced
from gitmem.model.proposal import ProposalFields

#: chosen by bench/splits.py on the tuning part (see the module docstring)
SPLIT_THRESHOLD = 0.40
#: each part of a cut holds at least this share of the entry's terms
MIN_SIDE = 0.3
_UNIT_END = re.compile(r"(?<=[.!?])\s+|\n+")
#: what a unit's line starts with that is Markdown, not words: a heading's hashes, a list
#: item's marker, a quote's `>`; and emphasis and code marks (the second lesson's title)
_LINE_MARKS = re.compile(r"^(?:#{1,6}[ \t]+|[-*+][ \t]+|\d{1,9}[.)][ \t]+|>[ \t]*)+")
_EMPHASIS = re.compile(r"[*`]{1,3}|(?<!\w)_{1,3}|_{1,3}(?!\w)")


@dataclass(frozen=True)
class Split:
    """An entry that mixes lessons: where it splits, and how weakly its parts cohere."""

    id: str
    path: str
    title: str
    coherence: float
    first: tuple[str, ...]
    second: tuple[str, ...]


def units(entry: Entry) -> list[str]:
    """The entry's Context then Content, cut into sentences and lines with two terms or more."""
    return [text for _, _, text, _ in _units_at(entry)]


def _units_at(entry: Entry) -> list[tuple[int, int, str, bool]]:
    """Each unit as (0 in Context or 1 in Content, where it starts there, its text, whether
    it starts inside a fenced code block): a split cuts the entry's own text before a unit,
    never inside a code block."""
    from gitmem.recall.engine import analyze

    out = []
    for section, text in enumerate((entry.context, entry.content)):
        code = [in_code for _, in_code in fenced(text.split("\n"))]
        ends = [(m.start(), m.end()) for m in _UNIT_END.finditer(text)] + [(len(text), 0)]
        start = 0
        for stop, resume in ends:
            piece = text[start:stop]
            if len(analyze(piece)) >= 2:
                at = start + len(piece) - len(piece.lstrip())
                out.append((section, at, piece.strip(), code[text.count("\n", 0, at)]))
            start = resume
    return out


def idf_of(entries: Sequence[Entry]) -> dict[str, float]:
    """idf = ln((1 + N) / (1 + df)) + 1 over the entries' Context and Content."""
    from gitmem.recall.engine import analyze

    df: Counter[str] = Counter()
    for entry in entries:
        df.update(set(analyze(f"{entry.context}\n{entry.content}")))
    n = len(entries)
    return {term: math.log((1 + n) / (1 + count)) + 1 for term, count in df.items()}


def _vector(counts: Counter[str], idf: dict[str, float]) -> dict[str, float]:
    weighted = {t: (1 + math.log(c)) * idf.get(t, 1.0) for t, c in counts.items()}
    norm = math.sqrt(sum(v * v for v in weighted.values())) or 1.0
    return {t: v / norm for t, v in weighted.items()}


def coherence(
    title: str,
    parts: Sequence[str],
    idf: dict[str, float],
    cuts: Collection[int] | None = None,
) -> tuple[float, int] | None:
    """(the lowest cosine between a first and a second part, the cut giving it) over the
    balanced cuts of parts (only those in cuts, when given: a cut before parts[n] is n);
    None when no cut leaves each side MIN_SIDE of the terms."""
    from gitmem.recall.engine import analyze

    terms = [analyze(part) for part in parts]
    heading = analyze(title)
    total = sum(len(t) for t in terms)
    best: tuple[float, int] | None = None
    left = 0
    for cut in range(1, len(parts)):
        left += len(terms[cut - 1])
        if left < MIN_SIDE * total or total - left < MIN_SIDE * total:
            continue
        if cuts is not None and cut not in cuts:
            continue
        first = Counter(t for unit in terms[:cut] for t in unit) + Counter(heading)
        second = Counter(t for unit in terms[cut:] for t in unit) + Counter(heading)
        score = cosine(_vector(first, idf), _vector(second, idf))
        if best is None or score < best[0]:
            best = (score, cut)
    return best


def find_splits(
    entries: Sequence[tuple[str, Entry]], threshold: float = SPLIT_THRESHOLD
) -> list[Split]:
    """The entries among (path, entry) whose coherence is below threshold."""
    idf = idf_of([entry for _, entry in entries])
    out = []
    for path, entry in entries:
        at = _units_at(entry)
        parts = [text for _, _, text, _ in at]
        cuts = {n for n, (_, _, _, in_code) in enumerate(at) if not in_code}
        found = coherence(entry.title, parts, idf, cuts)
        if found is not None and found[0] < threshold:
            score, cut = found
            out.append(
                Split(entry.id, path, entry.title, round(score, 3), tuple(parts[:cut]),
                      tuple(parts[cut:]))
            )  # fmt: skip
    return out


def split_fields(
    split: Split, entry: Entry, exists: Callable[[str], bool], max_body: int | None = None
) -> tuple[ProposalFields, ProposalFields]:
    """The two candidates a split proposes: the first part superseding the entry, the second
    a new entry of its own; each cites the entry's files that exist (on main). Each carries
    the entry's Evidence while its body fits max_body; else a line saying that the Evidence
    stays in the entry's file (superseded, it is kept on the memory branch)."""
    why = (
        f"gitmem hygiene: the parts of {entry.id} cohere at TF-IDF cosine {split.coherence:.2f}, "
        f"below {SPLIT_THRESHOLD} (gitmem.curate.split): two lessons in one entry."
    )
    evidences = [why + (f"\n\nFrom {entry.id}:\n{entry.evidence}" if entry.evidence else "")]
    if entry.evidence:
        evidences.append(
            f"{why}\n\nThe Evidence of {entry.id} is not repeated here, to fit memory.maxBody: "
            "it stays in that entry's file."
        )

    def evidence(context: str, content: str) -> str:
        for text in evidences:
            if max_body is None or len(Entry({}, context, content, text).body) <= max_body:
                return text
        return evidences[-1]

    shared: dict[str, object] = {
        "type": entry.type,
        "applies_when": entry.applies_when,
        "tags": list(entry.tags) or None,
        "files": [f for f in entry.files if exists(f)] or None,
    }
    for key in ("rationale", "correction", "detection_signal", "evidence_batches"):
        if entry.meta.get(key):
            shared[key] = entry.meta[key]
    words = _EMPHASIS.sub("", _LINE_MARKS.sub("", split.second[0]))
    second_title = " ".join(words.split())[:200].rstrip(" .:;")
    section, start, _, _ = _units_at(entry)[len(split.first)]
    texts = [entry.context, entry.content]
    before = [*texts[:section], texts[section][:start]]
    after = [texts[section][start:], *texts[section + 1 :]]
    first_context = f"Split from {entry.id}; its second lesson is proposed on its own."
    first_content = "\n\n".join(t.strip() for t in before if t.strip())
    first = ProposalFields.from_mapping(
        {
            **shared,
            "title": entry.title,
            "supersedes": [entry.id],
            "context": first_context,
            "content": first_content,
            "evidence": evidence(first_context, first_content),
        }
    )
    second_context = f"Split from {entry.id}, whose successor keeps its first lesson."
    second_content = "\n\n".join(t.strip() for t in after if t.strip())
    second = ProposalFields.from_mapping(
        {
            **shared,
            "title": second_title,
            "context": second_context,
            "content": second_content,
            "evidence": evidence(second_context, second_content),
        }
    )
    return first, second
