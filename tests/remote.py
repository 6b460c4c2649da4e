"""A bare remote with gitmem's server hook, and helpers that push to it as an attacker would:
plumbing commits, hand-made merges and forged entries (the tests of tests/gate share them)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from clirunner import ok, run, write

from gitmem.hooks import installer
from gitmem.model.entry import parse

from conftest import git, new_repo, set_up_memory
from entries import text


def make_server(tmp_path: Path) -> Path:
    bare = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    installer.install(bare, server=True)
    return bare


def connect(memory: Path, server: Path, *, push_main: bool = True, name: str = "origin") -> Path:
    """memory, with server as its origin (or as the remote called name), settings committed,
    main pushed (unless not push_main: the next push of main is then the server's first)."""
    git(memory, "remote", "add", name, str(server))
    # ids would otherwise take the remote's name ("server"); keep the names the tests share
    (memory / ".gitmem.toml").write_text('[memory]\nproject = "local"\n')
    git(memory, "add", ".gitmem.toml")
    git(memory, "commit", "-q", "-m", "settings")
    if push_main:
        accepted(push(memory, "main", remote=name))
    return memory


def connected_template(root: Path) -> Path:
    """root/work (the `memory` fixture's repository) connected to root/server.git (a server
    with the hook) as `connect` connects them: made once and copied by `connected_copy`, since
    the push that connects them runs the server's hook, the slowest part of a push test's
    set-up."""
    connect(set_up_memory(new_repo(root / "work")), make_server(root))
    return root


def connected_copy(template: Path, base: Path) -> tuple[Path, Path]:
    """A copy of a `connected_template` in base (base/work and base/server.git, where the
    `repo` and `server` fixtures make theirs), the copy's origin moved to the copied server
    (and FETCH_HEAD, which names the template's, dropped: the next fetch writes it)."""
    work, server = base / "work", base / "server.git"
    shutil.copytree(template / "work", work, symlinks=True)
    shutil.copytree(template / "server.git", server, symlinks=True)
    git(work, "remote", "set-url", "origin", str(server))
    (work / ".git" / "FETCH_HEAD").unlink(missing_ok=True)
    return work, server


def serve(repo: Path, tmp_path: Path, settings: str, *, hook: bool = True) -> Path:
    """repo with .gitmem.toml holding settings and `gitmem init` committed, pushed to a new
    bare remote (origin), whose server hook is installed after the push when hook: its
    policy then comes from those settings."""
    (repo / ".gitmem.toml").write_text(f'[memory]\n{settings}project = "local"\n')
    ok(run(repo, "init"))
    commit_all(repo, "gitmem init")
    bare = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    git(repo, "remote", "add", "origin", str(bare))
    accepted(push(repo, "main"))
    if hook:
        installer.install(bare, server=True)
    return bare


def push(
    repo: Path,
    *refs: str,
    env: dict[str, str] | None = None,
    verify: bool = False,
    remote: str = "origin",
) -> subprocess.CompletedProcess[str]:
    """git push origin (or remote) refs (with --no-verify unless verify: the attacker skips
    their own pre-push hook; the server's is what counts)."""
    args = ["git", "push", *([] if verify else ["--no-verify"]), remote, *refs]
    return subprocess.run(
        args, cwd=repo, capture_output=True, text=True, env={**os.environ, **(env or {})}
    )


def rejected(done: subprocess.CompletedProcess[str], rule: str) -> str:
    """The push was refused by the server's hook, naming rule, without a traceback."""
    assert done.returncode != 0, done.stderr
    assert "pre-receive hook declined" in done.stderr, done.stderr
    assert f" {rule} " in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and "unexpected error" not in done.stderr
    return done.stderr


def accepted(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode == 0, done.stderr


def commit_all(repo: Path, message: str) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip()


def propose(repo: Path, title: str, *extra: str, push_it: bool = True) -> str:
    """gitmem propose of a method; returns the candidate's id."""
    args = ["propose", "--type", "method", "--title", title, "--applies-when", f"when {title}"]
    args += ["--content", f"Do {title}.", *extra, *(["--push"] if push_it else [])]
    return ok(run(repo, *args)).output.split("gitmem/")[1].split()[0]


def admitted(repo: Path, title: str = "Keep the memory reviewed", *extra: str) -> str:
    """A candidate proposed, admitted and pushed; returns its id."""
    entry_id = propose(repo, title, *extra)
    ok(run(repo, "admit", entry_id, "--push"))
    return entry_id


def entry_path(entry_id: str) -> str:
    return f".gitmem/entries/method/{entry_id}.md"


def forged(entry_id: str, **changes: object) -> str:
    """An entry text that claims admission (no admit merge ever made it)."""
    fields: dict[str, object] = {
        "id": entry_id,
        "status": "admitted",
        "admitted_by": "human:eve",
        "admitted": "2026-11-29",
    }
    fields.update(changes)
    return text(**fields)


def index(repo: Path) -> None:
    ok(run(repo, "index"))


def merge_commit(repo: Path, message: str, *parents: str) -> str:
    """A commit of the index's tree with the given parents (plumbing: any parents at all),
    made main's tip in the working tree."""
    tree = git(repo, "write-tree").strip()
    args = ["commit-tree", tree, "-m", message]
    for parent in parents:
        args += ["-p", parent]
    commit = git(repo, *args).strip()
    git(repo, "reset", "-q", "--hard", commit)
    return commit


def candidate_by_hand(repo: Path, branch: str, entry_id: str, candidate: str) -> None:
    """A candidate file written with git alone on branch (from the current one), committed
    without hooks; the checkout is back where it was."""
    git(repo, "checkout", "-q", "-b", branch)
    write(repo, f".gitmem/candidates/{entry_id}.md", candidate)
    commit_all(repo, f"candidate {entry_id}, by hand")
    git(repo, "checkout", "-q", "-")


def admit_by_hand(
    repo: Path, branch: str, entry_id: str, *, reindex: bool = True, **changes: object
) -> str:
    """An admit merge made with git alone, as gitmem admit would make it but for changes
    to the admitted text (by default none), without the supersession flips, and with
    INDEX.md left as it was unless reindex."""
    git(repo, "merge", "-q", "--no-ff", "--no-commit", branch)
    candidate = (repo / f".gitmem/candidates/{entry_id}.md").read_text()
    fields: dict[str, object] = {
        "status": "admitted",
        "admitted_by": "human:alice",
        "admitted": "2026-11-30",
        "drafted_from": None,  # a record of the candidate's, which admission drops
    }
    fields.update(changes)
    entry = parse(candidate).with_meta(**fields)
    git(repo, "rm", "-q", "-f", f".gitmem/candidates/{entry_id}.md")
    write(repo, f".gitmem/entries/{entry.type}/{entry_id}.md", entry.render())
    if reindex:
        index(repo)
    return commit_all(repo, f"gitmem: admit {entry_id}")
