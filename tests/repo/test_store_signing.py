"""Commits gitmem writes are signed where the user's git would sign them (commit.gpgSign), with
real keys made for each test (ssh-keygen, gpg), checked by `git verify-commit`."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pygit2
import pytest
from clirunner import HOOKS, PROPOSE, ok, proposed, run

from gitmem.errors import UsageError
from gitmem.lifecycle import recovery
from gitmem.repo.store import Store

from conftest import AUTHOR, git, run_gitmem


@pytest.fixture(autouse=True)
def no_ssh_agent(monkeypatch: pytest.MonkeyPatch) -> None:
    """ssh-keygen signs with the key file the test made, never with one an agent of the
    machine's holds."""
    monkeypatch.delenv("SSH_AUTH_SOCK", raising=False)


def ssh_signing(repo: Path, keys: Path) -> Path:
    """repo set to sign its commits with a new ed25519 key (no passphrase) kept in keys, as
    `git commit` would: commit.gpgSign, gpg.format ssh, user.signingKey the public key's file;
    and to verify them (gpg.ssh.allowedSignersFile names the committer's email with it).
    Returns the public key's file."""
    keys.mkdir()
    key = keys / "signing"
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "gitmem test", "-f", str(key)],
        check=True,
    )
    public = keys / "signing.pub"
    allowed = keys / "allowed_signers"
    allowed.write_text(f"{AUTHOR[1]} {public.read_text()}")
    git(repo, "config", "gpg.format", "ssh")
    git(repo, "config", "user.signingKey", str(public))
    git(repo, "config", "gpg.ssh.allowedSignersFile", str(allowed))
    git(repo, "config", "commit.gpgSign", "true")
    return public


def signed(repo: Path, rev: str) -> bool:
    """Whether git verifies rev's signature as good (and there is one)."""
    done = subprocess.run(["git", "verify-commit", rev], cwd=repo, capture_output=True)
    return done.returncode == 0


def refs(repo: Path) -> str:
    return git(repo, "for-each-ref", "--format=%(refname) %(objectname)")


def without_signature(raw: bytes) -> bytes:
    """A commit's bytes with its gpgsig header (and the header's continuation lines) removed."""
    return re.sub(rb"\ngpgsig [^\n]*(\n [^\n]*)*", b"", raw)


needs_ssh_keygen = pytest.mark.skipif(
    shutil.which("ssh-keygen") is None, reason="ssh-keygen is not installed"
)


@needs_ssh_keygen
def test_a_signed_commit_holds_what_an_unsigned_one_would(memory: Path, tmp_path: Path) -> None:
    ssh_signing(memory, tmp_path / "keys")
    store = Store.open(memory)
    main = git(memory, "rev-parse", "main").strip()
    tree = store.tree_of(main)
    author = pygit2.Signature("A. U. Thor", "thor@example.com", 1700000000, -90)
    message = "gitmem: propose x\n\n  kept as is  \n\n\n# not a comment\n"
    commit = store.write_commit(tree, [main], message, author=author)
    assert signed(memory, commit)
    repo = pygit2.Repository(str(memory))
    written = repo[commit].peel(pygit2.Commit)
    assert str(written.tree_id) == tree
    assert [str(p) for p in written.parent_ids] == [main]
    assert written.message == message
    assert (written.author.name, written.author.email) == ("A. U. Thor", "thor@example.com")
    assert (written.author.time, written.author.offset) == (1700000000, -90)
    assert (written.committer.name, written.committer.email) == AUTHOR
    # byte for byte what pygit2 writes unsigned, but for the signature
    unsigned = repo.create_commit_string(
        written.author, written.committer, message, pygit2.Oid(hex=tree), [pygit2.Oid(hex=main)]
    )
    assert without_signature(repo[commit].read_raw()) == unsigned.encode("utf-8")


def test_signing_off_writes_no_signature(memory: Path, tmp_path: Path) -> None:
    ssh_signing(memory, tmp_path / "keys")
    git(memory, "config", "commit.gpgSign", "false")
    store = Store.open(memory)
    main = git(memory, "rev-parse", "main").strip()
    commit = store.write_commit(store.tree_of(main), [main], "unsigned\n")
    assert b"\ngpgsig " not in pygit2.Repository(str(memory))[commit].read_raw()


@needs_ssh_keygen
@pytest.mark.parametrize("sign", ["true", "false"])
def test_a_commit_that_cannot_be_written_is_not_called_a_signing_failure(
    memory: Path, tmp_path: Path, sign: str
) -> None:
    """git commit-tree -S fails for more than the key: an object missing (a damaged
    repository), no room, no permission. Each got the key's advice ("configure the signing
    key … or turn signing off"), which sent the user to a key that was fine; and libgit2's
    "object not found" got "make its objects folder writable". Both say git's or libgit2's
    words and what the cause asks for."""
    ssh_signing(memory, tmp_path / "keys")
    git(memory, "config", "commit.gpgSign", sign)
    store = Store.open(memory)
    main = git(memory, "rev-parse", "main").strip()
    gone = "1" * 40  # a tree the object database does not hold
    with pytest.raises(UsageError) as raised:
        store.write_commit(gone, [main], "m\n")
    said = raised.value.message
    assert gone in said and "git fsck" in said, said
    assert "signing key" not in said and "writable" not in said, said


@needs_ssh_keygen
def test_proposal_and_admission_are_signed(memory: Path, tmp_path: Path) -> None:
    ssh_signing(memory, tmp_path / "keys")
    done = run_gitmem(memory, *PROPOSE)
    assert done.returncode == 0, done.stderr
    entry_id = proposed(done.stdout)
    assert signed(memory, f"gitmem/{entry_id}")
    done = run_gitmem(memory, "admit", entry_id)
    assert done.returncode == 0, done.stderr
    assert len(git(memory, "rev-list", "--parents", "-1", "main").split()) == 3  # the merge
    assert signed(memory, "main")


@needs_ssh_keygen
def test_refusal_is_signed(memory: Path, tmp_path: Path) -> None:
    ssh_signing(memory, tmp_path / "keys")
    entry_id = proposed(ok(run(memory, *HOOKS)).output)
    before = git(memory, "rev-parse", "main").strip()
    done = run_gitmem(memory, "refuse", entry_id, "--reason", "not now")
    assert done.returncode == 0, done.stderr
    assert git(memory, "rev-parse", "main^").strip() == before
    assert signed(memory, "main")


@needs_ssh_keygen
def test_a_key_that_cannot_sign_stops_the_proposal_and_moves_nothing(
    memory: Path, tmp_path: Path
) -> None:
    ssh_signing(memory, tmp_path / "keys")
    git(memory, "config", "user.signingKey", str(tmp_path / "keys" / "gone.pub"))
    before, listed = refs(memory), ok(run(memory, "candidates")).output
    done = run_gitmem(memory, *PROPOSE)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "commit.gpgSign" in done.stderr
    assert "gone.pub" in done.stderr  # git's own words, quoted
    assert "git config commit.gpgSign false" in done.stderr
    assert refs(memory) == before
    assert ok(run(memory, "candidates")).output == listed


@needs_ssh_keygen
def test_a_key_that_cannot_sign_stops_the_admission_and_leaves_no_landing(
    memory: Path, tmp_path: Path
) -> None:
    entry_id = proposed(ok(run(memory, *PROPOSE)).output)
    ssh_signing(memory, tmp_path / "keys")
    git(memory, "config", "user.signingKey", str(tmp_path / "keys" / "gone.pub"))
    before = refs(memory)
    done = run_gitmem(memory, "admit", entry_id)
    assert done.returncode == 2, done.stderr
    assert "commit.gpgSign" in done.stderr and "Traceback" not in done.stderr
    assert refs(memory) == before
    assert not (memory / ".git" / recovery.JOURNAL).exists()
    assert git(memory, "status", "--porcelain") == ""
    # signing put right, the same command admits it, signed
    git(memory, "config", "user.signingKey", str(tmp_path / "keys" / "signing.pub"))
    done = run_gitmem(memory, "admit", entry_id)
    assert done.returncode == 0, done.stderr
    assert signed(memory, "main")


@pytest.fixture
def gnupg_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A GnuPG home of the test's own (its agent ended afterwards), with one key for the
    committer made without a passphrase."""
    if shutil.which("gpg") is None:
        pytest.skip("gpg is not installed")
    home = tmp_path / "gpg"
    home.mkdir(mode=0o700)
    monkeypatch.setenv("GNUPGHOME", str(home))
    try:
        subprocess.run(
            ["gpg", "--batch", "--passphrase", "", "--quick-gen-key",
             f"{AUTHOR[0]} <{AUTHOR[1]}>", "ed25519", "sign", "never"],
            check=True, capture_output=True,
        )  # fmt: skip
        yield home
    finally:
        subprocess.run(["gpgconf", "--kill", "gpg-agent"], capture_output=True, check=False)


def test_an_openpgp_key_signs_the_proposal(memory: Path, gnupg_home: Path) -> None:
    git(memory, "config", "commit.gpgSign", "true")  # gpg.format openpgp, the committer's key
    entry_id = proposed(ok(run(memory, *PROPOSE)).output)
    assert signed(memory, f"gitmem/{entry_id}")
    assert "-----BEGIN PGP SIGNATURE-----" in git(memory, "cat-file", "-p", f"gitmem/{entry_id}")
