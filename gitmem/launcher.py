"""The `gitmem` executable's entry point: a fast exit for the pre-commit hook's no-op case.

Every commit runs the pre-commit hook, and most commits touch no memory file.  Importing the
full command line (click, pygit2, YAML, the schemas) costs far more than the answer, so when
the hook's question is "does this commit stage anything under the memory folder?",
`git diff --cached --name-only` (a few milliseconds; it honours GIT_INDEX_FILE like git
itself) answers it, and nothing else is imported.  Whenever the answer is not a plain no —
a settings file is staged, the memory folder is set by the environment, git fails — the
full check runs.

`gitmem agent-hook EVENT` (a coding agent's hook, run on every prompt and every edit) goes
straight to gitmem.agents.agent_hook, without the command line's imports either.
"""

from __future__ import annotations

import os
import sys
from typing import NoReturn

from gitmem.errors import INTERRUPTED, USAGE
from gitmem.model.names import SETTINGS_FILES
from gitmem.settings.folders import memory_prefixes

_FAST_ARGS = (["hook", "pre-commit"], ["check", "--staged"])
#: The command line's help options (gitmem.cli.main): `gitmem agent-hook -h` is help, not an event.
_HELP = ("-h", "--help")
#: The pre-commit framework's hook: the same question, unless it runs its pre-push stage (it
#: names the pushed ref) or was given a range.
_FRAMEWORK_ARGS = ["check", "--pre-commit-framework"]
_FRAMEWORK_RANGE = ("PRE_COMMIT_REMOTE_BRANCH", "PRE_COMMIT_FROM_REF", "PRE_COMMIT_TO_REF")


def nothing_staged_in_memory() -> bool:
    """True only when git says the staged change touches no memory or settings file, and the
    settings files in the working tree are the ones git is committing."""
    from gitmem.repo.gitcli import hook_output  # subprocess: not for an agent's hook
    from gitmem.repo.sparse import left_out_bytes

    found = hook_output("rev-parse", "--show-toplevel")
    try:
        top = found.decode("utf-8").strip() if found is not None else None
    except UnicodeDecodeError:
        return False
    if top is None:
        return False
    staged = hook_output("diff", "--cached", "--name-only", "-z", "--no-renames", cwd=top)
    # settings edited but not staged: the full check reads the staged ones
    unstaged = hook_output("diff", "--name-only", "-z", "--", *SETTINGS_FILES, cwd=top)
    if staged is None or unstaged is None:
        return False
    prefixes = memory_prefixes(top, left_out_bytes)
    if prefixes is None or unstaged.strip(b"\0"):
        return False
    settings = {name.encode("utf-8") for name in SETTINGS_FILES}
    # compared in any letter case, and any name that is not plain ASCII takes the full
    # check too: `.GITMEM/` or `.gitmem./` is the memory folder on some file systems
    folded = [prefix.lower() for prefix in prefixes]
    return not any(
        name in settings or not name.isascii() or name.lower().startswith(tuple(folded))
        for name in staged.split(b"\0")
        if name
    )


def main() -> NoReturn:
    """The `gitmem` command: the fast answer when it is one, else the command line's exit code
    (the only place gitmem ends its process). A Ctrl-C outside the command line's own mapping
    (the agent hook, the fast path, importing the command line) is 130 too, said in one line
    rather than a traceback."""
    try:
        code = _run()
    except KeyboardInterrupt:
        print("gitmem: interrupted", file=sys.stderr)
        code = INTERRUPTED
    sys.exit(code)


def _run() -> int:
    if len(sys.argv) == 3 and sys.argv[1] == "agent-hook" and sys.argv[2] not in _HELP:
        # Claude Code runs this on every prompt and edit: answered without loading click; any
        # other form of `agent-hook` (help, a usage mistake) goes to the command line, which
        # answers a mistake with exit 0 too (gitmem.cli.agents)
        from gitmem.agents.agent_hook import main as agent_hook

        return agent_hook(sys.argv[2], sys.stdin, sys.stdout, os.environ)
    staged_only = sys.argv[1:] in _FAST_ARGS or (
        sys.argv[1:] == _FRAMEWORK_ARGS and not any(os.environ.get(v) for v in _FRAMEWORK_RANGE)
    )
    if staged_only and nothing_staged_in_memory():
        if sys.argv[1] == "check":
            print("gitmem check: 0 files checked, no problems")
        return 0
    if sys.stdout is None:
        # fd 1 was closed when Python started (`gitmem recall x >&-`): click would drop every
        # answer and exit 0, so the caller would take silence for "no precedent"
        print(
            "gitmem: standard output is closed, so no answer could be given: run it with "
            "standard output open (>/dev/null to discard the answer)",
            file=sys.stderr,
        )
        return USAGE
    from gitmem.cli.main import run

    return run()
