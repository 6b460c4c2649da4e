"""Entries on the main branch, found by id: what proposing, admitting and reading look up."""

from __future__ import annotations

import difflib
import heapq

from gitmem.errors import RuleError, UsageError
from gitmem.gate.rules import place_of
from gitmem.model.entry import Entry, EntryError
from gitmem.model.names import (
    CANDIDATE_REFS,
    answers_for_id,
    candidate_id_of,
    is_entry_id,
    misplaced,
    quoted_id,
)
from gitmem.model.problem import Problem
from gitmem.repo.snapshot import read_entry
from gitmem.repo.store import Store, TreeItem
from gitmem.repo.workspace import Workspace


def find_entry(
    store: Store, memory_tree: str | None, entry_id: str
) -> tuple[TreeItem, Entry] | None:
    """The file entries/<type>/<id>.md and its parsed entry, looking in every type folder.

    Of the files an id names, only one at its own place is the id's entry (a copy of another
    entry there is not: gitmem.model.names.misplaced), and where two types' folders each
    hold an entry of the id (which the gate refuses, but a history that got around it may
    keep), the one that answers for it is the one recall answers with
    (gitmem.model.names.answers_for_id): show and memory_show took the first type folder,
    recall the last, so `gitmem show ID` printed another text than recall had given."""
    if memory_tree is None or not is_entry_id(entry_id):
        return None
    entries_tree = store.subtree(memory_tree, "entries")
    if entries_tree is None:
        return None
    found: tuple[TreeItem, Entry] | None = None
    for folder in store.folders(entries_tree):
        path = f"entries/{folder}/{entry_id}.md"
        item = store.item(entries_tree, f"{folder}/{entry_id}.md")
        if item is None:
            continue
        try:
            # the path from the memory folder, as found's item says it: a blob the
            # repository lacks is named by it
            parsed = read_entry(store, TreeItem(path, item.oid, item.mode))
        except EntryError:
            continue
        if misplaced(path, "", parsed.id, parsed.type) is not None:
            continue
        if found is None or answers_for_id(path, found[0].path):
            found = TreeItem(path, item.oid, item.mode), parsed
    return found


def unreadable_entry(
    store: Store, memory_tree: str | None, entry_id: str
) -> tuple[str, EntryError] | None:
    """The file entries/<type>/<id>.md that is there but is no readable entry (it does not
    parse, it is too large: read_entry; or it holds another entry, a copy whose id or type is
    not its place's: ID-PATH), and why: what `show` names instead of saying the id is
    unknown (find_entry passes such a file by)."""
    if memory_tree is None or not is_entry_id(entry_id):
        return None
    entries_tree = store.subtree(memory_tree, "entries")
    for folder in store.folders(entries_tree) if entries_tree is not None else ():
        item = store.item(entries_tree or "", f"{folder}/{entry_id}.md")
        if item is not None:
            path = f"entries/{folder}/{entry_id}.md"
            try:
                parsed = read_entry(store, TreeItem(path, item.oid, item.mode))
            except EntryError as exc:
                return path, exc
            wrong = misplaced(path, "", parsed.id, parsed.type)
            if wrong is not None:
                return path, EntryError("ID-PATH", wrong)
    return None


def unreadable_error(ws: Workspace, memory_tree: str | None, entry_id: str) -> RuleError | None:
    """The error for an id whose file is on the memory branch but is no readable entry (it
    does not parse, it is too large, a link: read_entry): its file, line and rule (exit 1),
    where "no entry" would send the user looking for a file that is there."""
    broken = unreadable_entry(ws.store, memory_tree, entry_id)
    if broken is None:
        return None
    path, exc = broken
    problem = Problem(f"{ws.dir}/{path}", exc.line, exc.rule, exc.message)
    return RuleError(
        f"{problem}: the entry on {ws.branch} cannot be read; `gitmem check` names every "
        "problem of the memory"
    )


def require_entry(ws: Workspace, memory_tree: str | None, entry_id: str) -> Entry:
    """The entry entry_id on the memory branch (memory_tree), or the error that says why
    there is none: its file cannot be read (exit 1), or no such file (exit 2)."""
    return require_found(ws, memory_tree, entry_id)[1]


def require_found(ws: Workspace, memory_tree: str | None, entry_id: str) -> tuple[TreeItem, Entry]:
    """find_entry's file and entry, or require_entry's error (for a caller that needs the
    file too: an amendment records its blob)."""
    found = find_entry(ws.store, memory_tree, entry_id)
    if found is not None:
        return found
    raise unreadable_error(ws, memory_tree, entry_id) or UsageError(
        f"no entry {quoted_id(entry_id)} on {ws.branch}{did_you_mean(ws, entry_id, memory_tree)}"
        ": see `gitmem list`"
    )


#: How many ids a "did you mean" names at most.
SIMILAR = 3


def similar_ids(ws: Workspace, asked: str, memory_tree: str | None) -> list[str]:
    """The ids someone who typed `asked` most likely meant, best first (at most SIMILAR):
    the entries' on the memory branch (memory_tree: None for candidates alone) and the
    pending candidates' branches here and on remotes. An id holding what was typed (its slug, or a
    prefix: ids are long, and people type the part they remember) comes first, then ids
    spelled closest to it. Read only on the way to an "unknown id" error: it walks the type
    folders' names, which costs a fraction of a second at 100,000 entries."""
    known: set[str] = set()
    entries_tree = ws.store.subtree(memory_tree, "entries") if memory_tree else None
    for folder in ws.store.folders(entries_tree):
        names = ws.store.names(ws.store.subtree(entries_tree, folder) if entries_tree else None)
        known.update(name.removesuffix(".md") for name, _ in names if name.endswith(".md"))
    refs = [*ws.store.refs(CANDIDATE_REFS), *ws.store.refs("refs/remotes/")]
    known.update(filter(None, map(candidate_id_of, refs)))
    known = {k for k in known if is_entry_id(k)}
    wanted = asked.strip().casefold()
    if len(wanted) < 3:
        return []
    holding = sorted((k for k in known if wanted in k), key=lambda k: (len(k), k))
    if holding:
        return holding[:SIMILAR]
    # ids sharing words with what was typed, then the closest spelled among them: difflib
    # over 100,000 ids took 14 s, the word test then difflib over fifty 0.25 s (a script
    # run once on generated ids)
    words = {w for w in wanted.split("-") if len(w) >= 3}
    shared = {k: len(words & set(k.split("-"))) for k in known}
    nearest = heapq.nlargest(
        _SPELLING_POOL, (k for k, n in shared.items() if n), key=lambda k: shared[k]
    )
    return difflib.get_close_matches(wanted, nearest, n=SIMILAR, cutoff=0.5)


#: How many ids sharing words with an unknown id are compared with it letter by letter.
_SPELLING_POOL = 50


def did_you_mean(ws: Workspace, asked: str, memory_tree: str | None) -> str:
    """similar_ids as a clause for an "unknown id" error ("" when none is similar)."""
    similar = similar_ids(ws, asked, memory_tree)
    if not similar:
        return ""
    # whole, to be copied: each is an id (is_entry_id), short by rule, never hostile text
    return f" (did you mean {' or '.join(repr(s) for s in similar)}?)"


def out_of_place(path: str, memory_dir: str) -> Problem | None:
    """LAYOUT, as `gitmem check` says it, for a file below entries/ that is not at an
    entry's place, entries/<type>/<id>.md (a copy straight under entries/, one in a folder
    below a type's, a merge tool's `….md.orig`); None for a file at an entry's place. The
    readers that walk entries/ read only those: a copy holds the id of the entry it copies,
    and was listed (and given a page on the site) as that entry again."""
    if place_of(path, memory_dir).kind == "entry":
        return None
    return Problem(
        path,
        None,
        "LAYOUT",
        f"is not a memory file: entries live in {memory_dir}/entries/<type>/<id>.md and "
        f"candidates in {memory_dir}/candidates/<id>.md",
    )
