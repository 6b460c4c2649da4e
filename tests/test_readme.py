"""The README stays true: every command it names exists and answers --help, its JSON snippet
parses, its rule table names rules the code reports, and it opens with the two set-up
commands."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from gitmem.cli.main import main

README = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")


def test_readme_opens_with_the_two_commands() -> None:
    head = README.split("\n## ", 1)[0]
    assert "make demo" in head and "make test" in head


def test_every_command_the_readme_names_exists() -> None:
    named = set(re.findall(r"`gitmem ([a-z][a-z-]*)", README))
    assert {"init", "propose", "admit", "recall", "mcp", "check"} <= named
    runner = CliRunner()
    for command in sorted(named):
        result = runner.invoke(main, [command, "--help"])
        assert result.exit_code == 0, (command, result.output)


def test_json_snippets_parse() -> None:
    for block in re.findall(r"```json\n(.*?)```", README, re.S):
        json.loads(block)


def test_rule_ids_in_the_table_are_reported_by_the_code() -> None:
    source = "".join(
        p.read_text(encoding="utf-8")
        for p in (Path(__file__).parent.parent / "gitmem").rglob("*.py")
    )
    table = README.split("## Rules", 1)[1].split("### Secrets", 1)[0]
    for rule in re.findall(r"`([A-Z][A-Z-]+)`", table):
        assert f'"{rule}"' in source, rule


def test_the_lint_rules_the_table_sends_to_lint_help_are_there() -> None:
    """The rule table's lint row says "see `gitmem lint --help`"; that help named none of the
    rule ids, so a person looking up FILES-DEAD or CODEOWNERS found nothing there."""
    row = next(line for line in README.splitlines() if "see `gitmem lint --help`" in line)
    rules = re.findall(r"`([A-Z][A-Z-]+)`", row.split("|")[1])
    assert "INDEX-DRIFT" in rules and "CONTRADICTION" in rules
    result = CliRunner().invoke(main, ["lint", "--help"])
    assert result.exit_code == 0, result.output
    for rule in rules:
        assert rule in result.output, rule
