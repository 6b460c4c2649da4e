"""git's refs read from their files: where a branch points, without loading libgit2.

An agent's hook runs on every prompt and every edit, and most of what it needs to know is
"has the memory branch moved since I last looked?".  Opening the repository with pygit2
costs more than the hook's whole budget (its import, ssl and the CA bundle included), while
git's files backend keeps each ref as a small file: a loose ref `refs/heads/main` holding an
object id (or `ref: <other ref>` for a symbolic one), and `packed-refs` holding the rest,
one `<id> <name>` line each (a `^<id>` line after a tag names what it points to).  A loose
ref wins over its packed line.  HEAD and the refs under `refs/worktree/`, `refs/bisect/` and
`refs/rewritten/` belong to each worktree (its own git directory); every other ref lives in
the common directory that linked worktrees share.

This reader answers only what it is sure of.  `GitFiles.at` gives None for anything it does
not fully understand - a `.git` that is neither a folder nor a `gitdir:` file, the reftable
backend, a ref file it cannot parse - and the caller then asks libgit2 (gitmem.repo.store),
which reads every backend.  A ref that is absent is reported absent; one that cannot be told
raises `Unsure`.  Like gitmem.repo.gitcli it imports only the standard library.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, Protocol

from gitmem.model.names import BRANCH_PREFIX, DEFAULT_BRANCH, DEFAULT_REMOTE

__all__ = ["GitFiles", "Refs", "Unsure", "branch_facts", "fetched_from", "is_object_id"]

_OID: Final = re.compile(rb"[0-9a-f]{40}(?:[0-9a-f]{24})?")


def is_object_id(text: str) -> bool:
    """Whether text is a full object id as git writes it (SHA-1 or SHA-256, lower-case hex):
    what a hook's input, a journal or a push event names, never an abbreviation."""
    return _OID.fullmatch(text.encode("ascii", "replace")) is not None


#: A config section header `[remote "NAME"]` (the section's name in any letter case, the
#: subsection's exact), and what would make a config file say more than its own lines.
_REMOTE_SECTION: Final = re.compile(rb'^\s*\[\s*remote\s+"((?:[^"\\\n]|\\.)*)"\s*\]', re.I | re.M)
_OTHER_CONFIG: Final = re.compile(rb"^\s*\[\s*(?:include|remote\s*\.)", re.I | re.M)
#: The keys by which a GIT_CONFIG_KEY_<n> may name a remote (or a file that names one), and
#: more of them than any real environment gives.
_REMOTE_KEYS: Final = ("remote.", "include")
_MAX_CONFIG_COUNT: Final = 1000


def fetched_from(remotes: Sequence[str], upstreams: Iterable[str | None] = ()) -> str:
    """The remote a branch is fetched from, the one its memory is read from: the one remote
    of remotes that upstreams (branch.<name>.remote of the branch asked about, or of every
    local branch: gitmem.repo.store.Store.fetch_remote) name, else the only remote whatever
    its name (`git clone -o upstream`), else origin (also when there is no remote at all, as
    on a server)."""
    named = {upstream for upstream in upstreams if upstream is not None and upstream in remotes}
    if len(named) == 1:
        return named.pop()
    if len(remotes) == 1:
        return remotes[0]
    return DEFAULT_REMOTE


#: Refs that belong to one worktree (git's documentation of worktrees, "Refs").
_PER_WORKTREE: Final = ("refs/worktree/", "refs/bisect/", "refs/rewritten/")
#: How many symbolic hops a ref may take (git stops at 5 too).
_MAX_DEPTH: Final = 5


class Unsure(Exception):
    """The files do not say for certain: ask libgit2."""


class GitFiles:
    """One worktree's git directory and the common directory it shares, read as files."""

    def __init__(self, git_dir: Path, common_dir: Path) -> None:
        self.git_dir = git_dir
        self.common_dir = common_dir
        self._packed: dict[str, str] | None = None

    @classmethod
    def at(cls, root: str | Path) -> GitFiles | None:
        """The git directories of the work tree whose top folder is root (the folder holding
        `.git`), or None when they are not laid out as this reader understands."""
        dot = Path(root) / ".git"
        try:
            if dot.is_dir():
                git_dir = dot
            else:
                text = dot.read_text(encoding="utf-8")
                if not text.startswith("gitdir: "):
                    return None
                git_dir = (Path(root) / text[len("gitdir: ") :].strip()).resolve()
            common = git_dir
            if (git_dir / "commondir").is_file():
                named = (git_dir / "commondir").read_text(encoding="utf-8").strip()
                common = (git_dir / named).resolve()
            if (common / "reftable").exists() or not (git_dir / "HEAD").is_file():
                return None  # another ref backend (HEAD then names refs/heads/.invalid)
        except (OSError, UnicodeDecodeError):
            return None
        return cls(git_dir, common)

    # -- one ref ---------------------------------------------------------------------------

    def _folder(self, name: str) -> Path:
        if name == "HEAD" or name.startswith(_PER_WORKTREE):
            return self.git_dir
        return self.common_dir

    def raw(self, name: str) -> bytes | None:
        """A ref's own value, stripped: an object id, `ref: <name>`, or None when absent."""
        if not name or ".." in name or name.startswith("/") or name.endswith((".lock", "/")):
            raise Unsure(name)
        try:
            data = (self._folder(name) / name).read_bytes().strip()
        except FileNotFoundError:
            data = b""
        except NotADirectoryError:
            data = b""  # refs/heads/a is a file: refs/heads/a/b cannot exist
        except IsADirectoryError:
            raise Unsure(name) from None
        except OSError:
            raise Unsure(name) from None
        if data:
            return data
        packed = self.packed().get(name)
        return packed.encode("ascii") if packed is not None else None

    def target(self, name: str) -> str | None:
        """The object id a ref points to, following symbolic refs; None when it is absent
        (or dangling: a symbolic ref to an absent ref, as an unborn branch's HEAD)."""
        for _ in range(_MAX_DEPTH):
            value = self.raw(name)
            if value is None:
                return None
            if value.startswith(b"ref: "):
                name = value[len(b"ref: ") :].decode("utf-8", "replace").strip()
                continue
            if _OID.fullmatch(value) is None:
                raise Unsure(name)
            return value.decode("ascii")
        raise Unsure(name)

    def branch_tip(self, branch: str) -> str | None:
        return self.target(f"refs/heads/{branch}")

    def ref_target(self, name: str) -> str | None:
        return self.target(name)

    def _symbolic(self, name: str, prefix: str) -> str | None:
        value = self.raw(name)
        if value is None or not value.startswith(b"ref: "):
            return None
        target = value[len(b"ref: ") :].decode("utf-8", "replace").strip()
        return target.removeprefix(prefix) if target.startswith(prefix) else None

    def head_branch(self) -> str | None:
        """The branch HEAD points to (even unborn), or None when detached."""
        return self._symbolic("HEAD", "refs/heads/")

    def remote_default_branch(self, remote: str = DEFAULT_REMOTE) -> str | None:
        """The branch `refs/remotes/<remote>/HEAD` names, or None."""
        prefix = f"refs/remotes/{remote}/"
        return self._symbolic(f"{prefix}HEAD", prefix)

    def remote_names(self) -> list[str]:
        """The remotes the repository's own config file names, sorted; Unsure when that file
        may say more than its lines show (an include, the old `[remote.NAME]` spelling) or
        cannot be read. A remote set in the user's or the system's config alone is not seen
        (libgit2 sees it): a clone keeps its remotes in its own config. Unsure too when the
        environment gives git configuration that may name a remote (_env_may_name_remotes):
        a remote given only there is one `git push` uses, and gitmem.repo.store sees it."""
        if _env_may_name_remotes(os.environ):
            raise Unsure("config")
        try:
            data = (self.common_dir / "config").read_bytes()
        except FileNotFoundError:
            return []
        except OSError:
            raise Unsure("config") from None
        if _OTHER_CONFIG.search(data):
            raise Unsure("config")
        names = set()
        for found in _REMOTE_SECTION.finditer(data):
            name = re.sub(rb"\\(.)", rb"\1", found.group(1))
            try:
                names.add(name.decode("utf-8"))
            except UnicodeDecodeError:
                raise Unsure("config") from None
        return sorted(names)

    def fetch_remote(self, branch: None) -> str:
        """The remote the defaults are read from, as Store.fetch_remote(None) chooses it,
        when the remotes alone decide (an origin, or one remote or none); Unsure when the
        branches' upstreams would have to (several remotes, none of them origin)."""
        remotes = self.remote_names()
        if DEFAULT_REMOTE not in remotes and len(remotes) > 1:
            raise Unsure("config")
        return fetched_from(remotes)

    # -- many refs -------------------------------------------------------------------------

    def packed(self) -> dict[str, str]:
        """packed-refs as {name: object id} (peeled `^` lines skipped), read once."""
        if self._packed is None:
            try:
                data = (self.common_dir / "packed-refs").read_bytes()
            except FileNotFoundError:
                data = b""
            except OSError:
                raise Unsure("packed-refs") from None
            packed = {}
            for line in data.splitlines():
                if not line or line.startswith((b"#", b"^")):
                    continue
                oid, _, name = line.partition(b" ")
                if _OID.fullmatch(oid) is None or not name:
                    raise Unsure("packed-refs")
                packed[name.decode("utf-8", "surrogateescape")] = oid.decode("ascii")
            self._packed = packed
        return self._packed

    def names(self, prefix: str) -> list[str]:
        """Every ref name under prefix (e.g. `refs/heads/gitmem/`), loose or packed, sorted."""
        if not prefix.startswith("refs/") or not prefix.endswith("/"):
            raise Unsure(prefix)
        base = self._folder(prefix)
        found = {name for name in self.packed() if name.startswith(prefix)}
        top = base / prefix
        for folder, _, files in os.walk(top, onerror=_unsure):
            rel = Path(folder).relative_to(base).as_posix()
            for file in files:
                if not file.endswith(".lock"):
                    found.add(f"{rel}/{file}")
        return sorted(found)

    def under(self, prefix: str) -> dict[str, str]:
        """Every ref under prefix with the object id it points to (dangling ones left out)."""
        out = {}
        for name in self.names(prefix):
            target = self.target(name)
            if target is not None:
                out[name] = target
        return out


def _env_may_name_remotes(environ: Mapping[str, str]) -> bool:
    """Whether the configuration environ gives git in place of, or over, its files
    (gitmem.repo.gitcli.CONFIG_ENV) may name a remote: a GIT_CONFIG_GLOBAL or
    GIT_CONFIG_SYSTEM file with a remote's section or an include, a GIT_CONFIG_KEY_<n> or a
    `git -c` setting of a remote's or an include's (or one that cannot be told).
    GIT_CONFIG_NOSYSTEM only takes a file away. Checked one by one rather than for any of
    them set: a CI job or a test harness sets GIT_CONFIG_GLOBAL to an empty file to isolate
    git, and every hook would have lost this fast path for nothing."""
    for variable in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM"):
        path = environ.get(variable)
        if not path:
            continue
        try:
            data = Path(path).read_bytes()
        except FileNotFoundError:
            continue
        except OSError:
            return True
        if _REMOTE_SECTION.search(data) or _OTHER_CONFIG.search(data):
            return True
    count = environ.get("GIT_CONFIG_COUNT")
    if count is not None:
        if not count.strip().isdigit() or int(count) > _MAX_CONFIG_COUNT:
            return True
        for n in range(int(count)):
            if environ.get(f"GIT_CONFIG_KEY_{n}", "").lower().startswith(_REMOTE_KEYS):
                return True
    parameters = environ.get("GIT_CONFIG_PARAMETERS", "").lower()
    return "remote." in parameters or "include" in parameters


def _unsure(error: OSError) -> None:
    if not isinstance(error, FileNotFoundError):
        raise Unsure(str(error))


class Refs(Protocol):
    """What the default memory branch depends on, from libgit2 (gitmem.repo.store.Store) or
    from the files (GitFiles)."""

    def head_branch(self) -> str | None: ...

    def branch_tip(self, branch: str) -> str | None: ...

    def ref_target(self, name: str) -> str | None: ...

    def remote_default_branch(self, remote: str = DEFAULT_REMOTE) -> str | None: ...

    def fetch_remote(self, branch: None) -> str: ...

    def remote_names(self) -> list[str]: ...


def branch_facts(refs: Refs) -> dict[str, Any]:
    """What git says that the default of memory.branch depends on
    (gitmem.settings.load.default_branch's arguments), read from the remote the defaults
    come from (fetch_remote with no branch: origin where there is one, else the only
    remote, else the one the local branches' upstreams name). Read from origin alone, a
    clone made with `git clone -o upstream` had its memory branch taken from HEAD, not from
    upstream's default branch. The remote is None in a repository without one (fetch_remote
    names origin there, which the reasons of memory.branch named as if it existed)."""
    head = refs.head_branch()
    if head is not None and (head.startswith(BRANCH_PREFIX) or refs.branch_tip(head) is None):
        head = None  # a candidate branch, or one without commits, is never the memory's
    remote = refs.fetch_remote(None) if refs.remote_names() else None
    return {
        "remote": remote,
        "remote_default_branch": None if remote is None else refs.remote_default_branch(remote),
        "head_branch": head,
        # the remote's main counts as the local one: a clone assembled by `git init`, `git
        # remote add` and `git fetch` has no origin/HEAD and no local main, and a feature
        # branch checked out there was taken for the memory branch
        "main_has_commits": refs.branch_tip(DEFAULT_BRANCH) is not None
        or (
            remote is not None
            and refs.ref_target(f"refs/remotes/{remote}/{DEFAULT_BRANCH}") is not None
        ),
    }
