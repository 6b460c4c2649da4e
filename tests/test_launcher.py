"""The no-op fast path of the pre-commit hook answers only a plain "nothing staged in memory"."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from gitmem import launcher

from conftest import git
from entries import text


@pytest.fixture
def inside(repo: Path) -> Iterator[Path]:
    old = Path.cwd()
    os.chdir(repo)
    yield repo
    os.chdir(old)


def test_code_only_change_takes_the_fast_path(inside: Path) -> None:
    (inside / "code.py").write_text("x = 1\n")
    git(inside, "add", "code.py")
    assert launcher.nothing_staged_in_memory()


def test_staged_memory_or_settings_take_the_full_check(inside: Path) -> None:
    (inside / ".gitmem/candidates").mkdir(parents=True)
    (inside / ".gitmem/candidates/x.md").write_text(text())
    git(inside, "add", ".gitmem")
    assert not launcher.nothing_staged_in_memory()
    git(inside, "reset", "-q")
    (inside / ".gitmem.toml").write_text('[memory]\ndir = "notes/memory"\n')
    git(inside, "add", ".gitmem.toml")
    assert not launcher.nothing_staged_in_memory()


def test_a_custom_memory_dir_is_honoured(inside: Path) -> None:
    (inside / ".gitmem.toml").write_text('[memory]\ndir = "notes/memory"\n')
    git(inside, "add", ".gitmem.toml")
    git(inside, "commit", "-q", "-m", "settings")
    (inside / "notes/memory").mkdir(parents=True)
    (inside / "notes/memory/x.md").write_text("x")
    git(inside, "add", "notes")
    assert not launcher.nothing_staged_in_memory()
    os.environ["GITMEM_DIR"] = "elsewhere"
    assert not launcher.nothing_staged_in_memory()


def test_fast_path_does_not_import_the_full_cli(inside: Path) -> None:
    (inside / "code.py").write_text("x = 1\n")
    git(inside, "add", "code.py")
    probe = (
        "import sys; sys.argv = ['gitmem', 'hook', 'pre-commit']\n"
        "from gitmem import launcher\n"
        "try:\n    launcher.main()\nexcept SystemExit as e:\n"
        "    print(e.code, 'pygit2' in sys.modules, 'click' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert out.stdout.split() == ["0", "False", "False"], out.stderr


def test_a_setting_the_full_check_sets_aside_never_opens_the_fast_path(inside: Path) -> None:
    # the full check refuses this dir and falls back to .gitmem: so must the fast path
    (inside / ".gitmem.toml").write_text('[memory]\ndir = ".claude/memory"\n')
    git(inside, "add", ".gitmem.toml")
    git(inside, "commit", "-q", "-m", "settings")
    (inside / ".gitmem/candidates").mkdir(parents=True)
    (inside / ".gitmem/candidates/x.md").write_text(text())
    git(inside, "add", ".gitmem")
    assert not launcher.nothing_staged_in_memory()


def test_the_users_own_folder_setting_is_honoured(inside: Path, isolated_env: Path) -> None:
    (isolated_env / "gitmem").mkdir()
    (isolated_env / "gitmem/config.toml").write_text('[memory]\ndir = "mine"\n')
    (inside / "mine").mkdir()
    (inside / "mine/x.md").write_text("x")
    git(inside, "add", "mine")
    assert not launcher.nothing_staged_in_memory()


def test_unstaged_settings_edits_take_the_full_check(inside: Path) -> None:
    (inside / ".gitmem.toml").write_text('[memory]\ndir = "notes"\n')
    git(inside, "add", ".gitmem.toml")
    git(inside, "commit", "-q", "-m", "settings")
    (inside / ".gitmem.toml").write_text('[memory]\ndir = "elsewhere"\n')  # not staged
    (inside / "code.py").write_text("x = 1\n")
    git(inside, "add", "code.py")
    assert not launcher.nothing_staged_in_memory()
    git(inside, "checkout", "--", ".gitmem.toml")
    assert launcher.nothing_staged_in_memory()


def test_a_closed_standard_output_is_refused_not_taken_for_silence(inside: Path) -> None:
    """With fd 1 closed (`gitmem recall x >&-`) Python has no sys.stdout and click dropped
    every answer with exit 0: an empty answer and "no precedent" looked the same."""
    closed = 'exec "$@" >&-'
    done = subprocess.run(
        ["sh", "-c", closed, "sh", sys.executable, "-m", "gitmem", "recall", "hooks"],
        cwd=inside,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert "standard output is closed" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize(
    "line",
    [
        ".gitmem.toml working-tree-encoding=UTF-16",
        "[attr]moved filter=moved\n*.toml moved",
        '"/.gitmem.toml" filter=moved',
    ],
)
def test_settings_git_converts_on_checkout_take_the_full_check(inside: Path, line: str) -> None:
    """A .gitattributes line changes no settings blob but makes the checkout's .gitmem.toml
    other bytes: in UTF-16 it named no `dir` the fast path could read, so a commit of files
    in the memory folder its blob names (notes/) was taken for touching no memory, and the
    pre-commit check never ran on it; a filter made it name another folder."""
    git(inside, "config", "filter.moved.smudge", "sed s/notes/elsewhere/")
    git(inside, "config", "filter.moved.clean", "sed s/elsewhere/notes/")
    (inside / ".gitmem.toml").write_text('[memory]\ndir = "notes"\n')
    git(inside, "add", ".gitmem.toml")
    git(inside, "commit", "-q", "-m", "settings")
    (inside / ".gitattributes").write_text(line + "\n")
    git(inside, "add", ".gitattributes")
    git(inside, "commit", "-q", "-m", "attributes")
    (inside / ".gitmem.toml").unlink()
    git(inside, "checkout", "--", ".gitmem.toml")  # as a clone writes it
    (inside / "notes").mkdir()
    (inside / "notes/x.md").write_text("x")
    git(inside, "add", "notes")
    assert not launcher.nothing_staged_in_memory()


def test_attributes_that_cannot_touch_the_settings_keep_the_fast_path(inside: Path) -> None:
    """git LFS's lines (and line endings, which TOML reads alike) leave the fast path open."""
    (inside / ".gitattributes").write_text(
        "*.psd filter=lfs diff=lfs merge=lfs -text\n* text=auto eol=crlf\n"
    )
    (inside / "code.py").write_text("x = 1\n")
    git(inside, "add", "code.py", ".gitattributes")
    assert launcher.nothing_staged_in_memory()
