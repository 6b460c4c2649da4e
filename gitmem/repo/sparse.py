"""Which files a sparse checkout leaves out of the work tree, asked of git only when the
checkout may be sparse: the one place every reader of the project's settings asks it (the
settings module's docstring, gitmem.settings.load, says why they are read as staged).

It imports the standard library alone, and subprocess only when git must be asked: an agent's
hook asks it on every call (gitmem.agents.state digests the settings files), and a checkout
never sparse pays a stat and no import.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Final

__all__ = ["left_out", "left_out_bytes"]

#: git's file modes of an index entry that is a regular file
_FILE_MODES: Final = ("100644", "100755")


def left_out(
    top: str, names: Iterable[str], env: Mapping[str, str] | None = None
) -> dict[str, tuple[str, str]] | None:
    """The files among names (repository paths below the work tree top) that a sparse
    checkout leaves out: absent from the work tree, their index entry holding the
    skip-worktree bit; each with its entry's mode and blob id. None when git cannot say.

    The one place that decides it for every reader of the project's settings (the settings
    module's docstring says why): the full path's snapshot (gitmem.repo.snapshot), the fast
    paths' memory_prefixes (through left_out_bytes) and the agents' hooks' digest of their
    inputs (gitmem.agents.state). git is asked (`ls-files -t`, in env, else the caller's
    environment: a hook's GIT_INDEX_FILE is honoured) only for a file absent from the work
    tree, and only when the worktree's git directory keeps sparse-checkout patterns
    (`info/sparse-checkout`) or cannot be told: a checkout never sparse pays a stat."""
    absent = [name for name in names if not os.path.lexists(os.path.join(top, name))]
    if not absent or not _may_be_sparse(top):
        return {}
    import subprocess

    try:
        done = subprocess.run(
            ["git", "--literal-pathspecs", "ls-files", "-s", "-t", "-z", "--", *absent],
            cwd=top,
            env=None if env is None else dict(env),
            capture_output=True,
            check=False,
        )
    except OSError:
        return None
    if done.returncode != 0:
        return None
    found: dict[str, tuple[str, str]] = {}
    for record in done.stdout.split(b"\0"):
        head, tab, path = record.partition(b"\t")
        fields = head.decode("ascii", "replace").split()
        name = os.fsdecode(path)
        if tab and len(fields) == 4 and fields[0] == "S" and fields[3] == "0" and name in absent:
            found[name] = (fields[1], fields[2])
    return found


def _may_be_sparse(top: str) -> bool:
    """Whether the work tree at top may be a sparse checkout: its git directory keeps the
    patterns file, or that directory is not found as a `.git` folder or `gitdir:` file
    (GIT_DIR set elsewhere: git is asked)."""
    dot = os.path.join(top, ".git")
    try:
        if os.path.isdir(dot):
            git_dir = dot
        else:
            with open(dot, "rb") as handle:
                line = handle.read(4096).decode("utf-8", "surrogateescape").strip()
            if not line.startswith("gitdir:"):
                return True
            git_dir = os.path.join(top, line.removeprefix("gitdir:").strip())
    except (OSError, ValueError):
        return True
    return os.path.exists(os.path.join(git_dir, "info", "sparse-checkout"))


def left_out_bytes(top: str, name: str) -> bytes | None:
    """The staged bytes of a file the sparse checkout at top leaves out (left_out, asked in
    this process's environment); b"" when it is not left out; None when git cannot say, or
    its entry is no regular file (the full path says what it is)."""
    found = left_out(top, [name])
    if found is None:
        return None
    if name not in found:
        return b""
    mode, blob = found[name]
    if mode not in _FILE_MODES:
        return None
    import subprocess

    try:
        done = subprocess.run(
            ["git", "cat-file", "blob", blob], cwd=top, capture_output=True, check=False
        )
    except OSError:
        return None
    return done.stdout if done.returncode == 0 else None
