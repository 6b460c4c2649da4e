"""Files replaced whole: a reader sees the old bytes or the new ones, never a mix.

Apart from gitmem.repo.store (which re-exports it) so that a reader of the git directory that
never loads libgit2 (an agent's hook, gitmem.agents.state) writes its small files the same way.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

__all__ = ["atomic_write", "sweep_temporaries"]


def atomic_write(path: Path, data: bytes) -> None:
    """Write a file so that a reader sees the old bytes or the new ones, never a mix.

    The bytes go to `.NAME.PID.tmp` beside it, then replace it. A write that fails (a full
    disk, an interrupt) removes its temporary file; one killed outright leaves it, for the
    folder's next writer to sweep (`sweep_temporaries`)."""
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


def sweep_temporaries(folder: Path, older_than: float) -> None:
    """Delete the temporary files of atomic_write calls killed before their rename, those last
    written more than older_than seconds ago. A folder whose writers all hold one lock, swept
    under it, passes 0: no live writer owns one. Without a lock, older_than must exceed any
    write's time; a live writer whose temporary goes anyway fails its rename with OSError."""
    now = time.time()
    try:
        found = list(folder.glob(".*.tmp"))
    except OSError:
        return
    for path in found:
        with contextlib.suppress(OSError):
            if older_than <= 0 or now - path.stat().st_mtime > older_than:
                path.unlink()
