"""`gitmem init`: the memory folder, .gitmem.toml only for what differs from the defaults, and
nothing overwritten when run twice."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitmem.errors import UsageError
from gitmem.lifecycle.bootstrap import init
from gitmem.repo.store import Store


def test_defaults_write_no_settings_file_and_a_second_run_keeps_everything(repo: Path) -> None:
    done = init(Store.open(repo))
    assert done.root == repo and ".gitmem.toml" not in done.created
    assert sorted(done.created) == [
        ".gitattributes", ".gitmem/.gitignore", ".gitmem/INDEX.md", ".gitmem/refused.md",
    ]  # fmt: skip
    (repo / ".gitmem/refused.md").write_text("# kept as the person left it\n")
    again = init(Store.open(repo))
    assert again.created == [] and len(again.kept) == 4
    assert (repo / ".gitmem/refused.md").read_text() == "# kept as the person left it\n"
    assert (repo / ".gitattributes").read_text().count("merge=gitmem-index") == 1


def test_settings_that_differ_go_to_gitmem_toml(repo: Path) -> None:
    done = init(Store.open(repo), memory_dir="notes/memory", project="shop", branch="trunk")
    assert ".gitmem.toml" in done.created
    toml = (repo / ".gitmem.toml").read_text()
    assert toml == '[memory]\ndir = "notes/memory"\nproject = "shop"\nbranch = "trunk"\n'
    assert (repo / "notes/memory/INDEX.md").is_file()


def test_bad_values_are_refused_before_anything_is_written(repo: Path) -> None:
    for kwargs in ({"project": "Not A Slug"}, {"memory_dir": ".git/memory"}, {"branch": "a..b"}):
        with pytest.raises(UsageError):
            init(Store.open(repo), **kwargs)  # type: ignore[arg-type]
    assert not (repo / ".gitmem").exists() and not (repo / ".gitmem.toml").exists()
