"""Curation: lint, hygiene, harvest and import, which only ever propose."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
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
