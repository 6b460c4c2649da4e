"""The repository layer: the bulk diff of commits agrees with the one-pair diff on real trees."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pygit2
import pytest

from gitmem.errors import GitmemError, UsageError
from gitmem.repo.store import BLOB, BLOB_EXECUTABLE, LINK, Change, Store

from conftest import child_processes, git


def _mktree(repo: Path, entries: list[tuple[str, str, str, bytes]]) -> str:
    """A tree from raw (mode, type, id, name) rows: names may be any bytes git allows."""
    rows = b"".join(
        f"{mode} {kind} {oid}\t".encode() + name + b"\0" for mode, kind, oid, name in entries
    )
    done = subprocess.run(
        ["git", "mktree", "-z"], cwd=repo, input=rows, capture_output=True, check=True
    )
    return done.stdout.decode().strip()


def _trees(repo: Path) -> list[str | None]:
    """Trees that differ in every way a memory folder can: files added, deleted, edited, made
    executable or a symbolic link, a file turned into a folder and back, nested folders,
    names that are not UTF-8 or hold spaces, a newline or a leading colon."""
    store = Store.open(repo)
    blob = {n: store.write_blob(f"text {n}\n".encode()) for n in range(6)}
    base = store.build_tree(
        None,
        {
            "INDEX.md": (blob[0], BLOB),
            "entries/decision/a.md": (blob[1], BLOB),
            "entries/decision/b.md": (blob[2], BLOB),
            "entries/method/c.md": (blob[3], BLOB),
            "refused.md": (blob[4], BLOB),
        },
    )
    edited = store.build_tree(
        base,
        {
            "INDEX.md": (blob[5], BLOB),
            "entries/decision/b.md": None,
            "entries/decision/z.md": (blob[2], BLOB),
            "entries/method/c.md": (blob[3], BLOB_EXECUTABLE),
            "refused.md": (blob[4], LINK),
            "entries/mistake/deep/er/d.md": (blob[1], BLOB),
        },
    )
    without_index = store.build_tree(base, {"INDEX.md": None})
    as_folder = store.build_tree(without_index, {"INDEX.md/inside.md": (blob[0], BLOB)})
    odd = _mktree(
        repo,
        [
            ("100644", "blob", blob[0], b"caf\xe9.md"),  # Latin-1, not UTF-8
            ("100644", "blob", blob[1], b"with space.md"),
            ("100644", "blob", blob[2], b"new\nline.md"),
            ("100644", "blob", blob[3], b":colon.md"),
            ("100644", "blob", blob[4], "ünïcode.md".encode()),
        ],
    )
    odd_edited = _mktree(
        repo,
        [
            ("100644", "blob", blob[5], b"caf\xe9.md"),
            ("100644", "blob", blob[1], b"with space.md"),
            ("100755", "blob", blob[2], b"new\nline.md"),
            ("100644", "blob", blob[4], "ünïcode.md".encode()),
        ],
    )
    return [None, base, edited, as_folder, odd, odd_edited]


def _key(change: Change) -> tuple[str, str]:
    return (change.path, change.status)


def _commits(repo: Path) -> tuple[list[tuple[str, str | None]], dict[str, str | None]]:
    """(commit, parent) pairs between commits of every two memory trees of _trees(), each
    with code beside the memory folder (a code change in every pair; None: `.gitmem` is a
    file), root commits among them; and each commit's memory tree."""
    store = Store.open(repo)
    memory: dict[str, str | None] = {}
    commits = []
    for n, tree in enumerate(_trees(repo)):
        code = store.write_blob(f"print({n})\n".encode())
        folder = ("040000", "tree", tree) if tree else ("100644", "blob", code)
        root = _mktree(repo, [("100644", "blob", code, b"app.py"), (*folder, b".gitmem")])
        commit = store.write_commit(root, [], f"tree {n}")
        memory[commit] = tree
        commits.append(commit)
    pairs: list[tuple[str, str | None]] = [(c, None) for c in commits]
    for parent in commits:
        for commit in commits:
            child = store.write_commit(store.tree_of(commit), [parent], "child")
            memory[child] = memory[commit]
            pairs.append((child, parent))
    return pairs, memory


def test_the_bulk_diff_equals_the_one_pair_diff(repo: Path) -> None:
    pairs, memory = _commits(repo)
    store = Store.open(repo)
    outside: set[str] = set()
    bulk = dict(store.diff_stream(pairs, ".gitmem", outside))
    assert list(bulk) == pairs  # each pair answered, in order
    # each commit that changed app.py (or .gitmem as a file) is named, and only those
    changed_more = {c for c, p in pairs if store.diff(store.tree_of(p) if p else None,
                    store.tree_of(c)) != store.diff(memory[p] if p else None, memory[c],
                    prefix=".gitmem/")}  # fmt: skip
    assert outside == changed_more and outside
    compared = 0
    for commit, parent in pairs:
        before = memory[parent] if parent else None
        one = sorted(store.diff(before, memory[commit], prefix=".gitmem/"), key=_key)
        assert sorted(bulk[(commit, parent)], key=_key) == one, (commit, parent)
        compared += len(one)
    assert compared > 40  # the pairs really differ
    names = {c.path for changes in bulk.values() for c in changes}
    assert ".gitmem/caf\udce9.md" in names and ".gitmem/new\nline.md" in names
    assert not any(name == ".gitmem" or name == "app.py" for name in names)


def test_the_modes_are_gits_own_numbers() -> None:
    """gitmem.repo.objects writes git's modes out, so that readers need no pygit2."""
    from pygit2.enums import FileMode

    from gitmem.repo import objects

    for name in ("BLOB", "BLOB_EXECUTABLE", "LINK", "TREE", "COMMIT"):
        assert getattr(objects, name) == int(getattr(FileMode, name)), name


def test_git_itself_reads_trees_as_the_opened_repository_does(repo: Path) -> None:
    """gitmem.repo.trees.GitTrees (git's command line, for a recall that has not loaded
    libgit2) against Store, the reference: the same changes between every two trees, the same
    item at every path (files, links, folders, nothing), the same bytes of every blob (and
    none of a missing one); a tree git does not hold is a ValueError, as the cache takes it."""
    from gitmem.repo.trees import GitTrees

    store, trees = Store.open(repo), GitTrees(repo)
    known = [tree for tree in _trees(repo) if tree is not None]
    compared = 0
    for old in known:
        for new in known:
            one = sorted(store.diff(old, new, prefix=".gitmem/"), key=_key)
            assert sorted(trees.diff(old, new, ".gitmem/"), key=_key) == one, (old, new)
            compared += len(one)
    assert compared > 40
    files = {item.path for tree in known for item in store.walk(tree)}
    assert "caf\udce9.md" in files and ":colon.md" in files and "new\nline.md" in files
    paths = files | {"entries", "entries/decision", "INDEX.md/inside.md", "no.md", "entries/*"}
    for tree in known:
        for path in sorted(paths):
            assert trees.item(tree, path) == store.item(tree, path), (tree, path)
    blobs = [item.oid for tree in known for item in store.walk(tree)] + ["0" * 40]
    for limit in (3, 1 << 20):
        assert trees.read_all(blobs, limit) == store.read_all(blobs, limit)
    with pytest.raises(ValueError):
        trees.diff(known[0], "1" * 40)


def test_the_stream_answers_in_order_and_once_per_pair(repo: Path) -> None:
    pairs = _commits(repo)[0][8:12]
    answered = [pair for pair, _ in Store.open(repo).diff_stream([*pairs, pairs[0]], ".gitmem")]
    assert answered == pairs  # the repeated pair is diffed once


def test_a_memory_folder_named_like_a_pattern_is_taken_literally(repo: Path) -> None:
    store = Store.open(repo)
    blob = store.write_blob(b"x\n")
    base = store.write_commit(store.build_tree(None, {"m*/a.md": (blob, BLOB)}), [], "base")
    tree = store.build_tree(store.tree_of(base), {"m*/b.md": (blob, BLOB), "mx/c.md": (blob, BLOB)})
    child = store.write_commit(tree, [base], "child")
    [(_, changes)] = list(store.diff_stream([(child, base)], "m*"))
    assert [c.path for c in changes] == ["m*/b.md"]


def test_a_missing_commit_is_an_error_not_a_hang(repo: Path) -> None:
    store = Store.open(repo)
    with pytest.raises(GitmemError, match="diff-tree"):
        list(store.diff_stream([("1" * 40, None)], ".gitmem"))


def test_a_reader_that_stops_early_stops_git(repo: Path) -> None:
    store = Store.open(repo)
    stream = store.diff_stream(_commits(repo)[0], ".gitmem")
    next(stream)
    assert "git" in child_processes()
    stream.close()
    assert "git" not in child_processes()  # killed and waited for: not even a zombie


def test_first_added_finds_each_path_s_admission_on_the_first_parent_chain(repo: Path) -> None:
    def commit(message: str) -> str:
        subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
        subprocess.run(["git", "commit", "-q", "-m", message], cwd=repo, check=True)
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True)
        return out.stdout.decode().strip()

    (repo / "m").mkdir()
    (repo / "m/a.md").write_text("a\n")
    first = commit("add a")
    subprocess.run(["git", "checkout", "-q", "-b", "side"], cwd=repo, check=True)
    (repo / "m/b.md").write_text("b\n")
    commit("add b on a side branch")
    subprocess.run(["git", "checkout", "-q", "main"], cwd=repo, check=True)
    (repo / "m/a.md").write_text("a, edited\n")
    commit("edit a")
    subprocess.run(["git", "merge", "-q", "--no-ff", "-m", "merge side", "side"], cwd=repo)
    merge = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True)
    tip = merge.stdout.decode().strip()
    found = Store.open(repo).first_added(tip, ["m/a.md", "m/b.md", "m/never.md"])
    # b.md entered main's first-parent chain with the merge, as an admission does
    assert found == {"m/a.md": first, "m/b.md": tip}
    # an entry's `files:` is anyone's text: pathspec magic among the paths changes nothing
    hostile = Store.open(repo).first_added(tip, ["m/a.md", ":(exclude)m/a.md", "m/*.md"])
    assert hostile == {"m/a.md": first}


def test_an_object_whose_bytes_do_not_match_its_id_is_refused(tmp_path: Path) -> None:
    """libgit2's check of every object read against its id stays on: a loose object replaced
    by other bytes (a forged or corrupt store) is refused, never read as the entry it claims
    to be."""
    import zlib

    path = tmp_path / "server.git"
    repo = pygit2.init_repository(str(path), bare=True)
    good = str(repo.create_blob(b"admitted text\n"))
    loose = path / "objects" / good[:2] / good[2:]
    os.chmod(loose, 0o644)
    loose.write_bytes(zlib.compress(b"blob 12\0forged text\n"))
    with pytest.raises(GitmemError, match="hash mismatch"):
        Store.open(path).read(good)


def test_a_name_no_ref_can_have_is_no_ref(tmp_path: Path) -> None:
    """libgit2 refuses a malformed ref name (InvalidSpecError) and one past its length limit
    (ValueError); either way there is no such ref, which is not an error."""
    pygit2.init_repository(str(tmp_path), initial_head="main")
    store = Store.open(tmp_path)
    for name in ("refs/heads/gitmem/" + "a" * 1_100, "refs/heads/a..b", "refs/heads/x y"):
        assert store.ref_target(name) is None
    assert store.branch_tip("a" * 1_000_000) is None


def test_a_lost_compare_and_swap_is_told_from_a_ref_git_cannot_move(repo: Path) -> None:
    """update_ref and delete_ref answer False only when the ref is not what the caller
    expected (someone moved it: try again); a ref git cannot move for another reason (a lock
    file a crashed git left) is an error naming the lock, and the ref stays where it was."""
    store = Store.open(repo)
    first = store.resolve("HEAD")
    assert first is not None
    second = store.write_commit(store.tree_of(first), [first], "second\n")
    # a lost race: main is not at the old value given, or the branch to create exists
    assert store.update_ref("refs/heads/main", second, second, "test") is False
    assert store.update_ref("refs/heads/main", second, None, "test") is False
    assert store.delete_ref("refs/heads/main", second) is False
    assert store.branch_tip("main") == first
    # a stale lock: not a race, however often it is tried
    lock = repo / ".git" / "refs" / "heads" / "main.lock"
    lock.touch()
    with pytest.raises(GitmemError, match=r"main\.lock") as caught:
        store.update_ref("refs/heads/main", second, first, "test")
    assert caught.value.exit_code == 2
    assert f"rm '{lock}'" in caught.value.message
    assert store.branch_tip("main") == first
    (repo / ".git" / "refs" / "heads" / "gitmem").mkdir()
    taken = repo / ".git" / "refs" / "heads" / "gitmem" / "some-id.lock"
    taken.touch()
    with pytest.raises(GitmemError, match=r"some-id\.lock"):
        store.update_ref("refs/heads/gitmem/some-id", second, None, "test")
    assert store.branch_tip("gitmem/some-id") is None
    # once the locks are gone the same moves succeed
    lock.unlink()
    taken.unlink()
    assert store.update_ref("refs/heads/main", second, first, "test") is True
    assert store.update_ref("refs/heads/gitmem/some-id", second, None, "test") is True
    assert store.delete_ref("refs/heads/gitmem/some-id", second) is True
    assert store.branch_tip("main") == second


def test_a_checkout_with_its_git_directory_elsewhere_is_its_own_work_tree(
    memory: Path, tmp_path: Path
) -> None:
    """`git clone --separate-git-dir` (or `git init --separate-git-dir`) leaves a `.git` file
    in the work tree, and nothing in the git directory pointing back. Opened from the git
    directory discovery found, the repository took that directory's parent for its work
    tree: `gitmem check` judged no file ("0 files checked"), `gitmem index` wrote nothing,
    and every git gitmem ran there failed (admit --push: "there is no remote named origin").
    It is opened from the folder now, through its `.git` file."""
    from clirunner import PROPOSE, run

    server = tmp_path / "server.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(memory), str(server)], check=True)
    work, gitdir = tmp_path / "work2", tmp_path / "elsewhere" / "git"
    gitdir.parent.mkdir()
    subprocess.run(
        ["git", "clone", "-q", f"--separate-git-dir={gitdir}", str(server), str(work)],
        check=True,
    )
    store = Store.open(work / ".gitmem")
    assert store.workdir == work and store.git_dir == gitdir
    proposed = run(work, *PROPOSE)
    assert proposed.exit_code == 0, proposed.output
    entry_id = proposed.output.split()[1]
    result = run(work, "admit", entry_id, "--push")
    assert result.exit_code == 0, result.output
    assert (work / f".gitmem/entries/decision/{entry_id}.md").is_file()
    broken = work / ".gitmem/entries/decision/broken.md"
    broken.write_text("---\nid: x\n---\nbody\n")
    result = run(work, "check")
    assert result.exit_code == 1 and "broken.md" in result.output, result.output


def test_a_head_git_cannot_read_is_named_when_the_repository_opens(memory: Path) -> None:
    """libgit2 opens a git directory whose HEAD is garbage (a crash mid-write, a bad edit),
    and every command then ended at its first look at HEAD in "unexpected error
    (GitError('HEAD: corrupted loose reference file: HEAD'))", exit 3."""
    from clirunner import run

    (memory / ".git" / "HEAD").write_text("garbage\n")
    with pytest.raises(UsageError, match="repair its HEAD"):
        Store.open(memory)
    for args in (["list"], ["check"], ["recall", "hooks"]):
        result = run(memory, *args)
        assert result.exit_code == 2, result.output
        assert "HEAD: corrupted loose reference file: HEAD: repair its HEAD (a line such as " in (
            result.output
        )


@pytest.mark.parametrize(
    "args", [["check", "--staged"], ["hook", "pre-commit"], ["hook", "pre-receive"]]
)
def test_the_hooks_commands_outside_a_repository_say_so_as_every_command_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    """The commands that open the repository from git's environment (a hook's) said only
    libgit2's "cannot open the git repository: Repository not found at ." outside one."""
    from clirunner import run

    outside = tmp_path / "no-repository"
    outside.mkdir()
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    result = run(outside, *args)
    assert result.exit_code == 2, result.output
    assert result.output == (
        f"gitmem: {outside} is not inside a git repository: run gitmem in a repository, or "
        "`git init` one first\n"
    )


#: A command line run on a copy of the repository $1 inside a tmpfs mounted on $0 (in a mount
#: namespace of its own), the tmpfs filled but for $2 blocks of 4 KiB: a disk that fills as
#: the command writes.
_ON_A_NEARLY_FULL_DISK = """
mount -t tmpfs -o size=4m tmpfs "$0" || exit 97
cp -a "$1" "$0/repo" && cd "$0/repo" || exit 98
free=$(df --output=avail -B4096 "$0" | tail -n 1)
dd if=/dev/zero of="$0/filler" bs=4096 count=$((free - $2)) 2>/dev/null
shift 2
exec "$@"
"""


def test_a_disk_that_fills_as_the_commit_is_written_is_named(memory: Path, tmp_path: Path) -> None:
    """libgit2 answers a commit it could not write for a full disk with its id, as if it had
    written it; git update-ref then refused the branch with "trying to write ref ... with
    nonexistent object", and the user never learnt the disk was full. Each free space
    from one block to eight fails a different write of `gitmem propose` (a blob, a tree,
    the commit, the ref's lock, its log): every one now names the repository and the full
    disk (exit 2), and leaves no branch."""
    import sys

    from clirunner import PROPOSE

    unshare = ["unshare", "-m"] if os.geteuid() == 0 else ["unshare", "-r", "-m"]
    mount = tmp_path / "disk"
    mount.mkdir()
    probe = subprocess.run(
        [*unshare, "sh", "-c", 'mount -t tmpfs tmpfs "$0"', str(mount)], capture_output=True
    )
    if probe.returncode != 0:
        pytest.skip(f"no tmpfs in a mount namespace of its own here: {probe.stderr!r}")
    said: dict[int, str] = {}
    for blocks in range(1, 9):
        done = subprocess.run(
            [*unshare, "sh", "-c", _ON_A_NEARLY_FULL_DISK, str(mount), str(memory),
             str(blocks), sys.executable, "-m", "gitmem", *PROPOSE],
            capture_output=True, text=True,
        )  # fmt: skip
        if done.returncode == 0:
            continue
        assert done.returncode == 2, (blocks, done.stderr)
        assert "nonexistent object" not in done.stderr, (blocks, done.stderr)
        assert "No space left on device" in done.stderr, (blocks, done.stderr)
        said[blocks] = done.stderr
    commit = [text for text in said.values() if "the commit " in text]
    assert commit, said  # the write libgit2 calls a success was met
    assert f"cannot write to the git repository at {mount / 'repo' / '.git'}: " in commit[0]
    for text in said.values():
        assert "free some space on the disk, then run the command again" in text, said


def test_a_path_cut_at_a_nul_or_from_the_root_names_nothing(repo: Path) -> None:
    """Store.exists asked libgit2 by name, which stops at a NUL and takes a path from the
    root: `README.md\\0junk` and `/README.md` (which no entry may cite: the gate refuses
    them) were present, and the site showed such a cited path as present. Only a path git
    could hold names a file or folder; the others are never present."""
    (repo / "docs").mkdir()
    (repo / "docs" / "a.md").write_text("a\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "docs")
    store = Store.open(repo)
    tip = store.resolve("HEAD")
    assert tip is not None
    tree = store.tree_of(tip)
    for present in ("README.md", "docs", "docs/a.md"):
        assert store.exists(tree, present), present
    absent = ["README.md\0junk", "docs\0/a.md", "docs/a.md\0", "/README.md", "/docs/a.md"]
    absent += ["//README.md", "docs//a.md", "\0"]
    for path in absent:
        assert not store.exists(tree, path), repr(path)
    assert store.missing(tip, absent) == set(absent)


def _reftable_by_config(repo: Path) -> None:
    """Mark repo as keeping its refs in reftable, as `git init --ref-format=reftable` (git
    2.45 on) does, without needing such a git: the extension in its config is what libgit2
    refuses it by."""
    config = repo / ".git" / "config"
    text = config.read_text().replace("repositoryformatversion = 0", "repositoryformatversion = 1")
    config.write_text(text + "[extensions]\n\trefStorage = reftable\n")


def test_a_reftable_repository_is_refused_saying_what_to_do(repo: Path) -> None:
    """libgit2 reads refs kept in files only. A reftable repository (git 3.0's planned
    default) was refused with libgit2's "unsupported extension name extensions.refstorage"
    alone; it is refused (exit 2) naming reftable and the way back to files refs, and any
    other extension libgit2 lacks is named as such."""
    _reftable_by_config(repo)
    with pytest.raises(UsageError) as raised:
        Store.open(repo)
    said = raised.value.message
    assert "reftable" in said and "git refs migrate --ref-format=files" in said, said
    assert said.startswith(str(repo)), said
    assert raised.value.exit_code == 2

    config = repo / ".git" / "config"
    config.write_text(config.read_text().replace("refStorage = reftable", "madeUp = yes"))
    with pytest.raises(UsageError, match=r"needs the git extension extensions\.madeup"):
        Store.open(repo)


def _git_makes_reftable(tmp_path: Path) -> bool:
    probe = tmp_path / "probe"
    done = subprocess.run(
        ["git", "init", "-q", "--ref-format=reftable", str(probe)], capture_output=True
    )
    return done.returncode == 0


@pytest.mark.e2e
def test_commands_and_hooks_in_a_real_reftable_repository(tmp_path: Path) -> None:
    """With a git that makes reftable repositories: every command refuses one (exit 2, no
    traceback), and a gitmem hook shared by a global core.hooksPath lets a commit in one
    that keeps no memory through with one line saying so."""
    if not _git_makes_reftable(tmp_path):
        pytest.skip("this git makes no reftable repository (git 2.45 or later does)")
    from conftest import run_gitmem

    work = tmp_path / "work"
    git(tmp_path, "init", "-q", "-b", "main", "--ref-format=reftable", str(work))
    (work / "README.md").write_text("# project\n")
    git(work, "add", "README.md")
    git(work, "commit", "-q", "-m", "initial")
    for args in (["list"], ["recall", "hooks"], ["check"], ["init"], ["hooks", "install"]):
        done = run_gitmem(work, *args)
        assert done.returncode == 2 and "reftable" in done.stderr, (args, done.stderr)
        assert "Traceback" not in done.stderr, done.stderr
    assert not (work / ".gitmem").exists()
    assert not (work / ".git" / "hooks" / "pre-commit").exists()  # refused before writing

    # gitmem's hooks shared by the user's global core.hooksPath run in every repository
    from gitmem.hooks.installer import THIS_PYTHON, script

    shared = tmp_path / "everyones-hooks"
    shared.mkdir()
    hook = shared / "pre-commit"
    hook.write_bytes(script("pre-commit", THIS_PYTHON))
    hook.chmod(0o755)
    config = tmp_path / "gitconfig"
    config.write_text(f"[core]\n\thooksPath = {shared}\n")
    env = {**os.environ, "GIT_CONFIG_GLOBAL": str(config)}
    (work / "notes.txt").write_text("no memory here\n")
    git(work, "add", "notes.txt")
    done = subprocess.run(
        ["git", "commit", "-q", "-m", "notes"], cwd=work, env=env, capture_output=True, text=True
    )
    said = [line for line in done.stderr.splitlines() if "gitmem" in line]
    assert done.returncode == 0 and len(said) == 1, done.stderr
    assert "reftable" in said[0] and "passed unjudged" in said[0], said


def test_a_tree_is_never_written_through_a_submodule_or_a_file(repo: Path) -> None:
    """build_tree put a folder in place of whatever stood at a folder of the path: with
    memory.dir under a submodule that is not checked out (an empty folder, which the settings
    cannot tell from any other), `gitmem propose` wrote a candidate whose tree held vendor/
    as a folder instead of the submodule's commit, and its admission deleted the submodule
    from main. Refused, naming what stands there."""
    store = Store.open(repo)
    blob = store.write_blob(b"text\n")
    commit = git(repo, "rev-parse", "HEAD").strip()
    base = _mktree(
        repo,
        [
            ("160000", "commit", commit, b"vendor"),
            ("100644", "blob", blob, b"notes.md"),
            ("120000", "blob", blob, b"link"),
        ],
    )
    for path, what in (
        ("vendor/mem/candidates/x.md", "vendor is a submodule"),
        ("notes.md/x.md", "notes.md is a file or a symbolic link"),
        ("link/x.md", "link is a file or a symbolic link"),
    ):
        with pytest.raises(UsageError, match=what):
            store.build_tree(base, {path: (blob, BLOB)})
    tree = store.build_tree(base, {"mem/x.md": (blob, BLOB)})
    assert git(repo, "ls-tree", tree, "vendor").startswith(f"160000 commit {commit}")
