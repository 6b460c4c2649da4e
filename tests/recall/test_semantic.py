"""Semantic recall (the gitmem[semantic] extra): the pure-Python tokenizer against `tokenizers`,
embedding, the sign-plane shortlist against exact ranking, storage, and fused search quality."""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from recall_corpus import corpus
from recall_queries import MATCHING, NO_MATCH, SITUATIONS, quality

from gitmem.errors import GitmemError
from gitmem.recall import semantic
from gitmem.recall.engine import Doc, Hit, Index

from conftest import git

needs_extra = pytest.mark.skipif(not semantic.available(), reason="gitmem[semantic] not installed")


@pytest.fixture(scope="module")
def labelled() -> Index:
    return Index.build(corpus())


@pytest.fixture(scope="module")
def vectors() -> semantic.Vectors:
    return semantic.Vectors.build(corpus())


# -- embedding


@needs_extra
def test_one_entry_embedding_equals_the_batch_build(vectors: semantic.Vectors) -> None:
    """embed_doc (an admission) and Vectors.build (batches) agree: the int8 model quantises
    each batch's activations together, so the rows differ in the last digits only."""
    for d in corpus()[:20]:
        query = semantic.embed_query(f"{d.title} {d.applies_when}")
        assert query is not None
        found = vectors.cosine(query, d.id)
        assert found is not None and abs(found - semantic.cosine_of(query, d)) < 0.01


@needs_extra
def test_similar_texts_are_nearer_than_unrelated_ones() -> None:
    """The model really runs: a paraphrase is nearer than an unrelated question."""
    entry = semantic.embed_query("Retry payment calls with an idempotency key")
    near = semantic.embed_query("is it safe to send the charge request again after a timeout")
    far = semantic.embed_query("how do I bake sourdough bread at home")
    assert entry is not None and near is not None and far is not None
    cosine = [sum(x * y for x, y in zip(entry, other, strict=True)) for other in (near, far)]
    assert cosine[0] > cosine[1] + 0.1
    assert semantic.embed_query('"*" - :') is None


@needs_extra
def test_a_changed_model_file_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The weights are pinned by SHA-256 and checked at load time: another file never runs."""
    fake = tmp_path / "minilm-tokenizer.json"
    fake.write_text("{}")
    monkeypatch.setattr(semantic, "_file", lambda spec: fake)
    with pytest.raises(semantic.SemanticUnavailable, match="not the pinned file"):
        semantic._verified(semantic._TOKENIZER_FILE)
    with pytest.raises(semantic.SemanticUnavailable, match="not the pinned file"):
        semantic._verified(semantic._MODEL_FILE)


@needs_extra
@pytest.mark.parametrize("changed", ["model", "tokenizer"])
def test_a_changed_file_stops_the_model_load(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, changed: str
) -> None:
    """The model file is verified, and its session made, in a thread beside the imports: a
    refusal of either file still reaches the caller, and no thread is left behind."""
    spec = semantic._MODEL_FILE if changed == "model" else semantic._TOKENIZER_FILE
    fake = tmp_path / spec[1]
    fake.write_bytes(b"{}")
    real = semantic._file
    monkeypatch.setattr(semantic, "_file", lambda s: fake if s is spec else real(s))
    with pytest.raises(semantic.SemanticUnavailable, match="not the pinned file"):
        semantic._Model()
    assert not [t for t in threading.enumerate() if t.name == "gitmem-model-session"]


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(min_value=1, max_value=300),
    weights=st.lists(st.integers(min_value=0, max_value=7), min_size=1, max_size=40),
    seed=st.integers(min_value=0, max_value=2**32),
    size=st.integers(min_value=1, max_value=320),
)
def test_bit_sliced_sums_and_select_are_exact(
    n: int, weights: list[int], seed: int, size: int
) -> None:
    rng = random.Random(seed)
    planes = [rng.getrandbits(n) for _ in weights]
    buckets: list[list[int]] = [[] for _ in range(3)]
    for weight, plane in zip(weights, planes, strict=True):
        for bit in range(3):
            if weight >> bit & 1:
                buckets[bit].append(plane)
    counters = semantic._add_up(buckets)
    expected = [
        sum(w for w, p in zip(weights, planes, strict=True) if p >> i & 1) for i in range(n)
    ]
    got = [sum((c >> i & 1) << j for j, c in enumerate(counters)) for i in range(n)]
    assert got == expected
    live = rng.getrandbits(n)
    chosen = semantic._select(counters, live, size, n)
    alive = [i for i in range(n) if live >> i & 1]
    assert len(chosen) == len(set(chosen)) == min(size, len(alive))
    assert set(chosen) <= set(alive)
    if chosen and len(chosen) < len(alive):
        worst = min(expected[i] for i in chosen)
        assert all(expected[i] <= worst for i in alive if i not in chosen)
    assert semantic._bits(live, n) == alive


@needs_extra
def test_shortlist_keeps_the_exact_nearest(monkeypatch: pytest.MonkeyPatch) -> None:
    """With tiny chunks and shortlists the planes do real work on the labelled set: the
    shortlist holds nearly all of the exact top 10, and the fused quality holds."""
    exact = semantic.Vectors.build(corpus())
    monkeypatch.setattr(semantic, "EXACT_ROWS", 16)
    monkeypatch.setattr(semantic, "SHORTLIST", 40)
    monkeypatch.setattr(semantic, "MIN_SHORTLIST", 10)
    docs = corpus()
    planed = semantic.Vectors()
    store: dict[str, bytes] = {}
    manifest = b""
    for start in range(0, len(docs), 50):  # a few chunks, each with planes
        for d in docs[start : start + 50]:
            planed.set(d.id, semantic.embed_doc(d))
        manifest, chunks = planed.to_parts()
        store.update(chunks)
        planed = semantic.Vectors.from_parts(manifest, store.__getitem__)
    assert len(planed._chunks) >= 2 and all(c.plane_size for c in planed._chunks)
    found = total = 0
    for query, _ in MATCHING + SITUATIONS:
        vector = semantic.embed_query(query)
        assert vector is not None
        truth = {i for _, i in exact.nearest(vector, 10)[0][:10]}
        shortlisted = {i for _, i in planed.nearest(vector, 10)[0]}
        found += len(truth & shortlisted)
        total += len(truth)
    print(f"shortlist kept {found} of the exact top 10 ({total})")
    assert found / total >= 0.9
    index = Index.build(docs)
    assert quality(lambda q: semantic.search(index, planed, q)) == quality(
        lambda q: semantic.search(index, exact, q)
    )


# -- storage


@needs_extra
def test_vectors_round_trip_and_one_entry_updates(vectors: semantic.Vectors) -> None:
    data = vectors.to_bytes()
    loaded = semantic.Vectors.from_bytes(data)
    assert loaded.to_bytes() == data and len(loaded) == len(corpus())
    entry = corpus()[0]
    assert semantic.embed_doc(entry) == semantic.embed_doc(entry)
    loaded.remove(entry.id)
    assert entry.id not in loaded and len(loaded) == len(corpus()) - 1
    loaded.remove("not-there")
    loaded.set(entry.id, semantic.embed_doc(entry))
    assert entry.id in loaded and loaded.to_bytes() == data
    for cut in (0, 10, 40, len(data) - 1):
        with pytest.raises(ValueError):
            semantic.Vectors.from_bytes(data[:cut])
    with pytest.raises(ValueError):
        semantic.Vectors.from_bytes(data.replace(semantic.MODEL.encode(), b"x" * 25, 1))
    with pytest.raises(ValueError, match="a vector has"):
        loaded.set("short", b"\x00")
    with pytest.raises(ValueError, match="NUL"):
        loaded.set("a\x00b", semantic.embed_doc(entry))


@needs_extra
def test_an_older_format_is_refused_so_the_cache_rebuilds(vectors: semantic.Vectors) -> None:
    data = bytearray(vectors.to_bytes())
    struct.pack_into("<H", data, 15, 1)  # the version field of the first format
    with pytest.raises(ValueError):
        semantic.Vectors.from_bytes(bytes(data))
    manifest, chunks = semantic.Vectors.from_bytes(vectors.to_bytes()).to_parts()
    old = bytearray(manifest)
    struct.pack_into("<H", old, 15, 1)
    with pytest.raises(ValueError):
        semantic.Vectors.from_parts(bytes(old), chunks.__getitem__)


@needs_extra
def test_vector_parts_write_one_small_chunk_per_admission(vectors: semantic.Vectors) -> None:
    store: dict[str, bytes] = {}

    def save(v: semantic.Vectors) -> bytes:
        manifest, chunks = v.to_parts()
        for name, data in chunks.items():
            store.setdefault(name, data)
        return manifest

    docs = corpus()
    first = semantic.Vectors()
    for d in docs[:100]:
        first.set(d.id, semantic.embed_doc(d))
    manifest = save(first)
    base = max(len(data) for data in store.values())
    for d in docs[100:]:
        before = set(store)
        loaded = semantic.Vectors.from_parts(manifest, store.__getitem__)
        loaded.add(d)
        loaded.remove(docs[0].id)
        manifest = save(loaded)
        (written,) = set(store) - before
        assert len(store[written]) < base / 2
    final = semantic.Vectors.from_parts(manifest, store.__getitem__)
    expected = semantic.Vectors.from_bytes(vectors.to_bytes())
    expected.remove(docs[0].id)
    assert final.to_bytes() == expected.to_bytes()
    assert len(final) == len(docs) - 1 and docs[0].id not in final
    with pytest.raises(ValueError, match="missing"):
        semantic.Vectors.from_parts(manifest, {}.__getitem__)
    with pytest.raises(ValueError):
        semantic.Vectors.from_parts(manifest[:-1], store.__getitem__)
    with pytest.raises(ValueError):
        semantic.Vectors.from_parts(manifest, lambda name: store[name][:-1])


@needs_extra
def test_replaced_and_removed_rows_stay_dead_across_saves() -> None:
    """The manifest lists the rows later chunks replaced; search never sees a stale row."""
    docs = corpus()[:30]
    store: dict[str, bytes] = {}
    vectors = semantic.Vectors()
    for d in docs:
        vectors.add(d)
    manifest, chunks = vectors.to_parts()
    store.update(chunks)
    loaded = semantic.Vectors.from_parts(manifest, store.__getitem__)
    moved = Doc(docs[0].id, "method", "Bake sourdough bread", "baking", (), "flour water", "p")
    loaded.add(moved)
    loaded.remove(docs[1].id)
    manifest, chunks = loaded.to_parts()
    store.update(chunks)
    again = semantic.Vectors.from_parts(manifest, store.__getitem__)
    assert len(again) == 29 and docs[1].id not in again and docs[0].id in again
    vector = semantic.embed_query("bake sourdough bread with flour")
    assert vector is not None
    nearest, _ = again.nearest(vector, 100)
    ids = [i for _, i in nearest]
    assert ids[0] == docs[0].id and len(ids) == len(set(ids)) == 29
    assert again.cosine(vector, docs[0].id) == nearest[0][0]
    assert again.cosine(vector, docs[1].id) is None


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=600))
def test_any_bytes_load_or_raise_value_error(data: bytes) -> None:
    head = struct.pack("<15sHHII", b"GITMEM-VECTORS\x00", 2, 25, 256, 1) + semantic.MODEL.encode()
    for blob in (data, head + data):
        with contextlib.suppress(ValueError):
            semantic.Vectors.from_bytes(blob)
        with contextlib.suppress(ValueError):
            semantic.Vectors.from_parts(blob, lambda _: head + data)


# -- fused search


@needs_extra
def test_semantic_quality(labelled: Index, vectors: semantic.Vectors) -> None:
    """Floors one question under what bench/recall.py --quality measures on the project's own
    set (hit@5 0.91, situations 0.80, no-match empty 0.96): the model must keep paying (it
    finds seven situations more than keywords alone, 28 of 35 against 21)."""
    bodies = {d.id: d.body for d in corpus()}
    figures = quality(
        lambda q: semantic.search(labelled, vectors, q, body_of=lambda h: bodies.get(h.id))
    )
    assert figures["all hit@5"] >= 0.90
    assert figures["situations hit@5"] >= 0.77
    assert figures["no-match empty"] >= 0.92
    assert figures["situations hit@5"] >= quality(labelled.search)["situations hit@5"] + 6 / 35


@needs_extra
def test_semantic_quality_on_the_development_set() -> None:
    """With the model, on records nobody here wrote: floors one question under what
    bench/recall.py --quality prints for the report part (hit@1 0.86, hit@5 0.89, situations
    0.79, no-match empty 0.85; the issue's targets for hit@5, situations and no-match, 0.92,
    0.85 and 0.9, are missed)."""
    from recall_dev import corpus as dev_corpus
    from recall_dev import report_figures

    index = Index.build(dev_corpus())
    vectors = semantic.Vectors.build(dev_corpus())
    bodies = {d.id: d.body for d in dev_corpus()}
    figures = report_figures(
        lambda q: semantic.search(index, vectors, q, body_of=lambda h: bodies.get(h.id))
    )
    assert figures["hit@1"] >= 0.84
    assert figures["hit@5"] >= 0.87
    assert figures["situations hit@5"] >= 0.75
    assert figures["no-match empty"] >= 0.8


@needs_extra
def test_the_fused_gate_reads_the_similarity_to_the_best_hits_applies_when(
    labelled: Index, vectors: semantic.Vectors
) -> None:
    query = "a unit test only fails shortly before midnight"
    found = semantic.answer(labelled, vectors, query)
    assert found.hits
    best = found.hits[0]
    read = semantic.signals(labelled, query, found.hits, lambda hit: None)
    alone = semantic.cosine_of(
        semantic.embed_query(query) or [], Doc("x", "", "", best.applies_when, (), "", "")
    )
    assert read.top == best.score and 0.0 < read.situation <= 1.0
    assert abs(read.situation - alone) < 0.01  # the applies_when alone, not the whole head
    why = best.why
    assert why is not None and f"similarity to its applies_when, {read.situation:.2f}" in why.gate
    assert semantic.FUSED_GATE.passes(read)


@needs_extra
def test_the_fused_gate_reads_the_similarity_to_the_best_hits_body(
    labelled: Index, vectors: semantic.Vectors
) -> None:
    """The body similarity is the query's cosine with the best hit's body read at
    BODY_TOKENS, and the explanation says it; where the body cannot be read, the hit's title
    and applies_when stand in for it. The body is read only where it can change the
    decision: a gate whose decision rests on it reads it; the shipped gate, certain of this
    query without it, does not, and the explanation says so rather than spend the run."""
    from gitmem.recall.engine import Gate

    query = "a unit test only fails shortly before midnight"
    vector = semantic.embed_query(query) or []
    bodies = {d.id: d.body for d in corpus()}
    # passes when the body similarity is about 0.05 or more: only the body can decide (the
    # score's weight is not 0, which the gate's pruning bound divides by)
    on_body = Gate(1e-6, 0.0, 0.0, 0.0, bias=-0.05, body_weight=1.0)

    def cosine(text: str) -> float:
        row = semantic._model().embed([text], semantic.BODY_TOKENS)[0]
        return sum(a * b for a, b in zip(vector, row, strict=True))

    def best_hit(body_of: semantic.BodyOf, gate: Gate = on_body) -> Hit:
        found = semantic.answer(labelled, vectors, query, body_of=body_of, gate=gate)
        return (found.hits or [found.rejected])[0]  # type: ignore[list-item]

    best = best_hit(lambda h: bodies.get(h.id))
    assert best.why is not None and best.why.body is not None
    assert abs(best.why.body - cosine(bodies[best.id])) < 0.01
    assert f"similarity to its body, {best.why.body:.2f}" in best.why.gate
    unread = best_hit(lambda h: None)
    assert unread.why is not None and unread.why.body is not None
    assert abs(unread.why.body - cosine(f"{unread.title}\n{unread.applies_when}")) < 0.01
    asked: list[str] = []
    shipped = best_hit(lambda h: asked.append(h.id) or bodies.get(h.id), semantic.FUSED_GATE)
    assert shipped.why is not None and asked == [] and shipped.why.body is None
    assert "its body not read, since it could not change the decision" in shipped.why.gate


@needs_extra
def test_semantic_finds_a_situation_in_other_words(
    labelled: Index, vectors: semantic.Vectors
) -> None:
    hits = semantic.answer(labelled, vectors, "a unit test only fails shortly before midnight").hits
    assert "clock-tests" in [h.id for h in hits]
    assert all(0.0 < h.score <= 1.0 and h.why is not None for h in hits)
    found = semantic.answer(labelled, vectors, "how do I bake sourdough bread at home")
    assert found.hits == [] and found.rejected is not None
    why = found.rejected.why
    assert why is not None and why.gate.startswith("rejected: confidence")
    assert "from the best fused score" in why.gate
    for query in ("", '"*" - :', "the of and"):
        assert semantic.search(labelled, vectors, query) == []


@needs_extra
def test_semantic_filters_and_bounds(labelled: Index, vectors: semantic.Vectors) -> None:
    query = "flaky test that depends on today's date"
    assert len(semantic.search(labelled, vectors, query, k=2, min_score=0.0)) == 2
    mistakes = semantic.search(labelled, vectors, query, types=["mistake"], min_score=0.0)
    assert mistakes and {h.type for h in mistakes} == {"mistake"}
    assert semantic.search(labelled, vectors, query, k=0) == []
    assert semantic.search(labelled, vectors, query, types=[]) == []


def test_semantic_search_falls_back_to_keywords(labelled: Index) -> None:
    # Without vectors (or without the extra) fused search is keyword search, gated the same way.
    for query, _ in MATCHING[:10]:
        assert semantic.search(labelled, None, query) == labelled.search(query)
    assert semantic.search(labelled, None, "Kafka consumer rebalancing") == []
    for query in NO_MATCH[:3]:
        assert semantic.search(labelled, None, query) == labelled.search(query)


def test_without_the_extra_recall_still_works(
    labelled: Index, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(semantic, "_file", lambda spec: None)
    semantic._loaded.cache_clear()
    try:
        assert not semantic.available()
        with pytest.raises(semantic.SemanticUnavailable, match=r"gitmem-cli\[semantic\]"):
            semantic.embed_doc(corpus()[0])
        assert issubclass(semantic.SemanticUnavailable, GitmemError)
        query = "which AWS region do we host in"
        assert semantic.search(labelled, semantic.Vectors(), query) == labelled.search(query)
    finally:
        semantic._loaded.cache_clear()


# -- in the cache: admissions keep every chunk the manifest names; the forked first build


@needs_extra
def test_admissions_keep_every_vector_chunk_the_cache_names(memory: Path) -> None:
    from clirunner import HOOKS, SECRETS, admit, recall_json

    from gitmem.recall.cache import RecallCache
    from gitmem.repo.workspace import open_workspace

    def entry(title: str) -> list[str]:
        return ["propose", "--type", "method", "--title", title, "--applies-when",
                f"working on {title.lower()}", "--content", f"{title}: see it."]  # fmt: skip

    topics = ["Rotate keys", "Pin dependencies", "Vacuum the database", "Tag releases",
              "Batch webhooks", "Cap retries", "Shard the queue", "Compress logs"]  # fmt: skip
    admitted = [admit(memory, HOOKS), admit(memory, SECRETS)]
    admitted += [admit(memory, entry(t)) for t in topics]
    recall_json(memory, "a situation nobody wrote down")  # builds the cache, vectors included
    # Five admissions, each a small chunk beside the base one: more trees than the cache keeps,
    # so only the newest manifest still names the base chunk.
    for title in ["Bake bread", "Water plants", "Tune pianos", "Paint fences", "Fold maps"]:
        admitted.append(admit(memory, entry(title)))
        recall_json(memory, f"something about {title.lower()} nobody wrote down")
    assert recall_json(memory, "pygit2 in a git hook")[0]["id"] == admitted[0]
    ws = open_workspace(memory)
    cache = RecallCache(ws.store, ws.dir)
    loaded = cache.load(ws.store.subtree(ws.store.tree_of(ws.main_tip() or ""), ws.dir))
    assert loaded.vectors is not None
    vector = semantic.embed_query("pygit2 secrets")
    assert vector is not None
    nearest, _ = loaded.vectors.nearest(vector, 100)  # loads every chunk the manifest names
    assert sorted(i for _, i in nearest) == sorted(admitted)
    assert not list(cache.root.parent.glob("recall.broken-*"))


#: The post-merge hook's update in a fresh process; prints whether it loaded the model.
WARMED = """
from gitmem.lifecycle.refresh import warm_recall_cache
from gitmem.recall import semantic
from gitmem.repo.workspace import open_workspace
warm_recall_cache(open_workspace())
print(semantic._loaded.cache_info().currsize)
"""

EXPORT = [
    "propose", "--type", "method", "--title", "Split the nightly export into batches",
    "--applies-when", "the nightly export times out halfway",
    "--content", "Export a thousand rows per batch and resume from the last one.",
]  # fmt: skip


def _newest(memory: Path) -> dict[str, object]:
    """The newest tree the recall cache remembers of memory's folder, as state.json has it."""
    from gitmem.recall.cache import RecallCache
    from gitmem.repo.workspace import open_workspace

    ws = open_workspace(memory)
    return RecallCache(ws.store, ws.dir)._mine()[0]


@needs_extra
def test_an_admissions_update_leaves_its_vectors_to_the_next_recall_with_the_model(
    memory: Path,
) -> None:
    """The post-merge hook's update, in a fresh process, saves the admitted tree's keyword
    index with the vectors of the tree before, naming it, and never loads the model; the next
    recall with the extra embeds the admitted entry (it loads the model for its query anyway)
    and saves vectors of the tree itself, which hold the entry as an admission alone would."""
    from clirunner import HOOKS, admit, recall_json

    from gitmem.recall.cache import RecallCache
    from gitmem.repo.workspace import open_workspace

    admit(memory, HOOKS)
    recall_json(memory, "a situation nobody wrote down")  # the cache, vectors included
    before = _newest(memory)
    new = admit(memory, EXPORT)
    env = {**os.environ, "GITMEM_SEMANTIC": "true"}
    done = subprocess.run([sys.executable, "-c", WARMED], cwd=memory, env=env,
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert (done.returncode, done.stdout.strip()) == (0, "0"), done.stderr
    behind = _newest(memory)
    assert behind["tree"] != before["tree"]
    assert (behind["vectors"], behind["vectors_of"]) == (before["vectors"], before["tree"])
    keywords = {**env, "GITMEM_SEMANTIC": "false"}
    found = subprocess.run([sys.executable, "-m", "gitmem", "recall", "--format", "json",
                            "nightly export batches"], cwd=memory, env=keywords,
                           capture_output=True, text=True, check=False)  # fmt: skip
    assert new in found.stdout, found.stderr  # the keyword index was brought up to date
    assert _newest(memory) == behind  # and a reader without the model changed nothing

    recall_json(memory, "every friday the export job dies and someone reruns it by hand")
    caught = _newest(memory)
    assert caught["tree"] == behind["tree"] and "vectors_of" not in caught
    assert caught["vectors"] != behind["vectors"]
    ws = open_workspace(memory)
    loaded = RecallCache(ws.store, ws.dir)._load_entry(caught, semantic)
    assert loaded.vectors is not None and new in loaded.vectors
    doc = loaded.index.hit(new, 0.0)
    assert doc is not None
    query = semantic.embed_query("the nightly export times out halfway")
    assert query is not None
    similarity = loaded.vectors.cosine(query, new)
    assert similarity is not None and similarity > 0.5


@needs_extra
def test_a_first_build_that_embeds_later_builds_the_keyword_index_alone(memory: Path) -> None:
    """With no cache yet (a fresh clone), the post-merge hook's update and an agent's prompt
    hook build the keyword index and embed nothing: embedding every entry takes seconds a
    thousand, past a hook's timeout, and a hook killed there saved nothing, so every prompt
    waited again. The first recall with the extra embeds them, and answers from them."""
    from clirunner import HOOKS, admit, recall_json

    from gitmem.recall.cache import RecallCache
    from gitmem.repo.workspace import open_workspace

    admit(memory, HOOKS)
    new = admit(memory, EXPORT)
    ws = open_workspace(memory)
    shutil.rmtree(RecallCache(ws.store, ws.dir).root, ignore_errors=True)  # as a clone has it
    env = {**os.environ, "GITMEM_SEMANTIC": "true"}
    done = subprocess.run([sys.executable, "-c", WARMED], cwd=memory, env=env,
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert (done.returncode, done.stdout.strip()) == (0, "0"), done.stderr
    assert _newest(memory)["vectors"] is None
    shutil.rmtree(RecallCache(ws.store, ws.dir).root)
    prompt = json.dumps({"hook_event_name": "UserPromptSubmit", "cwd": str(memory),
                         "prompt": "the nightly export times out halfway, what now?"})  # fmt: skip
    hook = subprocess.run([sys.executable, "-m", "gitmem", "agent-hook", "UserPromptSubmit"],
                          input=prompt, cwd=memory, env=env, capture_output=True, text=True,
                          check=False)  # fmt: skip
    assert hook.returncode == 0 and new in hook.stdout, (hook.stdout, hook.stderr)
    keywords_only = _newest(memory)
    assert keywords_only["vectors"] is None and keywords_only["tree"]
    hits = recall_json(memory, "every friday the export job dies and someone reruns it by hand")
    assert new in [hit["id"] for hit in hits]
    embedded = _newest(memory)
    assert embedded["tree"] == keywords_only["tree"] and embedded["vectors"]


@needs_extra
def test_an_update_leaves_no_more_than_near_changes_behind(memory: Path) -> None:
    """Admission after admission with no recall with the extra between: the hook's update
    leaves the vectors behind while at most NEAR changes lead from their tree, and embeds
    them itself at the next, so no recall ever has more than NEAR entries to embed."""
    from clirunner import HOOKS, admit, recall_json

    from gitmem.lifecycle.refresh import warm_recall_cache
    from gitmem.recall.cache import NEAR, RecallCache
    from gitmem.repo.workspace import open_workspace

    admit(memory, HOOKS)
    recall_json(memory, "a situation nobody wrote down")
    first = _newest(memory)
    for n in range(NEAR + 1):
        lesson = ["--title", f"Lesson {n}", "--applies-when", f"case {n}", "--content", f"{n}."]
        entry_id = admit(memory, ["propose", "--type", "method", *lesson])
        warm_recall_cache(open_workspace(memory))
        newest = _newest(memory)
        if n < NEAR:
            assert newest.get("vectors_of") == first["tree"], n
        else:
            assert "vectors_of" not in newest
            ws = open_workspace(memory)
            loaded = RecallCache(ws.store, ws.dir)._load_entry(newest, semantic)
            assert loaded.vectors is not None and entry_id in loaded.vectors
            assert len(loaded.vectors) == len(loaded.index)


@needs_extra
def test_vectors_left_behind_for_a_tree_git_no_longer_holds_are_embedded_anew(
    memory: Path,
) -> None:
    """A history rewritten and pruned can take the tree left-behind vectors were made for:
    the next recall with the extra embeds every entry again, keeps the index, and recalls."""
    from clirunner import HOOKS, admit, recall_json

    from gitmem.lifecycle.refresh import warm_recall_cache
    from gitmem.recall.cache import RecallCache
    from gitmem.repo.workspace import open_workspace

    hooks = admit(memory, HOOKS)
    recall_json(memory, "a situation nobody wrote down")
    new = admit(memory, EXPORT)
    warm_recall_cache(open_workspace(memory))
    ws = open_workspace(memory)
    cache = RecallCache(ws.store, ws.dir)
    state = json.loads((cache.root / "state.json").read_text())
    assert "vectors_of" in state["trees"][0]
    state["trees"][0]["vectors_of"] = "0123456789abcdef" * 2 + "01234567"  # no such tree
    (cache.root / "state.json").write_text(json.dumps(state))

    assert recall_json(memory, "pygit2 in a git hook")[0]["id"] == hooks
    newest = _newest(memory)
    assert "vectors_of" not in newest and newest["index"] == state["trees"][0]["index"]
    loaded = RecallCache(ws.store, ws.dir)._load_entry(newest, semantic)
    assert loaded.vectors is not None and {hooks, new} <= set(loaded.index.ids())
    assert len(loaded.vectors) == len(loaded.index) and new in loaded.vectors
    assert not list(cache.root.parent.glob("recall.broken-*"))


@needs_extra
def test_a_large_first_build_embeds_in_a_forked_process(tmp_path: Path) -> None:
    """In a fresh process (the model not loaded yet) a build of PARALLEL_MIN entries or more
    has a forked child embed half of them (its CPU time shows once it is reaped), the
    vectors equal those built in place, and progress ends at the total; fewer entries, or a
    model already running here, are embedded in place. PARALLEL_MIN is lowered so that the
    test embeds the 120 labelled entries, not thousands."""
    script = tmp_path / "fork.py"
    script.write_text(
        "import os, sys\n"
        "from recall_corpus import corpus\n"
        "from gitmem.recall import semantic\n"
        "semantic.PARALLEL_MIN = 100\n"
        "docs = list(corpus())\n"
        "seen = []\n"
        "assert semantic._loaded.cache_info().currsize == 0, 'the model is loaded already'\n"
        "forked = semantic.build(docs, lambda *a: seen.append(a))\n"
        "assert os.times().children_user > 0, 'no child embedded'\n"
        "assert seen and seen[-1] == (len(docs), len(docs)), seen[-3:]\n"
        "assert len(forked) == len(docs)\n"
        "v = semantic.embed_query(docs[-5].title)\n"
        "assert abs(forked.cosine(v, docs[-5].id) - semantic.cosine_of(v, docs[-5])) < 0.01\n"
        "before = os.times().children_user\n"
        "assert len(semantic.build(docs)) == len(docs)\n"
        "assert os.times().children_user == before, 'forked with the model loaded'\n"
    )
    tests = Path(__file__).parents[1]
    result = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": f"{tests}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"},
        check=False,
    )
    assert result.returncode == 0, result.stderr


@needs_extra
def test_a_cold_recall_builds_its_vectors_in_two_processes(repo: Path, tmp_path: Path) -> None:
    """`gitmem recall` in a fresh process with no cache: the cache's first build embeds in
    two processes, which semantic.build does only while the model is not loaded in this one.
    The cache's update began loading the model ahead (for an admission's update, which
    embeds one entry) before it knew there was nothing to update from, so every cold build
    ran on one core: 824 s for 100,000 entries against 468 s. PARALLEL_MIN is lowered so that
    120 generated entries make a build that forks."""
    import benches

    benches.load("generate").write_store(repo, 120)
    (repo / ".gitmem.toml").write_text('[memory]\nproject = "shop"\n')
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "entries")
    script = tmp_path / "cold.py"
    script.write_text(
        "import os, sys\n"
        "from gitmem.recall import semantic\n"
        "semantic.PARALLEL_MIN = 100\n"
        "built = []\n"
        "real = semantic.build\n"
        "def build(docs, progress=None):\n"
        "    loaded = semantic._loaded.cache_info().currsize\n"
        "    before = os.times().children_user\n"
        "    vectors = real(docs, progress)\n"
        "    built.append((len(docs), loaded, os.times().children_user > before))\n"
        "    return vectors\n"
        "semantic.build = build\n"
        "from gitmem.cli.main import main\n"
        "try:\n"
        "    main(['recall', '--format', 'json', 'retry payments with jitter'])\n"
        "except SystemExit as done:\n"
        "    assert not done.code, done.code\n"
        "assert built == [(120, 0, True)], built\n"
    )
    result = subprocess.run(
        [sys.executable, str(script)], cwd=repo, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr


@needs_extra
@pytest.mark.parametrize("reader", ["opened", "git"])
def test_vectors_brought_up_keep_an_entry_whose_copy_came_and_went_elsewhere(
    memory: Path, reader: str
) -> None:
    """A copy of an admitted entry committed around the gate in another type folder (misplaced:
    never indexed) names the entry's id, so bringing the vectors up drops the id and embeds it
    again from the file the index holds, which no change touched: read from the tree (the
    opened repository's, or git's ls-tree for a warm recall). Without that read the entry
    lost its vector, and its semantic hits with it."""
    from clirunner import HOOKS, admit, recall_json

    from gitmem.lifecycle.refresh import warm_recall_cache
    from gitmem.recall.cache import RecallCache, caught_up
    from gitmem.repo.trees import GitTrees
    from gitmem.repo.workspace import open_workspace

    entry_id = admit(memory, HOOKS)
    recall_json(memory, "a situation nobody wrote down")  # the cache, vectors included
    placed = memory / ".gitmem" / "entries" / "decision" / f"{entry_id}.md"
    copy = memory / ".gitmem" / "entries" / "method" / f"{entry_id}.md"
    copy.parent.mkdir(exist_ok=True)
    copy.write_bytes(placed.read_bytes())
    git(memory, "add", str(copy))
    git(memory, "commit", "-q", "--no-verify", "-m", "a copy around the gate")
    ws = open_workspace(memory)
    warm_recall_cache(ws)  # the hook's update: the vectors left behind
    memory_tree = ws.store.subtree(ws.store.tree_of(ws.main_tip() or ""), ws.dir)
    entries = ws.store.subtree(memory_tree, "entries")
    cache = RecallCache(ws.store, ws.dir)
    assert cache._mine()[0].get("vectors_of") and entries is not None
    if reader == "git":
        loaded = caught_up(ws.store.common_dir, ws.dir, entries, GitTrees(memory))
    else:
        loaded = cache.load(memory_tree)
    assert loaded is not None and loaded.vectors is not None
    assert entry_id in loaded.vectors and len(loaded.vectors) == len(loaded.index)
    assert "vectors_of" not in cache._mine()[0]


@pytest.mark.parametrize("damage", [float("nan"), float("inf")])
def test_a_vector_damaged_into_nan_is_the_farthest_not_a_break_in_the_order(
    damage: float,
) -> None:
    """A warm read does not verify the vectors' chunks, and a flipped byte can make a row NaN:
    sorted among the others, a NaN cosine broke the nearest search's order, and entries with
    sound vectors left the answer, every recall until an update verified the chunk."""
    vectors = semantic.Vectors()
    dim = vectors.dim

    def row(*values: float) -> bytes:
        return struct.pack(f"<{dim}e", *values, *[0.0] * (dim - len(values)))

    damaged = struct.pack(f"<{dim}e", *[damage] * dim)
    for doc_id, vector in (("a", row(1.0)), ("broken", damaged), ("b", row(0.0, 1.0))):
        vectors.set(doc_id, vector)
    query = [0.8, 0.6, *[0.0] * (dim - 2)]
    found, after = vectors.nearest(query, 2)
    assert [doc_id for _, doc_id in found] == ["a", "b"] and after == -1.0
    assert vectors.cosine(query, "broken") == -1.0
