"""Curation: lint, hygiene, harvest and import, which only ever propose."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gitmem.model.proposal import ProposalFields
    from gitmem.repo.workspace import Workspace


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
