"""A workspace: the repository with its settings, as every command opens it.

Settings are read from the place being judged: the working tree for commands a person runs,
the staging index for pre-commit, a commit's tree for history checks on a server (where there
is no working tree at all). A tree and the staging index give a file's blob, the bytes the
server's gate and a reviewer read; the working tree gives what git wrote there, which git
attributes can make other bytes: a settings file git converts on checkout (a re-encoding, a
filter, `$Id$`) is refused rather than read (gitmem.repo.snapshot.require_as_stored), since
its settings would be neither the repository's nor the person's own.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from gitmem.errors import RuleError, UsageError
from gitmem.model.names import PROJECT_SETTINGS, PYPROJECT
from gitmem.repo.gitcli import PinnedRepository
from gitmem.repo.refs import branch_facts
from gitmem.repo.snapshot import (
    FILE,
    FOLDER,
    MISSING,
    STANDS,
    Snapshot,
    TreeSnapshot,
    worktree_snapshot,
)
from gitmem.repo.store import Store
from gitmem.settings import policy as policy_mod
from gitmem.settings.load import (
    BRANCH_FROM_HEAD,
    BRANCH_UNKNOWN,
    Settings,
    SettingsWarning,
    branch_why,
    default_branch,
    load_settings,
    user_settings_path,
)

_SETTINGS_CAP = 1024 * 1024


@dataclass
class Workspace:
    store: Store
    settings: Settings

    @property
    def dir(self) -> str:
        return self.settings.dir

    @property
    def branch(self) -> str:
        return self.settings.branch

    def main_tip(self) -> str | None:
        remote = self.settings.remote
        if self.settings.branch_from == branch_why(BRANCH_UNKNOWN, remote):
            raise UsageError(
                f"memory.branch is {remote}'s default branch, which this clone does not know: "
                f"it fetches {self.settings.branch} alone from {remote} (a single-branch or "
                f"shallow clone of that branch), and taking {self.settings.branch} for the "
                "memory branch would read the memory there and write proposals and admissions "
                f"on it. Fetch {remote}'s branches and its default (git remote set-branches "
                f"{remote} '*' && git fetch {remote} && git remote set-head {remote} --auto), "
                "or name the memory branch (GITMEM_BRANCH=NAME, or memory.branch in "
                ".gitmem.toml)"
            )
        return self.store.branch_tip(self.settings.branch)

    def memory_tip(self) -> str | None:
        """The memory branch's tip for a reader (recall, list): None only when the repository
        has no branch with commits at all, so its memory is truly empty.

        When the remote the memory branch is fetched from (Store.fetch_remote) has it and this
        clone has not, or other branches have commits but the memory branch is not here (a
        clone of a project that keeps its memory on a branch of its own has only
        <remote>/<branch>; a pull request's checkout in CI has a detached HEAD and no local
        branch at all), an empty answer would tell an agent "no precedent" about a memory it
        never read, so this is a UsageError naming the branch and how to create it."""
        tip = self.main_tip()
        if tip is not None:
            return tip
        on_remote = self.branch_only_on_remote()
        if on_remote is not None:
            raise on_remote
        if not self.store.refs("refs/heads/"):
            return None
        branch = self.settings.branch
        remote = self.store.fetch_remote(branch)
        if self.store.fetches_one_branch(remote):  # `git fetch` would not bring it
            raise self._missing_branch(
                f"fetch it (git remote set-branches --add {remote} {branch} && git fetch "
                f"{remote}), then git branch {branch} {remote}/{branch}; or name the branch "
                "the memory is on: gitmem init --branch NAME"
            )
        raise self._missing_branch(
            "git fetch, or name the branch the memory is on: gitmem init --branch NAME"
        )

    def branch_only_on_remote(self) -> UsageError | None:
        """The error for a memory branch that the remote it is fetched from has and this
        clone has not (a project that keeps its memory on a branch of its own, cloned with
        another checked out): the fix is to create it from the remote's, never to move the
        memory elsewhere. Looked for on origin alone, a clone made with `git clone -o
        upstream` was told to run `git fetch`, which changes nothing there."""
        tracking = f"{self.store.fetch_remote(self.settings.branch)}/{self.settings.branch}"
        if not self.store.ref_target(f"refs/remotes/{tracking}"):
            return None
        return self._missing_branch(
            f"create it from {tracking}: git branch {self.settings.branch} {tracking}"
        )

    def _missing_branch(self, fix: str) -> UsageError:
        return UsageError(
            f"the memory branch {self.settings.branch} does not exist here (memory.branch: "
            f"{self.settings.branch_from}): {fix}"
        )


def _text(snapshot: Snapshot, name: str) -> str | None:
    """A settings file's text in a snapshot; None when there is none or it is not UTF-8, as
    TOML must be: read with U+FFFD for a byte, `dir` named another folder than the one a
    client reads (_settings_file sets such a file aside, with a warning), and a gate and
    the clients it judges must read one memory folder."""
    data = snapshot.read(name, _SETTINGS_CAP)
    try:
        return data.decode("utf-8") if data is not None else None
    except UnicodeDecodeError:
        return None


def memory_tree(ws: Workspace, tree: str) -> str | None:
    """The memory folder's tree in a commit's tree, or None when there is no such folder.
    Anything else at its path (a symbolic link, a file) is an error naming it (exit 1): read
    as no folder, list said "no entries", lint "no folder", recall "no precedent" and the
    export "no admitted entry yet" of a memory that `gitmem check` and the hooks refuse
    (SYMLINK)."""
    found = ws.store.subtree(tree, ws.dir)
    item = ws.store.item(tree, ws.dir) if found is None else None
    if item is None:
        return found
    rule, what = ("SYMLINK", "a symbolic link") if item.is_symlink else ("LAYOUT", "not a folder")
    raise RuleError(
        f"{ws.dir}: {rule} the memory folder is {what}: nothing in it is read; move the "
        f"folder itself to {ws.dir} (git mv), or point memory.dir at it"
    )


def require_memory_folder(ws: Workspace, kind: str) -> None:
    """Refuse (UsageError) a working tree whose memory folder is not one: kind is what the
    snapshot says stands at its path. A file there was judged as an entry (`FRONT-MATTER has
    no front matter`), a link to a folder as one too (`SYMLINK ... a memory entry must be a
    file`), and a link was written through: gitmem reads and writes the folder itself, as
    git commits it, never where a link leads (a clone's link may lead out of the
    repository)."""
    if kind not in (FOLDER, MISSING):
        raise UsageError(
            f"{ws.dir} is {STANDS[kind]}, where the memory folder belongs: move it "
            "away and run `gitmem init` to create the folder (or name another folder with "
            "memory.dir in .gitmem.toml)"
        )


def _settings_file(snapshot: Snapshot, name: str) -> tuple[str | None, list[SettingsWarning]]:
    """A settings file's text (name: .gitmem.toml or pyproject.toml), or why it is not read:
    a symbolic link (never followed, so a clone's link cannot point gitmem at a file outside
    the repository), a folder, a special file, a file beyond the size read, or bytes that are
    not UTF-8. Each was silently taken for no file at all (or read with U+FFFD for the bytes),
    so every setting in it fell back to its default with nothing said, and the pre-commit
    SETTINGS rule, which reads these warnings, let through a commit that did it. A
    pyproject.toml not UTF-8 that does not name gitmem holds no settings of gitmem's, as one
    that is not TOML is not read (gitmem.settings.load), and is said nothing of."""
    kind = snapshot.kind(name)
    if kind not in (FILE, MISSING):
        return None, [
            SettingsWarning(
                name,
                None,
                f"is {STANDS[kind]}: gitmem reads only a regular file there, so its settings "
                f"are ignored; put the file itself in its place{_OR_PROJECT_FILE[name]}",
                subject=True,
            )
        ]
    data = snapshot.read(name, _SETTINGS_CAP) if kind == FILE else None
    if data is not None and len(data) > _SETTINGS_CAP:
        return None, [
            SettingsWarning(
                name,
                None,
                f"is larger than {_SETTINGS_CAP // 1024 // 1024} MiB: the whole file is ignored "
                f"until it is cut down{_CUT_TO[name]}",
                subject=True,
            )
        ]
    if data is None:
        return None, []
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError as exc:
        if name == PYPROJECT and b"gitmem" not in data:
            return None, []
        # read with U+FFFD in place of the bytes, `dir = "\xe9"` named a folder "\ufffd"
        line = data[: exc.start].count(b"\n") + 1
        return None, [
            SettingsWarning(
                name,
                line,
                f"is not UTF-8 (byte {exc.start}), as TOML must be: its settings are ignored; "
                "save the file as UTF-8",
            )
        ]


#: What a settings file that cannot be read is told besides: pyproject.toml is read only while
#: .gitmem.toml is missing, so creating one (even empty) puts the settings where gitmem reads.
_OR_PROJECT_FILE = {
    PROJECT_SETTINGS: "",
    PYPROJECT: f", or keep the settings in {PROJECT_SETTINGS} (read instead of it)",
}
_CUT_TO = {PROJECT_SETTINGS: " to its [memory] table", PYPROJECT: ""}


def settings_from(store: Store, snapshot: Snapshot, root: Path | None) -> Settings:
    """The settings the snapshot's files say, with the user's file, the environment and git's
    branch facts (load_settings). From a working tree (worktree_snapshot), a settings file
    git converts on its way there is refused, naming the file and its attribute: UsageError
    (gitmem.repo.snapshot.require_as_stored)."""
    project_toml, unread = _settings_file(snapshot, PROJECT_SETTINGS)
    pyproject_toml: str | None = None
    if project_toml is None:  # pyproject.toml is read only then (gitmem.settings.load)
        pyproject_toml, unread_too = _settings_file(snapshot, PYPROJECT)
        unread += unread_too
    else:  # for its warning that .gitmem.toml overrides its [tool.gitmem]
        pyproject_toml = _text(snapshot, PYPROJECT)
    facts = _branch_facts(store)
    remote = facts["remote"]
    settings = load_settings(
        project_toml=project_toml,
        pyproject_toml=pyproject_toml,
        remote_url=None if remote is None else store.remote_url(remote),
        **facts,
        root=root,
    )
    if unread:
        settings = replace(settings, warnings=(*unread, *settings.warnings))
    head_why = branch_why(BRANCH_FROM_HEAD, remote)
    if remote is not None and settings.branch_from == head_why and store.fetches_one_branch(remote):
        # HEAD's branch, taken because the remote names no default: in a single-branch clone
        # of another branch than the remote's default, the memory was read from that branch,
        # and proposals, admissions and refusals were written on it (main_tip refuses)
        settings = replace(settings, branch_from=branch_why(BRANCH_UNKNOWN, remote))
    return settings


def _branch_facts(store: Store) -> dict[str, Any]:
    """What git says that the default of memory.branch depends on (settings.default_branch),
    and the remote it and memory.project's default are read from: origin where there is one
    (a repository with an origin reads them there, as ever), else the only remote, so that a
    clone made with `git clone -o upstream` takes upstream's default branch and name, as a
    clone with an origin takes origin's (gitmem.repo.refs.branch_facts). A server (a bare
    repository without remotes) has no remote-tracking refs: nothing changes there."""
    return branch_facts(store)


def branch_default(store: Store) -> tuple[str, str]:
    """memory.branch as no setting names it, and why (`gitmem init` says it)."""
    return default_branch(**_branch_facts(store))


def open_workspace(
    path: str | Path | None = None,
    *,
    from_env: bool = False,
    pinned: PinnedRepository | None = None,
) -> Workspace:
    """The repository at or above path (or pinned, the one GIT_DIR names: Store.open), with
    settings from its working tree (or, in a bare repository, from the tip of HEAD's
    branch)."""
    store = Store.open(path, from_env=from_env, pinned=pinned)
    root = store.workdir
    snapshot: Snapshot
    if root is not None:
        snapshot = worktree_snapshot(store, root)
    else:
        head = store.resolve("HEAD")
        snapshot = TreeSnapshot(store, store.tree_of(head) if head else None)
    return Workspace(store, settings_from(store, snapshot, root))


def require_memory_settings(ws: Workspace) -> None:
    """Refuse, before a command writes the memory branch (propose's base, admit, refuse), when
    the settings it was opened with put the memory elsewhere than the memory branch commits.

    A command's settings come from the checked-out working tree, but these commands write
    into the memory branch's tree: on a branch made before `gitmem init --dir mem`, or with
    an uncommitted edit of memory.dir, an admission landed in a second memory folder that
    `list`, `recall` and the gates never read. The committed side is read the same way
    (same user file, same environment, same git facts), so only the project files differ;
    memory.branch is taken from the checkout first (which branch to read), then held to what
    that branch itself commits. The rules an entry is judged by (memory.maxBody, memory.types,
    memory.retireBy) are held to the committed ones too: an uncommitted edit let an admission
    write a main that the history gate, judging by main's own settings, refuses. No memory
    branch yet: nothing to disagree with."""
    store = ws.store
    tip = ws.main_tip()
    if tip is None or store.workdir is None:
        return
    committed = settings_from(store, TreeSnapshot(store, store.tree_of(tip)), store.workdir)
    for name, here, there in (
        ("memory.dir", ws.dir, committed.dir),
        ("memory.branch", ws.branch, committed.branch),
        ("memory.maxBody", ws.settings.max_body, committed.max_body),
        ("memory.types", list(ws.settings.types), list(committed.types)),
        ("memory.retireBy", list(ws.settings.retire_by), list(committed.retire_by)),
    ):
        if here != there:
            raise UsageError(
                f"{name} is {here!r} in this checkout's settings ({PROJECT_SETTINGS} or "
                f"{PYPROJECT}), but {ws.branch} commits {there!r}: check out {ws.branch}, or "
                f"commit the settings change on {ws.branch} (or rebase this branch on it), "
                f"then run the command again"
            )
    _require_the_projects_rules(ws, tree_settings(store, store.tree_of(tip)))


def _require_the_projects_rules(ws: Workspace, project: Settings) -> None:
    """Refuse when the user's own settings file or a GITMEM_* variable changes a rule an entry
    is judged by. The gates judge by what the memory branch commits and never read a person's
    settings (`tree_settings`), so a looser memory.maxBody in ~/.config let propose and admit
    write a main that the server and CI then refuse."""
    for name, variable, here, there in (
        ("memory.maxBody", "GITMEM_MAX_BODY", ws.settings.max_body, project.max_body),
        ("memory.types", "GITMEM_TYPES", list(ws.settings.types), list(project.types)),
        ("memory.retireBy", "GITMEM_RETIRE_BY", list(ws.settings.retire_by),
         list(project.retire_by)),
    ):  # fmt: skip
        if here != there:
            raise UsageError(
                f"{name} is {here!r} in your own settings ({user_settings_path()} or "
                f"{variable}), but the gates judge entries by what {ws.branch} commits, "
                f"{there!r}: remove it from your settings, or change it on {ws.branch} "
                f"through a reviewed commit, then run the command again"
            )


def settings_at(store: Store, commit: str | None) -> Settings:
    """The project settings as committed at a commit (server side: no working tree)."""
    tree = store.tree_of(commit) if commit else None
    return settings_from(store, TreeSnapshot(store, tree), None)


def tree_settings(
    store: Store, tree: str | None, environ: dict[str, str] | None = None
) -> Settings:
    """The settings a tree commits, read with no user's file and no environment (but
    environ, when given): what a gate takes as the project's word; a person's own settings
    never make a gate's policy."""
    snapshot = TreeSnapshot(store, tree)
    return load_settings(
        project_toml=_text(snapshot, PROJECT_SETTINGS),
        pyproject_toml=_text(snapshot, PYPROJECT),
        user_toml=None,
        environ=environ or {},
    )


def policy_at(store: Store, commit: str | None, source: str) -> policy_mod.Policy:
    """The gate's policy as a commit's settings files describe it (no user's file, no
    environment): the trusted base of `check --range` and pre-push, and what `gitmem hooks
    install --server` writes into a server's git config. No commit: the defaults."""
    tree = store.tree_of(commit) if commit else None
    settings = tree_settings(store, tree)
    # with the user's side saying yes, autoAdmitAudited is the project file's own word
    project_says = tree_settings(store, tree, {"GITMEM_AUTO_ADMIT_AUDITED": "true"})
    return policy_mod.from_settings(
        settings, project_auto_admit=project_says.auto_admit_audited, source=source
    )
