"""propose --amend / --retire and their admission, on real repositories: the entry changes in
place through one reviewed merge, INDEX.md follows, and the gate's range check agrees."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from clirunner import ok, run

from gitmem.model.entry import parse

from conftest import git

TITLE = "Keep hooks thin and fast"
TODAY = dt.datetime.now(dt.UTC).date().isoformat()


def admitted(repo: Path, title: str = TITLE) -> str:
    args = ["propose", "--type", "method", "--title", title, "--applies-when", "writing hooks"]
    out = ok(run(repo, *args, "--content", "Call one function.", "--file", "README.md")).output
    entry_id = out.split("proposed ", 1)[1].split()[0]
    ok(run(repo, "admit", entry_id, "--by", "human:reviewer"))
    return entry_id


def entry_at(repo: Path, entry_id: str, rev: str = "main") -> str:
    return git(repo, "show", f"{rev}:.gitmem/entries/method/{entry_id}.md")


def proposed(output: str) -> str:
    return output.split("proposed ", 1)[1].split()[0]


def test_an_amendment_corrects_the_entry_in_place_through_one_reviewed_merge(
    memory: Path,
) -> None:
    entry_id = admitted(memory)
    before = parse(entry_at(memory, entry_id))
    base = git(memory, "rev-parse", "main").strip()
    out = ok(run(memory, "propose", "--amend", entry_id, "--applies-when", "writing git hooks"))
    candidate_id = proposed(out.output)
    assert candidate_id == f"{entry_id}-amend"
    ok(run(memory, "admit", candidate_id, "--by", "human:bob"))
    message = git(memory, "log", "-1", "--format=%B", "main")
    assert message.startswith(f"gitmem: amend {candidate_id}\n")
    after = parse(entry_at(memory, entry_id))
    assert after.applies_when == "writing git hooks"
    assert after.meta["amended"] == [TODAY] and after.meta["amended_by"] == "human:bob"
    # identity, admission and text otherwise kept; no new entry, no lineage step
    for name in ("id", "type", "source", "created", "admitted_by", "admitted", "status"):
        assert after.meta[name] == before.meta[name], name
    assert after.content == before.content and "amends" not in after.meta
    assert git(memory, "ls-tree", "-r", "--name-only", "main", ".gitmem/entries").count("\n") == 1
    # a second amendment appends its date; the title change reaches INDEX.md
    out = ok(run(memory, "propose", "--amend", entry_id, "--title", "Keep git hooks thin"))
    ok(run(memory, "admit", proposed(out.output), "--by", "human:carol"))
    again = parse(entry_at(memory, entry_id))
    assert again.meta["amended"] == [TODAY, TODAY]
    assert again.meta["amended_by"] == "human:carol"
    index = git(memory, "show", "main:.gitmem/INDEX.md")
    assert f"[{entry_id}](entries/method/{entry_id}.md) admitted — Keep git hooks thin" in index
    ok(run(memory, "check", "--range", f"{base}..main"))


def test_an_amendment_keeps_what_identifies_the_entry(memory: Path) -> None:
    entry_id = admitted(memory)
    result = run(memory, "propose", "--amend", entry_id, "--type", "decision")
    assert result.exit_code == 2 and "keeps the entry's type" in result.output
    assert "gitmem propose --edit" in result.output
    nothing = run(memory, "propose", "--amend", entry_id)
    assert nothing.exit_code == 2 and "nothing to amend" in nothing.output
    missing = run(memory, "propose", "--amend", "local-method-20261201-none", "--title", "x y")
    assert missing.exit_code == 2 and "no entry" in missing.output


def test_a_retirement_leaves_a_tombstone_shown_as_retired(memory: Path) -> None:
    entry_id = admitted(memory)
    base = git(memory, "rev-parse", "main").strip()
    no_reason = run(memory, "propose", "--retire", entry_id)
    assert no_reason.exit_code == 2 and "--reason" in no_reason.output
    out = ok(run(memory, "propose", "--retire", entry_id, "--reason", "a test write"))
    candidate_id = proposed(out.output)
    assert candidate_id == f"{entry_id}-retire"
    ok(run(memory, "admit", candidate_id, "--by", "human:bob"))
    assert git(memory, "log", "-1", "--format=%s", "main") == f"gitmem: retire {candidate_id}\n"
    tomb = parse(entry_at(memory, entry_id))
    assert tomb.status == "retired" and tomb.meta["retired_by"] == "human:bob"
    assert tomb.meta["retired"] == TODAY and tomb.meta["retired_reason"] == "a test write"
    index = git(memory, "show", "main:.gitmem/INDEX.md")
    assert f"[{entry_id}](entries/method/{entry_id}.md) retired — {TITLE}" in index
    ok(run(memory, "check", "--range", f"{base}..main"))
    # a tombstone is neither amended nor retired again
    again = run(memory, "propose", "--retire", entry_id, "--reason", "twice")
    assert again.exit_code == 2 and "is retired" in again.output
    amend = run(memory, "propose", "--amend", entry_id, "--title", "Back again")
    assert amend.exit_code == 2 and "is retired" in amend.output


def test_who_may_retire_is_a_source_rule(memory: Path) -> None:
    entry_id = admitted(memory)
    candidate_id = proposed(
        ok(run(memory, "propose", "--retire", entry_id, "--reason", "duplicate")).output
    )
    refused = run(memory, "admit", candidate_id, "--by", "audit:verdicts/a.json")
    assert refused.exit_code == 1 and "may not retire" in refused.output
    assert "memory.retireBy" in refused.output
    assert parse(entry_at(memory, entry_id)).status == "admitted"


def test_an_amend_candidate_is_judged_against_its_entry_at_admission(memory: Path) -> None:
    entry_id = admitted(memory)
    candidate_id = proposed(
        ok(run(memory, "propose", "--amend", entry_id, "--title", "Keep hooks thin")).output
    )
    # the entry is retired meanwhile: the amendment no longer has an admitted entry to change
    retire_id = proposed(
        ok(run(memory, "propose", "--retire", entry_id, "--reason", "obsolete")).output
    )
    ok(run(memory, "admit", retire_id, "--by", "human:bob"))
    late = run(memory, "admit", candidate_id, "--by", "human:bob")
    assert late.exit_code == 1 and "LINEAGE" in late.output and "retired" in late.output
