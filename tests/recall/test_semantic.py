"""Semantic recall (the gitmem[semantic] extra): the pure-Python tokenizer against `tokenizers`,
embedding, the sign-plane shortlist against exact ranking, storage, and fused search quality."""

from __future__ import annotations

import contextlib
import os
import random
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from recall_corpus import corpus
from recall_queries import MATCHING, NO_MATCH, SITUATIONS, quality

from gitmem.errors import GitmemError
from gitmem.recall import semantic
from gitmem.recall.engine import Doc, Index
from gitmem.recall.tokenizer import BPE

needs_extra = pytest.mark.skipif(not semantic.available(), reason="gitmem[semantic] not installed")


@pytest.fixture(scope="module")
def labelled() -> Index:
    return Index.build(corpus())


@pytest.fixture(scope="module")
def vectors() -> semantic.Vectors:
    return semantic.Vectors.build(corpus())


def tokenizer_file() -> Path:
    root = semantic._package_dir()
    assert root is not None
    return root.joinpath(*semantic._TOKENIZER_FILE)


@pytest.fixture(scope="module")
def reference() -> Any:
    tokenizers = pytest.importorskip("tokenizers")
    tokenizer = tokenizers.Tokenizer.from_file(str(tokenizer_file()))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return tokenizer


@pytest.fixture(scope="module")
def bpe() -> BPE:
    return BPE.from_file(tokenizer_file())


# -- the tokenizer


@needs_extra
def test_tokenizer_equals_tokenizers_on_every_word_of_the_corpus(bpe: BPE, reference: Any) -> None:
    words: set[str] = set()
    for d in corpus():
        text = f"{d.title} {d.applies_when} {' '.join(d.tags)} {d.body}"
        words.update(text.split())
        words.update(semantic._content_words(text))
    ordered = sorted(words)
    expected = reference.encode_batch(ordered, add_special_tokens=False)
    assert len(ordered) > 3000
    for word, encoding in zip(ordered, expected, strict=True):
        assert bpe.encode(word) == encoding.ids, word


@needs_extra
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=st.text(
        st.one_of(
            st.characters(blacklist_categories=["Cs"]),  # any Unicode but lone surrogates
            st.sampled_from("▁ _-.0123456789🙂👍🏽\u200d\u0301é日本"),
        ),
        max_size=40,
    )
)
def test_tokenizer_equals_tokenizers_on_any_text(bpe: BPE, reference: Any, text: str) -> None:
    # `tokenizers` cuts its special tokens out of the text first; gitmem's words never hold one.
    for special in ("<unk>", "<s>", "</s>"):
        text = text.replace(special, "")
    assert bpe.encode(text) == reference.encode(text, add_special_tokens=False).ids


@needs_extra
def test_tokenizer_equals_tokenizers_on_long_words(bpe: BPE, reference: Any) -> None:
    """Words longer than a few dozen symbols merge by heap; hostile ones stay fast."""
    rng = random.Random(7)
    words = ["a" * 300, "ab" * 200, "0123456789" * 40, "▁" * 100, "日本語" * 50, "🙂" * 60]
    for _ in range(200):
        alphabet = rng.choice(["ab", "abcdefgh", "etaoin shrdlu", "0123456789abcdef", "é日🙂a-."])
        words.append("".join(rng.choice(alphabet) for _ in range(rng.randint(40, 600))))
    for word in words:
        assert bpe.encode(word) == reference.encode(word, add_special_tokens=False).ids, word
    start = time.perf_counter()
    bpe.encode("ab" * 4000)
    bpe.encode("x" * 8000)
    assert time.perf_counter() - start < 5.0  # quadratic merging took minutes here


@needs_extra
def test_tokenizer_cache_is_written_once_and_survives_damage(tmp_path: Path, bpe: BPE) -> None:
    cache = tmp_path / "cache"
    words = ["recall", "pygit2", "Überprüfung", "🙂", "x" * 50]
    first = BPE.from_file(tokenizer_file(), cache_dir=cache)
    (written,) = cache.iterdir()
    again = BPE.from_file(tokenizer_file(), cache_dir=cache)
    for word in words:
        assert first.encode(word) == again.encode(word) == bpe.encode(word)
    written.write_bytes(b"not marshal")
    assert BPE.from_file(tokenizer_file(), cache_dir=cache).encode("recall") == bpe.encode("recall")
    blocked = tmp_path / "file"
    blocked.write_text("a file where the cache folder would be")
    assert BPE.from_file(tokenizer_file(), cache_dir=blocked).encode("x") == bpe.encode("x")


@needs_extra
def test_tokenizer_refuses_another_kind_of_file(tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    other.write_text('{"model": {"type": "WordPiece"}}')
    with pytest.raises(ValueError, match="not a Llama BPE"):
        BPE.from_file(other)


@settings(max_examples=300, deadline=None)
@given(text=st.text(st.sampled_from("aZ09_.-é日 \n/'") | st.characters(), max_size=60))
def test_ascii_text_finds_the_same_words_faster(text: str) -> None:
    assert semantic._words(text) == semantic._WORD.findall(text)
    ascii_text = text.encode("ascii", "ignore").decode()
    assert semantic._words(ascii_text) == semantic._WORD.findall(ascii_text)


# -- embedding


@needs_extra
def test_one_entry_embedding_equals_the_batch_build(vectors: semantic.Vectors) -> None:
    """embed_doc (pure Python, an admission) and Vectors.build (numpy) give the same bytes."""
    built = semantic.Vectors.from_bytes(vectors.to_bytes())
    again = semantic.Vectors()
    for d in corpus():
        again.set(d.id, semantic.embed_doc(d))
    assert again.to_bytes() == built.to_bytes()


@needs_extra
def test_query_vector_is_the_normalised_sum_of_token_rows() -> None:
    np = pytest.importorskip("numpy")
    model = semantic._model()
    query = "how do we keep API keys out of memory files"
    ids = [t for w in semantic._content_words(query) for t in model.token_ids(w)]
    rows = np.array([model.token_row(t) for t in ids], dtype=np.float64).sum(axis=0)
    vector = semantic.embed_query(query)
    assert vector is not None
    assert np.allclose(vector, rows / np.linalg.norm(rows), atol=1e-12)
    assert semantic.embed_query("the of and") is None
    assert semantic.embed_query("") is None


@needs_extra
def test_semantic_word_cache_overflow(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(semantic, "_MAX_CACHED_WORDS", 50)
    entry = corpus()[0]
    before = semantic.embed_doc(entry)
    for d in corpus()[1:20]:
        semantic.embed_doc(d)
    assert semantic.embed_doc(entry) == before


# -- the shortlist: big-integer arithmetic and selection, then its accuracy


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
    figures = quality(lambda q: semantic.search(Index.build(docs), planed, q))
    assert figures["all hit@5"] >= 0.9
    assert figures["no-match empty"] >= 0.9


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
    figures = quality(lambda q: semantic.search(labelled, vectors, q))
    assert figures["all hit@5"] >= 0.9
    assert figures["no-match empty"] >= 0.9
    assert figures["situations hit@5"] > quality(labelled.search)["situations hit@5"]


@needs_extra
def test_semantic_finds_a_situation_in_other_words(
    labelled: Index, vectors: semantic.Vectors
) -> None:
    hits = semantic.search(labelled, vectors, "how do we keep API keys out of memory files")
    assert "secrets-scan" in [h.id for h in hits]
    assert all(0.0 < h.score <= 1.0 for h in hits)
    assert semantic.search(labelled, vectors, "Kafka consumer group rebalancing") == []
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
    monkeypatch.setattr(semantic, "_package_dir", lambda: None)
    semantic._model.cache_clear()
    try:
        assert not semantic.available()
        with pytest.raises(semantic.SemanticUnavailable, match=r"gitmem-cli\[semantic\]"):
            semantic.embed_doc(corpus()[0])
        assert issubclass(semantic.SemanticUnavailable, GitmemError)
        query = "which AWS region do we host in"
        assert semantic.search(labelled, semantic.Vectors(), query) == labelled.search(query)
    finally:
        semantic._model.cache_clear()


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


@needs_extra
def test_a_large_first_build_embeds_in_a_forked_process(tmp_path: Path) -> None:
    """In a fresh process (no numpy yet) the vectors of 2,000 entries or more are embedded by a
    child process as this one reads them, and equal those built in place; fewer are embedded
    in place."""
    script = tmp_path / "fork.py"
    script.write_text(
        "import sys\n"
        "from dataclasses import replace\n"
        "from recall_corpus import corpus\n"
        "from gitmem.recall import semantic\n"
        "docs = [replace(d, id=f'{d.id}-{i}') for i in range(40) for d in corpus()]\n"
        "read, finish = semantic.build_in_background(d for d in docs)\n"
        "assert read == docs\n"
        "assert 'numpy' not in sys.modules, 'built in place'\n"
        "forked = finish()\n"
        "assert forked.to_bytes() == semantic.Vectors.build(docs).to_bytes()\n"
        "manifest, chunks = forked.to_parts()\n"
        "assert len(chunks) == 1 and len(forked) == len(docs)\n"
        "few, finish = semantic.build_in_background(iter(docs[:100]))\n"
        "assert few == docs[:100] and len(finish()) == 100\n"
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
