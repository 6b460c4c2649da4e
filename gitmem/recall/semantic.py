"""Semantic recall, the optional `gitmem[semantic]` extra: find entries described in other words.

Keyword recall finds "Scan entries for secrets before admission" for "secret scanning", not for
"stop credentials leaking into the notes agents read". This module adds a small static
embedding model whose weights ship inside a PyPI package, so nothing is downloaded at run time:
WordLlama's `l2_supercat` 256-dimension token embeddings (MIT licence) and its tokenizer, both in
the `wordllama` wheel. gitmem reads the two files itself and never imports wordllama, whose
import configures logging and whose loader tries the network.

Embedding
    A text loses its English stop words, is tokenised, and its token vectors are summed and
    normalised. An entry's vector is the normalised sum of two such vectors: its title,
    applies_when and tags, and its whole text; so the headline counts as much as the body.
    Vectors are stored as float16, 512 bytes an entry, about 630 with the id and the codes below
    (`embed_doc`, `Vectors`).

Start-up
    A recall runs in a fresh process, so what the model costs to start counts as much as what
    it costs to run. A query and a one-entry update use neither numpy nor `tokenizers`: the
    tokenizer is gitmem.recall.tokenizer's pure-Python equal of the model's Llama BPE, its compact
    form cached per user; a token's vector is read from the memory-mapped weights with struct; a
    query is a few words. numpy (in the extra) builds many vectors at once: a cache's first build,
    which runs in a forked process on another core while the keyword index is built
    (`build_in_background`), and the rare merge that makes a chunk large.

Fusion and gating
    When the keyword engine alone is already confident (its best hit scores at least
    CONFIDENT_KEYWORD), its answer stands and the model is not even loaded. Otherwise
    fused = KEYWORD_WEIGHT * keyword + (1 - KEYWORD_WEIGHT) * semantic, where keyword is
    gitmem.recall.engine's share-of-query score and semantic = clip((cos - COS_FLOOR) / (COS_FULL -
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

Similarity over many entries, without numpy
    The CANDIDATES most similar entries are found in two steps. A chunk of more than
    EXACT_ROWS entries also stores a 2-bit code of each entry in each dimension: whether it
    lies above the chunk's mean, and whether it lies far from it (beyond the median distance),
    as 2 x 256 "planes" (an n-bit integer each), with the mean distance of the near and of the
    far entries. A query scores every entry at once with Python's big integers: each
    dimension's planes, weighted by |q_d| times those distances quantised to 3 bits, are added
    into bit-sliced counters by carry-save adders, and a radix select on the counters' bits
    keeps the best (SHORTLIST in all, shared among the large chunks by size). Those, and every
    entry of the small chunks, are then ranked by their exact cosine from the float16 rows.
    On the 100,000-entry benchmark store, whose generated entries are near-copies of each
    other, the shortlist keeps 0.96 of the exact top 100 and 0.98 of the top 10 (entries above
    COS_FLOOR; one bit a dimension kept 0.79 and 0.87); `bench/recall.py --shortlist` prints
    the shares. An entry the shortlist misses loses only its semantic share, never its keyword
    score.

Storage
    `Vectors` holds the entries' vectors by id. Like the recall index it is stored either as one
    blob (to_bytes) or as a manifest and immutable chunks named by content (to_parts), so that
    an admission embeds one entry (pure Python, a few milliseconds) and writes one small chunk.
    The manifest lists, per chunk, the rows later chunks replaced or removals dropped, so a
    reader learns what is live without reading any chunk's ids.

Without the extra installed, `available()` is False and `search` is keyword recall itself.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import mmap
import os
import re
import struct
import sys
import zlib
from bisect import bisect_left
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import replace
from functools import cache
from importlib.util import find_spec
from itertools import chain, islice, pairwise
from math import dist, hypot, sqrt
from operator import add
from pathlib import Path
from typing import Any, Final

from gitmem import DISTRIBUTION
from gitmem.errors import UsageError
from gitmem.recall.engine import DEFAULT_MIN_SCORE, STOP_WORDS, Doc, Hit, Index
from gitmem.recall.tokenizer import BPE

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
#: How many entries the codes shortlist for exact ranking (a quarter of a small store), shared
#: among the large chunks by their sizes (at least MIN_SHORTLIST each). bench/recall.py
#: --shortlist measures the choice.
SHORTLIST: Final = 1024
MIN_SHORTLIST: Final = 128
#: Chunks up to this size store no codes: all their rows are ranked exactly.
EXACT_ROWS: Final = 256
#: Query weights per dimension, in bits (0 to 7).
_WEIGHT_BITS: Final = 3

_TOKENIZER_FILE: Final = ("tokenizers", "l2_supercat_tokenizer_config.json")
_WEIGHTS_FILE: Final = ("weights", "l2_supercat_256.safetensors")
_WORD: Final = re.compile(r"[^\W_]+(?:[_.\-]+[^\W_]+)*")
#: The same words in ASCII text, found about twice as fast.
_ASCII_WORD: Final = re.compile(r"[A-Za-z0-9]+(?:[_.\-]+[A-Za-z0-9]+)*", re.ASCII)
_MAX_TEXT: Final = 8_000
_MAX_CACHED_WORDS: Final = 300_000
_NONZERO: Final = re.compile(b"[^\x00]")
#: A cache build of at least this many entries embeds them in a forked process, sent to it in
#: batches of _BACKGROUND_BATCH as they are read.
_BACKGROUND_MIN: Final = 2000
_BACKGROUND_BATCH: Final = 4096
#: True in that process, which told BLAS to use one thread before numpy was imported.
_OWN_BLAS_THREAD = False


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
    """True when numpy and the model files of the semantic extra are installed."""
    root = _package_dir()
    if root is None or not (root.joinpath(*_TOKENIZER_FILE).is_file()):
        return False
    if not root.joinpath(*_WEIGHTS_FILE).is_file():
        return False
    return find_spec("numpy") is not None


def _user_cache() -> Path | None:
    try:
        import platformdirs
    except ImportError:  # pragma: no cover - a dependency of gitmem
        return None
    return Path(platformdirs.user_cache_dir("gitmem", appauthor=False))


class _Model:
    """Tokenizer and token embeddings (memory-mapped), loaded once per process."""

    def __init__(self) -> None:
        root = _package_dir()
        if root is None or not available():
            raise SemanticUnavailable(
                "semantic recall needs the optional extra: "
                f"pipx install --force '{DISTRIBUTION}[semantic]' (or pip install it)"
            )
        self.bpe = BPE.from_file(root.joinpath(*_TOKENIZER_FILE), cache_dir=_user_cache())
        self.weights, self.offset, self.vocab, self.dim = _map_safetensor(
            root.joinpath(*_WEIGHTS_FILE), "embedding.weight"
        )
        self.row = struct.Struct(f"<{self.dim}e")
        self._word_ids: dict[str, list[int]] = {}
        self._batch_tokenizer: Any = None

    def token_ids(self, word: str) -> list[int]:
        """A word's tokens (the tokenizer never merges across a space, so a text's tokens are its
        words' tokens in order), remembered: a build meets the same words again and again."""
        ids = self._word_ids.get(word)
        if ids is None:
            if len(self._word_ids) >= _MAX_CACHED_WORDS:
                self._word_ids.clear()
            ids = self._word_ids[word] = self.bpe.encode(word)
        return ids

    def batch_tokenizer(self) -> Any | None:
        """The `tokenizers` Tokenizer of the model's file when that library is installed."""
        if self._batch_tokenizer is None and find_spec("tokenizers") is not None:
            tokenizers: Any = importlib.import_module("tokenizers")
            root = _package_dir()
            assert root is not None
            tokenizer = tokenizers.Tokenizer.from_file(str(root.joinpath(*_TOKENIZER_FILE)))
            tokenizer.no_padding()
            tokenizer.no_truncation()
            self._batch_tokenizer = tokenizer
        return self._batch_tokenizer

    def token_row(self, token: int) -> tuple[float, ...]:
        return self.row.unpack_from(self.weights, self.offset + 2 * self.dim * token)

    def word_sum(self, words: Iterable[str]) -> list[float]:
        """The sum of the words' token vectors, in pure Python (float64)."""
        total = [0.0] * self.dim
        counts: dict[int, int] = {}
        for word in words:
            for token in self.token_ids(word):
                counts[token] = counts.get(token, 0) + 1
        for token, count in counts.items():
            row = self.token_row(token)
            total = list(map(add, total, row if count == 1 else [count * x for x in row]))
        return total


def _map_safetensor(path: Path, key: str) -> tuple[mmap.mmap, int, int, int]:
    """(mapping, data offset, rows, columns) of one float16 matrix in a safetensors file (8 bytes
    of header length, the JSON header, raw data): a query reads only its own tokens' rows."""
    with open(path, "rb") as handle:
        (length,) = struct.unpack("<Q", handle.read(8))
        header = json.loads(handle.read(length))
        mapping = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    info = header[key]
    if info["dtype"] != "F16" or len(info["shape"]) != 2:
        raise SemanticUnavailable(
            f"{path} holds {info['dtype']} weights, not F16: install wordllama 0.4 "
            f"(pip install '{DISTRIBUTION}[semantic]')"
        )
    start, end = info["data_offsets"]
    rows, dim = (int(x) for x in info["shape"])
    if end - start != 2 * rows * dim or 8 + length + end > len(mapping):
        raise SemanticUnavailable(f"{path} is truncated: reinstall wordllama")
    return mapping, 8 + length + start, rows, dim


def _words(text: str) -> list[str]:
    return (_ASCII_WORD if text.isascii() else _WORD).findall(text)


def _content_words(text: str) -> list[str]:
    return [w for w in _words(text[:_MAX_TEXT]) if w.lower() not in STOP_WORDS]


def _head(doc: Doc) -> str:
    return f"{doc.title}. {doc.applies_when}. {' '.join(doc.tags)}"


@cache
def _model() -> _Model:
    return _Model()


def _unit(vector: list[float]) -> list[float]:
    norm = sqrt(sum(x * x for x in vector))
    return [x / norm for x in vector] if norm else vector


def embed_doc(doc: Doc) -> bytes:
    """One entry's vector (float16, little-endian), in pure Python: an admission's work. The
    same bytes as the row Vectors.build computes in batches (both sum in float64)."""
    model = _model()
    head = model.word_sum(_content_words(_head(doc)))
    both = list(map(add, head, model.word_sum(_content_words(doc.body))))
    return model.row.pack(*_unit(list(map(add, _unit(head), _unit(both)))))


def embed_query(query: str) -> list[float] | None:
    """The query's unit vector, or None when it has no content word."""
    vector = _unit(_model().word_sum(_content_words(query)))
    return vector if any(vector) else None


def _embed_many(docs: Sequence[Doc]) -> Any:
    """(len(docs), dim) float16 unit rows, computed with numpy: each distinct word is tokenised
    once, and a batch of texts is its token-count matrix times those tokens' vectors (a batch of
    64 entries uses a few hundred to a few thousand distinct tokens)."""
    np: Any = importlib.import_module("numpy")
    model = _model()
    matrix = np.frombuffer(
        model.weights, dtype="<f2", count=model.vocab * model.dim, offset=model.offset
    ).reshape(model.vocab, model.dim)
    wide = np.empty(matrix.shape, dtype=np.float64)  # float64, as the pure-Python path sums
    widened = np.zeros(model.vocab, dtype=bool)
    known: dict[str, list[int]] = {}  # word -> its tokens; none for a stop word
    out = np.empty((len(docs), model.dim), dtype="<f2")
    for start in range(0, len(docs), 64):
        batch = docs[start : start + 64]
        found = [_words(t[:_MAX_TEXT]) for d in batch for t in (_head(d), d.body)]
        fresh = list(set().union(*found).difference(known))
        if fresh:
            known.update(zip(fresh, _tokenise(fresh, model), strict=True))
        tokens = [list(chain.from_iterable(map(known.__getitem__, f))) for f in found]
        lengths = np.fromiter(map(len, tokens), dtype=np.int64, count=len(tokens))
        flat = np.fromiter(chain.from_iterable(tokens), dtype=np.int64, count=int(lengths.sum()))
        distinct, inverse = np.unique(flat, return_inverse=True)
        missing = distinct[~widened[distinct]]
        if missing.size:
            wide[missing] = matrix[missing]
            widened[missing] = True
        owner = np.repeat(np.arange(len(tokens)), lengths)
        counts = np.bincount(
            owner * len(distinct) + inverse, minlength=len(tokens) * len(distinct)
        ).reshape(len(tokens), len(distinct))
        if _OWN_BLAS_THREAD:
            sums = counts.astype(np.float64) @ wide[distinct]
        else:  # a threaded BLAS stalls on these small products when the machine is busy
            sums = np.einsum("ij,jk->ik", counts.astype(np.float64), wide[distinct])
        head, body = sums[0::2], sums[1::2]
        both = _normalise(head, np) + _normalise(head + body, np)
        out[start : start + len(batch)] = _normalise(both, np)
    return out


def _tokenise(words: list[str], model: _Model) -> list[list[int]]:
    """Each word's tokens, none for a stop word. Many words at once are tokenised by
    `tokenizers` when it is installed (the same ids, checked by the tests, faster)."""
    content = [w for w in words if w.lower() not in STOP_WORDS]
    tokenizer = model.batch_tokenizer() if len(content) >= 20 else None
    if tokenizer is not None:
        encoded = tokenizer.encode_batch(content, add_special_tokens=False)
        tokens = dict(zip(content, (e.ids for e in encoded), strict=True))
    else:
        tokens = {w: model.token_ids(w) for w in content}
    return [tokens.get(w, []) for w in words]


def _normalise(rows: Any, np: Any) -> Any:
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return rows / norms


# -- storage ------------------------------------------------------------------------------

_MAGIC: Final = b"GITMEM-VECTORS\x00"
_MANIFEST_MAGIC: Final = b"GITMEM-VECTORSM"
_VERSION: Final = 2
_HEAD: Final = struct.Struct("<15sHHII")  # magic, version, model name length, dim, count
_U32: Final = struct.Struct("<I")
_CRC: Final = _U32
#: One save merges at most this many entries' chunks (bounds the work of an admission).
MAX_MERGE_VECTORS: Final = 8192


def _frame(magic: bytes, dim: int, count: int, parts: Iterable[bytes]) -> bytes:
    name = MODEL.encode()
    body = b"".join([_HEAD.pack(magic, _VERSION, len(name), dim, count), name, *parts])
    return body + _CRC.pack(zlib.crc32(body))


def _unframe(
    magic: bytes, data: bytes | bytearray | memoryview, *, verify: bool
) -> tuple[int, int, memoryview]:
    """(dim, count, body) of a blob written by _frame; ValueError when it is not one."""
    view = memoryview(data).cast("B")
    if len(view) < _HEAD.size + _CRC.size:
        raise ValueError("entry vectors are truncated")
    if verify and zlib.crc32(view[: -_CRC.size]) != _CRC.unpack_from(view, len(view) - 4)[0]:
        raise ValueError("entry vectors fail their checksum")
    found, version, name_len, dim, count = _HEAD.unpack_from(view, 0)
    if found != magic:
        raise ValueError("not gitmem entry vectors")
    if version != _VERSION:
        raise ValueError(f"entry vectors version {version}, expected {_VERSION}")
    name = bytes(view[_HEAD.size : _HEAD.size + name_len])
    if name != MODEL.encode():
        raise ValueError(f"entry vectors of model {name!r}, expected {MODEL}")
    if dim == 0 or dim % 8:
        raise ValueError("entry vectors have a bad dimension")
    return dim, count, view[_HEAD.size + name_len : len(view) - _CRC.size]


def _chunk_name(data: bytes | bytearray | memoryview) -> str:
    """Size and stored CRC-32 (the CRC of data ending in its own CRC would be a constant)."""
    view = memoryview(data).cast("B")
    crc = _CRC.unpack_from(view, len(view) - _CRC.size)[0] if len(view) >= _CRC.size else 0
    return f"{len(view):08x}{crc:08x}"


class _Chunk:
    """One chunk, read in place: sorted ids (an offset table and NUL-ended UTF-8), float16 rows,
    and for a large chunk its codes: per dimension, the mean, the mean distance from it of the
    near and of the far half of the entries (float32), and two planes (n bits each): which
    entries lie above the mean, which lie far from it."""

    def __init__(self, data: bytes | bytearray | memoryview, *, verify: bool) -> None:
        dim, count, body = _unframe(_MAGIC, data, verify=False)
        self.name = _chunk_name(data)
        self.dim = dim
        self.count = count
        table = 4 * (count + 1)
        if len(body) < table:
            raise ValueError("entry vectors are truncated or corrupt")
        self._offsets = body[:table]
        id_size = _U32.unpack_from(body, table - 4)[0]
        pos = table + id_size
        self._ids = body[table:pos]
        self.rows = body[pos : pos + 2 * dim * count]
        pos += 2 * dim * count
        rest = len(body) - pos
        self.plane_size = (count + 7) // 8 if rest else 0
        self.stats = body[pos : pos + 12 * dim] if rest else body[pos:pos]
        self.planes = body[pos + 12 * dim :] if rest else body[pos:pos]
        if len(self.rows) != 2 * dim * count or (rest and rest != dim * (12 + 2 * self.plane_size)):
            raise ValueError("entry vectors are truncated or corrupt")
        self.data = data
        self._checked = False
        # planes as integers, made on first use and kept: a long-lived process (the MCP
        # server) then pays for the conversion once, not on every query
        self._plane_ints: list[int | None] = [None] * (2 * dim if rest else 0)
        if verify:
            self.check()

    def plane(self, index: int) -> int:
        """Plane `index` (0..dim-1: above the mean; dim..2 dim-1: far from it) as an integer
        whose bit i is entry i's."""
        found = self._plane_ints[index]
        if found is None:
            width = self.plane_size
            found = int.from_bytes(self.planes[index * width : (index + 1) * width], "little")
            self._plane_ints[index] = found
        return found

    def check(self) -> None:
        """Verify the CRC-32 and the id table (once); ValueError when they are corrupt."""
        if not self._checked:
            _unframe(_MAGIC, self.data, verify=True)
            count = self.count
            ids = self.ids()
            if len(ids) != count or any(a >= b for a, b in pairwise(ids)):
                raise ValueError("entry vectors have a corrupt id table")
            ends = struct.unpack_from(f"<{count + 1}I", self._offsets)
            starts = [0, *(len(i.encode()) + 1 for i in ids)]
            if list(ends) != list(_accumulate(starts)):
                raise ValueError("entry vectors have a corrupt id table")
            self._checked = True

    def ids(self) -> list[str]:
        if not self.count:
            return []
        return bytes(self._ids[:-1]).decode().split("\x00")

    def id_at(self, i: int) -> str:
        start, end = struct.unpack_from("<2I", self._offsets, 4 * i)
        return bytes(self._ids[start : end - 1]).decode()

    def find(self, doc_id: str) -> int:
        """The position of doc_id, or -1."""
        i = bisect_left(_IdSequence(self), doc_id)
        return i if i < self.count and self.id_at(i) == doc_id else -1

    def row(self, i: int) -> memoryview:
        width = 2 * self.dim
        return self.rows[i * width : (i + 1) * width]


class _IdSequence(Sequence[str]):
    """A chunk's sorted ids as a sequence, for bisect: only the probed ids are decoded."""

    def __init__(self, chunk: _Chunk) -> None:
        self._chunk = chunk

    def __len__(self) -> int:
        return self._chunk.count

    def __getitem__(self, i: Any) -> Any:
        return self._chunk.id_at(i)


def _accumulate(values: list[int]) -> Iterator[int]:
    total = 0
    for value in values:
        total += value
        yield total


def _encode_chunk(dim: int, rows: list[tuple[str, bytes | memoryview]]) -> bytes:
    """A chunk of rows (sorted here by id); large chunks get their codes with numpy."""
    rows.sort(key=lambda row: row[0])
    encoded = [doc_id.encode() + b"\x00" for doc_id, _ in rows]
    offsets = struct.pack(f"<{len(rows) + 1}I", *_accumulate([0, *map(len, encoded)]))
    blob = b"".join(r for _, r in rows)
    parts = [offsets, b"".join(encoded), blob]
    if len(rows) > EXACT_ROWS:
        np: Any = importlib.import_module("numpy")
        matrix = np.frombuffer(blob, dtype="<f2").reshape(len(rows), dim).astype(np.float32)
        centre = matrix.mean(axis=0)
        distance = np.abs(matrix - centre)
        far = distance > np.median(distance, axis=0)
        far_count = np.maximum(far.sum(axis=0), 1)
        near_count = np.maximum(len(rows) - far.sum(axis=0), 1)
        far_mean = np.where(far, distance, 0.0).sum(axis=0) / far_count
        near_mean = np.where(far, 0.0, distance).sum(axis=0) / near_count
        parts += [
            centre.astype("<f4").tobytes(),
            near_mean.astype("<f4").tobytes(),
            far_mean.astype("<f4").tobytes(),
            np.packbits((matrix > centre).T, axis=1, bitorder="little").tobytes(),
            np.packbits(far.T, axis=1, bitorder="little").tobytes(),
        ]
    return _frame(_MAGIC, dim, len(rows), parts)


_Positions = set[int]  # a chunk's dead rows (inside Vectors, `set` names a method)


class Vectors:
    """Entry vectors by id, kept beside the recall index and stored the same ways.

    to_bytes/from_bytes: one blob. to_parts/from_parts: a manifest and immutable chunks named by
    their content, where a save writes only the new entries' chunk (merging small chunks as the
    recall index merges segments), so an admission costs one vector's work at any size.
    Each id is live in one place: the unsaved vectors, or one row of one chunk (older rows of
    it are listed dead).
    """

    def __init__(self, dim: int = 256) -> None:
        self.dim = dim
        self._chunks: list[_Chunk] = []
        self._dead: list[_Positions] = []  # per chunk: positions no longer live
        self._pending: dict[str, bytes] = {}
        self._unsaved: dict[str, bytes | bytearray | memoryview] = {}  # chunks to_parts owes

    @classmethod
    def build(cls, docs: Iterable[Doc], *, batch: int = 8192) -> Vectors:
        """Vectors for every doc, embedded in batches."""
        vectors = cls(_model().dim)
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
            for doc, row in zip(docs, _embed_many(docs), strict=True):
                self.set(doc.id, row.tobytes())

    def add(self, doc: Doc) -> None:
        """Embed and store one entry (replacing any vector it had)."""
        self.set(doc.id, embed_doc(doc))

    def set(self, doc_id: str, vector: bytes) -> None:
        """Store a vector computed by embed_doc (so a cache can reuse it)."""
        if len(vector) != 2 * self.dim:
            raise ValueError(f"a vector has {2 * self.dim} bytes, not {len(vector)}")
        if "\x00" in doc_id:
            raise ValueError("an entry id holds no NUL character")
        if doc_id not in self._pending:
            self._drop_stored(doc_id)
        self._pending[doc_id] = vector

    def remove(self, doc_id: str) -> None:
        """Forget an entry's vector; an unknown id is ignored."""
        if self._pending.pop(doc_id, None) is None:
            self._drop_stored(doc_id)

    def _drop_stored(self, doc_id: str) -> None:
        for chunk, dead in zip(self._chunks, self._dead, strict=True):
            at = chunk.find(doc_id)
            if at >= 0:
                dead.add(at)

    def __len__(self) -> int:
        stored = sum(c.count - len(d) for c, d in zip(self._chunks, self._dead, strict=True))
        return stored + len(self._pending)

    def __contains__(self, doc_id: object) -> bool:
        if doc_id in self._pending:
            return True
        if not isinstance(doc_id, str):
            return False
        for chunk, dead in zip(self._chunks, self._dead, strict=True):
            at = chunk.find(doc_id)
            if at >= 0 and at not in dead:
                return True
        return False

    def _live_rows(self, index: int) -> list[tuple[str, bytes | memoryview]]:
        chunk, dead = self._chunks[index], self._dead[index]
        chunk.check()  # rows copied into a new chunk are verified first
        return [(i, chunk.row(j)) for j, i in enumerate(chunk.ids()) if j not in dead]

    # -- similarity ------------------------------------------------------------------------

    def nearest(
        self, query: list[float], count: int
    ) -> tuple[list[tuple[float, str]], float | None]:
        """(cosine, id) of the `count` entries most similar to the unit vector query, best
        first, with any ties of the last; and the best cosine after them (None if no entry is
        left). Large chunks are shortlisted by their codes first (module docstring)."""
        row = struct.Struct(f"<{self.dim}e")
        width = 2 * self.dim
        found: list[tuple[float, int, int]] = []  # cosine, chunk, position (-1: unsaved)
        total = max(1, len(self))
        budget = min(SHORTLIST, max(2 * MIN_SHORTLIST, total // 4))
        for index, (chunk, dead) in enumerate(zip(self._chunks, self._dead, strict=True)):
            live = chunk.count - len(dead)
            size = max(MIN_SHORTLIST, -(-budget * live // total))
            if chunk.plane_size and live > size:
                positions: Iterable[int] = _shortlist(chunk, dead, query, size)
            else:
                positions = (i for i in range(chunk.count) if i not in dead)
            rows = chunk.rows
            found.extend(
                (_dot(query, row.unpack_from(rows, i * width)), index, i) for i in positions
            )
        pending = list(self._pending.items())
        found.extend((_dot(query, row.unpack(v)), -1, i) for i, (_, v) in enumerate(pending))
        found.sort(key=lambda item: -item[0])
        end = len(found)
        after = None
        if end > count:
            cut = found[count - 1][0]
            end = count
            while end < len(found) and found[end][0] >= cut:
                end += 1
            after = found[end][0] if end < len(found) else None
        scored = [
            (cosine, pending[i][0] if index < 0 else self._chunks[index].id_at(i))
            for cosine, index, i in found[:end]
        ]
        scored.sort(key=lambda item: (-item[0], item[1]))
        return scored, after

    def cosine(self, query: list[float], doc_id: str) -> float | None:
        """The exact cosine of one entry with the unit vector query; None when not stored."""
        row = struct.Struct(f"<{self.dim}e")
        vector = self._pending.get(doc_id)
        if vector is not None:
            return _dot(query, row.unpack(vector))
        for chunk, dead in zip(reversed(self._chunks), reversed(self._dead), strict=True):
            at = chunk.find(doc_id)
            if at >= 0 and at not in dead:
                return _dot(query, row.unpack_from(chunk.rows, at * 2 * self.dim))
        return None

    # -- serialisation ---------------------------------------------------------------------

    def to_bytes(self) -> bytes:
        """Every live vector in one blob: head, model name, ids, float16 rows, planes, CRC-32."""
        rows = [row for index in range(len(self._chunks)) for row in self._live_rows(index)]
        rows.extend(self._pending.items())
        return _encode_chunk(self.dim, rows)

    @classmethod
    def from_bytes(cls, data: bytes | bytearray | memoryview) -> Vectors:
        """Load vectors written by to_bytes; ValueError when corrupt or from another model."""
        vectors = cls()
        chunk = _Chunk(data, verify=True)
        vectors._append(chunk, set())
        vectors._unsaved[chunk.name] = data
        return vectors

    def _append(self, chunk: _Chunk, dead: _Positions) -> None:
        if self._chunks and chunk.dim != self.dim:
            raise ValueError("entry vector chunks disagree on the dimension")
        self.dim = chunk.dim
        self._chunks.append(chunk)
        self._dead.append(dead)

    def to_parts(self) -> tuple[bytes, dict[str, bytes | bytearray | memoryview]]:
        """(manifest, {chunk name: chunk}) after folding unsaved vectors into a new chunk: every
        chunk the manifest names, the new one and the others (read in place), so that a store
        writes the ones it lacks and keeps all of them."""
        fresh: dict[str, bytes] = {}
        if self._pending:
            chunks = self._chunks
            start = len(chunks)
            size = len(self._pending)
            while (
                start > 0
                and size * 2 >= chunks[start - 1].count
                and size + chunks[start - 1].count <= MAX_MERGE_VECTORS
            ):
                start -= 1
                size += chunks[start].count
            rows = [row for index in range(start, len(chunks)) for row in self._live_rows(index)]
            rows.extend(self._pending.items())
            data = _encode_chunk(self.dim, rows)
            del self._chunks[start:]
            del self._dead[start:]
            self._pending.clear()
            chunk = _Chunk(data, verify=False)
            self._append(chunk, set())
            fresh[chunk.name] = data
        parts: dict[str, bytes | bytearray | memoryview] = {}
        for chunk in self._chunks:
            parts[chunk.name] = fresh.get(chunk.name) or self._unsaved.get(chunk.name) or chunk.data
        self._unsaved.clear()
        entries = []
        for chunk, dead in zip(self._chunks, self._dead, strict=True):
            entries.append(chunk.name.encode("ascii") + _U32.pack(len(dead)))
            entries.append(struct.pack(f"<{len(dead)}I", *sorted(dead)))
        return _frame(_MANIFEST_MAGIC, self.dim, len(self._chunks), entries), parts

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
        (chunk raising KeyError or OSError). The manifest's CRC-32 is always checked, each
        chunk's size and layout too; verify also checks the CRC-32 and id table of the chunks a
        save may merge (up to MAX_MERGE_VECTORS entries), and any chunk is checked before its
        rows are copied: the large base chunk of an update is mapped, not read, and not
        rewritten. Chunks are read in place, so their buffers (an mmap) must outlive the
        Vectors.
        """
        dim, count, body = _unframe(_MANIFEST_MAGIC, manifest, verify=True)
        vectors = cls(dim)
        pos = 0
        for _ in range(count):
            if pos + 20 > len(body):
                raise ValueError("entry vector manifest is corrupt")
            name = bytes(body[pos : pos + 16]).decode("ascii", "replace")
            (dead_count,) = _U32.unpack_from(body, pos + 16)
            pos += 20
            if pos + 4 * dead_count > len(body):
                raise ValueError("entry vector manifest is corrupt")
            dead = set(struct.unpack_from(f"<{dead_count}I", body, pos))
            pos += 4 * dead_count
            try:
                data = chunk(name)
            except (KeyError, OSError) as exc:
                raise ValueError(f"entry vector chunk {name} is missing") from exc
            loaded = _Chunk(data, verify=verify and _count_of(data) <= MAX_MERGE_VECTORS)
            if loaded.name != name:
                raise ValueError(f"entry vector chunk {name} does not match its name")
            if dead and max(dead) >= loaded.count:
                raise ValueError("entry vector manifest is corrupt")
            vectors._append(loaded, dead)
        if pos != len(body) or vectors.dim != dim:
            raise ValueError("entry vector manifest is corrupt")
        return vectors


def _dot(unit: list[float], row: tuple[float, ...]) -> float:
    """unit . row, for a unit vector: (|u|^2 + |r|^2 - |u - r|^2) / 2 with math's C loops, twice
    as fast as summing the products in Python, and within 1e-15 of it."""
    return (1.0 + hypot(*row) ** 2 - dist(unit, row) ** 2) / 2.0


def _count_of(data: bytes | bytearray | memoryview) -> int:
    """The entry count in a chunk's head (0 when there is none)."""
    view = memoryview(data).cast("B")
    return int(_HEAD.unpack_from(view, 0)[4]) if len(view) >= _HEAD.size else 0


def build_in_background(docs: Iterable[Doc]) -> tuple[list[Doc], Callable[[], Vectors]]:
    """Read docs here (a generator reading a store) while a forked process embeds them as they
    come, so that a cache's first build embeds on one core while this one reads the entries
    and builds the keyword index. Returns the docs read and a function that waits for their
    vectors. Embeds in place (when that function is called) where forking is not safe or does
    not pay: few docs, no fork, numpy or other threads already running in this process."""
    import pickle
    import queue
    import tempfile
    import threading

    source = iter(docs)
    read = list(islice(source, _BACKGROUND_MIN))
    if (
        len(read) < _BACKGROUND_MIN
        or not hasattr(os, "fork")
        or "numpy" in sys.modules
        or threading.active_count() > 1
    ):
        read.extend(source)
        return read, lambda: Vectors.build(read)
    result = tempfile.TemporaryFile()  # noqa: SIM115 - finish() closes it
    child_end, our_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child, measured by its result
        status = 1
        try:
            global _OWN_BLAS_THREAD
            os.close(our_end)
            for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
                os.environ[name] = "1"
            _OWN_BLAS_THREAD = True
            vectors = Vectors(_model().dim)
            with os.fdopen(child_end, "rb") as pipe:
                while received := pickle.load(pipe):
                    vectors._add_batch(received)
            result.write(vectors.to_bytes())
            result.flush()
            status = 0
        finally:
            os._exit(status)
    os.close(child_end)
    batches: queue.SimpleQueue[list[Doc]] = queue.SimpleQueue()

    def feed() -> None:  # the pipe blocks while the child embeds: reading goes on meanwhile
        with contextlib.suppress(OSError), os.fdopen(our_end, "wb") as pipe:
            while sent := batches.get():
                pickle.dump(sent, pipe, protocol=pickle.HIGHEST_PROTOCOL)
            pickle.dump([], pipe)

    writer = threading.Thread(target=feed, name="gitmem-vectors-feed", daemon=True)
    writer.start()
    batches.put(list(read))
    batch: list[Doc] = []
    try:
        for doc in source:
            read.append(doc)
            batch.append(doc)
            if len(batch) >= _BACKGROUND_BATCH:
                batches.put(batch)
                batch = []
        batches.put(batch)
    finally:
        batches.put([])  # the end, even when reading fails: the child then stops

    def finish() -> Vectors:
        writer.join()
        with result:
            _, status = os.waitpid(pid, 0)
            result.seek(0)
            data = result.read()
        if status != 0 or not data:
            return Vectors.build(read)
        vectors = Vectors.from_bytes(data)
        if len(vectors) != len({d.id for d in read}):
            return Vectors.build(read)
        return vectors

    return read, finish


# -- the shortlist: sign planes scored with big integers ---------------------------------------


def _shortlist(chunk: _Chunk, dead: _Positions, query: list[float], size: int) -> list[int]:
    """Positions of about `size` live entries of chunk that its codes score highest.

    An entry's code in dimension d stands for centre + or - (near_d, or far_d when its far bit
    is set), so its product with the query, less a constant, is the sum over d of
    |q_d| (near_d (2 match - 1) + (far_d - near_d) far (2 match - 1)), where match says the
    entry lies on the query's side of the centre. Written with bits only (not-far = 1 - far):
    2 W1 match + 2 W2 (match and far) + W2 (not far), W1 and W2 quantised to _WEIGHT_BITS."""
    dim = chunk.dim
    n = chunk.count
    stats = struct.unpack_from(f"<{3 * dim}f", chunk.stats)
    near = [abs(q) * x for q, x in zip(query, stats[dim : 2 * dim], strict=True)]
    extra = [
        abs(q) * max(0.0, f - x)
        for q, f, x in zip(query, stats[2 * dim :], stats[dim : 2 * dim], strict=True)
    ]
    top = max(max(near), max(extra))
    if top <= 0.0:
        return [i for i in range(n) if i not in dead][:size]
    scale = ((1 << _WEIGHT_BITS) - 1) / top
    full = (1 << n) - 1
    buckets: list[list[int]] = [[] for _ in range(_WEIGHT_BITS + 1)]

    def put(weight: int, shift: int, plane: int) -> None:
        for bit in range(_WEIGHT_BITS):
            if weight >> bit & 1:
                buckets[bit + shift].append(plane)

    for d in range(dim):
        w1 = int(near[d] * scale + 0.5)
        w2 = int(extra[d] * scale + 0.5)
        if not (w1 or w2):
            continue
        match = chunk.plane(d)
        if query[d] < 0:
            match ^= full
        put(w1, 1, match)
        if w2:
            far = chunk.plane(dim + d)
            put(w2, 1, match & far)
            put(w2, 0, far ^ full)
    counters = _add_up(buckets)
    live = full
    for i in dead:
        live &= ~(1 << i)
    return _select(counters, live, size, n)


def _add_up(buckets: list[list[int]]) -> list[int]:
    """Bit-sliced sum: buckets[j] holds planes worth 2**j each; returns counter bit-planes.

    Carry-save adders (a full adder turns three planes of one weight into one of that weight
    and one of the next) until each weight holds one plane."""
    counters = []
    j = 0
    while j < len(buckets):
        planes = buckets[j]
        carries: list[int] = []
        while len(planes) > 2:
            a = planes.pop()
            b = planes.pop()
            c = planes.pop()
            partial = a ^ b
            planes.append(partial ^ c)
            carries.append((a & b) | (partial & c))
        if len(planes) == 2:
            a, b = planes
            planes = [a ^ b]
            carries.append(a & b)
        counters.append(planes[0] if planes else 0)
        if carries:
            if j + 1 == len(buckets):
                buckets.append([])
            buckets[j + 1].extend(carries)
        j += 1
    return counters


def _select(counters: list[int], live: int, size: int, n: int) -> list[int]:
    """Positions of the `size` highest counters among live (a radix select from the top bit;
    ties at the boundary go to the lowest positions)."""
    chosen = 0
    undecided = live
    need = size
    for plane in reversed(counters):
        high = undecided & plane
        found = high.bit_count()
        if found >= need:
            undecided = high
        else:
            chosen |= high
            need -= found
            undecided ^= high
        if not need:
            break
    positions = _bits(chosen, n)
    if need:
        positions.extend(_bits(undecided, n)[:need])
    return positions


def _bits(value: int, n: int) -> list[int]:
    """The positions of value's set bits, ascending."""
    data = value.to_bytes((n + 7) // 8, "little")
    out = []
    for match in _NONZERO.finditer(data):
        byte = data[match.start()]
        base = 8 * match.start()
        while byte:
            low = byte & -byte
            out.append(base + low.bit_length() - 1)
            byte ^= low
    return out


# -- fused search ---------------------------------------------------------------------------


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
    beyond = 0.0  # the best semantic value outside `near`
    query_vector = embed_query(query)

    def value(cosine: float) -> float:
        return min(1.0, max(0.0, (cosine - COS_FLOOR) / (COS_FULL - COS_FLOOR)))

    if query_vector is not None:
        # Every entry at least as similar as the CANDIDATES-th, ties included, so the set
        # does not depend on the order rows happen to be stored in.
        nearest, after = vectors.nearest(query_vector, CANDIDATES)
        beyond = 0.0 if after is None else value(after)
        near = {doc_id: value(cosine) for cosine, doc_id in nearest if value(cosine) > 0.0}

    def similarity(doc_id: str) -> float:
        if doc_id in near or query_vector is None or beyond <= 0.0:
            return near.get(doc_id, 0.0)
        cosine = vectors.cosine(query_vector, doc_id)
        return 0.0 if cosine is None else value(cosine)

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
    others = [doc_id for doc_id in near if doc_id not in fused]
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
