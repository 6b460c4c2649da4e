"""gitmem's hooks through the real pre-commit framework, as a consumer project uses them.

The end-to-end test builds pre-commit's own environment for gitmem: pre-commit pip-installs this
source tree into a fresh virtualenv, so it takes about a minute and needs the package index.
It runs the tree as it is now (uncommitted work included): the package files are copied into
a throwaway repository and committed there, since pre-commit installs from a commit.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import git
from entries import text

# the real pre-commit framework, installing gitmem's hooks
pytestmark = pytest.mark.e2e

SOURCE = Path(__file__).resolve().parents[2]
MANIFEST = SOURCE / ".pre-commit-hooks.yaml"
ENTRY = ".gitmem/candidates/shop-method-20261129-run-hooks-through-gitmem.md"

# What `pip install .` reads: the build configuration and the package.
PACKAGE_FILES = ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml")
PACKAGE_DIRS = ("gitmem",)
PACKAGE_LINKS = ("hooks", "schemas")


def scratch_env(tmp_path: Path) -> dict[str, str]:
    """pre-commit, pip and virtualenv keep their caches under tmp_path, never in $HOME."""
    scratch = tmp_path / "scratch"
    env = dict(os.environ)
    env.update(
        {
            "PRE_COMMIT_HOME": str(scratch / "pre-commit"),
            "XDG_CACHE_HOME": str(scratch / "cache"),
            "XDG_DATA_HOME": str(scratch / "data"),
        }
    )
    return env


def pre_commit(cwd: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_manifest_is_valid_and_uses_current_stage_names(tmp_path: Path) -> None:
    done = pre_commit(tmp_path, scratch_env(tmp_path), "validate-manifest", str(MANIFEST))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "deprecated" not in done.stdout + done.stderr
    hooks = {hook["id"]: hook for hook in yaml.safe_load(MANIFEST.read_text())}
    assert hooks["gitmem-check"] | {"description": "", "name": ""} == {
        "id": "gitmem-check",
        "name": "",
        "description": "",
        "entry": "gitmem check --pre-commit-framework",
        "language": "python",
        "always_run": True,
        "pass_filenames": False,
        "stages": ["pre-commit", "pre-push"],
        "minimum_pre_commit_version": "3.2.0",
    }
    assert hooks["gitmem-index"] | {"description": "", "name": ""} == {
        "id": "gitmem-index",
        "name": "",
        "description": "",
        "entry": "gitmem index",
        "language": "python",
        "always_run": True,
        "pass_filenames": False,
        "stages": ["post-checkout", "post-merge", "post-rewrite"],
        "minimum_pre_commit_version": "3.2.0",
    }


@pytest.fixture(scope="module")
def framework(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, dict[str, str]]:
    """A repository whose HEAD holds the source tree's current package files, and one cache
    of pre-commit's for the module (it builds gitmem's environment once, in about a minute)."""
    if not all((SOURCE / name).exists() for name in (*PACKAGE_FILES, *PACKAGE_DIRS)):
        pytest.skip("not run from gitmem's source tree")
    tmp_path = tmp_path_factory.mktemp("framework")
    repo = tmp_path / "gitmem-source"
    git(tmp_path, "init", "-q", "-b", "main", str(repo))
    for name in PACKAGE_FILES:
        shutil.copy2(SOURCE / name, repo / name)
    for name in PACKAGE_DIRS:
        shutil.copytree(
            SOURCE / name, repo / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
        )
    for name in PACKAGE_LINKS:
        if (SOURCE / name).is_symlink():
            (repo / name).symlink_to(os.readlink(SOURCE / name))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "gitmem as in the source tree")
    return repo, git(repo, "rev-parse", "HEAD").strip(), scratch_env(tmp_path)


def consumer_of(tmp_path: Path, source: Path, rev: str) -> Path:
    consumer = tmp_path / "consumer"
    git(tmp_path, "init", "-q", "-b", "main", str(consumer))
    (consumer / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {source}\n    rev: {rev}\n    hooks:\n      - id: gitmem-check\n"
    )
    return consumer


def test_gitmem_check_passes_and_fails_through_pre_commit(
    tmp_path: Path, framework: tuple[Path, str, dict[str, str]]
) -> None:
    source, rev, env = framework
    consumer = consumer_of(tmp_path, source, rev)
    entry = consumer / ENTRY
    entry.parent.mkdir(parents=True)
    entry.write_text(text())
    git(consumer, "add", "-A")
    done = pre_commit(consumer, env, "run", "gitmem-check")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "gitmem check" in done.stdout
    assert "Passed" in done.stdout
    git(consumer, "commit", "-q", "--no-verify", "-m", "a memory and the hook config")

    entry.write_text(text().replace("## Evidence", "## Proof"))
    git(consumer, "add", "-A")
    done = pre_commit(consumer, env, "run", "gitmem-check")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Failed" in done.stdout
    assert f"{ENTRY}:" in done.stdout
    assert "SECTIONS" in done.stdout

    # What is committed is judged, not what the working tree holds.
    git(consumer, "reset", "-q", "--hard")
    (consumer / "README.md").write_text("# consumer\n")
    git(consumer, "add", "README.md")
    done = pre_commit(consumer, env, "run", "gitmem-check")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_pre_push_stage_applies_the_history_rules(
    tmp_path: Path, framework: tuple[Path, str, dict[str, str]]
) -> None:
    """Issue 14, case 5: a forged admitted entry pushed through the framework's pre-push hook
    is refused with HISTORY-ADMIT, as the native hook refuses it; a code-only push and a real
    candidate branch pass."""
    source, rev, env = framework
    server = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(server))
    consumer = consumer_of(tmp_path, source, rev)
    git(consumer, "remote", "add", "origin", str(server))
    done = pre_commit(consumer, env, "install", "--hook-type", "pre-push")
    assert done.returncode == 0, done.stdout + done.stderr
    (consumer / "README.md").write_text("# consumer\n")
    git(consumer, "add", "-A")
    git(consumer, "commit", "-q", "-m", "start")
    pushed = push(consumer, env, "-u", "origin", "main")
    assert pushed.returncode == 0, pushed.stdout + pushed.stderr

    forged = consumer / ".gitmem" / "entries" / "method" / ENTRY.rsplit("/", 1)[1]
    forged.parent.mkdir(parents=True)
    forged.write_text(text(status="admitted", admitted_by="human:alice", admitted="2026-11-30"))
    git(consumer, "add", "-A")
    git(consumer, "commit", "-q", "--no-verify", "-m", "an entry that skipped review")
    pushed = push(consumer, env, "origin", "main")
    assert pushed.returncode != 0, "the framework's pre-push let a forged entry through"
    assert "HISTORY-ADMIT" in pushed.stdout + pushed.stderr
    assert git(server, "rev-parse", "main") != git(consumer, "rev-parse", "main")

    git(consumer, "reset", "-q", "--hard", "HEAD~1")
    (consumer / "README.md").write_text("# consumer\n\ncode only\n")
    git(consumer, "commit", "-q", "-am", "code only")
    pushed = push(consumer, env, "origin", "main")
    assert pushed.returncode == 0, pushed.stdout + pushed.stderr


def push(cwd: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "push", "-q", *args], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
