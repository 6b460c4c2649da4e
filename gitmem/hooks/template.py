"""The one hook script, rendered per hook name: every hook gitmem installs is this template
with its name filled in (pre-commit's `hook-tmpl` is the model).

The installer renders the script it writes; the files in gitmem/hooks/scripts/ (which the
source tree's hooks/ points at, for people who copy a hook by hand) are the same renderings,
written by `make hooks` (`python -m gitmem.hooks.template FOLDER`), and a test holds them
equal to the template.
"""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path

from gitmem.errors import UsageError
from gitmem.model.names import HOOK_NAMES

PLACEHOLDER = "@HOOK@"


def render(name: str) -> bytes:
    """The script for hook `name`."""
    if name not in HOOK_NAMES:
        raise UsageError(f"unknown hook {name!r}: gitmem ships {', '.join(HOOK_NAMES)}")
    text = (resources.files("gitmem.hooks") / "hook.tmpl").read_text(encoding="utf-8")
    return text.replace(PLACEHOLDER, name).encode("utf-8")


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
