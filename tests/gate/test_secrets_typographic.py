"""Prose written with an editor's punctuation (curly quotes and apostrophes, dashes, an
ellipsis, no-break spaces) or in another alphabet reads as prose after a secret word, as the
same prose typed in plain ASCII does; a password holding such a character is still found."""

from __future__ import annotations

import pytest

from gitmem.gate.secrets import scan_text

# A secret word, a colon, and words: none of these names a password.
PROSE = [
    "Rotating credentials: We’ll need a runbook first.",
    "Secret: Isn’t kept in the repository any more",
    "password: wouldn’t matter here",
    "Token handling: Can’t be tested offline",
    "password: maybe…",
    "secret: well‐known, so rotate it",
    "password: self‑hosted vault",
    "password: L’Hôpital’s rule",
    "password: naïve retries",
    "Passwort: später ändern",
    "credentials: “See the team vault”",
    "secret: «Ask the on-call person»",
    "Password:\u00a0see\u00a0the\u00a0vault",
]

# Generated-looking passwords, each holding one such character; their other characters mix
# cases and digits as a password's do.
PASSWORDS = [
    "password: 4qT’x8mZr2Lw",
    "password: Vh3–pK9sQe1",
    "password: Zr8—mW2kPq4",
    "db_password = b7Y‘Nq2xW5",
    "secret: Qm7ümW2vR9x",
]


@pytest.mark.parametrize("line", PROSE)
def test_typographic_prose_after_a_secret_word_is_no_secret(line: str) -> None:
    assert scan_text(line) == []


_PLAIN = str.maketrans(
    {"’": "'", "…": "...", "\u00a0": " ", "‐": "-", "‑": "-", "“": '"', "”": '"'}
)


@pytest.mark.parametrize(
    "line", [p.translate(_PLAIN) for p in PROSE if p.translate(_PLAIN).isascii()]
)
def test_the_same_prose_in_ascii_is_no_secret_either(line: str) -> None:
    assert scan_text(line) == []


@pytest.mark.parametrize("line", PASSWORDS)
def test_a_password_holding_typographic_punctuation_is_found(line: str) -> None:
    assert [f.rule for f in scan_text(line)] == ["password-assignment"]


@pytest.mark.parametrize(
    ("line", "length"),
    [
        ("password = “hunter2”", 7),
        ("password = „geheim42“", 8),
        ("password: ‘x9Kq2mPw’", 8),
        ("password: “correct horse battery”", 21),
    ],
)
def test_a_password_in_curly_quotes_is_read_as_quoted(line: str, length: int) -> None:
    findings = scan_text(line)
    assert [f.rule for f in findings] == ["password-assignment"]
    assert findings[0].excerpt.endswith(f"({length} chars)")


def test_a_passphrase_in_curly_quotes_that_reads_as_a_sentence_is_not() -> None:
    assert scan_text("password: “use the one in the vault”") == []


def test_a_password_after_a_no_break_space_is_found() -> None:
    assert [f.rule for f in scan_text("password:\u00a0Xk9mQ2pLw8")] == ["password-assignment"]
