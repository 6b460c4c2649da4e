"""Recall for people and agents: the admitted entries that apply, best first, and how fresh
they are.

Only admitted entries are indexed (candidates live on branches, superseded entries are
retired), so neither ever comes back.  The ranking and the gate that abstains live in
gitmem.recall.engine (and gitmem.recall.semantic with gitmem[semantic]); the index comes from
the cache in the git directory.

Freshness: an entry citing `files` is "may be stale" when commits touched those files after
the commit that admitted it (the count is given), and "cites missing file" when one no longer
exists at the recalled commit, and its freshness unknown (stale_commits None) where a shallow
clone's cut history cannot tell; gitmem.recall.freshness computes and words it for every
reader.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gitmem.errors import UsageError
from gitmem.model.names import quoted_id
from gitmem.recall.engine import STEP_TYPES, Answer, Hit
from gitmem.recall.freshness import History, freshness, note

if TYPE_CHECKING:  # a warm recall that never opens the repository loads no pygit2
    from gitmem.recall.cache import Loaded
    from gitmem.repo.workspace import Workspace

__all__ = [
    "STEP_TYPES",
    "RecallAnswer",
    "Recalled",
    "bodies",
    "recall",
    "recall_answer",
    "require_query",
    "unreadable",
    "with_freshness",
]


@dataclass(frozen=True)
class Recalled(Hit):
    """A hit, and whether its cited files still stand as they were when it was admitted
    (stale_commits None: a shallow clone's history cannot tell)."""

    stale_commits: int | None
    missing_files: tuple[str, ...]

    @property
    def freshness(self) -> str:
        """'' when fresh, else what a reader should know before relying on it."""
        return note(self.stale_commits, self.missing_files)


@dataclass(frozen=True)
class RecallAnswer:
    """What a recall found, and when it found nothing, the best candidate the gate rejected
    (with its `why`), so a reader can see how near the memory came; warnings name each file
    at an entry's place that the answer leaves out, being no readable entry (unreadable):
    without them, an answer without an entry that does not parse passed for the whole
    memory's, where `gitmem list` and the export name the file."""

    entries: list[Recalled]
    rejected: Hit | None = None
    warnings: tuple[str, ...] = ()


#: Why an empty query is refused (require_query), in the words every reader gives.
EMPTY_QUERY = (
    "the query is empty: say what you are doing or looking for, in your own words (an empty "
    "variable in a script or a hook asks nothing, and nothing found would read as the memory "
    "holding no precedent)"
)


def require_query(query: str) -> None:
    """Refuse a query of blanks alone (a UsageError, exit 2). Answered "no precedent", an
    empty variable in a script or an agent's call read as the memory's word that nothing
    applies, where nothing was asked. An agent's hook asking for precedents is answered
    empty instead, never failed (gitmem.cli.recall)."""
    if not query.strip():
        raise UsageError(EMPTY_QUERY)


def recall(
    ws: Workspace,
    query: str,
    *,
    k: int = 5,
    types: Collection[str] | None = None,
    ref: str | None = None,
    min_score: float | None = None,
) -> list[Recalled]:
    """At most k admitted entries for query, best first; [] when nothing genuinely applies.
    Each entry's `why` says which signals scored it and why it passed the gate."""
    return recall_answer(ws, query, k=k, types=types, ref=ref, min_score=min_score).entries


def recall_answer(
    ws: Workspace,
    query: str,
    *,
    k: int = 5,
    types: Collection[str] | None = None,
    ref: str | None = None,
    min_score: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> RecallAnswer:
    """recall's entries, and for an empty answer the best rejected candidate; progress(done,
    total) is told how a first build's embedding goes (gitmem[semantic])."""
    from gitmem.recall import semantic
    from gitmem.recall.cache import RecallCache
    from gitmem.repo import workspace

    store = ws.store
    # an empty --ref names no commit, as in git; it is not "no --ref" (the memory branch)
    commit = store.resolve(ref) if ref is not None else ws.memory_tip()
    if ref is not None and commit is None:
        raise UsageError(f"--ref {quoted_id(ref)} is not a commit here (git fetch first?)")
    if commit is None or k <= 0:
        return RecallAnswer([])
    tree = store.tree_of(commit)
    memory = workspace.memory_tree(ws, tree)
    if memory is None:
        return RecallAnswer([])
    cache = RecallCache(store, ws.dir, semantic=ws.settings.semantic, progress=progress)
    body_of = bodies(store, commit)

    def ask(loaded: Loaded) -> Answer:
        return semantic.answer(
            loaded.index, loaded.vectors, query, k=k, types=types, min_score=min_score,
            body_of=body_of,
        )  # fmt: skip

    loaded = cache.load(memory)
    try:
        found = ask(loaded)
    except semantic.SemanticUnavailable:
        raise
    except Exception:  # a damaged cache the quick load did not catch: rebuild, never fail
        loaded = cache.recover(memory)
        found = ask(loaded)
    return with_freshness(found, store, commit, unreadable(loaded))


def unreadable(loaded: Loaded) -> tuple[str, ...]:
    """The warnings for the files a loaded index holds no entry of, being none (a file that
    does not parse, too large, a link), in path order, as `gitmem list` says them."""
    from gitmem.model.problem import LEFT_OUT

    return tuple(f"{loaded.unreadable[path]}: {LEFT_OUT}" for path in sorted(loaded.unreadable))


def bodies(history: History, commit: str) -> Callable[[Hit], str | None]:
    """What the fused gate reads of a hit's body (gitmem.recall.semantic.entry_body): its
    file at commit, asked of the opened repository or of git itself; None where the file
    cannot be read, and the gate then reads the hit's head."""

    def body_of(hit: Hit) -> str | None:
        from gitmem.model.fields import MAX_ENTRY_BYTES  # the largest entry a reader takes
        from gitmem.recall.semantic import entry_body

        return entry_body(history.read_file(commit, hit.path, MAX_ENTRY_BYTES))

    return body_of


def with_freshness(
    found: Answer, history: History, commit: str, warnings: tuple[str, ...] = ()
) -> RecallAnswer:
    """An answer's hits with their freshness at commit, asked of history (the opened
    repository, or git itself for a caller that has not opened it), with warnings."""
    hits = found.hits
    states = freshness(history, commit, [(h.path, h.files) for h in hits])
    entries = [
        Recalled(**vars(hit), stale_commits=state.stale_commits, missing_files=state.missing_files)
        for hit, state in zip(hits, states, strict=True)
    ]
    return RecallAnswer(entries, found.rejected, warnings)
