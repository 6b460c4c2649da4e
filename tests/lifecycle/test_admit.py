"""admit: one merge commit on main per candidate, by compare-and-swap, on real repositories."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from clirunner import HOOKS, PROPOSE, SECRETS, first_id, ok, proposed, run
from remote import connect, make_server
from secret_samples import github_token

from gitmem.errors import RuleError
from gitmem.lifecycle import admit as admitting
from gitmem.lifecycle import candidates, recovery, writing
from gitmem.repo.workspace import open_workspace

from conftest import git, killed_at_fault, read_only, run_gitmem


def snapshot(repo: Path) -> tuple[str, str, str]:
    """Every ref with its target, what git status says, and what is staged."""
    return (
        git(repo, "for-each-ref", "--format=%(refname) %(objectname)"),
        git(repo, "status", "--porcelain", "--untracked-files=all"),
        git(repo, "diff", "--cached"),
    )


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


def test_an_expect_that_names_no_commit_is_said_so_not_taken_for_a_move(memory: Path) -> None:
    """`--expect` given a value that is no commit here (a truncated or mistyped id, a commit
    not fetched) was answered "candidate moved: its branch is at X, not the reviewed Y;
    review the new commits", sending the reviewer after commits that do not exist. It now
    says the value names no commit (exit 2), and admits nothing."""
    ok(run(memory, *PROPOSE))
    main_before = git(memory, "rev-parse", "main")
    for wrong in ("zz", "0" * 40):
        result = run(memory, "admit", first_id(), "--expect", wrong)
        assert result.exit_code == 2, result.output
        assert result.output == (
            f"gitmem: --expect {wrong!r} is not a commit here: give the commit you reviewed "
            "(the candidate's tip, as `gitmem candidates --format json` shows it; git fetch "
            "first?)\n"
        )
    assert git(memory, "rev-parse", "main") == main_before


def test_an_empty_expect_is_refused_and_admits_nothing(memory: Path) -> None:
    """`gitmem admit ID --expect "$REVIEWED"` with REVIEWED unset: the empty --expect was
    taken for none, and the candidate was admitted at whatever its branch held."""
    ok(run(memory, *PROPOSE))
    main_before = git(memory, "rev-parse", "main")
    for empty in ("", " "):
        result = run(memory, "admit", first_id(), "--expect", empty)
        assert result.exit_code == 2 and "--expect '' names no commit" in result.output
    assert git(memory, "rev-parse", "main") == main_before
    with pytest.raises(RuleError, match="moved"):
        admitting.admit(open_workspace(memory), first_id(), expect="")
    assert git(memory, "rev-parse", "main") == main_before


def test_an_uncommitted_settings_edit_does_not_loosen_the_rules_an_admission_is_judged_by(
    memory: Path,
) -> None:
    """An uncommitted `maxBody = 100000` in the checkout's .gitmem.toml let `gitmem admit`
    merge a body over main's committed limit: a main the history gate then refused."""
    entry_id = _a_candidate_over_the_limit(memory)
    (memory / ".gitmem.toml").write_text("[memory]\nmaxBody = 100000\n")
    main_before = git(memory, "rev-parse", "main").strip()
    result = run(memory, "admit", entry_id)
    assert result.exit_code == 2, result.output
    assert "memory.maxBody is 100000 in this checkout's settings" in result.output
    assert "main commits 2000" in result.output
    assert git(memory, "rev-parse", "main").strip() == main_before


@pytest.mark.parametrize("command", [["admit"], ["refuse", "--reason", "not needed"]])
def test_an_empty_by_names_nobody_and_changes_nothing(memory: Path, command: list[str]) -> None:
    """`--by "$REVIEWER"` with REVIEWER unset was taken for no --by: the admission or refusal
    was recorded in the name of whoever ran the command."""
    ok(run(memory, *PROPOSE))
    main_before = git(memory, "rev-parse", "main")
    result = run(memory, command[0], first_id(), *command[1:], "--by", "")
    assert result.exit_code == 2 and "Invalid value for '--by': names nobody" in result.output
    assert git(memory, "rev-parse", "main") == main_before


@pytest.mark.parametrize("change", ["edit", "git rm"])
def test_admit_refuses_dirty_memory_files_on_checked_out_main(memory: Path, change: str) -> None:
    """The user's own edit is in the way, not a rule: a usage error (exit 2), as a stale
    index.lock is; it exited 1, the code of a candidate a rule refused. INDEX.md deleted
    with `git rm` (as a `git clone --no-checkout` leaves every file) is such a change too:
    admit said ".gitmem/INDEX.md is a file git does not track" and to move away a file that
    was not there."""
    ok(run(memory, *PROPOSE))
    if change == "edit":
        (memory / ".gitmem/INDEX.md").write_text("hand edit\n")
    else:
        git(memory, "rm", "-q", ".gitmem/INDEX.md")
    main_before = git(memory, "rev-parse", "main")
    done = run_gitmem(memory, "admit", first_id())
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        "gitmem: main is checked out and .gitmem/INDEX.md has uncommitted changes: commit or "
        "stash them, then run the command again\n"
    )
    assert git(memory, "rev-parse", "main") == main_before
    if change == "edit":
        assert (memory / ".gitmem/INDEX.md").read_text() == "hand edit\n"
    git(memory, "reset", "-q", "--hard")
    ok(run(memory, "admit", first_id()))


def test_admit_killed_before_the_ref_moves_leaves_main_unchanged(memory: Path) -> None:
    ok(run(memory, *PROPOSE))
    main_before = git(memory, "rev-parse", "main")
    env = {**os.environ, writing.FAULT_ENV: "admit-before-ref"}
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


def test_admit_without_id_and_without_terminal_admits_nothing(memory: Path) -> None:
    ok(run(memory, *PROPOSE))
    result = run(memory, "admit")
    assert result.exit_code == 2 and "admitted nothing" in result.output
    ws = open_workspace(memory)
    assert [c.id for c in candidates.pending(ws)] == [first_id()]


def test_auto_admission_asks_the_admission_policy_for_each_candidate(
    memory: Path, isolated_env: Path
) -> None:
    """`gitmem admit --auto` admits what each candidate's own audit may admit (may_admit, the
    one policy) and names, for every other candidate, why it was skipped."""
    from gitmem.lifecycle import admit as admitting

    audited = ok(run(
        memory, "propose", "--type", "code-structure", "--title", "Keep the store thin",
        "--applies-when", "adding git access", "--content", "Only store.py imports pygit2.",
        "--source", "audit:verdicts/batch-1.md",
    )).output.split()[1]  # fmt: skip
    ok(run(memory, *PROPOSE))  # a person's candidate
    off = run(memory, "admit", "--auto")
    assert off.exit_code == 0 and "admitted nothing" in off.output
    assert admitting.admit_audited(open_workspace(memory)).allowed is False
    (memory / ".gitmem.toml").write_text("[memory]\nautoAdmitAudited = true\n")
    (isolated_env / "gitmem").mkdir()
    (isolated_env / "gitmem/config.toml").write_text("[memory]\nautoAdmitAudited = true\n")
    git(memory, "add", ".gitmem.toml")
    git(memory, "commit", "-q", "-m", "allow audits")
    done = admitting.admit_audited(open_workspace(memory))
    assert done.allowed and [a.id for a in done.admitted] == [audited]
    assert done.skipped == [(first_id(), "source human:Test Author needs a person")]
    assert git(memory, "branch", "--list", "gitmem/*").split() == [f"gitmem/{first_id()}"]


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (["{id}"], "is given twice: name each candidate once (admitted nothing)"),
        (["no-such-candidate"], "no candidate 'no-such-candidate'"),
    ],
)
def test_a_list_of_ids_that_would_stop_half_way_admits_none(
    memory: Path, extra: list[str], says: str
) -> None:
    """`gitmem admit A A` and `gitmem admit A NOSUCH` admitted A, then exited 2 (usage) on the
    second: main had moved under a command that reported a usage error. Now every ID is found
    before the first merge, and an ID given twice is named."""
    ok(run(memory, *PROPOSE))
    main_before = git(memory, "rev-parse", "main")
    result = run(memory, "admit", first_id(), *(e.format(id=first_id()) for e in extra))
    assert result.exit_code == 2 and says in result.output
    assert git(memory, "rev-parse", "main") == main_before
    assert [c.id for c in candidates.pending(open_workspace(memory))] == [first_id()]


@pytest.mark.parametrize("extra", [["{id}"], ["--by", "human:bob"], ["--expect", "0" * 40]])
def test_auto_with_an_id_or_a_reviewer_is_a_usage_error(memory: Path, extra: list[str]) -> None:
    """--auto admits by each candidate's audit: an ID, --by or --expect beside it was
    silently ignored (`gitmem admit --auto ID` admitted every allowed audited candidate but
    never ID)."""
    ok(run(memory, *PROPOSE))
    result = run(memory, "admit", "--auto", *(e.format(id=first_id()) for e in extra))
    assert result.exit_code == 2 and "--auto admits every audit-backed candidate" in result.output


def test_admitting_a_closed_candidate_says_what_became_of_it(memory: Path) -> None:
    """Issue 14: an already admitted id was told "no candidate … (git fetch first?)"."""
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id(), "--by", "human:bob"))
    again = run(memory, "admit", first_id())
    assert again.exit_code == 2
    assert f"{first_id()} is no longer a candidate: it was admitted by human:bob on " in (
        again.output
    )
    assert f"(.gitmem/entries/decision/{first_id()}.md on main)" in again.output
    assert "git fetch first" not in again.output

    refused = ok(run(memory, *SECRETS)).output.split()[1]
    ok(run(memory, "refuse", refused, "--reason", "the scanner runs anyway"))
    again = run(memory, "admit", refused)
    assert again.exit_code == 2
    assert "is no longer a candidate: it was refused on " in again.output
    assert ": the scanner runs anyway (topic scan-entries-for-secrets-before-admission" in (
        again.output
    )


def test_admit_refuses_while_another_worktree_has_main_checked_out(
    memory: Path, tmp_path: Path
) -> None:
    """As `git branch -f` does: moving main under another worktree's checkout would leave its
    files behind, so that its git status shows the admission undone. A usage error (exit 2),
    as git's own refusal is: it exited 1, the code of a candidate a rule refused."""
    ok(run(memory, *PROPOSE))
    linked = tmp_path / "linked"
    git(memory, "worktree", "add", "-q", "-b", "side", str(linked))
    main_before = git(memory, "rev-parse", "main").strip()
    for command in (["admit", first_id()], ["refuse", first_id(), "--reason", "no"]):
        done = run_gitmem(linked, *command)
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith(
            f"gitmem: main is checked out in the worktree at {memory}: run the command there, "
            "or check out another branch in it first"
        )
        assert "Traceback" not in done.stderr
    assert git(memory, "rev-parse", "main").strip() == main_before
    assert git(memory, "branch", "--list", f"gitmem/{first_id()}").strip()
    # from a linked worktree while main's own worktree is elsewhere, it lands
    git(memory, "checkout", "-q", "--detach")
    ok(run(linked, "admit", first_id()))
    assert git(memory, "status", "--porcelain") == ""


def test_a_worktree_whose_folder_was_deleted_is_named_with_what_to_do(
    memory: Path, tmp_path: Path
) -> None:
    """A linked worktree of main deleted with rm -rf (not `git worktree remove`) still holds
    main for git, and admit refused as `git branch -f` does, but said to "run the command
    there", in a folder that no longer exists. It says to prune the record now."""
    ok(run(memory, *PROPOSE))
    git(memory, "checkout", "-q", "-b", "side")
    linked = tmp_path / "gone"
    git(memory, "worktree", "add", "-q", str(linked), "main")
    shutil.rmtree(linked)
    result = run(memory, "admit", first_id())
    assert result.exit_code == 2, result.output
    assert f"main is checked out in the worktree at {linked}: that folder no longer exists" in (
        result.output
    )
    assert "git worktree prune" in result.output and "run the command there" not in (result.output)
    git(memory, "worktree", "prune")
    ok(run(memory, "admit", first_id()))


def test_admit_and_refuse_leave_a_checked_out_candidate_branch_alone(
    memory: Path, tmp_path: Path
) -> None:
    """As `git branch -d` does: deleting the candidate branch that a worktree (this one, or a
    linked one) has checked out left that worktree on a branch with no commits, its whole
    tree staged as new files. Refused before main moves; the branch is kept."""
    ok(run(memory, *PROPOSE))
    branch = f"gitmem/{first_id()}"
    main_before = git(memory, "rev-parse", "main").strip()
    linked = tmp_path / "linked"
    git(memory, "worktree", "add", "-q", "--detach", str(linked))
    for where, other in ((memory, linked), (linked, memory)):
        git(where, "checkout", "-q", branch)
        for command in (["admit", first_id()], ["refuse", first_id(), "--reason", "no"]):
            result = run(other, *command)
            assert result.exit_code == 2, result.output
            assert f"{branch} is checked out in the worktree at {where}" in result.output
            assert "Traceback" not in result.output
        assert git(memory, "rev-parse", "main").strip() == main_before
        assert git(where, "rev-parse", "--abbrev-ref", "HEAD").strip() == branch
        assert git(where, "status", "--porcelain") == ""
        git(where, "checkout", "-q", "--detach")
    git(memory, "checkout", "-q", "main")
    ok(run(memory, "admit", first_id()))
    assert git(memory, "branch", "--list", branch) == ""


def test_admit_refuses_while_main_is_being_rebased_or_bisected(
    memory: Path, tmp_path: Path
) -> None:
    """A worktree rebasing main has HEAD detached, yet `git rebase --abort` puts main back
    where the rebase started: an admission made meanwhile was wiped off main, its candidate
    branch already deleted. Refused, as `git branch -f main` is, in this worktree or another."""
    for text in ("a", "b"):
        (memory / "README.md").write_text(text)
        git(memory, "commit", "-q", "-am", text)
    ok(run(memory, *PROPOSE))
    main_before = git(memory, "rev-parse", "main").strip()
    editor = {**os.environ, "GIT_SEQUENCE_EDITOR": "sed -i s/^pick/edit/"}
    subprocess.run(["git", "rebase", "-q", "-i", "HEAD~2"], cwd=memory, env=editor, check=True)
    linked = tmp_path / "linked"
    git(memory, "worktree", "add", "-q", "-b", "side", str(linked), main_before)
    for folder in (memory, linked):
        for command in (["admit", first_id()], ["refuse", first_id(), "--reason", "no"]):
            result = run(folder, *command)
            assert result.exit_code == 2, result.output
            assert f"main is being rebased or bisected in the worktree at {memory}" in (
                result.output
            )
            assert "git rebase --abort" in result.output
    git(memory, "rebase", "--abort")
    assert git(memory, "rev-parse", "main").strip() == main_before
    git(memory, "bisect", "start", "main", "main~2")  # `git bisect reset` checks main out again
    result = run(linked, "admit", first_id())
    assert result.exit_code == 2 and f"worktree at {memory}" in result.output, result.output
    git(memory, "bisect", "reset")
    ok(run(memory, "admit", first_id()))
    assert git(memory, "status", "--porcelain") == ""


def test_a_stale_index_lock_refuses_admit_before_main_moves(memory: Path) -> None:
    """A stale .git/index.lock used to let admit move main, then fail to write the staging
    index with "unexpected error" (exit 3): the entry just admitted was left staged for
    deletion, for the next plain `git commit` to undo. Now it is refused before main moves,
    naming the lock and what to do."""
    ok(run(memory, *PROPOSE))
    lock = memory / ".git" / "index.lock"
    lock.touch()
    before = snapshot(memory)
    result = run(memory, "admit", first_id())
    assert result.exit_code == 2, result.output
    assert f"{lock} exists" in result.output and f"rm '{lock}'" in result.output
    assert "unexpected" not in result.output
    lock.unlink()
    assert snapshot(memory) == before
    assert not (memory / ".git" / recovery.JOURNAL).exists()
    ok(run(memory, "admit", first_id()))
    assert git(memory, "status", "--porcelain") == ""


def test_admit_whose_files_cannot_follow_main_says_main_moved_and_finishes_when_run_again(
    memory: Path,
) -> None:
    """When main moved and the checked-out files cannot follow (here a file stands where
    the entry's folder goes), the error says main moved and that the same command finishes
    it; run again while the index is locked, it names the lock (never exit 3); run again
    once both are gone, it finishes: files, index and candidate branch as after any admit."""
    ok(run(memory, *PROPOSE))
    main_before = git(memory, "rev-parse", "main").strip()
    blocker = memory / ".gitmem" / "entries" / "decision"
    blocker.parent.mkdir(parents=True, exist_ok=True)
    blocker.write_text("in the way\n")
    result = run(memory, "admit", first_id())
    assert result.exit_code == 2, result.output
    assert "main moved (admit " in result.output
    assert f"{blocker}: File exists" in result.output
    assert "run the same command again: it finishes the admit" in result.output
    assert git(memory, "rev-parse", "main^1").strip() == main_before
    assert (memory / ".git" / recovery.JOURNAL).exists()
    blocker.unlink()
    lock = memory / ".git" / "index.lock"
    lock.touch()
    locked = run(memory, "admit", first_id())
    assert locked.exit_code == 2, locked.output
    assert f"{lock} exists" in locked.output and "unexpected" not in locked.output
    lock.unlink()
    finished = ok(run(memory, "admit", first_id()))
    assert f"finished updating the checked-out main after admit {first_id()}" in finished.output
    assert f"admitted {first_id()}" in finished.output
    assert git(memory, "status", "--porcelain") == ""
    assert git(memory, "branch", "--list", "gitmem/*") == ""
    log = git(memory, "log", "--first-parent", "--format=%s", "main").splitlines()
    assert log.count(f"gitmem: admit {first_id()}") == 1


@pytest.mark.parametrize("point", ["admit-after-ref", "admit-sync-index", "admit-after-sync"])
def test_admit_interrupted_once_main_moved_says_so_and_finishes_when_run_again(
    memory: Path, monkeypatch: pytest.MonkeyPatch, point: str
) -> None:
    """A Ctrl-C after main moved said only "gitmem: interrupted" (130): the checked-out
    files and staging index stayed at the old main, which `git status` showed as the
    admission undone (its entry deleted, INDEX.md changed), ready to be committed."""
    ok(run(memory, *PROPOSE))

    def interrupt(at: str) -> None:
        if at == point:
            raise KeyboardInterrupt

    monkeypatch.setattr(writing, "fault", interrupt)
    result = run(memory, "admit", first_id())
    assert result.exit_code == 130, result.output
    assert result.output.startswith("gitmem: interrupted: main moved (admit "), result.output
    assert (
        "run the same command again: it finishes the admit (do not commit the memory files"
        in result.output
    )
    monkeypatch.undo()
    finished = ok(run(memory, "admit", first_id()))
    assert f"admitted {first_id()}" in finished.output
    assert git(memory, "status", "--porcelain") == ""
    assert git(memory, "branch", "--list", "gitmem/*") == ""


def test_a_stale_ref_lock_refuses_admit_at_once_and_moves_nothing(memory: Path) -> None:
    """A lock git left on main used to read as "main kept moving: gave up after 20
    attempts"; one on the candidate branch failed its deletion after main had moved. Both
    are named before anything moves."""
    ok(run(memory, *PROPOSE))
    heads = memory / ".git" / "refs" / "heads"
    for lock in (heads / "main.lock", heads / "gitmem" / f"{first_id()}.lock"):
        lock.touch()
        before = snapshot(memory)
        result = run(memory, "admit", first_id())
        assert result.exit_code == 2, result.output
        assert f"rm '{lock}'" in result.output and "kept moving" not in result.output
        lock.unlink()
        assert snapshot(memory) == before
    ok(run(memory, "admit", first_id()))


def test_admit_into_a_read_only_git_directory_says_it_cannot_write(memory: Path) -> None:
    ok(run(memory, *PROPOSE))
    before = snapshot(memory)
    with read_only(memory / ".git") as prefix:
        done = run_gitmem(memory, "admit", first_id(), prefix=prefix)
    assert done.returncode == 2, done.stderr
    assert f"cannot write {memory / '.git' / recovery.LOCK}: " in done.stderr
    assert "unexpected" not in done.stderr
    assert snapshot(memory) == before


TOKEN = github_token(41)


def _fix_up(repo: Path, entry_id: str, token_in: str) -> tuple[str, str]:
    """Two commits on a proposed candidate's branch, as a pull request's fix-up leaves them:
    one that puts TOKEN in the candidate's file ("file") or in its own message ("message"),
    then one that takes it out again; the tip's file is the proposed one. Returns the first
    commit's id and the branch's tip."""
    git(repo, "checkout", "-q", f"gitmem/{entry_id}")
    path = repo / f".gitmem/candidates/{entry_id}.md"
    proposed = path.read_text()
    if token_in == "file":
        path.write_text(proposed.replace("A profile of", f"A profile ({TOKEN}) of"))
        git(repo, "commit", "-q", "--no-verify", "-am", "evidence")
    else:
        path.write_text(proposed.replace("A profile of", "A timed profile of"))
        git(repo, "commit", "-q", "--no-verify", "-am", f"evidence, token {TOKEN}")
    first = git(repo, "rev-parse", "HEAD").strip()
    path.write_text(proposed)
    git(repo, "commit", "-q", "--no-verify", "-am", "fix-up: as proposed")
    tip = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-q", "main")
    return first, tip


@pytest.mark.parametrize("token_in", ["file", "message"])
def test_a_secret_a_fix_up_removed_from_the_candidate_branch_refuses_it_before_main_moves(
    memory: Path, token_in: str
) -> None:
    """The admit merge brings the branch's whole history into main, and pre-push and the
    server scan every commit it brings: a token one commit added and a later one removed
    made a main that could not be pushed, its candidate branch deleted. The candidate is
    refused instead, by the gate's own rule line, main unmoved, the branch kept; a reviewer
    who allows the finding admits it into a main the history judge accepts."""
    ok(run(memory, *PROPOSE))
    entry_id = first_id()
    first, tip = _fix_up(memory, entry_id, token_in)
    where = f".gitmem/candidates/{entry_id}.md:" if token_in == "file" else "commit "
    listing = ok(run(memory, "candidates")).output
    assert f"{entry_id}  1 problem(s)" in listing, listing
    assert "SECRET github-pat: GitHub personal access token" in listing
    assert f"in commit {first[:12]}: rewrite the commits without it" in listing
    assert f"drop it from gitmem/{entry_id} (git rebase -i main gitmem/{entry_id})" in listing
    assert where in listing and TOKEN not in listing
    before = snapshot(memory)
    refused = run(memory, "admit", entry_id, "--by", "human:reviewer")
    assert refused.exit_code == 1, refused.output
    assert "the candidate breaks 1 rule(s)" in refused.output
    assert "SECRET github-pat" in refused.output and first[:12] in refused.output
    assert snapshot(memory) == before  # main unmoved, the branch kept

    if token_in == "file":  # a finding the admit merge's allowed.md row allows in that file
        from gitmem.gate import secrets

        fingerprint = secrets.fingerprint("github-pat", TOKEN.encode())
        main_before = git(memory, "rev-parse", "main").strip()
        ok(run(memory, "admit", entry_id, "--by", "human:reviewer", "--allow", fingerprint))
        assert git(memory, "rev-parse", "main^2").strip() == tip
        checked = ok(run(memory, "check", "--range", f"{main_before}..main"))
        assert checked.output.endswith("no problems\n"), checked.output
    else:  # a message no allowed.md row speaks for: the commit is dropped from the branch
        git(memory, "branch", "-f", f"gitmem/{entry_id}", f"{first}^")
        ok(run(memory, "admit", entry_id, "--by", "human:reviewer"))


def test_a_secret_in_the_candidates_file_is_reported_once(memory: Path) -> None:
    """The tip's file is judged by the file rules; the history judge does not scan the same
    bytes again, so one finding is one line."""
    ok(run(memory, *PROPOSE))
    path = memory / f".gitmem/candidates/{first_id()}.md"
    git(memory, "checkout", "-q", f"gitmem/{first_id()}")
    path.write_text(path.read_text().replace("A profile of", f"A profile ({TOKEN}) of"))
    git(memory, "commit", "-q", "--no-verify", "-am", "evidence")
    git(memory, "checkout", "-q", "main")
    listing = ok(run(memory, "candidates")).output
    assert listing.count(" SECRET ") == 1, listing


def test_admits_run_at_once_in_one_checkout_all_land(memory: Path) -> None:
    """Four admits started together in the checkout that has main: each waits for its turn
    and lands. Before the turn, one in two such rounds had an admit fail, seeing another's
    half-synced files as "uncommitted changes", or finishing and removing its journal."""
    titles = ["Topic alpha here", "Topic beta here", "Topic gamma here", "Topic delta here"]
    for _ in range(3):
        ids = [ok(run(memory, *PROPOSE[:4], t, *PROPOSE[5:])).output.split()[1] for t in titles]
        admits = [
            subprocess.Popen(
                [sys.executable, "-m", "gitmem", "admit", entry],
                cwd=memory,
                text=True,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
            )
            for entry in ids
        ]
        outputs = [admit.communicate()[0] for admit in admits]
        assert [admit.returncode for admit in admits] == [0] * 4, outputs
        assert git(memory, "status", "--porcelain") == ""
        assert git(memory, "branch", "--list", "gitmem/*") == ""
        for entry in ids:
            assert (memory / f".gitmem/entries/decision/{entry}.md").is_file()
        titles = [f"{title} again" for title in titles]
    ok(run(memory, "index", "--check"))


def test_a_checkout_whose_settings_put_the_memory_elsewhere_writes_nothing_to_main(
    repo: Path,
) -> None:
    """On a branch made before `gitmem init --dir mem` (no settings file), the commands that
    write main took memory.dir from the checkout: the admission landed in a second folder,
    .gitmem/, that list, recall and the gates never read, and the candidate branch went."""
    git(repo, "branch", "old-feature")
    ok(run(repo, "init", "--dir", "mem"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "gitmem init")
    ok(run(repo, *PROPOSE))
    git(repo, "checkout", "-q", "old-feature")
    main_before = git(repo, "rev-parse", "main").strip()
    for command in (PROPOSE, ["admit", first_id()], ["refuse", first_id(), "--reason", "no"]):
        result = run(repo, *command)
        assert result.exit_code == 2, result.output
        assert "memory.dir is '.gitmem' in this checkout's settings" in result.output
        assert "main commits 'mem'" in result.output
    assert git(repo, "rev-parse", "main").strip() == main_before
    git(repo, "checkout", "-q", "main")
    ok(run(repo, "admit", first_id()))
    assert first_id() in ok(run(repo, "list")).output
    assert not git(repo, "ls-tree", "-r", "--name-only", "main", ".gitmem")


@pytest.mark.parametrize("command", [["admit"], ["refuse", "--reason", "not needed"]])
def test_push_without_the_remote_is_refused_before_main_moves(
    memory: Path, command: list[str]
) -> None:
    """`--push` in a repository without origin landed the admission (or refusal), then failed
    on git's "'origin' does not appear to be a git repository", saying nothing of main having
    moved; the candidate branch and an unfinished landing were left behind."""
    ok(run(memory, *PROPOSE))
    main_before = git(memory, "rev-parse", "main")
    result = run(memory, command[0], first_id(), *command[1:], "--push")
    assert result.exit_code == 2, result.output
    assert result.output == (
        "gitmem: --push: this repository has no remote to push main to: add one (git remote "
        "add origin URL), or leave --push out and push main yourself; nothing was changed\n"
    )
    assert git(memory, "rev-parse", "main") == main_before
    assert [c.id for c in candidates.pending(open_workspace(memory))] == [first_id()]


def test_an_admitter_that_is_not_one_visible_line_is_refused_before_main_moves(
    memory: Path,
) -> None:
    """`--by` with a line end forged a second Gitmem-Admitted-By trailer on main and wrote
    an admitted_by the schema refuses; a right-to-left override landed unchecked."""
    ok(run(memory, *PROPOSE))
    main_before = git(memory, "rev-parse", "main").strip()
    for by in ("human:bob\nGitmem-Admitted-By: human:eve", "human:bo\u202eb", "human: bob"):
        result = run(memory, "admit", first_id(), "--by", by)
        assert result.exit_code == 1, result.output
        assert "is not an admitter: one line of visible characters" in result.output
    assert git(memory, "rev-parse", "main").strip() == main_before
    ok(run(memory, "admit", first_id(), "--by", "human:bob smith"))


@pytest.mark.parametrize("where", ["file", "variable"])
def test_the_users_own_settings_do_not_loosen_the_rules_an_admission_is_judged_by(
    memory: Path, isolated_env: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """`maxBody = 100000` in the user's own config.toml (or GITMEM_MAX_BODY) let propose and
    admit merge a body over the limit main commits: a main the server and CI, which never
    read a person's settings, then refused."""
    entry_id = _a_candidate_over_the_limit(memory)
    if where == "file":
        (isolated_env / "gitmem").mkdir()
        (isolated_env / "gitmem/config.toml").write_text("[memory]\nmaxBody = 100000\n")
    else:
        monkeypatch.setenv("GITMEM_MAX_BODY", "100000")
    main_before = git(memory, "rev-parse", "main").strip()
    result = run(memory, "admit", entry_id)
    assert result.exit_code == 2, result.output
    assert "memory.maxBody is 100000 in your own settings" in result.output
    assert "config.toml or GITMEM_MAX_BODY" in result.output
    assert "main commits, 2000" in result.output
    assert git(memory, "rev-parse", "main").strip() == main_before


def test_an_untracked_file_where_the_entry_lands_is_named_as_untracked(memory: Path) -> None:
    """A file git does not track at the path an admission writes (made by hand, or a memory
    folder never committed): admit said it "has uncommitted changes: commit or stash them",
    and `git stash` leaves an untracked file where it is. It says the file is untracked now,
    and to move it away; the file and main are left as they were."""
    ok(run(memory, *PROPOSE))
    path = memory / f".gitmem/entries/decision/{first_id()}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("my own notes\n")
    tip = git(memory, "rev-parse", "main")
    done = run_gitmem(memory, "admit", first_id())
    assert done.returncode == 2, done.stderr  # a file in the way, not a rule: exit 2
    assert f"{first_id()}.md is a file git does not track" in done.stderr
    assert "move it away or remove it" in done.stderr and "stash" not in done.stderr
    assert path.read_text() == "my own notes\n" and git(memory, "rev-parse", "main") == tip
    path.unlink()
    ok(run(memory, "admit", first_id()))


def test_an_index_git_cannot_read_is_named_with_the_command_that_read_it(memory: Path) -> None:
    """git's failure on a staging index it cannot read was said as "git --literal-pathspecs
    failed", an option taken for the command, and said nothing of what to do."""
    entry_id = proposed(ok(run(memory, *PROPOSE)).output)
    (memory / ".git" / "index").write_bytes(b"garbage")
    done = run_gitmem(memory, "admit", entry_id)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "git ls-files failed" in done.stderr and "--literal-pathspecs" not in done.stderr
    assert "then run the command again" in done.stderr


def _a_candidate_over_the_limit(memory: Path) -> str:
    """Propose an entry, then lengthen its body on its branch past the default maxBody."""
    entry_id = first_id()
    ok(run(memory, *PROPOSE))
    git(memory, "checkout", "-q", f"gitmem/{entry_id}")
    path = memory / f".gitmem/candidates/{entry_id}.md"
    path.write_text(path.read_text().replace("## Evidence\n", "## Evidence\n" + "word " * 600))
    git(memory, "commit", "-q", "-am", "more evidence")
    git(memory, "checkout", "-q", "main")
    return entry_id


def test_admit_and_refuse_push_never_delete_commits_pushed_to_the_candidate_since(
    memory: Path, tmp_path: Path
) -> None:
    """The reviewer's clone fetched the candidate; its author then pushed a fix to it. `admit
    --push` (and `refuse --push`) deleted the remote branch with the fix on it, unseen, and
    admitted the older tip. Refused now before main moves; once fetched, it lands."""
    server = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(server))
    connect(memory, server)
    ok(run(memory, *PROPOSE, "--push"))
    branch = f"gitmem/{first_id()}"
    reviewer = tmp_path / "reviewer"
    git(tmp_path, "clone", "-q", str(server), str(reviewer))
    git(memory, "checkout", "-q", branch)
    path = memory / f".gitmem/candidates/{first_id()}.md"
    path.write_text(path.read_text().replace("Read objects", "Read all objects"))
    git(memory, "commit", "-q", "-am", "fix asked for in review")
    git(memory, "push", "-q", "origin", branch)
    git(memory, "checkout", "-q", "main")
    fixed = git(server, "rev-parse", branch).strip()
    main_before = git(reviewer, "rev-parse", "main").strip()
    for command in (["admit", first_id()], ["refuse", first_id(), "--reason", "no"]):
        result = run(reviewer, *command, "--push")
        assert result.exit_code == 1, result.output
        assert f"{branch} on origin is at {fixed[:12]}" in result.output
        assert git(server, "rev-parse", branch).strip() == fixed
        assert git(reviewer, "rev-parse", "main").strip() == main_before
    git(reviewer, "fetch", "-q")
    ok(run(reviewer, "admit", first_id(), "--push"))
    assert git(server, "branch", "--list", branch) == ""
    entry = git(server, "show", f"main:.gitmem/entries/decision/{first_id()}.md")
    assert "Read all objects" in entry


def test_pushing_an_admission_made_before_never_deletes_commits_pushed_since(
    memory: Path, tmp_path: Path
) -> None:
    """`gitmem admit ID --push` after an admission made without --push pushes it (resume):
    it deleted the remote's candidate branch whatever it held, a fix its author pushed
    after the admission among it. Refused now; main is pushed alone, by hand."""
    server = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(server))
    connect(memory, server)
    ok(run(memory, *PROPOSE, "--push"))
    branch = f"gitmem/{first_id()}"
    reviewer = tmp_path / "reviewer"
    git(tmp_path, "clone", "-q", str(server), str(reviewer))
    ok(run(reviewer, "admit", first_id()))
    git(memory, "checkout", "-q", branch)
    path = memory / f".gitmem/candidates/{first_id()}.md"
    path.write_text(path.read_text().replace("Read objects", "Read all objects"))
    git(memory, "commit", "-q", "-am", "a fix pushed after the admission")
    git(memory, "push", "-q", "origin", branch)
    fixed = git(server, "rev-parse", branch).strip()
    result = run(reviewer, "admit", first_id(), "--push")
    assert result.exit_code == 1, result.output
    assert f"{branch} on origin is at {fixed[:12]}" in result.output
    assert "main holds the admit already: push it alone (git push origin main)" in result.output
    assert git(server, "rev-parse", branch).strip() == fixed
    assert git(server, "rev-parse", "main") != git(reviewer, "rev-parse", "main")
    # without the fix pushed, the same command pushes main and closes the branch
    git(memory, "push", "-q", "-f", "origin", f"{branch}~1:refs/heads/{branch}")
    ok(run(reviewer, "admit", first_id(), "--push"))
    assert git(server, "rev-parse", "main") == git(reviewer, "rev-parse", "main")
    assert git(server, "branch", "--list", branch) == ""


def test_catching_up_never_moves_main_under_another_worktrees_checkout(
    memory: Path, tmp_path: Path
) -> None:
    """`admit --push` first fast-forwards main to origin's (catch_up), and only the landing
    after it refused to move main while another worktree has it checked out: by then main had
    moved under that worktree, whose status showed origin's new commits undone (staged)."""
    server = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(server))
    connect(memory, server)
    ok(run(memory, *PROPOSE, "--push"))
    teammate = tmp_path / "teammate"
    git(tmp_path, "clone", "-q", str(server), str(teammate))
    (teammate / "more.txt").write_text("more\n")
    git(teammate, "add", "more.txt")
    git(teammate, "commit", "-q", "-m", "more")
    git(teammate, "push", "-q", "origin", "main")
    linked = tmp_path / "linked"
    git(memory, "worktree", "add", "-q", "-b", "side", str(linked))
    main_before = git(memory, "rev-parse", "main")
    for command in (["admit", first_id()], ["refuse", first_id(), "--reason", "no"]):
        result = run(linked, *command, "--push")
        assert result.exit_code == 2, result.output
        assert f"main is checked out in the worktree at {memory}" in result.output
        assert git(memory, "rev-parse", "main") == main_before
        assert git(memory, "status", "--porcelain") == ""


def test_after_an_admission_git_plumbing_sees_a_clean_checkout(memory: Path) -> None:
    """The index entries a landing moves were written without the files' stat data: until
    something refreshed the whole index, `git diff-index --quiet HEAD` (what build scripts
    ask before stamping a version) said the checkout was dirty, and `git diff-files` listed
    INDEX.md and the entry."""
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    assert git(memory, "diff-files", "--name-only") == ""
    quiet = subprocess.run(["git", "diff-index", "--quiet", "HEAD", "--"], cwd=memory)
    assert quiet.returncode == 0
    other = proposed(ok(run(memory, *HOOKS)).output)
    ok(run(memory, "refuse", other, "--reason", "not now"))
    assert git(memory, "diff-files", "--name-only") == ""


def test_expect_is_held_to_an_admission_made_before_as_well(memory: Path, tmp_path: Path) -> None:
    """`gitmem admit ID --expect REVIEWED --push` where main's tip is an admission of ID
    already (made without --expect, of commits pushed after the review) took it for this
    very command run again: it pushed it and said "admitted", the reviewed commit aside."""
    server = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(server))
    connect(memory, server)
    ok(run(memory, *PROPOSE))
    reviewed = git(memory, "rev-parse", f"gitmem/{first_id()}").strip()
    git(memory, "checkout", "-q", f"gitmem/{first_id()}")
    path = memory / f".gitmem/candidates/{first_id()}.md"
    path.write_text(path.read_text().replace("Read objects", "Read all objects"))
    git(memory, "commit", "-q", "-am", "edit after review")
    moved = git(memory, "rev-parse", "HEAD").strip()
    git(memory, "checkout", "-q", "main")
    ok(run(memory, "admit", first_id()))
    server_main = git(server, "rev-parse", "main")
    result = run(memory, "admit", first_id(), "--expect", reviewed, "--push")
    assert result.exit_code == 1, result.output
    assert f"main holds the admit {first_id()} already, of {moved[:12]}" in result.output
    assert git(server, "rev-parse", "main") == server_main
    ok(run(memory, "admit", first_id(), "--expect", moved, "--push"))
    assert git(server, "rev-parse", "main") == git(memory, "rev-parse", "main")


def test_a_refused_push_says_why_each_ref_was_refused(memory: Path, tmp_path: Path) -> None:
    """gitmem pushes with --porcelain, which puts each ref's reason on standard output, and
    the error quoted standard error alone: a lease that failed (the candidate branch moved
    as main was pushed) read "atomic push failed for ref … status: 7"."""
    server = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(server))
    connect(memory, server)
    ok(run(memory, *PROPOSE, "--push"))
    ref = f"refs/heads/gitmem/{first_id()}"
    store = open_workspace(memory).store
    with pytest.raises(writing.GitmemError) as refused:
        writing.push_refs(
            store, "origin", ["refs/heads/main:refs/heads/main", f":{ref}"],
            [f"--force-with-lease={ref}:{'1' * 40}"],
        )  # fmt: skip
    assert f"{ref}: [rejected] (stale info)" in refused.value.message
    assert git(server, "rev-parse", ref).strip() == git(memory, "rev-parse", ref).strip()


# ---------------------------------------------------------------------------------------------
# which remote main is pushed to


def bare(tmp_path: Path, name: str) -> Path:
    """A bare repository without hooks: a remote that only receives."""
    path = tmp_path / f"{name}.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(path))
    return path


@pytest.mark.parametrize("command", [["admit"], ["refuse", "--reason", "not now"]])
def test_push_goes_to_the_remote_git_pushes_main_to(
    memory: Path, tmp_path: Path, command: list[str]
) -> None:
    """A reviewer's clone made with `git clone -o upstream` has no origin: `admit --push`
    and `refuse --push` said "there is no remote named origin", where `git push` pushes
    main to the only remote there is. With an origin beside it (a fork, say) while main
    tracks upstream, they pushed main to origin, not to the remote the candidate came from
    and main is pulled from. Both now push where `git push` pushes main."""
    server = make_server(tmp_path)
    connect(memory, server)
    ok(run(memory, *PROPOSE, "--push"))
    other = proposed(ok(run(memory, *HOOKS, "--push")).output)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "-o", "upstream", str(server), str(clone))

    done = run_gitmem(clone, command[0], first_id(), *command[1:], "--push")
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith("pushed\n")
    assert git(server, "rev-parse", "main") == git(clone, "rev-parse", "main")
    assert git(server, "branch", "--list", "gitmem/*").split() == [f"gitmem/{other}"]

    fork = bare(tmp_path, "fork")
    git(clone, "remote", "add", "origin", str(fork))
    assert git(clone, "config", "branch.main.remote") == "upstream\n"
    done = run_gitmem(clone, command[0], other, *command[1:], "--push")
    assert done.returncode == 0, done.stderr
    assert git(server, "rev-parse", "main") == git(clone, "rev-parse", "main")
    assert git(server, "branch", "--list", "gitmem/*") == ""
    assert git(fork, "for-each-ref") == ""


def test_push_default_push_remote_and_remote_choose_where_main_goes(
    memory: Path, tmp_path: Path
) -> None:
    """remote.pushDefault sends main to the fork it names, as `git push` does, though main
    tracks upstream; branch.main.pushRemote overrides it, and `--remote NAME` both; main
    catches up with that same remote first. A name no remote has, given or set, and several
    remotes none of them origin with nothing chosen, are usage errors said before main
    moves, listing the remotes there are."""
    server = make_server(tmp_path)
    connect(memory, server)
    third = [*PROPOSE]
    third[third.index("--title") + 1] = "Read refs with pygit2"
    ids = [proposed(ok(run(memory, *args, "--push")).output) for args in (PROPOSE, HOOKS, third)]
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "-o", "upstream", str(server), str(clone))
    fork = bare(tmp_path, "fork")
    git(clone, "remote", "add", "fork", str(fork))
    main_before = git(clone, "rev-parse", "main").strip()

    wrong = run(clone, "admit", ids[0], "--remote", "origin", "--push")
    assert (wrong.exit_code, wrong.output) == (
        2,
        "gitmem: --remote origin: there is no remote named 'origin' (the remotes here: fork, "
        "upstream): give one of those, or add it (git remote add origin URL)\n",
    )
    git(clone, "config", "remote.pushDefault", "frok")
    typo = run(clone, "admit", ids[0], "--push")
    assert (typo.exit_code, typo.output) == (
        2,
        "gitmem: remote.pushDefault is 'frok', which is no remote here (the remotes: fork, "
        "upstream): fix the setting (git config remote.pushDefault NAME), or give --remote "
        "NAME\n",
    )
    git(clone, "config", "--unset", "remote.pushDefault")
    git(clone, "branch", "--unset-upstream", "main")
    unsure = run(clone, "refuse", ids[0], "--reason", "no", "--push")
    assert (unsure.exit_code, unsure.output) == (
        2,
        "gitmem: which remote gets main? The remotes here are fork, upstream, none of them "
        "origin, and none of branch.main.pushRemote, remote.pushDefault, branch.main.remote "
        "is set: give --remote NAME, or set main's upstream (git branch --set-upstream-to "
        "NAME/main main)\n",
    )
    alone = run(clone, "admit", ids[0], "--remote", "fork")
    assert alone.exit_code == 2 and "--remote goes with --push" in alone.output
    assert git(clone, "rev-parse", "main").strip() == main_before

    git(clone, "branch", "--set-upstream-to", "upstream/main", "main")
    git(clone, "config", "remote.pushDefault", "fork")
    ok(run(clone, "admit", ids[0], "--push"))
    assert git(fork, "rev-parse", "main") == git(clone, "rev-parse", "main")
    assert git(server, "rev-parse", "main").strip() == main_before

    git(clone, "config", "branch.main.pushRemote", "upstream")
    ok(run(clone, "refuse", ids[1], "--reason", "not now", "--push"))
    refused_on = git(server, "rev-parse", "main")
    assert refused_on == git(clone, "rev-parse", "main")
    # the fork got the admission, so the candidate's branch stays where it was fetched from
    branches = {f"gitmem/{ids[0]}", f"gitmem/{ids[2]}"}
    assert set(git(server, "branch", "--list", "gitmem/*").split()) == branches

    # main put back behind both remotes: it catches up with upstream, where it goes, and
    # not with the fork (whose main upstream lacks), and the admission lands there
    git(clone, "reset", "-q", "--hard", main_before)
    ok(run(clone, "admit", ids[2], "--push"))
    assert git(clone, "rev-parse", "main^1") == refused_on
    assert git(server, "rev-parse", "main") == git(clone, "rev-parse", "main")
    assert git(server, "branch", "--list", "gitmem/*").split() == [f"gitmem/{ids[0]}"]


#: A reference-transaction hook that moves the server's folder away once main has moved here:
#: the remote becomes unreachable between the landing and its push.
_UNPLUG = """#!/bin/sh
[ "$1" = committed ] || exit 0
if grep -q ' refs/heads/main$'; then mv "{server}" "{server}.away"; fi
exit 0
"""


@pytest.mark.parametrize("first", [True, False], ids=["pushed-again", "finished-first"])
@pytest.mark.parametrize("command", [["admit"], ["refuse", "--reason", "not now"]])
def test_a_push_that_failed_after_the_landing_closes_the_branch_when_run_again(
    memory: Path, tmp_path: Path, command: list[str], first: bool
) -> None:
    """admit --push lands, then the remote cannot be reached: main moved here, nothing was
    pushed. Running the command again once the remote is back (with --push at once, or
    without it first) pushed main, but the candidate's branch on the remote stayed for
    good: finishing the landing deleted the remote-tracking branch, the only sign here
    that the remote held one. It is kept now, as a landing without --push keeps it. The
    failure said only git's "does not appear to be a git repository"; it now says main moved
    here and that running the command again finishes it."""
    server = make_server(tmp_path)
    connect(memory, server)
    entry_id = proposed(ok(run(memory, *PROPOSE, "--push")).output)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "-o", "upstream", str(server), str(clone))
    hook = clone / ".git" / "hooks" / "reference-transaction"
    hook.write_text(_UNPLUG.format(server=server))
    hook.chmod(0o755)

    failed = run_gitmem(clone, command[0], entry_id, *command[1:], "--push")
    assert failed.returncode == 1 and "Traceback" not in failed.stderr, failed.stderr
    assert failed.stderr.startswith(f"gitmem: main moved here ({command[0]} {entry_id}, commit "), (
        failed.stderr
    )
    assert "but the push did not go through: git push to upstream was refused:" in failed.stderr
    assert failed.stderr.endswith(
        "once upstream can take it, run the same command again: it pushes main and deletes "
        "the candidate's branch on upstream\n"
    ), failed.stderr
    assert (tmp_path / "server.git.away").is_dir()
    landed = git(clone, "rev-parse", "main")
    assert git(server.with_name("server.git.away"), "rev-parse", "main") != landed
    hook.unlink()
    (tmp_path / "server.git.away").rename(server)

    if not first:
        again = run_gitmem(clone, command[0], entry_id, *command[1:])
        assert again.returncode == 0, again.stderr
        assert git(clone, "branch", "-r", "--list", f"upstream/gitmem/{entry_id}") != ""
    done = run_gitmem(clone, command[0], entry_id, *command[1:], "--push")
    assert done.returncode == 0, done.stderr
    assert git(server, "rev-parse", "main") == landed
    assert git(server, "branch", "--list", f"gitmem/{entry_id}") == ""
    assert git(clone, "branch", "-r", "--list", f"upstream/gitmem/{entry_id}") == ""


#: A reference-transaction hook that, once main has moved here, has another clone ({other})
#: push its main first: the push after the landing is refused as a non-fast-forward. It acts
#: once (it removes itself).
_OVERTAKE = """#!/bin/sh
[ "$1" = committed ] || exit 0
if grep -q ' refs/heads/main$'; then
  rm -f "$0"
  git --git-dir="{other}/.git" --work-tree="{other}" push -q origin main >/dev/null 2>&1
fi
exit 0
"""


def _another_clone(tmp_path: Path, server: Path) -> Path:
    """A clone of server with one commit of its own on main (outside the memory), not
    pushed."""
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(server), str(other))
    (other / "NOTES.md").write_text("notes\n")
    git(other, "add", "NOTES.md")
    git(other, "commit", "-q", "-m", "notes")
    return other


def _overtaken_by(repo: Path, tmp_path: Path, server: Path) -> str:
    """A clone of server with one commit on main (outside the memory), pushed by repo's
    reference-transaction hook the moment the landing moves repo's main; returns it."""
    other = _another_clone(tmp_path, server)
    hook = repo / ".git" / "hooks" / "reference-transaction"
    hook.write_text(_OVERTAKE.format(other=other))
    hook.chmod(0o755)
    return git(other, "rev-parse", "main").strip()


@pytest.mark.parametrize("command", [["admit"], ["refuse", "--reason", "not now"]])
def test_a_push_refused_as_main_moved_on_the_remote_is_made_again_on_it_when_run_again(
    memory: Path, tmp_path: Path, command: list[str]
) -> None:
    """Another clone pushed main between this one's catch-up and its push: the push after
    the landing was refused (non-fast-forward), and the first run said to run the command
    again, which pushed the same commit and was refused the same way, for good, with git's
    "integrate the remote changes" as the only advice. The run again now undoes the landing
    here (never pushed), catches up with the remote and lands on its main, as a first run
    does: the other clone's commit is kept, the candidate's branch deleted there."""
    server = make_server(tmp_path)
    connect(memory, server)
    entry_id = proposed(ok(run(memory, *PROPOSE, "--push")).output)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "-o", "upstream", str(server), str(clone))
    theirs = _overtaken_by(clone, tmp_path, server)

    failed = run_gitmem(clone, command[0], entry_id, *command[1:], "--push")
    assert failed.returncode == 1 and "Traceback" not in failed.stderr, failed.stderr
    assert f"gitmem: main moved here ({command[0]} {entry_id}, commit " in failed.stderr
    assert "refs/heads/main: [rejected] (fetch first)" in failed.stderr
    assert git(server, "rev-parse", "main").strip() == theirs

    done = run_gitmem(clone, command[0], entry_id, *command[1:], "--push")
    assert done.returncode == 0, done.stderr
    assert (
        f"gitmem: main on upstream moved since the {command[0]} {entry_id} was made here: "
        "it is made again on upstream's main\n"
    ) in done.stderr
    landed = git(clone, "rev-parse", "main").strip()
    assert git(server, "rev-parse", "main").strip() == landed
    assert git(clone, "rev-parse", "main^1").strip() == theirs
    assert (
        git(clone, "log", "-1", "--format=%s", "main").strip() == f"gitmem: {command[0]} {entry_id}"
    )
    assert git(server, "branch", "--list", f"gitmem/{entry_id}") == ""
    assert git(clone, "status", "--porcelain") == ""


@pytest.mark.parametrize("command", [["admit"], ["refuse", "--reason", "not now"]])
def test_what_you_staged_stays_staged_when_a_landing_is_made_again_on_the_remotes_main(
    memory: Path, tmp_path: Path, command: list[str]
) -> None:
    """As above, with changes staged outside the memory (a new file, an edit to a tracked
    one) when the command is run again: the landing here is undone and made again on the
    remote's main, and what was staged stays staged, the files as they were, as `git
    checkout` keeps them."""
    server = make_server(tmp_path)
    connect(memory, server)
    entry_id = proposed(ok(run(memory, *PROPOSE, "--push")).output)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "-o", "upstream", str(server), str(clone))
    theirs = _overtaken_by(clone, tmp_path, server)
    assert run_gitmem(clone, command[0], entry_id, *command[1:], "--push").returncode == 1
    (clone / "notes.txt").write_text("staged\n")
    readme = (clone / "README.md").read_text() + "mine\n"
    (clone / "README.md").write_text(readme)
    git(clone, "add", "notes.txt", "README.md")

    done = run_gitmem(clone, command[0], entry_id, *command[1:], "--push")
    assert done.returncode == 0, done.stderr
    assert git(clone, "rev-parse", "main^1").strip() == theirs
    assert git(server, "rev-parse", "main").strip() == git(clone, "rev-parse", "main").strip()
    staged = git(clone, "diff", "--cached", "--name-only").splitlines()
    assert staged == ["README.md", "notes.txt"], staged
    assert git(clone, "diff", "--name-only") == ""
    assert (clone / "notes.txt").read_text() == "staged\n"
    assert (clone / "README.md").read_text() == readme
    assert (clone / "NOTES.md").read_text() == "notes\n"  # the remote's commit came along


def test_an_admission_whose_local_branch_the_landing_deleted_is_made_again_from_its_commit(
    memory: Path, tmp_path: Path
) -> None:
    """A candidate never pushed, admitted with --push while another clone pushed main: the
    landing deleted its branch here (finishing it, run without --push), so the admission
    commit alone holds the candidate. The run again with --push makes the branch again at
    the commit admitted before it undoes the landing, and lands it on the remote's main."""
    server = make_server(tmp_path)
    connect(memory, server)
    entry_id = proposed(ok(run(memory, *PROPOSE)).output)
    candidate = git(memory, "rev-parse", f"gitmem/{entry_id}").strip()
    theirs = _overtaken_by(memory, tmp_path, server)

    assert run_gitmem(memory, "admit", entry_id, "--push").returncode == 1
    ok(run(memory, "admit", entry_id))
    assert git(memory, "branch", "--list", f"gitmem/{entry_id}") == ""

    ok(run(memory, "admit", entry_id, "--push"))
    assert git(server, "rev-parse", "main") == git(memory, "rev-parse", "main")
    assert git(memory, "rev-parse", "main^1").strip() == theirs
    assert git(memory, "rev-parse", "main^2").strip() == candidate
    assert git(memory, "branch", "--list", f"gitmem/{entry_id}") == ""


@pytest.mark.parametrize("command", [["admit"], ["refuse", "--reason", "not now"]])
def test_a_landing_on_commits_the_remote_lacks_says_how_to_reconcile_when_main_moved_there(
    memory: Path, tmp_path: Path, command: list[str]
) -> None:
    """main here held a commit of its own, not pushed, when the landing was made on it, and
    another clone admitted another candidate meanwhile: the landing cannot be made again on
    the remote's main without dropping that commit. The run again changes nothing and names
    the git commands that undo the landing and bring main up to the remote's; following
    them, the same command run again lands and pushes, the server's main never rewritten.
    They said `git pull --no-rebase`, which conflicted on INDEX.md, and whose merge the
    server's gate refuses: it brings the other admission through a second parent."""
    server = make_server(tmp_path)
    connect(memory, server)
    entry_id = proposed(ok(run(memory, *PROPOSE, "--push")).output)
    another = proposed(ok(run(memory, *HOOKS, "--push")).output)
    _commit_of_my_own(memory)
    other = _another_clone(tmp_path, server)
    args = f"admit {another} --push"
    _beaten_by(memory, other, args)
    verb, rest = command[0], command[1:]
    assert run_gitmem(memory, verb, entry_id, *rest, "--push").returncode == 1
    theirs = git(server, "rev-parse", "main").strip()
    landed = git(memory, "rev-parse", "main").strip()

    again = run_gitmem(memory, verb, entry_id, *rest, "--push")
    assert again.returncode == 1 and "Traceback" not in again.stderr, again.stderr
    assert again.stderr == (
        f"gitmem: main on origin moved since the {verb} {entry_id} was made here "
        f"(commit {landed[:12]}, not pushed), and it cannot be made again on origin's main: "
        f"it is on top of commits of its own origin does not have. Undo it (git reset --keep "
        f"HEAD~1 with main checked out, or git branch -f main main~1), bring main up to "
        f"origin's (git pull --rebase origin main: a merge would bring origin's memory "
        f"through a second parent, which the gates refuse), then run the command again\n"
    )
    assert git(memory, "rev-parse", "main").strip() == landed
    assert git(server, "rev-parse", "main").strip() == theirs

    git(memory, "reset", "-q", "--keep", "HEAD~1")
    git(memory, "pull", "-q", "--rebase", "origin", "main")
    done = run_gitmem(memory, verb, entry_id, *rest, "--push")
    assert done.returncode == 0, done.stderr
    git(server, "merge-base", "--is-ancestor", theirs, "main")  # never rewritten
    subjects = git(server, "log", "--format=%s", "main").splitlines()
    assert subjects[0] == f"gitmem: {verb} {entry_id}"
    assert subjects.count(f"gitmem: admit {another}") == 1 and "mine" in subjects
    assert git(server, "branch", "--list", f"gitmem/{entry_id}") == ""


@pytest.mark.parametrize("how", ["killed-after-the-push", "pushed-by-hand", "a-file-in-the-way"])
@pytest.mark.parametrize("command", [["admit"], ["refuse", "--reason", "not now"]])
def test_a_landing_the_remote_holds_already_is_not_pushed_again_once_main_moved_on_there(
    memory: Path, tmp_path: Path, command: list[str], how: str
) -> None:
    """main went to the remote with the landing (a run killed once its push was made, or
    main pushed by hand), and another clone pushed main since. The run again pushed this
    clone's older main, refused as a non-fast-forward, every time, and the candidate's
    branch pushed by hand stayed on the remote. Now main is not pushed again: the
    candidate's branch is deleted on the remote if it is still there, main here is
    fast-forwarded to the remote's, and the output says so; where a file here is in the way
    of the fast-forward (one git does not track, where the remote's main has one), main is
    left behind and the output says why and how to bring it up."""
    server = make_server(tmp_path)
    connect(memory, server)
    entry_id = proposed(ok(run(memory, *PROPOSE, "--push")).output)
    verb, rest = command[0], command[1:]
    if how == "killed-after-the-push":
        killed_at_fault(memory, f"{verb}-after-close", verb, entry_id, *rest, "--push")
    else:
        assert run_gitmem(memory, verb, entry_id, *rest).returncode == 0
        git(memory, "push", "-q", "origin", "main")
    landed = git(memory, "rev-parse", "main").strip()
    other = _another_clone(tmp_path, server)
    git(other, "push", "-q", "origin", "main")
    theirs = git(other, "rev-parse", "main").strip()

    if how == "a-file-in-the-way":
        (memory / "NOTES.md").write_text("mine\n")
    done = run_gitmem(memory, verb, entry_id, *rest, "--push")
    assert done.returncode == 0, done.stderr
    assert (
        f"gitmem: main on origin holds the {verb} {entry_id} already (commit {landed[:12]}), "
        "and commits pushed since: main was not pushed again\n"
    ) in done.stderr
    deleted = f"gitmem: deleted gitmem/{entry_id} on origin\n"
    assert (deleted in done.stderr) == (how != "killed-after-the-push"), done.stderr
    assert git(server, "rev-parse", "main").strip() == theirs
    assert git(server, "branch", "--list", f"gitmem/{entry_id}") == ""
    assert "pushed" not in done.stdout, done.stdout  # main went there before, not now
    if how == "a-file-in-the-way":
        assert f"gitmem: main here stays at {landed[:12]}, behind origin's: " in done.stderr
        assert "NOTES.md" in done.stderr, done.stderr
        assert "(then: git pull --ff-only origin main)\n" in done.stderr
        assert git(memory, "rev-parse", "main").strip() == landed
        assert (memory / "NOTES.md").read_text() == "mine\n"
        return
    assert f"gitmem: main here fast-forwarded to origin's ({theirs[:12]})\n" in done.stderr
    assert git(memory, "rev-parse", "main").strip() == theirs
    assert git(memory, "branch", "--list", f"gitmem/{entry_id}") == ""
    assert git(memory, "status", "--porcelain") == ""
    assert (memory / "NOTES.md").read_text() == "notes\n"


#: A reference-transaction hook that, once main has moved here, has another clone ({other})
#: run gitmem ({args}) first, as the person at that clone would: it acts once (it removes
#: itself), outside this repository's git environment.
_BEATEN = """#!/bin/sh
[ "$1" = committed ] || exit 0
if grep -q ' refs/heads/main$'; then
  rm -f "$0"
  unset $(git rev-parse --local-env-vars)
  cd "{other}" && "{python}" -m gitmem {args} >/dev/null 2>&1
fi
exit 0
"""


def _beaten_by(repo: Path, other: Path, args: str) -> Path:
    """repo's next landing is overtaken: its reference-transaction hook has the clone other
    run `gitmem ARGS` (a landing pushed first) as repo's main moves. Returns the hook."""
    hook = repo / ".git" / "hooks" / "reference-transaction"
    hook.write_text(_BEATEN.format(other=other, python=sys.executable, args=args))
    hook.chmod(0o755)
    return hook


@pytest.mark.parametrize("by", ["human:bob", "human:alice"])
@pytest.mark.parametrize("command", [["admit"], ["refuse", "--reason", "not now"]])
def test_a_candidate_another_clone_closed_first_is_left_as_it_did_it(
    memory: Path, tmp_path: Path, command: list[str], by: str
) -> None:
    """Two clones admit (or refuse) the same candidate at once, and the other one's push
    goes first: this one's push is refused. Run again, the landing here was undone and made
    again on the remote's main, which ended in "is merged into main already" and left the
    candidate's branch made again here. Now the other clone's stands: the landing here is
    undone, main here is the remote's, no branch of the candidate is left anywhere, and the
    output says whose stands, and whether what was written here differed (another admitter)."""
    server = make_server(tmp_path)
    connect(memory, server)
    entry_id = proposed(ok(run(memory, *PROPOSE, "--push")).output)
    other = _another_clone(tmp_path, server)  # its main differs: so do the two landings
    verb, rest = command[0], command[1:]
    args = " ".join([verb, entry_id, *(f"'{a}'" for a in rest), "--by", by, "--push"])
    hook = _beaten_by(memory, other, args)

    failed = run_gitmem(memory, verb, entry_id, *rest, "--by", "human:alice", "--push")
    assert failed.returncode == 1 and "Traceback" not in failed.stderr, failed.stderr
    assert not hook.exists()
    theirs = git(server, "rev-parse", "main").strip()
    assert git(other, "rev-parse", "main").strip() == theirs

    landed = git(memory, "rev-parse", "main").strip()
    done = run_gitmem(memory, verb, entry_id, *rest, "--by", "human:alice", "--push")
    assert done.returncode == 0, done.stderr
    assert (
        f"gitmem: the {verb} {entry_id} made on origin first (commit {theirs[:12]}) stands: "
        f"the {verb} {entry_id} made here (commit {landed[:12]}, never pushed) is undone, and "
        f"main here is origin's ({theirs[:12]})\n"
    ) in done.stderr
    path = f".gitmem/entries/decision/{entry_id}.md" if verb == "admit" else ".gitmem/refused.md"
    differed = (
        f"gitmem: the {verb} {entry_id} made here differed in {path}: origin's is kept (git "
        f"diff {theirs[:12]} {landed[:12]} -- {path} shows how)\n"
    )
    assert (differed in done.stderr) == (by != "human:alice"), done.stderr
    assert f"{theirs[:12]})\n" in done.stdout
    assert "pushed" not in done.stdout, done.stdout  # the other clone pushed, not this one
    assert git(memory, "rev-parse", "main").strip() == theirs
    assert git(server, "rev-parse", "main").strip() == theirs
    subjects = git(server, "log", "--format=%s", "main").splitlines()
    assert subjects.count(f"gitmem: {verb} {entry_id}") == 1
    assert git(memory, "branch", "--list", f"gitmem/{entry_id}") == ""
    assert git(server, "branch", "--list", f"gitmem/{entry_id}") == ""
    assert git(memory, "status", "--porcelain") == ""
    assert (memory / "NOTES.md").read_text() == "notes\n"


@pytest.mark.parametrize("gated", [True, False], ids=["gated-server", "bare-server"])
@pytest.mark.parametrize("command", [["admit"], ["refuse", "--reason", "not now"]])
def test_a_commit_that_only_says_it_closed_the_candidate_does_not_undo_the_landing(
    memory: Path, tmp_path: Path, command: list[str], gated: bool
) -> None:
    """Another clone pushed first a commit whose subject reads `gitmem: refuse ID` (which
    the server's gate lets through: it holds admit, amend and retire subjects to what they
    say) or, to a server without the gate, `gitmem: admit ID`, but that closes nothing.
    Run again, the landing here was undone as if that commit stood, and the candidate's
    branch deleted here and on the remote: admitted or refused nowhere, the candidate was
    lost, while the output said the other one "stands". Now only a commit that does what it
    says stands; this one is passed over, and the landing is made again on the remote's
    main."""
    if gated:
        server = make_server(tmp_path)
    else:
        server = tmp_path / "server.git"
        git(tmp_path, "init", "-q", "--bare", "-b", "main", str(server))
    connect(memory, server)
    entry_id = proposed(ok(run(memory, *PROPOSE, "--push")).output)
    verb, rest = command[0], command[1:]
    other = _another_clone(tmp_path, server)
    claimed = f"gitmem: {'refuse' if gated else 'admit'} {entry_id}"
    git(other, "commit", "-q", "--amend", "-m", claimed)
    hook = memory / ".git" / "hooks" / "reference-transaction"
    hook.write_text(_OVERTAKE.format(other=other))
    hook.chmod(0o755)
    assert run_gitmem(memory, verb, entry_id, *rest, "--push").returncode == 1
    theirs = git(server, "rev-parse", "main").strip()
    assert git(other, "rev-parse", "main").strip() == theirs

    done = run_gitmem(memory, verb, entry_id, *rest, "--push")
    assert done.returncode == 0, done.stderr
    assert "stands" not in done.stderr, done.stderr
    assert "it is made again on origin's main\n" in done.stderr, done.stderr
    landed = git(server, "rev-parse", "main").strip()
    assert git(memory, "rev-parse", "main").strip() == landed
    assert git(server, "rev-parse", "main^1").strip() == theirs
    assert git(server, "log", "-1", "--format=%s", "main").strip() == f"gitmem: {verb} {entry_id}"
    if verb == "admit":
        entry = git(server, "show", f"main:.gitmem/entries/decision/{entry_id}.md")
        assert "status: admitted\n" in entry
    else:
        assert f"| {entry_id} |" in git(server, "show", "main:.gitmem/refused.md")
    assert git(server, "branch", "--list", f"gitmem/{entry_id}") == ""
    assert git(memory, "status", "--porcelain") == ""


def _commit_of_my_own(repo: Path) -> str:
    (repo / "MINE.md").write_text("mine\n")
    git(repo, "add", "MINE.md")
    git(repo, "commit", "-q", "-m", "mine")
    return git(repo, "rev-parse", "main").strip()


@pytest.mark.parametrize("command", [["admit"], ["refuse", "--reason", "not now"]])
def test_a_landing_never_pushed_under_a_commit_made_since_is_pushed_with_it_when_run_again(
    memory: Path, tmp_path: Path, command: list[str]
) -> None:
    """The push after the landing failed (the remote unreachable), and the user committed on
    main before running the command again, as the failure said. The run again took the
    landing for none, since main's tip is not it, and ended in "is merged into main
    already", naming `git push --delete` of the candidate's branch as all there was left:
    followed, it deleted the branch on the remote while the admission stayed here,
    unpushed. Now main goes to the remote with the landing and the commit on it, and the
    candidate's branch is deleted there."""
    server = make_server(tmp_path)
    connect(memory, server)
    entry_id = proposed(ok(run(memory, *PROPOSE, "--push")).output)
    verb, rest = command[0], command[1:]
    hook = memory / ".git" / "hooks" / "reference-transaction"
    hook.write_text(_UNPLUG.format(server=server))
    hook.chmod(0o755)
    assert run_gitmem(memory, verb, entry_id, *rest, "--push").returncode == 1
    hook.unlink()
    (tmp_path / "server.git.away").rename(server)
    landed = git(memory, "rev-parse", "main").strip()
    mine = _commit_of_my_own(memory)

    done = run_gitmem(memory, verb, entry_id, *rest, "--push")
    assert done.returncode == 0, done.stderr
    assert (
        f"gitmem: main holds the {verb} {entry_id} (commit {landed[:12]}, not pushed before) "
        "under commits of its own: main is pushed to origin with them\n"
    ) in done.stderr
    assert git(server, "rev-parse", "main").strip() == mine
    assert git(memory, "rev-parse", "main").strip() == mine
    assert git(server, "branch", "--list", f"gitmem/{entry_id}") == ""


@pytest.mark.parametrize("command", [["admit"], ["refuse", "--reason", "not now"]])
def test_a_landing_under_a_commit_made_since_says_how_to_reconcile_when_main_moved_there(
    memory: Path, tmp_path: Path, command: list[str]
) -> None:
    """As above, but another clone admitted another candidate between the catch-up and the
    push: the run again changes nothing and names the git commands that drop the landing,
    bring main up to the remote's and have the command run again (it said "is merged into
    main already" and to delete the candidate's branch on the remote, which the remote's
    main does not admit). Followed, the server takes both admissions and the commit."""
    server = make_server(tmp_path)
    connect(memory, server)
    entry_id = proposed(ok(run(memory, *PROPOSE, "--push")).output)
    another = proposed(ok(run(memory, *HOOKS, "--push")).output)
    other = _another_clone(tmp_path, server)
    args = f"admit {another} --push"
    _beaten_by(memory, other, args)
    verb, rest = command[0], command[1:]
    assert run_gitmem(memory, verb, entry_id, *rest, "--push").returncode == 1
    theirs = git(server, "rev-parse", "main").strip()
    landed = git(memory, "rev-parse", "main").strip()
    mine = _commit_of_my_own(memory)

    again = run_gitmem(memory, verb, entry_id, *rest, "--push")
    assert again.returncode == 1 and "Traceback" not in again.stderr, again.stderr
    assert again.stderr == (
        f"gitmem: main on origin moved since the {verb} {entry_id} was made here "
        f"(commit {landed[:12]}, not pushed), and it cannot be made again on origin's main: "
        f"it is under commits of its own. Undo it (git rebase --onto {landed[:12]}~1 "
        f"{landed[:12]} main), bring main up to origin's (git pull --rebase origin main: a "
        f"merge would bring origin's memory through a second parent, which the gates "
        f"refuse), then run the command again\n"
    )
    assert git(memory, "rev-parse", "main").strip() == mine
    assert git(server, "rev-parse", "main").strip() == theirs
    assert git(server, "branch", "--list", f"gitmem/{entry_id}") != ""

    git(memory, "rebase", "-q", "--onto", f"{landed[:12]}~1", landed[:12], "main")
    git(memory, "pull", "-q", "--rebase", "origin", "main")
    done = run_gitmem(memory, verb, entry_id, *rest, "--push")
    assert done.returncode == 0, done.stderr
    git(server, "merge-base", "--is-ancestor", theirs, "main")  # never rewritten
    subjects = git(server, "log", "--format=%s", "main").splitlines()
    assert subjects[0] == f"gitmem: {verb} {entry_id}"
    assert subjects.count(f"gitmem: admit {another}") == 1 and "mine" in subjects
    assert git(server, "branch", "--list", f"gitmem/{entry_id}") == ""


def _closed_first_by_another_clone(
    memory: Path, tmp_path: Path, command: list[str]
) -> tuple[str, Path, str]:
    """A candidate pushed, then closed by command (`admit` or `refuse …`) here and by another
    clone, whose push went first: this one's failed. Returns the candidate's id, the remote
    and its main."""
    server = make_server(tmp_path)
    connect(memory, server)
    entry_id = proposed(ok(run(memory, *PROPOSE, "--push")).output)
    other = _another_clone(tmp_path, server)
    verb, rest = command[0], command[1:]
    _beaten_by(memory, other, " ".join([verb, entry_id, *(f"'{a}'" for a in rest), "--push"]))
    assert run_gitmem(memory, verb, entry_id, *rest, "--push").returncode == 1
    return entry_id, server, git(server, "rev-parse", "main").strip()


@pytest.mark.parametrize("command", [["admit"], ["refuse", "--reason", "not now"]])
def test_what_you_staged_stays_staged_when_another_clones_closing_stands(
    memory: Path, tmp_path: Path, command: list[str]
) -> None:
    """Another clone closed the same candidate first, and this checkout holds changes staged
    outside the memory: a new file and an edit to a tracked one. Run again, main here was
    brought to the remote's by `git reset --keep`, which resets the index: the edit was no
    longer staged, and the new file became one git does not track (a later `git commit -a`
    left it out). Now main moves as `git checkout` moves it: what was staged stays staged,
    the files as they were, and the remote's commits come along."""
    entry_id, _, theirs = _closed_first_by_another_clone(memory, tmp_path, command)
    verb, rest = command[0], command[1:]
    (memory / "notes.txt").write_text("staged\n")
    readme = (memory / "README.md").read_text() + "mine\n"
    (memory / "README.md").write_text(readme)
    git(memory, "add", "notes.txt", "README.md")

    done = run_gitmem(memory, verb, entry_id, *rest, "--push")
    assert done.returncode == 0, done.stderr
    assert git(memory, "rev-parse", "main").strip() == theirs
    staged = git(memory, "diff", "--cached", "--name-only").splitlines()
    assert staged == ["README.md", "notes.txt"], staged
    assert git(memory, "diff", "--name-only") == ""
    assert (memory / "notes.txt").read_text() == "staged\n"
    assert (memory / "README.md").read_text() == readme
    assert (memory / "NOTES.md").read_text() == "notes\n"  # the remote's commit came along


@pytest.mark.parametrize("command", [["admit"], ["refuse", "--reason", "not now"]])
def test_a_kill_once_main_became_the_remotes_is_finished_by_the_run_again(
    memory: Path, tmp_path: Path, command: list[str]
) -> None:
    """Another clone closed the same candidate first, and the run again that leaves it
    standing was killed once main here had moved to the remote's, before the checked-out
    files followed. With no journal, main was left at the remote's with the files and the
    index at the landing undone, which `git status` showed as changes of the user's (the
    other clone's commit staged backwards), and no later run saw anything to finish. Now
    the move is journaled as a landing is: the run again brings the checkout along, what
    was staged staying staged, and ends as an unkilled run does."""
    entry_id, server, theirs = _closed_first_by_another_clone(memory, tmp_path, command)
    verb, rest = command[0], command[1:]
    (memory / "notes.txt").write_text("staged\n")
    git(memory, "add", "notes.txt")

    killed_at_fault(memory, f"{verb}-move-after-ref", verb, entry_id, *rest, "--push")
    assert git(memory, "rev-parse", "main").strip() == theirs
    assert (memory / ".git" / recovery.JOURNAL).exists()
    assert not (memory / "NOTES.md").exists()  # the checkout is still the landing's

    done = run_gitmem(memory, verb, entry_id, *rest, "--push")
    assert done.returncode == 0, done.stderr
    assert "finished updating the checked-out main" in done.stderr, done.stderr
    assert git(memory, "rev-parse", "main").strip() == theirs
    assert not (memory / ".git" / recovery.JOURNAL).exists()
    assert git(memory, "status", "--porcelain") == "A  notes.txt\n"
    assert (memory / "NOTES.md").read_text() == "notes\n"
    assert git(memory, "branch", "--list", f"gitmem/{entry_id}") == ""
    assert git(server, "branch", "--list", f"gitmem/{entry_id}") == ""


def test_a_file_in_the_way_of_a_killed_move_to_the_remotes_main_is_said_so(
    memory: Path, tmp_path: Path
) -> None:
    """As above, and then a file git does not track was put where the remote's main has one
    (NOTES.md): the checkout cannot follow yet. The pre-commit hook refuses a commit
    meanwhile (it would undo the other clone's commits); the run again says what is in the
    way and what to do, exit 2, and leaves the file and the journal; moved away, the run
    again finishes."""
    server = make_server(tmp_path)
    connect(memory, server)
    entry_id = proposed(ok(run(memory, *PROPOSE, "--push")).output)
    other = _another_clone(tmp_path, server)
    args = f"admit {entry_id} --push"
    _beaten_by(memory, other, args)
    assert run_gitmem(memory, "admit", entry_id, "--push").returncode == 1
    theirs = git(server, "rev-parse", "main").strip()
    killed_at_fault(memory, "admit-move-after-ref", "admit", entry_id, "--push")
    mine = memory / "NOTES.md"
    mine.write_text("mine\n")
    assert recovery.unfinished(open_workspace(memory).store) is not None  # no commit yet

    done = run_gitmem(memory, "admit", entry_id, "--push")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith(
        f"gitmem: main moved (admit {entry_id}), but its checked-out files cannot follow it "
        "yet: they would overwrite changes of yours ("
    ), done.stderr
    assert "NOTES.md" in done.stderr, done.stderr
    assert done.stderr.endswith("then bring your version back\n"), done.stderr
    assert mine.read_text() == "mine\n"
    assert (memory / ".git" / recovery.JOURNAL).exists()

    mine.unlink()
    again = run_gitmem(memory, "admit", entry_id, "--push")
    assert again.returncode == 0, again.stderr
    assert git(memory, "rev-parse", "main").strip() == theirs
    assert git(memory, "status", "--porcelain") == ""
    assert mine.read_text() == "notes\n"


@pytest.mark.parametrize("how", ["edited", "untracked"])
def test_a_change_of_yours_in_the_way_of_the_clone_that_closed_it_first_is_said_so(
    memory: Path, tmp_path: Path, how: str
) -> None:
    """Another clone admitted the same candidate first, with a change to a file outside the
    memory (README.md, NOTES.md) where this checkout holds a change of its own (an edit, a
    file git does not track). git refuses to bring main here to the remote's, and the run
    again said only git's "Entry 'README.md' not uptodate. Cannot merge.", not that the
    other admission stands, that nothing moved, nor what to do. Now it says all three, exit
    2, and the change is kept; moved away, the run again finishes."""
    server = make_server(tmp_path)
    connect(memory, server)
    entry_id = proposed(ok(run(memory, *PROPOSE, "--push")).output)
    other = _another_clone(tmp_path, server)
    (other / "README.md").write_text("theirs\n")
    git(other, "commit", "-q", "-am", "readme")
    args = f"admit {entry_id} --push"
    _beaten_by(memory, other, args)
    assert run_gitmem(memory, "admit", entry_id, "--push").returncode == 1
    theirs = git(server, "rev-parse", "main").strip()
    landed = git(memory, "rev-parse", "main").strip()
    mine = memory / ("README.md" if how == "edited" else "NOTES.md")
    mine.write_text("mine\n")

    done = run_gitmem(memory, "admit", entry_id, "--push")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith(
        f"gitmem: the admit {entry_id} made on origin first (commit {theirs[:12]}) stands, but "
        f"main here cannot become origin's yet, and the admit {entry_id} made here (commit "
        f"{landed[:12]}, never pushed) is not undone: moving main to {theirs[:12]} would "
        "overwrite changes of yours ("
    ), done.stderr
    assert mine.name in done.stderr
    assert done.stderr.endswith(
        "): commit or stash them, or move away the file git does not track, then run the "
        "command again\n"
    ), done.stderr
    assert git(memory, "rev-parse", "main").strip() == landed
    assert mine.read_text() == "mine\n"

    mine.rename(tmp_path / "mine.md")
    git(memory, "checkout", "-q", "--", ".")
    assert run_gitmem(memory, "admit", entry_id, "--push").returncode == 0
    assert git(memory, "rev-parse", "main").strip() == theirs


def _proposed_with_a_mirror(memory: Path, tmp_path: Path) -> tuple[Path, str, Path]:
    """A server (origin) holding a candidate pushed there, and a second remote, mirror,
    holding main as it is: (the server, the candidate's id, the mirror)."""
    server = make_server(tmp_path)
    connect(memory, server)
    entry_id = proposed(ok(run(memory, *PROPOSE, "--push")).output)
    mirror = bare(tmp_path, "mirror")
    git(memory, "remote", "add", "mirror", str(mirror))
    git(memory, "push", "-q", "mirror", "main")
    return server, entry_id, mirror


@pytest.mark.parametrize("command", [["admit"], ["refuse", "--reason", "not now"]])
def test_a_landing_pushed_to_another_remote_is_never_undone_for_the_remote_asked(
    memory: Path, tmp_path: Path, command: list[str]
) -> None:
    """The push to origin after the landing was refused (another clone pushed main first),
    and the command was run again with --remote naming another remote (a mirror), which
    took main, landing and all. Run again for origin, the landing, which the mirror's main
    holds, was taken for one never pushed: undone here and made again, another commit, on
    origin's main, so that the two remotes' mains hold two admissions of one candidate and
    neither can take the other's. Now nothing changes, and the error names the remote that
    holds it and the git commands that reconcile origin's main with it."""
    server, entry_id, mirror = _proposed_with_a_mirror(memory, tmp_path)
    verb, rest = command[0], command[1:]
    theirs = _overtaken_by(memory, tmp_path, server)
    assert run_gitmem(memory, verb, entry_id, *rest, "--push").returncode == 1
    landed = git(memory, "rev-parse", "main").strip()
    ok_mirror = run_gitmem(memory, verb, entry_id, *rest, "--push", "--remote", "mirror")
    assert ok_mirror.returncode == 0, ok_mirror.stderr
    assert git(mirror, "rev-parse", "main").strip() == landed

    again = run_gitmem(memory, verb, entry_id, *rest, "--push")
    assert again.returncode == 1 and "Traceback" not in again.stderr, again.stderr
    assert again.stderr == (
        f"gitmem: main on origin moved since the {verb} {entry_id} was made here (commit "
        f"{landed[:12]}, not pushed), and it cannot be made again on origin's main: it is "
        f"on mirror's main already. Reconcile the two (git pull --no-rebase origin main), "
        f"then push main (git push origin main) and delete the candidate's branch there if "
        f"it is still on origin (git push origin --delete gitmem/{entry_id})\n"
    )
    assert git(memory, "rev-parse", "main").strip() == landed
    assert git(server, "rev-parse", "main").strip() == theirs


def test_a_landing_pushed_to_another_remote_is_never_undone_for_another_clones(
    memory: Path, tmp_path: Path
) -> None:
    """As above, but another clone admitted the same candidate on origin first: run again
    for origin, the landing here, which the mirror's main holds, was undone and main here
    moved to origin's, back over a commit a remote holds. Now nothing changes, and the error
    says that each remote's main holds one closing of the candidate."""
    server, entry_id, mirror = _proposed_with_a_mirror(memory, tmp_path)
    other = _another_clone(tmp_path, server)
    args = f"admit {entry_id} --push"
    _beaten_by(memory, other, args)
    assert run_gitmem(memory, "admit", entry_id, "--push").returncode == 1
    theirs = git(server, "rev-parse", "main").strip()
    landed = git(memory, "rev-parse", "main").strip()
    to_mirror = run_gitmem(memory, "admit", entry_id, "--push", "--remote", "mirror")
    assert to_mirror.returncode == 0, to_mirror.stderr
    assert git(mirror, "rev-parse", "main").strip() == landed

    again = run_gitmem(memory, "admit", entry_id, "--push")
    assert again.returncode == 1 and "Traceback" not in again.stderr, again.stderr
    assert again.stderr == (
        f"gitmem: the admit {entry_id} made on origin first (commit {theirs[:12]}) stands, "
        f"and the admit {entry_id} made here (commit {landed[:12]}) is on mirror's main "
        f"already: it is not undone, and nothing was changed. origin's main and mirror's "
        f"hold one closing each of {entry_id}: agree with who pushed them on which stands, "
        f"and bring the other main to it by hand\n"
    )
    assert git(memory, "rev-parse", "main").strip() == landed
    assert git(server, "rev-parse", "main").strip() == theirs


def test_commits_only_this_clone_admitted_are_kept_when_another_clones_admission_stands(
    memory: Path, tmp_path: Path
) -> None:
    """This clone added a commit to the candidate's branch (a fix-up, not pushed) and
    admitted it, while another clone admitted the candidate as the remote held it and pushed
    first. Run again, the landing here was finished (its branch deleted), then undone for
    the other clone's, and the fix-up, which only the landing held, was left to main's
    reflog.
    Now the candidate's branch is kept here at the commit the landing took, and the output
    says so."""
    server = make_server(tmp_path)
    connect(memory, server)
    entry_id = proposed(ok(run(memory, *PROPOSE, "--push")).output)
    git(memory, "checkout", "-q", f"gitmem/{entry_id}")
    path = memory / f".gitmem/candidates/{entry_id}.md"
    path.write_text(path.read_text().replace("Read objects", "Read all objects"))
    git(memory, "commit", "-q", "-am", "fix-up")
    git(memory, "checkout", "-q", "main")
    fix_up = git(memory, "rev-parse", f"gitmem/{entry_id}").strip()
    other = _another_clone(tmp_path, server)
    args = f"admit {entry_id} --push"
    _beaten_by(memory, other, args)
    assert run_gitmem(memory, "admit", entry_id, "--push").returncode == 1
    theirs = git(server, "rev-parse", "main").strip()

    done = run_gitmem(memory, "admit", entry_id, "--push")
    assert done.returncode == 0, done.stderr
    assert (
        f"gitmem: kept gitmem/{entry_id} at {fix_up[:12]}: it holds commits the admit "
        f"{entry_id} made here took and the admit {entry_id} on origin did not\n"
    ) in done.stderr
    assert git(memory, "rev-parse", f"gitmem/{entry_id}").strip() == fix_up
    assert git(memory, "rev-parse", "main").strip() == theirs


def test_a_landing_under_a_commit_made_since_says_how_to_drop_it_when_another_clones_stands(
    memory: Path, tmp_path: Path
) -> None:
    """Another clone admitted the same candidate first, and the user committed on main here
    after the push failed: the run again changes nothing, says the other admission stands,
    and names the git commands that drop the landing here and reconcile. Followed, the
    server takes main, with one admission of the candidate."""
    server = make_server(tmp_path)
    connect(memory, server)
    entry_id = proposed(ok(run(memory, *PROPOSE, "--push")).output)
    other = _another_clone(tmp_path, server)
    args = f"admit {entry_id} --push"
    _beaten_by(memory, other, args)
    assert run_gitmem(memory, "admit", entry_id, "--push").returncode == 1
    theirs = git(server, "rev-parse", "main").strip()
    landed = git(memory, "rev-parse", "main").strip()
    mine = _commit_of_my_own(memory)

    again = run_gitmem(memory, "admit", entry_id, "--push")
    assert again.returncode == 1 and "Traceback" not in again.stderr, again.stderr
    assert again.stderr == (
        f"gitmem: the admit {entry_id} made on origin first (commit {theirs[:12]}) stands, "
        f"and main here holds the admit {entry_id} made here (commit {landed[:12]}, not "
        f"pushed) under commits of its own: drop it from main (git rebase --onto "
        f"{landed[:12]}~1 {landed[:12]} main), then bring the commits of its own onto "
        f"origin's (git pull --rebase origin main: a merge would bring origin's memory "
        f"through a second parent, which the gates refuse) and push main (git push origin "
        f"main)\n"
    )
    assert git(memory, "rev-parse", "main").strip() == mine

    git(memory, "rebase", "-q", "--onto", f"{landed[:12]}~1", landed[:12], "main")
    git(memory, "pull", "-q", "--rebase", "origin", "main")
    git(memory, "push", "-q", "origin", "main")
    subjects = git(server, "log", "--format=%s", "main").splitlines()
    assert subjects.count(f"gitmem: admit {entry_id}") == 1
    assert "mine" in subjects


def test_a_landing_on_a_commit_of_ones_own_says_how_to_drop_it_when_another_clones_stands(
    memory: Path, tmp_path: Path
) -> None:
    """Another clone admitted the same candidate first, and the landing here was made on a
    commit of main's own, not pushed: the run again changes nothing, says the other
    admission stands and how to undo the landing here and reconcile. That said `git pull
    --no-rebase`, whose merge the server's gate refuses (it brings the other clone's
    admission through a second parent); it now says `git pull --rebase`, which the server
    takes, with one admission of the candidate and the commit of one's own."""
    server = make_server(tmp_path)
    connect(memory, server)
    entry_id = proposed(ok(run(memory, *PROPOSE, "--push")).output)
    _commit_of_my_own(memory)
    other = _another_clone(tmp_path, server)
    args = f"admit {entry_id} --push"
    _beaten_by(memory, other, args)
    assert run_gitmem(memory, "admit", entry_id, "--push").returncode == 1
    theirs = git(server, "rev-parse", "main").strip()
    landed = git(memory, "rev-parse", "main").strip()

    again = run_gitmem(memory, "admit", entry_id, "--push")
    assert again.returncode == 1 and "Traceback" not in again.stderr, again.stderr
    assert again.stderr == (
        f"gitmem: the admit {entry_id} made on origin first (commit {theirs[:12]}) stands, "
        f"and the admit {entry_id} made here (commit {landed[:12]}, not pushed) is on top of "
        f"commits of its own origin does not have: undo it (git branch -f main main~1, or "
        f"git reset --keep HEAD~1 with main checked out), then bring the commits of its own "
        f"onto origin's (git pull --rebase origin main: a merge would bring origin's memory "
        f"through a second parent, which the gates refuse) and push main (git push origin "
        f"main)\n"
    )
    assert git(memory, "rev-parse", "main").strip() == landed

    git(memory, "reset", "-q", "--keep", "HEAD~1")
    git(memory, "pull", "-q", "--rebase", "origin", "main")
    git(memory, "push", "-q", "origin", "main")
    subjects = git(server, "log", "--format=%s", "main").splitlines()
    assert subjects.count(f"gitmem: admit {entry_id}") == 1
    assert "mine" in subjects


def test_a_refusal_of_a_candidate_never_pushed_says_how_to_bring_it_onto_the_remotes_main(
    memory: Path, tmp_path: Path
) -> None:
    """A candidate never pushed was refused with --push while another clone admitted another
    candidate, and the refusal was finished without --push (its branch deleted): it cannot
    be made again. The run again said `git pull --no-rebase`, whose merge the server's gate
    refuses (it brings the other admission through a second parent); it now says `git pull
    --rebase`, which brings the refusal, a commit of its own, onto the remote's main."""
    server = make_server(tmp_path)
    connect(memory, server)
    entry_id = proposed(ok(run(memory, *PROPOSE)).output)
    another = proposed(ok(run(memory, *HOOKS, "--push")).output)
    other = _another_clone(tmp_path, server)
    args = f"admit {another} --push"
    _beaten_by(memory, other, args)
    assert run_gitmem(memory, "refuse", entry_id, "--reason", "no", "--push").returncode == 1
    ok(run(memory, "refuse", entry_id, "--reason", "no"))
    assert git(memory, "branch", "--list", f"gitmem/{entry_id}") == ""
    theirs = git(server, "rev-parse", "main").strip()
    landed = git(memory, "rev-parse", "main").strip()

    again = run_gitmem(memory, "refuse", entry_id, "--reason", "no", "--push")
    assert again.returncode == 1 and "Traceback" not in again.stderr, again.stderr
    assert again.stderr == (
        f"gitmem: main on origin moved since the refuse {entry_id} was made here (commit "
        f"{landed[:12]}, not pushed), and it cannot be made again on origin's main: it is "
        f"on top of a candidate whose branch is gone. Bring it onto origin's main (git pull "
        f"--rebase origin main: a merge would bring origin's memory through a second "
        f"parent, which the gates refuse), then push main (git push origin main)\n"
    )
    git(memory, "pull", "-q", "--rebase", "origin", "main")
    git(memory, "push", "-q", "origin", "main")
    git(server, "merge-base", "--is-ancestor", theirs, "main")  # never rewritten
    assert f"| {entry_id} |" in git(server, "show", "main:.gitmem/refused.md")


@pytest.mark.parametrize(
    "curation",
    [
        [],
        ["--amend", "{id}", "--applies-when", "writing any git hook"],
        ["--retire", "{id}", "--reason", "obsolete"],
    ],
    ids=["admit", "amend", "retire"],
)
def test_a_landing_reverted_since_is_not_pushed_nor_its_candidate_closed_on_the_remote(
    memory: Path, tmp_path: Path, curation: list[str]
) -> None:
    """The push after the landing failed (the remote unreachable), and the user reverted the
    admission on main (git revert) before running the command again. Found under the
    revert, the landing was pushed with main and the candidate's branch deleted on a remote
    without the gate: the candidate was admitted nowhere and gone (an amendment or a
    retirement was taken at its word after admissions were checked). Now a landing whose
    change main no longer holds is not pushed, the candidate's branch stays, and the
    advice keeps it: "its branch is what is left of it (git push --delete …)" deleted the
    only copy."""
    server = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(server))
    connect(memory, server)
    candidate = entry_id = proposed(ok(run(memory, *PROPOSE, "--push")).output)
    if curation:
        ok(run(memory, "admit", entry_id, "--push"))
        args = [a.format(id=entry_id) for a in curation]
        candidate = proposed(ok(run(memory, "propose", *args, "--push")).output)
    hook = memory / ".git" / "hooks" / "reference-transaction"
    hook.write_text(_UNPLUG.format(server=server))
    hook.chmod(0o755)
    assert run_gitmem(memory, "admit", candidate, "--push").returncode == 1
    hook.unlink()
    (tmp_path / "server.git.away").rename(server)
    ok(run(memory, "admit", candidate))  # finished here, without --push
    pushed_before = git(server, "rev-parse", "main").strip()
    git(memory, "revert", "--no-commit", "-m", "1", "HEAD")
    git(memory, "commit", "-q", "--no-verify", "-m", "not yet")

    again = run_gitmem(memory, "admit", candidate, "--push")
    assert again.returncode == 1 and "Traceback" not in again.stderr, again.stderr
    assert "undone there since (a revert): keep the branch" in again.stderr, again.stderr
    assert "--delete" not in again.stderr
    assert git(server, "rev-parse", "main").strip() == pushed_before
    assert git(server, "branch", "--list", f"gitmem/{candidate}") != ""


@pytest.mark.parametrize("command", [["admit"], ["refuse", "--reason", "not now"]])
def test_a_run_again_after_a_kill_once_main_was_pushed_does_not_say_it_pushed(
    memory: Path, tmp_path: Path, command: list[str]
) -> None:
    """Killed once its push was made, the command run again with --push finished the rest
    and printed "pushed", as though main had gone to the remote by this run: it went by the
    killed one, and this run pushed nothing of main."""
    server = make_server(tmp_path)
    connect(memory, server)
    entry_id = proposed(ok(run(memory, *PROPOSE, "--push")).output)
    verb, rest = command[0], command[1:]
    killed_at_fault(memory, f"{verb}-after-close", verb, entry_id, *rest, "--push")
    landed = git(memory, "rev-parse", "main").strip()
    assert git(server, "rev-parse", "main").strip() == landed

    done = run_gitmem(memory, verb, entry_id, *rest, "--push")
    assert done.returncode == 0, done.stderr
    assert f"{landed[:12]})\n" in done.stdout, done.stdout
    assert "pushed" not in done.stdout, done.stdout
    assert git(server, "rev-parse", "main").strip() == landed
    assert git(server, "branch", "--list", f"gitmem/{entry_id}") == ""
