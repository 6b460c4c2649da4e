"""The recall cache's CRC-32 is zlib's, value for value: caches written before zlib-ng was
used, or on a machine without it, verify unchanged (gitmem.recall.checksum). The property
tests ask zlib-ng itself (`checksum.fast`), whatever the size, and `checksum.crc32` on both
sides of LARGE."""

from __future__ import annotations

import subprocess
import sys
import zlib

from hypothesis import given, settings
from hypothesis import strategies as st

from gitmem.recall import checksum


def test_the_fast_implementation_is_the_one_in_use() -> None:
    from zlib_ng import zlib_ng

    assert checksum.fast() is zlib_ng.crc32


def test_loading_an_index_with_small_checksums_does_not_import_zlib_ng() -> None:
    """A small index written and read back, its checksums verified, leaves zlib-ng unimported;
    the first buffer of LARGE bytes imports it."""
    code = (
        "import sys\nfrom gitmem.recall import checksum\n"
        "from gitmem.recall.engine import Doc, Index\n"
        "doc = Doc('a', 'method', 'Title', 'when', (), 'body', '.gitmem/entries/method/a.md')\n"
        "Index.from_bytes(Index.build([doc]).to_bytes(), verify=True)\n"
        "checksum.crc32(bytes(checksum.LARGE - 1))\nprint('zlib_ng' in sys.modules)\n"
        "checksum.crc32(bytes(checksum.LARGE))\nprint('zlib_ng' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "True"]


@settings(deadline=None)  # a loaded machine can stall one example; the checks do not time
@given(data=st.binary(max_size=4096), start=st.integers(0, 2**32 - 1), cut=st.integers(0, 64))
def test_the_same_crc_as_zlib_for_any_bytes_start_and_view(
    data: bytes, start: int, cut: int
) -> None:
    assert checksum.fast()(data, 0) == zlib.crc32(data)
    assert checksum.fast()(data, start) == zlib.crc32(data, start)
    view = memoryview(data)[cut:]
    assert checksum.fast()(view, start) == zlib.crc32(view, start)


def test_the_same_crc_as_zlib_across_the_sizes_its_vector_code_takes() -> None:
    """zlib-ng folds long inputs with carry-less multiplies in blocks: lengths around the block
    sizes, and a few megabytes, give zlib's value too."""
    block = bytes(range(256)) * (1 << 14)  # 4 MiB
    large = checksum.LARGE
    for size in (15, 16, 17, 63, 64, 65, 255, 256, 257, 4095, 4096, 4097, large - 1, large,
                 large + 1, len(block)):  # fmt: skip
        assert checksum.fast()(block[:size], 0) == zlib.crc32(block[:size]), size
        assert checksum.crc32(block[:size], 7) == zlib.crc32(block[:size], 7), size
