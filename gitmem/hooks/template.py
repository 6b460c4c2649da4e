"""The one hook script, rendered per hook name: every hook gitmem installs is this template
with its name filled in (pre-commit's `hook-tmpl` is the model), the distribution's name in
its "not installed" hint, and, in what the installer writes, the interpreter that installed it
and that interpreter's gitmem package, which the script tries before PATH.

The installer renders the script it writes; the files in gitmem/hooks/scripts/ (which the
source tree's hooks/ points at, for people who copy a hook by hand) are the same renderings
without an interpreter, written by `make hooks` (`python -m gitmem.hooks.template FOLDER`),
and a test holds them equal to the template.
"""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path

from gitmem import DISTRIBUTION
from gitmem.errors import UsageError
from gitmem.model.names import HOOK_NAMES

PLACEHOLDER = "@HOOK@"


def render(name: str, python: Path | None = None, package: Path | None = None) -> bytes:
    """The script for hook `name`; with python (an absolute path), the script runs
    `python -m gitmem` first while package (that interpreter's gitmem) exists."""
    if name not in HOOK_NAMES:
        raise UsageError(f"unknown hook {name!r}: gitmem ships {', '.join(HOOK_NAMES)}")
    text = (resources.files("gitmem.hooks") / "hook.tmpl").read_text(encoding="utf-8")
    values = {
        PLACEHOLDER: name,
        "@PYTHON@": sh_quote(str(python) if python else ""),
        "@PACKAGE@": sh_quote(str(package) if python and package else ""),
        "@DISTRIBUTION@": DISTRIBUTION,
    }
    for placeholder, value in values.items():
        text = text.replace(placeholder, value)
    return text.encode("utf-8")


def sh_quote(text: str) -> str:
    """text as one POSIX shell word, in single quotes."""
    return "'" + text.replace("'", "'\\''") + "'"


def write_scripts(folder: Path) -> list[Path]:
    """Write every hook's rendering into folder, executable; returns the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name in HOOK_NAMES:
        path = folder / name
        path.write_bytes(render(name))
        path.chmod(0o755)
        written.append(path)
    return written


if __name__ == "__main__":  # pragma: no cover - `make hooks`
    for path in write_scripts(Path(sys.argv[1])):
        print(f"wrote {path}")
