"""A snapshot is the set of files a rule looks at: the working tree, the staging index git is
committing (StagedSnapshot: git's "index", not INDEX.md nor the search index), or a commit's
tree.  One validator reads all three through this small interface,
so the pre-commit hook, `gitmem check PATH`, CI and the server judge the same way.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from gitmem.errors import UsageError
from gitmem.model.entry import Entry, EntryError, parse
from gitmem.model.fields import MAX_ENTRY_BYTES, TOO_LARGE
from gitmem.model.names import CONVERTING_ATTRIBUTES
from gitmem.repo.atomic import open_regular
from gitmem.repo.gitcli import clean_git_env
from gitmem.repo.objects import BLOB, BLOB_EXECUTABLE, LINK, TreeItem
from gitmem.repo.sparse import left_out

if TYPE_CHECKING:
    from gitmem.repo.store import Store

FILE = "file"
SYMLINK = "symlink"
FOLDER = "folder"
MISSING = "missing"
OTHER = "other"

#: what stands at a path, in the words a message names it by (MISSING has none)
STANDS = {FILE: "a file", SYMLINK: "a symbolic link", FOLDER: "a folder", OTHER: "a special file"}


class Snapshot(Protocol):
    def kind(self, path: str) -> str:
        """FILE, SYMLINK, FOLDER, MISSING or OTHER for a repository path."""
        ...

    def read(self, path: str, limit: int) -> bytes | None:
        """A file's bytes (at most limit + 1 of them), or None when it is not a regular file."""
        ...

    def files(self, folder: str) -> Iterator[str]:
        """Every file or symlink below folder, as repository paths."""
        ...


class TreeSnapshot:
    """A commit's (or the index's written) tree in the object database."""

    def __init__(self, store: Store, tree: str | None) -> None:
        self.store = store
        self.tree = tree

    def kind(self, path: str) -> str:
        if self.tree is None:
            return MISSING
        item = self.store.item(self.tree, path)
        if item is None:
            return FOLDER if self.store.subtree(self.tree, path) else MISSING
        if item.is_symlink:
            return SYMLINK
        return FILE if item.is_file else OTHER

    def read(self, path: str, limit: int) -> bytes | None:
        if self.tree is None:
            return None
        item = self.store.item(self.tree, path)
        if item is None or not item.is_file:
            return None
        return self.store.read(item.oid, limit, path=path)

    def files(self, folder: str) -> Iterator[str]:
        sub = self.store.subtree(self.tree, folder.strip("/"))
        prefix = folder.strip("/") + "/" if folder.strip("/") else ""
        for item in self.store.walk(sub, prefix):
            yield item.path


class StagedSnapshot:
    """What git is committing: the staging index (GIT_INDEX_FILE honoured when the store was
    opened from the environment), as the pre-commit hook must judge it."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def kind(self, path: str) -> str:
        item = self.store.staged_item(path)
        if item is None:
            return FOLDER if next(self.store.staged_paths(path), None) else MISSING
        if item.is_symlink:
            return SYMLINK
        return FILE if item.is_file else OTHER

    def read(self, path: str, limit: int) -> bytes | None:
        item = self.store.staged_item(path)
        return None if item is None else self.store.read(item.oid, limit, path=path)

    def files(self, folder: str) -> Iterator[str]:
        yield from self.store.staged_paths(folder)

    def changed(self, folder: str) -> list[str]:
        """Paths below folder that this commit adds or changes."""
        return self.store.staged_changes(folder)


class ConvertedFile(UsageError):
    """A file of the working tree that git converts on checkout (require_as_stored): exit 2."""


def require_as_stored(store: Store, path: str, data: bytes, *, staged_first: bool = False) -> None:
    """Refuse a file of the working tree (data, its bytes) that git converts on its way
    between the repository and the disk (CONVERTING_ATTRIBUTES), unless its bytes are the
    staged blob's all the same, line endings aside (an `ident` file with no `$Id$`, a filter
    that passes it through): ConvertedFile naming the file, its attributes and how to stop the
    conversion.

    A commit that adds `.gitmem.toml working-tree-encoding=UTF-16` to .gitattributes leaves
    the settings' blob as it was, so the server's gate and a reviewer see no change; but every
    checkout then holds UTF-16, which read as settings was invalid TOML: a warning, and every
    setting at its default (another memory folder, another memory branch, no owners). A
    filter or `$Id$` could make the file on disk say other settings than its blob does. An
    uncommitted edit of a file is read (it is the person's own), but gitmem cannot tell such
    an edit from git's conversion, so a converted file is refused whole.

    Either question may come first, to the same verdict: the attributes (three lookups) for
    a settings file, where the staging index is otherwise not read at all; the staged blob
    (staged_first) for the memory files `gitmem check` reads, some 10,000 of them that are
    nearly all as staged, with the index read anyway."""

    def as_staged() -> bool:
        staged = store.staged_item(path)
        # a checkout's CRLF, read as LF, is no difference (core.autocrlf beside `ident`)
        if staged is None or not staged.is_file:
            return False
        return staged.oid == store.blob_id(data) or (
            b"\r\n" in data and staged.oid == store.blob_id(data.replace(b"\r\n", b"\n"))
        )

    if staged_first and as_staged():
        return
    converting = store.attributes(path, CONVERTING_ATTRIBUTES)
    if not converting or (not staged_first and as_staged()):
        return
    unset = " ".join(f"-{attribute.partition('=')[0]}" for attribute in converting)
    raise ConvertedFile(
        f"{path}: git converts this file between the repository and the working tree (its "
        f"git attributes: {', '.join(converting)}), so the file on disk is not the one the "
        "repository holds, which the gates and a reviewer read; gitmem reads no file git "
        f"converts. Remove the attribute for {path} from .gitattributes through a reviewed "
        f"commit, or override it in this clone: add the line `{path} {unset}` to the file "
        f"`git rev-parse --git-path info/attributes` names; then delete {path} and check it "
        f"out again (git checkout -- {path})"
    )


class WorktreeSnapshot:
    """Files on disk below a repository root; symlinks are reported, never followed. Given
    the store, a file git converts on checkout is refused as it is read (require_as_stored,
    staged_first its order of questions)."""

    def __init__(
        self, root: Path, store: Store | None = None, *, staged_first: bool = False
    ) -> None:
        self.root = root
        self._prefix = os.path.join(root, "")  # a string: a check joins it to 10,000 names
        self._store = store
        self._staged_first = staged_first

    def _path(self, path: str) -> str:
        return self._prefix + path

    def kind(self, path: str) -> str:
        try:
            mode = os.lstat(self._path(path)).st_mode
        except (OSError, ValueError):
            return MISSING
        if stat.S_ISLNK(mode):
            return SYMLINK
        if stat.S_ISDIR(mode):
            return FOLDER
        return FILE if stat.S_ISREG(mode) else OTHER

    def read(self, path: str, limit: int) -> bytes | None:
        """The file's first limit + 1 bytes; None unless it is a regular file.  What is opened
        is what is judged: O_NOFOLLOW refuses a symlink put in its place since kind() looked,
        O_NONBLOCK keeps a FIFO from blocking the open, and fstat judges the opened file."""
        try:  # a folder where a file was expected (a .gitmem.toml made by mkdir) is None
            with open_regular(self._path(path)) as handle:
                data = handle.read(limit + 1)
        except (OSError, ValueError):
            return None
        if self._store is not None:
            require_as_stored(self._store, path, data, staged_first=self._staged_first)
        return data

    def files(self, folder: str) -> Iterator[str]:
        base = self._path(folder)
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = [d for d in dirnames if d != ".git"]
            rel = Path(dirpath).relative_to(self.root).as_posix()
            for name in sorted(
                filenames + [d for d in dirnames if os.path.islink(Path(dirpath) / d)]
            ):
                yield f"{rel}/{name}" if rel != "." else name


class SparseWorktreeSnapshot(WorktreeSnapshot):
    """The files of a checkout that may be sparse: one the checkout leaves out by design (its
    staged entry has the skip-worktree bit: a non-cone pattern such as `/src/` leaves out the
    top-level .gitmem.toml) is read as staged, not taken for no file. Taken for none, every
    setting in it fell back to its default: `gitmem list` read another memory folder and
    said "no entries", and propose and admit refused the checkout's settings as edited.
    Which files are left out is gitmem.repo.sparse.left_out's answer, the one every
    reader of the settings shares (the fast paths too); a file git cannot say of is none."""

    def __init__(self, root: Path, store: Store) -> None:
        super().__init__(root, store)
        self.store = store

    def _left_out(self, path: str) -> tuple[str, str] | None:
        """The staged mode and blob of a file the sparse checkout leaves out, else None."""
        found = left_out(str(self.root), [path], clean_git_env(self.store.pinned))
        return found.get(path) if found else None

    def kind(self, path: str) -> str:
        item = self._left_out(path)
        if item is None:
            return super().kind(path)
        mode = int(item[0], 8)
        if mode == LINK:
            return SYMLINK
        return FILE if mode in (BLOB, BLOB_EXECUTABLE) else OTHER

    def read(self, path: str, limit: int) -> bytes | None:
        item = self._left_out(path)
        if item is None:
            return super().read(path, limit)
        mode, blob = item
        if int(mode, 8) not in (BLOB, BLOB_EXECUTABLE):
            return None
        return self.store.read(blob, limit, path=path)


def worktree_snapshot(store: Store, root: Path) -> WorktreeSnapshot:
    """The files of the checkout at root, as settings are read from them: a file a sparse
    checkout leaves out read as staged (left_out: a stat where the checkout was never
    sparse), and a file git converts refused (require_as_stored)."""
    return SparseWorktreeSnapshot(root, store)


#: What the SYMLINK rule says of a symbolic link where a memory file must be.
LINK_PROBLEM = "is a symbolic link: a memory entry must be a file"


def read_entry(store: Store, item: TreeItem) -> Entry:
    """The entry in a file of a tree, read as the file rules judge it (`gitmem check`, every
    gate), so that no reader of the memory (list, show, lineage, the site, recall) reads
    what they refuse: file_entry over at most MAX_ENTRY_BYTES + 1 of its bytes. A blob the
    repository lacks is named by item's path too."""
    data = store.read(item.oid, MAX_ENTRY_BYTES, path=item.path) if item.is_file else b""
    return file_entry(data, item.mode)


def file_entry(data: bytes, mode: int) -> Entry:
    """The entry in a file of these bytes and this git mode, read as the file rules judge
    it, and those that report name what it is instead: a symbolic link is SYMLINK (never
    followed, nor its target's path parsed as text), a submodule LAYOUT, a file over
    MAX_ENTRY_BYTES TOO-LARGE (never read in part as if its first 64 KiB were the entry).
    Raises EntryError naming the rule."""
    if mode == LINK:
        raise EntryError("SYMLINK", f"{LINK_PROBLEM}: replace the link with the entry's file")
    if mode not in (BLOB, BLOB_EXECUTABLE):
        raise EntryError("LAYOUT", "is not a regular file: entries are files")
    if len(data) > MAX_ENTRY_BYTES:
        raise EntryError("TOO-LARGE", f"{TOO_LARGE}: shorten it, or split it into entries")
    return parse(data)


def entry_at(store: Store, tree: str, path: str) -> Entry | None:
    """The entry at a repository path of a tree, or None when absent or unreadable."""
    item = store.item(tree, path)
    if item is None or not item.is_file:
        return None
    try:
        return read_entry(store, item)
    except EntryError:
        return None
