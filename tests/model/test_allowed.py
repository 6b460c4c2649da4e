"""allowed.md: reviewed findings by fingerprint, what a row is, and appending keeps the bytes."""

from __future__ import annotations

import pytest

from gitmem.model import allowed
from gitmem.model.allowed import HEADER, Allowance, append, parse, parse_row

PRINT = "github-pat:" + "0123456789abcdef" * 2
ROW = Allowance(PRINT, "shop-method-20261129-x", "human:bob", "2026-12-01", "revoked | old")


def test_rows_round_trip_and_the_first_row_of_a_fingerprint_wins() -> None:
    later = Allowance(PRINT, "shop-method-20261129-y", "human:carol", "2026-12-02", "again")
    text = append(append(None, [ROW]), [later])
    assert text.startswith(HEADER)
    found = parse(text)
    assert list(found) == [PRINT]
    assert found[PRINT].reason == "revoked | old" and found[PRINT].by == "human:bob"
    assert found[PRINT].line == HEADER.count("\n") + 1


@pytest.mark.parametrize(
    "line",
    [
        "| fingerprint | entry | by | date | reason |",
        "| --- | --- | --- | --- | --- |",
        f"| {PRINT} | only | four | cells |",
        f"| {PRINT} | a | b | c | d | six |",
        "| not-a-fingerprint | e | human:b | 2026-12-01 | r |",
        "| github-pat:0123 | e | human:b | 2026-12-01 | short digest |",
        "| GITHUB-PAT:" + "0" * 32 + " | e | human:b | 2026-12-01 | upper case |",
        f"{PRINT} | e | human:b | 2026-12-01 | no leading bar",
        "prose",
        "",
    ],
)
def test_what_is_not_a_row(line: str) -> None:
    assert parse_row(line) is None
    assert parse(HEADER + line + "\n") == {}


def test_append_keeps_the_bytes_there_and_ends_an_unfinished_last_line() -> None:
    mine = "# my own heading"
    text = append(mine, [ROW])
    assert text.startswith(mine + "\n| " + PRINT)
    assert text.endswith(" |\n") and "revoked \\| old" in text
    assert append(text, []) == text


def test_the_fingerprint_pattern_is_the_scanners() -> None:
    from gitmem.gate import secrets

    assert allowed.FINGERPRINT.fullmatch(secrets.fingerprint("github-pat", b"ghp_x"))
    assert allowed.FINGERPRINT.fullmatch(secrets.fingerprint("hidden-unicode", b"a\xe2\x80\xaeb"))
