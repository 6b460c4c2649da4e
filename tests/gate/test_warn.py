"""Warn mode on a real server: a bare remote with `gitmem hooks install --server --warn`, and real
`git push`es (with --no-verify: the server's hook is what is judged here).

Warn mode is the server's own (its git config, gitmem.enforcement): in it the hook judges every
push in full, prints every finding under a banner and lets the push in, save for a secret, which
is refused in every mode. Each test also pushes the same thing in enforce mode, so a hook that
accepted everything, or refused everything, fails here."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from clirunner import run, write
from remote import (
    accepted,
    commit_all,
    entry_path,
    forged,
    index,
    push,
    rejected,
)
from secret_samples import github_token

from gitmem.hooks import installer

from conftest import git
from entries import text

TOKEN = github_token(16)
BANNER = "gitmem is in WARN mode: these pushes would be REJECTED in enforce mode"
FORGED = "local-method-20261129-forged"
REMOTE = ("origin", "main")


def set_mode(server: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    """`gitmem hooks install --server [flags]`, run in the bare repository as its admin would."""
    done = subprocess.run(
        ["gitmem", "hooks", "install", "--server", *flags],
        cwd=server,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return done


def forge(clone: Path, entry_id: str = FORGED) -> str:
    """A forged entry on main (no admit merge made it), INDEX.md up to date: only the
    invariant's rules find it."""
    write(clone, entry_path(entry_id), forged(entry_id))
    index(clone)
    return commit_all(clone, "a lesson, straight onto main")


def on_server(server: Path, path: str) -> bool:
    done = subprocess.run(
        ["git", "cat-file", "-e", f"main:{path}"], cwd=server, capture_output=True, text=True
    )
    return done.returncode == 0


def test_warn_mode_accepts_a_forged_entry_loudly_and_enforce_mode_rejects_it(
    clone: Path, server: Path
) -> None:
    forge(clone)
    rejected(push(clone, "main"), "HISTORY-ADMIT")  # enforce: the default
    assert "WARN" not in push(clone, "main").stderr

    lines = set_mode(server, "--warn").stdout.splitlines()
    assert lines[-1].startswith("enforcement (git config gitmem.enforcement): set to warn")
    assert git(server, "config", "gitmem.enforcement").strip() == "warn"
    done = push(clone, "main")
    accepted(done)
    assert f"remote: {BANNER}" in done.stderr
    assert " HISTORY-ADMIT " in done.stderr and entry_path(FORGED) in done.stderr
    assert "WARN mode: accepted, enforce mode would reject" in done.stderr
    assert "Traceback" not in done.stderr
    assert on_server(server, entry_path(FORGED))  # it is in: warn mode rejected nothing

    # back to enforce: the next forged push is rejected again
    lines = set_mode(server, "--enforce").stdout.splitlines()
    assert lines[-1] == (
        "enforcement (git config gitmem.enforcement): set to enforce: "
        "a push that breaks a rule is rejected"
    )
    forge(clone, "local-method-20261129-forged-again")
    stderr = rejected(push(clone, "main"), "HISTORY-ADMIT")
    assert "WARN" not in stderr


def test_reinstalling_without_a_flag_keeps_warn_mode(clone: Path, server: Path) -> None:
    set_mode(server, "--warn")
    lines = set_mode(server).stdout.splitlines()  # e.g. to pick up new settings
    assert lines[-1].startswith("enforcement (git config gitmem.enforcement): warn:")
    assert "gitmem hooks install --server --enforce" in lines[-1]
    forge(clone)
    accepted(push(clone, "main"))


def test_warn_mode_still_rejects_a_secret(clone: Path, server: Path) -> None:
    set_mode(server, "--warn")
    entry_id = "local-method-20261129-keep-a-token"
    body = f"## Context\nc\n\n## Content\nuse {TOKEN}\n\n## Evidence\ne\n"
    git(clone, "checkout", "-q", "-b", f"gitmem/{entry_id}")
    write(clone, f".gitmem/candidates/{entry_id}.md", text(id=entry_id, body=body))
    commit_all(clone, f"gitmem: propose {entry_id}")
    stderr = rejected(push(clone, f"gitmem/{entry_id}"), "SECRET")
    assert BANNER in stderr
    assert "but SECRET is refused in every mode" in stderr and "this is REJECTED" in stderr
    assert TOKEN not in stderr
    # the same push without the token is accepted: it was the secret that was refused
    write(clone, f".gitmem/candidates/{entry_id}.md", text(id=entry_id))
    git(clone, "commit", "-q", "--amend", "--no-verify", "-a", "--no-edit")
    done = push(clone, f"+gitmem/{entry_id}")
    accepted(done)
    assert "nothing here would be rejected in enforce mode" in done.stderr


def test_a_secret_beside_other_findings_rejects_the_whole_push(clone: Path, server: Path) -> None:
    set_mode(server, "--warn")
    forge(clone)
    index_md = clone / ".gitmem/INDEX.md"
    index_md.write_text(index_md.read_text() + f"\nDeploy with {TOKEN}\n")
    commit_all(clone, "note")
    stderr = rejected(push(clone, "main"), "SECRET")
    assert " HISTORY-ADMIT " in stderr  # every finding is printed, not only the refusing one
    assert not on_server(server, entry_path(FORGED))


@pytest.mark.parametrize(
    ("name", "settings"),
    [
        (".gitmem.toml", '[memory]\nproject = "local"\nenforcement = "warn"\n'),
        (".gitmem.toml", '[memory]\nproject = "local"\nmode = "warn"\nwarn = true\n'),
        (".gitmem.toml", '[gitmem]\nenforcement = "warn"\n[memory]\nproject = "local"\n'),
        ("pyproject.toml", '[tool.gitmem]\nenforcement = "warn"\n'),
    ],
)
def test_a_push_cannot_switch_the_server_to_warn_mode(
    clone: Path, server: Path, name: str, settings: str
) -> None:
    """The attacker's test: a settings change asking for warn mode, and a forged entry, in one
    push. The server's mode is its git config; nothing in a tree reaches it."""
    (clone / name).write_text(settings)
    commit_all(clone, "roll out gradually")
    forge(clone)
    stderr = rejected(push(clone, "main"), "HISTORY-ADMIT")
    assert "WARN" not in stderr
    assert git(server, "config", "--get", "gitmem.enforcement", check=False) == ""
    assert not on_server(server, entry_path(FORGED))


def test_a_push_option_does_not_switch_it(clone: Path, server: Path) -> None:
    """Push options reach a server's hooks (GIT_PUSH_OPTION_*); gitmem reads none."""
    git(server, "config", "receive.advertisePushOptions", "true")
    forge(clone)
    done = subprocess.run(
        ["git", "push", "--no-verify", "-o", "gitmem.enforcement=warn", "-o", "warn", *REMOTE],
        cwd=clone,
        capture_output=True,
        text=True,
    )
    rejected(done, "HISTORY-ADMIT")


def test_a_mistyped_mode_refuses_every_push_naming_the_key(clone: Path, server: Path) -> None:
    git(server, "config", "gitmem.enforcement", "wran")
    write(clone, "app.py", "print(1)\n")
    commit_all(clone, "code")
    stderr = rejected(push(clone, "main"), "POLICY")
    assert "gitmem.enforcement 'wran' is not one of enforce, warn" in stderr
    lines = set_mode(server).stdout.splitlines()
    assert "the hook refuses every push until you fix it" in lines[-1]
    set_mode(server, "--warn")
    accepted(push(clone, "main"))


def test_the_client_hooks_judge_as_in_enforce_mode(clone: Path, server: Path) -> None:
    """The client cannot see the server's config: its pre-push hook refuses as always (a
    courtesy, which --no-verify passes); the server in warn mode then accepts."""
    set_mode(server, "--warn")
    installer.install(clone)
    forge(clone)
    done = push(clone, "main", verify=True)
    assert done.returncode != 0 and " HISTORY-ADMIT " in done.stderr
    assert "pre-receive" not in done.stderr and "WARN" not in done.stderr
    accepted(push(clone, "main"))


def test_check_pre_receive_takes_no_warn_flag(clone: Path) -> None:
    result = run(clone, "check", "--pre-receive", "--warn", input="")
    assert result.exit_code == 2
    assert "gitmem hooks install --server --warn" in result.output


def test_what_warn_mode_let_in_is_put_right_in_warn_mode(clone: Path, server: Path) -> None:
    """An entry forged in warn mode is on the memory branch's chain, which the judge trusts once
    the server has it: in enforce mode it can no longer be deleted (entries never are), so the
    revert is pushed while the server still warns (docs/security.md says so)."""
    set_mode(server, "--warn")
    forge(clone)
    accepted(push(clone, "main"))
    set_mode(server, "--enforce")
    git(clone, "revert", "--no-edit", "HEAD")
    rejected(push(clone, "main"), "HISTORY-DELETE")
    set_mode(server, "--warn")
    accepted(push(clone, "main"))
    set_mode(server, "--enforce")
    write(clone, "app.py", "print(1)\n")
    commit_all(clone, "code")
    accepted(push(clone, "main"))
    assert not on_server(server, entry_path(FORGED))
