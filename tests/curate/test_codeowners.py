"""CODEOWNERS from memory.owners: `gitmem init --codeowners` writes it, `gitmem lint` checks
it, and the patterns route exactly each type's candidates and entries."""

from __future__ import annotations

import fnmatch
from pathlib import Path

import pytest
from clirunner import ok, run

from gitmem.curate import codeowners
from gitmem.settings.load import Settings

from conftest import git

OWNERS = (
    "[memory]\n"
    'project = "shop"\n'
    'types = ["code"]\n'
    'owners = { decision = "@acme/architects", code = "@acme/devs", '
    'mistake = "@acme/qa @acme/leads" }\n'
)


def _owners(repo: Path, text: str = OWNERS) -> None:
    (repo / ".gitmem.toml").write_text(text)


def _matches(pattern: str, path: str) -> bool:
    """CODEOWNERS matching for the patterns gitmem writes: anchored, `*` within a name, a
    trailing `/` for a folder and everything in it."""
    pattern = pattern.lstrip("/")
    if pattern.endswith("/"):
        return path.startswith(pattern)
    return fnmatch.fnmatchcase(path, pattern) and path.count("/") == pattern.count("/")


def _owner_of(lines: list[str], path: str) -> str | None:
    owner = None
    for line in lines:
        if line.startswith("#") or not line.strip():
            continue
        pattern, *who = line.split()
        if _matches(pattern, path):
            owner = " ".join(who)
    return owner


def test_block_routes_each_type_and_no_other(tmp_path: Path) -> None:
    settings = Settings(
        project="shop",
        types=("code",),
        owners=(("code", "@acme/devs"), ("decision", "@acme/architects")),
    )
    lines = codeowners.block(settings)
    assert lines[0] == codeowners.BEGIN and lines[-1] == codeowners.END
    cases = {
        ".gitmem/candidates/shop-decision-20261201-use-pygit2.md": "@acme/architects",
        ".gitmem/entries/decision/shop-decision-20261201-use-pygit2.md": "@acme/architects",
        ".gitmem/candidates/shop-code-20261201-split-cli.md": "@acme/devs",
        # code-structure begins with code-: it must not fall to code's owners
        ".gitmem/candidates/shop-code-structure-20261201-layers.md": "",
        ".gitmem/entries/code-structure/shop-code-structure-20261201-layers.md": "",
        ".gitmem/candidates/shop-method-20261201-bench.md": None,
        "src/app.py": None,
    }
    for path, owner in cases.items():
        assert _owner_of(lines, path) == owner, path


def test_init_writes_and_lint_checks(memory: Path) -> None:
    _owners(memory)
    codeowners_file = memory / ".github" / "CODEOWNERS"
    git(memory, "add", ".gitmem.toml")
    git(memory, "commit", "-q", "-m", "owners")
    failed = run(memory, "lint")
    assert failed.exit_code == 1
    assert ".github/CODEOWNERS: CODEOWNERS missing" in failed.output
    assert "run `gitmem init --codeowners`" in failed.output
    out = ok(run(memory, "init", "--codeowners")).output
    assert "created .github/CODEOWNERS" in out
    text = codeowners_file.read_text()
    assert "/.gitmem/candidates/shop-mistake-*.md @acme/qa @acme/leads" in text
    assert "/.gitmem/entries/decision/ @acme/architects" in text
    assert "unchanged .github/CODEOWNERS" in ok(run(memory, "init", "--codeowners")).output
    git(memory, "add", "-A")
    git(memory, "commit", "-q", "-m", "codeowners")
    assert "CODEOWNERS" not in run(memory, "lint").output


def test_init_keeps_other_lines_and_lint_sees_edits_and_overrides(memory: Path) -> None:
    _owners(memory)
    (memory / "CODEOWNERS").write_text("* @acme/everyone\n/docs/ @acme/writers\n")
    ok(run(memory, "init", "--codeowners"))
    lines = (memory / "CODEOWNERS").read_text().splitlines()
    assert lines[:2] == ["* @acme/everyone", "/docs/ @acme/writers"]
    assert lines[3] == codeowners.BEGIN
    edited = [line.replace("@acme/qa", "@acme/anyone") for line in lines]
    edited.append("/.gitmem/ @acme/everyone")
    (memory / "CODEOWNERS").write_text("\n".join(edited) + "\n")
    git(memory, "add", "-A")
    git(memory, "commit", "-q", "-m", "hand-edited")
    out = run(memory, "lint").output
    assert "CODEOWNERS:" in out and "differs from what memory.owners makes" in out
    assert "overrides it for the memory folder" in out
    # a second init rewrites the block in place and keeps the other lines
    ok(run(memory, "init", "--codeowners"))
    again = (memory / "CODEOWNERS").read_text().splitlines()
    assert again[0] == "* @acme/everyone" and again[-1] == "/.gitmem/ @acme/everyone"
    assert "@acme/anyone" not in "\n".join(again)


def test_bad_owners_and_unknown_types(memory: Path) -> None:
    _owners(memory, '[memory]\nowners = { decision = "not an owner" }\n')
    result = run(memory, "init", "--codeowners")
    assert result.exit_code == 2
    assert "memory.owners: expected a table" in result.output
    assert "memory.owners names no team" in result.output
    _owners(memory, '[memory]\nowners = { incident = "@acme/ops" }\n')
    git(memory, "add", "-A")
    git(memory, "commit", "-q", "-m", "owners")
    out = run(memory, "lint").output
    assert "memory.owners names type 'incident', which the project does not have" in out


def test_a_block_without_its_end_marker_is_refused_not_cut_to_the_end(memory: Path) -> None:
    """With the end marker gone (a hand edit, a bad merge), init took the block to run to the
    end of the file and rewrote it there: every line the team had put below it was deleted
    without a word."""
    _owners(memory)
    ok(run(memory, "init", "--codeowners"))
    path = memory / ".github" / "CODEOWNERS"
    lines = [line for line in path.read_text().splitlines() if line != codeowners.END]
    path.write_text("\n".join([*lines, "/src/ @acme/devs", "/docs/ @acme/writers"]) + "\n")
    before = path.read_text()
    result = run(memory, "init", "--codeowners")
    assert result.exit_code == 2, result.output
    assert f".github/CODEOWNERS:1: gitmem's block has no end line {codeowners.END!r}" in (
        result.output
    )
    assert path.read_text() == before


def test_a_codeowners_file_that_is_not_utf8_is_a_clear_error(memory: Path) -> None:
    """A CODEOWNERS saved in another encoding (UTF-16 with its byte-order mark, as some
    editors save it) ended init --codeowners in exit 3 and a traceback."""
    _owners(memory)
    path = memory / "CODEOWNERS"
    path.write_bytes("/src/ @acme/devs\n".encode("utf-16"))
    before = path.read_bytes()
    result = run(memory, "init", "--codeowners")
    assert result.exit_code == 2, result.output
    assert "CODEOWNERS is not UTF-8 text" in result.output
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("line", "overrides"),
    [
        ("candidates/ @acme/anyone", True),  # unanchored: a `candidates` folder at any depth
        ("entries/ @acme/anyone", True),
        ("decision/ @acme/anyone", True),
        ("*-decision-*.md @acme/anyone", True),
        ("/.gitmem/ @acme/anyone", True),
        (".gitmem/candidates/ @acme/anyone", True),
        ("/docs/** @acme/anyone", False),
        ("/** @acme/anyone", True),
        ("* @acme/anyone", True),
        ("/docs/api/ @acme/docs", False),
        ("/src/ @acme/devs", False),
        ("*.py @acme/devs", False),
        ("/.github/ @acme/ops", False),
        ("/.gitmemx/ @acme/ops", False),
        ("*a" * 40 + "b @acme/ops", False),  # backtracks for minutes in a backtracking matcher
    ],
)
def test_lint_reports_exactly_the_later_lines_that_match_memory_files(
    line: str, overrides: bool
) -> None:
    """Lint guessed from the pattern's first characters: an unanchored `candidates/` after
    the block, which hands every candidate's review to another team, passed, and a line for
    another folder that merely began like the memory folder failed."""
    settings = Settings(project="shop", owners=(("decision", "@acme/architects"),))
    text = "\n".join([*codeowners.block(settings), line]) + "\n"
    problems = codeowners.check(settings, lambda p: text if p == ".github/CODEOWNERS" else None)
    assert [p.line for p in problems if "overrides it" in p.message] == (
        [len(codeowners.block(settings)) + 1] if overrides else []
    )


def test_a_crlf_codeowners_keeps_its_line_ends(memory: Path) -> None:
    """init --codeowners rewrote a CRLF file with LF line ends: every line of the team's
    CODEOWNERS showed as changed in the commit that added gitmem's block."""
    _owners(memory)
    path = memory / "CODEOWNERS"
    path.write_bytes(b"* @acme/everyone\r\n/docs/ @acme/writers\r\n")
    ok(run(memory, "init", "--codeowners"))
    data = path.read_bytes()
    assert data.startswith(b"* @acme/everyone\r\n/docs/ @acme/writers\r\n\r\n")
    assert data.count(b"\n") == data.count(b"\r\n")
    assert "unchanged CODEOWNERS" in ok(run(memory, "init", "--codeowners")).output


@pytest.mark.parametrize("blocker", ["folder", "file"])
def test_a_codeowners_path_that_cannot_be_a_file_is_a_clear_error(
    memory: Path, blocker: str
) -> None:
    """A folder named .github/CODEOWNERS, or a file named .github, ended init --codeowners in
    exit 3 and a traceback."""
    _owners(memory)
    if blocker == "folder":
        (memory / ".github" / "CODEOWNERS").mkdir(parents=True)
    else:
        (memory / ".github").write_text("not a folder\n")
    result = run(memory, "init", "--codeowners")
    assert result.exit_code == 2, result.output
    assert ".github/CODEOWNERS cannot be written: " in result.output


@pytest.mark.parametrize("link", ["file", "folder"])
def test_a_linked_codeowners_is_refused_never_followed_out_of_the_repository(
    memory: Path, tmp_path: Path, link: str
) -> None:
    """A CODEOWNERS that is a symbolic link (a cloned repository may hold one, leading to any
    file of the machine) was read through the link and written back as a regular file of
    the repository: the linked file's text, say a private key, landed in CODEOWNERS, and
    init said to commit it. A linked .github/ folder had the file written outside."""
    _owners(memory)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "id_key").write_text("PRIVATE KEY TEXT\n")
    if link == "file":
        (memory / ".github").mkdir()
        (memory / ".github" / "CODEOWNERS").symlink_to(outside / "id_key")
    else:
        (memory / ".github").symlink_to(outside)
    result = run(memory, "init", "--codeowners")
    assert result.exit_code == 2, result.output
    assert "a symbolic link" in result.output
    assert (outside / "id_key").read_text() == "PRIVATE KEY TEXT\n"
    assert sorted(p.name for p in outside.iterdir()) == ["id_key"]
    linked = memory / ".github" / ("CODEOWNERS" if link == "file" else "")
    assert linked.is_symlink()  # left as it was


def test_a_memory_folder_with_wildcards_is_refused_for_codeowners(memory: Path) -> None:
    """CODEOWNERS has no escapes: a memory folder named with `*` or `?` was written into the
    block as it was, and its patterns routed other folders' files to the memory's owners."""
    _owners(memory, '[memory]\ndir = "mem*"\nowners = { decision = "@acme/architects" }\n')
    result = run(memory, "init", "--codeowners")
    assert result.exit_code == 2, result.output
    assert "memory.dir 'mem*' holds a space, '#', '\\', '*' or '?'" in result.output
    assert not (memory / ".github" / "CODEOWNERS").exists()


def test_a_block_written_twice_is_made_one_again(memory: Path) -> None:
    """A CODEOWNERS holding gitmem's block twice (both sides kept in a merge) kept the second
    for good: init rewrote only the first, and lint then failed on the second's lines as
    overriding the first, with no way for init to mend it."""
    _owners(memory)
    ok(run(memory, "init", "--codeowners"))
    path = memory / ".github" / "CODEOWNERS"
    block = path.read_text()
    path.write_text(block + "/docs/ @acme/writers\n" + block)
    git(memory, "add", "-A")
    git(memory, "commit", "-q", "-m", "both sides kept")
    linted = run(memory, "lint").output
    assert "gitmem's block is here a second time; run `gitmem init --codeowners`" in linted
    assert "overrides it" not in linted
    out = ok(run(memory, "init", "--codeowners")).output
    assert "updated .github/CODEOWNERS" in out
    text = path.read_text()
    assert text.count(codeowners.BEGIN) == 1 and text.count(codeowners.END) == 1
    assert "/docs/ @acme/writers" in text
    git(memory, "add", "-A")
    git(memory, "commit", "-q", "-m", "owners")
    assert "CODEOWNERS" not in run(memory, "lint").output
