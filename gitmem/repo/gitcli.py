"""The git command line, where gitmem asks git itself rather than libgit2.

git answers some questions exactly as the user's git would and libgit2 cannot (`core.hooksPath`
as git resolves it, config writes with git's locking, the staged names of a commit in a few
milliseconds before any of gitmem loads).  Every such call goes through here (or through
gitmem.repo.store, which runs git for ref moves, pushes and its diff stream), so that gitmem
runs git in one way: from a named folder, with the hook's own GIT_* variables stripped when
it names the repository itself.

This module imports nothing but the standard library: the launcher's no-op fast path, which
serves every commit, uses it before anything else of gitmem loads.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from gitmem.errors import GitmemError, UsageError

#: The variables kept when git runs on a repository gitmem names itself (identity, config
#: isolation, credentials), never the ones a hook sets to point git at its own repository.
KEEP_ENV = frozenset(
    {
        "GIT_AUTHOR_NAME",
        "GIT_AUTHOR_EMAIL",
        "GIT_COMMITTER_NAME",
        "GIT_COMMITTER_EMAIL",
        "GIT_AUTHOR_DATE",
        "GIT_COMMITTER_DATE",
        "GIT_CONFIG_GLOBAL",
        "GIT_CONFIG_NOSYSTEM",
        "GIT_TERMINAL_PROMPT",
        "GIT_SSH",
        "GIT_SSH_COMMAND",
        "GIT_ASKPASS",
    }
)


def clean_git_env() -> dict[str, str]:
    """The environment for running git on a repository we name ourselves (never the hook's)."""
    return {k: v for k, v in os.environ.items() if not k.startswith("GIT_") or k in KEEP_ENV}


def hook_output(*args: str, cwd: str | None = None) -> bytes | None:
    """git's output, run with the hook's own environment (GIT_INDEX_FILE and the rest
    honoured, as git itself would); None when git fails or cannot be run."""
    try:
        done = subprocess.run(["git", *args], capture_output=True, check=False, cwd=cwd)
    except OSError:
        return None
    return done.stdout if done.returncode == 0 else None


def run_in(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """git run in folder on the repository there (GIT_* variables of a hook stripped)."""
    if not folder.is_dir():
        raise UsageError(f"{folder} is not a folder: name the repository to work on")
    try:
        return subprocess.run(
            ["git", *args],
            cwd=folder,
            env=clean_git_env(),
            capture_output=True,
            text=True,
            check=False,
        )
    except FileNotFoundError:
        raise GitmemError("git is not installed (or not on PATH): install git first") from None


def output_in(folder: Path, *args: str) -> str:
    """run_in's output without its final newline; a failure says what git said."""
    done = run_in(folder, *args)
    if done.returncode != 0:
        detail = done.stderr.strip()
        if "not a git repository" in detail:
            raise UsageError(
                f"{folder} is not inside a git repository: run gitmem in one, "
                "or `git init` it first"
            )
        raise GitmemError(f"git {' '.join(args)} failed in {folder}: {detail}")
    return done.stdout.rstrip("\n")
