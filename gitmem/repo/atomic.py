"""Files replaced whole: a reader sees the old bytes or the new ones, never a mix.

Apart from gitmem.repo.store (which re-exports it) so that a reader of the git directory that
never loads libgit2 (an agent's hook, gitmem.agents.state) writes its small files the same way.
"""

from __future__ import annotations

import contextlib
import glob
import os
import re
import secrets
import stat
import time
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

from gitmem.errors import UsageError

__all__ = [
    "ABANDONED_AGE",
    "atomic_write",
    "open_regular",
    "read_regular",
    "refuse_links",
    "remove_temporaries_of",
    "sweep_temporaries",
]

#: How many random bytes name a temporary file (written as twice as many hex digits).
_TOKEN_BYTES = 6
#: A temporary file this many seconds old belongs to no live writer (a write takes
#: milliseconds): one that a writer holding no lock finds is a killed writer's, to delete.
ABANDONED_AGE = 60.0


def atomic_write(path: Path, data: bytes, mode: int | None = None) -> None:
    """Write a file so that a reader sees the old bytes or the new ones, never a mix.

    The bytes go to a new temporary file beside it (`.NAME.<random>.tmp`, created with O_EXCL
    and O_NOFOLLOW, so no file or link planted beside the target is written through), then
    replace it by a rename, which replaces a symbolic link at path rather than following it.
    The file gets mode when given, else the old file's permissions, else what a plain write
    gives (0666 less the umask, which the creation applies). A write that fails (a full disk,
    an interrupt) removes its temporary file; one killed outright leaves it, for the folder's
    next writer to sweep (`sweep_temporaries`)."""
    if mode is None:
        with contextlib.suppress(OSError):
            mode = stat.S_IMODE(os.stat(path).st_mode)
    fd, tmp = _create_temporary(path)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if mode is not None:
                os.fchmod(handle.fileno(), mode)
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _create_temporary(path: Path) -> tuple[int, Path]:
    """A new file beside path, open for writing, named so that sweep_temporaries finds it."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    while True:
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(_TOKEN_BYTES)}.tmp")
        try:
            return os.open(tmp, flags, 0o666), tmp
        except FileExistsError:  # one name in 2**48 taken: draw another
            continue


def is_temporary_of(name: str, target: str) -> bool:
    """Whether a file name is that of a temporary atomic_write makes for target (a name)."""
    return _temporary_name(target).fullmatch(name) is not None


def _temporary_name(target: str) -> re.Pattern[str]:
    return re.compile(rf"\.{re.escape(target)}\.[0-9a-f]{{{2 * _TOKEN_BYTES}}}\.tmp", re.ASCII)


def remove_temporaries_of(paths: Iterable[Path], older_than: float = 0) -> None:
    """Delete the temporary files that atomic_write calls for these paths left when killed
    before their rename: `.NAME.<12 hex digits>.tmp` beside each, and nothing else (a folder
    of the user's, as the memory folder of a working tree is, may hold other `.*.tmp` files,
    which sweep_temporaries would take). A caller that holds the turn every writer of these
    paths takes passes 0: none of them is a live writer's. Without one, older_than must
    exceed any write's time, as for sweep_temporaries."""
    now = time.time()
    for path in paths:
        token = _temporary_name(path.name)
        try:
            found = list(path.parent.glob(f".{glob.escape(path.name)}.*.tmp"))
        except OSError:
            continue
        for temporary in found:
            if not token.fullmatch(temporary.name):
                continue
            with contextlib.suppress(OSError):
                if older_than <= 0 or now - temporary.stat().st_mtime > older_than:
                    temporary.unlink()


def open_regular(path: str | Path, *, follow_links: bool = False) -> BinaryIO:
    """A file opened for reading; ValueError unless it is a regular file (a link is OSError
    unless follow_links). The one way gitmem opens a file a FIFO, a folder or a link may
    stand in the place of: gitmem writes only regular files in the git directory
    (atomic_write's rename), and a FIFO put in the place of one made every reader wait on its
    open, for a writer that never comes (each later hook and recall hung), so the open does
    not wait; the opened file is judged (fstat), before fdopen, which refuses a folder's
    descriptor with an IsADirectoryError that named no file."""
    flags = os.O_RDONLY | os.O_NONBLOCK | (0 if follow_links else os.O_NOFOLLOW)
    descriptor = os.open(path, flags)
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise ValueError(f"{os.path.basename(path)} is not a regular file")
    return os.fdopen(descriptor, "rb")


def read_regular(path: Path) -> bytes:
    """The bytes of a file open_regular opens (its errors too)."""
    with open_regular(path) as handle:
        return handle.read()


def refuse_links(path: Path, given: str, root: Path) -> None:
    """Refuse, as the user's to fix, a path that is a symbolic link, or that lies below root as
    spelled but resolves outside it through a linked folder: a cloned repository can commit
    `AGENTS.md` or `.claude` as a link to a file or folder of the user's, which writing the
    path would change. A path spelled outside root is the user's own choice of place."""
    if path.is_symlink():
        raise UsageError(
            f"{given}: is a symbolic link (to {os.readlink(path)}): gitmem does not write "
            "through one; remove the link, then run again"
        )
    spelled, top = os.path.abspath(path.parent), os.path.abspath(root)
    if os.path.commonpath([spelled, top]) != top:
        return
    folder, real_top = os.path.realpath(spelled), os.path.realpath(top)
    if os.path.commonpath([folder, real_top]) != real_top:
        raise UsageError(
            f"{given}: its folder leads outside the repository (to {folder}) through a "
            "symbolic link: gitmem does not write through one; remove the link, then run again"
        )


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
