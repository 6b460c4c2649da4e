"""A catalog kept as a delta over a whole one answers every question as a catalog built whole
from the same entries does: a reference model (the whole build) against the delta's readers,
over entries that share ids, admission dates and cited files, some changed in place, some
removed, some added."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from gitmem.lifecycle import catalog

TREE = "1" * 40
BASE = "2" * 40
IDS = [f"local-method-2026010{n}-lesson" for n in range(1, 5)]
DATES = ["2026-01-01", "2026-01-02", "2026-01-03"]
FILES = ["src/a.py", "src/b.py", "docs/menu  v2.md", "odd\tname.txt"]


def _line(path: str, entry_id: str, date: str, files: list[str], title: str) -> bytes:
    text = (
        f"---\nid: {entry_id}\ntype: method\nstatus: admitted\ntitle: {title}\n"
        f"applies_when: when {title}\nfiles: {json.dumps(files)}\nsource: human:a\n"
        f"created: 2026-01-01\nadmitted: {date}\nadmitted_by: human:b\n---\n\n"
        "## Context\nc\n\n## Content\nc\n\n## Evidence\ne\n"
    )
    line = catalog.line_of(path, text.encode())
    assert line is not None
    return line


_entries = st.dictionaries(
    keys=st.integers(0, 11).map(lambda n: f".gitmem/entries/method/{n:02d}  copy.md"),
    values=st.tuples(
        st.sampled_from(IDS),
        st.sampled_from(DATES),
        st.lists(st.sampled_from(FILES), max_size=3),
        st.sampled_from(["Alpha", "Beta"]),
    ),
    max_size=10,
)


def _whole(tree: str, lines: list[bytes]) -> catalog.Catalog:
    return catalog.Catalog(tree, *catalog._compose(tree, catalog._sorted(lines)))


@settings(max_examples=300, deadline=None)
@given(before=_entries, after=_entries, untouched=st.sets(st.integers(0, 11)))
def test_a_delta_answers_as_a_whole_build(
    before: dict[str, tuple[str, str, list[str], str]],
    after: dict[str, tuple[str, str, list[str], str]],
    untouched: set[int],
) -> None:
    # the new tree keeps some of the old files as they were; the rest of it is `after`
    kept = {p: v for p, v in before.items() if int(p.split("/")[-1][:2]) in untouched}
    now = {**after, **kept}
    old_lines = {p: _line(p, *v) for p, v in before.items()}
    new_lines = {p: _line(p, *v) for p, v in now.items()}
    changed = {p for p in {*old_lines, *new_lines} if old_lines.get(p) != new_lines.get(p)}
    removed = frozenset(catalog._kept(p).encode() for p in changed)
    added = tuple(catalog._sorted([new_lines[p] for p in changed if p in new_lines]))

    delta = _whole(BASE, list(old_lines.values())).over(TREE, removed, added)
    model = _whole(TREE, list(new_lines.values()))

    assert list(delta) == list(model)
    for path in [*FILES, "src/none.py"]:
        for limit in (1, 2, 5):
            assert delta.citing(path, limit) == model.citing(path, limit), (path, limit)
    for entry_id in [*IDS, "local-method-20260109-none"]:
        assert delta.get(entry_id) == model.get(entry_id), entry_id
        for path in now:  # the line of one file, where two files hold an id
            assert delta.get(entry_id, path) == model.get(entry_id, path), (entry_id, path)
            if now[path][0] == entry_id:
                found = model.get(entry_id, path)
                assert found is not None and found.path == path
    for limit in (1, 3, 20):
        assert delta.recent(limit, types=["method"]) == model.recent(limit, types=["method"])
