"""Split proposals (gitmem.curate.split): the threshold the tuning part chooses and the figures
of the held-out part, and `gitmem hygiene --propose` splitting a mixed entry on a real
repository into two candidates."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import benches
from clirunner import ok, run

from gitmem.curate import split
from gitmem.model.entry import parse

from conftest import git


def _bench() -> Any:
    return benches.load("splits")


def test_the_threshold_is_chosen_on_the_tuning_part_and_holds_on_the_held_out_part() -> None:
    bench = _bench()
    assert bench.choose() == split.SPLIT_THRESHOLD
    _, held_out = bench.parts()
    precision, recall = bench.scores(held_out, split.SPLIT_THRESHOLD)
    assert precision >= 0.84 and recall >= 0.94, (precision, recall)  # README: 0.84, 0.94


MIXED = (
    "Open the repository from the environment inside a pre-receive hook, so the objects git "
    "holds in quarantine during the push are visible to the judge.\n"
    "Sourdough bread needs a ripe starter fed twelve hours before baking; a young starter "
    "gives a dense crumb and a flat loaf."
)


def _admit(repo: Path, title: str, content: str) -> str:
    args = ["propose", "--type", "method", "--title", title, "--applies-when", "writing hooks"]
    entry_id = ok(run(repo, *args, "--content", content)).output.split()[1]
    ok(run(repo, "admit", entry_id, "--by", "human:reviewer"))
    return entry_id


def test_hygiene_proposes_splitting_a_mixed_entry_into_two_candidates(memory: Path) -> None:
    mixed = _admit(memory, "Open the repository from the environment in hooks", MIXED)
    clean = _admit(
        memory,
        "Strip git variables before running git on another repository",
        "A hook that runs git on another repository strips the GIT_ variables first.\n"
        "Otherwise git reads the hook's repository from GIT_DIR instead of the other one.",
    )
    report = json.loads(ok(run(memory, "hygiene", "--format", "json")).output)
    [found] = report["splits"]
    assert found["id"] == mixed and clean != mixed  # the coherent entry is left alone
    assert found["coherence"] < split.SPLIT_THRESHOLD
    assert found["second"][0].startswith("Sourdough bread")
    text = ok(run(memory, "hygiene", "--propose")).output
    assert f"splitting {mixed}" in text
    names = git(memory, "for-each-ref", "--format=%(refname:short)", "refs/heads/gitmem/").split()
    candidates = [parse(git(memory, "show", f"{n}:.gitmem/candidates/{n[7:]}.md")) for n in names]
    assert len(candidates) == 2  # the two halves, and nothing else
    first = next(c for c in candidates if c.supersedes)
    second = next(c for c in candidates if not c.supersedes)
    assert first.supersedes == (mixed,) and "quarantine" in first.content
    assert "Sourdough" not in first.content and "Sourdough" in second.content
    assert second.title.startswith("Sourdough bread needs a ripe starter")
    assert "cohere at TF-IDF cosine" in first.evidence
    assert "valid" in ok(run(memory, "candidates")).output
    again = ok(run(memory, "hygiene", "--propose")).output
    assert f"not split ({mixed}): already superseded by pending" in again


def test_a_split_keeps_every_line_of_the_entry_and_never_cuts_inside_code(memory: Path) -> None:
    """The two halves were the entry's sentences joined by spaces: a line with fewer than two
    terms ("Run:", a fence, a list item of one word) was dropped, a code block was flattened
    into prose, and the cut could fall inside the block, so the second lesson was titled
    after a line of code."""
    content = (
        "Pin the Python version of the continuous integration runners to the one production "
        "uses.\nRun:\n\n```sh\npyenv local 3.11\npython -V\n```\n\n- one\n- two\n\n"
        "Store database backups in a second region, encrypted with a separate key, and "
        "restore one every month.\n\n```sql\nSELECT count(*) FROM backups;\n```"
    )
    mixed = _admit(memory, "Pin the CI Python version", content)
    report = json.loads(ok(run(memory, "hygiene", "--format", "json")).output)
    [found] = report["splits"]
    assert found["id"] == mixed
    assert found["second"][0].startswith("Store database backups")
    ok(run(memory, "hygiene", "--propose"))
    names = git(memory, "for-each-ref", "--format=%(refname:short)", "refs/heads/gitmem/").split()
    candidates = [parse(git(memory, "show", f"{n}:.gitmem/candidates/{n[7:]}.md")) for n in names]
    first = next(c for c in candidates if c.supersedes)
    second = next(c for c in candidates if not c.supersedes)
    assert first.content == content.split("\n\nStore database")[0]
    assert second.content == "Store database" + content.split("\n\nStore database")[1]
    assert second.title.startswith("Store database backups in a second region")
