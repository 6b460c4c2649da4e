"""What the site shows, read from one commit: the entries with their admissions and freshness,
the refused topics, and the pending candidates with their check results.

Everything here is a function of the commit (and, for candidates, of the candidate branches'
tips), so two runs on the same repository state give the same `Memory`, and the pages made
from it the same bytes.

Admission and freshness come from the commit's first-parent chain: an entry was admitted by
the merge on it whose message names it (`_admissions` says why that suffices); a cited file
"changed since admission" when a later commit on that chain changed it (one path-limited
`git log` over every cited file). The count is of commits on the main line (a merged branch
counts once), where `gitmem recall` counts every commit that touched the files
(`git rev-list --count`); both mark the same entries except when a branch changed a file and
changed it back before it was merged. A cited name no tree spells a file with (one ending in a
carriage return, `./a`) is missing, by recall's rule (gitmem.recall.freshness.askable). In a
shallow clone cut before an entry's admission, git calls every file added at the cut: that
commit is no admission, and whether the files changed since is unknown, as recall says
(gitmem.recall.freshness.SHALLOW), never "not changed".
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass

from gitmem.errors import UsageError
from gitmem.gate.rules import MAX_FILE_BYTES
from gitmem.lifecycle import candidates as lifecycle
from gitmem.lifecycle.entries import out_of_place
from gitmem.lifecycle.read import holds_secret
from gitmem.model import refused as refused_mod
from gitmem.model.entry import Entry, EntryError
from gitmem.model.names import misplaced, quoted_id
from gitmem.model.problem import Problem
from gitmem.recall.freshness import askable
from gitmem.repo.snapshot import read_entry
from gitmem.repo.store import Store
from gitmem.repo.workspace import Workspace
from gitmem.repo.workspace import memory_tree as memory_folder

ADMIT_PREFIX = "gitmem: admit "


@dataclass(frozen=True)
class SiteEntry:
    """An entry on the main branch, with where it came from and whether it may be stale."""

    path: str  # repository path
    entry: Entry
    admitted_in: str | None  # the commit that added the file to main (None: not found)
    changed: int  # commits on the main line that changed its cited files since admission
    missing: tuple[str, ...]  # cited files absent at the commit
    #: a shallow clone's history is cut before the admission: `changed` cannot be counted
    shallow: bool = False

    @property
    def stale(self) -> bool:
        return bool(self.changed or self.missing)


@dataclass(frozen=True)
class SiteCandidate:
    """A pending candidate branch and what `gitmem check` says of it now."""

    id: str
    ref: str
    tip: str
    entry: Entry | None  # None when its file is missing or does not parse
    problems: tuple[Problem, ...]

    @property
    def errors(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if not p.warning)


@dataclass(frozen=True)
class Memory:
    """The memory at one commit, as the site shows it."""

    commit: str
    commit_time: int  # committer time, seconds since the epoch
    label: str  # what the commit was asked as: the memory branch or --ref
    dir: str
    entries: tuple[SiteEntry, ...]  # sorted by id
    #: paths read as no entry: entry files that do not parse, anything else in the entries
    #: folder, and an entries folder or refused.md that is not a folder or a file
    unreadable: tuple[str, ...]
    refused: tuple[refused_mod.Refusal, ...]  # in file order
    candidates: tuple[SiteCandidate, ...]  # sorted by id
    web: str | None  # the repository's web address, for links to commits and files
    candidates_read: bool = True  # False: --no-candidates, candidates left out, not absent
    #: entries and candidates left out because their text holds a secret no reviewer allowed
    withheld: int = 0


def collect(
    ws: Workspace,
    *,
    ref: str | None = None,
    candidates: bool = True,
    web: str | None = None,
) -> Memory:
    """Read the memory at ref (default: the memory branch's tip)."""
    if web:
        _require_web_address(web)
        web = web.rstrip("/")
    store = ws.store
    # an empty --ref names no commit, as in git; it is not "no --ref" (the memory branch)
    commit = store.resolve(ref) if ref is not None else ws.main_tip()
    if commit is None:
        if ref is not None:
            raise UsageError(f"--ref {quoted_id(ref)} is not a commit here (git fetch first?)")
        raise UsageError(f"branch {ws.branch} has no commits yet: nothing to show")
    tree = store.tree_of(commit)
    memory_tree = memory_folder(ws, tree)
    parsed: list[tuple[str, Entry]] = []
    unreadable: list[str] = []
    withheld = 0
    entries_tree = store.subtree(memory_tree, "entries") if memory_tree else None
    if memory_tree and entries_tree is None and store.item(memory_tree, "entries") is not None:
        # a link or a file where the entries folder goes (gitmem check: LAYOUT): named, where
        # the site showed a memory of no entries without a word
        unreadable.append(f"{ws.dir}/entries")
    for item in store.walk(entries_tree, f"{ws.dir}/entries/"):
        if out_of_place(item.path, ws.dir) is not None:
            # no entry (gitmem check: LAYOUT), but a type folder committed as a link held
            # that type's entries: its pages went without a word; and a copy of an entry
            # (entries/copy.md, entries/<type>/sub/<id>.md) had a page as that entry again
            unreadable.append(item.path)
            continue
        try:
            entry = read_entry(store, item)
        except EntryError:
            unreadable.append(item.path)
            continue
        if misplaced(item.path, ws.dir, entry.id, entry.type) is not None:
            # a copy at another entry's place (entries/decision/<other>.md) holds the id it
            # copies, and had a page as that entry again, where `gitmem list` leaves it out
            unreadable.append(item.path)
        elif holds_secret(ws, item.path, _shown(entry)):
            # left out, as recall, the export and the MCP server withhold it: its pages and
            # search index were published on GitHub Pages, whole
            withheld += 1
        else:
            parsed.append((item.path, entry))
    parsed.sort(key=lambda pair: (pair[1].id, pair[0]))
    site_entries = _with_history(store, commit, tree, ws.dir, parsed)
    refused_path = f"{ws.dir}/refused.md"
    refused_item = store.item(tree, refused_path) if memory_tree else None
    refused_text = None
    if refused_item is not None and refused_item.is_file:
        refused_text = store.read(refused_item.oid, MAX_FILE_BYTES * 16, path=refused_path)
    elif refused_item is not None:
        # a submodule or a link, committed past the gates: they read no topic from it (the
        # site read the commit it names as a file and failed, "object … is not a file"), and
        # gitmem check names it
        unreadable.append(refused_path)
    refusals = refused_mod.parse((refused_text or b"").decode("utf-8", "replace"))
    found = _candidates(ws) if candidates else ()
    shown = tuple(c for c in found if not any(p.rule == "SECRET" for p in c.errors))
    return Memory(
        commit=commit,
        commit_time=store.commit_time(commit),
        label=ref or ws.branch,
        dir=ws.dir,
        entries=tuple(site_entries),
        unreadable=tuple(sorted(unreadable)),
        refused=tuple(sorted(refusals.values(), key=lambda r: r.line)),
        candidates=shown,
        web=web if web is not None else _web(store),
        candidates_read=candidates,
        withheld=withheld + len(found) - len(shown),
    )


def _shown(entry: Entry) -> str:
    """What the site shows of an entry, for the scanner: a field a line as `key: value` (a
    value assigned to a name that says secret is judged so) and its sections; cheaper than
    rendering the entry, which cost as much as the scan again."""
    lines = [
        f"{key}: {', '.join(map(str, value)) if isinstance(value, list | tuple) else value}"
        for key, value in entry.meta.items()
    ]
    return "\n".join([*lines, entry.context, entry.content, entry.evidence])


def _with_history(
    store: Store, commit: str, tree: str, memory_dir: str, parsed: Sequence[tuple[str, Entry]]
) -> list[SiteEntry]:
    """Each entry with its admitting commit and the changes to its cited files since."""
    chain = store.first_parent_log(commit)
    position = {oid: step for step, (oid, _, _) in enumerate(chain)}  # newest = 0
    admitted = _admissions(store, commit, chain, parsed)
    cited = sorted({f for _, entry in parsed for f in entry.files})
    touched: dict[str, list[int]] = {f: [] for f in cited}  # file -> positions, ascending
    for oid, changes in store.first_parent_changes(commit, [f for f in cited if askable(f)]):
        if oid not in position:
            continue
        for _, path in changes:
            # the path, or a folder it is in: a cited folder changed when a file in it did
            # (git logs the files; recall counts the commits touching the folder)
            while True:
                found = touched.get(path)
                if found is not None and (not found or found[-1] != position[oid]):
                    found.append(position[oid])
                if "/" not in path:
                    break
                path = path.rpartition("/")[0]
    # a name no tree spells a file with (`a.py\r`, `./a`) is missing, as recall says: asked
    # of git, it is another path (`a.py`), whose changes are not its own
    present = {f: askable(f) and store.exists(tree, f) for f in cited}
    cut = store.shallow_commits()  # empty in a full clone
    out = []
    for path, entry in parsed:
        missing = tuple(f for f in entry.files if not present[f])
        admission = admitted.get(path)
        if admission is not None and admission in cut:
            # git's "added" at a shallow clone's cut: the admission lies beyond it
            out.append(SiteEntry(path, entry, None, 0, missing, shallow=True))
            continue
        changed = 0
        if admission is not None and admission in position:
            since: set[int] = set()
            for cited_file in entry.files:
                positions = touched.get(cited_file, [])
                since.update(positions[: bisect_left(positions, position[admission])])
            changed = len(since)
        out.append(SiteEntry(path, entry, admission, changed, missing))
    return out


def _admissions(
    store: Store,
    tip: str,
    chain: Sequence[tuple[str, str | None, str]],
    parsed: Sequence[tuple[str, Entry]],
) -> dict[str, str]:
    """entry path -> the commit on the first-parent chain that admitted it.

    `gitmem admit` writes one merge a candidate, its message naming the entry
    (`gitmem: admit <id>`), and on a guarded main the history rules let an entry appear only
    through such a merge; so the newest merge whose message names the entry is taken, which
    costs no tree read (reading the type folders' trees of 10,000 admissions would cost
    seconds). Entries no such merge names (added before gitmem, or the rules not enforced)
    are found by a path-limited `git log` for the newest commit that added the file.
    """
    named: dict[str, str] = {}
    for oid, parent, subject in chain:
        if subject.startswith(ADMIT_PREFIX) and parent is not None:
            named.setdefault(subject[len(ADMIT_PREFIX) :].strip(), oid)
    found: dict[str, str] = {}
    rest: list[str] = []
    for path, entry in parsed:
        if entry.id in named:
            found[path] = named[entry.id]
        else:
            rest.append(path)
    found.update(store.first_added(tip, rest))
    return found


def _candidates(ws: Workspace) -> tuple[SiteCandidate, ...]:
    out = []
    for candidate in lifecycle.pending(ws):
        entry: Entry | None = None
        if candidate.data is not None:
            try:
                entry = candidate.entry()
            except EntryError:
                entry = None
        problems = lifecycle.candidate_problems(ws, candidate)
        out.append(
            SiteCandidate(
                candidate.id,
                candidate.ref,
                candidate.tip,
                entry,
                tuple(sorted(problems, key=Problem.sort_key)),
            )
        )
    return tuple(out)


def _require_web_address(web: str) -> None:
    """Refuse a --web that is no http or https address with a host: it is written into
    every page's links, where `javascript:…` would be a link that runs script and a typo
    without a scheme (`github.com/acme/shop`) a link into the site itself."""
    scheme, _, rest = web.partition("://")
    host = rest.split("/", 1)[0]
    if scheme.lower() not in ("http", "https") or not host or any(c.isspace() for c in web):
        raise UsageError(
            f"--web {web!r} is not a web address: give the repository's, as "
            "https://host/owner/repo, or '' for no links"
        )


def _web(store: Store) -> str | None:
    """The web address (https://host/owner/repo) of the remote the memory's defaults are read
    from (Store.fetch_remote with no branch: origin where there is one, else the only remote,
    else the one the local branches track), when it has one; the ids' prefix (memory.project)
    is read from the same remote. Read from origin alone, a clone made with `git clone -o
    upstream` got a site without links to commits and files."""
    from gitmem.lifecycle.pulls import parse_remote

    url = store.remote_url(store.fetch_remote(None))
    remote = parse_remote(url) if url else None
    return remote.web if remote else None
