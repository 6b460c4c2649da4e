"""Trees and blobs as the recall cache reads them, by libgit2 or by the git command line.

The recall cache brings vectors an admission's update left behind up to date by the tree
diff and the entries' files (gitmem.recall.cache, "Vectors left behind"). The full path reads
them through the opened repository (gitmem.repo.store.Store); a warm recall, which has not
loaded libgit2 and would pay its import (some 110-170 ms) for a few files, asks git itself
(GitTrees): one `git diff-tree`, then `git cat-file --batch` for every blob at once. Both
answer `Trees`, with the same TreeItem and Change (gitmem.repo.objects); GitTrees reads the
objects as they are (no replace ref), as libgit2 does. A question git cannot answer (a tree
it no longer holds, git missing) is a ValueError, as the caller takes Store's KeyError and
ValueError.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import Protocol

from gitmem.repo.gitcli import PinnedRepository, read_in
from gitmem.repo.objects import Change, TreeItem

__all__ = ["GitTrees", "Trees"]


class Trees(Protocol):
    """What the recall cache reads of git's trees to bring vectors up to date."""

    def diff(self, old_tree: str | None, new_tree: str | None, prefix: str = "") -> list[Change]:
        """Paths that differ between two trees, without renames, prefixed by prefix."""
        ...

    def item(self, tree: str, path: str) -> TreeItem | None:
        """The file at path in tree, or None when absent or a folder."""
        ...

    def read_all(self, oids: Collection[str], limit: int) -> dict[str, bytes]:
        """Each blob's bytes (at most limit + 1 of them), by id; a missing one is left out."""
        ...


class GitTrees:
    """Trees answered by the git command line in folder (on pinned, when a person's GIT_DIR
    names the repository)."""

    def __init__(self, folder: Path, pinned: PinnedRepository | None = None) -> None:
        self.folder = folder
        self.pinned = pinned

    def _git(self, args: list[str], given: bytes | None = None) -> bytes:
        out = read_in(self.folder, args, given, self.pinned)
        if out is None:
            raise ValueError(f"git {args[0]} failed")
        return out

    def diff(self, old_tree: str | None, new_tree: str | None, prefix: str = "") -> list[Change]:
        """`git diff-tree -r` of the two trees, a type change read as M (Store.diff's)."""
        if old_tree == new_tree:
            return []
        if old_tree is None or new_tree is None:
            raise ValueError("an empty side is read by the opened repository")
        out = self._git(["diff-tree", "-r", "-z", "--no-renames", old_tree, new_tree])
        fields = out.split(b"\0")
        changes: list[Change] = []
        for at in range(0, len(fields) - 1, 2):
            head, name = fields[at], fields[at + 1]
            old_mode, new_mode, old_id, new_id, status = head.lstrip(b":").split(b" ")
            path = prefix + name.decode("utf-8", "surrogateescape")
            old = TreeItem(path, old_id.decode(), int(old_mode, 8)) if int(old_mode, 8) else None
            new = TreeItem(path, new_id.decode(), int(new_mode, 8)) if int(new_mode, 8) else None
            kind = status.decode()
            changes.append(Change("M" if kind == "T" else kind, path, old, new))
        return changes

    def item(self, tree: str, path: str) -> TreeItem | None:
        """`git ls-tree` of the one path, read literally (a `:` or `*` in it is no magic)."""
        if not path or "\0" in path:
            return None
        out = self._git(["--literal-pathspecs", "ls-tree", "-z", "--full-tree", tree, "--", path])
        for line in out.split(b"\0"):
            head, _, name = line.partition(b"\t")
            if name.decode("utf-8", "surrogateescape") != path:
                continue
            mode, kind, oid = head.split(b" ")
            return None if kind == b"tree" else TreeItem(path, oid.decode(), int(mode, 8))
        return None

    def read_all(self, oids: Collection[str], limit: int) -> dict[str, bytes]:
        """One `git cat-file --batch` for every blob."""
        asked = sorted(set(oids))
        if not asked:
            return {}
        out = self._git(["cat-file", "--batch"], "".join(f"{o}\n" for o in asked).encode())
        found: dict[str, bytes] = {}
        at = 0
        for oid in asked:
            end = out.index(b"\n", at)
            head = out[at:end].split(b" ")
            at = end + 1
            if len(head) != 3:
                continue  # "<id> missing" (or ambiguous): no bytes follow
            size = int(head[2])
            if head[1] == b"blob" and head[0].decode() == oid:
                found[oid] = out[at : at + min(size, limit + 1)]
            at += size + 1
        return found
