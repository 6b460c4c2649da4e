"""propose: validate a proposal, then write it as one commit on a new branch `gitmem/<id>`.

The commit's parent is the main branch's tip and it adds only `candidates/<id>.md`; it goes
straight to the object database, so the working tree, the staging index and HEAD are never
touched and an agent can propose in the middle of its own uncommitted work.  The branch is
created by compare-and-swap from "absent": two concurrent proposals of one title never lose
one, the second takes the next free id (`…-2`). A branch of this id here that already holds
the very candidate (the same file, byte for byte: a run killed once its branch was made,
then run again) is that proposal's, and is reused rather than proposed again as `…-2`.

Another clone may have taken the same id meanwhile (two people amending one entry, one title
proposed in two clones on one day): the branches here and the remote-tracking ones cannot
know, and the push is where the two meet. A push of gitmem/<id> that the remote refuses
because it holds another candidate under that id moves the proposal to the next free id
(a new commit, its file and front matter carrying the new id), which is pushed in turn
(_write_candidate says why the remote is asked after the push rather than before). One
function does it, push_candidate, for `propose --push` and for `propose --pr`, whose push
(pulls.py) may carry GitLab's push options.

`propose --amend ID` and `propose --retire ID` write their candidates the same way, with ids
`<ID>-amend` and `<ID>-retire` (then `-2`, …): the entry's text as a candidate, corrected, or
with the reason it retires (gitmem.model.curation says what their admission does).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from gitmem.errors import RULE_FAILED, GitmemError, RuleError, UsageError
from gitmem.lifecycle.candidates import candidate_taken, rule_error, validate_candidate
from gitmem.lifecycle.entries import find_entry, require_found
from gitmem.lifecycle.writing import (
    NoRemote,
    base_missing_on,
    check_reason_text,
    default_human,
    fault,
    no_commits,
    push_refs,
    push_remote,
    today,
)
from gitmem.model import curation
from gitmem.model import refused as refused_mod
from gitmem.model.entry import Entry, id_with_suffix, make_id
from gitmem.model.names import MAX_ID_LENGTH, candidate_branch, candidate_ref, is_entry_id
from gitmem.model.problem import Problem
from gitmem.model.proposal import BODY_FIELDS, ProposalFields
from gitmem.repo.store import BLOB, ref_clash, refs_above
from gitmem.repo.workspace import Workspace, require_memory_settings

MAX_ID_ATTEMPTS = 1000
#: what `propose --edit` does to its entry, as _admitted names it (a verb of no merge)
SUPERSEDE = "supersede"
#: what each verb of _admitted has done to an entry, in its refusal's words
_DONE = {curation.AMEND: "amended", curation.RETIRE: "retired", SUPERSEDE: "superseded"}


@dataclass
class Proposal:
    id: str
    branch: str
    commit: str
    warnings: list[Problem] = field(default_factory=list)
    pushed: bool = False
    #: Why the branch was not pushed when asked to (then it exists only here), and what to do.
    unpushed: str | None = None
    #: The branch held this very candidate already (an earlier run of the same proposal).
    reused: bool = False
    #: The ids the remote held another candidate under when this one was pushed, in the
    #: order they were tried: the proposal took the next free id after them.
    taken_on_remote: list[str] = field(default_factory=list)
    #: The exit code unpushed stands for: a rule or the remote refused (1), or there is no
    #: remote to push to (2, usage).
    unpushed_code: int = RULE_FAILED
    #: The remote the branch was pushed to, or was to be (push_remote's choice).
    remote: str | None = None
    #: What the candidate is made of, to make it again under another id (push_candidate).
    draft: _Draft | None = field(default=None, repr=False, compare=False)


class HeldByAnother(RuleError):
    """The remote holds the proposal's id for another candidate and the proposal could not
    move to a next id: it stays here on its branch, which no push can send under that id
    (the message says what to do instead)."""


#: How push_candidate sends a candidate's branch: pushes the refspec given
#: (`refs/heads/gitmem/<id>:refs/heads/gitmem/<id>`), or raises GitmemError with the remote's
#: refusal.
Send = Callable[[str], None]


def build_candidate(ws: Workspace, fields: ProposalFields, created: str | None = None) -> Entry:
    """An Entry with status candidate from the proposal's fields (id assigned later)."""
    given = fields.given()
    meta = {k: v for k, v in given.items() if k not in BODY_FIELDS}
    if "source" not in meta:
        meta["source"] = default_human(ws.store)
    meta["status"] = "candidate"
    meta["created"] = created or today()
    return Entry(
        meta,
        str(given.get("context") or ""),
        str(given.get("content") or ""),
        str(given.get("evidence") or ""),
    )


def successor_draft(ws: Workspace, old_id: str) -> tuple[Entry, str]:
    """The text a successor of an admitted entry starts from (`gitmem propose --edit OLD`):
    the old entry without what gitmem sets, superseding it; and the blob id of OLD's file on
    the memory branch it was read from, for the successor to record (propose's drafted_from)."""
    blob, old = _admitted(ws, old_id, SUPERSEDE)
    draft = old.with_meta(
        id=None,
        status=None,
        admitted_by=None,
        admitted=None,
        created=None,
        source=None,
        amended=None,
        amended_by=None,
        supersedes=[old_id],
    )
    return draft, blob


def propose(
    ws: Workspace,
    fields: ProposalFields,
    *,
    created: str | None = None,
    push: bool = False,
    remote: str | None = None,
    drafted_from: Mapping[str, str] = MappingProxyType({}),
) -> Proposal:
    """Validate, then write one commit on a new branch gitmem/<id> from main's tip; the
    working tree, the staging index and HEAD are never touched. With push, the branch is
    pushed to remote (None: the one push_remote chooses, as git would) when it holds main's
    tip; else it stays here and `unpushed` says why.

    A successor (a proposal with `supersedes`) records the text of each entry it supersedes
    it was drafted from (`drafted_from`, their blob ids), so that admit and the server refuse
    it once an amendment changed one of them, even after main was merged into its branch
    (curation.drafted_from_another): drafted_from gives the blob id of those read earlier,
    by id (`--edit OLD`: the text the editor opened); any other is recorded as main holds it
    now, the text a proposer of `--supersedes`, a draft file, an agent or hygiene saw last.
    Recorded only by `--edit` before, a successor of any other way in was judged by its
    branch's copy alone, which a branch that merged main in since holds anew."""
    fields.require()
    entry = build_candidate(ws, fields, created)
    blobs = _drafted(ws, entry, drafted_from)
    if blobs:
        entry = entry.with_meta(**{curation.DRAFTED_FROM: blobs})
    base_id = make_id(ws.settings.project, entry.type, entry.created, entry.title)
    return _write_candidate(ws, entry, base_id, push=push, remote=remote)


def _drafted(ws: Workspace, successor: Entry, drafted_from: Mapping[str, str]) -> list[str]:
    """The blob ids a successor records: of each entry it supersedes, the file its draft came
    from, else the file on the memory branch now (none for an id no entry has: LINEAGE)."""
    tip = ws.main_tip()
    memory_tree = ws.store.subtree(ws.store.tree_of(tip), ws.dir) if tip else None
    blobs: list[str] = []
    for old_id in successor.supersedes:
        blob = drafted_from.get(old_id)
        if blob is None:
            found = find_entry(ws.store, memory_tree, old_id)
            blob = found[0].oid if found is not None else None
        if blob is not None and blob not in blobs:
            blobs.append(blob)
    return blobs


def amend_start(ws: Workspace, target_id: str) -> tuple[Entry, str]:
    """The text an amendment starts from (`gitmem propose --amend ID`): the admitted entry
    as its amend candidate, for the author to correct; and the blob id of the entry's file
    it was read from, for the candidate to record (propose_amend's drafted_from)."""
    blob, target = _admitted(ws, target_id, curation.AMEND)
    draft = curation.amend_draft(target, curation.curation_id(target_id, curation.AMEND_SUFFIX))
    return draft, blob


def propose_amend(
    ws: Workspace,
    target_id: str,
    fields: ProposalFields,
    *,
    push: bool = False,
    remote: str | None = None,
    drafted_from: str | None = None,
) -> Proposal:
    """A candidate that corrects an admitted entry in place: the entry's text with the fields
    and sections given here put over it. What identifies the entry (type, source, created)
    and its lineage (supersedes) is not an amendment's to change: supersede it instead. The
    candidate records the entry's text it was drafted from (`drafted_from`, its blob id), so
    that admit and the server refuse it once another amendment changed the entry.

    drafted_from: the blob id of the entry's file the fields were drafted from, when that
    was read before (amend_start, for $EDITOR); else the entry as main holds it now. Read
    again once the editor closed, an amendment admitted meanwhile was taken for the text
    the draft came from, and admitting the draft undid it unseen."""
    current, target = _admitted(ws, target_id, curation.AMEND)
    drafted_from = drafted_from or current
    fields.require_closed_fences()
    given = fields.given()
    for name in ("type", "source", "supersedes"):
        value = given.get(name)
        if value is not None and value != target.meta.get(name):
            raise UsageError(
                f"an amendment keeps the entry's {name} ({target.meta.get(name, 'none')}): "
                f"to change it, supersede {target_id} (gitmem propose --edit {target_id})"
            )
    base_id = curation.curation_id(target_id, curation.AMEND_SUFFIX)
    start = curation.amend_draft(target, base_id)
    meta = {k: v for k, v in given.items() if k not in BODY_FIELDS and k != "supersedes"}
    corrected = start.with_meta(**{**meta, "amends": target_id})
    body = {name: given.get(name, getattr(start, name)) for name in BODY_FIELDS}
    candidate = Entry(corrected.meta, body["context"], body["content"], body["evidence"])
    if candidate.render() == start.render():
        raise UsageError(
            f"nothing to amend: give the corrected fields or text of {target_id} "
            "(--title, --applies-when, --content, …, or edit it in $EDITOR)"
        )
    candidate = candidate.with_meta(**{curation.DRAFTED_FROM: drafted_from})
    return _write_candidate(ws, candidate, base_id, push=push, remote=remote)


def propose_retire(
    ws: Workspace,
    target_id: str,
    reason: str,
    *,
    push: bool = False,
    remote: str | None = None,
) -> Proposal:
    """A candidate that retires an admitted entry (junk, a test write, a duplicate): once
    admitted, the file stays as a tombstone in status retired with the reason."""
    reason = " ".join(reason.split())
    if not reason:
        raise UsageError("--retire needs --reason TEXT: say why the entry goes")
    check_reason_text(reason, "the retired entry and its merge on main", "nothing was proposed")
    _, target = _admitted(ws, target_id, curation.RETIRE)
    base_id = curation.curation_id(target_id, curation.RETIRE_SUFFIX)
    candidate = curation.retire_draft(target, base_id, reason)
    return _write_candidate(ws, candidate, base_id, push=push, remote=remote)


def _admitted(ws: Workspace, target_id: str, verb: str) -> tuple[str, Entry]:
    """The admitted entry an amendment, a retirement or a successor (verb SUPERSEDE) changes,
    with its file's blob id on the memory branch, or why there is none."""
    tip = ws.main_tip()
    if tip is None:
        raise no_commits(ws)
    item, target = require_found(ws, ws.store.subtree(ws.store.tree_of(tip), ws.dir), target_id)
    if target.status != "admitted":
        raise UsageError(
            f"{target_id} is {target.status}: only an admitted entry is {_DONE[verb]}"
            + (f" ({verb} its successor {target.meta.get('superseded_by')})"
               if target.status == "superseded" else "")
        )  # fmt: skip
    return item.oid, target


def _write_candidate(
    ws: Workspace, entry: Entry, base_id: str, *, push: bool, remote: str | None
) -> Proposal:
    """Validate the candidate, then write it as one commit on gitmem/<id> from main's tip,
    taking the first free id of base_id, base_id-2, …; or reuse the first of those ids whose
    local branch holds this candidate's file already, byte for byte.

    A run killed once its branch was made (before its push, or before it said what it
    proposed) left that branch, and the same proposal run again took it for someone else's
    and proposed a second copy as `…-2`. The file holds every field, the id, the day and
    the source among them, so only the same proposal on the same day gives the same bytes:
    a different proposal of the same title still gets a branch of its own.

    With push, the remote decides last. Another clone may hold this id for another candidate
    (neither had fetched the other's): the push of gitmem/<id> is then refused, and the
    proposal moves on to the next free id, pushes that, and says which ids it found taken
    (taken_on_remote); the branch it made here under the taken id is deleted, since here
    it would hide the remote's candidate of that id (`gitmem candidates` and admit read a
    local branch first). The push itself is the check: it creates the remote branch only
    where none exists, atomically on the remote, so two clones racing for one id cannot
    both have it. Asking the remote beforehand (git ls-remote) costs the same round trip
    and still loses that race between the answer and the push. Only a refused push asks
    the remote what it holds (_taken_on), and only that answer, not the push's words,
    tells a taken id from another failure (no network, credentials, a hook's refusal),
    which leaves the branch here as before, with the push that sends it.

    remote is the remote named on the command line (`--remote NAME`), None for the one git
    would push a new branch to (push_remote); a name no remote has is refused before anything
    is written. With no remote at all, the candidate is made and stays here: unpushed says
    to add one and how to push it then (a usage error, unpushed_code)."""
    store = ws.store
    main_tip = ws.main_tip()
    if main_tip is None:
        raise no_commits(ws)
    require_memory_settings(ws)
    target: str | None = None
    no_remote: NoRemote | None = None
    if push:
        try:
            target = push_remote(store, remote)
        except NoRemote as exc:
            no_remote = exc
    main_tree = store.tree_of(main_tip)
    first = entry.with_meta(id=base_id)
    problems = validate_candidate(ws, first, main_tree, f"{ws.dir}/candidates/{base_id}.md")
    errors = [p for p in problems if not p.warning]
    if errors:
        raise rule_error(errors)
    proposal = _commit_candidate(ws, _Draft(entry, base_id, main_tip, tuple(problems)), ())
    if no_remote is not None:
        proposal.remote = no_remote.remote
        proposal.unpushed = (
            f"{no_remote.message}, then git push {no_remote.remote} {proposal.branch}"
        )
        proposal.unpushed_code = no_remote.exit_code
    if target is not None:
        proposal.remote = target
        # a reused branch may have left an older main: the remote needs where it left
        base = store.merge_base(main_tip, proposal.commit) or main_tip
        missing = base_missing_on(ws, target, base)
        if missing is not None:
            proposal.unpushed = f"{missing}: git push {target} {proposal.branch}"
            return proposal
        try:
            push_candidate(ws, proposal, remote=target)
        except HeldByAnother as exc:
            proposal.unpushed = exc.message
        except GitmemError as exc:
            # the branch exists now, whatever the push did: a refused push is reported
            # beside it (unpushed), never as if nothing had been proposed
            proposal.unpushed = f"{exc.message}\nthen: git push {target} {proposal.branch}"
    return proposal


@dataclass(frozen=True)
class _Draft:
    """What a proposal's candidate is made of, kept to make it again under the next free id
    when the remote gave its id to another candidate (push_candidate)."""

    entry: Entry
    base_id: str
    main_tip: str
    problems: tuple[Problem, ...]


def _commit_candidate(ws: Workspace, draft: _Draft, skip: Collection[str]) -> Proposal:
    """The commit of draft's candidate on gitmem/<id>, for the first id of base_id,
    base_id-2, … that is free here and not in skip (ids the remote holds for another
    candidate), or whose local branch holds this very candidate already (reused)."""
    store = ws.store
    entry, base_id, main_tip = draft.entry, draft.base_id, draft.main_tip
    main_tree = store.tree_of(main_tip)
    memory_tree = store.subtree(main_tree, ws.dir)
    refused = _refused_ids(ws, main_tree)
    for attempt in range(1, MAX_ID_ATTEMPTS + 1):
        entry_id = id_with_suffix(base_id, attempt)
        if not is_entry_id(entry_id):
            # base_id was judged (SCHEMA), its suffixed ids were not: one past the longest
            # id made a branch that admit, refuse and `gitmem candidates` call no candidate
            raise RuleError(
                f"{id_with_suffix(base_id, attempt - 1)} is taken, and the next id, "
                f"{entry_id}, is longer than {MAX_ID_LENGTH} characters: shorten the title "
                "(or see `gitmem candidates`: is this proposed already?), then propose again"
            )
        if entry_id in skip:
            continue
        candidate = entry.with_meta(id=entry_id)
        path = _candidate_path(ws, entry_id)
        data = candidate.render().encode("utf-8")
        ref = candidate_ref(entry_id)
        commit = _holding(ws, ref, path, data)
        reused = commit is not None
        if commit is None:
            if (
                candidate_taken(ws, entry_id)
                or find_entry(store, memory_tree, entry_id)
                or entry_id in refused
            ):
                continue
            blob = store.write_blob(data)
            tree = store.build_tree(main_tree, {path: (blob, BLOB)})
            message = f"gitmem: propose {entry_id}\n\n{candidate.title}\n"
            commit = store.write_commit(tree, [main_tip], message)
            # compare-and-swap from "absent": a concurrent proposal that took this id first
            # wins it, and this one moves on to the next suffix, or keeps that branch when
            # it holds the same candidate; none is lost, none is doubled.
            if not store.update_ref(ref, commit, None, f"gitmem: propose {entry_id}"):
                commit = _holding(ws, ref, path, data)
                reused = True
                if commit is None:
                    continue
        fault("propose-after-ref")
        proposal = Proposal(entry_id, candidate_branch(entry_id), commit, list(draft.problems))
        proposal.reused = reused
        proposal.taken_on_remote = list(skip)
        proposal.draft = draft
        return proposal
    # a rule's refusal, as the too-long id above is: harvest and import skip the one draft
    raise RuleError(
        f"{base_id} and its next {MAX_ID_ATTEMPTS - 1} ids (-2 to -{MAX_ID_ATTEMPTS}) are all "
        "taken here: give the proposal another title (or see `gitmem candidates` and remove "
        "the candidate branches nobody needs), then propose again"
    )


def _refused_ids(ws: Workspace, main_tree: str) -> frozenset[str]:
    """The ids refused.md on main names: taken for good, as an admitted entry's are. An
    amendment or a retirement of an entry refused once is proposed again under the same id
    (`<id>-amend`), which then named two candidates, one refused and one pending."""
    data = ws.store.read_path(main_tree, f"{ws.dir}/refused.md")
    if not data:
        return frozenset()
    rows = (refused_mod.parse_row(line) for line in data.decode("utf-8", "replace").splitlines())
    return frozenset(row.id for row in rows if row is not None)


def push_candidate(
    ws: Workspace, proposal: Proposal, *, remote: str, send: Send | None = None
) -> None:
    """Push the proposal's branch gitmem/<id> to remote: with send (refspec in, the remote's
    refusal out as a GitmemError), a plain `git push` by default; `propose --pr` sends it its
    own way (GitLab's push options open the merge request on this very push). Once pushed,
    proposal.pushed is set.

    A remote that refuses it because it holds another candidate under this id (another clone
    proposed it first) moves the proposal, in place, to the next free id: a new commit whose
    file and front matter carry that id, sent in turn, its id, branch and commit those of the
    proposal from then on, and the id found taken added to taken_on_remote; the branch made
    here under the taken id is deleted (_drop) once the next one is made: where none can be
    (past the longest id, none free), HeldByAnother is raised and the branch stays. A branch
    there holding this very candidate (the same proposal pushed from another clone) is taken
    as this one's (reused). Only the remote's answer to one fetch (_taken_on), not the
    push's words, tells a taken id from any other refusal (no network, credentials, a
    hook's): that one is raised, the branch kept here under its id. The caller checks
    beforehand that the remote holds the main commit the candidate is based on
    (base_missing_on)."""
    store = ws.store
    proposal.remote = remote
    draft = proposal.draft
    base_id = draft.base_id if draft is not None else proposal.id
    while True:
        ref = candidate_ref(proposal.id)
        refspec = f"{ref}:{ref}"
        try:
            if send is None:
                push_refs(store, remote, [refspec])
            else:
                send(refspec)
        except GitmemError:
            theirs = _taken_on(ws, remote, base_id, proposal.id)
            if theirs is None:
                in_the_way = _in_the_way_on(ws, remote, ref)
                if in_the_way is not None:
                    raise UsageError(ref_clash(ref, in_the_way, remote)) from None
            if theirs is None or theirs == proposal.commit:
                raise
            path = _candidate_path(ws, proposal.id)
            data = store.read_path(store.tree_of(proposal.commit), path)
            tracking = f"refs/remotes/{remote}/{proposal.branch}"
            if data is not None and _holding(ws, tracking, path, data) is not None:
                # the same proposal, pushed from another clone: this branch follows the
                # remote's, as a re-run here follows its own (reused), rather than
                # proposing a copy as -2
                moved = f"gitmem: propose {proposal.id}, as {remote} holds it"
                if not store.update_ref(ref, theirs, proposal.commit, moved):
                    raise
                proposal.commit = theirs
                proposal.reused = True
            elif draft is None:
                raise
            else:
                taken = [*proposal.taken_on_remote, proposal.id]
                try:
                    # the next id's branch before this one goes: this one was deleted first,
                    # and a next id past the longest, or none free, lost the proposal while
                    # the output named this branch and a push of it
                    nxt = _commit_candidate(ws, draft, taken)
                except GitmemError as exc:
                    raise HeldByAnother(
                        f"{remote} holds {proposal.id} for another candidate, so this one "
                        f"is kept here on {proposal.branch}: {exc.message}"
                    ) from None
                _drop(ws, proposal)
                proposal.id, proposal.branch, proposal.commit = nxt.id, nxt.branch, nxt.commit
                proposal.reused = nxt.reused
                proposal.taken_on_remote = taken
                # made on main's tip, where the taken id's branch may have been older (reused)
                missing = base_missing_on(ws, remote, draft.main_tip)
                if missing is not None:
                    raise GitmemError(missing) from None
                continue
        proposal.pushed = True
        return


def _taken_on(ws: Workspace, remote: str, base_id: str, entry_id: str) -> str | None:
    """The commit remote's branch gitmem/<entry_id> holds now, None when it holds none or
    cannot be asked (no network, credentials). One fetch brings the remote-tracking branches
    of every id of base_id (`gitmem/<base_id>*`, pruning those the remote no longer has), so
    the next ids are chosen knowing all the remote holds, not learnt one refused push at a
    time; and `gitmem candidates` shows the candidate that took the id.

    A remote-tracking branch that keeps the fetch from writing gitmem/<entry_id>'s (a branch
    `gitmem` the remote had once and deleted since, not pruned here) is a UsageError naming
    it (ref_clash): the fetch failed, and the push's refusal ("fetch first") was all the user
    saw, while their own `git fetch` failed the same way."""
    done = ws.store.run_git(
        *("fetch", "--quiet", "--prune", "--no-write-fetch-head", remote),
        f"+{candidate_ref(base_id)}*:refs/remotes/{remote}/{candidate_branch(base_id)}*",
        check=False,
    )
    tracking = f"refs/remotes/{remote}/{candidate_branch(entry_id)}"
    if done.returncode != 0:
        in_the_way = ws.store.ref_in_the_way(tracking)
        if in_the_way is not None:
            raise UsageError(ref_clash(tracking, in_the_way))
        return None
    return ws.store.ref_target(tracking)


def _in_the_way_on(ws: Workspace, remote: str, ref: str) -> str | None:
    """A ref on remote that keeps it from creating ref (a branch `gitmem` beside the
    candidate branches `gitmem/<id>`, or one below ref's name), as the remote's `git
    ls-remote` lists them; None when there is none, or the remote cannot be asked. Asked
    only once a push was refused: the refusal's own words are the remote git's, translated."""
    above = refs_above(ref)
    done = ws.store.run_git("ls-remote", remote, *above, f"{ref}/*", check=False)
    if done.returncode != 0:
        return None
    names = {line.partition("\t")[2] for line in done.stdout.splitlines()}
    # ls-remote matches a pattern against the end of a name: only these names are wanted
    found = [n for n in above if n in names] + sorted(n for n in names if n.startswith(ref + "/"))
    return found[0] if found else None


def _drop(ws: Workspace, proposal: Proposal) -> None:
    """Delete the branch this proposal made here under an id the remote gave to another
    candidate: kept, it stood for that id here, and `gitmem candidates`, show and admit read
    it in place of the remote's. Kept only while a worktree has it checked out (deleted, that
    worktree was left on a branch with no commits), or when it moved since (no longer only
    this proposal's)."""
    if ws.store.worktree_on(proposal.branch, here_too=True) is None:
        ws.store.delete_ref(candidate_ref(proposal.id), proposal.commit)


def _candidate_path(ws: Workspace, entry_id: str) -> str:
    return f"{ws.dir}/candidates/{entry_id}.md"


def _holding(ws: Workspace, ref: str, path: str, data: bytes) -> str | None:
    """The tip of the local candidate branch ref when it holds data at path (this very
    candidate, proposed before), else None."""
    tip = ws.store.ref_target(ref)
    commit = ws.store.resolve(tip) if tip else None
    if commit is None or ws.store.read_path(ws.store.tree_of(commit), path) != data:
        return None
    return commit
