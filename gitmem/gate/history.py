"""The history judge: every rule over a ref update old → new, built on one invariant.

THE INVARIANT. Along the memory branch's first-parent chain, every commit's memory-folder diff
against its first parent is fully explained by exactly one change kind of CHANGE_KINDS:

- nothing: the memory folder is the same tree as the first parent's;
- admit: an admit merge (two parents, message `gitmem: admit <id>`) whose second parent holds
  the candidate `candidates/<id>.md`; it adds exactly `entries/<type>/<id>.md`, equal to the
  candidate's text plus the admission fields (status admitted, admitted_by, admitted) less
  its `drafted_from` (curation.as_admitted), by an allowed admitter, with an id no entry has
  had; it flips exactly the entries the candidate supersedes (admitted → superseded,
  superseded_by the new id, nothing else changed), each drafted from the text the first
  parent holds: the second parent holds that file as the first does, or not at all, and the
  candidate's `drafted_from`, when it has one, lists its blob (a successor drafted before
  an amendment of the entry was admitted would put that one out of use); it may
  append allowed.md rows recorded by its admitter, who is not the candidate's author, each
  for a finding of the admitted entry or of a version of its candidate the merge brings;
- amend: an amend merge (two parents, message `gitmem: amend <id>`) whose second parent holds
  the candidate `candidates/<id>.md` with `amends: <entry>`; it changes exactly that admitted
  entry's file, to the candidate's fields and sections with the entry's identity, admission
  and lineage kept and the merge's date appended to `amended`, `amended_by` an allowed
  admitter (gitmem.model.curation.amended); the second parent holds that entry's file as
  the first parent does, or not at all, and the candidate's `drafted_from`, when it has one,
  names the first parent's blob of it (an amendment drafted before another was admitted
  would undo it: curation.drafted_from_another);
- retire: a retire merge (`gitmem: retire <id>`) whose second parent holds `candidates/<id>.md`
  with `retires: <entry>`; it changes exactly that admitted entry to status retired with
  retired_by (an admitter of a source the policy's retireBy lists), retired and the
  candidate's retired_reason, nothing else (gitmem.model.curation.retired);
- refuse: refused.md only appended to, with well-formed rows; nothing else;
- init: the memory folder appears holding gitmem's own files only (no entry, no candidate,
  no allowed.md row);
- maintenance: a policy admin changes the folder's .gitignore or README.md, nothing else.

A file an admit, amend or retire merge writes (the new entry, a flipped, amended or retired
one) holds nothing beyond its fields and sections: it is the entry as gitmem writes it
(Entry.render), or, for a new entry, the candidate's own reviewed bytes with the admission
lines as gitmem writes them; a YAML comment, which every reader passes over, would otherwise
reach the memory branch unreviewed (_judge_as_written). A commit that changes no memory does
not say it is a gitmem merge (`gitmem: admit|amend|retire …`: _judge_claim).

In every such commit INDEX.md matches its tree. No commit is trusted because the receiver
already has it: the chain is judged back to the first commit on the old tip's own
first-parent chain (the state the memory branch was in, judged when it arrived). An update
whose first-parent chain does not pass through the old tip (a force push, or a merge that
takes an older main commit as its first parent and the tip as its second) must also leave
the net diff old → new without a deleted or altered entry (a supersession flip, a
retirement or a later amendment aside: an entry's state only moves forward) and keep
refused.md and allowed.md as prefixes of themselves, so an id once admitted is never
admitted again with other text; and a new admission carries no field of a later amendment
or retirement, so a rewrite cannot pass a re-admission off as an amended entry.

What holds on every ref (branches, tags, refs/archive/…), for every new commit: one that no
branch, tag or notes ref of the server reaches (those came through this judge; a forge's own
refs, refs/pull/ and refs/merge-requests/, did not: JUDGED_REFS):

- every memory file the commit adds or changes is scanned for secrets and hidden Unicode,
  INDEX.md, refused.md and allowed.md included (refused.md: the rows appended; INDEX.md: unless
  it is exactly its first parent's INDEX.md brought up to date with the commit's entries,
  which are scanned themselves), and so is the message of a commit that changes the memory or
  speaks for gitmem (`gitmem: …`), with its author and committer, of every annotated tag
  pushed and every note a notes ref's commit adds or changes or the ref shows anew (git log
  prints it under the commit it annotates), and so is the
  name of every ref the push creates or moves but the memory branch, whose name is the
  server's (_scan_ref_names). A secret in any new
  commit refuses the push, even when a later commit removes it; only a reviewed fingerprint
  (gitmem.settings.policy) allows one;
- a letter-case or spelling variant of the memory folder (`.GITMEM`, `.gitmem.`, which a
  case-insensitive checkout makes the memory folder; `GITMEM~1`, its 8.3 short name on
  Windows), a variant of its layout names (`Entries/`), a name that is not UTF-8, a symbolic
  link, and the memory folder itself (or a folder on its way) as a link or a submodule are
  refused (LAYOUT, SYMLINK); so in a tag of a tree;
- a candidate branch `gitmem/<id>` changes only its own `candidates/<id>.md`; a ref that is a
  letter-case or spelling variant of the memory branch or of `gitmem/` (as the memory folder's
  are: `maın`) is refused, and so is a replace ref (`refs/replace/<id>`) created or moved,
  which has git show another object in place of a judged one. The judge's own git runs with
  --no-replace-objects, so a replace ref the server already holds changes nothing it reads.

The memory branch's new commits beside its first-parent chain (what a merge's second parent
brings) are held to those rules of every ref; gitmem admit holds a candidate branch's commits
to them before its merge brings them in (judge_merged), so that admit never makes a memory
branch this judge refuses.

The policy (memory branch and folder, who admits, extra types, body length, who may change
policy, reviewed fingerprints) never comes from the commits judged: on a server from its git
config, for `--range A..B` and `--pre-push` from the trusted base (gitmem.settings.policy). A
push that changes those settings in the memory branch's tree is refused unless the pusher is a
policy admin.

The judge looks a tree's entries up by name, so it sees one memory folder where a tree that
names it twice (or out of order) checks out another: such trees are git's to refuse, and the
server hook runs only where git checks pushed objects (`unchecked_objects`). The client
checks (`--range`, `--pre-push`) do not, and are no gate against such a tree.

Speed: a commit whose memory folder is the same tree as its parent's costs two subtree
look-ups, so pushes that touch no memory cost next to nothing, and the work follows the size
of the push, never the size of the store. A big push (thousands of admissions) reads its diffs
from one `git diff-tree` stream and scans its files on another core (Store.diff_stream,
scanner.py), while the rules are judged commit by commit in one pass; each INDEX.md is proven
by hashing the expected bytes, spliced from its parent's, against its blob id, never read.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Generator, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache, partial
from typing import TYPE_CHECKING, Final

from gitmem import parallel as forked
from gitmem.errors import GitmemError, UsageError
from gitmem.gate.check import Report
from gitmem.gate.rules import (
    LAYOUT_NAMES,
    OWN_FILES,
    Context,
    Place,
    check_entry,
    check_paths,
    place_of,
    shown,
    variant_of,
)
from gitmem.index import indexmd as index_mod
from gitmem.model import allowed as allowed_mod
from gitmem.model import curation
from gitmem.model import refused as refused_mod
from gitmem.model.entry import (
    Entry,
    EntryError,
    candidate_text,
    decode,
    is_candidate_text,
    parse,
)
from gitmem.model.fields import MAX_ENTRY_BYTES
from gitmem.model.names import (
    BRANCH_PREFIX,
    PROJECT_SETTINGS,
    PYPROJECT,
    SETTINGS_FILES,
    is_slug,
    is_utf8,
)
from gitmem.model.problem import Problem
from gitmem.repo.refs import is_object_id
from gitmem.repo.snapshot import MISSING, TreeSnapshot
from gitmem.repo.store import ZERO, Change, CommitInfo, Store, TreeItem
from gitmem.repo.workspace import policy_at as workspace_policy_at
from gitmem.settings import policy as policy_mod
from gitmem.settings.load import Settings
from gitmem.settings.policy import Policy, PolicyError

if TYPE_CHECKING:
    from gitmem.gate.scanner import Scanner
    from gitmem.gate.secrets import Finding
    from gitmem.model.refused import Refusal
    from gitmem.repo.gitcli import PinnedRepository

#: From how many new commits on a push their diffs come from one git process.
BULK_DIFF_MIN = 32
#: From how many updates a push is judged by two processes.
SPLIT_MIN = 512
SCAN_CAP = MAX_ENTRY_BYTES
#: refused.md and allowed.md grow by a line a refusal or an exception
APPEND_CAP = 4 * 1024 * 1024
#: memory blobs kept per push, whatever the push holds
BLOB_CACHE_BYTES = 256 * 1024 * 1024
#: a commit message is scanned up to this many bytes (and refused beyond: TOO-LARGE)
MESSAGE_CAP = 64 * 1024
#: gitmem's own files that only a policy admin edits
MAINTAINED = (".gitignore", "README.md")


@dataclass(frozen=True)
class Update:
    old: str
    new: str
    ref: str


@dataclass
class Judge:
    """The state shared by the checks of one push: policy, exclusions, what was read."""

    store: Store
    policy: Policy
    exclude: list[str]
    pusher: str | None = None
    #: "server" (pre-receive: the pusher is known when the server says) or "client"
    side: str = "server"
    #: pre-push: the name of the remote pushed to, which advice names; None when the push
    #: goes to a URL (git then hands the hook the URL, which may carry a password) or is
    #: judged on the server
    remote: str | None = None
    settings: Settings = field(init=False)
    scanned: set[str] = field(default_factory=set)
    changes: dict[tuple[str, str | None], list[Change]] = field(default_factory=dict)
    blobs: dict[str, bytes] = field(default_factory=dict)
    blob_bytes: int = 0
    parsed: dict[str, Entry | None] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    checked: int = 0
    commits: dict[str, CommitInfo] = field(default_factory=dict)
    memory_trees: dict[str, str | None] = field(default_factory=dict)
    # the memory-folder diffs of a big push, read from one `git diff-tree` into changes
    stream: Generator[tuple[tuple[str, str | None], list[Change]]] | None = None
    streamed: set[tuple[str, str | None]] = field(default_factory=set)  # the stream's pairs
    outside: set[str] = field(default_factory=set)  # streamed commits that changed more too
    # refused.md at the memory branch's tip, read once for every candidate branch of the push
    refusals: dict[str, Refusal] | None = None
    # the secret scans: which file of which commit each scan is, and what was found so far
    scanner: Scanner | None = None  # made when a memory file is first scanned
    scanned_files: list[tuple[str, str]] = field(default_factory=list)
    # fingerprints that admit merges of this push allowed, by the id they admit
    push_allowed: dict[str, set[str]] = field(default_factory=dict)
    # the INDEX.md bytes proven for the last commits (a commit is its child's parent)
    index_bytes: dict[str, bytes | None] = field(default_factory=dict)
    # the last refused.md / allowed.md read, by blob id (each version is the next one's base)
    appended: dict[str, bytes] = field(default_factory=dict)
    # the memory folder's path in a tree: its variants, and what holds it that is no folder
    variants_seen: dict[str, tuple[list[tuple[str, str]], list[tuple[str, str]]]] = field(
        default_factory=dict
    )
    proven: dict[str, bool] = field(default_factory=dict)  # INDEX.md proven, by commit
    # the memory paths the push adds or changes, each with the first commit that does, in
    # order: their names are scanned for secrets at the end, all in one text (_scan_names)
    names: dict[str, str] = field(default_factory=dict)
    # the authors and committers (`name <email>`) of the push's scanned commits, each with the
    # first commit that names them: scanned at the end, all in one text (_scan_people)
    people: dict[str, str] = field(default_factory=dict)
    # whether a commit is main's tip or an ancestor of it, asked of candidate branches' parents
    on_main: dict[str, bool] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.settings = self.policy.settings()

    def commit(self, oid: str) -> CommitInfo:
        """A commit's parents, tree and message, read once per push."""
        info = self.commits.get(oid)
        if info is None:
            info = self.commits[oid] = self.store.commit(oid)
        return info

    @property
    def dir(self) -> str:
        return self.policy.dir

    def add(
        self, path: str, rule: str, message: str, commit: str | None = None, line: int | None = None
    ) -> None:
        where = f" (commit {commit[:12]})" if commit else ""
        self.problems.append(Problem(path, line, rule, message + where))

    def memory_tree(self, commit: str | None) -> str | None:
        """The memory folder's tree at a commit (kept: a commit is its child's parent)."""
        if commit is None:
            return None
        if commit not in self.memory_trees:
            self.memory_trees[commit] = self.store.subtree(self.commit(commit).tree, self.dir)
        return self.memory_trees[commit]

    def rel(self, path: str) -> str:
        """A memory path relative to the memory folder."""
        return path[len(self.dir) + 1 :]


# ---------------------------------------------------------------------------------------------
# entry points


def check_range(
    spec: str, ref: str | None = None, *, pinned: PinnedRepository | None = None
) -> Report:
    """`gitmem check --range A..B`: judge the commits of A..B as an update of ref (default: the
    branch named by B, or the current branch when B is HEAD), with the policy committed at A,
    in the repository here (or pinned, the one GIT_DIR names)."""
    store = Store.open(None, pinned=pinned)
    if ".." not in spec or "..." in spec:
        raise UsageError(f"--range {spec!r}: write A..B (two revisions)")
    left, right = spec.split("..", 1)
    if not left.strip():
        # git reads `..B` as HEAD..B, and A is the trusted base: `$BASE..$HEAD` with BASE
        # never set (a CI variable) judged HEAD..HEAD, no commit at all, and passed without a
        # word. An empty B stays git's HEAD: the base, the one that matters, is named.
        raise UsageError(
            f"--range {spec!r} names no base: write A..B with A the trusted base, whose "
            "settings judge the commits up to B (a variable left empty?)"
        )
    old = store.resolve(left)
    new = store.resolve(right or "HEAD")
    if old is None or new is None:
        missing = left if old is None else right
        raise UsageError(f"--range: {missing!r} is not a commit here (git fetch first?)")
    target = ref or _ref_for(store, right or "HEAD")
    policy = policy_at(store, old, f"the base commit {old[:12]}")
    return judge(store, [Update(old, new, target)], exclude=[old], policy=policy, side="client")


def _ref_for(store: Store, rev: str) -> str:
    """The ref a range A..rev is judged as an update of: the ref git reads rev as, a remote's
    branch (`origin/main`, `refs/remotes/origin/main`: what CI holds of the pushed branch) as
    that branch, HEAD as its branch (HEAD itself when detached). What names no ref (a commit
    id) is judged as a branch of that name: by the rules of every ref, not the memory
    branch's (write the branch, or a commit of main is judged as code)."""
    name = store.ref_name(rev)
    if name is None:
        return f"refs/heads/{rev}"
    if name.startswith("refs/remotes/"):
        _remote, _, branch = name.removeprefix("refs/remotes/").partition("/")
        return f"refs/heads/{branch}"
    return name


def parse_updates(text: str, *, pre_push: bool) -> list[Update]:
    """The updates of a pre-push (`local-ref local-sha remote-ref remote-sha`) or pre-receive
    (`old new ref`) hook's input. A line that git would not write (another shape, an id that
    is not a full hex object id, a ref outside refs/) is a UsageError naming it: read as no
    update, it would let the push through unjudged."""
    updates = []
    hook = "pre-push" if pre_push else "pre-receive"
    shape = "<local-ref> <local-id> <remote-ref> <remote-id>" if pre_push else "<old> <new> <ref>"
    for number, line in enumerate(text.splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        if pre_push and len(parts) == 4:
            _local_ref, new, ref, old = parts
        elif not pre_push and len(parts) == 3:
            old, new, ref = parts
        else:
            raise UsageError(
                f"{hook} input, line {number}: {_quoted_line(line)} is not `{shape}` as git "
                f"writes it; gitmem check --{hook} reads what git gives the {hook} hook"
            )
        bad = next((oid for oid in (old, new) if not is_object_id(oid)), None)
        if bad is not None or not ref.startswith("refs/"):
            what = (
                f"{_quoted_line(bad)} is not a full object id"
                if bad
                else f"{_quoted_line(ref)} is not a full ref name"
            )
            raise UsageError(
                f"{hook} input, line {number}: {what}; gitmem check --{hook} reads what git "
                f"gives the {hook} hook (`{shape}`)"
            )
        updates.append(Update(old, new, ref))
    return updates


def _quoted_line(line: str, most: int = 120) -> str:
    """A hook input line as a message quotes it: whole when short, else its start and its
    length. Quoted whole, a line of a megabyte (`gitmem check --pre-push < a-file`) made a
    message of a megabyte."""
    if len(line) <= most:
        return repr(line)
    return f"{line[:most]!r}… ({len(line):,} characters)"


def _held(store: Store, updates: list[Update], hook: str) -> list[Update]:
    """updates, once every object they bring is here: a hook's input naming an object the
    repository lacks is not git's, and a missing object would be judged as no commit."""
    for update in updates:
        if update.new != ZERO and not store.has_object(update.new):
            raise UsageError(
                f"{hook} input names {update.new} for {update.ref}, which this repository "
                f"does not hold; gitmem check --{hook} reads what git gives the {hook} hook"
            )
    return updates


def check_pre_push(stdin: str, remote: str | None = None) -> Report:
    """The pre-push gate: what the remote does not have yet, judged as the server would, with
    the policy committed at the remote's tip of the memory branch (its trusted base)."""
    store = Store.open(None, from_env=True)
    updates = _held(store, parse_updates(stdin, pre_push=True), "pre-push")
    tracking = store.refs(f"refs/remotes/{remote}/") if remote else {}
    # what the remote has: its tracking refs and the old tips git names (Store.new_commits
    # leaves out a zero id and an object this clone lacks)
    exclude = [*tracking.values(), *(u.old for u in updates)]

    def remote_tip(branch: str) -> str | None:
        for update in updates:
            if update.ref == f"refs/heads/{branch}" and store.has_object(update.old):
                return update.old
        return tracking.get(f"refs/remotes/{remote}/{branch}")

    default = _default_branch(store, remote)
    base = remote_tip(default)
    policy = policy_at(store, base, f"the remote's {default} at {base[:12]}") if base else Policy()
    if policy.branch != default:
        moved = remote_tip(policy.branch)
        if moved:
            policy = policy_at(store, moved, f"the remote's {policy.branch} at {moved[:12]}")
    # the remote's tip stands for a main whose old tip this clone does not have
    known = [
        Update(remote_tip(policy.branch) or ZERO, u.new, u.ref)
        if u.ref == policy.main_ref and not store.has_object(u.old)
        else u
        for u in updates
    ]
    # git hands the hook the remote's name, or the URL twice when none names it: a URL is
    # never repeated in advice (it may carry a password, and hook output lands in CI logs)
    named = remote if remote in store.remote_names() else None
    return judge(store, known, exclude=exclude, policy=policy, side="client", remote=named)


def check_pushed_by_pre_commit(environ: Mapping[str, str]) -> Report:
    """The pre-commit framework's pre-push stage, judged as the native pre-push hook judges
    it. The framework reads git's pre-push input itself and hands its hooks one pushed ref in
    the environment: PRE_COMMIT_REMOTE_NAME and PRE_COMMIT_REMOTE_BRANCH always, the range as
    PRE_COMMIT_FROM_REF / PRE_COMMIT_TO_REF, or, when the push brings the root commit, only
    PRE_COMMIT_LOCAL_BRANCH (what the remote has is then excluded by its tracking refs)."""
    store = Store.open(None, from_env=True)
    remote = environ.get("PRE_COMMIT_REMOTE_NAME", "")
    ref = environ.get("PRE_COMMIT_REMOTE_BRANCH", "")
    old = environ.get("PRE_COMMIT_FROM_REF") or ZERO
    new_rev = environ.get("PRE_COMMIT_TO_REF") or environ.get("PRE_COMMIT_LOCAL_BRANCH", "")
    new = store.resolve(new_rev) if new_rev else None
    if new is None or not ref:
        raise UsageError(
            "the pre-commit framework named no pushed ref (PRE_COMMIT_REMOTE_BRANCH, "
            "PRE_COMMIT_TO_REF): run gitmem check --pre-commit-framework from its pre-push stage"
        )
    old_commit = store.resolve(old) if old != ZERO else None
    line = f"{new_rev} {new} {ref} {old_commit or ZERO}\n"
    return check_pre_push(line, remote or None)


#: the refs whose commits a server holds only as a push this judge judged brought them: a
#: forge writes refs of its own without a push through the hook (GitHub's and Gitea's
#: refs/pull/, GitLab's refs/merge-requests/ and refs/keep-around/, Gerrit's refs/changes/)
JUDGED_REFS = ("refs/heads/", "refs/tags/", "refs/notes/")


def _judged_ref(ref: str) -> bool:
    """Whether the server holds ref's commits as judged: the walk of a push leaves those out,
    and walks the rest (a fork's commits a forge holds for a pull request, when main brings
    them, are new to the memory's judge)."""
    return ref.startswith(JUDGED_REFS)


def _default_branch(store: Store, remote: str | None) -> str:
    return (store.remote_default_branch(remote) if remote else None) or "main"


def check_pre_receive(stdin: str) -> Report:
    """The server gate.  The repository is opened from the environment, so the objects git
    holds in quarantine during the push are visible; every branch, tag and notes ref the
    server has is excluded from the walk of new commits (never from the rules; _judged_ref);
    the policy is the server's config."""
    store = Store.open(None, from_env=True)
    updates = _as_written(store, _held(store, parse_updates(stdin, pre_push=False), "pre-receive"))
    config = store.config_section("gitmem")
    try:
        policy = policy_mod.from_config(config)
        mode = policy_mod.enforcement(config)  # warn mode: the server's say, like the policy
    except PolicyError as exc:
        return _no_policy(f"{exc}: fix it with `git config` in the bare repository")
    if policy is None:
        return _no_policy(
            "this server holds no gitmem policy (no gitmem.branch in its git config): "
            "an administrator runs `gitmem hooks install --server` in the bare repository"
        )
    written = store.written_ref(policy.main_ref)
    if written != policy.main_ref:
        if not written.startswith("refs/heads/"):
            return _no_policy(
                f"gitmem.branch {policy.branch!r} is a symbolic ref to {written}, which is no "
                "branch: set gitmem.branch to the branch that holds the memory"
            )
        # git writes pushes to the branch it leads to: that branch holds the memory
        policy = replace(policy, branch=written.removeprefix("refs/heads/"))
    unchecked = unchecked_objects(store)
    if unchecked:
        return _no_policy(unchecked)
    exclude = [oid for ref, oid in store.refs("refs/").items() if _judged_ref(ref)]
    report = judge(store, updates, exclude=exclude, policy=policy, pusher=policy_mod.pusher())
    return report.in_mode(mode)


def _as_written(store: Store, updates: list[Update]) -> list[Update]:
    """updates, each as an update of the ref git will write: a server may hold a symbolic ref
    (`refs/heads/master` leading to main, kept for old clones after a rename), and a push to
    it moves (or deletes) the ref it leads to while the hook's input names the symbolic ref.
    Judged under the name pushed, a forged entry pushed to `master` was judged as code and
    landed on main; judged as what git writes, it meets main's rules. The policy's memory
    branch is read so too (check_pre_receive): gitmem.branch naming such a `master` guards
    main, where the memory is."""
    return [replace(update, ref=store.written_ref(update.ref)) for update in updates]


#: git's fsck setting that refuses a pushed tree with two entries of one name
FSCK_KEY = "receive.fsckObjects"


def unchecked_objects(store: Store) -> str | None:
    """Why git does not refuse the malformed objects of a push on this server, or None when it
    does (receive.fsckObjects, or transfer.fsckObjects, on, and duplicateEntries left an
    error, and treeNotSorted). A tree may hold two entries of one name: the judge looks a name
    up and reads one of them, git's checkout and `ls-tree` read both, so a memory folder clean
    to the judge checks out with the forged entries of its twin; in a tree out of order the
    look-up misses `.gitmem` that a checkout writes, unscanned. Only git's own check of the
    pushed objects sees every such tree; without it the hook refuses every push (POLICY)."""
    receive = store.config_bool(FSCK_KEY)
    on = receive if receive is not None else bool(store.config_bool("transfer.fsckObjects"))
    relaxed = next(
        (
            f"{prefix}.{message}"
            for message in ("duplicateEntries", "treeNotSorted")
            for prefix in ("receive.fsck", "fsck")
            if (store.config(f"{prefix}.{message}") or "error").lower() != "error"
        ),
        None,
    )
    if on and relaxed is None:
        return None
    why = f"{relaxed} is not 'error'" if on else f"{FSCK_KEY} is off"
    return (
        f"this server does not have git refuse malformed pushed objects ({why}): a tree with "
        "two entries of one name would show the gate one memory folder and a checkout another; "
        f"an administrator runs `gitmem hooks install --server` (or `git config {FSCK_KEY} "
        "true`) in the bare repository"
    )


def _no_policy(message: str) -> Report:
    return Report([Problem("git config gitmem.*", None, "POLICY", message)], 0, unit="commit")


def policy_at(store: Store, commit: str | None, source: str) -> Policy:
    """The policy committed at a trusted base (workspace.policy_at), with the findings its
    allowed.md lists."""
    policy = workspace_policy_at(store, commit, source)
    tree = store.tree_of(commit) if commit else None
    return policy.with_allowed(list(_allowed_at(store, tree, policy.dir)))


def _allowed_at(store: Store, tree: str | None, memory_dir: str) -> dict[str, object]:
    data = store.read_path(tree, f"{memory_dir}/{allowed_mod.NAME}") if tree else None
    return dict(allowed_mod.parse(data.decode("utf-8", "replace"))) if data else {}


def judge(
    store: Store,
    updates: Iterable[Update],
    *,
    exclude: list[str],
    policy: Policy,
    pusher: str | None = None,
    side: str = "server",
    remote: str | None = None,
) -> Report:
    """Every rule over a push's updates. Updates are judged independently of one another, so
    a push of many branches (10,000 candidates at once) is judged by two processes
    (gitmem.parallel), the memory branch's update, if any, by this one. remote: the named
    remote a pre-push pushes to (Judge.remote)."""
    updates = list(updates)
    if side == "server":
        tip = store.ref_target(policy.main_ref)
        policy = policy.with_allowed(
            list(_allowed_at(store, store.tree_of(tip) if tip else None, policy.dir))
        )

    def judged(part: list[Update]) -> list[tuple[list[Problem], list[str], int]]:
        judge_ = Judge(store, policy, exclude, pusher, side, remote)  # new_commits skips zero ids
        _judge_updates(judge_, part)
        return [(judge_.problems, judge_.warnings, judge_.checked)]

    if len(updates) >= SPLIT_MIN:  # the memory branch's update first, so it stays here
        updates.sort(key=lambda update: update.ref != policy.main_ref)
    problems: list[Problem] = []
    warnings: list[str] = []
    checked = 0
    for found, warned, count in forked.in_two(updates, judged, minimum=SPLIT_MIN):
        problems.extend(found)
        warnings.extend(warned)
        checked += count
    return Report(sorted(set(problems), key=Problem.sort_key), checked, warnings, unit="commit")


def _judge_updates(judge_: Judge, updates: list[Update]) -> None:
    try:
        # every update's commits first, so that a push of many branches (10,000 candidates)
        # has its diffs streamed by one git process and its scans done on another core
        walks = [(update, _walk(judge_, update)) for update in updates]
        _prefetch_changes(judge_, [c for _, walked in walks if walked for c in walked[1]])
        for update, walked in walks:
            _judge_update(judge_, update, walked)
        _report_scans(judge_)
        _withhold_refs(judge_, _scan_ref_names(judge_, updates))
    finally:
        _stop(judge_)


def _stop(judge_: Judge) -> None:
    if judge_.stream is not None:
        judge_.stream.close()  # stops git if a failure left diffs unread
    if judge_.scanner is not None:
        judge_.scanner.close()


def judge_merged(
    store: Store,
    tip: str,
    main: str | None,
    policy: Policy,
    *,
    allowed: Mapping[str, Iterable[str]] | None = None,
    reported: Iterable[str] = (),
) -> list[Problem]:
    """What pre-push and pre-receive would refuse among the commits a merge of tip onto main
    (the memory branch's tip) brings into the memory branch: main..tip, before any such
    merge is made (gitmem admit asks it of a candidate branch, gitmem candidates too).

    Those commits arrive beside the memory branch's first-parent chain, and _judge_main
    holds each such side commit to the rules of every ref, by _scan_commit: secrets and
    hidden Unicode in every memory file it adds or changes and in its message, a message
    declared in another encoding, sizes, variants of the folder's names, links. So they are
    judged here by that same code; a secret a later commit of the branch removed is still
    found, since the merge brings the commit that held it. The admit merge itself, which
    gitmem builds, is no side commit and is not judged here; nor are the rules of a
    `gitmem/<id>` ref, which the server holds the branch to when it is pushed, not main.

    allowed: fingerprints, by entry id, that the merge's allowed.md rows will record (gitmem
    admit --allow): the gate allows them in that entry's files only, and so does this.
    reported: blob ids whose findings the caller reports itself (the candidate file it
    judged at the tip): not scanned a second time. A clone too shallow to hold the history
    between main and tip is a UsageError (shallow_clone), never a verdict on cut history."""
    j = Judge(store, policy, [main] if main else [], side="client")
    j.push_allowed = {key: set(values) for key, values in (allowed or {}).items()}
    j.scanned.update(reported)
    try:
        walked = _walk(j, Update(main or ZERO, tip, policy.main_ref))
        commits = walked[1] if walked else []
        cut = store.shallow_commits().intersection(commits)
        if cut:
            raise shallow_clone(f"the parents of commit {min(cut)[:12]} were not fetched")
        _prefetch_changes(j, commits)
        for commit in commits:
            _scan_commit(j, commit)
        _report_scans(j)
    finally:
        _stop(j)
    return sorted(set(j.problems), key=Problem.sort_key)


def shallow_clone(detail: str) -> UsageError:
    """The error for history a shallow clone lacks: what it would say of the cut history
    (commits taken for roots, a diff of a whole tree) would blame the commits, not the
    clone."""
    return UsageError(f"this clone is shallow: run git fetch --unshallow ({detail})")


# ---------------------------------------------------------------------------------------------
# one update


def _walk(j: Judge, update: Update) -> tuple[str, list[str]] | None:
    """The commit an update brings and its new commits, oldest first; None when it brings no
    commit to judge (a deletion, or a tag of a tree or a blob)."""
    if update.new == ZERO:
        return None
    new = j.store.resolve(update.new)  # tags peeled; None for a tree or a blob
    if new is None:
        return None
    infos = j.store.new_commits(new, [*j.exclude, update.old])
    j.commits.update((info.oid, info) for info in infos)
    return new, [info.oid for info in infos]


#: where git keeps notes, which `git log` prints under the commits they annotate
NOTES_REFS = "refs/notes/"


def _judge_update(j: Judge, update: Update, walked: tuple[str, list[str]] | None) -> None:
    main_ref = j.policy.main_ref
    _judge_ref_name(j, update)
    if update.new != ZERO:
        _scan_tag_messages(j, update.new)
    if _is_notes_ref(update.ref) and update.new != ZERO:
        for commit in walked[1] if walked is not None else []:
            _scan_notes(j, commit)
        _scan_shown_notes(j, update)
    if update.new == ZERO:
        if update.ref == main_ref:
            j.add(
                update.ref,
                "HISTORY-DELETE",
                f"deleting {j.policy.branch} would delete the memory: refused",
            )
        return
    if walked is None:
        _judge_tagged_tree(j, update)
        return
    new, commits = walked
    j.checked += len(commits)
    if update.ref == main_ref:
        _judge_main(j, update, new, commits)  # scans each commit as it goes
        return
    for commit in commits:
        _scan_commit(j, commit)
    if update.ref.startswith(f"refs/heads/{BRANCH_PREFIX}"):
        _judge_candidate_branch(j, update, new, commits)


def _is_notes_ref(ref: str) -> bool:
    """Whether git shows ref's notes: a ref under refs/notes/, or under a letter-case or
    spelling variant of it (`refs/Notes/commits`), whose loose ref file a case-insensitive
    server's `git log` reads as refs/notes/commits."""
    return ref.startswith(NOTES_REFS) or _spelled_as(ref.split("/")[:2], ["refs", "notes"])


#: where git looks for objects to show in place of others (`git replace`)
REPLACE_REFS = "refs/replace/"


def _judge_ref_name(j: Judge, update: Update) -> None:
    """A ref that a case-insensitive server or checkout would take for the memory branch or a
    candidate branch, without being one: refused (LAYOUT); its commits are still judged as
    any other branch's, so that a secret in them is named too. So is a replace ref created or
    moved: git (log, show, checkout, a hook's diff) would show its object in place of the one
    its name gives, in every clone that fetches it, so what the gate judged would no longer be
    what a reader sees; deleting one is the way back."""
    parts = update.ref.split("/")
    replacing = update.ref.startswith(REPLACE_REFS) or _spelled_as(parts[:2], ["refs", "replace"])
    if replacing and update.new != ZERO:  # refs/Replace/ is refs/replace/ to a macOS server
        j.add(
            shown(update.ref),
            "LAYOUT",
            "a replace ref makes git show another object in place of the one it names, so "
            "that history reads otherwise than it was judged: refused (push the object under "
            "a branch or tag instead)",
        )
    main_ref, ref = j.policy.main_ref, update.ref
    prefix = f"refs/heads/{BRANCH_PREFIX}"
    head = prefix.rstrip("/").split("/")
    target = (
        main_ref
        if _spelled_as(parts, main_ref.split("/"))
        else prefix
        if len(parts) > len(head) and _spelled_as(parts[: len(head)], head)
        else None
    )
    if target is not None:
        j.add(
            shown(ref),
            "LAYOUT",
            f"a letter-case or spelling variant of {target}: a case-insensitive or normalising "
            "server or checkout (whose loose ref files are named so) takes it for that ref; "
            "name it otherwise",
        )


def _spelled_as(parts: list[str], target: list[str]) -> bool:
    """Whether a ref's name parts spell target's otherwise than it does, as a file system
    compares names (rules.variant_of: letter case, `ı` for `i`, characters macOS ignores)."""
    return (
        len(parts) == len(target)
        and parts != target
        and all(p == t or variant_of(p, t) for p, t in zip(parts, target, strict=True))
    )


def _scan_ref_names(j: Judge, updates: list[Update]) -> list[str]:
    """The refs of the push whose names hold a secret, each pushed one reported as SECRET
    (its name withheld): a branch or tag named after a token carries it to the server, into
    every clone that fetches it and every log that prints the ref. The names scanned are
    every ref the push creates or moves but the memory branch (whose name is the server's
    policy, not the pusher's choice; so a push of code to it alone loads no secret rules),
    and every ref a problem is about. A deletion is not refused: it is the way out."""
    prefix = f"refs/heads/{BRANCH_PREFIX}".casefold()
    named = {problem.path for problem in j.problems}
    refs = list(
        dict.fromkeys(
            u.ref
            for u in updates
            if (u.new != ZERO and u.ref != j.policy.main_ref) or shown(u.ref) in named
        )
    )
    if not refs:
        return []
    found = _scan_lines(j, [shown(ref) for ref in refs])
    tips = {u.ref: u.new for u in updates}
    for number, findings in sorted(found.items()):
        ref = refs[number]
        if tips[ref] == ZERO:
            continue
        what = "candidate branch" if ref.casefold().startswith(prefix) else "ref"
        for finding in findings:
            j.add(
                shown(ref),  # withheld with the others' names by _withhold_refs
                "SECRET",
                f"a {what} whose name holds a secret, {finding.rule}: {finding.description} "
                f"({finding.excerpt}): delete it (`git branch --points-at {tips[ref][:12]}` "
                "names it), push its commits under a name without the secret and rotate the "
                "secret; if a reviewer (not its author) finds it harmless, they record its "
                f"fingerprint {finding.fingerprint} (gitmem.allow in the server's git config)",
            )
    return [refs[number] for number in sorted(found)]


def withheld_ref(ref: str) -> str:
    """How a problem shows a ref whose name holds a secret: the prefix gitmem knows
    (`refs/heads/gitmem/`, `refs/heads/`, `refs/tags/`), then, for the rest, a note and the
    first 12 hex digits of the full name's SHA-256 (telling two such refs apart without
    printing either)."""
    digest = hashlib.sha256(ref.encode("utf-8", "surrogateescape")).hexdigest()[:12]
    return f"{_ref_parts(ref)[0]}(withheld: a name holding a secret, sha256 {digest})"


def _ref_parts(ref: str) -> tuple[str, str]:
    """A ref as the prefix gitmem knows (matched regardless of letter case, as a
    case-insensitive server would) and the rest, the part that may hold a secret."""
    for head in (f"refs/heads/{BRANCH_PREFIX}", "refs/heads/", "refs/tags/", "refs/"):
        if ref.casefold().startswith(head.casefold()):
            return ref[: len(head)], ref[len(head) :]
    return "", ref


def _withhold_refs(j: Judge, refs: list[str]) -> None:
    """Every problem that names one of refs shown without the secret: the ref, and the rest
    of its name after the prefix gitmem knows wherever it appears (`gitmem/<id>` in a
    candidate branch's messages, the id in its file's path), as withheld_ref shows it."""
    if not refs:
        return
    spelled: dict[str, str] = {}
    for ref in refs:
        head, tail = _ref_parts(ref)
        label = withheld_ref(ref)
        spelled[shown(ref)] = label
        spelled[shown(tail)] = label.removeprefix(head)
    ordered = sorted(spelled, key=len, reverse=True)  # a whole ref before the rest of it
    kept = []
    for problem in j.problems:
        path, message = problem.path, problem.message
        for name in ordered:
            path = path.replace(name, spelled[name])
            message = message.replace(name, spelled[name])
        kept.append(replace(problem, path=path, message=message))
    j.problems[:] = kept


def _judge_tagged_tree(j: Judge, update: Update) -> None:
    """A tag of a tree (no commit): the memory files in it are judged as a root commit's
    added files are (scanned, and their names and kinds checked), and so is the memory
    folder's path: a variant of it (`.GITMEM/`), which a case-insensitive checkout of the tree
    takes for the memory folder and which the walk of the memory folder alone never scans,
    is refused as in a commit."""
    tree = j.store.peel_tree(update.new)
    if tree is None:  # a tag of a blob: no memory folder in it
        return
    _check_tree_variants(j, tree, None, update.new)
    memory = j.store.subtree(tree, j.dir)
    added = [Change("A", item.path, None, item) for item in j.store.walk(memory, f"{j.dir}/")]
    _scan_changes(j, added, update.new)


def _memory_changes(j: Judge, commit: str, parent: str | None) -> list[Change]:
    """What a commit changed in the memory folder against a parent (computed once: the scan
    and the rules both need it)."""
    key = (commit, parent)
    cached = j.changes.get(key)
    if cached is None and key in j.streamed:
        cached = _streamed(j, key)
    if cached is None:
        before, after = j.memory_tree(parent), j.memory_tree(commit)
        cached = [] if before == after else j.store.diff(before, after, prefix=f"{j.dir}/")
        j.changes[key] = cached
    return cached


def _first_parent(j: Judge, commit: str) -> str | None:
    parents = j.commit(commit).parents
    return parents[0] if parents else None


def _prefetch_changes(j: Judge, commits: list[str]) -> None:
    """Start diffing the memory folder of all a push's commits against their first parents
    in one git process (Store.diff_stream says why), read as judging reaches each commit, so
    git diffs ahead on another core; a push of a few commits diffs them one by one instead.
    The folder's trees are compared only up to the first commit that changes it: a push of
    admissions starts git at once, a push of code alone never starts it."""
    pairs = list(dict.fromkeys((c, p[0] if (p := j.commit(c).parents) else None) for c in commits))
    if len(pairs) < BULK_DIFF_MIN:
        return
    if all(j.memory_tree(c) == j.memory_tree(p) for c, p in pairs):
        j.changes.update((key, []) for key in pairs)  # code only: no git process to start
        return
    j.streamed.update(pairs)
    j.stream = j.store.diff_stream(pairs, j.dir, j.outside)


def _streamed(j: Judge, key: tuple[str, str | None]) -> list[Change]:
    """A commit's changes from the running diff stream (read up to it)."""
    while key not in j.changes and j.stream is not None:
        got = next(j.stream, None)
        if got is None:
            j.stream.close()
            j.stream = None
        else:
            j.changes[got[0]] = got[1]
    if key not in j.changes:
        raise GitmemError(f"git diff-tree gave no answer for commit {key[0]}")
    return j.changes[key]


# ---------------------------------------------------------------------------------------------
# what holds on every ref: scans and layout


def _scan_commit(j: Judge, commit: str) -> None:
    """Secrets, hidden Unicode and unreadable files in every memory blob a commit adds, its
    message, and the layout of its memory folder (the scanner reports its findings when the
    push has been walked: _report_scans)."""
    info = j.commit(commit)
    parent = info.parents[0] if info.parents else None
    changes = _memory_changes(j, commit, parent)
    _check_variants(j, commit, parent)
    if changes or info.message.startswith("gitmem:"):
        _check_message_encoding(j, commit, info.encoding)
        _scan_message(j, commit, info.message)
        _note_people(j, commit)
    _scan_changes(j, changes, commit, lambda: _index_proven(j, commit, parent, changes))


def _scan_changes(
    j: Judge, changes: list[Change], commit: str, index_proven: Callable[[], bool] | None = None
) -> None:
    """Every memory file that changes add or change: scanned (refused.md and allowed.md: the
    rows appended), its name and kind checked; findings name commit (or the tag of a tree).
    A file holding NUL bytes (UTF-16 or UTF-32) is read by the scanner as a terminal shows
    it, without them (gitmem.gate.secrets renders control characters away), so a token
    written so is a secret, not only hidden Unicode, which warn mode lets in.
    index_proven, a commit's, says whether its INDEX.md is its parent's brought up to date
    (then its entries, scanned themselves, are all it says: no scan)."""
    index_path, refused_path, allowed_path = (
        f"{j.dir}/INDEX.md",
        f"{j.dir}/refused.md",
        f"{j.dir}/{allowed_mod.NAME}",
    )
    for change in changes:
        new = change.new
        if not is_utf8(change.path):
            j.add(
                shown(change.path),
                "LAYOUT",
                "a name that is not UTF-8 in the memory folder: memory files have UTF-8 names",
                commit,
            )
        _check_layout_name(j, change, commit)
        if new is None:
            continue
        j.names.setdefault(change.path, commit)
        # a link before the already-scanned test: a link's blob is its target, and a file of
        # this push holding the same bytes would otherwise let the link through unnamed
        if not new.is_file:  # each path named: two links to one target are two problems
            _report_link(j, change.path, new, commit)
            _scan_link_target(j, change.path, new, commit)
            continue
        if new.oid in j.scanned:
            continue
        if change.path == index_path and index_proven is not None and index_proven():
            continue  # its text is its parent's INDEX.md and the commit's scanned entries
        j.scanned.add(new.oid)
        appended = change.path in (refused_path, allowed_path)
        cap = APPEND_CAP if appended else SCAN_CAP
        data = _appended_bytes(j, new.oid) if appended else _blob(j, new.oid)
        if len(data) > cap:
            j.add(shown(change.path), "TOO-LARGE", f"is over {cap // 1024} KiB", commit)
            continue
        offset = 0
        if appended and change.old is not None:
            before = _appended_bytes(j, change.old.oid)
            if data.startswith(before):  # append-only: only the new rows need a scan
                offset = before.count(b"\n")
                data = data[len(before) :]
        if change.path == allowed_path:
            data = _without_fingerprints(data)
        _queue_scan(j, change.path, commit, data, offset)


def _queue_scan(j: Judge, path: str, where: str, data: bytes, offset: int = 0) -> None:
    """A memory file's text handed to the push's one scanner, its findings reported on path
    at where (_report_scans); offset is the line the text starts at."""
    j.scanned_files.append((path, where))
    _scanner(j).add(str(len(j.scanned_files) - 1), data, offset)


def _report_link(j: Judge, path: str, item: TreeItem, commit: str) -> None:
    """A memory path that is a link, not a file: a symbolic link, or a submodule's gitlink
    (whose commit id gitmem would otherwise read as a file's blob)."""
    if item.is_symlink:
        j.add(shown(path), "SYMLINK", "a symbolic link in the memory folder", commit)
    else:
        j.add(
            shown(path),
            "LAYOUT",
            "a submodule link in the memory folder: memory files are plain files",
            commit,
        )


def _scan_link_target(j: Judge, path: str, item: TreeItem, commit: str) -> None:
    """A symbolic link's target, scanned as a message is: the link's blob is that text, which
    a checkout writes and `git log -p` prints. SYMLINK refuses the link, but warn mode lets
    it through, and only a secret is refused in every mode: a token written as the target
    landed unread. (A submodule link's id is a commit's, no text of the push.)"""
    if not item.is_symlink or item.oid in j.scanned:
        return
    j.scanned.add(item.oid)
    data = j.store.read(item.oid, MESSAGE_CAP)
    _scan_text(j, f"{path} (the link's target)", data, commit, "a link's target")


def _without_fingerprints(data: bytes) -> bytes:
    """allowed.md with each row's fingerprint blanked (hex digits beside words like `token`
    would look like a secret to the entropy rule); the rest of every row is scanned. Only a
    fingerprint this scanner gives is blanked (one of its rule ids, a colon, 32 hex digits):
    a row's shape admits any lower-case word in the rule id's place, and a token of letters,
    digits and dashes written there stood unread in allowed.md on any ref but main, whose
    admit merges alone check the column (_judge_allowed_rows)."""
    lines = data.split(b"\n")
    for number, line in enumerate(lines):
        text = line.decode("utf-8", "replace")
        row = allowed_mod.parse_row(text)
        if row is not None and _is_fingerprint(row.fingerprint):
            lines[number] = line.replace(row.fingerprint.encode(), b"-" * len(row.fingerprint), 1)
    return b"\n".join(lines)


def _check_message_encoding(j: Judge, commit: str, encoding: str | None) -> None:
    """A message that changes the memory must be UTF-8: under another `encoding` header, git
    (iconv) and the scanner (Python) may decode the same bytes into different text, as
    `punycode`, which iconv lacks and git shows as the plain bytes, or Windows-31J, which Python
    lacks and git shows as full-width letters; so such a message is refused, not guessed at."""
    if encoding is None or _codec(encoding) == "utf-8":
        return
    j.add(
        f"commit {commit[:12]} message",
        "ENCODING",
        f"declares the encoding {encoding[:40]!r}: a commit that changes the memory is judged as "
        "UTF-8 text, the encoding git writes by default; commit it again without "
        "i18n.commitEncoding",
        commit,
    )


def _codec(encoding: str) -> str | None:
    """Python's name of an encoding (`UTF8`, `utf_8`: `utf-8`), None for one it lacks."""
    import codecs

    try:
        return codecs.lookup(encoding).name
    except LookupError:
        return None


def _scan_message(j: Judge, commit: str, message: str) -> None:
    data = message.encode("utf-8", "surrogateescape")
    _scan_text(j, f"commit {commit[:12]} message", data, commit, "a commit message")


def _note_people(j: Judge, commit: str) -> None:
    """The author and committer of a commit whose message is scanned, kept for one scan at
    the end of the push (_scan_people): `git log` prints the author above the message
    (`--format=fuller` the committer too), as `git show` prints a tag's tagger, which is
    scanned with the tag's message; a token written as a name or an email reached every
    clone unread. Kept as `name <email>`, without the date, so that the thousands of commits
    of one person in a big push are one line."""
    for line in j.store.commit_people(commit).decode("utf-8", "surrogateescape").splitlines():
        _kind, _, person = line.partition(" ")
        j.people.setdefault(person[: person.rfind(">") + 1] or person, commit)


def _scan_people(j: Judge) -> None:
    """The authors and committers noted (_note_people) holding a secret, each reported as
    SECRET on the first commit that names them, the secret itself withheld."""
    if not j.people:
        return
    people = list(j.people)
    found = _scan_lines(j, people)
    for number, findings in sorted(found.items()):
        commit = j.people[people[number]]
        for finding in findings:
            j.add(
                f"commit {commit[:12]} author or committer",
                "SECRET",
                f"{finding.rule}: {finding.description} ({finding.excerpt}) in the name or "
                "email of a commit's author or committer: rewrite the commits with another "
                "(git commit --amend --reset-author, or git rebase) and rotate the secret; if "
                f"a reviewer (not its author) finds it harmless, they record its fingerprint "
                f"{finding.fingerprint} (gitmem.allow in the server's git config)",
                commit,
            )


def _scan_tag_messages(j: Judge, oid: str) -> None:
    """The message of every annotated tag a pushed ref passes through (a tag of a tag…),
    scanned as a commit's is, with the tag's own name and tagger: `git show`, `git tag -n`
    and a forge's release page print them beside what it tags, and a tag carries them to
    every clone that fetches tags, whatever ref name it was pushed under."""
    for tag, text in j.store.tag_texts(oid):
        _scan_text(j, f"tag {tag[:12]} message", text, tag, "a tag message")


def _scan_notes(j: Judge, commit: str) -> None:
    """Every note a commit of a notes ref adds or changes, scanned as a commit's message:
    `git log` prints a note under the commit it annotates (an admit merge of main, say), and
    the notes ref carries it to every clone that fetches it. A note is a file of the notes
    commit's tree, named by the id of what it annotates (maybe in fan-out folders)."""
    info = j.commit(commit)
    before = j.store.tree_of(info.parents[0]) if info.parents else None
    _scan_note_changes(j, before, info.tree, commit, f"commit {commit[:12]}")


def _scan_shown_notes(j: Judge, update: Update) -> None:
    """Every note a notes ref shows after the update that it did not show before, scanned
    whichever push brought its objects: a notes commit the server already held (pushed as a
    branch, where it is code and no rule reads it) brings no new commit when a notes ref
    takes it, yet `git log` prints its notes from then on. git reads a notes ref as a tree
    (a commit's, a tag's, or a tree itself: `git log` prints the notes of a ref set straight
    at a tree), so the ref is read so here too."""
    after = j.store.peel_tree(update.new)
    if after is None:
        return  # a blob: git shows no notes from it
    before = j.store.peel_tree(update.old) if update.old != ZERO else None
    _scan_note_changes(j, before, after, update.new, f"{shown(update.ref)} at {update.new[:12]}")


def _scan_note_changes(j: Judge, before: str | None, after: str, commit: str, where: str) -> None:
    """The notes a notes tree adds or changes against the one before it, each scanned once
    per push as a message is; findings name commit (the object pushed), and where it is."""
    for change in j.store.diff(before, after):
        if change.new is not None and change.new.is_file and change.new.oid not in j.scanned:
            j.scanned.add(change.new.oid)
            data = j.store.read(change.new.oid, MESSAGE_CAP)
            label = f"note {shown(change.path)} in {where}"
            _scan_text(j, label, data, commit, "a note")


def _scan_text(j: Judge, label: str, data: bytes, commit: str, what: str) -> None:
    """A text shown as a message (a commit's, a tag's, a note) scanned; refused unread over
    MESSAGE_CAP (TOO-LARGE)."""
    if len(data) > MESSAGE_CAP:
        j.add(label, "TOO-LARGE", f"{what} over {MESSAGE_CAP // 1024} KiB", commit)
        return
    _queue_scan(j, label, commit, data)


def _check_variants(j: Judge, commit: str, parent: str | None) -> None:
    """A letter-case or spelling variant of the memory folder (or of a folder on its way) or
    of a settings file that this commit adds or changes: on a case-insensitive checkout it is
    the memory folder, or gitmem's settings. And the memory folder's own path held by
    something other than a folder (_report_not_folder)."""
    _check_tree_variants(
        j, j.commit(commit).tree, j.commit(parent).tree if parent else None, commit
    )


def _check_tree_variants(j: Judge, tree: str, before_tree: str | None, label: str) -> None:
    """_check_variants of a tree against the tree before it (None: all of it is new, as in a
    root commit or a tag of a tree); findings name label (a commit, or the tag)."""
    found, blocked = _variants(j, tree)
    if not found and not blocked:
        return
    before_found, before_blocked = _variants(j, before_tree) if before_tree else ([], [])
    before = dict(before_found)
    for path, oid in found:
        if before.get(path) != oid:
            settings = _settings_variant(path)
            if not settings:
                _scan_variant_folder(j, tree, before_tree, path, label)
            j.add(
                shown(path),
                "LAYOUT",
                f"is a letter-case or spelling variant of the settings file {settings}: a "
                "case-insensitive checkout reads it as gitmem's settings (the memory folder, "
                "branch and policy), which the gate holds to a policy admin; remove it"
                if settings
                else f"is a letter-case or spelling variant of the memory folder {j.dir}: a "
                "case-insensitive checkout takes it for the memory folder; remove it",
                label,
            )
    _report_not_folder(j, tree, blocked, dict(before_blocked), label)


def _scan_variant_folder(
    j: Judge, tree: str, before_tree: str | None, path: str, label: str
) -> None:
    """The files a variant of the memory folder (or of a folder on its way) gains, scanned as
    memory files are, with their names: a case-insensitive checkout shows them as the memory,
    and LAYOUT, which names the folder, is let through in warn mode, where only a secret (or
    a text too large to scan) is refused in every mode."""
    new = j.store.subtree(tree, path)
    if new is None:
        return  # a file of that name: no folder for a checkout to read as the memory
    old = j.store.subtree(before_tree, path) if before_tree else None
    for change in j.store.diff(old, new, prefix=f"{path}/"):
        item = change.new
        if item is None:
            continue
        j.names.setdefault(change.path, label)
        if item.is_symlink:
            _scan_link_target(j, change.path, item, label)
        if not item.is_file or item.oid in j.scanned:
            continue
        j.scanned.add(item.oid)
        data = _blob(j, item.oid)
        if len(data) > SCAN_CAP:
            j.add(shown(change.path), "TOO-LARGE", f"is over {SCAN_CAP // 1024} KiB", label)
            continue
        _queue_scan(j, change.path, label, data)


def _report_not_folder(
    j: Judge, tree: str, blocked: list[tuple[str, str]], before: dict[str, str], label: str
) -> None:
    """The memory folder's path (or a folder on its way) that is a symbolic link or a
    submodule link, new at this commit (or tag of a tree): the judge reads the memory folder
    as a folder of the commit's tree, so with a link there it saw no memory folder at all and
    judged nothing, while a checkout (or a clone with its submodules) shows, as the memory
    folder, whatever the link leads to, admitted by no merge and scanned by no one. A plain
    file there is no folder on any checkout: nothing to refuse."""
    for path, oid in blocked:
        item = j.store.item(tree, path)
        if before.get(path) == oid or item is None or item.is_file:
            continue
        if item.is_symlink:
            j.add(shown(path), "SYMLINK", f"the memory folder {j.dir} is a symbolic link", label)
            _scan_link_target(j, path, item, label)
        else:
            j.add(
                shown(path),
                "LAYOUT",
                f"is a submodule link where the memory folder {j.dir} (or a folder on its way) "
                "belongs: the memory folder is a plain folder",
                label,
            )


def _variants(j: Judge, tree: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(path, object id) of every variant of the memory folder's path in a tree, and of the
    item at the memory folder's path (or a folder on its way) when it is no folder."""
    cached = j.variants_seen.get(tree)
    if cached is not None:
        return cached
    found: list[tuple[str, str]] = []
    blocked: list[tuple[str, str]] = []
    current: str | None = tree
    base = ""
    for part in j.dir.split("/"):
        following = None
        for name, oid in j.store.names(current):
            if name == part:
                following = oid
            elif variant_of(name, part) or (not base and _settings_variant(name)):
                found.append((base + name, oid))
        if following is None:
            break
        if j.store.subtree(current, part) is None:  # the path is held by no folder
            blocked.append((base + part, following))
            break
        base += part + "/"
        current = following
    j.variants_seen[tree] = (found, blocked)
    return found, blocked


def _settings_variant(path: str) -> str | None:
    """The settings file (`.gitmem.toml`, `pyproject.toml`) a top-level name is another
    spelling of, or None. Where the real one is missing, a case-insensitive checkout reads
    `.GITMEM.TOML` as it, so a push could move a person's memory folder or branch to one no
    gate judges, past HISTORY-SETTINGS, which reads the settings by their exact names."""
    return next((name for name in SETTINGS_FILES if variant_of(path, name)), None)


def _check_layout_name(j: Judge, change: Change, commit: str) -> None:
    """`Entries/`, `Refused.md`: a variant of a name of the folder's layout, which a
    case-insensitive checkout takes for the real one."""
    first = j.rel(change.path).split("/", 1)[0]
    if first in LAYOUT_NAMES or change.new is None:
        return
    for name in LAYOUT_NAMES:
        if variant_of(first, name):
            j.add(
                shown(change.path),
                "LAYOUT",
                f"{first!r} is a letter-case or spelling variant of {name!r}: a "
                "case-insensitive checkout takes it for that name; remove it",
                commit,
            )
            return


def _is_fingerprint(text: str) -> bool:
    from gitmem.gate.secrets import is_fingerprint  # the rules' module: when a row is judged

    return is_fingerprint(text)


def _scanner(j: Judge) -> Scanner:
    """The scanner, made when a memory file is first scanned (the secret rules load only
    then): in a worker on another core when the push is big enough to stream its diffs
    (which _prefetch_changes decides before any file is scanned)."""
    if j.scanner is None:
        from gitmem.gate.scanner import Scanner

        j.scanner = Scanner(parallel=bool(j.streamed))
    return j.scanner


def _report_scans(j: Judge) -> None:
    """Secrets and hidden Unicode the scanner found, as problems of the files and commits;
    a finding whose fingerprint a reviewer recorded is not one. Then the secrets in the
    files' names, and every problem shown without them (the last step of a judgement)."""
    _report_text_scans(j)
    _scan_people(j)
    _withhold(j, _scan_names(j))


def _report_text_scans(j: Judge) -> None:
    """The findings in the texts of the files and messages scanned (_report_scans)."""
    for label, findings in j.scanner.results() if j.scanner else []:
        path, commit = j.scanned_files[int(label)]
        allowed_here = j.policy.allowed | _push_allowed_for(j, path)
        for finding in findings:
            if finding.fingerprint in allowed_here:
                continue
            if finding.rule == "hidden-unicode":
                rule, what = "HIDDEN-UNICODE", "remove it, it can hide text from reviewers"
            else:
                rule, what = "SECRET", "rewrite the commits without it and rotate the secret"
            j.problems.append(
                Problem(
                    shown(path),
                    finding.line or None,
                    rule,
                    f"{finding.rule}: {finding.description} ({finding.excerpt}) in commit "
                    f"{commit[:12]}: {what}; if a reviewer (not its author) finds it harmless, "
                    f"they record its fingerprint {finding.fingerprint} "
                    "(gitmem admit --allow, or gitmem.allow in the server's git config)",
                )
            )


#: how a problem shows a memory path whose name holds a secret
WITHHELD_PATH = "(withheld: a memory file's path holds a secret)"


def _scan_names(j: Judge) -> list[str]:
    """The memory paths of the push whose names hold a secret, each reported as SECRET (its
    path withheld): a file or folder named after a token carries it to the server as surely
    as its text does. The names are scanned as one text, a path a line (a push of 10,000
    admissions names 20,000 files; one scan each would cost more than their texts' scans)."""
    if not j.names:
        return []  # a push that changes no memory file loads no secret rules
    paths = list(j.names)
    found = _scan_lines(j, [shown(path) for path in paths])
    for number, findings in sorted(found.items()):
        path = paths[number]
        for finding in findings:
            j.add(
                WITHHELD_PATH,
                "SECRET",
                f"{finding.rule}: {finding.description} ({finding.excerpt}) in the name of a "
                "memory file or folder: rename it, rewrite the commits that hold the name and "
                "rotate the secret; if a reviewer (not its author) finds it harmless, they "
                f"record its fingerprint {finding.fingerprint} (gitmem.allow in the server's "
                "git config)",
                j.names[path],
            )
    return [paths[number] for number in sorted(found)]


def _scan_lines(j: Judge, lines: list[str]) -> dict[int, list[Finding]]:
    """The secrets in lines (names: a path or a ref each), by the line's index, scanned as one
    text in pieces under the scanner's cap; findings whose fingerprint a reviewer recorded,
    and those that say nothing of a secret in a name, left out."""
    from gitmem.gate import secrets

    found: dict[int, list[Finding]] = {}
    start = 0
    while start < len(lines):  # in pieces under the scanner's cap
        size, end = 0, start
        while end < len(lines) and (end == start or size + len(lines[end]) < MAX_NAMES_CHARS):
            size += len(lines[end]) + 1
            end += 1
        for finding in secrets.scan_text("\n".join(lines[start:end])):
            if finding.rule not in _NOT_A_NAMES_SECRET and finding.fingerprint not in (
                j.policy.allowed
            ):
                found.setdefault(start + finding.line - 1, []).append(finding)
        start = end
    return found


#: the scanner's findings that say nothing of a secret in a name: hidden characters (the
#: layout rules judge a name's characters), a secret-like file name (a memory file is never
#: one by the layout rules) and the size cap (the names are scanned in pieces under it)
_NOT_A_NAMES_SECRET = frozenset({"hidden-unicode", "secret-file-name", "scan-size-cap"})

#: characters of names scanned at a time, under the scanner's cap
MAX_NAMES_CHARS = 128 * 1024


def _withhold(j: Judge, paths: list[str]) -> None:
    """Every problem that names one of paths shown without the secret: its path as
    WITHHELD_PATH, and in its message each file or folder name that holds the secret (with
    and without its extension), or the whole path when no one name does, as `(withheld)`
    (the layout and history rules name the file they judge)."""
    if not paths:
        return
    secret: set[str] = set()
    for path in paths:
        shown_path = shown(path)
        names = {n for part in shown_path.split("/") for n in (part, part.rsplit(".", 1)[0])}
        holding = {name for name in names if name and _name_secrets(name)}
        secret |= holding or {shown_path, shown(j.rel(path))}
    ordered = sorted(secret, key=len, reverse=True)  # a name before a part of it
    kept = []
    for problem in j.problems:
        path, message = problem.path, problem.message
        if any(name in path for name in ordered):
            path = WITHHELD_PATH
        for name in ordered:
            message = message.replace(name, "(withheld)")
        kept.append(replace(problem, path=path, message=message))
    j.problems[:] = kept


def _code_names_shown(j: Judge, paths: list[str]) -> list[str]:
    """Paths outside the memory folder as a problem may print them: one whose name holds a
    secret as `(withheld: …)` and its SHA-256's first 12 hex digits. The gate judges no code
    file, nor its name, but a CANDIDATE-BRANCH message names the files a candidate branch
    strays into, and it reaches CI logs and a code-scanning upload that the code does not."""
    found = _scan_lines(j, paths)
    return [
        path
        if number not in found
        else "(withheld: a name holding a secret, sha256 "
        f"{hashlib.sha256(path.encode('utf-8', 'surrogateescape')).hexdigest()[:12]})"
        for number, path in enumerate(paths)
    ]


def _name_secrets(text: str) -> bool:
    from gitmem.gate import secrets

    return any(f.rule not in _NOT_A_NAMES_SECRET for f in secrets.scan_text(text))


def _push_allowed_for(j: Judge, path: str) -> frozenset[str]:
    """Fingerprints an admit merge of this push allowed for the entry this file holds."""
    if not j.push_allowed:
        return frozenset()
    name = path.rsplit("/", 1)[-1]
    return frozenset(j.push_allowed.get(name.removesuffix(".md"), ()))


# ---------------------------------------------------------------------------------------------
# blobs


def _blob(j: Judge, oid: str) -> bytes:
    """A memory blob's bytes (at most SCAN_CAP + 1), read once per push: the scan, the
    admission check, the tip's file rules and INDEX.md all want the same few blobs."""
    data = j.blobs.get(oid)
    if data is None:
        data = j.store.read(oid, SCAN_CAP)
        _keep_blob(j, oid, data)
    return data


def _keep_blob(j: Judge, oid: str, data: bytes) -> None:
    if j.blob_bytes + len(data) <= BLOB_CACHE_BYTES:
        j.blobs[oid] = data
        j.blob_bytes += len(data)


def _appended_bytes(j: Judge, oid: str) -> bytes:
    """A version of refused.md or allowed.md (at most APPEND_CAP + 1 bytes); the last few are
    kept, since each version is the base of the next one's append."""
    data = j.appended.get(oid)
    if data is None:
        data = j.store.read(oid, APPEND_CAP)
        if len(j.appended) >= 4:
            j.appended.pop(next(iter(j.appended)))
        j.appended[oid] = data
    return data


def _parse_blob(j: Judge, oid: str) -> Entry | None:
    """The entry in a blob, parsed once per push; None when it does not parse, or when the
    id is no blob at all (a submodule link's commit, which the scan reports as LAYOUT)."""
    if oid not in j.parsed:
        try:
            j.parsed[oid] = parse(_blob(j, oid)[:SCAN_CAP])
        except (EntryError, GitmemError):
            j.parsed[oid] = None
    return j.parsed[oid]


def _blob_id(data: bytes, like: str) -> str:
    """The id git gives a blob of these bytes, in the hash of the id `like` (SHA-1 or
    SHA-256 repositories). hashlib is several times faster than libgit2's collision-detecting
    SHA-1 here; a forged collision with bytes the judge derived itself would have to pass git's
    own collision-detecting hash when git received it."""
    hasher = hashlib.sha256() if len(like) == 64 else hashlib.sha1()
    hasher.update(b"blob %d\0" % len(data))
    hasher.update(data)
    return hasher.hexdigest()


# ---------------------------------------------------------------------------------------------
# INDEX.md


def _index_of(j: Judge, commit: str) -> bytes | None:
    """INDEX.md's bytes at a commit: those proven for it (or for the nearest first-parent
    ancestor with the same memory folder) when it was judged, else read."""
    seen = commit
    while seen not in j.index_bytes:
        parent = _first_parent(j, seen) if seen in j.commits else None
        if parent is None or j.memory_tree(parent) != j.memory_tree(seen):
            break
        seen = parent
    if seen in j.index_bytes:
        return j.index_bytes[seen]
    item = j.store.item(j.commit(commit).tree, f"{j.dir}/INDEX.md")
    return j.store.read(item.oid) if item is not None and item.is_file else None


def _index_proven(j: Judge, commit: str, parent: str | None, changes: list[Change]) -> bool:
    """Whether the commit's INDEX.md is exactly its first parent's brought up to date with
    the entries the commit changed (for the memory branch that parent's was proven in turn,
    back to the trusted base, so the INDEX rule is this: INDEX.md matches its tree). The
    expected bytes are spliced and hashed, never compared with the blob's bytes."""
    if commit in j.proven:
        return j.proven[commit]
    index_path = f"{j.dir}/INDEX.md"
    actual = next((c.new for c in changes if c.path == index_path), None)
    memory = j.memory_tree(commit)
    if actual is None:  # unchanged or deleted
        item = j.store.item(j.commit(commit).tree, index_path) if memory else None
        actual = item
    previous = _index_of(j, parent) if parent else None
    entries = [
        Change(c.status, j.rel(c.path), c.old, c.new)
        for c in changes
        if j.rel(c.path).startswith("entries/")
    ]
    if memory is None:
        proven = True
    elif not entries and not any(c.path == index_path for c in changes):
        proven = True  # INDEX.md and the entries as the parent had them
        if parent is not None and commit not in j.index_bytes:
            _remember_index(j, commit, previous)
    else:
        want = index_mod.update(
            j.store, previous, entries, memory, partial(_blob, j), partial(_index_fields, j)
        )
        proven = actual is not None and actual.is_file and _blob_id(want, actual.oid) == actual.oid
        _remember_index(j, commit, want)
    j.proven[commit] = proven
    return proven


def _remember_index(j: Judge, commit: str, data: bytes | None) -> None:
    """Keep the expected INDEX.md of the last few commits (each is the next one's base)."""
    if len(j.index_bytes) >= 4:
        j.index_bytes.pop(next(iter(j.index_bytes)))
    j.index_bytes[commit] = data


def _index_fields(j: Judge, oid: str) -> tuple[str, str, str] | None:
    """index.index_fields() of a blob parsed already, from its entry (None when it was not
    parsed): the two agree on every entry that parses, because each of their quick readers
    agrees with YAML wherever it answers and leaves the rest to YAML (tested)."""
    entry = j.parsed.get(oid)
    if entry is None:
        return None
    return entry.status, entry.title, str(entry.meta.get("superseded_by", ""))


# ---------------------------------------------------------------------------------------------
# the tip's file rules


@dataclass
class TipRules:
    """The file rules over files as they are at a tip (intermediate states are not judged).
    On a push to main each new entry is judged when its admission is, if the tip still holds
    that very blob: the work then overlaps with git's diffs instead of following them."""

    j: Judge
    tree: str
    snapshot: TreeSnapshot
    ctx: Context
    done: set[str] = field(default_factory=set)
    #: the blob at each memory path the push changes, when known (no tree look-up then)
    blobs: dict[str, str] | None = None

    @classmethod
    def at(cls, j: Judge, tree: str) -> TipRules:
        snapshot = TreeSnapshot(j.store, tree)
        ctx = Context(j.settings, _refusals(j, snapshot))
        # entries cite the same few files again and again: each is looked up once
        ctx.path_exists = cache(lambda path: snapshot.kind(path) != "missing")
        ctx.scan_secrets = False
        return cls(j, tree, snapshot, ctx)

    def entry(self, path: str, oid: str, place: Place | None = None) -> None:
        """Judge path now when the tip holds this blob there, parsed already."""
        if path in self.done or (entry := self.j.parsed.get(oid)) is None:
            return
        if self.blobs is not None:
            if self.blobs.get(path) != oid:
                return
        elif (item := self.j.store.item(self.tree, path)) is None or item.oid != oid:
            return
        place = place or place_of(path, self.j.dir)
        if place.kind not in ("entry", "candidate"):
            return
        # parsed from these very bytes already: no second read and parse
        text = partial(decode, _blob(self.j, oid))
        self._report(check_entry(path, entry, self.ctx, place, text))
        self.done.add(path)

    def finish(self, paths: Iterable[str]) -> None:
        """Judge the paths not judged yet."""
        rest = []
        for path in paths:
            if path in self.done or not is_utf8(path):
                continue
            item = self.j.store.item(self.tree, path)
            if item is not None and item.is_file:
                self.entry(path, item.oid)
            if path not in self.done and self.snapshot.kind(path) != "missing":
                rest.append(path)
        self._report(check_paths(self.snapshot, rest, self.ctx))

    def _report(self, problems: list[Problem]) -> None:
        # secrets and hidden Unicode were judged in every commit already
        self.j.problems.extend(p for p in problems if p.rule not in ("SECRET", "HIDDEN-UNICODE"))


def _refusals(j: Judge, snapshot: TreeSnapshot) -> dict[str, Refusal]:
    """The refused topics at the memory branch's tip, which a push does not move: read once
    per push (a push of 10,000 candidate branches judges each against them). On a first
    push, those of the pushed tree."""
    if j.refusals is None:
        main_tip = j.store.ref_target(j.policy.main_ref)
        if main_tip is None:
            return Context.from_snapshot(j.settings, snapshot).refused
        main = TreeSnapshot(j.store, j.store.tree_of(main_tip))
        j.refusals = Context.from_snapshot(j.settings, main).refused
    return j.refusals


# ---------------------------------------------------------------------------------------------
# candidate branches


def _judge_candidate_branch(j: Judge, update: Update, new: str, commits: list[str]) -> None:
    entry_id = update.ref.removeprefix(f"refs/heads/{BRANCH_PREFIX}")
    own = f"{j.dir}/candidates/{entry_id}.md"
    if not is_slug(entry_id):
        j.add(
            shown(update.ref),
            "CANDIDATE-BRANCH",
            f"{BRANCH_PREFIX}{entry_id} is not a candidate "
            "branch name: gitmem/<id> with an id of lowercase words joined by '-'",
        )
        return
    local_main = j.store.ref_target(j.policy.main_ref)
    unpushed_main = False
    for commit in [*_held_off_main(j, new, commits, local_main), *commits]:
        info = j.commit(commit)
        parents = list(info.parents)
        # a merge that brings main into the branch ("update branch") is judged against the
        # parent that main already holds; any other commit against its first parent
        base = parents[0] if parents else None
        main_tip = j.store.ref_target(j.policy.main_ref) if len(parents) > 1 else None
        if main_tip:
            base = next((p for p in parents if j.store.is_ancestor(p, main_tip)), base)
        # reading the commit's diff from the stream first tells whether git saw anything
        # outside the memory folder; when it saw nothing, that diff is the whole story
        memory = _memory_changes(j, commit, base) if (commit, base) in j.streamed else None
        if memory is not None and commit not in j.outside:
            changed = [c.path for c in memory]
        else:
            changed = [
                c.path for c in j.store.diff(j.store.tree_of(base) if base else None, info.tree)
            ]
        stray = [shown(path) for path in changed if path != own]
        if stray and local_main and j.store.is_ancestor(commit, local_main):
            # pre-push: the candidate was proposed on a main the remote does not have yet
            if not unpushed_main:
                unpushed_main = True
                branch = j.policy.branch
                # the remote this push goes to, as git named it to the hook: origin always
                # sent a clone whose remote is upstream to push main somewhere else
                first = (
                    f"{branch} first (git push -u {j.remote} {branch})"
                    if j.remote
                    else f"{branch} there first (git push URL {branch}, with the URL this "
                    "push goes to)"
                )
                j.add(
                    own,
                    "CANDIDATE-BRANCH",
                    f"branch {BRANCH_PREFIX}{entry_id} carries commits of {branch} that the "
                    f"remote does not have yet: push {first}, then the candidate branch",
                    commit,
                )
        elif stray:
            listed = ", ".join(_code_names_shown(j, stray[:5])) + (" …" if len(stray) > 5 else "")
            j.add(
                own,
                "CANDIDATE-BRANCH",
                f"branch {BRANCH_PREFIX}{entry_id} changes {listed}: "
                "a candidate branch changes only its own file",
                commit,
            )
    tree = j.store.tree_of(new)
    item = j.store.item(tree, own)
    if item is None:
        j.add(own, "CANDIDATE-BRANCH", f"branch {BRANCH_PREFIX}{entry_id} holds no {own}")
        return
    tip = TipRules.at(j, tree)
    if item.is_file:  # judged from the blob the scan read and parsed, no more look-ups
        tip.blobs = {own: item.oid}
        _parse_blob(j, item.oid)
        tip.entry(own, item.oid)
    tip.finish([own])


def _held_off_main(j: Judge, new: str, commits: list[str], main_tip: str | None) -> list[str]:
    """The commits of a candidate branch that the receiver held already and main lacks,
    oldest first: the walk of a push leaves out every commit the receiver holds under any
    ref, so a stray change pushed first on a branch of its own, with the candidate committed
    on top of it (or the branch set straight at such a commit), would leave the candidate
    branch holding it while its new commits change only the candidate. Asked only where a
    new commit stands on (or the branch is) a commit off main: a branch proposed on main
    costs one ancestry question. Asked by the server alone, whose main is the memory
    branch's: a clone's main may lag behind its remote's, whose commits would then pass
    for the branch's own."""
    if main_tip is None or j.side != "server":
        return []  # no memory branch yet: nothing to tell the branch's own commits by
    fresh = set(commits)
    edges = [p for c in commits for p in j.commit(c).parents if p not in fresh] or [new]
    held: dict[str, None] = {}
    for edge in dict.fromkeys(edges):
        if edge not in j.on_main:  # 10,000 candidates proposed on one main commit: one question
            j.on_main[edge] = j.store.is_ancestor(edge, main_tip)
        if j.on_main[edge]:
            continue
        for info in j.store.new_commits(edge, [main_tip]):
            j.commits.setdefault(info.oid, info)
            held.setdefault(info.oid)
    return [oid for oid in held if oid not in fresh]


# ---------------------------------------------------------------------------------------------
# the memory branch: the invariant


@dataclass
class Step:
    """One commit of the memory branch's first-parent chain, as its change kind sees it."""

    commit: str
    info: CommitInfo
    parent: str | None
    #: the memory-folder changes against the first parent, INDEX.md aside (the INDEX rule)
    changes: list[Change]
    tip: TipRules

    def rel(self, change: Change, j: Judge) -> str:
        return j.rel(change.path)


@dataclass(frozen=True)
class ChangeKind:
    """One way a commit may change the memory on the memory branch: whether the commit claims
    to be one (applies), and the rules that then explain each change or report it (check)."""

    name: str
    applies: Callable[[Judge, Step], bool]
    check: Callable[[Judge, Step], None]


def _is_nothing(j: Judge, step: Step) -> bool:
    return not step.changes


def _is_admit(j: Judge, step: Step) -> bool:
    return len(step.info.parents) == 2 and _admitted_id(step.info.message) is not None


def _is_amend(j: Judge, step: Step) -> bool:
    return len(step.info.parents) == 2 and _merge_id(step.info.message, curation.AMEND) is not None


def _is_retire(j: Judge, step: Step) -> bool:
    return len(step.info.parents) == 2 and _merge_id(step.info.message, curation.RETIRE) is not None


def _is_refuse(j: Judge, step: Step) -> bool:
    return [j.rel(c.path) for c in step.changes] == ["refused.md"]


def _is_init(j: Judge, step: Step) -> bool:
    return j.memory_tree(step.parent) is None and all(
        j.rel(c.path) in OWN_FILES for c in step.changes
    )


def _is_maintenance(j: Judge, step: Step) -> bool:
    return all(j.rel(c.path) in MAINTAINED for c in step.changes)


def _check_nothing(j: Judge, step: Step) -> None:
    return None


def _check_init(j: Judge, step: Step) -> None:
    """The memory folder appears (gitmem init): its refused.md holds only well-formed rows,
    and its allowed.md none, since a reviewed exception comes only with the admission of the
    entry it was reviewed for (an init carrying one would let a secret through)."""
    for change in step.changes:
        if change.new is None or not change.new.is_file:
            continue
        if j.rel(change.path) == "refused.md":
            _judge_refused_rows(j, step.commit, change.path, b"", change.new.oid)
        elif j.rel(change.path) == allowed_mod.NAME:
            text = _appended_bytes(j, change.new.oid).decode("utf-8", "replace")
            if allowed_mod.parse(text):
                j.add(
                    change.path,
                    "HISTORY-EDIT",
                    f"{allowed_mod.NAME} arrives with the memory folder holding rows: a "
                    "reviewed exception is recorded by the admit merge of its entry "
                    "(gitmem admit --allow)",
                    step.commit,
                )


def _check_maintenance(j: Judge, step: Step) -> None:
    if j.policy.is_admin(j.pusher):
        return
    for change in step.changes:
        j.add(
            shown(change.path),
            "HISTORY-EDIT",
            f"changes {j.rel(change.path)} of the memory folder: only a policy admin "
            "(gitmem.policyAdmins) pushes that",
            step.commit,
        )


def _check_refuse(j: Judge, step: Step) -> None:
    [change] = step.changes
    if change.new is None:
        j.add(change.path, "HISTORY-REFUSED", "refused.md is deleted: it only grows", step.commit)
        return
    before = _appended_bytes(j, change.old.oid) if change.old is not None else b""
    _judge_refused_rows(j, step.commit, change.path, before, change.new.oid)


def _judge_refused_rows(j: Judge, commit: str, path: str, before: bytes, oid: str) -> None:
    """refused.md grows by whole, well-formed rows (the header first, when it is new)."""
    after = _appended_bytes(j, oid)
    if not after.startswith(before):
        j.add(
            path,
            "HISTORY-REFUSED",
            "refused.md is edited: it only grows (gitmem refuse appends to it)",
            commit,
        )
        return
    added = after[len(before) :]
    first = before.count(b"\n") + 1
    header = refused_mod.HEADER.encode() if not before else b""
    if header and added.startswith(header):
        added, first = added[len(header) :], first + header.count(b"\n")
    elif header and added.startswith(b"# "):
        j.add(path, "HISTORY-REFUSED", "refused.md does not start with gitmem's header", commit)
        return
    for number, raw in enumerate(added.split(b"\n"), start=first):
        if not raw.strip():
            continue
        text = raw.decode("utf-8", "replace")
        row = refused_mod.parse_row(text)
        if row is not None:
            # else anyone who may push could refuse a topic in a reviewer's name
            _judge_pusher(j, commit, path, row.by, "the refusal's by")
        else:
            j.add(
                path,
                "HISTORY-REFUSED",
                f"line {number} is not a refusal row (| topic | reason | id | date | by |): "
                "refusals are appended by gitmem refuse",
                commit,
                line=number,
            )


def _check_admit(j: Judge, step: Step) -> None:
    """An admit merge: its own entry added, equal to its candidate plus the admission fields,
    the entries it supersedes flipped, allowed.md rows of its admitter; nothing else."""
    admitted_id = _admitted_id(step.info.message) or ""
    added: list[Change] = []
    flips: list[Change] = []
    for change in step.changes:
        rel = j.rel(change.path)
        place = place_of(change.path, j.dir)
        if place.kind == "entry" and change.status == "A":
            added.append(change)
        elif place.kind == "entry" and change.status == "M":
            flips.append(change)
        elif rel == allowed_mod.NAME:
            continue  # judged with the admission, below
        else:
            _report_unexplained(j, step, change, merge_of=f"admit merge of {admitted_id}")
    for change in added:
        if place_of(change.path, j.dir).id != admitted_id:
            j.add(
                change.path,
                "HISTORY-ADMIT",
                f"the admit merge of {admitted_id} adds another entry: an admit merge adds its "
                "own entry only",
                step.commit,
            )
    own = next((c for c in added if place_of(c.path, j.dir).id == admitted_id), None)
    if own is not None and own.new is not None and not own.new.is_file:
        _report_link(j, own.path, own.new, step.commit)  # and nothing is read through it
        return
    if own is None:
        j.add(
            f"{j.dir}/entries",
            "HISTORY-ADMIT",
            f"the admit merge of {admitted_id} adds no entries/<type>/{admitted_id}.md",
            step.commit,
        )
    entry = _parse_blob(j, own.new.oid) if own is not None and own.new is not None else None
    if own is not None and own.new is not None and entry is None:
        j.add(own.path, "HISTORY-ADMIT", "the admitted entry does not parse", step.commit)
    if own is not None and own.new is not None and entry is not None:
        _judge_admission(j, step, admitted_id, own.path, entry, own.new.oid)
        _judge_cited_files(j, step.commit, step.info.tree, own.path, entry)
        step.tip.entry(own.path, own.new.oid)
    for change in flips:
        before = _parse_blob(j, change.old.oid) if change.old else None
        after = _parse_blob(j, change.new.oid) if change.new else None
        if (
            before is None
            or after is None
            or change.new is None
            or not _is_flip(before, after, entry)
            or _blob(j, change.new.oid) != after.render().encode("utf-8")
        ):
            j.add(
                change.path,
                "HISTORY-EDIT",
                "edits an admitted entry: entries change only through a reviewed merge, a "
                "successor's (gitmem propose --edit), an amendment's (--amend) or a "
                "retirement's (--retire)",
                step.commit,
            )
    if entry is not None and flips:
        _judge_successor_drafted_from(j, step, admitted_id, flips, entry)
    flipped = {e.id for c in flips if c.old and (e := _parse_blob(j, c.old.oid)) is not None}
    for named in entry.supersedes if entry is not None else ():
        if named not in flipped:
            j.add(
                own.path if own else f"{j.dir}/entries",
                "LINEAGE",
                f"supersedes {named!r}, which this admission does not mark superseded (it must "
                f"be an admitted entry, flipped to superseded_by {admitted_id} in the same merge)",
                step.commit,
            )
    allowed = next((c for c in step.changes if j.rel(c.path) == allowed_mod.NAME), None)
    if allowed is not None:
        found = cache(partial(_findings_of_admission, j, step, admitted_id, own))
        _judge_allowed_rows(j, step, admitted_id, allowed, entry, found)


def _findings_of_admission(
    j: Judge, step: Step, admitted_id: str, own: Change | None
) -> frozenset[str]:
    """The fingerprints of what the scanner finds in the entry an admit merge adds and in
    every version of its candidate file among the commits the merge brings: the findings a
    reviewed exception recorded with this admission may be for."""
    first, second = step.info.parents[0], step.info.parents[1]
    path = f"{j.dir}/candidates/{admitted_id}.md"
    blobs = candidate_versions(j.store, second, [first], path)
    if own is not None and own.new is not None and own.new.is_file:
        blobs.add(own.new.oid)
    return fingerprints_of(blobs, lambda oid: _blob(j, oid))


def candidate_versions(store: Store, tip: str, base: list[str], path: str) -> set[str]:
    """The blob ids of every version of a candidate's file (path) among the commits of tip
    that base lacks: what an admission brings, whose findings a reviewed exception may be
    for. gitmem admit --allow asks it too, so it records only what this judge accepts."""
    blobs: set[str] = set()
    for info in store.new_commits(tip, base):
        item = store.item(info.tree, path)
        if item is not None and item.is_file:
            blobs.add(item.oid)
    return blobs


def fingerprints_of(blobs: set[str], read: Callable[[str], bytes]) -> frozenset[str]:
    """The fingerprints of every finding of the scanner in these blobs."""
    from gitmem.gate.scanner import scan  # the secret rules load only when a row is judged

    return frozenset(f.fingerprint for oid in sorted(blobs) for f in scan(read(oid)))


def _check_amend(j: Judge, step: Step) -> None:
    _check_in_place(j, step, curation.AMEND)


def _check_retire(j: Judge, step: Step) -> None:
    _check_in_place(j, step, curation.RETIRE)


def _check_in_place(j: Judge, step: Step, verb: str) -> None:
    """An amend or retire merge: exactly the admitted entry its candidate names is changed,
    to what gitmem.model.curation makes of the entry and the candidate, by an admitter the
    policy allows for it; nothing else in the memory folder changes."""
    candidate_id = _merge_id(step.info.message, verb) or ""
    rule = "HISTORY-AMEND" if verb == curation.AMEND else "HISTORY-RETIRE"
    done = verb.removesuffix("e") + "ed"  # amended, retired
    candidate_path = f"{j.dir}/candidates/{candidate_id}.md"
    item = _file_at(j, step.info.parents[1], candidate_path)
    candidate = _parse_blob(j, item.oid) if item is not None and item.is_file else None
    target_id = curation.target_of(candidate) if candidate is not None else ""
    if (
        candidate is None
        or candidate.status != "candidate"
        or curation.kind_of(candidate) != verb
        or not target_id
    ):
        j.add(
            candidate_path,
            rule,
            f"the {verb} merge's second parent carries no {verb} candidate {candidate_path} "
            f"(a candidate with `{verb}s: <id>`): propose it (gitmem propose --{verb} ID)",
            step.commit,
        )
        return
    own: Change | None = None
    for change in step.changes:
        place = place_of(change.path, j.dir)
        if place.kind == "entry" and place.id == target_id and change.status == "M":
            own = change
        else:
            _report_unexplained(j, step, change, merge_of=f"{verb} merge of {candidate_id}")
    if own is None or own.old is None or own.new is None:
        j.add(
            f"{j.dir}/entries",
            rule,
            f"the {verb} merge of {candidate_id} does not change entries/<type>/{target_id}.md",
            step.commit,
        )
        return
    before, after = _parse_blob(j, own.old.oid), _parse_blob(j, own.new.oid)
    if before is None or before.status != "admitted":
        j.add(
            own.path,
            rule,
            f"{target_id} is not an admitted entry before this merge: only an admitted entry "
            f"is {done}",
            step.commit,
        )
        return
    if after is None:
        j.add(own.path, rule, f"the {done} entry does not parse", step.commit)
        return
    if verb == curation.AMEND:
        _judge_drafted_from(j, step, own, candidate, candidate_id, target_id)
        by = str(after.meta.get("amended_by", ""))
        dates = [str(d) for d in after.meta.get("amended") or []]
        expected = curation.amended(before, candidate, by, dates[-1] if dates else "")
        changed = curation.changed_immutable(before, candidate)
    else:
        by = str(after.meta.get("retired_by", ""))
        reason = str(candidate.meta.get("retired_reason", ""))
        expected = curation.retired(before, reason, by, str(after.meta.get("retired", "")))
        changed = []
    if changed or expected != after:
        j.add(
            own.path,
            rule,
            f"the {done} text differs from what the candidate {candidate_id} makes of "
            f"{target_id}"
            + (f" (it changes {', '.join(changed)}, which an amendment keeps)" if changed else "")
            + f": {verb} exactly what was reviewed (gitmem admit {candidate_id})",
            step.commit,
        )
    else:
        _judge_as_written(j, step.commit, own.path, after, _blob(j, own.new.oid), rule)
    if verb == curation.AMEND:
        _judge_admitter(j, step.commit, own.path, after, by)
        _judge_cited_files(j, step.commit, step.info.tree, own.path, after)
    elif not j.policy.may_retire(by):
        allowed = " or ".join(f"{k}:NAME" for k in j.policy.retire_by) or "nobody"
        j.add(
            own.path,
            "HISTORY-ADMITTER",
            f"retired_by {by!r} may not retire: {j.policy.source} allows {allowed} "
            "(memory.retireBy)",
            step.commit,
        )
    elif by.startswith("human:"):
        _judge_pusher(j, step.commit, own.path, by)
    step.tip.entry(own.path, own.new.oid)


def _judge_drafted_from(
    j: Judge, step: Step, own: Change, candidate: Entry, candidate_id: str, target_id: str
) -> None:
    """An amendment carries the whole entry as it was drafted, and its merge writes that over
    the entry: drafted before another amendment of the entry was admitted, it undid that
    one's correction unseen, though it wrote exactly what its candidate makes of the entry.
    So the text it was drafted from (its `drafted_from`, and the entry on its candidate
    branch) must be the entry as main held it before the merge, as gitmem admit requires
    (curation.drafted_from_another: a candidate branch that merged main in after the other
    amendment holds main's text, but its `drafted_from` still names the old one)."""
    if _drafted_from_another(j, step, own, candidate):
        j.add(
            own.path,
            "HISTORY-AMEND",
            f"the amendment {candidate_id} was drafted from another text of {target_id} than "
            "the memory branch holds (another amendment admitted since?), and its merge "
            f"would undo that change: propose it again from the entry as it is (gitmem "
            f"propose --amend {target_id})",
            step.commit,
        )


def _judge_successor_drafted_from(
    j: Judge, step: Step, admitted_id: str, flips: list[Change], successor: Entry
) -> None:
    """A successor carries the text of the entries it supersedes as it was drafted: admitted
    after an amendment of one of them, it superseded the corrected entry with a copy of its
    older text, and the correction was out of use, unseen, though the merge flipped exactly
    what the successor names. So, as for an amendment (_judge_drafted_from), the text it was
    drafted from (its `drafted_from`, and each entry on its candidate branch) must be each
    superseded entry as main held it before the merge, as gitmem admit requires. A successor
    of a gitmem that recorded no `drafted_from` is judged by its branch alone."""
    item = _file_at(j, step.info.parents[1], f"{j.dir}/candidates/{admitted_id}.md")
    candidate = _parse_blob(j, item.oid) if item is not None and item.is_file else None
    if candidate is None:
        return  # HISTORY-ADMIT says so
    for change in flips:
        before = _parse_blob(j, change.old.oid) if change.old is not None else None
        if before is None or before.id not in successor.supersedes:
            continue  # not this successor's flip: HISTORY-EDIT says so
        if _drafted_from_another(j, step, change, candidate):
            j.add(
                change.path,
                "LINEAGE",
                f"the successor {admitted_id} was drafted from another text of {before.id} "
                "than the memory branch holds (an amendment admitted since?), and its merge "
                "would put that change out of use: propose the successor again from the "
                f"entry as it is (gitmem propose --edit {before.id})",
                step.commit,
            )


def _drafted_from_another(j: Judge, step: Step, change: Change, candidate: Entry) -> bool:
    """Whether the candidate a merge's second parent brings was drafted from another text of
    the entry this change of the merge rewrites (amended, or flipped to superseded) than its
    first parent held: by its `drafted_from`, or by the entry's file on the second parent
    (curation.drafted_from_another, the rule admit and `gitmem candidates` apply)."""
    assert change.old is not None  # an M change
    drafted = _file_at(j, step.info.parents[1], change.path)
    on_branch = drafted.oid if drafted is not None and drafted.is_file else None
    return curation.drafted_from_another(candidate, change.old.oid, on_branch)


def _is_flip(before: Entry, after: Entry, successor: Entry | None) -> bool:
    """A supersession flip by this admission: admitted → superseded_by the admitted id, which
    names it, and nothing else changed."""
    return (
        successor is not None
        and before.status == "admitted"
        and after.status == "superseded"
        and str(after.meta.get("superseded_by", "")) == successor.id
        and before.id in successor.supersedes
        and before.same_except_admission(after)
        and before.meta.get("admitted_by") == after.meta.get("admitted_by")
        and before.meta.get("admitted") == after.meta.get("admitted")
    )


def _judge_allowed_rows(
    j: Judge,
    step: Step,
    admitted_id: str,
    change: Change,
    entry: Entry | None,
    findings: Callable[[], frozenset[str]],
) -> None:
    """allowed.md in an admit merge: rows appended for this entry by its admitter, who is
    not the candidate's author (its human source, or its commit's author), each for a finding
    of this admission (findings: computed when a row needs them). A row allows its finding
    everywhere once admitted, because the text it names stands, reviewed, in the admitted
    entry; a fingerprint of anything else would be an exception that nobody reviewed, which
    an admitter who is the author of another candidate could record for it in this merge."""
    if change.new is None:
        j.add(change.path, "HISTORY-EDIT", "allowed.md is deleted: it only grows", step.commit)
        return
    before = _appended_bytes(j, change.old.oid) if change.old is not None else b""
    after = _appended_bytes(j, change.new.oid)
    if not after.startswith(before):
        j.add(change.path, "HISTORY-EDIT", "allowed.md is edited: it only grows", step.commit)
        return
    by = str(entry.meta.get("admitted_by", "")) if entry is not None else ""
    authors = {entry.source} if entry is not None and entry.source.startswith("human:") else set()
    authors.add(f"human:{j.store.author_name(step.info.parents[1])}")
    added = after[len(before) :].decode("utf-8", "replace")
    if not before and added.startswith(allowed_mod.HEADER):
        added = added[len(allowed_mod.HEADER) :]
    for line in added.splitlines():
        if not line.strip():
            continue
        row = allowed_mod.parse_row(line)
        if row is not None and not _is_fingerprint(row.fingerprint):
            j.add(
                change.path,
                "HISTORY-EDIT",
                "allowed.md gains a fingerprint that names no rule of the secret scanner (the "
                "column is not scanned, so it holds only what a finding's fingerprint is)",
                step.commit,
            )
        elif row is None or row.entry != admitted_id or row.by != by:
            j.add(
                change.path,
                "HISTORY-EDIT",
                f"allowed.md gains a row that is not {by or 'the admitter'}'s for {admitted_id} "
                "(| fingerprint | entry | by | date | reason |): gitmem admit --allow writes them",
                step.commit,
            )
        elif by in authors:
            j.add(
                change.path,
                "HISTORY-ADMITTER",
                f"{by} allows a finding of their own candidate {admitted_id}: a reviewed "
                "exception is recorded by someone other than the author",
                step.commit,
            )
        elif row.fingerprint not in findings():
            j.add(
                change.path,
                "HISTORY-EDIT",
                f"allowed.md gains the fingerprint {row.fingerprint}, which is no finding of "
                f"{admitted_id} (its entry or its candidate's commits): a reviewed exception "
                "allows a finding of the entry it is admitted with",
                step.commit,
            )
        else:
            j.push_allowed.setdefault(admitted_id, set()).add(row.fingerprint)


def _report_unexplained(j: Judge, step: Step, change: Change, merge_of: str = "") -> None:
    """A memory change that no change kind explains, reported by what it touches (and the
    gitmem merge it comes in, when merge_of names one: "admit merge of X")."""
    rel = j.rel(change.path)
    place = place_of(change.path, j.dir)
    path = shown(change.path)
    merge = len(step.info.parents) > 1 and not merge_of
    hint = (
        ": this merge brings memory in through a parent other than its first; the memory "
        "branch's first-parent chain shows each admission as its own admit merge, so rebase "
        "onto the remote's branch (git pull --rebase) instead of merging it in"
        if merge
        else ""
    )
    where = f"the {merge_of} " if merge_of else ""
    if not is_utf8(change.path) or _layout_variant(rel):
        return  # reported as LAYOUT by the scan of every commit
    if place.kind == "entry":
        if change.status == "A":
            rule, text = (
                "HISTORY-ADMIT",
                f"{where}adds an entry without an admit merge of it: propose it "
                "(gitmem propose) and admit it (gitmem admit)",
            )
        elif change.status == "D":
            rule, text = "HISTORY-DELETE", f"{where}deletes an entry: entries are never deleted"
        else:
            rule, text = (
                "HISTORY-EDIT",
                f"{where}edits an admitted entry: entries change only through a reviewed "
                "merge, a successor's (gitmem propose --edit), an amendment's (--amend) or a "
                "retirement's (--retire)",
            )
    elif rel.startswith("candidates/"):
        if change.new is None:
            return  # a candidate file leaving the memory branch: nothing enters
        rule, text = (
            "HISTORY-CANDIDATE",
            f"{where}puts a candidate on {j.policy.branch}: candidates live only on "
            "gitmem/<id> branches",
        )
    elif rel == "refused.md":
        rule, text = (
            "HISTORY-REFUSED",
            f"{where}changes refused.md beside other memory files: a refusal only appends "
            "to refused.md (gitmem refuse)",
        )
    elif rel == allowed_mod.NAME:
        rule, text = (
            "HISTORY-EDIT",
            "changes allowed.md outside an admit merge: reviewed exceptions are recorded by "
            "gitmem admit --allow",
        )
    elif rel in MAINTAINED:
        rule, text = (
            "HISTORY-EDIT",
            f"{where}changes {rel} beside other memory files: a policy admin changes it alone",
        )
    elif rel == "CANDIDATES.md":
        rule, text = "LAYOUT", "CANDIDATES.md is generated locally and git-ignored: remove it"
    else:
        rule, text = (
            "LAYOUT",
            f"is not a memory file: entries live in {j.dir}/entries/<type>/<id>.md",
        )
    j.add(path, rule, text + hint, step.commit)


def _layout_variant(rel: str) -> bool:
    first = rel.split("/", 1)[0]
    return first not in LAYOUT_NAMES and any(variant_of(first, n) for n in LAYOUT_NAMES)


#: The change kinds, tried in order: the first whose `applies` holds explains the commit.
#: A commit none applies to is reported change by change (_report_unexplained).
CHANGE_KINDS: tuple[ChangeKind, ...] = (
    ChangeKind("nothing", _is_nothing, _check_nothing),
    ChangeKind("admit", _is_admit, _check_admit),
    ChangeKind("amend", _is_amend, _check_amend),
    ChangeKind("retire", _is_retire, _check_retire),
    ChangeKind("refuse", _is_refuse, _check_refuse),
    ChangeKind("init", _is_init, _check_init),
    ChangeKind("maintenance", _is_maintenance, _check_maintenance),
)


def _judge_main(j: Judge, update: Update, new: str, commits: list[str]) -> None:
    """Scan every new commit and judge those of the first-parent chain, in one pass in
    history order, so a big push's judging keeps pace with the diffs git streams in."""
    store = j.store
    new_commits = set(commits)
    old = None if update.old == ZERO else store.resolve(update.old)  # None if not received
    chain, from_old = _chain(j, old, new, new_commits)
    new_tree = store.tree_of(new)
    tip = TipRules.at(j, new_tree)
    net = _net_changes(j, old, new)  # what the push changes in all: the tip's paths
    if net is not None:
        tip.blobs = {f"{j.dir}/{c.path}": c.new.oid for c in net if c.new is not None}
    touched: set[str] = set()
    on_chain = set(chain)
    # chain commits the receiver had under other refs come first (every ancestor of one is
    # one too): judged like the new ones, but scanned when they arrived
    for commit in chain:
        if commit not in new_commits:
            touched.update(_judge_main_commit(j, commit, tip))
    # A side commit (a candidate's) is scanned once the next commit of main is judged: when
    # that is its admission, the judge has proven the candidate's bytes from the admitted
    # text (_judge_admission) and the scan takes them from memory instead of the pack.
    side: list[str] = []
    for commit in commits:
        if commit not in on_chain:
            side.append(commit)
            continue
        _scan_commit(j, commit)
        touched.update(_judge_main_commit(j, commit, tip))
        for done in side:
            _scan_commit(j, done)
        side.clear()
    for left in side:  # none: commits come oldest first, and the pushed tip is on the chain
        _scan_commit(j, left)
    if old is not None and not from_old:
        _judge_net(j, old, new)
    tip.finish(sorted(p for p in touched if store.exists(new_tree, p)))


def _chain(j: Judge, old: str | None, new: str, new_commits: set[str]) -> tuple[list[str], bool]:
    """The commits of new's first-parent chain that the memory branch never had on its own
    first-parent chain, oldest first: the walk stops at old, or at the first commit of old's
    first-parent chain (every commit the receiver holds otherwise is judged, not trusted).
    And whether the walk met old itself: when it did not, new's first-parent chain leaves
    old's history aside, even when old is an ancestor of new through a merge's second parent
    (a merge of an older main commit with main's tip, which git takes as a fast-forward), and
    the update is a rewrite, judged by its net change as a force push is."""
    chain: list[str] = []
    current: str | None = new
    old_chain = _OldChain(j, old)
    while current is not None and current != old:
        if current not in new_commits and old_chain.holds(current):
            break
        chain.append(current)
        current = _first_parent(j, current)
    chain.reverse()
    return chain, old is not None and current == old


@dataclass
class _OldChain:
    """The old tip's first-parent chain, walked only as far as a question needs."""

    j: Judge
    old: str | None
    seen: set[str] = field(default_factory=set)
    current: str | None = None
    started: bool = False

    def holds(self, commit: str) -> bool:
        if self.old is None or not self.j.store.is_ancestor(commit, self.old):
            return False  # not even reachable from old: never on its chain
        if not self.started:
            self.current, self.started = self.old, True
        while commit not in self.seen and self.current is not None:
            self.seen.add(self.current)
            self.current = _first_parent(self.j, self.current)
        return commit in self.seen


def _judge_main_commit(j: Judge, commit: str, tip: TipRules) -> set[str]:
    """The invariant for one commit of the chain: its memory diff against its first parent
    is explained by one change kind, INDEX.md matches its tree, and its policy settings
    change only by a policy admin. Returns the memory paths it wrote."""
    info = j.commit(commit)
    parent = info.parents[0] if info.parents else None
    changes = _memory_changes(j, commit, parent)
    _judge_settings_change(j, commit, parent)
    index_path = f"{j.dir}/INDEX.md"
    if all(c.path == index_path for c in changes):
        _judge_claim(j, commit, info.message)
    if not changes:
        return set()
    step = Step(commit, info, parent, [c for c in changes if c.path != index_path], tip)
    kind = next((k for k in CHANGE_KINDS if k.applies(j, step)), None)
    if kind is None:
        for change in step.changes:
            _report_unexplained(j, step, change)
    else:
        kind.check(j, step)
    if j.memory_tree(commit) is not None and not _index_proven(j, commit, parent, changes):
        present = j.store.item(info.tree, index_path) is not None
        j.add(
            index_path,
            "INDEX",
            (
                "INDEX.md does not match the entries: run `gitmem index` and commit it "
                "(gitmem admit does this for you)"
                if present
                else "INDEX.md is missing: run `gitmem index` and commit it"
            ),
            commit,
        )
    return {c.path for c in changes if c.new is not None}


#: What gitmem's merges say of themselves, with the rule a claim that changes nothing breaks.
_CLAIMS: Final = (
    ("admit", "HISTORY-ADMIT"),
    (curation.AMEND, "HISTORY-AMEND"),
    (curation.RETIRE, "HISTORY-RETIRE"),
)


def _judge_claim(j: Judge, commit: str, message: str) -> None:
    """A commit of the chain that changes no memory may not say it is a gitmem merge
    (`gitmem: admit <id>`, amend, retire): the memory branch's log is the record of what was
    admitted, and such a line would record an admission that no gate judged."""
    for verb, rule in _CLAIMS:
        named = _merge_id(message, verb)
        if named is not None:
            j.add(
                f"{j.dir}/entries",
                rule,
                f"the commit says `gitmem: {verb} {named}` but changes no memory: a gitmem "
                f"merge is made by gitmem admit, and says what it did",
                commit,
            )


def _judge_settings_change(j: Judge, commit: str, parent: str | None) -> None:
    """The policy settings in the memory branch's tree change only by a policy admin; even
    then the gate goes on judging by its policy (the server's config, the trusted base)."""
    tree = j.commit(commit).tree
    before = j.commit(parent).tree if parent else None
    items = [j.store.item(tree, name) for name in SETTINGS_FILES]
    previous = [j.store.item(before, name) if before else None for name in SETTINGS_FILES]
    if [i.oid if i else None for i in items] == [p.oid if p else None for p in previous]:
        return
    changed = policy_mod.changed_keys(
        workspace_policy_at(j.store, parent, "") if parent else Policy(),
        workspace_policy_at(j.store, commit, ""),
    )
    if not changed:
        return
    names = ", ".join(changed)
    if j.policy.is_admin(j.pusher):
        j.warnings.append(
            f"commit {commit[:12]} changes {names}; the gate still judges by {j.policy.source}: "
            "update it (gitmem hooks install --server on the server) to apply the change"
        )
        return
    j.add(
        PROJECT_SETTINGS if items[0] or previous[0] else PYPROJECT,
        "HISTORY-SETTINGS",
        f"changes {names} on {j.policy.branch}: the gate judges by {j.policy.source}, "
        "and only a policy admin (gitmem.policyAdmins) pushes a change of policy",
        commit,
    )


def _admitted_id(message: str) -> str | None:
    return _merge_id(message, "admit")


def _merge_id(message: str, verb: str) -> str | None:
    """The candidate id of a `gitmem: <verb> <id>` message (admit, amend, retire)."""
    first = message.splitlines()[0] if message else ""
    if first.startswith(f"gitmem: {verb} "):
        return first.removeprefix(f"gitmem: {verb} ").strip()
    return None


def _judge_admission(
    j: Judge, step: Step, admitted_id: str, path: str, entry: Entry, oid: str
) -> None:
    """The admitted entry against its candidate (the merge's second parent), its status,
    its admitter, and the rule that an id is admitted once."""
    commit = step.commit
    parents = step.info.parents
    entries = j.store.subtree(j.memory_tree(step.parent), "entries")
    for folder in j.store.folders(entries):
        if folder != entry.type and j.store.exists(
            j.store.subtree(entries, folder) or "", f"{admitted_id}.md"
        ):
            j.add(
                path,
                "HISTORY-ADMIT",
                f"{admitted_id} was admitted already (entries/{folder}/): an id is admitted once",
                commit,
            )
    candidate_path = f"{j.dir}/candidates/{admitted_id}.md"
    item = _file_at(j, parents[1], candidate_path)
    if item is None or not item.is_file:
        j.add(
            path, "HISTORY-ADMIT", f"the merge's second parent carries no {candidate_path}", commit
        )
        return
    admitted = _blob(j, oid)
    derived = candidate_text(entry, admitted) if len(admitted) <= SCAN_CAP else None
    if derived is not None and item.oid not in j.blobs and j.store.blob_id(derived) == item.oid:
        _keep_blob(j, item.oid, derived)  # the candidate's own scan reads it from here
    else:
        candidate = _blob(j, item.oid)
        if max(len(candidate), len(admitted)) > SCAN_CAP or not is_candidate_text(
            candidate, entry, admitted
        ):
            # not the candidate's bytes line for line: the same entry, written as gitmem
            # writes it
            _judge_candidate_text(j, commit, path, entry, item.oid)
            _judge_as_written(j, commit, path, entry, admitted, "HISTORY-ADMIT")
    if entry.status != "admitted":
        j.add(path, "HISTORY-ADMIT", f"an admitted entry has status {entry.status!r}", commit)
    later = [k for k in curation.AFTER_ADMISSION if k in entry.meta]
    if later:  # else a rewrite could pass a re-admission off as an amendment (_moves_forward)
        j.add(
            path,
            "HISTORY-ADMIT",
            f"a new admission carries {', '.join(later)}: only a reviewed amend or retire "
            "merge writes them, after the admission",
            commit,
        )
    by = str(entry.meta.get("admitted_by", ""))
    _judge_admitter(j, commit, path, entry, by)


def _file_at(j: Judge, commit: str, path: str) -> TreeItem | None:
    """The file at path in a commit: from what the commit itself changed when it is new in
    this push (no tree to read), else from its tree."""
    info = j.commit(commit)
    key = (commit, info.parents[0] if info.parents else None)
    if key in j.changes or key in j.streamed:
        parent = info.parents[0] if info.parents else None
        found = next((c for c in _memory_changes(j, commit, parent) if c.path == path), None)
        if found is not None:
            return found.new
    return j.store.item(info.tree, path)


def _judge_as_written(
    j: Judge, commit: str, path: str, entry: Entry, data: bytes, rule: str
) -> None:
    """The text a gitmem merge writes of an entry, where it is not the reviewed candidate's
    bytes line for line (is_candidate_text, candidate_text), is the entry as gitmem writes
    it. It is compared with what was reviewed as parsed, and a parser passes over YAML
    comments: such text would reach the memory branch unreviewed, shown by no gitmem reader
    but read by anyone, or any agent, who opens the file."""
    if data == entry.render().encode("utf-8"):
        return
    j.add(
        path,
        rule,
        "the entry's text holds more than its fields and sections (a YAML comment, or a field "
        "written otherwise than gitmem writes it), which no reviewer saw: let gitmem write it "
        "(gitmem admit)",
        commit,
    )


def _judge_candidate_text(j: Judge, commit: str, path: str, entry: Entry, oid: str) -> None:
    """The admitted text against the candidate's, both parsed (is_candidate_text could not
    tell them apart line by line)."""
    candidate = _parse_blob(j, oid)
    if candidate is None:
        j.add(path, "HISTORY-ADMIT", "the admitted candidate does not parse", commit)
        return
    if candidate.status != "candidate":
        j.add(path, "HISTORY-ADMIT", "the second parent's file is not a candidate", commit)
    if not curation.reviewed(candidate).same_except_admission(entry):
        j.add(
            path,
            "HISTORY-ADMIT",
            "the admitted text differs from the candidate's beyond "
            "the admission fields: admit exactly what was reviewed",
            commit,
        )


def _judge_admitter(j: Judge, commit: str, path: str, entry: Entry, by: str) -> None:
    if by.startswith("human:") and len(by) > len("human:"):
        _judge_pusher(j, commit, path, by)
        return
    if by.startswith("audit:"):
        if not entry.source.startswith("audit:") or entry.type not in ("code-structure", "mistake"):
            j.add(
                path,
                "HISTORY-ADMITTER",
                f"an audit admits only audit-sourced code-structure "
                f"or mistake entries, not a {entry.type} from {entry.source}",
                commit,
            )
        elif not j.policy.auto_admit_audited:
            j.add(
                path,
                "HISTORY-ADMITTER",
                f"admitted by an audit but autoAdmitAudited is not on in {j.policy.source}",
                commit,
            )
        return
    j.add(path, "HISTORY-ADMITTER", f"admitted_by {by!r} is not an allowed admitter", commit)


def _judge_pusher(
    j: Judge, commit: str, path: str, by: str, field_name: str = "admitted_by"
) -> None:
    """memory.requirePusherMatch: a person's admission (or refusal) is pushed by that
    person."""
    if not (j.policy.require_pusher_match and j.side == "server"):
        return
    if j.pusher is None:
        j.add(
            path,
            "HISTORY-ADMITTER",
            "memory.requirePusherMatch is on but the server does not say who pushed "
            "(GL_USERNAME, GITEA_PUSHER_NAME, GITHUB_USER_LOGIN, GITMEM_PUSHER, "
            "REMOTE_USER): set one in the server's hook environment",
            commit,
        )
    elif by != f"human:{j.pusher}":
        j.add(
            path,
            "HISTORY-ADMITTER",
            f"{field_name} {by!r} is not the pusher {j.pusher!r} "
            "(memory.requirePusherMatch): the reviewer pushes what they decided",
            commit,
        )


def _judge_cited_files(j: Judge, commit: str, tree: str, path: str, entry: Entry) -> None:
    """The files an entry cites exist in the commit that admits it (later they may move: the
    entry is then stale, which recall and lint report, not invalid). A cited folder counts,
    as it does for the file rule."""
    snapshot = TreeSnapshot(j.store, tree) if entry.files else None
    for cited in entry.files:
        if snapshot is not None and snapshot.kind(cited) == MISSING:
            j.add(
                path,
                "FILES-MISSING",
                f"files: {cited!r} does not exist where the entry is admitted: "
                "cite paths that exist in the admitting commit",
                commit,
            )


def _net_changes(j: Judge, old: str | None, new: str) -> list[Change] | None:
    """The memory folder's changes from old to new (paths inside the folder), or None when
    there is no old memory folder to compare with."""
    old_memory, new_memory = (j.memory_tree(old) if old else None), j.memory_tree(new)
    if old_memory is None:
        return None
    return [] if old_memory == new_memory else j.store.diff(old_memory, new_memory)


def _judge_net(j: Judge, old: str, new: str) -> None:
    """A rewrite of the memory branch (force push): nothing admitted may vanish or change in
    the result, save a supersession flip; refused.md and allowed.md keep what they held."""
    new_memory = j.memory_tree(new)
    for change in _net_changes(j, old, new) or []:
        path = f"{j.dir}/{change.path}"
        if change.path.startswith("entries/") and change.old is not None:
            if change.new is None:
                j.add(
                    path,
                    "HISTORY-DELETE",
                    "a rewrite of history deletes this entry: entries are never deleted",
                )
                continue
            before = _parse_blob(j, change.old.oid)
            after = _parse_blob(j, change.new.oid)
            successor_id = str(after.meta.get("superseded_by", "")) if after else ""
            successor = _find_entry(j, new_memory, successor_id) if successor_id else None
            if before is None or after is None or not _moves_forward(before, after, successor):
                j.add(
                    path,
                    "HISTORY-EDIT",
                    "a rewrite of history changes this admitted entry: an id once admitted "
                    "keeps its text, but for reviewed amendments and its end",
                )
        elif change.path in ("refused.md", allowed_mod.NAME) and change.old is not None:
            kept = _appended_bytes(j, change.new.oid) if change.new else b""
            if not kept.startswith(_appended_bytes(j, change.old.oid)):
                j.add(
                    path,
                    "HISTORY-REFUSED" if change.path == "refused.md" else "HISTORY-EDIT",
                    f"a rewrite of history shrinks or edits {change.path}: it only grows",
                )


def _moves_forward(before: Entry, after: Entry, successor: Entry | None) -> bool:
    """Whether a rewrite's net change of an entry only moves it forward: a supersession flip,
    a retirement, or later amendments (`amended` grown, its old dates kept), the entry's
    identity and admission kept. A rewrite cannot take back an end or an amendment."""
    if _is_flip(before, after, successor):
        return True
    if before.status != "admitted" or after.status not in ("admitted", "retired"):
        return False
    if any(before.meta.get(k) != after.meta.get(k) for k in curation.IMMUTABLE if k != "status"):
        return False
    old_dates = [str(d) for d in before.meta.get("amended") or []]
    new_dates = [str(d) for d in after.meta.get("amended") or []]
    if new_dates[: len(old_dates)] != old_dates:
        return False
    if len(new_dates) > len(old_dates):
        return True
    ended: dict[str, None] = dict.fromkeys(("retired", "retired_by", "retired_reason"))
    return after.with_meta(status="admitted", **ended) == before


def _find_entry(j: Judge, memory: str | None, entry_id: str) -> Entry | None:
    entries = j.store.subtree(memory, "entries")
    for folder in j.store.folders(entries):
        item = j.store.item(entries, f"{folder}/{entry_id}.md") if entries else None
        if item is not None and item.is_file:
            return _parse_blob(j, item.oid)
    return None
