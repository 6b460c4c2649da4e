"""The `gitmem` executable's entry point: a fast exit for the pre-commit hook's no-op case.

Every commit runs the pre-commit hook, and most commits touch no memory file.  Importing the
full command line (click, pygit2, YAML, the schemas) costs far more than the answer, so when
the hook's question is "does this commit stage anything under the memory folder?", one
`git diff --cached --name-only` (a few milliseconds; it honours GIT_INDEX_FILE like git
itself) answers it, and nothing else is imported.  Whenever the answer is not a plain no —
a settings file is staged, the memory folder is set by the environment, git fails — the
full check runs.
"""

from __future__ import annotations

import os
import subprocess
import sys

_FAST_ARGS = (["hook", "pre-commit"], ["check", "--staged"])
_SETTINGS = (".gitmem.toml", "pyproject.toml")


def _memory_dir(top: str) -> str | None:
    """The memory folder from the working tree's settings, or None when unsure."""
    if os.environ.get("GITMEM_DIR"):
        return None
    import tomllib

    found = ".gitmem"
    for name, table in ((".gitmem.toml", ("memory",)), ("pyproject.toml", ("tool", "gitmem"))):
        try:
            with open(os.path.join(top, name), "rb") as handle:
                raw = handle.read()
        except FileNotFoundError:
            continue
        except OSError:
            return None
        if name == "pyproject.toml" and b"gitmem" not in raw:
            continue
        try:
            data = tomllib.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, tomllib.TOMLDecodeError):
            return None
        for key in table:
            data = data.get(key, {}) if isinstance(data, dict) else {}
        if name == "pyproject.toml" and isinstance(data, dict):
            data = data.get("memory", data)
        value = data.get("dir") if isinstance(data, dict) else None
        if value is not None:
            return value.strip("/") if isinstance(value, str) and value.strip("/") else None
        if name == ".gitmem.toml":
            break
    return found


def nothing_staged_in_memory() -> bool:
    """True only when git says the staged change touches no memory or settings file."""
    try:
        top = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True, check=True
        ).stdout.strip()
        staged = subprocess.run(
            ["git", "diff", "--cached", "--name-only", "-z", "--no-renames"],
            capture_output=True,
            check=True,
            cwd=top,
        ).stdout.split(b"\0")
    except (OSError, subprocess.CalledProcessError):
        return False
    memory = _memory_dir(top)
    if memory is None:
        return False
    prefix = memory.encode("utf-8") + b"/"
    return not any(
        name.startswith(prefix) or name.decode("utf-8", "replace") in _SETTINGS
        for name in staged
        if name
    )


def main() -> None:
    if sys.argv[1:] in _FAST_ARGS and nothing_staged_in_memory():
        if sys.argv[1] == "check":
            print("gitmem check: 0 files checked, no problems")
        sys.exit(0)
    from gitmem.cli import main as cli_main

    cli_main()
