"""`gitmem init`: the memory folder and, only where a setting differs from its default,
`.gitmem.toml`.  Safe to run twice: an existing file is never overwritten.

It says which memory branch it chose and why (settings.load.default_branch has the rule). A
branch taken from HEAD (a repository on `master` whose remote names no default branch) is
written to `.gitmem.toml`, so that checking out another branch later cannot move the memory.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from gitmem.errors import UsageError
from gitmem.index import indexmd as index_mod
from gitmem.lifecycle.refresh import GITIGNORE
from gitmem.model import refused as refused_mod
from gitmem.model.names import DEFAULT_DIR, PROJECT_SETTINGS, is_slug, quoted_id
from gitmem.repo.atomic import ABANDONED_AGE, refuse_links, remove_temporaries_of
from gitmem.repo.snapshot import worktree_snapshot
from gitmem.repo.store import Store, atomic_write
from gitmem.repo.workspace import branch_default, settings_from
from gitmem.settings.load import (
    BRANCH_FROM_HEAD,
    branch_why,
    check_memory_branch,
    check_memory_dir,
)


@dataclass
class Initialised:
    root: Path  # the working tree initialised
    created: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    branch: str = "main"  # the memory branch chosen
    branch_from: str = ""  # why, in words
    notes: list[str] = field(default_factory=list)  # what the user may want to do about it


#: What init writes in the memory folder.
_FOLDER_FILES = ("refused.md", "INDEX.md", ".gitignore")


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
    # An option given empty (`--dir ""`, an unset shell variable) is refused, not read as no
    # option at all: init would otherwise pick the default silently and write it down.
    if memory_dir is not None and memory_dir != DEFAULT_DIR:
        problem = check_memory_dir(memory_dir, root)
        if problem:
            raise UsageError(problem)
        settings["dir"] = memory_dir.strip("/")
    if project is not None:
        if not is_slug(project):
            raise UsageError(
                f"--project {quoted_id(project)}: lowercase ASCII words joined by '-', "
                "e.g. shop-app"
            )
        settings["project"] = project
    current = settings_from(store, worktree_snapshot(store, root), root)
    fallback, fallback_why = branch_default(store)
    if branch is not None:
        problem = check_memory_branch(branch)
        if problem:
            raise UsageError(f"--branch {quoted_id(branch)} {problem}: choose a name like main")
        out.branch, out.branch_from = branch, "--branch"
        if branch != fallback:
            settings["branch"] = branch
    else:
        out.branch, out.branch_from = current.branch, current.branch_from
        if current.branch_from == fallback_why == branch_why(BRANCH_FROM_HEAD, current.remote):
            # a choice read from HEAD would follow the next checkout: written down instead
            settings["branch"] = current.branch
        head = store.head_branch()
        if (
            current.branch_from == fallback_why
            and head not in (None, current.branch)
            and store.branch_tip(head) is None
        ):
            out.notes.append(
                f"HEAD's branch {head} has no commits yet: to keep the memory on {head}, "
                f"run gitmem init --branch {head}"
            )
    # --dir, else the folder the settings already name (written before init), else .gitmem
    folder_name = settings.get("dir", current.dir)
    if folder_name != current.dir:
        _refuse_another_memory(store, root, current.dir, out.branch, folder_name)
    for rel in (PROJECT_SETTINGS, *(f"{folder_name}/{n}" for n in _FOLDER_FILES), ".gitattributes"):
        refuse_links(root / rel, rel, root)  # a clone's link to a file of the user's
    _refuse_misplaced(root, folder_name)
    _refuse_ignored(
        store, folder_name, [*([PROJECT_SETTINGS] if settings else []), ".gitattributes"]
    )
    # a killed init left the temporary of a file it was writing beside it, untracked in the
    # working tree, where `git add -A` commits it; a file kept because it is there now (the
    # next run's answer) would otherwise leave it for good
    remove_temporaries_of(
        [root / PROJECT_SETTINGS, *(root / folder_name / n for n in _FOLDER_FILES),
         root / ".gitattributes"],
        ABANDONED_AGE,
    )  # fmt: skip
    if settings:
        _create(
            root / PROJECT_SETTINGS,
            "[memory]\n"
            + "".join(f"{key} = {_toml_string(value)}\n" for key, value in settings.items()),
            out,
            PROJECT_SETTINGS,
        )
    if "branch" in settings:
        if PROJECT_SETTINGS in out.created:
            out.branch_from += f"; written to {PROJECT_SETTINGS}"
        else:
            out.notes.append(
                f'{PROJECT_SETTINGS} was kept as it is: add branch = "{settings["branch"]}" '
                "under its [memory] table to keep the memory there"
            )
    folder = root / folder_name
    _create(folder / "refused.md", refused_mod.HEADER, out, f"{folder_name}/refused.md")
    _create(folder / "INDEX.md", index_mod.render([]), out, f"{folder_name}/INDEX.md")
    _create(folder / ".gitignore", GITIGNORE, out, f"{folder_name}/.gitignore")
    pattern = attribute_pattern(f"{folder_name}/INDEX.md")
    _add_attribute(root / ".gitattributes", f"{pattern} merge=gitmem-index\n", out)
    return out


def _refuse_another_memory(store: Store, root: Path, held: str, branch: str, wanted: str) -> None:
    """Refuse to start a memory in another folder than the one that holds entries already
    (in the working tree, or on the memory branch): the settings then name the new folder,
    and every command read it alone, the admitted entries gone from list, recall and check
    without a word (and a letter-case variant of the folder made a LAYOUT problem of it)."""
    entries = root / held / "entries"
    on_disk = entries.is_dir() and any(path.is_file() for path in entries.rglob("*.md"))
    tip = store.branch_tip(branch)
    on_branch = tip is not None and bool(
        store.size(store.subtree(store.tree_of(tip), f"{held}/entries"))
    )
    if on_disk or on_branch:
        raise UsageError(
            f"{held}/ holds this project's memory already: --dir {wanted} would start another, "
            f"empty one, and every gitmem command would read that one alone. Run gitmem init "
            f"without --dir to keep {held}/; moving the memory changes the policy setting dir, "
            "which a policy admin pushes with the folder moved in the same commit"
        )


def _refuse_misplaced(root: Path, folder_name: str) -> None:
    """Refuse, before anything is written, a file where init makes a folder (a file named
    .gitmem) or a folder where it writes a file (a folder named .gitattributes or refused.md).
    Each failed as an unexpected error, and a folder at .gitattributes only after the memory
    folder had been made: init stopped half-way. A folder where a memory file belongs was
    reported as kept."""
    parts = folder_name.split("/")
    for depth in range(1, len(parts) + 1):
        rel = "/".join(parts[:depth])
        if (root / rel).exists() and not (root / rel).is_dir():
            raise UsageError(
                f"{rel}: is a file, where gitmem init makes the memory folder: move it away "
                "(or choose another folder with --dir), then run again"
            )
    for rel in (PROJECT_SETTINGS, *(f"{folder_name}/{n}" for n in _FOLDER_FILES), ".gitattributes"):
        if (root / rel).exists() and not (root / rel).is_file():
            raise UsageError(
                f"{rel}: is a folder (or another thing that is not a file), where gitmem init "
                "keeps a file: move it away, then run again"
            )


def _refuse_ignored(store: Store, folder_name: str, others: list[str]) -> None:
    """Refuse, before anything is written, when git ignores a file init would make (a rule
    in .gitignore, .git/info/exclude or the user's core.excludesFile naming the memory
    folder, or `*.md`): `git add` then left it out, the memory folder was never committed,
    and admit failed later saying INDEX.md had uncommitted changes. A file git tracks is
    never ignored, so an initialised project passes."""
    rels = [*(f"{folder_name}/{name}" for name in _FOLDER_FILES), *others]
    paths = "".join(f"{rel}\0" for rel in rels)
    done = store.run_git("check-ignore", "-v", "-z", "--stdin", input=paths, check=False)
    fields = done.stdout.split("\0") if done.returncode == 0 else []
    for at in range(0, len(fields) - 3, 4):  # 1: nothing ignored; 128: `git add` will say
        source, line, pattern, rel = fields[at : at + 4]
        if not pattern.startswith("!"):  # -v names the exception that keeps a path, too
            raise UsageError(
                f"{rel}: git ignores it ({source}:{line}: {pattern}), so `git add` would leave "
                "the memory out of every commit: remove that rule, or end the top-level "
                f"`.gitignore` with `!/{folder_name}/` and `!/{folder_name}/**`, then run "
                "gitmem init again"
            )


def attribute_pattern(path: str) -> str:
    """path as a .gitattributes pattern that matches it alone. Written bare, a memory folder
    named with a space (`mémoire dir`) split the line: git warned "dir/INDEX.md is not a
    valid attribute name" on every command, and INDEX.md lost its merge driver. Wildcards
    and `!` are escaped, and a path holding a space, a quote or a backslash, or starting with
    `#`, is quoted in C style (as git reads a pattern that begins with a double quote)."""
    pattern = re.sub(r"([*?\[\\!])", r"\\\1", path)  # `!` negates (git refuses that)
    plain = not path.startswith("#")  # a comment
    if plain and pattern == path and not any(c.isspace() or c == '"' for c in path):
        return path
    return '"' + pattern.replace("\\", "\\\\").replace('"', '\\"') + '"'


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
