"""A rule finding, in the one format every gate prints: `path:line: RULE-ID message`."""

from __future__ import annotations

from dataclasses import dataclass

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


class EntryError(RuleError):
    """A malformed entry: which rule, and the 1-based line where known (the entry parser and
    the YAML reader raise it; a gate turns it into a Problem)."""

    def __init__(self, rule: str, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.line = line
