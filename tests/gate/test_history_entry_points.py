"""The client-side doors of the history judge: which ref `check --range A..B` judges, what the
pre-push gate takes as the remote's state and its policy, and what the pre-commit framework's
environment means. Each test fails against a mutant of gitmem/gate/history.py that passed the
rest of the suite (tests/mutation.py). Real repositories, a real bare remote."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from clirunner import ok, run, write
from remote import accepted, admitted, commit_all, forged, push, serve

from gitmem.errors import UsageError
from gitmem.gate import history
from gitmem.gate.check import Report
from gitmem.hooks import installer
from gitmem.repo.store import ZERO, Store
from gitmem.settings.policy import Policy

from conftest import git

FORGED = "local-method-20261129-forged"


def forge(repo: Path, folder: str = ".gitmem") -> str:
    """One commit that writes an entry no admit merge made: refused on the memory branch
    (HISTORY-…), plain data on any other branch."""
    write(repo, f"{folder}/entries/method/{FORGED}.md", forged(FORGED))
    return commit_all(repo, "an entry by hand")


def history_rules(report: Report) -> set[str]:
    return {p.rule for p in report.problems if p.rule.startswith("HISTORY")}


def tip(repo: Path, rev: str = "HEAD") -> str:
    return git(repo, "rev-parse", rev).strip()


# ------------------------------------------------------------------------ check --range A..B


@pytest.mark.parametrize(
    "right", ["HEAD", "", "main", "refs/heads/main", "origin/main", "refs/remotes/origin/main"]
)
def test_a_range_ending_at_the_memory_branch_is_judged_as_it(
    clone: Path, monkeypatch: pytest.MonkeyPatch, right: str
) -> None:
    """CI writes `origin/main` (the GitHub workflows: the pushed tip as the remote's branch),
    a person `HEAD` or `main`: each is the memory branch, judged by the invariant."""
    base = tip(clone)
    forge(clone)
    # the remote's refs sort around main's, so a lookup that took the wrong one shows
    for name in ("feature", "HEAD", "zzz"):
        git(clone, "update-ref", f"refs/remotes/origin/{name}", base)
    git(clone, "update-ref", "refs/remotes/origin/main", "HEAD")
    monkeypatch.chdir(clone)
    report = history.check_range(f"{base}..{right}")
    assert history_rules(report), report.problems
    assert report.checked == 1


@pytest.mark.parametrize("right", ["feature", "refs/heads/feature", "origin/feature"])
def test_a_range_ending_at_another_branch_is_judged_as_that_branch(
    clone: Path, monkeypatch: pytest.MonkeyPatch, right: str
) -> None:
    base = tip(clone)
    git(clone, "checkout", "-q", "-b", "feature")
    forge(clone)
    git(clone, "update-ref", "refs/remotes/origin/feature", "HEAD")
    git(clone, "update-ref", "refs/remotes/origin/main", base)
    git(clone, "checkout", "-q", "main")
    monkeypatch.chdir(clone)
    report = history.check_range(f"{base}..{right}")
    assert report.ok and report.checked == 1, report.problems


def test_a_range_ending_at_a_commit_id_is_judged_as_a_branch(
    clone: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A commit id names no ref: its commits are judged as a branch of that name (the rules of
    every ref), never a crash."""
    base = tip(clone)
    write(clone, "src/app.py", "print('hello')\n")
    new = commit_all(clone, "code")
    monkeypatch.chdir(clone)
    report = history.check_range(f"{base}..{new}")
    assert report.ok and report.checked == 1, report.problems


def test_a_local_branch_is_what_its_name_means_before_a_remotes(
    clone: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """git resolves `origin/main` to a local branch of that name before the remote's branch:
    the range is judged as the ref whose commits it reads."""
    base = tip(clone)
    git(clone, "checkout", "-q", "-b", "origin/main")
    forge(clone)
    git(clone, "checkout", "-q", "main")
    monkeypatch.chdir(clone)
    report = history.check_range(f"{base}..refs/heads/origin/main")
    assert report.ok, report.problems
    report = history.check_range(f"{base}..origin/main")
    assert report.ok and report.checked == 1, report.problems


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("main", "write A..B"),
        ("main...HEAD", "write A..B"),
        ("..main", "names no base"),
        (" ..HEAD", "names no base"),
        ("gone-left..main", "'gone-left' is not a commit here"),
        ("main..gone-right", "'gone-right' is not a commit here"),
    ],
)
def test_a_range_that_names_no_two_commits_is_a_usage_error(
    clone: Path, monkeypatch: pytest.MonkeyPatch, spec: str, said: str
) -> None:
    monkeypatch.chdir(clone)
    with pytest.raises(UsageError) as raised:
        history.check_range(spec)
    assert said in str(raised.value)
    assert "gone-" not in str(raised.value).replace(said, "")


# ------------------------------------------------------------------------------ --pre-push


def pre_push(repo: Path, new: str, old: str, ref: str = "refs/heads/main") -> str:
    return f"{ref} {new} {ref} {old}\n"


def test_the_pre_push_gate_judges_only_what_the_remote_lacks_without_tracking_refs(
    clone: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A clone without remote-tracking refs (deleted, or a push by URL): the remote's old tip
    from git's input marks what it has; only the new commits are judged."""
    old = tip(clone)
    write(clone, "src/app.py", "print('hello')\n")
    new = commit_all(clone, "code")
    git(clone, "update-ref", "-d", "refs/remotes/origin/main")
    monkeypatch.chdir(clone)
    report = history.check_pre_push(pre_push(clone, new, old), "origin")
    assert report.ok and report.checked == 1, report.problems


def test_the_pre_push_gate_follows_git_dir_not_the_working_folder(
    clone: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """git runs hooks with GIT_DIR set; the gate opens that repository, wherever it runs."""
    old = tip(clone)
    new = forge(clone)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.setenv("GIT_DIR", str(clone / ".git"))
    report = history.check_pre_push(pre_push(clone, new, old), "origin")
    assert history_rules(report), report.problems
    report = history.check_pushed_by_pre_commit(framework(old, new))
    assert history_rules(report), report.problems


@pytest.mark.e2e
def test_the_pre_push_hook_of_a_push_with_git_dir_and_work_tree(
    clone: Path, tmp_path: Path
) -> None:
    """`git --git-dir=X --work-tree=Y push` (a bare repository with a work tree elsewhere)
    runs the hooks in Y, where no .git is: the hook still judges the push, and refuses the
    forged entry."""
    installer.install(clone)  # the client's pre-push hook
    forge(clone)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    git_dir = clone / ".git"
    done = subprocess.run(
        ["git", f"--git-dir={git_dir}", f"--work-tree={clone}", "push", "origin", "main"],
        cwd=elsewhere,
        capture_output=True,
        text=True,
    )
    assert done.returncode != 0 and "HISTORY" in done.stderr, done.stderr
    assert "cannot open the git repository" not in done.stderr


def test_the_pre_push_gate_reads_the_policy_at_the_remotes_tip_from_gits_input(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The remote's main, as git's input names it, holds the settings (here: memory in
    docs/memory); with no tracking ref, the gate still judges by them, not by defaults."""
    serve(repo, tmp_path, 'dir = "docs/memory"\n', hook=False)
    old = tip(repo)
    git(repo, "update-ref", "-d", "refs/remotes/origin/main")
    new = forge(repo, "docs/memory")
    monkeypatch.chdir(repo)
    # another branch first in the input: the remote's main is the one named main
    lines = pre_push(repo, new, ZERO, "refs/heads/side") + pre_push(repo, new, old)
    report = history.check_pre_push(lines, "origin")
    assert history_rules(report), report.problems


def test_the_pre_push_gate_reads_the_policy_at_the_memory_branchs_remote_tip(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The memory branch is not the default branch: the policy is the one committed at the
    remote's memory branch (there, memory in docs/memory), not the default branch's."""
    (repo / ".gitmem.toml").write_text('[memory]\nbranch = "memory"\nproject = "local"\n')
    commit_all(repo, "settings: the memory lives on branch memory")
    bare = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    git(repo, "remote", "add", "origin", str(bare))
    accepted(push(repo, "main"))
    git(repo, "checkout", "-q", "-b", "memory")
    (repo / ".gitmem.toml").write_text(
        '[memory]\nbranch = "memory"\ndir = "docs/memory"\nproject = "local"\n'
    )
    ok(run(repo, "init"))
    old = commit_all(repo, "gitmem init")
    accepted(push(repo, "memory"))
    new = forge(repo, "docs/memory")
    monkeypatch.chdir(repo)
    report = history.check_pre_push(pre_push(repo, new, old, "refs/heads/memory"), "origin")
    assert history_rules(report), report.problems


def test_the_pre_push_gate_reads_the_remotes_default_branch(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A remote whose default branch is trunk: the trusted base is the remote's trunk."""
    git(repo, "branch", "-m", "main", "trunk")
    (repo / ".gitmem.toml").write_text('[memory]\nbranch = "trunk"\nproject = "local"\n')
    ok(run(repo, "init"))
    old = commit_all(repo, "gitmem init")
    bare = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "trunk", str(bare))
    git(repo, "remote", "add", "origin", str(bare))
    accepted(push(repo, "trunk"))
    git(repo, "remote", "set-head", "origin", "trunk")
    new = forge(repo)
    monkeypatch.chdir(repo)
    report = history.check_pre_push(pre_push(repo, new, old, "refs/heads/trunk"), "origin")
    assert history_rules(report), report.problems


def test_a_forced_push_over_a_tip_this_clone_never_saw_is_judged_from_what_it_knows(
    clone: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Someone else pushed main; this clone did not fetch and force-pushes. git names the
    remote's tip, which this clone lacks: the update is judged from the tracking ref."""
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", git(clone, "remote", "get-url", "origin").strip(), str(other))
    write(other, "notes.txt", "theirs\n")
    theirs = commit_all(other, "their code")
    accepted(push(other, "main"))
    write(clone, "notes.txt", "mine\n")
    mine = commit_all(clone, "my code")
    monkeypatch.chdir(clone)
    assert subprocess.run(["git", "cat-file", "-e", theirs], cwd=clone).returncode != 0
    report = history.check_pre_push(pre_push(clone, mine, theirs), "origin")
    assert report.ok and report.checked == 1, report.problems
    new = forge(clone)
    report = history.check_pre_push(pre_push(clone, new, theirs), "origin")
    assert history_rules(report) and report.checked == 2, report.problems


def test_a_forced_rewrite_over_an_unseen_tip_is_judged_against_the_known_one(
    clone: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rewrite drops an admission; the remote moved on since (this clone did not fetch):
    the net change is judged from the tracking ref's tip, which holds the entry."""
    admitted(clone, "Keep the memory reviewed")
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", git(clone, "remote", "get-url", "origin").strip(), str(other))
    write(other, "notes.txt", "theirs\n")
    theirs = commit_all(other, "their code")
    accepted(push(other, "main"))
    git(clone, "reset", "-q", "--hard", "HEAD~1")  # before the admission
    write(clone, "notes.txt", "mine\n")
    mine = commit_all(clone, "my code, over the admission")
    monkeypatch.chdir(clone)
    report = history.check_pre_push(pre_push(clone, mine, theirs), "origin")
    assert history_rules(report), report.problems


# ---------------------------------------------------------------- the pre-commit framework


def framework(old: str | None, new: str | None, **more: str) -> dict[str, str]:
    environ = {"PRE_COMMIT_REMOTE_NAME": "origin", "PRE_COMMIT_REMOTE_BRANCH": "refs/heads/main"}
    if old:
        environ["PRE_COMMIT_FROM_REF"] = old
    if new:
        environ["PRE_COMMIT_TO_REF"] = new
    return {**environ, **more}


def test_the_frameworks_range_marks_what_the_remote_has(
    clone: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = tip(clone)
    write(clone, "src/app.py", "print('hello')\n")
    new = commit_all(clone, "code")
    git(clone, "update-ref", "-d", "refs/remotes/origin/main")
    monkeypatch.chdir(clone)
    report = history.check_pushed_by_pre_commit(framework(old, new))
    assert report.ok and report.checked == 1, report.problems


def test_the_frameworks_first_push_is_judged_beside_the_remotes_tracking_refs(
    clone: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A first push of a branch names only PRE_COMMIT_LOCAL_BRANCH: what the remote has is
    known from its tracking refs, so only the branch's own commit is judged."""
    git(clone, "checkout", "-q", "-b", "feature")
    write(clone, "src/app.py", "print('hello')\n")
    commit_all(clone, "code")
    monkeypatch.chdir(clone)
    environ = framework(None, None, PRE_COMMIT_LOCAL_BRANCH="feature")
    environ["PRE_COMMIT_REMOTE_BRANCH"] = "refs/heads/feature"
    report = history.check_pushed_by_pre_commit(environ)
    assert report.ok and report.checked == 1, report.problems


@pytest.mark.parametrize("missing", ["PRE_COMMIT_REMOTE_BRANCH", "PRE_COMMIT_TO_REF"])
def test_the_framework_naming_no_pushed_ref_is_a_usage_error(
    clone: Path, monkeypatch: pytest.MonkeyPatch, missing: str
) -> None:
    environ = framework(tip(clone, "HEAD~1"), tip(clone))
    del environ[missing]
    monkeypatch.chdir(clone)
    with pytest.raises(UsageError, match="named no pushed ref"):
        history.check_pushed_by_pre_commit(environ)


def test_the_gitmem_check_command_speaks_for_the_frameworks_pre_push_stage(
    clone: Path,
) -> None:
    """The whole door, as the framework's hook runs it: `gitmem check --pre-commit-framework`
    with the framework's environment, exit 1 and the rule for a forged entry."""
    old = tip(clone)
    new = forge(clone)
    env = {**os.environ, **framework(old, new)}
    done = subprocess.run(
        ["gitmem", "check", "--pre-commit-framework"],
        cwd=clone,
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 1 and "HISTORY" in done.stdout + done.stderr, done


def test_history_cut_inside_the_commits_a_merge_brings_is_a_usage_error(
    memory: Path, tmp_path: Path
) -> None:
    """A shallow clone can hold the merge base and still lack the history of a branch the
    candidate merged in: that commit would be judged as a root adding its whole tree. The
    history judge says the clone is shallow instead."""
    server = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(server))
    git(memory, "checkout", "-q", "-b", "side")
    for n in range(4):
        (memory / "side.txt").write_text(f"{n}\n")
        git(memory, "add", "side.txt")
        git(memory, "commit", "-q", "-m", f"side {n}")
    git(memory, "checkout", "-q", "main")
    git(memory, "checkout", "-q", "-b", "topic")
    git(memory, "merge", "-q", "--no-ff", "-m", "merge side", "side")
    git(memory, "push", "-q", str(server), "main", "topic")
    shallow = tmp_path / "shallow"
    git(
        tmp_path, "clone", "-q", "--depth", "2", "--no-single-branch", server.as_uri(), str(shallow)
    )
    store = Store.open(shallow)
    main, topic = store.resolve("origin/main"), store.resolve("origin/topic")
    assert main and topic and store.merge_base(main, topic) == main
    with pytest.raises(UsageError, match="this clone is shallow: run git fetch --unshallow"):
        history.judge_merged(store, topic, main, Policy())
    git(shallow, "fetch", "-q", "--unshallow")
    assert history.judge_merged(Store.open(shallow), topic, main, Policy()) == []
