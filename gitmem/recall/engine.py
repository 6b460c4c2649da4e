"""Recall: a keyword index over admitted entries that answers "is there a precedent?".

The engine knows nothing of git, files or click: the caller turns admitted entries into `Doc`s
(body = every free-text field worth searching), builds an `Index`, stores it (`to_parts`: a
manifest and immutable segment files, or `to_bytes`: one blob) and reloads it (`from_parts`,
`from_bytes`). Only admitted entries are added; superseded ones are removed.

Analysis
    Text is cut into tokens of letters and digits, joined by `_ . -` inside identifiers. A
    compound token (`memory_push`, `code-structure`, `GitmemError`, `gitmem.store`) is indexed
    whole (lower-cased) *and* as its parts, split at the separators and at camelCase humps, so
    `push`, `memory push`, `memory_push` and `MemoryPush` all find it. Parts and plain words lose
    English stop words and are stemmed by the Snowball English (Porter2) stemmer (the Snowball
    project's C library, through `PyStemmer`): `admitted`, `admits` meet at `admit`. British
    spellings are written the American way before stemming (`american_spelling`), so that
    `organisation`, `optimised` and `behaviour` meet `organization`, `optimized`, `behavior`.

Evidence (the relevance model)
    Each field of an entry has a weight and a reference length: title 3, applies_when 3, tags 2,
    body 1 (BM25F). For a term t and an entry d the weighted, length-damped frequency
    tf = sum_f w_f * tf_f / max(1, 1 - b_f + b_f * len_f / ref_f) is saturated,
    sat(t, d) = tf / (k1 + tf), k1 = 1.2: one title mention gives 0.71, one body mention about
    0.45, and no number of mentions in any field gives more than 1. So no single word, however
    placed, outweighs the rarity of the words it stands for.

    The evidence that d answers a query Q sums over the query terms d matches:

        evidence(d) = sum_{t in Q and d} sat(t, d) * idf(t) / idf_1

    with idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5)) and idf_1 the idf of a word found in one
    entry. The unit is thus "one word found in one entry only, saturated": evidence 2 is two
    such words, or four commoner ones. Query words no entry contains add nothing and take
    nothing away (a long, chatty description is not punished for its length: only what it
    matches counts), and a word found in more than half of the entries (and in at least three)
    is no evidence at all. Dividing by idf_1 makes the figure mean the same in a memory of 50
    entries and of 100,000 (idf grows with ln N).

    The keyword score is that evidence against what the query could reach in this memory:
    score = min(1, evidence / min(REACH, sum of the weights of the query terms found in any
    entry)), REACH = 2. A one-word question fully answered by a title scores 0.71 (its one
    word, saturated), however few words it has; a long description needs two unique words'
    worth of evidence for a full score, however many words it has. So the score is diluted
    neither by the words of the query the memory lacks nor by a long query's many words.

Gating (whether anything applies)
    Abstaining is a decision about the query, not about each entry: "is there a precedent at
    all?". A `Gate` is a logistic model of that probability over `Signals` of the query and
    its best hit; when it is below one half nothing comes back, else the hits are the entries
    within RELATIVE_FLOOR of the best score. An explicit min_score replaces the gate with a
    plain threshold on each hit's score (min_score 0: the ranking alone). The signals say
    "the entry's situation is the query's", not only "some words overlap":

    - top: the best hit's score;
    - head: the share of the query's words (those that count towards its reach) that the best
      hit's title or applies_when holds: a precedent names the query's situation in its head,
      a near-topic entry holds the words in its body;
    - names: how many of the query's names (`query_names`: words capitalised inside a
      sentence, acronyms, words with digits: "Swift", "Kafka", "v2") no entry holds at all. A
      question about a named thing the memory never mentions ("XCTest unit tests for the Swift
      app" beside a general unit-testing entry) is the typical near-topic trap; a plain word
      the memory lacks ("Friday") says nothing;
    - situation (gitmem.recall.semantic only): the query's similarity to the best hit's
      applies_when alone;
    - body (gitmem.recall.semantic only): the query's similarity to the best hit's body, its
      Markdown sections read whole (up to the model's 256 word-pieces). A precedent's context
      tells the situation it came from in the words an asker uses; a near-topic entry shares
      the query's topic in its head but not its case in its body;
    - heads: the best head share among the first HEADS_OF hits of the whole ranking (the best
      hit's included). Own-words situations often rank first an entry that holds their words
      in its body, with the precedent that names the situation in its head just below; a
      question about a topic the memory lacks has no entry among its first hits whose head
      holds its words. With heads in the gate the best hit's own head share weighs little.
      Reading the first hits of the whole ranking means the gated search is not pruned by
      the gate's bound (`Gate.needed`); with the fitted weights that bound is 0 anyway.

    The gates are fitted by `python bench/recall.py --fit` on many questions, not twenty: the
    development set's tuning part (its answered questions and 20 no-match ones) and about
    970 questions with no answer from tests/recall_negatives.py (off-topic questions written
    for the purpose before the system was run on them, templated ones about technologies
    neither corpus covers, and each corpus's titles and applies_when lines asked of the other
    corpus, genuine matches read out by hand), asked of the development corpus and of the ADR
    corpus. Answered questions are weighted to balance the negatives, and the boundary is put
    where 0.9 of the fitting set's negatives stay empty. The signals were chosen by 5-fold
    cross-validation on that fitting set (gated hit@5 at that boundary): for keywords the
    best score alone gives 0.85, with head and names 0.90, with heads as well 0.92 (chosen);
    fitted on one corpus's negatives, 0.94 of the other corpus's stay empty (0.99 with the
    score alone) and 0.73 the other way round (0.78; 0.81 without heads). Tried before and
    dropped (measured on the report part): the query's coverage (the share of its words some
    entry holds: it fits twenty negatives and no more), the margin of the best hit over the
    next ones, its z-score among all entries, a bound from unrelated questions; and in the
    fourth round a background (each corpus's titles and applies_when lines asked of its
    other entries, the query's best score against the distribution of their best other
    hit), asking again without the query's rarest matched term (does the best hit hold it,
    does it stay first, how much of its evidence remains), pseudo-relevance feedback from
    the first hits' heads, and fitting on generated positives (an entry's context asked of
    the entries without their contexts). The README gives their figures; the report part's
    figures are there too.

Explanations
    `Index.answer` returns the hits with, for each, the terms that matched, their fields and
    what each added, the query's coverage and the gate's confidence (`Why`), and for an
    empty answer the best candidate the gate rejected.

Index layout
    Documents are numbered; a posting is one u32, the document number shifted left 8 bits or-ed
    with sat quantised to a byte, and each term's posting list is sorted. A segment holds the
    documents' records (id, type, title, applies_when, path), sorted term and id tables that are
    binary-searched in place, and the postings, with a CRC-32; loading decodes nothing and a
    query reads only its own terms' postings. `add` puts documents into an in-memory tail,
    `remove` marks a tombstone; serialising merges the tail with small trailing segments (a
    capped log-structured policy) and leaves the large ones as they are, so one admission costs
    one entry's work and one small segment file at any size.
"""

from __future__ import annotations

import heapq
import math
import re
import struct
import sys
import unicodedata
from array import array
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import accumulate, chain
from typing import Final

import Stemmer

from gitmem.recall.checksum import crc32

__all__ = [
    "HEADS_OF",
    "KEYWORD_GATE",
    "REACH",
    "RELATIVE_FLOOR",
    "STEP_TYPES",
    "Answer",
    "Doc",
    "Gate",
    "Hit",
    "Index",
    "IndexFormatError",
    "Match",
    "Signals",
    "Why",
    "analyze",
    "query_names",
    "query_terms",
    "stem",
]


@dataclass(frozen=True)
class Doc:
    """One admitted entry as recall sees it: body holds every free-text field worth searching."""

    id: str
    type: str
    title: str
    applies_when: str
    tags: tuple[str, ...]
    body: str
    path: str
    #: the repository files it cites (`files:`): a hit carries them, so a recall asks their
    #: freshness without reading the entry again
    files: tuple[str, ...] = ()


@dataclass(frozen=True)
class Match:
    """One query term an entry matched: where, and how much evidence it added."""

    term: str
    fields: tuple[str, ...]  # "title", "applies_when", "tags or body"
    evidence: float


@dataclass(frozen=True)
class Why:
    """The signals that scored a hit, and why the gate let it through (or did not)."""

    keyword: float  # the keyword score (module docstring, "Evidence")
    evidence: float  # in units of one unique word (module docstring)
    terms: tuple[Match, ...]
    similarity: float | None = None  # cosine with the query, when the model ranked it
    gate: str = ""
    coverage: float | None = None  # the share of the query's words the memory holds
    confidence: float | None = None  # the gate's confidence that something applies
    head: float | None = None  # the share of the query's words in this hit's title/applies_when
    names: tuple[str, ...] = ()  # the query's names (capitalised words...) no entry holds
    heads: float | None = None  # the best head share among the query's first HEADS_OF hits
    body: float | None = None  # the query's similarity to the best hit's body (the model)


@dataclass(frozen=True)
class Hit:
    """One recalled entry; score in 0..1 (module docstring, "Evidence"), why: its signals."""

    id: str
    type: str
    title: str
    applies_when: str
    path: str
    score: float
    files: tuple[str, ...] = field(default=(), kw_only=True)  # the repository files it cites
    why: Why | None = field(default=None, kw_only=True, compare=False)


@dataclass(frozen=True)
class Answer:
    """The hits of a query, best first, and when there are none the best rejected candidate."""

    hits: list[Hit]
    rejected: Hit | None = None


#: Which entry types serve which step of an agent's work (the MCP server's `types` default).
STEP_TYPES: Final[dict[str, tuple[str, ...]]] = {
    "spec": ("decision", "method"),
    "plan": ("decision", "code-structure"),
    "batch": ("code-structure", "mistake"),
    "audit": ("code-structure", "mistake"),
    "correction": ("mistake",),
}


@dataclass(frozen=True)
class Signals:
    """What the gate reads of a query and its best hit (module docstring, "Gating")."""

    top: float  # the best hit's score (keyword, or fused with the model)
    head: float = 0.0  # the share of the query's words the best hit's title or applies_when holds
    names: int = 0  # the query's names (capitalised words, acronyms, versions) no entry holds
    situation: float = 0.0  # the query's cosine with the best hit's applies_when (the model)
    heads: float = 0.0  # the best head share among the first HEADS_OF ranked hits
    # the query's cosine with the best hit's body (the model); None: not read, as it could
    # not change the decision (a run of the model on up to 256 word-pieces is not spent on an
    # explanation alone)
    body: float | None = None


@dataclass(frozen=True)
class Gate:
    """Whether anything applies to a query: a logistic model over its `Signals` (module
    docstring, "Gating"), fitted on the development set's tuning part and on many questions
    with no answer (`python bench/recall.py --fit` prints the fit)."""

    score_weight: float
    head_weight: float
    names_weight: float
    situation_weight: float
    bias: float
    heads_weight: float = 0.0
    body_weight: float = 0.0

    def logit(self, signals: Signals) -> float:
        return (
            self.score_weight * signals.top
            + self.head_weight * signals.head
            + self.names_weight * signals.names
            + self.situation_weight * signals.situation
            + self.heads_weight * signals.heads
            + self.body_weight * (signals.body or 0.0)
            + self.bias
        )

    def confidence(self, signals: Signals) -> float:
        """The modelled probability that something applies, in 0..1."""
        x = self.logit(signals)
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, x))))

    def passes(self, signals: Signals) -> bool:
        return self.logit(signals) >= 0.0

    def needed(self, names: int) -> float:
        """The lowest best score that can pass with this many absent names, whatever the head
        shares and the similarities (each at most 1): a search's pruning bound."""
        rest = self.names_weight * names + self.bias
        rest += max(0.0, self.head_weight) + max(0.0, self.situation_weight)
        rest += max(0.0, self.heads_weight) + max(0.0, self.body_weight)
        return max(0.0, min(1.0, -rest / self.score_weight))

    def verdict(self, score: float, signals: Signals, what: str) -> str:
        """One line: the gate's decision for a hit scoring score, from the best hit's signals."""
        confidence = self.confidence(signals)
        said = [f"the best {what}, {signals.top:.2f}"]
        if self.head_weight:
            said.append(
                f"the share of the query's words in its title or applies_when, {signals.head:.2f}"
            )
        if self.names_weight:
            said.append(f"names in the query no entry holds, {signals.names}")
        if self.situation_weight:
            said.append(f"the query's similarity to its applies_when, {signals.situation:.2f}")
        if self.heads_weight:
            said.append(f"the best such share among the first {HEADS_OF} hits, {signals.heads:.2f}")
        if self.body_weight and signals.body is None:
            said.append("its body not read, since it could not change the decision")
        elif self.body_weight:
            said.append(f"the query's similarity to its body, {signals.body:.2f}")
        signals_said = "from " + "; ".join(said)
        if confidence < 0.5:
            return (
                f"rejected: confidence {confidence:.2f} < 0.50 that anything applies "
                f"({signals_said})"
            )
        return (
            f"passed: confidence {confidence:.2f} >= 0.50 that something applies "
            f"({signals_said}); this hit's {score:.2f} is at least {RELATIVE_FLOOR:.1f} x the best"
        )


#: The keyword-only gate (module docstring, "Gating"), fitted by `bench/recall.py --fit`.
KEYWORD_GATE: Final = Gate(
    score_weight=7.17,
    head_weight=1.34,
    names_weight=-4.7,
    situation_weight=0.0,
    bias=-5.83,
    heads_weight=5.49,
)
#: The gate's `heads` reads the head shares of this many of the best ranked hits.
HEADS_OF: Final = 5
#: A hit of a query the gate passes needs this share of the best hit's score.
RELATIVE_FLOOR: Final = 0.7

#: A query is cut to this many characters and this many distinct terms: queries are text.
MAX_QUERY_CHARS: Final = 20_000
MAX_QUERY_TERMS: Final = 32

#: One update merges at most this many documents' segments (bounds the work of an admission).
MAX_MERGE_DOCS: Final = 4096

#: The evidence a query needs for a keyword score of 1, when its terms can reach that much.
REACH: Final = 2.0

#: A term found in more than this share of the entries (and in at least 3) is no evidence.
COMMON_SHARE: Final = 0.5

# BM25F field weights, reference lengths (in terms) and length normalisation.
_K1: Final = 1.2
_FIELDS: Final = (  # (weight, reference length, b)
    (3.0, 8.0, 0.3),  # title
    (3.0, 12.0, 0.3),  # applies_when
    (2.0, 4.0, 0.0),  # tags
    (1.0, 150.0, 0.75),  # body
)
_MAX_TERM_LEN: Final = 48

# ---------------------------------------------------------------------------------------------
# Analysis: tokens, identifiers, stop words, stemming


_TOKEN = re.compile(r"[^\W_]+(?:[_.\-]+[^\W_]+)*")
_SEPARATOR = re.compile(r"[_.\-]+")
_HUMP = re.compile(r"[a-z][A-Z]|[A-Z]{2}[a-z]{2}")
_CAMEL_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")

STOP_WORDS: Final = frozenset(
    """
    a about above after again against all also am an and any are aren as at be because been
    before being below between both but by can cannot could couldn did didn do does doesn doing
    don down during each either etc few for from further get gets got had hadn has hasn have
    haven having he her here hers herself him himself his how however i if in into is isn it its
    itself just ll me more most must mustn my myself no nor not now of off on once only or other
    ought our ours ourselves out over own re same shall shan she should shouldn so some such than
    that the their theirs them themselves then there these they this those through to too under
    until up us ve very was wasn we were weren what whatever when where whether which while whilst
    who whom whose why will with won would wouldn yet you your yours yourself yourselves
    e.g i.e eg ie vs via
    anyone anything anybody someone something somebody thing things way ways best good right
    proper properly need needs want wants wanted know let lets like kind sort okay ok please
    """.split()  # noqa: SIM905 - a word list reads better as text
)


_WORD_TERMS: dict[str, str | None] = {}


def _word_term(part: str) -> str | None:
    """The indexed form of one plain word or identifier part, or None for noise (memoised)."""
    try:
        return _WORD_TERMS[part]
    except KeyError:
        pass
    word = part.lower()
    term: str | None = word
    if len(word) < 2 or len(word) > _MAX_TERM_LEN or word in STOP_WORDS:
        term = None
    elif word.isascii() and word.isalpha():
        term = stem(word)
    if len(_WORD_TERMS) > 200_000:
        _WORD_TERMS.clear()
    _WORD_TERMS[part] = term
    return term


def _token_terms(token: str) -> tuple[tuple[str, ...], str | None]:
    """(the terms of one token, its whole form if it is a compound identifier). A token is
    read in its compatibility form (NFKC): `ＲＥＴＲＹ`, typed on a full-width keyboard, is
    `RETRY`, and `ﬁle` is `file`."""
    if not token.isascii():
        token = unicodedata.normalize("NFKC", token)
    pieces = _SEPARATOR.split(token)
    parts: list[str] = []
    for piece in pieces:
        if piece.isascii() and _HUMP.search(piece):
            parts.extend(_CAMEL_PART.findall(piece))
        else:
            parts.append(piece)
    terms = [t for t in map(_word_term, parts) if t is not None]
    whole: str | None = None
    if len(parts) > 1:
        whole = token.lower()
        if len(whole) > _MAX_TERM_LEN or whole in STOP_WORDS:
            whole = None
        else:
            terms.insert(0, whole)
    return tuple(terms), whole


class _Analyzer:
    """Memoised token -> terms: a large build sees each distinct token's work once."""

    def __init__(self) -> None:
        self._cache: dict[str, tuple[str, ...]] = {}

    def _lookup(self, text: str) -> Iterator[str]:
        cache = self._cache
        tokens = _TOKEN.findall(text)
        missing = set(tokens).difference(cache)
        if missing:
            if len(cache) > 1_000_000:
                cache.clear()
                missing = set(tokens)
            for token in missing:
                cache[token] = _token_terms(token)[0]
        return chain.from_iterable(map(cache.__getitem__, tokens))

    def terms(self, text: str) -> list[str]:
        return list(self._lookup(text))

    def counts(self, text: str) -> Counter[str]:
        return Counter(self._lookup(text))


def analyze(text: str) -> list[str]:
    """The terms of a text, in order, with repeats: what the index stores for a field."""
    return _Analyzer().terms(text)


def query_terms(query: str) -> list[tuple[str, bool]]:
    """The distinct terms of a query, in order, each with True when it is a compound's whole form.

    The query is read as plain text, never as syntax, and is capped (MAX_QUERY_CHARS,
    MAX_QUERY_TERMS) so that any input costs bounded time.
    """
    seen: dict[str, bool] = {}
    for match in _TOKEN.finditer(query[:MAX_QUERY_CHARS]):
        terms, whole = _token_terms(match.group())
        for term in terms:
            if term not in seen:
                seen[term] = term == whole
                if len(seen) >= MAX_QUERY_TERMS:
                    return list(seen.items())
    return list(seen.items())


def query_names(query: str) -> list[str]:
    """The distinct terms of the query's names: words capitalised inside a sentence (not at its
    start), acronyms and words with digits ("Swift", "XCTest", "CI", "v2"). The words that make
    a question specific; one no entry holds says the memory does not know what is asked about
    (module docstring, "Gating")."""
    text = query[:MAX_QUERY_CHARS]
    found: dict[str, None] = {}
    for match in _TOKEN.finditer(text):
        token = match.group()
        before = text[: match.start()].rstrip()
        initial = not before or before[-1] in ".?!:"
        upper = len(token) > 1 and token.isupper()
        if (token[0].isupper() and not initial) or upper or any(c.isdigit() for c in token):
            terms, whole = _token_terms(token)
            found.update((t, None) for t in terms if t != whole)
    return list(found)[:MAX_QUERY_TERMS]


def _quantise(tf: float) -> int:
    """round(255 * sat) for a weighted frequency tf, at least 1: a search in precomputed bounds."""
    return 1 + bisect_right(_QUANTA, tf)


# The smallest tf whose sat rounds to v, for v = 2..255 (sat = tf / (k1 + tf)).
_QUANTA: Final = [_K1 * x / (1.0 - x) for x in ((v - 0.5) / 255 for v in range(2, 256))]


#: One stemmer for the process (it keeps a cache of its own).  A Stemmer object is not
#: thread-safe: gitmem stems in one thread, and a caller that stems from several needs one each.
_STEMMER = Stemmer.Stemmer("english")


def stem(word: str) -> str:
    """The Snowball English (Porter2) stem of a lower-case word, written the American way
    first (`american_spelling`), so that `organisation` and `organization` meet."""
    return str(_STEMMER.stemWord(american_spelling(word)))


# British and American spellings of one word. Porter2 treats them as different words, and a
# memory often mixes both (a team writes "optimise", its dependencies' docs and the agents
# that ask "optimize"). The -ise/-yse family is a rule; it also rewrites words that are
# spelt -ise everywhere ("advise", "raise"), which costs nothing because index and query
# pass through the same rule. The other families are too irregular for a rule ("four" is
# not "for", "metre" but not "genre"), so they are listed.
_ISE: Final = re.compile(r"(?<=[a-z]{2})([iy])s(e|es|ed|ing|er|ers|ation|ations)$")
_OUR_STEMS: Final = (
    "behaviour", "armour", "candour", "colour", "endeavour", "favour", "flavour", "harbour",
    "honour", "humour", "labour", "neighbour", "odour", "rigour", "rumour", "saviour", "tumour",
    "vapour", "vigour",
)  # fmt: skip
_SPELLINGS: Final = dict(
    pair.split(":")
    for pair in """
    acknowledgement:acknowledgment acknowledgements:acknowledgments ageing:aging
    aluminium:aluminum amongst:among analogue:analog analogues:analogs artefact:artifact
    artefacts:artifacts calibre:caliber catalogue:catalog catalogued:cataloged
    catalogues:catalogs cataloguing:cataloging centre:center centred:centered centres:centers
    cheque:check cheques:checks defence:defense defences:defenses dialogue:dialog
    dialogues:dialogs enrol:enroll enrolment:enrollment enrols:enrolls fibre:fiber
    fibres:fibers fulfil:fulfill fulfilment:fulfillment fulfils:fulfills grey:gray
    greyed:grayed instalment:installment judgement:judgment judgements:judgments
    licence:license licences:licenses litre:liter litres:liters manoeuvre:maneuver
    metre:meter metres:meters mould:mold offence:offense offences:offenses pretence:pretense
    programme:program programmes:programs sceptic:skeptic sceptical:skeptical
    skilful:skillful theatre:theater tyre:tire tyres:tires
    """.split()  # noqa: SIM905 - a word list reads better as text
)


def american_spelling(word: str) -> str:
    """A lower-case word with its British spelling written the American way: -ise, -isation
    and -yse as -ize, -ization and -yze (`normalised` → `normalized`), `behaviour`-like words
    without the u (`behavioural` → `behavioral`), and the listed words (`licence`)."""
    if (listed := _SPELLINGS.get(word)) is not None:
        return listed
    if "our" in word:
        for british in _OUR_STEMS:
            if word.startswith(british):
                return f"{british[:-2]}r{word[len(british) :]}"
    return _ISE.sub(r"\1z\2", word)


def _body_factor(length: int) -> float:
    weight, ref, b = _FIELDS[3]
    # Long fields are damped; short ones are not boosted (a two-word body is no title).
    return weight / max(1.0, 1.0 - b + b * length / ref)


#: body length -> the quantised value of a term seen 0, 1, 2... times in a body that long
_BODY_TABLES: dict[int, list[int]] = {}


def _doc_values(doc: Doc, analyzer: _Analyzer) -> dict[str, int]:
    """term -> sat(t, d) quantised to 1..255 for one document (module docstring, "Score").

    The body holds most terms, so its values come from a per-count table in C-level loops;
    the few title, applies_when and tag terms are then combined exactly.
    """
    body = analyzer.counts(doc.body)
    values: dict[str, int] = {}
    body_factor = 0.0
    if body:
        length = body.total()
        body_factor = _body_factor(length)
        table = _BODY_TABLES.get(length)
        top = max(body.values())
        if table is None or len(table) <= top:
            table = [_quantise(c * body_factor) for c in range(max(top + 1, 8))]
            _BODY_TABLES[length] = table
        values = dict(zip(body.keys(), map(table.__getitem__, body.values()), strict=True))
    short: dict[str, float] = {}
    for text, (weight, ref, b) in zip(
        (doc.title, doc.applies_when, " ".join(doc.tags)), _FIELDS, strict=False
    ):
        terms = analyzer.terms(text)
        if terms:
            factor = weight / max(1.0, 1.0 - b + b * len(terms) / ref)
            for term in terms:
                short[term] = short.get(term, 0.0) + factor
    for term, tf in short.items():
        values[term] = _quantise(tf + body.get(term, 0) * body_factor)
    return values


# ---------------------------------------------------------------------------------------------
# Segments: the in-memory one that receives new documents, and the frozen serialised one.
#
# A posting is one u32: the document number shifted left 8 bits, or-ed with sat(t, d) quantised
# to a byte. One array per term, sorted by document number; at most 2**24 documents.

_Record = tuple[str, str, str, str, str, str]  # id, type, title, applies_when, path, files
#: Between the cited files of a record: a character no repository path of an admitted entry
#: holds (the schema's repoPath forbids control characters).
_FILES_SEP: Final = "\x1f"
_MAX_DOCS: Final = 1 << 24


def _record(doc: Doc) -> _Record:
    def clean(s: str) -> str:
        return s.replace("\x00", " ")

    return (
        clean(doc.id),
        clean(doc.type),
        clean(doc.title),
        clean(doc.applies_when),
        clean(doc.path),
        _FILES_SEP.join(clean(f).replace(_FILES_SEP, " ") for f in doc.files),
    )


def _hit(record: _Record, score: float) -> Hit:
    rid, rtype, title, applies_when, path, files = record
    cited = tuple(files.split(_FILES_SEP)) if files else ()
    return Hit(rid, rtype, title, applies_when, path, score, files=cited)


class _MemSegment:
    """Documents numbered base, base+1, ...; postings kept as growing arrays."""

    def __init__(self, base: int) -> None:
        self.base = base
        self.records: list[_Record] = []
        self.ids: dict[str, int] = {}
        self.postings: dict[str, array[int]] = {}

    @property
    def n_docs(self) -> int:
        return len(self.records)

    def append(self, record: _Record, values: dict[str, int]) -> int:
        number = self.base + len(self.records)
        if number >= _MAX_DOCS:
            raise ValueError("a recall index holds at most 2**24 entries")
        self.records.append(record)
        self.ids[record[0]] = number
        postings = self.postings
        shifted = number << 8
        for term, value in values.items():
            try:
                postings[term].append(shifted | value)
            except KeyError:
                postings[term] = array("I", (shifted | value,))
        return number

    def lookup(self, term: str) -> array[int] | None:
        return self.postings.get(term)

    def record(self, number: int) -> _Record:
        return self.records[number - self.base]

    def doc_type(self, number: int) -> str:
        return self.records[number - self.base][1]

    def find(self, doc_id: str) -> int | None:
        return self.ids.get(doc_id)

    def items(self) -> Iterator[tuple[str, array[int]]]:
        return iter(self.postings.items())

    def all_records(self) -> Iterator[tuple[int, _Record]]:
        for i, record in enumerate(self.records):
            yield self.base + i, record

    def to_bytes(self) -> bytes:
        return _write_segment(self.base, self.records, sorted(self.items()))


class IndexFormatError(ValueError):
    """A stored index of another format version: sound, but written by another gitmem. Its
    entries' text is what it was, so what was derived from that text alone (the cache's
    vectors) still holds; only the index is rebuilt."""


_MAGIC: Final = b"GITMEM-RECALL\x00"
_MANIFEST_MAGIC: Final = b"GITMEM-RECALLM"
_NAME_LEN: Final = 32
# 2: Snowball stems, saturation values; 3: records hold the cited files; 4: American spelling;
# 5: tokens read in their compatibility form (NFKC); 6: only files at an entry's place
# (gitmem.model.names.entry_place), so an index of 5 that took a stray copy is built again;
# 7: only files whose id and type are their place's (gitmem.model.names.misplaced), so an
# index of 6 that took a copy at another entry's place is built again
_VERSION: Final = 7
_HEAD: Final = struct.Struct("<14sHIII")  # magic, version, segments, tombstones, their crc32
_SEG_HEAD: Final = struct.Struct("<9I")  # size, base, docs, terms, postings, 3 table sizes, crc32
_U32: Final = struct.Struct("<I")
_U32_PAIR: Final = struct.Struct("<2I")
_BIG_ENDIAN: Final = sys.byteorder == "big"


def _u32_array(data: bytes | memoryview) -> array[int]:
    out = array("I")
    out.frombytes(data)
    if _BIG_ENDIAN:
        out.byteswap()
    return out


def _u32_bytes(values: Iterable[int]) -> bytes:
    out = array("I", values)
    if _BIG_ENDIAN:
        out.byteswap()
    return out.tobytes()


def _crc(fields: tuple[int, ...], body: bytes | memoryview) -> int:
    return crc32(body, crc32(_u32_bytes(fields)))


def _write_segment(base: int, records: list[_Record], terms: list[tuple[str, array[int]]]) -> bytes:
    """Serialise one segment; `terms` sorted by term, each posting list sorted.

    Layout after the head: doc offsets (docs+1 u32), id order (docs u32), type codes (docs u8),
    type table, record blob (NUL-joined fields), term offsets (terms+1 u32), posting offsets
    (terms+1 u32), term blob, postings (u32).
    """
    type_codes: dict[str, int] = {}
    encoded_records = ["\x00".join(record).encode() for record in records]
    doc_offsets = [0, *accumulate(map(len, encoded_records))]
    codes = bytearray()
    for record in records:
        code = type_codes.setdefault(record[1], len(type_codes))
        if code > 255:
            raise ValueError("more than 256 entry types in one recall index segment")
        codes.append(code)
    id_order = sorted(range(len(records)), key=lambda i: records[i][0].encode())
    type_table = "\x00".join(type_codes).encode()
    encoded_terms = [term.encode() for term, _ in terms]
    term_offsets = [0, *accumulate(map(len, encoded_terms))]
    post_offsets = [0, *accumulate(len(postings) for _, postings in terms)]
    if _BIG_ENDIAN:
        postings_blob = b"".join(_u32_bytes(p) for _, p in terms)
    else:
        postings_blob = b"".join(p.tobytes() for _, p in terms)
    body = b"".join(
        [
            _u32_bytes(doc_offsets),
            _u32_bytes(id_order),
            bytes(codes),
            type_table,
            b"".join(encoded_records),
            _u32_bytes(term_offsets),
            _u32_bytes(post_offsets),
            b"".join(encoded_terms),
            postings_blob,
        ]
    )
    fields = (
        _SEG_HEAD.size + len(body),
        base,
        len(records),
        len(terms),
        post_offsets[-1],
        len(type_table),
        doc_offsets[-1],
        term_offsets[-1],
    )
    return _SEG_HEAD.pack(*fields, _crc(fields, body)) + body


class _FrozenSegment:
    """A serialised segment read in place: tables are binary-searched, nothing decoded up front."""

    def __init__(self, data: memoryview, start: int, *, verify: bool = True) -> None:
        head: tuple[int, ...] = _SEG_HEAD.unpack_from(data, start)
        size, base, n_docs, n_terms, n_post, type_len, rec_len, term_len, crc = head
        if size < _SEG_HEAD.size or start + size > len(data):
            raise ValueError("recall index is truncated")
        if verify and _crc(head[:-1], data[start + _SEG_HEAD.size : start + size]) != crc:
            raise ValueError("recall index segment fails its checksum")
        self._start = start
        self.crc: int = crc
        self.size: int = size
        self.base: int = base
        self._n_docs: int = n_docs
        self._n_terms: int = n_terms
        pos = start + _SEG_HEAD.size
        self._doc_off = pos
        pos += 4 * (n_docs + 1)
        self._id_order = pos
        pos += 4 * n_docs
        self._codes = pos
        pos += n_docs
        types_raw = bytes(data[pos : pos + type_len])
        pos += type_len
        self._records = pos
        pos += rec_len
        self._term_off = pos
        pos += 4 * (n_terms + 1)
        self._post_off = pos
        pos += 4 * (n_terms + 1)
        self._terms = pos
        pos += term_len
        self._postings = pos
        pos += 4 * n_post
        if pos != start + size:
            raise ValueError("recall index segment has an inconsistent size")
        self._data = data
        self.types: list[str] = types_raw.decode().split("\x00") if types_raw else []
        if n_docs and not self.types:
            raise ValueError("recall index segment has no type table")
        u32 = _U32.unpack_from
        if u32(data, self._doc_off + 4 * n_docs)[0] != rec_len:
            raise ValueError("recall index segment has a corrupt record table")
        if u32(data, self._term_off + 4 * n_terms)[0] != term_len:
            raise ValueError("recall index segment has a corrupt term table")
        if u32(data, self._post_off + 4 * n_terms)[0] != n_post:
            raise ValueError("recall index segment has a corrupt posting table")

    @property
    def n_docs(self) -> int:
        return self._n_docs

    def _term_at(self, i: int) -> bytes:
        a, b = _U32_PAIR.unpack_from(self._data, self._term_off + 4 * i)
        return bytes(self._data[self._terms + a : self._terms + b])

    def _postings_at(self, i: int) -> array[int]:
        a, b = _U32_PAIR.unpack_from(self._data, self._post_off + 4 * i)
        if a > b:
            raise ValueError("recall index segment has a corrupt posting table")
        return _u32_array(self._data[self._postings + 4 * a : self._postings + 4 * b])

    def lookup(self, term: str) -> array[int] | None:
        key = term.encode()
        lo, hi = 0, self._n_terms
        while lo < hi:
            mid = (lo + hi) // 2
            if self._term_at(mid) < key:
                lo = mid + 1
            else:
                hi = mid
        if lo < self._n_terms and self._term_at(lo) == key:
            return self._postings_at(lo)
        return None

    def _raw_record(self, i: int) -> bytes:
        if not 0 <= i < self._n_docs:
            raise ValueError("recall index refers to a document it does not hold")
        a, b = _U32_PAIR.unpack_from(self._data, self._doc_off + 4 * i)
        return bytes(self._data[self._records + a : self._records + b])

    def record(self, number: int) -> _Record:
        fields = self._raw_record(number - self.base).decode().split("\x00")
        if len(fields) != 6:
            raise ValueError("recall index segment has a corrupt record")
        return (fields[0], fields[1], fields[2], fields[3], fields[4], fields[5])

    def doc_type(self, number: int) -> str:
        code = self._data[self._codes + number - self.base]
        if code >= len(self.types):
            raise ValueError("recall index segment has a corrupt type code")
        return self.types[code]

    def _id_at(self, j: int) -> tuple[bytes, int]:
        i: int = _U32.unpack_from(self._data, self._id_order + 4 * j)[0]
        return self._raw_record(i).split(b"\x00", 1)[0], i

    def find(self, doc_id: str) -> int | None:
        key = doc_id.encode()
        lo, hi = 0, self._n_docs
        while lo < hi:
            mid = (lo + hi) // 2
            if self._id_at(mid)[0] < key:
                lo = mid + 1
            else:
                hi = mid
        if lo < self._n_docs:
            found, i = self._id_at(lo)
            if found == key:
                return self.base + i
        return None

    def items(self) -> Iterator[tuple[str, array[int]]]:
        for i in range(self._n_terms):
            yield self._term_at(i).decode(), self._postings_at(i)

    def all_records(self) -> Iterator[tuple[int, _Record]]:
        for i in range(self._n_docs):
            yield self.base + i, self.record(self.base + i)

    def to_bytes(self) -> memoryview:
        return self._data[self._start : self._start + self.size]

    @property
    def name(self) -> str:
        """A content name: equal names, equal bytes (position, size, count and checksum)."""
        return f"{self.base:08x}{self._n_docs:08x}{self.size:08x}{self.crc:08x}"


_Segment = _MemSegment | _FrozenSegment


def _contains(postings: array[int], number: int) -> int | None:
    """The posting of document `number` in a sorted posting list, or None."""
    i = bisect_left(postings, number << 8)
    if i < len(postings) and postings[i] >> 8 == number:
        return int(postings[i])
    return None


# ---------------------------------------------------------------------------------------------
# The index


class Index:
    """An inverted index over admitted entries: built once, updated per entry, serialised whole.

    Not thread-safe; cheap to load (see the module docstring for the layout).
    """

    def __init__(self) -> None:
        self._segments: list[_Segment] = []
        self._dead: set[int] = set()
        self._analyzer = _Analyzer()

    # -- building and updating

    @classmethod
    def build(cls, docs: Iterable[Doc]) -> Index:
        """A fresh index over docs; a later doc with an id already seen replaces the earlier.

        (Splitting a build over processes was tried and dropped: on a two-core machine
        shipping the documents and segments between processes ate the gain.  Pausing the
        cyclic garbage collector, which an earlier build did, no longer pays: postings are
        arrays, not lists of objects.)
        """
        index = cls()
        for doc in docs:
            index.add(doc)
        return index

    def _next_number(self) -> int:
        if not self._segments:
            return 0
        last = self._segments[-1]
        return last.base + last.n_docs

    def add(self, doc: Doc) -> None:
        """Add (or replace) one document: the work of one entry, whatever the index's size."""
        self.remove(doc.id)
        tail = self._segments[-1] if self._segments else None
        if not isinstance(tail, _MemSegment):
            tail = _MemSegment(self._next_number())
            self._segments.append(tail)
        tail.append(_record(doc), _doc_values(doc, self._analyzer))

    def remove(self, doc_id: str) -> None:
        """Forget a document (a superseded entry); an id the index lacks is ignored."""
        number = self._find(doc_id)
        if number is not None:
            self._dead.add(number)

    def _find(self, doc_id: str) -> int | None:
        for segment in reversed(self._segments):
            number = segment.find(doc_id)
            if number is not None and number not in self._dead:
                return number
        return None

    def __len__(self) -> int:
        return sum(s.n_docs for s in self._segments) - len(self._dead)

    def __contains__(self, doc_id: object) -> bool:
        return isinstance(doc_id, str) and self._find(doc_id) is not None

    def ids(self) -> list[str]:
        """The ids of every live document, sorted."""
        return sorted(
            record[0]
            for segment in self._segments
            for number, record in segment.all_records()
            if number not in self._dead
        )

    def hit(self, doc_id: str, score: float) -> Hit | None:
        """The Hit for one live document with the given score (None if the index lacks it).

        For callers that rank with signals of their own, such as gitmem.recall.semantic.
        """
        number = self._find(doc_id)
        if number is None:
            return None
        return _hit(self._segment_of(number).record(number), score)

    def segment_count(self) -> int:
        """How many segments the index holds (the log-structured policy keeps it O(log n))."""
        return len(self._segments)

    # -- searching

    def _postings(self, term: str) -> list[array[int]]:
        found = []
        for segment in self._segments:
            postings = segment.lookup(term)
            if postings:
                found.append(postings)
        return found

    def _live_count(self, postings: list[array[int]]) -> int:
        """The document frequency: postings less those of tombstoned documents."""
        count = sum(map(len, postings))
        dead = self._dead
        if dead:
            for plist in postings:
                if len(dead) * 24 < len(plist):  # a binary search per tombstone
                    count -= sum(_contains(plist, number) is not None for number in dead)
                else:  # or one pass over the list
                    count -= sum((posting >> 8) in dead for posting in plist)
        return count

    def _segment_of(self, number: int) -> _Segment:
        for segment in self._segments:
            if segment.base <= number < segment.base + segment.n_docs:
                return segment
        raise ValueError("recall index refers to a document it does not hold")

    def search(
        self,
        query: str,
        *,
        k: int = 5,
        types: Collection[str] | None = None,
        min_score: float | None = None,
    ) -> list[Hit]:
        """At most k hits, best first (ties by id), each scoring at least min_score.

        types keeps only entries of those types (None: every type). A query with no informative
        term, or whose terms no entry matches well enough, returns [].
        """
        return self.answer(query, k=k, types=types, min_score=min_score, explain=False).hits

    def answer(
        self,
        query: str,
        *,
        k: int = 5,
        types: Collection[str] | None = None,
        min_score: float | None = None,
        explain: bool = True,
    ) -> Answer:
        """search's hits, each with its `Why` when explain is set; when there are none, the
        best candidate the gate rejected (explained), so a caller can say what came closest.

        Without min_score the gate decides (module docstring, "Gating"); with it, every entry
        scoring at least min_score is a hit (min_score 0: the ranking alone)."""
        if k <= 0 or (types is not None and not types):
            return Answer([])
        weighted = self._weigh(query)[0]
        if not any(postings for _, _, postings in weighted):
            return Answer([])
        names = self.absent_names(query)
        signals: Signals | None = None
        if min_score is not None:
            threshold = max(0.0, min(1.0, min_score))
            hits = self._ranked(weighted, k, types, threshold)
            passed = bool(hits)
        else:
            # heads reads the first HEADS_OF hits of the whole ranking: no pruning then.
            needed = 0.0 if KEYWORD_GATE.heads_weight else KEYWORD_GATE.needed(len(names))
            hits = self._ranked(weighted, max(k, HEADS_OF), types, RELATIVE_FLOOR * needed)
            if hits:
                signals = self._signals(weighted, hits, names)
            passed = signals is not None and KEYWORD_GATE.passes(signals)
            if passed:
                hits = [h for h in hits if h.score >= RELATIVE_FLOOR * hits[0].score][:k]
        rejected = None
        ranked = hits
        if not passed:
            if explain:
                ranked = hits or self._ranked(weighted, HEADS_OF, types, 0.0)
                rejected = ranked[0] if ranked else None
            hits = []
        if explain:
            top = hits[0] if hits else rejected
            if top is not None and (signals is None or signals.top != top.score):
                signals = self._signals(weighted, ranked, names)
            hits = [self.explain(query, h, min_score, signals=signals) for h in hits]
            if rejected is not None:
                rejected = self.explain(query, rejected, min_score, signals=signals)
        return Answer(hits, rejected)

    def absent_names(self, query: str) -> tuple[str, ...]:
        """The terms of the query's names (`query_names`) that no live entry holds."""
        return tuple(t for t in query_names(query) if not self._live_count(self._postings(t)))

    def signals(self, query: str, hits: Sequence[Hit]) -> Signals:
        """The gate's signals for a query whose ranked hits are hits, best first, at least
        HEADS_OF of them where there are (situation left at 0: the model's,
        gitmem.recall.semantic, adds it)."""
        return self._signals(self._weigh(query)[0], hits, self.absent_names(query))

    def _signals(
        self,
        weighted: list[tuple[float, str, list[array[int]]]],
        hits: Sequence[Hit],
        names: tuple[str, ...],
    ) -> Signals:
        """The best hit's (hits[0]) signals; heads: the best head share among hits[:HEADS_OF]."""
        head = self._head_share(weighted, hits[0].id)
        others = (self._head_share(weighted, h.id) for h in hits[1:HEADS_OF])
        return Signals(hits[0].score, head, len(names), heads=max(head, *others, 0.0))

    def _head_share(
        self, weighted: list[tuple[float, str, list[array[int]]]], doc_id: str
    ) -> float:
        """The share of the query's words (those that count towards its reach) that the entry's
        title or applies_when holds: "the entry's situation is the query's", not "some words
        of its body overlap"."""
        number = self._find(doc_id)
        if number is None or not weighted:
            return 0.0
        record = self._segment_of(number).record(number)
        head = set(self._analyzer.terms(f"{record[2]}\n{record[3]}"))
        held = sum(1 for _, term, postings in weighted if postings and term in head)
        return round(held / len(weighted), 4)

    def coverage(self, query: str) -> float:
        """The share of the query's words that some live entry holds (module docstring,
        "Gating"): a question about a topic the memory lacks is mostly words it never saw."""
        return self._weigh(query)[1]

    def _ranked(
        self,
        weighted: list[tuple[float, str, list[array[int]]]],
        k: int,
        types: Collection[str] | None,
        threshold: float,
    ) -> list[Hit]:
        reach = _reach(weighted)
        needed = threshold * reach
        scores = _accumulate([(w, p) for w, _, p in weighted if p], needed)
        cut = needed - 1e-9
        dead = self._dead
        found = [(e, number) for number, e in scores.items() if e >= cut and number not in dead]
        if types is not None:
            allowed = frozenset(types)
            found = [c for c in found if self._segment_of(c[1]).doc_type(c[1]) in allowed]
        if len(found) > k:
            # Only the best k can be hits, with every one that may tie the k-th once scores
            # are capped at 1 and rounded to 4 decimals (ties are broken by id in _top).
            kth = heapq.nlargest(k, (e for e, _ in found))[-1]
            floor = min(kth, reach) - 1e-4 * reach
            found = [c for c in found if c[0] >= floor]
        candidates = [(round(min(1.0, e / reach), 4), number) for e, number in found]
        return self._top([c for c in candidates if c[0] > 0.0], k)

    def _weigh(self, query: str) -> tuple[list[tuple[float, str, list[array[int]]]], float]:
        """(weight, term, posting lists) of the query's matched, informative terms, the weight
        being idf / idf_1 (module docstring, "Evidence"); and the query's coverage: the share
        of its words (compounds' whole forms aside) that some live entry holds."""
        n = len(self)
        weighted: list[tuple[float, str, list[array[int]]]] = []
        if n <= 0:
            return weighted, 0.0
        unit = _idf(n, 1)
        words = known = 0
        for term, whole in query_terms(query):
            postings = self._postings(term)
            df = self._live_count(postings)
            if not whole:
                words += 1
                known += df > 0
            if df == 0:
                if not whole:  # a word the memory lacks: it counts towards the reach only
                    weighted.append((1.0, term, []))
                continue
            if df >= 3 and df > COMMON_SHARE * n:
                continue
            weighted.append((_idf(n, df) / unit, term, postings))
        return weighted, (known / words if words else 0.0)

    def evidence(self, query: str, doc_ids: Iterable[str]) -> dict[str, float]:
        """The keyword evidence of each given live document for the query, however low (0 when
        it matches no term). For callers that fuse other signals with it
        (gitmem.recall.semantic)."""
        numbers = {doc_id: self._find(doc_id) for doc_id in doc_ids}
        weighted = self._weigh(query)[0]
        out = {doc_id: 0.0 for doc_id, number in numbers.items() if number is not None}
        for doc_id in out:
            number = numbers[doc_id]
            assert number is not None
            out[doc_id] = sum(w * v / 255.0 for w, _, v in self._matched(weighted, number))
        return out

    def scores(self, query: str, doc_ids: Iterable[str]) -> dict[str, float]:
        """The keyword score of each given live document for the query, however low."""
        reach = _reach(self._weigh(query)[0])
        found = self.evidence(query, doc_ids)
        return {i: round(min(1.0, e / reach), 4) if reach else 0.0 for i, e in found.items()}

    def _matched(
        self, weighted: list[tuple[float, str, list[array[int]]]], number: int
    ) -> Iterator[tuple[float, str, int]]:
        """(weight, term, quantised sat) of each weighted term document `number` holds."""
        for weight, term, postings in weighted:
            for plist in postings:
                found = _contains(plist, number)
                if found is not None:
                    yield weight, term, found & 0xFF
                    break

    def explain(
        self,
        query: str,
        hit: Hit,
        min_score: float | None = None,
        *,
        signals: Signals | None = None,
    ) -> Hit:
        """hit with its Why: the matched terms, their fields and evidence, and the gate's verdict
        (min_score as in `answer`; signals: the best hit's, which the gate read, by default
        this hit's own)."""
        number = self._find(hit.id)
        if number is None:
            return hit
        record = self._segment_of(number).record(number)
        title = set(self._analyzer.terms(record[2]))
        when = set(self._analyzer.terms(record[3]))
        terms = []
        total = 0.0
        weighted, coverage = self._weigh(query)
        for weight, term, value in self._matched(weighted, number):
            fields = tuple(
                name for name, found in (("title", title), ("applies_when", when)) if term in found
            ) or ("tags or body",)
            total += weight * value / 255.0
            terms.append(Match(term, fields, round(weight * value / 255.0, 3)))
        terms.sort(key=lambda m: (-m.evidence, m.term))
        reach = _reach(weighted)
        keyword = round(min(1.0, total / reach), 4) if reach else 0.0
        names = self.absent_names(query)
        head = self._head_share(weighted, hit.id)
        if min_score is not None:
            verdict = "passed" if hit.score >= min_score else "rejected"
            gate = f"{verdict}: keyword score {keyword:.2f} against --min-score {min_score:.2f}"
            why = Why(
                keyword,
                round(total, 3),
                tuple(terms),
                None,
                gate,
                coverage=coverage,
                head=head,
                names=names,
            )
            return replace(hit, why=why)
        if signals is None:
            signals = Signals(hit.score, head, len(names))
        why = Why(
            keyword,
            round(total, 3),
            tuple(terms),
            None,
            KEYWORD_GATE.verdict(hit.score, signals, "keyword score"),
            coverage=round(coverage, 4),
            confidence=round(KEYWORD_GATE.confidence(signals), 4),
            head=head,
            names=names,
            heads=signals.heads,
        )
        return replace(hit, why=why)

    def _top(self, candidates: list[tuple[float, int]], k: int) -> list[Hit]:
        candidates.sort(key=lambda c: -c[0])
        if len(candidates) > k:
            # Keep every candidate tied with the k-th score: ties are broken by id below.
            floor = candidates[k - 1][0]
            candidates = [c for c in candidates if c[0] >= floor]
        hits = []
        for score, number in candidates:
            hits.append(_hit(self._segment_of(number).record(number), score))
        hits.sort(key=lambda h: (-h.score, h.id))
        return hits[:k]

    # -- serialisation

    def to_bytes(self) -> bytes:
        """The index as one blob: header, tombstones, segments. See also to_parts.

        Small segments are merged on the way. Policy: the in-memory tail is merged with the
        trailing segments while the result is at least half the size of the segment before it
        and holds at most MAX_MERGE_DOCS documents (a binary-counter LSM with a cap), so an
        update's work is bounded and the segments stay few. When a quarter of the documents
        are tombstones, everything is rewritten.
        """
        segments, dead = self._frozen()
        head = _HEAD.pack(_MAGIC, _VERSION, len(segments), len(self._dead), crc32(dead))
        return b"".join([head, dead, *(segment.to_bytes() for segment in segments)])

    def to_parts(self) -> tuple[bytes, dict[str, bytes | memoryview]]:
        """The index as a small manifest and immutable segments named by their content.

        A cache keeps each segment in a file under its name, writes the segments whose names it
        lacks (after one admission: one small segment), then the manifest; from_parts reads
        them back. So an update costs one entry's work and a few kilobytes of writing, whatever
        the index's size; segments no manifest names any longer can be deleted.
        """
        segments, dead = self._frozen()
        names = "".join(segment.name for segment in segments).encode()
        crc = crc32(dead + names)
        head = _HEAD.pack(_MANIFEST_MAGIC, _VERSION, len(segments), len(self._dead), crc)
        manifest = b"".join([head, dead, names])
        return manifest, {segment.name: segment.to_bytes() for segment in segments}

    def _frozen(self) -> tuple[list[_FrozenSegment], bytes]:
        self._compact()
        segments = [s for s in self._segments if isinstance(s, _FrozenSegment)]
        if len(segments) != len(self._segments):
            raise AssertionError("compaction leaves no in-memory segment")
        return segments, _u32_bytes(sorted(self._dead))

    def _compact(self) -> None:
        segments = self._segments
        if not segments:
            return
        rewrite_all = len(self._dead) * 4 > len(self)
        if not rewrite_all and not isinstance(segments[-1], _MemSegment):
            return
        start = 0
        if not rewrite_all:
            start = len(segments) - 1
            size = segments[start].n_docs
            while (
                start > 0
                and size * 2 >= segments[start - 1].n_docs
                and size + segments[start - 1].n_docs <= MAX_MERGE_DOCS
            ):
                start -= 1
                size += segments[start].n_docs
        merged = self._merge(segments[start:], segments[start].base)
        self._segments = [*segments[:start], *([merged] if merged.n_docs else [])]

    def _merge(self, segments: list[_Segment], base: int) -> _FrozenSegment:
        """One frozen segment with the live documents of `segments`, renumbered from base.

        Without tombstones among them the numbers stay as they are (segments are contiguous),
        so posting lists are concatenated whole; otherwise every posting is renumbered.
        """
        low = segments[0].base
        high = segments[-1].base + segments[-1].n_docs
        doomed = {number for number in self._dead if low <= number < high}
        if not doomed and len(segments) == 1 and isinstance(segments[0], _MemSegment):
            return _FrozenSegment(memoryview(segments[0].to_bytes()), 0, verify=False)
        records: list[_Record] = []
        merged: dict[str, array[int]] = {}
        if not doomed:
            for segment in segments:
                records.extend(record for _, record in segment.all_records())
                for term, postings in segment.items():
                    out = merged.get(term)
                    if out is None:
                        merged[term] = array("I", postings)
                    else:
                        out.extend(postings)
        else:
            renumber: dict[int, int] = {}
            for segment in segments:
                for number, record in segment.all_records():
                    if number not in doomed:
                        renumber[number] = base + len(records)
                        records.append(record)
            for segment in segments:
                for term, postings in segment.items():
                    out = merged.setdefault(term, array("I"))
                    for posting in postings:
                        new = renumber.get(posting >> 8)
                        if new is not None:
                            out.append(new << 8 | posting & 0xFF)
            self._dead -= doomed
        terms = sorted((t, p) for t, p in merged.items() if p)
        return _FrozenSegment(memoryview(_write_segment(base, records, terms)), 0, verify=False)

    @classmethod
    def from_bytes(cls, data: bytes | bytearray | memoryview, *, verify: bool = True) -> Index:
        """Load an index written by to_bytes; ValueError when it is corrupt or of another version.

        The data is read in place, not decoded (an mmap's memoryview avoids even one copy).
        verify checks each segment's CRC-32, which reads every byte once (about 1 ms per 3 MB);
        without it, structure is still checked and corruption it misses may surface as a
        ValueError from search.
        """
        view = memoryview(data).cast("B")
        dead, n_segments, pos = _read_head(view, _MAGIC)
        index = cls()
        for _ in range(n_segments):
            if pos + _SEG_HEAD.size > len(view):
                raise ValueError("recall index is truncated")
            segment = _FrozenSegment(view, pos, verify=verify)
            index._append_loaded(segment)
            pos += segment.size
        if pos != len(view):
            raise ValueError("recall index has trailing bytes")
        index._set_dead(dead)
        return index

    @classmethod
    def from_parts(
        cls,
        manifest: bytes | bytearray | memoryview,
        segment: Callable[[str], bytes | bytearray | memoryview],
        *,
        verify: bool = True,
    ) -> Index:
        """Load an index written by to_parts; segment(name) returns a segment's bytes.

        ValueError when the manifest or a segment is corrupt, of another version, or missing
        (segment raising KeyError or OSError).
        """
        view = memoryview(manifest).cast("B")
        dead, n_segments, pos = _read_head(view, _MANIFEST_MAGIC)
        if pos + _NAME_LEN * n_segments != len(view):
            raise ValueError("recall index manifest is truncated")
        names = bytes(view[pos:]).decode("ascii")
        index = cls()
        for i in range(n_segments):
            name = names[i * _NAME_LEN : (i + 1) * _NAME_LEN]
            try:
                data = memoryview(segment(name)).cast("B")
            except (KeyError, OSError) as exc:
                raise ValueError(f"recall index segment {name} is missing") from exc
            if len(data) < _SEG_HEAD.size:
                raise ValueError(f"recall index segment {name} is truncated")
            loaded = _FrozenSegment(data, 0, verify=verify)
            if loaded.name != name or loaded.size != len(data):
                raise ValueError(f"recall index segment {name} does not match its name")
            index._append_loaded(loaded)
        index._set_dead(dead)
        return index

    def _append_loaded(self, segment: _FrozenSegment) -> None:
        expected = self._next_number()
        if segment.base != expected:
            raise ValueError("recall index segments are out of order")
        self._segments.append(segment)

    def _set_dead(self, dead: set[int]) -> None:
        if any(number >= self._next_number() for number in dead):
            raise ValueError("recall index has a tombstone past its documents")
        self._dead = dead


def _read_head(view: memoryview, magic: bytes) -> tuple[set[int], int, int]:
    """(tombstones, segment count, position after the tombstones) of a blob or manifest.

    A blob's checksum covers its tombstones (segments carry their own); a manifest's covers
    the tombstones and the segment names after them.
    """
    if len(view) < _HEAD.size:
        raise ValueError("recall index is truncated")
    found, version, n_segments, n_dead, crc = _HEAD.unpack_from(view, 0)
    if found != magic:
        raise ValueError("not a gitmem recall index")
    if version != _VERSION:
        raise IndexFormatError(f"recall index version {version}, expected {_VERSION}")
    pos = _HEAD.size
    end = pos + 4 * n_dead
    if end > len(view):
        raise ValueError("recall index is truncated")
    covered = view[pos:end] if magic == _MAGIC else view[pos:]
    if crc32(covered) != crc:
        raise ValueError("recall index header fails its checksum")
    dead = set(_u32_array(view[pos:end]))
    if len(dead) != n_dead:
        raise ValueError("recall index has repeated tombstones")
    return dead, int(n_segments), end


def _idf(n: int, df: int) -> float:
    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


def _reach(weighted: list[tuple[float, str, list[array[int]]]]) -> float:
    """What the query could reach in this memory: the weights of its terms (1 for a word no
    entry holds), at most REACH (module docstring, "Evidence")."""
    return min(REACH, sum(w for w, _, _ in weighted))


def _accumulate(weighted: list[tuple[float, list[array[int]]]], needed: float) -> dict[int, float]:
    """Sum weight * sat per document; terms too weak to reach `needed` alone are only probed.

    Max-score pruning (sat <= 1, so a term adds at most its weight): with the terms sorted by
    weight, the commonest ones whose weights sum below `needed` cannot lift a document over
    the threshold alone, so their (long) posting lists are looked up only for the candidates
    that the rarer terms produced.
    """
    weighted.sort(key=lambda item: item[0])
    probe_until = 0
    running = 0.0
    for i, (idf, _) in enumerate(weighted):
        if running + idf >= needed:
            break
        running += idf
        probe_until = i + 1
    scores: dict[int, float] = {}
    get = scores.get
    for idf, postings in weighted[probe_until:]:
        table = [v * idf / 255.0 for v in range(256)]
        for plist in postings:
            for posting in plist:
                number = posting >> 8
                scores[number] = get(number, 0.0) + table[posting & 0xFF]
    for idf, postings in weighted[:probe_until]:
        scale = idf / 255.0
        for plist in postings:
            if len(scores) * 16 < len(plist):
                for number in scores:
                    found = _contains(plist, number)
                    if found is not None:
                        scores[number] += (found & 0xFF) * scale
            else:
                for posting in plist:
                    number = posting >> 8
                    if number in scores:
                        scores[number] += (posting & 0xFF) * scale
    return scores
