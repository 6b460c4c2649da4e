"""Front-matter fields read without YAML agree with the parser, whatever surrounds them."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from gitmem.model import entry as E
from gitmem.model import fields

from entries import text, with_front_lines

WANTED = ("files", "tags", "title", "status", "superseded_by")

_LINES = st.sampled_from(
    ["files: [a.py, b/c.py]", "files: []", "files: ['a.py']", "files: a.py", "files:",
     "  - x.py", "- y.py", "tags: [a,", "b]", 'rationale: "two', 'files: [z.py]"', "  indented",
     "# comment", "", "   ", "files: [a.py, b.py", "title: 'a: b'", "title: Other", "? key",
     "files: [a.py,b.py]", "files: [a.py]  # note", "files: [-x.py]", "tags: [a, b]",
     "files:\t[a.py]", "superseded_by: x", "notes: {a: b}", "title: >-", "  folded"]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 12), _LINES), max_size=4))
@example([(3, 'rationale: "two'), (4, 'files: [z.py]"')])
@example([(3, "files:"), (4, "  - x.py")])
def test_quick_fields_agree_with_the_parser(edits: list[tuple[int, str]]) -> None:
    data = with_front_lines(text().encode(), edits)
    try:
        meta = E.front_matter(data)
    except E.EntryError:
        return
    source = fields.text_of(data)
    assert source is not None
    quick = fields.quick_fields(source, WANTED)
    if quick is None:
        return  # the caller asks the parser
    assert quick == {k: meta[k] for k in WANTED if k in meta}


def test_what_only_yaml_can_tell_is_left_to_yaml() -> None:
    for front in ('files: ["a.py"]', "files:\n  - a.py", "title: 'quoted'", 'x: "a\nfiles: [b]"'):
        data = f"---\nid: x\n{front}\n---\n\n## Context\n".encode()
        assert fields.quick_fields(fields.text_of(data) or "", WANTED) is None, front
    assert fields.text_of(b"---\nid: \x00\n---\n") is None
    assert fields.text_of(b"\xff") is None
    assert fields.text_of(b"\xef\xbb\xbf---\r\nid: x\r\n") == "---\nid: x\n"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("-\n \tab:"), max_size=40))
def test_the_closing_line_is_found_where_the_parser_finds_it(body: str) -> None:
    text = "---\n" + body
    found = E.FRONT_MATTER_END.search(text, 4)
    assert fields.closing_line(text) == (found.start() if found else None)
