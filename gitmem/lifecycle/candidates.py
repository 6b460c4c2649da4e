"""Pending candidates: where they are, and the rules they break as admission would judge them.

A candidate is the one file `candidates/<id>.md` on its branch `gitmem/<id>` (local, else
remote-tracking).  `gitmem candidates`, CANDIDATES.md, the MCP tool `memory_candidates`,
`gitmem admit` and `gitmem propose` all judge a candidate with validate_candidate: the file
rules against main as it is now, its lineage, and whether an admitted entry has its topic.

The invariant: admit never makes a main that pre-push or the server's pre-receive would
refuse. The admit merge brings the candidate branch's whole history into main, not only its
tip, so candidate_problems (what every command above reports, and what admit refuses on)
also judges each commit of main..candidate by the gate's own rules for commits arriving
beside main's first-parent chain (gitmem.gate.history.judge_merged): a token that one commit
added and a later fix-up removed still refuses the candidate, before main moves.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from gitmem.errors import RuleError, UsageError
from gitmem.gate.rules import Context, Place, check_bytes
from gitmem.index import indexmd as index_mod
from gitmem.lifecycle.entries import did_you_mean, find_entry
from gitmem.model import curation
from gitmem.model import refused as refused_mod
from gitmem.model.entry import Entry, EntryError
from gitmem.model.names import (
    BRANCH_PREFIX,
    CANDIDATE_REFS,
    MAX_ID_LENGTH,
    candidate_branch,
    candidate_id_of,
    candidate_ref,
    is_entry_id,
    quoted_id,
)
from gitmem.model.problem import Problem, shown_lines
from gitmem.repo.snapshot import TreeSnapshot, file_entry
from gitmem.repo.store import BLOB, DamagedRepository, Store, ref_clash
from gitmem.repo.workspace import Workspace


@dataclass(frozen=True)
class Candidate:
    id: str
    ref: str
    tip: str
    path: str
    data: bytes | None
    #: the git mode of the file at path (a link's data is its target's path)
    mode: int = BLOB
    #: why the branch cannot be read, when the repository lacks (or cannot read) an object
    #: it leads to (DamagedRepository's message); data is None then
    damage: str | None = None

    def entry(self) -> Entry:
        """The candidate's entry, read as the gates read the file (file_entry): a link or a
        file over 64 KiB raises EntryError naming its rule. Only when data is not None."""
        return file_entry(self.data or b"", self.mode)

    @property
    def local(self) -> bool:
        return self.ref.startswith("refs/heads/")

    @property
    def branch(self) -> str:
        """The branch as people name it: `gitmem/<id>`, or `origin/gitmem/<id>`."""
        return self.ref.removeprefix("refs/heads/").removeprefix("refs/remotes/")


def rule_error(problems: Sequence[Problem], hint: str | None = None) -> RuleError:
    """The error that refuses a candidate, one rule line per problem (at most SHOWN_PER_FILE
    of one file, as `gitmem check` prints them: a hostile draft can break a rule thousands
    of times), then the hint."""
    lines = "\n".join(shown_lines(problems, "fix these and run it again to see the rest"))
    tail = f"\n{hint}" if hint else ""
    return RuleError(f"the candidate breaks {len(problems)} rule(s):\n{lines}{tail}")


def validate_candidate(
    ws: Workspace,
    entry: Entry,
    main_tree: str | None,
    path: str,
    allowed: frozenset[str] = frozenset(),
) -> list[Problem]:
    """File rules against main as it is now, plus lineage and duplicate checks; findings
    whose fingerprints main's allowed.md or `allowed` (an admitter's) names are not reported."""
    snapshot = TreeSnapshot(ws.store, main_tree)
    ctx = Context.from_snapshot(ws.settings, snapshot)
    ctx.allowed |= allowed
    problems = check_bytes(
        path, entry.render().encode("utf-8"), ctx, Place("candidate", id=entry.id)
    )
    memory_tree = ws.store.subtree(main_tree, ws.dir)
    for old in entry.supersedes:
        found = find_entry(ws.store, memory_tree, old)
        if found is None:
            problems.append(
                Problem(
                    path,
                    None,
                    "LINEAGE",
                    f"supersedes {old!r}, which is not an entry on "
                    f"{ws.branch}: name an admitted entry's id",
                )
            )
        elif found[1].status != "admitted":
            problems.append(
                Problem(
                    path,
                    None,
                    "LINEAGE",
                    f"supersedes {old!r}, which is already {found[1].status}: "
                    + (
                        "supersede its successor instead"
                        if found[1].status == "superseded"
                        else "a retired entry is out of use and has no successor; propose "
                        "a new entry instead"
                    ),
                )
            )
    problems.extend(_target_problems(ws, entry, memory_tree, path))
    duplicate = _duplicate_topic(ws.store, ws.dir, main_tree, entry)
    if duplicate:
        # INDEX.md's line may name any text as the id (a hand edit, a hostile merge): the
        # commands, which a person or an agent pastes into a shell, carry only an id
        ref = duplicate if is_entry_id(duplicate) else "ID"
        problems.append(
            Problem(
                path,
                None,
                "DUPLICATE",
                # in words for every door: an agent has memory_push, whose argument is
                # `supersedes`, and `propose --edit` opens an editor it cannot use
                f"an admitted entry has the same topic: {duplicate}; supersede it instead of "
                f"repeating it: propose again naming it in `supersedes` (gitmem propose "
                f"--supersedes {ref}, or --edit {ref} to start from its text)",
            )
        )
    return problems


def _target_problems(
    ws: Workspace, entry: Entry, memory_tree: str | None, path: str
) -> list[Problem]:
    """An amend or retire candidate names an admitted entry, and an amendment keeps what
    identifies the entry (gitmem.model.curation)."""
    kind = curation.kind_of(entry)
    if kind == "admit":
        return []
    target_id = curation.target_of(entry)
    found = find_entry(ws.store, memory_tree, target_id)
    if found is None or found[1].status != "admitted":
        state = "not an entry" if found is None else f"{found[1].status}"
        return [
            Problem(
                path,
                None,
                "LINEAGE",
                f"{kind}s {target_id!r}, which is {state} on {ws.branch}: only an admitted "
                "entry is amended or retired",
            )
        ]
    changed = curation.changed_immutable(found[1], entry) if kind == curation.AMEND else []
    if changed:
        return [
            Problem(
                path,
                None,
                "AMEND",
                f"amends {target_id} but changes its {', '.join(changed)}: an amendment keeps "
                f"them; supersede it instead (gitmem propose --edit {target_id})",
            )
        ]
    return []


def _duplicate_topic(store: Store, memory_dir: str, tree: str | None, entry: Entry) -> str | None:
    """The id of an admitted entry with the candidate's topic, from INDEX.md: the lines that
    could name the topic are found by one text search (`_lines_naming`), and each is confirmed
    by its title's topic; 100,000 titles are never slugged."""
    data = index_mod.read_bytes(store, tree, memory_dir)
    if not data:
        return None
    topic = entry.topic
    for line in _lines_naming(data, topic):
        # the state right after the link: a superseded entry's title holding " admitted — "
        # was read as an admitted entry's, from the words after it
        admitted = _ADMITTED_LINE.match(line)
        if admitted is None:
            continue
        line_id = admitted.group("id")
        if line_id in entry.supersedes or line_id == curation.target_of(entry):
            continue
        if index_mod.topic_of_title(admitted.group("title")) == topic:
            return line_id
    return None


#: An admitted entry's INDEX.md line (gitmem.index.indexmd.line_for), its id and title.
_ADMITTED_LINE = re.compile(r"- \[(?P<id>[^\]]+)\]\(entries/[^)]+\.md\) admitted — (?P<title>.*)")


def _lines_naming(index_md: bytes, topic: str) -> Iterator[str]:
    """The lines of INDEX.md that may hold an entry of this topic, in one RE2 pass over its
    bytes: those whose id ends in the topic (`-<topic>`, `-<topic>-2`…), since an id keeps
    the slug of the title it was made for, which finds "Café" for the topic cafe; and those
    whose title holds the topic's words in order in any letter case, which finds an entry an
    amendment renamed (its id kept the first title's words). A superset: the caller confirms.

    The search runs on bytes, not text: on a str, the RE2 binding maps every match's offsets
    back to characters from the start of the text, and decoding 17 MB to search it costs as
    much again. It used to confirm every line holding the topic's longest word: for a common
    word, 16,000 lines of a 100,000-entry INDEX.md and some 300 ms of every admission."""
    import re2

    in_order = r"[^\n]*".join(re2.escape(word) for word in topic.split("-"))
    pattern = (
        rf"(?im)^- \[[^\]\n]*-{re2.escape(topic)}(?:-[0-9]+)?\][^\n]*$"
        rf"|^[^\n]* admitted — [^\n]*{in_order}[^\n]*$"
    )
    for found in re2.compile(pattern.encode("utf-8")).finditer(index_md):
        yield found.group(0).decode("utf-8", "replace")


def _candidate(ws: Workspace, entry_id: str, ref: str, tip: str) -> Candidate:
    """The candidate on ref; one whose branch leads to an object the repository lacks or
    cannot read is listed with that damage, as git lists its other branches beside a broken
    one: it stopped every command that lists candidates, for the others too."""
    path = f"{ws.dir}/candidates/{entry_id}.md"
    try:
        # a remote-tracking ref may point at a tree or a blob (a fork's branch, git
        # update-ref): no commit holds the file then
        commit = ws.store.resolve(tip)
        if commit is None and not ws.store.has_object(tip):
            ws.store.require(tip, "commit")
        item = ws.store.item(ws.store.tree_of(commit), path) if commit else None
        if item is None:
            return Candidate(entry_id, ref, tip, path, None)
        # a submodule's gitlink names a commit, not a blob: never read, its mode says what it
        # is (file_entry names it LAYOUT, as every reader names a submodule); read as a
        # file, it stopped `gitmem candidates` and the site for every candidate
        data = ws.store.read(item.oid, path=path) if item.is_file or item.is_symlink else b""
    except DamagedRepository as exc:
        return Candidate(entry_id, ref, tip, path, None, damage=exc.message)
    return Candidate(entry_id, ref, tip, path, data, item.mode)


def require_id(entry_id: str, what: str = "a candidate id") -> None:
    """Refuse at once an id no entry or candidate can have (what names what was asked for),
    quoting only its start: the commands that look one up say so in one short line."""
    if not is_entry_id(entry_id):
        raise UsageError(
            f"{quoted_id(entry_id)} is not {what} (lowercase letters and digits in "
            f"words joined by '-', at most {MAX_ID_LENGTH} characters): see `gitmem candidates`"
        )


def lookup_candidate(ws: Workspace, entry_id: str) -> Candidate | None:
    """A pending candidate: its local branch, else a remote-tracking one; None when there is
    neither (the id must be one: require_id). A branch the repository cannot read (a
    candidate's damage) is a UsageError saying so: it holds a candidate nobody can read."""
    for ref in [candidate_ref(entry_id), *_remote_candidate_refs(ws, entry_id)]:
        tip = ws.store.ref_target(ref)
        if tip:
            found = _candidate(ws, entry_id, ref, tip)
            if found.damage is not None:
                raise UsageError(f"branch {ref} cannot be read: {found.damage}")
            return found
    return None


def find_candidate(ws: Workspace, entry_id: str) -> Candidate:
    """A pending candidate: its local branch, else a remote-tracking one."""
    require_id(entry_id)
    found = lookup_candidate(ws, entry_id)
    if found is not None:
        return found
    closed = closed_candidate(ws, entry_id)
    if closed:
        raise UsageError(f"{entry_id} is no longer a candidate: {closed.note}")
    raise UsageError(
        f"no candidate {entry_id!r}: no branch {candidate_branch(entry_id)} here or on a "
        f"remote{did_you_mean(ws, entry_id, None)} (git fetch first?); see "
        "`gitmem candidates`"
    )


@dataclass(frozen=True)
class Closed:
    """What became of a candidate whose branch is gone."""

    #: "it was admitted by … (path on main)", "it was refused … (topic …, on main)"
    note: str
    #: the main (`main`, `origin/main`) that admitted it; None when it was refused
    admitted_on: str | None


def closed_candidate(ws: Workspace, entry_id: str) -> Closed | None:
    """What became of a candidate whose branch is gone: admitted (main, or the remote's main
    this clone has not pulled yet) or refused; None when nothing says."""
    store = ws.store
    for label, tip in ((ws.branch, ws.main_tip()), *_tracking_mains(ws)):
        if tip is None:
            continue
        tree = store.tree_of(tip)
        found = find_entry(store, store.subtree(tree, ws.dir), entry_id)
        if found is not None:
            item, entry = found
            return Closed(
                f"it was admitted by {entry.meta.get('admitted_by', '?')} on "
                f"{entry.meta.get('admitted', '?')} ({ws.dir}/{item.path} on {label})",
                label,
            )
        data = store.read_path(tree, f"{ws.dir}/refused.md")
        rows = refused_mod.parse(data.decode("utf-8", "replace")) if data else {}
        refusal = next((r for r in rows.values() if r.id == entry_id), None)
        if refusal is not None:
            return Closed(f"it was {refusal.describe()} (topic {refusal.topic}, on {label})", None)
    return None


def _tracking_mains(ws: Workspace) -> list[tuple[str, str | None]]:
    prefix = "refs/remotes/"
    return [
        (ref.removeprefix(prefix), tip)
        for ref, tip in sorted(ws.store.refs(prefix).items())
        if ref.endswith(f"/{ws.branch}") and ref.count("/") == 3 + ws.branch.count("/")
    ]


def candidate_taken(ws: Workspace, entry_id: str) -> bool:
    """Whether a candidate branch of this id exists, here or on a remote."""
    if ws.store.ref_target(candidate_ref(entry_id)):
        return True
    return bool(_remote_candidate_refs(ws, entry_id))


def _remote_candidate_refs(ws: Workspace, entry_id: str) -> list[str]:
    """The remote-tracking refs of the candidate entry_id, sorted: `<remote>/gitmem/<id>`
    and nothing else, as `pending` reads them.  A name that merely ends in `/gitmem/<id>`
    (`origin/aaa/gitmem/<id>`, which anyone allowed to push a branch can make) is no
    candidate; taken for one, it sorted before the real branch, and show, review and admit
    read a text `gitmem candidates` never listed."""
    # this id's files alone, not every remote candidate's (admit of many ids asks once
    # each); an id is letters, digits and '-', never a pattern or a folder's way
    broken = (
        ws.store.broken_refs(_REMOTE_CANDIDATE_REFS + entry_id) if is_entry_id(entry_id) else {}
    )
    refs = [*ws.store.refs("refs/remotes/"), *broken]
    return sorted(ref for ref in refs if candidate_id_of(ref) == entry_id)


#: Where a remote's candidate branches are tracked, for Store.broken_refs.
_REMOTE_CANDIDATE_REFS = f"refs/remotes/*/{BRANCH_PREFIX}"


def _broken_candidate_refs(store: Store, *, remote: bool) -> dict[str, str]:
    """The candidate refs, local (remote False) or remote-tracking, whose own file holds no
    object id, each with its damage. A remote-tracking one is a candidate as a local one is:
    left out, it vanished from `gitmem candidates` without a word, and show and admit said
    there was no such candidate."""
    return store.broken_refs(_REMOTE_CANDIDATE_REFS if remote else CANDIDATE_REFS)


def pending(ws: Workspace) -> list[Candidate]:
    """Every candidate branch, local first, then remote-tracking ones not present locally."""
    seen: dict[str, Candidate] = {}
    store = ws.store
    # a branch whose ref file holds no object id (git: "ignoring broken ref"), local or
    # remote-tracking, is named with its damage in its place, as show and admit find it
    # (lookup_candidate): refs/heads/ sorts before refs/remotes/, so local ones come first
    broken = {
        **_broken_candidate_refs(store, remote=False),
        **_broken_candidate_refs(store, remote=True),
    }
    refs = {**store.refs(CANDIDATE_REFS), **store.refs("refs/remotes/"), **broken}
    for ref in sorted(refs):
        entry_id = candidate_id_of(ref)
        if entry_id is None or entry_id in seen:
            continue
        if ref in broken:
            path = f"{ws.dir}/candidates/{entry_id}.md"
            seen[entry_id] = Candidate(entry_id, ref, "", path, None, damage=broken[ref])
        else:
            seen[entry_id] = _candidate(ws, entry_id, ref, refs[ref])
    # a branch whose entry main already holds (admitted elsewhere, branch not yet pruned) is
    # no longer pending; in a clone behind the remote, the remote's main says. An amend or
    # retire candidate leaves no entry of its own id: its admit merge made it main's ancestor
    # (asked only of ids of that shape, since the question walks history)
    behind = main_behind(ws)
    main_tip = behind[0] if behind else ws.main_tip()
    memory = store.subtree(store.tree_of(main_tip), ws.dir) if main_tip else None

    def admitted(entry_id: str) -> bool:
        if find_entry(store, memory, entry_id) is not None:
            return True
        return bool(
            main_tip
            and curation.may_be_curation_id(entry_id)
            and store.is_ancestor(seen[entry_id].tip, main_tip)
        )

    return [seen[k] for k in sorted(seen) if not admitted(k)]


def tracking_in_the_way(ws: Workspace) -> list[str]:
    """Why git cannot track a remote's candidate branches here, one message a remote: a
    remote-tracking branch `<remote>/gitmem` (a branch the remote had once and deleted
    since, not pruned here) stands where every `<remote>/gitmem/<id>` goes, so `git fetch`
    brings none of that remote's candidates, and `gitmem candidates` said nothing of the
    ones it could not list. Each says how to clear it (ref_clash: `git remote prune`)."""
    out = []
    for remote in ws.store.remote_names():
        stale = f"refs/remotes/{remote}/{BRANCH_PREFIX.rstrip('/')}"
        if ws.store.ref_target(stale) is not None:
            out.append(ref_clash(f"{stale}/<id>", stale))
    return out


def remote_of(candidate: Candidate) -> str:
    """The remote a remote-tracking candidate was fetched from, the first part of its ref's
    name below refs/remotes/. A local candidate came from no remote: it once read as origin,
    which a repository may not have; every caller asks of a remote-tracking one alone (a
    local one is closed with `git branch -D`, and is judged against read_from's remote)."""
    if candidate.local:
        raise ValueError(f"{candidate.branch} is a local branch: it came from no remote")
    return candidate.ref.removeprefix("refs/remotes/").split("/", 1)[0]


def read_from(ws: Workspace, candidate: Candidate) -> str:
    """The remote whose main a candidate is judged against when this clone is behind it:
    the one a remote-tracking candidate was fetched from (its ref names it), and for a
    local one the remote the memory branch is fetched from (Store.fetch_remote). Taken as
    origin, a local candidate in a clone whose only remote is upstream never got the
    "your main is N commits behind upstream/main" hint, and was judged against a main
    missing what upstream admitted since."""
    if candidate.local:
        return ws.store.fetch_remote(ws.branch)
    return remote_of(candidate)


def main_behind(ws: Workspace, remote: str | None = None) -> tuple[str, int] | None:
    """(the tip of the remote-tracking main, how many commits the local main lacks) when the
    local main is strictly behind it, as in a clone that fetched but has not pulled; else
    None. remote: the one the memory branch is fetched from, unless named."""
    store = ws.store
    remote = remote or store.fetch_remote(ws.branch)
    local = ws.main_tip()
    tracking = store.ref_target(f"refs/remotes/{remote}/{ws.branch}")
    if local is None or tracking is None or local == tracking:
        return None
    if not store.is_ancestor(local, tracking):
        return None
    return tracking, len(store.new_commits(tracking, [local]))


def behind_hint(ws: Workspace, remote: str, count: int) -> str:
    return (
        f"your {ws.branch} is {count} commit{'s' if count != 1 else ''} behind "
        f"{remote}/{ws.branch}: run git pull before admitting (gitmem admit --push catches "
        "up by itself)"
    )


def candidate_problems(
    ws: Workspace,
    candidate: Candidate,
    main_tip: str | None = None,
    allowed: frozenset[str] = frozenset(),
) -> list[Problem]:
    """The candidate judged as admission would judge it now: file rules against main (or
    main_tip, the remote's main a behind clone will catch up with), lineage, the rule that
    its branch changes nothing but its own file, and the history rules every commit the
    admit merge brings into main must pass (the module's invariant). Findings whose
    fingerprints `allowed` (an admitter's) names are not reported. A shallow clone that
    lacks the history between main and the branch is a UsageError (exit 2)."""
    if not is_entry_id(candidate.id):
        # said first: "holds no <file>" sent the user to the file, while admit and refuse
        # refused the name itself, so nothing gitmem offered could clear the branch
        shown = candidate.ref.removeprefix("refs/heads/")
        return [
            Problem(
                candidate.path,
                None,
                "CANDIDATE-BRANCH",
                f"branch {candidate.ref} is named with no candidate id (lowercase letters and "
                "digits in words joined by '-'): gitmem can neither admit nor refuse it; "
                f"rename it (git branch -m) or delete it (git branch -D {shown})",
            )
        ]
    if candidate.damage is not None:
        return [
            Problem(
                candidate.path,
                None,
                "CANDIDATE-BRANCH",
                f"branch {candidate.ref} cannot be read: {candidate.damage}",
            )
        ]
    if candidate.data is None:
        return [
            Problem(
                candidate.path,
                None,
                "CANDIDATE-BRANCH",
                f"branch {candidate.ref} holds no {candidate.path}",
            )
        ]
    main_tip = main_tip or ws.main_tip()
    main_tree = ws.store.tree_of(main_tip) if main_tip else None
    try:
        entry = candidate.entry()
    except EntryError as exc:
        return [Problem(candidate.path, exc.line, exc.rule, exc.message)]
    problems = validate_candidate(ws, entry, main_tree, candidate.path, allowed)
    problems.extend(_refused_problems(ws, candidate, main_tree))
    problems.extend(_drafted_from_problems(ws, candidate, entry, main_tree))
    problems.extend(_branch_scope(ws, candidate, main_tip))
    problems.extend(_history_problems(ws, candidate, entry, main_tip, allowed))
    return problems


def _drafted_from_problems(
    ws: Workspace, candidate: Candidate, entry: Entry, main_tree: str | None
) -> list[Problem]:
    """An amendment, or a successor, drafted from a text of the entry it replaces that main
    no longer holds (an amendment of it admitted since). The amendment's admission writes
    its whole draft over the entry and would undo that change, so admit refuses it
    (gitmem.lifecycle.admit), and it is listed and reviewed as such (AMEND). A successor
    (`propose --edit`) carries the text it was started from and would put the entry's
    corrected text out of use, unseen, as superseded (LINEAGE). Both are judged by one rule,
    curation.drafted_from_another, from their `drafted_from` and the entry on their branch
    (a successor proposed by a gitmem before it recorded `drafted_from` has the branch's
    copy only, which a branch that merged main in since holds anew)."""
    if main_tree is None:
        return []
    amends = curation.kind_of(entry) == curation.AMEND
    problems = []
    memory_tree = ws.store.subtree(main_tree, ws.dir)
    drafted_tree = ws.store.tree_of(candidate.tip)
    for target_id in curation.replaced_by(entry):
        found = find_entry(ws.store, memory_tree, target_id)
        if found is None or found[1].status != "admitted":
            continue  # LINEAGE says so
        on_branch = ws.store.item(drafted_tree, f"{ws.dir}/{found[0].path}")
        on_branch_blob = on_branch.oid if on_branch is not None else None
        if not curation.drafted_from_another(entry, found[0].oid, on_branch_blob):
            continue
        if amends:
            rule = "AMEND"
            what = f"amends {target_id}, which changed on {ws.branch} since this amendment"
            again = f"gitmem propose --amend {target_id}"
        else:
            rule = "LINEAGE"
            what = f"supersedes {target_id}, which changed on {ws.branch} since this successor"
            again = f"gitmem propose --edit {target_id}"
        problems.append(
            Problem(
                candidate.path,
                None,
                rule,
                f"{what} was drafted (an amendment admitted meanwhile?): admitted, it would "
                f"undo that change; propose it again from the entry as it is ({again}) and "
                "refuse this one",
            )
        )
    return problems


def _refused_problems(ws: Workspace, candidate: Candidate, main_tree: str | None) -> list[Problem]:
    """A candidate refused.md names by its id: refused already (a clone that refused it
    without --push keeps its remote-tracking branch until the push). Its topic says so for
    a new entry, but an amendment or a retirement is refused under its id, not the entry's
    topic, and was then listed as valid and admitted all the same."""
    data = ws.store.read_path(main_tree, f"{ws.dir}/refused.md") if main_tree else None
    if not data:
        return []
    for line in data.decode("utf-8", "replace").splitlines():
        row = refused_mod.parse_row(line)
        if row is not None and row.id == candidate.id:
            return [
                Problem(
                    candidate.path,
                    None,
                    "REFUSED-TOPIC",
                    f"{candidate.id} was refused on {row.date} by {row.by}: {row.reason}: a "
                    f"refused candidate is not admitted; its branch {candidate.branch} is what "
                    "is left of it",
                )
            ]
    return []


@dataclass(frozen=True)
class Review:
    """A pending candidate as a reviewer sees it: its title, the rules it breaks now (and
    the warnings, a near-refused topic among them), and a hint when the clone is behind."""

    candidate: Candidate
    title: str
    problems: list[Problem]
    hint: str | None = None

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if not p.warning]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.warning]


def judged(ws: Workspace, candidate: Candidate) -> tuple[list[Problem], str | None]:
    """A candidate's problems as admission will see them, and a hint when this clone's main
    is behind the remote's: the candidate is then judged against the remote's main, which
    admission catches up with first (a branch based on it would otherwise seem to change
    every entry admitted since)."""
    remote = read_from(ws, candidate)
    behind = main_behind(ws, remote)
    if behind is None:
        return candidate_problems(ws, candidate), None
    tip, count = behind
    return candidate_problems(ws, candidate, tip), behind_hint(ws, remote, count)


#: a title the scanner finds a secret in, as `gitmem candidates` and CANDIDATES.md show it
WITHHELD_TITLE = "(withheld: it holds a secret)"
#: a problem's message when the candidate holds a secret: other rules quote what they judge
WITHHELD_MESSAGE = (
    "not shown: the candidate holds a secret, which this message may quote (rule SECRET); "
    "remove the secret first"
)


def review(ws: Workspace) -> list[Review]:
    """Every pending candidate as `gitmem candidates`, CANDIDATES.md and the MCP tool list it,
    what they print of its text withheld where it holds a secret (_withheld)."""
    out = []
    allowed: dict[str | None, frozenset[str]] = {}
    for candidate in pending(ws):
        title = "(unreadable)"
        if candidate.data is not None:
            try:
                title = candidate.entry().title
            except EntryError:
                title = "(does not parse)"
        problems, hint = judged(ws, candidate)
        behind = main_behind(ws, read_from(ws, candidate))
        tip = behind[0] if behind else ws.main_tip()
        if tip not in allowed:
            allowed[tip] = allowed_on(ws, tip)
        title, problems = _withheld(title, problems, allowed[tip])
        out.append(Review(candidate, title, problems, hint))
    return out


def _withheld(
    title: str, problems: list[Problem], allowed: frozenset[str]
) -> tuple[str, list[Problem]]:
    """A candidate's title and problems as a listing may print them, as `gitmem review`
    withholds them: a candidate committed by hand past the hooks can hold a token in its
    title, and SCHEMA, FILES-MISSING… quote the value they judge. With a SECRET reported
    (the scanner redacts its lines), every other message is withheld, its place and rule
    kept; and a title or message in which the scanner finds a secret is withheld too. A
    finding whose fingerprint main's allowed.md names is no secret here, as in the rules."""
    from gitmem.gate.rules import secret_problems

    def holds_secret(text: str) -> bool:
        return bool(secret_problems("", text, allowed))

    leaked = any(p.rule == "SECRET" for p in problems)
    shown = [
        p
        if p.rule == "SECRET" or not (leaked or holds_secret(p.message))
        else replace(p, message=WITHHELD_MESSAGE)
        for p in problems
    ]
    return (WITHHELD_TITLE if holds_secret(title) else title), shown


def allowed_on(ws: Workspace, tip: str | None) -> frozenset[str]:
    """The fingerprints of the findings reviewers allowed in allowed.md at tip (the main a
    candidate is judged against): no secret to the file rules, so none to a listing, nor
    to hygiene (gitmem.curate.hygiene)."""
    from gitmem.gate.rules import MAX_FILE_BYTES
    from gitmem.model import allowed

    if tip is None:
        return frozenset()
    data = ws.store.read_path(ws.store.tree_of(tip), f"{ws.dir}/{allowed.NAME}")
    if data is None or len(data) > MAX_FILE_BYTES * 16:
        return frozenset()
    return frozenset(allowed.parse(data.decode("utf-8", "replace")))


def _history_problems(
    ws: Workspace,
    candidate: Candidate,
    entry: Entry,
    main_tip: str | None,
    allowed: frozenset[str],
) -> list[Problem]:
    """What pre-push and the server would refuse among the commits the admit merge brings
    into main (main..candidate), judged by the gate's own code (history.judge_merged) under
    the policy committed on main, each line told what to do here: rewrite the branch. The
    tip's file, judged by validate_candidate already, is not scanned again when its bytes
    are what that judged (the entry as gitmem renders it, as propose writes it)."""
    from gitmem.gate import history

    store = ws.store
    source = f"{ws.branch} at {main_tip[:12]}" if main_tip else "the defaults"
    policy = history.policy_at(store, main_tip, source)
    reported: list[str] = []
    if candidate.data == entry.render().encode("utf-8"):
        item = store.item(store.tree_of(candidate.tip), candidate.path)
        reported = [item.oid] if item is not None else []
    found = history.judge_merged(
        store, candidate.tip, main_tip, policy, allowed={entry.id: allowed}, reported=reported
    )
    branch = f"{BRANCH_PREFIX}{candidate.id}"
    push = "" if candidate.local else f", then git push --force-with-lease {remote_of(candidate)}"
    todo = (
        f"; the admit merge would bring that commit into {ws.branch}, where pre-push and the "
        f"server refuse it: drop it from {branch} (git rebase -i {ws.branch} {branch}{push})"
    )
    return [replace(p, message=p.message + todo) for p in found]


def _branch_scope(ws: Workspace, candidate: Candidate, main_tip: str | None) -> list[Problem]:
    """The rule that a candidate branch changes only its own file, judged on its net change
    from where it left main. A shallow clone may lack that point: that is said, rather than
    blaming the branch for every file of main's tree."""
    store = ws.store
    base = store.merge_base(main_tip, candidate.tip) if main_tip else None
    if main_tip and base is None and store.shallow_commits():
        from gitmem.gate.history import shallow_clone

        raise shallow_clone(
            f"where {candidate.branch} left {ws.branch} was not fetched, so what the candidate "
            "changes cannot be told"
        )
    base_tree = store.tree_of(base) if base else None
    stray = [
        c.path
        for c in store.diff(base_tree, store.tree_of(candidate.tip))
        if c.path != candidate.path
    ]
    if not stray:
        return []
    shown = ", ".join(stray[:5]) + (" …" if len(stray) > 5 else "")
    return [
        Problem(
            candidate.path,
            None,
            "CANDIDATE-BRANCH",
            f"branch {candidate.ref} also changes {shown}: a candidate branch changes only "
            "its own file",
        )
    ]
