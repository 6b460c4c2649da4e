"""propose: one commit on a new candidate branch, from flags, a draft file or an old entry, on
real repositories."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from clirunner import HOOKS, PROPOSE, first_id, ok, proposed, run
from remote import connect, make_server

from conftest import git, killed_at_fault, read_only, run_gitmem


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


def test_propose_from_dash_reads_standard_input(memory: Path) -> None:
    """`--from -` was taken for a file named "-": "cannot read -: No such file or
    directory". It reads standard input, as git and most tools do, under the same limits."""
    from entries import text

    result = ok(run(memory, "propose", "--from", "-", input=text()))
    assert "local-method-" in result.output
    assert git(memory, "branch", "--list", "gitmem/*").strip()
    empty = run(memory, "propose", "--from", "-", input="")
    assert empty.exit_code != 0 and "Traceback" not in empty.output


def test_twenty_parallel_proposals_of_one_title_all_survive(memory: Path) -> None:
    """Ten different proposals of one title, each run twice, all twenty at once: each of
    the ten gets a branch of its own, and both runs of one proposal end on the same one
    (the second finds the very candidate on the branch the first made)."""
    env = {**os.environ}
    content = PROPOSE.index("--content") + 1

    def one(n: int) -> subprocess.CompletedProcess[str]:
        args = [*PROPOSE]
        args[content] = f"Read objects with pygit2, take {n % 10}."
        cmd = [sys.executable, "-m", "gitmem", *args]
        return subprocess.run(cmd, cwd=memory, capture_output=True, text=True, env=env)

    with ThreadPoolExecutor(max_workers=20) as pool:
        results = list(pool.map(one, range(20)))
    assert all(r.returncode == 0 for r in results), [r.stderr for r in results]
    branches = git(memory, "branch", "--list", "gitmem/*").split()
    ids = {b.removeprefix("gitmem/") for b in branches}
    expected = {first_id()} | {f"{first_id()}-{n}" for n in range(2, 11)}
    assert ids == expected
    said = [proposed(r.stdout) for r in results]
    assert [said[n] for n in range(10)] == [said[n + 10] for n in range(10)]
    assert set(said) == expected


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


def test_duplicate_of_an_admitted_entry_is_refused(memory: Path) -> None:
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    again = run(memory, *PROPOSE)
    assert again.exit_code == 1 and "DUPLICATE" in again.output


def test_a_duplicate_s_commands_never_carry_an_id_that_is_no_id(memory: Path) -> None:
    """The DUPLICATE refusal spells the commands that supersede the entry with its id, read
    from main's INDEX.md, where a line's id is any text (a hand edit, a hostile merge): a
    line naming `x; touch pwned` made the refusal say `gitmem propose --supersedes x; touch
    pwned`, which a person or an agent pastes into a shell. An id that is no id is named,
    and the commands say ID."""
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    index = memory / ".gitmem/INDEX.md"
    index.write_text(index.read_text().replace(f"[{first_id()}]", "[x; touch pwned]"))
    git(memory, "commit", "-q", "--no-verify", "-am", "an INDEX.md line edited by hand")
    again = run(memory, *PROPOSE)
    assert again.exit_code == 1 and "DUPLICATE" in again.output, again.output
    said = " ".join(again.output.split())
    assert "--supersedes ID, or --edit ID" in said, said
    assert "--supersedes x;" not in said and "--edit x;" not in said, said


def test_a_superseded_title_holding_admitted_is_no_duplicate(memory: Path) -> None:
    """The duplicate-topic check read INDEX.md lines holding " admitted — " anywhere: a
    superseded entry whose title held those words was read as an admitted entry titled by
    what followed, and a new proposal of that title was refused as its duplicate."""
    old_title = "Old way admitted — Use pygit2 inside hooks"
    old = ok(run(memory, *PROPOSE[:3], "--title", old_title, *PROPOSE[5:])).output.split()[1]
    ok(run(memory, "admit", old))
    successor = run(memory, "propose", "--edit", old, "--title", "Read objects another way")
    ok(run(memory, "admit", ok(successor).output.split()[1]))
    assert f"[{old}]" in (memory / ".gitmem" / "INDEX.md").read_text()
    ok(run(memory, *PROPOSE))  # "Use pygit2 inside hooks": no admitted entry has its topic


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


def test_authorship_follows_git_env_then_config(
    memory: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 14, case 7: GIT_AUTHOR_NAME names the source and the commit's author alike, as
    git would; without it, the config's author.name, then user.name."""
    git(memory, "config", "user.name", "Alice")
    git(memory, "config", "user.email", "alice@example.com")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Carol")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "carol@example.com")
    monkeypatch.setenv("GIT_COMMITTER_NAME", "Robot")
    monkeypatch.delenv("GIT_COMMITTER_EMAIL")
    new = ok(run(memory, *PROPOSE)).output.split()[1]
    shown = git(memory, "log", "-1", "--format=%an <%ae>|%cn <%ce>", f"gitmem/{new}").strip()
    assert shown == "Carol <carol@example.com>|Robot <alice@example.com>"
    assert "source: human:Carol\n" in git(
        memory, "show", f"gitmem/{new}:.gitmem/candidates/{new}.md"
    )

    monkeypatch.setenv("GIT_AUTHOR_NAME", "Dave")
    ok(run(memory, "admit", new))
    assert git(memory, "log", "-1", "--format=%an", "main").strip() == "Dave"
    assert (
        "admitted_by: human:Dave\n" in (memory / f".gitmem/entries/decision/{new}.md").read_text()
    )

    for key in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL"):
        monkeypatch.delenv(key)
    git(memory, "config", "author.name", "Erin")
    other = ok(run(memory, *HOOKS)).output.split()[1]
    assert git(memory, "log", "-1", "--format=%an <%ae>", f"gitmem/{other}").strip() == (
        "Erin <alice@example.com>"
    )
    assert "source: human:Erin\n" in git(
        memory, "show", f"gitmem/{other}:.gitmem/candidates/{other}.md"
    )


def test_a_stale_lock_on_the_candidate_branch_is_named_not_stepped_around(
    memory: Path,
) -> None:
    """A lock git left on gitmem/<id> used to read as "the id is taken": the candidate
    went to gitmem/<id>-2 without a word."""
    lock = memory / ".git/refs/heads/gitmem" / f"{first_id()}.lock"
    lock.parent.mkdir(parents=True)
    lock.touch()
    refs = git(memory, "for-each-ref")
    result = run(memory, *PROPOSE)
    assert result.exit_code == 2, result.output
    assert f"rm '{lock}'" in result.output
    assert git(memory, "for-each-ref") == refs
    lock.unlink()
    assert proposed(ok(run(memory, *PROPOSE)).output) == first_id()


def test_propose_into_read_only_refs_or_objects_says_which_cannot_be_written(
    memory: Path,
) -> None:
    """Read-only refs used to cost 1,000 throwaway commits and "no free id after 1000
    attempts"; a read-only object database an unexpected error (exit 3)."""
    before = state(memory), git(memory, "for-each-ref")
    with read_only(memory / ".git" / "refs") as prefix:
        done = run_gitmem(memory, *PROPOSE, prefix=prefix)
    assert done.returncode == 2, done.stderr
    assert "git could not move refs/heads/gitmem/" in done.stderr
    assert "cannot be written: make it writable" in done.stderr
    assert (state(memory), git(memory, "for-each-ref")) == before
    with read_only(memory / ".git") as prefix:
        done = run_gitmem(memory, *PROPOSE, prefix=prefix)
    assert done.returncode == 2, done.stderr
    assert f"cannot write to the git repository at {memory / '.git'}" in done.stderr
    assert "unexpected" not in done.stderr
    assert (state(memory), git(memory, "for-each-ref")) == before


def test_a_proposal_killed_once_its_branch_is_made_is_reused_not_doubled(
    memory: Path, tmp_path: Path
) -> None:
    """`gitmem propose --push` killed once its branch gitmem/<id> was made (before the push,
    before it said what it proposed), then run again with the same input, took that branch
    for someone else's and proposed a second copy as `<id>-2`, for a reviewer to find and
    refuse. The same proposal now finds the branch that holds its very file and finishes
    with it (pushes it); a different proposal of the same title still gets a branch of its
    own."""
    server = make_server(tmp_path)
    connect(memory, server)
    branch = f"gitmem/{first_id()}"
    killed_at_fault(memory, "propose-after-ref", *PROPOSE, "--push")
    made = git(memory, "rev-parse", branch).strip()
    assert git(server, "branch", "--list", "gitmem/*") == ""  # killed before its push
    again = ok(run(memory, *PROPOSE, "--push")).output
    assert f"proposed {first_id()} (proposed before: its branch holds this very text)" in again
    assert f"branch   {branch} (pushed)" in again
    assert git(memory, "branch", "--list", "--format=%(refname:short)", "gitmem/*") == branch + "\n"
    assert git(memory, "rev-parse", branch).strip() == made
    assert git(server, "rev-parse", branch).strip() == made
    as_json = json.loads(ok(run(memory, *PROPOSE, "--format", "json")).output)
    assert (as_json["id"], as_json["commit"], as_json["reused"]) == (first_id(), made, True)
    other = [*PROPOSE]
    other[other.index("--content") + 1] = "Read refs with pygit2 too."
    assert proposed(ok(run(memory, *other)).output) == f"{first_id()}-2"
    third = [*PROPOSE]
    third[third.index("--content") + 1] = "Read the index with pygit2 as well."
    killed_at_fault(memory, "propose-after-ref", *third)  # a third of this title, killed
    assert proposed(ok(run(memory, *third)).output) == f"{first_id()}-3"  # its own, found
    names = git(memory, "branch", "--list", "--format=%(refname:short)", "gitmem/*").split()
    assert names == [branch, f"{branch}-2", f"{branch}-3"]


#: The longest project slug and type name (64 characters each) and a title whose slug is the
#: longest (60): an id of 199 characters, whose `-2` is past the longest id.
LONG_PROJECT = "-".join(["abcdefgh", *["abcdefg"] * 7])
LONG_KIND = "-".join(["tuvwxyza", *["tuvwxyz"] * 7])
LONG_TITLE = " ".join(["abcdefghijkl", *["abcdefghijk"] * 4])


def _with_longest_ids(repo: Path) -> list[str]:
    """repo set up for ids of 199 characters (LONG_*), committed; the propose arguments."""
    (repo / ".gitmem.toml").write_text(
        f'[memory]\nproject = "{LONG_PROJECT}"\ntypes = ["{LONG_KIND}"]\n'
    )
    ok(run(repo, "init"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "gitmem init")
    return ["propose", "--type", LONG_KIND, "--title", LONG_TITLE, "--applies-when", "always"]


def test_a_suffixed_id_past_the_longest_is_refused_not_proposed(repo: Path) -> None:
    """The base id of a proposal is judged, its `-2`, `-3` … were not: with a long project
    slug, a long type and a long title, the second proposal of a title got an id past 200
    characters, a branch that admit, refuse and `gitmem candidates` call no candidate."""
    args = _with_longest_ids(repo)
    first = ok(run(repo, *args, "--content", "one")).output.split()[1]
    assert len(first) == 199
    second = run(repo, *args, "--content", "two")
    assert second.exit_code == 1, second.output
    assert f"{first} is taken, and the next id, {first}-2, is longer than 200" in second.output
    assert "Traceback" not in second.output
    assert git(repo, "branch", "--list", "gitmem/*").split() == [f"gitmem/{first}"]


def test_an_id_taken_on_the_remote_with_no_next_id_keeps_the_proposal_here(
    repo: Path, tmp_path: Path
) -> None:
    """Another clone pushed first the id of a proposal whose next id, `-2`, is past the
    longest: the branch made here was deleted before the next id was found to be too long,
    so the proposal was lost while the output named its branch and a push of it. The
    branch stays, holding this proposal, and the output says the id is taken there and
    what to do, without a push that can never succeed."""
    server = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(server))
    git(repo, "remote", "add", "origin", str(server))
    args = [*_with_longest_ids(repo), "--push"]
    git(repo, "push", "-q", "origin", "main")
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(server), str(other))
    first = ok(run(other, *args, "--content", "theirs")).output.split()[1]
    assert len(first) == 199
    mine = run(repo, *args, "--content", "mine")
    assert mine.exit_code == 1, mine.output
    assert "Traceback" not in mine.output
    assert f"origin holds {first} for another candidate" in mine.output
    assert f"{first}-2, is longer than 200" in mine.output
    assert f"git push origin gitmem/{first}" not in mine.output
    assert git(repo, "branch", "--list", "--format=%(refname:short)", "gitmem/*").split() == [
        f"gitmem/{first}"
    ]
    kept = git(repo, "show", f"gitmem/{first}:.gitmem/candidates/{first}.md")
    assert "mine" in kept and "theirs" not in kept


def test_an_id_another_clone_pushed_first_moves_the_proposal_to_the_next_free_id(
    memory: Path, tmp_path: Path
) -> None:
    """Two clones that had not fetched each other's work took the same id for two proposals
    of one title on one day: the second push of gitmem/<id> was rejected, and the candidate
    was left here with "then: git push origin gitmem/<id>", a push that can never succeed.
    The proposal now moves to the next free id, as two proposals in one clone do: a new
    commit whose file and front matter carry `<id>-2`, pushed, and no branch of this
    proposal left behind under the id the remote gave to another. A clone that learns of
    one taken id learns of all the remote holds of that title at once (a third one goes
    straight to `-3`), and the same proposal pushed from two clones is one candidate."""
    server = make_server(tmp_path)
    connect(memory, server)
    other, third = tmp_path / "other", tmp_path / "third"
    for clone in (other, third):
        git(tmp_path, "clone", "-q", str(server), str(clone))
    first, second, branch = first_id(), f"{first_id()}-2", f"gitmem/{first_id()}"
    assert f"proposed {first}\n" in ok(run(memory, *PROPOSE, "--push")).output
    theirs = [*PROPOSE]
    theirs[theirs.index("--content") + 1] = "Read refs with pygit2 too."
    moved = ok(run(other, *theirs, "--push")).output
    taken = f"({first} is taken on origin by another candidate: took the next free id)"
    assert f"proposed {second} {taken}\nbranch   gitmem/{second} (pushed)\n" in moved
    assert git(server, "rev-parse", branch) == git(memory, "rev-parse", branch)
    text = git(server, "show", f"gitmem/{second}:.gitmem/candidates/{second}.md")
    assert f"id: {second}\n" in text and "Read refs with pygit2 too." in text
    changed = git(server, "diff", "--name-only", "main", f"gitmem/{second}").split()
    assert changed == [f".gitmem/candidates/{second}.md"]
    names = ["branch", "--list", "--format=%(refname:short)", "gitmem/*"]
    assert git(other, *names).split() == [f"gitmem/{second}"]
    again = json.loads(ok(run(other, *theirs, "--push", "--format", "json")).output)
    assert (again["id"], again["reused"], again["pushed"]) == (second, True, True)

    late = [*PROPOSE]
    late[late.index("--content") + 1] = "Read the index with pygit2 as well."
    as_json = json.loads(ok(run(third, *late, "--push", "--format", "json")).output)
    assert (as_json["id"], as_json["taken_on_remote"]) == (f"{first}-3", [first])
    assert git(third, *names).split() == [f"gitmem/{first}-3"]

    # other's very proposal, from here: in the second other's commit was made, this one
    # would be the very same commit, whose push succeeds as nothing new
    made = int(git(server, "log", "-1", "--format=%ct", f"gitmem/{second}"))
    while time.time() < made + 1:
        time.sleep(0.05)
    same = ok(run(memory, *theirs, "--push")).output
    assert f"proposed {second} (proposed before: its branch holds this very text)" in same
    assert git(memory, "rev-parse", f"gitmem/{second}") == git(
        server, "rev-parse", f"gitmem/{second}"
    )
    assert git(server, "branch", "--list", "gitmem/*").split() == [
        branch,
        f"{branch}-2",
        f"{branch}-3",
    ]


def test_a_push_refused_for_another_reason_keeps_its_id(memory: Path, tmp_path: Path) -> None:
    """Only a remote that holds another candidate under the id moves a proposal to the next
    one: a push a hook refuses leaves the branch here under its id, with the push that
    sends it once the remote takes it."""
    server = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(server))
    connect(memory, server)
    hook = server / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'candidates are closed today' >&2\nexit 1\n")
    hook.chmod(0o755)
    refused = run(memory, *PROPOSE, "--push")
    assert refused.exit_code == 1, refused.output
    assert f"proposed {first_id()}\n" in refused.output
    assert "candidates are closed today" in refused.output
    assert f"then: git push origin gitmem/{first_id()}" in refused.output
    assert git(memory, "branch", "--list", "gitmem/*").split() == [f"gitmem/{first_id()}"]
    assert git(server, "branch", "--list", "gitmem/*") == ""


def test_a_stale_remote_tracking_branch_where_candidates_go_is_named_with_prune(
    memory: Path, tmp_path: Path
) -> None:
    """origin had a branch `gitmem` once; this clone fetched it, and it was deleted there
    since, not pruned here. git can then write no `origin/gitmem/<id>`: when another clone
    had pushed the same id first, the fetch that learns which ids origin holds failed, and
    propose said only git's "[rejected] (fetch first)", while the user's own `git fetch`
    failed the same way. It names the ref in the way and `git remote prune origin`, and
    once pruned, the proposal moves to the next free id."""
    server = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(server))
    connect(memory, server)
    git(server, "branch", "gitmem", "main")
    git(memory, "fetch", "-q", "origin")
    git(server, "branch", "-D", "gitmem")
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(server), str(other))
    theirs = [*PROPOSE]
    theirs[theirs.index("--content") + 1] = "Read refs with pygit2 too."
    ok(run(other, *theirs, "--push"))

    result = run(memory, *PROPOSE, "--push")
    assert result.exit_code == 1, result.output
    assert (
        "gitmem: not pushed: a remote-tracking branch named `origin/gitmem` "
        f"(refs/remotes/origin/gitmem) stands where origin/gitmem/{first_id()} goes"
    ) in result.output
    assert "if origin no longer has it, prune it (`git remote prune origin`)" in result.output
    assert "fetch first" not in result.output
    git(memory, "remote", "prune", "origin")
    moved = ok(run(memory, *PROPOSE, "--push")).output
    assert f"branch   gitmem/{first_id()}-2 (pushed)" in moved


@pytest.mark.parametrize("in_the_way", ["gitmem", "gitmem/{id}/x"])
def test_a_branch_where_candidate_branches_go_is_named_with_how_to_rename_it(
    memory: Path, in_the_way: str
) -> None:
    """git cannot hold a branch `gitmem` beside branches `gitmem/<id>` (nor `gitmem/<id>/x`
    beside `gitmem/<id>`): propose said git's "cannot lock ref" and "fix what git says". It
    names the branch in the way and how to rename it (exit 2), and proposes once it is."""
    branch = in_the_way.format(id=first_id())
    git(memory, "branch", branch)
    result = run(memory, *PROPOSE)
    assert result.exit_code == 2, result.output
    assert (
        f"gitmem: a branch named `{branch}` (refs/heads/{branch}) stands where "
        + (
            "gitmem's candidate branches go (gitmem/<id>)"
            if branch == "gitmem"
            else f"gitmem/{first_id()} goes"
        )
        + f": git cannot hold a ref and refs below its name at once; rename it (`git branch "
        f"-m {branch} <other-name>`), then run the command again"
    ) in result.output
    assert "cannot lock ref" not in result.output
    git(memory, "branch", "-m", branch, "elsewhere")
    assert proposed(ok(run(memory, *PROPOSE)).output) == first_id()


@pytest.mark.parametrize("in_the_way", ["gitmem", "gitmem/{id}/x"])
def test_a_branch_on_the_remote_where_candidate_branches_go_is_named(
    memory: Path, tmp_path: Path, in_the_way: str
) -> None:
    """The same clash on the remote a push goes to: the proposal is kept here, and the
    refusal names the remote's branch in the way, not the remote git's "cannot lock ref"."""
    server = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(server))
    git(memory, "remote", "add", "origin", str(server))
    # ids would otherwise take the remote's name ("server")
    (memory / ".gitmem.toml").write_text('[memory]\nproject = "local"\n')
    git(memory, "add", ".gitmem.toml")
    git(memory, "commit", "-q", "-m", "settings")
    git(memory, "push", "-q", "origin", "main")
    branch = in_the_way.format(id=first_id())
    git(server, "branch", branch, "main")
    result = run(memory, *PROPOSE, "--push")
    assert result.exit_code == 1, result.output
    assert f"proposed {first_id()}" in result.output
    assert (
        f"gitmem: not pushed: origin has a branch named `{branch}` (refs/heads/{branch}), "
        "which stands where "
    ) in result.output
    assert f"`git fetch origin refs/heads/{branch} && git push origin FETCH_HEAD:" in (
        result.output
    )
    assert "cannot lock ref" not in result.output


# ---------------------------------------------------------------------------------------------
# which remote a candidate is pushed to


def gitmem_branches(repo: Path) -> list[str]:
    return git(repo, "branch", "--list", "--format=%(refname:short)", "gitmem/*").split()


def test_a_clone_whose_one_remote_is_not_origin_pushes_there(memory: Path, tmp_path: Path) -> None:
    """A clone made with `git clone -o upstream` (a fork's parent, named so) has no origin:
    `propose --push` said "there is no remote named origin: add one", where `git push`
    sends a new branch to the only remote there is. The candidate goes there, as git's would;
    naming another remote is refused before anything is made, listing those there are, and
    an id another clone took first there is said to be taken on upstream, not on origin."""
    server = make_server(tmp_path)
    connect(memory, server)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "-o", "upstream", str(server), str(clone))
    late = tmp_path / "late"  # another such clone, that will not have fetched clone's push
    git(tmp_path, "clone", "-q", "-o", "upstream", str(server), str(late))
    result = run_gitmem(clone, *PROPOSE, "--push")
    assert result.returncode == 0, result.stderr
    assert f"branch   gitmem/{first_id()} (pushed)" in result.stdout
    assert git(server, "rev-parse", f"gitmem/{first_id()}") == git(
        clone, "rev-parse", f"gitmem/{first_id()}"
    )
    other = [*PROPOSE]
    other[other.index("--title") + 1] = "Read refs with pygit2"
    wrong = run_gitmem(clone, *other, "--push", "--remote", "origin")
    assert wrong.returncode == 2, wrong.stderr
    assert wrong.stderr == (
        "gitmem: --remote origin: there is no remote named 'origin' (the remotes here: "
        "upstream): give one of those, or add it (git remote add origin URL)\n"
    )
    assert gitmem_branches(clone) == [f"gitmem/{first_id()}"]  # nothing made

    theirs = [*PROPOSE]
    theirs[theirs.index("--content") + 1] = "Read refs with pygit2 too."
    moved = run_gitmem(late, *theirs, "--push")
    assert moved.returncode == 0, moved.stderr
    taken = f"({first_id()} is taken on upstream by another candidate: took the next free id)"
    assert f"proposed {first_id()}-2 {taken}\n" in moved.stdout


def test_remote_push_default_chooses_the_remote_and_remote_overrides_it(
    memory: Path, tmp_path: Path
) -> None:
    """A repository that pushes to a fork (remote.pushDefault = fork) beside the project it
    came from (origin) had its candidates pushed to origin all the same: gitmem named
    origin, where `git push` goes to remote.pushDefault. `--remote NAME` overrides both,
    in each form of propose, and a remote.pushDefault that names no remote is a usage error
    saying so, before anything is made."""
    for side in ("project", "fork"):
        (tmp_path / side).mkdir()
    project, fork = make_server(tmp_path / "project"), make_server(tmp_path / "fork")
    connect(memory, project)
    git(memory, "remote", "add", "fork", str(fork))
    git(memory, "push", "-q", "fork", "main")
    git(memory, "config", "remote.pushDefault", "fork")
    branch = f"gitmem/{first_id()}"
    assert f"branch   {branch} (pushed)" in ok(run(memory, *PROPOSE, "--push")).output
    assert git(fork, "branch", "--list", "gitmem/*").split() == [branch]
    assert git(project, "branch", "--list", "gitmem/*") == ""

    entry_id = first_id()
    ok(run(memory, "admit", entry_id))
    git(memory, "push", "-q", "origin", "main")
    git(memory, "push", "-q", "fork", "main")
    retire = ["propose", "--retire", entry_id, "--reason", "a test write", "--push"]
    done = ok(run(memory, *retire, "--remote", "origin", "--format", "json")).output
    assert json.loads(done)["pushed"] is True
    assert git(project, "branch", "--list", "gitmem/*").split() == [f"{branch}-retire"]
    assert git(fork, "branch", "--list", "gitmem/*").split() == [branch]
    amend = ["propose", "--amend", entry_id, "--content", "Read objects and refs with pygit2."]
    assert "(pushed)" in ok(run(memory, *amend, "--push")).output
    assert git(fork, "branch", "--list", "gitmem/*").split() == [branch, f"{branch}-amend"]
    assert git(project, "branch", "--list", "gitmem/*").split() == [f"{branch}-retire"]

    git(memory, "config", "remote.pushDefault", "frok")
    other = [*PROPOSE]
    other[other.index("--title") + 1] = "Read refs with pygit2"
    made = gitmem_branches(memory)
    typo = run(memory, *other, "--push")
    assert typo.exit_code == 2, typo.output
    assert typo.output == (
        "gitmem: remote.pushDefault is 'frok', which is no remote here (the remotes: fork, "
        "origin): fix the setting (git config remote.pushDefault NAME), or give --remote NAME\n"
    )
    assert gitmem_branches(memory) == made
    assert "(pushed)" in ok(run(memory, *other, "--pr", "--remote", "fork")).output


def test_several_remotes_none_of_them_origin_and_none_chosen_is_a_usage_error(
    memory: Path, tmp_path: Path
) -> None:
    """Two remotes, neither origin nor named by remote.pushDefault: git pushes to origin,
    which is not there, and fails with "'origin' does not appear to be a git repository".
    gitmem asks which one, before anything is made; `--remote` alone, without a push, is
    refused too."""
    server = make_server(tmp_path)
    connect(memory, server, name="upstream")
    git(memory, "remote", "add", "mirror", str(server))
    result = run(memory, *PROPOSE, "--pr")
    assert result.exit_code == 2, result.output
    assert result.output == (
        "gitmem: which remote gets the candidate? The remotes here are mirror, upstream, none "
        "of them origin, and remote.pushDefault is not set: give --remote NAME, or set it "
        "(git config remote.pushDefault NAME)\n"
    )
    assert gitmem_branches(memory) == []
    alone = run(memory, *PROPOSE, "--remote", "upstream")
    assert (alone.exit_code, alone.output) == (2, "gitmem: --remote goes with --push or --pr\n")
    assert "(pushed)" in ok(run(memory, *PROPOSE, "--push", "--remote", "upstream")).output
    assert git(server, "branch", "--list", "gitmem/*").split() == [f"gitmem/{first_id()}"]


@pytest.mark.parametrize("flag", ["--push", "--pr"])
def test_no_remote_at_all_keeps_the_candidate_and_says_to_add_one(
    memory: Path, tmp_path: Path, flag: str
) -> None:
    """A repository with no remote: the candidate is made and stays on its branch, and the
    answer is a usage error (exit 2) that says to add a remote and how to push the branch
    then; following it pushes the candidate."""
    connect(memory, make_server(tmp_path), push_main=False)
    git(memory, "remote", "remove", "origin")
    branch = f"gitmem/{first_id()}"
    result = run_gitmem(memory, *PROPOSE, flag)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert f"proposed {first_id()}\nbranch   {branch}\n" == result.stdout
    assert result.stderr == (
        "gitmem: not pushed: this repository has no remote to push the candidate to: add one "
        f"(git remote add origin URL), then git push origin {branch}"
        + (", and open the pull request" if flag == "--pr" else "")
        + "\n"
    )
    assert gitmem_branches(memory) == [branch]
    git(memory, "remote", "add", "origin", str(tmp_path / "server.git"))
    git(memory, "push", "-q", "origin", "main")  # the memory branch first, as ever
    git(memory, "push", "-q", "origin", branch)
    assert git(tmp_path / "server.git", "branch", "--list", "gitmem/*").split() == [branch]


def test_a_title_whose_every_next_id_is_taken_is_refused_with_what_to_do(repo: Path) -> None:
    """When the id and all its suffixed ids are taken, the refusal was a bare "no free id
    after 1000 attempts", exit 1 but no rule's refusal: harvest and import, which skip a
    draft a rule refuses, stopped whole on it, and the person was not told what to do."""
    from gitmem.lifecycle.propose import MAX_ID_ATTEMPTS

    ok(run(repo, *PROPOSE))
    first = first_id()
    main = git(repo, "rev-parse", "main").strip()
    taken = "".join(
        f"create refs/heads/gitmem/{first}-{n} {main}\n" for n in range(2, MAX_ID_ATTEMPTS + 1)
    )
    subprocess.run(["git", "update-ref", "--stdin"], cwd=repo, input=taken, text=True, check=True)
    again = run(repo, *PROPOSE[:-6], "--content", "Read every object with pygit2.", *PROPOSE[-4:])
    assert again.exit_code == 1, again.output
    assert "Traceback" not in again.output
    assert f"{first} and its next {MAX_ID_ATTEMPTS - 1} ids" in again.output
    assert "give the proposal another title" in again.output


def test_a_remote_or_a_config_key_not_in_utf8_ends_no_command(memory: Path, tmp_path: Path) -> None:
    """A remote named in Latin-1 (`caf\\xe9`), and a key of the config naming a branch so
    named: pygit2 decodes every config key as UTF-8 as it walks the config, and can look up
    neither such a remote nor a ref below it, so list, candidates and propose ended in an
    unexpected error (exit 3) once the remote the memory is read from was asked of every
    remote there is. Such a key is passed over and such a remote is treated as absent: the
    upstream beside it is read (the ids' prefix is its name), and a push with nothing else
    to go to says to add a remote, the candidate kept."""
    server = make_server(tmp_path)
    latin1 = b"caf\xe9"
    for args in (
        [b"remote", b"add", latin1, os.fsencode(server)],
        [b"config", b"branch." + latin1 + b".remote", latin1],
    ):
        subprocess.run([b"git", *args], cwd=memory, check=True)
    for args in (["list"], ["candidates"]):
        listed = run_gitmem(memory, *args)
        assert listed.returncode == 0, listed.stderr
    pushed = run_gitmem(memory, *PROPOSE, "--push")
    assert pushed.returncode == 2, pushed.stderr
    assert "no remote to push the candidate to: add one (git remote add origin URL)" in (
        pushed.stderr
    )
    assert gitmem_branches(memory) == [f"gitmem/{first_id()}"]

    upstream = tmp_path / "upstream-project.git"
    git(tmp_path, "clone", "-q", "--bare", str(server), str(upstream))
    git(memory, "remote", "add", "upstream", str(upstream))
    git(memory, "remote", "add", "fork", str(server))
    git(memory, "config", "branch.main.remote", "upstream")
    other = [*PROPOSE]
    other[other.index("--title") + 1] = "Read refs with pygit2"
    made = run_gitmem(memory, *other)
    assert made.returncode == 0, made.stderr
    assert "proposed upstream-project-decision-" in made.stdout, made.stdout
