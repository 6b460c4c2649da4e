"""Split proposals (gitmem.curate.split): the threshold the tuning part chooses and the figures
of the held-out part, and `gitmem hygiene --propose` splitting a mixed entry on a real
repository into two candidates."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import benches
from clirunner import ok, run

from gitmem.curate import split
from gitmem.model.entry import Entry, parse

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


#: gitmem's command line, killed (SIGKILL) as it starts its second proposal: the first half
#: of a split written, the second not yet.
KILLED_AT_SECOND_PROPOSAL = """
import os, signal

from gitmem.lifecycle import propose as module

real, calls = module.propose, []


def propose(*args, **kwargs):
    if calls:
        os.kill(os.getpid(), signal.SIGKILL)
    calls.append(1)
    return real(*args, **kwargs)


module.propose = propose
from gitmem.launcher import main

main()
"""


def test_a_split_killed_between_its_halves_is_finished_by_the_next_run(memory: Path) -> None:
    """The first half supersedes the entry, so once it was written the next run found the
    entry taken ("already superseded by pending") and never proposed the second half: killed
    between the two, the entry's second lesson was lost, and admitting the first half
    dropped it from memory."""
    mixed = _admit(memory, "Open the repository from the environment in hooks", MIXED)
    done = subprocess.run(
        [sys.executable, "-c", KILLED_AT_SECOND_PROPOSAL, "hygiene", "--propose"],
        cwd=memory, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == -9, (done.stdout, done.stderr)
    [first] = git(memory, "for-each-ref", "--format=%(refname:short)", "refs/heads/gitmem/").split()
    again = ok(run(memory, "hygiene", "--propose")).output
    names = git(memory, "for-each-ref", "--format=%(refname:short)", "refs/heads/gitmem/").split()
    assert len(names) == 2 and first in names, again
    [second] = [n for n in names if n != first]
    text = parse(git(memory, "show", f"{second}:.gitmem/candidates/{second[7:]}.md"))
    assert text.content.startswith("Sourdough bread") and not text.supersedes
    assert f"proposed {first[7:]} and {second[7:]} splitting {mixed}" in again
    third = ok(run(memory, "hygiene", "--propose")).output
    assert f"not split ({mixed}): already superseded by pending {first[7:]}" in third
    assert len(git(memory, "for-each-ref", "refs/heads/gitmem/").splitlines()) == 2
    ok(run(memory, "admit", second[7:], "--by", "human:reviewer"))  # one half admitted first
    fourth = ok(run(memory, "hygiene", "--propose")).output
    assert f"not split ({mixed}): already superseded by pending {first[7:]}" in fourth
    assert git(memory, "for-each-ref", "--format=%(refname:short)", "refs/heads/gitmem/") == (
        first + "\n"
    )


def test_the_second_lessons_title_is_its_words_without_markdown_marks() -> None:
    """The second half's title was its first line as written: a list item gave the title
    '- **Store database backups** in a second region', a heading '### Database backups'."""
    content = (
        "- Pin the Python version of the CI runners to the one production uses.\n"
        "- **Store database backups** in a second region, and restore one every month."
    )
    entry = Entry(
        {"id": "shop-method-20261201-pin", "type": "method", "title": "Pin the CI Python",
         "applies_when": "setting up CI"},
        "", content, "",
    )  # fmt: skip
    cut = split.Split(entry.id, "p", entry.title, 0.1, tuple(split.units(entry)[:1]),
                      tuple(split.units(entry)[1:]))  # fmt: skip
    _, second = split.split_fields(cut, entry, lambda _: True)
    assert second.title == "Store database backups in a second region, and restore one every month"
    assert (
        second.content
        == "- **Store database backups** in a second region, and restore one every month."
    )
    heading = Entry(
        entry.meta, "", "Pin the runners' Python version.\n### Database backups\nKeep two.", ""
    )
    cut = split.Split(entry.id, "p", entry.title, 0.1, tuple(split.units(heading)[:1]),
                      tuple(split.units(heading)[1:]))  # fmt: skip
    assert split.split_fields(cut, heading, lambda _: True)[1].title == "Database backups"


def test_a_mixed_entry_near_the_body_limit_is_still_split(memory: Path) -> None:
    """Each half carried the whole Evidence of the entry it splits, under a line of its own:
    an entry within memory.maxBody whose Evidence is long made halves over it, refused as
    BODY-LENGTH (naming a candidate file never written), and the run failed telling the
    reader to amend the sound entry. The Evidence now goes when it does not fit (it stays in
    the superseded entry's file, which the halves name), and every line of the entry's
    Context and Content is still in one half or the other."""
    evidence = " ".join(["Measured on the staging cluster with the nightly load profile."] * 26)
    args = ["propose", "--type", "method", "--title", "Open the repository in hooks"]
    args += ["--applies-when", "writing hooks", "--content", MIXED, "--evidence", evidence]
    mixed = ok(run(memory, *args)).output.split()[1]
    ok(run(memory, "admit", mixed, "--by", "human:reviewer"))
    entry = parse(git(memory, "show", f"HEAD:.gitmem/entries/method/{mixed}.md"))
    assert len(entry.body) <= 2000
    result = run(memory, "hygiene", "--propose", "--format", "json")
    assert result.exit_code == 0, result.output
    [(_, ids, note)] = [tuple(s.values()) for s in json.loads(result.output)["split_proposals"]]
    assert len(ids) == 2 and not note, note
    halves = [parse(git(memory, "show", f"gitmem/{i}:.gitmem/candidates/{i}.md")) for i in ids]
    assert all(len(half.body) <= 2000 for half in halves)
    assert all(f"The Evidence of {mixed} " in half.evidence for half in halves)
    assert [line for line in MIXED.split("\n")] == [
        line for half in halves for line in half.content.split("\n") if line
    ]


def test_a_refused_split_is_not_proposed_again_nor_a_failure(memory: Path) -> None:
    """Refusing the half that supersedes a mixed entry put the entry's title in refused.md,
    and every later `hygiene --propose` failed (exit 1, REFUSED-TOPIC) proposing it again,
    advising to amend the entry. The refusal is the team's word: a note, and a passing run."""
    mixed = _admit(memory, "Open the repository from the environment in hooks", MIXED)
    report = json.loads(ok(run(memory, "hygiene", "--propose", "--format", "json")).output)
    [(_, ids, _)] = [tuple(s.values()) for s in report["split_proposals"]]
    halves = {i: parse(git(memory, "show", f"gitmem/{i}:.gitmem/candidates/{i}.md")) for i in ids}
    [first] = [i for i, e in halves.items() if e.supersedes == (mixed,)]
    ok(run(memory, "refuse", first, "--reason", "one lesson after all"))
    result = run(memory, "hygiene", "--propose")
    assert result.exit_code == 0, result.output
    assert f"not split ({mixed}): topic " in result.output
    assert "one lesson after all: not proposed again" in result.output
