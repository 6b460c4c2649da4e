"""The three snapshots the rules read (the working tree, git's staging index, a commit's tree)
answer alike for the same files, so every gate judges the same way."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from clirunner import run

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
from gitmem.repo.workspace import open_workspace

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


def test_a_folder_is_read_as_no_file(repo: Path) -> None:
    """A folder where a file is read answers None, as a symbolic link or a FIFO does: fdopen
    refused its descriptor (IsADirectoryError), and every command failed unexpectedly."""
    (repo / "mem").mkdir()
    assert WorktreeSnapshot(repo).read("mem", 100) is None


def test_a_gitmem_toml_that_is_not_utf8_names_one_memory_folder_for_gate_and_client(
    memory: Path,
) -> None:
    """The gate reads the settings a commit holds (tree_settings), a client those of its
    working tree: a Latin-1 `dir = "mémoire"` was read by both with U+FFFD; once the client
    set such a file aside, the gate must too, or the two judge different memory folders."""
    from gitmem.repo.workspace import tree_settings

    raw = '[memory]\ndir = "mémoire"\n'.encode("latin-1")
    (memory / ".gitmem.toml").write_bytes(raw)
    git(memory, "add", ".gitmem.toml")
    git(memory, "commit", "-q", "--no-verify", "-m", "settings in Latin-1")
    store = Store.open(memory)
    gate = tree_settings(store, store.tree_of(git(memory, "rev-parse", "HEAD").strip()))
    assert gate.dir == open_workspace(memory).settings.dir == ".gitmem"


@pytest.mark.parametrize("kind", ["folder", "symlink", "huge", "latin-1"])
def test_a_gitmem_toml_that_is_not_read_says_so(memory: Path, kind: str) -> None:
    """A .gitmem.toml that is a folder, a symbolic link, beyond the 1 MiB read or not UTF-8
    is one warning naming it, and its settings are not applied. A folder was an unexpected
    error (exit 3); the link and the huge file were taken silently for no settings at all,
    and bytes that are not UTF-8 were read as U+FFFD (`dir = "mémoire"` in Latin-1 named a
    folder `m\ufffdmoire`)."""
    settings = memory / ".gitmem.toml"
    if kind == "folder":
        settings.mkdir()
    elif kind == "symlink":
        (memory / "shared.toml").write_text('[memory]\nproject = "shop"\n')
        settings.symlink_to("shared.toml")
    elif kind == "latin-1":
        settings.write_bytes('[memory]\nproject = "shop"\ndir = "mémoire"\n'.encode("latin-1"))
    else:
        settings.write_text(("#" * 99 + "\n") * 11_000 + '[memory]\nproject = "shop"\n')
    result = run(memory, "check")
    assert result.exit_code == 0, result.output
    said = {
        "folder": " is a folder",
        "symlink": " is a symbolic link",
        "huge": " is larger than 1 MiB",
        "latin-1": ":3: is not UTF-8 (byte 34), as TOML must be",
    }
    assert f"warning: .gitmem.toml{said[kind]}" in result.output
    assert open_workspace(memory).settings.project == "local"
