"""Semantic recall, the optional `gitmem[semantic]` extra: find entries described in other words.

Keyword recall finds "Scan entries for secrets before admission" for "secret scanning", not for
"stop credentials leaking into the notes agents read". This module adds a small static
embedding model whose weights ship inside a PyPI package, so nothing is downloaded at run time:
WordLlama's `l2_supercat` 256-dimension token embeddings (MIT licence) and its tokenizer, both in
the `wordllama` wheel. gitmem reads the two files itself (numpy and tokenizers only) and never
imports wordllama, whose import configures logging and whose loader tries the network.

Embedding
    A text loses its English stop words, is tokenised, and its token vectors are averaged and
    normalised. An entry's vector is the normalised sum of two such vectors: its title,
    applies_when and tags, and its whole text; so the headline counts as much as the body.
    Vectors are stored as float16, 512 bytes an entry (`embed_doc`, `Vectors`).

Fusion and gating
    When the keyword engine alone is already confident (its best hit scores at least
    CONFIDENT_KEYWORD), its answer stands and the model is not even loaded. Otherwise
    fused = KEYWORD_WEIGHT * keyword + (1 - KEYWORD_WEIGHT) * semantic, where keyword is
    gitmem.recall's share-of-query score and semantic = clip((cos - COS_FLOOR) / (COS_FULL -
    COS_FLOOR), 0, 1): a cosine below 0.35 (what unrelated text reaches with this model) counts
    nothing, 0.7 and above counts fully. The default threshold is KEYWORD_WEIGHT times the
    keyword threshold, so every entry the keyword engine alone would return still passes, and
    similarity can lift a paraphrase over the bar, but similarity alone (at most 0.3) rarely
    does: static embeddings rank paraphrases well yet cannot tell "no match" on their own.
    The weights and bounds were chosen on the labelled set in tests/recall_queries.py
    (`python bench/recall.py --quality` prints the figures): questions told in the asker's own
    words reach hit@5 0.80 instead of 0.69, paraphrased ones stay at 0.97, and 0.96 of the
    no-match questions stay empty, as with keywords alone. Ranked by similarity alone those
    situations reach 0.97, but no bound on similarity then separates them from no-match
    questions.

Storage
    `Vectors` holds the entries' vectors by id. Like the recall index it is stored either as one
    blob (to_bytes) or as a manifest and immutable chunks named by content (to_parts), so that
    an admission embeds one entry (`embed_doc`, about a millisecond) and writes one small chunk.

Without the extra installed, `available()` is False and `search` is keyword recall itself.
"""

from __future__ import annotations

import importlib
import json
import re
import struct
import zlib
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import replace
from functools import cache
from importlib.util import find_spec
from itertools import chain, compress, repeat
from pathlib import Path
from typing import Any, Final, NamedTuple

from gitmem.errors import UsageError
from gitmem.recall import DEFAULT_MIN_SCORE, STOP_WORDS, Doc, Hit, Index

__all__ = [
    "DEFAULT_FUSED_MIN_SCORE",
    "MODEL",
    "SemanticUnavailable",
    "Vectors",
    "available",
    "embed_doc",
    "embed_query",
    "search",
]

#: The model, as recorded in serialised vectors: vectors of another model are not mixed in.
MODEL: Final = "wordllama/l2_supercat/256"
KEYWORD_WEIGHT: Final = 0.7
COS_FLOOR: Final = 0.35
COS_FULL: Final = 0.7
DEFAULT_FUSED_MIN_SCORE: Final = round(KEYWORD_WEIGHT * DEFAULT_MIN_SCORE, 4)
#: A keyword answer whose best hit scores this much is final: the model is not loaded. On the
#: labelled set this changes no hit@1, hit@5 or no-match figure (0.5 to 0.8 were tried) and
#: spares about half of the questions the model's start-up cost.
CONFIDENT_KEYWORD: Final = 0.6
#: How many entries, by similarity and by keyword score, are fused and compared.
CANDIDATES: Final = 100
KEYWORD_CANDIDATES: Final = 100

_TOKENIZER_FILE: Final = ("tokenizers", "l2_supercat_tokenizer_config.json")
_WEIGHTS_FILE: Final = ("weights", "l2_supercat_256.safetensors")
_WORD: Final = re.compile(r"[^\W_]+(?:[_.\-]+[^\W_]+)*")
_MAX_TEXT: Final = 8_000
_MAX_CACHED_WORDS: Final = 300_000


class SemanticUnavailable(UsageError):
    """Semantic recall was asked for, but the extra is not installed (or its files are missing)."""


def _package_dir() -> Path | None:
    """wordllama's folder, found without importing it."""
    try:
        spec = find_spec("wordllama")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def available() -> bool:
    """True when numpy, tokenizers and the model files of the semantic extra are installed."""
    root = _package_dir()
    if root is None or not (root.joinpath(*_TOKENIZER_FILE).is_file()):
        return False
    if not root.joinpath(*_WEIGHTS_FILE).is_file():
        return False
    return all(find_spec(name) is not None for name in ("numpy", "tokenizers"))


class _Model:
    """Token embeddings (memory-mapped) and tokenizer, loaded once per process."""

    def __init__(self) -> None:
        root = _package_dir()
        if root is None or not available():
            raise SemanticUnavailable(
                "semantic recall needs the optional extra: pip install 'gitmem[semantic]'"
            )
        # Imported by name: the extra is optional, so type checkers need not have it.
        np: Any = importlib.import_module("numpy")
        tokenizers: Any = importlib.import_module("tokenizers")
        self.np = np
        tokenizer = tokenizers.Tokenizer.from_file(str(root.joinpath(*_TOKENIZER_FILE)))
        tokenizer.no_padding()
        tokenizer.no_truncation()
        self.tokenizer = tokenizer
        self.matrix: Any = _read_safetensor(root.joinpath(*_WEIGHTS_FILE), "embedding.weight", np)
        self.dim = int(self.matrix.shape[1])
        self._word_ids: dict[str, list[int]] = {}

    def _cache_words(self, words: set[str]) -> None:
        """Tokenise each new word once: the tokenizer never merges across a space, so a text's
        tokens are its words' tokens in order (the Llama normaliser only turns spaces into '▁').
        """
        missing = list(words.difference(self._word_ids))
        if not missing:
            return
        if len(self._word_ids) + len(missing) > _MAX_CACHED_WORDS:
            self._word_ids.clear()
            missing = list(words)
        encodings = self.tokenizer.encode_batch(missing, add_special_tokens=False)
        for word, encoding in zip(missing, encodings, strict=True):
            self._word_ids[word] = encoding.ids

    def sums(self, word_lists: Sequence[list[str]]) -> Any:
        """(len(word_lists), dim) float32: the sum of each list's token vectors."""
        np = self.np
        self._cache_words(set().union(*word_lists))
        lookup = self._word_ids.__getitem__
        out = np.zeros((len(word_lists), self.dim), dtype=np.float32)
        for start in range(0, len(word_lists), 64):
            ids = [
                list(chain.from_iterable(map(lookup, words)))
                for words in word_lists[start : start + 64]
            ]
            lengths = np.fromiter(map(len, ids), dtype=np.int64, count=len(ids))
            nonempty = np.flatnonzero(lengths)
            if not nonempty.size:
                continue
            flat = np.fromiter(chain.from_iterable(ids), dtype=np.int64, count=int(lengths.sum()))
            offsets = (np.cumsum(lengths) - lengths)[nonempty]
            rows = self.matrix[flat].astype(np.float32)
            out[start + nonempty] = np.add.reduceat(rows, offsets, axis=0)
        return out

    def embed(self, texts: Sequence[str]) -> Any:
        """(len(texts), dim) float32 rows, unit length (zero for a text with no content)."""
        return _normalise(self.sums([_content_words(t) for t in texts]), self.np)


def _read_safetensor(path: Path, key: str, np: Any) -> Any:
    """One float16 tensor from a safetensors file (8 bytes of header length, the JSON header,
    raw data), memory-mapped: a query reads only its own tokens' rows, so a recall does not
    pay for reading and widening the whole vocabulary."""
    with open(path, "rb") as handle:
        (length,) = struct.unpack("<Q", handle.read(8))
        header = json.loads(handle.read(length))
    info = header[key]
    if info["dtype"] != "F16":
        raise SemanticUnavailable(
            f"{path} holds {info['dtype']} weights, not F16: install wordllama 0.4 "
            "(pip install 'gitmem[semantic]')"
        )
    start, _end = info["data_offsets"]
    return np.memmap(
        path, dtype="<f2", mode="r", offset=8 + length + start, shape=tuple(info["shape"])
    )


def _normalise(rows: Any, np: Any) -> Any:
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return rows / norms


def _content_words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text[:_MAX_TEXT]) if w.lower() not in STOP_WORDS]


@cache
def _model() -> _Model:
    return _Model()


def _embed_docs(docs: Sequence[Doc]) -> Any:
    """(len(docs), dim) float16 unit rows: normalise(head) + normalise(head and body)."""
    model = _model()
    np = model.np
    heads = model.sums(
        [_content_words(f"{d.title}. {d.applies_when}. {' '.join(d.tags)}") for d in docs]
    )
    bodies = model.sums([_content_words(d.body) for d in docs])
    both = _normalise(heads, np) + _normalise(heads + bodies, np)
    return _normalise(both, np).astype("<f2")


def embed_doc(doc: Doc) -> bytes:
    """One entry's vector (float16, little-endian): the per-admission work of the cache layer."""
    return bytes(_embed_docs([doc])[0].tobytes())


def embed_query(query: str) -> Any:
    """The query's unit vector (float32), or None when it has no content word."""
    model = _model()
    vector = model.embed([query])[0]
    return vector if bool(vector.any()) else None


_MAGIC: Final = b"GITMEM-VECTORS\x00"
_MANIFEST_MAGIC: Final = b"GITMEM-VECTORSM"
_VERSION: Final = 1
_HEAD: Final = struct.Struct("<15sHHII")  # magic, version, model name length, dim, count
_CRC: Final = struct.Struct("<I")
#: One save merges at most this many entries' chunks (bounds the work of an admission).
MAX_MERGE_VECTORS: Final = 8192


def _encode(magic: bytes, dim: int, ids: list[str], payload: bytes) -> bytes:
    """Head, model name, the ids (NUL-joined), the payload, and a CRC-32 of all that."""
    name = MODEL.encode()
    id_blob = "\x00".join(ids).encode()
    head = _HEAD.pack(magic, _VERSION, len(name), dim, len(ids))
    body = b"".join([head, name, _CRC.pack(len(id_blob)), id_blob, payload])
    return body + _CRC.pack(zlib.crc32(body))


def _decode(
    magic: bytes, data: bytes | bytearray | memoryview, *, verify: bool
) -> tuple[int, list[str], memoryview]:
    """(dim, ids, payload) of a blob written by _encode; ValueError when it is not one."""
    view = memoryview(data).cast("B")
    if len(view) < _HEAD.size + 2 * _CRC.size:
        raise ValueError("entry vectors are truncated")
    crc = _CRC.unpack_from(view, len(view) - _CRC.size)[0]
    if verify and zlib.crc32(view[: -_CRC.size]) != crc:
        raise ValueError("entry vectors fail their checksum")
    found, version, name_len, dim, count = _HEAD.unpack_from(view, 0)
    if found != magic:
        raise ValueError("not gitmem entry vectors")
    if version != _VERSION:
        raise ValueError(f"entry vectors version {version}, expected {_VERSION}")
    pos = _HEAD.size
    name = bytes(view[pos : pos + name_len])
    if name != MODEL.encode():
        raise ValueError(f"entry vectors of model {name!r}, expected {MODEL}")
    pos += name_len
    (id_len,) = _CRC.unpack_from(view, pos)
    pos += _CRC.size
    ids = bytes(view[pos : pos + id_len]).decode().split("\x00") if count else []
    if len(ids) != count or len(set(ids)) != count:
        raise ValueError("entry vectors have a corrupt id table")
    return dim, ids, view[pos + id_len : len(view) - _CRC.size]


def _chunk_name(data: bytes | bytearray | memoryview) -> str:
    """Size and stored CRC-32 (the CRC of data ending in its own CRC would be a constant)."""
    view = memoryview(data).cast("B")
    crc = _CRC.unpack_from(view, len(view) - _CRC.size)[0] if len(view) >= _CRC.size else 0
    return f"{len(view):08x}{crc:08x}"


class _Chunk(NamedTuple):
    name: str
    ids: list[str]
    rows: memoryview  # float16 rows, in the order of ids (read in place, not copied)


class Vectors:
    """Entry vectors by id, kept beside the recall index and stored the same ways.

    to_bytes/from_bytes: one blob. to_parts/from_parts: a manifest and immutable chunks named by
    their content, where a save writes only the new entries' chunk (merging small chunks as the
    recall index merges segments), so an admission costs one vector's work at any size.
    """

    def __init__(self, dim: int = 256) -> None:
        self.dim = dim
        self._chunks: list[_Chunk] = []  # in the order they apply: a later row wins
        self._where: dict[str, int] = {}  # id -> index of the chunk with its row, -1: unsaved
        self._pending: dict[str, bytes] = {}
        self._matrix: Any = None
        self._ids: list[str] = []
        self._positions: dict[str, int] = {}

    @classmethod
    def build(cls, docs: Iterable[Doc], *, batch: int = 512) -> Vectors:
        """Vectors for every doc, embedded in batches."""
        model = _model()
        vectors = cls(model.dim)
        pending: list[Doc] = []
        for doc in docs:
            pending.append(doc)
            if len(pending) >= batch:
                vectors._add_batch(pending)
                pending = []
        vectors._add_batch(pending)
        return vectors

    def _add_batch(self, docs: list[Doc]) -> None:
        if docs:
            for doc, row in zip(docs, _embed_docs(docs), strict=True):
                self.set(doc.id, bytes(row.tobytes()))

    def add(self, doc: Doc) -> None:
        """Embed and store one entry (replacing any vector it had)."""
        self.set(doc.id, embed_doc(doc))

    def set(self, doc_id: str, vector: bytes) -> None:
        """Store a vector computed by embed_doc (so a cache can reuse it)."""
        if len(vector) != 2 * self.dim:
            raise ValueError(f"a vector has {2 * self.dim} bytes, not {len(vector)}")
        if "\x00" in doc_id:
            raise ValueError("an entry id holds no NUL character")
        self._pending[doc_id] = vector
        self._where[doc_id] = -1
        self._matrix = None

    def remove(self, doc_id: str) -> None:
        """Forget an entry's vector; an unknown id is ignored."""
        if self._where.pop(doc_id, None) is not None:
            self._pending.pop(doc_id, None)
            self._matrix = None

    def __len__(self) -> int:
        return len(self._where)

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._where

    def _live_rows(self, index: int) -> list[tuple[str, bytes | memoryview]]:
        """(id, row) of the chunk's ids whose current row it holds."""
        chunk = self._chunks[index]
        width = 2 * self.dim
        return [
            (doc_id, chunk.rows[j * width : (j + 1) * width])
            for j, doc_id in enumerate(chunk.ids)
            if self._where.get(doc_id) == index
        ]

    def similarities(self, query_vector: Any) -> tuple[list[str], dict[str, int], Any]:
        """(ids, id -> row, the cosine of each row with the query), rows in storage order."""
        np = _model().np
        if self._matrix is None:
            ids: list[str] = []
            parts = []
            for index, chunk in enumerate(self._chunks):
                matrix = np.frombuffer(chunk.rows, dtype="<f2").reshape(len(chunk.ids), self.dim)
                keep = [self._where.get(doc_id) == index for doc_id in chunk.ids]
                if all(keep):
                    ids.extend(chunk.ids)
                else:
                    matrix = matrix[np.asarray(keep, dtype=bool)]
                    ids.extend(compress(chunk.ids, keep))
                parts.append(matrix)
            if self._pending:
                ids.extend(self._pending)
                blob = b"".join(self._pending.values())
                parts.append(np.frombuffer(blob, dtype="<f2").reshape(-1, self.dim))
            self._ids = ids
            self._positions = dict(zip(ids, range(len(ids)), strict=True))
            if parts:
                self._matrix = np.concatenate(parts).astype(np.float32)
            else:
                self._matrix = np.zeros((0, self.dim), dtype=np.float32)
        # einsum, not @: a BLAS matrix-vector product can stall on its thread pool when the
        # machine is busy (20 ms instead of 0.2 ms at 2,000 entries, measured).
        return self._ids, self._positions, np.einsum("ij,j->i", self._matrix, query_vector)

    def _encode_rows(self, rows: list[tuple[str, bytes | memoryview]]) -> bytes:
        rows.sort(key=lambda row: row[0])
        return _encode(_MAGIC, self.dim, [i for i, _ in rows], b"".join(r for _, r in rows))

    def to_bytes(self) -> bytes:
        """Every live vector in one blob: head, model name, ids, float16 rows, CRC-32."""
        rows = [row for index in range(len(self._chunks)) for row in self._live_rows(index)]
        rows.extend(self._pending.items())
        return self._encode_rows(rows)

    @classmethod
    def from_bytes(cls, data: bytes | bytearray | memoryview) -> Vectors:
        """Load vectors written by to_bytes; ValueError when corrupt or from another model."""
        vectors = cls()
        vectors._load_chunk(data, verify=True)
        return vectors

    def _load_chunk(self, data: bytes | bytearray | memoryview, *, verify: bool) -> str:
        dim, ids, rows = _decode(_MAGIC, data, verify=verify)
        if self._chunks and dim != self.dim:
            raise ValueError("entry vector chunks disagree on the dimension")
        if len(rows) != 2 * dim * len(ids):
            raise ValueError("entry vectors are truncated or corrupt")
        self.dim = dim
        name = _chunk_name(data)
        self._where.update(zip(ids, repeat(len(self._chunks))))
        self._chunks.append(_Chunk(name, ids, rows))
        self._matrix = None
        return name

    def to_parts(self) -> tuple[bytes, dict[str, bytes]]:
        """(manifest, {chunk name: chunk}) after folding unsaved vectors into a new chunk."""
        fresh: dict[str, bytes] = {}
        if self._pending:
            chunks = self._chunks
            start = len(chunks)
            size = len(self._pending)
            while (
                start > 0
                and size * 2 >= len(chunks[start - 1].ids)
                and size + len(chunks[start - 1].ids) <= MAX_MERGE_VECTORS
            ):
                start -= 1
                size += len(chunks[start].ids)
            rows = [row for index in range(start, len(chunks)) for row in self._live_rows(index)]
            rows.extend(self._pending.items())
            data = self._encode_rows(rows)
            del self._chunks[start:]
            self._pending.clear()
            fresh[self._load_chunk(data, verify=False)] = data
        gone = sorted({i for chunk in self._chunks for i in chunk.ids if i not in self._where})
        payload = "".join(chunk.name for chunk in self._chunks).encode()
        return _encode(_MANIFEST_MAGIC, self.dim, gone, payload), fresh

    @classmethod
    def from_parts(
        cls,
        manifest: bytes | bytearray | memoryview,
        chunk: Callable[[str], bytes | bytearray | memoryview],
        *,
        verify: bool = True,
    ) -> Vectors:
        """Load vectors written by to_parts; chunk(name) returns a chunk's bytes.

        ValueError when the manifest or a chunk is corrupt, of another model, or missing
        (chunk raising KeyError or OSError). verify checks the chunks' CRC-32 (the manifest's
        is always checked). Chunks are read in place, so their buffers (an mmap) must outlive
        the Vectors.
        """
        dim, gone, payload = _decode(_MANIFEST_MAGIC, manifest, verify=True)
        if len(payload) % 16:
            raise ValueError("entry vector manifest is corrupt")
        names = bytes(payload).decode("ascii")
        vectors = cls(dim)
        for i in range(0, len(names), 16):
            name = names[i : i + 16]
            try:
                data = chunk(name)
            except (KeyError, OSError) as exc:
                raise ValueError(f"entry vector chunk {name} is missing") from exc
            if _chunk_name(data) != name or vectors._load_chunk(data, verify=verify) != name:
                raise ValueError(f"entry vector chunk {name} does not match its name")
        for doc_id in gone:
            vectors._where.pop(doc_id, None)
        return vectors


def search(
    index: Index,
    vectors: Vectors | None,
    query: str,
    *,
    k: int = 5,
    types: Collection[str] | None = None,
    min_score: float | None = None,
) -> list[Hit]:
    """Keyword and semantic recall fused (module docstring); keyword recall alone as fallback.

    Falls back when the extra is missing or no vectors are given; min_score then means the
    keyword score, as in Index.search.
    """
    if vectors is None or not available():
        return index.search(query, k=k, types=types, min_score=min_score)
    if k <= 0 or (types is not None and not types):
        return []
    keyword_first = index.search(query, k=k, types=types)
    if keyword_first and keyword_first[0].score >= CONFIDENT_KEYWORD and min_score is None:
        return keyword_first
    threshold = DEFAULT_FUSED_MIN_SCORE if min_score is None else max(0.0, min_score)
    semantic_weight = 1.0 - KEYWORD_WEIGHT
    near: dict[str, float] = {}
    rows: dict[str, int] = {}
    values: Any = None  # the semantic value of every row
    beyond = 0.0  # the best semantic value outside `near`
    query_vector = embed_query(query)
    if query_vector is not None:
        np = _model().np
        ids, rows, cosines = vectors.similarities(query_vector)
        if ids:
            values = np.clip((cosines - COS_FLOOR) / (COS_FULL - COS_FLOOR), 0.0, 1.0)
            # Every entry at least as similar as the CANDIDATES-th, ties included, so the set
            # does not depend on the order rows happen to be stored in.
            if len(values) > CANDIDATES:
                cut = float(np.partition(values, len(values) - CANDIDATES)[-CANDIDATES])
                chosen = np.flatnonzero((values >= cut) & (values > 0.0))
                below = values[values < cut]
                beyond = float(below.max()) if below.size else 0.0
            else:
                chosen = np.flatnonzero(values > 0.0)
            near = {ids[i]: float(values[i]) for i in chosen.tolist()}

    def similarity(doc_id: str) -> float:
        row = rows.get(doc_id)
        return 0.0 if row is None else float(values[row])

    # A document outside `near` fuses to at most KEYWORD_WEIGHT * keyword + semantic_weight *
    # beyond, so only keyword scores above this floor can still reach the threshold.
    floor = max(0.0, (threshold - semantic_weight * beyond) / KEYWORD_WEIGHT)
    keyword = {
        h.id: h for h in index.search(query, k=KEYWORD_CANDIDATES, types=types, min_score=floor)
    }
    fused = {
        doc_id: KEYWORD_WEIGHT * hit.score + semantic_weight * similarity(doc_id)
        for doc_id, hit in keyword.items()
    }
    others = [doc_id for doc_id, value in near.items() if value > 0.0 and doc_id not in fused]
    for doc_id, score in index.scores(query, others).items():
        fused[doc_id] = KEYWORD_WEIGHT * score + semantic_weight * near[doc_id]
    ranked = sorted(
        ((round(min(1.0, score), 4), doc_id) for doc_id, score in fused.items()),
        key=lambda item: (-item[0], item[1]),
    )
    allowed = None if types is None else frozenset(types)
    hits: list[Hit] = []
    for score, doc_id in ranked:
        if score < threshold or score <= 0.0:
            break
        known = keyword.get(doc_id)
        hit = index.hit(doc_id, score) if known is None else replace(known, score=score)
        if hit is None or (allowed is not None and hit.type not in allowed):
            continue
        hits.append(hit)
        if len(hits) == k:
            break
    return hits
