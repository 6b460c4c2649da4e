"""What reaches a terminal: visible() leaves no character the terminal would act on or draw
as nothing, and changes nothing else."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from gitmem.model.terminal import HIDDEN_CLASS, clean, reveal, undecoded, visible

HIDDEN = re.compile(HIDDEN_CLASS)

#: code points from every range of HIDDEN_CLASS, and the ordinary text around them
_CHARS = st.one_of(
    st.characters(blacklist_categories=("Cs",)),
    st.sampled_from(
        ["\r", "\n", "\t", "\x1b", "\x07", "\u061c", "\u00ad", "\u200d", "\u2066", "\u3164",
         "\ufeff", "\ufffa", "\U000e0041", "\U000e0fff", "\U0001d173", "\u17b4"]
    ),
)  # fmt: skip


@given(st.text(_CHARS))
def test_nothing_hidden_reaches_the_terminal(text: str) -> None:
    shown = visible(text)
    # a carriage return stays only as the first half of a line break
    assert all(
        m.group() == "\r" and shown.startswith("\n", m.end()) for m in HIDDEN.finditer(shown)
    )


@given(st.text(st.characters(blacklist_categories=("Cs",))))
def test_text_without_hidden_characters_is_unchanged(text: str) -> None:
    plain = HIDDEN.sub("", text.replace("\r", ""))
    assert visible(plain) == plain


def test_each_hidden_character_is_written_as_its_escape() -> None:
    assert visible("a\x1bb") == "a\\x1bb"
    assert visible("a\rb\r\n") == "a\\rb\r\n"
    assert visible("\u061c\u00ad\u3164") == "\\u061c\\xad\\u3164"  # a Hangul filler: no repr escape
    assert visible("".join(chr(0xE0000 + ord(c)) for c in "hi")) == "\\U000e0068\\U000e0069"
    assert visible("caf\udce9.md") == "caf\\xe9.md"


def test_a_byte_that_was_not_utf8_is_written_as_that_byte_in_every_view() -> None:
    """Python's stand-in for such a byte (a lone surrogate) is no text a UTF-8 stream can
    carry: the MCP server's JSON writer failed on it."""
    assert reveal("caf\udce9\u202e") == "caf\\xe9[hidden U+202E]"
    assert clean("caf\udce9\n") == "caf\\xe9"
    assert undecoded("caf\udce9") == "caf\\xe9"
