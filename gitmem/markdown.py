"""The little Markdown gitmem needs to read: which lines sit inside fenced code blocks.

A `## Content` line inside a fence is text, not a section; a fence closes only with a marker
of its own kind at least as long as the one that opened it (CommonMark).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def fenced(lines: Iterable[str]) -> Iterator[tuple[str, bool]]:
    """Each line with True when it belongs to a fenced code block (its fence lines included)."""
    fence: str | None = None
    for line in lines:
        match = FENCE.match(line)
        if match:
            marker = match.group(1)
            if fence is None:
                fence = marker[0] * len(marker)
                yield line, True
                continue
            if marker.startswith(fence):
                fence = None
                yield line, True
                continue
        yield line, fence is not None


def heading(line: str) -> tuple[int, str] | None:
    """(level, text) of an ATX heading (`## Text ##`, up to three spaces of indent), or None.

    String work, not a regular expression: a lazy text group followed by optional trailing
    runs backtracks quadratically on a long hostile line."""
    stripped = line.lstrip(" ")
    if len(line) - len(stripped) > 3 or not stripped.startswith("#"):
        return None
    level = len(stripped) - len(stripped.lstrip("#"))
    rest = stripped[level:]
    if level > 6 or (rest and rest[0] not in " \t"):
        return None
    text = rest.strip(" \t")
    closed = text.rstrip("#")
    if closed != text and (not closed or closed[-1] in " \t"):
        text = closed.rstrip(" \t")
    return level, text
