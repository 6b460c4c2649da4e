"""`gitmem recall` on real repositories: admitted entries only, freshness, the cache in the git
directory (updates, corruption, concurrency), and queries that are text, never syntax."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from clirunner import HOOKS, PROPOSE, SECRETS, admit, ok, recall_json, run

from gitmem.recall import semantic
from gitmem.recall.cache import RecallCache
from gitmem.repo.store import Store
from gitmem.repo.workspace import open_workspace

from conftest import git, read_only


@pytest.fixture
def recalled(memory: Path) -> tuple[Path, str, str]:
    return memory, admit(memory, HOOKS), admit(memory, SECRETS)


def test_recall_ranks_admitted_entries_and_gates_the_rest(recalled: tuple[Path, str, str]) -> None:
    repo, hooks, secrets = recalled
    hits = recall_json(repo, "pygit2 in a git hook")
    assert hits[0]["id"] == hooks
    assert 0 < float(str(hits[0]["score"])) <= 1
    assert recall_json(repo, "how do I bake sourdough bread") == []
    text = ok(run(repo, "recall", "how do I bake sourdough bread")).output
    assert text.startswith("no precedent")
    assert [h["id"] for h in recall_json(repo, "secrets", "--type", "decision")] == []
    assert [h["id"] for h in recall_json(repo, "scan secrets", "--step", "spec")] == [secrets]


def test_an_empty_query_is_refused_but_a_hook_asking_precedents_gets_none(
    recalled: tuple[Path, str, str],
) -> None:
    """`gitmem recall "$QUERY"` with QUERY empty answered "no precedent", read as the
    memory's word that nothing applies; it is a usage error now. A hook asking for the
    precedents block is answered with none, never failed."""
    repo = recalled[0]
    for query in ["", "  ", "\t"]:
        for fmt in ("text", "json"):
            done = run(repo, "recall", query, "--format", fmt)
            assert done.exit_code == 2, done.output
            assert "the query is empty" in done.output
    assert ok(run(repo, "recall", "", "--format", "precedents")).exit_code == 0


def test_candidates_and_superseded_entries_never_come_back(recalled: tuple[Path, str, str]) -> None:
    repo, hooks, _ = recalled
    cache = ["propose", "--type", "method", "--title", "Cache pygit2 repositories in hooks"]
    ok(run(repo, *cache, "--applies-when", "hooks open the repository", "--content", "Once."))
    assert all("cache" not in str(h["id"]) for h in recall_json(repo, "pygit2 hooks cache"))
    successor = admit(
        repo,
        ["propose", "--type", "decision", "--title", "Use pygit2 everywhere in gitmem",
         "--applies-when", "reading git objects in a hook or a command",
         "--content", "pygit2 for all reads.", "--supersedes", hooks],
    )  # fmt: skip
    ids = [h["id"] for h in recall_json(repo, "pygit2 hooks")]
    assert hooks not in ids and successor in ids


def test_freshness_counts_commits_touching_cited_files(recalled: tuple[Path, str, str]) -> None:
    repo, _, _ = recalled
    assert recall_json(repo, "pygit2 hook")[0]["stale_commits"] == 0
    for n in range(2):
        (repo / "README.md").write_text(f"# project {n}\n")
        git(repo, "commit", "-q", "-am", f"edit readme {n}")
    hit = recall_json(repo, "pygit2 hook")[0]
    assert hit["stale_commits"] == 2
    assert "may be stale: 2 commits" in ok(run(repo, "recall", "pygit2 hook")).output
    git(repo, "rm", "-q", "README.md")
    git(repo, "commit", "-q", "-m", "drop readme")
    assert recall_json(repo, "pygit2 hook")[0]["missing_files"] == ["README.md"]


def test_a_shallow_clone_says_freshness_is_unknown_never_fresh(
    recalled: tuple[Path, str, str], tmp_path: Path
) -> None:
    """A clone of depth 1 holds no commit before its tip: git calls every file added there,
    so the entry whose README.md changed twice after its admission was recalled as fresh
    (`stale_commits` 0, "fresh: its files are unchanged" for a model). Its freshness is
    unknown, JSON null, until `git fetch --unshallow` brings the history that judges it."""
    repo, hooks, _ = recalled
    for n in range(2):
        (repo / "README.md").write_text(f"# project {n}\n")
        git(repo, "commit", "-q", "-am", f"edit readme {n}")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{repo}", str(clone))
    hit = recall_json(clone, "pygit2 hook")[0]
    assert (hit["id"], hit["stale_commits"], hit["missing_files"]) == (hooks, None, [])
    unknown = "freshness unknown: this clone's history is shallow; run git fetch --unshallow"
    assert unknown in ok(run(clone, "recall", "pygit2 hook")).output
    block = ok(run(clone, "recall", "--format", "precedents", "pygit2 hook")).output
    assert unknown in block and "fresh: its files are unchanged" not in block
    git(clone, "fetch", "-q", "--unshallow")
    assert recall_json(clone, "pygit2 hook")[0]["stale_commits"] == 2


def test_recall_at_another_ref_without_a_checkout(recalled: tuple[Path, str, str]) -> None:
    repo, hooks, _ = recalled
    git(repo, "branch", "before", "main~1")  # before the second admission
    assert [h["id"] for h in recall_json(repo, "secrets scanner", "--ref", "before")] == []
    assert recall_json(repo, "pygit2 hooks", "--ref", "before")[0]["id"] == hooks
    missing = run(repo, "recall", "x", "--ref", "nowhere")
    assert missing.exit_code == 2
    # an empty --ref names no commit, as in git; it was taken for no --ref (the memory branch)
    empty = run(repo, "recall", "pygit2 hooks", "--ref", "")
    assert empty.exit_code == 2 and "--ref '' is not a commit here" in empty.output, empty.output
    long = run(repo, "recall", "x", "--ref", "r" * 100_000)
    assert long.exit_code == 2 and "(100,000 characters)" in long.output, long.output[:300]


def test_precedents_block_and_never_failing(recalled: tuple[Path, str, str]) -> None:
    repo, hooks, _ = recalled
    block = ok(run(repo, "recall", "--format", "precedents", "code inside a git hook")).output
    assert block.startswith("## Precedents\n") and hooks in block
    empty = ok(run(repo, "recall", "--format", "precedents", "sourdough")).output
    assert "No precedent" in empty
    broken = run(repo, "recall", "--format", "precedents", "--ref", "nowhere", "hooks")
    assert broken.exit_code == 0 and broken.stdout == ""
    assert "recall could not run" in broken.stderr


@pytest.mark.parametrize(
    "query",
    ["the of and a to", "???!!!...", '"unterminated', "pygit2*", "NEAR hooks",
     "-hooks", "hooks:pygit2", "x" * 100_000, "word " * 20_000],
)  # fmt: skip
def test_queries_are_text_never_syntax(recalled: tuple[Path, str, str], query: str) -> None:
    repo, _, _ = recalled
    result = run(repo, "recall", "--format", "json", "--", query)
    assert result.exit_code == 0, result.output
    json.loads(result.output)


def test_a_repository_without_memory(repo: Path) -> None:
    assert ok(run(repo, "recall", "anything")).output.startswith("no precedent")


def test_the_cache_is_updated_by_the_diff(recalled: tuple[Path, str, str]) -> None:
    repo, _, _ = recalled
    recall_json(repo, "hooks")
    ws = open_workspace(repo)
    cache = RecallCache(ws.store, ws.dir)
    state = json.loads((cache.root / "state.json").read_text())
    parts_before = set(state["trees"][0]["parts"])
    admit(
        repo,
        ["propose", "--type", "method", "--title", "Name branches after ids",
         "--applies-when", "a candidate branch is created", "--content", "gitmem/<id>."],
    )  # fmt: skip
    assert recall_json(repo, "candidate branch names")[0]["id"].endswith("name-branches-after-ids")
    state = json.loads((cache.root / "state.json").read_text())
    assert len(state["trees"]) == 2  # the previous tree is remembered too
    new_parts = set(state["trees"][0]["parts"]) - parts_before
    assert len([p for p in new_parts if len(p) == 32]) == 1  # one small index segment


@pytest.mark.parametrize(
    "damage",
    ["garbage-state", "truncated-segment", "missing-segment", "flipped-bytes", "fifo-segment",
     "state-linked-to-an-endless-file", "state-nested-past-the-stack"],
)  # fmt: skip
def test_a_damaged_cache_is_set_aside_and_rebuilt(recalled: tuple[Path, str, str],
                                                  damage: str) -> None:  # fmt: skip
    repo, hooks, _ = recalled
    recall_json(repo, "hooks")
    ws = open_workspace(repo)
    root = RecallCache(ws.store, ws.dir).root
    segment = sorted((root / "segments").iterdir())[0]
    if damage == "garbage-state":
        (root / "state.json").write_bytes(b"\x00\xff not json")
    elif damage == "truncated-segment":
        segment.write_bytes(segment.read_bytes()[:20])
    elif damage == "flipped-bytes":
        data = bytearray(segment.read_bytes())
        for at in range(40, len(data) - 8, 7):
            data[at] ^= 0xFF
        segment.write_bytes(bytes(data))
    elif damage == "fifo-segment":  # a read of it would block every recall
        segment.unlink()
        os.mkfifo(segment)
    elif damage == "state-nested-past-the-stack":  # json's decoder recursed past the limit
        nested = "[" * 200_000 + "]" * 200_000
        (root / "state.json").write_text(f'{{"version": 2, "trees": {nested}}}')
    elif damage == "state-linked-to-an-endless-file":
        (root / "state.json").unlink()
        (root / "state.json").symlink_to("/dev/zero")
    else:
        segment.unlink()
    assert recall_json(repo, "pygit2 hooks")[0]["id"] == hooks
    assert list(root.parent.glob("recall.broken-*")), "the broken cache is kept aside"
    assert recall_json(repo, "pygit2 hooks")[0]["id"] == hooks
    (root / "state.json").write_bytes(b"broken again")
    assert recall_json(repo, "pygit2 hooks")[0]["id"] == hooks
    kept = list(root.parent.glob("recall.broken-*"))
    assert len(kept) == 1, "only the newest broken cache is kept"
    assert (kept[0] / "state.json").read_bytes() == b"broken again"


def test_concurrent_recalls_while_the_cache_is_built(recalled: tuple[Path, str, str]) -> None:
    repo, hooks, _ = recalled
    ws = open_workspace(repo)
    root = RecallCache(ws.store, ws.dir).root
    if root.exists():
        import shutil

        shutil.rmtree(root)
    cmd = [sys.executable, "-m", "gitmem", "recall", "--format", "json", "pygit2 hooks"]

    def one(_: int) -> subprocess.CompletedProcess[str]:
        return subprocess.run(cmd, cwd=repo, capture_output=True, text=True, env=os.environ)

    with ThreadPoolExecutor(max_workers=6) as pool:
        results = list(pool.map(one, range(6)))
    for result in results:
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout)[0]["id"] == hooks
    assert not list(root.parent.glob("recall.broken-*"))


def test_post_merge_hook_warms_the_cache(recalled: tuple[Path, str, str]) -> None:
    repo, _, _ = recalled
    ws = open_workspace(repo)
    cache = RecallCache(ws.store, ws.dir)
    if cache.root.exists():
        import shutil

        shutil.rmtree(cache.root)
    from gitmem.lifecycle import refresh

    refresh.refresh(ws)
    state = json.loads((cache.root / "state.json").read_text())
    memory_tree = ws.store.subtree(ws.store.tree_of(ws.main_tip() or ""), ws.dir)
    assert state["trees"][0]["tree"] == ws.store.subtree(memory_tree, "entries")


def test_a_large_memorys_refresh_keeps_gits_changed_path_filters(
    recalled: tuple[Path, str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """From PATH_FILTERS_MIN entries on, the post-* hooks' refresh starts git writing its
    commit-graph with changed-path filters (and does not wait for it); below, it does not.
    The real write runs; the test only keeps hold of the process to wait for it."""
    from gitmem.lifecycle import refresh
    from gitmem.repo import gitcli

    started: list[subprocess.Popen[bytes] | None] = []
    write = gitcli.write_path_filters

    def kept(folder: Path) -> subprocess.Popen[bytes] | None:
        started.append(write(folder))
        return started[-1]

    monkeypatch.setattr(gitcli, "write_path_filters", kept)
    repo, _, _ = recalled
    ws = open_workspace(repo)
    entries = len(list((repo / ws.dir / "entries").rglob("*.md")))
    monkeypatch.setattr(refresh, "PATH_FILTERS_MIN", entries + 1)
    refresh.warm_recall_cache(ws)
    assert started == [] and not gitcli.has_path_filters(ws.store.common_dir)
    monkeypatch.setattr(refresh, "PATH_FILTERS_MIN", entries)
    refresh.warm_recall_cache(ws)
    assert len(started) == 1 and started[0] is not None and started[0].wait() == 0
    assert gitcli.has_path_filters(ws.store.common_dir)


def test_semantic_recall_can_be_switched_off(recalled: tuple[Path, str, str]) -> None:
    repo, hooks, _ = recalled
    os.environ["GITMEM_SEMANTIC"] = "false"
    assert recall_json(repo, "pygit2 hooks")[0]["id"] == hooks
    ws = open_workspace(repo)
    state = json.loads((RecallCache(ws.store, ws.dir).root / "state.json").read_text())
    assert state["trees"][0]["vectors"] is None


def test_a_hit_carries_the_files_its_entry_cites(recalled: tuple[Path, str, str]) -> None:
    """The cache keeps each entry's cited files, as the parser reads them (a flow list or a
    block list alike), so a recall asks their freshness without reading the entry again."""
    from gitmem.recall.cache import RecallCache
    from gitmem.recall.engine import Doc, Index
    from gitmem.repo.store import Store

    repo, hooks, _ = recalled
    assert recall_json(repo, "pygit2 in a git hook")[0]["files"] == ["README.md"]
    store = Store.open(repo)
    tree = store.tree_of(store.branch_tip("main") or "")
    path = f".gitmem/entries/decision/{hooks}.md"
    block = (repo / path).read_text().replace("files: [README.md]", "files:\n  - README.md")
    assert block != (repo / path).read_text()
    edited = store.build_tree(tree, {path: (store.write_blob(block.encode()), 0o100644)})
    loaded = RecallCache(store, ".gitmem", semantic=False).load(store.subtree(edited, ".gitmem"))
    hit = loaded.index.hit(hooks, 1.0)
    assert hit is not None and hit.files == ("README.md",)
    # a path with the separator's character (no admitted entry can hold one) stays one path
    doc = Doc("x", "method", "t", "w", (), "b", "p.md", ("a\x1fb", "c"))
    again = Index.from_bytes(Index.build([doc]).to_bytes()).hit("x", 1.0)
    assert again is not None and again.files == ("a b", "c")


def _many_entries(repo: Path, count: int) -> tuple[Store, str]:
    """A memory tree of count admitted entries, a candidate-status one and a broken one."""
    from gitmem.repo.store import BLOB

    from entries import text

    store = Store.open(repo)
    files = {}
    for n in range(count):
        entry_id = f"shop-method-20261129-step-{n}"
        data = text(id=entry_id, status="admitted", admitted_by="human:bo", admitted="2026-11-29")
        files[f".gitmem/entries/method/{entry_id}.md"] = (store.write_blob(data.encode()), BLOB)
    files[".gitmem/entries/method/shop-method-20261129-pending.md"] = (
        store.write_blob(text(id="shop-method-20261129-pending").encode()),
        BLOB,
    )
    files[".gitmem/entries/method/broken.md"] = (store.write_blob(b"no front matter"), BLOB)
    tree = store.build_tree(None, files)
    entries = store.subtree(tree, ".gitmem/entries")
    assert entries is not None
    return store, entries


def test_a_big_first_build_reads_with_two_processes_and_gets_the_same_docs(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gitmem.recall import cache as cache_module

    store, entries = _many_entries(repo, 40)
    cache = RecallCache(store, ".gitmem", semantic=False)
    alone = sorted(cache._docs(entries), key=lambda d: d.id)
    assert len(alone) == 40
    monkeypatch.setattr(cache_module, "PARALLEL_READ_MIN", 10)
    assert sorted(cache._docs(entries), key=lambda d: d.id) == alone
    # a reader that fails leaves the work to this process: same answer
    parent = os.getpid()
    read_docs = cache_module._read_docs

    def failing_in_child(store: Store, items: list[Any]) -> Any:
        if os.getpid() != parent:
            raise RuntimeError("the forked reader fails")
        return read_docs(store, items)

    monkeypatch.setattr(cache_module, "_read_docs", failing_in_child)
    assert sorted(cache._docs(entries), key=lambda d: d.id) == alone
    # no process to spare: all read here
    monkeypatch.setattr(cache_module, "_read_docs", read_docs)

    def no_fork() -> int:
        raise OSError("Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", no_fork)
    assert sorted(cache._docs(entries), key=lambda d: d.id) == alone


def test_an_entry_moved_to_a_path_that_sorts_first_stays_found(
    recalled: tuple[Path, str, str],
) -> None:
    """The cache update applies the diff's removals before its additions: in path order, the
    new path's addition came first and the old path's removal then dropped the entry."""
    repo, hooks, _ = recalled
    assert recall_json(repo, "pygit2 hooks")[0]["id"] == hooks  # the cache is built
    [old] = list((repo / ".gitmem/entries").glob(f"*/{hooks}.md"))
    new = repo / ".gitmem/entries/aaa" / old.name  # a folder that sorts before every type
    new.parent.mkdir()
    git(repo, "mv", str(old), str(new))
    new.write_text(new.read_text().replace("type: decision", "type: aaa"))  # its own place
    git(repo, "commit", "-q", "--no-verify", "-am", "move it")
    assert recall_json(repo, "pygit2 hooks")[0]["id"] == hooks


@pytest.mark.parametrize("option", [("-k", "0"), ("-k", "-3"), ("--min-score", "nan")])
def test_a_count_or_threshold_that_answers_nothing_is_a_usage_error(
    recalled: tuple[Path, str, str], option: tuple[str, str]
) -> None:
    repo, _, _ = recalled
    result = run(repo, "recall", *option, "pygit2 hooks")
    assert result.exit_code == 2 and "Invalid value" in result.output, result.output


def test_a_moved_memory_folder_is_recalled_at_its_new_path(
    recalled: tuple[Path, str, str],
) -> None:
    """The cache is keyed by the entries tree and the memory folder: after `memory.dir`
    changes, the same entries tree is found at its new path, never cited at the old one;
    and the agents' catalog (gitmem export, memory_recent) says the same."""
    repo, hooks, _ = recalled
    assert str(recall_json(repo, "pygit2 hooks")[0]["path"]).startswith(".gitmem/")
    ok(run(repo, "export", "claude", "-o", "-"))  # the agents' catalog is kept too
    git(repo, "mv", ".gitmem", "memory")
    (repo / ".gitmem.toml").write_text('[memory]\ndir = "memory"\n')
    git(repo, "add", ".gitmem.toml")
    git(repo, "commit", "-q", "--no-verify", "-m", "move the memory folder")
    [hit] = [h for h in recall_json(repo, "pygit2 hooks") if h["id"] == hooks]
    assert str(hit["path"]).startswith("memory/entries/"), hit
    assert (repo / str(hit["path"])).is_file()
    exported = ok(run(repo, "export", "claude", "-o", "-")).output
    assert "memory/entries/" in exported and ".gitmem/entries/" not in exported, exported


def test_an_unknown_type_is_refused_not_answered_with_no_precedent(
    recalled: tuple[Path, str, str],
) -> None:
    """`--type decisions` (a plural, a typo) matched nothing and answered "no precedent",
    which an agent reads as the memory holding none; memory_recall refuses it. The command
    line now refuses it too (exit 2, naming the known types), and a type the project adds in
    its settings is accepted."""
    repo, hooks, _ = recalled
    refused = run(repo, "recall", "--type", "decisions", "pygit2 hooks")
    assert refused.exit_code == 2, refused.output
    assert "unknown type 'decisions'" in refused.output
    assert "decision, method, code-structure, mistake" in refused.output
    (repo / ".gitmem.toml").write_text('[memory]\ntypes = ["runbook"]\n')
    git(repo, "add", ".gitmem.toml")
    git(repo, "commit", "-q", "-m", "a type of our own")
    assert recall_json(repo, "pygit2 hooks", "--type", "runbook") == []
    assert recall_json(repo, "pygit2 hooks", "--type", "decision")[0]["id"] == hooks


def _clone_with_memory_only_on_the_remote(
    memory: Path, tmp_path: Path, remote: str = "origin"
) -> Path:
    """A project keeping its memory on a branch "memory", cloned with main checked out: the
    clone has origin/memory (or remote/memory, the clone's one remote called so) and no
    local memory branch."""
    git(memory, "branch", "-m", "main", "memory")
    (memory / ".gitmem.toml").write_text('[memory]\nbranch = "memory"\n')
    git(memory, "add", ".gitmem.toml")
    git(memory, "commit", "-q", "-m", "the memory on a branch of its own")
    git(memory, "branch", "main")
    server = tmp_path / "server.git"
    git(tmp_path, "clone", "-q", "--bare", str(memory), str(server))
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "-o", remote, "-b", "main", str(server), str(clone))
    return clone


def test_a_memory_branch_missing_here_is_named_not_answered_with_no_precedent(
    memory: Path, tmp_path: Path
) -> None:
    """A project keeps its memory on a branch of its own (memory.branch = "memory"); a clone
    has only origin/memory until someone creates the local branch. recall answered "no
    precedent" and list "no entries", as if the memory were empty; both now say the branch is
    missing here and how to create it (exit 2). --ref origin/memory still recalls."""
    hooks = admit(memory, HOOKS)
    clone = _clone_with_memory_only_on_the_remote(memory, tmp_path)
    for args in (["recall", "pygit2 hooks"], ["list"]):
        result = run(clone, *args)
        assert result.exit_code == 2, (args, result.output)
        assert "memory branch memory does not exist here" in result.output, result.output
        assert "git branch memory origin/memory" in result.output, result.output
    assert recall_json(clone, "pygit2 hooks", "--ref", "origin/memory")[0]["id"] == hooks
    git(clone, "branch", "memory", "origin/memory")
    assert recall_json(clone, "pygit2 hooks")[0]["id"] == hooks


def test_a_memory_branch_only_on_a_remote_not_called_origin_is_named_too(
    memory: Path, tmp_path: Path
) -> None:
    """A clone made with `git clone -o upstream` has upstream/memory: it was told to run
    `git fetch`, which brings nothing new; it is now told to create the branch from
    upstream's, as a clone with an origin is. propose names it too."""
    hooks = admit(memory, HOOKS)
    clone = _clone_with_memory_only_on_the_remote(memory, tmp_path, "upstream")
    for args in (["recall", "pygit2 hooks"], ["list"], PROPOSE):
        result = run(clone, *args)
        assert result.exit_code == 2, (args, result.output)
        assert (
            "the memory branch memory does not exist here (memory.branch: .gitmem.toml): "
            "create it from upstream/memory: git branch memory upstream/memory\n"
        ) in result.output, result.output
    git(clone, "branch", "memory", "upstream/memory")
    assert recall_json(clone, "pygit2 hooks")[0]["id"] == hooks


def test_list_refuses_an_unknown_type_and_a_long_one_is_quoted_briefly(
    recalled: tuple[Path, str, str],
) -> None:
    """`gitmem list --type decisions` answered "no entries" for a memory that holds some;
    it is refused like recall's (exit 2). A type of 100,000 characters was quoted whole in
    the refusal; it is quoted by its start and its length."""
    repo, _, _ = recalled
    refused = run(repo, "list", "--type", "decisions")
    assert refused.exit_code == 2 and "unknown type 'decisions'" in refused.output
    assert "decision" in ok(run(repo, "list", "--type", "decision")).output
    for command in (["list"], ["recall", "pygit2"]):
        result = run(repo, *command, "--type", "x" * 100_000)
        assert result.exit_code == 2, result.output
        assert "(100,000 characters)" in result.output and len(result.output) < 400


@pytest.mark.parametrize("fmt", ["text", "precedents"])
def test_a_query_with_bytes_that_are_not_utf8_is_recalled(
    recalled: tuple[Path, str, str], fmt: str
) -> None:
    """A query argument holding bytes that are not UTF-8 (a file name in Latin-1, a pasted
    binary) reaches Python as lone surrogates (PEP 383), which the semantic model's tokenizer
    cannot take: recall ended in an unexpected error (exit 3), even in the precedents format
    that promises never to fail a step. Such a character now counts as U+FFFD."""
    repo, hooks, _ = recalled
    result = run(repo, "recall", "--format", fmt, "pygit2 \udcff hooks")
    assert result.exit_code == 0, result.output
    assert hooks in result.output


def test_proposing_where_the_memory_branch_is_only_on_origin_says_to_create_it(
    memory: Path, tmp_path: Path
) -> None:
    """In a clone that has only origin/memory, propose said "commit on memory first, or keep
    the memory on main: gitmem init --branch main", advice that would move the project's
    memory off its branch. It now says to create the branch from origin/memory."""
    clone = _clone_with_memory_only_on_the_remote(memory, tmp_path)
    result = run(clone, *HOOKS)
    assert result.exit_code == 2, result.output
    assert "git branch memory origin/memory" in result.output
    assert "gitmem init --branch" not in result.output


#: A recall in a process of its own that prints how many entry files the cache read, then
#: the ids it answers (the cache's reader wrapped, not replaced: a count of its real work).
COUNTING_RECALL = """
import sys

from gitmem.recall import cache

read = cache._read_docs
count = [0]


def counted(store, items):
    count[0] += len(items)
    return read(store, items)


cache._read_docs = counted
from gitmem.recall.service import recall_answer
from gitmem.repo.workspace import open_workspace

answer = recall_answer(open_workspace(), sys.argv[1])
print(count[0], *[hit.id for hit in answer.entries])
"""


def test_an_unwritable_git_directory_updates_the_index_by_the_diff_not_from_every_entry(
    recalled: tuple[Path, str, str],
) -> None:
    """A git directory that cannot be written (a read-only mount, another user's repository)
    whose cache remembers an older tree: taking the lock failed, and the cache was judged
    broken, set aside (which failed too) and rebuilt from every entry, at every recall, a
    full embedding of the memory each time. The nearest remembered tree is now brought up to
    date by the diff in memory, as a writable one is, and nothing is set aside."""

    repo, _, _ = recalled
    recall_json(repo, "pygit2 hooks")  # the cache holds this tree
    entry_id = "local-method-20261205-rotate-the-signing-keys"
    _commit_rotate_entry(repo, repo / ".gitmem/entries/method", entry_id)
    state = (repo / ".git/gitmem/recall/state.json").read_bytes()
    with read_only(repo / ".git") as prefix:
        count = _counting_recall(repo, entry_id, prefix)
    assert count == "1", f"read {count} entries: the whole memory again"
    assert (repo / ".git/gitmem/recall/state.json").read_bytes() == state
    assert not list((repo / ".git/gitmem").glob("recall.broken-*"))


@pytest.mark.parametrize("deleted", ["decision", "method"])
def test_an_entry_held_by_two_files_stays_found_when_one_goes(
    recalled: tuple[Path, str, str], deleted: str
) -> None:
    """Two files of the memory hold one entry id (a copy in another type folder, committed
    without the gate), then one of them goes. The cache's update removed the id whichever
    file went, so the entry the other file still holds was never recalled again, though a
    rebuild finds it. An update now removes an id only with the file it was indexed from, and
    gives it back from the file that still holds it."""
    repo, hooks, _ = recalled
    entries = repo / ".gitmem/entries"
    (entries / "method").mkdir(exist_ok=True)
    copy = entries / "method" / f"{hooks}.md"
    # of the type of its folder, at its own place: an entry to every reader
    text = (entries / "decision" / f"{hooks}.md").read_text()
    copy.write_text(text.replace("type: decision", "type: method"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "the entry copied to another folder")
    assert recall_json(repo, "pygit2 hooks")[0]["id"] == hooks  # the cache follows
    git(repo, "rm", "-q", str(entries / deleted / f"{hooks}.md"))
    (entries / "notes.txt").write_text("a tree no recall has seen\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", f"the {deleted} copy goes")
    [kept] = entries.glob(f"*/{hooks}.md")
    hit = recall_json(repo, "pygit2 hooks")[0]
    assert (hit["id"], hit["path"]) == (hooks, kept.relative_to(repo).as_posix()), hit


def test_an_entrys_path_and_cited_files_print_what_a_terminal_would_act_on_as_escapes(
    recalled: tuple[Path, str, str],
) -> None:
    """An entry that reached the memory without the gate, citing a file whose name carries a
    window-title sequence, is recalled: its title was written with escapes, but the line of
    its path and freshness ("cites missing file ...") went to the terminal raw, where a
    reader's window title was set. Every line of a hit is now written as the title is."""
    repo, hooks, _ = recalled
    [path] = (repo / ".gitmem/entries").glob(f"*/{hooks}.md")
    text = path.read_text()
    hostile = 'files: [README.md, "gone\\e]0;pwned\\a.txt"]'  # YAML escapes: ESC, BEL
    path.write_text(text.replace("files: [README.md]", hostile))
    git(repo, "commit", "-q", "--no-verify", "-am", "by hand")
    shown = ok(run(repo, "recall", "--explain", "pygit2 hooks")).output
    assert hooks in shown
    assert "\x1b" not in shown and "\x07" not in shown, shown
    assert "cites missing file gone\\x1b]0;pwned\\x07.txt" in shown, shown


def test_a_recall_at_an_old_ref_leaves_the_next_update_one_entrys_work(
    recalled: tuple[Path, str, str],
) -> None:
    """A recall at an old --ref remembers that ref's tree as the cache's newest; the memory
    branch's next update then started from it, and read (and embedded) every entry admitted
    since, a full build's work after every look at an old tag. An update now starts from the
    remembered tree the fewest changes lead from."""
    from entries import text

    repo, _, _ = recalled
    folder = repo / ".gitmem/entries/method"
    for n in range(30):
        entry_id = f"local-method-20261205-step-{n}"
        (folder / f"{entry_id}.md").write_text(
            text(id=entry_id, status="admitted", admitted_by="human:bo", admitted="2026-12-05")
        )
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "thirty entries")
    recall_json(repo, "pygit2 hooks")  # the cache holds the branch's tree
    assert recall_json(repo, "pygit2 hooks", "--ref", "main~2")[0]["id"]  # and an old one
    entry_id = "local-method-20261205-rotate-the-signing-keys"
    _commit_rotate_entry(repo, folder, entry_id)
    count = _counting_recall(repo, entry_id)
    assert count == "1", f"read {count} entries for one admission"


def _commit_rotate_entry(repo: Path, folder: Path, entry_id: str) -> None:
    """Commit an admitted entry about rotating signing keys that the cache has not seen."""
    from entries import text

    (folder / f"{entry_id}.md").write_text(
        text(id=entry_id, status="admitted", admitted_by="human:bo", admitted="2026-12-05",
             title="Rotate the signing keys", applies_when="a signing key leaks")
    )  # fmt: skip
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "an entry the cache has not seen")


def _counting_recall(repo: Path, entry_id: str, prefix: Sequence[str] = ()) -> str:
    """How many entries a recall of that entry read, once it found the entry first."""
    done = subprocess.run(
        [*prefix, sys.executable, "-c", COUNTING_RECALL, "rotate the signing keys"],
        cwd=repo, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    count, *ids = done.stdout.split()
    assert ids[:1] == [entry_id], done.stdout
    return count


@pytest.mark.parametrize(
    ("field", "value"),
    [("tree", 5), ("tree", ["x"]), ("tree", {"x": 1}), ("index", 5), ("index", None),
     ("vectors", 7), ("parts", 5), ("parts", [1, 2]), ("dir", ["x"])],
)  # fmt: skip
def test_a_state_record_with_a_field_of_another_type_is_left_out(
    recalled: tuple[Path, str, str], field: str, value: object
) -> None:
    """state.json in the right version whose record holds a field of another type (a hand
    edit, another program's write): a tree that was a number or a list reached libgit2 and
    the recall ended in an unexpected error (exit 3). Such a record is left out, as one that
    is not an object was, and the recall answers."""
    repo, hooks, _ = recalled
    recall_json(repo, "pygit2 hooks")
    ws = open_workspace(repo)
    state_file = RecallCache(ws.store, ws.dir).root / "state.json"
    state = json.loads(state_file.read_text())
    for record in state["trees"]:
        record[field] = value
    state_file.write_text(json.dumps(state))
    (repo / "README.md").write_text("# a new tip, so that the cache is updated\n")
    entry = next((repo / ".gitmem/entries").glob(f"*/{hooks}.md"))
    entry.write_text(entry.read_text().replace("one git process", "one git run"))
    git(repo, "commit", "-q", "--no-verify", "-am", "an entry edited by hand")
    assert recall_json(repo, "pygit2 hooks")[0]["id"] == hooks
    assert recall_json(repo, "pygit2 hooks")[0]["id"] == hooks


def test_a_search_that_lost_a_race_with_a_writer_keeps_the_cache(repo: Path) -> None:
    """A reader takes no lock, and loads a tree's vectors only when a query first needs them;
    meanwhile writers of KEEP_TREES other trees (recalls at other refs, side by side) let
    that tree go and delete its files. The search then failed, and recover() set the whole
    sound cache aside: every reader rebuilt it from every entry. recover() now loads the tree
    again under the lock, verified and whole, and sets the cache aside only when that fails."""
    from gitmem.recall import cache as cache_module
    from gitmem.recall import semantic
    from gitmem.repo.store import BLOB

    from entries import text

    if not semantic.available():
        pytest.skip("the semantic extra is what loads vectors late")
    store, entries = _many_entries(repo, 12)
    first = store.build_tree(None, {"entries": (entries, 0o040000)})  # a memory folder

    def more(name: str) -> str:
        """first with one entry more, whose vector goes to a small chunk of its tree's own."""
        entry_id = f"shop-method-20261129-{name}"
        data = text(id=entry_id, status="admitted", admitted_by="human:bo", admitted="2026-11-29")
        path = f"entries/method/{entry_id}.md"
        return store.build_tree(first, {path: (store.write_blob(data.encode()), BLOB)})

    memory = more("this-one")
    RecallCache(store, ".gitmem").load(first)
    RecallCache(store, ".gitmem").load(memory)  # an update: saved, with a chunk of its own
    cache = RecallCache(store, ".gitmem")
    loaded = cache.load(memory)  # read as a recall reads it, its vectors left for later
    for n in range(cache_module.KEEP_TREES):  # writers of other trees let this one go
        RecallCache(store, ".gitmem").load(more(f"other-{n}"))
    with pytest.raises(ValueError, match="missing"):
        semantic.answer(loaded.index, loaded.vectors, "run hooks through gitmem")
    again = cache.recover(memory)
    found = semantic.answer(again.index, again.vectors, "run hooks through gitmem", min_score=0)
    assert len(found.hits) == 5
    assert not list(cache.root.parent.glob("recall.broken-*")), "a sound cache was set aside"


def test_a_remembered_tree_git_has_pruned_is_passed_over_not_taken_for_damage(
    recalled: tuple[Path, str, str],
) -> None:
    """The memory branch is reset (a force-push fetched, a rewritten history) and git prunes
    what no ref reaches, the tree the cache remembers as its newest among it. The update's
    diff from that tree failed on the missing object, and the whole sound cache was set
    aside and rebuilt from every entry. Such a tree is now passed over for the next one."""
    from entries import text

    repo, hooks, _ = recalled
    folder = repo / ".gitmem/entries/method"

    def admitted(name: str) -> str:
        entry_id = f"local-method-20261205-{name}"
        (folder / f"{entry_id}.md").write_text(
            text(id=entry_id, status="admitted", admitted_by="human:bo", admitted="2026-12-05",
                 title=name.replace("-", " "), applies_when=f"{name.replace('-', ' ')} comes up")
        )  # fmt: skip
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "--no-verify", "-m", name)
        return entry_id

    admitted("rotate-the-signing-keys")
    gone = git(repo, "rev-parse", "HEAD:.gitmem/entries").strip()
    assert recall_json(repo, "rotate the signing keys")  # the cache's newest tree
    git(repo, "reset", "-q", "--hard", "HEAD~1")
    kept = admitted("pin-the-base-images")
    git(repo, "reflog", "expire", "--expire=now", "--all")
    git(repo, "gc", "-q", "--prune=now")
    assert subprocess.run(["git", "cat-file", "-e", gone], cwd=repo).returncode != 0
    assert recall_json(repo, "pin the base images")[0]["id"] == kept
    assert recall_json(repo, "pygit2 hooks")[0]["id"] == hooks
    assert not list((repo / ".git/gitmem").glob("recall.broken-*")), "a sound cache was set aside"


@pytest.mark.parametrize("kind", ["segments", "manifests"])
def test_a_cache_folder_replaced_by_a_link_is_damage_and_nothing_is_deleted_through_it(
    recalled: tuple[Path, str, str], tmp_path: Path, kind: str
) -> None:
    """A folder of the cache replaced by a symbolic link to a folder elsewhere (a hand-made
    move to another disk, a hostile one): the next update wrote into it, and then deleted
    every file there that no remembered tree names, the files of whoever owns that folder.
    A link in a cache folder's place is now damage, set aside; nothing is written or deleted
    through it."""
    repo, hooks, _ = recalled
    recall_json(repo, "pygit2 hooks")
    root = repo / ".git/gitmem/recall"
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(root / kind, elsewhere)
    (elsewhere / "notes.txt").write_text("someone's own file\n")
    shutil.rmtree(root / kind)
    (root / kind).symlink_to(elsewhere)
    entry = next((repo / ".gitmem/entries").glob(f"*/{hooks}.md"))
    entry.write_text(entry.read_text().replace("one git process", "one git run"))
    git(repo, "commit", "-q", "--no-verify", "-am", "an edit the cache must take in")
    assert recall_json(repo, "pygit2 hooks")[0]["id"] == hooks
    assert (elsewhere / "notes.txt").read_text() == "someone's own file\n"
    assert not (root / kind).is_symlink() and (root / kind).is_dir()


def test_an_entrys_name_held_by_a_submodule_elsewhere_is_not_read_when_the_entry_goes(
    recalled: tuple[Path, str, str],
) -> None:
    """When the file an entry was indexed from goes, the update looks for another file of
    the memory named after its id; a submodule of that name (a commit id, not a file) was
    read as an entry, and the recall ended in an error ("object ... is missing"). Only
    regular files are read, as a build reads them."""
    repo, hooks, secrets = recalled
    assert recall_json(repo, "pygit2 hooks")[0]["id"] == hooks
    missing_commit = "1" * 40
    git(repo, "update-index", "--add", "--cacheinfo",
        f"160000,{missing_commit},.gitmem/entries/method/{hooks}.md")  # fmt: skip
    git(repo, "commit", "-q", "--no-verify", "-m", "a submodule in the entry's name")
    assert recall_json(repo, "pygit2 hooks")[0]["id"] == hooks
    git(repo, "rm", "-q", "--cached", f".gitmem/entries/decision/{hooks}.md")
    git(repo, "commit", "-q", "--no-verify", "-m", "the entry gone")
    assert [h["id"] for h in recall_json(repo, "pygit2 hooks")] == []
    assert recall_json(repo, "scan secrets", "--step", "spec")[0]["id"] == secrets
    assert not list((repo / ".git/gitmem").glob("recall.broken-*")), "a sound cache was set aside"


COUNTING_EMBEDDINGS = """
import sys

from gitmem.recall import semantic

build, embed_doc = semantic.build, semantic.embed_doc
count = [0]


def counted_build(docs, progress=None):
    count[0] += len(docs)
    return build(docs, progress)


def counted_embed(doc):
    count[0] += 1
    return embed_doc(doc)


semantic.build, semantic.embed_doc = counted_build, counted_embed
from gitmem.recall.service import recall_answer
from gitmem.repo.workspace import open_workspace

answer = recall_answer(open_workspace(), sys.argv[1])
print(count[0], *[hit.id for hit in answer.entries])
"""


@pytest.mark.skipif(not semantic.available(), reason="gitmem[semantic] not installed")
def test_an_index_of_an_older_format_is_rebuilt_and_the_vectors_are_kept(
    recalled: tuple[Path, str, str],
) -> None:
    """An upgrade that changes the keyword index's format (its analysis, its layout) set
    the whole cache aside and embedded every entry again: minutes at 100,000 entries with
    the extra, for vectors that depend on the entries' text and the model alone. Now the
    index is built again and the vectors are kept."""
    repo, hooks, _ = recalled
    recall_json(repo, "pygit2 hooks")  # the cache holds this tree, vectors included
    root = repo / ".git/gitmem/recall"
    record = json.loads((root / "state.json").read_text())["trees"][0]
    manifest = root / "manifests" / record["index"]
    data = bytearray(manifest.read_bytes())
    current = int.from_bytes(data[14:16], "little")
    data[14:16] = (current - 1).to_bytes(2, "little")  # as the gitmem before wrote it
    older = hashlib.sha256(data).hexdigest()[:32]  # the cache names files by their content
    (root / "manifests" / older).write_bytes(bytes(data))
    manifest.unlink()
    state = json.loads((root / "state.json").read_text())
    state["trees"][0]["index"] = older
    (root / "state.json").write_text(json.dumps(state))
    done = subprocess.run(
        [sys.executable, "-c", COUNTING_EMBEDDINGS, "pygit2 in a git hook"],
        cwd=repo, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    embedded, *ids = done.stdout.split()
    assert ids[:1] == [hooks]
    assert embedded == "0", f"embedded {embedded} entries again"
    state = json.loads((root / "state.json").read_text())["trees"][0]
    assert state["vectors"] == record["vectors"]
    rebuilt = (root / "manifests" / state["index"]).read_bytes()
    assert int.from_bytes(rebuilt[14:16], "little") == current
    assert not list(root.parent.glob("recall.broken-*"))


@pytest.mark.parametrize("first", ["decision", "method"])
def test_an_entry_copied_to_another_folder_is_recalled_as_a_fresh_build_recalls_it(
    memory: Path, first: str
) -> None:
    """Two files hold one id (a copy in another type folder, changed and committed without
    the gate): a build keeps one of them, and an update must keep the same one. A build
    kept the one its tree walk met last (the first in path order: the walk takes the type
    folders from the last), while an update kept the one added last, so a copy in method/
    of an entry in decision/ was recalled with the copy's text until the cache was
    rebuilt, and with the original's after. Both now keep the last in path order."""
    hooks = admit(memory, HOOKS)
    entries = memory / ".gitmem/entries"
    text = (entries / "decision" / f"{hooks}.md").read_text()
    second = "method" if first == "decision" else "decision"
    for folder, title in ((first, "Use pygit2 inside git hooks"), (second, "Copy of the hooks")):
        (entries / folder).mkdir(exist_ok=True)
        (entries / folder / f"{hooks}.md").write_text(
            text.replace("Use pygit2 inside git hooks", title).replace(
                "type: decision", f"type: {folder}"
            )
        )
        if folder == first and first != "decision":
            (entries / "decision" / f"{hooks}.md").unlink()
        git(memory, "add", "-A")
        git(memory, "commit", "-q", "--allow-empty", "--no-verify", "-m", f"in {folder}/")
        hit = recall_json(memory, "pygit2 hooks")[0]  # the cache follows each commit
        assert hit["id"] == hooks
    shutil.rmtree(memory / ".git/gitmem/recall")
    built = recall_json(memory, "pygit2 hooks")[0]
    assert (hit["path"], hit["title"]) == (built["path"], built["title"])
    assert built["path"] == f".gitmem/entries/method/{hooks}.md"  # the last in path order


def test_the_cache_folder_or_its_lock_replaced_by_a_link_is_damage(
    recalled: tuple[Path, str, str], tmp_path: Path
) -> None:
    """The cache's own folder (`gitmem/recall`) replaced by a symbolic link to a folder
    elsewhere: only its manifests/ and segments/ were checked for links, so the next update
    wrote state.json there and deleted each file of that folder's manifests/ that no
    remembered tree names. And a link in the lock's place was opened, and so created, where
    it points. Both are damage now: set aside, nothing written or deleted through them."""
    repo, hooks, _ = recalled
    recall_json(repo, "pygit2 hooks")
    root = repo / ".git/gitmem/recall"
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(root, elsewhere)
    (elsewhere / "manifests" / "notes.txt").write_text("someone's own file\n")
    shutil.rmtree(root)
    root.symlink_to(elsewhere)
    entry = next((repo / ".gitmem/entries").glob(f"*/{hooks}.md"))

    def edited(words: str) -> None:
        entry.write_text(entry.read_text().replace(" objects", f" {words} objects", 1))
        git(repo, "commit", "-q", "--no-verify", "-am", "an edit the cache must take in")
        assert recall_json(repo, "pygit2 hooks")[0]["id"] == hooks

    edited("the")
    assert (elsewhere / "manifests" / "notes.txt").read_text() == "someone's own file\n"
    assert not root.is_symlink() and root.is_dir()
    (root / "lock").unlink()
    (root / "lock").symlink_to(tmp_path / "planted")
    edited("all")
    assert not (tmp_path / "planted").exists()
    assert not (root / "lock").is_symlink()
