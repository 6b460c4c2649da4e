"""Text as a terminal must show it, for every command that prints what others wrote."""

from __future__ import annotations

import re

#: what a terminal acts on or hides rather than shows: control characters (a carriage
#: return only when no line feed follows), bidirectional controls and zero-width characters
_UNSEEN = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]|\r(?!\n)"
)


#: a byte that was not UTF-8, as Python carries it in a file name (PEP 383)
_UNDECODED = re.compile("[\udc80-\udcff]")


def visible(text: str) -> str:
    """Text as a reviewer must see it on a terminal: each character that the terminal would
    act on (an escape sequence that conceals what follows, a backspace) or not show at all is
    written as its escape (`\\x1b`), so a hostile candidate cannot hide a sentence from the
    person reviewing it. The gate refuses such characters (HIDDEN-UNICODE); this is for what
    reaches a reviewer before the gate does.

    A byte of a name that was not UTF-8 is written as that byte (`caf\\xe9.md`), as `gitmem
    check` names the file (gitmem.gate.rules.shown): left to the stream's escape it was
    `caf\\udce9.md`, Python's stand-in for the byte, which names no file a person can find."""
    shown = _UNSEEN.sub(lambda m: repr(m.group())[1:-1], text)
    return _UNDECODED.sub(lambda m: f"\\x{ord(m.group()) - 0xDC00:02x}", shown)
