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

from conftest import git, run_gitmem


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
    assert result.exit_code == 2 and ".gitmem/INDEX.md has uncommitted changes" in result.output
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


def _memory_in_mem(repo: Path) -> str:
    """A memory in folder `mem` (not the default) with one admitted entry: its id."""
    ok(run(repo, "init", "--dir", "mem", "--project", "shop"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "gitmem init")
    entry_id = proposed(ok(run(repo, *PROPOSE)).output)
    ok(run(repo, "admit", entry_id))
    return entry_id


def _attribute_commit(repo: Path, line: str) -> None:
    """A commit that adds line to .gitattributes and changes no settings blob, then every file
    checked out again, as a fresh clone would write it."""
    settings_blob = git(repo, "rev-parse", "HEAD:.gitmem.toml")
    with (repo / ".gitattributes").open("a") as attributes:
        attributes.write(line + "\n")
    git(repo, "add", ".gitattributes")
    git(repo, "commit", "-q", "-m", "attributes")
    assert git(repo, "rev-parse", "HEAD:.gitmem.toml") == settings_blob
    checked_out_again(repo)


@pytest.mark.parametrize(
    ("line", "attribute"),
    [
        (".gitmem.toml working-tree-encoding=UTF-16", "working-tree-encoding=UTF-16"),
        (".gitmem.toml filter=moved", "filter=moved"),
        ("*.toml ident", "ident"),
    ],
)
def test_a_settings_file_git_converts_on_checkout_is_refused(
    repo: Path, line: str, attribute: str
) -> None:
    """A .gitattributes line made every checkout's .gitmem.toml other bytes than its blob,
    which the gates and a reviewer read, while the blob stayed as it was: UTF-16 was invalid
    TOML, so every setting fell back to its default (list read the memory folder .gitmem
    and said "no entries"); a filter or `$Id$` made the file say other settings. Refused,
    naming the file and the attribute, and the fix the message gives works."""
    entry_id = _memory_in_mem(repo)
    git(repo, "config", "filter.moved.smudge", 'sed \'s/"mem"/"elsewhere"/\'')
    git(repo, "config", "filter.moved.clean", 'sed \'s/"elsewhere"/"mem"/\'')
    if attribute == "ident":
        with (repo / ".gitmem.toml").open("a") as settings:
            settings.write("# $Id$\n")
        git(repo, "commit", "-q", "-am", "settings with an id")
    _attribute_commit(repo, line)
    on_disk = (repo / ".gitmem.toml").read_bytes()
    assert on_disk != git(repo, "cat-file", "blob", "HEAD:.gitmem.toml").encode()
    for args in (["list"], ["recall", "hooks"], [*HOOKS]):
        done = run_gitmem(repo, *args)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert done.stderr.count(".gitmem.toml: git converts this file") == 1
        assert attribute in done.stderr and "Traceback" not in done.stderr
    # the fix the message names: override the attribute in this clone, check the file out
    info = repo / git(repo, "rev-parse", "--git-path", "info/attributes").strip()
    info.parent.mkdir(parents=True, exist_ok=True)
    info.write_text(f".gitmem.toml -{attribute.partition('=')[0]}\n")
    (repo / ".gitmem.toml").unlink()
    git(repo, "checkout", "--", ".gitmem.toml")
    assert entry_id in ok(run(repo, "list")).output


def test_settings_git_marks_for_conversion_but_writes_as_stored_are_read(repo: Path) -> None:
    """An attribute that converts nothing in this file (`ident` with no `$Id$`), and line
    endings (TOML reads CRLF as LF), leave the settings as the repository holds them: read."""
    entry_id = _memory_in_mem(repo)
    _attribute_commit(repo, ".gitmem.toml ident eol=crlf")
    assert b"\r\n" in (repo / ".gitmem.toml").read_bytes()
    listed = ok(run(repo, "list")).output
    assert entry_id in listed and "warning" not in listed


def test_a_converted_settings_file_is_refused_with_a_split_index(repo: Path) -> None:
    """libgit2 reads no attribute where it cannot read the staging index (a split index's
    `link` extension): git answers, and the converted file is refused all the same."""
    _memory_in_mem(repo)
    _attribute_commit(repo, ".gitmem.toml working-tree-encoding=UTF-16")
    split_index(repo)
    done = run_gitmem(repo, "list")
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert ".gitmem.toml: git converts this file" in done.stderr
    assert "working-tree-encoding=UTF-16" in done.stderr and "Traceback" not in done.stderr
