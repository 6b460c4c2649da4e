"""A rule finding, in the one format every gate prints: `path:line: RULE-ID message`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from gitmem.errors import RuleError

#: What a reader says after the problem of an entry file it leaves out (`gitmem list`,
#: `gitmem export`, recall): the file and its rule are named, and where to see the rest.
LEFT_OUT: Final = "left out; `gitmem check` names every problem of the memory"


@dataclass(frozen=True, order=True)
class Problem:
    """One rule failure: where (path, 1-based line or None), which rule, and what to do."""

    path: str
    line: int | None
    rule: str
    message: str
    warning: bool = False

    def __str__(self) -> str:
        """One line, whatever the path or the message holds: a file named with a line break
        printed a second line that a reader, a CI log or a workflow command (`::error`) took
        for a problem, or for a command, of its own."""
        where = f"{self.path}:{self.line}" if self.line else self.path
        tag = "warning: " if self.warning else ""
        return f"{where}: {self.rule} {tag}{self.message}".translate(_LINE_BREAKS)

    def sort_key(self) -> tuple[str, int, str, str]:
        return (self.path, self.line or 0, self.rule, self.message)


#: Every character str.splitlines() breaks a line at, written as its escape.
_LINE_BREAKS: Final = {
    ord(c): c.encode("unicode_escape").decode("ascii")
    for c in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
}

#: The most problems of one file a person's text output prints: a hostile entry can break a
#: rule thousands of times, which buried every other file's findings and flooded the logs.
SHOWN_PER_FILE: Final = 20


def by_file(
    problems: Iterable[Problem], limit: int = SHOWN_PER_FILE
) -> list[tuple[str, list[Problem], int]]:
    """The problems grouped by path (in the order paths first appear): each path, the first
    limit of its problems, and how many of them are left out. What a person's output shows
    of a report, as lines (shown_lines) or as a table's rows (`gitmem review --format
    markdown`)."""
    grouped: dict[str, list[Problem]] = {}
    for problem in problems:
        grouped.setdefault(problem.path, []).append(problem)
    return [(path, found[:limit], max(0, len(found) - limit)) for path, found in grouped.items()]


def left_out(path: str, left: int, more: str, limit: int = SHOWN_PER_FILE) -> str:
    """The line that says how many problems of path by_file left out, and more (how to see
    them all)."""
    return (
        f"{path}: … {left} more problem{'s' if left != 1 else ''} in this file not "
        f"shown (the first {limit} are): {more}"
    )


def shown_lines(problems: Iterable[Problem], more: str, limit: int = SHOWN_PER_FILE) -> list[str]:
    """One line per problem, grouped by path (in the order paths first appear), at most limit
    of each path; a path over it then gets one line saying how many were left out and more
    (how to see them all). Machine formats (JSON, SARIF) list every problem instead."""
    lines: list[str] = []
    for path, shown, left in by_file(problems, limit):
        lines.extend(str(p) for p in shown)
        if left:
            lines.append(left_out(path, left, more, limit))
    return lines


class EntryError(RuleError):
    """A malformed entry: which rule, and the 1-based line where known (the entry parser and
    the YAML reader raise it; a gate turns it into a Problem)."""

    def __init__(self, rule: str, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.line = line
