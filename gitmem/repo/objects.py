"""Git's file modes, tree items and changes, with the standard library alone.

gitmem.repo.store (libgit2) and gitmem.repo.trees (the git command line) give the same
TreeItem and Change, and the readers of entries (gitmem.repo.snapshot) judge them by mode:
none of those types needs pygit2, whose import alone costs a hook or a recall some 110-170
ms, so they live here. The modes are git's own numbers (a test holds them to pygit2's).
"""

from __future__ import annotations

from typing import Final, NamedTuple

BLOB: Final = 0o100644
BLOB_EXECUTABLE: Final = 0o100755
LINK: Final = 0o120000
TREE: Final = 0o040000
COMMIT: Final = 0o160000


class TreeItem(NamedTuple):
    """A file in a tree: its repository path, blob id and git file mode.

    TreeItem, Change and CommitInfo are named tuples, not frozen dataclasses: a push of
    10,000 admissions makes some 80,000 of them, and a frozen dataclass takes several times
    as long to build."""

    path: str
    oid: str
    mode: int

    @property
    def is_symlink(self) -> bool:
        return self.mode == LINK

    @property
    def is_file(self) -> bool:
        return self.mode in (BLOB, BLOB_EXECUTABLE)


class Change(NamedTuple):
    """One path that differs between two trees: status A, D or M (a type change is M)."""

    status: str
    path: str
    old: TreeItem | None
    new: TreeItem | None
