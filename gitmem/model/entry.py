"""The entry: a Markdown file with YAML front matter and exactly three sections.

Parsing is strict and says where and why it failed; rendering is canonical, so that
parse → render → parse is the identity and the same entry always has the same bytes.

Decisions recorded here (README "Entry format"):

- The file is UTF-8.  A UTF-8 byte-order mark and CRLF line endings are accepted and
  normalised (gitmem always writes LF without a BOM); invalid UTF-8 and NUL bytes are refused.
  A lone CR is a line end here too, but the gates' scan of the bytes refuses it as hidden text.
- Every YAML scalar is read as a string (`created: 2026-11-29` stays the text `2026-11-29`,
  `title: yes` stays `yes`), duplicate keys are refused, and anchors/aliases are refused so a
  hostile file cannot expand into a huge structure.  Tags are refused but `!!str`, `!!seq` and
  `!!map`: other YAML readers would build another value (gitmem.model.yamltext.StrictLoader).
- The one-line fields (title, applies_when, rationale, correction, detection_signal) have their
  whitespace runs, newlines included, joined into single spaces.
- The body is measured as gitmem writes it: the three sections with their headings, without
  the final newline.  A `## ` line may be indented up to three spaces (four make code), as
  CommonMark reads it; `## ` lines inside fenced code blocks are not headings.  A paragraph
  underlined with `---` (a setext heading) is a level-2 heading as a `## ` line is, so it is
  a section too (gitmem writes it back as `## `); one underlined with `===` is level 1, text
  as a `# ` line is; a `---` after a blank line is a thematic break (CommonMark).
"""

from __future__ import annotations

import codecs
import hashlib
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from gitmem.model.fields import FRONT_MATTER_END, closing_line, normalise_text
from gitmem.model.fields import PLAIN as _PLAIN
from gitmem.model.fields import PLAIN_ITEM as _PLAIN_ITEM
from gitmem.model.fields import plain as _plain
from gitmem.model.markdown import fenced, heading, setext_headings
from gitmem.model.problem import (
    EntryError as EntryError,  # parse() raises it: callers import it here
)

FIELD_ORDER = (
    "id",
    "type",
    "status",
    "title",
    "applies_when",
    "source",
    "admitted_by",
    "created",
    "admitted",
    "amended_by",
    "amended",
    "retired_by",
    "retired",
    "retired_reason",
    "supersedes",
    "superseded_by",
    "amends",
    "drafted_from",
    "retires",
    "tags",
    "files",
    "rationale",
    "correction",
    "detection_signal",
    "evidence_batches",
)
ONE_LINE_FIELDS = (
    "title",
    "applies_when",
    "rationale",
    "correction",
    "detection_signal",
    "retired_reason",
)
ADMISSION_FIELDS = ("status", "admitted_by", "admitted", "superseded_by")
SECTIONS = ("Context", "Content", "Evidence")
MAX_FRONT_MATTER_CHARS = 16 * 1024
SLUG_MAX = 60

_BOUNDARY = FRONT_MATTER_END
#: a level-2 ATX heading's start: up to three spaces of indent, as CommonMark allows (four make
#: an indented code block)
_HEADING = re.compile(r" {0,3}##[ \t]")
#: a heading indented one to three spaces, which the quick split does not look for
_INDENTED_HEADING = re.compile(r"(?:^|\n) {1,3}#")
#: a line that may underline a setext heading (setext_headings says whether it does)
_UNDERLINE = re.compile(r"^[ \t]*(?:-+|=+)[ \t]*$", re.MULTILINE)


@dataclass(frozen=True)
class Entry:
    """One memory entry: its front matter (canonical order) and its three sections."""

    meta: Mapping[str, Any]
    context: str = ""
    content: str = ""
    evidence: str = ""
    body_line: int = field(default=1, compare=False)
    #: Set by parse when every front-matter line is one whole `key: value` (what gitmem
    #: writes), so line-by-line reasoning about the text is exact (is_candidate_text).
    one_line_fields: bool = field(default=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "meta", normalise_meta(self.meta))
        for name in ("context", "content", "evidence"):
            object.__setattr__(self, name, _clean_section(getattr(self, name)))

    # the fields every caller reads
    @property
    def id(self) -> str:
        return str(self.meta.get("id", ""))

    @property
    def type(self) -> str:
        return str(self.meta.get("type", ""))

    @property
    def status(self) -> str:
        return str(self.meta.get("status", ""))

    @property
    def title(self) -> str:
        return str(self.meta.get("title", ""))

    @property
    def applies_when(self) -> str:
        return str(self.meta.get("applies_when", ""))

    @property
    def source(self) -> str:
        return str(self.meta.get("source", ""))

    @property
    def created(self) -> str:
        return str(self.meta.get("created", ""))

    @property
    def tags(self) -> tuple[str, ...]:
        return _str_tuple(self.meta.get("tags"))

    @property
    def files(self) -> tuple[str, ...]:
        return _str_tuple(self.meta.get("files"))

    @property
    def supersedes(self) -> tuple[str, ...]:
        return _str_tuple(self.meta.get("supersedes"))

    @property
    def topic(self) -> str:
        return topic_of(self.title)

    @property
    def body(self) -> str:
        """The three sections as gitmem writes them, headings included, no final newline."""
        parts = []
        for name, text in zip(SECTIONS, (self.context, self.content, self.evidence), strict=True):
            parts.append(f"## {name}\n{text}\n" if text else f"## {name}\n")
        return "\n".join(parts).rstrip("\n")

    def with_meta(self, **changes: Any) -> Entry:
        """A copy with front-matter fields changed; a value of None removes the field."""
        meta = dict(self.meta)
        for key, value in changes.items():
            if value is None:
                meta.pop(key, None)
            else:
                meta[key] = value
        return Entry(meta, self.context, self.content, self.evidence)

    def render(self) -> str:
        return f"---\n{render_meta(self.meta)}---\n\n{self.body}\n"

    def same_except_admission(self, other: Entry) -> bool:
        """True when two entries differ at most in the admission fields (what admit adds)."""

        def reviewed(meta: Mapping[str, Any]) -> dict[str, Any]:
            return {k: v for k, v in meta.items() if k not in ADMISSION_FIELDS}

        return reviewed(self.meta) == reviewed(other.meta) and (
            self.context,
            self.content,
            self.evidence,
        ) == (other.context, other.content, other.evidence)


def _str_tuple(value: Any) -> tuple[str, ...]:
    if isinstance(value, list | tuple):
        return tuple(str(v) for v in value)
    return ()


def _clean_section(text: str) -> str:
    if not text or _is_clean(text):
        return text
    lines = text.split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(line.rstrip() for line in lines)


def _is_clean(text: str) -> bool:
    """True when _clean_section would return text as it is: no blank first or last line and
    no line ending in whitespace (looked at only where lines end: most texts are)."""
    if text[0].isspace() or text[-1].isspace():
        return False
    at = text.find("\n")
    while at != -1:
        before = text[at - 1]
        if before != "\n" and before.isspace():
            return False
        at = text.find("\n", at + 1)
    return True


def join_line(value: str) -> str:
    """Join a multi-line one-line field into one line: whitespace runs become one space."""
    return " ".join(value.split())


_RANK = {key: rank for rank, key in enumerate(FIELD_ORDER)}
_UNRANKED = len(FIELD_ORDER)
_ONE_LINE = frozenset(ONE_LINE_FIELDS)


def normalise_meta(meta: Mapping[str, Any]) -> dict[str, Any]:
    """Front matter in canonical field order (unknown fields last, sorted), lines joined.
    Built from whole-dict steps rather than field by field: every parse passes here."""
    ranks = [_RANK.get(key, _UNRANKED) for key in meta]
    if _UNRANKED not in ranks and ranks == sorted(ranks):
        out = dict(meta)  # in canonical order already, as gitmem writes it
    else:
        known = [k for k in FIELD_ORDER if k in meta]
        out = {k: meta[k] for k in [*known, *sorted(k for k in meta if k not in _RANK)]}
    for key in _ONE_LINE.intersection(out):
        if isinstance(value := out[key], str):
            out[key] = join_line(value)
    if tuple in map(type, out.values()):
        for key, value in out.items():
            if isinstance(value, tuple):
                out[key] = list(value)
    return out


def _dump_value(value: Any) -> str:
    if isinstance(value, list | tuple):
        items = [str(v) for v in value]
        if all(_writes_plain(item, _PLAIN_ITEM) for item in items):
            return "[" + ", ".join(items) + "]"
        return _dump_scalar(items)
    text = str(value)
    return text if _writes_plain(text, _PLAIN) else _dump_scalar(text)


def _writes_plain(text: str, pattern: re.Pattern[str]) -> bool:
    """True when text can be written unquoted: our reader reads it back as is (the fast
    reader's own test) and YAML's usual loaders read it as text too (not a number, a boolean
    or null), so other tools see what gitmem sees.  Dates stay plain, as in the design."""
    from gitmem.model import yamltext

    return _plain(text, pattern) and yamltext.reads_as_text(text)


def _needs_escapes(text: str) -> bool:
    return any(unicodedata.category(ch) in ("Cc", "Zl", "Zp", "Cs") and ch != "\t" for ch in text)


def _dump_scalar(value: str | list[str]) -> str:
    """One value in YAML flow style (lists as `[a, b]`), quoted only where YAML needs it."""
    # PyYAML writes NEL and the Unicode line separators raw when allow_unicode is on, and reads
    # them back as line breaks: such text is written with escapes instead.
    from gitmem.model import yamltext

    items = value if isinstance(value, list) else [value]
    return yamltext.dump(value, allow_unicode=not any(_needs_escapes(item) for item in items))


def render_meta(meta: Mapping[str, Any]) -> str:
    """Front matter lines in canonical order: `key: value`, lists in flow style."""
    return "".join(f"{key}: {_dump_value(value)}\n" for key, value in normalise_meta(meta).items())


# ---------------------------------------------------------------------------------------------
# parsing


#: Byte-order marks of the encodings an editor saves "Unicode" text in besides UTF-8 (UTF-32
#: first: its little-endian mark starts with UTF-16's).
_WIDE_BOMS: Final = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)


def decode(data: bytes) -> str:
    """Bytes to normalised text (BOM dropped, LF line ends), or an EntryError saying why not.
    A file saved as UTF-16 or UTF-32 (Windows editors' "Unicode") is said to be that, with
    what to do: its NUL bytes made it "a binary file", which sent its author looking for
    binary content in a text file."""
    for bom, encoding in _WIDE_BOMS:
        if data.startswith(bom):
            raise EntryError(
                "ENCODING",
                f"is {encoding} text (its byte-order mark says so): a memory entry is UTF-8; "
                "save the file as UTF-8",
                1,
            )
    if b"\x00" in data:
        raise EntryError(
            "BINARY", "is a binary file (NUL byte): a memory entry must be UTF-8 Markdown text"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise EntryError(
            "ENCODING",
            f"is not valid UTF-8 (byte {exc.start}): save the file as UTF-8",
            line,
        ) from None
    return normalise_text(text)


def _split_front_matter(text: str) -> tuple[str, str] | None:
    """(front matter, rest) as python-frontmatter's handler splits them, or None when the
    front matter is not closed. An entry that starts with a plain `---` line has its closing
    line found with str.find (gitmem.model.fields.closing_line) instead of the handler's pattern
    run over the whole text; a property test holds the two to the same answer."""
    if text.startswith("---\n"):
        start = closing_line(text)
        if start is None:
            return None
        end = text.find("\n", start)
        return text[3:start], text[len(text) if end == -1 else end :]
    from gitmem.model import yamltext

    try:
        fm_text, rest = yamltext.HANDLER.split(text)
    except ValueError:
        return None
    return fm_text, rest


def parse(source: str | bytes) -> Entry:
    """Parse an entry's text (or raw bytes); raise EntryError naming the rule and line."""
    text = decode(source) if isinstance(source, bytes) else normalise_text(source)
    if not text.startswith("---\n") and not _BOUNDARY.match(text):
        raise EntryError(
            "FRONT-MATTER",
            "has no front matter: start the file with a '---' line, the YAML fields, and '---'",
            1,
        )
    split = _split_front_matter(text)
    if split is None:
        raise EntryError(
            "FRONT-MATTER",
            "front matter is not closed: add a '---' line after the YAML fields",
            1,
        )
    fm_text, rest = split
    if len(fm_text) > MAX_FRONT_MATTER_CHARS:
        raise EntryError(
            "FRONT-MATTER",
            f"front matter is over {MAX_FRONT_MATTER_CHARS} characters: keep fields short",
            2,
        )
    fast = _fast_front_matter(fm_text)
    meta = fast or _read_yaml(fm_text)
    closing_line = text[: len(text) - len(rest)].count("\n") + 1
    context, content, evidence, heading_line = split_sections(rest, closing_line)
    entry = Entry(meta, context, content, evidence)
    object.__setattr__(entry, "body_line", heading_line)
    object.__setattr__(entry, "one_line_fields", bool(fast) and text.startswith("---\n"))
    return entry


_FIELD_LINES = re.compile(rb"[a-z_]{1,40}: [^\n]*(?:\n[a-z_]{1,40}: [^\n]*)*")
_ADMISSION_KEYS = tuple(f"{key}: ".encode() for key in ADMISSION_FIELDS)
_ADDED_KEYS = tuple(key for key in _ADMISSION_KEYS if key != b"status: ")


def _field_lines(data: bytes) -> tuple[list[bytes], int] | None:
    """The front-matter lines of a text whose every front-matter line is `key: value`, and
    where its closing `---` line starts; None for any other text."""
    end = data.find(b"\n---\n", 3) if data.startswith(b"---\n") else -1
    if end == -1 or not _FIELD_LINES.fullmatch(data, 4, end):
        return None
    return data[4:end].split(b"\n"), end


def is_candidate_text(candidate: bytes, admitted: Entry, admitted_data: bytes) -> bool:
    """True when candidate is exactly the text admitted_data (parsed as admitted) had before
    admission: the same bytes but for whole lines of the admission fields, and the status
    line `status: candidate`. Then its entry is admitted's without the admission fields, in
    status candidate, with no need to parse it: what a push of many admissions saves.

    Exact only because the admitted front matter was read one line a field (see
    Entry.one_line_fields), so a line that starts like a field is a field; False otherwise,
    and for anything else, which the caller then parses and compares.
    """
    if not admitted.one_line_fields or b"\r" in admitted_data or b"\r" in candidate:
        return False  # a lone CR is a line break to the parser, not to this comparison
    admitted_found, candidate_found = _field_lines(admitted_data), _field_lines(candidate)
    if admitted_found is None or candidate_found is None:
        return False  # a line that is not a field: the boundary is not where we think
    (admitted_lines, admitted_end), (candidate_lines, candidate_end) = (
        admitted_found,
        candidate_found,
    )
    if admitted_data[admitted_end:] != candidate[candidate_end:]:
        return False
    candidate_admission = [line for line in candidate_lines if line.startswith(_ADMISSION_KEYS)]
    if candidate_admission != [b"status: candidate"]:
        return False
    reviewed = [line for line in admitted_lines if not line.startswith(_ADMISSION_KEYS)]
    return reviewed == [line for line in candidate_lines if not line.startswith(_ADMISSION_KEYS)]


def candidate_text(admitted: Entry, admitted_data: bytes) -> bytes | None:
    """The bytes the candidate of an admitted text had if gitmem admit wrote it: the same
    text without the admission-field lines and with `status: candidate` on the status line.

    A push judge hashes them and compares the id with the candidate's blob: equal, the
    candidate is proven to be these bytes with neither a read nor a parse, and
    is_candidate_text(result, admitted, admitted_data) holds by construction (tested).
    None when the front matter is not one line a field or holds no single status line.
    """
    if not admitted.one_line_fields or b"\r" in admitted_data:
        return None
    found = _field_lines(admitted_data)
    if found is None:
        return None
    lines, end = found
    statuses = [n for n, line in enumerate(lines) if line.startswith(b"status: ")]
    if len(statuses) != 1:
        return None
    lines[statuses[0]] = b"status: candidate"
    kept = b"\n".join([line for line in lines if not line.startswith(_ADDED_KEYS)])
    return b"---\n" + kept + admitted_data[end:]


#: A front matter whose every line is blank or one `key: value`, and those lines' pairs.
_FIELD_BLOCK = re.compile(r"(?:[a-z_]{1,40}: [^\n]*)?(?:\n(?:[a-z_]{1,40}: [^\n]*)?)*")
_FIELD_PAIR = re.compile(r"^([a-z_]{1,40}): (.*)$", re.MULTILINE)
#: A value (joined to the one before by "\n") that plain text cannot start, or an empty one.
_NOT_PLAIN_START = re.compile(r"\n(?![^-?:,\[\]{}#&*!|>'\"%@`\s])")
#: What ends plain text inside a `[a, b]` list.
_NOT_PLAIN_ITEM = re.compile(r"[,\[\]{}?:\t]")


def _fast_front_matter(fm_text: str) -> dict[str, Any] | None:
    """Front matter as gitmem writes it (`key: plain text`, `key: [a, b]`), read without YAML;
    None for anything else, which then goes through the YAML loader.  A property test holds
    both readers to the same answer.  The lines and their values are checked together (one
    pattern over the block, one look over all values joined), not one by one: an entry's
    front matter is a third of parsing it."""
    if _FIELD_BLOCK.fullmatch(fm_text) is None:
        return None
    pairs = _FIELD_PAIR.findall(fm_text)
    meta: dict[str, Any] = dict(pairs)
    if len(meta) != len(pairs):
        return None  # a key given twice
    scalars: list[tuple[str, str]] = []
    items: list[str] = []
    for key, value in pairs:
        if value.startswith("[") and value.endswith("]"):
            inner = value[1:-1]
            meta[key] = listed = inner.split(", ") if inner else []
            items.extend(listed)
        else:
            scalars.append((key, value))
    if not _all_plain(items, item=True):
        return None
    if not _all_plain([value for _, value in scalars], item=False):
        for key, value in scalars:  # some value is not plain: quoted, or only YAML can tell
            if not _plain(value, _PLAIN):
                quoted = _single_quoted(value)
                if quoted is None:
                    return None
                meta[key] = quoted
    return meta


def _all_plain(values: list[str], *, item: bool) -> bool:
    """all(plain(value)) (plain_item when item), looked at over the values joined by "\n",
    which no value holds: a value's start follows a "\n", its end precedes one."""
    if not values:
        return True
    joined = "\n".join(values)
    if _NOT_PLAIN_START.search("\n" + joined) or (item and _NOT_PLAIN_ITEM.search(joined)):
        return False
    if "\t" in joined or ": " in joined or " #" in joined or ":\n" in joined or " \n" in joined:
        return False
    return not joined.endswith((":", " ")) and "".join(values).isprintable()


def _single_quoted(value: str) -> str | None:
    """The text of a one-line YAML single-quoted scalar ('it''s' is it's), as the renderer
    writes values holding ': ' or '#'; None for anything else."""
    if len(value) < 2 or value[0] != "'" or value[-1] != "'":
        return None
    inner = value[1:-1]
    if "'" in inner.replace("''", "") or not inner.isprintable():
        return None
    return inner.replace("''", "'")


def _load_yaml(fm_text: str) -> dict[str, Any]:
    return _fast_front_matter(fm_text) or _read_yaml(fm_text)


def _read_yaml(fm_text: str) -> dict[str, Any]:
    from gitmem.model import yamltext

    return yamltext.read(fm_text)


def front_matter(source: str | bytes) -> dict[str, Any]:
    """Only the front matter of an entry (no sections, no Entry): what generated views need,
    read by the fast reader when it can.  Raises EntryError like parse."""
    text = decode(source) if isinstance(source, bytes) else normalise_text(source)
    if not text.startswith("---\n"):
        raise EntryError("FRONT-MATTER", "has no front matter", 1)
    split = _split_front_matter(text)  # the closing line parse() finds
    if split is None:
        raise EntryError("FRONT-MATTER", "front matter is not closed", 1)
    fm_text = split[0]
    if len(fm_text) > MAX_FRONT_MATTER_CHARS:
        raise EntryError("FRONT-MATTER", "front matter is too long", 2)
    return normalise_meta(_load_yaml(fm_text))


def heading_text(line: str) -> str | None:
    """The text of a `## ` section heading line (exactly level 2, up to three spaces of indent
    as CommonMark renders one), or None."""
    if not _HEADING.match(line):
        return None
    found = heading(line)
    return found[1] if found else None


def split_sections(body: str, first_line: int = 1) -> tuple[str, str, str, int]:
    """The text of `## Context`, `## Content`, `## Evidence`, which must appear once, in order,
    and the line of `## Context`."""
    quick = _split_unfenced(body, first_line)
    if quick is not None:
        return quick
    found: list[tuple[str, int]] = []
    chunks: dict[str, list[str]] = {}
    current: list[str] | None = None
    lines = list(fenced(body.split("\n")))
    # a paragraph underlined with --- is a level-2 heading as `## ` makes one (CommonMark)
    setext = {h.first: h for h in setext_headings(lines) if h.level == 2}
    underline = -1  # the underline of the setext heading being read
    for offset, (line, in_code) in enumerate(lines):
        number = first_line + offset
        if offset <= underline:
            continue
        setext_at = setext.get(offset)
        if setext_at is not None:
            name: str | None = setext_at.text
            shown = f"'{name}' (underlined with ---, a level-2 heading)"
            underline = setext_at.underline
        else:
            name = None if in_code else heading_text(line)
            shown = f"'## {name}'"
        if name is not None:
            if name not in SECTIONS:
                raise EntryError(
                    "SECTIONS",
                    f"unexpected section {shown}: the body has exactly ## Context, "
                    "## Content and ## Evidence (use ### for sub-headings, and a blank line "
                    "above a --- that is a rule)",
                    number,
                )
            if name in chunks:
                raise EntryError("SECTIONS", f"section {shown} appears twice: keep one", number)
            expected = SECTIONS[len(found)]
            if name != expected:
                raise EntryError(
                    "SECTIONS",
                    f"section {shown} is out of order: expected '## {expected}' here "
                    "(order: Context, Content, Evidence)",
                    number,
                )
            found.append((name, number))
            current = chunks.setdefault(name, [])
            continue
        if current is None:
            if line.strip():
                raise EntryError(
                    "SECTIONS",
                    "text before '## Context': put it under one of the three sections",
                    number,
                )
            continue
        current.append(line)
    missing = [name for name in SECTIONS if name not in chunks]
    if missing:
        raise EntryError(
            "SECTIONS",
            "missing section "
            + ", ".join(f"'## {m}'" for m in missing)
            + ": the body has exactly ## Context, ## Content and ## Evidence, in that order",
            first_line + body.rstrip("\n").count("\n"),
        )
    context, content, evidence = ("\n".join(chunks[name]) for name in SECTIONS)
    return context, content, evidence, found[0][1]


def _split_unfenced(body: str, first_line: int) -> tuple[str, str, str, int] | None:
    """split_sections for the usual body: no code fence, blank above `## Context`, the three
    headings once each in order. Found with str.find instead of a look at every line; None
    for anything else, which split_sections reads line by line (and explains): a body with
    a line of only `-` or `=` too (a setext heading's underline, maybe), or a heading
    indented by one to three spaces."""
    if "```" in body or "~~~" in body or _UNDERLINE.search(body) or _INDENTED_HEADING.search(body):
        return None
    marks: list[tuple[int, int, str | None]] = []  # heading line: start, end, name
    start = 0 if body.startswith("##") else body.find("\n##") + 1
    while start > 0 or (start == 0 and body.startswith("##")):
        end = body.find("\n", start)
        end = len(body) if end == -1 else end
        if body[start + 2 : start + 3] in (" ", "\t"):
            marks.append((start, end, heading_text(body[start:end])))
        start = body.find("\n##", end) + 1
        if start == 0:
            break
    if [name for _, _, name in marks] != list(SECTIONS) or body[: marks[0][0]].strip():
        return None
    (c0, c1, _), (n0, n1, _), (e0, e1, _) = marks
    return (
        body[c1 + 1 : n0 - 1],
        body[n1 + 1 : e0 - 1],
        body[e1 + 1 :],
        first_line + body.count("\n", 0, c0),
    )


# ---------------------------------------------------------------------------------------------
# ids, slugs, topics


def slugify(text: str, max_length: int = SLUG_MAX) -> str:
    """Lowercase ASCII words joined by '-', cut at a word boundary; 'entry' when nothing is left."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return _joined(re.findall(r"[a-z0-9]+", ascii_text.lower()), max_length) or "entry"


def _joined(words: list[str], max_length: int) -> str:
    """words joined by '-' up to max_length characters, cut at a word boundary (the first word
    cut short when it alone is longer)."""
    joined = ""
    for word in words:
        longer = f"{joined}-{word}" if joined else word
        if len(longer) > max_length:
            break
        joined = longer
    if not joined and words:
        joined = words[0][:max_length]
    return joined


def topic_of(title: str) -> str:
    """The topic of a title, the key refused.md and the duplicate checks match on: its slug,
    unless the slug would drop a letter or digit of the title. A title in Japanese, Greek or
    Russian slugs to the fallback 'entry', or keeps only its Latin words, so refusing one such
    candidate refused every other; its topic is its own words, NFKC-normalised, case-folded
    and joined by '-'. Accents alone keep the slug: the topic of "Café" is "cafe"."""
    line = join_line(title)
    if _beyond_ascii(line):
        words = re.findall(r"[^\W_]+", unicodedata.normalize("NFKC", line).casefold())
        if words:
            return _joined(words, SLUG_MAX)
    return slugify(line)


def _beyond_ascii(text: str) -> bool:
    """Whether a letter or digit of text is not ASCII once accents are taken off."""
    if text.isascii():
        return False
    bare = unicodedata.normalize("NFKD", text)
    return any(not char.isascii() and char.isalnum() for char in bare)


#: hex digits of the topic's SHA-256 that end the id of a title beyond ASCII
_TOPIC_DIGITS = 8


def id_slug(title: str) -> str:
    """What an id made for title ends in: its slug; for a title whose letters go beyond ASCII
    (Japanese, Greek, Russian…), which the slug drops, what the slug keeps and then
    _TOPIC_DIGITS hex digits of the SHA-256 of its topic (`topic_of`). Such titles all got
    `…-entry`, `…-entry-2`, `…-entry-3`: ids that said nothing and were numbered by the order
    the proposals came in. Now each title gets its own id, the same on every machine."""
    line = join_line(title)
    if not _beyond_ascii(line):
        return slugify(line)
    digest = hashlib.sha256(topic_of(line).encode("utf-8")).hexdigest()[:_TOPIC_DIGITS]
    return f"{slugify(line, SLUG_MAX - _TOPIC_DIGITS - 1)}-{digest}"


def make_id(project: str, type_: str, created: str, title: str) -> str:
    """`<project>-<type>-<yyyymmdd>-<slug>`: created is YYYY-MM-DD, slug `id_slug`'s."""
    return f"{project}-{type_}-{created.replace('-', '')}-{id_slug(title)}"


def id_with_suffix(base: str, n: int) -> str:
    """The n-th id for a colliding title: base, base-2, base-3…"""
    return base if n <= 1 else f"{base}-{n}"
