"""The CRC-32 that guards the recall cache's files, computed by zlib-ng for large buffers.

Every update of the cache verifies the segments it loads (gitmem.recall.cache): at 100,000
entries some 70 MB of index and vectors, which the C library of Python's own zlib checksums
at about 2-3 GB/s on the development machine, some 30 ms of every admission's update.
zlib-ng computes the same CRC-32 (the same polynomial and value: tests/recall/test_checksum.py
checks it against zlib) with the processor's carry-less multiply, three to four times as
fast. The files written by either are the same, so a cache made before this module, or on a
machine without zlib-ng (no wheel for its platform), verifies unchanged: zlib is the fallback.

zlib-ng is imported on the first buffer of LARGE bytes or more, not with this module: its
import costs some 2 ms (it imports gzip), and a recall or an agent's hook, which checksums
only manifests of a few kilobytes, would pay it for nothing.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from functools import cache
from typing import Final

__all__ = ["LARGE", "crc32"]

#: From this many bytes a buffer is checksummed by zlib-ng.
LARGE: Final = 1 << 16


def crc32(data: bytes | bytearray | memoryview, value: int = 0) -> int:
    """zlib.crc32's value for data (a memoryview of bytes), continuing from value."""
    if len(data) < LARGE:
        return zlib.crc32(data, value)
    return fast()(data, value)


@cache
def fast() -> Callable[[bytes | bytearray | memoryview, int], int]:
    """zlib-ng's crc32, or zlib's where zlib-ng is not installed."""
    try:
        from zlib_ng.zlib_ng import crc32 as folded
    except ImportError:  # pragma: no cover - zlib-ng is a dependency; a platform without its wheel
        return zlib.crc32
    return folded
