"""The `gitmem` executable's entry point: a fast exit for the pre-commit hook's no-op case.

Every commit runs the pre-commit hook, and most commits touch no memory file.  Importing the
full command line (click, pygit2, YAML, the schemas) costs far more than the answer, so when
the hook's question is "does this commit stage anything under the memory folder?",
`git diff --cached --name-only` (a few milliseconds; it honours GIT_INDEX_FILE like git
itself) answers it, and nothing else is imported.  Whenever the answer is not a plain no —
a settings file is staged, the memory folder is set by the environment, git fails — the
full check runs.
"""

from __future__ import annotations

import os
import sys
from typing import NoReturn

from gitmem.model.names import DEFAULT_DIR, PROJECT_SETTINGS, PYPROJECT, SETTINGS_FILES
from gitmem.repo.gitcli import hook_output

_FAST_ARGS = (["hook", "pre-commit"], ["check", "--staged"])


def _dir_values(path: str, tables: tuple[tuple[str, ...], ...]) -> list[str] | None:
    """Every `dir` a settings file names in the given tables ([] when it names none or does
    not exist); None when it cannot be read, so the caller takes the full check."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except FileNotFoundError:
        return []
    except OSError:
        return None
    if b"gitmem" not in raw and b"memory" not in raw:
        return []
    import tomllib

    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    values = []
    for keys in tables:
        node: object = data
        for key in keys:
            node = node.get(key) if isinstance(node, dict) else None
        if isinstance(node, dict) and "dir" in node:
            if not isinstance(node["dir"], str):
                return None
            values.append(node["dir"])
    return values


def memory_prefixes(top: str) -> list[bytes] | None:
    """Every folder that could be the memory folder, as path prefixes; None when unsure.

    Deliberately wider than the settings module's answer: the default folder and every
    `dir` any settings source names (the project file, pyproject.toml, the user's own file),
    valid or not.  A staged path under any of them takes the full check, so a setting that
    the full check would set aside can never make this fast path skip real memory."""
    if os.environ.get("GITMEM_DIR"):
        return None
    sources = [
        (os.path.join(top, PROJECT_SETTINGS), (("memory",),)),
        (os.path.join(top, PYPROJECT), (("tool", "gitmem", "memory"), ("tool", "gitmem"))),
    ]
    import platformdirs

    user = os.path.join(platformdirs.user_config_dir("gitmem", appauthor=False), "config.toml")
    sources.append((user, (("memory",),)))
    dirs = {DEFAULT_DIR}
    for path, tables in sources:
        values = _dir_values(path, tables)
        if values is None:
            return None
        dirs.update(value.strip("/") for value in values if value.strip("/"))
    return [d.encode("utf-8") + b"/" for d in dirs]


def nothing_staged_in_memory() -> bool:
    """True only when git says the staged change touches no memory or settings file, and the
    settings files in the working tree are the ones git is committing."""
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
    prefixes = memory_prefixes(top)
    if prefixes is None or unstaged.strip(b"\0"):
        return False
    settings = {name.encode("utf-8") for name in SETTINGS_FILES}
    return not any(
        name in settings or any(name.startswith(prefix) for prefix in prefixes)
        for name in staged.split(b"\0")
        if name
    )


def main() -> NoReturn:
    """The `gitmem` command: the fast answer when it is one, else the command line's exit code
    (the only place gitmem ends its process)."""
    if sys.argv[1:] in _FAST_ARGS and nothing_staged_in_memory():
        if sys.argv[1] == "check":
            print("gitmem check: 0 files checked, no problems")
        sys.exit(0)
    from gitmem.cli.main import run

    sys.exit(run())
