"""Driving the gitmem CLI in-process (click's CliRunner) on real repositories: the helpers
most test modules share. The `memory` fixture (an initialised, committed memory) lives in
conftest.py."""

from __future__ import annotations

import json
import os
from pathlib import Path

from click.testing import CliRunner, Result

from gitmem.cli.main import main
from gitmem.lifecycle.writing import today


def run(repo: Path, *args: str, input: str | None = None) -> Result:
    old = Path.cwd()
    os.chdir(repo)
    try:
        return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)
    finally:
        os.chdir(old)


def write(repo: Path, rel: str, content: str | bytes) -> Path:
    path = repo / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def ok(result: Result) -> Result:
    assert result.exit_code == 0, result.output
    return result


PROPOSE = [
    "propose",
    "--type", "decision",
    "--title", "Use pygit2 inside hooks",
    "--applies-when", "writing code that runs inside a git hook",
    "--context", "Hooks ran git many times.",
    "--content", "Read objects with pygit2.",
    "--evidence", "A profile of the pre-commit hook.",
    "--tag", "hooks",
    "--file", "README.md",
]  # fmt: skip
FIRST = "local-decision-{date}-use-pygit2-inside-hooks"


def first_id() -> str:
    return FIRST.format(date=today().replace("-", ""))


HOOKS = [
    "propose", "--type", "decision", "--title", "Use pygit2 inside git hooks",
    "--applies-when", "writing code that runs inside a git hook",
    "--content", "Read objects with pygit2; one git process per call costs more.",
    "--file", "README.md", "--tag", "hooks",
]  # fmt: skip
SECRETS = [
    "propose", "--type", "method", "--title", "Scan entries for secrets before admission",
    "--applies-when", "a memory entry is proposed or pushed",
    "--content", "Run the secret scanner on every entry; tokens and passwords never enter.",
    "--tag", "security",
]  # fmt: skip


def proposed(output: str) -> str:
    """The id in `gitmem propose`'s output (its line `proposed ID ...`)."""
    return output.split("proposed ", 1)[1].split()[0]


def admit(repo: Path, args: list[str]) -> str:
    entry_id = ok(run(repo, *args)).output.split()[1]
    ok(run(repo, "admit", entry_id))
    return entry_id


def recall_json(repo: Path, *args: str) -> list[dict[str, object]]:
    result = ok(run(repo, "recall", "--format", "json", *args))
    return list(json.loads(result.stdout))  # warnings go to stderr
