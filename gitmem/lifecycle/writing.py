"""How the lifecycle writes: objects first, refs by compare-and-swap, pushes with the user's git.

Every write goes to the object database first; a ref moves only by compare-and-swap
(`git update-ref REF NEW OLD`).  So a crash or a kill at any point leaves either the old ref or
the new one, never a half-written ref: objects written before a kill are unreachable and
harmless.  What follows the ref (a checked-out main's files and index, the candidate branch)
is journaled first, and the next admit or refuse finishes it (gitmem.lifecycle.recovery), so
running a command again after a kill at any point succeeds.  When main moved meanwhile,
admit and refuse rebuild their commit on the new tip and try again (land_on_main); they
never overwrite.
"""

from __future__ import annotations

import datetime as dt
import functools
import os
import signal
from collections.abc import Callable, Sequence
from typing import Concatenate, NamedTuple, ParamSpec, TypeVar

from gitmem.errors import INTERRUPTED, GitmemError, RuleError, UsageError
from gitmem.lifecycle import recovery
from gitmem.lifecycle.candidates import Candidate, lookup_candidate
from gitmem.lifecycle.entries import find_entry
from gitmem.model import refused as refused_mod
from gitmem.model.names import DEFAULT_REMOTE as DEFAULT_REMOTE
from gitmem.model.names import candidate_branch, candidate_ref
from gitmem.repo.store import Store
from gitmem.repo.workspace import Workspace

MAX_CAS_RETRIES = 20
#: test hook: "admit-before-ref" kills the process at that point (FAULT_POINTS lists a
#: landing's; "propose-after-ref" kills a proposal once its branch is created;
#: "admit-move-after-ref" a run again once main moved to the remote's, before its checkout
#: followed: _move_main)
FAULT_ENV = "GITMEM_FAULT"
#: Where a test may kill a landing (prefixed by the action: "admit-…", "refuse-…"); the
#: working tree's index is synced ("sync-index" comes before it), then its files one by one
#: ("sync-file-1", …).
FAULT_POINTS = ("before-ref", "after-ref", "sync-file-1", "sync-index", "after-sync", "after-close")

#: make(main tip, its tree) -> (the new tree, the commit's parents, its message)
MakeCommit = Callable[[str, str], tuple[str, list[str], str]]


P = ParamSpec("P")
R = TypeVar("R")


def one_landing_at_a_time(
    command: Callable[Concatenate[Workspace, P], R],
) -> Callable[Concatenate[Workspace, P], R]:
    """A command that lands on main (admit, refuse) runs whole in its worktree's turn
    (recovery.one_at_a_time): from resume, which finishes a killed landing, to its own end."""

    @functools.wraps(command)
    def in_turn(ws: Workspace, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with recovery.one_at_a_time(ws.store):
            return command(ws, *args, **kwargs)

    return in_turn


def today() -> str:
    return dt.datetime.now(dt.UTC).date().isoformat()


def default_human(store: Store) -> str:
    name = store.user_name()
    if not name:
        raise UsageError(
            "cannot tell who you are: set git's user.name, or pass --by human:NAME / "
            "--source human:NAME"
        )
    return f"human:{name}"


def no_commits(ws: Workspace) -> UsageError:
    """The error for a memory branch without commits: which branch, why it is the one, and
    what to do (a candidate needs a parent, an admission a main to merge into)."""
    head = ws.store.head_branch()
    # a clone of a project whose memory has a branch of its own: the branch is on the remote,
    # and moving the memory to HEAD's branch (the advice below) would be wrong
    on_remote = ws.branch_only_on_remote()
    if on_remote is not None:
        return on_remote
    other = (
        f", or keep the memory on {head}: gitmem init --branch {head}"
        if head and head != ws.branch and ws.store.branch_tip(head)
        else ""
    )
    return UsageError(
        f"branch {ws.branch} has no commits (memory.branch: {ws.settings.branch_from}): "
        f"commit on {ws.branch} first{other}"
    )


def fault(point: str) -> None:
    """Let a test kill the process at a named point (crash-safety tests); no-op otherwise."""
    if os.environ.get(FAULT_ENV) == point:
        os.kill(os.getpid(), signal.SIGKILL)


def push_refs(store: Store, remote: str, refspecs: list[str], options: Sequence[str] = ()) -> None:
    """Push with the user's own git, credentials and hooks; atomically when several."""
    args = ["push", "--porcelain", *options]
    if len(refspecs) > 1:
        args.append("--atomic")
    done = store.run_git(*args, remote, *refspecs, check=False)
    if done.returncode != 0:
        # --porcelain puts each ref's reason on standard output (`[rejected] (stale info)`,
        # `[remote rejected] (…)`), where the error left it: a lease that failed read only
        # "atomic push failed for ref … status: 7"
        rejected = [_rejection(line) for line in done.stdout.splitlines() if line[:1] == "!"]
        detail = "\n".join([*rejected, done.stderr.strip()]).strip() or done.stdout.strip()
        raise GitmemError(f"git push to {remote} was refused:\n{detail}")


def _rejection(line: str) -> str:
    """A `git push --porcelain` line of a ref not pushed (`!<TAB>from:to<TAB>summary`), as
    a person reads it: `refs/heads/main: [rejected] (non-fast-forward)`."""
    fields = line.split("\t")
    if len(fields) < 3:
        return line
    return f"{fields[1].rpartition(':')[2]}: {fields[2]}"


class NoRemote(UsageError):
    """The repository has no remote at all, so what was asked to be pushed (what: a
    candidate, or the memory branch) cannot be; the message says to add a remote (named
    remote, the one to push to then). A candidate is made all the same and stays here on its
    branch; an admission or refusal is refused before anything changes (landing_remote)."""

    def __init__(self, remote: str, what: str = "the candidate") -> None:
        super().__init__(
            f"this repository has no remote to push {what} to: add one "
            f"(git remote add {remote} URL)"
        )
        self.remote = remote


def push_remote(store: Store, named: str | None = None, *, branch: str | None = None) -> str:
    """The remote `git push` would push to, chosen as git chooses it: named (`--remote NAME`)
    over everything, else for an existing branch (branch: the memory branch that admit and
    refuse push) branch.<branch>.pushRemote, remote.pushDefault, branch.<branch>.remote (its
    upstream's), and for a new candidate branch gitmem/<id> with no upstream (branch None:
    `propose --push`, `--pr`) remote.pushDefault alone; else the repository's only remote
    whatever its name (a clone of a fork's parent may call it `upstream`), else origin.

    Pushed to origin always, a candidate went to the parent project of a fork whose
    remote.pushDefault names the fork, an admission to origin while main tracked another
    remote, and a clone whose one remote is not called origin was told "there is no remote
    named origin". Here a name no remote has (given, or set in the first of those settings
    that is set: git does not look further either), or several remotes none of them origin
    and none chosen, is a usage error that lists the remotes there are, raised before
    anything is written; a repository with no remote at all raises NoRemote. The config is
    read as the repository sees it, its own over the user's and the system's."""
    remotes = store.remote_names()
    what = "the candidate" if branch is None else branch
    keys = ["remote.pushDefault"]
    if branch is not None:
        keys = [f"branch.{branch}.pushRemote", *keys, f"branch.{branch}.remote"]
    setting = next(((key, value) for key in keys if (value := store.config(key))), None)
    if not remotes:
        raise NoRemote(named or (setting[1] if setting else DEFAULT_REMOTE), what)
    listed = ", ".join(remotes)
    if named is not None:
        if named in remotes:
            return named
        raise UsageError(
            f"--remote {named}: there is no remote named {named!r} (the remotes here: "
            f"{listed}): give one of those, or add it (git remote add {named} URL)"
        )
    if setting is not None:
        key, configured = setting
        if configured in remotes:
            return configured
        raise UsageError(
            f"{key} is {configured!r}, which is no remote here (the remotes: "
            f"{listed}): fix the setting (git config {key} NAME), or give --remote NAME"
        )
    if len(remotes) == 1:
        return remotes[0]
    if DEFAULT_REMOTE in remotes:
        return DEFAULT_REMOTE
    if branch is None:
        unset = "remote.pushDefault is not set: give --remote NAME, or set it (git config "
        unset += "remote.pushDefault NAME)"
    else:
        unset = f"none of {', '.join(keys)} is set: give --remote NAME, or set {branch}'s "
        unset += f"upstream (git branch --set-upstream-to NAME/{branch} {branch})"
    raise UsageError(
        f"which remote gets {what}? The remotes here are {listed}, none of them "
        f"{DEFAULT_REMOTE}, and {unset}"
    )


def landing_remote(ws: Workspace, named: str | None) -> str:
    """The remote `admit --push` and `refuse --push` push the memory branch to (and delete
    the candidate's branch on, catch up with, ask what it holds): the one `git push` pushes
    that branch to (push_remote), asked before anything changes. With no remote at all, the
    landing is refused there: it landed before, and only the push after it failed."""
    try:
        return push_remote(ws.store, named, branch=ws.branch)
    except NoRemote as exc:
        raise UsageError(
            f"--push: {exc.message}, or leave --push out and push {ws.branch} yourself; "
            "nothing was changed"
        ) from None


def base_missing_on(ws: Workspace, remote: str, base: str) -> str | None:
    """Why a candidate branch based on base cannot be pushed to remote yet, or None.

    A candidate changes only its own file against the main the remote holds; based on a main
    commit the remote does not have, the push carries that commit too, and the hooks refuse
    it (CANDIDATE-BRANCH). The remote-tracking branch says what the remote has; when it does
    not have base, the remote is asked once (`git fetch`) before the answer is no."""
    store = ws.store
    branch = ws.branch
    tracking = f"refs/remotes/{remote}/{branch}"

    def has_base() -> bool:
        tip = store.ref_target(tracking)
        return tip is not None and store.is_ancestor(base, tip)

    if has_base():
        return None
    if store.remote_url(remote) is None:
        return f"there is no remote named {remote}: add one (git remote add {remote} URL)"
    store.run_git("fetch", "--quiet", remote, f"+refs/heads/{branch}:{tracking}", check=False)
    if has_base():
        return None
    if store.ref_target(tracking) is None:
        why = f"{remote} has no {branch} yet"
    else:
        why = f"{branch} has commits {remote} does not have yet"
    return (
        f"{why}, and a candidate branch carries only its own file on top of it: push "
        f"{branch} first (git push -u {remote} {branch}), then the candidate"
    )


def land_on_main(
    ws: Workspace,
    candidate: Candidate,
    action: str,
    make: MakeCommit,
    push: bool,
    remote: str,
) -> tuple[str, bool]:
    """The compare-and-swap loop admit and refuse share: make(main tip, its tree) gives the
    new tree, the parents and the message; the commit moves main only if main has not moved
    meanwhile, else make is asked again from the new tip. Then the working files of a
    checked-out main follow and the candidate branch closes. Returns (commit, pushed)."""
    store = ws.store
    kind = action.split()[0]
    _guard_other_worktrees(ws)
    _guard_candidate_checkout(ws, candidate)
    on_remote = None
    if push:
        on_remote = _remote_candidate(
            ws,
            candidate.id,
            candidate.tip,
            remote,
            f"fetch it (git fetch {remote}) and review it again; or, when the branch here "
            f"replaces it (rebased), push it over it first (git push --force-with-lease "
            f"{remote} {candidate.branch}); then run the command again. Nothing was changed",
        )
    for _ in range(MAX_CAS_RETRIES):
        main_tip = ws.main_tip()
        if main_tip is None:
            raise no_commits(ws)
        main_tree = store.tree_of(main_tip)
        tree, parents, message = make(main_tip, main_tree)
        commit = store.write_commit(tree, parents, message)
        _guard_worktree(ws, main_tree, tree)
        _guard_locks(ws, candidate)
        landing = recovery.Landing(
            action, ws.branch, ws.dir, main_tip, commit, candidate.ref, candidate.tip,
            _main_checked_out(ws),
        )  # fmt: skip
        recovery.begin(store, landing)
        fault(f"{kind}-before-ref")
        if store.update_ref(f"refs/heads/{ws.branch}", commit, main_tip, f"gitmem: {action}"):
            try:
                fault(f"{kind}-after-ref")
                try:
                    _sync_worktree(ws, main_tree, tree, lambda step: fault(f"{kind}-sync-{step}"))
                except GitmemError as exc:
                    raise _unfinished(ws, action, commit, exc) from None
                fault(f"{kind}-after-sync")
                pushed = _close_candidate(ws, candidate, action, commit, push, remote, on_remote)
                fault(f"{kind}-after-close")
            except KeyboardInterrupt:
                # a Ctrl-C once main moved: "interrupted" alone left the checked-out files
                # and staging index at the old main, which `git status` shows as the
                # admission undone, ready to be committed
                raise _unfinished(ws, action, commit, None) from None
            recovery.end(store)
            return commit, pushed
        recovery.end(store)
    raise GitmemError(f"{ws.branch} kept moving: gave up after {MAX_CAS_RETRIES} attempts")


def _unfinished(ws: Workspace, action: str, commit: str, exc: GitmemError | None) -> GitmemError:
    """The error for a landing whose ref moved but whose follow-up failed (a stale index.lock,
    an unwritable file, a locked candidate ref) or was interrupted (exc None: a Ctrl-C, exit
    130): main already holds the action, so saying only what failed would invite running it
    as if nothing happened, or committing the checked-out files as they stand (which would
    undo it). The journal stays, so the same command finishes it (resume)."""
    done = f"{ws.branch} moved ({action}, commit {commit[:12]}), but what follows it"
    then = (
        f"run the same command again: it finishes the {action.split()[0]} (do not commit the "
        f"memory files as they stand until then)"
    )
    if exc is None:
        return GitmemError(f"interrupted: {done} was not finished\n{then}", exit_code=INTERRUPTED)
    return UsageError(f"{done} could not be finished: {exc.message}\nonce that is fixed, {then}")


class Resumed(NamedTuple):
    """What resume did: the commit that closed the candidate (None: nothing to resume, the
    caller lands it), what a killed command left and was finished, a line each, and whether
    main went to the remote by this run (a main the remote held already, or another clone's
    landing left standing, pushed nothing of this run's, and "pushed" was printed)."""

    commit: str | None
    lines: list[str]
    pushed: bool = False


def resume(ws: Workspace, action: str, push: bool, remote: str) -> Resumed:
    """Finish what a killed command left (recovery.recover), then, when main's tip is this
    very action (`gitmem: admit ID`) and either the kill was this action's or a push is asked
    for, make that push and return the commit: running a killed command again succeeds. An
    action done long ago is not this: the caller says what became of the candidate.

    A push finishes what the remote lacks, as the remote's main says: a main the remote
    holds already (pushed before) is not pushed again (_held_there), a candidate another
    clone admitted or refused there first is left as it did it (_theirs_stands: the commit
    returned is that clone's), a landing the remote's main overtook is made again on it
    (_undone_for_the_remote), else main is pushed."""
    killed = recovery.pending(ws.store)
    done = recovery.recover(ws)
    tip = ws.main_tip()
    if tip is None:
        return Resumed(None, done)
    if ws.store.commit(tip).message.split("\n", 1)[0] != f"gitmem: {action}":
        if push:
            return _under_commits_of_its_own(ws, action, tip, remote, done)
        return Resumed(None, done)
    if not push and (killed is None or killed.action != action):
        return Resumed(None, done)
    if push:
        remote_tip = _remote_main(ws, remote)
        if remote_tip is not None and remote_tip != tip and ws.store.is_ancestor(tip, remote_tip):
            done.extend(_held_there(ws, action, tip, remote_tip, remote))
            return Resumed(tip, done)
        theirs = _closed_there(ws, action, tip, remote_tip)
        if theirs is not None:
            assert remote_tip is not None
            done.extend(_theirs_stands(ws, action, tip, theirs, remote_tip, remote))
            return Resumed(theirs, done)
        if _undone_for_the_remote(ws, action, tip, remote, remote_tip):
            done.append(
                f"{ws.branch} on {remote} moved since the {action} was made here: it is made "
                f"again on {remote}'s {ws.branch}"
            )
            return Resumed(None, done)
        _close_on_remote(ws, action, tip, remote, main=True)
        # a main the remote held already (a run killed once its push was made, or another
        # clone's closing left standing by a run killed once main followed it): this run
        # pushed none of it, and "pushed" said it had
        return Resumed(tip, done, pushed=remote_tip != tip)
    return Resumed(tip, done)


def _under_commits_of_its_own(
    ws: Workspace, action: str, tip: str, remote: str, done: list[str]
) -> Resumed:
    """Finish a landing made here, never pushed, that main's tip is not: the user committed
    on main since the push failed. Taken for no landing, the run went on to admit again and
    ended in "is merged into main already", naming `git push --delete` of the candidate's
    branch as all that was left to do: followed, it deleted the branch on the remote while
    main, holding the only admission of it, stayed here. "run the same command again: it
    pushes main" had said the failure.

    Found among main's first-parent commits the remote's main lacks, the landing goes with
    main: pushed with the commits on it (as a first run's push takes main's commits of its
    own), the candidate's branch deleted on the remote, when the remote's main is under
    main here; else nothing changes, and the error says how to reconcile the two by hand
    (or, where another clone closed the candidate first, how to drop the landing here)."""
    store = ws.store
    # asked first of the remote's main as last fetched, with no round trip: every first
    # `--push` comes here, and only a landing found under main's tip is worth a fetch
    last_seen = store.ref_target(f"refs/remotes/{remote}/{ws.branch}")
    if last_seen is None or _first_parent_landing(ws, action, last_seen, tip) is None:
        return Resumed(None, done)
    remote_tip = _remote_main(ws, remote)
    if remote_tip is None:
        return Resumed(None, done)
    landed = _first_parent_landing(ws, action, remote_tip, tip)
    if landed is None or not _still_closed(ws, tip, action, landed):
        return Resumed(None, done)
    branch = ws.branch
    if store.is_ancestor(remote_tip, tip):
        _close_on_remote(ws, action, landed, remote, main=True)
        done.append(
            f"{branch} holds the {action} (commit {landed[:12]}, not pushed before) under "
            f"commits of its own: {branch} is pushed to {remote} with them"
        )
        return Resumed(landed, done, pushed=True)
    theirs = _closed_there(ws, action, tip, remote_tip)
    if theirs is not None:
        closed = store.commit(theirs).message.split("\n", 1)[0].removeprefix("gitmem: ")
        raise RuleError(
            f"the {closed} made on {remote} first (commit {theirs[:12]}) stands, and "
            f"{branch} here holds the {action} made here (commit {landed[:12]}, not pushed) "
            f"under commits of its own: drop it from {branch} (git rebase --onto "
            f"{landed[:12]}~1 {landed[:12]} {branch}), then bring the commits of its own "
            f"onto {remote}'s (git pull --rebase {remote} {branch}: a merge would bring "
            f"{remote}'s memory through a second parent, which the gates refuse) and push "
            f"{branch} (git push {remote} {branch})"
        )
    raise _reconcile(
        ws,
        action,
        landed,
        remote,
        "it is under commits of its own",
        _keeping_the_candidate(ws, action.split(" ", 1)[1], landed)
        + f"git rebase --onto {landed[:12]}~1 {landed[:12]} {branch}",
    )


def reverted_landing(ws: Workspace, action: str, tip: str) -> str | None:
    """The commit of action's landing (`gitmem: <action>`, the last among tip's first-parent
    commits), when tip no longer holds what it wrote (_still_closed: a `git revert` since);
    None when there is no such landing, or it stands.

    Asked where a candidate is found merged into main already: "its branch is what is left
    of it (git push --delete …)" was said of one whose landing was reverted, and followed,
    it deleted the only copy of a candidate main no longer held."""
    landed = _first_parent_landing(ws, action, None, tip)
    if landed is None or len(ws.store.commit(landed).parents) < 2:
        return None
    return None if _still_closed(ws, tip, action, landed) else landed


def _first_parent_landing(ws: Workspace, action: str, since: str | None, tip: str) -> str | None:
    """The last commit `gitmem: <action>` among main's first-parent commits from since (None:
    from the first) to tip."""
    subject = f"gitmem: {action}"
    listed = ws.store.run_git(
        "log", "--first-parent", "--format=%H %s", "--fixed-strings", f"--grep={subject}",
        tip if since is None else f"{since}..{tip}", check=False,
    )  # fmt: skip
    for line in listed.stdout.splitlines():
        commit, _, said = line.partition(" ")
        if said == subject:
            return commit
    return None


def _still_closed(ws: Workspace, tip: str, action: str, landed: str) -> bool:
    """Whether main's tip still holds what the landing of action (its commit landed) wrote:
    the entry admitted, the refused.md row; for an amend or retire, some memory file the
    landing changed (INDEX.md, made from the entries, aside) not back as it was before it.
    A landing undone since by a commit on it (`git revert`) is no landing to push: pushed
    with main, the candidate's branch was deleted on the remote while no admission of it was
    left (an amendment or a retirement reverted was taken at its word, and its candidate
    went the same way)."""
    store = ws.store
    verb, _, entry_id = action.partition(" ")
    tree = store.tree_of(tip)
    if verb == "admit":
        return find_entry(store, store.subtree(tree, ws.dir), entry_id) is not None
    if verb == "refuse":
        return _refuses(ws, tree, entry_id)
    before = store.tree_of(store.commit(landed).parents[0])
    changed = store.diff(
        store.subtree(before, ws.dir), store.subtree(store.tree_of(landed), ws.dir)
    )
    paths = [f"{ws.dir}/{c.path}" for c in changed if c.path != "INDEX.md"]
    return any(store.read_path(tree, p) != store.read_path(before, p) for p in paths)


def _refuses(ws: Workspace, tree: str, entry_id: str) -> bool:
    """Whether refused.md in tree has a row refusing entry_id."""
    data = ws.store.read_path(tree, f"{ws.dir}/refused.md") or b""
    rows = (refused_mod.parse_row(line) for line in data.decode("utf-8", "replace").splitlines())
    return any(row is not None and row.id == entry_id for row in rows)


def _remote_main(ws: Workspace, remote: str) -> str | None:
    """The remote's main, fetched into its remote-tracking branch; None when the remote has
    none or cannot be reached (the push then says why)."""
    store = ws.store
    tracking = f"refs/remotes/{remote}/{ws.branch}"
    fetched = store.run_git(
        "fetch", "--quiet", remote, f"+refs/heads/{ws.branch}:{tracking}", check=False
    )
    return store.ref_target(tracking) if fetched.returncode == 0 else None


def _close_on_remote(ws: Workspace, action: str, landed: str, remote: str, *, main: bool) -> bool:
    """Push main (when main) and, in the same atomic push, delete the candidate's branch on
    remote where the remote still holds it (leased on where it is, and refused when it holds
    commits the landing, landed, did not judge: _remote_candidate). Returns whether anything
    was pushed: with main False and no branch left to delete, nothing is."""
    store = ws.store
    entry_id = action.split(" ", 1)[1]
    specs = [f"refs/heads/{ws.branch}:refs/heads/{ws.branch}"] if main else []
    lease: list[str] = []
    tracking = f"refs/remotes/{remote}/{candidate_branch(entry_id)}"
    if store.ref_target(tracking) is not None:
        # what the landing judged: an admission's second parent; a refusal records
        # none, and the branch as this clone last saw it stands for it
        parents = store.commit(landed).parents
        judged = parents[1] if len(parents) > 1 else store.ref_target(tracking)
        assert judged is not None
        on_remote = _remote_candidate(
            ws,
            entry_id,
            judged,
            remote,
            f"{ws.branch} holds the {action.split()[0]} already: push it alone (git push "
            f"{remote} {ws.branch}) and leave the branch to its author",
        )
        if on_remote is not None:
            specs.append(f":{candidate_ref(entry_id)}")
            lease.append(f"--force-with-lease={candidate_ref(entry_id)}:{on_remote}")
    if not specs:
        return False
    push_refs(store, remote, specs, lease)
    return True


def _held_there(ws: Workspace, action: str, tip: str, remote_tip: str, remote: str) -> list[str]:
    """Finish a landing made here (tip, main's tip) that the remote's main already holds, with
    more on top (remote_tip): main was pushed (by hand, or by a run killed or cut off before
    its output, before the branch here was deleted), and others pushed since. Pushing main
    again was refused as a non-fast-forward, every run again: main here is older than the
    remote's. main is not pushed; the candidate's branch is deleted on the remote if it is
    still there; main here is fast-forwarded to the remote's, as `git pull --ff-only` does,
    when nothing here is in the way (else it is left behind, and the lines say why).
    Returns what was done, a line each."""
    branch = ws.branch
    done = [
        f"{branch} on {remote} holds the {action} already (commit {tip[:12]}), and commits "
        f"pushed since: {branch} was not pushed again"
    ]
    if _close_on_remote(ws, action, tip, remote, main=False):
        entry_id = action.split(" ", 1)[1]
        done.append(f"deleted {candidate_branch(entry_id)} on {remote}")
    try:
        _move_main(ws, tip, remote_tip, action)
    except GitmemError as exc:
        if ws.main_tip() != tip:  # main moved, its checkout could not follow: exc says so
            raise
        done.append(
            f"{branch} here stays at {tip[:12]}, behind {remote}'s: {exc.message} "
            f"(then: git pull --ff-only {remote} {branch})"
        )
    else:
        done.append(f"{branch} here fast-forwarded to {remote}'s ({remote_tip[:12]})")
    return done


#: The verbs of the commits that close a candidate on main (`gitmem: admit ID`, …).
_CLOSING = ("admit", "amend", "retire", "refuse")


def _closed_there(ws: Workspace, action: str, tip: str, remote_tip: str | None) -> str | None:
    """The commit of the remote's main, not here, that closed the candidate of action
    (`gitmem: admit ID`, or refuse, amend, retire of the same ID): another clone admitted or
    refused it too, and its push went first; None when there is none.

    A subject alone is no closing: anyone may write `gitmem: refuse ID` on a commit (the
    server's gate holds admit, amend and retire subjects to what they say, not refuse's, and
    a remote without the gate holds none), and taken at its word it had the landing here
    undone and the candidate's branch deleted here and on the remote, while nothing anywhere
    admitted or refused it: the candidate was lost, the output saying the other one
    "stands". So the commit must do what its subject says (_closes)."""
    store = ws.store
    if remote_tip is None or store.is_ancestor(remote_tip, tip):
        return None
    entry_id = action.split(" ", 1)[1]
    closing = {f"gitmem: {verb} {entry_id}": verb for verb in _CLOSING}
    listed = store.run_git("log", "--format=%H %s", f"{tip}..{remote_tip}", check=False)
    for line in listed.stdout.splitlines():
        commit, _, subject = line.partition(" ")
        verb = closing.get(subject)
        if verb is not None and _closes(ws, commit, verb, entry_id):
            return commit
    return None


def _closes(ws: Workspace, commit: str, verb: str, entry_id: str) -> bool:
    """Whether commit closes the candidate entry_id as verb says, against its first parent:
    an admit adds the admitted entry entry_id; an amend or retire merges a second parent
    holding the candidate's file and changes the memory; a refuse adds a refused.md row
    naming entry_id."""
    store = ws.store
    info = store.commit(commit)
    if not info.parents:
        return False
    before, after = store.tree_of(info.parents[0]), store.tree_of(commit)
    if verb == "admit":
        found = find_entry(store, store.subtree(after, ws.dir), entry_id)
        admitted = found is not None and found[1].status == "admitted"
        return admitted and find_entry(store, store.subtree(before, ws.dir), entry_id) is None
    if verb == "refuse":
        return _refuses(ws, after, entry_id) and not _refuses(ws, before, entry_id)
    return (
        len(info.parents) == 2
        and store.read_path(store.tree_of(info.parents[1]), f"{ws.dir}/candidates/{entry_id}.md")
        is not None
        and store.subtree(before, ws.dir) != store.subtree(after, ws.dir)
    )


def _theirs_stands(
    ws: Workspace, action: str, tip: str, theirs: str, remote_tip: str, remote: str
) -> list[str]:
    """Leave a candidate as another clone closed it on the remote's main first (theirs, its
    commit), rather than the landing made here (tip, main's tip, never pushed): that
    landing is undone, main here moves to the remote's (_move_main), the candidate's branch
    goes, here and, if still there, on the remote; here it is kept, at the commit the
    landing took, when that holds commits the other closing did not take. Returns what was
    done, a line each.

    Made again on the remote's main (_undone_for_the_remote), the landing ended in "is
    merged into main already", with the candidate's branch made again here for nothing: a
    candidate is closed once, and the first push closed it. What the landing here wrote
    that the other one did not (another admitter, another reason) is named, not kept: the
    commit stays in main's reflog, and the line says how to see it."""
    store = ws.store
    branch = ws.branch
    entry_id = action.split(" ", 1)[1]
    closed = store.commit(theirs).message.split("\n", 1)[0].removeprefix("gitmem: ")
    stands = f"the {closed} made on {remote} first (commit {theirs[:12]}) stands"
    elsewhere = _pushed_elsewhere(ws, tip)
    if elsewhere is not None:
        raise RuleError(
            f"{stands}, and the {action} made here (commit {tip[:12]}) is on {elsewhere}'s "
            f"{branch} already: it is not undone, and nothing was changed. {remote}'s "
            f"{branch} and {elsewhere}'s hold one closing each of {entry_id}: agree with who "
            f"pushed them on which stands, and bring the other {branch} to it by hand"
        )
    base = store.commit(tip).parents[0]
    if not store.is_ancestor(base, remote_tip):
        raise RuleError(
            f"{stands}, and the {action} made here (commit {tip[:12]}, not pushed) is on top "
            f"of commits of its own {remote} does not have: undo it (git branch -f {branch} "
            f"{branch}~1, or git reset --keep HEAD~1 with {branch} checked out), then "
            f"bring the commits of its own onto {remote}'s (git pull --rebase {remote} "
            f"{branch}: a merge would bring {remote}'s memory through a second parent, which "
            f"the gates refuse) and push {branch} (git push {remote} {branch})"
        )
    differs = _differences(ws, base, tip, theirs)
    # commits of the candidate the landing here took and the remote's main did not (a
    # fix-up made here after the other clone fetched it): held by the landing alone, and
    # undone with it they were left to main's reflog. Kept on the candidate's branch first,
    # so a kill once main moved loses nothing
    judged = store.commit(tip).parents[1:]
    kept = None
    if (
        judged
        and not store.is_ancestor(judged[0], remote_tip)
        and store.ref_target(candidate_ref(entry_id)) is None
        and store.update_ref(candidate_ref(entry_id), judged[0], None, f"gitmem: keep {action}")
    ):
        kept = judged[0]
    # the candidate's branch here goes once main moved, where the remote's main holds it; a
    # kill before it went leaves it to the next admit or refuse, as a landing's (_move_main)
    local = store.ref_target(candidate_ref(entry_id))
    if local is not None and not store.is_ancestor(local, remote_tip):
        local = None  # it holds commits the remote's main does not: it stays
    closing = (candidate_ref(entry_id), local) if local is not None else ("", "")
    try:
        _move_main(ws, tip, remote_tip, action, closing)
    except GitmemError as exc:
        if ws.main_tip() != tip:  # main moved, its checkout could not follow: exc says so
            raise
        # git's refusal alone did not say that the other admission stands, nor that the
        # landing here was not undone: nothing moved
        raise GitmemError(
            f"{stands}, but {branch} here cannot become {remote}'s yet, and the {action} made "
            f"here (commit {tip[:12]}, never pushed) is not undone: {exc.message}",
            exit_code=exc.exit_code,
        ) from None
    done = [
        f"{stands}: the {action} made here (commit {tip[:12]}, never pushed) is undone, and "
        f"{branch} here is {remote}'s ({remote_tip[:12]})"
    ]
    if differs:
        done.append(
            f"the {action} made here differed in {', '.join(differs)}: {remote}'s is kept "
            f"(git diff {theirs[:12]} {tip[:12]} -- {' '.join(differs)} shows how)"
        )
    if kept is not None:
        done.append(
            f"kept {candidate_branch(entry_id)} at {kept[:12]}: it holds commits the {action} "
            f"made here took and the {closed} on {remote} did not"
        )
    if (
        local is not None
        and store.worktree_on(candidate_branch(entry_id), here_too=True) is None
        and store.delete_ref(candidate_ref(entry_id), local)
    ):
        done.append(f"deleted {candidate_branch(entry_id)}")
    if _close_on_remote(ws, closed, theirs, remote, main=False):
        done.append(f"deleted {candidate_branch(entry_id)} on {remote}")
    return done


def _differences(ws: Workspace, base: str, tip: str, theirs: str) -> list[str]:
    """The memory files (other than INDEX.md, made from the entries) to which the landing
    tip (on base) added other lines than the landing theirs added to them: an entry
    admitted by another admitter, a refusal of another reason."""
    store = ws.store
    before = store.commit(theirs).parents[0]

    def added(old: str, new: str, path: str) -> list[bytes]:
        was = set((store.read_path(store.tree_of(old), path) or b"").splitlines())
        now = store.read_path(store.tree_of(new), path) or b""
        return [line for line in now.splitlines() if line not in was]

    changes = store.diff(
        store.subtree(store.tree_of(base), ws.dir), store.subtree(store.tree_of(tip), ws.dir)
    )
    paths = [f"{ws.dir}/{c.path}" for c in changes if c.path != "INDEX.md"]
    return [p for p in paths if added(base, tip, p) != added(before, theirs, p)]


def _move_main(
    ws: Workspace, old: str, new: str, action: str, candidate: tuple[str, str] = ("", "")
) -> None:
    """Move main from old to new, whatever each holds (other commits than the memory's
    among them), with a checked-out main's files and index, for action (the admit or refuse
    run again): refused, before anything moves, where a landing is refused (another worktree
    on main, a rebase, uncommitted changes to the memory files the move changes, a locked
    index) or where the move would overwrite a change of the user's.

    A checked-out main follows as `git checkout` would (recovery.carry_checkout, a two-tree
    merge), which keeps what the user staged: `git reset --keep`, used before, reset the
    index, so an edit staged outside the memory was staged no more, and a new file staged
    became one git does not track (a later `git commit -a` left it out). The ref moves first,
    then the files, under a journal as a landing's: a kill between leaves main moved and the
    checkout at old, which the next admit or refuse brings along (recovery.recover), and the
    local branch of the candidate (candidate: its ref and tip, when the caller deletes it
    once main moved) is deleted then too."""
    store = ws.store
    _guard_other_worktrees(ws)
    _guard_worktree(ws, store.tree_of(old), store.tree_of(new))
    if not _main_checked_out(ws):
        if not store.update_ref(f"refs/heads/{ws.branch}", new, old, "gitmem: follow the remote"):
            raise GitmemError(f"{ws.branch} moved meanwhile: run the command again")
        return
    store.require_index_unlocked()
    if ws.main_tip() != old:
        raise GitmemError(f"{ws.branch} moved meanwhile: run the command again")
    refused = recovery.carry_checkout(store, old, new, dry_run=True)
    if refused is not None:
        raise UsageError(
            f"moving {ws.branch} to {new[:12]} would overwrite changes of yours ({refused}): "
            "commit or stash them, or move away the file git does not track, then run the "
            "command again"
        )
    recovery.begin(
        store, recovery.Landing(action, ws.branch, ws.dir, old, new, *candidate, True, True)
    )
    if not store.update_ref(f"refs/heads/{ws.branch}", new, old, "gitmem: follow the remote"):
        recovery.end(store)
        raise GitmemError(f"{ws.branch} moved meanwhile: run the command again")
    fault(f"{action.split()[0]}-move-after-ref")
    refused = recovery.carry_checkout(store, old, new)
    if refused is not None:  # changed since the dry run: the journal stays, to finish it
        raise UsageError(
            f"{ws.branch} moved to {new[:12]}, but its checked-out files could not follow it: "
            f"they would overwrite changes of yours ({refused}): save your version "
            f"elsewhere and discard it here (git checkout -- <file>; a file git does not "
            f"track: move it away), run the command again, which finishes the move, then "
            f"bring your version back"
        )
    recovery.end(store)


def _undone_for_the_remote(
    ws: Workspace, action: str, tip: str, remote: str, remote_tip: str | None
) -> bool:
    """Before pushing a landing made here earlier (tip, main's tip, is its commit): when the
    remote's main moved on since (another clone pushed between this one's catch-up and its
    push), undo the landing here, so that the caller makes it again the way a first run does
    (catch_up, then land on the remote's main), and return True.

    The push was refused (non-fast-forward) and so was every run again: "run the same command
    again" said the first failure, and the rerun pushed the same commit and failed the same
    way, with git's "integrate the remote changes (e.g. 'git pull ...')" as the only advice,
    which puts a merge on main that is no admission. Only the landing is undone: main goes
    back to the landing's first parent, which the remote's main holds (else main has commits
    of its own the remote lacks, and the error says how to reconcile them by hand), with its
    checked-out files, under a journal as a landing is. The candidate stays where it is (on
    the remote; here, a branch the landing deleted is made again at the commit it admitted),
    so a kill at any point leaves it admittable. The commit undone was never pushed."""
    store = ws.store
    branch = ws.branch
    if remote_tip is None or store.is_ancestor(remote_tip, tip):
        return False  # the push fast-forwards (or fails, saying why)
    entry_id = action.split(" ", 1)[1]
    elsewhere = _pushed_elsewhere(ws, tip)
    if elsewhere is not None:
        raise _reconcile(ws, action, tip, remote, f"it is on {elsewhere}'s {branch} already")
    parents = store.commit(tip).parents
    base = parents[0]
    if not store.is_ancestor(base, remote_tip):
        back = f"git reset --keep HEAD~1 with {branch} checked out, or git branch -f {branch} "
        raise _reconcile(
            ws,
            action,
            tip,
            remote,
            f"it is on top of commits of its own {remote} does not have",
            _keeping_the_candidate(ws, entry_id, tip) + back + f"{branch}~1",
        )
    restore = None
    if lookup_candidate(ws, entry_id) is None:
        if len(parents) < 2:  # a refusal records no candidate: nothing to refuse again
            raise _reconcile(
                ws, action, tip, remote, "it is on top of a candidate whose branch is gone", ""
            )
        restore = parents[1]
    _guard_other_worktrees(ws)
    tree, base_tree = store.tree_of(tip), store.tree_of(base)
    _guard_worktree(ws, tree, base_tree)
    if _main_checked_out(ws):
        store.require_index_unlocked()
    if restore is not None:
        store.update_ref(candidate_ref(entry_id), restore, None, f"gitmem: undo {action}")
    # a journal as a landing's, of the undo: a kill after the ref moved leaves files that
    # the next admit or refuse brings to main (recovery); no candidate branch to close
    undo = recovery.Landing(
        f"{recovery.UNDO}{action}", branch, ws.dir, tip, base, "", "", _main_checked_out(ws)
    )
    recovery.begin(store, undo)
    if not store.update_ref(f"refs/heads/{branch}", base, tip, f"gitmem: undo {action}"):
        recovery.end(store)
        raise GitmemError(f"{branch} moved while undoing the {action}: run the command again")
    _sync_worktree(ws, tree, base_tree, lambda step: None)
    recovery.end(store)
    return True


def _pushed_elsewhere(ws: Workspace, tip: str) -> str | None:
    """The remote whose main, as this clone last saw it, holds the landing tip, or None.

    The landing is undone (_undone_for_the_remote, _theirs_stands) as one never pushed, which
    the remote asked for says. Pushed to another remote meanwhile (`--remote NAME`, or by
    hand), it was undone and made again, another commit, on the remote asked, or left for
    another clone's: main here moved back over a commit a remote holds, and the two remotes'
    mains held two closings of one candidate, neither taking the other's."""
    store = ws.store
    prefix = "refs/remotes/"
    for ref, target in sorted(store.refs(prefix).items()):
        name = ref.removeprefix(prefix)
        main = name.endswith(f"/{ws.branch}") and name.count("/") == 1 + ws.branch.count("/")
        if main and (target == tip or store.is_ancestor(tip, target)):
            return name.split("/", 1)[0]
    return None


def _keeping_the_candidate(ws: Workspace, entry_id: str, landed: str) -> str:
    """The git command, and "; ", that makes the candidate's branch again at the commit the
    landing (landed) admitted, where no branch of it is left (the landing deleted it, never
    pushed): undone by hand, the landing took it along. "" where a branch is left, or the
    landing (a refusal) records none."""
    if lookup_candidate(ws, entry_id) is not None or len(ws.store.commit(landed).parents) < 2:
        return ""
    return f"git branch {candidate_branch(entry_id)} {landed[:12]}^2; "


def _reconcile(
    ws: Workspace, action: str, tip: str, remote: str, what: str, undo: str | None = None
) -> RuleError:
    """The error for a landing made here that the remote's main, moved on since, cannot take
    and that cannot be undone and made again on it (what: why not): the git commands that
    reconcile the two mains and finish the push by hand.

    With undo (the commands that undo the landing here), they undo it, bring main's commits
    of its own onto the remote's main, and have the command run again. With undo "" (a
    refusal, a plain commit), the landing is brought along with them. Either way by a
    rebase: `git pull --no-rebase`, said before, merged the remote's main in, which the
    gates refuse whenever that brought memory (another admission) through the merge's
    second parent, and which conflicted on INDEX.md then. With undo None (the landing is on
    another remote's main, whose commits a rebase would rewrite), the merge is said still."""
    branch = ws.branch
    entry_id = action.split(" ", 1)[1]
    rebase = (
        f"git pull --rebase {remote} {branch}: a merge would bring {remote}'s memory through "
        "a second parent, which the gates refuse"
    )
    if undo:
        return RuleError(
            f"{branch} on {remote} moved since the {action} was made here (commit "
            f"{tip[:12]}, not pushed), and it cannot be made again on {remote}'s {branch}: "
            f"{what}. Undo it ({undo}), bring {branch} up to {remote}'s ({rebase}), then run "
            "the command again"
        )
    if undo == "":
        return RuleError(
            f"{branch} on {remote} moved since the {action} was made here (commit "
            f"{tip[:12]}, not pushed), and it cannot be made again on {remote}'s {branch}: "
            f"{what}. Bring it onto {remote}'s {branch} ({rebase}), then push {branch} (git "
            f"push {remote} {branch})"
        )
    return RuleError(
        f"{branch} on {remote} moved since the {action} was made here (commit {tip[:12]}, "
        f"not pushed), and it cannot be made again on {remote}'s {branch}: "
        f"{what}. Reconcile the two (git pull --no-rebase {remote} {branch}), then push "
        f"{branch} (git push {remote} {branch}) and delete the candidate's branch there if "
        f"it is still on {remote} (git push {remote} --delete {candidate_branch(entry_id)})"
    )


def _main_checked_out(ws: Workspace) -> bool:
    return ws.store.workdir is not None and ws.store.head_branch() == ws.branch


def _guard_other_worktrees(ws: Workspace) -> None:
    """Refuse, as `git branch -f` does, to move the memory branch while another worktree has
    it checked out: that worktree's files and staging index would stay behind, and its
    `git status` would show the admission undone (an entry deleted, INDEX.md changed). Nor
    while a worktree, this one included, is rebasing or bisecting it: the end of the rebase
    or bisect would put it back where it started and drop the admission, whose candidate
    branch is already gone. A usage error (exit 2), as git's own refusal is: nothing in the
    candidate is wrong, the repository's state is in the way and the user changes it."""
    rebasing = ws.store.rebasing(ws.branch)
    if rebasing is not None:
        raise UsageError(
            f"{ws.branch} is being rebased or bisected in the worktree at {rebasing}: finish "
            f"it (git rebase --continue, git bisect reset) or abort it (git rebase --abort), "
            f"then run the command again"
        )
    if _main_checked_out(ws):
        return
    folder = ws.store.worktree_on(ws.branch)
    if folder is not None:
        raise UsageError(
            f"{ws.branch} is checked out in the worktree at {folder}: "
            + (_gone(folder) or "run the command there, or check out another branch in it first")
        )


def _gone(folder: str) -> str | None:
    """What to do about a worktree git still records but whose folder was deleted (rm -rf
    instead of `git worktree remove`), or None while the folder is there. git holds its
    branch as checked out until the record is pruned, and so does gitmem; "run the command
    there" sent the user to a folder that no longer exists."""
    if os.path.lexists(folder):
        return None
    return (
        "that folder no longer exists; remove what git keeps of it (git worktree prune), "
        "then run the command again"
    )


def _guard_candidate_checkout(ws: Workspace, candidate: Candidate) -> None:
    """Refuse, as `git branch -d` does, to close a candidate branch that a worktree (this one
    included) has checked out: update-ref deleted it all the same, and that worktree was left
    on a branch with no commits, its whole tree staged as new files (`git status`: "No
    commits yet"), the candidate's file among them. A usage error (exit 2), as the
    refusal of _guard_other_worktrees is."""
    if not candidate.local:
        return
    folder = ws.store.worktree_on(candidate.branch, here_too=True)
    if folder is not None:
        raise UsageError(
            f"{candidate.branch} is checked out in the worktree at {folder}, and this command "
            "deletes it: "
            + (
                _gone(folder)
                or f"check out another branch there first (git switch {ws.branch}), then "
                "run the command again"
            )
        )


def _guard_locks(ws: Workspace, candidate: Candidate) -> None:
    """Refuse before moving main when what must follow it is locked by git: a stale
    index.lock (of a checked-out main) or lock of the candidate branch would otherwise
    fail the landing after main moved, and leave the admission staged backwards."""
    if _main_checked_out(ws):
        ws.store.require_index_unlocked()
    if candidate.local:
        ws.store.require_ref_unlocked(candidate.ref)


def _guard_worktree(ws: Workspace, old_tree: str, new_tree: str) -> None:
    """Refuse before moving main when its checked-out memory files hold uncommitted changes,
    or a file git does not track stands where the landing writes one. A usage error (exit
    2), as a stale index.lock is: the user's own files are in the way, not a rule."""
    if not _main_checked_out(ws):
        return
    store = ws.store
    old_memory, new_memory = store.subtree(old_tree, ws.dir), store.subtree(new_tree, ws.dir)
    changes = store.diff(old_memory, new_memory)
    states = store.checkouts([f"{ws.dir}/{c.path}" for c in changes])
    dirty = [
        path
        for (path, state), change in zip(states.items(), changes, strict=True)
        if not state.at({change.old.oid if change.old else None})
    ]
    # a file git does not track where the landing writes one (a memory folder never
    # committed, a file made by hand): `git stash` leaves it where it is. A path neither
    # staged nor on disk is a deletion staged (`git rm`, a `git clone --no-checkout`), no
    # file at all: it was named "a file git does not track", and commit or stash does settle it
    workdir = store.workdir
    untracked = [
        path
        for path in dirty
        if states[path].staged is None and workdir is not None and os.path.lexists(workdir / path)
    ]
    if untracked:
        raise UsageError(
            f"{ws.branch} is checked out and {', '.join(untracked)} is a file git does not "
            f"track, where this command writes {ws.branch}'s version: move it away or remove "
            "it, then run the command again"
        )
    if dirty:
        raise UsageError(
            f"{ws.branch} is checked out and {', '.join(dirty)} has uncommitted changes: "
            "commit or stash them, then run the command again"
        )


def _sync_worktree(
    ws: Workspace, old_tree: str, new_tree: str, step: Callable[[str], None]
) -> None:
    if _main_checked_out(ws):
        ws.store.sync_worktree(old_tree, new_tree, ws.dir, step)


def _remote_candidate(
    ws: Workspace, entry_id: str, judged: str, remote: str, todo: str
) -> str | None:
    """Where remote's branch of the candidate entry_id is, asked of the remote (None: the
    remote has none), for the push that deletes it to lease on; refused (saying todo) when
    it holds a commit judged, the candidate's commit the landing judged, does not.

    That push deleted whatever the remote's branch held: commits its author pushed after
    this clone fetched it (a fix asked for in review) were deleted with it, unseen, while
    main admitted the older tip. A remote that cannot be asked is taken to be where the
    remote-tracking branch says (the lease then holds the push to that)."""
    store = ws.store
    ref = candidate_ref(entry_id)
    branch = candidate_branch(entry_id)
    asked = store.run_git("ls-remote", "--exit-code", remote, ref, check=False)
    if asked.returncode == 2:  # the remote has no such branch
        return None
    if asked.returncode != 0:
        return store.ref_target(f"refs/remotes/{remote}/{branch}")
    tip = None
    for line in asked.stdout.splitlines():
        oid, _, name = line.partition("\t")
        if name == ref:
            tip = oid
    if tip is None or store.is_ancestor(tip, judged):
        return tip
    raise RuleError(
        f"{branch} on {remote} is at {tip[:12]}, which holds commits the {judged[:12]} "
        f"judged here does not (pushed since this clone fetched it?): closing the candidate "
        f"would delete them unseen. {todo}"
    )


def _close_candidate(
    ws: Workspace,
    candidate: Candidate,
    action: str,
    commit: str,
    push: bool,
    remote: str,
    on_remote: str | None,
) -> bool:
    """After main moved for a candidate (admitted or refused): push main and delete the
    remote branch in one atomic push when asked (leased on where it was seen, on_remote),
    and delete the local branch (if it still points at the commit judged).  Returns whether
    it pushed."""
    store = ws.store
    if push:
        specs = [f"refs/heads/{ws.branch}:refs/heads/{ws.branch}"]
        lease: list[str] = []
        if on_remote is not None:
            ref = candidate_ref(candidate.id)
            specs.append(f":{ref}")
            lease.append(f"--force-with-lease={ref}:{on_remote}")
        try:
            push_refs(store, remote, specs, lease)
        except GitmemError as exc:
            raise _not_pushed(ws, action, commit, remote, exc) from None
    if candidate.local:
        try:
            store.delete_ref(candidate.ref, candidate.tip)
        except GitmemError as exc:
            raise _unfinished(ws, action, commit, exc) from None
    return push


def _not_pushed(
    ws: Workspace, action: str, commit: str, remote: str, exc: GitmemError
) -> GitmemError:
    """The error for a landing whose push failed (the remote unreachable, the push refused):
    git's words alone ("does not appear to be a git repository") did not say that main had
    moved here all the same, nor how to finish, so the user was left to push main by hand,
    and the candidate's branch stayed on the remote. Running the command again finishes it
    (resume): it pushes main and deletes that branch."""
    return GitmemError(
        f"{ws.branch} moved here ({action}, commit {commit[:12]}), but the push did not go "
        f"through: {exc.message}\nonce {remote} can take it, run the same command again: "
        f"it pushes {ws.branch} and deletes the candidate's branch on {remote}",
        exit_code=exc.exit_code,
    )


def catch_up(ws: Workspace, remote: str) -> None:
    """Before an admission that will be pushed: fetch the remote's main and fast-forward the
    local one to it, so the merge is built on what the server has (a concurrent admission
    elsewhere is merged on, not raced).  A local main with unpushed commits of its own is left
    as it is; the push then says what to do.

    A remote that does not exist is refused here, before main moves: the fetch below ignored
    its failure, so the admission landed and only the push after it failed, with git's
    "'origin' does not appear to be a git repository" and nothing said of main having moved."""
    store = ws.store
    branch = ws.branch
    # the fast-forward below moves main as the landing does: refused where the landing is
    # (it moved main under another worktree's checkout, and only then was the landing refused)
    _guard_other_worktrees(ws)
    if store.remote_url(remote) is None:
        raise UsageError(
            f"--push: there is no remote named {remote}: add one (git remote add {remote} URL), "
            f"or leave --push out and push {branch} yourself; nothing was changed"
        )
    tracking = f"refs/remotes/{remote}/{branch}"
    remote_tip = _remote_main(ws, remote)
    local_tip = ws.main_tip()
    if remote_tip is None or remote_tip == local_tip:
        return
    if local_tip is not None and not store.is_ancestor(local_tip, remote_tip):
        return
    if _main_checked_out(ws):
        store.require_index_unlocked()  # git's own refusal would read as a rule failure
        store.run_git("merge", "--ff-only", "--quiet", tracking)
    elif not store.update_ref(f"refs/heads/{branch}", remote_tip, local_tip, "gitmem: catch up"):
        raise GitmemError(f"{branch} moved while catching up with {remote}: run the command again")


def check_reason_text(reason: str, kept: str, undone: str) -> None:
    """Refuse a --reason that the history gate would refuse on main, where kept (refused.md,
    a retired entry) holds it for good: an invisible character (named by its escape) or a
    secret (named, not shown), said as the option's, not as a column of a file its author
    never wrote. undone says what was not done."""
    from gitmem.gate import secrets

    for finding in secrets.scan_text(reason):
        what = finding.excerpt if finding.rule == "hidden-unicode" else "a secret"
        raise UsageError(
            f"--reason holds {what} ({finding.description}): remove it; {kept} keep the reason "
            f"for good; {undone}"
        )
