"""The little Markdown gitmem needs to read: which lines sit inside fenced code blocks; and
the little it writes where others' text lands in a rendered page (a bot's comment, a job
summary).

A `## Content` line inside a fence is text, not a section; a fence closes only with a marker
of its own kind at least as long as the one that opened it, or with the list item or block
quote it was opened in (CommonMark; fenced() says how both readings meet). A paragraph
underlined with `---` is a level-2 heading as surely as `## ` makes one (a setext heading),
and with `===` a level-1 one; a `---` after a blank line, a heading or a list is a thematic
break instead (setext_headings).

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
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

# a backtick fence's info string holds no backtick (else the line is a paragraph: CommonMark)
FENCE = re.compile(r"^ {0,3}(`{3,}(?=[^`]*$)|~{3,})")
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


#: What turns a line of text into Markdown structure where it sits inside a list item (a
#: link, an image, inline HTML, and the backslash that would undo their escapes); escape's
#: default.
LINE_MARKUP = "\\[]<"


def escape(text: str, active: str = LINE_MARKUP) -> str:
    """text as Markdown shows it, never as structure: each character of active gets a
    backslash (CommonMark shows any escaped ASCII punctuation as itself). For text that
    stays readable as it is where it is read raw (INDEX.md, which agents read as a file),
    rather than code()'s span: `[x](javascript:…)`, `![t](https://tracker/p.png)`,
    `<img src=x onerror=…>` and `<br>` followed by a forged line of the list are shown as
    typed wherever the file is rendered."""
    return re.sub(f"([{re.escape(active)}])", r"\\\1", text)


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
    """Each line with True when it belongs to a fenced code block (its fence lines included).

    Read flat first: a fence opens at up to three spaces of indent and closes with a marker
    of its kind at least as long. That reading is CommonMark's at the top level, but not
    where a fence sits in a container: a fence opened in a list item ends with the item, and
    a fence line inside an HTML block opens nothing. So when the flat reading would hide a
    level-2 heading or a `---` / `===` underline in code (a section the renderer may show),
    the lines are read again by a CommonMark parser (markdown-it-py's block rules), whose
    fences are the answer. Text with no such line inside a fence (nearly all of it) never
    pays for the parser: the flat reading can then hide no section, whatever it makes of
    the fences.
    """
    flat = list(_fenced_flat(lines))
    if any(code and _section_like(line) for line, code in flat):
        yield from _fenced_commonmark([line for line, _ in flat])
    else:
        yield from flat


def _section_like(line: str) -> bool:
    """A `## ` heading or a setext underline: what a section may be made of."""
    found = heading(line)
    return (found is not None and found[0] == 2) or _underline_level(line) is not None


@cache
def _block_reader() -> MarkdownIt:
    """A CommonMark parser of blocks only (no inline rules: only the fences are read).
    Imported here, not above: it takes longer to import than a commit that touches no
    memory file may take in all, and only unusual text needs it."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").disable("inline")


def _fenced_commonmark(lines: list[str]) -> list[tuple[str, bool]]:
    """fenced()'s answer as a CommonMark parser reads the fences, in containers too.

    A lone CR is a line ending to the parser and part of the line to the caller, so it is
    handed over as a blank, which keeps the parser's lines the caller's."""
    code = [False] * len(lines)
    for token in _block_reader().parse("\n".join(line.replace("\r", " ") for line in lines)):
        if token.type == "fence" and token.map:
            for number in range(token.map[0], min(token.map[1], len(lines))):
                code[number] = True
    return list(zip(lines, code, strict=True))


def _fenced_flat(lines: Iterable[str]) -> Iterator[tuple[str, bool]]:
    """fenced() read as if every fence were at the top level."""
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


class Setext(NamedTuple):
    """A setext heading: the paragraph's lines first..underline-1 and its underline line
    (0-based indexes), its level (1 for `===`, 2 for `---`) and its text."""

    first: int
    underline: int
    level: int
    text: str


# what ends a paragraph without a blank line (CommonMark's blocks that can interrupt one):
# a block quote, a list item that is not empty (an ordered one only from 1), an HTML block
# of the kinds 1 to 6; fences, ATX headings and thematic breaks are told apart on their own
_QUOTE = re.compile(r" {0,3}>")
_INTERRUPTING_ITEM = re.compile(r" {0,3}(?:[-+*]|1[.)])[ \t]+\S")
_ITEM = re.compile(r" {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)")
_BLOCK_TAGS = (
    "address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|"
    "details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|"
    "h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|"
    "optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|"
    "track|ul"
)
_HTML_BLOCK = re.compile(
    rf" {{0,3}}<(?:(?P<raw>script|pre|style|textarea)(?:[ \t>]|$)|(?P<comment>!--)|"
    rf"(?P<pi>\?)|(?P<cdata>!\[CDATA\[)|(?P<decl>![A-Za-z])|/?(?:{_BLOCK_TAGS})(?:[ \t>]|/>|$))",
    re.IGNORECASE,
)
#: where an HTML block of each kind that does not end at a blank line ends (CommonMark)
_HTML_END = {
    "raw": re.compile(r"</(?:script|pre|style|textarea)>", re.IGNORECASE),
    "comment": re.compile(r"-->"),
    "pi": re.compile(r"\?>"),
    "cdata": re.compile(r"\]\]>"),
    "decl": re.compile(r">"),
}
# an HTML block of the last kind: one tag alone on its line (attributes left out: a line of
# a tag with attributes is read as a paragraph, which finds a heading rather than miss one)
_LONE_TAG = re.compile(r" {0,3}</?[A-Za-z][A-Za-z0-9-]*[ \t]*/?>[ \t]*$")


def _indent(line: str) -> int:
    """The columns of a line's leading blanks (a tab to the next multiple of four)."""
    blanks = line[: len(line) - len(line.lstrip(" \t"))]
    return len(blanks.expandtabs(4))


def _underline_level(line: str) -> int | None:
    """1 or 2 when line is a setext underline (`===` or `---` alone, up to three spaces in,
    blanks after), else None."""
    if _indent(line) > 3:
        return None
    marks = line.strip(" \t")
    if not marks or marks[0] not in "=-" or marks.count(marks[0]) != len(marks):
        return None
    return 1 if marks[0] == "=" else 2


def _thematic_break(line: str) -> bool:
    """`***`, `---`, `___` (three or more, blanks between allowed), up to three spaces in."""
    if _indent(line) > 3:
        return False
    marks = line.replace(" ", "").replace("\t", "")
    return len(marks) >= 3 and marks[0] in "-*_" and marks.count(marks[0]) == len(marks)


def _interrupts(line: str) -> bool:
    """Whether line ends the paragraph above it and starts another block (not a fence, which
    fenced() tells)."""
    return (
        heading(line) is not None
        or _thematic_break(line)
        or _QUOTE.match(line) is not None
        or _INTERRUPTING_ITEM.match(line) is not None
        or _HTML_BLOCK.match(line) is not None
    )


def _opens_paragraph(content: str) -> bool:
    """Whether the text after a list item's or a block quote's marker opens a paragraph,
    which the lines after it may continue lazily (without the marker)."""
    while True:
        if not content.strip(" \t") or _indent(content) >= 4:
            return False
        if heading(content) is not None or _thematic_break(content) or FENCE.match(content):
            return False
        if _HTML_BLOCK.match(content):
            return False
        marker = _QUOTE.match(content) or _ITEM.match(content)
        if marker is None:
            return True
        content = content[marker.end() :]


def _html_start(line: str) -> tuple[bool, re.Pattern[str] | None] | None:
    """None when line starts no HTML block, else whether it can end a paragraph (kinds 1 to
    6 can, a lone tag cannot) and the pattern of its last line (None: a blank line ends it)."""
    found = _HTML_BLOCK.match(line)
    if found is not None:
        return True, _HTML_END[found.lastgroup] if found.lastgroup else None
    return (False, None) if _LONE_TAG.match(line) else None


def _container_fence(content: str) -> str | None:
    """The fence marker that the text after a list item's or block quote's marker opens
    (behind nested markers too), or None."""
    while True:
        found = FENCE.match(content)
        if found is not None:
            return found.group(1)
        marker = _QUOTE.match(content) or _ITEM.match(content)
        if marker is None:
            return None
        content = content[marker.end() :]


def _closes_lazy(line: str) -> bool:
    """Whether line, after the paragraph of a list item or a block quote, is no lazy line of
    it but starts a block of its own (an empty or numbered list item too)."""
    return _interrupts(line) or _ITEM.match(line) is not None or FENCE.match(line) is not None


def _closes_inside(line: str) -> bool:
    """Whether line, indented into a list item, closes the item's paragraph there (a heading,
    an underline, a break, a fence, a quote or a list of its own): the lines after it are then
    read at the top level, which finds a heading rather than miss one."""
    inner = line.lstrip(" \t")
    return inner != line and (
        _interrupts(inner) or _underline_level(inner) is not None or FENCE.match(inner) is not None
    )


def setext_headings(lines: Iterable[tuple[str, bool]]) -> Iterator[Setext]:
    """The setext headings among lines (each with whether fenced() put it in code), as
    CommonMark reads them at the top level: a paragraph (one or more lines, none blank) and
    then an underline. A `---` after a blank line, a heading, a fence or a thematic break
    underlines nothing (it is a thematic break); nor does one after the paragraph of a list
    item or a block quote (whose lines it cannot continue lazily), or inside an HTML block,
    or under an indented code block. A fence opened inside a list item is not followed: the
    lines after it are read at the top level (its code read as a paragraph could only find
    a heading more; read as the item's text, a line the fence's end of item leaves at the
    top level was taken for a lazy line of it). Headings inside list items and block quotes
    are theirs, not the body's, and are not reported (as an indented `## ` is no section);
    where this reading is unsure it finds a heading rather than miss one."""
    first: int | None = None  # where the open paragraph starts
    text: list[str] = []
    lazy = False  # a list item's or block quote's paragraph is open
    quoted: str | None = None  # the fence a block quote opened, while its `>` lines go on
    item = 0  # the column of a list item's text, while its lines are read
    html: re.Pattern[str] | bool | None = False  # in an HTML block: the pattern of its end
    for number, (line, in_code) in enumerate(lines):
        blank = not line.strip(" \t")
        if html is not False:
            if isinstance(html, re.Pattern):
                html = False if html.search(line) else html
            elif blank:
                html = False
            continue
        if in_code or blank:
            first, text, lazy, item, quoted = None, [], False, 0, None
            continue
        if quoted is not None and _QUOTE.match(line) is None:
            quoted = None  # a line without `>` ends the quote and its fence (none is lazy)
        if first is not None:
            level = _underline_level(line)
            if level is not None:
                yield Setext(first, number, level, " ".join(text))
                first, text = None, []
                continue
            if not _interrupts(line):
                text.append(line.strip(" \t"))
                continue
            first, text = None, []
        elif lazy and not _closes_lazy(line):
            lazy = not _closes_inside(line)
            item = 0 if FENCE.match(line.lstrip(" \t")) else item
            continue  # the list item's or quote's
        elif item and not lazy and _indent(line) >= item:
            lazy = _opens_paragraph(line.lstrip(" \t"))
            item = 0 if FENCE.match(line.lstrip(" \t")) else item
            continue  # the list item's own text, under its marker
        lazy, item = False, 0
        if heading(line) is not None or _thematic_break(line) or _indent(line) >= 4:
            continue
        started = _html_start(line)
        if started is not None:
            end = started[1]
            html = None if end is None else (False if end.search(line, 1) else end)
            continue
        marker = _QUOTE.match(line) or _ITEM.match(line)
        if marker is not None:
            content = line[marker.end() :]
            opened = _container_fence(content)
            if quoted is not None:  # a line of the quote's fence: code, or the fence's end
                quoted = None if opened is not None and opened.startswith(quoted) else quoted
                continue
            lazy = _opens_paragraph(content)
            if _QUOTE.match(line) and opened is not None:
                quoted = opened[0] * len(opened)
            elif _ITEM.match(line) and opened is None:
                item = len(line[: marker.end()].rstrip(" \t").expandtabs(4)) + 1
            continue
        first, text = number, [line.strip(" \t")]


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
