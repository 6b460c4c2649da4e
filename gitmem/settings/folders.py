"""Every folder that could be the memory folder, read without the settings machinery.

The settings module (gitmem.settings.load) gives the one memory folder, validated, at the
cost of its imports.  Two callers need an answer in a few milliseconds and are better served
by a wider one: the pre-commit hook's no-op test (gitmem.launcher: a staged path under any
candidate folder takes the full check) and the agents' write guard (gitmem.agents.guard: a
write under any candidate folder is denied).  Neither may be narrower than the real folder,
so both take the default, every `dir` any settings source names, valid or not, and "unsure"
(None) when a source cannot be read, git may convert a settings file on checkout, or the
folder comes from the environment.

A settings file that a sparse checkout leaves out of the work tree is read as staged, as every
reader of the settings reads it (gitmem.repo.sparse.left_out, the one place that decides it,
given to memory_prefixes by its callers since this module runs no git; the settings module's
docstring says why).
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Callable

from gitmem.model.names import CONVERTING_ATTRIBUTES, DEFAULT_DIR, PROJECT_SETTINGS, PYPROJECT

__all__ = ["Staged", "memory_prefixes", "user_settings_file"]

#: Reads a settings file a sparse checkout leaves out (gitmem.repo.sparse.left_out_bytes):
#: (work tree, file name) -> its staged bytes, b"" when none is left out, None when unsure.
Staged = Callable[[str, str], bytes | None]


def _dir_values(
    path: str, tables: tuple[tuple[str, ...], ...], left_out: Callable[[], bytes | None]
) -> list[str] | None:
    """Every `dir` a settings file names in the given tables ([] when it names none or does
    not exist); None when it cannot be read, so the caller takes the full check. A file
    absent from the work tree is what left_out reads: as staged, when a sparse checkout
    leaves it out."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except FileNotFoundError:
        staged = left_out()
        if staged is None:
            return None
        raw = staged
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


def _may_convert(top: str) -> bool:
    """Whether the work tree's top-level .gitattributes may give a settings file an attribute
    with which git's checkout writes other bytes than its blob's (CONVERTING_ATTRIBUTES).

    A commit that adds `.gitmem.toml working-tree-encoding=UTF-16` changes no settings blob,
    but the checkout's UTF-16 file named no `dir` here (its bytes hold no b"memory"), and a
    filter could name another: the answer left out the memory folder the settings' blob
    names, so the pre-commit hook skipped a commit of memory files as touching none, and the
    agents' guard let a write into the memory folder through. Such a file makes the answer
    unsure: the full path reads the settings as git holds them. Only the top-level
    .gitattributes can match a top-level file, and macros are defined there alone; the
    repository's info/attributes and core.attributesFile are the person's own. Wider than
    git on purpose (any letter case, a quoted pattern, `*` across folders, unset values): a
    false alarm costs the full path, no more; git LFS's `*.psd filter=lfs` is none."""
    try:
        with open(os.path.join(top, ".gitattributes"), "rb") as handle:
            raw = handle.read()
    except FileNotFoundError:
        return False
    except OSError:
        return True
    if not any(name.encode("ascii") in raw for name in CONVERTING_ATTRIBUTES):
        return False
    converting = set(CONVERTING_ATTRIBUTES)
    for line in raw.decode("utf-8", "replace").splitlines():
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        names = {field.lstrip("-!").partition("=")[0] for field in fields[1:]}
        if fields[0].startswith("[attr]"):
            if names & converting:
                converting.add(fields[0].removeprefix("[attr]"))
        elif names & converting and _may_match_settings(fields[0]):
            return True
    return False


def _may_match_settings(pattern: str) -> bool:
    """Whether a .gitattributes pattern may match a top-level settings file (git's `[^a]`
    read as fnmatch's `[!a]`, an escaping backslash dropped: wider, never narrower)."""
    if pattern.startswith('"'):
        return True  # a quoted pattern: not unquoted here
    pattern = pattern.removeprefix("/").removeprefix("**/").lower()
    pattern = pattern.replace("[^", "[!").replace("\\", "")
    return any(fnmatch.fnmatchcase(name.lower(), pattern) for name in (PROJECT_SETTINGS, PYPROJECT))


def user_settings_file() -> str:
    """The user's own settings file, where gitmem.settings.load reads it."""
    import platformdirs

    return os.path.join(platformdirs.user_config_dir("gitmem", appauthor=False), "config.toml")


def memory_prefixes(top: str, staged: Staged) -> list[bytes] | None:
    """Every folder that could be the memory folder, as path prefixes; None when unsure.

    Deliberately wider than the settings module's answer: the default folder and every
    `dir` any settings source names (the project file, pyproject.toml, the user's own file),
    valid or not.  A staged path under any of them takes the full check, so a setting that
    the full check would set aside can never make this fast path skip real memory. A project
    file a sparse checkout leaves out is read as staged (gitmem.repo.sparse.left_out_bytes,
    given as staged: this module runs no git), as the full path reads it."""
    if os.environ.get("GITMEM_DIR") or _may_convert(top):
        return None
    found = [
        _dir_values(
            os.path.join(top, PROJECT_SETTINGS),
            (("memory",),),
            lambda: staged(top, PROJECT_SETTINGS),
        ),
        _dir_values(
            os.path.join(top, PYPROJECT),
            (("tool", "gitmem", "memory"), ("tool", "gitmem")),
            lambda: staged(top, PYPROJECT),
        ),
        _dir_values(user_settings_file(), (("memory",),), lambda: b""),
    ]
    dirs = {DEFAULT_DIR}
    for values in found:
        if values is None:
            return None
        # as the loader reads them: left as written, `./mem/` was the prefix of no staged
        # path, so the fast path found no memory staged and passed a commit whose memory
        # the full check refuses
        dirs.update(folder for value in values if (folder := tidy_folder(value)))
    return [d.encode("utf-8") + b"/" for d in dirs]


def tidy_folder(value: str) -> str:
    """A `dir` value as the folder git names its files under, the shape Settings holds it
    in: `.` parts and doubled slashes dropped (`./mem` and `mem//sub` are mem and mem/sub)."""
    return "/".join(part for part in value.split("/") if part not in ("", "."))
