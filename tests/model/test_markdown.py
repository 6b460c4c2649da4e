"""The little Markdown gitmem reads: table rows (refused.md, audit verdicts), and setext
headings, held to a CommonMark reader (markdown-it-py, a dependency of gitmem's site)."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from gitmem.model.markdown import fenced, setext_headings, table_cells


def test_table_rows_split_on_bars_that_are_not_escaped() -> None:
    assert table_cells("| a | b |") == ["a", "b"]
    assert table_cells("a | b") == ["a", "b"]
    assert table_cells("|") == [""]
    assert table_cells("| a | |") == ["a", ""]
    assert table_cells(r"| a \| b | c \|") == ["a | b", "c |"]  # no closing bar: a cell's end
    assert table_cells(r"| C:\dir | x\ |") == [r"C:\dir", "x\\"]  # other backslashes stay


def test_refused_md_rows_undo_both_of_its_escapes() -> None:
    row = r"| t | a \\| b \| c | id |"
    assert table_cells(row, escapes="|\\") == ["t", "a \\", "b | c", "id"]
    assert table_cells(row) == ["t", "a \\\\", "b | c", "id"]


#: lines of every block a setext underline meets: paragraphs, underlines and thematic
#: breaks, headings, list items, block quotes, HTML blocks, indented code (no fences, whose
#: reading is fenced()'s, tested on its own)
_LINES = st.sampled_from(
    ["Foo", "Evidence", "", "  ", "---", "===", "-", "=", " ---", "   ===", "    ---", "\t---",
     "- - -", "***", "___", "- foo", "* x", "1. one", "2. two", "1)", "> quote", ">", "> > q",
     "## Context", "# Title", "####### x", "    code", "\tcode", "<div>", "<!-- c", "-->",
     "<span>x</span> y", "<foo>", "- ## h", "> ---", "  Foo", "Foo  ", "= =", "--- x",
     "  - item", "+ p", "10. ten", "<pre>", "</div>", "<?php", "<!DOCTYPE", "Foo\\"]
)  # fmt: skip
_COMMONMARK = MarkdownIt("commonmark")


def _commonmark_setext(body: str) -> set[tuple[int, int, int]]:
    found = set()
    for token in _COMMONMARK.parse(body):
        if token.type == "heading_open" and token.markup in "=-" and token.level == 0:
            assert token.map is not None
            found.add((token.map[0], token.map[1] - 1, 1 if token.markup == "=" else 2))
    return found


@settings(max_examples=3000, deadline=None)
@given(st.lists(_LINES, min_size=1, max_size=8))
def test_every_setext_heading_commonmark_reads_is_found(lines: list[str]) -> None:
    """No top-level setext heading that a CommonMark renderer shows is missed (where the
    reading is unsure, as inside list items, it may find one more, never one less)."""
    body = "\n".join(lines)
    ours = {(h.first, h.underline, h.level) for h in setext_headings(fenced(body.split("\n")))}
    assert _commonmark_setext(body) <= ours, body


def test_setext_headings_spell_their_paragraph() -> None:
    lines = ["Notes", "  and more  ", "---", "", "Title", "===", "", "a", "", "---"]
    assert list(setext_headings(fenced(lines))) == [(0, 2, 2, "Notes and more"), (4, 5, 1, "Title")]


#: lines around code fences: fences of both kinds, opened at the top level, indented, inside
#: list items and block quotes, and with an info string a backtick fence may not have; HTML
#: blocks a fence line may sit in; the headings and underlines a fence may hide
_FENCE_LINES = st.sampled_from(
    ["```", "~~~", "````", "  ```", "   ~~~", "    ```", "``` py", "``` a`b", "~~~ a`b",
     "- ```", "1. ```", "> ```", "- item", "1. x", "  text", "   text", "> q", "",
     "<div>", "</div>", "<!--", "-->", "<pre>", "</pre>", "Foo", "---", "## Evidence",
     "  ## Evidence", "## Content", "\t```", "- ~~~"]
)  # fmt: skip


def _commonmark_h2(body: str) -> set[int]:
    """The first line of every top-level level-2 heading, ATX or setext, CommonMark renders."""
    return {
        token.map[0] if token.markup == "##" else token.map[1] - 1
        for token in _COMMONMARK.parse(body)
        if token.type == "heading_open" and token.tag == "h2" and token.level == 0 and token.map
    }


@settings(max_examples=3000, deadline=None)
@given(st.lists(_FENCE_LINES, min_size=1, max_size=8))
@example(["- item", "    ```", "  text", "``` a`b", "---"])  # the item's fence ends with it
@example(["- ```", "  text", "Foo", "---"])  # the fence on the item's own line ends with it
@example(["> ```", "> q", "``` a`b", "---"])  # a quote's fence is no paragraph to continue
def test_no_section_heading_commonmark_renders_is_read_as_code(lines: list[str]) -> None:
    """A `## ` line or a setext underline that a CommonMark renderer shows as a level-2
    heading is never one that fenced() put inside code: a fence closed by the end of the
    list item it was opened in, a fence line inside an HTML block, a backtick fence whose
    info string holds a backtick (no fence at all) hide no section from the reader."""
    body = "\n".join(lines)
    marks = list(fenced(body.split("\n")))
    ours = {n for n, (line, code) in enumerate(marks) if not code and line.lstrip(" ")[:3] == "## "}
    ours |= {h.underline for h in setext_headings(marks) if h.level == 2}
    assert _commonmark_h2(body) <= ours, body
