"""`gitmem export claude|agents`: a MEMORY.md-style index of the admitted memory, within a
budget, for tools that load a file instead of calling MCP.

One line per admitted entry, quoted (`> - …`): its title as a link to the entry's file, its
type, its one-line hook (`applies_when`), who admitted it and on which day, and "may be stale"
when a file it cites changed on a later day (the newest change of each cited file: one `git
log` for them all; an entry whose cited files are all gone says so instead; a cited name no
tree spells a file with, such as one ending in a carriage return, is gone, as recall says:
gitmem.recall.freshness.askable; where that newest change is the commit at a shallow clone's
cut, where git calls every file added, whether it changed since is unknown and the line says
so, as recall does: gitmem.recall.freshness.SHALLOW).  Superseded
entries never appear (the catalog holds admitted entries only).  The file opens with the same
framing every recall output for a model carries (gitmem.agents.precedents.PREAMBLE) and says
how to read an entry in full.  An entry whose line holds a secret (admitted before a rule
existed, or pushed around the gates) is listed withheld, as recall shows it.

**The budget** (default 200 lines and 25,000 bytes, the part of a MEMORY.md that Claude Code
loads at the start of a session) counts the whole file, header and footer included.  When not
every entry fits, the cut works like this, and the file's last line says what was left out:

1. *Recency first*: half of the entry lines go to the newest admissions, whatever their type,
   so the newest entries are never the ones dropped.
2. *Then corrections and mistakes*: the rest go first to `mistake` entries and to entries that
   supersede another (corrections of an earlier lesson), newest first,
3. *then everything else*, newest first;
4. *relevance to the project*: an entry whose cited files are all gone from the main branch
   talks about code the project no longer has, and comes after every other entry in 2 and 3.

In the file, corrections and mistakes are listed first (a section of their own), then the
others, each newest first.  Ties in date order by id, so the same memory gives the same bytes.

**Targets.** `claude` links relative to the output file (default `.claude/gitmem-memory.md`,
which CLAUDE.md can import with `@.claude/gitmem-memory.md`) and names the MCP tools;
`agents` (default `MEMORY.md` at the repository root) names the CLI.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final
from urllib.parse import quote

from gitmem.agents.precedents import PREAMBLE, Precedent, held_in, withheld
from gitmem.errors import UsageError
from gitmem.lifecycle import catalog
from gitmem.model.markdown import LINE_MARKUP, escape
from gitmem.model.names import entry_place, misplaced
from gitmem.model.terminal import clean
from gitmem.recall.freshness import SHALLOW, askable

if TYPE_CHECKING:
    from gitmem.lifecycle.catalog import Listed
    from gitmem.repo.store import Store
    from gitmem.repo.workspace import Workspace

__all__ = ["DEFAULT_BYTES", "DEFAULT_LINES", "TARGETS", "Export", "export"]

DEFAULT_LINES: Final = 200
DEFAULT_BYTES: Final = 25_000
TARGETS: Final = {"claude": ".claude/gitmem-memory.md", "agents": "MEMORY.md"}


@dataclass(frozen=True)
class Export:
    text: str
    listed: int
    left_out: int
    total: int
    #: entry files on main that do not parse, so are in no line (committed past the gate)
    unreadable: tuple[str, ...] = ()


def _is_correction(entry: Listed) -> bool:
    return entry.type == "mistake" or bool(entry.supersedes)


def _literal(text: str) -> str:
    """text as Markdown shows it, never as structure: a backslash, a bracket, a backtick, a
    `<` or an `@` gets a backslash. An admitted title is free text: `Arrays] start at 0`
    ended the link early and left its path as text, a backtick opened a code span that ran
    on, `<!--` hid every later line of the file wherever it is rendered, and `@.env` (after
    a space) is how Claude Code imports a file into the model's context, from CLAUDE.md and
    the files it imports, this one among them."""
    return escape(text, LINE_MARKUP + "`@")


def _line(entry: Listed, link_base: str, note: str, root: str = "") -> str:
    """One entry, quoted: title linked to its file, type, hook, who admitted it and when.
    link_base is the output's folder, relative to root (the repository's, as entry paths
    are) or absolute; both are joined to root, so the current folder never counts."""
    link = entry.path
    if link_base:
        link = os.path.relpath(os.path.join(root, entry.path), os.path.join(root, link_base))
    link = quote(link.replace(os.sep, "/"), safe="/")  # a name may hold `)`, spaces, anything
    by = _literal(clean(entry.admitted_by, 80) or "unknown")
    when = _literal(entry.admitted or "unknown")
    return (
        f"> - [{_literal(clean(entry.title, 160))}]({link}) — {_literal(entry.type)}: "
        f"{_literal(clean(entry.applies_when, 200))} ({by}, {when}{note})"
    )


def _header(target: str, project: str) -> list[str]:
    how = (
        "Read one in full with the MCP tool memory_show (or `gitmem show ID`); ask for "
        "precedents with memory_recall."
        if target == "claude"
        else 'Read one in full with `gitmem show ID`; ask for precedents with `gitmem recall "…"`.'
    )
    return [
        f"# Project memory of {project} (generated by `gitmem export {target}`; do not edit)",
        "",
        PREAMBLE,
        how,
        "",
    ]


def render(
    entries: Sequence[Listed],
    dead: set[str],
    stale: set[str],
    *,
    target: str,
    project: str,
    link_base: str,
    root: str = "",
    max_lines: int,
    max_bytes: int,
    unreadable: Sequence[str] = (),
    unknown: frozenset[str] = frozenset(),
) -> Export:
    """The export text for entries (newest first): ids in dead cite only gone files, ids in
    stale cite files changed after the day they were admitted, ids in unknown cite files a
    shallow clone cannot tell of (its cut is on a later day); unreadable, the entry files
    that do not parse, are counted in the last line (never listed: their names are anyone's
    text)."""
    header = _header(target, project)
    newest = list(entries)
    preferred = sorted(
        newest,
        key=lambda e: (e.id in dead, not _is_correction(e)),
    )  # stable: newest first inside each group
    notes = {e.id: "; cites only missing files" for e in newest if e.id in dead}
    notes.update({e.id: f"; {SHALLOW}" for e in newest if e.id in unknown})
    notes.update({e.id: "; may be stale: its files changed since" for e in newest if e.id in stale})
    lines_of = {e.id: _line(e, link_base, notes.get(e.id, ""), root) for e in newest}

    def compose(chosen: list[Listed]) -> str:
        picked = {e.id for e in chosen}
        first = [e for e in newest if e.id in picked and _is_correction(e)]
        rest = [e for e in newest if e.id in picked and not _is_correction(e)]
        out = list(header)
        if first:
            out += ["## Corrections and mistakes", "", *(lines_of[e.id] for e in first), ""]
        if rest:
            out += ["## Decisions, methods and code structure", ""]
            out += [*(lines_of[e.id] for e in rest), ""]
        left = len(newest) - len(chosen)
        if left:
            out.append(_footer(left, len(newest), chosen, newest))
        elif not newest and not unreadable:
            out.append("No admitted entry yet.")
        else:
            out.append(f"All {len(newest)} admitted entries are listed.")
        if unreadable:
            out[-1] += (
                f" {len(unreadable)} file(s) below the main branch's entries/ are not readable "
                "entries and are left out: `gitmem check` names their problems."
            )
        return "\n".join(out) + "\n"

    def fits(chosen: list[Listed]) -> bool:
        text = compose(chosen)
        return text.count("\n") <= max_lines and len(text.encode("utf-8")) <= max_bytes

    # How many fit: entry lines cost the same whichever are chosen, give or take their length;
    # search the count by halving, then choose that many.
    def choose(count: int) -> list[Listed]:
        recent = newest[: (count + 1) // 2]
        taken = {e.id for e in recent}
        more = [e for e in preferred if e.id not in taken][: count - len(recent)]
        return [*recent, *more]

    low, high = 0, len(newest)
    if fits(choose(high)):
        low = high
    else:
        while low < high - 1:
            middle = (low + high) // 2
            if fits(choose(middle)):
                low = middle
            else:
                high = middle
    chosen = choose(low)
    text = compose(chosen)
    if not fits(chosen):  # even the header does not fit the budget
        raise UsageError(
            f"a budget of {max_lines} lines and {max_bytes} bytes cannot hold even the "
            "export's header: raise --budget-lines or --budget-bytes"
        )
    return Export(text, len(chosen), len(newest) - len(chosen), len(newest), tuple(unreadable))


def _footer(left: int, total: int, chosen: list[Listed], newest: list[Listed]) -> str:
    picked = {e.id for e in chosen}
    dropped = [e for e in newest if e.id not in picked]
    kinds: dict[str, int] = {}
    for e in dropped:
        kinds[e.type] = kinds.get(e.type, 0) + 1
    by_type = ", ".join(f"{n} {_literal(t)}" for t, n in sorted(kinds.items()))
    oldest_kept = _literal(min((e.admitted for e in chosen), default=""))
    newest_dropped = _literal(max((e.admitted for e in dropped), default=""))
    span = f", admitted up to {newest_dropped}" if newest_dropped else ""
    since = f" (every entry admitted since {oldest_kept} is listed)" if oldest_kept else ""
    return (
        f"Left out to fit the budget: {left} of {total} admitted entries ({by_type}{span}), "
        f"the oldest and least relevant first{since}. Find them with `gitmem recall` or in "
        "INDEX.md."
    )


def export(
    ws: Workspace,
    target: str,
    *,
    output: str | None = None,
    max_lines: int = DEFAULT_LINES,
    max_bytes: int = DEFAULT_BYTES,
) -> Export:
    """The export of the main branch's admitted memory for target (claude or agents), its
    links relative to where output (a repository path; default TARGETS[target]) will be."""
    if target not in TARGETS:
        raise UsageError(f"unknown export target {target!r}: one of {', '.join(TARGETS)}")
    if max_lines < 1 or max_bytes < 1:
        raise UsageError("--budget-lines and --budget-bytes must be at least 1")
    from gitmem.repo import workspace  # here: the module loads pygit2

    store = ws.store
    tip = ws.main_tip()
    tree = store.tree_of(tip) if tip else None
    memory = workspace.memory_tree(ws, tree) if tree else None
    entries_tree = store.subtree(memory, "entries") if memory else None
    listed = list(catalog.load(store, ws.dir, entries_tree))
    unreadable = _unreadable(
        store,
        ws.dir,
        entries_tree,
        {e.path for e in listed},
        {old for e in listed for old in e.supersedes},
    )
    cited = {f for e in listed for f in e.files}
    # a name no tree spells a file with (`a.py\r`, `./a`) is gone, as recall says it is: asked
    # of git, its changes would be another file's (git reads `a.py` for `a.py\r`)
    gone = {f for f in cited if tree is None or not askable(f) or not store.exists(tree, f)}
    dead = {e.id for e in listed if e.files and all(f in gone for f in e.files)}
    changed = store.last_changed(tip, sorted(cited - gone)) if tip else {}
    # a change at a shallow clone's cut is git calling every file added there: no change known
    cut = store.shallow_commits()
    later = {
        e.id: [
            changed[f][0]
            for f in e.files
            if f not in gone and changed.get(f, ("", ""))[1] > e.admitted
        ]
        for e in listed
    }
    stale = {i for i, commits in later.items() if any(c not in cut for c in commits)}
    unknown = frozenset(i for i, commits in later.items() if commits and i not in stale)
    where = output if output not in (None, "-") else TARGETS[target]
    base = os.path.dirname(where or "")
    return render(
        _shown(ws, listed),
        dead,
        stale,
        target=target,
        project=ws.settings.project,
        link_base=base,
        root=str(store.workdir or ""),
        max_lines=max_lines,
        max_bytes=max_bytes,
        unreadable=unreadable,
        unknown=unknown,
    )


def _shown(ws: Workspace, listed: list[Listed]) -> list[Listed]:
    """The catalog lines as an agent may read them: one the catalog says holds a secret is
    judged against main's allowed.md as memory_show judges a text (lifecycle.read.secrets_in)
    and withheld as recall withholds it (gitmem.agents.precedents.withheld), the file being
    loaded whole by an agent and, maybe, committed by a person."""
    held = held_in(ws)
    out = []
    for e in listed:
        p = Precedent(e.id, e.type, e.title, e.applies_when, e.path, e.admitted_by, e.admitted)
        shown = withheld(p, held, *e.tags, *e.files) if e.secret else p
        if shown is not None:
            out.append(
                e._replace(
                    title=shown.title,
                    applies_when=shown.applies_when,
                    admitted_by=shown.admitted_by,
                )
            )
    return out


def _unreadable(
    store: Store,
    memory_dir: str,
    entries_tree: str | None,
    listed: set[str],
    superseded: set[str],
) -> tuple[str, ...]:
    """The entry files the catalog holds no line for that are not superseded or retired
    entries either: they do not parse (or are too big to be one, or are a symbolic link or
    a submodule where a file goes, or lie where no entry goes: LAYOUT, or at another
    entry's place: ID-PATH, as every reader names them), so the export leaves them
    out, and says so. Only the files neither listed nor named `<id>.md` by an id a listed
    entry supersedes are read; their status is read without YAML where it can be
    (quick_fields)."""
    from gitmem.model.entry import EntryError, parse
    from gitmem.model.fields import MAX_ENTRY_BYTES, quick_fields, text_of

    if entries_tree is None:
        return ()
    out = []
    for item in store.walk(entries_tree, f"{memory_dir}/entries/"):
        if not item.path.endswith(".md") or item.path in listed:
            continue
        if entry_place(item.path, memory_dir) is None:  # LAYOUT: no entry's place, never read
            out.append(item.path)
            continue
        if item.path.rsplit("/", 1)[-1][:-3] in superseded:
            continue  # an entry superseded: the catalog leaves it out
        if not item.is_file:  # a link (SYMLINK) or a submodule (LAYOUT): never read
            out.append(item.path)
            continue
        data = store.read(item.oid, MAX_ENTRY_BYTES + 1, path=item.path)
        text = text_of(data) if len(data) <= MAX_ENTRY_BYTES else None
        if text is None:
            out.append(item.path)
            continue
        quick = quick_fields(text, ("status",))
        if quick is not None and quick.get("status", "admitted") != "admitted":
            continue  # an entry the catalog leaves out: superseded, retired
        try:
            entry = parse(data)
        except EntryError:
            out.append(item.path)
            continue
        if misplaced(item.path, memory_dir, entry.id, entry.type):  # a copy: no line either
            out.append(item.path)
    return tuple(sorted(out))
