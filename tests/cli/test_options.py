"""What the command modules share: free-text options refuse bytes that are not UTF-8."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from clirunner import PROPOSE, first_id, ok, run

from conftest import git

BAD = b"abc \xff def"


def snapshot(repo: Path) -> tuple[str, str, str]:
    """Every ref with its target, what git status says, and what is staged."""
    return (
        git(repo, "for-each-ref", "--format=%(refname) %(objectname)"),
        git(repo, "status", "--porcelain", "--untracked-files=all"),
        git(repo, "diff", "--cached"),
    )


def with_bad_bytes(args: list[str], option: str) -> list[bytes]:
    """args, the value of option replaced by bytes that are not UTF-8."""
    out = [arg.encode() for arg in args]
    out[args.index(option) + 1] = BAD
    return out


@pytest.mark.parametrize(
    ("command", "option"),
    [
        (PROPOSE, "--content"),
        (PROPOSE, "--title"),
        (PROPOSE, "--tag"),
        (["refuse", "ID", "--reason", "not now"], "--reason"),
        (["admit", "ID", "--by", "human:bob"], "--by"),
    ],
)
def test_an_option_given_bytes_that_are_not_utf8_is_refused_by_name(
    memory: Path, command: list[str], option: str
) -> None:
    """Bytes that are not UTF-8 reach Python as lone surrogates, which no commit, entry or
    refused.md can hold: they used to end in "unexpected error (UnicodeEncodeError)" (exit
    3), or a title in "front matter is not valid YAML". A real process is given the bytes,
    as a shell passes `--content "$(printf 'abc \\xff def')"`."""
    ok(run(memory, *PROPOSE))
    args = [first_id() if arg == "ID" else arg for arg in command]
    before = snapshot(memory)
    done = subprocess.run(
        [sys.executable.encode(), b"-m", b"gitmem", *with_bad_bytes(args, option)],
        cwd=memory,
        env={**os.environ, "PYTHONUTF8": "1"},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2, done.stderr
    assert f"Invalid value for '{option}': not valid UTF-8 (byte 0xff at character 5)" in (
        done.stderr
    )
    assert "unexpected" not in done.stderr and "YAML" not in done.stderr
    assert snapshot(memory) == before


def test_in_process_surrogates_are_refused_the_same_way(memory: Path) -> None:
    """click's CliRunner passes the same lone surrogates Python makes of such bytes: the
    in-process check of every free-text option of propose."""
    ok(run(memory, *PROPOSE))
    before = snapshot(memory)
    for option in ("--applies-when", "--context", "--evidence", "--file"):
        args = [*PROPOSE]
        args[args.index(option) + 1] = "caf\udce9"
        result = run(memory, *args)
        assert result.exit_code == 2, result.output
        assert f"'{option}': not valid UTF-8 (byte 0xe9 at character 4)" in result.output
    retire = run(memory, "propose", "--retire", first_id(), "--reason", "x\udc80")
    assert retire.exit_code == 2 and "'--reason': not valid UTF-8 (byte 0x80" in retire.output
    assert snapshot(memory) == before


def test_a_file_name_that_is_not_utf8_is_named_as_check_names_it(memory: Path) -> None:
    """`gitmem check` names an entry file in Latin-1 `caf\\xe9.md`, its byte; `gitmem list`
    and `gitmem hygiene`, leaving it out, named it `caf\\udce9.md`, Python's stand-in for the
    byte, which is no name a person can find or type."""
    entry = memory / ".gitmem" / "entries" / "decision" / os.fsdecode(b"caf\xe9.md")
    entry.parent.mkdir(parents=True, exist_ok=True)
    entry.write_text("notes\n")
    git(memory, "add", "-A")
    git(memory, "commit", "-q", "-m", "a file in Latin-1")
    checked = subprocess.run(
        [sys.executable, "-m", "gitmem", "check"], cwd=memory, capture_output=True, text=True
    )
    listed = subprocess.run(
        [sys.executable, "-m", "gitmem", "list"], cwd=memory, capture_output=True, text=True
    )
    assert ".gitmem/entries/decision/caf\\xe9.md: LAYOUT" in checked.stdout, checked.stdout
    assert ".gitmem/entries/decision/caf\\xe9.md: LAYOUT" in listed.stderr, listed.stderr
    assert "\\udc" not in listed.stderr
    hygiene = subprocess.run(
        [sys.executable, "-m", "gitmem", "hygiene"], cwd=memory, capture_output=True, text=True
    )
    assert ".gitmem/entries/decision/caf\\xe9.md: not judged" in hygiene.stderr, hygiene.stderr
