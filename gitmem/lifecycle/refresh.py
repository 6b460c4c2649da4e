"""`gitmem index`: bring the generated files up to date — INDEX.md in the working tree,
the local CANDIDATES.md, and (once recall is installed) the recall cache.

INDEX.md is regenerated from the entries on disk, so a merge that conflicted on it is
resolved by running this; CANDIDATES.md lists the candidate branches, local and remote, and is
git-ignored.  Files are written atomically, and only when their bytes change.
"""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

from gitmem.errors import UsageError
from gitmem.gate.rules import shown
from gitmem.index import indexmd as index_mod
from gitmem.lifecycle.candidates import review
from gitmem.model.fields import MAX_ENTRY_BYTES
from gitmem.model.markdown import escape
from gitmem.model.names import entry_place
from gitmem.repo import gitcli
from gitmem.repo.atomic import open_regular, read_regular, remove_temporaries_of
from gitmem.repo.snapshot import MISSING, WorktreeSnapshot, require_as_stored
from gitmem.repo.store import atomic_write
from gitmem.repo.workspace import Workspace, require_memory_folder

GITIGNORE = "CANDIDATES.md\n"
#: A temporary file of INDEX.md or CANDIDATES.md this many seconds old belongs to no live
#: writer (no lock is held: a write takes milliseconds); a killed one's is deleted (refresh).
TEMPORARY_AGE = 60.0
CANDIDATES_HEADER = (
    "# Candidates\n\nGenerated locally by gitmem from the gitmem/<id> branches; git-ignored.\n"
)


@dataclass
class Refreshed:
    written: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)


def candidates_text(ws: Workspace) -> str:
    """CANDIDATES.md's text. A branch's name is anyone's bytes (a push, then a fetch): one
    that is not UTF-8 is written with its bytes escaped (`caf\\xe9`), as `gitmem check` names
    such a file; as it was, every `gitmem index` and post-checkout refresh ended in an
    unexpected UnicodeEncodeError.

    A branch's name is shown as typed, as a title is: `gitmem/a](evil.example)`, a valid ref
    name, was rendered as a link. A ref name holds no backslash, so those shown() writes for
    a byte that is not UTF-8 are left as they read."""
    lines = []
    for item in review(ws):
        state = "valid" if not item.errors else f"{len(item.errors)} problem(s)"
        name = escape(shown(item.candidate.id), "[]<")
        branch = escape(shown(item.candidate.branch), "[]<")
        # a proposer's unreviewed words, shown as typed (INDEX.md's titles are too)
        title = index_mod.inline(item.title)
        lines.append(f"- [{name}] {state} — {title} (branch {branch})")
    if not lines:
        return CANDIDATES_HEADER + "\nNo pending candidates.\n"
    return CANDIDATES_HEADER + "\n" + "\n".join(lines) + "\n"


def _write_if_changed(ws: Workspace, path: Path, text: str, out: Refreshed, label: str) -> None:
    """Write text to path, as git's checkout would write it there, unless it holds that
    already.

    The file follows the checkout's line-ending rules (core.autocrlf, `eol=crlf` in
    .gitattributes: gitmem.repo.store.Store.as_checked_out), so git stages the LF text
    back from it: written raw, INDEX.md flipped to LF in a CRLF checkout and git listed it
    as modified. The file already holding the raw text is taken as up to date without
    asking git (an LF checkout's every run).

    A folder where the file belongs is the user's to move: the rename that replaces the file
    cannot replace a folder, and failed as an unexpected error (exit 3) naming a temporary."""
    data = text.encode("utf-8")
    if path.is_dir() and not path.is_symlink():
        raise UsageError(
            f"{label} is a folder: gitmem writes a file there; move the folder away, then run "
            "`gitmem index` again"
        )
    wanted = _to_write(ws, path, data)
    if wanted is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, wanted)
        out.written.append(label)


def _to_write(ws: Workspace, path: Path, data: bytes) -> bytes | None:
    """The bytes git's checkout would write at path for the blob data, or None when path
    holds them already (or data itself: an LF checkout's every run, git not asked).

    The file is read as far as the checkout's bytes go: a `working-tree-encoding=UTF-16`
    file with CRLF line ends is over twice its text's UTF-8 bytes, and read only that far it
    never equalled them, so it was rewritten on every run."""
    current = _held(path, 2 * len(data) + 1)  # CRLF line ends at most double it
    if current == data:
        return None
    root = ws.store.workdir
    assert root is not None  # refresh refuses a bare repository
    wanted = ws.store.as_checked_out(path.relative_to(root).as_posix(), data)
    if len(wanted) > 2 * len(data):
        current = _held(path, len(wanted) + 1)
    return None if current == wanted else wanted


def _held(path: Path, most: int) -> bytes | None:
    """What a generated file holds, up to most bytes; None when it is missing or no regular
    file. Neither a link nor a FIFO is followed: a FIFO put there had `gitmem index` and every
    post-checkout hook wait for a writer that never came, and a link to /dev/zero read until
    memory ran out; the write that follows replaces either with the file."""
    try:
        with open_regular(path) as handle:
            return handle.read(most)
    except (OSError, ValueError):
        return None


def refresh(ws: Workspace, *, check_only: bool = False, from_hook: bool = False) -> Refreshed:
    """Regenerate INDEX.md and CANDIDATES.md in the working tree (check_only: report only),
    and bring the recall cache and a kept agents' catalog up to main's tip.

    From a post-* hook, INDEX.md is regenerated only when the memory folder differs from the
    commit checked out: a committed INDEX.md is already exact (admit writes it, the history
    rules hold it to its tree), and regenerating 100,000 entries on every checkout would cost
    seconds for nothing."""
    root = ws.store.workdir
    if root is None:
        raise UsageError("a bare repository has no working tree: nothing to regenerate")
    folder = root / ws.dir
    out = Refreshed()
    # looked at, not followed: a link there had the files written where it led, and a file
    # there was "up to date"
    kind = WorktreeSnapshot(root).kind(ws.dir)
    if kind == MISSING:  # no memory here yet: nothing to regenerate
        return out
    require_memory_folder(ws, kind)
    index_path = folder / "INDEX.md"
    if not check_only:
        # a run killed between writing a file's temporary and renaming it left the temporary
        # untracked in the memory folder, where `gitmem check` refuses it as no memory file
        remove_temporaries_of([index_path, folder / "CANDIDATES.md"], TEMPORARY_AGE)
    if check_only or not from_hook or _changed_since_head(ws):
        index_text = _index_of_checkout(ws, folder)
        if check_only:
            # stale exactly when `gitmem index` would write it: missing, no regular file,
            # not text at all, or other bytes than the checkout writes. Read as text with
            # any line ends, a CRLF or CR-only INDEX.md in a checkout that writes LF was
            # called current, while `gitmem index` rewrote it, git staged the CRs, and lint
            # and the gate called the commit's INDEX.md no index gitmem wrote
            if _to_write(ws, index_path, index_text.encode("utf-8")) is not None:
                out.stale.append(f"{ws.dir}/INDEX.md")
            return out
        _write_if_changed(ws, index_path, index_text, out, f"{ws.dir}/INDEX.md")
    candidates = candidates_text(ws)
    _write_if_changed(ws, folder / "CANDIDATES.md", candidates, out, f"{ws.dir}/CANDIDATES.md")
    warm_recall_cache(ws)
    warm_agents_catalog(ws)
    return out


def _index_of_checkout(ws: Workspace, folder: Path) -> str:
    """INDEX.md for the memory folder as this checkout holds it: the entry files on disk,
    and those a sparse checkout leaves out (skip-worktree, absent by design) as staged.

    Read from disk alone, a sparse checkout without entries/ (`git sparse-checkout set
    '/*' '!/.gitmem/entries/'`) had `gitmem index` write an INDEX.md of no entries, for the
    user to commit, and `gitmem index --check` call the committed one stale. A file of
    entries/ on disk is read from disk as before, skip-worktree or not (the user's)."""
    text = index_mod.generate_from_folder(folder)
    root = ws.store.workdir
    assert root is not None  # refresh refuses a bare repository
    _refuse_converted(ws, root, text)
    listed = ws.store.run_git("ls-files", "-t", "-s", "-z", "--", f"{ws.dir}/entries/", check=False)
    absent = []
    for record in listed.stdout.split("\0") if listed.returncode == 0 else []:
        tag, _, rest = record.partition(" ")
        info, _, path = rest.partition("\t")
        place = entry_place(path, ws.dir)
        fields = info.split()
        if tag == "S" and place and len(fields) == 3 and not os.path.lexists(root / path):
            absent.append((place, fields[1]))
    if not absent:
        return text
    lines = index_mod.parse_lines(text) or []
    lines += [index_mod.line_from_blob(ws.store, t, i, oid) for (t, i), oid in absent]
    return index_mod.render(lines)


#: What git's `ident` attribute writes for `$Id$` on checkout (`$Id: <object id> $`).
_EXPANDED_IDENT = "$Id: "


def _refuse_converted(ws: Workspace, root: Path, text: str) -> None:
    """Refuse (ConvertedFile, exit 2) an entry file whose line git's conversion on checkout
    changed, as every other reader of the memory refuses it
    (gitmem.repo.snapshot.require_as_stored).

    With `working-tree-encoding=UTF-16` for the entries, each checked-out file is UTF-16,
    while its blob is a sound entry: `gitmem index` wrote every line as "does not parse",
    `index --check` agreed, and the INDEX.md committed so was one `gitmem lint` and the gate
    then called out of date. With `ident`, a title holding `$Id$` was indexed as git expands
    it on disk (`$Id: 3f2a… $`), with the same end. Only the lines that show either are asked
    about (a few, where nearly every INDEX.md has none)."""
    if index_mod.UNPARSED not in text and _EXPANDED_IDENT not in text:
        return
    for line in index_mod.parse_lines(text) or []:
        if not line.text.endswith(index_mod.UNPARSED) and _EXPANDED_IDENT not in line.text:
            continue
        path = f"{ws.dir}/entries/{unquote(line.type)}/{unquote(line.id)}.md"
        try:
            with open_regular(root / path) as handle:
                data = handle.read(MAX_ENTRY_BYTES + 1)
        except (OSError, ValueError):
            continue  # gone or replaced meanwhile: listed as it was read
        require_as_stored(ws.store, path, data, staged_first=True)


def _changed_since_head(ws: Workspace) -> bool:
    """Whether any file of the memory folder differs from HEAD (git's stat cache answers
    this without reading the files)."""
    done = ws.store.run_git(
        "status", "--porcelain", "-z", "--untracked-files=all", "--", ws.dir, check=False
    )
    if done.returncode != 0:
        return True
    generated = f"{ws.dir}/CANDIDATES.md"
    return any(record[3:] != generated for record in done.stdout.split("\0") if len(record) > 3)


WARM_COLD_LIMIT = 5000
#: From how many entries the hooks keep git's changed-path filters (gitcli.write_path_filters):
#: below it a type folder's tree is small enough for git to diff at every commit of a walk.
PATH_FILTERS_MIN = 1000


def warm_recall_cache(ws: Workspace) -> bool:
    """Bring the recall cache up to main's tip, so the next recall is warm.  An existing cache
    is updated from the tree diff (cheap at any size); a first build happens here only for
    memories small enough to build in a moment, so a checkout never stalls on it.  In a
    memory of PATH_FILTERS_MIN entries or more, git's changed-path filters are brought up to
    date as well, in the background: the freshness of a recall's hits walks the history."""
    from gitmem.recall.cache import RecallCache

    tip = ws.main_tip()
    if tip is None:
        return False
    memory = ws.store.subtree(ws.store.tree_of(tip), ws.dir)
    # an update leaves the vectors of what was admitted to the next recall with the extra,
    # which loads the model anyway (gitmem.recall.cache: "Vectors left behind")
    cache = RecallCache(ws.store, ws.dir, semantic=ws.settings.semantic, embed_later=True)
    if cache.startable():
        size, warmed = len(cache.load(memory).index), True
    else:
        entries = ws.store.subtree(memory, "entries")
        folders = [ws.store.subtree(entries, name) for name in ws.store.folders(entries)]
        size = sum(ws.store.size(folder) for folder in folders)  # no walk of every entry
        warmed = size <= WARM_COLD_LIMIT
        if warmed:
            cache.load(memory)
    if size >= PATH_FILTERS_MIN:  # after the update, which it would slow down beside it
        # run in the git directory, where git finds the repository without the GIT_DIR a
        # person may have named it by (a work tree without .git, as dotfiles keep)
        gitcli.write_path_filters(ws.store.git_dir)
    return warmed


def warm_agents_catalog(ws: Workspace) -> bool:
    """Bring the agents' catalog up to main's tip when one is kept (agents use this memory),
    so the first prompt or edit after an admission or a pull finds it made: a delta over the
    kept catalog costs this hook 55-75 ms at 100,000 entries (gitmem.lifecycle.catalog),
    where it cost the agent's next hook as much again, git's processes and the scanner's
    import on top.  None is built here: a first catalog is the agents' background warm-up's
    (seconds at that size).  False when there was nothing to bring up."""
    from gitmem.lifecycle import catalog

    common = ws.store.common_dir
    tip = ws.main_tip()
    if tip is None or not catalog.startable(common, ws.dir):
        return False
    memory = ws.store.subtree(ws.store.tree_of(tip), ws.dir)
    entries = ws.store.subtree(memory, "entries") if memory else None
    return entries is not None and catalog.brought_up(common, ws.dir, entries, ws.store) is not None


def merge_driver(base: Path, ours: Path, theirs: Path) -> bool:
    """git's merge driver for INDEX.md: both sides merged entry line by entry line against
    the merge base (gitmem.index.indexmd.merge) and written over ours; False when they cannot
    be merged so (git then leaves the conflict for a person, and `gitmem index` regenerates
    the file). A file that is no regular file (a named pipe, read by a plain open, made the
    driver wait for good for a writer) is a UsageError: git passes the driver regular files
    only."""
    sides = []
    for side in (ours, theirs, base):
        try:
            sides.append(read_regular(side).decode("utf-8", errors="replace"))
        except (ValueError, OSError) as exc:
            # ELOOP: a symbolic link, which read_regular never follows; any other OSError
            # (a missing file) is the command's or exit_code's to name
            if isinstance(exc, OSError) and exc.errno != errno.ELOOP:
                raise
            raise UsageError(
                f"--merge-driver: {side}: not a regular file: git passes the driver the files "
                "of the merge it runs (`gitmem hooks install` sets it up for INDEX.md); to "
                "bring INDEX.md up to date yourself, run `gitmem index`"
            ) from None
    merged = index_mod.merge(sides[2], sides[0], sides[1])
    if merged is None:
        return False
    atomic_write(ours, merged.encode("utf-8"))
    return True
