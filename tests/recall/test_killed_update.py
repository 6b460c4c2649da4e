"""A cache update killed at any of its writes leaves a cache the next recall can use.

The invariant: every file of the recall cache is written whole under a temporary name and
renamed into place, and state.json, which names the files a remembered tree uses, is written
last; so at any instant the cache is the old one or the new one, never a mix. The test kills a
real process with SIGKILL at each of its filesystem writes in turn (counted by an audit hook,
which runs before the operation it reports) — the post-merge hook's update, and, with the
extra, the recall that embeds the vectors that update left behind — then asks the real CLI:
the newly admitted entry
must be found, the cache must not have been judged broken and set aside, what the kill left
behind (a temporary file, a segment no state names) must be gone once the next update has run,
and every tree the state remembers must load whole, its checksums verified. The checks after
the kill read keywords only: the model loads in the killed process, the thing under test.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from clirunner import HOOKS, admit

from gitmem.recall import semantic
from gitmem.recall.cache import RecallCache
from gitmem.recall.engine import Index
from gitmem.repo.workspace import open_workspace

#: The post-merge hook's update (gitmem.lifecycle.refresh), or with argv[2] "catch-up" a
#: reader's load with the model (which embeds what the update left behind; "caught-up": as a
#: warm recall does it, the files read by git itself), killed at its
#: argv[1]-th write (0: never); prints how many writes it made.
UPDATE_KILLED_AT = """
import os, signal, sys
from gitmem.lifecycle.refresh import warm_recall_cache
from gitmem.recall.cache import RecallCache
from gitmem.repo.workspace import open_workspace

target, seen = int(sys.argv[1]), 0
WRITING = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


def on_event(event, args):
    global seen
    if event == "open":
        path, mode, flags = args
        if "__pycache__" in str(path):  # an import's bytecode, not the update's
            return
        if not (any(c in mode for c in "wax+") if isinstance(mode, str) else flags & WRITING):
            return
    elif event not in ("os.rename", "os.remove", "os.mkdir", "os.rmdir"):
        return
    seen += 1
    if seen == target:
        os.kill(os.getpid(), signal.SIGKILL)


ws = open_workspace()
memory = ws.store.subtree(ws.store.tree_of(ws.main_tip()), ws.dir)
sys.addaudithook(on_event)
if sys.argv[2] == "catch-up":
    RecallCache(ws.store, ws.dir).load(memory)
elif sys.argv[2] == "caught-up":  # as a warm recall brings them up: files read by git itself
    from gitmem.recall.cache import caught_up
    from gitmem.repo.trees import GitTrees
    entries = ws.store.subtree(memory, "entries")
    assert caught_up(ws.store.common_dir, ws.dir, entries, GitTrees(ws.store.workdir))
else:
    warm_recall_cache(ws)
print(seen)
"""

NEW = [
    "propose", "--type", "method", "--title", "Name candidate branches after entry ids",
    "--applies-when", "a candidate branch is created for a proposal",
    "--content", "gitmem/<id>, so that a branch says which entry it carries.",
]  # fmt: skip
LATER = [
    "propose", "--type", "decision", "--title", "Keep the recall cache in the git directory",
    "--applies-when", "choosing where a derived index of the memory lives",
    "--content", "Under .git/gitmem, never committed, rebuilt from the entries when lost.",
]  # fmt: skip


def _update(
    repo: Path, kill_at: int, env: dict[str, str], what: str = "update"
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", UPDATE_KILLED_AT, str(kill_at), what],
        cwd=repo, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def _read(root: Path, kind: str, name: str) -> bytes:
    return (root / kind / name).read_bytes()


def _segment(root: Path) -> Callable[[str], bytes]:
    return lambda name: _read(root, "segments", name)


def _first(repo: Path, env: dict[str, str], query: str) -> str:
    """The id of the first hit of a real `gitmem recall` (its own process, this env)."""
    done = subprocess.run(
        [sys.executable, "-m", "gitmem", "recall", "--format", "json", query],
        cwd=repo, env=env, capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    hits = json.loads(done.stdout)
    return str(hits[0]["id"]) if hits else ""


@pytest.mark.parametrize(
    ("with_model", "what"),
    [(False, "update"), (True, "update"), (True, "catch-up"), (True, "caught-up")],
    ids=["keywords", "with-the-extra", "catching-up-with-the-extra", "caught-up-by-git"],
)
def test_an_update_killed_at_any_write_leaves_a_cache_the_next_recall_uses(
    memory: Path, tmp_path: Path, with_model: bool, what: str
) -> None:
    if with_model and not semantic.available():
        pytest.skip("the semantic extra is not installed")
    env = {**os.environ, "GITMEM_SEMANTIC": "true" if with_model else "false"}
    hooks = admit(memory, HOOKS)
    assert _first(memory, env, "pygit2 hooks") == hooks  # the cache, up to date
    new = admit(memory, NEW)  # now one admission behind
    if what != "update":  # the hook's update has run: the vectors are behind
        assert _update(memory, 0, env).returncode == 0
        ws = open_workspace(memory)
        assert "vectors_of" in RecallCache(ws.store, ws.dir)._mine()[0]

    counted = tmp_path / "counted"
    shutil.copytree(memory, counted, symlinks=True)
    done = _update(counted, 0, env, what)
    assert done.returncode == 0, done.stderr
    writes = int(done.stdout)
    assert writes >= 4, "a segment, its manifest, state.json: each written and renamed"

    keywords = {**env, "GITMEM_SEMANTIC": "false"}  # the checks need no model
    for kill_at in range(1, writes + 1):
        repo = tmp_path / f"killed-at-{kill_at}"
        shutil.copytree(memory, repo, symlinks=True)
        killed = _update(repo, kill_at, env, what)
        assert killed.returncode == -signal.SIGKILL, (kill_at, killed.stderr)

        assert _first(repo, keywords, "candidate branch") == new, f"killed at write {kill_at}"
        assert _first(repo, keywords, "pygit2 hooks") == hooks
        later = admit(repo, LATER)  # the next update, which collects what the kill left
        assert _first(repo, keywords, "where the recall cache lives") == later

        ws = open_workspace(repo)
        root = RecallCache(ws.store, ws.dir).root
        assert not list(root.parent.glob("recall.broken-*")), f"killed at write {kill_at}"
        state = json.loads((root / "state.json").read_text())
        named = {str(p) for record in state["trees"] for p in record["parts"]}
        named |= {str(r[k]) for r in state["trees"] for k in ("index", "vectors") if r.get(k)}
        left = {p.name for kind in ("segments", "manifests") for p in (root / kind).iterdir()}
        assert left <= named, f"killed at write {kill_at}: {sorted(left - named)} left behind"
        assert not list(root.glob(".*.tmp")), f"killed at write {kill_at}"
        for record in state["trees"]:  # each remembered tree loads whole, checksums verified
            Index.from_parts(_read(root, "manifests", record["index"]), _segment(root))
            if record.get("vectors"):
                semantic.Vectors.from_parts(
                    _read(root, "manifests", record["vectors"]), _segment(root), verify=True
                )
        assert with_model == any(r.get("vectors") for r in state["trees"])
