"""propose / admit / refuse / supersede on real repositories."""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from clirunner import PROPOSE, first_id, ok, run

from gitmem.lifecycle import flow as lifecycle
from gitmem.repo.workspace import open_workspace

from conftest import git


def state(repo: Path) -> tuple[str, str, str]:
    return (
        git(repo, "rev-parse", "HEAD"),
        git(repo, "status", "--porcelain", "--untracked-files=all"),
        git(repo, "diff", "--cached"),
    )


def test_propose_writes_one_commit_on_its_branch_and_touches_nothing_else(memory: Path) -> None:
    (memory / "wip.py").write_text("work in progress\n")
    (memory / "README.md").write_text("# edited, not staged\n")
    (memory / "staged.txt").write_text("staged\n")
    git(memory, "add", "staged.txt")
    before = state(memory)
    result = ok(run(memory, *PROPOSE))
    assert f"proposed {first_id()}" in result.output
    assert state(memory) == before
    branch = f"gitmem/{first_id()}"
    assert git(memory, "rev-parse", f"{branch}^") == git(memory, "rev-parse", "main")
    changed = git(memory, "diff", "--name-only", "main", branch).split()
    assert changed == [f".gitmem/candidates/{first_id()}.md"]
    text = git(memory, "show", f"{branch}:.gitmem/candidates/{first_id()}.md")
    assert "status: candidate\n" in text and "source: human:Test Author\n" in text


def test_propose_refuses_invalid_input_with_the_rule(memory: Path) -> None:
    result = run(memory, *PROPOSE[:-2], "--file", "nowhere.py")
    assert result.exit_code == 1
    assert "FILES-MISSING" in result.output and "Traceback" not in result.output
    assert git(memory, "branch", "--list", "gitmem/*") == ""
    missing = run(memory, "propose", "--type", "method", "--title", "x")
    assert missing.exit_code == 2 and "--applies-when, --content" in missing.output


def test_propose_from_file(memory: Path, tmp_path: Path) -> None:
    from entries import text

    draft = tmp_path / "draft.md"
    draft.write_text(text())
    result = ok(run(memory, "propose", "--from", str(draft)))
    assert "local-method-" in result.output


def test_twenty_parallel_proposals_of_one_title_all_survive(memory: Path) -> None:
    env = {**os.environ}
    cmd = [sys.executable, "-m", "gitmem", *PROPOSE]

    def one(_: int) -> subprocess.CompletedProcess[str]:
        return subprocess.run(cmd, cwd=memory, capture_output=True, text=True, env=env)

    with ThreadPoolExecutor(max_workers=20) as pool:
        results = list(pool.map(one, range(20)))
    assert all(r.returncode == 0 for r in results), [r.stderr for r in results]
    branches = git(memory, "branch", "--list", "gitmem/*").split()
    ids = {b.removeprefix("gitmem/") for b in branches}
    expected = {first_id()} | {f"{first_id()}-{n}" for n in range(2, 21)}
    assert ids == expected


def test_admit_is_one_merge_with_the_entry_and_index(memory: Path) -> None:
    ok(run(memory, *PROPOSE))
    candidate_tip = git(memory, "rev-parse", f"gitmem/{first_id()}").strip()
    main_before = git(memory, "rev-parse", "main").strip()
    result = ok(run(memory, "admit", first_id(), "--by", "human:reviewer"))
    assert f"admitted {first_id()}" in result.output
    parents = git(memory, "log", "-1", "--format=%P", "main").split()
    assert parents == [main_before, candidate_tip]
    message = git(memory, "log", "-1", "--format=%B", "main")
    assert message.startswith(f"gitmem: admit {first_id()}\n")
    assert "Gitmem-Admitted-By: human:reviewer" in message
    path = f".gitmem/entries/decision/{first_id()}.md"
    entry = git(memory, "show", f"main:{path}")
    assert "status: admitted\n" in entry and "admitted_by: human:reviewer\n" in entry
    index = git(memory, "show", "main:.gitmem/INDEX.md")
    assert f"- [{first_id()}](entries/decision/{first_id()}.md) admitted — Use pygit2" in index
    assert git(memory, "branch", "--list", "gitmem/*") == ""
    # main is checked out: its files followed, nothing is left dirty
    assert (memory / path).read_text() == entry
    assert git(memory, "status", "--porcelain") == ""
    assert ok(run(memory, "check", "--range", f"{main_before}..main")).output.endswith(
        "no problems\n"
    )


def test_admit_expect_refuses_a_branch_that_moved(memory: Path) -> None:
    ok(run(memory, *PROPOSE))
    reviewed = git(memory, "rev-parse", f"gitmem/{first_id()}").strip()
    git(memory, "checkout", "-q", f"gitmem/{first_id()}")
    path = memory / f".gitmem/candidates/{first_id()}.md"
    path.write_text(path.read_text().replace("Read objects", "Read all objects"))
    git(memory, "commit", "-q", "-am", "edit after review")
    git(memory, "checkout", "-q", "main")
    result = run(memory, "admit", first_id(), "--expect", reviewed)
    assert result.exit_code == 1 and "moved" in result.output
    assert "entries" not in git(memory, "ls-tree", "-r", "--name-only", "main")


def test_admit_refuses_dirty_memory_files_on_checked_out_main(memory: Path) -> None:
    ok(run(memory, *PROPOSE))
    (memory / ".gitmem/INDEX.md").write_text("hand edit\n")
    main_before = git(memory, "rev-parse", "main")
    result = run(memory, "admit", first_id())
    assert result.exit_code == 1 and "uncommitted changes" in result.output
    assert git(memory, "rev-parse", "main") == main_before
    assert (memory / ".gitmem/INDEX.md").read_text() == "hand edit\n"


def test_admit_killed_before_the_ref_moves_leaves_main_unchanged(memory: Path) -> None:
    ok(run(memory, *PROPOSE))
    main_before = git(memory, "rev-parse", "main")
    env = {**os.environ, lifecycle.FAULT_ENV: "admit-before-ref"}
    killed = subprocess.run(
        [sys.executable, "-m", "gitmem", "admit", first_id()],
        cwd=memory, env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert killed.returncode == -9
    assert git(memory, "rev-parse", "main") == main_before
    assert git(memory, "status", "--porcelain") == ""
    assert git(memory, "branch", "--list", "gitmem/*").strip() == f"gitmem/{first_id()}"
    ok(run(memory, "admit", first_id()))
    assert "admit" in git(memory, "log", "-1", "--format=%s", "main")


def test_admit_after_main_moved_merges_on_the_new_tip(memory: Path) -> None:
    ok(run(memory, *PROPOSE))
    (memory / "later.txt").write_text("later\n")
    git(memory, "add", "later.txt")
    git(memory, "commit", "-q", "-m", "later work")
    later = git(memory, "rev-parse", "main").strip()
    ok(run(memory, "admit", first_id()))
    assert git(memory, "log", "-1", "--format=%P", "main").split()[0] == later


def test_refuse_records_the_topic_and_blocks_it(memory: Path) -> None:
    ok(run(memory, *PROPOSE))
    ok(run(memory, "refuse", first_id(), "--reason", "we shell out on purpose | really"))
    refused = git(memory, "show", "main:.gitmem/refused.md")
    assert "| use-pygit2-inside-hooks | we shell out on purpose \\| really |" in refused
    assert git(memory, "branch", "--list", "gitmem/*") == ""
    again = run(memory, *PROPOSE)
    assert again.exit_code == 1
    assert "REFUSED-TOPIC" in again.output and "we shell out on purpose | really" in again.output


def test_audit_admission_needs_both_settings(memory: Path, isolated_env: Path) -> None:
    propose = [
        "propose", "--type", "code-structure", "--title", "Keep the store thin",
        "--applies-when", "adding git access", "--content", "Only store.py imports pygit2.",
        "--source", "audit:verdicts/batch-1.md",
    ]  # fmt: skip
    proposed = ok(run(memory, *propose)).output.split()[1]
    refused = run(memory, "admit", proposed, "--by", "audit:verdicts/batch-1.md")
    assert refused.exit_code == 1 and "autoAdmitAudited" in refused.output
    (memory / ".gitmem.toml").write_text("[memory]\nautoAdmitAudited = true\n")
    assert run(memory, "admit", proposed, "--by", "audit:v.md").exit_code == 1  # project only
    (isolated_env / "gitmem").mkdir()
    (isolated_env / "gitmem/config.toml").write_text("[memory]\nautoAdmitAudited = true\n")
    git(memory, "add", ".gitmem.toml")
    git(memory, "commit", "-q", "-m", "allow audits")
    result = ok(run(memory, "admit", "--auto"))
    assert f"admitted {proposed}" in result.output


def test_human_only_types_and_sources(memory: Path) -> None:
    audit_decision = run(
        memory, "propose", "--type", "decision", "--title", "t", "--applies-when", "a",
        "--content", "c", "--source", "audit:v.md",
    )  # fmt: skip
    assert audit_decision.exit_code == 1 and "not allowed" in audit_decision.output
    two_batches = run(
        memory, "propose", "--type", "mistake", "--title", "t", "--applies-when", "a",
        "--content", "c", "--source", "audit:v.md", "--correction", "x",
        "--detection-signal", "y", "--evidence-batch", "b1", "--evidence-batch", "b2",
    )  # fmt: skip
    assert two_batches.exit_code == 1 and "at least 3 distinct batches" in two_batches.output


def test_supersede_flips_the_old_entry_and_lineage_walks_both_ways(memory: Path) -> None:
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    new = ok(run(
        memory, "propose", "--type", "decision", "--title", "Use pygit2 everywhere",
        "--applies-when", "reading git objects", "--content", "All reads go through pygit2.",
        "--supersedes", first_id(),
    )).output.split()[1]  # fmt: skip
    ok(run(memory, "admit", new))
    old = git(memory, "show", f"main:.gitmem/entries/decision/{first_id()}.md")
    assert "status: superseded\n" in old and f"superseded_by: {new}\n" in old
    index = git(memory, "show", "main:.gitmem/INDEX.md")
    assert f"superseded by {new} — Use pygit2 inside hooks" in index
    lineage = ok(run(memory, "show", "--lineage", first_id())).output.splitlines()
    assert [line.lstrip("* ").split()[0] for line in lineage] == [first_id(), new]
    assert lineage[0].startswith("* ")
    assert ok(run(memory, "list", "--status", "admitted")).output.count("admitted") == 1
    # the replaced entry cannot be superseded twice
    again = run(
        memory, "propose", "--type", "decision", "--title", "Third try",
        "--applies-when", "x", "--content", "y", "--supersedes", first_id(),
    )  # fmt: skip
    assert again.exit_code == 1 and "already superseded" in again.output


def test_duplicate_of_an_admitted_entry_is_refused(memory: Path) -> None:
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    again = run(memory, *PROPOSE)
    assert again.exit_code == 1 and "DUPLICATE" in again.output


def test_index_check_and_regeneration(memory: Path) -> None:
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    assert ok(run(memory, "index", "--check")).output == ""
    (memory / ".gitmem/INDEX.md").write_text("stale\n")
    assert run(memory, "index", "--check").exit_code == 1
    ok(run(memory, "index"))
    assert git(memory, "status", "--porcelain") == ""


def test_candidates_and_show(memory: Path) -> None:
    ok(run(memory, *PROPOSE))
    listing = ok(run(memory, "candidates")).output
    assert first_id() in listing and "valid" in listing
    shown = ok(run(memory, "show", first_id())).output
    assert "status: candidate" in shown


def test_admit_without_id_and_without_terminal_admits_nothing(memory: Path) -> None:
    ok(run(memory, *PROPOSE))
    result = run(memory, "admit")
    assert result.exit_code == 2 and "admitted nothing" in result.output
    ws = open_workspace(memory)
    assert [c.id for c in lifecycle.pending(ws)] == [first_id()]


def test_propose_edit_starts_a_successor_from_the_admitted_text(memory: Path) -> None:
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    result = ok(run(memory, "propose", "--edit", first_id(), "--title", "Use pygit2 in hooks, v2"))
    new_id = result.output.split()[1]
    text = git(memory, "show", f"gitmem/{new_id}:.gitmem/candidates/{new_id}.md")
    assert f"supersedes: [{first_id()}]" in text and "status: candidate" in text
    assert "Read objects with pygit2." in text  # the old content carried over
    assert "admitted_by" not in text
    refused = run(memory, "propose", "--edit", "no-such-entry")
    assert refused.exit_code == 2


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


def test_post_hooks_regenerate_index_md_only_when_the_memory_folder_changed(
    memory: Path,
) -> None:
    from gitmem.lifecycle import refresh

    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    ws = open_workspace(memory)
    index = memory / ".gitmem/INDEX.md"
    committed = index.read_text()
    refresh.refresh(ws, from_hook=True)  # clean folder: the committed INDEX.md stands
    assert index.read_text() == committed and git(memory, "status", "--porcelain") == ""
    entry = memory / f".gitmem/entries/decision/{first_id()}.md"
    entry.write_text(entry.read_text().replace("title: Use pygit2", "title: Use libgit2"))
    refresh.refresh(ws, from_hook=True)  # a changed entry: INDEX.md follows it
    assert "Use libgit2 inside hooks" in index.read_text()
