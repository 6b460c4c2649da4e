"""The names gitmem gives things in a user's repository, each spelt in one place.

Branches, settings files, hooks and ids are read by several layers (the launcher's fast path,
the settings loader, the gate, the lifecycle, the installer); each takes its name from here,
so a rename is one edit and two layers can never disagree about what a candidate branch is.
This module imports nothing but `re`: the launcher reads it before anything else loads.
"""

from __future__ import annotations

import re
from typing import Final

#: memory.branch when no setting names it and origin names no default (gitmem.settings.load).
DEFAULT_BRANCH: Final = "main"

#: The remote git clones from and pushes to when nothing names another: git's own default
#: (gitmem.repo.store.Store.fetch_remote, gitmem.lifecycle.writing.push_remote).
DEFAULT_REMOTE: Final = "origin"

#: The branch a candidate lives on is BRANCH_PREFIX + its id (`gitmem/<id>`).
BRANCH_PREFIX: Final = "gitmem/"
#: The local ref of every candidate branch.
CANDIDATE_REFS: Final = f"refs/heads/{BRANCH_PREFIX}"

#: The memory folder when no setting names another.
DEFAULT_DIR: Final = ".gitmem"
#: The project's own settings file, and the pyproject.toml that may hold `[tool.gitmem]`.
PROJECT_SETTINGS: Final = ".gitmem.toml"
PYPROJECT: Final = "pyproject.toml"
#: Every file of the working tree that project settings are read from, in that order.
SETTINGS_FILES: Final = (PROJECT_SETTINGS, PYPROJECT)
#: The git attributes with which a checkout writes a file as other bytes than its blob's, in a
#: way that can change what a reader reads: a re-encoding, a smudge filter, `$Id$` expanded
#: (gitmem.repo.snapshot.require_as_stored). Line endings (eol, text, crlf, core.autocrlf) are
#: not among them: TOML reads a CRLF as an LF.
CONVERTING_ATTRIBUTES: Final = ("working-tree-encoding", "filter", "ident")

#: The hooks `gitmem hooks install` puts in a clone, and the one it puts on a server.
CLIENT_HOOKS: Final = ("pre-commit", "pre-push", "post-merge", "post-checkout", "post-rewrite")
SERVER_HOOKS: Final = ("pre-receive",)
HOOK_NAMES: Final = (*CLIENT_HOOKS, *SERVER_HOOKS)

#: A slug: lowercase ASCII words joined by '-' (ids, topics, projects, tags).
SLUG: Final = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
#: The longest id an entry may have (the entry schema's `maxLength` for a slug): no id gitmem
#: makes or admits is longer, so a longer one names nothing and is refused before it reaches
#: a ref name or a tree path (libgit2 rejects ref names past 1,024 bytes with a ValueError).
MAX_ID_LENGTH: Final = 200
#: How much of a text that is not an id a message quotes.
_QUOTED: Final = 60


def candidate_ref(entry_id: str) -> str:
    """The local ref of the candidate branch for entry_id."""
    return CANDIDATE_REFS + entry_id


def candidate_branch(entry_id: str) -> str:
    """The branch name (`gitmem/<id>`) of the candidate for entry_id."""
    return BRANCH_PREFIX + entry_id


def candidate_id_of(ref: str) -> str | None:
    """The candidate id a ref names as a candidate branch: `refs/heads/gitmem/<id>`, or a
    remote-tracking `refs/remotes/<remote>/gitmem/<id>` (the remote's name is the part after
    refs/remotes/, as git names it); None for any other ref. Not checked to be an id."""
    if ref.startswith(CANDIDATE_REFS):
        return ref.removeprefix(CANDIDATE_REFS)
    if not ref.startswith("refs/remotes/"):
        return None
    branch = ref.removeprefix("refs/remotes/").partition("/")[2]
    return branch.removeprefix(BRANCH_PREFIX) if branch.startswith(BRANCH_PREFIX) else None


def is_slug(text: str) -> bool:
    return SLUG.fullmatch(text) is not None


def is_utf8(path: str) -> bool:
    """Whether a path read from git (undecodable bytes kept as surrogates) is UTF-8."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def answers_for_id(path: str, other: str) -> bool:
    """Whether, of two files holding one id, the entry in the file at path answers for the id
    rather than the one at other: the last in path order. The gate refuses a second file with
    an id, but a history that got around it may hold one (a copy in another type's folder);
    every reader that takes one file for an id asks this, so they agree: recall keeps that
    file's entry (gitmem.recall.cache, a build and an update alike), and the site's links by
    id lead to its page (gitmem.site.build), where they led to the first file while recall
    answered with the last one's text."""
    return path > other


def entry_place(path: str, memory_dir: str) -> tuple[str, str] | None:
    """The type and id that a repository path's place gives the file, when the place is an
    entry's: `<memory_dir>/entries/<type>/<id>.md`, UTF-8; None for any other path. With
    memory_dir "", path is relative to the memory folder (`entries/<type>/<id>.md`).

    The one definition of an entry's place that the gate (which refuses a file elsewhere
    below entries/ as LAYOUT) and every reader of entries/ share: a merge tool's copy
    straight under entries/ or in a folder below a type's holds the id of the entry it
    copies, and a reader that took every `.md` recalled, listed or exported it as that entry
    a second time."""
    folder = memory_dir.strip("/")
    prefix = f"{folder}/entries/" if folder else "entries/"
    if not path.startswith(prefix) or not is_utf8(path):
        return None
    parts = path[len(prefix) :].split("/")
    if len(parts) != 2 or not parts[1].endswith(".md"):
        return None
    return parts[0], parts[1][:-3]


def misplaced(path: str, memory_dir: str, entry_id: object, entry_type: object) -> str | None:
    """What is wrong (ID-PATH, in `gitmem check`'s words) with a file at an entry's place
    whose front matter does not say that place's id and type: a copy of an entry committed
    past the hooks as entries/decision/<other>.md, or entries/method/<id>.md of a decision.
    None when id and type are the place's, or when path is no entry's place (LAYOUT, which
    entry_place tells).

    With entry_place, the rule for which files below entries/ are entries, as `gitmem list`
    applies it (lifecycle.read), shared by the other readers (recall, the agents' catalog
    and the export, the site, review, hygiene): a copy holds the id it copies, and a reader
    that took it recalled, exported or showed that id a second time, with the other file's
    text."""
    place = entry_place(path, memory_dir)
    if place is None:
        return None
    kind, place_id = place
    if entry_id != place_id:
        return id_disagrees(entry_id, place_id)
    if entry_type != kind:
        return type_disagrees(entry_type, kind)
    return None


def id_disagrees(entry_id: object, file_id: object) -> str:
    """ID-PATH's words for an id that is not its file's name, as the gate and every reader
    say them."""
    return (
        f"id {entry_id!r} disagrees with the file name {file_id!r}.md: rename the file or "
        "fix the id"
    )


def type_disagrees(entry_type: object, folder: object) -> str:
    """ID-PATH's words for an entry in another type's folder, as the gate and every reader
    say them."""
    return (
        f"type {entry_type!r} disagrees with the folder entries/{folder}/: move the file to "
        f"entries/{entry_type}/"
    )


def is_entry_id(text: str) -> bool:
    """True when text could be an entry's or a candidate's id: a slug no longer than any id
    gitmem makes.  Checked before anything is looked up, so an id of any size costs nothing."""
    return len(text) <= MAX_ID_LENGTH and is_slug(text)


def quoted_id(text: str) -> str:
    """An id as a message quotes it: whole when it is short, else its start and its length, so
    a message about a megabyte of text stays a line (it is shown, logged, sent to an agent)."""
    if len(text) <= _QUOTED:
        return repr(text)
    return f"{text[:_QUOTED]!r}… ({len(text):,} characters)"
