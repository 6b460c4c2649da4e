"""`gitmem export`'s output path: anywhere the user may write, as given; a path the system
will not write is a usage error naming it, never an unexpected one."""

from __future__ import annotations

from pathlib import Path

from clirunner import PROPOSE, admit, ok, run

from conftest import git


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
    assert "choose a path you can write to" in below.output
    assert "unexpected" not in folder.output + below.output
    assert sorted(p.name for p in (memory / "docs").iterdir()) == ["keep.md"]
    assert (memory / "README.md").read_text() == "# project\n"
    assert git(memory, "status", "--porcelain", "--untracked-files=all") == "?? docs/keep.md\n"
