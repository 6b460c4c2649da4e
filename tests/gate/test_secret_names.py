"""A secret in the name of a memory file or folder, or of a candidate branch, pushed with real
git to a bare remote with the server hook: refused as a secret, and never printed back,
whichever other rule the name also breaks."""

from __future__ import annotations

from pathlib import Path

import pytest
from clirunner import run, write
from remote import admitted, commit_all, push, rejected
from secret_samples import github_token

from gitmem.gate import history
from gitmem.gate.check import render

from conftest import git
from entries import text

TOKEN = github_token(4242)


@pytest.mark.parametrize(
    "path",
    [
        f".gitmem/candidates/{TOKEN}.md",
        f".gitmem/{TOKEN}/notes.md",
        f".gitmem/notes-{TOKEN}.txt",
    ],
    ids=["file", "folder", "glued"],
)
@pytest.mark.parametrize("ref", ["main", "feature"])
def test_a_token_in_a_memory_files_name_is_refused_as_a_secret_and_withheld(
    clone: Path, path: str, ref: str
) -> None:
    if ref != "main":
        git(clone, "checkout", "-q", "-b", ref)
    write(clone, path, "harmless\n")
    commit_all(clone, "notes")
    stderr = rejected(push(clone, ref), "SECRET")
    assert "github-pat" in stderr and "in the name of a memory file" in stderr
    assert TOKEN not in stderr and TOKEN[4:] not in stderr
    assert "(withheld: a memory file's path holds a secret): SECRET" in stderr


def test_a_token_in_a_name_is_found_in_a_push_of_many_names(clone: Path) -> None:
    """The names are scanned together: the one holding a token is named by its commit, the
    others not withheld."""
    for n in range(40):
        write(clone, f".gitmem/other-{n}.md", "harmless\n")
    commit_all(clone, "many")
    write(clone, f".gitmem/x-{TOKEN}.md", "harmless\n")
    holding = commit_all(clone, "one more")
    stderr = rejected(push(clone, "main"), "SECRET")
    assert TOKEN not in stderr
    [secret] = [line for line in stderr.splitlines() if " SECRET " in line]
    assert holding[:12] in secret
    assert ".gitmem/other-39.md: LAYOUT" in stderr  # a name without a secret is still shown


def test_names_without_secrets_land(clone: Path) -> None:
    """Ordinary entry names, with words like key, token and secret in them, are no secret."""
    for title in ("Rotate the api key monthly", "Keep the token secret", "Auth with a passkey"):
        admitted(clone, title)


@pytest.mark.parametrize("branch", [f"gitmem/{TOKEN}", f"Gitmem/{TOKEN}"], ids=["id", "variant"])
def test_a_token_in_a_candidate_branchs_name_is_refused_and_withheld_by_every_gate(
    clone: Path, branch: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server, the pre-push gate and gitmem check --range refuse the branch as a secret
    and show it by a hash of its name, never the name (whose other rule, CANDIDATE-BRANCH or
    LAYOUT, printed it whole): the hint that names it is its tip commit."""
    ref = f"refs/heads/{branch}"
    git(clone, "checkout", "-q", "-b", branch)
    write(clone, ".gitmem/candidates/shop-method-20261129-x.md", text())
    tip = commit_all(clone, "a candidate")
    git(clone, "checkout", "-q", "main")
    done = push(clone, branch)
    # what the hook said (git's own lines name the ref it was asked to push)
    server = "\n".join(line for line in done.stderr.splitlines() if line.startswith("remote: "))
    monkeypatch.chdir(clone)
    pre_push = render(history.check_pre_push(f"{ref} {tip} {ref} {'0' * 40}\n", "origin"), "text")
    check = run(clone, "check", "--range", f"main..{branch}")
    for said in (server, pre_push, check.output):
        assert TOKEN not in said and TOKEN[4:] not in said, said
    rejected(done, "SECRET")
    assert check.exit_code == 1, check.output
    withheld = history.withheld_ref(ref)
    assert TOKEN not in withheld and withheld.startswith(ref[: len("refs/heads/gitmem/")])
    for said in (server, pre_push, check.output):
        assert f"{withheld}: SECRET a candidate branch whose name holds a secret" in said, said
        assert f"git branch --points-at {tip[:12]}" in said


def test_deleting_a_branch_whose_name_holds_a_token_is_no_problem(
    clone: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deleting the branch is how the secret leaves: the pre-push gate lets it through."""
    ref = f"refs/heads/gitmem/{TOKEN}"
    monkeypatch.chdir(clone)
    main = git(clone, "rev-parse", "main").strip()
    report = history.check_pre_push(f"(delete) {'0' * 40} {ref} {main}\n", "origin")
    assert report.problems == [], report.problems
