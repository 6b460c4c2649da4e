"""The Llama-2 BPE tokenizer of the semantic extra's model, in pure Python.

Semantic recall embeds a query of a few words, and an admission one entry: loading the
`tokenizers` library and its 1.8 MB JSON file would cost more than the whole keyword recall.
This module does the same work as `tokenizers` does with that file (the tests compare the two on
every word of the labelled corpus and on generated text):

- normaliser: prepend '▁', then every space becomes '▁';
- no pre-tokeniser: the text is one word; its characters are the first symbols, a character
  missing from the vocabulary becomes its UTF-8 bytes as `<0xNN>` tokens (byte fallback);
- BPE: repeatedly merge the adjacent pair of lowest merge rank, the leftmost among equal
  ranks, until no adjacent pair has a merge.

The file's vocabulary and merges are derived once into a compact form (single-character token
ids, byte-token ids, and the merges as sorted arrays keyed by pair of ids) and cached per user
with marshal, keyed by the file's size and modification time, so a process loads them in about a
millisecond; when the cache cannot be read or written the JSON file is read instead.
"""

from __future__ import annotations

import contextlib
import json
import marshal
import os
from array import array
from bisect import bisect_left
from heapq import heapify, heappop, heappush
from itertools import pairwise
from pathlib import Path
from typing import Final

__all__ = ["BPE"]

_FORMAT: Final = 1
_SHIFT: Final = 16  # token ids are below 2**16: a pair of ids is one int, as is (rank, id)
_MASK: Final = (1 << _SHIFT) - 1
_NONE: Final = 0xFFFFFFFF  # no merge: above every rank << 16 | id
_SHORT: Final = 48  # longer words merge by heap: min() over all pairs would be quadratic


class BPE:
    """Token ids of a text, as `Tokenizer.encode(text, add_special_tokens=False).ids`."""

    def __init__(self, chars: dict[str, int], byte_ids: list[int], keys: bytes, values: bytes):
        self._chars = chars
        self._bytes = byte_ids
        # Merges as two sorted arrays (pair of ids -> rank and merged id), searched by bisection:
        # loading them costs a copy, where a dict of 61,000 merges would cost 15 ms to build.
        self._keys = array("I", keys)
        self._values = array("I", values)
        if len(self._keys) != len(self._values):
            raise ValueError("tokenizer merges are corrupt")

    @classmethod
    def from_file(cls, path: Path, *, cache_dir: Path | None = None) -> BPE:
        """Load from a `tokenizers` JSON file, through the compact per-user cache when given."""
        if cache_dir is None:
            return cls(*_derive(path))
        stat = path.stat()
        cached = cache_dir / f"bpe-{_FORMAT}-{stat.st_size}-{stat.st_mtime_ns}.marshal"
        with contextlib.suppress(OSError, ValueError, EOFError, TypeError):
            chars, byte_ids, keys, values = marshal.loads(cached.read_bytes())
            if isinstance(chars, dict) and isinstance(byte_ids, list) and len(byte_ids) == 256:
                return cls(chars, byte_ids, keys, values)
        derived = _derive(path)
        with contextlib.suppress(OSError):
            cache_dir.mkdir(parents=True, exist_ok=True)
            tmp = cached.with_name(f".{cached.name}.{os.getpid()}")
            tmp.write_bytes(marshal.dumps(derived))
            os.replace(tmp, cached)
        return cls(*derived)

    def _merge(self, left: int, right: int) -> int:
        """rank << 16 | merged id of the pair, or _NONE."""
        key = left << _SHIFT | right
        keys = self._keys
        i = bisect_left(keys, key)
        return self._values[i] if i < len(keys) and keys[i] == key else _NONE

    def encode(self, text: str) -> list[int]:
        """The token ids of text (no special tokens added)."""
        if not text:
            return []
        symbols: list[int] = []
        chars = self._chars
        for char in "\u2581" + text.replace(" ", "\u2581"):
            found = chars.get(char)
            if found is not None:
                symbols.append(found)
            else:
                symbols.extend(self._bytes[b] for b in char.encode("utf-8", "surrogatepass"))
        if len(symbols) > _SHORT:
            return self._merge_long(symbols)
        merge = self._merge
        # pairs[i]: the merge of symbols i and i + 1; min() finds the lowest rank, leftmost.
        pairs = [merge(a, b) for a, b in pairwise(symbols)]
        while pairs:
            best = min(pairs)
            if best == _NONE:
                break
            i = pairs.index(best)
            symbols[i : i + 2] = [best & _MASK]
            del pairs[i]
            if i < len(pairs):
                pairs[i] = merge(symbols[i], symbols[i + 1])
            if i > 0:
                pairs[i - 1] = merge(symbols[i - 1], symbols[i])
        return symbols

    def _merge_long(self, symbols: list[int]) -> list[int]:
        """The same merges for a long word in O(n log n), as `tokenizers` does them: a heap of
        (rank, position) over a linked list, where a popped pair that changed is skipped."""
        merge = self._merge
        n = len(symbols)
        after = [*range(1, n), -1]
        before = list(range(-1, n - 1))
        heap = []
        for i in range(n - 1):
            found = merge(symbols[i], symbols[i + 1])
            if found != _NONE:
                heap.append((found >> _SHIFT, i, found))
        heapify(heap)
        while heap:
            _, i, found = heappop(heap)
            j = after[i]
            if symbols[i] < 0 or j < 0 or merge(symbols[i], symbols[j]) != found:
                continue  # i was merged away, or its pair is not the one queued
            symbols[i] = found & _MASK
            symbols[j] = -1
            after[i] = after[j]
            if after[j] >= 0:
                before[after[j]] = i
            for left in (before[i], i):
                right = after[left] if left >= 0 else -1
                if right >= 0:
                    pair = merge(symbols[left], symbols[right])
                    if pair != _NONE:
                        heappush(heap, (pair >> _SHIFT, left, pair))
        return [s for s in symbols if s >= 0]


def _derive(path: Path) -> tuple[dict[str, int], list[int], bytes, bytes]:
    """The compact form of a Llama BPE tokenizer file; ValueError if it is another kind."""
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    model = data.get("model") or {}
    normalizers = (data.get("normalizer") or {}).get("normalizers") or []
    kinds = [n.get("type") for n in normalizers]
    if (
        model.get("type") != "BPE"
        or not model.get("byte_fallback")
        or kinds != ["Prepend", "Replace"]
        or data.get("pre_tokenizer") is not None
    ):
        raise ValueError(f"{path} is not a Llama BPE tokenizer with byte fallback")
    vocab: dict[str, int] = model["vocab"]
    if max(vocab.values()) > _MASK:
        raise ValueError(f"{path} has more than {_MASK + 1} tokens")
    chars = {token: i for token, i in vocab.items() if len(token) == 1}
    byte_ids = [vocab[f"<0x{b:02X}>"] for b in range(256)]
    merges: dict[int, int] = {}
    for rank, merge in enumerate(model["merges"]):
        left, right = merge.split(" ") if isinstance(merge, str) else merge
        key = vocab[left] << _SHIFT | vocab[right]
        if key not in merges:  # as `tokenizers` does, the first rank of a pair counts
            merges[key] = rank << _SHIFT | vocab[left + right]
    keys = sorted(merges)
    return (
        chars,
        byte_ids,
        array("I", keys).tobytes(),
        array("I", [merges[k] for k in keys]).tobytes(),
    )
