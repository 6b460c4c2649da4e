"""The repository: the only module that imports pygit2.

Everything gitmem writes goes straight to the object database; refs move by compare-and-swap
through `git update-ref REF NEW OLD` (libgit2 has no transactional CAS that honours git's own
ref locking and reflogs the way the CLI does), so a crash between writing objects and moving a
ref leaves only unreachable objects behind, never a half-written ref.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import re
import subprocess
import tempfile
from collections.abc import Callable, Collection, Generator, Iterable, Iterator, Mapping
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple, cast

import pygit2
from pygit2.enums import FileMode, RepositoryOpenFlag

from gitmem.errors import GitmemError, UsageError
from gitmem.model.names import BRANCH_PREFIX, CANDIDATE_REFS, DEFAULT_REMOTE, is_utf8
from gitmem.repo.atomic import atomic_write as atomic_write
from gitmem.repo.gitcli import (
    History,
    PinnedRepository,
    clean_git_env,
    config_in_env,
    line_paths,
    newest_per_path,
    pathspecs_to_stdin,
    run_all,
    shallow_in,
)
from gitmem.repo.objects import BLOB as BLOB
from gitmem.repo.objects import BLOB_EXECUTABLE as BLOB_EXECUTABLE
from gitmem.repo.objects import COMMIT as COMMIT
from gitmem.repo.objects import LINK as LINK
from gitmem.repo.objects import TREE as TREE
from gitmem.repo.objects import Change as Change
from gitmem.repo.objects import TreeItem as TreeItem
from gitmem.repo.refs import fetched_from

ZERO = "0" * 40
#: A loose ref file that holds an object id, as git writes one.
_OBJECT_ID_LINE = re.compile(rb"[0-9a-f]{40}\n?")


class CommitInfo(NamedTuple):
    oid: str
    parents: tuple[str, ...]
    tree: str
    message: str
    #: the commit's `encoding` header, when it has one (git writes none for UTF-8)
    encoding: str | None = None


class Checkout(NamedTuple):
    """What a checked-out path holds (Store.checkouts): its staged blob (None: not staged;
    '': unmerged), its working-tree file's blob as git would stage it (None: no file), and
    whether a sparse checkout leaves the file out (skip-worktree)."""

    staged: str | None
    file: str | None
    sparse: bool

    def at(self, versions: set[str | None]) -> bool:
        """Whether index and file each hold one of versions (a left-out file holds any)."""
        return self.staged in versions and (self.sparse or self.file in versions)


def unsupported_object_format(where: str) -> str:
    """Why gitmem refuses a repository whose objects are named by SHA-256 (`git init
    --object-format=sha256`; where: the repository, or libgit2's own words about it), and what
    to do: libgit2, through which gitmem reads every object, opens SHA-1 repositories only.
    Every command and hook refuses it with this (exit 2; a hook then rejects the commit or
    push it was asked to judge), never judging it half-way."""
    return (
        f"{where}: this repository names its objects by SHA-256 (extensions.objectFormat = "
        "sha256), and gitmem reads SHA-1 repositories only (libgit2, through which it reads "
        "every object, opens no other): keep the project's memory in a SHA-1 repository "
        "(git's default), or leave gitmem out of this one"
    )


#: What libgit2 says of a repository extension it does not know (`extensions.<name>` in the
#: repository's config, lower-cased), and the extension's name in it.
_UNSUPPORTED_EXTENSION = re.compile(r"unsupported extension name extensions\.([A-Za-z0-9]+)")


def unsupported_extension(where: str, name: str) -> str:
    """Why gitmem refuses a repository that needs a git extension libgit2 does not support
    (where: the repository; name: the extension, as libgit2 names it, lower-cased), and what
    to do. The one such extension git writes in everyday use is reftable (`git init
    --ref-format=reftable`, git 2.45 on, and the default planned for git 3.0): libgit2 reads
    refs from files only, so such a repository is refused as a SHA-256 one is."""
    if name == "refstorage":
        return (
            f"{where}: this repository keeps its refs in the reftable format "
            "(extensions.refStorage = reftable), and gitmem reads refs kept in files only "
            "(libgit2, through which it reads every ref and object, reads no other): convert "
            "it with `git refs migrate --ref-format=files` (git 2.46 or later), or leave "
            "gitmem out of this one"
        )
    return (
        f"{where}: this repository needs the git extension extensions.{name}, which libgit2, "
        "through which gitmem reads every ref and object, does not support: remove the "
        "extension if git can do without it, or leave gitmem out of this repository"
    )


class UnsupportedRepositoryFormat(UsageError):
    """A repository gitmem cannot open for its format: objects named by SHA-256
    (unsupported_object_format), or an extension libgit2 lacks, reftable among them
    (unsupported_extension). short says which, in a clause, for a hook that lets such a
    repository through (gitmem.hooks.dispatch)."""

    def __init__(self, message: str, short: str) -> None:
        super().__init__(message)
        self.short = short


def unsupported_format(libgit2_said: str) -> UnsupportedRepositoryFormat | None:
    """The refusal of a repository gitmem cannot open for its format (its object format or
    an extension it needs), from libgit2's error in opening it (which starts with the
    repository's path); None for any other error."""
    if "object format" in libgit2_said:
        return UnsupportedRepositoryFormat(
            unsupported_object_format(libgit2_said),
            "this repository names its objects by SHA-256, which gitmem cannot read",
        )
    extension = _UNSUPPORTED_EXTENSION.search(libgit2_said)
    if extension is None:
        return None
    where = libgit2_said[: extension.start()].rstrip(": ") or "this repository"
    name = extension.group(1).lower()
    short = (
        "this repository keeps its refs in the reftable format, which gitmem cannot read"
        if name == "refstorage"
        else f"this repository needs extensions.{name}, which gitmem cannot read"
    )
    return UnsupportedRepositoryFormat(unsupported_extension(where, name), short)


class DamagedRepository(UsageError, KeyError):
    """An object the repository leads gitmem to (a branch's tip, a tree or file in it) is
    missing from its object database, or cannot be read (corrupt, or not the object its id
    names), as git says "fatal: bad object" or "error: Could not read". The repository is
    the user's to repair (exit 2: `git fsck` says what is damaged, a fetch or another clone
    gives it back), not gitmem's bug to report (exit 3), which libgit2's bare KeyError or
    GitError reaching the command line said it was.

    A KeyError too, as pygit2's own NotFoundError is: the readers that ask for an object that
    may rightly be gone (a tree the recall cache remembers, pruned since) take the KeyError
    they always took, and try another way."""

    def __init__(self, message: str, oid: str | None = None) -> None:
        super().__init__(message)
        #: the object, None for a ref whose own file is damaged
        self.oid = oid

    def __str__(self) -> str:
        return self.message


def _not_a_repository(path: str | Path | None) -> str:
    """The message for a folder (or GIT_DIR) that holds no git repository."""
    git_dir = os.environ.get("GIT_DIR") if path is None else None
    if git_dir:
        return (
            f"GIT_DIR={git_dir} is not a git repository: unset GIT_DIR, or set it to one, "
            "then run gitmem again"
        )
    return (
        f"{path or Path.cwd()} is not inside a git repository: run gitmem in a repository, or "
        "`git init` one first"
    )


def _pinned_by_core_worktree(repo: pygit2.Repository) -> PinnedRepository | None:
    """The repository as git is to be told it, when its work tree does not lead back to it:
    a git directory whose core.worktree names a work tree elsewhere (dotfiles kept so), run
    from inside that git directory. git works from there; the gits gitmem runs in the work
    tree, which has no .git, said "fatal: not a git repository". None when the work tree
    finds this git directory itself (a plain checkout, a linked worktree, a submodule)."""
    workdir = repo.workdir
    if not workdir or repo.is_bare:
        return None
    found = pygit2.discover_repository(workdir)
    if found is not None and os.path.realpath(found) == os.path.realpath(repo.path):
        return None
    return PinnedRepository(os.path.abspath(repo.path), os.path.abspath(workdir))


@contextlib.contextmanager
def _work_tree_from_here() -> Iterator[None]:
    """While libgit2 opens the repository from the environment, a relative GIT_WORK_TREE
    made absolute from the current folder, as git reads it. libgit2 takes it from the git
    directory instead (as it takes core.worktree): `GIT_DIR=proj/.git GIT_WORK_TREE=proj
    gitmem check --staged`, which git answers from any folder, said GIT_DIR named no
    repository; and in a hook of `git --git-dir=X --work-tree=Y commit`, where git sets
    GIT_DIR=.git and GIT_WORK_TREE=., the work tree was taken to be the git directory.
    The variable is put back as it was once the repository is open: git, which gitmem
    runs in this folder, reads it as meant."""
    work_tree = os.environ.get("GIT_WORK_TREE")
    if not work_tree or os.path.isabs(work_tree):
        yield
        return
    os.environ["GIT_WORK_TREE"] = os.path.abspath(work_tree)
    try:
        yield
    finally:
        os.environ["GIT_WORK_TREE"] = work_tree


def _config_name(key: bytes) -> bytes:
    """A config key as `git config --list` names it: its section and variable in lower case,
    a subsection (`branch.<name>.remote`'s name) as written."""
    section, _, rest = key.partition(b".")
    subsection, dot, variable = rest.rpartition(b".")
    return section.lower() + b"." + subsection + dot + variable.lower()


def _remote_keys(
    entries: list[tuple[bytes, bytes | None]], variables: tuple[bytes, ...]
) -> list[tuple[bytes, bytes | None]]:
    """(remote name, value) of every `remote.<name>.<variable>` among entries for the given
    variables (lower case), in git's order."""
    found = []
    for name, value in entries:
        section, _, rest = name.partition(b".")
        remote, dot, variable = rest.rpartition(b".")
        if section == b"remote" and dot and variable in variables:
            found.append((remote, value))
    return found


def _instead_of(entries: list[tuple[bytes, bytes | None]], url: bytes) -> bytes:
    """url as git rewrites it: the longest `url.<base>.insteadOf` value it starts with
    replaced by that base (the first of equally long ones), else url as it is."""
    best: tuple[int, bytes] | None = None
    for name, value in entries:
        if not value or not name.startswith(b"url.") or not name.endswith(b".insteadof"):
            continue
        if url.startswith(value) and (best is None or len(value) > best[0]):
            best = (len(value), name[len(b"url.") : -len(b".insteadof")])
    return url if best is None else best[1] + url[best[0] :]


def _last_value(
    entries: list[tuple[bytes, bytes | None]], key: bytes
) -> tuple[bytes | None] | None:
    """The value git takes for key among entries (the last one given), in a tuple; None when
    key is not set. (A name alone, with no `=`, has the value None.)"""
    wanted = _config_name(key)
    for name, value in reversed(entries):
        if name == wanted:
            return (value,)
    return None


def _git_bool(value: bytes | None) -> bool | None:
    """value as `git config --type=bool` reads it: a name alone, true, yes, on or a nonzero
    number is true; false, no, off, 0 or empty is false (in any letter case); None for any
    other value, which git refuses as no boolean."""
    if value is None:
        return True
    word = value.strip().lower()
    if word in (b"true", b"yes", b"on"):
        return True
    if word in (b"false", b"no", b"off", b""):
        return False
    try:
        return int(word) != 0
    except ValueError:
        return None


class Store:
    """A git repository, opened once, with the few operations gitmem needs."""

    def __init__(
        self,
        repo: pygit2.Repository,
        *,
        from_env: bool = False,
        pinned: PinnedRepository | None = None,
    ) -> None:
        self._repo = repo
        self._staging: Any = None
        #: what is staged, as a tree, when git had to read the index (_index_through_git)
        self._staged_tree: str | None = None
        self.from_env = from_env
        #: the repository GIT_DIR named for the command, when this is it: every git this
        #: store runs is given it (gitcli.clean_git_env)
        self.pinned = pinned
        self._folders: dict[tuple[str, str], Any] = {}
        self._trees: dict[str, Any] = {}
        self._odb = repo.odb
        #: descriptors every git that writes here inherits (lent_to_git)
        self._lent: tuple[int, ...] = ()
        #: packed-refs' stamp when listing refs found it damaged, and the refusal (_ref_names)
        self._packed_damage: tuple[tuple[int, int] | None, DamagedRepository] | None = None
        #: the whole configuration as git read it, when the environment had it asked (_listed)
        self._git_config: list[tuple[bytes, bytes | None]] | None = None
        #: the objects a partial clone's promisor remote was asked for, and git's answer when
        #: it could not give one ("" when it did): asked once each (_fetched_lazily)
        self._lazy: dict[str, str] = {}

    @classmethod
    def open(
        cls,
        path: str | Path | None = None,
        *,
        from_env: bool = False,
        pinned: PinnedRepository | None = None,
    ) -> Store:
        """Open the repository at or above path; from_env honours GIT_DIR, GIT_INDEX_FILE and
        the object quarantine of a pre-receive hook (CONVENTIONS.md item 6). pinned, the
        repository a person named with GIT_DIR (gitcli.pinned_repository), is opened when
        path is None or lies in it."""
        if pinned is not None and path is not None and not pinned.holds(path):
            pinned = None  # another repository: git finds it from its folder
        try:
            if from_env:
                # pygit2 builds a backend-less repository from None, so a path is always
                # passed, and libgit2 reads GIT_DIR only when given none: pass GIT_DIR itself
                # (a hook of `git --git-dir=X --work-tree=Y push` runs in Y, which has no .git)
                start = path or os.environ.get("GIT_DIR") or "."
                with _work_tree_from_here():
                    repo = pygit2.Repository(str(start), RepositoryOpenFlag.FROM_ENV)
            elif pinned is not None:
                # with the work tree git takes for it (a bare one's, as dotfiles keep, included)
                repo = pygit2.Repository(pinned.git_dir)
                if pinned.work_tree:
                    repo.workdir = pinned.work_tree
            else:
                found = pygit2.discover_repository(str(path or Path.cwd()))
                if found is None:
                    raise UsageError(_not_a_repository(path))
                # opened from the folder, not from the git directory found: libgit2 then
                # knows the work tree from the `.git` file it came through (`git clone
                # --separate-git-dir` leaves nothing in the git directory pointing back,
                # and the work tree was taken for the git directory's parent folder)
                repo = pygit2.Repository(str(path or Path.cwd()))
                pinned = _pinned_by_core_worktree(repo)
        except pygit2.GitError as exc:
            unsupported = unsupported_format(str(exc))
            if unsupported is not None:
                raise unsupported from None
            if from_env and "not found" in str(exc):
                # `gitmem check --staged` (or a hook's command) run outside any repository:
                # libgit2's "Repository not found at ." said neither where nor what to do
                raise UsageError(_not_a_repository(path)) from None
            raise UsageError(f"cannot open the git repository: {exc}") from None
        try:
            repo.lookup_reference("HEAD")
        except KeyError:
            pass
        except pygit2.GitError as exc:
            # libgit2 opens a git directory whose HEAD it cannot read, and every command then
            # failed at its first look at HEAD as an unexpected error (exit 3); git itself
            # takes such a folder for no repository at all
            raise UsageError(
                f"cannot open the git repository at {repo.path}: {exc}: repair its HEAD (a "
                "line such as `ref: refs/heads/main`), then run the command again"
            ) from None
        return cls(repo, from_env=from_env, pinned=pinned)

    @contextlib.contextmanager
    def lent_to_git(self, fd: int) -> Iterator[None]:
        """While the block lasts, each git this store runs to write (update-ref, and the
        commands that bring a checkout along: reset, cat-file) inherits fd: a lock held on
        it (flock) then lasts until the last of them has ended, not only until this process
        does. A process killed outright leaves its git running; the next one to take the
        lock would otherwise go on while that git still moves a ref or writes the index.
        git's pushes and fetches do not inherit it: one may start `git gc --auto` in the
        background, which would hold the lock for as long as it runs."""
        before = self._lent
        self._lent = (*before, fd)
        try:
            yield
        finally:
            self._lent = before

    # -- where things are ------------------------------------------------------------------

    @property
    def workdir(self) -> Path | None:
        wd = self._repo.workdir
        return Path(wd) if wd and not self._repo.is_bare else None

    @property
    def git_dir(self) -> Path:
        return Path(self._repo.path)

    @property
    def common_dir(self) -> Path:
        """The git directory shared by all linked worktrees (caches live here). pygit2 has no
        accessor for it, so git's own pointer is read: a linked worktree's git directory
        holds a `commondir` file naming it, relative to that directory."""
        own = Path(self._repo.path)
        try:
            pointer = (own / "commondir").read_text(encoding="utf-8").strip()
        except OSError:
            return own
        return Path(os.path.normpath(own / pointer)) if pointer else own

    def head_branch(self) -> str | None:
        """The branch HEAD points to (even unborn), or None when detached."""
        try:
            target = self._repo.references["HEAD"].target
        except KeyError:
            return None
        if isinstance(target, str) and target.startswith("refs/heads/"):
            return target.removeprefix("refs/heads/")
        return None

    def worktree_on(self, branch: str, *, here_too: bool = False) -> str | None:
        """The folder of another worktree of this repository (or, here_too, of any, this one
        included) that has branch checked out, or None. libgit2 lists linked worktrees but
        not their HEADs beside the main one's, so git answers (`git worktree list`, which
        also knows a worktree being set up)."""
        listing = self.run_git("worktree", "list", "--porcelain", check=False)
        here = os.path.realpath(self.workdir) if self.workdir and not here_too else None
        folder = None
        for line in listing.stdout.splitlines():
            if line.startswith("worktree "):
                folder = os.path.realpath(line.removeprefix("worktree "))
            elif line == f"branch refs/heads/{branch}" and folder not in (None, here):
                return folder
        return None

    def rebasing(self, branch: str) -> str | None:
        """The folder of a worktree (this one included) that is in the middle of rebasing or
        bisecting branch, or None. Its HEAD is detached, so worktree_on does not see it; yet
        `git rebase --abort` (or `git bisect reset`) puts branch back where it started, over
        anything written to it meanwhile. git's own `git branch -f` refuses the same way: it
        reads the same files (rebase-*/head-name, BISECT_START) in each worktree's git
        directory."""
        common = self.common_dir
        folders = {common: common.parent if common.name == ".git" else common}
        for linked in sorted((common / "worktrees").glob("*")):
            with contextlib.suppress(OSError):
                gitfile = (linked / "gitdir").read_text(encoding="utf-8").strip()
                folders[linked] = Path(gitfile).parent
        wanted = {f"refs/heads/{branch}", branch}
        for git_dir, folder in folders.items():
            for marker in ("rebase-merge/head-name", "rebase-apply/head-name", "BISECT_START"):
                with contextlib.suppress(OSError):
                    if (git_dir / marker).read_text(encoding="utf-8").strip() in wanted:
                        return str(folder)
        return None

    def ref_name(self, rev: str) -> str | None:
        """The full name of the ref git reads a revision as, by git's own order (refs/heads
        before refs/remotes: `main`, `origin/main`, `refs/remotes/origin/main`), a symbolic
        ref followed (HEAD to its branch); None for what names no ref (a commit id, `A~1`)."""
        try:
            reference = self._repo.lookup_reference_dwim(rev).resolve()
        except (KeyError, ValueError, pygit2.GitError, pygit2.InvalidSpecError):
            return None
        return str(reference.name)

    # Configuration. libgit2 reads git's config files, but not the variables by which git is
    # told to read others (gitcli.CONFIG_ENV: GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM,
    # GIT_CONFIG_COUNT with its keys and values, and GIT_CONFIG_PARAMETERS, what `git -c`
    # hands to the hooks it runs; a repository opened from a hook's environment follows the
    # first two, and no more). Where one was set (a CI job or a test harness isolating
    # git, a `git -c user.name=X commit`), gitmem proposed and admitted under another name
    # than git committed under, and missed every other setting given that way
    # (commit.gpgSign, remote.pushDefault, gitmem.*). So when one is set, git itself is asked
    # once for the whole configuration as it reads it (`git config --list`, includes and
    # includeIf as git resolves them) and every question is answered from that; when none is
    # (the common case, and every commit's hook), libgit2 answers in-process as before,
    # without a process.

    def _listed(self) -> list[tuple[bytes, bytes | None]] | None:
        """Every config entry as git reads it, name (section and variable in lower case, the
        subsection as written) and value (None for a name alone, which git takes for true), in
        git's order, the last one winning; None when the environment leaves the reading to
        libgit2 (gitcli.config_in_env)."""
        if not config_in_env():
            return None
        if self._git_config is None:
            self._git_config = self._config_through_git()
        return self._git_config

    def _config_through_git(self) -> list[tuple[bytes, bytes | None]]:
        """`git config --list -z` of this repository (its git directory named: a linked
        worktree's own config is read, and a hook's GIT_DIR relative to where it runs is
        not needed). What git refuses (a GIT_CONFIG_COUNT that is no number, a config file it
        cannot parse) would refuse the user's git commit too: it is quoted, as a UsageError."""
        try:
            listed = self._git_bytes(
                [f"--git-dir={self.git_dir}", "config", "--list", "--includes", "-z"]
            )
        except UsageError as exc:
            raise UsageError(
                f"cannot read git's configuration: {exc.message}: correct the config file or "
                "the GIT_CONFIG_* variable it names, then run the command again"
            ) from None
        entries: list[tuple[bytes, bytes | None]] = []
        for record in listed.split(b"\0")[:-1]:
            name, newline, value = record.partition(b"\n")
            entries.append((name, value if newline else None))
        return entries

    def config(self, key: str) -> str | None:
        """A config value, None when unset. The key is passed as its bytes: a branch named in
        another encoding than UTF-8 (`branch.caf\\xe9.remote`) reaches here as Python's
        stand-in for each such byte, which pygit2 would not encode, and the question about
        the branch's remote ended the command unexpectedly. A value that is not UTF-8 is
        None: no setting gitmem reads takes one."""
        listed = self._listed()
        if listed is not None:
            found = _last_value(listed, os.fsencode(key))
            if found is None:
                return None
            try:
                return (found[0] or b"").decode("utf-8")
            except UnicodeError:
                return None
        try:
            value = self._repo.config[os.fsencode(key)]
        except (KeyError, UnicodeError, pygit2.GitError):
            return None
        return "" if value is None else str(value)  # a name alone: git prints no value

    def config_bool(self, key: str) -> bool | None:
        """A boolean config value as git reads it (true, yes, on, 1), None when unset or not a
        boolean."""
        listed = self._listed()
        if listed is not None:
            found = _last_value(listed, os.fsencode(key))
            return None if found is None else _git_bool(found[0])
        try:
            return bool(self._repo.config.get_bool(os.fsencode(key)))
        except (KeyError, ValueError, pygit2.GitError):
            return None

    def attributes(self, path: str, names: Iterable[str]) -> list[str]:
        """The attributes among names that path has in the checkout (.gitattributes, the
        repository's info/attributes, core.attributesFile), each spelled as .gitattributes
        writes it (`ident`, `filter=lfs`); unset and unspecified ones are left out. libgit2
        answers in-process; where it cannot (it reads a .gitattributes absent from the working
        tree from the staging index, and a split or sparse index defeats it; pygit2 takes no
        name that is not UTF-8), git does."""
        wanted = list(names)
        found: list[str] = []
        for name in wanted:
            try:
                value = self._repo.get_attr(path, name)
            except (pygit2.GitError, UnicodeEncodeError):  # a name not UTF-8: git takes bytes
                return self._attributes_through_git(path, wanted)
            if value is True:
                found.append(name)
            elif isinstance(value, str):
                found.append(f"{name}={value}")
        return found

    def _attributes_through_git(self, path: str, names: list[str]) -> list[str]:
        """Store.attributes, as `git check-attr -z` says ("set", "unset", "unspecified" or the
        value, for each name)."""
        fields = self._git_bytes(["check-attr", "-z", *names, "--", path]).split(b"\0")
        found: list[str] = []
        for raw_name, raw_value in zip(fields[1::3], fields[2::3], strict=False):
            name, value = raw_name.decode("utf-8", "replace"), raw_value.decode("utf-8", "replace")
            if value == "set":
                found.append(name)
            elif value not in ("unset", "unspecified"):
                found.append(f"{name}={value}")
        return found

    def config_section(self, section: str) -> dict[str, list[str]]:
        """Every value of the config keys `section.*` (names as git stores them, lower case),
        in the order git reads them: the repository's own config over the system's."""
        out: dict[str, list[str]] = {}
        prefix = section.lower() + "."
        for name, value in self._config_entries():
            if name.lower().startswith(prefix) and value is not None:
                out.setdefault(name.lower(), []).append(value)
        return out

    def _config_entries(self) -> Iterator[tuple[str, str | None]]:
        """Every config entry, name and value, in the order git reads them. pygit2 decodes
        each key as UTF-8 as it reads it, so one key that is not (`branch.caf\\xe9.remote`, a
        remote or a branch named in Latin-1) raised in the middle of the walk, and every
        command reading a section ended unexpectedly; such an entry is passed over (its C
        iterator has moved past it already), since no key gitmem reads is one. A value that
        is not UTF-8 is given as Python's stand-in for each such byte."""
        listed = self._listed()
        if listed is not None:
            for name, value in listed:
                try:
                    text = name.decode("utf-8")
                except UnicodeDecodeError:
                    continue
                yield text, None if value is None else os.fsdecode(value)
            return
        try:
            entries = iter(self._repo.config)
        except pygit2.GitError:
            return
        while True:
            try:
                entry = next(entries)
            except StopIteration:
                return
            except UnicodeDecodeError:
                continue
            except pygit2.GitError:
                return
            raw = entry.raw_value
            yield str(entry.name), None if raw is None else os.fsdecode(raw)

    def remote_names(self) -> list[str]:
        """The remotes the repository's config names, as `git remote` lists them, but for a
        name that is not UTF-8 (a remote named in Latin-1): git takes it, but pygit2 can
        neither look such a remote up nor a ref below it, and every command that read the
        remotes ended unexpectedly. Such a remote is passed over, as if it were not there:
        a push names the remotes it can use, or says to add one.

        A remote is one with a `remote.<name>.url` or `.pushurl`, as libgit2 counts them.
        Where the environment gives git configuration of its own (gitcli.config_in_env), the
        names are read from git's listing: a remote given only by GIT_CONFIG_COUNT, `git -c`
        or a GIT_CONFIG_GLOBAL file, which `git push` uses, was unknown to libgit2, and
        `propose --push --remote NAME` said there was no such remote."""
        listed = self._listed()
        if listed is not None:
            given = {os.fsdecode(name) for name, _ in _remote_keys(listed, (b"url", b"pushurl"))}
            return sorted(name for name in given if name and is_utf8(name))
        try:
            names = [name for name in self._repo.remotes.names() if name]
        except pygit2.GitError:
            return []
        return sorted(name for name in names if is_utf8(name))

    def fetch_remote(self, branch: str | None) -> str:
        """The remote branch (the memory branch) is fetched from, where the memory is read
        from (gitmem.repo.refs.fetched_from): branch.<branch>.remote when it names a remote
        here, else the only remote whatever its name (`git clone -o upstream`), else origin
        (also when there is none).

        No branch: the remote the defaults of memory.branch and memory.project are read
        from, before the memory branch is known. origin where there is one, so that a
        repository with an origin keeps the memory branch and the ids' prefix it always had;
        else the only remote; else the one remote the local branches' upstreams name (a
        clone made with `git clone -o upstream`, with a fork added beside it).

        Never where pushes go (gitmem.lifecycle.writing.push_remote, which reads the same
        settings and adds the push ones): a remote.pushDefault naming a personal fork says
        where one's own branches go, not where the project's main is read. A clone whose one
        remote is not called origin was read as if it had none: no "behind upstream/main"
        hint, no word of a memory branch only upstream has."""
        remotes = self.remote_names()
        if branch is not None:
            return fetched_from(remotes, [self.config(f"branch.{branch}.remote")])
        if DEFAULT_REMOTE in remotes:
            return DEFAULT_REMOTE
        section = self.config_section("branch")
        upstreams = (
            v for key, values in section.items() if key.endswith(".remote") for v in values
        )
        return fetched_from(remotes, upstreams)

    def remote_url(self, remote: str) -> str | None:
        """The URL remote is fetched from, as `git ls-remote --get-url` prints it: its first
        `remote.<name>.url`, rewritten by the longest `url.<base>.insteadOf` it starts with;
        None when remote has none. Rewritten, because what the callers want is where the
        repository is (its name gives memory.project, its host and path the site's links):
        `gh:org/shop` says neither, `https://github.com/org/shop` says both; libgit2 rewrites
        it so too. Where the environment gives git configuration of its own
        (gitcli.config_in_env), it is read from git's listing, which libgit2 does not see.
        Asked in place of `git remote get-url`, which knows only the remotes of the
        repository's own config, not those of the user's or given by the environment, which
        `git push` uses all the same."""
        listed = self._listed()
        if listed is None:
            try:
                url = self._repo.remotes[remote].url
            except (KeyError, ValueError, pygit2.GitError):
                return None
            return None if url is None else str(url)
        wanted = os.fsencode(remote)
        found = [value for name, value in _remote_keys(listed, (b"url",)) if name == wanted]
        if not found or found[0] is None:
            return None
        return os.fsdecode(_instead_of(listed, found[0]))

    def remote_default_branch(self, remote: str = DEFAULT_REMOTE) -> str | None:
        try:
            target = self._repo.references[f"refs/remotes/{remote}/HEAD"].target
        except (KeyError, ValueError, pygit2.GitError):  # ValueError: a name not UTF-8
            return None
        prefix = f"refs/remotes/{remote}/"
        return target.removeprefix(prefix) if isinstance(target, str) else None

    def fetches_one_branch(self, remote: str = DEFAULT_REMOTE) -> bool:
        """Whether remote's fetch refspecs each name one branch (no `*`): a clone made with
        `--single-branch` or `--depth` of a branch other than the remote's default, which
        keeps no `refs/remotes/<remote>/HEAD` and knows nothing of the other branches."""
        listed = self._listed()
        if listed is not None:  # a remote the environment alone gives (remote_names)
            wanted = os.fsencode(remote)
            keys = _remote_keys(listed, (b"fetch",))
            specs = [os.fsdecode(value or b"") for name, value in keys if name == wanted]
            return bool(specs) and not any("*" in spec for spec in specs)
        try:
            specs = list(self._repo.remotes[remote].fetch_refspecs)
        except (KeyError, ValueError, pygit2.GitError):
            return False
        return bool(specs) and not any("*" in spec for spec in specs)

    def user_name(self) -> str | None:
        """The author's name as git decides it (identity): who a proposal's source names."""
        return self.identity("author")[0]

    # -- reading ---------------------------------------------------------------------------

    def resolve(self, rev: str) -> str | None:
        """A commit id for a revision (branch, ref, oid, `origin/main`…), or None."""
        try:
            obj = self._repo.revparse_single(rev)
            commit = obj.peel(pygit2.Commit)
        except (KeyError, ValueError, pygit2.GitError, pygit2.InvalidSpecError):
            return None
        return str(commit.id)

    def tag_texts(self, oid: str) -> list[tuple[str, bytes]]:
        """The annotated tags an object id passes through before what they tag, outermost
        first: (tag id, its text as `git show` prints it: its own name, tagger and message,
        the `object` line aside). Empty for anything but a tag object."""
        found: list[tuple[str, bytes]] = []
        seen: set[str] = set()
        while oid not in seen:
            seen.add(oid)
            try:
                kind, data = self._odb.read(oid)[:2]
            except (KeyError, ValueError, pygit2.GitError):
                break
            if kind != pygit2.enums.ObjectType.TAG:
                break
            first, _, text = bytes(data).partition(b"\n")
            found.append((oid, text))
            oid = first.removeprefix(b"object ").decode("ascii", "replace").strip()
        return found

    def peel_tree(self, rev: str) -> str | None:
        """The tree a revision names (a commit's, a tag's of a tree), or None (a blob)."""
        try:
            return str(self._repo.revparse_single(rev).peel(pygit2.Tree).id)
        except (KeyError, ValueError, pygit2.GitError, pygit2.InvalidSpecError):
            return None

    def ref_target(self, ref: str) -> str | None:
        """What ref points to (followed to its end), or None: no such ref, or a name no ref
        can have (libgit2 raises InvalidSpecError for a malformed one and ValueError for one
        past its length limit; neither names a ref, so neither is an error here). A ref whose
        file holds no object id (a crash, a disk that lost a write) is DamagedRepository: git
        says "ignoring broken ref" and takes the branch for absent, and gitmem said the
        memory branch did not exist, or had no commits."""
        self._require_packed_refs()
        try:
            reference = self._repo.references[ref]
        except (KeyError, ValueError, pygit2.InvalidSpecError):
            return None
        except pygit2.GitError as exc:
            if "corrupted" not in str(exc):
                return None
            said = str(exc).removeprefix(f"{ref}: ").removesuffix(f": {ref}")
            # git refuses to move or delete a ref it cannot read ("cannot lock ref …:
            # reference broken"): its file goes first, by hand
            fetch = ", or `git fetch` it again" if ref.startswith("refs/remotes/") else ""
            raise DamagedRepository(
                f"this repository is damaged: the ref {ref} cannot be read ({said}; git says "
                f'"ignoring broken ref"): run `git fsck`, then remove its file, {ref} in the '
                "git directory (git neither moves nor deletes a broken ref), and point the "
                f"ref at its commit again (`git update-ref {ref} COMMIT`; the last line of "
                f"its reflog, logs/{ref} in the git directory, names the commit it "
                f"held{fetch}), and run the command again"
            ) from None
        try:
            return str(reference.resolve().target)
        except (KeyError, pygit2.GitError):
            return None

    def branch_tip(self, branch: str) -> str | None:
        return self.ref_target(f"refs/heads/{branch}")

    def _object(self, oid: str, kind: str) -> Any:
        """The object oid names (kind: what the caller reads it as, "commit", "tree" or
        "file", for the message), or DamagedRepository when the repository lacks it or cannot
        read it."""
        try:
            return self._repo[oid]
        except (KeyError, pygit2.GitError) as exc:
            if self._fetched_lazily(oid):
                with contextlib.suppress(KeyError, pygit2.GitError):
                    return self._repo[oid]
            raise self._damaged(oid, kind, exc) from None

    def _fetched_lazily(self, oid: str) -> bool:
        """Whether git fetched oid just now from the promisor remote of a partial clone. A
        clone made with `--filter=blob:none` (or tree:0) holds only the files and folders it
        checked out; git fetches any other when something reads it, and libgit2 knows no
        promisor: every candidate a reviewer fetched was "missing from its object database",
        its repository called damaged, and `git fsck` (which finds nothing wrong) prescribed.
        git asked whether it has the object (`git cat-file -e`) fetches it, as `git show`
        would; once an object and a command, and only in a partial clone (a promisor remote
        or extensions.partialClone), so a damaged repository is told as before."""
        if oid in self._lazy or not self._partial_clone():
            return False
        try:
            self._git_bytes(["cat-file", "-e", oid])
        except UsageError as exc:
            said = exc.message.removeprefix("git cat-file failed: ").splitlines()
            self._lazy[oid] = "; ".join(line.strip() for line in said if line.strip()) or "?"
            return False
        self._lazy[oid] = ""
        return True

    def _partial_clone(self) -> bool:
        """Whether git lazily fetches missing objects here, as git itself decides it: a remote
        with remote.<name>.promisor, or extensions.partialClone naming one."""
        if self.config("extensions.partialclone"):
            return True
        promised: dict[str, bool | None] = {}
        for name, value in self._config_entries():
            key = name.lower()
            if key.startswith("remote.") and key.endswith(".promisor"):
                promised[key] = _git_bool(None if value is None else value.encode())
        return any(promised.values())

    def require(self, oid: str, kind: str) -> None:
        """DamagedRepository unless the repository holds oid and can read it (kind: what the
        caller takes it for)."""
        self._object(oid, kind)

    def _damaged(
        self, oid: str, kind: str, exc: Exception, path: str | None = None
    ) -> DamagedRepository:
        """The refusal of an object oid that the repository lacks or cannot read (exc:
        libgit2's error reading it), naming it, its path in the tree it was read from when
        the reader knows it, the refs that point at it (a branch's tip is what a reader
        meets first) and what to do."""
        said = str(exc.args[0] if isinstance(exc, KeyError) and exc.args else exc)
        lost = isinstance(exc, KeyError) or "not found" in said or said == oid
        state = (
            "is missing from its object database"
            if lost
            else f"cannot be read ({said.removeprefix(f'{oid}: ')})"
        )
        pointing = self._refs_to(oid)
        at = f", the tip of {', '.join(pointing)}," if pointing else ""
        named = f" ({path})" if path else ""
        unfetched = self._lazy.get(oid)
        if unfetched and lost:
            return DamagedRepository(
                f"the {kind} {oid}{named}{at} is not in this partial clone, and git could not "
                f"fetch it from the promisor remote ({unfetched}): reach the remote again "
                "(`git fetch` works), then run the command again",
                oid,
            )
        return DamagedRepository(
            f"this repository is damaged: the {kind} {oid}{named}{at} {state}: run `git fsck` "
            "to see what is damaged, then restore it (`git fetch` from a remote that has it, "
            "or copy it from another clone) and run the command again",
            oid,
        )

    def _refs_to(self, oid: str) -> list[str]:
        """The refs that point straight at oid (none followed through a symbolic ref)."""
        found = []
        try:
            for reference in self._repo.references.iterator():
                with contextlib.suppress(pygit2.GitError, ValueError):
                    if str(reference.target) == oid:
                        found.append(str(reference.name))
        except pygit2.GitError:
            pass
        return sorted(found)

    def written_ref(self, ref: str) -> str:
        """The ref that git writes when it updates (or deletes) ref: ref itself, or, when ref
        is a symbolic ref, the ref it leads to, followed as git follows it (five hops at most),
        whether or not that ref exists yet. A push to a symbolic ref moves its target."""
        name = ref
        for _ in range(5):
            try:
                reference = self._repo.references.get(name)
            except (ValueError, pygit2.GitError, pygit2.InvalidSpecError):
                return name
            if reference is None or reference.type != pygit2.enums.ReferenceType.SYMBOLIC:
                return name
            name = str(reference.target)
        return name

    def refs(self, prefix: str) -> dict[str, str]:
        """Every readable ref under prefix (e.g. refs/heads/gitmem/) with its target: a
        commit, or what a tag names (a tag object, a tree, a blob). A ref whose own file holds
        no object id is left out, as git's listings leave it out ("ignoring broken ref"), and
        broken_refs names it: libgit2 lists such a ref when packed-refs holds it too (a `git
        gc` packs every ref), and reading it stopped every command that lists candidates."""
        out: dict[str, str] = {}
        for name in self._ref_names():
            if name.startswith(prefix):
                try:
                    target = self.ref_target(name)
                except DamagedRepository:
                    continue
                if target:
                    out[name] = target
        return out

    def _ref_names(self) -> list[str]:
        """The name of every ref, or DamagedRepository when packed-refs cannot be read: git
        reads it whole or not at all ("fatal: unexpected line in .git/packed-refs"), so no
        listing of refs can go on, and libgit2's bare GitError was an unexpected error.

        The refusal is kept, for listings and look-ups (ref_target) alike, while packed-refs
        stays as it is: libgit2 keeps what it could not parse as an empty packed-refs, so
        the next listing of the same repository finds no packed ref at all, and admit, which
        asks twice, said there was no such candidate."""
        self._require_packed_refs()
        try:
            return list(self._repo.references)
        except pygit2.GitError as exc:
            if "packed" not in str(exc):
                raise
            damage = DamagedRepository(
                f"this repository is damaged: its packed-refs file cannot be read ({exc}; git "
                'says "unexpected line in .git/packed-refs" and names the line): run `git '
                "fsck`, then correct or delete that line of packed-refs in the git directory "
                "(a line is an object id, a space and a ref's name; a fetch gives a deleted "
                "remote-tracking branch back), and run the command again"
            )
            self._packed_damage = (self._packed_refs_stamp(), damage)
            raise damage from None

    def _packed_refs_stamp(self) -> tuple[int, int] | None:
        try:
            stat = (self.common_dir / "packed-refs").stat()
        except OSError:
            return None
        return stat.st_mtime_ns, stat.st_size

    def _require_packed_refs(self) -> None:
        """The refusal _ref_names kept, unless packed-refs changed since (mended)."""
        if self._packed_damage is None:
            return
        stamp, damage = self._packed_damage
        if self._packed_refs_stamp() == stamp:
            raise damage
        self._packed_damage = None

    def broken_refs(self, prefix: str) -> dict[str, str]:
        """The loose refs under prefix (e.g. refs/heads/gitmem/; a `*` stands for one part of
        a name, as in refs/remotes/*/gitmem/; a prefix not ending in `/` names one ref)
        whose own file holds no object id, each with the refusal that names it
        (DamagedRepository's message). refs leaves them out, as git's "ignoring broken ref"
        does, so a reader listing refs said nothing of them. Only loose refs: git reads
        packed-refs whole or not at all (_ref_names). Only the files under prefix are read,
        with os.walk (a third of Path.glob's time: 10,000 fetched candidate branches are
        read in some 90 ms); a file holding an object id, as nearly every one does, is not
        asked of libgit2."""
        found: dict[str, str] = {}
        root = self.common_dir
        for name in self._loose_ref_names(prefix):
            if name.endswith(".lock"):
                continue
            with contextlib.suppress(OSError), open(root / name, "rb") as file:
                if _OBJECT_ID_LINE.fullmatch(file.read(42)):
                    continue
            try:
                self.ref_target(name)
            except DamagedRepository as exc:
                found[name] = exc.message
        return found

    def _loose_ref_names(self, prefix: str) -> list[str]:
        """The names of the loose ref files prefix matches (broken_refs), sorted."""
        root = self.common_dir
        *folders, last = prefix.split("/")
        bases = [""]
        for part in folders:
            if part != "*":
                bases = [f"{base}{part}/" for base in bases]
                continue
            found = []
            for base in bases:
                with contextlib.suppress(OSError), os.scandir(root / base) as entries:
                    found += [f"{base}{e.name}/" for e in entries if e.is_dir()]
            bases = found
        names = []
        for base in bases:
            if last:  # one ref a base, as named
                if (root / base / last).is_file():
                    names.append(base + last)
                continue
            for folder, _, files in os.walk(root / base):
                here = Path(folder).relative_to(root).as_posix()
                names += [f"{here}/{file}" for file in files]
        return sorted(names)

    def has_object(self, oid: str) -> bool:
        try:
            return oid in self._repo
        except (ValueError, pygit2.GitError):
            return False

    def commit(self, oid: str) -> CommitInfo:
        return _commit_info(self._object(oid, "commit").peel(pygit2.Commit))

    def author_name(self, commit: str) -> str:
        """The name of a commit's author, as git recorded it."""
        return str(self._object(commit, "commit").peel(pygit2.Commit).author.name)

    def commit_people(self, commit: str) -> bytes:
        """A commit's `author` and `committer` header lines, as git stores them (name, email
        and date: what `git log --format=fuller` prints above the message)."""
        try:
            header = self._odb.read(commit)[1].partition(b"\n\n")[0]
        except (KeyError, pygit2.GitError) as exc:
            raise self._damaged(commit, "commit", exc) from None
        lines = header.split(b"\n")
        return b"\n".join(line for line in lines if line.startswith((b"author ", b"committer ")))

    def names(self, tree: str | None) -> list[tuple[str, str]]:
        """(name, object id) of every item directly inside tree ([] for None)."""
        if tree is None:
            return []
        return [(str(e.name), str(e.id)) for e in self._tree(tree)]

    def tree_of(self, commit: str) -> str:
        return str(self._object(commit, "commit").peel(pygit2.Commit).tree_id)

    def _tree(self, oid: str) -> Any:
        """A tree object, kept (a few hundred): walking a push, the folder a commit leaves is
        the folder the next one starts from, and parsing a 25,000-entry folder twice costs."""
        found = self._trees.get(oid)
        if found is None:
            found = self._object(oid, "tree").peel(pygit2.Tree)
            if len(self._trees) >= _FOLDER_CACHE:
                self._trees.pop(next(iter(self._trees)))
            self._trees[oid] = found
        return found

    def _lookup(self, tree: str, path: str) -> Any | None:
        """The tree entry at path, or None.  Folders are parsed once and kept (a few hundred):
        libgit2 parses a 25,000-entry folder again on every by-path look-up, which made
        checking many files of one big folder quadratic."""
        folder, _, name = path.rpartition("/")
        key = (tree, folder)
        parent: Any = self._folders.get(key)
        if parent is None:
            # folder by folder, each read as a tree of its own: libgit2's by-path look-up
            # raised the same error for a name the folder lacks as for a folder the
            # repository lacks, and a damaged repository read as an empty memory
            try:
                parent = self._tree(tree)
            except ValueError:
                return None
            for part in folder.split("/") if folder else ():
                try:
                    below = parent[part]
                except (KeyError, ValueError):
                    return None
                if below.type_str != "tree":
                    return None
                parent = self._tree(str(below.id))
            if len(self._folders) >= _FOLDER_CACHE:
                self._folders.pop(next(iter(self._folders)))
            self._folders[key] = parent
        try:
            return parent[name] if name else None
        except (KeyError, ValueError):
            return None

    def subtree(self, tree: str | None, path: str) -> str | None:
        """The id of the tree at path inside tree ('' = the tree itself), or None."""
        if tree is None:
            return None
        if not path:
            return tree
        item = self._lookup(tree, path)
        return str(item.id) if item is not None and item.type_str == "tree" else None

    def item(self, tree: str, path: str) -> TreeItem | None:
        """The file at path in tree, or None when absent or a folder."""
        obj = self._lookup(tree, path)
        if obj is None or obj.type_str == "tree":
            return None
        return TreeItem(path, str(obj.id), int(obj.filemode))

    def folders(self, tree: str | None) -> list[str]:
        """Names of the sub-folders directly inside tree."""
        if tree is None:
            return []
        return sorted(str(e.name) for e in self._tree(tree) if e.type_str == "tree")

    def size(self, tree: str | None) -> int:
        """How many items a tree holds directly (0 for None)."""
        return len(self._tree(tree)) if tree else 0

    def merge_base(self, a: str, b: str) -> str | None:
        try:
            base = self._repo.merge_base(a, b)
        except (KeyError, pygit2.GitError, ValueError):
            return None
        return str(base) if base else None

    def shallow_commits(self) -> frozenset[str]:
        """The commits whose parents this clone was not given (`git clone --depth`: the
        common git directory's `shallow` file). Below them history is cut: git takes them for
        root commits, so a merge base is not found and a diff from them shows their whole
        tree. Empty in a full clone (the file is absent: no read)."""
        if not self._repo.is_shallow:
            return frozenset()
        return shallow_in(self.common_dir)

    def exists(self, tree: str, path: str) -> bool:
        """Whether path names a file or folder in tree. A path git could not hold is never
        present: libgit2 looks a name up as a C string, so `README.md\\0junk` was found cut
        at its NUL, and a path from the root (`/README.md`, or an empty part between slashes)
        was taken from tree itself; the gate refuses such a cited path, but the site showed it
        as present."""
        if "\0" in path or "" in path.split("/"):
            return False
        return self._lookup(tree, path) is not None

    def read_all(self, oids: Collection[str], limit: int) -> dict[str, bytes]:
        """Each blob's bytes (at most limit + 1), by id; a missing one is left out
        (gitmem.repo.trees.Trees, which git's command line answers in one process)."""
        found: dict[str, bytes] = {}
        for oid in oids:
            with contextlib.suppress(GitmemError):
                found[oid] = self.read(oid, limit)
        return found

    def read(self, oid: str, limit: int | None = None, *, path: str | None = None) -> bytes:
        """A blob's bytes; with limit, at most limit + 1 bytes are returned (size checks).
        Read from the object database directly: no Blob object is built (a third faster).
        libgit2 checks every object it reads against its id (its default, never turned off):
        bytes that do not hash to the id are refused, in every gate. path: where the reader
        found the blob, named when it is damaged (an object id alone does not tell the user
        which entry was lost; the reader walking the tree knows)."""
        try:
            kind, data = self._odb.read(oid)[:2]
        except ValueError:
            raise GitmemError(f"object {oid} is missing") from None
        except (KeyError, pygit2.GitError) as exc:
            if not self._fetched_lazily(oid):
                raise self._damaged(oid, "file", exc, path) from None
            try:
                kind, data = self._odb.read(oid)[:2]
            except (KeyError, pygit2.GitError):
                raise self._damaged(oid, "file", exc, path) from None
        if kind != pygit2.enums.ObjectType.BLOB:
            raise GitmemError(f"object {oid} is not a file")
        if limit is not None and len(data) > limit:
            return data[: limit + 1]
        return data

    @staticmethod
    def blob_id(data: bytes) -> str:
        """The id git gives a blob of these bytes (libgit2 hashes with collision-detecting
        SHA-1, as git does): equal ids prove equal bytes without reading the blob."""
        return str(pygit2.hash(data))

    def read_path(self, tree: str, path: str) -> bytes | None:
        found = self.item(tree, path)
        return self.read(found.oid, path=path) if found else None

    def read_file(self, commit: str, path: str, limit: int) -> bytes | None:
        """The bytes (at most limit + 1) of the file at path in commit; None where no file is
        (a folder, a link, a submodule, nothing) or it cannot be read."""
        try:
            found = self.item(self.tree_of(commit), path)
            if found is None or not found.is_file:
                return None
            return self.read(found.oid, limit, path=path)
        except GitmemError:
            return None

    def walk(self, tree: str | None, prefix: str = "") -> Iterator[TreeItem]:
        """Every non-tree item below tree, with paths prefixed by prefix."""
        if tree is None:
            return
        stack: list[tuple[Any, str]] = [(self._tree(tree), prefix)]
        while stack:
            node, base = stack.pop()
            for child in node:
                path = f"{base}{child.name}"
                if child.type_str == "tree":
                    stack.append((self._object(str(child.id), "tree"), path + "/"))
                else:
                    yield TreeItem(path, str(child.id), int(child.filemode))

    def diff(self, old_tree: str | None, new_tree: str | None, prefix: str = "") -> list[Change]:
        """Paths that differ between two trees (either may be None = empty), without renames."""
        if old_tree == new_tree:
            return []
        if old_tree is None or new_tree is None:
            side = self.walk(new_tree or old_tree, prefix)
            if new_tree is None:
                return [Change("D", i.path, i, None) for i in side]
            return [Change("A", i.path, None, i) for i in side]
        changes: list[Change] = []
        self._diff_into(
            self._tree(old_tree),
            self._tree(new_tree),
            prefix,
            changes,
        )
        return changes

    def _diff_into(self, old: Any, new: Any, base: str, out: list[Change]) -> None:
        """Skip subtrees whose ids agree (libgit2's tree diff walks them all, which makes a
        change beside 100,000 entries cost as much as the entries); a large flat folder is
        compared by libgit2 in C. Folders are entered with a stack of levels, not by
        recursion: a pushed tree nested a thousand folders deep passed Python's recursion
        limit, and the server's hook refused the push with an unexpected error instead of
        judging it. Each level is finished before the folder after it, so the changes come
        in path order."""
        levels = [self._diff_level(old, new, base, out)]
        while levels:
            below = next(levels[-1], None)
            if below is None:
                levels.pop()
            else:
                levels.append(self._diff_level(*below, out))

    def _diff_level(
        self, old: Any, new: Any, base: str, out: list[Change]
    ) -> Iterator[tuple[Any, Any, str]]:
        """One folder of _diff_into: its changes appended to out, in name order, each pair of
        folders of one name yielded (old, new, path) where it stands, for the caller to enter
        before this level goes on."""
        if len(old) + len(new) > _PYTHON_DIFF_LIMIT:
            for delta in old.diff_to_tree(new).deltas:
                a, b = delta.old_file, delta.new_file
                before = TreeItem(base + a.path, str(a.id), int(a.mode)) if a.mode else None
                after = TreeItem(base + b.path, str(b.id), int(b.mode)) if b.mode else None
                _append_change(out, before, after)
            return
        old_items = {e.name: e for e in old}
        new_items = {e.name: e for e in new}
        for name in sorted(old_items.keys() | new_items.keys()):
            a, b = old_items.get(name), new_items.get(name)
            path = f"{base}{name}"
            if a is not None and b is not None and a.id == b.id and a.filemode == b.filemode:
                continue
            a_tree = a is not None and a.type_str == "tree"
            b_tree = b is not None and b.type_str == "tree"
            if a is not None and b is not None and a_tree and b_tree:
                yield self._tree(str(a.id)), self._tree(str(b.id)), path + "/"
                continue
            if a is not None and a_tree:
                out.extend(Change("D", i.path, i, None) for i in self.walk(str(a.id), path + "/"))
            if b is not None and b_tree:
                out.extend(Change("A", i.path, None, i) for i in self.walk(str(b.id), path + "/"))
            before = (
                TreeItem(path, str(a.id), int(a.filemode)) if a is not None and not a_tree else None
            )
            after = (
                TreeItem(path, str(b.id), int(b.filemode)) if b is not None and not b_tree else None
            )
            _append_change(out, before, after)

    def diff_stream(
        self,
        commits: Iterable[tuple[str, str | None]],
        folder: str,
        outside: set[str] | None = None,
    ) -> Generator[tuple[tuple[str, str | None], list[Change]]]:
        """What each (commit, parent) pair changed below folder (diff() of the folder's trees,
        paths from the top), in order, from one `git diff-tree --stdin`, yielded as git writes
        them, so the caller works while git diffs the rest; a parent of None is the empty tree.
        Each commit that also changed something outside folder is added to outside, if given.

        Why the git CLI: a push of thousands of admissions reads thousands of versions of a
        type folder, which packs store as delta chains 50 deep. libgit2 caches only a chain's
        base and only objects under 1 MB (fixed at build time), so it applies the whole chain
        again for every version: 1.2 ms a version of a 100 kB folder, 12 s for 10,000
        admissions. git keeps the intermediate results (core.deltaBaseCacheLimit) and diffs
        the same 10,000 pairs in about a second. Commits, not folder trees, are what git is
        given: the caller looks up no tree before git can start. Paths outside folder are
        dropped here: a pathspec would have git match it against every name of the big
        folders, a quarter more of its time. The results equal diff()'s (tested).
        """
        wanted = list(dict.fromkeys(commits))
        if not wanted:
            return
        with tempfile.TemporaryFile() as request, tempfile.TemporaryFile() as errors:
            request.write("".join(f"{c} {p}\n" if p else f"{c}\n" for c, p in wanted).encode())
            request.seek(0)
            # In a hook the objects of the push are still in quarantine: only the hook's own
            # environment (GIT_OBJECT_DIRECTORY, GIT_ALTERNATE_OBJECT_DIRECTORIES) shows them.
            env = dict(os.environ) if self.from_env else clean_git_env(self.pinned)
            with subprocess.Popen(
                [
                    # --no-replace-objects: a refs/replace/<id> would have git diff another
                    # commit's tree in place of the one named (the judge reads objects as
                    # they are, pygit2 knows no replace refs)
                    *("git", "--no-replace-objects", f"--git-dir={self.git_dir}"),
                    *("diff-tree", "--stdin", "--always"),
                    *("--root", "-r", "-z", "--no-renames", "--no-ext-diff", "--full-index"),
                ],
                stdin=request,
                stdout=subprocess.PIPE,
                stderr=errors,
                env=env,
            ) as git:
                stdout = cast(io.BufferedReader, git.stdout)
                answered = 0
                try:
                    chunks = iter(partial(stdout.read1, 1 << 16), b"")
                    found = _parse_diff_tree(chunks, f"{folder}/", outside)
                    for pair, (echo, changes) in zip(wanted, found, strict=False):
                        if echo != pair[0]:
                            raise GitmemError(f"git diff-tree answered {echo} for {pair[0]}")
                        answered += 1
                        yield pair, changes
                    failed = git.wait() != 0 or answered != len(wanted)
                finally:
                    if git.poll() is None:
                        git.kill()
            if failed:
                errors.seek(0)
                message = errors.read().decode("utf-8", "replace").strip()
                raise GitmemError(f"git diff-tree failed: {message or 'answers missing'}")

    def new_commits(self, new: str, exclude: list[str]) -> list[CommitInfo]:
        """Commits reachable from new but from none of exclude, oldest first (topological),
        read as the walk meets them (a push of 20,000 commits needs no second look-up)."""
        walker = self._repo.walk(
            new, pygit2.enums.SortMode.TOPOLOGICAL | pygit2.enums.SortMode.REVERSE
        )
        for oid in exclude:
            if oid and oid != ZERO and self.has_object(oid):
                try:
                    walker.hide(oid)  # a commit, or a tag of one
                except pygit2.InvalidSpecError:
                    continue  # a ref to a tree or a blob (a tag of a tree): no commit to hide
        try:
            return [_commit_info(c) for c in walker]
        except (KeyError, pygit2.GitError) as exc:
            # a commit whose parent is nowhere: a push from a shallow clone to a server with
            # receive.shallowUpdate on, or a repository missing objects; never judged as cut
            raise GitmemError(
                f"the history of {new[:12]} is cut ({exc}): a push from a shallow clone? push "
                "from a full one (git fetch --unshallow)"
            ) from None

    def is_ancestor(self, ancestor: str, descendant: str) -> bool:
        if ancestor == descendant:
            return True
        try:
            return bool(self._repo.descendant_of(descendant, ancestor))
        except (KeyError, pygit2.GitError, ValueError):
            return False

    # -- writing ---------------------------------------------------------------------------

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """Turn a failed object write into an error that says what is wrong: a read-only
        mount, a full disk or another user's .git is the environment's, not a bug (libgit2
        raises OSError, or GitError, with the file it could not create)."""
        try:
            yield
        except (OSError, pygit2.GitError) as exc:
            raise self._unwritten(str(exc)) from None

    def _unwritten(self, said: str) -> UsageError:
        """The error of an object write that failed, said (libgit2's or git's words) quoted,
        with what to do: free space, make the objects folder writable, or, where an object
        the write needs is missing (a damaged repository: "object not found", "is not a valid
        object"), ask git fsck; told to make a folder writable that was writable, a user
        looked for the wrong cause."""
        if _disk_full(self.common_dir / "objects"):
            advice = "free some space on the disk, then run the command again"
        elif _MISSING_OBJECT.search(said):
            advice = (
                "an object it needs is missing from the repository: see what `git fsck` "
                "says, repair it (or clone again), then run the command again"
            )
        else:
            advice = (
                "make its objects folder writable for you (is it a read-only mount, "
                "another user's, or is the disk full?), then run the command again"
            )
        return UsageError(
            f"cannot write to the git repository at {self.common_dir}: {said}: {advice}"
        )

    def _written(self, oid: str, what: str) -> str:
        """oid, once the object database holds it. libgit2 answers a commit it could not
        write for a full disk with its id all the same (1.9: the blob and tree writes before
        it raise); git update-ref then refused the ref "with nonexistent object", and the
        user never learnt the disk was full. Checked here, the error names the folder and
        the reason."""
        if self.has_object(oid):
            return oid
        objects = self.common_dir / "objects"
        reason = (
            f"{os.strerror(errno.ENOSPC)}: free some space on the disk, then run the command again"
            if _disk_full(objects)
            else "libgit2 said it wrote it, yet it is not there: check the disk and `git fsck`, "
            "then run the command again"
        )
        raise UsageError(
            f"cannot write to the git repository at {self.common_dir}: the {what} {oid} was "
            f"not written to {objects}: {reason}"
        )

    def write_blob(self, data: bytes) -> str:
        with self._writing():
            return self._written(str(self._repo.create_blob(data)), "file")

    def build_tree(self, base: str | None, updates: Mapping[str, tuple[str, int] | None]) -> str:
        """A new tree: base with each path set to (blob id, mode), or removed when None."""
        nested: dict[str, Any] = {}
        for path, value in updates.items():
            parts = path.split("/")
            node = nested
            for part in parts[:-1]:
                node = node.setdefault(part, {})
                if not isinstance(node, dict):
                    raise GitmemError(f"{path}: a file stands where a folder is needed")
            node[parts[-1]] = value
        return self._build(base, nested, "")

    def _build(self, base: str | None, nested: Mapping[str, Any], prefix: str) -> str:
        """base with nested's updates; a path that goes through something other than a
        folder in base (a submodule's commit, a file, a symbolic link) is a UsageError
        naming it: replaced by a folder, a submodule was deleted from the tree written."""
        base_tree = self._tree(base) if base else None
        builder = self._repo.TreeBuilder(base_tree) if base_tree else self._repo.TreeBuilder()
        for name, value in nested.items():
            if isinstance(value, dict):
                existing = base_tree[name] if base_tree is not None and name in base_tree else None
                if existing is not None and existing.type_str != "tree":
                    what = {"commit": "a submodule", "blob": "a file or a symbolic link"}
                    raise UsageError(
                        f"{prefix}{name} is {what.get(existing.type_str, 'no folder')} in the "
                        f"tree gitmem writes on, where a folder is needed: name a memory "
                        f"folder (memory.dir) outside it"
                    )
                sub_base = str(existing.id) if existing is not None else None
                sub = self._build(sub_base, value, f"{prefix}{name}/")
                if len(self._tree(sub)) == 0:
                    if builder.get(name) is not None:
                        builder.remove(name)
                else:
                    builder.insert(name, pygit2.Oid(hex=sub), FileMode.TREE)
            elif value is None:
                if builder.get(name) is not None:
                    builder.remove(name)
            else:
                oid, mode = value
                builder.insert(name, pygit2.Oid(hex=oid), mode)
        with self._writing():
            return self._written(str(builder.write()), "tree")

    def identity(self, role: str = "author") -> tuple[str | None, str | None]:
        """Who writes, as git itself decides it for role (author or committer): the variable
        (GIT_AUTHOR_NAME, GIT_AUTHOR_EMAIL…), then the role's own config (author.name…), then
        user.name and user.email. libgit2's default signature reads the config only."""
        upper = role.upper()
        name = os.environ.get(f"GIT_{upper}_NAME") or self.config(f"{role}.name")
        email = os.environ.get(f"GIT_{upper}_EMAIL") or self.config(f"{role}.email")
        return name or self.config("user.name"), email or self.config("user.email")

    def signature(
        self, name: str | None = None, email: str | None = None, *, role: str = "author"
    ) -> pygit2.Signature:
        """The signature of a commit gitmem writes: name and email when given, else git's
        identity for role, with a fallback."""
        known_name, known_email = self.identity(role)
        return pygit2.Signature(
            name or known_name or "gitmem", email or known_email or "gitmem@localhost"
        )

    def write_commit(
        self,
        tree: str,
        parents: list[str],
        message: str,
        author: pygit2.Signature | None = None,
        *,
        sign: bool = True,
    ) -> str:
        """A commit of tree on parents, written into the object database (no ref moves).

        Signed when the user's git would sign it (commit.gpgSign true, as git reads it:
        repository over global over system) and sign is not turned off (a throwaway commit
        nobody keeps, such as the test merge a pull request's check judges). Unsigned, a
        project whose memory branch requires signed commits refused every admission gitmem
        pushed, and a reviewer could not tell gitmem's commits from forged ones. The unsigned
        path stays in-process; only signing runs git (_signed_commit)."""
        sig = author or self.signature()
        committer = self.signature(role="committer")
        if sign and self.config_bool("commit.gpgSign"):
            return self._written(
                self._signed_commit(tree, parents, message, sig, committer), "commit"
            )
        with self._writing():
            oid = self._repo.create_commit(
                None,
                sig,
                committer,
                message,
                pygit2.Oid(hex=tree),
                [pygit2.Oid(hex=p) for p in parents],
            )
        return self._written(str(oid), "commit")

    def _signed_commit(
        self,
        tree: str,
        parents: list[str],
        message: str,
        author: pygit2.Signature,
        committer: pygit2.Signature,
    ) -> str:
        """The commit write_commit would write, signed by `git commit-tree -S`.

        git signs it, not gitmem: git's signing (gpg.format openpgp, ssh or x509; gpg.program,
        gpg.ssh.program; user.signingKey as a key id, a key file or a `key::` literal, else
        gpg.ssh.defaultKeyCommand or the committer's identity; an agent holding the key) is
        what `git commit` does, and redoing it around pygit2's create_commit_with_signature
        would drift from it. commit-tree does not read commit.gpgSign itself, hence -S. The
        message goes on stdin as is (commit-tree does not clean it up), and the author and
        committer, with their dates, go in git's variables, so the commit holds what pygit2
        would have written, identities trimmed as git trims them (a name ending in `.`
        loses it, as in `git commit`). i18n.commitEncoding is set to UTF-8 for the command:
        the message is UTF-8, and another value would only mislabel it.

        A failure (no key, a key file missing, a passphrase with no terminal to ask it on,
        the program missing) writes nothing and is a UsageError quoting git."""
        env = clean_git_env(self.pinned)
        for role, who in (("AUTHOR", author), ("COMMITTER", committer)):
            env[f"GIT_{role}_NAME"] = who.name
            env[f"GIT_{role}_EMAIL"] = who.email
            env[f"GIT_{role}_DATE"] = _git_date(who.time, who.offset)
        args = ["git", f"--git-dir={self.git_dir}", "-c", "i18n.commitEncoding=UTF-8"]
        args += ["commit-tree", "-S", tree]
        for parent in parents:
            args += ["-p", parent]
        done = subprocess.run(
            args,
            cwd=self._folder(),
            input=message.encode("utf-8"),
            capture_output=True,
            env=env,
            check=False,
        )
        oid = done.stdout.decode("ascii", "replace").strip()
        if done.returncode == 0 and len(oid) == 40:
            return oid
        said = done.stderr.decode("utf-8", "replace")
        lines = [re.sub(r"^(error|fatal): ", "", line.strip()) for line in said.splitlines()]
        reason = ": ".join(line for line in lines if line) or f"exit status {done.returncode}"
        if not any(_SIGNING.search(line) for line in lines if line != _COMMIT_NOT_WRITTEN):
            # the commit failed, not its signature (no room, no permission, an object
            # missing): the key's advice sent the user to a key that was fine
            raise self._unwritten(f"git commit-tree said: {reason}")
        raise UsageError(
            f"cannot sign the commit gitmem writes, as commit.gpgSign asks: git commit-tree -S "
            f"said: {reason}\nconfigure the signing key (user.signingKey, gpg.format, "
            "gpg.program) or unlock it (a command run without a terminal, an agent's included, "
            "cannot ask for its passphrase: load the key into ssh-agent or gpg-agent first), or "
            "turn signing off for this repository (git config commit.gpgSign false); then run "
            "the command again"
        )

    def update_ref(self, ref: str, new: str, old: str | None, message: str) -> bool:
        """Move ref from old (None: must not exist) to new, atomically; False if it moved
        (the compare-and-swap was lost); UsageError when git could not move it otherwise."""
        return self._update_ref(ref, old, ["update-ref", "-m", message, ref, new, old or ZERO])

    def delete_ref(self, ref: str, old: str) -> bool:
        """Delete ref if it still points at old; False if it moved meanwhile; UsageError when
        git could not delete it otherwise."""
        return self._update_ref(ref, old, ["update-ref", "-d", ref, old])

    def _update_ref(self, ref: str, old: str | None, args: list[str]) -> bool:
        """Run git update-ref; on failure, tell a lost compare-and-swap from the rest.

        git fails the same way (exit 128) when the ref moved meanwhile and when it cannot
        move it at all (a lock file a crashed git left, a read-only refs folder, a name that
        clashes with a folder of refs). Read as "the ref moved", the latter made admit retry
        twenty times and then blame main for moving, and propose take id after id. Its words
        are translated, so they are not parsed: the ref is read again instead. Still at old
        (or still absent when it was to be created), nobody moved it, and git's own reason is
        the error."""
        done = subprocess.run(
            ["git", f"--git-dir={self.git_dir}", *args],
            capture_output=True,
            text=True,
            env=clean_git_env(self.pinned),
            check=False,
            pass_fds=self._lent,
        )
        if done.returncode == 0:
            return True
        if self.ref_target(ref) != old:
            return False
        raise self._ref_failure(ref, done.stderr)

    def _ref_failure(self, ref: str, stderr: str) -> UsageError:
        """The error for a ref git could not move though nobody else moved it: git's reason
        (its first line), and what to do about the likely causes."""
        in_the_way = self.ref_in_the_way(ref)
        if in_the_way is not None:
            return UsageError(ref_clash(ref, in_the_way))
        lines = [line.strip() for line in stderr.splitlines() if line.strip()]
        reason = lines[0] if lines else "git update-ref failed"
        # git's preamble names the ref again ("fatal: update_ref failed for ref 'X': ")
        reason = re.sub(r"^(fatal|error): (update_ref failed for ref '[^']*': )?", "", reason)
        locks = self.ref_locks(ref)
        if locks:
            what = _stale_lock_advice(locks[0])
        else:
            folder = (self.common_dir / ref).parent
            while not folder.exists() and folder != self.common_dir:
                folder = folder.parent
            if _disk_full(folder):  # git says it "couldn't write" a lock, not always why
                what = f"{folder}: {os.strerror(errno.ENOSPC)}: free some space on the disk, "
                what += "then run the command again"
            elif not os.access(folder, os.W_OK):
                what = f"{folder} cannot be written: make it writable for you, then run the "
                what += "command again"
            else:
                what = "fix what git says, then run the command again"
        return UsageError(f"git could not move {ref}: {reason}\n{what}")

    def ref_in_the_way(self, ref: str) -> str | None:
        """A ref that keeps ref from being created: one named as a folder on ref's way
        (refs/heads/gitmem for refs/heads/gitmem/<id>), or one below ref's name
        (refs/heads/gitmem/<id>/x). git keeps refs as files named after them, so it cannot
        hold both ("cannot lock ref ...: 'refs/heads/gitmem' exists")."""
        above = next((r for r in refs_above(ref) if self.ref_target(r) is not None), None)
        if above is not None:
            return above
        below = sorted(self.refs(ref + "/"))
        return below[0] if below else None

    def ref_locks(self, ref: str) -> list[Path]:
        """The lock files that keep git from moving ref (its own, packed-refs'), if present."""
        candidates = (self.common_dir / f"{ref}.lock", self.common_dir / "packed-refs.lock")
        return [lock for lock in candidates if lock.exists()]

    def require_ref_unlocked(self, ref: str) -> None:
        """Refuse while ref is locked: checked before a landing moves main, so that deleting
        the candidate branch after it does not fail half way."""
        locks = self.ref_locks(ref)
        if locks:
            raise UsageError(
                f"cannot move {ref}: {locks[0]} exists: {_stale_lock_advice(locks[0])}"
            )

    def run_git(
        self, *args: str, check: bool = True, input: str | None = None
    ) -> subprocess.CompletedProcess[str]:
        """A user-facing git action (push with the user's credentials) in this repository.

        Its output is decoded as Python decodes a file name (PEP 383): a path that is not
        UTF-8 (a file named in Latin-1 that anyone can commit) or a remote's message in
        another encoding comes back with its bytes as lone surrogates, which the callers
        escape where they print; strictly decoded, `gitmem index` listing such an entry
        ended in an unexpected UnicodeDecodeError."""
        cwd = self.workdir or self.git_dir
        done = subprocess.run(
            ["git", *args],
            cwd=cwd,
            capture_output=True,
            text=True,
            errors="surrogateescape",
            env=clean_git_env(self.pinned),
            input=input,
            check=False,
        )
        if check and done.returncode != 0:
            raise GitmemError(f"git {' '.join(args)} failed: {done.stderr.strip()}")
        return done

    def first_added(self, tip: str, paths: list[str]) -> dict[str, str]:
        """For each path, the newest commit on tip's first-parent chain that added it (absent
        when none did), asked of git (gitcli.newest_per_path: one walk for all the paths, or
        one a path where git's changed-path filters make that faster)."""
        return History(self._folder(), self.common_dir, self.pinned).first_added(tip, paths)

    def last_changed(self, tip: str, paths: list[str]) -> dict[str, tuple[str, str]]:
        """For each path, the newest commit on tip's first-parent chain that changed it and
        its committer date (YYYY-MM-DD), absent when none did; asked of git as first_added.
        The commit says whether the change is only a shallow clone's cut (shallow_commits)."""
        found = newest_per_path(
            self._folder(), tip, paths, "%H %cs", [], common_dir=self.common_dir, pinned=self.pinned
        )
        return {
            path: (line.partition(" ")[0], line.partition(" ")[2]) for path, line in found.items()
        }

    def missing(self, commit: str, paths: Iterable[str]) -> set[str]:
        """The paths that name nothing (no file, no folder) in commit's tree."""
        tree = self.tree_of(commit)
        return {p for p in paths if not self.exists(tree, p)}

    def _folder(self) -> Path:
        return self.workdir or self.git_dir

    def commit_time(self, oid: str) -> int:
        """The committer time of a commit, in seconds since the epoch."""
        return int(self._object(oid, "commit").peel(pygit2.Commit).commit_time)

    def first_parent_log(self, tip: str) -> list[tuple[str, str | None, str]]:
        """tip's merges on its first-parent chain, newest first: (commit, its first parent, the
        first line of its message), and the other commits with None for the parent; from one
        `git log` (no tree is read)."""
        done = subprocess.run(
            ["git", "log", "--first-parent", "-z", "--format=%H %P%x01%s", tip],
            cwd=self.workdir or self.git_dir,
            capture_output=True,
            env=clean_git_env(self.pinned),
            check=False,
        )
        out: list[tuple[str, str | None, str]] = []
        for record in done.stdout.split(b"\0"):
            head, _, subject = record.partition(b"\x01")
            ids = head.decode("ascii", "replace").split()
            if ids:
                merge_parent = ids[1] if len(ids) > 2 else None
                out.append((ids[0], merge_parent, subject.decode("utf-8", "replace")))
        return out

    def first_parent_changes(
        self, tip: str, pathspecs: list[str]
    ) -> Iterator[tuple[str, list[tuple[str, str]]]]:
        """Each commit on tip's first-parent chain that changed a path under pathspecs, newest
        first, with its (status letter, path) changes against its first parent: one `git log`
        (a path-limited walk, which git's commit-graph speeds up) for the whole history."""
        pathspecs = line_paths(pathspecs)  # a path git would read as another is not asked
        if not pathspecs:
            return
        with subprocess.Popen(
            [
                # the paths come from entries' `files:`: never pathspec magic or patterns
                *("git", "--literal-pathspecs", "log", "--first-parent", "--no-renames"),
                *("-z", "--name-status", "--format=%x01%H", "--stdin", tip),
            ],
            cwd=self.workdir or self.git_dir,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=clean_git_env(self.pinned),
        ) as git:
            pathspecs_to_stdin(git, pathspecs)
            stdout = cast(io.BufferedReader, git.stdout)
            commit = ""
            changes: list[tuple[str, str]] = []
            status = ""
            rest = b""
            while chunk := stdout.read1(1 << 16):
                *tokens, rest = (rest + chunk).split(b"\0")
                for token in tokens:
                    token = token.removeprefix(b"\n")
                    if token.startswith(b"\x01"):
                        if commit:
                            yield commit, changes
                        commit, changes, status = token[1:].decode("ascii"), [], ""
                    elif not status:
                        status = token.decode("ascii", "replace")[:1]
                    else:
                        changes.append((status, os.fsdecode(token)))
                        status = ""
            if commit:
                yield commit, changes

    def run_git_all(self, commands: list[list[str]]) -> list[str]:
        """Read-only git commands run side by side; each one's output ('' when it failed)."""
        return run_all(self._folder(), commands, self.pinned)

    # -- the staging index ---------------------------------------------------------------

    # The staging index is git's (GIT_INDEX_FILE when the store was opened from_env), read once.

    def _index(self) -> Any:
        if self._staging is None:
            try:
                self._staging = self._repo.index
            except pygit2.GitError:
                self._staging = self._index_through_git()
        return self._staging

    def _index_through_git(self) -> Any:
        """The staging index as git reads it, for an index libgit2 cannot (a split index's
        `link` extension, a sparse index's `sdir`): git writes what is staged as a tree
        (`git write-tree`, the objects a commit of it would write anyway), and an in-memory
        index is read from that tree. Unmerged paths cannot be written as a tree: resolve
        them first, as git commit itself says; an index file git cannot read either (cut
        short, overwritten) is rebuilt from HEAD, and was sent to resolve conflicts it has
        none of."""
        env = dict(os.environ) if self.from_env else clean_git_env(self.pinned)
        done = subprocess.run(
            ["git", "write-tree"],
            cwd=self.workdir or self.git_dir,
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        if done.returncode != 0:
            todo = (
                "resolve the conflicts (git status lists them)"
                if "unmerged" in done.stderr
                else "the index file git names is damaged: remove it and rebuild it from HEAD "
                "(`git reset`; what was staged is to be staged again)"
            )
            raise UsageError(
                f"cannot read the staging index: git write-tree says {done.stderr.strip()}: "
                f"{todo}, then run the command again"
            )
        self._staged_tree = done.stdout.strip()
        index = pygit2.Index()
        index.read_tree(cast(pygit2.Tree, self._repo[self._staged_tree]))
        return index

    def staged_item(self, path: str) -> TreeItem | None:
        """The staging index's entry for path, or None."""
        try:
            entry = self._index()[path]
        except (KeyError, ValueError):
            return None
        return TreeItem(path, str(entry.id), int(entry.mode))

    def staged_paths(self, folder: str) -> Iterator[str]:
        """Every path the staging index holds below folder ('' for every path)."""
        prefix = folder.rstrip("/") + "/" if folder else ""
        for entry in self._index():
            if entry.path.startswith(prefix):
                yield entry.path

    def staged_changes(self, folder: str) -> list[str]:
        """Paths below folder ('' for anywhere) that the staging index adds or changes
        against HEAD, sorted."""
        prefix = folder.rstrip("/") + "/" if folder else ""
        head = self.resolve("HEAD")
        if head is None:
            return sorted(self.staged_paths(folder))
        index = self._index()
        if self._staged_tree is not None:  # an index read through git knows no repository
            changes = self.diff(self.tree_of(head), self._staged_tree)
            return sorted(c.path for c in changes if c.path.startswith(prefix) and c.new)
        diff = index.diff_to_tree(self._tree(self.tree_of(head)))
        return sorted(
            d.new_file.path
            for d in diff.deltas
            if d.new_file.path.startswith(prefix) and d.status_char() != "D"
        )

    # -- the working tree ----------------------------------------------------------------

    def tracked(self, path: str) -> bool:
        """Whether the staging index holds path (git tracks it)."""
        try:
            return path in self._index()
        except ValueError:
            return False

    def checkouts(self, paths: list[str]) -> dict[str, Checkout]:
        """What the staging index and the working tree hold at each of paths, as git sees them.

        git answers, not libgit2: libgit2 neither reads a split or sparse index nor runs a
        clean filter, and a checkout with `core.autocrlf`, `eol=crlf` or a filter holds bytes
        that are not the blob's, while git stages them as the blob. So the file is hashed as
        git would stage it (`git hash-object`, which reads each file itself: piped through
        this process, a 17 MB INDEX.md went in 512-byte writes, a third of a second of an
        admission), and the skip-worktree bit of a sparse checkout (`git ls-files -t`: S) says
        the file is absent by design."""
        states = {path: Checkout(staged, None, sparse) for path, (staged, sparse) in
                  self._staged_entries(paths).items()}  # fmt: skip
        workdir = self.workdir
        if workdir is None:
            return states
        files = [
            path
            for path, state in states.items()
            if not state.sparse and not (workdir / path).is_symlink() and (workdir / path).is_file()
        ]
        if not files:
            return states
        for path, blob in self._hashed(files).items():
            states[path] = states[path]._replace(file=blob)
        return states

    def _hashed(self, files: list[str]) -> dict[str, str]:
        """The blob id git would stage for each file of the checkout, by one `git hash-object`;
        none when it fails (a file gone or unreadable since it was listed): a file with no id
        is at no known version, so a sync leaves it as it is and says so."""
        try:
            listing = self._git_bytes(["hash-object", "--", *files])
        except UsageError:
            return {}
        return dict(zip(files, listing.decode("ascii").split(), strict=True))

    def _staged_entries(self, paths: list[str]) -> dict[str, tuple[str | None, bool]]:
        """Each path's staged blob (None: not staged; '': unmerged, never a version) and
        whether its skip-worktree bit is set, as `git ls-files -s -t` says."""
        entries: dict[str, tuple[str | None, bool]] = {path: (None, False) for path in paths}
        if not paths:
            return entries
        listing = self._git_bytes(
            ["--literal-pathspecs", "ls-files", "-s", "-t", "-z", "--", *paths]
        )
        for record in listing.split(b"\0"):
            if not record:
                continue
            head, _, raw = record.partition(b"\t")
            tag, _mode, oid, stage = head.decode("ascii").split(" ")
            path = raw.decode("utf-8", "surrogateescape")
            if path in entries:
                entries[path] = (oid if stage == "0" else "", tag == "S")
        return entries

    def _git_bytes(self, args: list[str], data: bytes | None = None) -> bytes:
        """git's standard output, as bytes, for a command on this repository's checkout; its
        error, when it fails, as a UsageError (what git refuses is the environment's)."""
        done = subprocess.run(
            ["git", *args],
            cwd=self.workdir or self.git_dir,
            capture_output=True,
            env=clean_git_env(self.pinned),
            input=data,
            check=False,
            pass_fds=self._lent,
        )
        if done.returncode != 0:
            error = done.stderr.decode("utf-8", "replace").strip()
            # the command, not an option before it (`--literal-pathspecs`) named as one
            command = next((a for a in args if not a.startswith("-")), args[0])
            raise UsageError(
                f"git {command} failed: {error}: correct what git names, then run the command again"
            )
        return done.stdout

    def sync_worktree(
        self,
        old_tree: str,
        new_tree: str,
        prefix: str,
        step: Callable[[str], None] | None = None,
    ) -> list[str]:
        """After a ref moved from old to new under a checked-out branch: bring the index and the
        files under prefix to the new tree. A path whose staged blob and file are each at its
        old or new version is brought to the new one; any other (edited by hand since) is left
        as it is and returned: so a sync that was cut short can simply be run again. step(name),
        when given, is called before the index is written ("index"), then after each file
        ("file-N").

        git does the work that must be git's: it writes each file's bytes as a checkout would
        (smudge and eol filters, `git cat-file --filters`), and moves the index entries
        (`git update-index --index-info`, or in a sparse checkout `git reset NEW -- PATHS`,
        which keeps the skip-worktree bits and sets them on paths it adds; both read and
        write split and sparse indexes alike: `_move_entries`). The index goes first, then
        the files, each replaced whole: a kill between leaves entries at the new version and
        files at the old, which the next sync finishes."""
        workdir = self.workdir
        if workdir is None:
            return []
        self.require_index_unlocked()
        try:
            return self._sync(workdir, old_tree, new_tree, prefix, step)
        except OSError as exc:
            reason = f"{exc.filename}: {exc.strerror}" if exc.filename and exc.strerror else exc
            raise UsageError(
                f"cannot update the working tree's files and staging index: {reason}"
            ) from None

    def index_lock(self) -> Path:
        """The lock file git holds while it writes the staging index (git_dir/index.lock)."""
        return self.git_dir / "index.lock"

    def require_index_unlocked(self) -> None:
        """Refuse while the staging index is locked: the files would be written, then the
        index not, and the change left staged backwards (a staged deletion of what was just
        admitted). git's own advice, as git gives it."""
        lock = self.index_lock()
        if lock.exists():
            raise UsageError(
                f"cannot update the staging index: {lock} exists: {_stale_lock_advice(lock)}"
            )

    def _sync(
        self,
        workdir: Path,
        old_tree: str,
        new_tree: str,
        prefix: str,
        step: Callable[[str], None] | None,
    ) -> list[str]:
        """sync_worktree's work, apart so that what the system refuses is caught in one place."""
        changes = self.diff(self.subtree(old_tree, prefix), self.subtree(new_tree, prefix))
        paths = [f"{prefix}/{change.path}" for change in changes]
        states = self.checkouts(paths)
        kept: list[str] = []
        moved: dict[str, Change] = {}
        for path, change in zip(paths, changes, strict=True):
            versions = {change.old.oid if change.old else None}
            versions.add(change.new.oid if change.new else None)
            if states[path].at(versions):
                moved[path] = change
            else:
                kept.append(path)
        if step is not None:
            step("index")
        follow = {path: change.new.oid if change.new else None for path, change in moved.items()}
        skipped: set[str] = set()
        if moved and self._move_entries(new_tree, moved, states):
            # after the reset: a path new to the index has its skip-worktree bit only now
            entries = self._staged_entries([path for path, oid in follow.items() if oid])
            skipped = {path for path, (_, sparse) in entries.items() if sparse}
        writes = {
            path: oid
            for path, oid in follow.items()
            if oid and path not in skipped and states[path].file != oid
        }
        for path, oid in follow.items():
            if oid is None:
                (workdir / path).unlink(missing_ok=True)
        for number, (path, data) in enumerate(self._checked_out(writes), start=1):
            target = workdir / path
            target.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(target, data)
            if step is not None:
                step(f"file-{number}")
        self._refresh_entries([path for path, oid in follow.items() if oid and path not in skipped])
        return kept

    def _refresh_entries(self, paths: list[str]) -> None:
        """Record the files' stat data in the index entries just moved (`git add --refresh`,
        for those paths alone). update-index --index-info and reset write an entry without
        it, so until something refreshed the whole index (`git status` does), git's
        plumbing took each for a changed file: `git diff-index --quiet HEAD` said the
        checkout was dirty after every admission, `git diff-files` listed INDEX.md and the
        entry, and `git sparse-checkout set` left them behind as "not up to date". Only the
        record is missing, never a version: a refresh that fails is left to the next one."""
        if not paths:
            return
        pathspec = b"".join(_literal(path) + b"\0" for path in paths)
        with contextlib.suppress(UsageError):
            self._git_bytes(
                ["add", "--refresh", "--pathspec-from-file=-", "--pathspec-file-nul"], pathspec
            )

    def _move_entries(
        self, tree: str, moved: dict[str, Change], states: dict[str, Checkout]
    ) -> bool:
        """Bring the index entries of the moved paths to their version in tree; True when
        that was a reset, after which a path may carry a skip-worktree bit.

        `git update-index --index-info` writes those entries and nothing else. A reset to the
        tree for those paths also diffs the index against the tree under the pathspec (some
        0.2 s of CPU in a checkout of 100,000 entries), but it keeps an entry's skip-worktree
        bit and sets it on a path it adds outside a sparse checkout's cone, where
        update-index drops the one and never sets the other. So a reset whenever a moved path
        has the bit or the checkout is sparse."""
        if any(states[path].sparse for path in moved) or self._sparse_checkout():
            self._reset_entries(tree, list(moved))
            return True
        records = []
        for path, change in moved.items():
            item = change.new or change.old
            assert item is not None  # a change has a side
            mode = f"{change.new.mode:o}" if change.new else "0"  # mode 0 removes the entry
            name = path.encode("utf-8", "surrogateescape")
            records.append(f"{mode} {item.oid}\t".encode("ascii") + name + b"\0")
        self._git_bytes(["update-index", "-z", "--index-info"], b"".join(records))
        return False

    def _sparse_checkout(self) -> bool:
        """Whether this checkout is sparse, as git reads its settings (a linked worktree's own
        config included, which libgit2 does not read)."""
        answer = self._git_bytes(
            ["config", "--type=bool", "--default=false", "core.sparseCheckout"]
        )
        return answer.strip() == b"true"

    def _reset_entries(self, tree: str, paths: list[str]) -> None:
        """Move the index entries of paths to their version in tree (`git reset TREE -- PATHS`),
        without the refresh a mixed reset makes of the whole index: an lstat of every tracked
        file, 0.3-0.5 s of an admission in a checkout of 100,000 entries, and of no use to
        the paths reset, whose files are written after it. git before 2.36 knows no
        `--no-refresh`, and there `-q` skips the refresh already."""
        pathspec = b"".join(_literal(path) + b"\0" for path in paths)
        args = [
            "reset",
            "-q",
            "--no-refresh",
            tree,
            "--pathspec-from-file=-",
            "--pathspec-file-nul",
        ]
        try:
            self._git_bytes(args, pathspec)
        except UsageError as exc:
            if "no-refresh" not in exc.message:
                raise
            self._git_bytes([arg for arg in args if arg != "--no-refresh"], pathspec)

    def as_checked_out(self, path: str, data: bytes) -> bytes:
        """data as `git checkout` would write it at path (the path's eol and smudge filters:
        core.autocrlf, core.eol, .gitattributes): a generated file written in the working tree
        then reads as git's own checkout of it, and git stages data back from it. The blob is
        written to the object database first (git filters only what it can name); one git."""
        return next(self._checked_out({path: self.write_blob(data)}))[1]

    def _checked_out(self, blobs: dict[str, str]) -> Iterator[tuple[str, bytes]]:
        """Each path's blob as a checkout writes it, smudge and eol filters applied (`git
        cat-file --filters`), one git per file: in `--batch` mode git 2.39 announces the
        unfiltered size before the filtered bytes, so the stream cannot be cut reliably."""
        for path, oid in blobs.items():
            yield path, self._git_bytes(["cat-file", "--filters", f"--path={path}", oid])


_PYTHON_DIFF_LIMIT = 64
_FOLDER_CACHE = 256


#: One unit of `git diff-tree --stdin --always -r -z` output on commits: a changed path's
#: record (":oldmode newmode oldid newid status" NUL path NUL) or the next commit's id NUL.
_DIFF_UNIT = re.compile(
    rb":([0-7]+) ([0-7]+) ([0-9a-f]+) ([0-9a-f]+) [A-Z][0-9]*\0([^\0]*)\0|([0-9a-f]+)\0"
)


#: Below this much free space a write that failed without saying why is put down to the
#: disk: the failed write has freed what it had taken (git removes its lock file) before the
#: space is looked at, so "none left" is seldom what is found.
_NEARLY_FULL = 1 << 20


def _git_date(time: int, offset: int) -> str:
    """A signature's time (seconds since the epoch) and offset (minutes east of UTC) as git
    reads a date from GIT_AUTHOR_DATE: `@<seconds> <+|-><hhmm>`, to the second."""
    sign = "-" if offset < 0 else "+"
    hours, minutes = divmod(abs(offset), 60)
    return f"@{time} {sign}{hours:02d}{minutes:02d}"


#: What git and libgit2 say when an object a write needs is not in the object database.
_MISSING_OBJECT = re.compile(r"object not found|is not a valid (?:'\w+' )?object")
#: A line of git's about signing: its signing programs, their keys and their settings
#: ("gpg failed to sign the data", ssh-keygen's "Couldn't load public key", "unsupported
#: value for gpg.format", "either user.signingkey or gpg.ssh.defaultKeyCommand needs to be
#: configured").
_SIGNING = re.compile(r"\b(?:gpg|gpgsm|ssh|ssh-keygen|x509|sign|signing|signingkey|key)\b", re.I)
#: The line git ends any failed commit-tree with, signing or not.
_COMMIT_NOT_WRITTEN = "failed to write commit object"


def _disk_full(folder: Path) -> bool:
    """Whether the file system of folder is (nearly) out of space, or out of inodes, for its
    user: what a write that failed without saying why (libgit2's commit, git's lock file or
    reflog) failed on."""
    try:
        found = os.statvfs(folder)
    except OSError:
        return False
    # a file system that counts no inodes (btrfs) reports 0 of 0 free
    return found.f_bavail * found.f_frsize < _NEARLY_FULL or 0 == found.f_favail < found.f_files


def _stale_lock_advice(lock: Path) -> str:
    """What to do about a git lock file, as git itself advises."""
    return (
        f"another git process is running, or one crashed and left it: if no git process is "
        f"running, remove it (rm '{lock}'), then run the command again"
    )


def refs_above(ref: str) -> list[str]:
    """The refs named as the folders on ref's way below refs/<kind>/ (refs/heads/gitmem for
    refs/heads/gitmem/<id>), shortest first: git keeps refs as files named after them, so it
    cannot hold any of them and ref at once."""
    parts = ref.split("/")
    return ["/".join(parts[:end]) for end in range(3, len(parts))]


def ref_clash(ref: str, other: str, remote: str | None = None) -> str:
    """Why ref could not be created while the ref other stands in its way (above it, or
    below its name), here or (remote) on the remote a push went to, and how to clear it: a
    branch is renamed, a remote-tracking branch the remote no longer has is pruned."""
    prefixes = {"refs/heads/": "branch", "refs/remotes/": "remote-tracking branch"}
    kind, shown = next(
        ((what, other.removeprefix(p)) for p, what in prefixes.items() if other.startswith(p)),
        ("ref", other),
    )
    if ref.startswith(CANDIDATE_REFS) and other == CANDIDATE_REFS.rstrip("/"):
        where = f"where gitmem's candidate branches go ({BRANCH_PREFIX}<id>)"
    else:
        target = next((ref.removeprefix(p) for p in prefixes if ref.startswith(p)), ref)
        where = f"where {target} goes"
    if remote is not None:
        return (
            f"{remote} has a {kind} named `{shown}` ({other}), which stands {where}: git "
            f"cannot hold a ref and refs below its name at once; rename it there (`git fetch "
            f"{remote} {other} && git push {remote} FETCH_HEAD:refs/heads/<other-name> "
            f":{other}`, or in the forge's branch settings), then push again"
        )
    if kind == "branch":
        fix = f"rename it (`git branch -m {shown} <other-name>`)"
    elif kind == "remote-tracking branch":
        remote = shown.split("/", 1)[0]
        fix = (
            f"if {remote} no longer has it, prune it (`git remote prune {remote}`); else "
            f"rename that branch on {remote}"
        )
    else:
        fix = f"move it (`git update-ref -d {other}` once nothing needs it)"
    return (
        f"a {kind} named `{shown}` ({other}) stands {where}: git cannot hold a ref and refs "
        f"below its name at once; {fix}, then run the command again"
    )


def _parse_diff_tree(
    chunks: Iterable[bytes], prefix: str, outside: set[str] | None = None
) -> Iterator[tuple[str, list[Change]]]:
    """Parse `git diff-tree --stdin --always -r -z` output as it arrives; yields each commit
    with its changes below prefix once the next commit begins (a commit with changes
    elsewhere too goes into outside). A unit cut by the end of a chunk matches nothing until
    the rest arrives; output that never matches is an error."""
    buffer = b""
    pos = 0
    current: str | None = None
    changes: list[Change] = []
    wanted = os.fsencode(prefix)
    match = _DIFF_UNIT.match
    for chunk in chunks:
        buffer = buffer[pos:] + chunk
        pos = 0
        while (found := match(buffer, pos)) is not None:
            pos = found.end()
            old_mode, new_mode, old_id, new_id, raw_path, commit = found.groups()
            if commit is not None:
                if current is not None:
                    yield current, changes
                current, changes = commit.decode("ascii"), []
            elif raw_path.startswith(wanted):
                path = os.fsdecode(raw_path)
                before_mode, after_mode = int(old_mode, 8), int(new_mode, 8)
                before = TreeItem(path, old_id.decode(), before_mode) if before_mode else None
                after = TreeItem(path, new_id.decode(), after_mode) if after_mode else None
                _append_change(changes, before, after)
            elif outside is not None and current is not None:
                outside.add(current)
    if pos < len(buffer):
        raise GitmemError("git diff-tree output ends in the middle of a record")
    if current is not None:
        yield current, changes


def _commit_info(c: pygit2.Commit) -> CommitInfo:
    parents = tuple(map(str, c.parent_ids))
    return CommitInfo(str(c.id), parents, str(c.tree_id), _message(c), c.message_encoding)


def _message(c: pygit2.Commit) -> str:
    """A commit's message, decoded as its `encoding` header says; a header naming an encoding
    git knows and Python does not (Windows-31J), or bytes that are not in it, gives the raw
    bytes as UTF-8 with the rest escaped, so that a hostile header is judged, never a crash
    (the scanner encodes the text back to those bytes)."""
    try:
        return c.message
    except (LookupError, UnicodeError):  # UnicodeError: `punycode` raises the base class
        return c.raw_message.decode("utf-8", "surrogateescape")


def _append_change(out: list[Change], before: TreeItem | None, after: TreeItem | None) -> None:
    if before and after:
        out.append(Change("M", after.path, before, after))
    elif after:
        out.append(Change("A", after.path, None, after))
    elif before:
        out.append(Change("D", before.path, before, None))


def _literal(path: str) -> bytes:
    """A path as a pathspec that matches only itself (git's `:(literal)` magic)."""
    return b":(literal)" + path.encode("utf-8", "surrogateescape")
