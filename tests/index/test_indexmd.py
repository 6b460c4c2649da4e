"""INDEX.md: byte-stable generation, incremental updates equal to regeneration, merges."""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from gitmem.index import indexmd as index
from gitmem.model import entry as E
from gitmem.repo.store import BLOB, Store

from entries import meta, with_front_lines


def entry_text(entry_id: str, type_: str = "method", **changes: Any) -> bytes:
    admission = {"status": "admitted", "admitted_by": "human:b", "admitted": "2026-11-30"}
    fields = meta(id=entry_id, type=type_, **{**admission, **changes})
    if type_ == "mistake":
        fields.update(correction="c", detection_signal="d")
    return E.Entry(fields, "c", "x", "e").render().encode()


@pytest.fixture
def store(tmp_path: Path) -> Store:
    import pygit2

    pygit2.init_repository(str(tmp_path / "r.git"), bare=True)
    return Store.open(tmp_path / "r.git")


def tree_of(store: Store, files: dict[str, bytes]) -> str:
    return store.build_tree(None, {p: (store.write_blob(d), BLOB) for p, d in files.items()})


def test_generation_is_grouped_sorted_and_stable(store: Store) -> None:
    files = {
        "entries/mistake/p-mistake-20261129-b.md": entry_text("p-mistake-20261129-b", "mistake"),
        "entries/method/p-method-20261129-z.md": entry_text("p-method-20261129-z"),
        "entries/method/p-method-20261129-a.md": entry_text(
            "p-method-20261129-a", status="superseded", superseded_by="p-method-20261129-z"
        ),
        "entries/runbook/p-runbook-20261129-r.md": entry_text("p-runbook-20261129-r", "runbook"),
    }
    text = index.generate(store, tree_of(store, files))
    assert text == index.HEADER + (
        "\n## method\n\n"
        "- [p-method-20261129-a](entries/method/p-method-20261129-a.md) superseded by "
        "p-method-20261129-z — Run hooks through gitmem\n"
        "- [p-method-20261129-z](entries/method/p-method-20261129-z.md) admitted — "
        "Run hooks through gitmem\n"
        "\n## mistake\n\n"
        "- [p-mistake-20261129-b](entries/mistake/p-mistake-20261129-b.md) admitted — "
        "Run hooks through gitmem\n"
        "\n## runbook\n\n"
        "- [p-runbook-20261129-r](entries/runbook/p-runbook-20261129-r.md) admitted — "
        "Run hooks through gitmem\n"
    )
    assert index.generate(store, None) == index.HEADER + index.EMPTY


@pytest.mark.parametrize(
    "title",
    [
        "Sanitise <img src=x onerror=alert(1)> before rendering",
        "Pin the tracker ![t](https://tracker.example/p.png) in docs",
        "Read [the guide](javascript:alert(1)) first",
        "Real title<br>- [forged-id](entries/decision/forged-id.md) admitted — Forged",
        "An escape \\<b>bold</b> undone by a backslash",
        "<!-- hides every later line",
    ],
)
def test_a_title_is_shown_as_typed_never_as_markup(store: Store, title: str) -> None:
    """A title is free text, and INDEX.md is viewed rendered on every forge: HTML, an image a
    forge loads, a link, or a `<br>` followed by a forged entry line were rendered as such.
    Each title is written escaped, shows as typed, and the line still reads as its entry's."""
    from markdown_it import MarkdownIt

    entry_id = "p-method-20261129-t"
    text = index.generate(store, tree_of(store, {
        f"entries/method/{entry_id}.md": entry_text(entry_id, title=title),
    }))  # fmt: skip
    line = next(line for line in text.splitlines() if line.startswith("- ["))
    tokens = MarkdownIt("commonmark").parseInline(line[2:])[0].children or []
    kinds = [t.type for t in tokens]
    assert kinds[:3] == ["link_open", "text", "link_close"], kinds  # the entry's own link
    assert "html_inline" not in kinds and "image" not in kinds, kinds
    assert kinds.count("link_open") == 1, kinds
    shown = "".join(t.content for t in tokens[3:] if t.type == "text")
    assert shown == f" admitted — {title}", shown
    assert index.parse_index(text) is not None and list(index.parse_index(text) or {}) == [entry_id]


def test_unreadable_entries_still_get_a_line(store: Store) -> None:
    files = {"entries/method/p-method-20261129-x.md": b"\xff\xfe not utf-8"}
    assert "(does not parse: run gitmem check)" in index.generate(store, tree_of(store, files))


def test_an_entry_over_the_size_readers_take_is_listed_as_not_parsing(
    store: Store, tmp_path: Path
) -> None:
    """Every reader refuses a memory file over MAX_ENTRY_BYTES (TOO-LARGE); the index listed
    one by the title its front matter gave, as if it were sound. In a tree, in a folder and
    after an update alike, it is now listed as a file that does not parse."""
    from gitmem.model.fields import MAX_ENTRY_BYTES

    entry_id = "p-method-20261129-big"
    big = entry_text(entry_id) + b"x" * MAX_ENTRY_BYTES
    files = {f"entries/method/{entry_id}.md": big}
    tree = tree_of(store, files)
    listed = index.generate(store, tree)
    assert f"[{entry_id}]" in listed and "(does not parse: run gitmem check)" in listed
    folder = tmp_path / "mem"
    (folder / "entries/method").mkdir(parents=True)
    (folder / f"entries/method/{entry_id}.md").write_bytes(big)
    assert index.generate_from_folder(folder) == listed
    empty = index.generate(store, None).encode()
    assert index.update(store, empty, store.diff(None, tree), tree).decode() == listed


def test_folder_generation_matches_tree_generation_and_ignores_symlinks(
    store: Store, tmp_path: Path
) -> None:
    files = {
        f"entries/method/p-method-20261129-{n}.md": entry_text(f"p-method-20261129-{n}")
        for n in range(5)
    }
    folder = tmp_path / "mem"
    for rel, data in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_bytes(data)
    outside = tmp_path / "outside.md"
    outside.write_bytes(entry_text("p-method-20261129-evil"))
    (folder / "entries/method/p-method-20261129-evil.md").symlink_to(outside)
    assert index.generate_from_folder(folder) == index.generate(store, tree_of(store, files))


def test_many_files_are_read_by_two_processes_with_the_same_index(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past PARALLEL_MIN files a forked child reads half of them: the same INDEX.md, also
    when the child fails or no process can be forked."""
    files = {
        f"entries/{kind}/p-{kind}-20261129-{n}.md": entry_text(f"p-{kind}-20261129-{n}")
        for n in range(30)
        for kind in ("method", "decision")
    }
    files["entries/method/p-method-20261129-bad.md"] = b"\xff not utf-8"
    folder = tmp_path / "mem"
    for rel, data in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_bytes(data)
    want = index.generate(store, tree_of(store, files))
    monkeypatch.setattr(index, "PARALLEL_MIN", 10)
    assert index.generate_from_folder(folder) == want
    parent, read = os.getpid(), index._lines_of_files

    def failing_in_child(part: list[tuple[str, str, str]]) -> Any:
        if os.getpid() != parent:
            raise RuntimeError("the forked reader fails")
        return read(part)

    monkeypatch.setattr(index, "_lines_of_files", failing_in_child)
    assert index.generate_from_folder(folder) == want
    monkeypatch.setattr(index, "_lines_of_files", read)

    def no_fork() -> int:
        raise OSError("Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", no_fork)
    assert index.generate_from_folder(folder) == want


_titles = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=40)


@settings(max_examples=200, deadline=None)
@given(_titles)
def test_quick_fields_agree_with_the_front_matter_reader(title: str) -> None:
    data = entry_text("p-method-20261129-x", title=title)
    try:
        full = E.front_matter(data)
    except E.EntryError:
        return
    expected = (str(full["status"]), str(full["title"]), str(full.get("superseded_by", "")))
    assert index.index_fields(data) == expected


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from("ADM"), st.integers(0, 8)), max_size=12),
    st.sampled_from([8, 400]),
)
def test_updates_equal_regeneration(tmp_path_factory: pytest.TempPathFactory,
                                    ops: list[tuple[str, int]], base: int) -> None:  # fmt: skip
    """Spliced into the text (few changes) or split into lines and sorted (a removed line, a
    new type), into a small or a big INDEX.md, the result is what regeneration writes."""
    import pygit2

    repo = tmp_path_factory.mktemp("upd") / "r.git"
    pygit2.init_repository(str(repo), bare=True)
    store = Store.open(repo)
    files = {
        f"entries/method/p-method-20261129-{n}.md": entry_text(f"p-method-20261129-{n}")
        for n in range(0, base, 2)
    }
    old_tree = tree_of(store, files)
    previous = index.generate(store, old_tree)
    for op, n in ops:
        path = f"entries/{'decision' if n % 3 == 0 else 'method'}/p-method-20261129-{n}.md"
        if op == "D":
            files.pop(path, None)
        else:
            files[path] = entry_text(f"p-method-20261129-{n}", title=f"Title {op}{n}")
    new_tree = tree_of(store, files) if files else None
    changes = store.diff(old_tree, new_tree)
    want = index.generate(store, new_tree).encode()
    assert index.update(store, previous.encode(), changes, new_tree) == want


#: What a side may do to an entry file since the merge base, by name.
_EDITS: dict[str, dict[str, str] | None] = {
    "keep": {},
    "retire": {"status": "retired"},
    "amend": {"title": "An amended title"},
    "amend-markup": {"title": "Use <b>[x](y)</b> \\ here"},
    "supersede": {"status": "superseded", "superseded_by": "p-method-20261129-z"},
    "delete": None,
}


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(st.booleans(), st.sampled_from(sorted(_EDITS)), st.sampled_from(sorted(_EDITS))),
        min_size=1,
        max_size=6,
    )
)
def test_merge_is_what_merging_the_entry_files_then_regenerating_gives(
    tmp_path_factory: pytest.TempPathFactory, plan: list[tuple[bool, str, str]]
) -> None:
    """The merge driver against a reference: each entry file merged as git merges a file (a
    side's change where only it changed, kept where both made the same, a conflict where
    they differ), then INDEX.md regenerated from the merged files. Where the files merge
    cleanly the driver's INDEX.md is that one; where an entry's line conflicts it leaves
    the conflict (None). An entry is in the base or new on both sides (in_base False: each
    side's edit other than delete adds it, with that edit's fields)."""
    import pygit2

    repo = tmp_path_factory.mktemp("merge") / "r.git"
    pygit2.init_repository(str(repo), bare=True)
    store = Store.open(repo)
    sides: list[dict[str, bytes]] = [{}, {}, {}]  # base, ours, theirs
    merged: dict[str, bytes] = {}
    conflict = False
    for n, (in_base, mine, yours) in enumerate(plan):
        entry_id = f"p-method-20261129-e{n}"
        path = f"entries/method/{entry_id}.md"
        base = entry_text(entry_id) if in_base else None
        versions = [base]
        for edit in (mine, yours):
            changes = _EDITS[edit]
            if changes is None:
                versions.append(None)
            elif not in_base and not changes:
                versions.append(entry_text(entry_id))
            else:
                versions.append(entry_text(entry_id, **changes))
        for side, version in zip(sides, versions, strict=True):
            if version is not None:
                side[path] = version
        ours, theirs = versions[1], versions[2]
        if ours == theirs or theirs == base:
            result = ours
        elif ours == base:
            result = theirs
        else:
            conflict = True
            continue
        if result is not None:
            merged[path] = result
    texts = [index.generate(store, tree_of(store, side) if side else None) for side in sides]
    driven = index.merge(*texts)
    if conflict:
        # the files conflict; the driver may still merge the lines where two different
        # files give the same line, but never writes a wrong one: None, or every line it
        # writes is one side's
        assert driven is None or set(driven.splitlines()) <= set(
            texts[1].splitlines() + texts[2].splitlines()
        )
    else:
        assert driven == index.generate(store, tree_of(store, merged) if merged else None)


def test_merge_is_the_union_of_what_each_side_changed(store: Store) -> None:
    base = {"entries/method/p-method-20261129-a.md": entry_text("p-method-20261129-a")}
    ours = dict(
        base, **{"entries/method/p-method-20261129-b.md": entry_text("p-method-20261129-b")}
    )
    theirs = dict(base)
    theirs["entries/method/p-method-20261129-a.md"] = entry_text(
        "p-method-20261129-a", status="superseded", superseded_by="p-method-20261129-c"
    )
    theirs["entries/method/p-method-20261129-c.md"] = entry_text("p-method-20261129-c")
    merged_files = {**ours, **theirs}
    merged = index.merge(*(index.generate(store, tree_of(store, f)) for f in (base, ours, theirs)))
    assert merged == index.generate(store, tree_of(store, merged_files))
    assert index.merge(None, "not an index", index.HEADER) is None


@pytest.mark.parametrize(
    "change",
    [
        {"status": "retired"},
        {"title": "An amended title"},
        {"status": "superseded", "superseded_by": "p-method-20261129-z"},
    ],
)
@pytest.mark.parametrize("side", ["ours", "theirs"])
def test_merge_keeps_a_line_only_one_side_changed(
    store: Store, change: dict[str, str], side: str
) -> None:
    """A line changed on one side since the base is that side's in the merge, whatever its
    status (the union that ranked superseded over admitted kept an entry retired or amended
    on the side that did not also admit something else as admitted, under its old title)."""
    path = "entries/method/p-method-20261129-a.md"
    base = {path: entry_text("p-method-20261129-a")}
    changed = {path: entry_text("p-method-20261129-a", **change)}
    added = dict(base, **{"entries/decision/p-decision-20261129-b.md": entry_text(
        "p-decision-20261129-b", "decision"
    )})  # fmt: skip
    ours, theirs = (changed, added) if side == "ours" else (added, changed)
    merged = index.merge(*(index.generate(store, tree_of(store, f)) for f in (base, ours, theirs)))
    assert merged == index.generate(store, tree_of(store, {**added, **changed}))


def test_merge_of_one_line_both_sides_changed_otherwise_is_a_conflict(store: Store) -> None:
    path = "entries/method/p-method-20261129-a.md"
    base, ours, theirs = (
        index.generate(store, tree_of(store, {path: entry_text("p-method-20261129-a", **c)}))
        for c in ({}, {"status": "retired"}, {"title": "An amended title"})
    )
    assert index.merge(base, ours, theirs) is None
    assert index.merge(base, ours, ours) == ours  # both alike: kept
    assert index.merge(None, ours, base) is None  # no base: both sides changed it


_FRONT_LINES = st.sampled_from(
    ["status: admitted", "status: 'quoted'", 'status: "two', 'lines"', "title: Other title",
     "rationale: \"multi", "status: fake\"", "tags: [a,", "b]", "  indented", "title: >-",
     "  folded title", "# comment", "", "   ", "rationale: 'it''s'", "superseded_by: x",
     "files: [a.py]", "notes: {a: b}", "- item", "title:", "status:\tadmitted", "? key",
     'superseded_by: x"', "superseded_by: y]"]
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 12), _FRONT_LINES), max_size=4))
@example([(3, 'rationale: "multi'), (4, 'superseded_by: x"')])
@example([(3, "tags: [a,"), (4, "superseded_by: y]")])
def test_quick_fields_agree_with_yaml_whatever_lines_surround_them(
    edits: list[tuple[int, str]],
) -> None:
    """Lines that continue a value over the next line (quotes, lists, folded text) must not
    make the quick reader see a field YAML does not."""
    data = with_front_lines(entry_text("p-method-20261129-x", title="A title"), edits)
    try:
        full = E.front_matter(data)
    except E.EntryError:
        return
    expected = tuple(str(full.get(k, "")) for k in ("status", "title", "superseded_by"))
    assert index.index_fields(data) == expected


@settings(max_examples=300, deadline=None)
@given(
    _titles,
    st.lists(st.tuples(st.integers(0, 12), _FRONT_LINES), max_size=3),
    st.sampled_from([b"", b"\xef\xbb\xbf"]),
    st.booleans(),
)
@example("A title", [(3, "title: >-"), (4, "  folded title")], b"", False)
@example("A title", [(3, "status: 'quoted'")], b"\xef\xbb\xbf", True)
def test_a_parsed_entry_gives_the_index_fields_of_its_bytes(
    title: str, edits: list[tuple[int, str]], bom: bytes, crlf: bool
) -> None:
    """What the push judge takes from an entry it parsed (history._index_fields) is what
    index_fields reads from the bytes, for every entry that parses: read one line a field or
    by YAML, with a byte order mark or CRLF line ends."""
    data = with_front_lines(entry_text("p-method-20261129-x", title=title), edits)
    data = bom + (data.replace(b"\n", b"\r\n") if crlf else data)
    try:
        parsed = E.parse(data)
    except E.EntryError:
        return
    known = (parsed.status, parsed.title, str(parsed.meta.get("superseded_by", "")))
    assert index.line_for("method", "x", *known) == index.line_for(
        "method", "x", *(index.index_fields(data) or ("", "", ""))
    )


_ids = st.sets(st.from_regex(r"p-method-2026112[0-9]-[a-z]{1,6}", fullmatch=True), max_size=30)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["method", "decision", "fact"]), _ids, min_size=1), _ids)
def test_a_few_lines_spliced_into_the_text_are_what_rendering_writes(
    present: dict[str, set[str]], changed: set[str]
) -> None:
    """The in-text splice (binary search over the text) gives what splitting INDEX.md into
    lines, splicing them and rendering them again gives, wherever the lines fall."""
    groups = {
        t: sorted(index.line_for(t, i, "admitted", i, "") for i in ids)
        for t, ids in present.items()
    }
    text = index.render_groups(groups)
    kind = next(iter(present))
    lines: dict[str, str | None] = {
        i: index.line_for(kind, i, "superseded", "New", "x") for i in changed
    }
    spliced = index._spliced_text(text.encode(), {kind: lines})
    expected = dict(groups)
    expected[kind] = index._spliced(groups.get(kind, []), lines)
    want = index.render_groups(expected).encode()
    if not present[kind] and lines:
        assert spliced is None  # no section to search: the lines are split and rendered
    else:
        assert spliced == want


@pytest.mark.parametrize("keep", [-1, 9])
def test_a_hand_cut_index_is_never_spliced_by_search(keep: int) -> None:
    """An INDEX.md cut short by hand (its last line without its newline, or cut before its
    `]`) takes the way of splitting it into lines: the search over the text, which would loop
    on it, is not tried, wherever the new line falls."""
    lines = [
        index.line_for("method", f"p-method-20261129-{n}", "admitted", "T", "") for n in range(9)
    ]
    text = index.render_groups({"method": lines}).encode()
    last = text.rfind(b"\n", 0, len(text) - 1) + 1
    text = text[:-1] if keep == -1 else text[: last + keep]
    for new_id in ("p-method-20261129-45", "p-method-20261129-99", "p-method-20261129-0"):
        new = index.line_for("method", new_id, "admitted", "New", "")
        assert index._spliced_text(text, {"method": {new_id: new}}) is None


# --- INDEX.md as gitmem finds it: hand-edited, cut, or not gitmem's at all ----------------------


def _one_entry(store: Store) -> tuple[str, list[Any], str]:
    """A memory tree with one entry, the change that added it, and the INDEX.md it wants."""
    from gitmem.repo.store import Change, TreeItem

    entry_id = "p-method-20261129-new"
    blob = store.write_blob(entry_text(entry_id))
    tree = store.build_tree(None, {f"entries/method/{entry_id}.md": (blob, BLOB)})
    item = TreeItem(f"entries/method/{entry_id}.md", blob, BLOB)
    return tree, [Change("A", item.path, None, item)], index.generate(store, tree)


@pytest.mark.parametrize(
    "previous",
    [
        index.HEADER + "- [p-method-20261129-old](entries/method/x.md) admitted — before any\n",
        index.HEADER + "\n## method\n\n- [broken line without its bracket\n",
        index.HEADER + "\n## method\n\n- [p-method-20261129-zzz](entries/method/p.md) admitted",
        index.HEADER + "\n##\n\n## method\n\n",
        "# Someone's own index\n\n- [p-method-20261129-new](entries/method/p.md) admitted — x\n",
        "",
    ],
)
def test_an_update_of_an_index_gitmem_did_not_write_regenerates_or_splices(
    store: Store, previous: str
) -> None:
    """A line before any heading, a line cut short, a heading without a name, a file that
    is not gitmem's: the update never fails, and gives the entries' lines."""
    tree, changes, want = _one_entry(store)
    got = index.update(store, previous.encode(), changes, tree).decode()
    assert "- [p-method-20261129-new](entries/method/p-method-20261129-new.md) admitted" in got
    if not previous.startswith(index.HEADER) or previous.startswith(index.HEADER + "- ["):
        assert got == want  # not gitmem's, or a line before any heading: regenerated


def test_parse_index_reads_entry_lines_and_nothing_else() -> None:
    lines = [
        index.line_for("method", "p-method-20261129-a", "admitted", "A", ""),
        index.line_for("decision", "p-decision-20261129-b", "superseded", "B", "x"),
    ]
    text = index.render_groups({"method": lines[:1], "decision": lines[1:]})
    text += "\nnotes someone added\n- [not an entry](http://example.com) link\n"
    found = index.parse_index(text)
    assert found is not None and sorted(found) == ["p-decision-20261129-b", "p-method-20261129-a"]
    assert found["p-decision-20261129-b"].type == "decision"
    assert index.parse_index("# Not gitmem's\n" + text) is None


def test_merge_refuses_a_side_that_is_not_gitmems() -> None:
    ours = index.render_groups({"method": []})
    assert index.merge(ours, ours, "# hand-written\n") is None
    assert index.merge(ours, "# hand-written\n", ours) is None
    assert index.merge("# hand-written\n", ours, ours) == ours  # a base that is not: empty


def test_reading_the_index_of_a_tree_without_one_is_none(store: Store) -> None:
    files = {"entries/method/p-method-20261129-x.md": entry_text("p-method-20261129-x")}
    tree = store.build_tree(
        None, {f".gitmem/{p}": (store.write_blob(d), BLOB) for p, d in files.items()}
    )
    assert index.read_bytes(store, tree, ".gitmem") is None
    assert index.read_text(store, tree, ".gitmem") is None
    assert index.read_bytes(store, None, ".gitmem") is None
    with_index = store.build_tree(
        tree, {".gitmem/INDEX.md": (store.write_blob(b"# x\n\xff"), BLOB)}
    )
    assert index.read_bytes(store, with_index, ".gitmem") == b"# x\n\xff"
    assert index.read_text(store, with_index, ".gitmem") == "# x\n\ufffd"
    other = store.build_tree(tree, {".gitmem/INDEX.md": (store.write_blob(b"# y\n"), BLOB)})
    assert index.read_bytes(store, other, ".gitmem") == b"# y\n"  # another tree, its own
    assert index.read_bytes(store, with_index, ".gitmem") == b"# x\n\xff"


def test_a_line_says_superseded_by_only_with_a_successor() -> None:
    line = index.line_for("method", "p-method-20261129-a", "superseded", " A\n title ", "")
    assert (
        line
        == "- [p-method-20261129-a](entries/method/p-method-20261129-a.md) superseded — A title"
    )
    line = index.line_for("method", "p-method-20261129-a", "admitted", "", "p-method-20261129-b")
    assert line.endswith(" admitted — (untitled)")


def test_generation_lists_entry_files_only(store: Store) -> None:
    from gitmem.repo.store import LINK

    blob = store.write_blob(entry_text("p-method-20261129-a"))
    tree = store.build_tree(
        None,
        {
            "entries/method/p-method-20261129-a.md": (blob, BLOB),
            "entries/method/p-method-20261129-link.md": (store.write_blob(b"elsewhere"), LINK),
            "entries/method/notes.txt": (blob, BLOB),
            "entries/p-method-20261129-flat.md": (blob, BLOB),
        },
    )
    text = index.generate(store, tree)
    assert "p-method-20261129-a" in text and "link" not in text
    assert "notes" not in text and "flat" not in text


def test_reading_a_folder_leaves_no_file_open(tmp_path: Path) -> None:
    folder = tmp_path / "entries/method"
    folder.mkdir(parents=True)
    for n in range(20):
        (folder / f"p-method-20261129-{n}.md").write_bytes(entry_text(f"p-method-20261129-{n}"))
    before = len(os.listdir("/proc/self/fd"))
    assert index.generate_from_folder(tmp_path).count("\n- [") == 20
    assert len(os.listdir("/proc/self/fd")) == before


@pytest.mark.parametrize(
    "new_id", ["p-method-20261129-0", "p-method-20261129-45", "p-method-20261129-99"]
)
def test_titles_ending_in_a_bracket_do_not_mislead_the_splice(new_id: str) -> None:
    lines = [
        index.line_for("method", f"p-method-20261129-{n}", "admitted", f"T [{n}]", "")
        for n in range(1, 9)
    ]
    text = index.render_groups({"method": lines}).encode()
    new = index.line_for("method", new_id, "admitted", "New]", "")
    want = index.render_groups({"method": index._spliced(lines, {new_id: new})}).encode()
    assert index._spliced_text(text, {"method": {new_id: new}}) == want


_FORGED = "\n- [forged](https://evil.example/) admitted — Forged"


def _markup_of(line: str) -> list[str]:
    """The inline tokens a forge's CommonMark renderer makes of an INDEX.md line's item."""
    from markdown_it import MarkdownIt

    return [t.type for t in MarkdownIt("commonmark").parseInline(line[2:])[0].children or []]


@pytest.mark.parametrize(
    "fields",
    [
        {"status": "admitted" + _FORGED},
        {"status": "superseded", "superseded_by": "p-method-20261129-z" + _FORGED},
        {"status": "superseded", "superseded_by": "[z](javascript:alert(1)) <img src=x>"},
        {"status": "<!-- hides every later line"},
    ],
)
def test_a_status_or_successor_adds_no_line_nor_markup(
    store: Store, fields: dict[str, str]
) -> None:
    """The status and the successor are an author's words, as the title is: a file committed
    past the hooks gave a line break followed by a forged line of the list, which parse_index
    then read as an entry, or a link and `<img>` that were rendered."""
    entry_id = "p-method-20261129-t"
    text = index.generate(store, tree_of(store, {
        f"entries/method/{entry_id}.md": entry_text(entry_id, **fields),
    }))  # fmt: skip
    assert list(index.parse_index(text) or {}) == [entry_id]
    lines = [line for line in text.splitlines() if line.startswith("- ")]
    assert len(lines) == 1, lines
    kinds = _markup_of(lines[0])
    assert kinds.count("link_open") == 1 and "html_inline" not in kinds, kinds


#: GITMEM_HYPOTHESIS=thorough draws many more examples of the tests below that take it.
_EXAMPLES = 1000 if os.environ.get("GITMEM_HYPOTHESIS") == "thorough" else 40
_author_text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30)


@settings(max_examples=_EXAMPLES, deadline=None)
@given(_author_text, _author_text, _author_text)
def test_no_author_text_changes_which_entry_a_line_names(
    status: str, title: str, successor: str
) -> None:
    """Whatever status, title and successor say, an entry's line is one line that
    parse_index reads as that entry's, renders with one link, its own, and holds no control
    character a terminal would obey."""
    entry_id = "p-method-20261129-t"
    line = index.line_for("method", entry_id, status, title, successor)
    text = index.render_groups({"method": [line]})
    found = index.parse_index(text)
    assert found is not None and list(found) == [entry_id]
    assert found[entry_id].text == line and text.splitlines()[-1] == line
    kinds = _markup_of(line)
    assert kinds[:3] == ["link_open", "text", "link_close"], kinds
    assert kinds.count("link_open") == 1 and "html_inline" not in kinds, kinds
    assert not [c for c in line if unicodedata.category(c) == "Cc"], line


_HOSTILE_NAMES = [
    "a](javascript:alert(1)) [b",  # the line's link taken elsewhere (a name holds no /)
    "c\n- [forged](https:evil.example) admitted — Forged",  # a forged line
    "d]e",  # an id parse_index, the splice and the merge read short
    "f g\u202eh\u200bi",  # a space, a bidi override, a zero-width space
    "",  # `.md`: an id of nothing
    "p-method-20261129-%41",  # what an encoded name looks like, itself a name
]


def test_a_file_s_name_adds_no_line_nor_link_and_reads_back_whole(tmp_path: Path) -> None:
    """A file's name is anyone's bytes (committed past the hooks, merged on a server), and
    it was written raw in its line: `a](javascript:alert(1)) [b.md` made the line's link
    point elsewhere, a line break in it forged a line of the list, and a `]` made
    parse_index, the splice and the merge driver read another id, so a merge dropped the
    line. Each name is written percent-encoded, as a URL names the file: one line, one link,
    the file's, read back as that id by every reader, in a tree, on disk and after an
    update alike."""
    from urllib.parse import unquote

    from markdown_it import MarkdownIt

    from conftest import git, new_repo

    repo = new_repo(tmp_path / "r")
    records = []
    for name in _HOSTILE_NAMES:
        oid = git(repo, "hash-object", "-w", "--stdin", input=entry_text("x").decode()).strip()
        for type_, file_id in (("method", name), ("t](https:evil.example)", f"t{name}")):
            records.append(f"100644 {oid}\t.gitmem/entries/{type_}/{file_id}.md\0")
    git(repo, "update-index", "-z", "--index-info", input="".join(records))
    git(repo, "commit", "-q", "--no-verify", "-m", "names")
    git(repo, "reset", "-q", "--hard")
    store = Store.open(repo)
    tree = store.subtree(store.tree_of(store.resolve("HEAD")), ".gitmem")
    text = index.generate(store, tree)
    assert index.generate_from_folder(repo / ".gitmem") == text
    empty = index.generate(store, None).encode()
    assert index.update(store, empty, store.diff(None, tree), tree).decode() == text
    found = index.parse_index(text)
    names = sorted([*_HOSTILE_NAMES, *(f"t{name}" for name in _HOSTILE_NAMES)])
    assert found is not None and sorted(map(unquote, found)) == names
    lines = [line for line in text.splitlines() if line.startswith("- ")]
    assert len(lines) == 2 * len(_HOSTILE_NAMES), lines
    for line in lines:
        tokens = MarkdownIt("commonmark").parseInline(line[2:])[0].children or []
        links = [t for t in tokens if t.type == "link_open"]
        assert len(links) == 1 and tokens[0] is links[0], line
        href = unquote(str(links[0].attrGet("href")))
        assert href.startswith("entries/") and href.endswith(".md"), line
        assert href[len("entries/") : -3].split("/")[-1] in names, line
    base = index.render([])
    assert index.merge(base, text, base) == text  # the driver keeps every line


def test_merge_keeps_both_lines_of_an_id_two_types_hold() -> None:
    """Two files of one id in two type folders (committed past the hooks, which refuse it
    as ID-DUPLICATE) have a line each; the merge driver read both sides by id alone and
    dropped one of them, so the merged INDEX.md was not its tree's and the next `gitmem
    index --check` called it stale."""
    twin = index.line_for("decision", "p-x", "admitted", "B", "")
    method = [index.line_for("method", "p-x", "admitted", "A", "")]
    added = index.line_for("method", "p-y", "admitted", "C", "")
    base = index.render_groups({"method": method, "decision": [twin]})
    ours = index.render_groups({"method": [*method, added], "decision": [twin]})
    assert index.merge(base, ours, base) == ours
    assert index.merge(base, base, ours) == ours
    lines = index.parse_lines(ours)
    assert lines is not None and [(line.type, line.id) for line in lines] == [
        ("decision", "p-x"), ("method", "p-x"), ("method", "p-y"),
    ]  # fmt: skip


_names = st.text(st.sampled_from("a-z]([) \n%~\\<é\u202e\u200b"), max_size=5)


@settings(max_examples=_EXAMPLES, deadline=None)
@given(st.sets(_names, max_size=6), st.sets(_names, max_size=6), st.sampled_from([0, 3]))
@example({"b"}, {"a]", "a"}, 0)  # an id that `]` would cut short, sorting before another
def test_any_file_names_update_as_they_regenerate_and_read_back(
    tmp_path_factory: pytest.TempPathFactory, before: set[str], after: set[str], plain: int
) -> None:
    """Whatever the entry files are named, an update (spliced into the text or split into
    lines) writes what regeneration writes, and parse_index reads each file's name back."""
    from urllib.parse import unquote

    import pygit2

    repo = tmp_path_factory.mktemp("names") / "r.git"
    pygit2.init_repository(str(repo), bare=True)
    store = Store.open(repo)
    padding = {f"p-method-20261129-{n}" for n in range(plain)}  # a section to splice into

    def files(names: set[str]) -> dict[str, bytes]:
        return {f"entries/method/{n}.md": entry_text(n or "x", title=n) for n in names | padding}

    old_tree, new_tree = tree_of(store, files(before)), tree_of(store, files(after))
    previous = index.generate(store, old_tree).encode()
    want = index.generate(store, new_tree)
    got = index.update(store, previous, store.diff(old_tree, new_tree), new_tree)
    assert got.decode() == want
    found = index.parse_index(want)
    assert found is not None and {unquote(i) for i in found} == after | padding
    assert want.count("\n- [") == len(after | padding)


def test_a_title_s_terminal_controls_are_not_written(store: Store) -> None:
    """A title holding `ESC [1A` and `ESC [2K` (YAML's "\\e", committed past the hooks) moved
    a terminal's cursor up and erased the line above wherever INDEX.md was printed (`cat`,
    `git show`), and the rest of the title stood there as a forged line of the list."""
    entry_id = "p-method-20261129-t"
    title = "T\x1b[1A\x1b[2K- [forged](x) admitted \x9b"
    text = index.generate(store, tree_of(store, {
        f"entries/method/{entry_id}.md": entry_text(entry_id, title=title),
    }))  # fmt: skip
    assert "\x1b" not in text and "\x9b" not in text
    assert text.endswith(" admitted — T \\[1A \\[2K- \\[forged\\](x) admitted\n")
