"""The history rules: judge a ref update old → new by walking every new commit, not only the tip.

- A candidate branch `gitmem/<id>` adds or changes only `<dir>/candidates/<id>.md`.
- On the main branch (first-parent chain), an entry appears only through an admit merge whose
  second parent carries the same candidate, admitted by an allowed admitter, with the same text
  but for the admission fields; entries are never deleted or edited except by supersession;
  refused.md only grows; nothing lives under candidates/; INDEX.md matches its tree.  A commit
  reached only through a merge's second parent is judged as a candidate commit.
- In every new commit on any ref, a memory file that carries a secret or hidden Unicode
  rejects the update, even when a later commit removes it.

A commit whose memory folder is the same tree as its parent's costs two subtree look-ups, so
pushes that touch no memory cost next to nothing, and the work follows the size of the push,
never the size of the store. A big push (thousands of admissions) reads its diffs from one
`git diff-tree` stream and scans its files on another core (Store.diff_stream, scanner.py),
while the rules are judged commit by commit in one pass.

Judging uses the settings committed at the old tip of the main branch (the state the server
already trusts), so a push cannot move the memory folder out from under the rules.
"""

from __future__ import annotations

import os
from collections.abc import Generator, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, partial
from typing import TYPE_CHECKING

from gitmem import parallel as forked
from gitmem.errors import GitmemError, UsageError
from gitmem.gate.check import Report
from gitmem.gate.rules import Context, Place, check_entry, check_paths, place_of
from gitmem.index import indexmd as index_mod
from gitmem.model.entry import (
    Entry,
    EntryError,
    candidate_text,
    decode,
    is_candidate_text,
    parse,
)
from gitmem.model.fields import MAX_ENTRY_BYTES
from gitmem.model.names import BRANCH_PREFIX, PROJECT_SETTINGS, SETTINGS_FILES, is_slug
from gitmem.model.problem import Problem
from gitmem.repo.snapshot import MISSING, TreeSnapshot
from gitmem.repo.store import ZERO, Change, CommitInfo, Store, TreeItem
from gitmem.repo.workspace import settings_at
from gitmem.settings.load import Settings

if TYPE_CHECKING:
    from gitmem.gate.scanner import Scanner
    from gitmem.model.refused import Refusal

#: From how many new commits on a push their diffs come from one git process.
BULK_DIFF_MIN = 32
#: From how many updates a push is judged by two processes.
SPLIT_MIN = 512
PUSHER_VARIABLES = ("GL_USERNAME", "GITEA_PUSHER_NAME", "GITHUB_USER_LOGIN")
SCAN_CAP = MAX_ENTRY_BYTES
#: refused.md grows by a line a refusal
REFUSED_CAP = 4 * 1024 * 1024
#: memory blobs kept per push, whatever the push holds
BLOB_CACHE_BYTES = 256 * 1024 * 1024


@dataclass(frozen=True)
class Update:
    old: str
    new: str
    ref: str


@dataclass
class Judge:
    """The state shared by the checks of one push: settings, exclusions, scanned blobs."""

    store: Store
    settings: Settings
    exclude: list[str]
    pusher: str | None = None
    audit_allowed: bool = False
    scanned: set[str] = field(default_factory=set)
    changes: dict[tuple[str, str | None], list[Change]] = field(default_factory=dict)
    blobs: dict[str, bytes] = field(default_factory=dict)
    blob_bytes: int = 0
    parsed: dict[str, Entry | None] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    checked: int = 0
    commits: dict[str, CommitInfo] = field(default_factory=dict)
    memory_trees: dict[str, str | None] = field(default_factory=dict)
    # the memory-folder diffs of a big push, read from one `git diff-tree` into changes
    stream: Generator[tuple[tuple[str, str | None], list[Change]]] | None = None
    streamed: set[tuple[str, str | None]] = field(default_factory=set)  # the stream's pairs
    outside: set[str] = field(default_factory=set)  # streamed commits that changed more too
    # refused.md at main's tip, read once for every candidate branch of the push
    refusals: dict[str, Refusal] | None = None
    # the secret scans: which file of which commit each scan is, and what was found so far
    scanner: Scanner | None = None  # made when a memory file is first scanned
    scanned_files: list[tuple[str, str]] = field(default_factory=list)

    def commit(self, oid: str) -> CommitInfo:
        """A commit's parents, tree and message, read once per push."""
        info = self.commits.get(oid)
        if info is None:
            info = self.commits[oid] = self.store.commit(oid)
        return info

    @property
    def dir(self) -> str:
        return self.settings.dir

    def add(self, path: str, rule: str, message: str, commit: str | None = None) -> None:
        where = f" (commit {commit[:12]})" if commit else ""
        self.problems.append(Problem(path, None, rule, message + where))

    def memory_tree(self, commit: str | None) -> str | None:
        """The memory folder's tree at a commit (kept: a commit is its child's parent)."""
        if commit is None:
            return None
        if commit not in self.memory_trees:
            self.memory_trees[commit] = self.store.subtree(self.commit(commit).tree, self.dir)
        return self.memory_trees[commit]


# ---------------------------------------------------------------------------------------------
# entry points


def check_range(spec: str, ref: str | None = None) -> Report:
    """`gitmem check --range A..B`: judge the commits of A..B as an update of ref (default: the
    branch named by B, or the current branch when B is HEAD)."""
    store = Store.open(None)
    if ".." not in spec or "..." in spec:
        raise UsageError(f"--range {spec!r}: write A..B (two revisions)")
    left, right = spec.split("..", 1)
    old = store.resolve(left or "HEAD")
    new = store.resolve(right or "HEAD")
    if old is None or new is None:
        missing = left if old is None else right
        raise UsageError(f"--range: {missing!r} is not a commit here (git fetch first?)")
    target = ref or _ref_for(store, right or "HEAD")
    return judge(store, [Update(old, new, target)], exclude=[old])


def _ref_for(store: Store, rev: str) -> str:
    if rev == "HEAD":
        branch = store.head_branch()
        return f"refs/heads/{branch}" if branch else "HEAD"
    if rev.startswith("refs/"):
        return rev
    if store.ref_target(f"refs/heads/{rev}"):
        return f"refs/heads/{rev}"
    for ref in store.refs("refs/remotes/"):
        if ref.endswith(f"/{rev}") or ref == f"refs/remotes/{rev}":
            return "refs/heads/" + ref.removeprefix("refs/remotes/").split("/", 1)[1]
    return f"refs/heads/{rev}"


def parse_updates(text: str, *, pre_push: bool) -> list[Update]:
    updates = []
    for line in text.splitlines():
        parts = line.split()
        if pre_push and len(parts) == 4:
            _local_ref, local_sha, remote_ref, remote_sha = parts
            updates.append(Update(remote_sha, local_sha, remote_ref))
        elif not pre_push and len(parts) == 3:
            old, new, ref = parts
            updates.append(Update(old, new, ref))
        elif parts:
            raise UsageError(f"cannot read hook input line {line!r}")
    return updates


def check_pre_push(stdin: str, remote: str | None = None) -> Report:
    """The pre-push gate: what the remote does not have yet is judged as the server would."""
    store = Store.open(None, from_env=True)
    updates = parse_updates(stdin, pre_push=True)
    exclude = list(store.refs(f"refs/remotes/{remote}/").values()) if remote else []
    exclude += [u.old for u in updates if u.old != ZERO and store.has_object(u.old)]
    return judge(store, updates, exclude=exclude)


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
    exclude = list(store.refs(f"refs/remotes/{remote}/").values()) if remote else []
    if old_commit:
        exclude.append(old_commit)
    return judge(store, [Update(old_commit or ZERO, new, ref)], exclude=exclude)


def check_pre_receive(stdin: str) -> Report:
    """The server gate.  The repository is opened from the environment, so the objects git
    holds in quarantine during the push are visible; every ref the server has is excluded."""
    store = Store.open(None, from_env=True)
    updates = parse_updates(stdin, pre_push=False)
    exclude = list(store.refs("refs/").values())
    pusher = next((os.environ[v] for v in PUSHER_VARIABLES if os.environ.get(v)), None)
    return judge(store, updates, exclude=exclude, pusher=pusher)


def judge(
    store: Store, updates: Iterable[Update], *, exclude: list[str], pusher: str | None = None
) -> Report:
    """Every rule over a push's updates. Updates are judged independently of one another, so
    a push of many branches (10,000 candidates at once) is judged by two processes
    (gitmem.parallel), main's update, if any, by this one."""
    updates = list(updates)
    trusted = _trusted_settings(store, updates)
    audit_allowed = _project_allows_audit(store, updates, trusted)
    kept = [e for e in exclude if e and e != ZERO]

    def judged(part: list[Update]) -> list[tuple[list[Problem], int]]:
        judge_ = Judge(store, trusted, kept, pusher, audit_allowed=audit_allowed)
        _judge_updates(judge_, part)
        return [(judge_.problems, judge_.checked)]

    if len(updates) >= SPLIT_MIN:  # main's update first, so that it stays in this process
        updates.sort(key=lambda update: update.ref != _main_ref(trusted))
    problems: list[Problem] = []
    checked = 0
    for found, count in forked.in_two(updates, judged, minimum=SPLIT_MIN):
        problems.extend(found)
        checked += count
    return Report(sorted(problems, key=Problem.sort_key), checked, unit="commit")


def _judge_updates(judge_: Judge, updates: list[Update]) -> None:
    try:
        # every update's commits first, so that a push of many branches (10,000 candidates)
        # has its diffs streamed by one git process and its scans done on another core
        walks = [(update, _walk(judge_, update)) for update in updates]
        _prefetch_changes(judge_, [c for _, walked in walks if walked for c in walked[1]])
        for update, walked in walks:
            _judge_update(judge_, update, walked)
        _report_scans(judge_)
    finally:
        if judge_.stream is not None:
            judge_.stream.close()  # stops git if a failure left diffs unread
        if judge_.scanner is not None:
            judge_.scanner.close()


def _main_ref(settings: Settings) -> str:
    return f"refs/heads/{settings.branch}"


def _trusted_settings(store: Store, updates: list[Update]) -> Settings:
    """Settings at the current main tip; for a first push, at the pushed main tip."""
    provisional = settings_at(store, None)
    for candidate_ref in (f"refs/heads/{provisional.branch}", "refs/heads/main"):
        tip = store.ref_target(candidate_ref)
        if tip:
            return settings_at(store, tip)
    for update in updates:
        if update.ref == _main_ref(provisional) and update.new != ZERO:
            return settings_at(store, store.resolve(update.new))
    return provisional


def _project_allows_audit(store: Store, updates: list[Update], trusted: Settings) -> bool:
    """Server side, the project's own memory.autoAdmitAudited (nobody's user file applies)."""
    from gitmem.settings.load import load_settings

    tip = store.ref_target(_main_ref(trusted))
    if tip is None:
        return False
    tree = store.tree_of(tip)
    texts = [store.read_path(tree, name) for name in SETTINGS_FILES]
    project = load_settings(
        project_toml=texts[0].decode("utf-8", "replace") if texts[0] else None,
        pyproject_toml=texts[1].decode("utf-8", "replace") if texts[1] else None,
        user_toml=None,
        environ={"GITMEM_AUTO_ADMIT_AUDITED": "true"},
    )
    return project.auto_admit_audited


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


def _judge_update(j: Judge, update: Update, walked: tuple[str, list[str]] | None) -> None:
    main_ref = _main_ref(j.settings)
    if update.new == ZERO:
        if update.ref == main_ref:
            j.add(
                update.ref,
                "HISTORY-DELETE",
                f"deleting {j.settings.branch} would delete the memory: refused",
            )
        return
    if walked is None:
        return  # a tag of a tree or blob: nothing of the memory's history
    new, commits = walked
    j.checked += len(commits)
    if update.ref == main_ref:
        _judge_main(j, update, new, commits)  # scans each commit as it goes
        return
    for commit in commits:
        _scan_commit(j, commit)
    if update.ref.startswith(f"refs/heads/{BRANCH_PREFIX}"):
        _judge_candidate_branch(j, update, new, commits)


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


def _scan_commit(j: Judge, commit: str) -> None:
    """Secrets, hidden Unicode and unreadable files in every memory blob a commit adds (the
    scanner reports its findings when the push has been walked: _report_scans)."""
    parents = j.commit(commit).parents
    for change in _memory_changes(j, commit, parents[0] if parents else None):
        new = change.new
        if new is None or new.oid in j.scanned or change.path == f"{j.dir}/INDEX.md":
            continue  # INDEX.md is derived from the entries, and must match them (INDEX rule)
        j.scanned.add(new.oid)
        if not new.is_file:
            if new.is_symlink:
                j.add(change.path, "SYMLINK", "a symbolic link in the memory folder", commit)
            continue
        cap = REFUSED_CAP if change.path == f"{j.dir}/refused.md" else SCAN_CAP
        data = _blob(j, new.oid) if cap == SCAN_CAP else j.store.read(new.oid, cap)
        if len(data) > cap:
            j.add(change.path, "TOO-LARGE", f"is over {cap // 1024} KiB", commit)
            continue
        offset = 0
        if change.old is not None and change.path == f"{j.dir}/refused.md":
            before = j.store.read(change.old.oid, cap)
            if data.startswith(before):  # append-only: only the new rows need a scan
                offset = before.count(b"\n")
                data = data[len(before) :]
        j.scanned_files.append((change.path, commit))
        _scanner(j).add(str(len(j.scanned_files) - 1), data, offset)


def _scanner(j: Judge) -> Scanner:
    """The scanner, made when a memory file is first scanned (the secret rules load only
    then): in a worker on another core when the push is big enough to stream its diffs
    (which _prefetch_changes decides before any file is scanned)."""
    if j.scanner is None:
        from gitmem.gate.scanner import Scanner

        j.scanner = Scanner(parallel=bool(j.streamed))
    return j.scanner


def _report_scans(j: Judge) -> None:
    """Secrets and hidden Unicode the scanner found, as problems of the files and commits."""
    for label, findings in j.scanner.results() if j.scanner else []:
        path, commit = j.scanned_files[int(label)]
        for finding in findings:
            rule = "HIDDEN-UNICODE" if finding.rule == "hidden-unicode" else "SECRET"
            j.problems.append(
                Problem(
                    path,
                    finding.line or None,
                    rule,
                    f"{finding.rule}: {finding.description} ({finding.excerpt}) in commit "
                    f"{commit[:12]}: rewrite the commits without it and rotate the secret",
                )
            )


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
            if path in self.done:
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
    """The refused topics at main's tip, which a push does not move: read once per push (a
    push of 10,000 candidate branches judges each against them). On a first push, those of
    the pushed tree."""
    if j.refusals is None:
        main_tip = j.store.ref_target(_main_ref(j.settings))
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
            update.ref,
            "CANDIDATE-BRANCH",
            f"{BRANCH_PREFIX}{entry_id} is not a candidate "
            "branch name: gitmem/<id> with an id of lowercase words joined by '-'",
        )
        return
    local_main = j.store.ref_target(_main_ref(j.settings))
    unpushed_main = False
    for commit in commits:
        info = j.commit(commit)
        parents = list(info.parents)
        # a merge that brings main into the branch ("update branch") is judged against the
        # parent that main already holds; any other commit against its first parent
        base = parents[0] if parents else None
        main_tip = j.store.ref_target(_main_ref(j.settings)) if len(parents) > 1 else None
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
        stray = [path for path in changed if path != own]
        if stray and local_main and j.store.is_ancestor(commit, local_main):
            # pre-push: the candidate was proposed on a main the remote does not have yet
            if not unpushed_main:
                unpushed_main = True
                branch = j.settings.branch
                j.add(
                    own,
                    "CANDIDATE-BRANCH",
                    f"branch {BRANCH_PREFIX}{entry_id} carries commits of {branch} that the "
                    f"remote does not have yet: push {branch} first (git push -u origin "
                    f"{branch}), then the candidate branch",
                    commit,
                )
        elif stray:
            shown = ", ".join(stray[:5]) + (" …" if len(stray) > 5 else "")
            j.add(
                own,
                "CANDIDATE-BRANCH",
                f"branch {BRANCH_PREFIX}{entry_id} changes {shown}: "
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


# ---------------------------------------------------------------------------------------------
# the main branch


def _judge_main(j: Judge, update: Update, new: str, commits: list[str]) -> None:
    """Scan every new commit and judge those of the first-parent chain, in one pass in
    history order, so a big push's judging keeps pace with the diffs git streams in."""
    store = j.store
    new_commits = set(commits)
    old = update.old if update.old != ZERO and store.has_object(update.old) else None
    chain, reached = _new_first_parents(j, new, new_commits)
    if old is not None and reached != old and not store.is_ancestor(old, new):
        _judge_net(j, old, new)
    on_chain = set(chain)
    new_tree = store.tree_of(new)
    tip = TipRules.at(j, new_tree)
    net = _net_changes(j, old, new)  # what the push changes in all: INDEX.md and the tip
    if net is not None:
        tip.blobs = {f"{j.dir}/{c.path}": c.new.oid for c in net if c.new is not None}
    touched: set[str] = set()
    # A side commit (a candidate's) is scanned once the next commit of main is judged: when
    # that is its admission, the judge has proven the candidate's bytes from the admitted
    # text (_judge_admission) and the scan takes them from memory instead of the pack.
    side: list[str] = []
    for commit in commits:
        if commit not in on_chain:
            side.append(commit)
            continue
        _scan_commit(j, commit)
        touched.update(_judge_main_commit(j, commit, new_commits, tip))
        for done in side:
            _scan_commit(j, done)
        side.clear()
    for commit in side:
        _scan_commit(j, commit)
    for commit in new_commits - on_chain:
        _judge_side_commit(j, commit)
    new_settings = settings_at(store, new)
    if old is not None and new_settings.dir != j.dir:
        j.add(
            PROJECT_SETTINGS,
            "HISTORY-SETTINGS",
            f"memory.dir moves from {j.dir} to "
            f"{new_settings.dir}: moving the memory folder is an administrator's change",
        )
    tip.finish(sorted(p for p in touched if store.exists(new_tree, p)))
    _check_index(j, old, new, net)


def _new_first_parents(j: Judge, new: str, new_commits: set[str]) -> tuple[list[str], str | None]:
    """The new commits on new's first-parent chain, oldest first, and the commit the chain
    then reaches (None at the root).  Every ancestor of a commit the receiver has is one it
    has, so the walk stops at the first commit that is not new; when that is the old tip,
    the update is a fast-forward, with no ancestry walk needed to tell."""
    chain: list[str] = []
    current: str | None = new
    while current is not None and current in new_commits:
        chain.append(current)
        parents = j.commit(current).parents
        current = parents[0] if parents else None
    chain.reverse()
    return chain, current


def _judge_net(j: Judge, old: str, new: str) -> None:
    """A history rewrite (force push): nothing admitted may vanish or change in the result."""
    for change in _memory_changes(j, new, old):
        rel = change.path[len(j.dir) + 1 :]
        if rel.startswith("entries/") and change.status == "D":
            j.add(
                change.path,
                "HISTORY-DELETE",
                "a rewrite of history deletes this entry: entries are never deleted",
            )
        elif rel == "refused.md" and change.old is not None:
            _judge_refused(j, change, new)


def _judge_refused(j: Judge, change: Change, commit: str) -> None:
    if change.new is None:
        j.add(change.path, "HISTORY-REFUSED", "refused.md is deleted: it only grows", commit)
        return
    before = j.store.read(change.old.oid) if change.old else b""
    after = j.store.read(change.new.oid)
    if not after.startswith(before):
        j.add(
            change.path,
            "HISTORY-REFUSED",
            "refused.md is edited: it only grows (gitmem refuse appends to it)",
            commit,
        )


def _judge_main_commit(j: Judge, commit: str, new_commits: set[str], tip: TipRules) -> set[str]:
    """Rules for one commit on main's first-parent chain; returns the memory paths it wrote.
    The entries it adds are judged by the file rules too when the tip still holds them."""
    info = j.commit(commit)
    parent = info.parents[0] if info.parents else None
    changes = _memory_changes(j, commit, parent)
    if not changes:
        return set()
    admitted_id = _admitted_id(info.message) if len(info.parents) == 2 else None
    if admitted_id is None and len(info.parents) > 1:
        changes = _not_from_trusted_parents(j, info.parents[1:], changes, new_commits)
    added: dict[str, Entry] = {}
    blobs: dict[str, str] = {}  # path -> blob id of the added entries
    places: dict[str, Place] = {}
    flips: list[tuple[Change, Entry, Entry]] = []
    for change in changes:
        rel = change.path[len(j.dir) + 1 :]
        place = place_of(change.path, j.dir)
        if rel.startswith("candidates/") and change.new is not None:
            j.add(
                change.path,
                "HISTORY-CANDIDATE",
                f"a candidate on {j.settings.branch}: candidates live only on gitmem/<id> branches",
                commit,
            )
        elif place.kind == "entry":
            if change.status == "D":
                j.add(
                    change.path,
                    "HISTORY-DELETE",
                    "deletes an entry: entries are never deleted, only superseded",
                    commit,
                )
                continue
            new_entry = _parse_blob(j, change.new.oid if change.new else None)
            if new_entry is None:
                continue  # the file rules report it
            if change.status == "A" and change.new is not None:
                added[change.path] = new_entry
                blobs[change.path] = change.new.oid
                places[change.path] = place
            else:
                old_entry = _parse_blob(j, change.old.oid if change.old else None)
                if old_entry is not None:
                    flips.append((change, old_entry, new_entry))
        elif rel == "refused.md":
            _judge_refused(j, change, commit)
    for path, entry in added.items():
        _judge_admission(j, commit, info.parents, admitted_id, path, entry, blobs[path], len(added))
        _judge_cited_files(j, commit, info.tree, path, entry)
        tip.entry(path, blobs[path], places[path])
    for change, before, after in flips:
        _judge_flip(j, commit, change, before, after, added)
    return {c.path for c in changes if c.new is not None}


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


def _not_from_trusted_parents(
    j: Judge, parents: tuple[str, ...], changes: list[Change], new_commits: set[str]
) -> list[Change]:
    """A plain merge of the main branch with itself (two admissions made concurrently, then
    `git pull`): a change that merely takes a file as a commit the receiver already trusts
    has it was judged when that commit arrived, and is not judged again."""
    trusted_trees = [j.store.tree_of(p) for p in parents if p not in new_commits]
    if not trusted_trees:
        return changes
    kept = []
    for change in changes:
        new_oid = change.new.oid if change.new else None
        if any(
            (item.oid if (item := j.store.item(tree, change.path)) else None) == new_oid
            for tree in trusted_trees
        ):
            continue
        kept.append(change)
    return kept


def _admitted_id(message: str) -> str | None:
    first = message.splitlines()[0] if message else ""
    if first.startswith("gitmem: admit "):
        return first.removeprefix("gitmem: admit ").strip()
    return None


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


def _parse_blob(j: Judge, oid: str | None) -> Entry | None:
    """The entry in a blob, parsed once per push; None when it does not parse."""
    if oid is None:
        return None
    if oid not in j.parsed:
        try:
            j.parsed[oid] = parse(_blob(j, oid)[:SCAN_CAP])
        except EntryError:
            j.parsed[oid] = None
    return j.parsed[oid]


def _judge_admission(
    j: Judge,
    commit: str,
    parents: tuple[str, ...],
    admitted_id: str | None,
    path: str,
    entry: Entry,
    oid: str,
    count: int,
) -> None:
    if admitted_id is None:
        j.add(
            path,
            "HISTORY-ADMIT",
            "an entry appears without an admit merge: propose it "
            "(gitmem propose) and admit it (gitmem admit)",
            commit,
        )
        return
    if count > 1 or entry.id != admitted_id:
        j.add(path, "HISTORY-ADMIT", f"the admit merge of {admitted_id} adds another entry", commit)
        return
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
            _judge_candidate_text(j, commit, path, entry, item.oid)
    if entry.status != "admitted":
        j.add(path, "HISTORY-ADMIT", f"an admitted entry has status {entry.status!r}", commit)
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


def _judge_candidate_text(j: Judge, commit: str, path: str, entry: Entry, oid: str) -> None:
    """The admitted text against the candidate's, both parsed (is_candidate_text could not
    tell them apart line by line)."""
    candidate = _parse_blob(j, oid)
    if candidate is None:
        j.add(path, "HISTORY-ADMIT", "the admitted candidate does not parse", commit)
        return
    if candidate.status != "candidate":
        j.add(path, "HISTORY-ADMIT", "the second parent's file is not a candidate", commit)
    if not candidate.same_except_admission(entry):
        j.add(
            path,
            "HISTORY-ADMIT",
            "the admitted text differs from the candidate's beyond "
            "the admission fields: admit exactly what was reviewed",
            commit,
        )


def _judge_admitter(j: Judge, commit: str, path: str, entry: Entry, by: str) -> None:
    if by.startswith("human:") and len(by) > len("human:"):
        if j.settings.require_pusher_match and j.pusher and by != f"human:{j.pusher}":
            j.add(
                path,
                "HISTORY-ADMITTER",
                f"admitted_by {by!r} is not the pusher "
                f"{j.pusher!r} (memory.requirePusherMatch): the reviewer pushes the admission",
                commit,
            )
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
        elif not j.audit_allowed:
            j.add(
                path,
                "HISTORY-ADMITTER",
                "admitted by an audit but the project's memory.autoAdmitAudited is not true",
                commit,
            )
        return
    j.add(path, "HISTORY-ADMITTER", f"admitted_by {by!r} is not an allowed admitter", commit)


def _judge_flip(
    j: Judge, commit: str, change: Change, before: Entry, after: Entry, added: dict[str, Entry]
) -> None:
    successor = str(after.meta.get("superseded_by", ""))
    new_ids = {e.id: e for e in added.values()}
    legal = (
        before.status == "admitted"
        and after.status == "superseded"
        and successor in new_ids
        and before.id in new_ids[successor].supersedes
        and before.same_except_admission(after)
        and before.meta.get("admitted_by") == after.meta.get("admitted_by")
        and before.meta.get("admitted") == after.meta.get("admitted")
    )
    if not legal:
        j.add(
            change.path,
            "HISTORY-EDIT",
            "edits an admitted entry: entries change only when "
            "an admitted successor supersedes them (gitmem propose --edit)",
            commit,
        )


def _judge_side_commit(j: Judge, commit: str) -> None:
    """A commit reached only through a merge's second parent: a candidate's commit."""
    parents = j.commit(commit).parents
    for change in _memory_changes(j, commit, parents[0] if parents else None):
        rel = change.path[len(j.dir) + 1 :]
        if rel.startswith("candidates/") or rel in ("INDEX.md", "refused.md", ".gitignore"):
            continue
        j.add(
            change.path,
            "HISTORY-ADMIT",
            "a merged branch changes the memory outside "
            "candidates/: memory changes only through gitmem admit",
            commit,
        )


def _index_fields(j: Judge, oid: str) -> tuple[str, str, str] | None:
    """index.index_fields() of a blob parsed already, from its entry: exact when the front
    matter was read one line a field, as index_fields reads it (tested); None otherwise."""
    entry = j.parsed.get(oid)
    if entry is None or not entry.one_line_fields:
        return None
    return entry.status, entry.title, str(entry.meta.get("superseded_by", ""))


def _net_changes(j: Judge, old: str | None, new: str) -> list[Change] | None:
    """The memory folder's changes from old to new (paths inside the folder), or None when
    there is no old memory folder to compare with."""
    old_memory, new_memory = (j.memory_tree(old) if old else None), j.memory_tree(new)
    if old_memory is None:
        return None
    return [] if old_memory == new_memory else j.store.diff(old_memory, new_memory)


def _check_index(j: Judge, old: str | None, new: str, net: list[Change] | None) -> None:
    store = j.store
    new_memory = j.memory_tree(new)
    if new_memory is None:
        return
    old_memory = j.memory_tree(old) if old else None
    if old_memory == new_memory:
        return
    path = f"{j.dir}/INDEX.md"
    actual = store.read_path(store.tree_of(new), path)
    previous = store.read_path(store.tree_of(old), path) if old else None
    changes = net or []
    if previous is not None and old is not None:
        want = index_mod.update(
            store, previous, changes, new_memory, partial(_blob, j), partial(_index_fields, j)
        )
    else:
        want = index_mod.generate(store, new_memory).encode("utf-8")
    if actual is None:
        j.add(path, "INDEX", "INDEX.md is missing: run `gitmem index` and commit it")
    elif actual != want:
        j.add(
            path,
            "INDEX",
            "INDEX.md does not match the entries: run `gitmem index` and "
            "commit it (gitmem admit does this for you)",
        )
