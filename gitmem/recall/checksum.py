"""The CRC-32 that guards the recall cache's files, computed by zlib-ng where it is installed.

Every update of the cache verifies the segments it loads (gitmem.recall.cache): at 100,000
entries some 70 MB of index and vectors, which the C library of Python's own zlib checksums
at about 2-3 GB/s on the development machine, some 30 ms of every admission's update.
zlib-ng computes the same CRC-32 (the same polynomial and value: tests/recall/test_checksum.py
checks it against zlib) with the processor's carry-less multiply, three to four times as
fast. The files written by either are the same, so a cache made before this module, or on a
machine without zlib-ng (no wheel for its platform), verifies unchanged: zlib is the fallback.
Importing zlib-ng costs every process that reads the cache some 2 ms (it imports gzip), which
a recall pays for checksums of a few kilobytes; an update is where it pays back.
"""

from __future__ import annotations

try:
    from zlib_ng.zlib_ng import crc32
except ImportError:  # pragma: no cover - zlib-ng is a dependency; a platform without its wheel
    from zlib import crc32

__all__ = ["crc32"]
