"""`gitmem export`'s output path: anywhere the user may write, as given; a path the system
will not write is a usage error naming it, never an unexpected one."""

from __future__ import annotations

import os
import time
from pathlib import Path

from clirunner import PROPOSE, admit, ok, run

from gitmem.cli import agents

from conftest import git, killed_at_rename


def test_an_absolute_output_outside_the_repository_is_written_and_named_as_given(
    memory: Path, tmp_path: Path
) -> None:
    """As `git archive -o` does; it used to write the file, then fail printing its path
    relative to the repository (ValueError, exit 3)."""
    admit(memory, PROPOSE)
    outside = tmp_path / "elsewhere" / "MEMORY.md"
    result = ok(run(memory, "export", "claude", "-o", str(outside)))
    assert result.output == f"wrote {outside}: 1 of 1 entries\n"
    text = outside.read_text()
    assert "Use pygit2 inside hooks" in text
    link = text.split("inside hooks](", 1)[1].split(")", 1)[0]
    assert (outside.parent / link).resolve() == (memory / ".gitmem/entries/decision").resolve() / (
        Path(link).name
    )
    relative = ok(run(memory, "export", "claude", "-o", "docs/MEMORY.md"))
    assert relative.output == "wrote docs/MEMORY.md: 1 of 1 entries\n"
    assert (memory / "docs" / "MEMORY.md").is_file()


def test_an_output_the_system_will_not_write_is_named_with_its_reason(memory: Path) -> None:
    """A folder, or a path below a regular file, used to end in "unexpected error
    (IsADirectoryError…)" (exit 3)."""
    (memory / "docs").mkdir()
    (memory / "docs" / "keep.md").write_text("mine\n")
    folder = run(memory, "export", "claude", "-o", "docs")
    assert folder.exit_code == 2, folder.output
    assert "-o docs: is a folder: give the path of a file to write" in folder.output
    below = run(memory, "export", "agents", "-o", "README.md/MEMORY.md")
    assert below.exit_code == 2, below.output
    assert "-o README.md/MEMORY.md: cannot write it: " in below.output
    assert "README.md is a file, not a folder: move it away" in below.output
    assert "unexpected" not in folder.output + below.output
    assert sorted(p.name for p in (memory / "docs").iterdir()) == ["keep.md"]
    assert (memory / "README.md").read_text() == "# project\n"
    assert git(memory, "status", "--porcelain", "--untracked-files=all") == "?? docs/keep.md\n"


def test_a_file_on_the_way_to_the_output_is_named(memory: Path) -> None:
    """With a file at .claude, `gitmem export claude` said "cannot write it: File exists":
    the system's word for the folder it could not make, which sent the user looking at
    .claude/gitmem-memory.md, a file that is not there."""
    (memory / ".claude").write_text("notes\n")
    result = run(memory, "export", "claude")
    assert result.exit_code == 2, result.output
    assert (
        "-o .claude/gitmem-memory.md: cannot write it: .claude is a file, not a folder"
        in result.output
    )
    assert "File exists" not in result.output
    assert (memory / ".claude").read_text() == "notes\n"


def test_an_empty_output_is_refused_not_taken_for_the_default(memory: Path) -> None:
    """`-o "$OUT"` with the variable unset was taken for no -o: the export replaced the
    default file in the working tree (MEMORY.md, .claude/gitmem-memory.md)."""
    (memory / "MEMORY.md").write_text("the team's own notes\n")
    result = run(memory, "export", "agents", "-o", "")
    assert result.exit_code == 2, result.output
    assert "-o needs a file (or - for the standard output), and was given ''" in result.output
    assert (memory / "MEMORY.md").read_text() == "the team's own notes\n"
    assert not (memory / ".claude").exists()


def test_a_symbolic_link_at_the_output_is_refused_not_written_through(
    memory: Path, tmp_path: Path
) -> None:
    """A clone can commit `.claude/gitmem-memory.md` as a link to a file of the user's;
    `gitmem export claude` used to write the export through it, overwriting that file."""
    admit(memory, PROPOSE)
    victim = tmp_path / "victim.txt"
    victim.write_text("the user's own file\n")
    (memory / ".claude").mkdir()
    link = memory / ".claude" / "gitmem-memory.md"
    link.symlink_to(victim)
    result = run(memory, "export", "claude")
    assert result.exit_code == 2, result.output
    assert "-o .claude/gitmem-memory.md: is a symbolic link" in result.output
    assert "remove the link, then run again" in result.output
    assert victim.read_text() == "the user's own file\n"
    assert link.is_symlink()
    dangling = memory / "MEMORY.md"
    dangling.symlink_to(tmp_path / "made-by-export.md")
    assert run(memory, "export", "agents").exit_code == 2
    assert not (tmp_path / "made-by-export.md").exists()


def test_a_linked_folder_on_the_way_out_of_the_repository_is_refused(
    memory: Path, tmp_path: Path
) -> None:
    """`.claude` committed as a link to a folder of the user's: the export went through it
    into that folder. A path spelled outside the repository stays the user's choice."""
    admit(memory, PROPOSE)
    outside = tmp_path / "users-folder"
    outside.mkdir()
    (memory / ".claude").symlink_to(outside)
    result = run(memory, "export", "claude")
    assert result.exit_code == 2, result.output
    assert "its folder leads outside the repository" in result.output
    assert list(outside.iterdir()) == []
    ok(run(memory, "export", "agents", "-o", str(outside / "MEMORY.md")))
    assert (outside / "MEMORY.md").is_file()


def test_the_export_replaces_the_file_whole_and_keeps_its_mode(memory: Path) -> None:
    """Written through a temporary file beside it and a rename: nothing is left beside it,
    and the mode of the file it replaces (or a plain write's) is kept."""
    admit(memory, PROPOSE)
    ok(run(memory, "export", "agents"))
    target = memory / "MEMORY.md"
    assert target.stat().st_mode & 0o777 == 0o666 & ~_umask()
    target.chmod(0o640)
    ok(run(memory, "export", "agents"))
    assert target.stat().st_mode & 0o777 == 0o640
    assert "Use pygit2 inside hooks" in target.read_text()
    assert sorted(p.name for p in memory.iterdir() if p.name.startswith(".MEMORY")) == []


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_an_export_killed_in_the_middle_of_its_write_leaves_no_temporary_for_long(
    memory: Path,
) -> None:
    """`gitmem export` killed with its file's temporary written and not renamed: every later
    export left `.MEMORY.md.<hex>.tmp` beside MEMORY.md, untracked in the working tree, for
    good. A later export deletes it once it is older than any write takes; one just written
    may be a live export's, and stays."""
    killed_at_rename(memory, "MEMORY.md", "export", "agents")
    [temporary] = memory.glob(".MEMORY.md.*.tmp")
    ok(run(memory, "export", "agents"))
    assert temporary.exists()  # a live export could be about to rename it
    old = time.time() - 2 * agents.TEMPORARY_AGE
    os.utime(temporary, (old, old))
    ok(run(memory, "export", "agents"))
    assert (memory / "MEMORY.md").is_file()
    assert not list(memory.rglob("*.tmp"))


def test_an_output_that_is_no_regular_file_is_refused_not_replaced(
    memory: Path, tmp_path: Path
) -> None:
    """The file is replaced whole (a temporary renamed over it): given a device or a named
    pipe (`-o /dev/null`, `-o /dev/stdout`), the rename put a regular file in its place,
    which as root destroyed the device for every program. Such a path is now refused."""
    admit(memory, PROPOSE)
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    result = run(memory, "export", "agents", "-o", str(pipe))
    assert result.exit_code == 2, result.output
    assert f"-o {pipe}: not a regular file" in result.output and "-o -" in result.output
    assert pipe.is_fifo()


def test_an_output_in_the_git_folder_or_the_memory_folder_is_refused(memory: Path) -> None:
    """`gitmem site` refuses an --out in the git folder or the memory folder; `gitmem export
    -o .git/config` replaced the repository's configuration with the export, after which
    every git command failed ("bad config line"), and `-o .gitmem/INDEX.md` replaced a file
    gitmem generates and checks. Both are refused now, before anything is written."""
    admit(memory, PROPOSE)
    config = (memory / ".git" / "config").read_bytes()
    index = (memory / ".gitmem" / "INDEX.md").read_bytes()
    for given in (".git/config", str(memory / ".git" / "info" / "MEMORY.md"), ".git"):
        result = run(memory, "export", "agents", "-o", given)
        assert result.exit_code == 2, (given, result.output)
        assert f"-o {given}: " in result.output, result.output
    result = run(memory, "export", "agents", "-o", ".git/config")
    assert "in the repository's git folder" in result.output, result.output
    for given in (".gitmem/INDEX.md", ".gitmem/entries/decision/MEMORY.md"):
        result = run(memory, "export", "claude", "-o", given)
        assert result.exit_code == 2, (given, result.output)
        assert f"-o {given}: the path is in the memory folder" in result.output
    assert (memory / ".git" / "config").read_bytes() == config
    assert (memory / ".gitmem" / "INDEX.md").read_bytes() == index
    assert not (memory / ".git" / "info" / "MEMORY.md").exists()
    assert git(memory, "status", "--porcelain", "--untracked-files=all") == ""
    ok(run(memory, "export", "agents", "-o", "docs/MEMORY.md"))  # beside them is still fine


def test_a_file_the_export_did_not_write_is_not_replaced(memory: Path) -> None:
    """`gitmem export agents` writes MEMORY.md at the root by default, and replaced whatever
    was there: a project's own MEMORY.md (or `-o README.md`, a slip of the hand) was lost
    without a word, uncommitted edits with it. A file is now replaced only when an export
    wrote it (its first line says so) or it is empty; another is refused, untouched."""
    admit(memory, PROPOSE)
    own = memory / "MEMORY.md"
    own.write_text("# What we keep in mind\n\nOur own notes.\n")
    for args in (["export", "agents"], ["export", "claude", "-o", "README.md"]):
        before = {p: p.read_bytes() for p in (own, memory / "README.md")}
        done = run(memory, *args)
        assert done.exit_code == 2, done.output
        given = args[-1] if "-o" in args else "MEMORY.md"
        assert done.output.endswith(
            f"gitmem: -o {given}: the file is not one an export wrote (its first line does not "
            "say so): choose another path, or move the file away first\n"
        ), done.output
        assert {p: p.read_bytes() for p in before} == before
    own.write_text("")
    ok(run(memory, "export", "agents"))
    ok(run(memory, "export", "claude", "-o", "MEMORY.md"))  # one export replaces another
    assert "Use pygit2 inside hooks" in own.read_text()
