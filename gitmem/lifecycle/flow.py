"""propose, admit, refuse: memory enters the main branch only through a reviewed merge.

Every write goes to the object database first; a ref moves only by compare-and-swap
(`git update-ref REF NEW OLD`).  So a crash or a kill at any point leaves either the old ref or
the new one, never a half-written state: objects written before a kill are unreachable and
harmless, and running the command again succeeds.  When main moved meanwhile, admit and refuse
rebuild their commit on the new tip and try again; they never overwrite.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import signal
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gitmem.errors import GitmemError, RuleError, UsageError
from gitmem.gate.rules import Context, Place, check_bytes
from gitmem.index import indexmd as index_mod
from gitmem.model import refused as refused_mod
from gitmem.model.entry import Entry, EntryError, id_with_suffix, is_slug, make_id, parse
from gitmem.model.problem import Problem
from gitmem.repo.snapshot import TreeSnapshot
from gitmem.repo.store import BLOB, Change, Store, TreeItem
from gitmem.repo.workspace import Workspace

BRANCH_PREFIX = "gitmem/"
MAX_ID_ATTEMPTS = 1000
MAX_CAS_RETRIES = 20
FAULT_ENV = "GITMEM_FAULT"  # test hook: "admit-before-ref" kills the process at that point


def today() -> str:
    return dt.datetime.now(dt.UTC).date().isoformat()


def candidate_ref(entry_id: str) -> str:
    return f"refs/heads/{BRANCH_PREFIX}{entry_id}"


def _fault(point: str) -> None:
    """Let a test kill the process at a named point (crash-safety tests); no-op otherwise."""
    if os.environ.get(FAULT_ENV) == point:
        os.kill(os.getpid(), signal.SIGKILL)


def default_human(store: Store) -> str:
    name = store.user_name()
    if not name:
        raise UsageError(
            "cannot tell who you are: set git's user.name, or pass --by human:NAME / "
            "--source human:NAME"
        )
    return f"human:{name}"


# ---------------------------------------------------------------------------------------------
# propose


@dataclass
class Proposal:
    id: str
    branch: str
    commit: str
    warnings: list[Problem] = field(default_factory=list)
    pushed: bool = False


def build_candidate(ws: Workspace, fields: Mapping[str, Any], created: str | None = None) -> Entry:
    """An Entry with status candidate from user-given fields (id assigned later)."""
    meta: dict[str, Any] = {
        k: v for k, v in fields.items() if v not in (None, "", [], ()) and k not in _BODY
    }
    if "source" not in meta:
        meta["source"] = default_human(ws.store)
    meta["status"] = "candidate"
    meta["created"] = created or today()
    for key in ("admitted_by", "admitted", "superseded_by"):
        meta.pop(key, None)
    return Entry(
        meta,
        str(fields.get("context") or ""),
        str(fields.get("content") or ""),
        str(fields.get("evidence") or ""),
    )


_BODY = ("context", "content", "evidence")


def _rule_error(problems: Sequence[Problem]) -> RuleError:
    lines = "\n".join(str(p) for p in problems)
    return RuleError(f"the candidate breaks {len(problems)} rule(s):\n{lines}")


def validate_candidate(
    ws: Workspace, entry: Entry, main_tree: str | None, path: str
) -> list[Problem]:
    """File rules against main as it is now, plus lineage and duplicate checks."""
    snapshot = TreeSnapshot(ws.store, main_tree)
    ctx = Context.from_snapshot(ws.settings, snapshot)
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
                    f"supersedes {old!r}, which is already "
                    f"{found[1].status}: supersede its successor instead",
                )
            )
    duplicate = _duplicate_topic(ws.store, ws.dir, main_tree, entry)
    if duplicate:
        problems.append(
            Problem(
                path,
                None,
                "DUPLICATE",
                f"an admitted entry has the same topic: {duplicate}; "
                "supersede it (gitmem propose --edit ID) instead of repeating it",
            )
        )
    return problems


def _duplicate_topic(store: Store, memory_dir: str, tree: str | None, entry: Entry) -> str | None:
    """The id of an admitted entry with the candidate's topic, from INDEX.md.  Titles are
    slugged into their ids and topics are slugs of titles, so only the lines that contain
    the topic's words are confirmed: a text search, not 100,000 slugs."""
    text = index_mod.read_text(store, tree, memory_dir)
    if not text:
        return None
    topic = entry.topic
    words = topic.split("-")
    needle = max(words, key=len)
    start = text.find(needle)
    while start != -1:
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", start)
        line = text[line_start : line_end if line_end != -1 else len(text)]
        start = text.find(needle, line_end) if line_end != -1 else -1
        if not line.startswith("- [") or " admitted — " not in line:
            continue
        line_id = line[3 : line.find("]")]
        if line_id in entry.supersedes:
            continue
        if index_mod.topic_of_title(line.split(" admitted — ", 1)[1]) == topic:
            return line_id
    return None


def propose(
    ws: Workspace,
    fields: Mapping[str, Any],
    *,
    created: str | None = None,
    push: bool = False,
    remote: str = "origin",
) -> Proposal:
    """Validate, then write one commit on a new branch gitmem/<id> from main's tip; the
    working tree, the staging index and HEAD are never touched."""
    store = ws.store
    entry = build_candidate(ws, fields, created)
    base_id = make_id(ws.settings.project, entry.type, entry.created, entry.title)
    main_tip = ws.main_tip()
    main_tree = store.tree_of(main_tip) if main_tip else None
    first = entry.with_meta(id=base_id)
    problems = validate_candidate(ws, first, main_tree, f"{ws.dir}/candidates/{base_id}.md")
    errors = [p for p in problems if not p.warning]
    if errors:
        raise _rule_error(errors)
    for attempt in range(1, MAX_ID_ATTEMPTS + 1):
        entry_id = id_with_suffix(base_id, attempt)
        if _id_taken(ws, main_tree, entry_id):
            continue
        candidate = entry.with_meta(id=entry_id)
        path = f"{ws.dir}/candidates/{entry_id}.md"
        blob = store.write_blob(candidate.render().encode("utf-8"))
        tree = store.build_tree(main_tree, {path: (blob, BLOB)})
        message = f"gitmem: propose {entry_id}\n\n{candidate.title}\n"
        commit = store.write_commit(tree, [main_tip] if main_tip else [], message)
        # compare-and-swap from "absent": a concurrent proposal that took this id first wins
        # it, and this one moves on to the next suffix; none is lost.
        if store.update_ref(candidate_ref(entry_id), commit, None, f"gitmem: propose {entry_id}"):
            proposal = Proposal(entry_id, BRANCH_PREFIX + entry_id, commit, problems)
            if push:
                push_refs(store, remote, [f"{candidate_ref(entry_id)}:{candidate_ref(entry_id)}"])
                proposal.pushed = True
            return proposal
    raise GitmemError(f"no free id after {MAX_ID_ATTEMPTS} attempts for {base_id}")


def _id_taken(ws: Workspace, main_tree: str | None, entry_id: str) -> bool:
    store = ws.store
    if store.ref_target(candidate_ref(entry_id)):
        return True
    if any(ref.endswith(f"/{BRANCH_PREFIX}{entry_id}") for ref in store.refs("refs/remotes/")):
        return True
    memory_tree = store.subtree(main_tree, ws.dir)
    return find_entry(store, memory_tree, entry_id) is not None


def push_refs(store: Store, remote: str, refspecs: list[str]) -> None:
    """Push with the user's own git, credentials and hooks; atomically when several."""
    args = ["push", "--porcelain"]
    if len(refspecs) > 1:
        args.append("--atomic")
    done = store.run_git(*args, remote, *refspecs, check=False)
    if done.returncode != 0:
        detail = (done.stderr or done.stdout).strip()
        raise GitmemError(f"git push to {remote} was refused:\n{detail}")


# ---------------------------------------------------------------------------------------------
# finding entries and candidates


def find_entry(
    store: Store, memory_tree: str | None, entry_id: str
) -> tuple[TreeItem, Entry] | None:
    """The file entries/<type>/<id>.md and its parsed entry, looking in every type folder."""
    if memory_tree is None or not is_slug(entry_id):
        return None
    entries_tree = store.subtree(memory_tree, "entries")
    if entries_tree is None:
        return None
    for folder in store.folders(entries_tree):
        item = store.item(entries_tree, f"{folder}/{entry_id}.md")
        if item is not None and item.is_file:
            try:
                parsed = parse(store.read(item.oid))
            except EntryError:
                continue
            return TreeItem(f"entries/{folder}/{entry_id}.md", item.oid, item.mode), parsed
    return None


@dataclass(frozen=True)
class Candidate:
    id: str
    ref: str
    tip: str
    path: str
    data: bytes | None

    @property
    def local(self) -> bool:
        return self.ref.startswith("refs/heads/")


def _candidate(ws: Workspace, entry_id: str, ref: str, tip: str) -> Candidate:
    path = f"{ws.dir}/candidates/{entry_id}.md"
    return Candidate(entry_id, ref, tip, path, ws.store.read_path(ws.store.tree_of(tip), path))


def find_candidate(ws: Workspace, entry_id: str) -> Candidate:
    """A pending candidate: its local branch, else a remote-tracking one."""
    if not is_slug(entry_id):
        raise UsageError(f"{entry_id!r} is not a candidate id: see `gitmem candidates`")
    remote = sorted(
        ref for ref in ws.store.refs("refs/remotes/") if ref.endswith(f"/{BRANCH_PREFIX}{entry_id}")
    )
    refs = [candidate_ref(entry_id), *remote]
    for ref in refs:
        tip = ws.store.ref_target(ref)
        if tip:
            return _candidate(ws, entry_id, ref, tip)
    raise UsageError(
        f"no candidate {entry_id!r}: no branch {BRANCH_PREFIX}{entry_id} here or on a remote "
        "(git fetch first?); see `gitmem candidates`"
    )


def pending(ws: Workspace) -> list[Candidate]:
    """Every candidate branch, local first, then remote-tracking ones not present locally."""
    seen: dict[str, Candidate] = {}
    store = ws.store
    for ref, tip in sorted(store.refs(f"refs/heads/{BRANCH_PREFIX}").items()):
        entry_id = ref.removeprefix(f"refs/heads/{BRANCH_PREFIX}")
        seen[entry_id] = _candidate(ws, entry_id, ref, tip)
    for ref, tip in sorted(store.refs("refs/remotes/").items()):
        remote_part = ref.removeprefix("refs/remotes/").split("/", 1)
        if len(remote_part) < 2 or not remote_part[1].startswith(BRANCH_PREFIX):
            continue
        entry_id = remote_part[1].removeprefix(BRANCH_PREFIX)
        if entry_id not in seen:
            seen[entry_id] = _candidate(ws, entry_id, ref, tip)
    # a branch whose entry main already holds (admitted elsewhere, branch not yet pruned) is
    # no longer pending
    main_tip = ws.main_tip()
    memory = store.subtree(store.tree_of(main_tip), ws.dir) if main_tip else None
    return [seen[k] for k in sorted(seen) if find_entry(store, memory, k) is None]


def candidate_problems(ws: Workspace, candidate: Candidate) -> list[Problem]:
    """The candidate judged as admission would judge it now: file rules against main,
    lineage, and the rule that its branch changes nothing but its own file."""
    if candidate.data is None:
        return [
            Problem(
                candidate.path,
                None,
                "CANDIDATE-BRANCH",
                f"branch {candidate.ref} holds no {candidate.path}",
            )
        ]
    main_tip = ws.main_tip()
    main_tree = ws.store.tree_of(main_tip) if main_tip else None
    try:
        entry = parse(candidate.data)
    except EntryError as exc:
        return [Problem(candidate.path, exc.line, exc.rule, exc.message)]
    problems = validate_candidate(ws, entry, main_tree, candidate.path)
    problems.extend(_branch_scope(ws, candidate, main_tip))
    return problems


@dataclass(frozen=True)
class Review:
    """A pending candidate as a reviewer sees it: its title and the rules it breaks now."""

    candidate: Candidate
    title: str
    problems: list[Problem]

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if not p.warning]


def review(ws: Workspace) -> list[Review]:
    out = []
    for candidate in pending(ws):
        title = "(unreadable)"
        if candidate.data is not None:
            try:
                title = parse(candidate.data).title
            except EntryError:
                title = "(does not parse)"
        out.append(Review(candidate, title, candidate_problems(ws, candidate)))
    return out


def _branch_scope(ws: Workspace, candidate: Candidate, main_tip: str | None) -> list[Problem]:
    store = ws.store
    base = store.merge_base(main_tip, candidate.tip) if main_tip else None
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


# ---------------------------------------------------------------------------------------------
# admit


@dataclass
class Admission:
    id: str
    commit: str
    superseded: list[str]
    pushed: bool = False


def may_admit(ws: Workspace, entry: Entry, by: str) -> str | None:
    """None when `by` may admit entry (DESIGN.md "Sources and who may admit what")."""
    if by.startswith("human:") and len(by) > len("human:"):
        return None
    if by.startswith("audit:"):
        if not entry.source.startswith("audit:"):
            return (
                f"only a person admits a {entry.source.split(':')[0]}-sourced candidate: "
                "admit with --by human:NAME"
            )
        if entry.type not in ("code-structure", "mistake"):
            return f"an audit admits only code-structure and mistake entries, not {entry.type}"
        if not ws.settings.auto_admit_audited:
            return (
                "memory.autoAdmitAudited is not on in both the project settings and your "
                "own settings: admit with --by human:NAME"
            )
        return None
    return f"{by!r} is not an admitter: use human:NAME (or audit:FILE for audited candidates)"


def admit(
    ws: Workspace,
    entry_id: str,
    *,
    by: str | None = None,
    expect: str | None = None,
    push: bool = False,
    remote: str = "origin",
    date: str | None = None,
) -> Admission:
    """One merge commit on main (parents: main tip, candidate tip) adding the entry,
    updating superseded entries and INDEX.md; the main ref moves by compare-and-swap."""
    store = ws.store
    by = by or default_human(store)
    candidate = find_candidate(ws, entry_id)
    if expect:
        full = store.resolve(expect)
        if full != candidate.tip:
            raise RuleError(
                f"candidate {entry_id} moved: its branch is at {candidate.tip[:12]}, not the "
                f"reviewed {expect[:12]}; review the new commits and approve again"
            )
    if candidate.data is None:
        raise RuleError(f"branch {candidate.ref} holds no {candidate.path}: nothing to admit")
    try:
        entry = parse(candidate.data)
    except EntryError as exc:
        raise RuleError(f"{candidate.path}:{exc.line or ''} {exc.rule} {exc.message}") from None
    refusal = may_admit(ws, entry, by)
    if refusal:
        raise RuleError(f"cannot admit {entry_id}: {refusal}")
    date = date or today()
    if push:
        catch_up(ws, remote)

    superseded: list[str] = []

    def merge(main_tip: str, main_tree: str) -> tuple[str, list[str], str]:
        problems = [p for p in candidate_problems(ws, candidate) if not p.warning]
        if problems:
            raise _rule_error(problems)
        admitted = entry.with_meta(status="admitted", admitted_by=by, admitted=date)
        updates, replaced = _admission_updates(ws, main_tree, admitted)
        superseded[:] = replaced  # of the attempt that lands
        message = (
            f"gitmem: admit {entry_id}\n\n{entry.title}\n\n"
            f"Gitmem-Admitted-By: {by}\nGitmem-Candidate: {candidate.tip}\n"
        )
        return _with_index(ws, main_tree, updates), [main_tip, candidate.tip], message

    commit, pushed = _land_on_main(ws, candidate, f"admit {entry_id}", merge, push, remote)
    return Admission(entry_id, commit, superseded, pushed)


def _land_on_main(
    ws: Workspace,
    candidate: Candidate,
    action: str,
    make: Callable[[str, str], tuple[str, list[str], str]],
    push: bool,
    remote: str,
) -> tuple[str, bool]:
    """The compare-and-swap loop admit and refuse share: make(main tip, its tree) gives the
    new tree, the parents and the message; the commit moves main only if main has not moved
    meanwhile, else make is asked again from the new tip. Then the working files of a
    checked-out main follow and the candidate branch closes. Returns (commit, pushed)."""
    store = ws.store
    for _ in range(MAX_CAS_RETRIES):
        main_tip = ws.main_tip()
        if main_tip is None:
            raise UsageError(f"branch {ws.branch} has no commits: commit something first")
        main_tree = store.tree_of(main_tip)
        tree, parents, message = make(main_tip, main_tree)
        commit = store.write_commit(tree, parents, message)
        _guard_worktree(ws, main_tree, tree)
        _fault(f"{action.split()[0]}-before-ref")
        if store.update_ref(f"refs/heads/{ws.branch}", commit, main_tip, f"gitmem: {action}"):
            _sync_worktree(ws, main_tree, tree)
            return commit, _close_candidate(ws, candidate, push, remote)
    raise GitmemError(f"{ws.branch} kept moving: gave up after {MAX_CAS_RETRIES} attempts")


def _admission_updates(
    ws: Workspace, main_tree: str, admitted: Entry
) -> tuple[dict[str, tuple[str, int] | None], list[str]]:
    store = ws.store
    memory_tree = store.subtree(main_tree, ws.dir)
    target = f"{ws.dir}/entries/{admitted.type}/{admitted.id}.md"
    if store.exists(main_tree, target):
        raise RuleError(f"{target} already exists on {ws.branch}: {admitted.id} was admitted")
    updates: dict[str, tuple[str, int] | None] = {
        target: (store.write_blob(admitted.render().encode("utf-8")), BLOB)
    }
    superseded = []
    for old_id in admitted.supersedes:
        found = find_entry(store, memory_tree, old_id)
        if found is None or found[1].status != "admitted":
            raise RuleError(
                f"cannot supersede {old_id}: it is not an admitted entry on {ws.branch}"
            )
        item, old = found
        flipped = old.with_meta(status="superseded", superseded_by=admitted.id)
        updates[f"{ws.dir}/{item.path}"] = (
            store.write_blob(flipped.render().encode("utf-8")),
            BLOB,
        )
        superseded.append(old_id)
    return updates, superseded


def _with_index(ws: Workspace, base_tree: str, updates: dict[str, tuple[str, int] | None]) -> str:
    """base_tree with updates applied and INDEX.md brought up to date in the same tree."""
    store = ws.store
    tree = store.build_tree(base_tree, updates)
    old_memory = store.subtree(base_tree, ws.dir)
    new_memory = store.subtree(tree, ws.dir)
    previous = index_mod.read_bytes(store, base_tree, ws.dir)
    changes: list[Change] = store.diff(old_memory, new_memory)
    blob = store.write_blob(index_mod.update(store, previous, changes, new_memory))
    return store.build_tree(tree, {f"{ws.dir}/INDEX.md": (blob, BLOB)})


def _main_checked_out(ws: Workspace) -> bool:
    return ws.store.workdir is not None and ws.store.head_branch() == ws.branch


def _guard_worktree(ws: Workspace, old_tree: str, new_tree: str) -> None:
    """Refuse before moving main when its checked-out memory files hold uncommitted changes."""
    if not _main_checked_out(ws):
        return
    store = ws.store
    old_memory, new_memory = store.subtree(old_tree, ws.dir), store.subtree(new_tree, ws.dir)
    paths = [f"{ws.dir}/{c.path}" for c in store.diff(old_memory, new_memory)]
    dirty = store.dirty_paths(paths)
    if dirty:
        raise RuleError(
            f"{ws.branch} is checked out and {', '.join(dirty)} has uncommitted changes: "
            "commit or stash them, then run the command again"
        )


def _sync_worktree(ws: Workspace, old_tree: str, new_tree: str) -> None:
    if _main_checked_out(ws):
        ws.store.sync_worktree(old_tree, new_tree, ws.dir)


def _close_candidate(ws: Workspace, candidate: Candidate, push: bool, remote: str) -> bool:
    """After main moved for a candidate (admitted or refused): push main and delete the
    remote branch in one atomic push when asked, and delete the local branch (if it still
    points at the commit judged).  Returns whether it pushed."""
    store = ws.store
    if push:
        specs = [f"refs/heads/{ws.branch}:refs/heads/{ws.branch}"]
        if not candidate.local or _remote_has(store, remote, candidate.id):
            specs.append(f":refs/heads/{BRANCH_PREFIX}{candidate.id}")
        push_refs(store, remote, specs)
    if candidate.local:
        store.delete_ref(candidate.ref, candidate.tip)
    return push


def catch_up(ws: Workspace, remote: str) -> None:
    """Before an admission that will be pushed: fetch the remote's main and fast-forward the
    local one to it, so the merge is built on what the server has (a concurrent admission
    elsewhere is merged on, not raced).  A local main with unpushed commits of its own is left
    as it is; the push then says what to do."""
    store = ws.store
    branch = ws.branch
    tracking = f"refs/remotes/{remote}/{branch}"
    fetched = store.run_git(
        "fetch", "--quiet", remote, f"+refs/heads/{branch}:{tracking}", check=False
    )
    remote_tip = store.ref_target(tracking) if fetched.returncode == 0 else None
    local_tip = ws.main_tip()
    if remote_tip is None or remote_tip == local_tip:
        return
    if local_tip is not None and not store.is_ancestor(local_tip, remote_tip):
        return
    if _main_checked_out(ws):
        store.run_git("merge", "--ff-only", "--quiet", tracking)
    elif not store.update_ref(f"refs/heads/{branch}", remote_tip, local_tip, "gitmem: catch up"):
        raise GitmemError(f"{branch} moved while catching up with {remote}: run the command again")


def _remote_has(store: Store, remote: str, entry_id: str) -> bool:
    return store.ref_target(f"refs/remotes/{remote}/{BRANCH_PREFIX}{entry_id}") is not None


# ---------------------------------------------------------------------------------------------
# refuse


@dataclass
class Refusal:
    id: str
    topic: str
    commit: str
    pushed: bool = False


def refuse(
    ws: Workspace,
    entry_id: str,
    *,
    reason: str,
    by: str | None = None,
    push: bool = False,
    remote: str = "origin",
    date: str | None = None,
) -> Refusal:
    """Append the candidate's topic to refused.md in one commit on main; delete its branch."""
    store = ws.store
    reason = " ".join(reason.split())
    if not reason:
        raise UsageError("say why with --reason: later proposals of this topic will show it")
    by = by or default_human(store)
    candidate = find_candidate(ws, entry_id)
    topic = entry_id
    if candidate.data is not None:
        with contextlib.suppress(EntryError):
            topic = parse(candidate.data).topic
    date = date or today()
    if push:
        catch_up(ws, remote)
    path = f"{ws.dir}/refused.md"

    def append(main_tip: str, main_tree: str) -> tuple[str, list[str], str]:
        previous = store.read_path(main_tree, path)
        # surrogateescape: whatever bytes refused.md holds are kept exactly (append-only)
        text = refused_mod.append(
            previous.decode("utf-8", "surrogateescape") if previous else None,
            refused_mod.Refusal(topic, reason, entry_id, date, by, 0),
        )
        data = text.encode("utf-8", "surrogateescape")
        tree = store.build_tree(main_tree, {path: (store.write_blob(data), BLOB)})
        message = f"gitmem: refuse {entry_id}\n\n{reason}\n\nGitmem-Refused-By: {by}\n"
        return tree, [main_tip], message

    commit, pushed = _land_on_main(ws, candidate, f"refuse {entry_id}", append, push, remote)
    return Refusal(entry_id, topic, commit, pushed)
