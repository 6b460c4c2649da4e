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
    fused = KEYWORD_WEIGHT * keyword + (1 - KEYWORD_WEIGHT) * semantic, where keyword is
    gitmem.recall's share-of-query score and semantic = clip((cos - COS_FLOOR) / (COS_FULL -
    COS_FLOOR), 0, 1): a cosine below 0.35 (what unrelated text reaches with this model) counts
    nothing, 0.7 and above counts fully. The default threshold is KEYWORD_WEIGHT times the
    keyword threshold, so every entry the keyword engine alone would return still passes, and
    similarity can lift a paraphrase over the bar, but similarity alone (at most 0.3) rarely
    does: static embeddings rank paraphrases well yet cannot tell "no match" on their own.
    The weights and bounds were chosen on the labelled set in tests/recall_queries.py;
    `python bench/recall.py --quality` prints the figures.

Without the extra installed, `available()` is False and `search` is keyword recall itself.
"""

from __future__ import annotations

import importlib
import json
import re
import struct
from collections.abc import Collection, Iterable, Sequence
from dataclasses import replace
from functools import cache
from importlib.util import find_spec
from itertools import chain
from pathlib import Path
from typing import Any, Final

from gitmem.recall import DEFAULT_MIN_SCORE, STOP_WORDS, Doc, Hit, Index

__all__ = [
    "DEFAULT_MIN_SCORE",
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
#: How many entries, by similarity and by keyword score, are fused and compared.
CANDIDATES: Final = 200
KEYWORD_CANDIDATES: Final = 1000

_TOKENIZER_FILE: Final = ("tokenizers", "l2_supercat_tokenizer_config.json")
_WEIGHTS_FILE: Final = ("weights", "l2_supercat_256.safetensors")
_WORD: Final = re.compile(r"[^\W_]+(?:[_.\-]+[^\W_]+)*")
_MAX_TEXT: Final = 8_000
_MAX_CACHED_WORDS: Final = 300_000


class SemanticUnavailable(RuntimeError):
    """The extra is not installed (or its model files are missing)."""


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
    """Token embeddings and tokenizer, loaded once per process (about 0.2 s)."""

    def __init__(self) -> None:
        root = _package_dir()
        if root is None or not available():
            raise SemanticUnavailable(
                "semantic recall needs the extra: pip install 'gitmem[semantic]'"
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
            out[start + nonempty] = np.add.reduceat(self.matrix[flat], offsets, axis=0)
        return out

    def embed(self, texts: Sequence[str]) -> Any:
        """(len(texts), dim) float32 rows, unit length (zero for a text with no content)."""
        return _normalise(self.sums([_content_words(t) for t in texts]), self.np)


def _read_safetensor(path: Path, key: str, np: Any) -> Any:
    """One float16 tensor from a safetensors file, as float32 (the format is 8+JSON+raw)."""
    raw = path.read_bytes()
    (length,) = struct.unpack_from("<Q", raw, 0)
    header = json.loads(raw[8 : 8 + length])
    info = header[key]
    if info["dtype"] != "F16":
        raise SemanticUnavailable(f"unexpected model weights type {info['dtype']} in {path}")
    start, end = info["data_offsets"]
    data = raw[8 + length + start : 8 + length + end]
    return np.frombuffer(data, dtype="<f2").reshape(info["shape"]).astype(np.float32)


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
_VERSION: Final = 1
_HEAD: Final = struct.Struct("<15sHHII")  # magic, version, model name length, dim, count


class Vectors:
    """Entry vectors by id, kept beside the recall index and serialised the same way."""

    def __init__(self, dim: int = 256) -> None:
        self.dim = dim
        self._rows: dict[str, bytes] = {}
        self._matrix: Any = None
        self._ids: list[str] = []
        self._positions: dict[str, int] = {}

    @classmethod
    def build(cls, docs: Iterable[Doc], *, batch: int = 512) -> Vectors:
        """Vectors for every doc (batched: about 10,000 entries a second)."""
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
        self._rows[doc_id] = vector
        self._matrix = None

    def remove(self, doc_id: str) -> None:
        """Forget an entry's vector; an unknown id is ignored."""
        if self._rows.pop(doc_id, None) is not None:
            self._matrix = None

    def __len__(self) -> int:
        return len(self._rows)

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._rows

    def similarities(self, query_vector: Any) -> tuple[list[str], dict[str, int], Any]:
        """(ids in order, id -> row, the cosine of each row with the query)."""
        np = _model().np
        if self._matrix is None:
            self._ids = sorted(self._rows)
            self._positions = {doc_id: row for row, doc_id in enumerate(self._ids)}
            blob = b"".join(self._rows[i] for i in self._ids)
            matrix = np.frombuffer(blob, dtype="<f2").reshape(len(self._ids), self.dim)
            self._matrix = matrix.astype(np.float32)
        if not self._ids:
            return [], {}, np.zeros(0, dtype=np.float32)
        return self._ids, self._positions, self._matrix @ query_vector

    def to_bytes(self) -> bytes:
        """Magic, version, model name, dimension, count, the ids, then the float16 rows."""
        ids = sorted(self._rows)
        name = MODEL.encode()
        id_blob = "\n".join(ids).encode()
        head = _HEAD.pack(_MAGIC, _VERSION, len(name), self.dim, len(ids))
        rows = b"".join(self._rows[i] for i in ids)
        return b"".join([head, name, struct.pack("<I", len(id_blob)), id_blob, rows])

    @classmethod
    def from_bytes(cls, data: bytes | bytearray | memoryview) -> Vectors:
        """Load vectors written by to_bytes; ValueError when corrupt or from another model."""
        view = memoryview(data).cast("B")
        if len(view) < _HEAD.size:
            raise ValueError("entry vectors are truncated")
        magic, version, name_len, dim, count = _HEAD.unpack_from(view, 0)
        if magic != _MAGIC:
            raise ValueError("not gitmem entry vectors")
        if version != _VERSION:
            raise ValueError(f"entry vectors version {version}, expected {_VERSION}")
        pos = _HEAD.size
        name = bytes(view[pos : pos + name_len])
        if name != MODEL.encode():
            raise ValueError(f"entry vectors of model {name!r}, expected {MODEL}")
        pos += name_len
        if pos + 4 > len(view):
            raise ValueError("entry vectors are truncated")
        (id_len,) = struct.unpack_from("<I", view, pos)
        pos += 4
        ids = bytes(view[pos : pos + id_len]).decode().split("\n") if count else []
        pos += id_len
        if len(ids) != count or len(set(ids)) != count or pos + 2 * dim * count != len(view):
            raise ValueError("entry vectors are truncated or corrupt")
        vectors = cls(dim)
        for i, doc_id in enumerate(ids):
            start = pos + 2 * dim * i
            vectors._rows[doc_id] = bytes(view[start : start + 2 * dim])
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
            order = np.argsort(-values, kind="stable")
            near = {ids[i]: float(values[i]) for i in order[:CANDIDATES].tolist()}
            if len(order) > CANDIDATES:
                beyond = float(values[order[CANDIDATES]])

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
