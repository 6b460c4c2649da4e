"""Pending candidates: listed, shown and judged as admission would judge them."""

from __future__ import annotations

from pathlib import Path

from clirunner import PROPOSE, first_id, ok, run


def test_candidates_and_show(memory: Path) -> None:
    ok(run(memory, *PROPOSE))
    listing = ok(run(memory, "candidates")).output
    assert first_id() in listing and "valid" in listing
    shown = ok(run(memory, "show", first_id())).output
    assert "status: candidate" in shown
