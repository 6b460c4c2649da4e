"""The three snapshots the rules read (the working tree, git's staging index, a commit's tree)
answer alike for the same files, so every gate judges the same way."""

from __future__ import annotations

import os
from pathlib import Path

from gitmem.repo.snapshot import (
    FILE,
    FOLDER,
    MISSING,
    SYMLINK,
    StagedSnapshot,
    TreeSnapshot,
    WorktreeSnapshot,
    entry_at,
)
from gitmem.repo.store import Store

from conftest import git
from entries import text


def _layout(repo: Path) -> None:
    (repo / "mem/entries/method").mkdir(parents=True)
    (repo / "mem/entries/method/a.md").write_text(text())
    (repo / "mem/notes.txt").write_bytes(b"x" * 100)
    os.symlink("notes.txt", repo / "mem/link")
    git(repo, "add", "-A")


def test_the_three_snapshots_agree(repo: Path) -> None:
    _layout(repo)
    git(repo, "commit", "-q", "-m", "memory")
    store = Store.open(repo)
    tree = store.tree_of(store.resolve("HEAD") or "")
    snapshots = [WorktreeSnapshot(repo), StagedSnapshot(store), TreeSnapshot(store, tree)]
    for snapshot in snapshots:
        kinds = [snapshot.kind(p) for p in ("mem", "mem/notes.txt", "mem/link", "mem/none")]
        assert kinds == [FOLDER, FILE, SYMLINK, MISSING], type(snapshot).__name__
        assert snapshot.read("mem/notes.txt", 10) == b"x" * 11  # at most limit + 1 bytes
        assert snapshot.read("mem/none", 10) is None
        assert sorted(snapshot.files("mem")) == [
            "mem/entries/method/a.md", "mem/link", "mem/notes.txt",
        ], type(snapshot).__name__  # fmt: skip


def test_the_staged_snapshot_is_what_git_is_committing(repo: Path) -> None:
    _layout(repo)
    git(repo, "commit", "-q", "-m", "memory")
    (repo / "mem/entries/method/b.md").write_text(text())
    (repo / "mem/unstaged.md").write_text(text())
    git(repo, "add", "mem/entries/method/b.md")
    (repo / "mem/entries/method/a.md").write_text("edited after staging\n")
    staged = StagedSnapshot(Store.open(repo))
    assert staged.changed("mem") == ["mem/entries/method/b.md"]
    assert staged.kind("mem/unstaged.md") == MISSING
    assert staged.read("mem/entries/method/a.md", 1 << 16) == text().encode()


def test_entry_at_reads_an_entry_or_says_none(repo: Path) -> None:
    _layout(repo)
    git(repo, "commit", "-q", "-m", "memory")
    store = Store.open(repo)
    tree = store.tree_of(store.resolve("HEAD") or "")
    found = entry_at(store, tree, "mem/entries/method/a.md")
    assert found is not None and found.type == "method"
    assert entry_at(store, tree, "mem/notes.txt") is None  # not an entry
    assert entry_at(store, tree, "mem/absent.md") is None
