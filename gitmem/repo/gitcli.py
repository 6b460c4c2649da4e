"""The git command line, where gitmem asks git itself rather than libgit2.

git answers some questions exactly as the user's git would and libgit2 cannot (`core.hooksPath`
as git resolves it, config writes with git's locking, the staged names of a commit in a few
milliseconds before any of gitmem loads).  Every such call goes through here (or through
gitmem.repo.store, which runs git for ref moves, pushes and its diff stream), so that gitmem
runs git in one way: from a named folder, with the hook's own GIT_* variables stripped when
it names the repository itself, and given the GIT_DIR and GIT_WORK_TREE a person set only
where the caller passes them on (PinnedRepository, resolved once a command).

This module imports nothing but the standard library: the launcher's no-op fast path, which
serves every commit, uses it before anything else of gitmem loads.
"""

from __future__ import annotations

import io
import os
import subprocess
from collections.abc import Collection, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Final, NamedTuple, cast

from gitmem.errors import NO_GIT, UsageError

#: The variables kept when git runs on a repository gitmem names itself (identity, the
#: configuration a person chose for the command: CONFIG_ENV, credentials), never the ones a
#: hook sets to point git at its own repository. Stripped, `git -c commit.gpgSign=true
#: commit` or a CI job's GIT_CONFIG_GLOBAL reached gitmem but not the git it runs.
KEEP_ENV = frozenset(
    {
        "GIT_AUTHOR_NAME",
        "GIT_AUTHOR_EMAIL",
        "GIT_COMMITTER_NAME",
        "GIT_COMMITTER_EMAIL",
        "GIT_AUTHOR_DATE",
        "GIT_COMMITTER_DATE",
        "GIT_CONFIG_GLOBAL",
        "GIT_CONFIG_SYSTEM",
        "GIT_CONFIG_NOSYSTEM",
        "GIT_CONFIG_COUNT",
        "GIT_CONFIG_PARAMETERS",
        "GIT_TERMINAL_PROMPT",
        "GIT_SSH",
        "GIT_SSH_COMMAND",
        "GIT_ASKPASS",
    }
)

#: The variables by which git is told to read another configuration than its files' (a file
#: in place of ~/.gitconfig or /etc/gitconfig, none of the system's, settings given one by one,
#: what `git -c key=value` hands to the hooks it runs). libgit2 reads none of them
#: (gitmem.repo.store.Store.config asks git instead when one is set); GIT_CONFIG_KEY_<n> and
#: GIT_CONFIG_VALUE_<n> count only with GIT_CONFIG_COUNT.
CONFIG_ENV: Final = (
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
    "GIT_CONFIG_NOSYSTEM",
    "GIT_CONFIG_COUNT",
    "GIT_CONFIG_PARAMETERS",
)
#: GIT_CONFIG_KEY_<n> and GIT_CONFIG_VALUE_<n>, kept as KEEP_ENV's are
_KEEP_PREFIXES: Final = ("GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_")


def config_in_env(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether environ tells git to read another configuration than its files' (CONFIG_ENV):
    then only git itself knows the settings the user's git works with."""
    return any(name in environ for name in CONFIG_ENV)


class PinnedRepository(NamedTuple):
    """The repository a person named for a whole command with GIT_DIR (and GIT_WORK_TREE), as
    the absolute paths git resolved them to (pinned_repository).

    gitmem finds its repository from the working folder and runs git with every GIT_*
    variable stripped (they are a hook's, relative to where it runs). A command given one of
    these is passed it, and hands it on to whatever opens the repository or runs git for it
    (Store.open, run_in, open_workspace): that git is given these paths, whatever folder it
    runs in. A named tuple, not a frozen dataclass: the launcher's fast path imports this
    module, and dataclasses would add its imports to every commit."""

    git_dir: str
    #: None for a bare repository
    work_tree: str | None = None

    @property
    def folder(self) -> Path:
        """The folder a command works on: the work tree, else the git directory."""
        return Path(self.work_tree or self.git_dir)

    def env(self) -> dict[str, str]:
        """GIT_DIR and GIT_WORK_TREE as git is to be given them."""
        named = {"GIT_DIR": self.git_dir}
        if self.work_tree:
            named["GIT_WORK_TREE"] = self.work_tree
        return named

    def holds(self, path: str | Path) -> bool:
        """Whether path lies in the work tree or the git directory (a folder a command passes
        on, such as init's work tree, which discovery from the folder would miss: a work tree
        without .git)."""
        where = os.path.realpath(path)
        for top in (self.work_tree, self.git_dir):
            if top and os.path.commonpath([where, os.path.realpath(top)]) == os.path.realpath(top):
                return True
        return False


def clean_git_env(pinned: PinnedRepository | None = None) -> dict[str, str]:
    """The environment for running git on a repository we name ourselves (never the hook's):
    with pinned, the GIT_DIR and GIT_WORK_TREE a person set for the command."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("GIT_") or k in KEEP_ENV or k.startswith(_KEEP_PREFIXES)
    }
    if pinned is not None:
        env.update(pinned.env())
    return env


def command_folder(pinned: PinnedRepository | None) -> Path:
    """The folder a command works on: pinned's, else the current folder."""
    return pinned.folder if pinned is not None else Path.cwd()


def pinned_repository(environ: Mapping[str, str] = os.environ) -> PinnedRepository | None:
    """The repository named by the GIT_DIR (and GIT_WORK_TREE) a person set for a command in
    environ, as git resolves them; None when GIT_DIR is not set.

    Without it, `GIT_DIR=… gitmem list` answered for the repository around the folder, or
    said there was none (a bare repository with a work tree elsewhere, as dotfiles are kept):
    the wrong memory read, or written. git resolves them here, once a command, to absolute
    paths that every git gitmem runs for the command is given, whatever folder it runs in.
    Not for the gate's hooks: git sets them for pre-commit and pre-push, which open the
    repository from the environment themselves (Store.open(from_env=True)), index file and
    quarantine included."""
    if not environ.get("GIT_DIR"):
        return None

    def ask(*args: str) -> str | None:
        try:
            done = subprocess.run(
                ["git", "rev-parse", *args], capture_output=True, text=True, env=dict(environ)
            )
        except OSError:
            return None
        return done.stdout.strip() if done.returncode == 0 else None

    git_dir = ask("--absolute-git-dir")
    if not git_dir:
        raise UsageError(
            f"GIT_DIR={environ['GIT_DIR']} names no git repository that git can open: "
            "set it to the repository's git directory, or unset it"
        )
    work_tree = ask("--show-toplevel") if ask("--is-bare-repository") == "false" else None
    return PinnedRepository(git_dir, work_tree or None)


#: Changed-path filters one background write computes at most (`write_path_filters`): some
#: 14 ms each at 100,000 entries (`python bench/recall.py --history`), so about two minutes
#: of one core, whose work is kept when the write ends.
NEW_FILTERS_PER_WRITE = 10_000


def write_path_filters(
    folder: Path, *, limit: int | None = NEW_FILTERS_PER_WRITE
) -> subprocess.Popen[bytes] | None:
    """Start git writing its commit-graph with changed-path (Bloom) filters, and return the
    running git without waiting for it (None when git cannot be started).

    Recall's freshness check asks git for the commits, since an entry's admission, that
    touched the entry and the files it cites: path-limited history. Without the filters git
    diffs every commit on the way against its parent, and an admission's diff reads its
    type folder's tree, some 25,000 names in a memory of 100,000 entries: a hit admitted a
    few hundred commits ago cost seconds. With them, git passes a commit that did not touch
    the path after one look at its filter (`python bench/recall.py --history`).

    The file is git's own, the one `git commit-graph write` and `git maintenance` keep (gitmem
    writes nothing else there), and once it holds filters git's later writes, `git gc`'s
    included, keep computing them. A write rewrites the graph whole: one that only added a
    layer (--split) would leave the commits of the layers below without filters, and a graph
    of 200,000 commits is written in a second or two. It reuses the filters the graph holds
    and computes at most `limit` new ones (None: all), so that a long history is filled in
    over several writes and no write runs long; git computes the oldest commits' filters
    first, so a walk from the tip gains once the history is filled in, and every write after
    that has only the new commits to compute. The process gets a session of its own, as
    `git gc --auto` detaches: the hook that starts it does not wait for it, and a second
    write while one runs finds git's lock and gives up."""
    capped = [f"--max-new-filters={limit}"] if limit is not None else []
    try:
        return subprocess.Popen(
            [
                *("git", "commit-graph", "write", "--reachable"),
                *("--changed-paths", *capped, "--no-progress"),
            ],
            cwd=folder,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=clean_git_env(),
            start_new_session=True,
        )
    except OSError:
        return None


def has_path_filters(common_dir: Path) -> bool:
    """Whether git's commit-graph in common_dir has changed-path filters in every layer: the
    chunk table of each graph file (gitformat-commit-graph) names BIDX and BDAT. False when
    there is no graph or it cannot be read; git may still have no filter for some commits
    (write_path_filters computes them a few at a time), which it then diffs as before."""
    info = common_dir / "objects" / "info"
    single = info / "commit-graph"
    try:
        if single.is_file():
            files = [single]
        else:
            chain = (info / "commit-graphs" / "commit-graph-chain").read_text("ascii").split()
            files = [info / "commit-graphs" / f"graph-{layer}.graph" for layer in chain]
        return bool(files) and all(_graph_chunks(f) >= {b"BIDX", b"BDAT"} for f in files)
    except (OSError, UnicodeDecodeError, ValueError):
        return False


def _graph_chunks(path: Path) -> set[bytes]:
    """The chunk ids of a commit-graph file: a header of 8 bytes ("CGPH", version, hash
    version, chunk count, base count), then a table of (id, offset) of 12 bytes a chunk."""
    with open(path, "rb") as graph:
        head = graph.read(8)
        if len(head) != 8 or head[:4] != b"CGPH":
            raise ValueError(f"{path} is not a commit-graph")
        table = graph.read(12 * (head[6] + 1))
    return {table[i : i + 4] for i in range(0, len(table) - 12, 12)}


def hook_output(*args: str, cwd: str | None = None) -> bytes | None:
    """git's output, run with the hook's own environment (GIT_INDEX_FILE and the rest
    honoured, as git itself would); None when git fails or cannot be run."""
    try:
        done = subprocess.run(["git", *args], capture_output=True, check=False, cwd=cwd)
    except OSError:
        return None
    return done.stdout if done.returncode == 0 else None


def run_in(
    folder: Path, *args: str, pinned: PinnedRepository | None = None
) -> subprocess.CompletedProcess[str]:
    """git run in folder on the repository there, or on pinned (GIT_* variables of a hook
    stripped)."""
    if not folder.is_dir():
        raise UsageError(f"{folder} is not a folder: name the repository to work on")
    try:
        return subprocess.run(
            ["git", *args],
            cwd=folder,
            env=clean_git_env(pinned),
            capture_output=True,
            text=True,
            check=False,
        )
    except FileNotFoundError:
        raise UsageError(NO_GIT) from None


class GitFailed(UsageError):
    """git refused a command in the repository (output_in): exit 2, what git refuses being
    the environment's. reason is what failed and what git said, for a caller that says
    itself what to do next (the hooks installer stopped half-way)."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"{reason}: correct what git names, then run the command again")
        self.reason = reason


def output_in(folder: Path, *args: str, pinned: PinnedRepository | None = None) -> str:
    """run_in's output without its final newline; a failure says what git said, as a usage
    error (exit 2): what git refuses here is the environment's (a config file it cannot
    parse, one it cannot lock), no rule of gitmem's, and `gitmem hooks install` in a
    repository whose config git could not read exited 1, the code of a rule refused."""
    done = run_in(folder, *args, pinned=pinned)
    if done.returncode != 0:
        detail = done.stderr.strip()
        if "not a git repository" in detail:
            raise UsageError(
                f"{folder} is not inside a git repository: run gitmem in one, "
                "or `git init` it first"
            )
        raise GitFailed(f"git {' '.join(args)} failed in {folder}: {detail}")
    return done.stdout.rstrip("\n")


class GitIn(NamedTuple):
    """git run in folder on the repository there, or on pinned: run_in and output_in for a
    caller that runs many commands on one repository (the hooks installer)."""

    folder: Path
    pinned: PinnedRepository | None = None

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return run_in(self.folder, *args, pinned=self.pinned)

    def output(self, *args: str) -> str:
        return output_in(self.folder, *args, pinned=self.pinned)


#: git reading each object named as it is: a replace ref (`git replace`, refs/replace/<id>)
#: has git read another commit or tree in its place, where pygit2 (the opened repository)
#: reads the one named, and the agents' hooks keep what git answered by the tip's id, which a
#: replace ref leaves as it was (gitmem.agents.state). Given to every git that answers
#: gitmem.recall.freshness, as the gate gives it to its own (gitmem.gate.history).
READ_AS_THEY_ARE: Final = ("--no-replace-objects",)

#: Up to how many paths newest_per_path asks git one path at a time, side by side, where
#: the commit-graph has changed-path filters (a recall's hits; not a site's every entry).
ONE_BY_ONE_MAX = 8


def newest_per_path(
    folder: Path,
    tip: str,
    paths: Collection[str],
    field: str,
    options: list[str],
    *,
    common_dir: Path | None = None,
    pinned: PinnedRepository | None = None,
) -> dict[str, str]:
    """For each path, `field` (a git log format) of the newest commit on tip's first-parent
    chain that `git log` with options lists it in, or, for a folder, lists a file below it
    in (absent when none does).

    git walks path-limited history far faster than a walk in Python, and faster still where
    its commit-graph has changed-path filters (write_path_filters): then it diffs only the
    commits whose filter says they may touch the path. But this git (2.39) reads the filters
    only for a pathspec of one path. So where common_dir's commit-graph has them and there
    are a few paths (ONE_BY_ONE_MAX), each path gets a walk of its own, side by side;
    otherwise one walk asks for all of them. Either way the answer is the same (a repository
    that tells git not to read the filters, commitGraph.readChangedPaths false, pays a
    plain walk a path)."""
    wanted = set(line_paths(paths))  # the others: no commit changed them, as far as git says
    if (
        1 < len(wanted) <= ONE_BY_ONE_MAX
        and common_dir is not None
        and has_path_filters(common_dir)
    ):
        from concurrent.futures import ThreadPoolExecutor  # only here: the launcher's path

        with ThreadPoolExecutor(len(wanted)) as pool:  # each thread waits on its git
            parts = pool.map(
                lambda p: _walk(folder, tip, {p}, field, options, pinned), sorted(wanted)
            )
            return {path: commit for part in parts for path, commit in part.items()}
    return _walk(folder, tip, wanted, field, options, pinned)


def line_paths(paths: Iterable[str]) -> list[str]:
    """The paths a line of `git log --stdin` carries exactly, sorted, each once. A path
    holding a line break, or ending in a carriage return (which git strips from a line:
    `a.py\r` was asked as `a.py`, and the changes git gave for it were another file's), cannot
    be written so (no valid entry cites one): it is left out, as one no commit changed. A
    caller left with no path asks git nothing: `--` alone walks every commit."""
    return sorted({p for p in paths if "\n" not in p and not p.endswith("\r")})


def pathspecs_to_stdin(git: subprocess.Popen[bytes], paths: Iterable[str]) -> None:
    """Give a `git log --stdin` its paths on its standard input, after `--`, one a line, and
    close it. On the command line, some 50,000 cited paths passed the system's limit on its
    length (2 MB on Linux) and the command could not start. git reads every line before it
    writes a byte, so writing all of them first cannot block. Only the paths a line carries
    exactly are written (line_paths; the caller asks for none when none is left)."""
    lines = line_paths(paths)
    data = "".join(f"{path}\n" for path in lines).encode("utf-8", "surrogateescape")
    stdin = cast(io.BufferedWriter, git.stdin)
    try:
        stdin.write(b"--\n" + data)
        stdin.close()
    except BrokenPipeError:  # git ended first: its output (none) says so
        pass


def _walk(
    folder: Path,
    tip: str,
    wanted: set[str],
    field: str,
    options: list[str],
    pinned: PinnedRepository | None,
) -> dict[str, str]:
    """newest_per_path by one `git log` for all the wanted paths, read as git streams it and
    stopped once each is found."""
    found: dict[str, str] = {}
    if not wanted:
        return found
    with subprocess.Popen(
        [
            # the paths come from entries' `files:`: never pathspec magic or patterns; the
            # commits as they are, never a replace ref's (READ_AS_THEY_ARE)
            *("git", *READ_AS_THEY_ARE, "--literal-pathspecs", "log", "--first-parent", *options),
            *("--no-renames", "-z"),
            "--name-only",
            *(f"--format=%x01{field}", "--stdin", tip),
        ],
        cwd=folder,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=clean_git_env(pinned),
    ) as git:
        pathspecs_to_stdin(git, wanted)
        stdout = cast(io.BufferedReader, git.stdout)
        commit = ""
        rest = b""
        try:
            while len(found) < len(wanted) and (chunk := stdout.read1(1 << 16)):
                *tokens, rest = (rest + chunk).split(b"\0")
                for token in tokens:
                    if token.startswith(b"\x01"):
                        commit = token[1:].decode("ascii")
                        continue
                    path = os.fsdecode(token.removeprefix(b"\n"))
                    for asked in _self_and_folders(path) if commit else ():
                        if asked in wanted and asked not in found:
                            found[asked] = commit
        finally:
            if git.poll() is None:
                git.kill()
    return found


def _self_and_folders(path: str) -> Iterator[str]:
    """path, then each folder it lies in, deepest first: git lists the files a commit
    changed, never their folders, and a path asked for may be a folder (an entry citing
    `src`), changed when a file below it is."""
    while path:
        yield path
        path = path.rpartition("/")[0]


def run_all(
    folder: Path, commands: list[list[str]], pinned: PinnedRepository | None = None
) -> list[str]:
    """Read-only git commands run side by side in folder (on pinned, when given); each one's
    output ('' when it failed)."""
    running = [
        subprocess.Popen(
            ["git", *args],
            cwd=folder,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=clean_git_env(pinned),
            text=True,
        )
        for args in commands
    ]
    out = []
    for process in running:
        stdout, _ = process.communicate()
        out.append(stdout if process.returncode == 0 else "")
    return out


def read_in(
    folder: Path,
    args: list[str],
    given: bytes | None = None,
    pinned: PinnedRepository | None = None,
) -> bytes | None:
    """The output of a git that reads objects (READ_AS_THEY_ARE) in folder, on the repository
    there or on pinned, given `given` on its input; None when git fails or cannot be run."""
    try:
        done = subprocess.run(
            ["git", *READ_AS_THEY_ARE, *args],
            cwd=folder,
            input=given,
            capture_output=True,
            env=clean_git_env(pinned),
            check=False,
        )
    except OSError:
        return None
    return done.stdout if done.returncode == 0 else None


def trees_at(folder: Path, commit: str, paths: list[str]) -> list[str | None] | None:
    """The id of the tree at each path of commit's tree, None where no tree lies there
    (nothing, a file, a submodule: what gitmem.repo.store.Store.subtree answers None for), read
    as the commit is (READ_AS_THEY_ARE); None when git cannot say. One `git cat-file
    --batch-check` in folder, for a caller that has not loaded libgit2 (gitmem.agents.state,
    after the memory branch moved)."""
    if not paths or any(_not_a_tree_path(p) for p in paths):
        return None
    # the commit's own tree first: a commit git cannot read is no answer, not "no folder"
    asked = f"{commit}^{{tree}}\n" + "".join(f"{commit}:{p}\n" for p in paths)
    out = read_in(
        folder,
        ["cat-file", "--batch-check=%(objecttype) %(objectname)"],
        asked.encode("utf-8", "surrogateescape"),
    )
    lines = out.decode("ascii", "replace").splitlines() if out is not None else []
    if len(lines) != len(paths) + 1 or not lines[0].startswith("tree "):
        return None
    found: list[str | None] = []
    for line in lines[1:]:
        kind, _, name = line.partition(" ")
        found.append(name if kind == "tree" else None)
    return found


def _not_a_tree_path(path: str) -> bool:
    """Whether git would not read path in `commit:path` as a path from the tree's top: a
    line break ends the question, and `./` or `../` read it from the current folder."""
    first = path.split("/", 1)[0]
    return not path or "\n" in path or "\r" in path or first in (".", "..")


def shallow_in(common_dir: Path) -> frozenset[str]:
    """The commits whose parents a shallow clone was not given, read from the `shallow` file
    of common_dir (the git directory linked worktrees share); empty when there is none, a
    full clone."""
    try:
        text = (common_dir / "shallow").read_text(encoding="ascii", errors="replace")
    except OSError:
        return frozenset()
    return frozenset(line.strip() for line in text.splitlines() if line.strip())


#: How many git processes History.missing runs side by side at most.
_SIDE_BY_SIDE: Final = 16


class History:
    """What gitmem.recall.freshness asks of a repository, answered by the git command line
    in folder: for a caller that has not loaded libgit2 (an agent's hook), where
    gitmem.repo.store.Store answers the same in process."""

    def __init__(
        self,
        folder: Path,
        common_dir: Path | None = None,
        pinned: PinnedRepository | None = None,
    ) -> None:
        self.folder = folder
        self.common_dir = common_dir  # where git's commit-graph is, when the caller knows
        self.pinned = pinned

    def first_added(self, tip: str, paths: list[str]) -> dict[str, str]:
        """For each path, the newest commit on tip's first-parent chain that added it."""
        return newest_per_path(
            self.folder,
            tip,
            paths,
            "%H",
            ["--diff-filter=A"],
            common_dir=self.common_dir,
            pinned=self.pinned,
        )

    def run_git_all(self, commands: list[list[str]]) -> list[str]:
        return run_all(self.folder, commands, self.pinned)

    def read_file(self, commit: str, path: str, limit: int) -> bytes | None:
        """The bytes (at most limit + 1) of the file at path in commit, None where git has
        no such file: one `git cat-file blob`."""
        done = subprocess.run(
            ["git", *READ_AS_THEY_ARE, "cat-file", "blob", f"{commit}:{path}"],
            cwd=self.folder,
            capture_output=True,
            env=clean_git_env(self.pinned),
            check=False,
        )
        return done.stdout[: limit + 1] if done.returncode == 0 else None

    def shallow_commits(self) -> frozenset[str]:
        """The commits at a shallow clone's cut (git's `shallow` file in the common git
        directory), empty in a full clone: a file that is absent, read without running git
        when the caller knows the common directory (an agent's hook does)."""
        common = self.common_dir
        if common is None:
            done = run_in(
                self.folder,
                "rev-parse",
                "--path-format=absolute",
                "--git-common-dir",
                pinned=self.pinned,
            )
            if done.returncode != 0:
                raise OSError(f"git rev-parse failed: {done.stderr.strip()}")
            common = Path(done.stdout.strip())
        return shallow_in(common)

    def missing(self, commit: str, paths: Collection[str]) -> set[str]:
        """The paths that name nothing (no file, no folder, no submodule) in commit's tree:
        one `git cat-file --batch-check` for all of them. It looks up the object each path
        names, and a submodule's commit lives in another repository: it answers "missing"
        for one, so each path it calls missing is asked again, side by side, of `git
        rev-parse --verify`, which reads the trees alone (as gitmem.repo.store.Store.missing
        does)."""
        asked = sorted(set(paths))
        if not asked:
            return set()
        if any("\n" in p or "\r" in p for p in asked):
            raise ValueError("a path with a line break cannot be asked of git cat-file")
        done = subprocess.run(
            ["git", *READ_AS_THEY_ARE, "cat-file", "--batch-check"],
            cwd=self.folder,
            input="".join(f"{commit}:{p}\n" for p in asked).encode("utf-8", "surrogateescape"),
            capture_output=True,
            env=clean_git_env(self.pinned),
            check=False,
        )
        lines = done.stdout.decode("utf-8", "surrogateescape").splitlines()
        if done.returncode != 0 or len(lines) != len(asked):
            raise OSError(f"git cat-file failed: {done.stderr.decode('utf-8', 'replace')}")
        gone = [p for p, line in zip(asked, lines, strict=True) if line.endswith(" missing")]
        named: list[str] = []
        for start in range(0, len(gone), _SIDE_BY_SIDE):  # a refactor may leave hundreds gone
            part = gone[start : start + _SIDE_BY_SIDE]
            named += self.run_git_all(
                [[*READ_AS_THEY_ARE, "rev-parse", "--verify", "-q", f"{commit}:{p}"] for p in part]
            )
        return {p for p, oid in zip(gone, named, strict=True) if not oid.strip()}
