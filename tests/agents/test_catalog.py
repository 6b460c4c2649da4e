"""The agents' catalog: admitted entries only, newest first, exact file matches, and an
update from the tree diff that gives the same bytes as a build from scratch."""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import pytest
from clirunner import ok, run

from gitmem.lifecycle import catalog
from gitmem.repo.store import TreeItem
from gitmem.repo.workspace import open_workspace

from conftest import fed_fifo, git


def _admit(repo: Path, title: str, *extra: str) -> str:
    out = ok(run(repo, "propose", "--type", "method", "--title", title, "--applies-when",
                 f"when {title.lower()}", "--content", "The lesson.", "--source",
                 "human:alice", *extra)).output  # fmt: skip
    entry_id = out.split()[1]
    ok(run(repo, "admit", entry_id, "--by", "human:bob"))
    return entry_id


def _load(repo: Path) -> catalog.Catalog:
    ws = open_workspace(repo)
    tip = ws.main_tip()
    assert tip is not None
    entries = ws.store.subtree(ws.store.subtree(ws.store.tree_of(tip), ws.dir), "entries")
    return catalog.load(ws.store, ws.dir, entries)


def _stored(repo: Path, kind: str = "catalog") -> dict[str, bytes]:
    folder = repo / ".git" / "gitmem" / "agents"
    return {p.name: p.read_bytes() for p in folder.glob(f"{kind}-*.tsv")}


def _counting(
    read: list[str],
) -> Callable[[Iterable[tuple[TreeItem, bytes]], str], Iterator[bytes]]:
    """catalog._lines_of, noting in read the path of every file it is given."""
    real = catalog._lines_of

    def counting(files: Iterable[tuple[TreeItem, bytes]], memory_dir: str) -> Iterator[bytes]:
        listed = list(files)
        read.extend(item.path for item, _ in listed)
        return real(listed, memory_dir)

    return counting


def test_the_catalog_lists_admitted_entries_and_finds_exact_citations(memory: Path) -> None:
    for name in ("src/pay.py", "src/pay.py.bak", "lib/src/pay.py"):
        (memory / name).parent.mkdir(parents=True, exist_ok=True)
        (memory / name).write_text("x\n")
    git(memory, "add", "-A")
    git(memory, "commit", "-q", "-m", "code")
    first = _admit(memory, "Charge with idempotency keys", "--file", "src/pay.py", "--tag", "pay")
    _admit(memory, "Backups keep a copy", "--file", "src/pay.py.bak")
    _admit(memory, "Vendored copy stays untouched", "--file", "lib/src/pay.py")
    successor = _admit(memory, "Charge with idempotency keys and retries", "--file",
                       "src/pay.py", "--supersedes", first)  # fmt: skip
    listed = _load(memory)
    ids = [e.id for e in listed]
    assert first not in ids and successor in ids and len(ids) == 3  # superseded: left out
    assert [e.id for e in listed.citing("src/pay.py", 5)] == [successor]
    assert [e.title for e in listed.citing("src/pay.py.bak", 5)] == ["Backups keep a copy"]
    assert listed.citing("pay.py", 5) == [] and listed.citing("", 5) == []
    only = listed.citing("src/pay.py", 5)[0]
    assert (only.admitted_by, only.supersedes, only.files) == (
        "human:bob",
        (first,),
        ("src/pay.py",),
    )
    assert [e.id for e in listed.recent(2, types=["method"], tags=None)] == ids[:2]


@pytest.mark.parametrize("fold", [False, True], ids=["delta", "folded"])
@pytest.mark.parametrize("reader", ["opened", "git"])
def test_an_update_from_the_diff_matches_a_build_from_scratch(
    memory: Path, monkeypatch: pytest.MonkeyPatch, reader: str, fold: bool
) -> None:
    """Brought up by the tree diff, the changed files read by the opened repository or by git
    itself (an agent's hook after an admission: gitmem.repo.trees.GitTrees), the catalog
    lists what a build from every entry lists, and only the new entry was read: kept as a
    delta over the old tree's catalog, or, past DELTA_MAX changed files, folded into a whole
    catalog of the bytes a build from every entry writes."""
    from gitmem.repo.trees import GitTrees

    _admit(memory, "First lesson")
    _load(memory)
    _admit(memory, "Second lesson")
    read: list[str] = []
    counting = _counting(read)

    monkeypatch.setattr(catalog, "_lines_of", counting)
    if fold:
        monkeypatch.setattr(catalog, "DELTA_MAX", 0)
    if reader == "git":
        ws = open_workspace(memory)
        memory_tree = ws.store.subtree(ws.store.tree_of(ws.main_tip() or ""), ws.dir)
        entries = ws.store.subtree(memory_tree, "entries")
        assert entries is not None
        found = catalog.brought_up(ws.store.common_dir, ws.dir, entries, GitTrees(memory))
        assert found is not None and len(list(found)) == 2
    else:
        assert len(list(_load(memory))) == 2
    assert len(read) == 1  # only the new entry was read
    updated, deltas = _stored(memory), _stored(memory, "delta")
    # the old tree's catalog, and the new one folded from it or a delta over it
    assert (len(updated), len(deltas)) == ((2, 0) if fold else (1, 1))
    listed = list(_load(memory))
    shutil.rmtree(memory / ".git" / "gitmem" / "agents")
    assert list(_load(memory)) == listed
    rebuilt = _stored(memory)
    assert len(rebuilt) == 1
    if fold:  # the same bytes
        assert set(rebuilt.items()) <= set(updated.items())
    else:  # the new tree had only its delta
        assert not rebuilt.keys() & updated.keys()


def test_a_damaged_catalog_is_rebuilt_not_trusted(memory: Path) -> None:
    entry_id = _admit(memory, "Lesson to keep")
    _load(memory)
    ((name, data),) = _stored(memory).items()
    path = memory / ".git" / "gitmem" / "agents" / name
    path.write_bytes(b"# gitmem agents catalog 0 old format\n" + data.split(b"\n", 1)[1])
    assert [e.id for e in _load(memory)] == [entry_id]
    assert path.read_bytes() == data


def test_ids_are_found_by_the_table_and_a_hook_opens_the_file_alone(memory: Path) -> None:
    ids = [_admit(memory, f"Lesson {word}") for word in ("alpha", "beta", "gamma", "delta")]
    loaded = _load(memory)
    for entry_id in ids:
        found = loaded.get(entry_id)
        assert found is not None and found.id == entry_id
    assert loaded.get(ids[0][:-1]) is None and loaded.get(ids[0] + "x") is None
    assert loaded.get("") is None and loaded.get("a\tb") is None
    # a lone surrogate (a hook's JSON can spell one) is no key a line holds: not a crash
    assert loaded.get("\ud800") is None and loaded.citing("src/\ud800.py", 5) == []
    tree = git(memory, "rev-parse", "main:.gitmem/entries").strip()
    common = memory / ".git"
    opened = catalog.stored(common, ".gitmem", tree)
    assert opened is not None and [e.id for e in opened] == [e.id for e in loaded]
    assert all(opened.get(entry_id) is not None for entry_id in ids)
    older = git(memory, "rev-parse", "main~1:.gitmem/entries").strip()
    assert catalog.stored(common, ".gitmem", older) is None  # never a catalog of another tree
    assert catalog.stored(common, "memory", tree) is None  # nor of another memory folder


def test_only_a_catalog_of_this_format_counts_as_a_start(memory: Path) -> None:
    _admit(memory, "Lesson to keep")
    common = memory / ".git"
    assert not catalog.startable(common, ".gitmem")
    _load(memory)
    assert catalog.startable(common, ".gitmem")
    assert not catalog.startable(common, "memory")  # its paths would name the other folder
    ((name, data),) = _stored(memory).items()
    path = common / "gitmem" / "agents" / name
    path.write_bytes(b"# gitmem agents catalog 2 " + data.split(b" ", 5)[5])
    assert not catalog.startable(common, ".gitmem")


def test_a_catalog_write_sweeps_what_a_killed_writer_left(memory: Path) -> None:
    """atomic_write's temporaries of a writer killed before its rename: the next write of a
    catalog removes those a minute old, and leaves a fresh one (a live writer's, perhaps)."""
    _admit(memory, "First lesson")
    _load(memory)
    folder = memory / ".git" / "gitmem" / "agents"
    old, fresh = folder / ".catalog-dead.tsv.4242.tmp", folder / ".catalog-live.tsv.4343.tmp"
    for path in (old, fresh):
        path.write_bytes(b"partial")
    then = time.time() - 2 * catalog.TEMPORARY_AGE
    os.utime(old, (then, then))
    _admit(memory, "Second lesson")
    _load(memory)
    assert not old.exists() and fresh.exists()


def test_a_catalog_replaced_by_a_fifo_is_never_read_and_is_rebuilt(memory: Path) -> None:
    """Catalogs are written by rename, so a FIFO in the place of one is none of gitmem's: a
    reader that opened it like a file waited for a writer forever (the edit hook, `gitmem
    recall --format precedents`, memory_recent all hung). A FIFO that does give the
    catalog's bytes (fed_fifo) shows whether it was read: it must not be."""
    entry_id = _admit(memory, "Lesson to keep")
    _load(memory)
    ((name, data),) = _stored(memory).items()
    path = memory / ".git" / "gitmem" / "agents" / name
    tree = git(memory, "rev-parse", "main:.gitmem/entries").strip()
    with fed_fifo(path, data):
        assert not catalog.startable(memory / ".git", ".gitmem")
    with fed_fifo(path, data):
        assert catalog.stored(memory / ".git", ".gitmem", tree) is None
    assert [e.id for e in _load(memory)] == [entry_id]  # built again, in a file of its own
    assert path.is_file() and path.read_bytes() == data


def test_a_catalog_damaged_below_its_header_fails_no_reader_and_no_update(memory: Path) -> None:
    """The header names the format and the tree, and the rest is read as it comes: a line
    cut short in the body ended every update from that catalog in an IndexError (and with it
    memory_recent, at every call, since no update ever replaced it), and an offset that is no
    number ended `get` and `citing` in a ValueError. A damaged offset names no line, and a
    catalog with a damaged line is no start for an update (its entry would be lost)."""
    first = _admit(memory, "Lesson to keep", "--file", "README.md")
    _load(memory)
    ((name, data),) = _stored(memory).items()
    path = memory / ".git" / "gitmem" / "agents" / name
    tree = git(memory, "rev-parse", "main:.gitmem/entries").strip()
    offset = f"\t0\n\n{first}\t0\n".encode()
    assert data.count(offset) == 1  # the offsets of README.md's citing line and of the id
    path.write_bytes(data.replace(offset, f"\tx\n\n{first}\ty\n".encode()))
    damaged = catalog.stored(memory / ".git", ".gitmem", tree)
    assert damaged is not None
    assert damaged.get(first) is None and damaged.citing("README.md", 5) == []
    path.write_bytes(data.rsplit(b"\t", 6)[0] + b"\n")  # first's line, cut short
    second = _admit(memory, "Another lesson")
    assert sorted(e.id for e in _load(memory)) == sorted([first, second])
    shutil.rmtree(path.parent)
    assert sorted(e.id for e in _load(memory)) == sorted([first, second])


def test_a_secret_the_cut_of_a_long_field_splits_is_flagged() -> None:
    """A line keeps the first 300 characters of a title or a situation, and said whether it
    held a secret from what it kept: a key that began just before the cut was kept in part
    ("ACCAXYYBI…", too short for the scanner), the line said no secret, and whoever trusts
    the flag (a warm precedents block) showed the part. The flag judges the fields whole."""
    from secret_samples import POSITIVES

    _, _, secret = next(p for p in POSITIVES if p[0] == "aws-access-key-id")
    situation = "x " * 145 + secret + " was printed"
    text = (
        "---\nid: local-method-20260101-a\ntype: method\nstatus: admitted\ntitle: A\n"
        f"applies_when: {situation}\nsource: human:a\ncreated: 2026-01-01\n"
        "admitted: 2026-01-02\nadmitted_by: human:b\n---\n\n## Context\nc\n\n"
        "## Content\nc\n\n## Evidence\ne\n"
    )
    line = catalog.line_of(".gitmem/entries/method/local-method-20260101-a.md", text.encode())
    assert line is not None and secret[:9].encode() in line  # the part the cut kept
    listed = catalog._parse(line)
    assert listed is not None and listed.secret


def test_a_line_keeps_its_paths_exact_and_finds_their_citations() -> None:
    """A line kept its entry's path and the files it cites cleaned as text (a run of spaces
    made one, a no-break space made a space, a trailing space dropped, a tab made a space):
    freshness asked git about files it does not hold, and the edit hook found no precedent
    for such a file. They are kept exact, only `%` and control characters escaped."""
    import json

    entry_id = "local-method-20260101-a"
    path = f".gitmem/entries/method/{entry_id}  copy.md"
    files = ["docs/menu  v2.md", "docs/caf\u00e9\u00a0menu.txt", "a\ttab%09.txt", "end "]
    text = (
        f"---\nid: {entry_id}\ntype: method\nstatus: admitted\ntitle: A\n"
        f"applies_when: a\nfiles: {json.dumps(files, ensure_ascii=False)}\n"
        "source: human:a\ncreated: 2026-01-01\nadmitted: 2026-01-02\nadmitted_by: human:b\n"
        "---\n\n## Context\nc\n\n## Content\nc\n\n## Evidence\ne\n"
    )
    line = catalog.line_of(path, text.encode())
    assert line is not None and line.count(b"\t") == 10 and line.count(b"\n") == 1
    listed = catalog._parse(line)
    assert listed is not None and (listed.path, listed.files) == (path, tuple(files))
    tree = "0" * 40
    found = catalog.Catalog(tree, *catalog._compose(tree, [line]))
    for name in files:
        assert [e.id for e in found.citing(name, 5)] == [entry_id], name
    assert found.citing("docs/menu v2.md", 5) == [] and found.citing("a tab%09.txt", 5) == []


@pytest.mark.parametrize("name", ["two  spaces", "a\ttab", "tag\U000e0041char", "trailing "])
def test_an_entry_whose_file_name_a_line_cleans_goes_when_its_file_goes(
    memory: Path, name: str
) -> None:
    """A line kept its entry's path cleaned (a hidden or control character made a space,
    runs of spaces made one), and an update dropped the lines of the paths the diff removed
    by comparing those with the raw paths: an entry whose file name cleaning changes (one
    committed without the gate) stayed listed after its file was deleted, by memory_recent,
    the export and the edit hook, until a catalog was built from scratch."""
    kept = _admit(memory, "Lesson to keep")
    _load(memory)
    text = next((memory / ".gitmem/entries").glob(f"*/{kept}.md")).read_text()
    odd = f"local-method-20260101-odd {name}"  # its file's name: at its own place
    path = memory / ".gitmem/entries/method" / f"{odd}.md"
    path.write_text(text.replace(f"id: {kept}", f"id: {json.dumps(odd, ensure_ascii=False)}"))
    git(memory, "add", "-A")
    git(memory, "commit", "-q", "--no-verify", "-m", "an entry with an odd file name")
    assert sorted(e.path for e in _load(memory)) == sorted(
        [f".gitmem/entries/method/{kept}.md", f".gitmem/entries/method/{odd}.md"]
    )
    path.unlink()
    (memory / ".gitmem/entries/notes.txt").write_text("a tree no catalog has seen\n")
    git(memory, "add", "-A")
    git(memory, "commit", "-q", "--no-verify", "-m", "it goes")
    assert [e.id for e in _load(memory)] == [kept]


def test_deltas_and_their_folds_list_what_a_build_lists(
    memory: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Admission after admission the catalog is kept as a delta over the last whole one, and
    folded into a whole one past DELTA_MAX changed files; at each tree it lists what a build
    from every entry lists, only the admitted entry's file is read (the last delta's lines
    are taken again), and the whole catalog a kept delta is over is never collected."""
    monkeypatch.setattr(catalog, "DELTA_MAX", 2)
    read: list[str] = []
    counting = _counting(read)

    folder = memory / ".git" / "gitmem" / "agents"
    aside = memory / ".git" / "aside"
    _admit(memory, "Lesson zero", "--file", "README.md")
    _load(memory)
    kinds = []
    for n in range(6):
        _admit(memory, f"Lesson {n}", "--file", "README.md")
        read.clear()
        with monkeypatch.context() as patched:
            patched.setattr(catalog, "_lines_of", counting)
            loaded = _load(memory)
        assert len(read) == 1, read
        assert loaded.tree is not None
        kinds.append("delta" if _stored(memory, "delta") and not (
            folder / catalog._name(".gitmem", loaded.tree)).exists() else "whole")  # fmt: skip
        listed = list(loaded)
        cited = loaded.citing("README.md", 3)
        folder.rename(aside)
        built = _load(memory)
        assert (list(built), built.citing("README.md", 3)) == (listed, cited)
        shutil.rmtree(folder)
        aside.rename(folder)
        for name in _stored(memory, "delta"):
            base = name.split("-")[2]
            assert (folder / catalog._name(".gitmem", base)).is_file(), name
        assert len(_stored(memory, "delta")) <= catalog.KEEP
    assert kinds == ["delta", "delta", "whole", "delta", "delta", "whole"]


def test_a_damaged_delta_or_one_over_a_lost_catalog_is_not_trusted(memory: Path) -> None:
    first = _admit(memory, "Lesson to keep")
    _load(memory)
    second = _admit(memory, "Another lesson")
    _load(memory)
    ((name, data),) = _stored(memory, "delta").items()
    path = memory / ".git" / "gitmem" / "agents" / name
    tree = git(memory, "rev-parse", "main:.gitmem/entries").strip()
    last = data.rindex(b"\n", 0, -1) + 1
    for damaged in (
        data[:-1],  # cut inside a line
        data[:last],  # cut at a line's end: the last line lost
        data.rsplit(b"\t", 3)[0] + b"\n",  # a line cut short
        data.replace(b" 1 1\n", b" 2 0\n"),  # the new line read as a removed path
    ):
        path.write_bytes(damaged)
        assert catalog.stored(memory / ".git", ".gitmem", tree) is None
        assert sorted(e.id for e in _load(memory)) == sorted([first, second])
        assert path.read_bytes() == data  # written again
    # a delta over a whole catalog that is gone: the delta is passed over, made anew
    (path.parent / catalog._name(".gitmem", name.split("-")[2])).unlink()
    assert catalog.stored(memory / ".git", ".gitmem", tree) is None
    assert sorted(e.id for e in _load(memory)) == sorted([first, second])


def test_no_delta_is_written_over_a_catalog_whose_lines_were_changed(memory: Path) -> None:
    """A delta keeps the whole catalog's lines, so that catalog's checksum is verified before
    one is written over it: a title changed on disk (every field still in its place) is not
    carried into the next tree; the catalog is built again from the entries."""
    _admit(memory, "Lesson to keep")
    _load(memory)
    ((name, data),) = _stored(memory).items()
    path = memory / ".git" / "gitmem" / "agents" / name
    assert data.count(b"\tLesson to keep\t") == 1
    path.write_bytes(data.replace(b"\tLesson to keep\t", b"\tLesson to drop\t"))
    _admit(memory, "Another lesson")
    assert sorted(e.title for e in _load(memory)) == ["Another lesson", "Lesson to keep"]
    assert not _stored(memory, "delta")


def test_the_post_merge_hook_brings_a_kept_catalog_up_and_builds_none(memory: Path) -> None:
    """`gitmem hook post-merge` (what git's post-merge hook runs) brings the agents' catalog
    up to main's new tip when one is kept, so the agent's first hook after an admission finds
    it made; where none is kept (no agent uses this memory yet), it builds none."""
    common = memory / ".git"
    _admit(memory, "Lesson to keep")
    ok(run(memory, "hook", "post-merge", "0"))
    assert not _stored(memory) and not _stored(memory, "delta")
    _load(memory)
    second = _admit(memory, "Another lesson")
    tree = git(memory, "rev-parse", "main:.gitmem/entries").strip()
    assert catalog.stored(common, ".gitmem", tree) is None
    ok(run(memory, "hook", "post-merge", "0"))
    found = catalog.stored(common, ".gitmem", tree)
    assert found is not None and found.get(second) is not None
    assert len(_stored(memory, "delta")) == 1


RACER = """
import sys
from pathlib import Path
from gitmem.lifecycle import catalog
from gitmem.repo.trees import GitTrees
repo, tree = Path(sys.argv[1]), sys.argv[2]
found = catalog.brought_up(repo / ".git", ".gitmem", tree, GitTrees(repo))
assert found is not None
print("\\n".join(f"{e.id} {e.path} {e.admitted_by}" for e in found))
"""


def test_racing_writers_of_one_delta_agree_and_leave_no_temporary(memory: Path) -> None:
    """Four processes bring the catalog of a new tree up at once (an agent's hooks and the
    post-merge hook racing after an admission): no lock is taken, each writes the same delta
    by rename, every one answers what a build from every entry lists, and no temporary file
    is left behind."""
    import subprocess
    import sys

    first = _admit(memory, "Lesson to keep", "--file", "README.md")
    _load(memory)
    second = _admit(memory, "Another lesson", "--file", "README.md")
    tree = git(memory, "rev-parse", "main:.gitmem/entries").strip()
    racers = [
        subprocess.Popen(
            [sys.executable, "-c", RACER, str(memory), tree],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    answers = [racer.communicate() for racer in racers]
    assert all(racer.returncode == 0 for racer in racers), answers
    assert len({out for out, _ in answers}) == 1
    listed = answers[0][0].splitlines()
    assert sorted(line.split()[0] for line in listed) == sorted([first, second])
    folder = memory / ".git" / "gitmem" / "agents"
    assert len(_stored(memory, "delta")) == 1
    assert not [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]
    shutil.rmtree(folder)
    built = [f"{e.id} {e.path} {e.admitted_by}" for e in _load(memory)]
    assert built == listed


def test_a_catalog_written_by_another_scanner_is_not_trusted(
    memory: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A line's secret flag is its scanner's verdict, and a hook shows an unflagged entry
    without scanning it: a catalog kept across an upgrade whose scanner finds a secret the old
    one did not said "no secret", and the hook showed the entry. Catalogs are kept per scanner
    (its source, hashed): here the upgrade is played by a scanner that flags everything."""
    from gitmem.gate import secrets

    entry_id = _admit(memory, "Lesson to keep")
    before = _load(memory).get(entry_id)
    assert before is not None and not before.secret
    monkeypatch.setattr(secrets, "may_hold_secret", lambda text: True)
    monkeypatch.setattr(catalog, "_scanner", lambda: b"another scanner")
    found = _load(memory).get(entry_id)
    assert found is not None and found.secret
    assert len(_stored(memory)) == 2  # each scanner's own
