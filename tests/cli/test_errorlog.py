"""The exit-3 log: a new private file in the user's state folder, never written through a link
nor into a folder others can read."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from gitmem.errorlog import write_error_log


def test_the_log_is_never_written_through_a_link_or_into_a_shared_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = tmp_path / "state"
    (state / "gitmem").mkdir(parents=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (state / "gitmem" / "errors").symlink_to(elsewhere)
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    assert write_error_log("traceback") is None
    assert list(elsewhere.iterdir()) == []
    (state / "gitmem" / "errors").unlink()
    (state / "gitmem" / "errors").mkdir(mode=0o777)
    os.chmod(state / "gitmem" / "errors", 0o777)
    path = write_error_log("traceback")
    assert path is not None and path.read_text() == "traceback"
    assert stat.S_IMODE((state / "gitmem" / "errors").stat().st_mode) == 0o700


def test_a_folder_of_another_user_or_a_file_in_its_place_gets_no_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = tmp_path / "state"
    (state / "gitmem").mkdir(parents=True)
    (state / "gitmem" / "errors").write_text("a file where the folder goes")
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    assert write_error_log("traceback") is None
    assert (state / "gitmem" / "errors").read_text() == "a file where the folder goes"
