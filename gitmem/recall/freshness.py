"""Whether an admitted entry still describes the code it cites, in the words every reader uses.

An entry citing `files` is "may be stale" when commits touched those files after the commit
that admitted it (the count is given), and "cites missing file" when one no longer exists at
the commit the entry is read from.  In a shallow clone whose history is cut before the
admission (or between it and the commit read) the count cannot be made: git takes each commit
at the cut for a root that adds every file, so the admission is found there and no commit
counted since.  Such an entry's freshness is unknown (SHALLOW), never "fresh".  `gitmem
recall`, the MCP tools and the agents' hooks all say it this way; this module is the one
place that computes it and words it.

Finding the admitting commit is a path-limited walk of the first-parent history, which
libgit2 does not offer: git answers it.  One `git log` finds every entry's admission while one
`git cat-file` says which cited files are gone, side by side; then the counts are asked side by
side, so five entries cost two git round trips, not eleven.  Every commit is read as it is,
never as a replace ref (`git replace`) has git read another in its place.  The repository is
anything with the questions of `History`: gitmem.repo.store.Store in a process that has
opened the repository, gitmem.repo.gitcli.History (the git command line alone) in an agent's
hook that has not.  This module imports only the standard library.
"""

from __future__ import annotations

import threading
from collections.abc import Collection, Sequence
from typing import Protocol

__all__ = ["SHALLOW", "Freshness", "History", "askable", "freshness", "note"]

#: git reads each commit as it is, never a replace ref's stand-in (`git replace`): pygit2, which
#: answers `missing` for the opened repository, knows no replace refs, and the hooks keep the
#: counts by the tip's id, which a replace ref leaves as it was (gitmem.repo.gitcli, whose
#: History asks the other questions, gives git the same option: READ_AS_THEY_ARE).
_AS_THEY_ARE = ("--no-replace-objects",)

#: What is said of an entry whose freshness a shallow clone's cut history cannot tell.
SHALLOW = "freshness unknown: this clone's history is shallow; run git fetch --unshallow to judge"


class History(Protocol):
    """The repository questions freshness asks (and the recall gate's reading of a hit's
    body, gitmem.recall.service.bodies)."""

    def missing(self, commit: str, paths: Collection[str]) -> set[str]: ...

    def first_added(self, tip: str, paths: list[str]) -> dict[str, str]: ...

    def run_git_all(self, commands: list[list[str]]) -> list[str]: ...

    def read_file(self, commit: str, path: str, limit: int) -> bytes | None: ...

    def shallow_commits(self) -> frozenset[str]: ...


class Freshness:
    """How an entry's cited files stand at a commit: commits that touched them since its
    admission (None when a shallow clone's cut history cannot tell), and the ones that no
    longer exist.  (A plain class: a hook's fast path stays clear of dataclasses' imports.)"""

    __slots__ = ("missing_files", "stale_commits")

    def __init__(self, stale_commits: int | None = 0, missing_files: tuple[str, ...] = ()) -> None:
        self.stale_commits = stale_commits
        self.missing_files = missing_files

    @property
    def note(self) -> str:
        return note(self.stale_commits, self.missing_files)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Freshness)
            and other.stale_commits == self.stale_commits
            and other.missing_files == self.missing_files
        )

    def __hash__(self) -> int:
        return hash((self.stale_commits, self.missing_files))

    def __repr__(self) -> str:
        return f"Freshness({self.stale_commits}, {self.missing_files!r})"


def note(stale_commits: int | None, missing_files: Sequence[str]) -> str:
    """'' when fresh, else what a reader should know before relying on the entry (stale_commits
    None: SHALLOW, as every reader that takes '' for fresh must not take it)."""
    notes = []
    if missing_files:
        notes.append("cites missing file " + ", ".join(missing_files))
    if stale_commits is None:
        notes.append(SHALLOW)
    elif stale_commits:
        plural = "s" if stale_commits != 1 else ""
        notes.append(
            f"may be stale: {stale_commits} commit{plural} touched its files since admission"
        )
    return "; ".join(notes)


def askable(path: str) -> bool:
    """Whether path is spelled as a tree holds a file: parts neither empty nor `.` or `..`,
    no line break, carriage return or NUL. Any other spelling (an entry that came in without
    the gate) is a file that does not exist, for every reader that says how an entry's files
    stand (recall here, `gitmem export`): git and libgit2 read some of them differently
    (`./a` is `a` to git, `a//b` is `a/b` to libgit2), and git cannot be asked one with a
    line break, nor one ending in a carriage return, which git's line-based input (`--stdin`,
    `cat-file --batch-check`) strips, asking of another file (`a.py` for `a.py\r`)."""
    return not any(c in path for c in "\n\r\0") and all(
        part not in ("", ".", "..") for part in path.split("/")
    )


def freshness(
    repo: History, tip: str, entries: Sequence[tuple[str, Sequence[str]]]
) -> list[Freshness]:
    """For each (entry path, cited files) at commit tip, in order: how its cited files stand.

    A file that no longer exists at tip is missing, as is one spelled as no tree holds a file
    (`askable`); the others count the commits since the one that added the entry (on tip's
    first-parent chain) that touched them.  An entry that no first-parent commit added (not
    on this history) counts none.

    In a shallow clone (repo.shallow_commits(), empty in a full one: no question asked) the
    count is None, unknown, where the cut lies in the history it needs: when the admission
    found is a commit at the cut (git calls every file added there, whenever it was), or the
    walk that counts reaches one (a branch merged since, cut short: git counts its cut commit
    as adding the files and cannot count the commits before it). A clone deep enough for
    both is judged as a full one."""
    cited = sorted({f for _, files in entries for f in files})
    if not cited:
        return [Freshness() for _ in entries]
    # The two questions are independent: the admissions are asked in a thread while this one
    # asks which files are gone (each waits on its git process), one round trip instead of two.
    citing = [path for path, files in entries if files]
    cut = repo.shallow_commits()
    admitted: dict[str, str] = {}
    failed: list[BaseException] = []

    def admissions() -> None:
        try:
            admitted.update(repo.first_added(tip, citing))
        except BaseException as error:  # re-raised in the caller's thread below
            failed.append(error)

    walk = threading.Thread(target=admissions)
    walk.start()
    try:
        odd = {f for f in cited if not askable(f)}
        gone = repo.missing(tip, [f for f in cited if f not in odd]) | odd
    finally:
        walk.join()
    if failed:
        raise failed[0]
    missing = [tuple(f for f in files if f in gone) for _, files in entries]
    present = [[f for f in files if f not in gone] for _, files in entries]
    since = [
        (i, admitted[path])
        for i, (path, _) in enumerate(entries)
        if present[i] and path in admitted
    ]
    stale: list[int | None] = [0] * len(entries)
    # in a shallow clone the commits are listed, not counted, to see whether a cut is among them
    count = [*_AS_THEY_ARE, "--literal-pathspecs", "rev-list", *([] if cut else ["--count"])]
    asked = [(i, a) for i, a in since if a not in cut]
    counted = repo.run_git_all([[*count, f"{a}..{tip}", "--", *present[i]] for i, a in asked])
    for i, a in since:
        if a in cut:
            stale[i] = None
    for (i, _), out in zip(asked, counted, strict=True):
        if cut:
            listed = out.split()
            stale[i] = None if cut.intersection(listed) else len(listed)
        else:
            stale[i] = int(out) if out.strip().isdigit() else 0
    return [Freshness(count, gone) for count, gone in zip(stale, missing, strict=True)]
