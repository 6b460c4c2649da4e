"""Every folder that could be the memory folder, as the fast paths read the settings: in a
real sparse checkout (`git sparse-checkout`), a settings file it leaves out is read as staged,
as the full path reads it; one truly absent is still none."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from clirunner import ok, run

from gitmem import launcher
from gitmem.agents import state
from gitmem.repo.refs import GitFiles
from gitmem.repo.sparse import left_out_bytes
from gitmem.settings.folders import memory_prefixes

from conftest import git


@pytest.fixture
def sparse(repo: Path) -> Iterator[Path]:
    """A repository whose committed .gitmem.toml puts the memory in src/mem, checked out
    sparsely with a non-cone pattern (`/src/`) that leaves the top-level .gitmem.toml out
    (cone mode keeps every top-level file), run from inside it."""
    (repo / "src").mkdir()
    (repo / "src" / "app.py").write_text("print()\n")
    ok(run(repo, "init", "--dir", "src/mem", "--project", "shop"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "gitmem init")
    git(repo, "sparse-checkout", "set", "--no-cone", "/src/")
    assert not (repo / ".gitmem.toml").exists()
    assert (repo / "src" / "mem").is_dir()
    old = Path.cwd()
    os.chdir(repo)
    yield repo
    os.chdir(old)


def test_a_settings_file_the_sparse_checkout_leaves_out_is_read_as_staged(sparse: Path) -> None:
    """The fast paths read .gitmem.toml from the work tree, and took the one a sparse
    checkout leaves out for no file: the default .gitmem/ was the only memory folder, so the
    pre-commit hook's no-op test let a commit of memory files under src/mem/ skip the check
    (and the agents' guard, asking the same function, let a write there through)."""
    assert b"src/mem/" in (memory_prefixes(str(sparse), left_out_bytes) or [])
    (sparse / "src" / "app.py").write_text("print(1)\n")
    git(sparse, "add", "src/app.py")
    assert launcher.nothing_staged_in_memory()
    (sparse / "src" / "mem" / "candidates").mkdir(parents=True, exist_ok=True)
    (sparse / "src" / "mem" / "candidates" / "x.md").write_text("not an entry\n")
    git(sparse, "add", "src/mem")
    assert not launcher.nothing_staged_in_memory()


def test_a_settings_file_truly_absent_is_still_none(sparse: Path) -> None:
    """Only the skip-worktree bit makes an absent file staged: out of the sparse checkout and
    deleted by hand, the defaults apply, as before."""
    git(sparse, "sparse-checkout", "disable")
    git(sparse, "rm", "-q", ".gitmem.toml")
    git(sparse, "commit", "-q", "-m", "back to the defaults")
    assert memory_prefixes(str(sparse), left_out_bytes) == [b".gitmem/"]


def test_the_agents_hooks_see_a_left_out_settings_file_change(sparse: Path) -> None:
    """The agents' hooks keep their answer while its inputs' digest holds; a settings file
    the sparse checkout leaves out was digested as absent, so a commit changing it (a pull,
    a checkout) left every hook on the old memory folder. Its staged blob is an input now."""
    files = GitFiles.at(sparse)
    assert files is not None
    before = state.inputs(str(sparse), files)
    assert before is not None
    staged = git(sparse, "show", ":.gitmem.toml").replace("src/mem", "src/notes")
    blob = git(sparse, "hash-object", "-w", "--stdin", input=staged).strip()
    git(sparse, "update-index", "--cacheinfo", f"100644,{blob},.gitmem.toml")
    git(sparse, "update-index", "--skip-worktree", ".gitmem.toml")
    git(sparse, "commit", "-q", "-m", "move the memory")
    assert not (sparse / ".gitmem.toml").exists()
    after = state.inputs(str(sparse), files)
    assert after is not None and after != before
    assert b"src/notes/" in (memory_prefixes(str(sparse), left_out_bytes) or [])


def test_the_agents_guard_denies_a_write_into_the_memory_folder_it_names(sparse: Path) -> None:
    """The agents' write guard asks memory_prefixes first: with the left-out settings file
    taken for none, a write into src/mem/ was let through as outside the memory."""
    import json
    import subprocess
    import sys

    payload = {
        "session_id": "s",
        "transcript_path": str(sparse.parent / "transcript.jsonl"),
        "cwd": str(sparse),
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": "src/mem/entries/decision/x.md", "content": "x"},
    }
    done = subprocess.run(
        [str(Path(sys.executable).parent / "gitmem"), "agent-hook", "PreToolUse"],
        input=json.dumps(payload).encode(),
        cwd=sparse,
        env={**os.environ, "CLAUDE_PROJECT_DIR": str(sparse)},
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout, "no answer: the write was let through"
    answer = json.loads(done.stdout)["hookSpecificOutput"]
    assert answer.get("permissionDecision") == "deny", answer


@pytest.mark.parametrize("written", ["./mem", "mem/.", ".//mem/"])
def test_a_dir_written_with_dot_parts_is_the_folder_the_loader_reads(
    repo: Path, written: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The loader reads `./mem` as mem/, and the full check judges mem/; the fast path took
    `./mem/` for the prefix, which no staged path has, so the pre-commit hook found no
    memory staged and let a secret into mem/ through."""
    (repo / ".gitmem.toml").write_text(f'[memory]\ndir = "{written}"\n')
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "settings")
    assert b"mem/" in (memory_prefixes(str(repo), lambda top, name: b"") or [])
    monkeypatch.chdir(repo)
    (repo / "mem" / "entries" / "method").mkdir(parents=True)
    (repo / "mem" / "entries" / "method" / "x.md").write_text("---\n---\n")
    git(repo, "add", "mem")  # the memory alone staged: the settings are committed
    assert not launcher.nothing_staged_in_memory()
