"""Finishing what a killed admit or refuse left half done.

land_on_main (gitmem.lifecycle.writing) moves main by compare-and-swap, then brings a
checked-out main's memory files and index to the new tree, then closes the candidate branch.
A kill between those steps used to leave the working tree half updated (the entry written,
INDEX.md not, the index not yet written), which the next admit refused as uncommitted
changes. So land_on_main writes a journal before it moves the ref, and removes it once every
step is done; each admit and refuse first finishes what a journal left (recover):

- main still at the journal's old commit: the ref never moved and nothing was touched; the
  journal goes (the objects written are unreachable and harmless);
- main at the journal's new commit, or moved on from it: the memory files and index entries
  the landing changed are brought to main's tree, each one that is still at its old or new
  version (a file edited by hand since is left, and named), and the local candidate branch
  is deleted when it still points at the commit that was judged (and no worktree has it
  checked out: then it is kept, and named); a remote-tracking one is kept, as the landing
  keeps it, until the push deletes the branch on the remote;
- main moved somewhere that does not hold the journal's new commit (the user undid the
  landing: a reset, a rebase): nothing is touched, and the candidate branch is kept, since
  no admission holds it any more.

Run again, an admit or refuse whose landing another clone's push overtook moves main to the
remote's (gitmem.lifecycle.writing._move_main) under the same journal, marked whole_tree: the
remote's main may hold other commits than the memory's, so the whole checkout is brought
along, as `git checkout` brings it (carry_checkout), what the user staged staying staged.

A push the killed command was asked for is not made for it: the next `gitmem admit ID --push`
finds the admission already on main and pushes it (gitmem.lifecycle.admit).

The journal is a small JSON file in the working tree's own git directory (each linked
worktree has its own checkout to finish), written whole and renamed into place. There is one
journal per worktree, so landings in one worktree take turns (one_at_a_time): two admits run at
once used to see each other's half-synced files as uncommitted changes, and each finished and
removed the other's journal. Landings from different worktrees or clones need no turn: main
moves by compare-and-swap, and the loser builds its commit again on the winner's.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from dataclasses import MISSING, asdict, dataclass
from pathlib import Path

from gitmem.errors import UsageError
from gitmem.repo.atomic import remove_temporaries_of
from gitmem.repo.locks import exclusive
from gitmem.repo.refs import is_object_id
from gitmem.repo.store import Store, atomic_write
from gitmem.repo.workspace import Workspace

JOURNAL = "gitmem-landing.json"

#: held (flock) for a whole admit or refuse; the kernel drops it when its process dies
LOCK = "gitmem-landing.lock"
#: What a journal's action starts with for the undo of a landing never pushed.
UNDO = "undo of "


@dataclass(frozen=True)
class Landing:
    """A commit being landed on main: enough to finish it, or to see it never happened."""

    action: str
    branch: str
    dir: str
    old: str
    new: str
    candidate_ref: str
    candidate_tip: str
    checked_out: bool
    #: main followed the remote's (writing._move_main): the move may bring other commits than
    #: the memory's, so the whole checkout follows it (carry_checkout), not the memory folder
    whole_tree: bool = False

    @property
    def command(self) -> str:
        """The gitmem command that finishes the landing when run again: its action, but for
        the undo of a landing never pushed (UNDO, writing._undone_for_the_remote), which only
        a rerun of `admit/refuse --push` makes, and which that same command finishes. The
        pre-commit hook's advice named `gitmem undo of admit ID`, no command at all."""
        if self.action.startswith(UNDO):
            return f"{self.action.removeprefix(UNDO)} --push"
        return self.action


def _path(store: Store) -> Path:
    return store.git_dir / JOURNAL


@contextlib.contextmanager
def one_at_a_time(store: Store) -> Iterator[None]:
    """Wait for any other admit or refuse in this worktree to end, and hold the turn until
    this one has: from the journal it first finishes to the one it removes. An flock, not a
    lock file: one killed outright leaves nothing behind to remove by hand. The gits it runs
    to move main and bring the checkout along hold the turn too (Store.lent_to_git): killed
    outright, it leaves them running, and the next landing waits for them to end."""
    path = store.git_dir / LOCK
    try:  # read-only: flock needs no write access, and a lock once made is taken on any mount
        handle = os.open(path, os.O_RDONLY | os.O_CREAT, 0o666)
    except OSError as exc:
        raise UsageError(
            f"cannot write {path}: {exc.strerror or exc}: make the git directory writable for "
            "you (is it a read-only mount, or another user's?), then run the command again"
        ) from None
    try:
        # a file system that takes no flock gets a held file instead (gitmem.repo.locks)
        with exclusive(handle, path), store.lent_to_git(handle):
            yield  # the turn outlasts a kill until its gits end
    finally:
        os.close(handle)


def begin(store: Store, landing: Landing) -> None:
    """Write the journal; a git directory that cannot take it is refused before main moves
    (no journal, no landing: a kill after the move would leave nothing to finish it)."""
    try:
        atomic_write(_path(store), json.dumps(asdict(landing)).encode("utf-8"))
    except OSError as exc:
        raise UsageError(
            f"cannot write {_path(store)}: {exc.strerror or exc}: make the git directory "
            "writable for you, then run the command again"
        ) from None


def end(store: Store) -> None:
    _path(store).unlink(missing_ok=True)


def pending(store: Store) -> Landing | None:
    """The journal a killed landing left, if any. What is not JSON is dropped: atomic_write
    renames only a whole file, so that is no journal of a landing. JSON that is not a
    journal as gitmem writes it (a field missing, added or of another type: edited by hand)
    is a UsageError naming it, never trusted to move files nor dropped unread."""
    path = _path(store)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        end(store)
        return None
    wrong = _not_a_landing(data)
    if wrong:
        raise UsageError(
            f"{path} is not a landing journal as gitmem writes it ({wrong}): if no admit or "
            "refuse was killed in this checkout, delete it; if one was, delete it, then bring "
            "the memory folder in line with the memory branch (`git checkout <branch> -- "
            "<folder>`), and run the command again"
        )
    return Landing(**data)


def _not_a_landing(data: object) -> str | None:
    """What makes data other than asdict(Landing) of a landing, or None."""
    if not isinstance(data, dict):
        return "not an object"
    fields = Landing.__dataclass_fields__
    extra = sorted(set(data) - set(fields))
    # a field with a default (whole_tree) is missing from a journal an older gitmem wrote
    missing = [
        name for name, field in fields.items() if name not in data and field.default is MISSING
    ]
    if extra or missing:
        return f"field {(extra or missing)[0]!r} {'unknown' if extra else 'missing'}"
    for name in fields:
        kind = bool if name in ("checked_out", "whole_tree") else str
        if name in data and not isinstance(data[name], kind):
            return f"field {name!r} is not a {'boolean' if kind is bool else 'string'}"
    bad = next((name for name in ("old", "new") if not is_object_id(data[name])), None)
    return f"field {bad!r} is not a commit id" if bad else None


def unfinished(store: Store) -> Landing | None:
    """The landing a killed command left unfinished in this checkout: main moved, and its
    files and staging index are still to follow. Until they do, the index holds main's old
    memory, so any commit would undo the landing: pre-commit refuses (gitmem.hooks.dispatch)
    and says which command finishes it."""
    landing = pending(store)
    if landing is None or not landing.checked_out:
        return None
    if store.head_branch() != landing.branch:
        return None
    tip = store.branch_tip(landing.branch)
    if tip is None or tip == landing.old or not store.is_ancestor(landing.new, tip):
        return None
    return landing


def carry_checkout(store: Store, old: str, new: str, *, dry_run: bool = False) -> str | None:
    """Bring a checked-out branch's staging index and files from commit old to new as `git
    checkout` does, by a two-tree merge (`git read-tree -m -u old new`): a change staged or
    made by the user to a path the move leaves alone stays as it is, staged or not, and one
    to a path the move changes, or a file git does not track where new has one, refuses the
    whole move, nothing written. Run again once done, it changes nothing (an entry already
    at new is kept). With dry_run, only whether it would refuse. Returns git's refusal (its
    first error line, which names the file), or None."""
    store.require_index_unlocked()  # git's "index.lock: File exists" is no change of yours
    args = ["read-tree", "-m", "-u", *(["-n"] if dry_run else []), old, new]
    done = store.run_git(*args, check=False)
    if done.returncode == 0:
        return None
    # git's own words ("Entry 'README.md' not uptodate. Cannot merge.") name the file
    return next(
        (line for line in done.stderr.splitlines() if line.startswith("error: ")),
        done.stderr.strip(),
    ).removeprefix("error: ")


def _remove_temporaries(store: Store, landing: Landing) -> None:
    """Delete what a landing killed in the middle of writing a checked-out file left: the
    file's temporary (`.NAME.<hex>.tmp`, written whole, never renamed into place), which sat
    untracked in the memory folder for good (`gitmem check` refuses it as no memory file, and
    `git add -A` staged it). Only the temporaries of the files this landing changes go, and in
    its worktree's turn (one_at_a_time), which every landing, and so every writer of them but
    a `gitmem index` run at the same moment, holds."""
    workdir = store.workdir
    if not landing.checked_out or workdir is None:
        return
    if not (store.has_object(landing.old) and store.has_object(landing.new)):
        return  # collected since (a landing never made, then git gc): no paths to tell
    old = store.subtree(store.tree_of(landing.old), landing.dir)
    new = store.subtree(store.tree_of(landing.new), landing.dir)
    changed = store.diff(old, new)
    remove_temporaries_of(workdir / landing.dir / change.path for change in changed)


def recover(ws: Workspace) -> list[str]:
    """Finish (or drop) what a killed landing left; returns one line per thing done."""
    store = ws.store
    remove_temporaries_of([_path(store)])  # a landing killed as it wrote its journal
    landing = pending(store)
    if landing is None:
        return []
    _remove_temporaries(store, landing)
    done: list[str] = []
    tip = store.branch_tip(landing.branch)
    if tip is None or tip == landing.old:
        end(store)
        return done
    if not store.is_ancestor(landing.new, tip):
        # undone since (a reset, a rebase): the candidate is in no admission, so it stays
        end(store)
        done.append(
            f"{landing.branch} no longer holds the {landing.action} a killed command made: "
            f"left as it is, and the candidate branch kept"
        )
        return done
    if landing.checked_out and store.head_branch() == landing.branch and landing.whole_tree:
        refused = carry_checkout(store, landing.old, tip)
        if refused is not None:
            raise UsageError(
                f"{landing.branch} moved ({landing.action}), but its checked-out files cannot "
                f"follow it yet: they would overwrite changes of yours ({refused}): save your "
                f"version elsewhere and discard it here (git checkout -- <file>; a file git "
                f"does not track: move it away), run the command again, which finishes the "
                f"move, then bring your version back"
            )
        done.append(f"finished updating the checked-out {landing.branch} after {landing.action}")
    elif landing.checked_out and store.head_branch() == landing.branch:
        kept = store.sync_worktree(store.tree_of(landing.old), store.tree_of(tip), landing.dir)
        done.append(f"finished updating the checked-out {landing.branch} after {landing.action}")
        done.extend(
            f"{path}: left as you edited it (it differs from {landing.branch})" for path in kept
        )
    # a remote-tracking candidate's ref is left, as the landing leaves it (_close_candidate):
    # it says the remote holds the branch, and the push that finishes the landing deletes
    # the branch there by it (writing.resume); deleted here, after a push that failed (the
    # remote unreachable), that push left the candidate's branch on the remote for good
    local = landing.candidate_ref.startswith("refs/heads/")
    if local and store.ref_target(landing.candidate_ref) == landing.candidate_tip:
        branch = landing.candidate_ref.removeprefix("refs/heads/")
        folder = store.worktree_on(branch, here_too=True)
        if folder is None:
            store.delete_ref(landing.candidate_ref, landing.candidate_tip)
            done.append(f"deleted {branch}")
        else:  # checked out since the kill: deleted, it left that worktree on no commit
            done.append(
                f"kept {branch}, checked out in the worktree at {folder}: once it is not, "
                f"delete it (git branch -D {branch})"
            )
    end(store)
    return done
