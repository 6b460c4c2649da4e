"""`gitmem init`: the memory folder and, only where a setting differs from its default,
`.gitmem.toml`.  Safe to run twice: an existing file is never overwritten."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from gitmem.errors import UsageError
from gitmem.index import indexmd as index_mod
from gitmem.lifecycle.refresh import GITIGNORE
from gitmem.model import refused as refused_mod
from gitmem.model.names import DEFAULT_DIR, PROJECT_SETTINGS, is_slug
from gitmem.repo.store import Store, atomic_write
from gitmem.settings.load import check_branch_name, check_memory_dir


@dataclass
class Initialised:
    root: Path  # the working tree initialised
    created: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)


def _toml_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def init(
    store: Store,
    *,
    memory_dir: str | None = None,
    project: str | None = None,
    branch: str | None = None,
) -> Initialised:
    root = store.workdir
    if root is None:
        raise UsageError(
            "gitmem init needs a working tree; in a bare server repository run "
            "`gitmem hooks install --server` instead"
        )
    out = Initialised(root)
    settings: dict[str, str] = {}
    if memory_dir and memory_dir != DEFAULT_DIR:
        problem = check_memory_dir(memory_dir, root)
        if problem:
            raise UsageError(problem)
        settings["dir"] = memory_dir.strip("/")
    if project:
        if not is_slug(project):
            raise UsageError(f"--project {project!r}: lowercase ASCII words joined by '-'")
        settings["project"] = project
    if branch:
        problem = check_branch_name(branch)
        if problem:
            raise UsageError(problem)
        if branch != "main":
            settings["branch"] = branch
    if settings:
        _create(
            root / PROJECT_SETTINGS,
            "[memory]\n"
            + "".join(f"{key} = {_toml_string(value)}\n" for key, value in settings.items()),
            out,
            PROJECT_SETTINGS,
        )
    folder_name = settings.get("dir", DEFAULT_DIR)
    folder = root / folder_name
    _create(folder / "refused.md", refused_mod.HEADER, out, f"{folder_name}/refused.md")
    _create(folder / "INDEX.md", index_mod.render([]), out, f"{folder_name}/INDEX.md")
    _create(folder / ".gitignore", GITIGNORE, out, f"{folder_name}/.gitignore")
    _add_attribute(root / ".gitattributes", f"{folder_name}/INDEX.md merge=gitmem-index\n", out)
    return out


def _add_attribute(path: Path, line: str, out: Initialised) -> None:
    """INDEX.md is merged by regenerating it, never as text (the driver `gitmem hooks install`
    configures); .gitattributes is the project's file, so gitmem only appends its line."""
    try:
        current = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        current = ""
    if line in current.splitlines(keepends=True) or line.strip() in current.splitlines():
        out.kept.append(".gitattributes")
        return
    if current and not current.endswith("\n"):
        current += "\n"
    atomic_write(path, (current + line).encode("utf-8"))
    out.created.append(".gitattributes")


def _create(path: Path, text: str, out: Initialised, label: str) -> None:
    if path.exists() or path.is_symlink():
        out.kept.append(label)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, text.encode("utf-8"))
    out.created.append(label)
