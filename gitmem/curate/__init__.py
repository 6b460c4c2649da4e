"""Curation: lint, hygiene, harvest and import, which only ever propose."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gitmem.model.proposal import ProposalFields
    from gitmem.repo.workspace import Workspace


def memory_tip(ws: Workspace) -> str | None:
    """The memory branch's tip, as curation reads it: a branch missing here is a UsageError
    naming it (Workspace.memory_tip), also in a checkout with no local branch at all and the
    branch on origin (a detached checkout in CI), which memory_tip takes for a repository
    without memory; a lint there passed on a memory it never read."""
    tip = ws.memory_tip()
    missing = ws.branch_only_on_origin() if tip is None else None
    if missing is not None:
        raise missing
    return tip


def dry_problems(ws: Workspace, fields: ProposalFields) -> str:
    """What propose would refuse in a candidate of these fields, one problem a line ('' when
    nothing): a dry run says so instead of promising the candidate."""
    from gitmem.lifecycle.candidates import validate_candidate
    from gitmem.lifecycle.propose import build_candidate
    from gitmem.model.entry import make_id

    entry = build_candidate(ws, fields)
    entry = entry.with_meta(id=make_id(ws.settings.project, entry.type, entry.created, entry.title))
    tip = ws.main_tip()
    tree = ws.store.tree_of(tip) if tip else None
    problems = validate_candidate(ws, entry, tree, f"{ws.dir}/candidates/{entry.id}.md")
    return "\n".join(str(p) for p in problems if not p.warning)
