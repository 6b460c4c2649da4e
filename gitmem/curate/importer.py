"""`gitmem import claude`: lift Claude Code's memory files into `method` candidates, once.

Where Claude Code keeps memory (read, never written: nothing is ever written under `.claude/`):

    <base>/agent-memory/<agent>/MEMORY.md         a sub-agent's memory, scope "project"
    <base>/agent-memory-local/<agent>/MEMORY.md   the same, scope "local" (git-ignored)
    <base>/projects/<project>/memory/             auto memory (user level, under ~/.claude),
                                                  <project> = the repository's absolute path
                                                  with every character but letters and digits
                                                  turned into '-'
    a folder holding MEMORY.md itself             any of the above, named directly

`<base>` is the repository's own `.claude/` by default; `--from DIR` names another (for example
`~/.claude` for user-scope agent memory and this repository's auto memory, or one memory folder).

What becomes one candidate:

- each top-level list item of a MEMORY.md.  When the item links a note in the same folder
  (`- [Title](note.md) — hook`), the link text is the title, the note's body is the content and
  the note's `description` (else the hook) says when it applies;
- each other Markdown file of a memory folder that no item links: a topic file, whose front
  matter `name` / `description` / `type` give the title, when it applies and a tag.

Once only: an item whose topic (the slug of its title, or its own words where the slug would
drop letters: gitmem.model.entry.topic_of) is already pending on a candidate
branch, is an entry on the main branch, or was imported earlier in the same run is skipped as a
duplicate; so is one whose own file (a linked note, a topic file), or whose MEMORY.md with its
very text, is the `import:` source of such a candidate or entry (a reviewer may have corrected
its title since); a refused topic is skipped and its refusal shown.  An item whose text
holds a secret anywhere (its MEMORY.md lines and the heading it sits under, the whole note,
front matter included) is reported and nothing is written for it.  So running the import
again writes nothing new.  One run proposes at most MAX_PROPOSED candidates and says where it
stopped: the next run goes on from there.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gitmem.curate import dry_problems
from gitmem.errors import RuleError, UsageError
from gitmem.lifecycle.propose import propose
from gitmem.model.entry import EntryError, slugify, topic_of
from gitmem.model.markdown import FENCE, UnreadableFile, fenced, read_text, setext_headings
from gitmem.model.markdown import heading as md_heading
from gitmem.model.proposal import ProposalFields
from gitmem.repo.workspace import Workspace

if TYPE_CHECKING:
    from gitmem.gate.secrets import Finding

MAX_FILE_BYTES = 256 * 1024
MAX_FILES = 2000
#: candidates one run proposes (or, dry, would): a MEMORY.md of 256 KiB holds tens of
#: thousands of one-line items; the next run goes on from where this one stopped
MAX_PROPOSED = 500
MAX_TITLE = 120
AGENT_FOLDERS = ("agent-memory", "agent-memory-local")
INDEX_NAME = "MEMORY.md"

CREATED = "created"
WOULD_CREATE = "would create"
DUPLICATE = "duplicate"
REFUSED = "refused"
SECRET = "secret"
INVALID = "invalid"
OUTCOMES = (CREATED, WOULD_CREATE, DUPLICATE, REFUSED, SECRET, INVALID)
LABELS = {
    CREATED: "created",
    WOULD_CREATE: "would be created",
    DUPLICATE: "skipped as duplicate",
    REFUSED: "refused",
    SECRET: "secret",
    INVALID: "invalid",
}


@dataclass(frozen=True)
class MemoryFolder:
    """A folder of Claude Code memory: whose it is and what kind."""

    path: Path
    kind: str  # "agent" or "auto"
    agent: str = ""


@dataclass(frozen=True)
class Scanned:
    """Raw text an item was built from: scanned for secrets, reported by path and line."""

    where: str
    text: str
    first_line: int = 1


@dataclass(frozen=True)
class Item:
    """One memory lifted from Claude Code, ready to become a candidate's fields."""

    origin: str
    source_path: str
    title: str
    applies_when: str
    content: str
    context: str
    evidence: str
    tags: tuple[str, ...]
    scanned: tuple[Scanned, ...]
    #: the item is a whole file (a linked note, a topic file), so its path alone names it;
    #: a MEMORY.md item shares its file with the others there
    whole_file: bool = False

    @property
    def topic(self) -> str:
        return topic_of(self.title)

    def fields(self) -> ProposalFields:
        return ProposalFields(
            type="method",
            title=self.title,
            applies_when=self.applies_when,
            source=f"import:{self.source_path}",
            tags=tuple(self.tags),
            context=self.context,
            content=self.content,
            evidence=self.evidence,
        )


@dataclass(frozen=True)
class Outcome:
    item: Item
    status: str
    detail: str
    id: str | None = None

    @property
    def title(self) -> str:
        """The item's title as reports show it: never the text of an item holding a secret."""
        return "(withheld: it holds a secret)" if self.status == SECRET else self.item.title

    @property
    def topic(self) -> str:
        return "" if self.status == SECRET else self.item.topic

    @property
    def origin(self) -> str:
        """Where the item came from, as reports show it: never a path that holds a secret."""
        if self.status == SECRET and any(_path_secrets(p.where) for p in self.item.scanned):
            return WITHHELD_PATH
        return self.item.origin


@dataclass
class ImportReport:
    base: str
    folders: list[str] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def ok(self) -> bool:
        return not any(o.status in (SECRET, INVALID) for o in self.outcomes)


# ---------------------------------------------------------------------------------------------
# finding the memory folders


def project_folder_name(root: Path) -> str:
    """The folder name Claude Code gives a project under ~/.claude/projects/."""
    return re.sub(r"[^A-Za-z0-9]", "-", str(root.absolute()))


def find_folders(
    base: Path, repo_root: Path | None, linked: list[Path] | None = None
) -> list[MemoryFolder]:
    """Every memory folder below base, in a stable order (see the module docstring); a
    symbolic link where a memory folder goes is not followed, and goes to linked."""

    def usable(path: Path) -> bool:
        if path.is_symlink():
            if linked is not None:
                linked.append(path)
            return False
        return path.is_dir()

    found: list[MemoryFolder] = []
    if (base / INDEX_NAME).is_file():
        found.append(_folder(base))
    for name in AGENT_FOLDERS:
        parent = base / name
        if usable(parent):
            for child in sorted(parent.iterdir()):
                if usable(child):
                    found.append(MemoryFolder(child, "agent", child.name))
    memory = base / "memory"
    if usable(memory):
        found.append(MemoryFolder(memory, "auto"))
    if repo_root is not None:
        auto = base / "projects" / project_folder_name(repo_root) / "memory"
        if usable(auto):
            found.append(MemoryFolder(auto, "auto"))
    return found


def _folder(path: Path) -> MemoryFolder:
    if path.parent.name in AGENT_FOLDERS:
        return MemoryFolder(path, "agent", path.name)
    return MemoryFolder(path, "auto")


# ---------------------------------------------------------------------------------------------
# reading files


def _read(path: Path) -> str:
    """A memory file's text; refuses symlinks, huge files, binary and non-UTF-8 files."""
    return read_text(path, MAX_FILE_BYTES, kind="memory note")


def split_front_matter(text: str) -> tuple[dict[str, str], str, int]:
    """(front matter as strings, body, line of the body's first line); no front matter → {}."""
    if not text.startswith("---\n"):
        return {}, text, 1
    end = re.search(r"^---[ \t]*$", text[4:], re.MULTILINE)
    if end is None:
        return {}, text, 1
    block = text[4 : 4 + end.start()]
    body = text[4 + end.end() :].removeprefix("\n")
    body_line = text[: len(text) - len(body)].count("\n") + 1
    import yaml

    try:
        loaded = yaml.safe_load(block) if len(block) <= 16 * 1024 else None
    except (yaml.YAMLError, RecursionError):  # a few KB of `[[[…` nest past Python's stack
        loaded = None
    meta: dict[str, str] = {}
    if isinstance(loaded, dict):
        for key, value in loaded.items():
            if isinstance(value, str | int | float) and not isinstance(value, bool):
                meta[str(key)] = " ".join(str(value).split())
        nested = loaded.get("metadata")
        if isinstance(nested, dict) and "type" not in meta and isinstance(nested.get("type"), str):
            meta["type"] = nested["type"].strip()
    return meta, body, body_line


# ---------------------------------------------------------------------------------------------
# MEMORY.md items

_ITEM = re.compile(r"^(?:[-*+]|\d{1,9}[.)])[ \t]+(.*)$")
_FENCE = FENCE
_LINK = re.compile(r"\[([^\]\n]{1,300})\]\(\s*<?([^)\s>]{1,300})>?(?:\s+\"[^\"]*\")?\s*\)")


@dataclass(frozen=True)
class ListItem:
    line: int
    lines: tuple[str, ...]
    heading: str
    #: the heading's own line as written, and its number (0: no heading): it becomes the
    #: item's applies_when, so it is scanned for secrets with the item
    heading_source: str = ""
    heading_line: int = 0


def list_items(text: str) -> list[ListItem]:
    """The top-level list items of a Markdown text, each with its continuation lines and the
    heading it sits under; list markers inside fenced code are not items. A fence opened
    inside an item (indented) ends with the item, at the first line not indented (but its
    closing fence, however indented), as a Markdown reader ends it: left open, it is closed
    there in the item's lines."""
    items: list[ListItem] = []
    current: list[str] | None = None
    start = 0
    heading = ""
    heading_source, heading_line = "", 0
    fence: str | None = None
    fence_in_item = ""  # the indent of a fence opened inside an item
    blank = False

    def close() -> None:
        nonlocal current, fence
        if current is not None and fence is not None and fence_in_item:
            current.append(fence_in_item + fence)
            fence = None
        if current is not None:
            items.append(ListItem(start, tuple(current), heading, heading_source, heading_line))
        current = None

    for number, line in enumerate(text.split("\n"), start=1):
        fence_match = _FENCE.match(line)
        closes = fence is not None and fence_match and fence_match.group(1).startswith(fence)
        if fence is not None and fence_in_item and line[:1] not in ("", " ", "\t") and not closes:
            close()  # the item ends here, and the code it held with it
        if fence is not None:
            if fence_match and fence_match.group(1).startswith(fence):
                fence = None
            if current is not None:
                current.append(line)
            continue
        if fence_match:
            fence = fence_match.group(1)[0] * len(fence_match.group(1))
            indent = line[: len(line) - len(line.lstrip())]
            fence_in_item = indent if current is not None else ""
            if current is not None and (line.startswith((" ", "\t")) or not blank):
                current.append(line)
            else:
                close()
            blank = False
            continue
        item = _ITEM.match(line)
        head = md_heading(line)
        if item:
            close()
            current, start = [item.group(1)], number
        elif current is not None and line.startswith(("  ", "\t")) and line.strip():
            # indented under an item, a heading is the item's own (a Markdown reader keeps
            # it in the item): taken for the section's, the lines after it were lost and
            # every later item was filed under it
            current.append(line)
        elif head:
            close()
            heading = _plain(head[1])
            heading_source, heading_line = line, number
        elif not line.strip():
            if current is not None:
                current.append("")
        elif current is not None and (line.startswith((" ", "\t")) or not blank):
            current.append(line)
        else:
            close()
        blank = not line.strip()
    close()
    return items


def _plain(text: str) -> str:
    """Markdown inline text as plain words: links to their text, emphasis and code marks off."""
    text = _LINK.sub(lambda m: m.group(1), text)
    text = re.sub(r"[*`]{1,3}|(?<!\w)_{1,3}|_{1,3}(?!\w)", "", text)
    return " ".join(text.split())


def _dedent(lines: tuple[str, ...] | list[str]) -> str:
    out = [lines[0]] if lines else []
    rest = [line for line in lines[1:]]
    indents = [len(line) - len(line.lstrip()) for line in rest if line.strip()]
    cut = min(indents) if indents else 0
    out.extend(line[cut:] if line.strip() else "" for line in rest)
    return "\n".join(out).strip("\n")


def demote_headings(text: str) -> str:
    """Headings become `###` sub-headings (an entry has exactly three `##` sections), a
    paragraph underlined with `===` or `---` (a setext heading) too."""
    lines = list(fenced(text.split("\n")))
    setext = {found.first: found for found in setext_headings(lines)}
    out = []
    underline = -1  # the underline of the setext heading being replaced
    for number, (line, in_code) in enumerate(lines):
        if number <= underline:
            continue
        found = setext.get(number)
        if found is not None:
            out.append(f"### {found.text}")
            underline = found.underline
            continue
        head = None if in_code else md_heading(line)
        out.append(f"### {head[1]}" if head and head[0] < 3 else line)
    return "\n".join(out)


def first_sentence(text: str, limit: int = MAX_TITLE) -> str:
    """The first sentence of plain text, cut at a word boundary to at most limit characters.
    A full stop of Chinese or Japanese (。！？) ends one with no space after it."""
    plain = _plain(text)
    match = re.match(r"(.+?(?:[.!?](?=\s|$)|[。！？]))", plain)
    sentence = (match.group(1) if match else plain).rstrip(".。")
    for separator in (" — ", " – ", ": ", "; "):
        head = sentence.split(separator, 1)[0]
        if separator in sentence and len(head) >= 12:
            sentence = head
            break
    if len(sentence) <= limit:
        return sentence
    cut = sentence[:limit].rsplit(" ", 1)[0]
    return cut or sentence[:limit]


def _linked_note(folder: Path, target: str) -> Path | None:
    """The note a link points at when it is a Markdown file in the same folder."""
    target = target.split("#", 1)[0].removeprefix("./")
    if not target.endswith(".md") or "/" in target or "\\" in target or ":" in target:
        return None
    if target in ("", ".", "..", INDEX_NAME):
        return None
    return folder / target


def _hook(text: str, link: re.Match[str]) -> str:
    rest = (text[: link.start()] + " " + text[link.end() :]).strip()
    rest = re.sub(r"^[\s—–:,;-]+", "", rest)
    return _plain(rest)


def _title_of_name(name: str) -> str:
    if re.fullmatch(r"[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)+", name):
        words = re.split(r"[-_]", name)
        return " ".join(words)[0].upper() + " ".join(words)[1:]
    return name


def _close_fence(text: str) -> str:
    """A note's text with the code fence it leaves open closed at its end, where Markdown
    ends the code block: a candidate's section must close it, or the sections after it read
    as code (and propose refuses it)."""
    lines = text.split("\n")
    if not list(fenced([*lines, ""]))[-1][1]:
        return text
    fence = indent = ""
    for line in lines:
        found = _FENCE.match(line)
        if not fence and found:
            fence = found.group(1)[0] * len(found.group(1))
            indent = line[: len(line) - len(line.lstrip())]
        elif fence and found and found.group(1).startswith(fence):
            fence = ""
    closed = f"{text.rstrip()}\n{indent}{fence}" if fence else text
    return text if list(fenced([*closed.split("\n"), ""]))[-1][1] else closed


def _strip_title_heading(body: str) -> tuple[str, str]:
    """(a leading `# Heading` of a note, the body without it)."""
    lines = body.strip("\n").split("\n")
    if lines and (head := md_heading(lines[0])) and head[0] == 1:
        return _plain(head[1]), "\n".join(lines[1:]).strip("\n")
    return "", body.strip("\n")


# ---------------------------------------------------------------------------------------------
# items of one folder


@dataclass
class _Reader:
    """Shared state of one import run: how to show paths, what went wrong reading."""

    repo_root: Path | None
    notes: list[str] = field(default_factory=list)
    files_read: int = 0

    def show(self, path: Path) -> str:
        """A path as reports and `source:` show it: repository-relative, ~-relative or as is."""
        absolute = path.absolute()
        if self.repo_root is not None:
            with contextlib.suppress(ValueError):
                return absolute.relative_to(self.repo_root.absolute()).as_posix()
        home = os.environ.get("HOME")
        if home:
            with contextlib.suppress(ValueError):
                return "~/" + absolute.relative_to(Path(home).absolute()).as_posix()
        return absolute.as_posix()

    def read(self, path: Path) -> str | None:
        # a note's path goes into its candidate (source, Context, Evidence), which is UTF-8:
        # a name the OS gave as lone surrogates (its bytes are not UTF-8) cannot
        shown = self.show(path)
        escaped = shown.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        if escaped != shown:
            self.notes.append(f"{_safe_path(escaped)}: skipped: its name is not UTF-8: rename it")
            return None
        self.files_read += 1
        if self.files_read > MAX_FILES:
            if self.files_read == MAX_FILES + 1:
                self.notes.append(f"stopped after {MAX_FILES} files: import a smaller folder")
            return None
        try:
            return _read(path)
        except UnreadableFile as exc:
            self.notes.append(f"{_safe_path(self.show(path))}: skipped: it {exc}")
        except OSError as exc:
            self.notes.append(f"{_safe_path(self.show(path))}: skipped: {exc.strerror or exc}")
        return None


def folder_items(folder: MemoryFolder, reader: _Reader) -> list[Item]:
    """The items of one memory folder: MEMORY.md's items, then the topic files none links."""
    items: list[Item] = []
    linked: dict[str, int] = {}  # the notes MEMORY.md's items link → the first item's line
    index = folder.path / INDEX_NAME
    if index.is_file() or index.is_symlink():
        text = reader.read(index)
        if text is not None:
            for entry in list_items(text):
                item = _from_list_item(folder, reader, index, entry, linked)
                if item is not None:
                    items.append(item)
    try:
        others = sorted(p for p in folder.path.iterdir() if p.suffix == ".md")
    except OSError as exc:
        reader.notes.append(
            f"{_safe_path(reader.show(folder.path))}: skipped: {exc.strerror or exc}"
        )
        others = []
    for path in others:
        if path.name == INDEX_NAME or path.name in linked:
            continue
        text = reader.read(path)
        if text is not None:
            item = _from_topic_file(folder, reader, path, text)
            if item is not None:
                items.append(item)
    return items


def _whose(folder: MemoryFolder) -> str:
    if folder.kind == "agent":
        return f"the {folder.agent} agent's memory"
    return "Claude Code auto memory"


def _tags(folder: MemoryFolder, kind: str = "") -> tuple[str, ...]:
    tags = ["imported", "claude-code"]
    if folder.kind == "agent":
        tags.append(slugify(folder.agent))
    else:
        tags.append("auto-memory")
    if kind:
        tags.append(slugify(kind))
    return tuple(dict.fromkeys(tags))


def _evidence(origin: str) -> str:
    return (
        f"Lifted from `{origin}` by `gitmem import claude`: an agent's own note, not yet "
        "checked by a person. Review it against the code before admitting."
    )


def _from_list_item(
    folder: MemoryFolder,
    reader: _Reader,
    index: Path,
    entry: ListItem,
    linked: dict[str, int],
) -> Item | None:
    index_shown = reader.show(index)
    origin = f"{index_shown}:{entry.line}"
    text = _dedent(entry.lines)
    if not text.strip():
        return None
    scanned = [Scanned(index_shown, "\n".join(entry.lines), entry.line)]
    if entry.heading_source:
        scanned.append(Scanned(index_shown, entry.heading_source, entry.heading_line))
    first = entry.lines[0]
    link = next((m for m in _LINK.finditer(first) if _linked_note(folder.path, m.group(2))), None)
    note_path = _linked_note(folder.path, link.group(2)) if link else None
    if (
        link is not None
        and note_path is not None
        and (note_path.is_file() or note_path.is_symlink())
    ):
        if note_path.name in linked:  # one note, one candidate, however many items link it
            reader.notes.append(
                f"{_safe_path(origin)}: skipped: it links {_safe_path(reader.show(note_path))}, "
                f"which the item at line {linked[note_path.name]} imports"
            )
            return None
        linked[note_path.name] = entry.line
        note_text = reader.read(note_path)
        if note_text is None:
            return None
        note_shown = reader.show(note_path)
        scanned.append(Scanned(note_shown, note_text))
        meta, body, _ = split_front_matter(note_text)
        heading, body = _strip_title_heading(body)
        title = _plain(link.group(1)) or heading or _title_of_name(note_path.stem)
        hook = _hook(first, link)
        extra = _dedent(list(entry.lines[1:])) if len(entry.lines) > 1 else ""
        parts = (_close_fence(body.strip()), _close_fence(extra.strip()))
        content = "\n\n".join(part for part in parts if part)
        applies = meta.get("description") or hook or entry.heading or title
        return Item(
            origin=f"{origin} → {note_shown}",
            source_path=note_shown,
            title=title,
            applies_when=applies,
            content=demote_headings(content or hook or title),
            context=f"From {_whose(folder)}: {index_shown}, item at line {entry.line}, "
            f"and the note it links, {note_shown}.",
            evidence=_evidence(note_shown),
            tags=_tags(folder, meta.get("type", "")),
            scanned=tuple(scanned),
            whole_file=True,
        )
    title = first_sentence(first)
    if not title:
        return None
    return Item(
        origin=origin,
        source_path=index_shown,
        title=title,
        applies_when=entry.heading or title,
        content=demote_headings(_close_fence(text)),
        context=f"From {_whose(folder)}: {index_shown}, item at line {entry.line}.",
        evidence=_evidence(index_shown),
        tags=_tags(folder),
        scanned=tuple(scanned),
    )


def _from_topic_file(folder: MemoryFolder, reader: _Reader, path: Path, text: str) -> Item | None:
    shown = reader.show(path)
    meta, body, _ = split_front_matter(text)
    heading, body = _strip_title_heading(body)
    name = meta.get("name", "")
    title = (_title_of_name(name) if name else "") or heading or _title_of_name(path.stem)
    content = _close_fence(body.strip()) or meta.get("description", "")
    # a name of punctuation alone (".") has no words: the first sentence then, as an item's
    title = first_sentence(title) or first_sentence(content)
    if not content or not title:
        return None
    return Item(
        origin=shown,
        source_path=shown,
        title=title,
        applies_when=meta.get("description") or title,
        content=demote_headings(content),
        context=f"From {_whose(folder)}: the topic file {shown}"
        + (f" (a {meta['type']} memory)." if meta.get("type") else "."),
        evidence=_evidence(shown),
        tags=_tags(folder, meta.get("type", "")),
        scanned=(Scanned(shown, text),),
        whole_file=True,
    )


def collect(base: Path, repo_root: Path | None) -> tuple[list[MemoryFolder], list[Item], list[str]]:
    """The memory folders below base and the items they hold, with notes on skipped files."""
    reader = _Reader(repo_root)
    linked: list[Path] = []
    folders = find_folders(base, repo_root, linked)
    reader.notes.extend(
        f"{_safe_path(reader.show(path))}: skipped: it is a symbolic link, which import does "
        "not follow: name the folder it leads to with --from"
        for path in linked
    )
    items: list[Item] = []
    for folder in folders:
        items.extend(folder_items(folder, reader))
    return folders, items, reader.notes


# ---------------------------------------------------------------------------------------------
# the import


WITHHELD_PATH = "(withheld: its path holds a secret)"


def _secrets_in(text: str, first_line: int = 1) -> list[Finding]:
    from gitmem.gate import secrets

    return [
        f
        for f in secrets.scan_text(text, line_offset=first_line - 1)
        if f.rule not in ("hidden-unicode", "scan-size-cap")
    ]


@functools.lru_cache(maxsize=4096)
def _path_secrets(shown: str) -> tuple[Finding, ...]:
    """The secrets a file's path holds: its name (a topic file's title, a note's fallback
    title) and its folders (an agent's name, a tag) go into the candidate and the report."""
    return tuple(_secrets_in(shown))


def _safe_path(shown: str) -> str:
    """A path as a report may show it: withheld when it holds a secret."""
    return WITHHELD_PATH if _path_secrets(shown) else shown


def _secret_lines(item: Item) -> list[str]:
    """Every secret the item's text or the paths it was read from hold, each said without
    the secret (its rule and a redacted excerpt), a path holding one withheld."""
    found: list[str] = []
    for part in item.scanned:
        where = _safe_path(part.where)
        found.extend(
            f"{where}: SECRET {finding.rule}: {finding.description} ({finding.excerpt}) in "
            "the file's path: rename it"
            for finding in _path_secrets(part.where)
        )
        found.extend(
            f"{where}:{finding.line}: SECRET {finding.rule}: {finding.description} "
            f"({finding.excerpt})"
            for finding in _secrets_in(part.text, part.first_line)
        )
    return found


@dataclass
class _Known:
    """What the memory holds already: an item it holds is a duplicate. By topic; and, since a
    reviewer may correct an imported entry's title (then its topic), by where it was imported
    from: a note's or topic file's path alone, a MEMORY.md item's path with its very text."""

    topics: dict[str, str] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)
    texts: dict[tuple[str, str], str] = field(default_factory=dict)

    def add(self, topic: str, source: str, content: str, holder: str) -> None:
        self.topics.setdefault(topic, holder)
        if source.startswith("import:"):
            path = source.removeprefix("import:")
            self.sources.setdefault(path, holder)
            self.texts.setdefault((path, _words(content)), holder)

    def holding(self, item: Item) -> str | None:
        """Why the item is a duplicate, or None."""
        topic = item.topic
        if topic in self.topics:
            holder = self.topics[topic]
            article = "an" if holder[:1] in "aeiou" else "a"
            return f"topic {topic!r} is already {article} {holder}"
        if item.whole_file and item.source_path in self.sources:
            return f"{item.source_path} was imported already: {self.sources[item.source_path]}"
        held = self.texts.get((item.source_path, _words(item.content)))
        if held is not None:
            return f"this item of {item.source_path} was imported already: {held}"
        return None


def _words(text: str) -> str:
    return " ".join(text.split())


def _known_topics(ws: Workspace) -> _Known:
    """What pending candidates and entries on the main branch hold (_Known)."""
    from gitmem.lifecycle import read as memory
    from gitmem.lifecycle.candidates import pending

    known = _Known()
    for path, entry in memory.entries(ws):
        holder = f"{entry.status} entry {entry.id} ({path})"
        known.add(topic_of(entry.title), entry.source, entry.content, holder)
    for candidate in pending(ws):
        if candidate.data is None:
            continue
        with contextlib.suppress(EntryError):
            entry = candidate.entry()
            holder = f"pending candidate {candidate.id} ({candidate.ref})"
            known.add(entry.topic, entry.source, entry.content, holder)
    return known


def _refusals(ws: Workspace) -> dict[str, Any]:
    from gitmem.model import refused

    tip = ws.main_tip()
    if tip is None:
        return {}
    data = ws.store.read_path(ws.store.tree_of(tip), f"{ws.dir}/refused.md")
    return dict(refused.parse(data.decode("utf-8", "replace"))) if data else {}


def default_base(ws: Workspace) -> Path:
    root = ws.store.workdir
    if root is None:
        raise UsageError("this is a bare repository: name the memory to import with --from DIR")
    return root / ".claude"


def import_claude(
    ws: Workspace, base: Path | None = None, *, dry_run: bool = False
) -> ImportReport:
    """Propose one `method` candidate per new Claude Code memory item below base (default: the
    repository's `.claude/`); see the module docstring for what is skipped and why."""
    repo_root = ws.store.workdir
    ws.memory_tip()  # a memory branch missing here is named, not taken for an empty memory
    if base is None and default_base(ws).is_symlink():
        # as a memory folder that is a link: a cloned repository's .claude may lead anywhere,
        # to the user's own ~/.claude say; a folder named with --from is the person's choice
        return ImportReport(
            ".claude",
            notes=[
                ".claude is a symbolic link, which import does not follow: name the folder it "
                "leads to with --from"
            ],
        )
    base = base if base is not None else default_base(ws)
    if not base.exists():
        if base.name == ".claude" and base.parent == repo_root:
            return ImportReport(
                str(base), notes=[f"no {base.name}/ folder here: nothing to import"]
            )
        raise UsageError(f"{base}: no such folder: name a Claude Code memory folder with --from")
    if not base.is_dir():
        raise UsageError(f"{base} is not a folder: name a Claude Code memory folder with --from")
    folders, items, notes = collect(base, repo_root)
    reader = _Reader(repo_root)
    report = ImportReport(
        reader.show(base), [_safe_path(reader.show(f.path)) for f in folders], notes=notes
    )
    if not folders:
        report.notes.append(
            f"no Claude Code memory below {report.base} (looked for agent-memory/<agent>/, "
            "agent-memory-local/<agent>/, projects/<this repository>/memory/ and MEMORY.md)"
        )
        return report
    known = _known_topics(ws)
    refusals = _refusals(ws)
    proposed = 0
    for number, item in enumerate(items):
        if proposed >= MAX_PROPOSED:
            report.notes.append(
                f"stopped after proposing {MAX_PROPOSED} candidates ({len(items) - number} "
                "items not read): review them, then run gitmem import claude again for the rest"
            )
            break
        outcome = _one(ws, item, known, refusals, dry_run)
        report.outcomes.append(outcome)
        proposed += outcome.status in (CREATED, WOULD_CREATE)
    return report


def _one(
    ws: Workspace,
    item: Item,
    known: _Known,
    refusals: dict[str, Any],
    dry_run: bool,
) -> Outcome:
    secret = _secret_lines(item)
    if secret:
        return Outcome(item, SECRET, "\n".join(secret))
    topic = item.topic
    refusal = refusals.get(topic)
    if refusal is not None:
        return Outcome(item, REFUSED, f"topic {topic!r} was {refusal.describe()}")
    duplicate = known.holding(item)
    if duplicate is not None:
        return Outcome(item, DUPLICATE, duplicate)
    if dry_run:
        problems = dry_problems(ws, item.fields())
        if problems:
            return Outcome(item, INVALID, f"{problems}\n{_correct_at(item)}")
        known.add(topic, f"import:{item.source_path}", item.content, "candidate of this import")
        return Outcome(item, WOULD_CREATE, f"topic {topic!r}")
    try:
        proposal = propose(ws, item.fields())
    except RuleError as exc:
        return Outcome(item, INVALID, f"{exc.message}\n{_correct_at(item)}")
    holder = f"pending candidate {proposal.id} (this import)"
    known.add(topic, f"import:{item.source_path}", item.content, holder)
    warnings = "; ".join(str(w) for w in proposal.warnings)
    return Outcome(
        item,
        CREATED,
        f"branch {proposal.branch}" + (f"; {warnings}" if warnings else ""),
        proposal.id,
    )


def _correct_at(item: Item) -> str:
    """What to do about an item propose refused: its problems name the candidate file, never
    written; the file to correct is the one the item came from."""
    return (
        f"made from {item.origin}: correct it there (Claude Code's memory), then run gitmem "
        "import claude again"
    )


def iter_rows(report: ImportReport) -> Iterator[tuple[str, int]]:
    """The summary table's rows: (label, count); `would be created` only on a dry run."""
    for status in OUTCOMES:
        count = report.count(status)
        if status in (WOULD_CREATE, INVALID) and not count:
            continue
        yield LABELS[status], count
