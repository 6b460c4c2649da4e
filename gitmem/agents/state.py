"""What the agents' hooks and `gitmem recall` remember between calls, so that most calls never
open the repository (gitmem.agents.memory uses it).

A hook that shows precedents must know where the memory is: the memory folder and branch, and
whether recall ranks with the semantic extra (the settings, whose loader and its imports cost a
hook a third of its budget), the branch's tip and
the entries tree there (pygit2, whose import alone costs more than the rest of the hook).  Both
are pure functions of a few inputs, so the first hook call that opens the repository records
its answer in the worktree's git directory (`gitmem/agent-hooks.json`, up to KEEP answers, one
per set of inputs), with what it depended on, and later calls use an answer only while every
input is as it was:

- the settings' inputs: the bytes of the project's `.gitmem.toml` and `pyproject.toml` (the
  staged blob's id of one a sparse checkout leaves out: gitmem.repo.sparse.left_out), of
  the user's own settings file, every `GITMEM_*` variable, and what git says the default branch
  depends on (gitmem.repo.refs.branch_facts: HEAD's branch, the remote's default branch, whether
  `main` has commits), digested together (`inputs`); and where the memory folder resolves to
  on disk (a folder replaced by a symbolic link takes the full path);
- the branch's tip, read from git's ref files (gitmem.repo.refs): the entries tree recorded
  for that commit is right by construction, since a commit's tree never changes. A branch
  that moved (an admission, a pull) is followed: the rest of the answer depends on the
  settings' inputs alone, so the new tip's memory and entries trees are asked of git (one
  `git cat-file --batch-check`) and the answer is recorded for that tip.

Anything else - a changed input, refs this reader cannot read, a state file that is
missing, damaged or of another version - and the hook takes the full path (opens the
repository, loads the settings) and records the new answer.  The inputs are digested *before*
the full path reads them, so a settings file edited meanwhile leaves a state whose digest no
later call matches.

This module reads with the standard library only (gitmem.repo.atomic.read_regular, which refuses
anything but a regular file: a FIFO put in the place of a state hung every reader); writing (the
full path's) is an atomic rename of a complete file, so a reader sees an old state or a new one.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Final

from gitmem.model.names import SETTINGS_FILES
from gitmem.recall.freshness import Freshness
from gitmem.repo.refs import GitFiles, Unsure, branch_facts
from gitmem.settings.folders import user_settings_file

__all__ = ["Known", "current", "freshness_known", "inputs", "remember", "remember_freshness"]

#: 2: whether recall uses the semantic extra; 3: freshness kept by an entry's exact path, and
#: with its cited files exact (the agents' catalog had both cleaned: gitmem.lifecycle.catalog);
#: 4: freshness of the commits as they are, never as a replace ref has git read them; 5: the
#: settings' warnings, which a warm `gitmem recall` prints as the full path does
VERSION: Final = 5
NAME: Final = "agent-hooks.json"
#: How many answers the state file keeps, one per set of inputs, newest first: a user's shell
#: and an agent's hooks may differ in their GITMEM_* variables, and neither should undo the
#: other's.
KEEP: Final = 4
#: Settings files larger than this are not digested: the full path reads them every time.
_CAP: Final = 1024 * 1024


class Known:
    """Where the memory is, as of one commit of the memory branch."""

    __slots__ = (
        "branch", "dir", "entries_tree", "files", "memory_tree", "semantic", "tip", "warnings",
    )  # fmt: skip

    def __init__(
        self,
        files: GitFiles | None,
        *,
        dir: str,
        branch: str,
        tip: str | None,
        memory_tree: str | None,
        entries_tree: str | None,
        semantic: bool = True,
        warnings: tuple[str, ...] = (),
    ) -> None:
        self.files = files  # None: git's files are laid out as GitFiles cannot read
        self.dir = dir
        self.branch = branch
        self.tip = tip  # None: the branch has no commit yet
        self.memory_tree = memory_tree  # None: no memory folder at tip
        self.entries_tree = entries_tree  # None: no entries yet
        self.semantic = semantic  # the settings' `semantic`: recall ranks with the extra
        #: the settings' warnings (a file set aside, a value of the wrong type): a pure
        #: function of the digested inputs, so a warm recall says them without the loader
        self.warnings = warnings


def _read(path: str) -> bytes | None:
    """A settings file as digested: "-" when absent, "+<length>:" and its bytes when read;
    None when it cannot be read, is too large or is no regular file (what the full path
    ignores, with a warning, it answers for every call). Opened without waiting: a FIFO in a
    settings file's place made every hook and recall wait for a writer forever."""
    from gitmem.repo.atomic import open_regular  # a folder there is refused, not raised

    try:
        with open_regular(path, follow_links=True) as handle:
            data = handle.read(_CAP + 1)
    except FileNotFoundError:
        return b"-"
    except (OSError, ValueError):
        return None
    return b"+%d:" % len(data) + data if len(data) <= _CAP else None


def inputs(root: str, files: GitFiles) -> str | None:
    """The digest of everything the memory folder and branch depend on, or None when one of
    them cannot be read (the caller takes the full path)."""
    digest = hashlib.sha256(b"gitmem agent hooks %d\0" % VERSION)
    for path in (*(os.path.join(root, name) for name in SETTINGS_FILES), user_settings_file()):
        data = _read(path)
        if data is None:
            return None
        digest.update(data)
    # a settings file the sparse checkout leaves out is read as staged (left_out): its blob
    # is an input, or a pull that changed it left every hook on the old memory folder
    from gitmem.repo.sparse import left_out  # a stat, unless the checkout may be sparse

    staged = left_out(root, SETTINGS_FILES)
    if staged is None:
        return None
    digest.update(json.dumps(sorted(staged.items())).encode("utf-8", "surrogateescape"))
    env = sorted((k, v) for k, v in os.environ.items() if k.startswith("GITMEM_"))
    try:
        facts = branch_facts(files)
    except Unsure:
        return None
    digest.update(json.dumps([env, sorted(facts.items())]).encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def _where(files: GitFiles) -> Path:
    return files.git_dir / "gitmem" / NAME


def _remembered(files: GitFiles) -> list[dict[str, Any]]:
    """The answers the state file keeps, newest first ([] when it cannot be read as written)."""
    from gitmem.repo.atomic import read_regular

    try:
        data = json.loads(read_regular(_where(files)))
    except (OSError, ValueError):
        return []
    if not isinstance(data, dict) or data.get("version") != VERSION:
        return []
    states = data.get("states")
    return [s for s in states if isinstance(s, dict)] if isinstance(states, list) else []


def current(root: str) -> Known | None:
    """What a full path recorded for these inputs, when every one still matches; else None."""
    files = GitFiles.at(root)
    if files is None:
        return None
    states = _remembered(files)
    if not states:
        return None
    try:
        digest = inputs(root, files)
        state = next(
            (s for s in states if s["inputs"] == digest and s["root"] == os.path.realpath(root)),
            None,
        )
        if digest is None or state is None:
            return None
        warnings = state["warnings"]
        if not isinstance(warnings, list):
            return None
        tip = files.branch_tip(str(state["branch"]))
        moved = tip != state["tip"]
        if state["real_dir"] != os.path.realpath(os.path.join(root, str(state["dir"]))):
            return None
        known = Known(
            files,
            dir=str(state["dir"]),
            branch=str(state["branch"]),
            tip=tip,
            memory_tree=state["memory_tree"],
            entries_tree=state["entries_tree"],
            semantic=state["semantic"] is True,
            warnings=tuple(str(w) for w in warnings),
        )
    except (Unsure, KeyError, TypeError):
        return None
    if moved:  # followed to the branch's new tip, and remembered there
        if not _followed(root, known):
            return None
        remember(root, digest, known)
    return known


def _followed(root: str, known: Known) -> bool:
    """Whether known, remembered for another tip of its branch, now holds the memory and
    entries trees of known.tip, asked of git (gitmem.repo.gitcli.trees_at): the rest of it is
    a function of the settings' inputs alone, which are as they were. After each admission
    the first hook or recall opened the repository (pygit2's import alone is some 110-170 ms)
    only to learn these two ids."""
    from gitmem.repo.gitcli import trees_at

    if known.tip is None:
        known.memory_tree = known.entries_tree = None
        return True
    found = trees_at(Path(root), known.tip, [known.dir, f"{known.dir}/entries"])
    if found is None:
        return False
    known.memory_tree = found[0]
    known.entries_tree = found[1] if found[0] is not None else None
    return True


def remember(root: str, digest: str, known: Known) -> None:
    """Record what the full path found (digest: `inputs` as read before it began), newest
    first, in place of an older answer for the same inputs; a state that cannot be written is
    no failure, the next call takes the full path again (and two writers racing lose at most
    one of their answers)."""
    from gitmem.repo.atomic import atomic_write

    if known.files is None:
        return
    where = os.path.realpath(root)
    state: dict[str, Any] = {
        "root": where,
        "inputs": digest,
        "dir": known.dir,
        "real_dir": os.path.realpath(os.path.join(root, known.dir)),
        "branch": known.branch,
        "tip": known.tip,
        "memory_tree": known.memory_tree,
        "entries_tree": known.entries_tree,
        "semantic": known.semantic,
        "warnings": list(known.warnings),
    }
    others = [
        s for s in _remembered(known.files) if (s.get("inputs"), s.get("root")) != (digest, where)
    ]
    path = _where(known.files)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {"version": VERSION, "states": [state, *others][:KEEP]}
        atomic_write(path, json.dumps(data, indent=1).encode("utf-8"))
    except OSError:
        pass


# -- freshness, as of one tip ------------------------------------------------------------------
#
# How an entry stands at a commit (commits that touched its cited files since its admission,
# cited files gone) is a pure function of that commit's history, its commits read as they are
# (gitmem.recall.freshness has git read no replace ref, which would change what a commit
# reads as while its id stays): the hooks keep what git answered for the entries they showed,
# in one file named for the tip (`gitmem/agents/freshness-<tip>.json` in the common
# directory), so an agent editing the same file again costs no git process.  A file of
# another tip is never read (the name is the key), nor one written before a shallow clone's
# history was deepened (_boundary); writing one removes the others.

#: At most this many entries are kept for one tip (a session shows far fewer).
FRESHNESS_CAP: Final = 2000


def _freshness_file(common_dir: Path, tip: str) -> Path:
    return common_dir / "gitmem" / "agents" / f"freshness-{tip}.json"


def _boundary(common_dir: Path) -> str | None:
    """What, beside the tip, decides the history freshness is counted on: a shallow clone's
    boundary (git's `shallow` file, digested; "-" when the clone is whole), where git calls
    every file added. A deepening fetch (`git fetch --unshallow`) moves it and leaves the
    tip, and counts kept for the tip alone went on being read. None when it cannot be read
    (nothing is kept or read then)."""
    from gitmem.repo.atomic import read_regular

    try:
        return hashlib.sha256(read_regular(common_dir / "shallow")).hexdigest()
    except FileNotFoundError:
        return "-"
    except (OSError, ValueError):
        return None


def freshness_known(common_dir: Path, tip: str) -> dict[str, Freshness]:
    """What earlier calls learnt of the entries' freshness at tip, by entry path ({} when
    nothing, or when the file cannot be read as written)."""
    from gitmem.repo.atomic import read_regular

    boundary = _boundary(common_dir)
    if boundary is None:
        return {}
    try:
        state = json.loads(read_regular(_freshness_file(common_dir, tip)))
        if state.get("version") != VERSION or state.get("tip") != tip:
            return {}
        if state.get("boundary") != boundary:
            return {}
        return {
            # null: unknown, a shallow clone's (gitmem.recall.freshness.SHALLOW)
            str(path): Freshness(
                None if stale is None else int(stale), tuple(str(f) for f in missing)
            )
            for path, (stale, missing) in state["entries"].items()
        }
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return {}


def remember_freshness(common_dir: Path, tip: str, known: dict[str, Freshness]) -> None:
    """Keep known (freshness at tip by entry path) for the next calls; a file that cannot be
    written is no failure (they ask git again)."""
    from gitmem.repo.atomic import atomic_write

    boundary = _boundary(common_dir)
    if len(known) > FRESHNESS_CAP or boundary is None:
        return
    path = _freshness_file(common_dir, tip)
    state = {
        "version": VERSION,
        "tip": tip,
        "boundary": boundary,
        "entries": {p: [f.stale_commits, list(f.missing_files)] for p, f in known.items()},
    }
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, json.dumps(state).encode("utf-8"))
        for other in path.parent.glob("freshness-*.json"):
            if other != path:
                other.unlink(missing_ok=True)
    except OSError:
        pass
