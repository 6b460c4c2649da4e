"""Reading the admitted memory: `gitmem list`, `gitmem show ID [--lineage]`."""

from __future__ import annotations

from dataclasses import dataclass

from gitmem.errors import RuleError, UsageError
from gitmem.gate.rules import Context, secret_problems
from gitmem.lifecycle.candidates import closed_candidate, lookup_candidate, require_id
from gitmem.lifecycle.entries import (
    did_you_mean,
    find_entry,
    out_of_place,
    require_entry,
    unreadable_error,
)
from gitmem.model import names
from gitmem.model.entry import Entry, EntryError
from gitmem.model.names import candidate_branch, is_entry_id, quoted_id
from gitmem.model.problem import Problem
from gitmem.repo.snapshot import TreeSnapshot, read_entry
from gitmem.repo.workspace import Workspace, memory_tree


@dataclass(frozen=True)
class Listed:
    id: str
    type: str
    status: str
    title: str
    path: str
    #: the dates of its amendments, oldest first (empty when never amended)
    amended: tuple[str, ...] = ()


def entries(
    ws: Workspace, rev: str | None = None, skipped: list[Problem] | None = None
) -> list[tuple[str, Entry]]:
    """Every readable entry on main (or at rev), with its repository path, sorted by id; the
    file rule each unreadable one breaks (it does not parse, it is too large: read_entry),
    and LAYOUT for each file below entries/ that is not at an entry's place (out_of_place),
    go to skipped, when given."""
    store = ws.store
    tip = store.resolve(rev) if rev else ws.main_tip()
    if rev and tip is None:
        raise UsageError(f"{rev!r} is not a commit here")
    if tip is None:
        return []
    memory = memory_tree(ws, store.tree_of(tip))
    out = []
    for item in store.walk(store.subtree(memory, "entries"), f"{ws.dir}/entries/"):
        stray = out_of_place(item.path, ws.dir)
        if stray is not None:
            if skipped is not None:
                skipped.append(stray)
            continue
        try:
            out.append((item.path, read_entry(store, item)))
        except EntryError as exc:
            if skipped is not None:
                skipped.append(Problem(item.path, exc.line, exc.rule, exc.message))
    return sorted(out, key=lambda pair: pair[1].id)


def list_entries(
    ws: Workspace,
    *,
    status: str | None = None,
    types: tuple[str, ...] = (),
    skipped: list[Problem] | None = None,
) -> list[Listed]:
    """The entries `gitmem list` shows; the rule each unreadable file breaks goes to skipped,
    when given.
    A memory branch missing here is named (Workspace.memory_tip), not listed as empty."""
    ws.memory_tip()
    out = []
    for path, entry in entries(ws, skipped=skipped):
        misplaced = names.misplaced(path, ws.dir, entry.id, entry.type)
        if misplaced is not None:
            if skipped is not None:
                skipped.append(Problem(path, None, "ID-PATH", misplaced))
            continue
        if status and entry.status != status:
            continue
        if types and entry.type not in types:
            continue
        amended = tuple(str(d) for d in entry.meta.get("amended") or [])
        out.append(Listed(entry.id, entry.type, entry.status, entry.title, path, amended))
    return out


def show(ws: Workspace, entry_id: str) -> tuple[str, Entry]:
    """An entry on main, else a pending candidate: (where, entry)."""
    require_id(entry_id, "a candidate id, nor an entry's")
    tip = ws.main_tip()
    memory = memory_tree(ws, ws.store.tree_of(tip)) if tip else None
    found = find_entry(ws.store, memory, entry_id)
    if found is not None:
        return f"{ws.dir}/{found[0].path}", found[1]
    broken = unreadable_error(ws, memory, entry_id)
    if broken is not None:
        raise broken
    candidate = lookup_candidate(ws, entry_id)
    if candidate is None:
        raise _unknown(ws, entry_id, memory)
    where = f"{candidate.ref}:{candidate.path}"
    if candidate.data is None:
        raise UsageError(f"branch {candidate.ref} holds no {candidate.path}")
    try:  # as admission judges it: a link or a file over 64 KiB is no candidate's text
        return where, candidate.entry()
    except EntryError as exc:
        raise RuleError(
            f"{Problem(where, exc.line, exc.rule, exc.message)}: the candidate cannot be read; "
            f"`gitmem review {entry_id}` names every problem it has"
        ) from None


def _unknown(ws: Workspace, entry_id: str, memory: str | None) -> UsageError:
    """The error for an id that is neither an entry on the memory branch nor a pending
    candidate: that both were looked up, what became of a closed candidate (admitted on a
    main this clone has not pulled, refused), and where to look. Exit 2, as every command's
    unknown id."""
    missing = f"no entry {quoted_id(entry_id)} on {ws.branch}"
    closed = closed_candidate(ws, entry_id)
    if closed is None:
        return UsageError(
            f"{missing} and no candidate {quoted_id(entry_id)} (no branch "
            f"{candidate_branch(entry_id)} here or on a remote)"
            f"{did_you_mean(ws, entry_id, memory)}: `gitmem list` lists the entries, "
            "`gitmem candidates` the candidates (git fetch first?)"
        )
    if closed.admitted_on is not None:  # on a remote's main only: find_entry missed it here
        return UsageError(f"{missing}: {closed.note}: git pull, then show it")
    return UsageError(f"{missing}: {closed.note}")


def holds_secret(ws: Workspace, path: str, text: str) -> bool:
    """Whether text, shown of the entry or candidate at path, holds a secret that main's
    allowed.md does not list: the scanner looks first, and allowed.md is read only for a text
    it flags. What recall, the agents' precedents, the MCP server, the export and the site
    withhold."""
    from gitmem.gate.secrets import may_hold_secret

    return may_hold_secret(text) and bool(secrets_in(ws, path, text))


def secrets_in(ws: Workspace, path: str, text: str) -> list[Problem]:
    """The secrets the scanner finds in an entry's or a candidate's text, but those the main
    branch's allowed.md lists (a reviewer's exceptions): a text with any is never passed on
    to an agent (gitmem.agents.mcp_server), since a candidate branch is anyone's push and
    main may hold what no gate saw (a push where no server hook runs)."""
    tip = ws.main_tip()
    snapshot = TreeSnapshot(ws.store, ws.store.tree_of(tip) if tip else None)
    allowed = Context.from_snapshot(ws.settings, snapshot).allowed
    return secret_problems(path, text, allowed)


def lineage(ws: Workspace, entry_id: str) -> list[Entry]:
    """The supersession chain through an entry, oldest first: predecessors (following
    `supersedes`) and successors (following `superseded_by`), each visited once."""
    tip = ws.main_tip()
    memory = memory_tree(ws, ws.store.tree_of(tip)) if tip else None

    def load(target: str) -> Entry | None:
        found = find_entry(ws.store, memory, target)
        return found[1] if found else None

    try:
        start = require_entry(ws, memory, entry_id)
    except UsageError:  # no such file on main: a pending candidate is said to be one
        candidate = lookup_candidate(ws, entry_id) if is_entry_id(entry_id) else None
        if candidate is None:
            raise
        raise UsageError(
            f"no entry {quoted_id(entry_id)} on {ws.branch}: it is a pending candidate "
            f"({candidate.ref}), whose lineage begins once it is admitted; `gitmem show "
            f"{entry_id}` shows it"
        ) from None
    seen = {start.id}
    before: list[Entry] = []
    frontier = list(start.supersedes)
    while frontier:
        current = frontier.pop(0)
        if current in seen:
            continue
        seen.add(current)
        older = load(current)
        if older is not None:
            before.insert(0, older)
            frontier.extend(older.supersedes)
    after: list[Entry] = []
    successor = str(start.meta.get("superseded_by", ""))
    while successor and successor not in seen:
        seen.add(successor)
        newer = load(successor)
        if newer is None:
            break
        after.append(newer)
        successor = str(newer.meta.get("superseded_by", ""))
    return [*before, start, *after]
