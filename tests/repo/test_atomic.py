"""gitmem.repo.atomic: a file replaced whole, and no temporary file left by a failed write."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from gitmem.repo.atomic import atomic_write, sweep_temporaries


def test_the_new_bytes_replace_the_old_whole(tmp_path: Path) -> None:
    target = tmp_path / "state.json"
    target.write_bytes(b"old")
    atomic_write(target, b"new")
    assert target.read_bytes() == b"new"
    assert [p.name for p in tmp_path.iterdir()] == ["state.json"]


def test_the_mode_is_kept_or_given_and_a_link_is_replaced_not_followed(tmp_path: Path) -> None:
    target = tmp_path / "INDEX.md"
    target.write_bytes(b"old")
    target.chmod(0o640)
    atomic_write(target, b"new")
    assert target.stat().st_mode & 0o777 == 0o640
    atomic_write(target, b"hook", mode=0o755)
    assert target.stat().st_mode & 0o777 == 0o755
    victim = tmp_path / "victim"
    victim.write_bytes(b"mine")
    link = tmp_path / "link.md"
    link.symlink_to(victim)
    atomic_write(link, b"new")
    assert victim.read_bytes() == b"mine" and not link.is_symlink()
    assert link.read_bytes() == b"new"


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


def test_a_sweep_takes_old_temporaries_and_leaves_fresh_ones_and_other_files(
    tmp_path: Path,
) -> None:
    old, fresh = tmp_path / ".state.json.4242.tmp", tmp_path / ".state.json.4343.tmp"
    kept = [tmp_path / "state.json", tmp_path / ".gitignore", tmp_path / "notes.tmp"]
    for path in (old, fresh, *kept):
        path.write_bytes(b"x")
    os.utime(old, (time.time() - 120, time.time() - 120))
    sweep_temporaries(tmp_path, older_than=60)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in [fresh, *kept])
    sweep_temporaries(tmp_path, older_than=0)  # under a lock every writer holds
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in kept)
    sweep_temporaries(tmp_path / "missing", older_than=0)  # no folder: nothing to do
