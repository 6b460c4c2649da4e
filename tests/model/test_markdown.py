"""The little Markdown gitmem reads: table rows (refused.md, audit verdicts)."""

from __future__ import annotations

from gitmem.model.markdown import table_cells


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
