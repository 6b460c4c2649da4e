"""Recall engine: analysis, ranking, gating, hostile queries, serialisation and updates."""

from __future__ import annotations

import contextlib
import mmap
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from recall_corpus import corpus
from recall_queries import MATCHING, NO_MATCH, SITUATIONS, quality

from gitmem.recall import engine as recall
from gitmem.recall.engine import (
    HEADS_OF,
    KEYWORD_GATE,
    MAX_QUERY_TERMS,
    RELATIVE_FLOOR,
    STEP_TYPES,
    Doc,
    Gate,
    Hit,
    Index,
    Signals,
    analyze,
    query_names,
    query_terms,
    stem,
)


def doc(
    id: str,
    title: str = "",
    body: str = "",
    *,
    type: str = "decision",
    applies_when: str = "",
    tags: tuple[str, ...] = (),
) -> Doc:
    return Doc(id, type, title, applies_when, tags, body, f".gitmem/entries/{type}/{id}.md")


def filler(n: int = 6) -> list[Doc]:
    """Unrelated entries, so that a test's word is not in most of a tiny index (no evidence)."""
    return [doc(f"filler-{i}", f"Unrelated note {i}", "about gardening") for i in range(n)]


@pytest.fixture(scope="module")
def labelled() -> Index:
    return Index.build(corpus())


def answers(index: Index, query: str, **kwargs: object) -> list[tuple[str, float]]:
    return [(h.id, h.score) for h in index.search(query, **kwargs)]  # type: ignore[arg-type]


# -- analysis


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("running", "run"),
        ("caresses", "caress"),
        ("ponies", "poni"),
        ("admitted", "admit"),
        ("admission", "admiss"),
        ("entries", "entri"),
        ("generously", "generous"),
        ("communities", "communiti"),
        ("relational", "relat"),
        ("hopefulness", "hope"),
        ("skies", "sky"),
        ("dying", "die"),
        ("succeeding", "succeed"),
        ("added", "add"),
        ("cry", "cri"),
        ("superseded", "supersed"),
    ],
)
def test_stem_follows_porter2(word: str, expected: str) -> None:
    assert stem(word) == expected


@pytest.mark.parametrize(
    ("british", "american"),
    [
        ("optimise", "optimize"),
        ("organisations", "organizations"),
        ("prioritising", "prioritizing"),
        ("normalisation", "normalization"),
        ("analysed", "analyzed"),
        ("behavioural", "behavioral"),
        ("favourite", "favorite"),
        ("licence", "license"),
        ("catalogue", "catalog"),
        ("centre", "center"),
        ("programmes", "programs"),
        ("judgement", "judgment"),
    ],
)
def test_british_and_american_spellings_meet_at_the_stem(british: str, american: str) -> None:
    assert stem(british) == stem(american)


def test_a_question_in_one_spelling_finds_an_entry_written_in_the_other() -> None:
    index = Index.build(
        [
            doc("uk", "Optimise the organisation's catalogue", "whilst we normalise behaviour"),
            doc("us", "Serialize the colors of the program", "an analyzer for licenses"),
            *filler(),
        ]
    )
    assert [h for h, _ in answers(index, "optimize catalog", min_score=0.0)] == ["uk"]
    assert [h for h, _ in answers(index, "normalizing behaviors", min_score=0.0)] == ["uk"]
    assert [h for h, _ in answers(index, "serialise colours", min_score=0.0)] == ["us"]
    assert [h for h, _ in answers(index, "analyser of the programme's licence", min_score=0.0)] == [
        "us"
    ]
    assert "whilst" not in analyze("whilst")  # a joining word, as "while" is


def test_a_question_typed_in_full_width_letters_finds_the_entry() -> None:
    """A full-width keyboard (CJK input methods) types `ＲＥＴＲＹ`; it is the word `RETRY`,
    in the question and in an entry alike."""
    index = Index.build(
        [
            doc("retry", "Retry payments with a backoff", "a payment provider times out"),
            doc("wide", "Ｃａｃｈｅ the ｆｅａｔｕｒｅ flags", "reading flags on every request"),
            *filler(),
        ]
    )
    assert [h for h, _ in answers(index, "ＲＥＴＲＹ", min_score=0.0)][:1] == ["retry"]
    assert [h for h, _ in answers(index, "cache feature", min_score=0.0)][:1] == ["wide"]


def test_words_spelt_alike_in_both_stay_apart() -> None:
    assert len({stem(w) for w in ("four", "for", "your", "hour", "tour", "genre", "rise")}) == 7
    assert stem("advise") == stem("advised") == stem("advising")
    assert stem("advise") != stem("advice")


def test_morphology_meets_at_the_stem() -> None:
    assert stem("deploying") == stem("deployed") == stem("deploys") == stem("deployment")[:6]
    assert analyze("Migrations migrate") == [stem("migrations"), stem("migrate")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("memory_push", ["memory_push", "memori", "push"]),
        ("code-structure", ["code-structure", "code", "structur"]),
        ("GitmemError", ["gitmemerror", "gitmem", "error"]),
        ("camelCase", ["camelcase", "camel", "case"]),
        ("snake_case", ["snake_case", "snake", "case"]),
        ("gitmem.store", ["gitmem.store", "gitmem", "store"]),
        ("HTTPServer", ["httpserver", "http", "server"]),
        ("APIs", ["api"]),
        ("__init__", ["init"]),
        ("the GitmemError.", ["gitmemerror", "gitmem", "error"]),
    ],
)
def test_identifiers_are_indexed_whole_and_in_parts(text: str, expected: list[str]) -> None:
    assert analyze(text) == expected


def test_identifier_parts_find_and_are_found() -> None:
    index = Index.build(
        [
            doc("a", "MCP tools", "memory_push returns the candidate id"),
            doc("b", "Errors", "raise GitmemError subclasses"),
            doc("c", "Other", "nothing to see here"),
        ]
    )
    for query in ("memory_push", "memory push", "MemoryPush", "pushing memories"):
        assert [h.id for h in index.search(query, min_score=0.3)] == ["a"], query
    for query in ("GitmemError", "gitmem error", "gitmem_error"):
        assert [h.id for h in index.search(query, min_score=0.3)] == ["b"], query


def test_query_terms_are_distinct_and_capped() -> None:
    assert query_terms("memory_push Memory memory") == [
        ("memory_push", True),
        ("memori", False),
        ("push", False),
    ]
    many = " ".join(f"word{i}" for i in range(500))
    assert len(query_terms(many)) == MAX_QUERY_TERMS


# -- ranking


def test_title_match_beats_body_only_match() -> None:
    index = Index.build(
        [
            doc("a-body", "Deployment checklist", "remember the terraform plan output"),
            doc("z-title", "Terraform state locking", "keep one writer at a time"),
        ]
    )
    hits = index.search("terraform", min_score=0.0)
    assert [h.id for h in hits] == ["z-title", "a-body"]
    assert hits[0].score == pytest.approx(3 / 4.2, abs=0.01)  # one title word, saturated
    assert 0.0 < hits[1].score < hits[0].score


def test_applies_when_and_tags_weigh_more_than_the_body() -> None:
    index = Index.build(
        [
            doc("body", "Something", "about caching in general"),
            doc("tags", "Something", tags=("caching",)),
            doc("when", "Something", applies_when="adding caching to a view"),
            *filler(),
        ]
    )
    ranked = [h.id for h in index.search("caching", min_score=0.0)]
    assert ranked[-1] == "body"
    assert set(ranked) == {"body", "tags", "when"}


def test_ties_are_ordered_by_id() -> None:
    docs = [doc(i, "Use pygit2 in hooks") for i in ("c-3", "a-1", "b-2")]
    hits = Index.build(docs + filler()).search("pygit2 hooks", min_score=0.3)
    assert [h.id for h in hits] == ["a-1", "b-2", "c-3"]
    assert len({h.score for h in hits}) == 1


def test_k_bounds_the_results() -> None:
    index = Index.build([doc(f"d{i:02}", f"Redis cache note {i}") for i in range(12)] + filler(20))
    assert len(index.search("redis", k=5, min_score=0.3)) == 5
    assert len(index.search("redis", k=3, min_score=0.3)) == 3
    assert len(index.search("redis", k=50, min_score=0.3)) == 12
    assert index.search("redis", k=0) == []


def test_types_filter() -> None:
    index = Index.build(
        [
            doc("d", "Retry payment calls", type="decision"),
            doc("m", "Retry payment calls", type="mistake"),
            doc("s", "Retry payment calls", type="code-structure"),
            *filler(),
        ]
    )
    query = "retry payment"
    assert [h.id for h in index.search(query, types=["mistake"])] == ["m"]
    assert [h.id for h in index.search(query, types=STEP_TYPES["plan"])] == ["d", "s"]
    assert index.search(query, types=[]) == []
    assert len(index.search(query, types=None)) == 3


def test_hit_carries_the_entry_fields() -> None:
    entry = doc("x", "Use UTC", applies_when="storing times in UTC", type="decision")
    hits = Index.build([entry]).search("utc")
    assert hits == [Hit("x", "decision", "Use UTC", "storing times in UTC", entry.path, 0.8314)]


def test_answer_explains_hits_and_the_best_rejected(labelled: Index) -> None:
    found = labelled.answer("which AWS region do we host in")
    assert found.hits and found.rejected is None
    why = found.hits[0].why
    assert (
        why is not None
        and "from the best keyword score" in why.gate
        and why.gate.startswith("passed")
    )
    assert why.confidence is not None and why.confidence >= 0.5 and why.coverage == 1.0
    assert {m.term for m in why.terms} >= {"region"}
    assert all(m.fields and m.evidence > 0 for m in why.terms)
    empty = labelled.answer("Kafka consumer rebalancing")
    assert empty.hits == [] and empty.rejected is not None
    assert empty.rejected.why is not None and empty.rejected.why.gate.startswith("rejected")
    assert empty.rejected.why.confidence is not None and empty.rejected.why.confidence < 0.5
    assert labelled.answer("the of and").rejected is None


def test_step_types() -> None:
    assert STEP_TYPES == {
        "spec": ("decision", "method"),
        "plan": ("decision", "code-structure"),
        "batch": ("code-structure", "mistake"),
        "audit": ("code-structure", "mistake"),
        "correction": ("mistake",),
    }


# -- gating


def test_scores_lie_in_zero_one(labelled: Index) -> None:
    for query, _ in MATCHING:
        for hit in labelled.search(query, k=20, min_score=0.0):
            assert 0.0 < hit.score <= 1.0


def test_common_words_alone_are_no_match(labelled: Index) -> None:
    # "context", "content" and "evidence" head every entry's sections.
    assert labelled.search("context content evidence") == []
    assert labelled.search("what is the context and the evidence") == []


def test_absent_topic_returns_nothing(labelled: Index) -> None:
    assert labelled.search("Kafka consumer rebalancing") == []


def test_labelled_set_size() -> None:
    assert len(corpus()) >= 60
    assert len(MATCHING) + len(SITUATIONS) >= 40
    assert len(NO_MATCH) >= 20
    ids = {d.id for d in corpus()}
    for _, right in MATCHING + SITUATIONS:
        assert right <= ids


def test_keyword_quality(labelled: Index) -> None:
    """Floors one question under what bench/recall.py --quality measures on the project's own
    set with keywords alone (paraphrased hit@5 0.95, all 0.83, no-match empty 0.96)."""
    figures = quality(labelled.search)
    assert figures["matching hit@5"] >= 0.93
    assert figures["all hit@5"] >= 0.82
    assert figures["no-match empty"] >= 0.92


def test_keyword_quality_on_the_development_set() -> None:
    """Keywords alone on records nobody here wrote: floors one question under what
    bench/recall.py --quality prints for the report part (hit@5 0.84, situations 0.68,
    no-match empty 0.85; the issue's targets, 0.85, 0.7 and 0.9, are missed)."""
    from recall_dev import corpus as dev_corpus
    from recall_dev import report_figures

    figures = report_figures(Index.build(dev_corpus()).search)
    assert figures["hit@5"] >= 0.82
    assert figures["situations hit@5"] >= 0.64
    assert figures["no-match empty"] >= 0.8


def test_the_gate_judges_the_query_and_keeps_the_hits_near_the_best(labelled: Index) -> None:
    """Nothing comes back when the best candidate fails the gate, however many there are; when
    it passes, the hits are those within RELATIVE_FLOOR of the best."""
    loose = labelled.search("Kafka consumer rebalancing", min_score=0.0)
    assert loose and not KEYWORD_GATE.passes(labelled.signals("Kafka consumer rebalancing", loose))
    assert labelled.search("Kafka consumer rebalancing") == []
    answer = labelled.answer("Kafka consumer rebalancing")
    assert answer.rejected is not None and answer.rejected.id == loose[0].id
    ranked = labelled.search("pygit2 inside git hooks", k=20, min_score=0.0)
    hits = labelled.search("pygit2 inside git hooks", k=20)
    assert KEYWORD_GATE.passes(labelled.signals("pygit2 inside git hooks", ranked))
    assert hits == [h for h in ranked if h.score >= RELATIVE_FLOOR * ranked[0].score]
    assert len(hits) < len(ranked)


def test_query_names_are_the_words_that_make_a_question_specific() -> None:
    assert query_names("How do we write XCTest unit tests for the Swift app?") == [
        "xc",
        "test",
        "swift",
    ]
    assert query_names("Kafka lag. Retry CI jobs on v2") == ["ci", "v2"]
    assert query_names("how do we retry payment calls") == []


def test_a_name_no_entry_holds_turns_a_near_topic_question_away() -> None:
    """The near-topic trap: a general entry matches the question's words but its name
    ("Swift"), which no entry holds. The same words with "swift" as a plain word pass."""
    entry = doc(
        "unit",
        "Write unit tests for every module",
        applies_when="writing unit tests",
        body="Unit tests run on every push and document behaviour.",
    )
    others = [doc("push", "Run the tests on every push"), doc("work", "Unit of work pattern")]
    index = Index.build([entry, *others, *filler()])
    plain = index.answer("unit tests in swift")
    assert [h.id for h in plain.hits] == ["unit"]
    trap = index.answer("unit tests in Swift")
    assert trap.hits == [] and trap.rejected is not None and trap.rejected.id == "unit"
    why = trap.rejected.why
    assert why is not None and why.names == ("swift",) and "names in the query" in why.gate
    signals = index.signals("unit tests in Swift", [trap.rejected])
    assert signals.names == 1 and signals.head == round(2 / 3, 4)  # unit, test of 3 words
    assert signals.top == plain.hits[0].score


@settings(deadline=None)  # a loaded machine can stall one example; the checks do not time
@given(
    st.floats(0, 1),
    st.floats(0, 1),
    st.integers(0, 4),
    st.floats(0, 1),
    st.floats(0, 1),
    st.lists(st.floats(-30, 30), min_size=6, max_size=6),
)
def test_a_gate_never_passes_a_best_score_under_its_bound(
    top: float, head: float, names: int, situation: float, heads: float, weights: list[float]
) -> None:
    """Gate.needed prunes the search: no signals pass with a best score below it."""
    gate = Gate(abs(weights[0]) + 0.1, *weights[1:])
    if gate.passes(Signals(top, head, names, situation, max(head, heads))):
        assert top >= gate.needed(names) - 1e-9


def test_the_head_share_counts_the_query_words_in_the_title_or_applies_when() -> None:
    entry = doc("x", "Retry payment calls", applies_when="a payment provider times out")
    index = Index.build([entry, *filler()])
    hit = index.search("retry payment after a timeout", min_score=0.0)[0]
    assert index.signals("retry payment after a timeout", [hit]).head == round(2 / 3, 4)
    assert index.signals("retry payment", [hit]).head == 1.0


def test_heads_reads_the_best_head_share_among_the_first_hits() -> None:
    """A precedent ranked below a body-only match still says, by its head, that the query's
    situation is known: heads is the best head share among the first HEADS_OF hits, and the
    best hit's own share stays in head. A sixth hit's head is not read."""
    body_only = doc("a", "Batch jobs", body="retry payment timeout " * 3)
    precedent = doc("b", "Retry payment calls", applies_when="a payment provider times out")
    index = Index.build([body_only, precedent, *filler()])
    query = "retry payment after a timeout"
    ranked = index.search(query, k=10, min_score=0.0)
    assert [h.id for h in ranked[:2]] == ["a", "b"]
    read = index.signals(query, ranked)
    assert read.head == 0.0 and read.heads == round(2 / 3, 4)
    assert index.signals(query, ranked[:1]).heads == 0.0
    sixth = [ranked[0]] * HEADS_OF + [ranked[1]]
    assert index.signals(query, sixth).heads == 0.0
    answer = index.answer(query)
    top = answer.hits[0] if answer.hits else answer.rejected
    assert top is not None and top.why is not None and top.why.heads == read.heads
    assert f"among the first {HEADS_OF} hits, {read.heads:.2f}" in top.why.gate


# -- hostile queries


@pytest.mark.parametrize(
    "query",
    ["", " ", '"', "*", "-", ":", '"*" - :', "()", "AND OR NOT", "\x00\n\t", "é", "'", "\\"],
)
def test_syntax_is_just_text(labelled: Index, query: str) -> None:
    assert labelled.search(query) == []


def test_operator_words_are_plain_words(labelled: Index) -> None:
    # NEAR is no operator: it finds what the word "near" finds, with or without punctuation.
    assert answers(labelled, '"*" NEAR - :') == answers(labelled, "near")
    assert answers(labelled, "midnight NOT") == answers(labelled, "midnight")


def test_stop_words_and_punctuation_return_nothing(labelled: Index) -> None:
    assert labelled.search("how do we do it? what is the way, and why...") == []
    assert labelled.search("!!! ??? ... --- ***") == []


class _CountedToken:
    """The token pattern, counting the characters it is given to scan."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.chars = 0

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        self.chars += len(text)
        return self.pattern.finditer(text)

    def findall(self, text: str) -> list[Any]:
        self.chars += len(text)
        return self.pattern.findall(text)


def test_huge_query_is_bounded(labelled: Index, monkeypatch: pytest.MonkeyPatch) -> None:
    """A query is read up to MAX_QUERY_CHARS, so any input costs bounded work. The work is
    counted, not timed (a timed bound fails on a loaded machine): the characters handed to
    the token pattern, 80,403 for these three queries (each read at most twice, for its
    terms and its names), where reading them whole scans 724,403."""
    token = _CountedToken(recall._TOKEN)
    monkeypatch.setattr(recall, "_TOKEN", token)
    query = ("terraform " + "x" * 50 + " ") * 2000 + "zzz " * 20_000
    assert len(query) > 100_000
    labelled.search(query)
    labelled.search("a" * 200_000)
    labelled.search("the " * 30_000)
    # three queries, each scanned at most twice, 20,000 characters (the cap) at a time
    assert 0 < token.chars <= 3 * 2 * 20_000, token.chars


def test_empty_index() -> None:
    index = Index.build([])
    assert index.search("anything") == []
    assert Index.from_bytes(index.to_bytes()).search("anything") == []


# -- serialisation


def test_round_trip_gives_the_same_answers(labelled: Index) -> None:
    data = labelled.to_bytes()
    loaded = Index.from_bytes(data)
    assert loaded.to_bytes() == data
    assert loaded.ids() == labelled.ids() == sorted(d.id for d in corpus())
    for query, _ in MATCHING[:20]:
        assert answers(loaded, query, k=10) == answers(labelled, query, k=10)
    assert data.startswith(b"GITMEM-RECALL\x00")


def test_from_bytes_refuses_truncated_data(labelled: Index) -> None:
    data = labelled.to_bytes()
    rng = random.Random(7)
    cuts = [0, 1, 10, 20, len(data) - 1, *rng.sample(range(len(data)), 60)]
    for cut in cuts:
        with pytest.raises(ValueError):
            Index.from_bytes(data[:cut])


def test_from_bytes_refuses_garbage_and_other_versions(labelled: Index) -> None:
    data = labelled.to_bytes()
    rng = random.Random(11)
    for _ in range(50):
        with pytest.raises(ValueError):
            Index.from_bytes(rng.randbytes(rng.randrange(1, 4000)))
    with pytest.raises(ValueError):
        Index.from_bytes(data[:14] + b"\x63\x00" + data[16:])
    with pytest.raises(ValueError):
        Index.from_bytes(data + b"x")


def test_from_bytes_detects_flipped_bytes(labelled: Index) -> None:
    data = bytearray(labelled.to_bytes())
    rng = random.Random(3)
    for _ in range(40):
        spoilt = bytearray(data)
        spoilt[rng.randrange(24, len(spoilt))] ^= 0x55
        with pytest.raises(ValueError):
            Index.from_bytes(bytes(spoilt))


# -- updates


def test_add_and_remove_equal_a_rebuild() -> None:
    docs = list(corpus())
    rng = random.Random(5)
    rng.shuffle(docs)
    keep, extra = docs[:90], docs[90:]
    gone = [d.id for d in keep[:15]]
    expected = Index.build([d for d in keep if d.id not in gone] + extra)

    index = Index.build(keep[:60])
    for d in keep[60:]:
        index.add(d)
    index = Index.from_bytes(index.to_bytes())
    for d in extra[:10]:
        index.add(d)
        index = Index.from_bytes(index.to_bytes())  # one admission at a time, as the cache does
    for doc_id in gone:
        index.remove(doc_id)
    index = Index.from_bytes(index.to_bytes())
    for d in extra[10:]:
        index.add(d)
    index.remove("not-there")

    assert index.ids() == expected.ids()
    assert len(index) == len(expected)
    for query, _ in MATCHING:
        assert answers(index, query, k=8, min_score=0.0) == answers(
            expected, query, k=8, min_score=0.0
        ), query
    reloaded = Index.from_bytes(index.to_bytes())
    for query, _ in MATCHING:
        assert answers(reloaded, query, k=8) == answers(expected, query, k=8), query


def test_add_replaces_an_entry_with_the_same_id() -> None:
    index = Index.build([doc("a", "Use Redis for sessions")])
    index.add(doc("a", "Use Postgres for sessions"))
    assert [h.title for h in index.search("postgres sessions")] == ["Use Postgres for sessions"]
    assert index.search("redis") == []
    assert len(index) == 1
    loaded = Index.from_bytes(index.to_bytes())
    loaded.add(doc("a", "Use Memcached for sessions"))
    assert [h.title for h in loaded.search("memcached sessions")] == ["Use Memcached for sessions"]
    assert "a" in loaded and len(loaded) == 1


def test_segments_stay_few_over_many_single_updates() -> None:
    index = Index.build([doc(f"base-{i:03}", f"Topic {i} alpha") for i in range(64)])
    data = index.to_bytes()
    for i in range(40):
        index = Index.from_bytes(data)
        index.add(doc(f"new-{i:03}", f"Topic {i} beta"))
        data = index.to_bytes()
    loaded = Index.from_bytes(data)
    assert len(loaded) == 104
    assert len(loaded.search("beta", k=100, min_score=0.3)) == 40
    assert loaded.segment_count() <= 8


# -- manifest and segments (what the cache layer stores)


def test_parts_round_trip_and_one_admission_writes_one_small_segment(tmp_path: Path) -> None:
    store: dict[str, bytes] = {}

    def save(index: Index) -> bytes:
        manifest, segments = index.to_parts()
        for name, data in segments.items():
            store.setdefault(name, bytes(data))
        return manifest

    docs = list(corpus())
    manifest = save(Index.build(docs[:100]))
    assert len(store) == 1
    base_size = len(next(iter(store.values())))
    for d in docs[100:]:
        before = set(store)
        index = Index.from_parts(manifest, store.__getitem__)
        index.add(d)
        manifest = save(index)
        written = set(store) - before
        assert len(written) == 1
        assert len(store[written.pop()]) < base_size / 2  # small segments merge, the base stays
    index = Index.from_parts(manifest, store.__getitem__)
    expected = Index.build(docs)
    for query, _ in MATCHING:
        assert answers(index, query) == answers(expected, query)
    assert Index.from_bytes(index.to_bytes()).ids() == expected.ids()


def test_from_parts_refuses_missing_mismatched_or_corrupt_parts() -> None:
    manifest, segments = Index.build(corpus()).to_parts()
    name = next(iter(segments))
    data = bytes(segments[name])
    with pytest.raises(ValueError, match="missing"):
        Index.from_parts(manifest, {}.__getitem__)
    with pytest.raises(ValueError):
        Index.from_parts(manifest, lambda _: data[:-1])
    _, other = Index.build(corpus()[:10]).to_parts()
    with pytest.raises(ValueError):
        Index.from_parts(manifest, lambda _: bytes(next(iter(other.values()))))
    for cut in range(len(manifest)):
        with pytest.raises(ValueError):
            Index.from_parts(manifest[:cut], lambda _: data)
    spoilt = bytearray(manifest)
    spoilt[-1] ^= 1
    with pytest.raises(ValueError):
        Index.from_parts(bytes(spoilt), lambda _: data)
    with pytest.raises(ValueError):
        Index.from_bytes(manifest)  # a manifest is not a blob, and the other way round
    with pytest.raises(ValueError):
        Index.from_parts(Index.build(corpus()).to_bytes(), lambda _: data)


def test_index_loads_from_a_memory_map(tmp_path: Path) -> None:
    path = tmp_path / "recall.idx"
    path.write_bytes(Index.build(corpus()).to_bytes())
    with path.open("rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
        index = Index.from_bytes(memoryview(mapped))
        assert [h.id for h in index.search("which AWS region do we host in")][:1] == [
            "govuk-aws-0002"
        ]
        del index


def test_merges_are_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(recall, "MAX_MERGE_DOCS", 8)
    index = Index.build(corpus()[:50])
    data = index.to_bytes()
    for d in corpus()[50:90]:
        index = Index.from_bytes(data)
        index.add(d)
        data = index.to_bytes()
    index = Index.from_bytes(data)
    sizes = [s.n_docs for s in index._segments]
    assert sizes[0] == 50 and max(sizes[1:]) <= 8 and sum(sizes) == 90
    assert answers(index, "which AWS region do we host in") == answers(
        Index.build(corpus()[:90]), "which AWS region do we host in"
    )


def test_scores_of_given_entries_match_search(labelled: Index) -> None:
    for query, _ in MATCHING[:15]:
        hits = labelled.search(query, k=10, min_score=0.0)
        given = labelled.scores(query, [h.id for h in hits] + ["not-there"])
        assert given == {h.id: h.score for h in hits}
    assert labelled.scores("", ["utc"]) == {"utc": 0.0}
    assert labelled.hit("utc", 0.5) == Hit(
        "utc",
        "decision",
        "Store timestamps in UTC and convert only for display",
        "storing or comparing dates and times",
        ".gitmem/entries/decision/utc.md",
        0.5,
    )
    assert labelled.hit("not-there", 0.5) is None


# -- property tests: any text is a query, any bytes are refused cleanly


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(query=st.text(max_size=300), k=st.integers(min_value=-2, max_value=8))
def test_any_text_is_a_query(labelled: Index, query: str, k: int) -> None:
    hits = labelled.search(query, k=k)
    assert len(hits) <= max(k, 0)
    assert all(0.0 < h.score <= 1.0 for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=600))
def test_any_bytes_load_or_raise_value_error(data: bytes) -> None:
    for blob in (data, b"GITMEM-RECALL\x00\x01\x00" + data):
        with contextlib.suppress(ValueError):
            Index.from_bytes(blob)
