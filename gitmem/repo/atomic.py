"""Files replaced whole: a reader sees the old bytes or the new ones, never a mix.

Apart from gitmem.repo.store (which re-exports it) so that a reader of the git directory that
never loads libgit2 (an agent's hook, gitmem.agents.state) writes its small files the same way.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["atomic_write"]


def atomic_write(path: Path, data: bytes) -> None:
    """Write a file so that a reader sees the old bytes or the new ones, never a mix."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
