"""gitmem.recall.freshness on a real history, asked through git alone (an agent's hook) and
through the opened repository (recall, MCP): the same answer, and a failing question fails."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitmem.recall.freshness import Freshness, freshness
from gitmem.repo.gitcli import History
from gitmem.repo.store import Store

from conftest import git


def commit(repo: Path, files: dict[str, str], message: str) -> str:
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip()


def test_stale_missing_and_unknown_entries_through_both_readers(repo: Path) -> None:
    commit(repo, {"src/a.py": "a\n", "src/b.py": "b\n"}, "code")
    commit(repo, {"m/old.md": "old\n", "m/gone.md": "gone\n"}, "admit old and gone")
    commit(repo, {"src/a.py": "a2\n"}, "touch a")
    commit(repo, {"src/a.py": "a3\n", "src/b.py": "b2\n"}, "touch a and b")
    git(repo, "rm", "-q", "src/b.py")
    tip = commit(repo, {"m/new.md": "new\n"}, "admit new, delete b")
    entries = [
        ("m/old.md", ["src/a.py", "src/b.py"]),  # a touched twice since; b is gone
        ("m/gone.md", ["src/b.py"]),  # its only file is gone: nothing to count
        ("m/new.md", ["src/a.py"]),  # admitted after every touch
        ("m/nowhere.md", ["src/a.py"]),  # no commit added it: counts none
        ("m/plain.md", []),
    ]
    expected = [
        Freshness(2, ("src/b.py",)),
        Freshness(0, ("src/b.py",)),
        Freshness(0, ()),
        Freshness(0, ()),
        Freshness(0, ()),
    ]
    assert freshness(History(repo), tip, entries) == expected
    assert freshness(Store.open(repo), tip, entries) == expected
    assert expected[0].note == (
        "cites missing file src/b.py; may be stale: 2 commits touched its files since admission"
    )


def test_a_failing_admission_walk_is_raised_not_swallowed(repo: Path) -> None:
    tip = git(repo, "rev-parse", "HEAD").strip()

    class Broken(History):
        def first_added(self, tip: str, paths: list[str]) -> dict[str, str]:
            raise OSError("git log failed")

    with pytest.raises(OSError, match="git log failed"):
        freshness(Broken(repo), tip, [("m/x.md", ["README.md"])])
