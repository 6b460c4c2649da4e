"""Entry texts for tests: a valid entry of each kind, and a builder to vary one field."""

from __future__ import annotations

from typing import Any

from gitmem.model.entry import Entry, render_meta

DESIGN_EXAMPLE = """\
---
id: shop-decision-20261129-use-pygit2-inside-hooks
type: decision
status: admitted
title: Use pygit2, not subprocess git, inside hooks
applies_when: writing code that runs inside a git hook
source: verdict:stop-2026-11-28-17
admitted_by: human:alice
created: 2026-11-29
admitted: 2026-11-30
tags: [hooks, performance]
files: [gitmem/store.py]
rationale: one git process per hook call costs more than the whole check
---

## Context
Why this came up.

## Content
The lesson itself.

## Evidence
Commits, measurements, links that back it.
"""


def meta(**changes: Any) -> dict[str, Any]:
    """Front matter of a valid candidate, with fields changed (None removes one)."""
    base: dict[str, Any] = {
        "id": "shop-method-20261129-run-hooks-through-gitmem",
        "type": "method",
        "status": "candidate",
        "title": "Run hooks through gitmem",
        "applies_when": "installing git hooks in a project",
        "source": "human:alice",
        "created": "2026-11-29",
        "tags": ["hooks"],
    }
    for key, value in changes.items():
        if value is None:
            base.pop(key, None)
        else:
            base[key] = value
    return base


def text(
    body: str | None = None,
    **changes: Any,
) -> str:
    """A whole entry file: front matter from meta(**changes) and a body."""
    if body is None:
        body = (
            "## Context\nHooks were copied by hand.\n\n"
            "## Content\nInstall them with `gitmem hooks install`.\n\n"
            "## Evidence\nThe hand-copied hooks drifted twice.\n"
        )
    return f"---\n{render_meta(meta(**changes))}---\n\n{body}"


def entry(**changes: Any) -> Entry:
    return Entry(
        meta(**changes),
        "Hooks were copied by hand.",
        "Install them with `gitmem hooks install`.",
        "The hand-copied hooks drifted twice.",
    )


def with_front_lines(data: bytes, edits: list[tuple[int, str]]) -> bytes:
    """An entry file with lines inserted among its front-matter lines: (position, line), the
    position taken modulo the number of lines, so any generated number lands inside."""
    head, _, rest = data.partition(b"\n---\n")
    rows = head.split(b"\n")
    for at, line in edits:
        rows.insert(1 + at % len(rows), line.encode())
    return b"\n".join(rows) + b"\n---\n" + rest
