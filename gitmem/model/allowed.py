"""allowed.md: reviewed secret-scanner findings that are not secrets, by fingerprint; append-only.

A finding's fingerprint is its rule id and a hash of the normalised secret, never the secret
(gitmem.gate.secrets.fingerprint). The file lives in the memory folder on the memory branch and
changes only in an admit merge (`gitmem admit ID --allow FINGERPRINT`), by an admitter who is
not the candidate's author; the history judge proves both (gitmem.gate.history). A Markdown
table, so a reviewer reads it as is:

    | fingerprint | entry | by | date | reason |
    | --- | --- | --- | --- | --- |
    | github-pat:3f9c… | shop-method-… | human:bob | 2026-12-01 | revoked example token |
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gitmem.model.markdown import table_cells, table_row

NAME = "allowed.md"
HEADER = (
    "# Allowed findings\n\n"
    "Reviewed secret-scanner findings that are not secrets, by fingerprint (never the value).\n"
    "gitmem admit --allow appends here; do not edit rows.\n\n"
    "| fingerprint | entry | by | date | reason |\n"
    "| --- | --- | --- | --- | --- |\n"
)
FINGERPRINT = re.compile(r"[a-z0-9][a-z0-9-]*:[0-9a-f]{32}")


@dataclass(frozen=True)
class Allowance:
    fingerprint: str
    entry: str
    by: str
    date: str
    reason: str
    line: int = 0


def parse_row(line: str, number: int = 0) -> Allowance | None:
    """One table row, or None when the line is not a well-formed row (headers included)."""
    if not line.startswith("|"):
        return None
    cells = table_cells(line, escapes="|\\")
    if len(cells) != 5 or not FINGERPRINT.fullmatch(cells[0]):
        return None
    return Allowance(cells[0], cells[1], cells[2], cells[3], cells[4], number)


def parse(text: str) -> dict[str, Allowance]:
    """The allowances by fingerprint (the first row of a fingerprint wins)."""
    out: dict[str, Allowance] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        row = parse_row(line, number)
        if row is not None:
            out.setdefault(row.fingerprint, row)
    return out


def append(text: str | None, rows: list[Allowance]) -> str:
    """allowed.md with rows appended; the existing bytes are kept exactly (append-only)."""
    base = text if text else HEADER
    if not base.endswith("\n"):
        base += "\n"
    for row in rows:
        base += table_row((row.fingerprint, row.entry, row.by, row.date, row.reason))
    return base
