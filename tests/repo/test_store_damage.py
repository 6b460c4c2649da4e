"""A damaged repository: an object the memory branch leads to is missing or corrupt, or a
ref's own file holds garbage. Every command says the repository is damaged, names the object
(or ref) and sends the user to `git fsck` (exit 2), as git says "bad object"; none ends as an
unexpected error to report, and none reads the damage as an empty memory."""

from __future__ import annotations

from pathlib import Path

import pytest
from clirunner import HOOKS, PROPOSE, admit, ok, proposed, run

from gitmem.errors import UsageError
from gitmem.repo.store import Store

from conftest import git

ENTRY = "{dir}/entries/decision/{id}.md"

COMMANDS = {
    "list": ["list"],
    "recall": ["recall", "pygit2 hooks"],
    "candidates": ["candidates"],
    "propose": HOOKS,
    "admit": ["admit", "local-decision-20000101-no-such-candidate"],
    "show": ["show", "local-decision-20000101-no-such-candidate"],
    "index": ["index"],
}


def loose(repo: Path, oid: str) -> Path:
    """The loose object file of oid (a repository git never packed holds each object so)."""
    path = repo / ".git" / "objects" / oid[:2] / oid[2:]
    assert path.is_file(), f"{oid} is not a loose object"
    return path


@pytest.fixture
def admitted(memory: Path) -> tuple[Path, str]:
    """A memory holding one admitted entry: the repository and the entry's id."""
    return memory, admit(memory, PROPOSE)


def _damage(repo: Path, entry_id: str, what: str) -> str:
    """Remove (what: commit, tree, folder, file) or corrupt (corrupt, mismatch) one object
    main leads to; the object's id."""
    rev = {
        "commit": "main",
        "tree": "main^{tree}",
        "folder": "main:.gitmem/entries",
        "file": "main:" + ENTRY.format(dir=".gitmem", id=entry_id),
        "corrupt": "main",
        "mismatch": "main",
    }[what]
    oid = git(repo, "rev-parse", rev).strip()
    path = loose(repo, oid)
    if what == "corrupt":
        path.chmod(0o644)
        path.write_bytes(b"not a zlib stream\n")
    elif what == "mismatch":  # another object's valid bytes: they hash to another id
        path.chmod(0o644)
        path.write_bytes(loose(repo, git(repo, "rev-parse", "main~1").strip()).read_bytes())
    else:
        path.unlink()
    return oid


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("what", ["commit", "tree", "corrupt"])
def test_every_command_says_main_leads_to_a_damaged_object(
    admitted: tuple[Path, str], what: str, command: str
) -> None:
    repo, entry_id = admitted
    oid = _damage(repo, entry_id, what)
    result = run(repo, *COMMANDS[command])
    assert result.exit_code == 2, result.output
    assert f"this repository is damaged: the {'tree' if what == 'tree' else 'commit'} {oid}" in (
        result.output
    )
    assert "run `git fsck`" in result.output
    assert "unexpected" not in result.output


@pytest.mark.parametrize("command", ["list", "recall", "show", "index"])
@pytest.mark.parametrize("what", ["folder", "file"])
def test_a_missing_folder_or_entry_file_is_damage_not_an_empty_memory(
    admitted: tuple[Path, str], what: str, command: str
) -> None:
    """A missing folder of main read as "no entries" (libgit2's by-path look-up raised for it
    as for a name the folder lacks); a missing entry file was a rule failure (exit 1)
    saying only "object ... is missing", then named by its object id alone, which does not
    say which entry was lost: the entry's path is named too (show's from the memory folder,
    where it looks the id up)."""
    repo, entry_id = admitted
    oid = _damage(repo, entry_id, what)
    args = ["show", entry_id] if command == "show" else COMMANDS[command]
    result = run(repo, *args)
    assert result.exit_code == 2, result.output
    if what == "folder":
        assert f"this repository is damaged: the tree {oid} is missing" in result.output
    else:
        path = ENTRY.format(dir=".gitmem", id=entry_id)
        path = path.removeprefix(".gitmem/") if command == "show" else path
        assert f"this repository is damaged: the file {oid} ({path}) is missing" in result.output
    assert "run `git fsck`" in result.output


def test_the_message_names_the_ref_at_the_object_and_what_libgit2_said(
    admitted: tuple[Path, str],
) -> None:
    repo, entry_id = admitted
    oid = _damage(repo, entry_id, "mismatch")
    with pytest.raises(UsageError) as caught:
        Store.open(repo).tree_of(oid)
    assert getattr(caught.value, "oid", None) == oid
    assert caught.value.message.startswith(
        f"this repository is damaged: the commit {oid}, the tip of refs/heads/main, cannot be "
        "read (object hash mismatch"
    )


def test_a_ref_file_holding_garbage_is_damage_not_a_missing_branch(memory: Path) -> None:
    """git says "ignoring broken ref" and takes the branch for absent; gitmem said the memory
    branch did not exist (list) or had no commits (propose), and sent the user to fetch."""
    (memory / ".git" / "refs" / "heads" / "main").write_text("garbage\n")
    for args in (["list"], HOOKS):
        result = run(memory, *args)
        assert result.exit_code == 2, result.output
        assert "this repository is damaged: the ref refs/heads/main cannot be read" in (
            result.output
        )
        assert "git update-ref refs/heads/main COMMIT" in result.output


def test_a_broken_ref_is_mended_by_following_what_the_message_says(memory: Path) -> None:
    """The message said to point the ref at its commit with `git update-ref`, "set it first
    to delete it": git refuses both on a ref it cannot read ("cannot lock ref …: reference
    broken"), so nothing it said could be done. It now says to remove the ref's file first;
    done as said, with the commit the reflog names, the command works again."""
    tip = git(memory, "rev-parse", "main").strip()
    loose = memory / ".git" / "refs" / "heads" / "main"
    loose.write_text("garbage\n")
    said = run(memory, "list").output
    assert (
        "then remove its file, refs/heads/main in the git directory (git neither moves nor "
        "deletes a broken ref), and point the ref at its commit again (`git update-ref "
        "refs/heads/main COMMIT`; the last line of its reflog, logs/refs/heads/main in the "
        "git directory, names the commit it held)"
    ) in said
    held = (memory / ".git" / "logs" / "refs" / "heads" / "main").read_text().splitlines()
    (memory / ".git" / "refs" / "heads" / "main").unlink()
    git(memory, "update-ref", "refs/heads/main", held[-1].split()[1])
    assert git(memory, "rev-parse", "main").strip() == tip
    ok(run(memory, "list"))


def test_a_broken_line_of_packed_refs_is_damage_not_an_unexpected_error(memory: Path) -> None:
    """git reads packed-refs whole or not at all ("fatal: unexpected line in
    .git/packed-refs"); libgit2 refused to list any ref, and the bare GitError ended every
    command that lists candidates as an unexpected error to report (exit 3)."""
    entry_id = proposed(ok(run(memory, *PROPOSE)).output)
    git(memory, "pack-refs", "--all")
    packed = memory / ".git" / "packed-refs"
    oid = git(memory, "rev-parse", f"gitmem/{entry_id}").strip()
    packed.write_text(packed.read_text().replace(f"{oid} ", f"{oid[:7]}xyz "))
    assert git(memory, "for-each-ref", check=False) == ""  # git refuses it too
    for args in (["candidates"], ["admit", entry_id]):
        result = run(memory, *args)
        assert result.exit_code == 2, result.output
        assert "this repository is damaged: its packed-refs file cannot be read" in (result.output)
        assert "run `git fsck`, then correct or delete that line" in result.output


def test_a_pruned_tree_is_still_a_key_error_to_the_readers_that_expect_one(memory: Path) -> None:
    """The recall cache diffs from a tree it remembers, which git may have pruned since, and
    takes the KeyError for "build afresh" (gitmem.recall.cache)."""
    store = Store.open(memory)
    with pytest.raises(KeyError):
        store.diff("1" * 40, store.tree_of(git(memory, "rev-parse", "main").strip()))


@pytest.fixture
def partial_clone(memory: Path, tmp_path: Path) -> tuple[Path, Path, str]:
    """A clone made with --filter=blob:none of a memory holding one admitted entry and one
    candidate: the clone, its promisor (the memory) and the candidate's id. The clone holds
    main's checked-out files alone; the candidate's file is on the promisor only."""
    admit(memory, PROPOSE)
    candidate = proposed(ok(run(memory, *HOOKS)).output)
    git(memory, "config", "uploadpack.allowFilter", "true")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--filter=blob:none", memory.as_uri(), str(clone))
    return clone, memory, candidate


def test_a_partial_clone_fetches_what_it_left_out_as_git_does(
    partial_clone: tuple[Path, Path, str],
) -> None:
    """A reviewer's `git clone --filter=blob:none` holds a candidate's commits but not its
    file, which git fetches from the promisor remote when something reads it (`git show`).
    libgit2 does not: show, review and admit called the repository damaged and sent the
    reviewer to `git fsck`, which finds nothing wrong in it."""
    clone, _, candidate = partial_clone
    assert "Use pygit2 inside git hooks" in ok(run(clone, "show", candidate)).output
    assert "checks: all rules pass" in ok(run(clone, "review", candidate)).output
    ok(run(clone, "admit", candidate))
    assert git(clone, "log", "-1", "--format=%s", "main").strip() == f"gitmem: admit {candidate}"


def test_a_partial_clone_whose_promisor_is_out_of_reach_says_so(
    partial_clone: tuple[Path, Path, str],
) -> None:
    """Offline, the file git cannot fetch is said to be left out of the partial clone, with
    git's reason, not a damaged repository to repair."""
    clone, promisor, candidate = partial_clone
    promisor.rename(promisor.with_name("away"))
    result = run(clone, "show", candidate)
    assert result.exit_code == 2, result.output
    assert "is not in this partial clone, and git could not fetch it from the promisor" in (
        result.output
    )
    assert "(`git fetch` works), then run the command again" in result.output
    assert "git fsck" not in result.output
