"""Where the memory is for one call, and a recall that never opens the repository when it can.

Agents' hooks and `gitmem recall` run far more often than the memory changes, and most of
what a warm recall would pay is opening the repository: importing pygit2, loading the
settings, finding the branch tip and the memory tree.  `Memory` answers "where is the
memory?" from what an earlier call remembered (gitmem.agents.state: valid while every input it
depended on is as it was), and only otherwise opens the repository, finds it and remembers.

`remembered_recall` is the warm recall built on it: the index (and vectors) of the remembered
entries tree straight from the recall cache (gitmem.recall.cache.stored; vectors an
admission's update left behind are brought up to date with the files git itself reads,
gitmem.recall.cache.caught_up), ranked and gated as
every recall is (gitmem.recall.semantic.answer), and freshness asked of git itself
(gitmem.repo.gitcli.History), the answer the full path gives, figure for figure.  Whenever it
is not sure - no remembered state, a cache that does not hold that tree, a damaged one - it
answers None and the caller takes the full path (gitmem.recall.service.recall_answer), which
builds or repairs what is missing.
"""

from __future__ import annotations

import os
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gitmem.agents.precedents import Precedent
    from gitmem.agents.state import Known
    from gitmem.recall.freshness import History
    from gitmem.recall.service import RecallAnswer, Recalled
    from gitmem.repo.gitcli import PinnedRepository
    from gitmem.repo.trees import Trees
    from gitmem.repo.workspace import Workspace

__all__ = ["Memory", "memory_here", "remembered_precedents", "remembered_recall"]

#: Variables that point git at another repository than the folder's own: with any of them
#: set, where the memory is is not what the folder remembers, and the full path runs.
_ELSEWHERE = ("GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR")


def memory_here() -> Memory | None:
    """The memory of the work tree here, as git itself finds it (its safety checks, ceiling
    folders and all); None outside a work tree, or when git points elsewhere by the
    environment.

    Run inside a git directory whose core.worktree names a work tree elsewhere (dotfiles kept
    so), git's top folder has no `.git` leading back: opened from it, recall said "not inside
    a git repository" where every other command works (Store.open pins such a repository).
    The memory is then pinned to the git directory git found, with that work tree, as a
    GIT_DIR a person set would be."""
    from gitmem.repo.gitcli import PinnedRepository, hook_output
    from gitmem.repo.refs import GitFiles

    if any(os.environ.get(name) for name in _ELSEWHERE):
        return None
    found = hook_output("rev-parse", "--show-toplevel", "--absolute-git-dir")
    try:
        lines = found.decode("utf-8").splitlines() if found is not None else []
    except UnicodeDecodeError:
        return None
    if len(lines) != 2 or not lines[0]:
        return None
    top, git_dir = lines
    files = GitFiles.at(top)
    if files is not None and os.path.realpath(files.git_dir) == os.path.realpath(git_dir):
        return Memory(top)
    return Memory(top, PinnedRepository(git_dir, top))


class Memory:
    """The memory as one call sees it: where it is (remembered from an earlier call while
    nothing it depends on changed, else found by opening the repository, and remembered), and
    the workspace, opened only when something must be built or read from the repository.

    root is the work tree's top folder; pinned, when given, the repository a GIT_DIR set for
    the call names (gitcli.pinned_repository), whose work tree root is. What is remembered
    is a work tree's own (read through its `.git`), so with pinned nothing is remembered or
    read back: the repository is opened each call, as the full path does."""

    def __init__(self, root: str, pinned: PinnedRepository | None = None) -> None:
        from gitmem.agents.state import current

        self.root = root
        self.pinned = pinned
        self._ws: Workspace | None = None
        self.known = (current(root) if pinned is None else None) or self._find()

    def _find(self) -> Known:
        from gitmem.agents import state
        from gitmem.repo.refs import GitFiles

        files = GitFiles.at(self.root) if self.pinned is None else None
        digest = state.inputs(self.root, files) if files is not None else None
        ws = self.workspace()
        store = ws.store
        tip = ws.main_tip()
        memory = store.subtree(store.tree_of(tip), ws.dir) if tip else None
        known = state.Known(
            files,
            dir=ws.dir,
            branch=ws.branch,
            tip=tip,
            memory_tree=memory,
            entries_tree=store.subtree(memory, "entries") if memory else None,
            semantic=ws.settings.semantic,
            warnings=tuple(ws.settings.warning_lines()),
        )
        workdir = store.workdir
        if (
            digest is not None
            and workdir is not None
            and workdir.resolve() == Path(self.root).resolve()
        ):
            state.remember(self.root, digest, known)
        return known

    @property
    def opened(self) -> bool:
        """Whether this call has opened the repository (libgit2 loaded, the workspace read)."""
        return self._ws is not None

    def workspace(self) -> Workspace:
        if self._ws is None:
            from gitmem.repo.workspace import open_workspace

            self._ws = open_workspace(self.root, pinned=self.pinned)
        return self._ws

    @property
    def common_dir(self) -> Path:
        files = self.known.files
        return files.common_dir if files is not None else self.workspace().store.common_dir

    def trees(self) -> Trees:
        """Who reads trees and files for the recall cache: the opened repository, else git
        itself (gitmem.repo.trees)."""
        if self._ws is not None:
            return self._ws.store
        from gitmem.repo.trees import GitTrees

        return GitTrees(Path(self.root), self.pinned)

    def history(self) -> History:
        """Who answers the freshness questions: the opened repository, else git itself."""
        if self._ws is not None:
            return self._ws.store
        from gitmem.repo.gitcli import History as GitHistory

        files = self.known.files  # where git's commit-graph is, when known without opening
        return GitHistory(
            Path(self.root), files.common_dir if files is not None else None, self.pinned
        )


def remembered_recall(
    memory: Memory,
    query: str,
    *,
    k: int = 5,
    types: Collection[str] | None = None,
    min_score: float | None = None,
) -> RecallAnswer | None:
    """A recall at the memory branch's tip from the cache alone (module docstring), or None
    when the full path must answer."""
    from gitmem.recall import semantic
    from gitmem.recall.cache import caught_up, stored
    from gitmem.recall.service import bodies, unreadable, with_freshness

    known = memory.known
    if known.tip is None or known.entries_tree is None or k <= 0:
        return None  # nothing to recall: the full path says so without a cache
    loaded = stored(memory.common_dir, known.dir, known.entries_tree, semantic=known.semantic)
    if loaded is None and known.semantic:  # perhaps vectors an admission left behind
        loaded = caught_up(memory.common_dir, known.dir, known.entries_tree, memory.trees())
    if loaded is None:
        return None
    history = memory.history()
    try:
        found = semantic.answer(
            loaded.index,
            loaded.vectors,
            query,
            k=k,
            types=types,
            min_score=min_score,
            body_of=bodies(history, known.tip),
        )
    except semantic.SemanticUnavailable:
        raise
    except Exception:  # a damaged cache: the full path sets it aside and rebuilds
        return None
    return with_freshness(found, history, known.tip, unreadable(loaded))


def remembered_precedents(memory: Memory, hits: list[Recalled]) -> list[Precedent] | None:
    """Precedents for a warm recall's hits, with each one's provenance from the agents'
    catalog of the remembered entries tree (gitmem.lifecycle.catalog, which the hooks keep,
    brought up by the tree diff after an admission); None when no catalog is kept for that
    tree or one it can be brought up from, it lacks the line of a hit's file, or it flags a
    hit's text as holding a secret: the caller then reads the entries
    themselves (gitmem.agents.precedents.from_recalled) and judges them against main's
    allowed.md (gitmem.agents.precedents.withheld)."""
    from gitmem.agents.precedents import with_provenance
    from gitmem.lifecycle import catalog

    entries = memory.known.entries_tree
    found = (
        catalog.brought_up(memory.common_dir, memory.known.dir, entries, memory.trees())
        if entries is not None
        else None
    )
    if found is None:
        return None
    provenance: dict[str, tuple[str, str]] = {}
    for hit in hits:
        # the line of the hit's own file: where two files hold one id (a copy come in
        # without the gate), the catalog's first line by the id may be the other's, whose
        # provenance the full path (which reads the hit's file) never shows
        line = found.get(hit.id, hit.path)
        if line is None or line.secret:
            return None
        provenance[hit.id] = (line.admitted_by or "unknown", line.admitted or "unknown")
    return with_provenance(hits, lambda hit: provenance[hit.id])
