"""One exception base for every expected failure, carrying the exit code the CLI returns.

Exit codes (CONVENTIONS.md): 0 ok, 1 a rule failed, 2 usage, 3 unexpected.  Only
gitmem.cli.main.exit_code turns these into an exit code; the core raises and never prints.
"""

from __future__ import annotations

RULE_FAILED = 1
USAGE = 2
UNEXPECTED = 3
#: Ctrl-C (SIGINT), as a shell reports a command it ended: 128 + 2
INTERRUPTED = 130


class GitmemError(Exception):
    """An expected failure: its message is shown as is, and it says what to do."""

    exit_code: int = RULE_FAILED

    def __init__(self, message: str, *, exit_code: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if exit_code is not None:
            self.exit_code = exit_code


class RuleError(GitmemError):
    """A rule refused the input (a malformed entry, a forbidden transition): exit 1."""

    exit_code = RULE_FAILED


class UsageError(GitmemError):
    """The command was called wrongly (bad option, unknown id, not a repository): exit 2."""

    exit_code = USAGE
