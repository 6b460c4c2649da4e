"""Text as a terminal must show it, for every command and CI step that prints what others
wrote, and as a model may read it quoted (`clean`, `reveal`: the agents' precedents and
catalog); and the one list of characters that show as nothing (the gate's HIDDEN-UNICODE rule
refuses the same ones in memory)."""

from __future__ import annotations

import functools
import re
from typing import Final

#: Characters a terminal acts on or draws as nothing: control characters, bidirectional
#: controls, zero-width and other category Cf (format) characters, plus every other
#: default-ignorable code point (Unicode's DerivedCoreProperties: fillers, the Khmer inherent
#: vowels U+17B4-17B5, the unassigned U+FFF0-FFF8 and U+E0080-E0FFF, which a renderer is to draw
#: as nothing), the tag characters that spell invisible ASCII among them. Left out on purpose:
#: the visible prepended marks of Arabic, Syriac and Kaithi (U+0600-0605, U+06DD, U+070F,
#: U+0890-0891, U+08E2, U+110BD, U+110CD) and the emoji variation selectors U+FE00-FE0F. One
#: character class: linear by construction.
HIDDEN_CLASS: Final = (
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f"
    "\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufeff\uffa0\ufff0-\ufff8\ufff9-\ufffb"
    "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)


@functools.cache
def _unseen() -> re.Pattern[str]:
    """What `visible` escapes: HIDDEN_CLASS, but a carriage return only when no line feed
    follows. Compiled on first use: the agents' hooks import this module for HIDDEN_CLASS
    alone."""
    return re.compile(f"(?!\r\n){HIDDEN_CLASS}")


#: a byte that was not UTF-8, as Python carries it in a file name (PEP 383)
_UNDECODED = re.compile("[\udc80-\udcff]")


def visible(text: str) -> str:
    """Text as a reviewer must see it on a terminal: each character that the terminal would
    act on (an escape sequence that conceals what follows, a backspace) or not show at all
    (HIDDEN_CLASS: a bidirectional mark, a soft hyphen, a tag character spelling invisible
    ASCII) is written as its escape (`\\x1b`, `\\u061c`, `\\U000e0041`), so a hostile
    candidate cannot hide a sentence from the person reviewing it. The gate refuses such
    characters (HIDDEN-UNICODE); this is for what reaches a reviewer before the gate does.

    A byte of a name that was not UTF-8 is written as that byte (`caf\\xe9.md`), as `gitmem
    check` names the file (gitmem.gate.rules.shown): left to the stream's escape it was
    `caf\\udce9.md`, Python's stand-in for the byte, which names no file a person can find."""
    return undecoded(_unseen().sub(_escaped, text))


def undecoded(text: str) -> str:
    """text with each byte that was not UTF-8 (a name git or the file system gave in another
    encoding, carried as Python's stand-in U+DC80-U+DCFF) written as that byte, `\\xe9`: the
    stand-in names nothing a person can find, and no UTF-8 stream can carry it (the MCP
    server's JSON writer failed on it and the server ended with the agent's session)."""
    return _UNDECODED.sub(lambda m: f"\\x{ord(m.group()) - 0xDC00:02x}", text)


def _escaped(match: re.Match[str]) -> str:
    """Python's escape of the character (`\\x1b`, `\\r`), or its code point's where Python
    counts it printable (a Hangul filler is a letter to Python and blank on every terminal)."""
    char = match.group()
    shown = repr(char)[1:-1]
    if shown == char:
        code = ord(char)
        shown = f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"
    return shown


@functools.cache
def _unsafe() -> re.Pattern[str]:
    """What a quoted line may not hold: control characters (line breaks and tabs included),
    and every invisible one the gate's HIDDEN-UNICODE rule names (HIDDEN_CLASS, the one list):
    zero widths, bidirectional marks, overrides and isolates, fillers, the tag characters that
    spell invisible ASCII, and the other default-ignorable code points a renderer draws as
    nothing. Compiled on first use, as `_unseen` is."""
    return re.compile(f"(?:[\t\n]|{HIDDEN_CLASS})+")


#: The control characters of `_unsafe`: they separate what they stand between (a line break,
#: a tab), where an invisible character joins it.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]+")


def clean(text: str, limit: int = 300) -> str:
    """One line of an entry's text, safe to quote: control characters (line breaks
    included) become one space, invisible ones are taken out, and a long value is cut with
    an ellipsis.  Taken out, not made a space: a person reads `AB` in `A<U+200B>B`, and so
    does the secret scanner, which judges the text a hook quotes (the agents' catalog, then
    main's allowed.md); made a space, a key split so was no key to it, and was quoted. A
    byte that was not UTF-8 is written as that byte (`undecoded`)."""
    flat = " ".join(_unsafe().sub("", _CONTROL.sub(" ", undecoded(text))).split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def reveal(text: str) -> str:
    """A whole text, safe to quote as it is: its line breaks and tabs kept, and every other
    character `_unsafe` names shown as its code point (`[hidden U+202E]`, `[16 hidden
    characters: U+E0072…]` for a run), so that a reader sees where something is hidden and a
    model reads no text a person cannot see (tag characters spell ASCII invisibly); a byte
    that was not UTF-8 written as that byte (`undecoded`)."""
    return _unsafe().sub(_revealed, undecoded(text))


def _revealed(found: re.Match[str]) -> str:
    out: list[str] = []
    run: list[str] = []
    for char in f"{found.group(0)}\n":
        if char not in "\n\t":
            run.append(char)
            continue
        if len(run) == 1:
            out.append(f"[hidden U+{ord(run[0]):04X}]")
        elif run:
            out.append(f"[{len(run)} hidden characters: U+{ord(run[0]):04X}…]")
        run.clear()
        out.append(char)
    return "".join(out)[:-1]
