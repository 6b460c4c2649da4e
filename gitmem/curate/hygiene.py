"""`gitmem hygiene`: near-duplicates, stale entries, contradictions and entries to split.

Entries to split: those whose parts mix unrelated lessons, measured as gitmem.curate.split
says; with --propose each becomes two candidates.

Curation proposes; people decide.  Without `--propose` this is a report.  With it, each
cluster of near-duplicates becomes an ordinary candidate branch (through `gitmem.lifecycle.propose`)
that supersedes the entries it merges, the evidence in its Evidence section; nothing on main
is merged, deleted or edited.  A consolidation, resolution or split whose topic a reviewer
refused is not proposed again: a note says so, and the run does not fail.

Near-duplicates
    Each admitted entry is a TF-IDF vector over its title (counted twice), `applies_when` and
    Content: terms are recall's analysis (stop words out, Porter2 stems, identifiers whole and
    in parts), tf is 1 + ln(count), idf is ln((1 + N) / (1 + df)) + 1 over the admitted
    entries, and vectors are L2-normalised.  Two entries are near-duplicates when the cosine of
    their vectors is at least DUPLICATE_THRESHOLD (0.42) and they do not contradict each other
    (below).  Clusters join the pairs best first (single linkage), but never put two entries
    that contradict each other into one cluster.  The threshold was read off the labelled set
    in tests/data/hygiene/entries.json (reworded duplicates, and near-misses that share their
    vocabulary but teach another lesson): there it gives pairwise precision 1.0 and recall
    0.92 (one reworded pair scores 0.39; the closest unrelated pair 0.41), and the test holds
    the clustering to precision >= 0.9 and recall >= 0.85.  Only pairs sharing one of an
    entry's CANDIDATE_TERMS heaviest terms (ignoring a term that heads more than MAX_POSTING
    entries) are scored, so the work follows the store's size, not its square.

Stale entries
    An admitted entry whose cited `files` are gone from main, or were changed by at least
    STALE_COMMITS commits (first-parent chain of main) since the commit that added the entry
    to main (its admission).

Contradictions
    Two related entries (cosine at least RELATED_THRESHOLD, or citing a common file) where a
    clause of one says to do something and a clause of the other says not to.  Title and
    Content are cut into clauses at sentence ends, semicolons, colons and "but"; a clause is
    negative when it holds never / not / don't / avoid / stop / cannot…, and the words after
    "instead of", "rather than" or ", not" form a negative clause of their own.  A negative
    and a positive clause contradict when their words (one term per word, stemmed, stop words
    and directive words such as use / always / prefer removed) overlap by Jaccard >=
    CLAUSE_OVERLAP with at least two shared terms.  Such pairs are shown for a person to judge
    and are never merged; `gitmem lint` reports them too (CONTRADICTION, a warning).  The
    evidence for the call goes with each pair: the two clauses, the terms they share, their
    overlap, how related the entries are and how alike their applies_when read.

    CLAUSE_OVERLAP was chosen on a tuning set and is reported on a held-out one, never on the
    data it was tuned on (bench/contradictions.py prints both): the tuning set is
    tests/data/hygiene/contradictions.json (pairs written for issue 17: contradicting and
    related-but-consistent), the held-out set every pair of tests/data/hygiene/entries.json
    (written earlier by another engineer for the near-duplicate measure, with its own
    `contradicts` labels).  The README gives the figures.

    With --propose, each contradiction no pending candidate already resolves becomes a
    candidate that supersedes both entries with the later-admitted one's text (the later
    decision is the team's current word until a reviewer says otherwise), its Evidence naming
    the two clauses: the reviewer edits it into what holds, or refuses it.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from gitmem.curate.split import Split, find_splits, split_fields
from gitmem.curate.vectors import cosine as cosine  # re-exported: harvest and the tests
from gitmem.curate.vectors import tfidf as tfidf
from gitmem.errors import RuleError
from gitmem.model.entry import Entry
from gitmem.model.problem import Problem
from gitmem.model.proposal import ProposalFields
from gitmem.repo.workspace import Workspace

DUPLICATE_THRESHOLD = 0.42
RELATED_THRESHOLD = 0.2
CANDIDATE_TERMS = 8
MAX_POSTING = 200
STALE_COMMITS = 5
CLAUSE_OVERLAP = 0.5
MAX_SUPERSEDES = 20

# ---------------------------------------------------------------------------------------------
# similarity


def terms_of(entry: Entry) -> list[str]:
    """The terms an entry is compared on: title twice, applies_when, Content."""
    from gitmem.recall.engine import analyze

    return analyze(f"{entry.title}\n{entry.title}\n{entry.applies_when}\n{entry.content}")


def scored_pairs(vectors: Sequence[dict[str, float]], floor: float) -> dict[tuple[int, int], float]:
    """Cosine of every pair (i < j) scoring at least floor that shares one of either side's
    CANDIDATE_TERMS heaviest terms; a term heading more than MAX_POSTING entries is too common
    to pair anything on its own."""
    postings: dict[str, list[int]] = defaultdict(list)
    heads: list[list[str]] = []
    for number, vector in enumerate(vectors):
        head = sorted(vector, key=lambda t: (-vector[t], t))[:CANDIDATE_TERMS]
        heads.append(head)
        for term in head:
            postings[term].append(number)
    out: dict[tuple[int, int], float] = {}
    for number, head in enumerate(heads):
        others = {
            other
            for term in head
            if len(postings[term]) <= MAX_POSTING
            for other in postings[term]
            if other != number
        }
        for other in others:
            key = (min(number, other), max(number, other))
            if key in out:
                continue
            score = cosine(vectors[number], vectors[other])
            if score >= floor:
                out[key] = score
    return out


def components(
    size: int,
    edges: Iterable[tuple[float, int, int]],
    apart: Iterable[tuple[int, int]] = (),
) -> list[list[int]]:
    """Single-linkage clusters: edges (score, i, j) are joined best first, except that two
    groups holding a pair listed in apart (a contradiction) are never joined.  Returns the
    groups with more than one member, each sorted, in order of their first member."""
    group = list(range(size))
    members: dict[int, list[int]] = {x: [x] for x in range(size)}
    never: dict[int, set[int]] = defaultdict(set)
    for a, b in apart:
        never[a].add(b)
        never[b].add(a)
    for _, a, b in sorted(edges, key=lambda e: (-e[0], e[1], e[2])):
        ga, gb = group[a], group[b]
        if ga == gb or any(never[x] & set(members[gb]) for x in members[ga]):
            continue
        keep, drop = min(ga, gb), max(ga, gb)
        for x in members[drop]:
            group[x] = keep
        members[keep].extend(members.pop(drop))
    return sorted((sorted(g) for g in members.values() if len(g) > 1), key=lambda g: g[0])


# ---------------------------------------------------------------------------------------------
# contradictions

_NEGATION = re.compile(
    r"\b(?:never|not|no longer|don'?t|doesn'?t|do not|does not|mustn'?t|must not|shouldn'?t|"
    r"should not|can'?t|cannot|avoid(?:s|ed|ing)?|stop(?:ped|ping)?|nor|no)\b",
    re.IGNORECASE,
)
_OPPOSITE_TAIL = re.compile(r"\b(?:instead of|rather than)\b|,\s+not\b", re.IGNORECASE)
_CLAUSE_END = re.compile(r"(?<=[.!?;:])\s+|\n+|,\s+but\s+|\s+but\s+", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-/']*[A-Za-z0-9]|[A-Za-z0-9]")
_DIRECTIVES = frozenset(
    re.findall(
        r"\S+",
        "use used uses using always never prefer preferred avoid avoided avoiding stop instead "
        "rather keep make try should must need call calls run runs",
    )
)


@dataclass(frozen=True)
class Clause:
    text: str
    negative: bool
    terms: frozenset[str]


def clause_terms(text: str) -> frozenset[str]:
    """One term per word (an identifier like INDEX.md stays one term): stop words and
    directive words out, plain words stemmed."""
    from gitmem.recall.engine import STOP_WORDS, stem

    out = set()
    for token in _WORD.findall(text):
        word = token.lower().removesuffix("'s").strip("'")
        if len(word) < 2 or word in STOP_WORDS or word in _DIRECTIVES:
            continue
        out.add(stem(word) if word.isalpha() else word)
    return frozenset(out)


def clauses(text: str) -> list[Clause]:
    """The clauses of a text with their polarity (see the module docstring)."""
    out: list[Clause] = []
    for piece in _CLAUSE_END.split(text):
        piece = piece.strip(" -*\t")
        if not piece:
            continue
        split = _OPPOSITE_TAIL.split(piece, maxsplit=1)
        parts = [(split[0], bool(_NEGATION.search(split[0])))]
        if len(split) == 2:
            parts.append((split[1], True))
        for clause_text, negative in parts:
            terms = clause_terms(clause_text)
            if terms:
                out.append(Clause(clause_text.strip(" ,"), negative, terms))
    return out


def contradiction(
    a: Sequence[Clause], b: Sequence[Clause], overlap_min: float = CLAUSE_OVERLAP
) -> tuple[Clause, Clause] | None:
    """The strongest pair of opposite-polarity clauses about the same thing, if any (their
    terms overlapping by Jaccard at least overlap_min: bench/contradictions.py chooses it)."""
    best: tuple[float, Clause, Clause] | None = None
    for x in a:
        for y in b:
            if x.negative == y.negative:
                continue
            shared = x.terms & y.terms
            if len(shared) < 2:
                continue
            overlap = len(shared) / len(x.terms | y.terms)
            if overlap >= overlap_min and (best is None or overlap > best[0]):
                best = (overlap, x, y)
    return (best[1], best[2]) if best else None


# ---------------------------------------------------------------------------------------------
# the report


@dataclass(frozen=True)
class Member:
    id: str
    path: str
    title: str


@dataclass
class Cluster:
    members: list[Member]
    pairs: list[tuple[str, str, float]]


@dataclass(frozen=True)
class Stale:
    id: str
    path: str
    reason: str
    files: tuple[str, ...]
    commits: int = 0
    since: str = ""


@dataclass(frozen=True)
class Contradiction:
    """Two related entries that disagree, with the evidence for the call."""

    a: Member
    b: Member
    clause_a: str
    clause_b: str
    #: TF-IDF cosine of the two entries (title, applies_when, Content)
    score: float
    #: the terms the two clauses share, and their Jaccard overlap
    shared: tuple[str, ...] = ()
    overlap: float = 0.0
    #: TF-IDF cosine of the two applies_when: how much they apply to the same situation
    situation: float = 0.0
    #: the two entries cite a file in common
    same_files: bool = False

    def evidence(self) -> str:
        """The call in one line: which clauses disagree, on what, and how related."""
        files = ", citing a file in common" if self.same_files else ""
        return (
            f"{self.a.id} says {self.clause_a!r}; {self.b.id} says {self.clause_b!r}: "
            f"opposite polarity on {', '.join(self.shared)} (clause overlap "
            f"{self.overlap:.2f}), entries related at cosine {self.score:.2f}, applies_when "
            f"alike at {self.situation:.2f}{files}"
        )


@dataclass
class Proposed:
    cluster: Cluster
    id: str | None
    branch: str | None
    note: str = ""


@dataclass
class HygieneReport:
    checked: int = 0
    clusters: list[Cluster] = field(default_factory=list)
    stale: list[Stale] = field(default_factory=list)
    contradictions: list[Contradiction] = field(default_factory=list)
    proposed: list[Proposed] = field(default_factory=list)
    #: with --propose: the candidates that resolve a contradiction (a cluster of its two)
    resolutions: list[Proposed] = field(default_factory=list)
    #: entries whose parts mix unrelated lessons (gitmem.curate.split)
    splits: list[Split] = field(default_factory=list)
    #: with --propose: per split, the two candidates (ids) or why not
    split_proposals: list[tuple[str, list[str], str]] = field(default_factory=list)
    #: what the report could not judge in full (a shallow clone's cut history)
    warnings: list[str] = field(default_factory=list)
    #: with --propose: each candidate not written because it broke a rule, saying which
    #: entries' files its text came from, the rule, and what to do (the run then fails)
    failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """No proposal broke a rule: a broken one fails the run (exit 1), the sound ones
        written all the same."""
        return not self.failures


def find_clusters(
    entries: Sequence[tuple[str, Entry]], overlap_min: float = CLAUSE_OVERLAP
) -> tuple[list[Cluster], list[Contradiction]]:
    """Near-duplicate clusters and contradicting pairs among (path, entry) pairs."""
    vectors = tfidf([terms_of(entry) for _, entry in entries])
    pairs = scored_pairs(vectors, RELATED_THRESHOLD)
    files = _shared_files(entries)
    for key in files:
        pairs.setdefault(key, cosine(vectors[key[0]], vectors[key[1]]))
    parsed = [clauses(f"{e.title}.\n{e.content}") for _, e in entries]
    members = [Member(e.id, path, e.title) for path, e in entries]
    edges: list[tuple[float, int, int]] = []
    apart: list[tuple[int, int]] = []
    found: list[Contradiction] = []
    situations: list[dict[str, float]] | None = None
    for (i, j), score in sorted(pairs.items()):
        clash = contradiction(parsed[i], parsed[j], overlap_min)
        if clash is not None:
            if situations is None:
                situations = _situations(entries)
            a_clause, b_clause = clash
            shared = a_clause.terms & b_clause.terms
            found.append(
                Contradiction(
                    members[i], members[j], a_clause.text, b_clause.text, round(score, 3),
                    tuple(sorted(shared)),
                    round(len(shared) / len(a_clause.terms | b_clause.terms), 3),
                    round(cosine(situations[i], situations[j]), 3),
                    (i, j) in files,
                )
            )  # fmt: skip
            apart.append((i, j))
        elif score >= DUPLICATE_THRESHOLD:
            edges.append((score, i, j))
    clusters = []
    for group in components(len(entries), edges, apart):
        inside = set(group)
        cluster_pairs = [
            (members[i].id, members[j].id, round(score, 3))
            for score, i, j in sorted(edges, key=lambda e: (e[1], e[2]))
            if i in inside and j in inside
        ]
        clusters.append(Cluster([members[i] for i in group], cluster_pairs))
    return clusters, found


def _situations(entries: Sequence[tuple[str, Entry]]) -> list[dict[str, float]]:
    """TF-IDF vectors of the entries' applies_when alone (the situation they apply to)."""
    from gitmem.recall.engine import analyze

    return tfidf([analyze(entry.applies_when) for _, entry in entries])


def find_contradictions(
    entries: Sequence[tuple[str, Entry]], overlap_min: float = CLAUSE_OVERLAP
) -> list[Contradiction]:
    """The contradicting pairs among (path, entry) pairs (what lint reports)."""
    return find_clusters(entries, overlap_min)[1]


def _shared_files(entries: Sequence[tuple[str, Entry]]) -> set[tuple[int, int]]:
    citing: dict[str, list[int]] = defaultdict(list)
    for number, (_, entry) in enumerate(entries):
        for cited in entry.files:
            citing[cited].append(number)
    out = set()
    for numbers in citing.values():
        if len(numbers) > 50:
            continue  # a file every entry cites relates nothing
        for x in numbers:
            for y in numbers:
                if x < y:
                    out.add((x, y))
    return out


def find_stale(
    ws: Workspace,
    entries: Sequence[tuple[str, Entry]],
    min_commits: int = STALE_COMMITS,
    warnings: list[str] | None = None,
) -> list[Stale]:
    """Admitted entries whose cited files are gone, or changed by min_commits or more commits
    of main's first-parent chain since the commit that added the entry to main (a cited
    folder changes with any file below it). In a shallow clone the walk stops where its
    history is cut (the first commit held is no root: its tree is not all added there): what
    was admitted before is counted on the commits held, and a warning says so."""
    store = ws.store
    tip = ws.main_tip()
    if tip is None:
        return []
    tip_tree = store.tree_of(tip)
    out: list[Stale] = []
    open_: dict[str, tuple[str, Entry]] = {}
    for path, entry in entries:
        if not entry.files:
            continue
        gone = tuple(
            f
            for f in entry.files
            if store.item(tip_tree, f) is None and store.subtree(tip_tree, f) is None
        )
        if gone:
            out.append(Stale(entry.id, path, "gone", gone))
        else:
            open_[path] = (path, entry)
    counts: Counter[str] = Counter()
    since: dict[str, str] = {}
    citing: dict[str, list[str]] = defaultdict(list)
    for path, (_, entry) in open_.items():
        for cited in entry.files:
            citing[cited.rstrip("/")].append(path)
    commit: str | None = tip
    cut = store.shallow_commits()
    while commit is not None and open_.keys() - since.keys():
        if commit in cut:
            if warnings is not None:
                warnings.append(
                    "this clone is shallow: stale entries are judged on the commits it holds, "
                    f"down to {commit[:12]}; run git fetch --unshallow for the whole history"
                )
            break
        info = store.commit(commit)
        parent = info.parents[0] if info.parents else None
        parent_tree = store.tree_of(parent) if parent else None
        changed = store.diff(parent_tree, info.tree)
        touched: set[str] = set()
        for change in changed:
            parts = change.path.split("/")
            for depth in range(1, len(parts) + 1):  # the file, or a cited folder holding it
                for path in citing.get("/".join(parts[:depth]), ()):
                    if path not in since:
                        touched.add(path)
            if change.status == "A" and change.path in open_ and change.path not in since:
                since[change.path] = commit
        for path in touched:
            if since.get(path) != commit:
                counts[path] += 1
        commit = parent
    for path, (_, entry) in sorted(open_.items()):
        if counts[path] >= min_commits:
            out.append(
                Stale(entry.id, path, "changed", entry.files, counts[path], since.get(path, ""))
            )
    return sorted(out, key=lambda s: s.id)


def hygiene(
    ws: Workspace, *, propose: bool = False, min_commits: int = STALE_COMMITS
) -> HygieneReport:
    """The hygiene report over the admitted entries on main; with propose, one candidate
    branch per cluster that no pending candidate already consolidates."""
    from gitmem.lifecycle import read as memory

    ws.memory_tip()  # a memory branch missing here is named, not reported as an empty memory
    report = HygieneReport()
    skipped: list[Problem] = []
    found = memory.entries(ws, skipped=skipped)
    # a file below entries/ at no entry's place is read as no entry (a copy holds the id of
    # the entry it copies: judged, it was that entry's near-duplicate); named, as before
    report.warnings.extend(
        f"{p.path}: not judged: it is at no entry's place, {ws.dir}/entries/<type>/<id>.md "
        "(gitmem lint says what is wrong with this file)"
        for p in skipped
        if p.rule == "LAYOUT"
    )
    admitted = _at_their_place(ws, found, report.warnings)
    report.checked = len(admitted)
    report.clusters, report.contradictions = find_clusters(admitted)
    report.stale = find_stale(ws, admitted, min_commits, report.warnings)
    report.splits = find_splits(admitted)
    if propose:
        by_id = {e.id: e for _, e in admitted}
        taken, contexts, changes = _pending_supersessions(ws)
        contexts.update({e.id: e.context for _, e in admitted})  # a half admitted already
        broken: list[Broken] = []
        refusals = _refusals(ws)
        for cluster in report.clusters:
            busy = _changing((m.id for m in cluster.members), changes)
            report.proposed.append(
                Proposed(cluster, None, None, busy)
                if busy
                else _propose(ws, cluster, by_id, taken, broken, refusals)
            )
        for clash in report.contradictions:
            busy = _changing((clash.a.id, clash.b.id), changes)
            report.resolutions.append(
                Proposed(Cluster([clash.a, clash.b], []), None, None, busy)
                if busy
                else _resolve(ws, clash, by_id, taken, broken, refusals)
            )
        for split in report.splits:
            busy = _changing((split.id,), changes)
            entry = by_id[split.id]
            report.split_proposals.append(
                (split.id, [], busy)
                if busy
                else _propose_split(ws, split, entry, taken, contexts, broken, refusals)
            )
        path_of = {e.id: p for p, e in admitted}
        report.failures = [b.message(path_of) for b in broken]
    return report


def _at_their_place(
    ws: Workspace, entries: Sequence[tuple[str, Entry]], warnings: list[str]
) -> list[tuple[str, Entry]]:
    """The admitted entries whose file is at their own place, entries/<type>/<id>.md. A copy
    left in a folder of another type (entries/method/<id>.md of a decision) holds the id of
    the entry it copies: judged too, it was that entry's near-duplicate, and a consolidation
    superseding one id twice broke a rule (one at no entry's place, `entries/copy.md`, is
    no entry to lifecycle.read.entries). It is named in a warning and not judged; so is an
    entry holding a secret (committed past the gate): the report would print its text (a
    title, a clause) and --propose copy it into a candidate."""
    from gitmem.gate import secrets
    from gitmem.lifecycle.candidates import allowed_on
    from gitmem.model.names import misplaced

    allowed = allowed_on(ws, ws.main_tip())  # allowed.md on the memory branch
    out = []
    for path, entry in entries:
        if entry.status != "admitted":
            continue
        found = [
            f
            for f in secrets.scan_text(entry.render())
            if f.rule not in ("hidden-unicode", "scan-size-cap") and f.fingerprint not in allowed
        ]
        if found:  # first: nothing of its text (its id, its type) is printed
            warnings.append(
                f"{path}: not judged: it holds a secret ({found[0].rule}): gitmem lint "
                "says where; remove it and rotate it"
            )
        elif misplaced(path, ws.dir, entry.id, entry.type) is None:  # every reader's rule
            out.append((path, entry))
        else:
            warnings.append(
                f"{path}: not judged: an entry of id {entry.id} and type {entry.type} lives "
                f"in {ws.dir}/entries/{entry.type}/{entry.id}.md (gitmem lint says what is "
                "wrong with this file)"
            )
    return out


def _refusals(ws: Workspace) -> dict[str, Any]:
    """The refused topics on the memory branch (refused.md): topic → its refusal."""
    from gitmem.model import refused

    tip = ws.main_tip()
    data = ws.store.read_path(ws.store.tree_of(tip), f"{ws.dir}/refused.md") if tip else None
    return dict(refused.parse(data.decode("utf-8", "replace"))) if data else {}


def _refused(refusals: dict[str, Any], *proposals: ProposalFields) -> str | None:
    """Why a proposal is not made again: a reviewer refused its topic (a consolidation, a
    resolution, a half of a split, refused once). The team decided: no rule failed."""
    from gitmem.model.entry import topic_of

    for fields in proposals:
        topic = topic_of(fields.title or "")
        if topic in refusals:
            return f"topic {topic!r} was {refusals[topic].describe()}: not proposed again"
    return None


@dataclass
class Broken:
    """A candidate --propose did not write because a rule refused it."""

    what: str  # "the consolidation of A, B", …
    ids: list[str]  # the admitted entries its text came from
    why: str  # the rule error's message

    def message(self, path_of: dict[str, str]) -> str:
        """What failed, the rule, which entry files the text came from and what to do."""
        files = ", ".join(path_of.get(i, i) for i in self.ids)
        return (
            f"{self.what} was not proposed: {self.why}\n"
            f"its text comes from {files}: correct what the rule names there "
            f"(gitmem propose --amend {self.ids[0]}, then review and admit it), then run "
            "gitmem hygiene --propose again"
        )


def _propose_split(
    ws: Workspace,
    split: Split,
    entry: Entry,
    taken: dict[str, str],
    contexts: dict[str, str],
    broken: list[Broken],
    refusals: dict[str, Any],
) -> tuple[str, list[str], str]:
    """(the entry, the ids of its two candidates, why not) for one split. The first half
    supersedes the entry, so a run that wrote it and not the second (killed, or the second
    broke a rule) leaves the entry taken: the next run proposes the missing second half."""
    from gitmem.lifecycle.propose import propose

    first, second = split_fields(split, entry, _on_main(ws), ws.settings.max_body)
    holder = taken.get(split.id)
    if holder is not None and (
        contexts.get(holder) != first.context or second.context in contexts.values()
    ):
        return split.id, [], f"already superseded by pending {holder}"
    if any(
        len(Entry({}, f.context or "", f.content or "", f.evidence or "").body)
        > ws.settings.max_body
        for f in (first, second)
    ):
        return split.id, [], "too long to split within memory.maxBody: split it by hand"
    refusal = _refused(refusals, *(first, second)[1 if holder is not None else 0 :])
    if refusal is not None:
        return split.id, [holder] if holder is not None else [], refusal
    ids = [holder] if holder is not None else []
    try:
        for fields in (first, second)[len(ids) :]:
            ids.append(propose(ws, fields).id)
    except RuleError as exc:
        why = f"proposed {ids[0]}, but not its second half: {exc.message}" if ids else ""
        broken.append(Broken(f"the split of {split.id}", [split.id], why or exc.message))
        return split.id, ids, why or exc.message
    taken[split.id] = ids[0]
    return split.id, ids, ""


def _pending_supersessions(
    ws: Workspace,
) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """(id of an admitted entry → the pending candidate that already supersedes it, id of
    each pending candidate → its Context: a split's halves are known by theirs, id of an
    admitted entry → what a pending amendment or retirement of it is doing to it)."""
    import contextlib

    from gitmem.lifecycle.candidates import pending
    from gitmem.model import curation
    from gitmem.model.entry import EntryError

    out: dict[str, str] = {}
    contexts: dict[str, str] = {}
    changes: dict[str, str] = {}
    for candidate in pending(ws):
        if candidate.data is None:
            continue
        with contextlib.suppress(EntryError):
            entry = candidate.entry()
            contexts[candidate.id] = entry.context
            for old in entry.supersedes:
                out.setdefault(old, candidate.id)
            target = curation.target_of(entry)
            if target:
                done = "amended" if curation.kind_of(entry) == curation.AMEND else "retired"
                changes.setdefault(target, f"being {done} by pending {candidate.id}")
    return out, contexts, changes


def _changing(ids: Iterable[str], changes: dict[str, str]) -> str | None:
    """Why a proposal that would supersede these entries waits: a pending amendment or
    retirement changes one of them, and of two candidates changing one entry the one
    admitted second is refused (LINEAGE)."""
    for entry_id in ids:
        if entry_id in changes:
            return f"{entry_id} is {changes[entry_id]}: review it first"
    return None


# ---------------------------------------------------------------------------------------------
# consolidation candidates


def _representative(members: Sequence[Entry]) -> Entry:
    """The most recently admitted entry (ties: the longer Content, then the smaller id)."""
    ordered = sorted(members, key=lambda e: e.id)
    return max(ordered, key=lambda e: (str(e.meta.get("admitted", "")), len(e.content)))


def consolidation_fields(
    cluster: Cluster, entries: Sequence[Entry], max_body: int, exists: Any
) -> ProposalFields | None:
    """The candidate that merges a cluster, fitted into max_body; None when it cannot fit.
    It supersedes the representative and, of a cluster larger than MAX_SUPERSEDES (a
    supersedes list holds no more), the others first in order; the rest wait for the next
    run. To fit, the other entries' Evidence goes first, then the cosines of the pairs (the
    closest kept), then the clauses the others add; the Context lists the ids while they fit."""
    rep = _representative(entries)
    others = [e for e in entries if e.id != rep.id]
    kept = {rep.id, *(e.id for e in others[: MAX_SUPERSEDES - 1])}
    ids = [e.id for e in entries if e.id in kept]
    entries = [e for e in entries if e.id in kept]
    others = [e for e in others if e.id in kept]
    tags = list(dict.fromkeys(t for e in entries for t in e.tags))[:20]
    files = [f for f in dict.fromkeys(f for e in entries for f in e.files) if exists(f)][:50]
    rest = f"\n\n{rep.context}" if rep.context else ""
    contexts = [
        f"Consolidates {len(ids)} near-duplicate entries: {', '.join(ids)}.{rest}",
        f"Consolidates {len(ids)} near-duplicate entries, each named in supersedes.{rest}",
    ]
    seen = [c.terms for c in clauses(rep.content)]
    extra: list[str] = []
    for other in others:
        for clause in clauses(other.content):
            if all(len(clause.terms & s) / len(clause.terms | s) < 0.5 for s in seen):
                seen.append(clause.terms)
                extra.append(f"- {clause.text.rstrip('.')}. (from {other.id})")
    pairs = sorted((p for p in cluster.pairs if p[0] in kept and p[1] in kept), key=lambda p: -p[2])
    similar = [f"- {a} ↔ {b}: cosine {score:.2f}" for a, b, score in pairs]
    evidence_of = [f"From {e.id}:\n{e.evidence}" for e in entries if e.evidence]
    meta: dict[str, Any] = {
        "type": rep.type,
        "title": rep.title,
        "applies_when": rep.applies_when,
        "supersedes": ids,
        "tags": tags or None,
        "files": files or None,
    }
    for key in ("rationale", "correction", "detection_signal", "evidence_batches"):
        if rep.meta.get(key):
            meta[key] = rep.meta[key]

    def head(n_pairs: int) -> str:
        more = len(similar) - n_pairs
        return (
            "gitmem hygiene found these entries near-duplicates (TF-IDF cosine of title, "
            f"applies_when and Content >= {DUPLICATE_THRESHOLD}):\n"
            + "\n".join(similar[:n_pairs])
            + (f"\n- … and {more} more pairs" if more else "")
        )

    def fits(context: str, content: str, evidence: str) -> bool:
        return len(Entry({}, context, content, evidence).body) <= max_body

    for context in contexts:
        for n_extra in range(len(extra), -1, -1):
            content = rep.content + (
                "\n\nAlso from the merged entries:\n" + "\n".join(extra[:n_extra])
                if n_extra
                else ""
            )
            n_pairs = len(similar)
            while n_pairs > 0 and not fits(context, content, head(n_pairs)):
                n_pairs -= 1
            if not fits(context, content, head(n_pairs)):
                continue
            for n_evidence in range(len(evidence_of), -1, -1):
                evidence = "\n\n".join([head(n_pairs), *evidence_of[:n_evidence]])
                if fits(context, content, evidence):
                    return ProposalFields.from_mapping(
                        {**meta, "context": context, "content": content, "evidence": evidence}
                    )
    return None


def resolution_fields(
    clash: Contradiction, a: Entry, b: Entry, max_body: int, exists: Callable[[str], bool]
) -> ProposalFields | None:
    """The candidate that resolves a contradiction: both entries superseded, the text of the
    later-admitted one kept (the later word holds until the reviewer edits it), the clauses
    that disagree in its Evidence. Fitted into max_body as a consolidation is: the later
    entry's Evidence goes first, then its Context; None when its Content alone does not fit.
    Only the cited files that exist (on main) are kept, as a consolidation keeps them."""
    later = _representative([a, b])
    earlier = b if later.id == a.id else a
    head = (
        f"Resolves a contradiction gitmem hygiene found between {earlier.id} and {later.id}: "
        f"the later-admitted {later.id} is kept; edit this text into what holds."
    )
    call = f"gitmem hygiene: {clash.evidence()}."
    meta: dict[str, Any] = {
        "type": later.type,
        "title": later.title,
        "applies_when": later.applies_when,
        "supersedes": sorted({a.id, b.id}),
        "tags": list(later.tags) or None,
        "files": [f for f in later.files if exists(f)] or None,
    }
    for key in ("rationale", "correction", "detection_signal", "evidence_batches"):
        if later.meta.get(key):
            meta[key] = later.meta[key]
    for with_context, with_evidence in ((True, True), (True, False), (False, False)):
        context = head + (f"\n\n{later.context}" if with_context and later.context else "")
        evidence = call + (
            f"\n\nFrom {later.id}:\n{later.evidence}" if with_evidence and later.evidence else ""
        )
        if len(Entry({}, context, later.content, evidence).body) <= max_body:
            return ProposalFields.from_mapping(
                {**meta, "context": context, "content": later.content, "evidence": evidence}
            )
    return None


def _resolve(
    ws: Workspace,
    clash: Contradiction,
    by_id: dict[str, Entry],
    taken: dict[str, str],
    broken: list[Broken],
    refusals: dict[str, Any],
) -> Proposed:
    from gitmem.lifecycle.propose import propose

    pair = Cluster([clash.a, clash.b], [])
    already = sorted({taken[m.id] for m in pair.members if m.id in taken})
    if already:
        return Proposed(pair, None, None, f"already superseded by pending {', '.join(already)}")
    a, b = by_id[clash.a.id], by_id[clash.b.id]
    fields = resolution_fields(clash, a, b, ws.settings.max_body, _on_main(ws))
    if fields is None:
        return Proposed(
            pair, None, None, "too long to resolve within memory.maxBody: supersede both by hand"
        )
    refusal = _refused(refusals, fields)
    if refusal is not None:
        return Proposed(pair, None, None, refusal)
    try:
        proposal = propose(ws, fields)
    except RuleError as exc:
        ids = [m.id for m in pair.members]
        what = f"the resolution of the contradiction between {' and '.join(ids)}"
        broken.append(Broken(what, ids, exc.message))
        return Proposed(pair, None, None, exc.message)
    for member in pair.members:
        taken[member.id] = proposal.id
    return Proposed(pair, proposal.id, proposal.branch)


def _on_main(ws: Workspace) -> Callable[[str], bool]:
    """Whether a path is on main's tip: a candidate cites only those (FILES-MISSING)."""
    tip = ws.main_tip()
    tree = ws.store.tree_of(tip) if tip else None

    def exists(path: str) -> bool:
        return tree is not None and (
            ws.store.item(tree, path) is not None or ws.store.subtree(tree, path) is not None
        )

    return exists


def _propose(
    ws: Workspace,
    cluster: Cluster,
    by_id: dict[str, Entry],
    taken: dict[str, str],
    broken: list[Broken],
    refusals: dict[str, Any],
) -> Proposed:
    from gitmem.lifecycle.propose import propose

    already = sorted({taken[m.id] for m in cluster.members if m.id in taken})
    if already:
        return Proposed(
            cluster, None, None, f"already consolidated by pending {', '.join(already)}"
        )
    entries = [by_id[m.id] for m in cluster.members]
    fields = consolidation_fields(cluster, entries, ws.settings.max_body, _on_main(ws))
    if fields is None:
        return Proposed(
            cluster, None, None, "too long to merge within memory.maxBody: merge by hand"
        )
    refusal = _refused(refusals, fields)
    if refusal is not None:
        return Proposed(cluster, None, None, refusal)
    try:
        proposal = propose(ws, fields)
    except RuleError as exc:
        ids = [m.id for m in cluster.members if m.id in fields.supersedes]
        broken.append(Broken(f"the consolidation of {', '.join(ids)}", ids, exc.message))
        return Proposed(cluster, None, None, exc.message)
    merged = [m for m in cluster.members if m.id in fields.supersedes]  # the rest wait
    for member in merged:
        taken[member.id] = proposal.id
    return Proposed(Cluster(merged, cluster.pairs), proposal.id, proposal.branch)
