"""gitmem.repo.atomic: a file replaced whole, and no temporary file left by a failed write."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitmem.repo.atomic import atomic_write


def test_the_new_bytes_replace_the_old_whole(tmp_path: Path) -> None:
    target = tmp_path / "state.json"
    target.write_bytes(b"old")
    atomic_write(target, b"new")
    assert target.read_bytes() == b"new"
    assert [p.name for p in tmp_path.iterdir()] == ["state.json"]


def test_a_write_that_fails_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    """The rename fails (the target is a folder that holds a file): the temporary file,
    written in full by then, goes too, and the folder is untouched."""
    target = tmp_path / "INDEX.md"
    target.mkdir()
    (target / "kept").write_text("x")
    with pytest.raises(OSError):
        atomic_write(target, b"# Index\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["INDEX.md"]
    assert (target / "kept").read_text() == "x"
