"""refuse: the topic joins refused.md on main, which only ever grows."""

from __future__ import annotations

import subprocess
from pathlib import Path

from clirunner import PROPOSE, first_id, ok, run

from conftest import git


def test_refuse_records_the_topic_and_blocks_it(memory: Path) -> None:
    ok(run(memory, *PROPOSE))
    ok(run(memory, "refuse", first_id(), "--reason", "we shell out on purpose | really"))
    refused = git(memory, "show", "main:.gitmem/refused.md")
    assert "| use-pygit2-inside-hooks | we shell out on purpose \\| really |" in refused
    assert git(memory, "branch", "--list", "gitmem/*") == ""
    again = run(memory, *PROPOSE)
    assert again.exit_code == 1
    assert "REFUSED-TOPIC" in again.output and "we shell out on purpose | really" in again.output


def test_refuse_keeps_a_refused_md_with_foreign_bytes_exactly(memory: Path) -> None:
    odd = b"# Refused topics\n\nlatin-1 note: caf\xe9\n"
    (memory / ".gitmem/refused.md").write_bytes(odd)
    git(memory, "commit", "-q", "-am", "a hand-written refused.md")
    ok(run(memory, *PROPOSE))
    ok(run(memory, "refuse", first_id(), "--reason", "not now"))
    after = subprocess.run(
        ["git", "show", "main:.gitmem/refused.md"], cwd=memory, capture_output=True, check=True
    ).stdout
    assert after.startswith(odd) and b"| use-pygit2-inside-hooks | not now |" in after
