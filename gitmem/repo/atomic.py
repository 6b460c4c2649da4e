"""Files replaced whole: a reader sees the old bytes or the new ones, never a mix.

Apart from gitmem.repo.store (which re-exports it) so that a reader of the git directory that
never loads libgit2 (an agent's hook, gitmem.agents.state) writes its small files the same way.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["atomic_write"]


def atomic_write(path: Path, data: bytes) -> None:
    """Write a file so that a reader sees the old bytes or the new ones, never a mix.

    The bytes go to `.NAME.PID.tmp` beside it, then replace it. A write that fails (a full
    disk, an interrupt) removes its temporary file; one killed outright leaves it, and the
    writer of a folder that only lock holders write sweeps it (gitmem.recall.cache)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
