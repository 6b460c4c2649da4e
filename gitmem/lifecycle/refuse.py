"""refuse: a candidate's topic joins refused.md on main, in one commit; its branch is deleted.

refused.md only grows (the history rules hold it to that): the commit appends one row —
topic, reason, id, date, who refused — and keeps every byte already there, whatever they are.
A later proposal of the same topic is refused by the file rules, a near one warned about.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Final

from gitmem.errors import RuleError, UsageError
from gitmem.lifecycle import writing
from gitmem.lifecycle.admit import admitter_problem
from gitmem.lifecycle.candidates import Candidate, find_candidate, remote_of
from gitmem.lifecycle.entries import find_entry
from gitmem.lifecycle.writing import (
    DEFAULT_REMOTE,
    catch_up,
    default_human,
    land_on_main,
    landing_remote,
    resume,
    today,
)
from gitmem.model import curation
from gitmem.model import refused as refused_mod
from gitmem.model.entry import EntryError
from gitmem.model.names import candidate_ref
from gitmem.repo.store import BLOB
from gitmem.repo.workspace import Workspace, require_memory_settings

#: the longest --reason, in characters once its whitespace is folded: the most the entry
#: schema lets a retirement's reason be (a `line`), the other reason gitmem keeps for good
MAX_REASON: Final = 1000


@dataclass
class Refusal:
    id: str
    topic: str
    commit: str
    pushed: bool = False
    #: what was finished first for a command killed before (gitmem.lifecycle.recovery)
    recovered: list[str] = field(default_factory=list)


@writing.one_landing_at_a_time
def refuse(
    ws: Workspace,
    entry_id: str,
    *,
    reason: str,
    by: str | None = None,
    push: bool = False,
    remote: str | None = None,
    date: str | None = None,
) -> Refusal:
    """Append the candidate's topic to refused.md in one commit on main; delete its branch.
    With push, main is pushed (and the branch deleted there) to remote, else to the remote
    `git push` pushes main to (landing_remote), the one caught up with first."""
    require_memory_settings(ws)
    store = ws.store
    remote = landing_remote(ws, remote) if push else remote or DEFAULT_REMOTE
    reason = " ".join(reason.split())
    if not reason:
        raise UsageError("say why with --reason: later proposals of this topic will show it")
    _check_reason(reason)
    done, recovered, pushed = resume(ws, f"refuse {entry_id}", push, remote)
    if done is not None:
        return Refusal(entry_id, entry_id, done, pushed, recovered)
    by = by or default_human(store)
    problem = admitter_problem(by)  # refused.md's row and the commit's trailer hold it
    if problem:
        raise UsageError(f"cannot refuse {entry_id}: {problem}")
    candidate = find_candidate(ws, entry_id)
    topic = entry_id
    if candidate.data is not None:
        with contextlib.suppress(EntryError):
            entry = candidate.entry()
            # an amendment or a retirement carries the admitted entry's title, so its topic
            # is that entry's: refused as such, the entry could never be amended or retired
            # again (REFUSED-TOPIC), for what was only one correction turned down
            if curation.kind_of(entry) == "admit":
                topic = entry.topic
    date = date or today()
    if push:
        catch_up(ws, remote)
    path = f"{ws.dir}/refused.md"

    def append(main_tip: str, main_tree: str) -> tuple[str, list[str], str]:
        previous = store.read_path(main_tree, path)
        _refuse_once(ws, candidate, previous)
        _refuse_no_admitted(ws, candidate, main_tip, main_tree)
        # surrogateescape: whatever bytes refused.md holds are kept exactly (append-only)
        text = refused_mod.append(
            previous.decode("utf-8", "surrogateescape") if previous else None,
            refused_mod.Refusal(topic, reason, entry_id, date, by, 0),
        )
        data = text.encode("utf-8", "surrogateescape")
        tree = store.build_tree(main_tree, {path: (store.write_blob(data), BLOB)})
        message = f"gitmem: refuse {entry_id}\n\n{reason}\n\nGitmem-Refused-By: {by}\n"
        return tree, [main_tip], message

    commit, pushed = land_on_main(ws, candidate, f"refuse {entry_id}", append, push, remote)
    return Refusal(entry_id, topic, commit, pushed, recovered)


def _refuse_once(ws: Workspace, candidate: Candidate, refused: bytes | None) -> None:
    """Refuse to refuse a candidate refused.md on main names already. A candidate known only
    from its remote-tracking branch keeps that branch until the refusal is pushed, so it
    could be refused again and again: each time one more commit on main and one more row in
    a file that only grows, for good."""
    text = refused.decode("utf-8", "replace") if refused else ""
    rows = (refused_mod.parse_row(line) for line in text.splitlines())
    row = next((r for r in rows if r is not None and r.id == candidate.id), None)
    if row is None:
        return
    if candidate.local:
        close = f"git branch -D {candidate.branch}"
    else:
        # the remote the branch was fetched from, where it is left
        close = f"git push {remote_of(candidate)} {ws.branch} :{candidate_ref(candidate.id)}"
    raise RuleError(
        f"{candidate.id} was refused already on {ws.branch} ({row.date} by {row.by}: "
        f"{row.reason}); its branch {candidate.branch} is what is left of it: close it "
        f"({close}), nothing more to refuse"
    )


def _refuse_no_admitted(ws: Workspace, candidate: Candidate, main_tip: str, main_tree: str) -> None:
    """Refuse to refuse a candidate main holds already: its entry admitted (a reviewer's
    clone that admitted it without --push still has its remote-tracking branch, which
    find_candidate finds), or its branch merged (an amendment's or retirement's admission,
    or a merge by hand). refused.md then named the topic of an admitted entry, for good."""
    found = find_entry(ws.store, ws.store.subtree(main_tree, ws.dir), candidate.id)
    merged = candidate.data is not None and ws.store.is_ancestor(candidate.tip, main_tip)
    if found is None and not merged:
        return
    where = f" ({ws.dir}/{found[0].path})" if found is not None else ""
    raise RuleError(
        f"{candidate.id} is on {ws.branch} already{where}: a candidate is refused before it "
        f"is admitted, not after; to take an admitted entry back, retire it (gitmem propose "
        f"--retire ID --reason TEXT); its branch {candidate.branch} is what is left of it"
    )


def _check_reason(reason: str) -> None:
    """Refuse a reason the history gate would refuse on main (refused.md and the commit
    message keep it for good): an invisible character or a secret, named but not shown.

    And one longer than MAX_REASON: refused.md only grows, and every later proposal near
    the topic prints the reason whole in its REFUSED-TOPIC warning, so a file pasted into
    --reason (15,000 characters went in) was printed with every such proposal, for good."""
    if len(reason) > MAX_REASON:
        raise UsageError(
            f"--reason is {len(reason):,} characters long, more than the {MAX_REASON:,} a "
            "reason may be: say why in a sentence or two (refused.md keeps it for good, and "
            "later proposals of the topic show it whole); nothing was refused"
        )

    writing.check_reason_text(reason, "refused.md and the commit on main", "nothing was refused")
