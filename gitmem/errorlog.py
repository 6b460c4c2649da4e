"""Where the traceback of an unexpected error (exit 3) goes: a private file of the user's own.

A traceback can quote paths, settings and pieces of memory text, so it is never written under
a fixed name in the shared temporary folder (where another user could plant a link there
first, or read it).  It goes to gitmem's folder in the user's state directory
(`$XDG_STATE_HOME/gitmem/errors`, `~/.local/state/gitmem/errors` on Linux; the platform's
equivalent elsewhere), which is created 0700 and refused when it is a link, is not a folder,
belongs to someone else or is open to others.  Each error gets a new file (its time and
process id in the name), created with O_CREAT | O_EXCL | O_NOFOLLOW and mode 0600 inside the
folder opened by descriptor, so nothing already there, link or file, is ever written through.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)


def error_log_dir() -> Path:
    import platformdirs  # here: every command imports this module, few ever write a log

    return Path(platformdirs.user_state_dir("gitmem", appauthor=False)) / "errors"


def write_error_log(text: str) -> Path | None:
    """Write text to a new private log file and return its path; None when no private place
    could be made (the error is still reported, without the file)."""
    folder = error_log_dir()
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = _open_private_dir(folder)
    except OSError:
        return None
    try:
        import datetime as dt

        stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S%fZ")
        name = f"error-{stamp}-{os.getpid()}.log"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW
        try:
            log = os.open(name, flags, 0o600, dir_fd=fd)
        except OSError:
            return None
        with open(log, "w", encoding="utf-8") as handle:
            handle.write(text)
        return folder / name
    finally:
        os.close(fd)


def _open_private_dir(folder: Path) -> int:
    """The folder opened without following a link, checked to be the user's own and closed to
    others (tightened to 0700 when it is the user's but looser)."""
    fd = os.open(folder, os.O_RDONLY | _DIRECTORY | _NOFOLLOW)
    try:
        info = os.fstat(fd)
        if not stat.S_ISDIR(info.st_mode):
            raise NotADirectoryError(str(folder))
        if hasattr(os, "getuid") and info.st_uid != os.getuid():
            raise PermissionError(f"{folder} belongs to another user")
        if info.st_mode & 0o077:
            os.fchmod(fd, 0o700)
    except BaseException:
        with contextlib.suppress(OSError):
            os.close(fd)
        raise
    return fd
