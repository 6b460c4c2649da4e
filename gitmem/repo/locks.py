"""One writer at a time, on a file system that takes flock and on one that does not.

gitmem's writers take an flock on a lock file (an admission's turn, the recall cache): a
process killed outright leaves nothing behind, since the kernel releases it. Some network
mounts take no flock (an NFS mount without its lock service answers ENOLCK). There, an
admission failed with a traceback, and the recall cache, which could save nothing, was set
aside and rebuilt from every entry at every recall: minutes at 100,000 entries.

Where flock is refused as unsupported, a file of its own stands in for it, as git's `.lock`
files do: `<lock>.held`, created exclusively (O_EXCL), naming the host and process that hold
it, removed when the turn ends. A holder killed outright leaves it behind; a later writer
takes it over when its process is gone from this host, or when it is older than STALE_AGE
(a holder on another host cannot be asked). Two writers that find one stale file at the same
moment can both take it over: the fallback narrows that window, it cannot close it without
the lock the file system lacks. What the turn protects is written atomically (rename) and
read back with checksums, so losing that race costs work, never a half-written file.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Final

__all__ = ["STALE_AGE", "exclusive"]

#: flock's answers on a file system that takes none (network mounts, some FUSE file systems)
_UNSUPPORTED: Final = frozenset({errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS, errno.EINVAL})
#: A held file this many seconds old is taken over whoever wrote it: longer than the longest
#: turn (a first build of the recall cache at 100,000 entries takes some ten minutes).
STALE_AGE: Final = 3600.0
#: How long a writer sleeps between looks at a held file (a turn takes milliseconds to minutes).
_POLL: Final = 0.05


@contextlib.contextmanager
def exclusive(fd: int, path: Path) -> Iterator[None]:
    """Hold the lock file open as fd, at path, for the block: flock where the file system
    takes it, else the held file beside it (the module's docstring). Waits for the holder.
    An flock is released when the caller closes fd, not at the block's end: a git that
    inherited fd (Store.lent_to_git) holds it until it ends, also when this process is killed."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
    except OSError as error:
        if error.errno not in _UNSUPPORTED:
            raise
    else:
        yield
        return
    held = path.with_name(path.name + ".held")
    mine = _take(held)
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            if held.read_bytes() == mine:  # taken over as stale meanwhile: not ours to remove
                held.unlink()


def _take(held: Path) -> bytes:
    """Create held exclusively, waiting while a live writer holds it; what it now says."""
    mine = f"{socket.gethostname()} {os.getpid()} {time.time_ns()}\n".encode()
    while True:
        try:
            descriptor = os.open(held, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666)
        except FileExistsError:
            if _stale(held):
                with contextlib.suppress(FileNotFoundError):
                    held.unlink()
                continue
            time.sleep(_POLL)
            continue
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(mine)
        return mine


def _stale(held: Path) -> bool:
    """Whether held belongs to no live writer: its process gone from this host, or the file
    older than STALE_AGE; one still empty is being written, unless it is that old too."""
    try:
        age = time.time() - held.lstat().st_mtime
        said = held.read_bytes().split()
    except FileNotFoundError:
        return False  # removed meanwhile: the next exclusive create tells
    if age > STALE_AGE:
        return True
    if len(said) < 2 or said[0].decode(errors="replace") != socket.gethostname():
        return False
    try:
        os.kill(int(said[1]), 0)
    except ProcessLookupError:
        return True
    except (PermissionError, ValueError, OverflowError):
        return False  # alive under another user, or not a process number: wait for its age
    return False
