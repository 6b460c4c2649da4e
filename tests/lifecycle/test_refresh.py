"""`gitmem index` and the post-* hooks: INDEX.md and CANDIDATES.md brought up to date."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from clirunner import PROPOSE, SECRETS, first_id, ok, proposed, run

from gitmem.lifecycle import refresh
from gitmem.repo.workspace import open_workspace

from conftest import git, killed_at_rename


def test_index_check_and_regeneration(memory: Path) -> None:
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    assert ok(run(memory, "index", "--check")).output == ""
    (memory / ".gitmem/INDEX.md").write_text("stale\n")
    assert run(memory, "index", "--check").exit_code == 1
    ok(run(memory, "index"))
    assert git(memory, "status", "--porcelain") == ""


def test_an_index_md_that_is_not_utf8_is_stale_not_an_unexpected_error(memory: Path) -> None:
    """`gitmem index --check` read INDEX.md as UTF-8 text and ended in "unexpected error
    (UnicodeDecodeError…)", exit 3, when the file held other bytes (a bad merge, a
    commit past the hooks)."""
    index_md = memory / ".gitmem" / "INDEX.md"
    index_md.write_bytes(b"# Memory index\n\xff\xfe\n")
    result = run(memory, "index", "--check")
    assert result.exit_code == 1, result.output
    assert ".gitmem/INDEX.md: INDEX stale: run `gitmem index` and commit it" in result.output
    ok(run(memory, "index"))
    ok(run(memory, "index", "--check"))


def test_the_merge_driver_given_no_files_says_what_it_is_for(memory: Path) -> None:
    """`gitmem index --merge-driver` run by hand with names of no files ended in "unexpected
    error (FileNotFoundError…)", exit 3."""
    result = run(memory, "index", "--merge-driver", "base", "ours", "theirs", "INDEX.md")
    assert result.exit_code == 2, result.output
    assert "--merge-driver: ours: no such file: git passes the driver the files" in result.output
    assert "run `gitmem index`" in result.output


def test_the_merge_driver_given_a_named_pipe_says_so_without_waiting(memory: Path) -> None:
    """`gitmem index --merge-driver` given a named pipe for a side opened it to read and
    waited for good for a writer."""
    os.mkfifo(memory / "pipe")
    (memory / "theirs.md").write_text("# Index\n")
    done = subprocess.run(
        [sys.executable, "-m", "gitmem", "index", "--merge-driver", "b", "pipe", "theirs.md", "x"],
        cwd=memory,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert "--merge-driver: pipe: not a regular file: git passes the driver the files" in (
        done.stderr
    )


def test_the_merge_driver_keeps_what_one_side_changed_since_the_merge_base(
    memory: Path,
) -> None:
    """A real `git merge`, with the driver as `gitmem hooks install` configures it, of a
    branch that retired an entry into one that admitted another since: the driver took the
    union of both sides' lines with a superseded line winning, so the untouched side's
    "admitted" line won over the "retired" one, and the merge committed an INDEX.md saying
    the retired entry was admitted (`gitmem index --check`: stale; the gate refused the push).
    Merged against the base, the line only one side changed takes that side's version."""
    ok(run(memory, "hooks", "install"))
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    before = git(memory, "rev-parse", "HEAD").strip()
    retire = proposed(
        ok(run(memory, "propose", "--retire", first_id(), "--reason", "a test write")).output
    )
    ok(run(memory, "admit", retire))
    git(memory, "branch", "retired")
    git(memory, "reset", "-q", "--hard", before)
    other = proposed(ok(run(memory, *SECRETS)).output)
    ok(run(memory, "admit", other))

    git(memory, "merge", "-q", "--no-edit", "retired")

    index = git(memory, "show", "HEAD:.gitmem/INDEX.md")
    assert f"[{first_id()}](entries/decision/{first_id()}.md) retired — " in index
    assert f"[{other}](entries/method/{other}.md) admitted — " in index
    assert ok(run(memory, "index", "--check")).output == ""


def test_post_hooks_regenerate_index_md_only_when_the_memory_folder_changed(
    memory: Path,
) -> None:
    from gitmem.lifecycle import refresh

    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    ws = open_workspace(memory)
    index = memory / ".gitmem/INDEX.md"
    committed = index.read_text()
    refresh.refresh(ws, from_hook=True)  # clean folder: the committed INDEX.md stands
    assert index.read_text() == committed and git(memory, "status", "--porcelain") == ""
    entry = memory / f".gitmem/entries/decision/{first_id()}.md"
    entry.write_text(entry.read_text().replace("title: Use pygit2", "title: Use libgit2"))
    refresh.refresh(ws, from_hook=True)  # a changed entry: INDEX.md follows it
    assert "Use libgit2 inside hooks" in index.read_text()


@pytest.mark.parametrize("name", ["INDEX.md", "CANDIDATES.md"])
def test_a_folder_where_a_generated_file_belongs_is_named(memory: Path, name: str) -> None:
    """`gitmem index` with a folder at .gitmem/INDEX.md (or CANDIDATES.md) failed as an
    unexpected error (exit 3) naming a temporary file; it names the folder now (exit 2)."""
    target = memory / ".gitmem" / name
    target.unlink(missing_ok=True)
    target.mkdir()
    result = run(memory, "index")
    assert result.exit_code == 2, result.output
    assert f".gitmem/{name} is a folder: gitmem writes a file there" in result.output
    assert target.is_dir() and not list((memory / ".gitmem").glob(".*.tmp"))


@pytest.mark.parametrize("name", ["INDEX.md", "CANDIDATES.md"])
@pytest.mark.parametrize("what", ["a named pipe", "a link to /dev/zero"])
def test_a_pipe_or_an_endless_file_where_a_generated_file_belongs_is_replaced(
    memory: Path, name: str, what: str
) -> None:
    """`gitmem index` (and every post-checkout hook) read what stood at INDEX.md or
    CANDIDATES.md to see whether it was up to date: a named pipe there had it wait for good,
    a link to /dev/zero read until memory ran out. Neither is read now; the file replaces it."""
    target = memory / ".gitmem" / name
    target.unlink(missing_ok=True)
    if what == "a named pipe":
        os.mkfifo(target)
    else:
        target.symlink_to("/dev/zero")
    for args in (["index", "--check"], ["index"]):
        done = subprocess.run([sys.executable, "-m", "gitmem", *args], cwd=memory,
                              capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
        assert done.returncode in (0, 1) and "Traceback" not in done.stderr, done.stderr
    assert target.is_file() and not target.is_symlink()
    assert ok(run(memory, "index", "--check")).exit_code == 0


@pytest.mark.parametrize("kind", ["a file", "a symbolic link"])
def test_a_memory_folder_that_is_no_folder_is_named(
    memory: Path, tmp_path: Path, kind: str
) -> None:
    """A file at .gitmem had `gitmem index` say "indexes up to date" and `--check` pass; a
    link to a folder elsewhere had INDEX.md and CANDIDATES.md written where it led, outside
    the repository."""
    shutil.rmtree(memory / ".gitmem")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    if kind == "a file":
        (memory / ".gitmem").write_text("notes\n")
    else:
        (memory / ".gitmem").symlink_to(elsewhere)
    for args in (["index"], ["index", "--check"]):
        result = run(memory, *args)
        assert result.exit_code == 2, result.output
        assert f".gitmem is {kind}, where the memory folder belongs" in result.output
    assert list(elsewhere.iterdir()) == []


def test_a_candidate_branch_named_in_another_encoding_is_listed_escaped(memory: Path) -> None:
    """A branch gitmem/caf\\xe9 (a name in Latin-1, fetched from anyone's push) ended every
    `gitmem index`, and the refresh of every post-checkout hook, in an unexpected
    UnicodeEncodeError writing CANDIDATES.md (exit 3)."""
    git(memory, "update-ref", os.fsdecode(b"refs/heads/gitmem/caf\xe9"), "HEAD")
    result = run(memory, "index")
    assert result.exit_code == 0, result.output
    listed = (memory / ".gitmem" / "CANDIDATES.md").read_text(encoding="utf-8")
    assert "- [caf\\xe9] 1 problem(s)" in listed and "(branch gitmem/caf\\xe9)" in listed


def test_a_candidate_s_branch_or_title_adds_no_line_nor_link_to_candidates_md(
    memory: Path,
) -> None:
    """A branch `gitmem/a](evil.example)` (a valid ref name, fetched from anyone's push) was
    rendered in CANDIDATES.md as a link. It shows as typed, as a title with a line break and
    a forged line of the list in it (a candidate committed past the hooks) does; a terminal's
    control character in the title (`ESC [2K` erases the line) is not written."""
    from markdown_it import MarkdownIt

    entry_id = proposed(ok(run(memory, *PROPOSE)).output)
    git(memory, "checkout", "-q", f"gitmem/{entry_id}")
    candidate = memory / f".gitmem/candidates/{entry_id}.md"
    forged = "- [forged](evil.example) valid — Forged (branch gitmem/forged)"
    text = candidate.read_text().replace("title: Use pygit2", f'title: "Use\\e[2K\\n{forged}\\n')
    candidate.write_text(text.replace("inside hooks\n", 'inside hooks"\n', 1))
    git(memory, "commit", "-q", "--no-verify", "-am", "a title over three lines")
    git(memory, "checkout", "-q", "main")
    git(memory, "update-ref", "refs/heads/gitmem/a](evil.example)", "HEAD")
    ok(run(memory, "index"))
    listed = (memory / ".gitmem" / "CANDIDATES.md").read_text(encoding="utf-8")
    items = [line for line in listed.splitlines() if line.startswith("- ")]
    assert len(items) == 2 and "\x1b" not in listed, listed
    assert any(f"— Use [2K {forged} inside hooks" in line.replace("\\", "") for line in items)
    for line in items:
        tokens = MarkdownIt("commonmark").parseInline(line[2:])[0].children or []
        assert [t.type for t in tokens] == ["text"], line
        assert "".join(t.content for t in tokens) == line[2:].replace("\\", ""), line


@pytest.mark.parametrize("args", [["index"], ["index", "--check"]])
def test_an_entry_file_named_in_another_encoding_is_no_unexpected_error(
    memory: Path, args: list[str]
) -> None:
    """An entry file named in Latin-1 (committed by anyone) ended `gitmem index` in an
    unexpected UnicodeDecodeError reading git's list of the staged entries (exit 3)."""
    entry = memory / ".gitmem" / "entries" / "decision" / os.fsdecode(b"caf\xe9.md")
    entry.parent.mkdir(parents=True, exist_ok=True)
    entry.write_text("notes\n")
    git(memory, "add", "-A")
    result = run(memory, *args)
    assert result.exit_code in (0, 1), result.output
    assert "unexpected error" not in result.output


@pytest.mark.parametrize(
    "command",
    [["candidates"], ["candidates", "--format", "json"], ["index"], ["admit", "{id}"],
     ["refuse", "{id}", "--reason", "not needed"]],
)  # fmt: skip
def test_a_setting_set_aside_is_said_by_every_command_that_judges(
    memory: Path, command: list[str]
) -> None:
    """A misspelt key in .gitmem.toml (maxbody for maxBody) was reported by check, lint and
    propose only: candidates, admit, refuse and index judged by the default without a word."""
    ok(run(memory, *PROPOSE))
    (memory / ".gitmem.toml").write_text("[memory]\nmaxbody = 3000\n")
    result = run(memory, *(part.format(id=first_id()) for part in command))
    assert result.exit_code == 0, result.output
    assert "gitmem: warning: .gitmem.toml: memory.maxbody: unknown setting" in result.output


def test_an_index_killed_in_the_middle_of_a_write_leaves_no_temporary_for_long(
    memory: Path,
) -> None:
    """`gitmem index` killed with INDEX.md's temporary written and not renamed: every later
    run left `.INDEX.md.<hex>.tmp` in the memory folder, untracked, and `gitmem check` refused
    it as no memory file. A later run deletes it once it is older than any write takes; one
    just written may be a live writer's (no lock is held), and stays."""
    (memory / ".gitmem/INDEX.md").unlink()
    killed_at_rename(memory, "INDEX.md", "index")
    [temporary] = (memory / ".gitmem").glob(".INDEX.md.*.tmp")
    ok(run(memory, "index"))
    assert temporary.exists()  # a live `gitmem index` could be about to rename it
    old = time.time() - 2 * refresh.TEMPORARY_AGE
    os.utime(temporary, (old, old))
    ok(run(memory, "index"))
    assert not list(memory.rglob("*.tmp"))
    assert git(memory, "status", "--porcelain") == ""
    assert ok(run(memory, "check")).output.endswith("no problems\n")


@pytest.mark.parametrize("line_end", [b"\r\n", b"\r"])
def test_index_check_calls_stale_what_index_would_rewrite(memory: Path, line_end: bytes) -> None:
    """In a checkout that writes LF, `gitmem index --check` read INDEX.md as text with any
    line ends and called a CRLF (or CR-only) INDEX.md current, while `gitmem index` rewrote
    it, git committed the CRs as they were, and lint then said INDEX.md was not gitmem's.
    The check calls stale exactly what `gitmem index` writes."""
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    index = memory / ".gitmem/INDEX.md"
    written = index.read_bytes()
    index.write_bytes(written.replace(b"\n", line_end))
    result = run(memory, "index", "--check")
    assert result.exit_code == 1, result.output
    assert ok(run(memory, "index")).output.startswith("wrote .gitmem/INDEX.md\n")
    assert index.read_bytes() == written
    assert ok(run(memory, "index", "--check")).output == ""


def test_what_an_author_writes_past_the_hooks_leaves_index_and_lint_agreeing(
    memory: Path,
) -> None:
    """Entries committed past the hooks (a server-side merge, an older gitmem) with a status
    holding a line break and a forged line, a successor with a link, a title with terminal
    controls, and file names with link syntax: `gitmem index` writes one line per file, each
    the file's own, and `gitmem lint`, reading the committed tree, finds no INDEX drift."""
    ok(run(memory, "hooks", "install"))
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    entries = memory / ".gitmem/entries/decision"
    text = (entries / f"{first_id()}.md").read_text()
    forged = "- [forged](https:evil.example) admitted — Forged"
    hostile = {
        "p-decision-20261129-status": f'status: "admitted\\n{forged}"',
        "p-decision-20261129-successor": 'status: superseded\nsuperseded_by: "[z](javascript:x)"',
        "p-decision-20261129-title": 'status: admitted\ntitle: "T\\e[1A\\e[2K- [forged](x)"',
        "a](javascript:alert(1)) [b": "status: admitted",
    }
    for name, fields in hostile.items():
        body = text.replace(f"id: {first_id()}", f"id: {name}")
        (entries / f"{name}.md").write_text(body.replace("status: admitted", fields, 1))
    git(memory, "add", "-A")
    git(memory, "commit", "-q", "--no-verify", "-m", "entries past the hooks")
    ok(run(memory, "index"))
    index_md = (memory / ".gitmem/INDEX.md").read_text()
    items = [line for line in index_md.splitlines() if line.startswith("- ")]
    assert len(items) == 1 + len(hostile), index_md
    assert "forged" not in "".join(line.split(") ", 1)[0] for line in items)
    assert "\x1b" not in index_md
    assert ok(run(memory, "index", "--check")).output == ""
    git(memory, "commit", "-q", "--no-verify", "-am", "the index")
    assert "INDEX-DRIFT" not in run(memory, "lint").output


def _crlf_by_autocrlf(repo: Path) -> None:
    git(repo, "config", "core.autocrlf", "true")


def _crlf_by_attributes(repo: Path) -> None:
    (repo / ".gitattributes").write_text("*.md text eol=crlf\n")
    git(repo, "add", ".gitattributes")
    git(repo, "commit", "-q", "-m", "checkout Markdown with CRLF")


@pytest.mark.parametrize("crlf", [_crlf_by_autocrlf, _crlf_by_attributes])
def test_index_md_follows_the_checkouts_line_endings(memory: Path, crlf: object) -> None:
    """In a checkout whose eol rules write CRLF (core.autocrlf=true, or `eol=crlf` in
    .gitattributes), `gitmem index` and the post-* hooks wrote INDEX.md with LF: the file
    flipped line endings under the user's eyes and git listed it as modified. It is written
    now as `git checkout` writes it; the blob git stages from it is still the LF text the
    gate holds INDEX.md to."""
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    assert callable(crlf)
    crlf(memory)
    git(memory, "rm", "-q", "-r", "--cached", ".")
    git(memory, "reset", "-q", "--hard")
    index = memory / ".gitmem/INDEX.md"
    checked_out = index.read_bytes()
    assert b"\r\n" in checked_out
    assert ok(run(memory, "index")).output == "wrote .gitmem/CANDIDATES.md\n"
    assert index.read_bytes() == checked_out  # nothing to regenerate: left as it is
    assert git(memory, "status", "--porcelain") == ""
    entry = memory / f".gitmem/entries/decision/{first_id()}.md"
    entry.write_bytes(entry.read_bytes().replace(b"title: Use pygit2", b"title: Use libgit2"))
    refresh.refresh(open_workspace(memory), from_hook=True)  # a post-checkout hook
    written = index.read_bytes()
    assert b"Use libgit2 inside hooks\r\n" in written
    assert written.replace(b"\r\n", b"\n").count(b"\n") == written.count(b"\r\n")
    assert ok(run(memory, "index")).output == "indexes up to date\n"
    assert ok(run(memory, "index", "--check")).output == ""
    git(memory, "add", "-A")
    staged = git(memory, "show", ":.gitmem/INDEX.md")
    assert "\r" not in staged and staged.encode() == written.replace(b"\r\n", b"\n")
    git(memory, "commit", "-q", "-m", "edit")
    assert git(memory, "status", "--porcelain") == ""


@pytest.mark.parametrize(
    "attributes",
    ["working-tree-encoding=UTF-16", "text eol=crlf working-tree-encoding=UTF-16LE-BOM"],
)
def test_an_index_md_git_re_encodes_is_current_once_written(memory: Path, attributes: str) -> None:
    """With a `working-tree-encoding` rule for INDEX.md, git checks it out as UTF-16: `gitmem
    index --check` read the file as UTF-8 and called it stale for good, while `gitmem index`
    had nothing to write and git saw no change. With CRLF line ends on top, the file is over
    twice its text's bytes, and `gitmem index` rewrote it on every run."""
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    (memory / ".gitattributes").write_text(f".gitmem/INDEX.md {attributes}\n")
    git(memory, "add", ".gitattributes")
    git(memory, "commit", "-q", "--no-verify", "-m", "INDEX.md re-encoded on checkout")
    (memory / ".gitmem/INDEX.md").unlink()
    git(memory, "checkout", "--", ".gitmem/INDEX.md")
    index = memory / ".gitmem/INDEX.md"
    checked_out = index.read_bytes()
    assert checked_out.startswith(b"\xff\xfe")  # UTF-16, little-endian, with a BOM
    assert ok(run(memory, "index", "--check")).output == ""
    assert ok(run(memory, "index")).output == "wrote .gitmem/CANDIDATES.md\n"
    assert index.read_bytes() == checked_out
    index.write_bytes(b"stale\n")
    assert run(memory, "index", "--check").exit_code == 1
    assert ok(run(memory, "index")).output == "wrote .gitmem/INDEX.md\n"
    assert index.read_bytes() == checked_out
    assert ok(run(memory, "index", "--check")).output == ""
    assert ok(run(memory, "index")).output == "indexes up to date\n"
    assert git(memory, "status", "--porcelain") == ""


def test_an_entry_git_expands_ident_in_is_refused_not_indexed_as_expanded(memory: Path) -> None:
    """With `ident` for the entries, git writes a title's `$Id$` as `$Id: <object id> $` on
    checkout: `gitmem index` indexed the title so, `index --check` agreed, and the INDEX.md
    committed so was one lint and the gate called out of date. The converted file is refused,
    as every reader refuses it, and INDEX.md is left as it was."""
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    entry = f".gitmem/entries/decision/{first_id()}.md"
    text = (memory / entry).read_text()
    title = next(line for line in text.splitlines() if line.startswith("title: "))
    (memory / entry).write_text(text.replace(title, 'title: "Keep $Id$ in pygit2 hooks"'))
    ok(run(memory, "index"))
    git(memory, "commit", "-q", "--no-verify", "-am", "a title with $Id$, quoted")
    index = memory / ".gitmem/INDEX.md"
    before = index.read_bytes()
    assert b"Keep $Id$ in pygit2" in before
    (memory / ".gitattributes").write_text(".gitmem/entries/** ident\n")
    git(memory, "add", ".gitattributes")
    git(memory, "commit", "-q", "--no-verify", "-m", "entries' $Id$ expanded on checkout")
    (memory / entry).unlink()
    git(memory, "checkout", "--", entry)
    assert "$Id: " in (memory / entry).read_text()
    for args in (["index"], ["index", "--check"]):
        result = run(memory, *args)
        assert result.exit_code == 2, result.output
        assert f"{entry}: git converts this file" in result.output and "ident" in result.output
    assert index.read_bytes() == before


def test_an_entry_git_re_encodes_is_refused_not_indexed_as_not_parsing(memory: Path) -> None:
    """With `working-tree-encoding=UTF-16` for the entries, every checked-out entry is UTF-16
    while its blob is sound: `gitmem index` (and each post-* hook) wrote its line as "does
    not parse", `index --check` agreed, and the INDEX.md committed so was one lint and the
    gate called out of date. The converted file is refused, as every reader refuses it, and
    INDEX.md is left as it was."""
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    (memory / ".gitattributes").write_text(".gitmem/entries/** working-tree-encoding=UTF-16\n")
    git(memory, "add", ".gitattributes")
    git(memory, "commit", "-q", "--no-verify", "-m", "entries re-encoded on checkout")
    entry = f".gitmem/entries/decision/{first_id()}.md"
    (memory / entry).unlink()
    git(memory, "checkout", "--", entry)
    assert (memory / entry).read_bytes().startswith(b"\xff\xfe")
    index = memory / ".gitmem/INDEX.md"
    before = index.read_bytes()
    for args in (["index"], ["index", "--check"]):
        result = run(memory, *args)
        assert result.exit_code == 2, result.output
        assert f"{entry}: git converts this file" in result.output
        assert "working-tree-encoding=UTF-16" in result.output
    assert index.read_bytes() == before
    info = Path(git(memory, "rev-parse", "--git-path", "info/attributes").strip())
    (memory / info).parent.mkdir(parents=True, exist_ok=True)
    (memory / info).write_text(f"{entry} -working-tree-encoding\n")
    (memory / entry).unlink()
    git(memory, "checkout", "--", entry)
    assert ok(run(memory, "index", "--check")).output == ""
    assert ok(run(memory, "index")).output == "wrote .gitmem/CANDIDATES.md\n"
    assert index.read_bytes() == before


#: gitmem's command line, with the file argv[1] names, and argv[2] in its place (a folder
#: or a link to it, or nothing), swapped in as gitmem opens it to read it: what a `git
#: checkout` or `git merge` running beside `gitmem index` does to an entry it removes. With
#: argv[2] "tree", the folder argv[1] names is removed as gitmem lists it.
SWAPPED_AT_OPEN = """
import os, shutil, sys

path, kind = sys.argv.pop(1), sys.argv.pop(1)
wanted = "os.scandir" if kind == "tree" else "open"


def on_event(event, args):
    opened = args[0] if event == wanted and isinstance(args[0], (str, bytes)) else None
    if opened is None or os.fsdecode(opened) != path or not os.path.exists(path):
        return
    if kind == "tree":
        shutil.rmtree(path)
        return
    os.unlink(path)
    if kind == "folder":
        os.mkdir(path)
    elif kind == "link":
        os.symlink(os.devnull, path)


sys.addaudithook(on_event)
from gitmem.launcher import main

main()
"""


@pytest.mark.parametrize("kind", ["gone", "folder", "link", "tree"])
def test_an_entry_removed_while_the_index_is_read_is_left_out(memory: Path, kind: str) -> None:
    """An entry file that git removes (or replaces) between `gitmem index` listing the folder
    and reading the file ended the run in an unexpected FileNotFoundError (exit 3), as did a
    type's folder removed between listing entries/ and listing it: what is gone is left out,
    as a listing a moment later would have left it."""
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    entry = memory / f".gitmem/entries/decision/{first_id()}.md"
    swapped = entry.parent if kind == "tree" else entry
    done = subprocess.run(
        [sys.executable, "-c", SWAPPED_AT_OPEN, str(swapped), kind, "index"],
        cwd=memory, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert first_id() not in (memory / ".gitmem/INDEX.md").read_text()
    if kind in ("folder", "link"):
        os.unlink(entry) if kind == "link" else entry.rmdir()
    assert ok(run(memory, "index", "--check")).output == ""


def test_a_sparse_checkout_without_the_entries_keeps_them_in_index_md(memory: Path) -> None:
    """A sparse checkout that leaves entries/ out has no entry file on disk: `gitmem index`
    wrote an INDEX.md of no entries (a deletion of every line, for the user to commit), and
    `gitmem index --check` called the committed, exact one stale. The entries left out are
    read as staged."""
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    git(memory, "sparse-checkout", "set", "--no-cone", "/*", "!/.gitmem/entries/")
    assert not (memory / ".gitmem/entries").exists()
    assert ok(run(memory, "index", "--check")).output == ""
    ok(run(memory, "index"))
    assert git(memory, "status", "--porcelain") == ""
    assert first_id() in (memory / ".gitmem/INDEX.md").read_text()
