"""One entry text through every door that judges it: `gitmem check` of the file in the
working tree (what the pre-commit hook runs) and the server's pre-receive hook, which judges
the same bytes pushed on a candidate branch. Hostile texts must get the same verdict from
both, naming the same rules, and neither may fail unexpectedly (exit 3, a traceback)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from clirunner import run, write
from remote import commit_all, connect, make_server, push

from conftest import git
from entries import text

ENTRY_ID = "local-method-20261129-run-hooks-through-gitmem"
PATH = f".gitmem/candidates/{ENTRY_ID}.md"
RULE = re.compile(r"^(?:remote: )?\S+?:(?:\d+:)? ([A-Z][A-Z-]+) ", re.MULTILINE)


@pytest.fixture
def clone(memory: Path, tmp_path: Path) -> Path:
    return connect(memory, make_server(tmp_path))


def by_check(clone: Path, data: bytes) -> set[str]:
    """The rules `gitmem check` names for data as the candidate's file."""
    write(clone, PATH, data)
    result = run(clone, "check", PATH)
    assert result.exit_code in (0, 1), result.output
    assert "Traceback" not in result.output
    (clone / PATH).unlink()
    return set(RULE.findall(result.output))


def by_server(clone: Path, data: bytes) -> set[str]:
    """The rules the server's hook names for data pushed as the candidate's file."""
    branch = f"gitmem/{ENTRY_ID}"
    git(clone, "checkout", "-q", "-b", branch)
    write(clone, PATH, data)
    commit_all(clone, f"gitmem: propose {ENTRY_ID}")
    done = push(clone, branch)
    git(clone, "checkout", "-q", "main")
    git(clone, "branch", "-q", "-D", branch)
    assert "Traceback" not in done.stderr and "unexpected error" not in done.stderr, done.stderr
    if done.returncode == 0:
        assert push(clone, f":{branch}").returncode == 0  # the next text goes on a new branch
        return set()
    assert "pre-receive hook declined" in done.stderr, done.stderr
    return set(RULE.findall(done.stderr))


VALID = text(id=ENTRY_ID)
HOSTILE = {
    # a carriage return that ends no line: a line break to the parser, hidden text on a
    # terminal (it returns the cursor and overwrites the line)
    "lone-cr": VALID.replace("\n", "\r").encode(),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_the_check_and_the_server_judge_a_hostile_text_alike(clone: Path, name: str) -> None:
    assert by_check(clone, VALID.encode()) == by_server(clone, VALID.encode()) == set()
    data = HOSTILE[name]
    assert by_check(clone, data) == by_server(clone, data) != set()
