"""Install gitmem's GitHub workflows into a repository (`gitmem init --github`).

The workflows ship inside the package (`gitmem/workflows/`), so `pip install gitmem` is all a
project needs:

- `gitmem-check.yml`: every pull request judged by `gitmem check --range … --format github`;
- `gitmem-admit.yml`: an approval of a `gitmem/<id>` pull request runs `gitmem admit`;
- `gitmem-protect.yml`: every push to the main branch judged by the history rules.

Each installed file starts with a line recording the hash of the text gitmem wrote. While the
file still matches it, gitmem knows nobody edited it and brings it up to date freely; once a
person changed it, gitmem leaves it alone unless asked to replace it (`force`). The push
trigger of the protect workflow follows the project's `memory.branch`.
"""

from __future__ import annotations

import hashlib
import json
import re
from importlib import resources
from pathlib import Path

from gitmem.errors import UsageError
from gitmem.repo.store import atomic_write

WORKFLOWS = ("gitmem-check.yml", "gitmem-admit.yml", "gitmem-protect.yml")
FOLDER = Path(".github") / "workflows"
HASH_LINE = "# Installed by `gitmem init --github`; gitmem updates it while it matches: sha256:"
_HASH = re.compile(r"\A# Installed by `gitmem init --github`[^\n]*sha256:([0-9a-f]{64})\n")
_PUSH_BRANCHES = "    branches: [main]\n"


def template(name: str) -> str:
    """The shipped text of one workflow, as it is in the package."""
    if name not in WORKFLOWS:
        raise UsageError(f"unknown workflow {name!r}: gitmem ships {', '.join(WORKFLOWS)}")
    return (resources.files("gitmem.hooks") / "workflows" / name).read_text(encoding="utf-8")


def render(name: str, *, branch: str = "main") -> str:
    """The text `install_workflows` writes: the template for this branch, under its hash
    line."""
    body = template(name)
    if branch != "main":
        body = body.replace(_PUSH_BRANCHES, f"    branches: [{json.dumps(branch)}]\n", 1)
    return f"{HASH_LINE}{_digest(body)}\n{body}"


def _digest(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def is_pristine(text: str) -> bool:
    """Whether an installed workflow is exactly what gitmem wrote (any gitmem version)."""
    match = _HASH.match(text)
    return match is not None and _digest(text[match.end() :]) == match.group(1)


def install_workflows(root: Path, *, force: bool = False, branch: str | None = None) -> list[str]:
    """Write `.github/workflows/gitmem-*.yml` under root; answer one line per file saying what
    happened. A file someone edited is kept unless force; branch defaults to the project's
    memory.branch."""
    root = Path(root)
    if not root.is_dir():
        raise UsageError(f"{root} is not a folder: run gitmem init --github in a repository")
    if branch is None:
        branch = _memory_branch(root)
    folder = root / FOLDER
    lines: list[str] = []
    for name in WORKFLOWS:
        path = folder / name
        shown = (FOLDER / name).as_posix()
        want = render(name, branch=branch)
        try:
            have: str | None = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            have = None
        except (OSError, UnicodeDecodeError) as exc:
            if not force:
                lines.append(f"kept {shown}: cannot read it ({exc}); --force replaces it")
                continue
            have = ""
        if have == want:
            lines.append(f"unchanged {shown}")
            continue
        if have is not None and not force and not is_pristine(have):
            lines.append(f"kept {shown}: it was edited by hand; --force replaces it")
            continue
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write(path, want.encode("utf-8"))
        if have is None:
            lines.append(f"created {shown}")
        elif is_pristine(have):
            lines.append(f"updated {shown}")
        else:
            lines.append(f"replaced {shown} (--force)")
    return lines


def _memory_branch(root: Path) -> str:
    """memory.branch as the project sets it (main when the settings cannot be read)."""
    from gitmem.errors import GitmemError
    from gitmem.repo.workspace import open_workspace

    try:
        return open_workspace(root).settings.branch
    except GitmemError:
        return "main"
