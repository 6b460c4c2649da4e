"""admit: a candidate becomes memory through one merge commit on the main branch.

The merge's parents are main's tip and the candidate's tip; its tree is main's tree plus
`entries/<type>/<id>.md` (status admitted, `admitted_by`, `admitted`), the entries it
supersedes flipped to superseded, and INDEX.md brought up to date, all in the same commit.
Who may admit what is may_admit's to say, and only its (DESIGN.md "Sources and who may
admit what"): the command line, the interactive review and `--auto` all ask it.

An amend or retire candidate (gitmem.model.curation) is admitted by the same command: its merge
(message `gitmem: amend <id>` or `gitmem: retire <id>`) rewrites the entry it names in place
instead of adding one. An amendment is admitted by whoever may admit the candidate; a
retirement by an admitter of a source memory.retireBy lists (people only by default).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from gitmem.errors import GitmemError, RuleError, UsageError
from gitmem.index import indexmd as index_mod
from gitmem.lifecycle.candidates import (
    Candidate,
    behind_hint,
    candidate_problems,
    find_candidate,
    main_behind,
    pending,
    read_from,
    remote_of,
    rule_error,
)
from gitmem.lifecycle.entries import find_entry
from gitmem.lifecycle.writing import (
    DEFAULT_REMOTE,
    catch_up,
    default_human,
    land_on_main,
    landing_remote,
    one_landing_at_a_time,
    resume,
    reverted_landing,
    today,
)
from gitmem.model import allowed as allowed_mod
from gitmem.model import curation
from gitmem.model.entry import Entry, EntryError
from gitmem.model.names import quoted_id
from gitmem.model.problem import Problem
from gitmem.repo.store import BLOB, Change
from gitmem.repo.workspace import Workspace, require_memory_settings

#: the longest name after `human:` or `audit:` (the entry schema's admitted_by pattern)
MAX_ADMITTER: Final = 301


@dataclass
class Admission:
    id: str
    commit: str
    superseded: list[str]
    pushed: bool = False
    #: what was finished first for a command killed before (gitmem.lifecycle.recovery)
    recovered: list[str] = field(default_factory=list)


def may_admit(ws: Workspace, entry: Entry, by: str) -> str | None:
    """None when `by` may admit entry, else why not and what to do instead."""
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


def admitter_problem(by: str) -> str | None:
    """Why `by` cannot be written as the entry's admitted_by and the merge's trailer, or None:
    the schema wants one line with a visible first character after the kind, and a line end
    there would forge a second Gitmem-Admitted-By trailer."""
    name = by.partition(":")[2]
    if name[:1].strip() and by.isprintable() and len(name) <= MAX_ADMITTER:
        return None
    return (
        f"{by!r} is not an admitter: one line of visible characters after the kind "
        f"(at most {MAX_ADMITTER}), e.g. human:alice"
    )


def may_retire(ws: Workspace, by: str) -> str | None:
    """None when `by` may admit a retirement (memory.retireBy), else why not."""
    kind, _, name = by.partition(":")
    if name and kind in ws.settings.retire_by:
        return None
    allowed = " or ".join(f"{k}:NAME" for k in ws.settings.retire_by) or "nobody"
    return f"{by!r} may not retire an entry (memory.retireBy allows {allowed})"


def _may_allow(
    ws: Workspace, candidate: Candidate, entry: Entry, by: str, allow: Sequence[str]
) -> str | None:
    """None when `by` may record these fingerprints for this candidate, else why not."""
    if not allow:
        return None
    from gitmem.gate.secrets import is_fingerprint

    for fingerprint in allow:
        if not is_fingerprint(fingerprint):
            return (
                f"--allow {fingerprint[:80]!r} is not a finding's fingerprint (a scanner rule "
                "id, a colon and 32 hex digits, as the SECRET message prints it)"
            )
    authors = {f"human:{ws.store.author_name(candidate.tip)}"}
    if entry.source.startswith("human:"):
        authors.add(entry.source)
    if by in authors:
        return (
            f"{by} is the candidate's author: a reviewed exception is recorded by someone "
            "else (admit with --by human:REVIEWER, or ask a reviewer to)"
        )
    found = _findings_of(ws, candidate)
    for fingerprint in allow:
        if fingerprint not in found:
            return (
                f"--allow {fingerprint} is no finding of {candidate.id} (its file in the "
                "commits the admission brings): a reviewed exception allows a finding of the "
                "entry it is admitted with, as the server's gate requires"
            )
    return None


def _findings_of(ws: Workspace, candidate: Candidate) -> frozenset[str]:
    """The fingerprints the scanner finds in every version of the candidate's file among the
    commits its admission brings (those the memory branch lacks), and in its file now: what
    --allow may record (the server's judge asks the same of the merge)."""
    from gitmem.gate.history import candidate_versions, fingerprints_of
    from gitmem.gate.scanner import scan

    main = ws.main_tip()
    blobs = candidate_versions(ws.store, candidate.tip, [main] if main else [], candidate.path)
    found = set(fingerprints_of(blobs, ws.store.read))
    if candidate.data is not None:
        found.update(f.fingerprint for f in scan(candidate.data))
    return frozenset(found)


def _parsed(candidate: Candidate) -> Entry:
    if candidate.data is None:
        raise RuleError(f"branch {candidate.ref} holds no {candidate.path}: nothing to admit")
    try:
        return candidate.entry()
    except EntryError as exc:
        raise RuleError(str(Problem(candidate.path, exc.line, exc.rule, exc.message))) from None


@one_landing_at_a_time
def admit(
    ws: Workspace,
    entry_id: str,
    *,
    by: str | None = None,
    expect: str | None = None,
    push: bool = False,
    remote: str | None = None,
    date: str | None = None,
    allow: Sequence[str] = (),
    allow_reason: str = "reviewed at admission",
) -> Admission:
    """One merge commit on main (parents: main tip, candidate tip) adding the entry,
    updating superseded entries and INDEX.md; the main ref moves by compare-and-swap.

    With push, main is pushed (and the candidate's branch deleted there) to remote, else to
    the remote `git push` pushes main to (landing_remote), the one caught up with first.

    allow: fingerprints of the candidate's secret-scanner findings the admitter judged
    harmless; the merge appends them to allowed.md under the admitter's name (the history
    judge holds the admitter to not being the candidate's author, and so does this)."""
    require_memory_settings(ws)
    store = ws.store
    remote = landing_remote(ws, remote) if push else remote or DEFAULT_REMOTE
    verb = _verb_of(ws, entry_id)
    if expect is not None:
        _expect_of_landed(ws, f"{verb} {entry_id}", expect)
    done, recovered, pushed = resume(ws, f"{verb} {entry_id}", push, remote)
    if done is not None:
        return Admission(entry_id, done, [], pushed, recovered)
    by = by or default_human(store)
    candidate = find_candidate(ws, entry_id)
    if expect is not None:  # an empty expectation is never met, not "no expectation"
        full = store.resolve(expect) if expect.strip() else None
        if full is None and expect.strip():  # never a commit: no move to review
            raise UsageError(
                f"--expect {quoted_id(expect)} is not a commit here: give the commit you "
                "reviewed (the candidate's tip, as `gitmem candidates --format json` shows "
                "it; git fetch first?)"
            )
        if full != candidate.tip:
            raise RuleError(
                f"candidate {entry_id} moved: its branch is at {candidate.tip[:12]}, not the "
                f"reviewed {expect[:12]}; review the new commits and approve again"
            )
    entry = _parsed(candidate)
    kind = curation.kind_of(entry)
    refusal = admitter_problem(by) or (
        may_retire(ws, by) if kind == curation.RETIRE else may_admit(ws, entry, by)
    )
    if kind != "admit" and allow:
        refusal = f"--allow records exceptions for a new entry only, not in a {kind}"
    refusal = refusal or _may_allow(ws, candidate, entry, by, allow)
    if refusal:
        raise RuleError(f"cannot admit {entry_id}: {refusal}")
    date = date or today()
    if push:
        catch_up(ws, remote)

    superseded: list[str] = []

    def merge(main_tip: str, main_tree: str) -> tuple[str, list[str], str]:
        if store.is_ancestor(candidate.tip, main_tip):
            reverted = reverted_landing(ws, f"{kind} {entry_id}", main_tip)
            if reverted is not None:
                raise RuleError(
                    f"cannot admit {entry_id}: {candidate.branch} is merged into {ws.branch} "
                    f"already (commit {reverted[:12]}), and what that merge wrote is undone "
                    f"there since (a revert): keep the branch, the only copy left of it. To "
                    f"admit it again, revert the revert on {ws.branch} (git log --oneline "
                    f"{reverted[:12]}..{ws.branch} shows it), or propose it anew"
                )
            # an amendment admitted from a clone whose remote-tracking branch of it stays
            # until the push was admitted again: a second merge, the amended date twice
            raise RuleError(
                f"cannot admit {entry_id}: {candidate.branch} is merged into {ws.branch} "
                f"already. Admitted before: a candidate is admitted once, and its branch is "
                f"what is left of it ({_close_hint(candidate)}). Merged by hand: undo "
                f"that merge on {ws.branch} (the gates refuse the candidate file it brought), "
                "then admit it"
            )
        allowed = frozenset(allow)
        problems = candidate_problems(ws, candidate, allowed=allowed)
        problems = [p for p in problems if not p.warning]
        if problems:
            judged_on = read_from(ws, candidate)
            behind = main_behind(ws, judged_on)
            hint = behind_hint(ws, judged_on, behind[1]) if behind else None
            raise rule_error(problems, hint)
        if kind != "admit":
            updates = _in_place_update(ws, main_tree, candidate, entry, kind, by, date)
            message = (
                f"gitmem: {kind} {entry_id}\n\n{entry.title}\n\n"
                f"Gitmem-Admitted-By: {by}\nGitmem-Candidate: {candidate.tip}\n"
            )
            return _with_index(ws, main_tree, updates), [main_tip, candidate.tip], message
        admitted = curation.as_admitted(entry, by, date)
        updates, replaced = _admission_updates(ws, main_tree, admitted)
        if allow:
            rows = [allowed_mod.Allowance(f, entry_id, by, date, allow_reason) for f in allow]
            path = f"{ws.dir}/{allowed_mod.NAME}"
            previous = store.read_path(main_tree, path)
            text = allowed_mod.append(
                previous.decode("utf-8", "surrogateescape") if previous else None, rows
            )
            updates[path] = (store.write_blob(text.encode("utf-8", "surrogateescape")), BLOB)
        superseded[:] = replaced  # of the attempt that lands
        message = (
            f"gitmem: admit {entry_id}\n\n{entry.title}\n\n"
            f"Gitmem-Admitted-By: {by}\nGitmem-Candidate: {candidate.tip}\n"
        )
        return _with_index(ws, main_tree, updates), [main_tip, candidate.tip], message

    commit, pushed = land_on_main(ws, candidate, f"{kind} {entry_id}", merge, push, remote)
    return Admission(entry_id, commit, superseded, pushed, recovered)


@dataclass
class AutoAdmission:
    """What `gitmem admit --auto` did: nothing at all when the settings do not allow it."""

    allowed: bool
    admitted: list[Admission] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (id, why)


def admit_audited(ws: Workspace, *, push: bool = False, remote: str | None = None) -> AutoAdmission:
    """Admit, without a person, every pending candidate its own audit may admit: the admitter
    is the candidate's `audit:` source, and may_admit decides. Candidates from any other
    source need a person; they and the ones may_admit refuses are skipped, with the reason."""
    if not ws.settings.auto_admit_audited:
        return AutoAdmission(allowed=False)
    done = AutoAdmission(allowed=True)
    for candidate in pending(ws):
        try:
            entry = _parsed(candidate)
        except RuleError:
            done.skipped.append((candidate.id, "does not parse"))
            continue
        if not entry.source.startswith("audit:"):
            done.skipped.append((candidate.id, f"source {entry.source} needs a person"))
            continue
        if curation.kind_of(entry) == curation.RETIRE:
            refusal = may_retire(ws, entry.source)
        else:
            refusal = may_admit(ws, entry, entry.source)
        if refusal:
            done.skipped.append((candidate.id, refusal))
            continue
        try:
            done.admitted.append(admit(ws, candidate.id, by=entry.source, push=push, remote=remote))
        except GitmemError as exc:
            done.skipped.append((candidate.id, exc.message))
    return done


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


def _expect_of_landed(ws: Workspace, action: str, expect: str) -> None:
    """Refuse when main's tip is this very admission (a command run again: resume then
    finishes it, and with --push publishes it) but of another commit than the reviewed one:
    `--expect` admits only that commit, and resume took any admission of the id for it, so
    an admission of commits pushed after the review was pushed and reported as done."""
    tip = ws.main_tip()
    if tip is None:
        return
    landed = ws.store.commit(tip)
    if landed.message.split("\n", 1)[0] != f"gitmem: {action}" or len(landed.parents) < 2:
        return
    reviewed = ws.store.resolve(expect) if expect.strip() else None
    if reviewed is None or reviewed == landed.parents[1]:
        return  # not a commit: said below, as for any admission
    raise RuleError(
        f"{ws.branch} holds the {action} already, of {landed.parents[1][:12]}, not the "
        f"reviewed {expect[:12]}: nothing was pushed; review {landed.parents[1][:12]}, or "
        f"undo that admission before it is pushed (git branch -f {ws.branch} "
        f"{ws.branch}~1, or git reset --keep HEAD~1 with {ws.branch} checked out)"
    )


def _close_hint(candidate: Candidate) -> str:
    """How to delete a candidate's branch by hand: a remote-tracking one's on the remote it
    was fetched from (remote_of), not where this admission is pushed."""
    if candidate.local:
        return f"git branch -D {candidate.branch}"
    return f"git push {remote_of(candidate)} --delete {candidate.branch.split('/', 1)[1]}"


def _verb_of(ws: Workspace, entry_id: str) -> str:
    """The verb of the merge that admits entry_id: main's tip says when it is that merge
    already (a killed command run again), else the candidate does; "admit" when neither."""
    tip = ws.main_tip()
    first = ws.store.commit(tip).message.split("\n", 1)[0] if tip else ""
    for verb in ("admit", curation.AMEND, curation.RETIRE):
        if first == f"gitmem: {verb} {entry_id}":
            return verb
    try:
        candidate = find_candidate(ws, entry_id)
        return curation.kind_of(_parsed(candidate))
    except GitmemError:
        return "admit"  # admit() says what is wrong


def _in_place_update(
    ws: Workspace,
    main_tree: str,
    branch: Candidate,
    candidate: Entry,
    kind: str,
    by: str,
    date: str,
) -> dict[str, tuple[str, int] | None]:
    """The entry an amend or retire candidate names, rewritten as its admission makes it.

    An amendment carries the whole entry as it was drafted, and its admission writes that
    over the entry: drafted before another amendment of the same entry was admitted, it
    undid that one's correction, unseen (both admitted, the second one's text won, as if
    the first had never been). So it is refused when the entry on main is no longer the
    text it was drafted from (curation.drafted_from_another), as git refuses a merge whose
    both sides changed the same lines; proposing it again drafts from the entry as it is.
    A retirement carries no text of the entry and is admitted over any amendment."""
    store = ws.store
    target_id = curation.target_of(candidate)
    found = find_entry(store, store.subtree(main_tree, ws.dir), target_id)
    if found is None or found[1].status != "admitted":
        raise RuleError(f"cannot {kind} {target_id}: it is not an admitted entry on {ws.branch}")
    item, target = found
    if kind == curation.AMEND:
        path = f"{ws.dir}/{item.path}"
        on_branch = store.item(store.tree_of(branch.tip), path)
        on_branch_blob = on_branch.oid if on_branch is not None else None
        if curation.drafted_from_another(candidate, item.oid, on_branch_blob):
            raise RuleError(
                f"cannot amend {target_id}: it changed on {ws.branch} since {branch.id} was "
                f"drafted from it (another amendment admitted meanwhile?), and admitting "
                f"{branch.id} would undo that change. Propose the amendment again from the "
                f"entry as it is now (gitmem propose --amend {target_id}), and refuse this "
                f"one (gitmem refuse {branch.id} --reason ...)"
            )
        result = curation.amended(target, candidate, by, date)
    else:
        reason = str(candidate.meta.get("retired_reason", ""))
        result = curation.retired(target, reason, by, date)
    return {f"{ws.dir}/{item.path}": (store.write_blob(result.render().encode("utf-8")), BLOB)}


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
