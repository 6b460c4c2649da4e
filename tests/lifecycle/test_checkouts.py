"""admit and refuse on checkouts that are not plain: line-ending conversion, a clean/smudge
filter, a split index, a sparse checkout and a sparse index. The files a landing brings must end
exactly as `git checkout` would have written them, with the staging index at main's tip: before,
libgit2 wrote the raw blob and compared raw bytes, so INDEX.md or refused.md was left staged at
its old version (the next commit undid the admission), and a split or sparse index, which
libgit2 cannot read, made admit fail after main moved, on every later try."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from clirunner import HOOKS, PROPOSE, first_id, ok, proposed, run

from conftest import git


def settled(repo: Path) -> None:
    """Nothing staged or changed, and the memory is exactly what main commits: to git's
    plumbing too, which reads the index's stat data as it is (no refresh, as status makes)."""
    assert git(repo, "diff-files", "--name-only") == ""
    assert git(repo, "status", "--porcelain", "--untracked-files=no") == ""
    assert git(repo, "diff", "--cached", "--stat") == ""
    assert ok(run(repo, "index", "--check")).output == ""


def checked_out_again(repo: Path) -> None:
    """Every tracked file rewritten as git checks it out with the settings now in force."""
    git(repo, "rm", "-q", "-r", "--cached", ".")
    git(repo, "reset", "-q", "--hard")


def test_admit_with_autocrlf_writes_crlf_files_and_leaves_nothing_staged(memory: Path) -> None:
    git(memory, "config", "core.autocrlf", "true")
    checked_out_again(memory)
    assert b"\r\n" in (memory / ".gitmem/INDEX.md").read_bytes()
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    settled(memory)
    entry = memory / f".gitmem/entries/decision/{first_id()}.md"
    assert b"\r\n" in entry.read_bytes() and b"\r\n" in (memory / ".gitmem/INDEX.md").read_bytes()
    (memory / "README.md").write_text("more\n")
    git(memory, "commit", "-q", "-am", "unrelated")  # used to revert INDEX.md on main
    assert git(memory, "show", "--stat", "--format=", "HEAD").split()[0] == "README.md"


def test_refuse_through_a_clean_smudge_filter_leaves_nothing_staged(memory: Path) -> None:
    git(memory, "config", "filter.tag.smudge", "sed '$a <!-- checked out -->'")
    git(memory, "config", "filter.tag.clean", "sed '/^<!-- checked out -->$/d'")
    (memory / ".gitattributes").write_text(".gitmem/refused.md filter=tag\n")
    git(memory, "add", ".gitattributes")
    git(memory, "commit", "-q", "-m", "filter")
    checked_out_again(memory)
    ok(run(memory, *PROPOSE))
    ok(run(memory, "refuse", first_id(), "--reason", "not needed"))
    settled(memory)
    refused = (memory / ".gitmem/refused.md").read_text()
    assert first_id() in refused and refused.endswith("<!-- checked out -->\n")


def test_a_file_edited_by_hand_is_still_told_apart_under_autocrlf(memory: Path) -> None:
    git(memory, "config", "core.autocrlf", "true")
    checked_out_again(memory)
    ok(run(memory, *PROPOSE))
    (memory / ".gitmem/INDEX.md").write_bytes(b"my notes\r\n")
    result = run(memory, "admit", first_id())
    assert result.exit_code == 1 and ".gitmem/INDEX.md has uncommitted changes" in result.output
    assert (memory / ".gitmem/INDEX.md").read_bytes() == b"my notes\r\n"


def split_index(repo: Path) -> None:
    git(repo, "config", "core.splitIndex", "true")
    git(repo, "update-index", "--split-index")


def sparse_index(repo: Path) -> None:
    (repo / "src").mkdir()
    (repo / "src/a.txt").write_text("x\n")
    git(repo, "add", "src")
    git(repo, "commit", "-q", "-m", "src")
    git(repo, "sparse-checkout", "init", "--cone", "--sparse-index")
    git(repo, "sparse-checkout", "set", "src", ".gitmem")


@pytest.mark.parametrize("layout", [split_index, sparse_index])
def test_admit_and_refuse_on_an_index_libgit2_cannot_read(memory: Path, layout: object) -> None:
    assert callable(layout)
    layout(memory)
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    settled(memory)
    assert (memory / f".gitmem/entries/decision/{first_id()}.md").is_file()
    ok(run(memory, *PROPOSE[:4], "Another topic entirely", *PROPOSE[5:]))
    other = git(memory, "branch", "--list", "gitmem/*", "--format=%(refname:short)").split()
    ok(run(memory, "refuse", other[0].removeprefix("gitmem/"), "--reason", "no"))
    settled(memory)


def test_the_staged_check_reads_a_split_index(memory: Path) -> None:
    """pre-commit's `check --staged` read the staging index with libgit2, which refuses a
    split index's `link` extension: an internal error (exit 3) on every commit."""
    split_index(memory)
    (memory / ".gitmem/entries/decision").mkdir(parents=True, exist_ok=True)
    (memory / ".gitmem/entries/decision/broken.md").write_text("no front matter\n")
    git(memory, "add", ".gitmem")
    result = run(memory, "check", "--staged")
    assert result.exit_code == 1, result.output
    assert ".gitmem/entries/decision/broken.md" in result.output
    git(memory, "rm", "-q", "--cached", ".gitmem/entries/decision/broken.md")
    assert ok(run(memory, "check", "--staged")).output.endswith("no problems\n")


def test_admit_and_refuse_on_a_sparse_checkout_without_the_memory(memory: Path) -> None:
    """The memory folder left out of the checkout: status is clean, so admit may land; the
    index entries follow main and keep their skip-worktree bit, and no file is written."""
    git(memory, "sparse-checkout", "set", "--no-cone", "/*", "!/.gitmem/")
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    assert git(memory, "status", "--porcelain") == ""
    assert not (memory / ".gitmem").exists()
    entry = f".gitmem/entries/decision/{first_id()}.md"
    assert git(memory, "ls-files", "-t", "--", entry).startswith("S ")
    git(memory, "sparse-checkout", "disable")
    assert (memory / entry).is_file()
    settled(memory)


def test_a_sparse_checkout_that_leaves_the_settings_file_out_reads_it_as_committed(
    repo: Path,
) -> None:
    """A non-cone pattern (`/src/`) leaves the top-level .gitmem.toml out of the checkout:
    read as no file, its settings fell back to the defaults, so `gitmem list` read another
    memory folder and said "no entries", and propose refused the checkout's settings as
    edited. A file left out by design is read as staged; one deleted by hand is still none."""
    (repo / "src").mkdir()
    (repo / "src" / "app.py").write_text("print()\n")
    ok(run(repo, "init", "--dir", "mem", "--project", "shop"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "gitmem init")
    entry_id = proposed(ok(run(repo, *PROPOSE)).output)
    ok(run(repo, "admit", entry_id))
    git(repo, "sparse-checkout", "set", "--no-cone", "/src/")
    assert not (repo / ".gitmem.toml").exists()
    assert entry_id in ok(run(repo, "list")).output
    second = proposed(ok(run(repo, *HOOKS)).output)
    assert second.startswith("shop-")
    ok(run(repo, "admit", second))
    assert git(repo, "status", "--porcelain") == ""
    git(repo, "sparse-checkout", "disable")
    (repo / ".gitmem.toml").unlink()  # deleted by hand: the defaults, and said so
    assert ok(run(repo, "list")).output == "no entries\n"


def test_admit_with_a_git_that_knows_no_reset_no_refresh(
    memory: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An admission moves the index entries with `git reset --no-refresh` (a mixed reset
    refreshes the whole index, an lstat of every tracked file); git before 2.36 refuses the
    option, and there `-q` alone skips the refresh. The git on PATH here is the real one,
    refusing the option as git 2.34 does; the admission still lands and settles."""
    real = git(memory, "--exec-path").strip()
    shim = tmp_path / "old-git"
    shim.mkdir()
    (shim / "git").write_text(
        "#!/bin/sh\n"
        'for arg in "$@"; do\n'
        '  if [ "$arg" = "--no-refresh" ]; then\n'
        '    echo "error: unknown option \\`no-refresh\'" >&2; exit 129\n'
        "  fi\n"
        "done\n"
        f'exec "{real}/git" "$@"\n'
    )
    (shim / "git").chmod(0o755)
    git(memory, "sparse-checkout", "set", "--no-cone", "/*")  # a reset moves its entries
    monkeypatch.setenv("PATH", f"{shim}:{os.environ['PATH']}")
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    settled(memory)
    assert (memory / f".gitmem/entries/decision/{first_id()}.md").is_file()


def test_a_skip_worktree_bit_set_by_hand_is_kept_outside_a_sparse_checkout(memory: Path) -> None:
    """Outside a sparse checkout the index entries move by `git update-index --index-info`,
    which drops an entry's skip-worktree bit; someone who set it on INDEX.md (to keep their
    own copy) would find it gone. Such a path is moved by a reset, which keeps it."""
    git(memory, "update-index", "--skip-worktree", ".gitmem/INDEX.md")
    mine = (memory / ".gitmem/INDEX.md").read_text() + "my own notes\n"
    (memory / ".gitmem/INDEX.md").write_text(mine)
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    assert git(memory, "ls-files", "-t", ".gitmem/INDEX.md").startswith("S ")
    assert (memory / ".gitmem/INDEX.md").read_text() == mine
    assert first_id() in git(memory, "show", "main:.gitmem/INDEX.md")
    staged = git(memory, "ls-files", "-s", ".gitmem/INDEX.md").split()[1]
    assert staged == git(memory, "rev-parse", "main:.gitmem/INDEX.md").strip()
