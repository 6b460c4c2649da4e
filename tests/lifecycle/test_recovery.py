"""A command killed (SIGKILL) at every step of landing on main leaves a state the next command
finishes by itself: the same command again, or another one."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from clirunner import ok, run

from gitmem.lifecycle import recovery
from gitmem.repo.store import Store

from conftest import git, killed_at_fault, killed_at_rename, read_only, run_gitmem

OLD = ["propose", "--type", "method", "--title", "Review memory like code",
       "--applies-when", "a candidate waits", "--content", "Open a pull request."]  # fmt: skip
OTHER = ["propose", "--type", "method", "--title", "Keep hooks thin",
         "--applies-when", "writing a hook", "--content", "Call gitmem hook NAME."]  # fmt: skip


def proposed(repo: Path, *args: str) -> str:
    return ok(run(repo, *args)).output.split()[1]


def settled(repo: Path, root: str) -> None:
    """No journal, nothing dirty, the working files are main's, and main keeps the rules."""
    assert not (repo / ".git" / recovery.JOURNAL).exists()
    assert git(repo, "status", "--porcelain") == ""
    assert git(repo, "diff", "main", "--stat") == ""
    assert ok(run(repo, "check", "--range", f"{root}..main")).output.endswith("no problems\n")
    assert ok(run(repo, "index", "--check")).output == ""


@pytest.fixture
def supersession(memory: Path) -> tuple[Path, str, str, str]:
    """main checked out, an admitted entry, a candidate superseding it (its admission writes
    three files: its entry, the old one flipped, INDEX.md), and another candidate."""
    old = proposed(memory, *OLD)
    ok(run(memory, "admit", old))
    new = proposed(
        memory, *OLD[:4], "Review memory like code, twice", *OLD[5:], "--supersedes", old
    )
    other = proposed(memory, *OTHER)
    return memory, old, new, other


ADMIT_POINTS = [
    "admit-before-ref",
    "admit-after-ref",
    "admit-sync-file-1",
    "admit-sync-file-2",
    "admit-sync-file-3",
    "admit-sync-index",
    "admit-after-sync",
    "admit-after-close",
]


@pytest.mark.parametrize("point", ADMIT_POINTS)
def test_admit_killed_at_any_step_is_finished_by_running_it_again(
    supersession: tuple[Path, str, str, str], point: str
) -> None:
    repo, old, new, _ = supersession
    root = git(repo, "rev-list", "--max-parents=0", "main").split()[-1]
    killed_at_fault(repo, point, "admit", new)
    result = ok(run(repo, "admit", new))
    assert f"admitted {new}" in result.output
    log = git(repo, "log", "--first-parent", "--format=%s", "main").splitlines()
    assert log.count(f"gitmem: admit {new}") == 1
    assert git(repo, "branch", "--list", f"gitmem/{new}") == ""
    assert "status: superseded" in (repo / f".gitmem/entries/method/{old}.md").read_text()
    settled(repo, root)


@pytest.mark.parametrize("point", ["admit-after-ref", "admit-sync-file-2", "admit-sync-index"])
def test_a_killed_admit_is_finished_by_the_next_admit_of_another_candidate(
    supersession: tuple[Path, str, str, str], point: str
) -> None:
    repo, _, new, other = supersession
    root = git(repo, "rev-list", "--max-parents=0", "main").split()[-1]
    killed_at_fault(repo, point, "admit", new)
    result = ok(run(repo, "admit", other))
    assert f"admitted {other}" in result.output
    assert "finished updating the checked-out main" in result.output
    assert git(repo, "branch", "--list", "gitmem/*") == ""  # the killed one's closed too
    settled(repo, root)


@pytest.mark.parametrize(
    "point",
    ["refuse-before-ref", "refuse-after-ref", "refuse-sync-file-1", "refuse-sync-index",
     "refuse-after-sync", "refuse-after-close"],
)  # fmt: skip
def test_refuse_killed_at_any_step_is_finished_by_running_it_again(
    memory: Path, point: str
) -> None:
    root = git(memory, "rev-list", "--max-parents=0", "main").split()[-1]
    entry_id = proposed(memory, *OTHER)
    killed_at_fault(memory, point, "refuse", entry_id, "--reason", "not for us")
    ok(run(memory, "refuse", entry_id, "--reason", "not for us"))
    refused = (memory / ".gitmem/refused.md").read_text()
    assert refused.count(f"| {entry_id} |") == 1
    settled(memory, root)


def test_a_file_edited_by_hand_after_the_kill_is_left_and_named(
    supersession: tuple[Path, str, str, str],
) -> None:
    repo, _, new, other = supersession
    killed_at_fault(repo, "admit-after-ref", "admit", new)
    (repo / ".gitmem/INDEX.md").write_text("my own notes\n")
    result = run(repo, "admit", other)  # the rest is finished; that file is the user's
    assert result.exit_code == 2 and ".gitmem/INDEX.md has uncommitted changes" in result.output
    assert (repo / ".gitmem/INDEX.md").read_text() == "my own notes\n"
    assert not (repo / ".git" / recovery.JOURNAL).exists()
    assert (repo / f".gitmem/entries/method/{new}.md").is_file()
    git(repo, "checkout", "HEAD", "--", ".gitmem/INDEX.md")  # the user gives their edit up
    assert f"admitted {other}" in ok(run(repo, "admit", other)).output


def test_an_admission_killed_before_its_push_is_pushed_by_running_it_again(
    supersession: tuple[Path, str, str, str], tmp_path: Path
) -> None:
    repo, _, new, _ = supersession
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    git(repo, "remote", "add", "origin", str(bare))
    git(repo, "push", "-q", "origin", "main", f"gitmem/{new}")
    killed_at_fault(repo, "admit-after-sync", "admit", new, "--push")
    assert git(bare, "log", "-1", "--format=%s", "main").strip() != f"gitmem: admit {new}"
    result = ok(run(repo, "admit", new, "--push"))
    assert "pushed" in result.output
    assert git(bare, "log", "-1", "--format=%s", "main").strip() == f"gitmem: admit {new}"
    assert git(bare, "branch", "--list", f"gitmem/{new}") == ""


def test_a_git_directory_that_cannot_take_the_journal_refuses_before_main_moves(
    memory: Path,
) -> None:
    """Objects writable, the git directory itself not (its journal cannot be written): the
    landing stops before main moves, with a usage error naming the journal, never exit 3;
    nothing is left to finish."""
    entry_id = proposed(memory, *OTHER)
    refs = git(memory, "for-each-ref", "--format=%(refname) %(objectname)")
    git_dir = memory / ".git"
    (git_dir / recovery.LOCK).touch()  # made by an earlier admit: taken on a read-only mount
    with read_only(git_dir, but=git_dir / "objects") as prefix:
        done = run_gitmem(memory, "admit", entry_id, prefix=prefix)
    assert done.returncode == 2, done.stderr
    assert f"cannot write {git_dir / recovery.JOURNAL}: " in done.stderr
    assert "make the git directory writable for you" in done.stderr
    assert git(memory, "for-each-ref", "--format=%(refname) %(objectname)") == refs
    assert git(memory, "status", "--porcelain") == ""
    assert not (git_dir / recovery.JOURNAL).exists()
    ok(run(memory, "admit", entry_id))


def test_a_landing_the_user_undid_after_the_kill_keeps_the_candidate_branch(
    memory: Path,
) -> None:
    """Killed after main moved, the admission undone by hand (`git reset --hard HEAD~1`) and
    other work committed: the next command used to finish the landing anyway and delete the
    candidate branch, whose commit was then on no branch at all."""
    entry = proposed(memory, *OLD)
    tip = git(memory, "rev-parse", f"gitmem/{entry}").strip()
    killed_at_fault(memory, "admit-after-ref", "admit", entry)
    git(memory, "reset", "-q", "--hard", "HEAD~1")
    (memory / "README.md").write_text("other work\n")
    git(memory, "commit", "-q", "-am", "other work")
    result = ok(run(memory, "admit", entry))
    assert "no longer holds the admit" in result.output and "branch kept" in result.output
    assert f"admitted {entry}" in result.output
    assert git(memory, "rev-parse", "main^2").strip() == tip
    settled(memory, git(memory, "rev-list", "--max-parents=0", "main").split()[0])


def test_no_commit_is_made_over_a_landing_cut_short(repo: Path) -> None:
    """Killed after main moved, before the checkout followed: the staging index still holds
    main's old memory, so a plain `git commit -am` committed the admission's undoing. The
    real pre-commit hook refuses any commit until the landing is finished."""
    ok(run(repo, "init", "--hooks"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "gitmem init")
    entry = proposed(repo, *OLD)
    killed_at_fault(repo, "admit-after-ref", "admit", entry)
    (repo / "README.md").write_text("other work\n")
    refused = subprocess.run(
        ["git", "commit", "-q", "-am", "other work"], cwd=repo, capture_output=True, text=True
    )
    assert refused.returncode == 1, refused.stderr
    assert f"Run `gitmem admit {entry}` again to finish it" in refused.stderr
    assert git(repo, "log", "-1", "--format=%s") == f"gitmem: admit {entry}\n"
    ok(run(repo, "admit", entry))
    git(repo, "commit", "-q", "-am", "other work")
    settled(repo, git(repo, "rev-list", "--max-parents=0", "main").split()[0])


def test_a_commit_over_an_undo_cut_short_is_told_the_command_that_finishes_it(
    repo: Path,
) -> None:
    """A rerun of `admit --push` undoes a landing never pushed (the remote's main moved on)
    under a journal whose action reads "undo of admit ID"; killed once main moved back, the
    pre-commit hook's advice was "Run `gitmem undo of admit ID` again", no command at all.
    The state is the one the undo leaves at that point: the candidate's branch made again,
    the journal written, main moved back, the checkout not yet."""
    ok(run(repo, "init", "--hooks"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "gitmem init")
    entry = proposed(repo, *OLD)
    tip = git(repo, "rev-parse", f"gitmem/{entry}").strip()
    ok(run(repo, "admit", entry))
    landed, base = git(repo, "rev-parse", "main", "main~1").split()
    git(repo, "update-ref", f"refs/heads/gitmem/{entry}", tip)
    store = Store.open(repo)
    undo = recovery.Landing(
        f"{recovery.UNDO}admit {entry}", "main", ".gitmem", landed, base, "", "", True
    )
    recovery.begin(store, undo)
    git(repo, "update-ref", "refs/heads/main", base, landed)
    (repo / "README.md").write_text("other work\n")
    refused = subprocess.run(
        ["git", "commit", "-q", "-am", "other work"], cwd=repo, capture_output=True, text=True
    )
    assert refused.returncode == 1, refused.stderr
    said = " ".join(refused.stderr.split())
    assert f"Run `gitmem admit {entry} --push` again to finish it" in said, said
    assert "undo of admit" not in said.split("Run", 1)[1]


@pytest.mark.parametrize("name", ["refused.md", recovery.JOURNAL])
def test_a_refuse_killed_in_the_middle_of_a_write_leaves_no_temporary_file(
    memory: Path, name: str
) -> None:
    """Killed with the temporary of refused.md (or of the journal) written and not renamed
    yet: running the command again finished the landing and left `.refused.md.<hex>.tmp` in
    the memory folder, untracked, which `gitmem check` refused as not a memory file (and the
    journal's beside it in the git directory) for good."""
    root = git(memory, "rev-list", "--max-parents=0", "main").split()[-1]
    entry_id = proposed(memory, *OTHER)
    killed_at_rename(memory, name, "refuse", entry_id, "--reason", "not for us")
    assert list(memory.rglob(f".{name}.*.tmp")), "the kill left the temporary file"
    ok(run(memory, "refuse", entry_id, "--reason", "not for us"))
    assert (memory / ".gitmem/refused.md").read_text().count(f"| {entry_id} |") == 1
    assert not list(memory.rglob("*.tmp"))
    settled(memory, root)


def test_an_admit_killed_writing_each_file_leaves_no_temporary_file(
    supersession: tuple[Path, str, str, str],
) -> None:
    """The admission writes three files (its entry, the one it supersedes, INDEX.md): killed
    at the last one's rename, and finished by the next admit of another candidate, it left
    `.INDEX.md.<hex>.tmp` in the memory folder."""
    repo, _, new, other = supersession
    root = git(repo, "rev-list", "--max-parents=0", "main").split()[-1]
    killed_at_rename(repo, "INDEX.md", "admit", new)
    ok(run(repo, "admit", other))
    assert not list(repo.rglob("*.tmp"))
    settled(repo, root)


def test_the_turn_lasts_while_the_git_a_killed_admit_started_runs(memory: Path) -> None:
    """Killed while its `git update-ref` of main ran, an admit leaves that git running; its
    turn (one_at_a_time) used to end with it, so the next admit found main not yet moved,
    dropped the journal, and then lost main to the orphan: the admission landed with no
    journal left to bring the checkout after it, which stayed staged backwards. The turn
    now lasts until the gits it started have ended. A reference-transaction hook holds the
    first move of main until the test lets it go."""
    entry = proposed(memory, *OLD)
    gate = memory.parent / "gate"
    gate.mkdir()
    hook = memory / ".git/hooks/reference-transaction"
    hook.parent.mkdir(exist_ok=True)
    hook.write_text(
        "#!/bin/sh\n"
        '[ "$1" = prepared ] && grep -q " refs/heads/main$" || exit 0\n'
        f'[ -e "{gate}/held" ] && exit 0\n'
        f'touch "{gate}/held"\n'
        f'while [ ! -e "{gate}/open" ]; do sleep 0.02; done\n'
    )
    hook.chmod(0o755)
    first = subprocess.Popen(
        [sys.executable, "-m", "gitmem", "admit", entry], cwd=memory,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        while not (gate / "held").exists():
            assert first.poll() is None, "the admit ended before it moved main"
            time.sleep(0.01)
        first.kill()
        first.wait()
        lock = os.open(memory / ".git" / recovery.LOCK, os.O_RDONLY)
        try:
            with pytest.raises(BlockingIOError):
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(lock)
    finally:
        (gate / "open").touch()
    result = ok(run(memory, "admit", entry))
    assert "finished updating the checked-out main" in result.output
    assert git(memory, "branch", "--list", f"gitmem/{entry}") == ""
    settled(memory, git(memory, "rev-list", "--max-parents=0", "main").split()[-1])


@pytest.mark.parametrize(
    ("edit", "named"),
    [
        (lambda j: {**j, "old": 5}, "field 'old' is not a string"),
        (lambda j: {**j, "checked_out": "yes"}, "field 'checked_out' is not a boolean"),
        (lambda j: {**j, "new": "main"}, "field 'new' is not a commit id"),
        (lambda j: {k: v for k, v in j.items() if k != "dir"}, "field 'dir' missing"),
        (lambda j: {**j, "extra": 1}, "field 'extra' unknown"),
        (lambda j: [j], "not an object"),
    ],
)
def test_a_journal_edited_by_hand_is_named_and_kept_never_trusted(
    memory: Path, edit: Callable[[dict[str, object]], object], named: str
) -> None:
    """A journal of the right fields with values of another kind made admit end in an
    unexpected error (exit 3); it is now a usage error naming the file and what to do, and
    the file stays for the user to read."""
    root = git(memory, "rev-list", "--max-parents=0", "main").split()[-1]
    entry_id = proposed(memory, *OTHER)
    killed_at_fault(memory, "admit-after-ref", "admit", entry_id)
    journal = memory / ".git" / recovery.JOURNAL
    edited = json.dumps(edit(json.loads(journal.read_text())))
    journal.write_text(edited)
    result = run(memory, "admit", entry_id)
    assert result.exit_code == 2, result.output
    assert f"{journal} is not a landing journal as gitmem writes it ({named})" in result.output
    assert journal.read_text() == edited
    journal.unlink()  # what the message says to do, with the memory folder brought in line
    git(memory, "checkout", "main", "--", ".gitmem")
    settled(memory, root)


def test_a_journal_that_is_no_json_is_dropped(memory: Path) -> None:
    """atomic_write renames only a whole file: what does not parse is no landing's journal."""
    journal = memory / ".git" / recovery.JOURNAL
    journal.write_text('{"action": "adm')
    entry_id = proposed(memory, *OTHER)
    assert f"admitted {entry_id}" in ok(run(memory, "admit", entry_id)).output
    assert not journal.exists()


def test_finishing_a_killed_admission_keeps_a_candidate_branch_checked_out_since(
    memory: Path, tmp_path: Path
) -> None:
    """A killed admission's next run deletes the candidate branch it closes: checked out in
    a worktree since the kill (to look at it), it was deleted under that worktree, which
    was left on a branch with no commits, its whole tree staged as new files."""
    entry_id = proposed(memory, *OTHER)
    branch = f"gitmem/{entry_id}"
    killed_at_fault(memory, "admit-after-sync", "admit", entry_id)
    linked = tmp_path / "linked"
    git(memory, "worktree", "add", "-q", str(linked), branch)
    again = ok(run(memory, "admit", entry_id)).output
    assert f"kept {branch}, checked out in the worktree at {linked}" in again
    assert git(linked, "rev-parse", "--abbrev-ref", "HEAD").strip() == branch
    assert git(linked, "status", "--porcelain") == ""
    assert not (memory / ".git" / recovery.JOURNAL).exists()
    git(linked, "checkout", "-q", "--detach")
    git(memory, "branch", "-q", "-D", branch)
    assert git(memory, "status", "--porcelain") == ""
