"""The repository layer: the bulk tree diff agrees with the one-pair diff on real trees."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from gitmem.errors import GitmemError
from gitmem.store import BLOB, BLOB_EXECUTABLE, LINK, Change, Store

from conftest import child_processes


def _mktree(repo: Path, entries: list[tuple[str, str, str, bytes]]) -> str:
    """A tree from raw (mode, type, id, name) rows: names may be any bytes git allows."""
    rows = b"".join(
        f"{mode} {kind} {oid}\t".encode() + name + b"\0" for mode, kind, oid, name in entries
    )
    done = subprocess.run(
        ["git", "mktree", "-z"], cwd=repo, input=rows, capture_output=True, check=True
    )
    return done.stdout.decode().strip()


def _trees(repo: Path) -> list[str | None]:
    """Trees that differ in every way a memory folder can: files added, deleted, edited, made
    executable or a symbolic link, a file turned into a folder and back, nested folders,
    names that are not UTF-8 or hold spaces, a newline or a leading colon."""
    store = Store.open(repo)
    blob = {n: store.write_blob(f"text {n}\n".encode()) for n in range(6)}
    base = store.build_tree(
        None,
        {
            "INDEX.md": (blob[0], BLOB),
            "entries/decision/a.md": (blob[1], BLOB),
            "entries/decision/b.md": (blob[2], BLOB),
            "entries/method/c.md": (blob[3], BLOB),
            "refused.md": (blob[4], BLOB),
        },
    )
    edited = store.build_tree(
        base,
        {
            "INDEX.md": (blob[5], BLOB),
            "entries/decision/b.md": None,
            "entries/decision/z.md": (blob[2], BLOB),
            "entries/method/c.md": (blob[3], BLOB_EXECUTABLE),
            "refused.md": (blob[4], LINK),
            "entries/mistake/deep/er/d.md": (blob[1], BLOB),
        },
    )
    without_index = store.build_tree(base, {"INDEX.md": None})
    as_folder = store.build_tree(without_index, {"INDEX.md/inside.md": (blob[0], BLOB)})
    odd = _mktree(
        repo,
        [
            ("100644", "blob", blob[0], b"caf\xe9.md"),  # Latin-1, not UTF-8
            ("100644", "blob", blob[1], b"with space.md"),
            ("100644", "blob", blob[2], b"new\nline.md"),
            ("100644", "blob", blob[3], b":colon.md"),
            ("100644", "blob", blob[4], "ünïcode.md".encode()),
        ],
    )
    odd_edited = _mktree(
        repo,
        [
            ("100644", "blob", blob[5], b"caf\xe9.md"),
            ("100644", "blob", blob[1], b"with space.md"),
            ("100755", "blob", blob[2], b"new\nline.md"),
            ("100644", "blob", blob[4], "ünïcode.md".encode()),
        ],
    )
    return [None, base, edited, as_folder, odd, odd_edited]


def _key(change: Change) -> tuple[str, str]:
    return (change.path, change.status)


def test_the_bulk_diff_equals_the_one_pair_diff(repo: Path) -> None:
    trees = _trees(repo)
    store = Store.open(repo)
    pairs = [(a, b) for a in trees for b in trees]
    bulk = dict(store.diff_stream(pairs, prefix=".gitmem/"))
    assert set(bulk) == {(a, b) for a, b in pairs if a != b}  # each differing pair, once
    compared = 0
    for a, b in pairs:
        one = sorted(store.diff(a, b, prefix=".gitmem/"), key=_key)
        assert sorted(bulk.get((a, b), []), key=_key) == one, (a, b)
        compared += len(one)
    assert compared > 40  # the pairs really differ
    names = {c.path for changes in bulk.values() for c in changes}
    assert ".gitmem/caf\udce9.md" in names and ".gitmem/new\nline.md" in names


def test_the_stream_answers_in_order_and_once_per_pair(repo: Path) -> None:
    trees = [t for t in _trees(repo) if t is not None]
    store = Store.open(repo)
    pairs = [(trees[0], trees[1]), (trees[1], trees[1]), (trees[1], trees[2]), (trees[0], trees[1])]
    answered = [pair for pair, _ in store.diff_stream(pairs)]
    assert answered == [(trees[0], trees[1]), (trees[1], trees[2])]


def test_a_missing_tree_is_an_error_not_a_hang(repo: Path) -> None:
    store = Store.open(repo)
    base = _trees(repo)[1]
    with pytest.raises(GitmemError, match="diff-tree"):
        list(store.diff_stream([(base, "1" * 40)]))


def test_a_reader_that_stops_early_stops_git(repo: Path) -> None:
    trees = [t for t in _trees(repo) if t is not None]
    store = Store.open(repo)
    stream = store.diff_stream([(a, b) for a in trees for b in trees])
    next(stream)
    assert "git" in child_processes()
    stream.close()
    assert "git" not in child_processes()  # killed and waited for: not even a zombie


def test_first_added_finds_each_path_s_admission_on_the_first_parent_chain(repo: Path) -> None:
    def commit(message: str) -> str:
        subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
        subprocess.run(["git", "commit", "-q", "-m", message], cwd=repo, check=True)
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True)
        return out.stdout.decode().strip()

    (repo / "m").mkdir()
    (repo / "m/a.md").write_text("a\n")
    first = commit("add a")
    subprocess.run(["git", "checkout", "-q", "-b", "side"], cwd=repo, check=True)
    (repo / "m/b.md").write_text("b\n")
    commit("add b on a side branch")
    subprocess.run(["git", "checkout", "-q", "main"], cwd=repo, check=True)
    (repo / "m/a.md").write_text("a, edited\n")
    commit("edit a")
    subprocess.run(["git", "merge", "-q", "--no-ff", "-m", "merge side", "side"], cwd=repo)
    merge = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True)
    tip = merge.stdout.decode().strip()
    found = Store.open(repo).first_added(tip, ["m/a.md", "m/b.md", "m/never.md"])
    # b.md entered main's first-parent chain with the merge, as an admission does
    assert found == {"m/a.md": first, "m/b.md": tip}
