"""The history rules, enforced by the real pre-receive hook of a bare remote on real pushes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import remote
from clirunner import PROPOSE, first_id, ok, run, write
from remote import accepted, rejected
from secret_samples import github_token

from gitmem.gate import history
from gitmem.hooks import installer
from gitmem.model.entry import parse
from gitmem.repo.store import ZERO, Store
from gitmem.settings.policy import Policy

from conftest import git
from entries import text

# real pushes to a bare server running gitmem's pre-receive hook
pytestmark = pytest.mark.e2e

TOKEN = github_token(22)


def push(
    repo: Path, *refs: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """git push with the pusher's own pre-push hook too (these tests are no attacker's)."""
    return remote.push(repo, *refs, env=env, verify=True)


def candidate_id(name: str = "run-hooks-through-gitmem") -> str:
    return f"shop-method-20261129-{name}"


def propose_method(repo: Path, title: str, applies_when: str, content: str) -> str:
    """gitmem propose of a method; returns the candidate's id."""
    out = ok(run(repo, "propose", "--type", "method", "--title", title,
                 "--applies-when", applies_when, "--content", content)).output  # fmt: skip
    return out.split("gitmem/")[1].split()[0]


def commit_candidate(repo: Path, content: str, *, branch: str | None = None) -> str:
    entry_id = candidate_id()
    branch = branch or f"gitmem/{entry_id}"
    git(repo, "checkout", "-q", "-B", branch, "main")
    write(repo, f".gitmem/candidates/{entry_id}.md", content)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "candidate")
    git(repo, "checkout", "-q", "main")
    return branch


def test_the_first_push_to_an_empty_remote_is_judged_and_accepted(
    clone: Path, server: Path
) -> None:
    assert git(server, "rev-parse", "main") == git(clone, "rev-parse", "main")


def test_propose_push_admit_push_is_accepted(clone: Path, server: Path) -> None:
    ok(run(clone, *PROPOSE, "--push"))
    assert git(server, "branch", "--list", f"gitmem/{first_id()}").strip()
    ok(run(clone, "admit", first_id(), "--push"))
    assert git(server, "rev-parse", "main") == git(clone, "rev-parse", "main")
    assert git(server, "branch", "--list", "gitmem/*") == ""


def test_forged_entry_without_admit_merge(clone: Path) -> None:
    entry = text(status="admitted", admitted_by="human:eve", admitted="2026-11-29")
    write(clone, f".gitmem/entries/method/{candidate_id()}.md", entry)
    ok(run(clone, "index"))
    git(clone, "add", "-A")
    git(clone, "commit", "-q", "--no-verify", "-m", "forged")
    stderr = rejected(push(clone, "main"), "HISTORY-ADMIT")
    assert "without an admit merge" in stderr


def test_forged_admit_merge_with_edited_text(clone: Path) -> None:
    ok(run(clone, *PROPOSE))
    ok(run(clone, "admit", first_id()))
    path = clone / f".gitmem/entries/decision/{first_id()}.md"
    path.write_text(path.read_text().replace("Read objects with pygit2.", "Anything goes."))
    git(clone, "commit", "-q", "--no-verify", "--amend", "-a", "--no-edit")
    rejected(push(clone, "main"), "HISTORY-ADMIT")


def test_an_entry_whose_cited_file_moved_after_admission_stays_valid(
    clone: Path, server: Path
) -> None:
    ok(run(clone, *PROPOSE))  # cites README.md
    ok(run(clone, "admit", first_id()))
    accepted(push(clone, "main"))
    git(clone, "mv", "README.md", "README.txt")
    git(clone, "commit", "-q", "-m", "rename the readme")
    accepted(push(clone, "main"))
    root = git(clone, "rev-list", "--max-parents=0", "HEAD").split()[-1]
    assert ok(run(clone, "check", "--range", f"{root}..HEAD")).exit_code == 0


def test_an_admission_citing_a_folder_is_accepted(clone: Path, server: Path) -> None:
    write(clone, "docs/guide.md", "# guide\n")
    git(clone, "add", "docs")
    git(clone, "commit", "-q", "-m", "docs")
    accepted(push(clone, "main"))
    ok(run(clone, *PROPOSE[:-2], "--file", "docs"))
    ok(run(clone, "admit", first_id()))
    accepted(push(clone, "main"))


def test_an_admission_citing_a_file_its_commit_lacks_is_refused(clone: Path) -> None:
    ok(run(clone, *PROPOSE))  # cites README.md
    ok(run(clone, "admit", first_id()))
    git(clone, "rm", "-q", "README.md")
    git(clone, "commit", "-q", "--no-verify", "--amend", "--no-edit")
    stderr = rejected(push(clone, "main"), "FILES-MISSING")
    assert "'README.md'" in stderr


def test_audit_sourced_decision_and_two_batch_mistake_are_refused(clone: Path) -> None:
    branch = commit_candidate(clone, text(source="audit:v.md"))
    rejected(push(clone, branch), "SCHEMA")
    mistake = text(
        source="audit:v.md", type="mistake", correction="c", detection_signal="d",
        evidence_batches=["b1", "b2"], id="shop-mistake-20261129-run-hooks-through-gitmem",
    )  # fmt: skip
    git(clone, "checkout", "-q", "-B", "gitmem/shop-mistake-20261129-run-hooks-through-gitmem")
    write(clone, ".gitmem/candidates/shop-mistake-20261129-run-hooks-through-gitmem.md", mistake)
    git(clone, "add", "-A")
    git(clone, "commit", "-q", "--no-verify", "-m", "mistake")
    git(clone, "checkout", "-q", "main")
    stderr = rejected(
        push(clone, "gitmem/shop-mistake-20261129-run-hooks-through-gitmem"), "SCHEMA"
    )
    assert "at least 3 distinct batches" in stderr


def test_force_push_that_deletes_or_edits_an_entry(clone: Path) -> None:
    ok(run(clone, *PROPOSE, "--push"))
    ok(run(clone, "admit", first_id(), "--push"))
    path = f".gitmem/entries/decision/{first_id()}.md"
    git(clone, "rm", "-q", path)
    ok(run(clone, "index"))
    git(clone, "commit", "-q", "--no-verify", "-am", "drop it")
    rejected(push(clone, "main"), "HISTORY-DELETE")
    git(clone, "reset", "-q", "--hard", "HEAD~1")
    (clone / path).write_text((clone / path).read_text().replace("pygit2.", "the CLI."))
    git(clone, "commit", "-q", "--no-verify", "-am", "edit it")
    rejected(push(clone, "main"), "HISTORY-EDIT")
    git(clone, "reset", "-q", "--hard", "HEAD~2")  # rewrite history without the admission
    (clone / "other.txt").write_text("x")
    git(clone, "add", "other.txt")
    git(clone, "commit", "-q", "--no-verify", "-m", "rewrite")
    rejected(push(clone, "+main"), "HISTORY-DELETE")


def test_fast_forward_through_a_branch_the_server_has_is_no_rewrite(
    clone: Path, server: Path
) -> None:
    """main moves onto a branch the server already holds, plus one commit: the walk of new
    commits stops at that branch's tip, not at the old main, yet nothing is rewritten."""
    ok(run(clone, *PROPOSE, "--push"))
    ok(run(clone, "admit", first_id(), "--push"))
    git(clone, "checkout", "-q", "-b", "feature")
    write(clone, "app.py", "print('feature')\n")
    git(clone, "add", "-A")
    git(clone, "commit", "-q", "--no-verify", "-m", "feature")
    accepted(push(clone, "feature"))
    git(clone, "checkout", "-q", "main")
    git(clone, "merge", "-q", "--ff-only", "feature")
    write(clone, "app.py", "print('main')\n")
    git(clone, "commit", "-q", "--no-verify", "-am", "on main")
    accepted(push(clone, "main"))
    assert git(server, "rev-parse", "main") == git(clone, "rev-parse", "main")


def test_candidate_branch_that_also_changes_code(clone: Path) -> None:
    entry_id = candidate_id()
    git(clone, "checkout", "-q", "-b", f"gitmem/{entry_id}")
    write(clone, f".gitmem/candidates/{entry_id}.md", text())
    write(clone, "app.py", "print('sneaky')\n")
    git(clone, "add", "-A")
    git(clone, "commit", "-q", "--no-verify", "-m", "candidate and code")
    git(clone, "checkout", "-q", "main")
    assert "app.py" in rejected(push(clone, f"gitmem/{entry_id}"), "CANDIDATE-BRANCH")


def test_secret_added_then_removed_within_one_push(clone: Path) -> None:
    body = f"## Context\nc\n## Content\nuse {TOKEN}\n## Evidence\n"
    branch = commit_candidate(clone, text(body=body))
    git(clone, "checkout", "-q", branch)
    write(clone, f".gitmem/candidates/{candidate_id()}.md", text())
    git(clone, "commit", "-q", "--no-verify", "-am", "remove the token")
    git(clone, "checkout", "-q", "main")
    stderr = rejected(push(clone, branch), "SECRET")
    assert TOKEN not in stderr


def test_candidate_file_on_main(clone: Path) -> None:
    write(clone, f".gitmem/candidates/{candidate_id()}.md", text())
    git(clone, "add", "-A")
    git(clone, "commit", "-q", "--no-verify", "-m", "candidate on main")
    rejected(push(clone, "main"), "HISTORY-CANDIDATE")


def test_forged_supersession_cycle(clone: Path) -> None:
    ok(run(clone, *PROPOSE))
    ok(run(clone, "admit", first_id()))
    accepted(push(clone, "main"))
    path = clone / f".gitmem/entries/decision/{first_id()}.md"
    cyclic = path.read_text().replace(
        "status: admitted\n", f"status: superseded\nsuperseded_by: {first_id()}\n"
    )
    path.write_text(cyclic.replace("tags:", f"supersedes: [{first_id()}]\ntags:"))
    ok(run(clone, "index"))
    git(clone, "commit", "-q", "--no-verify", "-am", "cycle")
    rejected(push(clone, "main"), "HISTORY-EDIT")


def test_admitted_by_must_be_the_pusher_when_enforced(clone: Path, server: Path) -> None:
    git(server, "config", "gitmem.requirePusherMatch", "true")  # the server's policy
    ok(run(clone, *PROPOSE))
    ok(run(clone, "admit", first_id(), "--by", "human:alice"))
    stderr = rejected(push(clone, "main", env={"GL_USERNAME": "mallory", "GL_ID": "user-2"}),
                      "HISTORY-ADMITTER")  # fmt: skip
    assert "GL-HOOK-ERR:" in stderr and "'mallory'" in stderr
    accepted(push(clone, "main", env={"GL_USERNAME": "alice", "GL_ID": "user-1"}))


def test_bad_candidate_branch_names(clone: Path) -> None:
    weird = push(clone, "main:refs/heads/gitmem/../x")
    assert weird.returncode != 0  # git itself refuses the ref name
    branch = commit_candidate(clone, text(), branch="gitmem/Not_An_Id")
    rejected(push(clone, branch), "CANDIDATE-BRANCH")


def test_the_server_reads_the_settings_its_git_is_given_by_the_environment(
    clone: Path, server: Path
) -> None:
    """A server that starts `git receive-pack` with settings given in the environment
    (GIT_CONFIG_COUNT, as a forge's service can): receive.fsckObjects given so has git check
    every pushed object, but the hook read the bare repository's files through libgit2
    alone, which reads no such variable, and refused every push, saying the check was off."""
    git(server, "config", "--unset", "receive.fsckObjects")
    stderr = rejected(remote.push(clone, "main:refs/heads/feature"), "POLICY")
    assert "receive.fsckObjects is off" in stderr, stderr
    given = "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=receive.fsckObjects GIT_CONFIG_VALUE_0=yes"
    receive = f"--receive-pack=env {given} git receive-pack"
    accepted(remote.push(clone, receive, "main:refs/heads/feature"))


def test_deletions_tags_and_code_only_pushes_are_handled(clone: Path, server: Path) -> None:
    ok(run(clone, *PROPOSE, "--push"))
    accepted(push(clone, f":gitmem/{first_id()}"))
    git(clone, "tag", "-a", "v1", "-m", "release")
    accepted(push(clone, "v1"))
    for n in range(3):
        (clone / f"code{n}.py").write_text(f"print({n})\n")
        git(clone, "add", "-A")
        git(clone, "commit", "-q", "-m", f"code {n}")
    accepted(push(clone, "main"))
    stderr = rejected(push(clone, ":main"), "HISTORY-DELETE")
    assert "deleting main" in stderr


def test_pre_push_hook_catches_it_before_the_server(clone: Path) -> None:
    installer.install(clone)
    write(clone, f".gitmem/candidates/{candidate_id()}.md", text())
    git(clone, "add", "-A")
    git(clone, "commit", "-q", "--no-verify", "-m", "candidate on main")
    done = push(clone, "main")
    assert done.returncode != 0
    assert "HISTORY-CANDIDATE" in done.stderr and "pre-receive" not in done.stderr


def _second_clone(server: Path, tmp_path: Path) -> Path:
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(server), str(other))
    return other


PROPOSE_OTHER = [
    "propose", "--type", "method", "--title", "Review memory like code",
    "--applies-when", "a candidate is waiting", "--content", "Open a pull request.",
]  # fmt: skip


def test_concurrent_admissions_on_two_clones(clone: Path, server: Path, tmp_path: Path) -> None:
    other = _second_clone(server, tmp_path)
    ok(run(clone, *PROPOSE, "--push"))
    ok(run(other, *PROPOSE_OTHER, "--push"))
    git(other, "fetch", "-q")
    ok(run(other, "admit", first_id(), "--push"))  # admits the first clone's candidate
    git(clone, "fetch", "-q")
    listing = ok(run(clone, "candidates")).output.split()
    theirs = next(word for word in listing if word.endswith("review-memory-like-code"))
    # the first clone's main is behind the server now: admit --push catches up first
    ok(run(clone, "admit", theirs, "--push"))
    index = git(server, "show", "main:.gitmem/INDEX.md")
    assert first_id() in index and theirs in index


def test_a_plain_git_pull_that_merges_an_admission_in_is_refused_and_admit_push_lands(
    clone: Path, server: Path, tmp_path: Path
) -> None:
    """A `git pull` merge whose second parent is the server's main puts that admission off
    the first-parent chain: the merge itself then adds an entry that no admit merge explains.
    The pre-push hook says what to do; admitting with --push builds on the server's tip."""
    other = _second_clone(server, tmp_path)
    installer.install(clone)  # sets up the INDEX.md merge driver and the pre-push hook
    ok(run(clone, *PROPOSE, "--push"))
    ok(run(other, *PROPOSE_OTHER))
    ok(run(clone, "admit", first_id()))
    second = git(other, "branch", "--list", "gitmem/*").split()[-1].removeprefix("gitmem/")
    ok(run(other, "admit", second))
    accepted(push(other, "main"))
    pulled = subprocess.run(
        ["git", "pull", "--no-rebase", "--no-edit", "origin", "main"],
        cwd=clone, capture_output=True, text=True,
    )  # fmt: skip
    assert pulled.returncode == 0, pulled.stdout + pulled.stderr
    assert ok(run(clone, "index", "--check")).output == ""  # INDEX.md merged right
    done = push(clone, "main")
    assert done.returncode != 0 and "HISTORY-ADMIT" in done.stderr, done.stderr
    assert "git pull --rebase" in done.stderr and second in done.stderr
    git(clone, "reset", "-q", "--hard", "origin/main")
    ok(run(clone, "admit", first_id(), "--push"))  # from the remote's candidate branch
    index = git(server, "show", "main:.gitmem/INDEX.md")
    assert first_id() in index and second in index


def test_a_push_of_many_admissions_is_judged_from_one_diff_stream(clone: Path) -> None:
    """Past history.BULK_DIFF_MIN changed memory folders the diffs come from one `git
    diff-tree` (in the hook's quarantine); the rules judge them as they judge a small push."""
    words = [f"step {n}" for n in range(12)] + [f"step {n} again" for n in range(6)]
    ids = [
        propose_method(clone, f"Stage the {w} release", f"shipping the {w} release", "Stage it.")
        for w in words
    ]
    ok(run(clone, "admit", *ids))
    assert len(ids) * 2 > history.BULK_DIFF_MIN
    refused = clone / ".gitmem/refused.md"
    rows = refused.read_text().count("\n")
    refused.write_text(refused.read_text() + f"| shop-method-x | token {TOKEN} | 2026-11-29 |\n")
    git(clone, "commit", "-q", "--no-verify", "-am", "a secret among the admissions")
    stderr = rejected(push(clone, "main"), "SECRET")  # found by the scanning worker
    assert f".gitmem/refused.md:{rows + 1}: SECRET" in stderr and TOKEN not in stderr
    git(clone, "reset", "-q", "--hard", "HEAD~1")
    forged = text(
        status="admitted", admitted_by="human:eve", admitted="2026-11-29",
        id="shop-method-20261129-slipped-in-between",
    )  # fmt: skip
    write(clone, ".gitmem/entries/method/shop-method-20261129-slipped-in-between.md", forged)
    ok(run(clone, "index"))
    git(clone, "add", "-A")
    git(clone, "commit", "-q", "--no-verify", "-m", "forged")
    stderr = rejected(push(clone, "main"), "HISTORY-ADMIT")
    assert "slipped-in-between.md" in stderr and "without an admit merge" in stderr
    assert stderr.count("HISTORY-") == 1  # the admissions around it are fine
    git(clone, "reset", "-q", "--hard", "HEAD~1")
    # an admit merge made by hand, as gitmem admit would, of a candidate holding a token: the
    # judge proves the candidate's bytes from the admitted text, and still scans them
    secret_id = "shop-method-20261129-keep-the-token-handy"
    body = f"## Context\nc\n\n## Content\nuse {TOKEN}\n\n## Evidence\ne\n"
    candidate = text(body=body, id=secret_id)
    git(clone, "checkout", "-q", "-b", f"gitmem/{secret_id}")
    write(clone, f".gitmem/candidates/{secret_id}.md", candidate)
    git(clone, "add", "-A")
    git(clone, "commit", "-q", "--no-verify", "-m", "candidate")
    git(clone, "checkout", "-q", "main")
    git(clone, "merge", "-q", "--no-ff", "--no-commit", f"gitmem/{secret_id}")
    admitted = parse(candidate).with_meta(
        status="admitted", admitted_by="human:alice", admitted="2026-11-29"
    )
    git(clone, "rm", "-q", "-f", f".gitmem/candidates/{secret_id}.md")
    write(clone, f".gitmem/entries/method/{secret_id}.md", admitted.render())
    ok(run(clone, "index"))
    git(clone, "add", "-A")
    git(clone, "commit", "-q", "--no-verify", "-m", f"gitmem: admit {secret_id}")
    stderr = rejected(push(clone, "main"), "SECRET")
    assert f"candidates/{secret_id}.md" in stderr  # the candidate commit, scanned
    assert f"entries/method/{secret_id}.md" in stderr and TOKEN not in stderr
    assert "HISTORY-" not in stderr  # the admission itself is well formed
    git(clone, "reset", "-q", "--hard", "HEAD~1")
    accepted(push(clone, "main"))


def test_a_push_of_many_candidate_branches_is_judged_as_each_alone(clone: Path) -> None:
    """Past history.BULK_DIFF_MIN commits over all the branches of one push, their diffs come
    from one git process: a branch that also changes code, one whose candidate carries a
    token, and one whose candidate breaks a file rule are each still named, the rest pass."""
    ids = [
        propose_method(clone, f"Batch lesson {n}", f"running batch {n}", "Keep batches small.")
        for n in range(36)
    ]
    assert len(ids) > history.BULK_DIFF_MIN
    git(clone, "checkout", "-q", f"gitmem/{ids[3]}")
    write(clone, "src/app.py", "print('also code')\n")
    git(clone, "add", "-A")
    git(clone, "commit", "-q", "--no-verify", "-m", "and some code")
    git(clone, "checkout", "-q", f"gitmem/{ids[7]}")
    path = clone / f".gitmem/candidates/{ids[7]}.md"
    path.write_text(path.read_text().replace("Keep batches small.", f"Use {TOKEN}."))
    git(clone, "commit", "-q", "--no-verify", "-am", "a token")
    git(clone, "checkout", "-q", f"gitmem/{ids[11]}")
    path = clone / f".gitmem/candidates/{ids[11]}.md"
    path.write_text(path.read_text().replace("type: method", "type: rumour"))
    git(clone, "commit", "-q", "--no-verify", "-am", "a type that is not one")
    git(clone, "checkout", "-q", "main")
    stderr = rejected(push(clone, *(f"gitmem/{i}" for i in ids)), "CANDIDATE-BRANCH")
    assert f"gitmem/{ids[3]} changes src/app.py" in stderr
    assert f"candidates/{ids[7]}.md:" in stderr and " SECRET " in stderr and TOKEN not in stderr
    assert f"candidates/{ids[11]}.md:" in stderr and " SCHEMA " in stderr
    named = {i for i in ids if f"candidates/{i}.md" in stderr}
    assert named == {ids[3], ids[7], ids[11]}, named


def test_a_code_only_range_does_not_load_the_secret_rules(clone: Path) -> None:
    """Judging commits that touch no memory file costs no secret scanner, not even its import."""
    for n in range(3):
        (clone / f"code{n}.py").write_text(f"print({n})\n")
        git(clone, "add", "-A")
        git(clone, "commit", "-q", "-m", f"code {n}")
    script = (
        "import sys\nfrom gitmem.gate import history\n"
        "report = history.check_range('HEAD~3..HEAD')\n"
        "print(report.checked, len(report.problems), 'gitmem.gate.secrets' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=clone, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["3", "0", "False"]
    (clone / ".gitmem/refused.md").write_text((clone / ".gitmem/refused.md").read_text() + "\n")
    git(clone, "commit", "-q", "-am", "touch the memory")
    done = subprocess.run(
        [sys.executable, "-c", script.replace("HEAD~3..HEAD", "HEAD~1..HEAD")],
        cwd=clone, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert done.stdout.split()[-1] == "True"  # a memory file changed: now it is scanned


def test_judging_entries_gitmem_wrote_does_not_load_yaml(clone: Path) -> None:
    """Front matter as gitmem writes it is read without YAML: the libraries are not even
    imported (a tenth of a one-candidate pre-receive check)."""
    ok(run(clone, *PROPOSE))
    branch = git(clone, "branch", "--list", "gitmem/*").split()[-1]
    script = (
        "import sys\nfrom gitmem.gate import history\n"
        f"report = history.check_range('main..{branch}')\n"
        "print(report.checked, len(report.problems), 'yaml' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=clone, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["1", "0", "False"], done.stdout + done.stderr


def test_judging_leaves_the_cycle_collector_as_it_found_it(clone: Path) -> None:
    """Judging plays no games with the cycle collector: it is on afterwards (off when it was
    off), nothing is frozen, and it collects new cycles as ever."""
    ok(run(clone, *PROPOSE))
    branch = git(clone, "branch", "--list", "gitmem/*").split()[-1]
    script = (
        "import gc, weakref\nfrom gitmem.gate import history\n"
        "class Node: pass\n"
        "def judged():\n"
        "    frozen = gc.get_freeze_count()\n"
        f"    report = history.check_range('main..{branch}')\n"
        "    assert gc.get_freeze_count() == frozen\n"
        "    return report.checked, gc.isenabled()\n"
        "first = judged()\n"
        "a, b = Node(), Node(); a.other, b.other = b, a\n"
        "gone = weakref.ref(a); del a, b\n"
        "gc.collect()\n"
        "gc.disable()\n"
        "print(*first, gone() is None, *judged())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=clone, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["1", "True", "True", "1", "False"], done.stdout + done.stderr


def test_a_range_check_ends_its_process_with_its_whole_verdict(clone: Path) -> None:
    """`gitmem check --range` prints its whole verdict through a pipe, with the right exit
    code, however many problems it found."""
    for n in range(60):
        entry_id = candidate_id(f"forged-{n}")
        entry = text(id=entry_id, status="admitted", admitted_by="human:eve", admitted="2026-11-29")
        write(clone, f".gitmem/entries/method/{entry_id}.md", entry)
    ok(run(clone, "index"))
    git(clone, "add", "-A")
    git(clone, "commit", "-q", "--no-verify", "-m", "forged")

    def check(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "gitmem", "check", "--range", *args]
        return subprocess.run(command, cwd=clone, capture_output=True, text=True)

    done = check("origin/main..main", "--format", "json")
    assert done.returncode == 1, done.stderr
    problems = json.loads(done.stdout)["problems"]
    assert [p["rule"] for p in problems] == ["HISTORY-ADMIT"] * 60
    done = check("origin/main..main")
    assert done.returncode == 1 and done.stdout.count("HISTORY-ADMIT") == 60
    assert done.stdout.endswith("gitmem check: 60 problems in 60 files (1 commit checked)\n")
    done = check("origin/main..origin/main")
    assert done.returncode == 0 and "no problems" in done.stdout, done.stdout + done.stderr


def test_a_push_of_many_branches_judged_by_two_processes_finds_the_same(
    clone: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past history.SPLIT_MIN updates a forked child judges half the branches: the verdict is
    the one a single process gives, also when the child fails."""
    ids = [
        propose_method(clone, f"Split lesson {n}", f"splitting {n}", "Split it.") for n in range(8)
    ]
    for n, change in ((2, "code"), (5, "token")):
        git(clone, "checkout", "-q", f"gitmem/{ids[n]}")
        if change == "code":
            write(clone, "src/app.py", "print('code')\n")
        else:
            path = clone / f".gitmem/candidates/{ids[n]}.md"
            path.write_text(path.read_text().replace("Split it.", f"Use {TOKEN}."))
        git(clone, "add", "-A")
        git(clone, "commit", "-q", "--no-verify", "-m", change)
    git(clone, "checkout", "-q", "main")
    store = Store.open(clone)
    main = store.resolve("main")
    assert main is not None
    updates = [
        history.Update(
            ZERO, git(clone, "rev-parse", f"gitmem/{i}").strip(), f"refs/heads/gitmem/{i}"
        )
        for i in ids
    ]
    updates.insert(3, history.Update(main, main, "refs/heads/main"))

    def verdict() -> tuple[list[tuple[str, int | None, str, str]], int]:
        monkeypatch.chdir(clone)
        report = history.judge(Store.open(clone), updates, exclude=[main], policy=Policy())
        return [(p.path, p.line, p.rule, p.message) for p in report.problems], report.checked

    alone = verdict()
    assert {rule for _, _, rule, _ in alone[0]} == {"CANDIDATE-BRANCH", "SECRET"}
    monkeypatch.setattr(history, "SPLIT_MIN", 4)
    parent, judge_updates = os.getpid(), history._judge_updates
    judged_here: list[str] = []

    def recorded(judge_: history.Judge, part: list[history.Update]) -> None:
        if os.getpid() == parent:
            judged_here.extend(update.ref for update in part)
        judge_updates(judge_, part)

    monkeypatch.setattr(history, "_judge_updates", recorded)
    assert verdict() == alone
    # main's update and the first half here; the token's branch (ids[5]) in the child
    assert judged_here == ["refs/heads/main", *(f"refs/heads/gitmem/{i}" for i in ids[:3])]

    def failing_in_child(judge_: history.Judge, part: list[history.Update]) -> None:
        if os.getpid() != parent:
            raise RuntimeError("the forked judge fails")
        judge_updates(judge_, part)

    monkeypatch.setattr(history, "_judge_updates", failing_in_child)
    assert verdict() == alone


def test_a_real_push_of_hundreds_of_candidate_branches_is_judged_by_the_server(
    clone: Path, server: Path
) -> None:
    """More branches than history.SPLIT_MIN (where the judge splits them between two
    processes) in one `git push` to a server with the hook, in its quarantine: a token in one
    branch is found, and without it every branch lands."""
    store = Store.open(clone)
    main = store.resolve("main")
    assert main is not None
    count = history.SPLIT_MIN + 40
    for n in range(count):
        entry_id = f"shop-method-20261129-many-{n}"
        body = (
            "## Context\nc\n\n## Content\n"
            + (f"use {TOKEN}" if n == count - 3 else f"lesson {n}")
            + "\n\n## Evidence\ne\n"
        )
        blob = store.write_blob(text(body=body, id=entry_id).encode())
        tree = store.build_tree(
            store.tree_of(main), {f".gitmem/candidates/{entry_id}.md": (blob, 0o100644)}
        )
        commit = store.write_commit(tree, [main], f"gitmem: propose {entry_id}")
        store.update_ref(f"refs/heads/gitmem/{entry_id}", commit, None, "test")
    stderr = rejected(push(clone, "refs/heads/gitmem/*"), "SECRET")
    assert f"many-{count - 3}.md" in stderr and TOKEN not in stderr
    assert stderr.count(" SECRET ") == 1 and "HISTORY-" not in stderr
    git(clone, "branch", "-q", "-D", f"gitmem/shop-method-20261129-many-{count - 3}")
    accepted(push(clone, "refs/heads/gitmem/*"))
    landed = git(server, "for-each-ref", "--format=%(refname)", "refs/heads/gitmem/")
    assert len(landed.split()) == count - 1


def test_a_range_naming_what_is_not_a_commit_is_a_usage_error(clone: Path) -> None:
    for spec in ("nothing-here..HEAD", "HEAD..nothing-here", "HEAD...HEAD", "HEAD"):
        result = run(clone, "check", "--range", spec)
        assert result.exit_code == 2, (spec, result.output)
        assert "Traceback" not in result.output
    missing = run(clone, "check", "--range", "HEAD..nothing-here").output
    assert "'nothing-here' is not a commit here (git fetch first?)" in missing
