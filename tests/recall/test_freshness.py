"""gitmem.recall.freshness on a real history, asked through git alone (an agent's hook) and
through the opened repository (recall, MCP): the same answer, and a failing question fails."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitmem.recall.freshness import Freshness, freshness
from gitmem.repo.gitcli import History
from gitmem.repo.store import Store

from conftest import git


def commit(repo: Path, files: dict[str, str], message: str) -> str:
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip()


def test_stale_missing_and_unknown_entries_through_both_readers(repo: Path) -> None:
    commit(repo, {"src/a.py": "a\n", "src/b.py": "b\n"}, "code")
    commit(repo, {"m/old.md": "old\n", "m/gone.md": "gone\n"}, "admit old and gone")
    commit(repo, {"src/a.py": "a2\n"}, "touch a")
    commit(repo, {"src/a.py": "a3\n", "src/b.py": "b2\n"}, "touch a and b")
    git(repo, "rm", "-q", "src/b.py")
    tip = commit(repo, {"m/new.md": "new\n"}, "admit new, delete b")
    entries = [
        ("m/old.md", ["src/a.py", "src/b.py"]),  # a touched twice since; b is gone
        ("m/gone.md", ["src/b.py"]),  # its only file is gone: nothing to count
        ("m/new.md", ["src/a.py"]),  # admitted after every touch
        ("m/nowhere.md", ["src/a.py"]),  # no commit added it: counts none
        ("m/plain.md", []),
    ]
    expected = [
        Freshness(2, ("src/b.py",)),
        Freshness(0, ("src/b.py",)),
        Freshness(0, ()),
        Freshness(0, ()),
        Freshness(0, ()),
    ]
    assert freshness(History(repo), tip, entries) == expected
    assert freshness(Store.open(repo), tip, entries) == expected
    assert expected[0].note == (
        "cites missing file src/b.py; may be stale: 2 commits touched its files since admission"
    )


def _clone(origin: Path, folder: Path, *depth: str) -> tuple[Path, str]:
    """A real clone of origin (shallow with `--depth N`), and its tip."""
    git(folder.parent, "clone", "-q", *depth, f"file://{origin}", str(folder))
    return folder, git(folder, "rev-parse", "HEAD").strip()


def _both(clone: Path, tip: str, entries: list[tuple[str, list[str]]]) -> list[Freshness]:
    """The freshness as git alone and the opened repository answer it: always the same."""
    through_git = freshness(History(clone), tip, entries)
    # a hook's History knows the common directory and reads git's `shallow` file itself
    assert freshness(History(clone, clone / ".git"), tip, entries) == through_git
    assert freshness(Store.open(clone), tip, entries) == through_git
    return through_git


def test_a_shallow_clone_cut_before_the_admission_says_unknown_never_fresh(
    repo: Path, tmp_path: Path
) -> None:
    """In a clone cut before an entry's admission git takes the commit at the cut for a root
    adding every file: the admission was found there and no commit counted since, so an entry
    whose files changed twice after it was "fresh: its files are unchanged". Cut at the
    admission itself it cannot be told either (git says every file was added there); deep
    enough to hold the commit before it, the clone answers as a full one."""
    commit(repo, {"src/a.py": "a\n", "src/b.py": "b\n"}, "code")
    commit(repo, {"m/e.md": "e\n", "m/quiet.md": "q\n"}, "admit e and quiet")
    commit(repo, {"src/a.py": "a2\n"}, "touch a")
    commit(repo, {"src/a.py": "a3\n"}, "touch a again")
    entries = [
        ("m/e.md", ["src/a.py"]),  # touched twice since its admission
        ("m/quiet.md", ["src/b.py"]),  # untouched since
        ("m/gone.md", ["src/gone.py"]),  # cites a file no commit holds: missing, as ever
        ("m/plain.md", []),
    ]
    whole = [Freshness(2, ()), Freshness(0, ()), Freshness(0, ("src/gone.py",)), Freshness()]
    full, tip = _clone(repo, tmp_path / "full")
    assert _both(full, tip, entries) == whole
    unknown = [Freshness(None, ()), Freshness(None, ()), *whole[2:]]
    for depth in ("1", "3"):  # cut above the admission, then at it
        shallow, tip = _clone(repo, tmp_path / f"depth{depth}", "--depth", depth)
        assert _both(shallow, tip, entries) == unknown
    assert unknown[0].note == (
        "freshness unknown: this clone's history is shallow; run git fetch --unshallow to judge"
    )
    deep, tip = _clone(repo, tmp_path / "deep", "--depth", "4")
    assert (deep / ".git" / "shallow").is_file()
    assert _both(deep, tip, entries) == whole


def test_a_merged_branch_cut_short_after_the_admission_is_unknown_too(
    repo: Path, tmp_path: Path
) -> None:
    """A clone deep enough on the main line can still cut a longer branch merged after the
    admission. Where that branch changed the cited file, git's count walks into it and takes
    the commit at the cut for a root adding the file, missing those before it: 2 here, where
    a full clone counts 3. That is unknown as well; an entry whose count never reaches the
    cut (its file untouched on the branch) is judged as in the full clone."""
    commit(repo, {"src/a.py": "a\n", "src/b.py": "b\n"}, "code")
    commit(repo, {"m/e.md": "e\n", "m/q.md": "q\n"}, "admit e and q")
    git(repo, "checkout", "-q", "-b", "side")
    for n in range(4):
        commit(repo, {"src/a.py": f"a{n}\n"} if n != 2 else {"src/s.py": "s\n"}, f"side {n}")
    git(repo, "checkout", "-q", "main")
    commit(repo, {"src/c.py": "c\n"}, "main goes on")
    git(repo, "merge", "-q", "--no-ff", "-m", "merge side", "side")
    entries = [("m/e.md", ["src/a.py"]), ("m/q.md", ["src/b.py"])]
    full, tip = _clone(repo, tmp_path / "full")
    assert _both(full, tip, entries) == [Freshness(3, ()), Freshness(0, ())]
    cut, tip = _clone(repo, tmp_path / "cut", "--depth", "4")
    shallow = set((cut / ".git" / "shallow").read_text().split())
    # the admission is held with its parent; the branch is cut at its second commit
    assert git(repo, "rev-parse", "main~3").strip() in shallow
    assert git(repo, "rev-parse", "side~2").strip() in shallow
    assert _both(cut, tip, entries) == [Freshness(None, ()), Freshness(0, ())]


def test_a_failing_admission_walk_is_raised_not_swallowed(repo: Path) -> None:
    tip = git(repo, "rev-parse", "HEAD").strip()

    class Broken(History):
        def first_added(self, tip: str, paths: list[str]) -> dict[str, str]:
            raise OSError("git log failed")

    with pytest.raises(OSError, match="git log failed"):
        freshness(Broken(repo), tip, [("m/x.md", ["README.md"])])


# -- changed-path filters: the one-path-at-a-time walk against a model of the history ------


def _model_newest(repo: Path, tip: str, paths: list[str], *, added: bool) -> dict[str, str]:
    """The reference: for each path, the newest commit on tip's first-parent chain whose tree
    holds it where its first parent's does not (added), or holds other content (changed), a
    folder by any file below it, read from each commit's whole tree by `git ls-tree`, never
    from a path-limited walk."""
    chain = git(repo, "rev-list", "--first-parent", tip).split()
    trees: dict[str, dict[str, str]] = {}

    def tree(commit: str | None) -> dict[str, str]:
        if commit is None:
            return {}
        if commit not in trees:
            listing = git(repo, "ls-tree", "-r", commit).splitlines()
            trees[commit] = {line.split("\t")[1]: line.split()[2] for line in listing}
        return trees[commit]

    found: dict[str, str] = {}
    for commit in chain:  # newest first
        parents = git(repo, "rev-list", "--parents", "-n", "1", commit).split()[1:]
        now, before = tree(commit), tree(parents[0] if parents else None)
        for path in paths:
            # a folder counts by the files below it
            files = {path} | {f for f in (*now, *before) if f.startswith(f"{path}/")}
            if added:
                newest = any(f in now and f not in before for f in files)
            else:
                newest = any(now.get(f) != before.get(f) for f in files)
            if newest and path not in found:
                found[path] = commit
    return found


def test_the_walk_one_path_at_a_time_agrees_with_a_model_of_the_history(repo: Path) -> None:
    """Random first-parent histories with merges, deletions and re-additions: with git's
    changed-path filters (each path asked alone) and without them (one walk for all), the
    newest commit that added, and that changed, each path is the model's."""
    import random

    from gitmem.repo import gitcli

    rng = random.Random(20)
    # "m" is a folder: a walk finds it by the files below it (git lists no folder)
    paths = [f"m/{name}.md" for name in "abcdef"] + ["src/x.py", "m/never.md", "m"]
    for step in range(40):
        if step % 9 == 8:  # a merge whose second parent adds or changes a path
            git(repo, "checkout", "-q", "-b", f"side{step}")
            commit(repo, {rng.choice(paths[:7]): f"side {step}\n"}, "side")
            git(repo, "checkout", "-q", "main")
            git(repo, "merge", "-q", "--no-ff", "-m", "merge", f"side{step}")
            continue
        path = rng.choice(paths[:7])
        if (repo / path).exists() and rng.random() < 0.3:
            git(repo, "rm", "-q", path)
            git(repo, "commit", "-q", "-m", "delete")
        else:
            commit(repo, {path: f"{step}\n"}, "write")
    tip = git(repo, "rev-parse", "HEAD").strip()
    common = repo / ".git"
    expected = {added: _model_newest(repo, tip, paths, added=added) for added in (True, False)}

    # asked all at once (more than ONE_BY_ONE_MAX: one walk even with filters) and in groups
    # small enough to be asked one path at a time where the filters are there
    groups = [paths, [*paths[:4], "m"], paths[4:]]
    assert len(paths) > gitcli.ONE_BY_ONE_MAX >= max(len(g) for g in groups[1:])

    def walked(group: list[str]) -> dict[bool, dict[str, str]]:
        return {
            added: gitcli.newest_per_path(
                repo, tip, group, "%H", ["--diff-filter=A"] if added else [], common_dir=common
            )
            for added in (True, False)
        }

    def wanted(group: list[str]) -> dict[bool, dict[str, str]]:
        return {k: {p: c for p, c in v.items() if p in group} for k, v in expected.items()}

    assert not gitcli.has_path_filters(common)
    for group in groups:
        assert walked(group) == wanted(group)  # one walk for all the paths
    writing = gitcli.write_path_filters(repo, limit=None)
    assert writing is not None and writing.wait() == 0
    assert gitcli.has_path_filters(common)
    for group in groups:
        assert walked(group) == wanted(group)  # each path alone, through the filters


def test_path_filters_are_detected_only_in_a_graph_that_has_them(repo: Path) -> None:
    from gitmem.repo import gitcli

    common = repo / ".git"
    info = common / "objects" / "info"
    assert not gitcli.has_path_filters(common)  # no commit-graph at all
    git(repo, "commit-graph", "write", "--reachable", "--no-changed-paths")
    assert (info / "commit-graph").is_file() and not gitcli.has_path_filters(common)
    writing = gitcli.write_path_filters(repo, limit=1)
    assert writing is not None and writing.wait() == 0
    assert gitcli.has_path_filters(common)
    (info / "commit-graph").write_bytes(b"not a graph")
    assert not gitcli.has_path_filters(common)
    (info / "commit-graph").unlink()
    commit(repo, {"a.txt": "a\n"}, "one more")
    git(repo, "commit-graph", "write", "--reachable", "--split", "--changed-paths")
    assert (info / "commit-graphs" / "commit-graph-chain").is_file()
    assert gitcli.has_path_filters(common)  # every layer of a chain has them


def test_a_cited_path_no_tree_can_hold_is_missing_through_both_readers(repo: Path) -> None:
    """An entry that reached the memory without the gate may cite a path no tree holds: one
    with a line break, `..`, `.`, an empty part or a leading slash. The opened repository
    (recall, MCP) called it missing; git alone (an agent's hook, a warm recall) raised on a
    line break, failed on `../` ("outside repository") and read `./README.md` as the file
    beside it, so the same recall answered at first and ended in an unexpected error (exit
    3) once warm. Both now call such a path missing, and the files beside it still count."""
    commit(repo, {"src/a.py": "a\n", "m/e.md": "e\n"}, "admit e")
    tip = commit(repo, {"src/a.py": "a2\n"}, "touch a")
    odd = ["a\nb.py", "../outside.py", "./src/a.py", "src//a.py", "/src/a.py", "src/a.py/",
           "src/./a.py", "src/../src/a.py", "a\rb.py", "."]  # fmt: skip
    entries = [("m/e.md", ["src/a.py", *odd])]
    expected = [Freshness(1, tuple(odd))]
    assert freshness(History(repo), tip, entries) == expected
    assert freshness(Store.open(repo), tip, entries) == expected


def test_a_cited_submodule_is_present_through_both_readers(repo: Path) -> None:
    """A cited path may be a submodule (`files: [vendor/lib]`): its tree entry names a commit
    of another repository, which this one does not hold. The opened repository (recall's
    full path, MCP) found the entry and called it present; git alone (a warm recall, an
    agent's hook) asked `git cat-file`, which looks the commit up, found no such object and
    called the submodule a missing file: the same recall said "cites missing file" once
    warm."""
    lib = repo / "vendor" / "lib"  # a repository of its own, whose commits this one lacks
    lib.mkdir(parents=True)
    git(lib, "init", "-q")
    commit(lib, {"x.py": "x\n"}, "lib")
    commit(repo, {"src/a.py": "a\n"}, "code, and the submodule")
    commit(repo, {"m/e.md": "e\n"}, "admit e, citing the submodule")
    commit(lib, {"x.py": "x2\n"}, "lib moves on")
    tip = commit(repo, {"src/a.py": "a2\n"}, "bump the submodule, touch a")
    assert "160000 commit" in git(repo, "ls-tree", tip, "vendor/lib")
    entries = [("m/e.md", ["vendor/lib", "src/a.py", "vendor/lib/x.py", "vendor/gone"])]
    expected = [Freshness(1, ("vendor/lib/x.py", "vendor/gone"))]
    assert freshness(Store.open(repo), tip, entries) == expected
    assert freshness(History(repo), tip, entries) == expected


def test_many_gone_files_are_asked_again_a_few_processes_at_a_time(repo: Path) -> None:
    """Each cited file `git cat-file` calls missing is asked again of `git rev-parse` (a
    submodule is no missing file); after a refactor an entry may cite 50 files that are all
    gone, and memory_recent asks 100 entries: their questions run a bounded number of git
    processes at a time, never one process per file at once."""
    commit(repo, {"src/a.py": "a\n", "m/e.md": "e\n"}, "admit e")
    tip = commit(repo, {"src/a.py": "a2\n"}, "touch a")
    gone = [f"src/gone{n}.py" for n in range(50)]
    batches: list[int] = []

    class Counting(History):
        def run_git_all(self, commands: list[list[str]]) -> list[str]:
            batches.append(len(commands))
            return super().run_git_all(commands)

    entries = [("m/e.md", ["src/a.py", *gone])]
    assert freshness(Counting(repo), tip, entries) == [Freshness(1, tuple(gone))]
    asked_again = batches[:-1]  # the last batch counts the commits since the admission
    assert sum(asked_again) == 50 and max(asked_again) <= 16


def test_a_replace_ref_changes_no_count_and_no_kept_one(repo: Path) -> None:
    """`git replace` makes git read another commit in place of the one named, while the tip
    and its id stay: git's walks and lookups read the replacements, pygit2 (the opened
    repository) does not, and the hooks keep their counts by tip id. A replace ref put on the
    tip and on a commit that touched a cited file had the hook's git count 0 and call the
    file missing, the opened repository count 1, and the counts kept for that tip go on
    being read. Freshness reads the commits as they are, through either reader."""
    from gitmem.agents import state

    first = commit(repo, {"a.py": "a\n", "e.md": "e\n"}, "admit e, citing a.py")
    touched = commit(repo, {"a.py": "a2\n"}, "touch a")
    tip = commit(repo, {"a.py": "a3\n"}, "touch a again")
    entries = [("e.md", ["a.py"])]
    expected = [Freshness(2, ())]
    assert freshness(History(repo), tip, entries) == expected
    common = repo / ".git"
    state.remember_freshness(common, tip, {"e.md": expected[0]})
    untouched = git(repo, "commit-tree", f"{first}^{{tree}}", "-p", first, "-m", "no touch")
    listing = git(repo, "ls-tree", tip).splitlines()
    kept = "".join(f"{line}\n" for line in listing if not line.endswith("\ta.py"))
    without = git(repo, "mktree", input=kept).strip()
    gone = git(repo, "commit-tree", without, "-p", touched, "-m", "a.py gone")
    git(repo, "replace", touched, untouched.strip())
    git(repo, "replace", tip, gone.strip())
    assert git(repo, "rev-parse", "HEAD").strip() == tip
    assert git(repo, "ls-tree", "--name-only", "HEAD").split() == ["README.md", "e.md"]
    assert freshness(History(repo), tip, entries) == expected
    assert freshness(Store.open(repo), tip, entries) == expected
    assert state.freshness_known(common, tip) == {"e.md": expected[0]}
