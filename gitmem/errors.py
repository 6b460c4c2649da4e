"""One exception base for every expected failure, carrying the exit code the CLI returns.

Exit codes (CONVENTIONS.md): 0 ok, 1 a rule failed, 2 usage, 3 unexpected.  Only
gitmem.cli.main.exit_code turns these into an exit code; the core raises and never prints.
"""

from __future__ import annotations

import errno
from typing import Final

RULE_FAILED = 1
USAGE = 2
UNEXPECTED = 3
#: Ctrl-C (SIGINT), as a shell reports a command it ended: 128 + 2
INTERRUPTED = 130

#: The system's refusals that are the user's or the machine's to fix, never gitmem's bug, and
#: what to do about each: a path too long or not allowed, a file where a folder must be (or
#: the reverse), a read-only or full disk. Each command names the paths it expects to fail on
#: with its own words; these are the ones met anywhere else (a pathlib test such as is_dir()
#: raises for a name too long or a folder not searchable), which ended as an "unexpected
#: error" to report. A missing file is not among them: gitmem looks before it opens, so one
#: gone is more likely a bug than a mistake; nor is an I/O error (EIO: a failing disk, a
#: network file system gone), which no advice fixes. gitmem.cli.main prints these with their
#: advice (exit 2) and any other OSError as unexpected (exit 3); the hooks installer's account
#: of an install or uninstall stopped half-way takes the same exit codes.
SYSTEM_ADVICE: dict[int, str] = {
    errno.ENAMETOOLONG: "give a shorter path",
    errno.EACCES: "make it readable (and writable, where gitmem writes) for you, or choose "
    "another path",
    errno.EPERM: "make it readable (and writable, where gitmem writes) for you, or choose "
    "another path",
    errno.EROFS: "choose a path on a file system you can write to",
    errno.ENOSPC: "free some space on the disk, then run the command again",
    errno.EDQUOT: "free some space within your disk quota, then run the command again",
    errno.ENOTDIR: "a file stands where a folder is needed on the way: move it, or choose "
    "another path",
    errno.EISDIR: "a folder stands where a file is needed: move it, or give the path of a file",
    errno.ELOOP: "a symbolic link on the way leads in a loop: fix the link, or choose another path",
}


#: What a command that runs git says when there is no git to run (exit 2: the user's system
#: lacks it, nothing is wrong with gitmem).
NO_GIT: Final = "git is not installed (or not on PATH): install git first"

#: What any command says when the folder it was started in was deleted (or moved away) after
#: the shell entered it: no repository can be looked for from a folder that is gone (exit 2).
CWD_GONE: Final = (
    "the current folder no longer exists (it was deleted or moved after the shell entered "
    "it): cd into the repository again, then run the command again"
)


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
