"""Front-matter fields read without YAML, where the text allows it.

Generated views read a field or two from many entries: INDEX.md a status and a title from each
of 100,000, a recall the `files` of the five it returns. A YAML parse of each costs more than
the rest of their work, and importing the YAML stack alone costs a warm recall a tenth of its
time. So these readers take a field from its own line, but only when that is exactly what YAML
reads: every front-matter line a field of its own (no indented or continuing line), every
quote or list closed on its line, the wanted value plain text or a list of plain items. For
anything else they answer None and the caller asks the full parser (gitmem.model.entry); property
tests hold both to the same answer. This module imports nothing heavy on purpose.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Final

#: The line that closes the front matter (and opens it).
FRONT_MATTER_END: Final = re.compile(r"^---[ \t]*$", re.MULTILINE)

#: The most an entry file may hold (the TOO-LARGE rule); every reader reads no more than this.
MAX_ENTRY_BYTES: Final = 64 * 1024
#: What the TOO-LARGE rule says of a memory file over MAX_ENTRY_BYTES.
TOO_LARGE: Final = f"is over {MAX_ENTRY_BYTES // 1024} KiB: a memory entry is a short note"

#: A value YAML reads as plain text (with plain()'s other checks), and an item of a list.
PLAIN = re.compile(r"[^-?:,\[\]{}#&*!|>'\"%@`\s][^\t]*")
# PyYAML ends flow text at ? and :
PLAIN_ITEM = re.compile(r"[^-?:,\[\]{}#&*!|>'\"%@`\s][^,\[\]{}?:\t]*")

# The patterns below start at the "\n" before a line: a literal prefix lets the regex engine
# skip ahead to it instead of trying every position, as a MULTILINE "^" makes it do.
_NOT_A_FIELD_LINE = re.compile(r"\n(?!#)(?![a-z_]{1,40}:[ \n])[^\n]")
_SPECIAL_VALUE = re.compile(r"\n[a-z_]{1,40}: ([\"'\[{|>&*!%@`][^\n]*)")
_CLOSED = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\']|\'\')*\'|\[[^\[\]{}"\'#]*\]')


def plain(value: str, pattern: re.Pattern[str] = PLAIN) -> bool:
    """True when YAML's BaseLoader would read value as exactly this text."""
    return (
        pattern.fullmatch(value) is not None
        and value == value.strip()
        and ": " not in value
        and " #" not in value
        and not value.endswith(":")
        and value.isprintable()
    )


def plain_item(value: str) -> bool:
    """plain() for an item of a `[a, b]` list (where ',', '[', ']', '{', '}' end the text)."""
    return plain(value, PLAIN_ITEM)


def is_plain_value(value: str) -> bool:
    """A one-line front-matter value that YAML reads back as exactly this text."""
    return bool(value) and plain(value)


def normalise_text(text: str) -> str:
    """LF line ends and no byte-order mark, as the parser reads every entry."""
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def text_of(data: bytes) -> str | None:
    """An entry file's bytes as normalised text; None when they are not UTF-8 text."""
    if b"\x00" in data:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return normalise_text(text) if "\r" in text or text.startswith("\ufeff") else text


def field_line(text: str, name: str) -> int | None:
    """The line of a front-matter field, for messages."""
    for number, line in enumerate(text.split("\n")[1:], start=2):
        if line.startswith("---"):
            return None
        if line.startswith(f"{name}:"):
            return number
    return None


def closing_line(text: str) -> int | None:
    """Where the front matter's closing `---` line starts (a line of `---` and blanks after
    the opening one), found with str.find."""
    at = text.find("\n---", 3)
    while at != -1:
        end = text.find("\n", at + 4)
        if not text[at + 4 : len(text) if end == -1 else end].strip(" \t"):
            return at + 1
        at = text.find("\n---", at + 4)
    return None


def quick_fields(text: str, wanted: tuple[str, ...]) -> dict[str, str | list[str]] | None:
    """The wanted fields present in an entry's text (normalised: text_of), each plain text or
    a list of plain texts; None when only YAML can tell, or when there is no front matter."""
    if not text.startswith("---\n"):
        return None
    closing = closing_line(text)
    if closing is None:
        return None
    front = "\n" + text[4:closing]
    if _NOT_A_FIELD_LINE.search(front) or not all(map(_closed, _SPECIAL_VALUE.findall(front))):
        return None  # a value that may go on over the next line
    found: dict[str, str | list[str]] = {}
    for key, raw in _field_lines(wanted).findall(front):
        value = raw.strip()
        if key in found or value != raw[1:]:
            return None  # given twice, or oddly spaced
        if value.startswith("[") and value.endswith("]"):
            inner = value[1:-1]
            items = inner.split(", ") if inner else []
            if not all(map(plain_item, items)):
                return None
            found[key] = items
        elif is_plain_value(value):
            found[key] = value
        else:
            return None  # quoted, or empty: YAML decides
    return found


def _closed(value: str) -> bool:
    return _CLOSED.fullmatch(value) is not None


@cache
def _field_lines(wanted: tuple[str, ...]) -> re.Pattern[str]:
    names = "|".join(map(re.escape, wanted))
    return re.compile(rf"\n({names}):([^\n]*)")
