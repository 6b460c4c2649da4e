"""The little Markdown gitmem needs to read: which lines sit inside fenced code blocks; and
the little it writes where others' text lands in a rendered page (a bot's comment, a job
summary).

A `## Content` line inside a fence is text, not a section; a fence closes only with a marker
of its own kind at least as long as the one that opened it (CommonMark).

Text that is not gitmem's own (a candidate's title, a file name, a login, a message quoting
them) is written only as code: `code()` for one line (a code span, whose fence is longer than
any backtick run inside, line breaks flattened), `block()` for many (a fenced block, likewise).
Inside code, GitHub turns nothing into a link, an image, an @-mention or a #-reference, and no
HTML renders; `cell()` is a code span made safe for a table cell, where a bar would otherwise
end the cell even inside code (GitHub Flavored Markdown).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_BACKTICKS = re.compile(r"`+")
# what may end a line or a paragraph somewhere (CommonMark's CR, LF; Unicode's separators),
# and the other control characters, which no reader needs to see
_BREAKS = re.compile(r"[\r\n\u2028\u2029\u0085]+")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _longest_run(text: str) -> int:
    return max((len(m) for m in _BACKTICKS.findall(text)), default=0)


def code(text: object) -> str:
    """text as one inline code span: line breaks and control characters become spaces and
    the fence is one backtick longer than the longest run inside, so nothing in text can
    close it."""
    flat = _CONTROL.sub(" ", _BREAKS.sub(" ", str(text)))
    if not flat.strip():
        return "` `"  # nothing to show: an empty span would read as two backticks
    fence = "`" * (_longest_run(flat) + 1)
    pad = " " if flat[0] in "` " or flat[-1] in "` " else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


def cell(text: object) -> str:
    """code(text) for a table cell: its bars escaped (GitHub keeps them literal there)."""
    return code(text).replace("|", "\\|")


def block(text: object) -> str:
    """text as a fenced code block: every line break made LF (a CR alone ends a line for a
    Markdown reader), control characters dropped, and a fence longer than any backtick run
    inside, so no line of text can close it."""
    body = str(text).replace("\r\n", "\n").replace("\r", "\n")
    body = _CONTROL.sub("", body.replace("\u2028", "\n").replace("\u2029", "\n"))
    fence = "`" * max(3, _longest_run(body) + 1)
    return f"{fence}text\n{body.rstrip(chr(10))}\n{fence}"


def fenced(lines: Iterable[str]) -> Iterator[tuple[str, bool]]:
    """Each line with True when it belongs to a fenced code block (its fence lines included)."""
    fence: str | None = None
    for line in lines:
        match = FENCE.match(line)
        if match:
            marker = match.group(1)
            if fence is None:
                fence = marker[0] * len(marker)
                yield line, True
                continue
            if marker.startswith(fence):
                fence = None
                yield line, True
                continue
        yield line, fence is not None


def heading(line: str) -> tuple[int, str] | None:
    """(level, text) of an ATX heading (`## Text ##`, up to three spaces of indent), or None.

    String work, not a regular expression: a lazy text group followed by optional trailing
    runs backtracks quadratically on a long hostile line."""
    stripped = line.lstrip(" ")
    if len(line) - len(stripped) > 3 or not stripped.startswith("#"):
        return None
    level = len(stripped) - len(stripped.lstrip("#"))
    rest = stripped[level:]
    if level > 6 or (rest and rest[0] not in " \t"):
        return None
    text = rest.strip(" \t")
    closed = text.rstrip("#")
    if closed != text and (not closed or closed[-1] in " \t"):
        text = closed.rstrip(" \t")
    return level, text


def table_cells(line: str, escapes: str = "|") -> list[str]:
    """The cells of a Markdown table row, stripped (the outer bars optional). A backslash
    before a character of escapes makes it literal and goes (`\\|` is a bar inside a cell);
    before any other character it stays, as written."""
    body = line.strip()
    body = body[1:] if body.startswith("|") else body
    cells: list[str] = []
    current: list[str] = []
    escaped = closed = False
    for ch in body:
        closed = False
        if escaped:
            current.append(ch if ch in escapes else "\\" + ch)
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == "|":
            cells.append("".join(current).strip())
            current = []
            closed = True
        else:
            current.append(ch)
    if escaped:
        current.append("\\")
    if not closed:  # a row's closing bar ends the last cell, opens no other
        cells.append("".join(current).strip())
    return cells


def table_row(cells: tuple[str, ...]) -> str:
    """One Markdown table row (with its newline) that table_cells(row, escapes="|\\") reads
    back as cells: whitespace runs become one space, backslashes and bars are escaped."""
    escaped = (" ".join(v.split()).replace("\\", "\\\\").replace("|", "\\|") for v in cells)
    return "| " + " | ".join(escaped) + " |\n"


class UnreadableFile(Exception):
    """A Markdown file gitmem will not read: what is wrong, and the line where known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def read_text(path: Path, cap: int, *, kind: str = "Markdown file") -> str:
    """A hostile-safe read: a regular file only (links are not followed), at most cap bytes
    read, no NUL bytes, UTF-8; a BOM dropped and line ends made LF."""
    if path.is_symlink() or not path.is_file():
        raise UnreadableFile("is not a regular file (symlinks are not followed)")
    try:
        with open(path, "rb") as handle:
            data = handle.read(cap + 1)
    except OSError as exc:
        raise UnreadableFile(f"cannot be read: {exc.strerror or exc}") from None
    if len(data) > cap:
        raise UnreadableFile(f"is over {cap // 1024} KiB: a {kind} is a short text")
    if b"\x00" in data:
        raise UnreadableFile(f"is a binary file, not a {kind}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise UnreadableFile(f"is not UTF-8 (byte {exc.start})", line) from None
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
