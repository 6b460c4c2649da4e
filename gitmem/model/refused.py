"""refused.md: the topics refused once, never proposed again; append-only.

The file is a Markdown table so a reviewer reads it as is:

    | topic | reason | id | date | by |
    | --- | --- | --- | --- | --- |
    | use-sqlite-index | keep derived data out of git | shop-decision-… | 2026-11-30 | human:bob |

A `|` inside a reason is written `\\|`.  Lines that are not table rows are ignored when read.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from gitmem.model.markdown import table_cells

HEADER = (
    "# Refused topics\n\n"
    "Topics refused once are never proposed again. gitmem appends here; do not edit rows.\n\n"
    "| topic | reason | id | date | by |\n"
    "| --- | --- | --- | --- | --- |\n"
)
NEAR_MATCH = 0.85


@dataclass(frozen=True)
class Refusal:
    topic: str
    reason: str
    id: str
    date: str
    by: str
    line: int

    def describe(self) -> str:
        return f"refused on {self.date} by {self.by}: {self.reason}"


def parse(text: str) -> dict[str, Refusal]:
    """The refusals in refused.md by topic (the first refusal of a topic wins)."""
    out: dict[str, Refusal] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.startswith("|") or line.startswith("| topic") or line.startswith("| ---"):
            continue
        cells = table_cells(line, escapes="|\\")  # _escape writes both
        if len(cells) != 5 or not cells[0]:
            continue
        topic, reason, id_, date, by = cells
        out.setdefault(topic, Refusal(topic, reason, id_, date, by, number))
    return out


def _escape(text: str) -> str:
    return " ".join(text.split()).replace("\\", "\\\\").replace("|", "\\|")


def append(text: str | None, refusal: Refusal) -> str:
    """refused.md with one more row; the existing bytes are kept exactly (append-only)."""
    base = text if text else HEADER
    if not base.endswith("\n"):
        base += "\n"
    row = "| " + " | ".join(
        _escape(v) for v in (refusal.topic, refusal.reason, refusal.id, refusal.date, refusal.by)
    )
    return base + row + " |\n"


def near(topic: str, refusals: dict[str, Refusal]) -> Refusal | None:
    """A refused topic close to (but not equal to) topic, for a warning."""
    best: tuple[float, Refusal] | None = None
    for other, refusal in refusals.items():
        if other == topic:
            continue
        ratio = difflib.SequenceMatcher(None, topic, other).ratio()
        if ratio >= NEAR_MATCH and (best is None or ratio > best[0]):
            best = (ratio, refusal)
    return best[1] if best else None
