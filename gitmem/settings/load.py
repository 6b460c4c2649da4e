"""gitmem's settings: the project's file, the user's own file, and GITMEM_* variables, merged.

Where settings come from, strongest first, decided key by key:

1. ``GITMEM_*`` environment variables;
2. the user's own file, ``config.toml`` in the platform's config folder for gitmem;
3. the project's file: ``.gitmem.toml`` (table ``[memory]``), or, when that file is absent,
   ``[tool.gitmem]`` in ``pyproject.toml`` (table ``[tool.gitmem.memory]``);
4. the defaults, some of which come from git (the name of the remote the memory is fetched
   from, origin where there is one, and its default branch).

One key breaks that order on purpose: ``memory.autoAdmitAudited`` lets an audit admit memory
without a person, so it holds only when the project's file AND the user's side (their file or
``GITMEM_AUTO_ADMIT_AUDITED``) both say true. A file shared through the repository alone can
never switch it on.

Bad settings never stop gitmem: a value that is the wrong type, unsafe, or unknown is set aside
with one warning line naming the file and the key, and the next source down (in the end the
default) applies. A file that is not valid TOML is ignored as a whole, with one warning naming
its line. The core returns the warnings in ``Settings.warnings``, each a SettingsWarning that
keeps the file and the line it names apart from its text; only the CLI prints them.

One thing does stop gitmem: a project file in the working tree that git converts between the
repository and the disk (a ``working-tree-encoding``, ``filter`` or ``ident`` attribute in
.gitattributes) and whose bytes there are not its staged blob's. Such a file says other
settings than the blob the server's gate and a reviewer read (a commit that adds
``.gitmem.toml working-tree-encoding=UTF-16`` changes no settings blob, yet turned every
checkout's settings into the defaults), and it is no edit of the person's own either, so it is
refused, naming the file and the attribute (gitmem.repo.snapshot.require_as_stored). Line
endings are no such conversion: TOML reads CRLF as LF. Gates never read the working tree: the
pre-commit hook reads the staging index, pre-push, CI and the server a commit's raw blobs.

A project file that a sparse checkout leaves out of the working tree is read as staged, as git
holds it, not taken for no file. A git user expects a sparse checkout to change which files
are on disk, never what the project says: a non-cone pattern such as ``/src/`` leaves the
top-level ``.gitmem.toml`` out (cone mode always keeps top-level files), and read as absent it
turned every setting into its default, so gitmem read and guarded ``.gitmem/`` while HEAD
names another memory folder. "Left out" is git's own word for it: absent from the working tree
while its index entry holds the skip-worktree bit. A file absent without that bit (deleted by
hand, never committed) is still no file. One function decides it, gitmem.repo.sparse.left_out
(this module reads no git), shared by every reader of the settings: the full path's snapshot
(gitmem.repo.snapshot.worktree_snapshot), and the fast paths that read the files without this
module (gitmem.settings.folders.memory_prefixes, for the pre-commit hook's no-op test and the
agents' write guard; the agents' hooks' digest of their inputs, gitmem.agents.state).

The value shapes live in ``schemas/settings.schema.json`` (shipped in the package, usable by
editors); checks that need more than a schema - is ``memory.dir`` a safe folder, is the branch a
name git accepts - run here, in code. This module does not read git itself: the store module
passes in the remote's URL and default branch as strings.
"""

from __future__ import annotations

import functools
import json
import os
import re
import tomllib
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import EllipsisType
from typing import TYPE_CHECKING, Any, Final

from gitmem.errors import UsageError
from gitmem.model.names import (
    BRANCH_PREFIX,
    DEFAULT_DIR,
    DEFAULT_REMOTE,
    PROJECT_SETTINGS,
    PYPROJECT,
    SLUG,
    quoted_id,
)
from gitmem.model.names import DEFAULT_BRANCH as DEFAULT_BRANCH  # settings.policy reads it here
from gitmem.settings.folders import tidy_folder

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

DEFAULT_TYPES: tuple[str, ...] = ("decision", "method", "code-structure", "mistake")

DEFAULT_PROJECT: Final = "local"
#: Why memory.branch is what default_branch chose, in the words `gitmem init` prints, {remote}
#: the remote the default was read from (branch_why).
BRANCH_FROM_REMOTE: Final = "{remote}'s default branch"
BRANCH_FROM_HEAD: Final = "the branch HEAD names; {remote} names no default branch"
BRANCH_FROM_MAIN: Final = "the default; {remote} names no default branch"
BRANCH_FALLBACK: Final = "the default; {remote} names no default branch, HEAD's none with commits"
#: HEAD's branch, in a clone that fetches that branch alone (gitmem.repo.workspace.settings_from):
#: the remote's default, where the memory lives, is not known here, and is not HEAD's branch.
BRANCH_UNKNOWN: Final = "{remote}'s default branch, unknown to this single-branch clone"
#: The reasons that name a remote, as said where there is none (remote None): "origin names
#: no default branch" was said in a repository without an origin or any other remote.
_WITHOUT_REMOTE: Final = {
    BRANCH_FROM_HEAD: "the branch HEAD names; there is no remote",
    BRANCH_FROM_MAIN: "the default; there is no remote",
    BRANCH_FALLBACK: "the default; there is no remote, HEAD's none with commits",
}


def branch_why(why: str, remote: str | None = DEFAULT_REMOTE) -> str:
    """One of the BRANCH_* reasons, naming the remote the default was read from ("origin
    names no default branch" was said in a clone whose remote is upstream), or saying there
    is none (remote None). The same words for the same reason and remote, whoever builds
    them: callers compare them to tell which reason settings_from found."""
    if remote is None:
        return _WITHOUT_REMOTE.get(why, why.format(remote="no remote"))
    return why.format(remote=remote)


DEFAULT_MAX_BODY: Final = 2000
MAX_BODY_LIMIT: Final = 100_000
SLUG_MAX: Final = 64

#: Folders where AI coding agents keep their own memory, rules or chat history. gitmem's memory
#: must not live inside one: the agent would read unreviewed files there as its own, and its
#: own writes would bypass review. Matched per path segment, in any letter case.
AGENT_FOLDERS: Final[tuple[str, ...]] = (
    ".claude",  # Claude Code
    ".cursor",  # Cursor
    ".codex",  # OpenAI Codex
    ".gemini",  # Gemini CLI
    ".windsurf",  # Windsurf
    ".continue",  # Continue
    ".clinerules",  # Cline
    ".cline",  # Cline
    "memory-bank",  # Cline / Roo memory bank
    ".roo",  # Roo Code
    ".kilocode",  # Kilo Code
    ".serena",  # Serena
    ".kiro",  # Kiro
    ".amazonq",  # Amazon Q Developer
    ".junie",  # JetBrains Junie
    ".augment",  # Augment
    ".opencode",  # opencode
    ".openhands",  # OpenHands
    ".qwen",  # Qwen Code
    ".trae",  # Trae
    ".specstory",  # SpecStory chat history
    ".agent",  # generic agent folders
    ".agents",
    "agent-memory",
)
#: Agent folders matched by prefix: ``.aider.tags.cache.v3``, ``.aider.chat.history``, ...
AGENT_FOLDER_PREFIXES: Final[tuple[str, ...]] = (".aider",)
#: Agent folders two segments deep: GitHub Copilot's customisation folders under ``.github``.
AGENT_SUBFOLDERS: Final[tuple[tuple[str, str], ...]] = (
    (".github", "copilot*"),
    (".github", "instructions"),
    (".github", "prompts"),
    (".github", "chatmodes"),
)

_WORD_RE: Final = re.compile(r"[a-z0-9]+")
_SCHEME_RE: Final = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
_DRIVE_RE: Final = re.compile(r"[A-Za-z]:")
_SCP_RE: Final = re.compile(r"(?:[^@/]+@)?[^:/]+:(?P<path>.*)", re.DOTALL)
_SHORT_NAME_RE: Final = re.compile(r"[^.]*~[0-9]+(?:\..*)?")
_TOML_WHERE_RE: Final = re.compile(r"\s*\(at (?:line (\d+), column \d+|end of document)\)\s*$")
_TRUE: Final = frozenset({"1", "true", "yes", "on"})
_FALSE: Final = frozenset({"0", "false", "no", "off"})
_SHOW_MAX: Final = 60
#: The source that GITMEM_* variables make: no file, so its warnings name it in their text.
_ENVIRONMENT: Final = "environment"


@dataclass(frozen=True)
class SettingsWarning:
    """One settings warning: the file it is about and the line there (each None when it has
    none: the environment is no file), and what it says.

    ``str()`` gives the one line every reader prints (``<file>:<line>: <text>``, ``<file>:
    <text>``, or the text alone). The pre-commit SETTINGS rule reads ``file`` and ``line``
    instead of parsing that line back: a parse missed ``.gitmem.toml is a symbolic link``,
    which is no ``<file>:`` shape, and let a commit that left the settings set aside through.
    """

    file: str | None
    line: int | None
    text: str
    #: the file is the text's subject (``.gitmem.toml is a folder: ...``), not its place
    subject: bool = False
    #: something was set aside, so the settings are not what the file says; False for a
    #: setting that does nothing (a built-in type listed in memory.types, pyproject.toml's
    #: table beside .gitmem.toml), which the pre-commit hook does not refuse
    set_aside: bool = True

    def __str__(self) -> str:
        if self.file is None:
            return self.text
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where} {self.text}" if self.subject else f"{where}: {self.text}"


@dataclass(frozen=True)
class Settings:
    """The effective settings, after every source was read, checked and merged."""

    dir: str = DEFAULT_DIR
    project: str = DEFAULT_PROJECT
    branch: str = DEFAULT_BRANCH
    auto_admit_audited: bool = False
    types: tuple[str, ...] = ()
    max_body: int = DEFAULT_MAX_BODY
    require_pusher_match: bool = False
    semantic: bool = True
    owners: tuple[tuple[str, str], ...] = ()  # (entry type, its CODEOWNERS owners), by type
    policy_admins: tuple[str, ...] = ()
    #: which sources may admit a retirement (gitmem propose --retire): people only by default
    retire_by: tuple[str, ...] = ("human",)
    warnings: tuple[SettingsWarning, ...] = ()
    #: Where memory.branch came from, in words (`gitmem init` says it); provenance, not a
    #: setting, so two Settings that agree on every value are equal.
    branch_from: str = field(default=branch_why(BRANCH_FALLBACK), compare=False)
    #: The remote the defaults of memory.branch and memory.project were read from; None in
    #: a repository without a remote.
    remote: str | None = field(default=DEFAULT_REMOTE, compare=False)

    def warning_lines(self) -> list[str]:
        """The warnings as the lines every reader prints and every report carries."""
        return [str(warning) for warning in self.warnings]

    @property
    def all_types(self) -> tuple[str, ...]:
        """Every entry type this project accepts: the four built-in ones, then the extra ones."""
        return DEFAULT_TYPES + tuple(t for t in self.types if t not in DEFAULT_TYPES)

    def check_types(self, types: Iterable[str]) -> None:
        """Refuse types this project does not know (a UsageError listing the known ones): a
        filter by a typo (`decisions`) matches nothing, and an empty answer would read as a
        memory that holds nothing of that kind. Each is quoted briefly, whatever its size."""
        known = self.all_types
        unknown = [t for t in dict.fromkeys(types) if t not in known]
        if unknown:
            raise UsageError(
                f"unknown type{'s' if len(unknown) > 1 else ''} "
                f"{', '.join(quoted_id(t) for t in unknown)}: the known types are "
                f"{', '.join(known)}"
            )


@dataclass(frozen=True)
class _Key:
    """One setting: its TOML name, its Settings field, its variable and what a value must be
    (env_expect: what the variable must hold, where it is not written as in TOML: a list is
    comma-separated there, and a warning showing the TOML form sent people to the wrong one)."""

    name: str
    attr: str
    env: str
    expect: str
    env_expect: str = ""


_KEYS: Final[tuple[_Key, ...]] = (
    _Key("dir", "dir", "GITMEM_DIR", "a folder path relative to the repository root, e.g. .gitmem"),
    _Key(
        "project",
        "project",
        "GITMEM_PROJECT",
        f"a slug of lowercase ASCII letters and digits in words joined by '-', "
        f"at most {SLUG_MAX} characters, e.g. shop-app",
    ),
    _Key("branch", "branch", "GITMEM_BRANCH", "a git branch name, e.g. main"),
    _Key("autoAdmitAudited", "auto_admit_audited", "GITMEM_AUTO_ADMIT_AUDITED", "true or false"),
    _Key(
        "types",
        "types",
        "GITMEM_TYPES",
        "a list of distinct slugs (lowercase ASCII words joined by '-'), e.g. [\"incident\"]",
        "distinct slugs (lowercase ASCII words joined by '-'), comma-separated, e.g. "
        "incident,runbook",
    ),
    _Key(
        "maxBody",
        "max_body",
        "GITMEM_MAX_BODY",
        f"a whole number from 1 to {MAX_BODY_LIMIT}",
    ),
    _Key(
        "requirePusherMatch", "require_pusher_match", "GITMEM_REQUIRE_PUSHER_MATCH", "true or false"
    ),
    _Key("semantic", "semantic", "GITMEM_SEMANTIC", "true or false"),
    _Key(
        "owners",
        "owners",
        "GITMEM_OWNERS",
        "a table from entry types to owners as CODEOWNERS writes them, e.g. "
        '{ decision = "@acme/architects", mistake = "@acme/qa @acme/leads" }',
        "type=owners pairs, comma-separated, e.g. decision=@acme/architects,mistake=@acme/qa",
    ),
    _Key(
        "policyAdmins",
        "policy_admins",
        "GITMEM_POLICY_ADMINS",
        'a list of distinct user names without spaces, brackets or quotes, e.g. ["alice"]',
        "distinct user names without spaces, brackets or quotes, comma-separated, e.g. alice,bob",
    ),
    _Key(
        "retireBy",
        "retire_by",
        "GITMEM_RETIRE_BY",
        'a list of the sources that may retire an entry, from "human" and "audit", e.g. ["human"]',
        "the sources that may retire an entry, from human and audit, comma-separated, e.g. "
        "human,audit",
    ),
)
_BY_NAME: Final[dict[str, _Key]] = {key.name: key for key in _KEYS}
_BY_ATTR: Final[dict[str, _Key]] = {key.attr: key for key in _KEYS}


# --- public helpers -----------------------------------------------------------------------------


def user_settings_path() -> Path:
    """The user's own settings file: ``config.toml`` in the platform's config folder for gitmem.

    On Linux that is ``$XDG_CONFIG_HOME/gitmem/config.toml`` (``~/.config/gitmem/config.toml``).
    """
    import platformdirs

    return Path(platformdirs.user_config_dir("gitmem", appauthor=False)) / "config.toml"


def check_memory_dir(value: str, root: Path | None = None) -> str | None:
    """Say why ``value`` cannot be the memory folder, or return None when it can.

    The folder must stay inside the repository and away from folders that other programs own
    or read as their own: git's ``.git`` and the AI agents' memory folders (``AGENT_FOLDERS``),
    in any letter case and in the spellings Windows and macOS treat as the same name. With the
    work tree's ``root``, a symbolic link along the path is refused, naming the real folder,
    and so is a folder along it that holds a ``.git`` of its own (a submodule's work tree, a
    clone inside this one): another repository's files.
    """
    reason = _dir_problem(value, root)
    return None if reason is None else f"memory.dir {_show(value)} {reason}"


def check_branch_name(name: str) -> str | None:
    """Say why git would refuse ``name`` as a branch name, or return None when it is valid.

    Follows ``git check-ref-format --branch``: no control characters, spaces or any of
    ``~^:?*[\\``, no ``..`` or ``@{``, no part starting with ``.`` or ending with ``.lock``, no
    empty part, not ending with ``.``, not starting with ``-``, and not ``HEAD`` or ``@``.
    """
    if not name:
        return "it is empty"
    for char in name:
        if ord(char) < 0x20 or ord(char) == 0x7F:
            return "it contains a control character"
        if char in " ~^:?*[\\":
            return f"it contains {'a space' if char == ' ' else repr(char)}"
    if name.startswith("-"):
        return "it starts with '-'"
    if name in ("HEAD", "@"):
        return f"git reserves the name {name!r}"
    for bad in ("..", "@{"):
        if bad in name:
            return f"it contains {bad!r}"
    if name.startswith("/") or name.endswith("/") or "//" in name:
        return "it has an empty part (a leading, trailing or doubled '/')"
    if name.endswith("."):
        return "it ends with '.'"
    for part in name.split("/"):
        if part.startswith("."):
            return f"its part {part!r} starts with '.'"
        if part.endswith(".lock"):
            return f"its part {part!r} ends with '.lock'"
    return None


def check_memory_branch(name: str) -> str | None:
    """Say why ``name`` cannot be the memory branch, or return None when it can: a name git
    refuses, or one in the candidates' namespace ``gitmem/``, in any letter case (a
    case-insensitive ref store reads ``GitMem/x`` as ``gitmem/x``), where the memory branch
    would read as a candidate and refusing that candidate would write on the memory."""
    reason = check_branch_name(name)
    if reason is not None:
        return f"is not a valid git branch name ({reason})"
    if name.casefold().startswith(BRANCH_PREFIX):
        return f"is where candidates live ({BRANCH_PREFIX}<id>)"
    if name.startswith("refs/tags/"):
        return "names a tag, which no admission can move"
    if name.startswith("refs/"):
        # git would read it as refs/heads/refs/heads/…, a branch no one has
        short = name.removeprefix("refs/heads/").removeprefix("refs/remotes/origin/")
        return f"is a ref's full name (its branch is {short})"
    return None


def project_from_url(url: str) -> str | None:
    """The project slug a remote URL suggests: its repository name, slugified; None if none.

    Understands ``https://host/org/Shop-App.git``, ``git@host:org/shop_app.git``, ``ssh://`` and
    ``file://`` URLs, local paths (also Windows ones and a work tree's ``.git`` folder), and
    trailing slashes: all of those give ``shop-app``.
    """
    text = url.strip()
    if not text:
        return None
    if _SCHEME_RE.match(text):
        from urllib.parse import unquote, urlsplit

        path = unquote(urlsplit(text).path)
    elif _DRIVE_RE.match(text):
        path = text[2:]
    elif (scp := _SCP_RE.fullmatch(text)) is not None:
        path = scp["path"]
    else:
        path = text
    parts = [part for part in re.split(r"[\\/]+", path) if part not in ("", ".")]
    while parts and parts[-1].lower() == ".git":
        parts.pop()
    if not parts:
        return None
    name = parts[-1]
    if name.lower().endswith(".git"):
        name = name[: -len(".git")]
    return _slugify(name)


# --- loading ------------------------------------------------------------------------------------


def load_settings(
    *,
    project_toml: str | None,
    pyproject_toml: str | None,
    user_toml: str | EllipsisType | None = ...,
    environ: Mapping[str, str] | None = None,
    remote_url: str | None = None,
    remote: str | None = DEFAULT_REMOTE,
    remote_default_branch: str | None = None,
    head_branch: str | None = None,
    main_has_commits: bool = False,
    root: Path | None = None,
) -> Settings:
    """Read every source, set invalid values aside with a warning each, and merge the rest.

    ``project_toml`` and ``pyproject_toml`` are the texts of ``.gitmem.toml`` and
    ``pyproject.toml`` (None when absent); ``user_toml`` the text of the user's own file (by
    default read from ``user_settings_path()`` when it exists); ``environ`` the environment (by
    default ``os.environ``). ``remote_url`` (the URL of ``remote``, the remote the defaults
    are read from, None where there is none: gitmem.repo.refs.branch_facts) gives the default
    of ``memory.project``;
    ``remote_default_branch``, ``head_branch`` (the branch HEAD names, when it has commits) and
    ``main_has_commits`` the default of ``memory.branch`` (default_branch says how); ``root``
    is the work tree, for the symbolic-link check of ``memory.dir`` (None in a bare
    repository, where that check is skipped).

    Never raises for bad settings: every problem becomes one SettingsWarning in
    ``Settings.warnings``.
    The texts are what the caller read: from a working tree, a file git converted on its way
    there was refused before it came here (see the module's docstring).
    """
    env = os.environ if environ is None else environ
    problems: list[_Problem] = []

    project_layer: _Layer | None = None
    if project_toml is not None:
        project_layer = _file_layer(project_toml, PROJECT_SETTINGS, root, problems)
        if pyproject_toml is not None and _tool_gitmem(pyproject_toml) is not None:
            problems.append(
                _Problem(
                    None,
                    # nothing is set aside: .gitmem.toml says where the memory is
                    _about(
                        PYPROJECT,
                        f"[tool.gitmem] is ignored because {PROJECT_SETTINGS} exists: "
                        f"move its settings into {PROJECT_SETTINGS}",
                        set_aside=False,
                    ),
                )
            )
    elif pyproject_toml is not None and "gitmem" in pyproject_toml:
        project_layer = _pyproject_layer(pyproject_toml, root, problems)

    user_layer: _Layer | None = None
    user_text, user_where = _user_text(user_toml, problems)
    if user_text is not None:
        user_layer = _file_layer(user_text, user_where, root, problems)

    env_layer = _env_layer(env, root, problems)

    branch, why = default_branch(remote_default_branch, head_branch, main_has_commits, remote)
    defaults = _Layer(
        "",
        {
            "dir": DEFAULT_DIR,
            "project": (project_from_url(remote_url) if remote_url else None) or DEFAULT_PROJECT,
            "branch": branch,
            "auto_admit_audited": False,
            "types": (),
            "max_body": DEFAULT_MAX_BODY,
            "require_pusher_match": False,
            "semantic": True,
            "owners": (),
            "policy_admins": (),
            "retire_by": ("human",),
        },
    )
    layers = [defaults, project_layer, user_layer, env_layer]
    chosen: dict[str, _Layer] = {}
    for layer in layers:
        if layer is not None:
            for attr in layer.values:
                chosen[attr] = layer
    values = {attr: layer.values[attr] for attr, layer in chosen.items()}

    project_says = bool(project_layer and project_layer.values.get("auto_admit_audited"))
    user_says = bool(
        env_layer.values.get(
            "auto_admit_audited",
            user_layer.values.get("auto_admit_audited", False) if user_layer else False,
        )
    )
    values["auto_admit_audited"] = project_says and user_says

    warnings: list[SettingsWarning] = []
    for problem in problems:
        said = problem.warning
        if problem.attr is None:
            warnings.append(said)
        elif problem.attr == "auto_admit_audited":
            used = "true" if values[problem.attr] else "the default false"
            warnings.append(replace(said, text=f"{said.text}; using {used}"))
        else:
            layer = chosen[problem.attr]
            used = _show_value(values[problem.attr], table=problem.attr == "owners")
            if layer is defaults:
                source = f"the default {used}"
            elif layer is env_layer:
                source = f"{used} from {_BY_ATTR[problem.attr].env}"
            else:
                source = f"{used} from {layer.where}"
            warnings.append(replace(said, text=f"{said.text}; using {source}"))

    return Settings(
        dir=values["dir"],
        project=values["project"],
        branch=values["branch"],
        auto_admit_audited=values["auto_admit_audited"],
        types=values["types"],
        max_body=values["max_body"],
        require_pusher_match=values["require_pusher_match"],
        semantic=values["semantic"],
        owners=values["owners"],
        policy_admins=values["policy_admins"],
        retire_by=values["retire_by"],
        warnings=tuple(warnings),
        remote=remote,
        branch_from=(
            why
            if chosen["branch"] is defaults
            else _BY_ATTR["branch"].env
            if chosen["branch"] is env_layer
            else chosen["branch"].where
        ),
    )


@dataclass(frozen=True)
class _Problem:
    """A value set aside: its warning so far, and the Settings field it concerns."""

    attr: str | None
    warning: SettingsWarning


def _about(
    where: str, text: str, line: int | None = None, *, set_aside: bool = True
) -> SettingsWarning:
    """A warning about the source ``where``: a file, or the environment, which is no file and
    is named in the text; set_aside False for one about a setting that does nothing."""
    if where == _ENVIRONMENT:
        return SettingsWarning(None, None, f"{where}: {text}", set_aside=set_aside)
    return SettingsWarning(where, line, text, set_aside=set_aside)


@dataclass
class _Layer:
    """The valid values one source gave, keyed by Settings field, and where they came from."""

    where: str
    values: dict[str, Any]


def _file_layer(
    text: str, where: str, root: Path | None, problems: list[_Problem]
) -> _Layer | None:
    """The layer of a settings file whose top level holds ``[memory]``; None if not TOML."""
    document = _parse_toml(text, where, "the whole file is ignored until it is fixed", problems)
    if document is None:
        return None
    return _document_layer(document, where, "", root, problems)


def _pyproject_layer(text: str, root: Path | None, problems: list[_Problem]) -> _Layer | None:
    """The layer of ``[tool.gitmem]`` in pyproject.toml; None if it has none or is not TOML."""
    where = PYPROJECT
    document = _parse_toml(
        text, where, "its [tool.gitmem] settings are ignored until it is fixed", problems
    )
    if document is None:
        return None
    tool = document.get("tool")
    section = tool.get("gitmem") if isinstance(tool, dict) else None
    if section is None:
        return None
    if not isinstance(section, dict):
        problems.append(
            _Problem(
                None, _about(where, f"tool.gitmem: expected a table, got {_show(section)}; ignored")
            )
        )
        return None
    return _document_layer(section, where, "tool.gitmem.", root, problems)


def _tool_gitmem(text: str) -> object | None:
    """``[tool.gitmem]`` of a pyproject.toml text, or None (also when it is not valid TOML)."""
    if "gitmem" not in text:
        return None
    try:
        tool = tomllib.loads(text.removeprefix("\ufeff")).get("tool")
    except tomllib.TOMLDecodeError:
        return None
    return tool.get("gitmem") if isinstance(tool, dict) else None


def _document_layer(
    document: Mapping[str, Any],
    where: str,
    prefix: str,
    root: Path | None,
    problems: list[_Problem],
) -> _Layer:
    """Check the top level of a settings document (only ``memory`` is known) and its table."""
    layer = _Layer(where, {})
    for name, value in document.items():
        label = f"{prefix}{_show_key(name)}"
        if name == "memory":
            if isinstance(value, dict):
                layer.values = _check_values(
                    value, where, lambda key: f"{prefix}memory.{key}", root, problems
                )
            else:
                problems.append(
                    _Problem(
                        None,
                        _about(
                            where,
                            f"{label}: expected a table [{prefix}memory], got {_show(value)}; "
                            "ignored",
                        ),
                    )
                )
        elif name in _BY_NAME:
            problems.append(
                _Problem(
                    None,
                    _about(
                        where,
                        f"{label}: unknown setting; put it in the [{prefix}memory] table "
                        f"as {prefix}memory.{name}",
                    ),
                )
            )
        else:
            problems.append(
                _Problem(
                    None,
                    _about(
                        where,
                        f"{label}: unknown setting; gitmem reads only the [{prefix}memory] "
                        "table: remove it",
                    ),
                )
            )
    return layer


def _check_values(
    table: Mapping[str, Any],
    where: str,
    label: Callable[[str], str],
    root: Path | None,
    problems: list[_Problem],
) -> dict[str, Any]:
    """Validate against the schema, then in code; keep what passes, report each key that fails.

    ``label`` names a key the way its source spells it (``memory.maxBody``, ``GITMEM_MAX_BODY``);
    values from GITMEM_* variables (``where`` is the environment) are told the form a variable
    holds (``env_expect``).
    """
    if not table:
        return {}
    failed = _failed_keys(table)
    valid: dict[str, Any] = {}
    for name, value in table.items():
        key = _BY_NAME.get(name)
        if key is None:
            problems.append(
                _Problem(
                    None, _about(where, f"{label(_show_key(name))}: unknown setting; {_hint(name)}")
                )
            )
            continue
        expect = (where == _ENVIRONMENT and key.env_expect) or key.expect
        if name in failed:
            text = f"{label(name)}: expected {expect}, got {_show(value)}"
            problems.append(_Problem(key.attr, _about(where, text)))
            continue
        reason = _semantic_problem(key, value, root, expect)
        if reason is not None:
            said = _about(where, f"{label(name)} {_show(value)} {reason}")
            problems.append(_Problem(key.attr, said))
            continue
        valid[key.attr] = _normalize(key, value)
        if key.name == "types":
            listed = _builtin_types_listed(value, label(name))
            if listed is not None:
                problems.append(_Problem(None, _about(where, listed, set_aside=False)))
    return valid


def _builtin_types_listed(types: list[str], label: str) -> str | None:
    """Why memory.types lists a built-in type, which it needs not, or None. Dropped without a
    word, the line read as a setting that did something."""
    builtin = [t for t in dict.fromkeys(types) if t in DEFAULT_TYPES]
    if not builtin:
        return None
    if len(builtin) == 1:
        return (
            f"{label} holds the built-in type {_show(builtin[0])}, which is accepted without "
            f"being listed: remove it from {label}"
        )
    return (
        f"{label} holds the built-in types {', '.join(_show(t) for t in builtin)}, which are "
        f"accepted without being listed: remove them from {label}"
    )


def _semantic_problem(key: _Key, value: Any, root: Path | None, expect: str) -> str | None:
    """What the schema cannot say: a safe folder, a branch git accepts, slugs to the end."""
    if key.name == "dir":
        return _dir_problem(value, root)
    if key.name == "branch":
        reason = check_memory_branch(value)
        return None if reason is None else f"{reason}: choose a name like main"
    if key.name == "project" and not SLUG.fullmatch(value):
        # the schema's pattern lets a final newline through ('$' in Python's re)
        return f"is not a slug: expected {expect}"
    if key.name == "types":
        for item in value:
            if not SLUG.fullmatch(item):
                return f"holds {_show(item)}, which is not a slug: expected {expect}"
    return None


def _normalize(key: _Key, value: Any) -> Any:
    """The value in the shape Settings holds: tidy folder path, tuple of extra types, int."""
    if key.name == "dir":
        return tidy_folder(value)
    if key.name == "types":
        return tuple(item for item in dict.fromkeys(value) if item not in DEFAULT_TYPES)
    if key.name in ("policyAdmins", "retireBy"):
        return tuple(dict.fromkeys(value))
    if key.name == "maxBody":
        return int(value)  # the schema accepts 2000.0 as an integer
    if key.name == "owners":
        return tuple(sorted((str(t), " ".join(str(o).split())) for t, o in value.items()))
    return value


def _env_layer(env: Mapping[str, str], root: Path | None, problems: list[_Problem]) -> _Layer:
    """The layer of GITMEM_* variables, converted from text to each key's type first.

    An empty variable counts as unset, except GITMEM_TYPES, where empty means no extra types.
    A text that does not convert stays text, so the schema reports it like a file's bad value.
    """
    table: dict[str, Any] = {}
    for key in _KEYS:
        raw = env.get(key.env)
        if raw is None or (raw == "" and key.name != "types"):
            continue
        table[key.name] = _from_env(key, raw)
    values = _check_values(table, _ENVIRONMENT, lambda name: _BY_NAME[name].env, root, problems)
    return _Layer("the environment", values)


def _from_env(key: _Key, raw: str) -> Any:
    """Convert a variable's text to the key's type; leave it as text when it does not fit."""
    if key.name in ("autoAdmitAudited", "requirePusherMatch", "semantic"):
        word = raw.strip().lower()
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
        return raw
    if key.name == "maxBody":
        digits = raw.strip()
        return int(digits) if digits.isascii() and digits.isdigit() else raw
    if key.name in ("types", "policyAdmins", "retireBy"):
        return [item.strip() for item in raw.split(",") if item.strip()]
    if key.name == "owners":
        pairs = [item.partition("=") for item in raw.split(",") if item.strip()]
        if all(sep for _, sep, _ in pairs):
            return {name.strip(): owners.strip() for name, _, owners in pairs}
        return raw
    return raw


def _user_text(
    user_toml: str | EllipsisType | None, problems: list[_Problem]
) -> tuple[str | None, str]:
    """The user's file text and its name; read from disk when the caller passed nothing."""
    if user_toml is None:
        return None, ""
    path = user_settings_path()
    if not isinstance(user_toml, EllipsisType):
        return user_toml, str(path)
    try:
        if not path.is_file():
            # absent is no file; anything else there (a folder, a link to nothing, a FIFO) was
            # silently taken for none, so every setting in it was dropped with nothing said
            if os.path.lexists(path):
                problems.append(
                    _Problem(
                        None,
                        _about(
                            str(path),
                            "not a regular file (a folder, a special file or a link to "
                            "nothing); your own settings are ignored until a file is put there",
                        ),
                    )
                )
            return None, str(path)
        return path.read_text(encoding="utf-8"), str(path)
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        problems.append(
            _Problem(
                None, _about(str(path), f"cannot be read ({reason}); your own settings are ignored")
            )
        )
        return None, str(path)


def _parse_toml(
    text: str, where: str, outcome: str, problems: list[_Problem]
) -> dict[str, Any] | None:
    """Parse TOML, or add one warning naming the file and line and return None."""
    try:
        return tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        found = _TOML_WHERE_RE.search(message)
        line = None
        if found:
            line = int(found[1] or max(1, len(text.splitlines())))
        detail = message[: found.start()] if found else message
        detail = " ".join(detail.split())
        problems.append(_Problem(None, _about(where, f"invalid TOML ({detail}); {outcome}", line)))
        return None


def default_branch(
    remote_default_branch: str | None,
    head_branch: str | None = None,
    main_has_commits: bool = False,
    remote: str | None = DEFAULT_REMOTE,
) -> tuple[str, str]:
    """memory.branch when no setting names it, and why, in words.

    The default branch of remote, the remote the defaults are read from (``origin/HEAD``,
    or ``upstream/HEAD`` in a clone whose only remote is upstream: branch_facts) when git
    knows a valid one; else the branch
    HEAD names when it has commits (a repository on ``master``, or created by a push, which
    leaves no ``origin/HEAD``); else ``main``. One exception keeps a repository on ``main``
    from following whatever branch is checked out: when ``main`` has commits (here, or as
    ``origin/main``) it wins over another branch HEAD names (a feature branch), so a proposal
    is never based on it.
    `gitmem init` writes a choice taken from HEAD into .gitmem.toml, so that switching branches
    later cannot move it."""
    name = (remote_default_branch or "").strip()
    for prefix in (f"refs/remotes/{remote}/", "refs/heads/"):
        name = name.removeprefix(prefix)
    if name and check_branch_name(name) is None:
        return name, branch_why(BRANCH_FROM_REMOTE, remote)
    if main_has_commits:
        return DEFAULT_BRANCH, branch_why(BRANCH_FROM_MAIN, remote)
    if head_branch and check_branch_name(head_branch) is None:
        return head_branch, branch_why(BRANCH_FROM_HEAD, remote)
    return DEFAULT_BRANCH, branch_why(BRANCH_FALLBACK, remote)


# --- schema -------------------------------------------------------------------------------------


SCHEMA_FILE: Final = "settings.schema.json"


def _schema() -> dict[str, Any]:
    """The settings schema shipped inside the package (read once, by gitmem.model.schema)."""
    from gitmem.model.schema import load

    return load(SCHEMA_FILE)


@functools.cache
def _validator() -> Draft202012Validator:
    """A validator for the settings schema, built once; jsonschema is imported only when needed."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(_schema())


def _failed_keys(table: Mapping[str, Any]) -> set[str]:
    """The keys of a ``memory`` table whose values the schema rejects.

    jsonschema decides, but importing it costs more than a git hook's whole time budget, and
    settings are read by every command. So a small checker for the few keywords this schema
    uses answers first, from the same schema: when it finds every value surely valid, jsonschema
    is not needed; whenever it has any doubt, jsonschema decides. The tests hold both to
    jsonschema's verdict on generated values. Why not jsonschema_rs, which the entry schema's
    quick yes uses: its import alone costs the commands that validate no entry (recall, list,
    show, index, the post-* hooks) more than the rest of their settings work; bench/quickread.py
    prints the figure.
    """
    properties = _schema()["properties"]
    if all(
        name not in properties or _surely_valid(properties[name], value)
        for name, value in table.items()
    ):
        return set()
    errors = _validator().iter_errors(dict(table))
    return {str(error.path[0]) for error in errors if error.path}


_ANNOTATIONS: Final = frozenset({"title", "description", "default", "examples", "$comment"})


def _is_integer(value: object) -> bool:
    """JSON Schema's integer: an int that is no bool, or a float with nothing after the point."""
    if isinstance(value, float):
        return value.is_integer()
    return isinstance(value, int) and not isinstance(value, bool)


_TYPES: Final[dict[str, Callable[[object], bool]]] = {
    "string": lambda value: isinstance(value, str),
    "boolean": lambda value: isinstance(value, bool),
    "integer": _is_integer,
    "array": lambda value: isinstance(value, list),
    "object": lambda value: isinstance(value, dict),
}


def _surely_valid(spec: Mapping[str, Any], value: object) -> bool:
    """True when ``value`` passes ``spec`` for sure; False when it fails or the check is unsure.

    Knows only the keywords the settings schema uses, each as JSON Schema 2020-12 defines it
    (lengths in code points, patterns searched, not matched); any other keyword means unsure.
    """
    for keyword, argument in spec.items():
        if keyword in _ANNOTATIONS:
            continue
        if keyword == "type":
            check = _TYPES.get(argument) if isinstance(argument, str) else None
            ok = check is not None and check(value)
        elif keyword == "pattern":
            ok = not isinstance(value, str) or re.search(argument, value) is not None
        elif keyword == "minLength":
            ok = not isinstance(value, str) or len(value) >= argument
        elif keyword == "maxLength":
            ok = not isinstance(value, str) or len(value) <= argument
        elif keyword == "minimum":
            ok = not _is_number(value) or value >= argument
        elif keyword == "maximum":
            ok = not _is_number(value) or value <= argument
        elif keyword == "items":
            ok = not isinstance(value, list) or all(_surely_valid(argument, item) for item in value)
        elif keyword == "maxItems":
            ok = not isinstance(value, list) or len(value) <= argument
        elif keyword == "uniqueItems":
            ok = (
                not argument
                or not isinstance(value, list)
                or (all(isinstance(item, str) for item in value) and len(set(value)) == len(value))
            )
        else:
            ok = False
        if not ok:
            return False
    return True


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _hint(name: str) -> str:
    """What to do about an unknown key: the known key it most likely means, or remove it."""
    known = [key.name for key in _KEYS]
    name = name[:100]
    squashed = name.replace("_", "").replace("-", "").lower()
    for candidate in known:
        if candidate.lower() == squashed:
            return f"did you mean memory.{candidate}?"
    import difflib

    close = difflib.get_close_matches(name, known, n=1)
    if close:
        return f"did you mean memory.{close[0]}?"
    return f"remove it (known: {', '.join(known)})"


# --- memory.dir ---------------------------------------------------------------------------------


def _dir_problem(value: str, root: Path | None) -> str | None:
    """Why ``value`` cannot be the memory folder (a phrase after the value), or None."""
    if not value.strip() or value.strip() == ".":
        return "is empty: name a folder relative to the repository root, e.g. .gitmem"
    if any(unicodedata.category(char) == "Cc" for char in value):
        return "contains a control character: name a plain folder, e.g. .gitmem"
    if "\\" in value:
        return "contains a backslash: write the path with forward slashes, e.g. docs/memory"
    if value.startswith("/") or _DRIVE_RE.match(value):
        return "is absolute: give a folder relative to the repository root, e.g. .gitmem"
    if ":" in value:
        return "contains ':', which Windows cannot store in a name: choose another, e.g. .gitmem"
    parts = [part for part in value.split("/") if part not in ("", ".")]
    if not parts:
        return "is the repository root itself: choose a folder inside it, e.g. .gitmem"
    if parts[0] == "~":
        return "starts with '~', which is not your home here: give a folder relative to the " + (
            "repository root, e.g. .gitmem"
        )
    for part in parts:
        if part == "..":
            return "contains '..': give a folder inside the repository, e.g. .gitmem"
        if not part.rstrip(" ."):
            return f"has the part {part!r}, made only of dots and spaces: choose a plain name"
    reason = _owned_folder(parts)
    if reason is not None:
        return reason
    for part in parts:
        if _SHORT_NAME_RE.fullmatch(part):
            return (
                f"has the part {part!r}, which looks like a Windows short name and can stand for "
                "another folder: choose a plain name, e.g. .gitmem"
            )
        if part != part.strip() or part.endswith("."):
            return (
                f"has the part {part!r}, which starts or ends with a space or ends with '.', "
                "and Windows drops those: choose a plain name, e.g. .gitmem"
            )
    if root is not None:
        return _symlink_problem(parts, root) or _nested_repository_problem(parts, root)
    return None


def fold_name(part: str) -> str:
    """A path part as the file systems gitmem meets compare it (see _fold)."""
    return _fold(part)


def _fold(part: str) -> str:
    """A path part as the file systems gitmem meets compare it.

    Case-insensitive (casefold), blind to the invisible characters macOS ignores in names, and
    to the trailing dots and spaces Windows drops: ``.GIT``, ``.git.`` and ``.g\\u200cit`` all
    fold to ``.git``.
    """
    text = unicodedata.normalize("NFC", part)
    text = "".join(char for char in text if unicodedata.category(char) != "Cf")
    return text.casefold().rstrip(" .")


def _owned_folder(parts: list[str]) -> str | None:
    """Why the path is or lies inside git's folder or an agent's memory folder, or None."""
    folded = [_fold(part) for part in parts]
    for index, name in enumerate(folded):
        shown = "/".join(parts[: index + 1]) + "/"
        where = f"is {shown} itself" if index == len(parts) - 1 else f"is inside {shown}"
        if name == ".git":
            return f"{where}, git's own folder: choose a folder outside it, e.g. .gitmem"
        if name == ".claude":
            return f"{where}: choose a folder outside it, e.g. .gitmem"
        if name in AGENT_FOLDERS or name.startswith(AGENT_FOLDER_PREFIXES):
            return (
                f"{where}, an AI agent's own memory folder: choose a folder outside it, "
                "e.g. .gitmem"
            )
        if index + 1 < len(folded):
            following = folded[index + 1]
            for first, second in AGENT_SUBFOLDERS:
                if name == first and (
                    following.startswith(second[:-1])
                    if second.endswith("*")
                    else following == second
                ):
                    shown = "/".join(parts[: index + 2]) + "/"
                    inside = "is" if index + 2 == len(parts) else "is inside"
                    return (
                        f"{inside} {shown}, GitHub Copilot's folder: choose a folder outside it, "
                        "e.g. .gitmem"
                    )
    return None


def _symlink_problem(parts: list[str], root: Path) -> str | None:
    """Why a symbolic link along the path makes it unsafe, or None.

    Each part that is a link is followed: it must lead inside the repository, and where it lands
    must pass the same checks as a written path (a link to ``.git`` is no way around them).
    """
    try:
        base = root.resolve()
    except (OSError, RuntimeError):
        return None
    current = root
    for index, part in enumerate(parts):
        current = current / part
        if not current.is_symlink():
            if not current.exists():
                return None
            continue
        shown = "/".join(parts[: index + 1])
        try:
            target = current.resolve()
        except (OSError, RuntimeError):
            return f"leads through the symbolic link {shown!r}, which loops: use a real folder"
        if not target.is_relative_to(base):
            return (
                f"leads through the symbolic link {shown!r} to {str(target)!r}, outside the "
                "repository: use a real folder inside the repository, e.g. .gitmem"
            )
        landed = target.relative_to(base).parts
        if not landed:
            return (
                f"leads through the symbolic link {shown!r} to the repository root: "
                "use a real folder, e.g. .gitmem"
            )
        reason = _owned_folder(list(landed))
        if reason is not None:
            return (
                f"leads through the symbolic link {shown!r} to {'/'.join(landed)!r}, which {reason}"
            )
        # git commits the link, not the folder: the files would land under the target in the
        # work tree while gitmem writes and reads them under the link's path in git's trees
        real = "/".join((*landed, *parts[index + 1 :]))
        return (
            f"leads through the symbolic link {shown!r} to {'/'.join(landed)!r}, which git "
            f"commits as a link, not a folder: name the real folder, e.g. {real}"
        )
    return None


def _nested_repository_problem(parts: list[str], root: Path) -> str | None:
    """Why the path lies in another git repository than the work tree's, or None.

    A folder along the path that holds a ``.git`` of its own (a submodule's work tree, or a
    clone inside this one) belongs to that repository: `gitmem init` wrote the memory's files
    into it, where this repository's `git add` refuses them, and a proposal's tree put a
    folder in place of the submodule's commit, so that its admission deleted the submodule
    from the memory branch.
    """
    current = root
    for index, part in enumerate(parts):
        current = current / part
        if not current.is_dir():
            return None
        if os.path.lexists(current / ".git"):
            shown = "/".join(parts[: index + 1]) + "/"
            where = f"is {shown} itself" if index == len(parts) - 1 else f"is inside {shown}"
            return (
                f"{where}, the work tree of another git repository (a submodule or a clone "
                "inside this one): choose a folder of this repository, e.g. .gitmem"
            )
    return None


# --- text ---------------------------------------------------------------------------------------


def _slugify(name: str) -> str | None:
    """Lowercase ASCII words joined by '-', at most SLUG_MAX characters; None when nothing left."""
    ascii_text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    slug = ""
    for word in _WORD_RE.findall(ascii_text.lower()):
        candidate = f"{slug}-{word}" if slug else word
        if len(candidate) > SLUG_MAX:
            if not slug:
                slug = word[:SLUG_MAX]
            break
        slug = candidate
    return slug or None


def _show(value: object) -> str:
    """A value as a warning shows it: on one line, short, TOML-like, control characters escaped."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, str):
        text = repr(value)
    elif isinstance(value, dict):
        text = "a table"
    elif isinstance(value, list | tuple):
        text = "[" + ", ".join(_show(item) for item in value) + "]"
    elif isinstance(value, int | float):
        text = repr(value)
    else:
        text = repr(str(value))
    return text if len(text) <= _SHOW_MAX else text[: _SHOW_MAX - 3] + "..."


def _show_value(value: object, *, table: bool = False) -> str:
    """An effective value as the warning's 'using ...' shows it: strings bare, lists as TOML,
    and a table (memory.owners, held as (key, value) pairs) as a TOML inline table, which
    is how it is written: shown as a list, an owners value set aside read "using the
    default []", a shape the key never takes."""
    if table and isinstance(value, tuple):
        pairs = ", ".join(f"{_show_key(str(k))} = {json.dumps(v)}" for k, v in value)
        return f"{{ {pairs} }}" if pairs else "{}"
    if isinstance(value, str):
        return value
    if isinstance(value, tuple):
        return json.dumps(list(value))
    return _show(value)


def _show_key(name: str) -> str:
    """A key as TOML would write it: bare when it can be, quoted and escaped otherwise."""
    text = name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else json.dumps(name)
    return text if len(text) <= _SHOW_MAX else text[: _SHOW_MAX - 3] + "..."
