"""A rule finding, in the one format every gate prints: `path:line: RULE-ID message`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from gitmem.errors import RuleError


@dataclass(frozen=True, order=True)
class Problem:
    """One rule failure: where (path, 1-based line or None), which rule, and what to do."""

    path: str
    line: int | None
    rule: str
    message: str
    warning: bool = False

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        tag = "warning: " if self.warning else ""
        return f"{where}: {self.rule} {tag}{self.message}"

    def sort_key(self) -> tuple[str, int, str, str]:
        return (self.path, self.line or 0, self.rule, self.message)


#: The most problems of one file a person's text output prints: a hostile entry can break a
#: rule thousands of times, which buried every other file's findings and flooded the logs.
SHOWN_PER_FILE: Final = 20


def shown_lines(problems: Iterable[Problem], more: str, limit: int = SHOWN_PER_FILE) -> list[str]:
    """One line per problem, grouped by path (in the order paths first appear), at most limit
    of each path; a path over it then gets one line saying how many were left out and more
    (how to see them all). Machine formats (JSON, SARIF) list every problem instead."""
    by_path: dict[str, list[Problem]] = {}
    for problem in problems:
        by_path.setdefault(problem.path, []).append(problem)
    lines: list[str] = []
    for path, found in by_path.items():
        lines.extend(str(p) for p in found[:limit])
        if len(found) > limit:
            left = len(found) - limit
            lines.append(
                f"{path}: … {left} more problem{'s' if left != 1 else ''} in this file not "
                f"shown (the first {limit} are): {more}"
            )
    return lines


class EntryError(RuleError):
    """A malformed entry: which rule, and the 1-based line where known (the entry parser and
    the YAML reader raise it; a gate turns it into a Problem)."""

    def __init__(self, rule: str, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.line = line
