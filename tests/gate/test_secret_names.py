"""A secret in the name of a memory file or folder, pushed with real git to a bare remote with
the server hook: refused as a secret, and never printed back, whichever other rule the name
also breaks."""

from __future__ import annotations

from pathlib import Path

import pytest
from clirunner import write
from remote import admitted, commit_all, push, rejected
from secret_samples import github_token

from conftest import git

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
