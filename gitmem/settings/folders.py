"""Every folder that could be the memory folder, read without the settings machinery.

The settings module (gitmem.settings.load) gives the one memory folder, validated, at the
cost of its imports.  Two callers need an answer in a few milliseconds and are better served
by a wider one: the pre-commit hook's no-op test (gitmem.launcher: a staged path under any
candidate folder takes the full check) and the agents' write guard (gitmem.agents.guard: a
write under any candidate folder is denied).  Neither may be narrower than the real folder,
so both take the default, every `dir` any settings source names, valid or not, and "unsure"
(None) when a source cannot be read or the folder comes from the environment.
"""

from __future__ import annotations

import os

from gitmem.model.names import DEFAULT_DIR, PROJECT_SETTINGS, PYPROJECT

__all__ = ["memory_prefixes", "user_settings_file"]


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


def user_settings_file() -> str:
    """The user's own settings file, where gitmem.settings.load reads it."""
    import platformdirs

    return os.path.join(platformdirs.user_config_dir("gitmem", appauthor=False), "config.toml")


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
    sources.append((user_settings_file(), (("memory",),)))
    dirs = {DEFAULT_DIR}
    for path, tables in sources:
        values = _dir_values(path, tables)
        if values is None:
            return None
        dirs.update(value.strip("/") for value in values if value.strip("/"))
    return [d.encode("utf-8") + b"/" for d in dirs]
