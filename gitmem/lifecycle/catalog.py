"""The agents' catalog: one line per admitted entry of a memory tree, newest admission first.

Three things agents ask need every admitted entry's small fields, not a ranked search: the
entries citing the file being edited (the PreToolUse hook, on every edit), the latest
admissions (MCP `memory_recent`) and the budgeted index (`gitmem export`).  Reading 100,000
entry files for each would take seconds, so the answer is kept in the git directory
(`<git common dir>/gitmem/agents/catalog-<entries tree id>-<folder key>.tsv`, shared by linked
worktrees), named by the entries tree it describes, the memory folder it lies in (a line
names its entry's path, which `memory.dir` changes while the tree stays the same) and the
secret scanner that judged its lines (`_scanner`): a file that exists is right, by
construction.

One line per admitted entry (superseded entries are left out), tab-separated: admitted date,
id, type, path, tags, files, supersedes, title, applies_when, admitted_by, and `1` when the
secret scanner finds a secret in those fields (else nothing: a hook then shows the entry
without importing the scanner, gitmem.agents.precedents.withheld); lists joined by U+001F;
text fields flattened to one line (gitmem.model.terminal.clean), but the entry's path and
the cited files kept exact (`_kept`: only `%` and control characters escaped), since they are
looked up in git.  Lines are sorted by admission date, newest first, then by id and path.
Before them the file keeps two sorted tables, one line each: the cited paths with the offsets
of the lines citing each (newest first), and the ids with the offsets of their lines (one,
but for copies committed around the gate).  Finding the
entries that cite the file being edited, or the line of one id (a recalled hit's provenance,
whether a candidate is admitted), is a binary search of a table in the mapped file and a read
of those lines, whatever the size of the memory (100,000 generated entries make a catalog of
some 36 MB, whose scan alone would cost 10 to 30 ms).

An agent's hook opens a catalog without opening the repository (`stored`: the git common
directory, the memory folder and the tree id are all it needs).  The post-* git hooks bring a
kept catalog up to main's tip (gitmem.lifecycle.refresh.warm_agents_catalog), so the agent's
first hook after an admission finds it made; one that does not (the tip moved without a git
hook) brings it up with the files git itself reads (`brought_up` with
gitmem.repo.trees.GitTrees), so this module loads pygit2 only when it must build one from
every entry.

A new tree is brought up from the newest whole catalog on disk by the tree diff, else built by
reading every entry (two processes from 4,000 entries, as the recall cache does).  Brought up,
it is kept as a delta over that catalog (`delta-<tree>-<base tree>-<folder key>.tsv`: the
paths whose lines no longer stand, then the new lines in the catalog's order), so an admission
costs its entries' lines and a small write, not a rewrite of every line (the first hook after
an admission took 1.3-1.4 s at 100,000 entries for it: bench/agents.py).  Readers merge the
two: a lookup is the binary search of the whole catalog's table, its lines of removed paths
passed over, and a scan of the delta's few lines.  Past DELTA_MAX changed files since the whole
catalog, the next tree is folded into a whole one again, and later deltas are over that; the
whole catalog a kept delta is over is never collected.  Lines are totally ordered (date, id,
path), so a delta lists what a build from every entry lists, in the same order
(tests/agents/test_catalog_delta.py holds the readers to that model).

A delta also names the blob each of its lines was read from, so the next delta over the same
catalog reads only the files changed since the last one (an admission's own), not every file
changed since the whole catalog.

Writes are atomic renames of complete files, so readers take no lock; two writers racing
write the same bytes.  At most KEEP catalogs and KEEP deltas are kept.  A damaged catalog or
delta is made again, never trusted: a first line names the format version and the tree, a
whole catalog's the CRC-32 of the rest (checked before a delta is written over it, as a
delta carries its lines on), a delta's its base and counts of paths and lines.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import mmap
import os
import re
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Final, NamedTuple

from gitmem.model.names import entry_place, misplaced
from gitmem.model.terminal import clean
from gitmem.repo.atomic import atomic_write, open_regular, sweep_temporaries

if TYPE_CHECKING:
    from gitmem.repo.objects import Change, TreeItem
    from gitmem.repo.store import Store
    from gitmem.repo.trees import Trees

__all__ = ["Catalog", "Listed", "brought_up", "load", "startable", "stored"]

#: 4: the text fields lost the bidirectional isolates too (gitmem.model.terminal.clean);
#: 5: a line says whether its fields hold a secret;
#: 6: only files at an entry's place (gitmem.model.names.entry_place) are listed;
#: 7: an invisible character is taken out of a text field, no longer made a space
#: (gitmem.model.terminal.clean), so the secret verdict sees a key it split;
#: 8: the secret flag judges the fields whole, not as cut; 9: admitted_by and admitted only
#: when they are text; 10: the entry's path and the cited files kept exact (`_kept`), not
#: cleaned; 11: no line for a file at another entry's place (gitmem.model.names.misplaced);
#: 12: lines ordered by path after the id, the id table lists every line of an id, and a
#: tree may be kept as a delta over a whole catalog; 13: the header holds the CRC-32 of the
#: rest, and a delta the blob id of each of its lines
VERSION: Final = b"# gitmem agents catalog 13 "
DELTA_VERSION: Final = b"# gitmem agents catalog delta 13 "
#: A delta names at most this many changed files (else it is folded into a whole catalog) and
#: holds at most DELTA_BYTES.
DELTA_MAX: Final = 256
DELTA_BYTES: Final = 4 << 20
KEEP: Final = 3
#: The most lines of one id `get` looks through (one, but for copies committed around the gate).
ID_LINES: Final = 64
#: A temporary file this many seconds old belongs to no live writer (`_collect`).
TEMPORARY_AGE: Final = 60.0
PARALLEL_READ_MIN: Final = 4000
_SEP = "\x1f"
_WANTED = (
    "id",
    "type",
    "status",
    "title",
    "applies_when",
    "admitted_by",
    "admitted",
    "tags",
    "files",
    "supersedes",
)


class Listed(NamedTuple):
    """An admitted entry's small fields.  (Named tuples here and in gitmem.agents.precedents,
    not dataclasses: an agent's edit hook stays clear of the dataclasses module's imports.)"""

    id: str
    type: str
    path: str
    title: str
    applies_when: str
    admitted_by: str
    admitted: str
    tags: tuple[str, ...]
    files: tuple[str, ...]
    supersedes: tuple[str, ...]
    #: the scanner finds a secret in these fields (main's allowed.md not yet consulted)
    secret: bool = False


def _field(value: object, limit: int = 300) -> str:
    return clean(str(value), limit).replace("\t", " ").replace(_SEP, " ")


def _text(value: object, limit: int) -> str:
    """A provenance field (admitted_by, admitted) as a reader of the entry takes it: only
    text (gitmem.agents.precedents.provenance, else "unknown"). Written out, a list kept
    "['human:bob', 'human:carol']", and a warm precedents block and memory_recent named an
    admitter that the full path and memory_recall called unknown."""
    return _field(value, limit) if isinstance(value, str) else ""


def _items(value: object) -> str:
    values = value if isinstance(value, list | tuple) else []
    return _SEP.join(_field(v, 500) for v in values)


#: What a path field escapes: the escape itself, and the control characters (the line's tab,
#: line break and list separator among them).
_PATH_ESCAPED = re.compile("[%\x00-\x1f\x7f]")
_PATH_ESCAPE = re.compile("%([0-9A-F]{2})")


def _kept(path: str) -> str:
    """A repository path as a line keeps it: exact, with `%` and each control character as
    `%XX` (`_unkept` reverses it). Cleaned as text is (runs of spaces made one, a no-break
    space made a space, hidden characters taken out), an entry's path or a cited file named
    another file than git holds: its admission was not found (so its files' changes were
    never counted, and it read as fresh) and a cited file that exists read as missing."""
    return _PATH_ESCAPED.sub(lambda m: f"%{ord(m.group(0)):02X}", path)


def _unkept(field: str) -> str:
    return _PATH_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), field)


def _paths(value: object) -> str:
    values = value if isinstance(value, list | tuple) else []
    return _SEP.join(_kept(str(v)) for v in values)


def line_of(path: str, data: bytes, memory_dir: str | None = None) -> bytes | None:
    """The catalog line of one entry file, or None when it is not an admitted entry; with
    memory_dir, None too for a file at another entry's place (a copy committed as
    entries/decision/<other>.md holds the id it copies, and was listed, recalled warm and
    exported as that entry, where `gitmem list` leaves it out: gitmem.model.names.misplaced)."""
    from gitmem.model.fields import MAX_ENTRY_BYTES, quick_fields, text_of

    if len(data) > MAX_ENTRY_BYTES:
        return None
    text = text_of(data)
    found: dict[str, object] | None = None
    if text is not None:
        quick = quick_fields(text, _WANTED)
        found = dict(quick) if quick is not None else None
    if found is None:
        from gitmem.model.entry import EntryError, parse

        try:
            found = dict(parse(data).meta)
        except EntryError:
            return None
    if found.get("status") != "admitted":
        return None
    if memory_dir is not None and misplaced(path, memory_dir, found.get("id"), found.get("type")):
        return None
    fields = [
        _text(found.get("admitted"), 20),
        _field(found.get("id", ""), 200),
        _field(found.get("type", ""), 60),
        _kept(path),
        _items(found.get("tags")),
        _paths(found.get("files")),
        _items(found.get("supersedes")),
        _field(found.get("title", "")),
        _field(found.get("applies_when", "")),
        _text(found.get("admitted_by"), 120),
    ]
    # judged whole: a field is cut (300 characters for a title), and a secret that begins
    # before the cut is kept in part, too short for the scanner, where the full path judges
    # the whole text (gitmem.agents.precedents.withheld) and withholds the entry
    whole = [str(found.get(k, "")) for k in ("title", "applies_when", "admitted_by", "admitted")]
    for name in ("tags", "files", "supersedes"):
        values = found.get(name)
        if isinstance(values, list | tuple):
            whole.extend(str(v) for v in values)
    judged = "\n".join([*fields, *whole]).replace(_SEP, "\n")
    from gitmem.gate.secrets import may_hold_secret  # here: a reader never scans

    fields.append("1" if may_hold_secret(judged) else "")
    # surrogateescape: a path git read whose bytes are not UTF-8 keeps its bytes (a line is
    # read back with "replace")
    return "\t".join(fields).encode("utf-8", "surrogateescape") + b"\n"


def _parse(line: bytes) -> Listed | None:
    parts = line.rstrip(b"\n").decode("utf-8", "replace").split("\t")
    if len(parts) != 11:
        return None
    admitted, id_, type_, path, tags, files, supersedes, title, applies, by, secret = parts

    def items(text: str) -> tuple[str, ...]:
        return tuple(text.split(_SEP)) if text else ()

    return Listed(
        id_,
        type_,
        _unkept(path),
        title,
        applies,
        by,
        admitted,
        items(tags),
        tuple(_unkept(f) for f in items(files)),
        items(supersedes),
        secret == "1",
    )


def _sorted(lines: Iterable[bytes]) -> list[bytes]:
    """Newest admission first, then by id and path (`_order`: a total order, so a catalog
    brought up by a delta lists its lines as one built whole does)."""
    by_id = sorted(lines, key=lambda line: _order(line)[1:])
    return sorted(by_id, key=lambda line: line.split(b"\t", 1)[0], reverse=True)


def _seek(data: bytes | mmap.mmap, start: int, end: int, key: bytes) -> int | None:
    """Where the line whose first field is key begins, in data[start:end]: a "\n" and then
    lines sorted by their first field (up to a tab), each ending "\n"; None when absent.

    A binary search over byte positions: the line at a position is the first one beginning
    at or after it, whose key never decreases as the position grows."""
    first = start + 1

    def line_at(pos: int) -> tuple[int, bytes | None]:
        begin = data.find(b"\n", pos - 1, end) + 1
        if begin <= 0 or begin >= end:
            return end, None
        tab = data.find(b"\t", begin, end)
        return begin, bytes(data[begin : tab if tab >= 0 else end])

    low, high = first, end
    while low < high:
        mid = (low + high) // 2
        _, found = line_at(mid)
        if found is None or found >= key:
            high = mid
        else:
            low = mid + 1
    begin, found = line_at(low)
    return begin if found == key else None


def _order(line: bytes) -> tuple[bytes, bytes, bytes]:
    """What a line is ordered by: its admission date (newest first), then its id and path."""
    fields = line.split(b"\t", 4)
    return fields[0], fields[1], fields[3] if len(fields) > 3 else b""


def _precedes(line: bytes, other: bytes) -> bool:
    date, *rest = _order(line)
    other_date, *other_rest = _order(other)
    return date > other_date or (date == other_date and rest < other_rest)


def _encoded(key: str) -> bytes | None:
    """A path or an id as a line keeps it, in bytes (a path's bytes that are not UTF-8 as
    Python carries them: surrogateescape); None for text no line can hold (another lone
    surrogate: a hook's JSON can spell one)."""
    try:
        return key.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return None


def _cited(line: bytes) -> list[bytes]:
    """The cited paths of a line, as it keeps them."""
    fields = line.split(b"\t", 6)
    return fields[5].split(_SEP.encode()) if len(fields) > 5 and fields[5] else []


def _merged(kept: Iterable[bytes], added: Iterable[bytes]) -> Iterator[bytes]:
    """Two runs of lines, each in the catalog's order, as one run in that order."""
    pending = iter(added)
    waiting = next(pending, None)
    for line in kept:
        while waiting is not None and _precedes(waiting, line):
            yield waiting
            waiting = next(pending, None)
        yield line
    if waiting is not None:
        yield waiting
        yield from pending


class Catalog:
    """The admitted entries of one memory tree, newest admission first: a kept file's bytes
    (mapped, or made in memory), where its entry lines start and its two tables; and, for a
    tree brought up by a delta, the paths whose kept lines no longer stand (`removed`, as
    the lines keep them) and the new lines (`added`, in the catalog's order)."""

    def __init__(
        self,
        tree: str | None,
        data: bytes | mmap.mmap,
        table: int,
        ids: int,
        body: int,
        removed: frozenset[bytes] = frozenset(),
        added: tuple[bytes, ...] = (),
    ) -> None:
        self.tree = tree
        self._data = data
        self._table = table  # the cited paths: data[table:ids], opening with "\n"
        self._ids = ids  # the ids: data[ids:body], opening with "\n"
        self._body = body
        self._removed = removed
        self._added = added

    def over(self, tree: str, removed: frozenset[bytes], added: tuple[bytes, ...]) -> Catalog:
        """The catalog of tree, as this whole one with a delta over it."""
        return Catalog(tree, self._data, self._table, self._ids, self._body, removed, added)

    def _kept_lines(self) -> Iterator[bytes]:
        data = self._data
        start = self._body
        end = len(data)
        while start < end:
            stop = data.find(b"\n", start)
            stop = end if stop < 0 else stop + 1
            line = bytes(data[start:stop])
            if self._stands(line):
                yield line
            start = stop

    def _stands(self, line: bytes) -> bool:
        """Whether a kept line still lists its entry (its path is not one the delta changed)."""
        if not self._removed:
            return True
        fields = line.split(b"\t", 4)
        return len(fields) < 4 or fields[3] not in self._removed

    def __iter__(self) -> Iterator[Listed]:
        for line in _merged(self._kept_lines(), self._added):
            listed = _parse(line)
            if listed is not None:
                yield listed

    def _raw(self, offset: int) -> bytes | None:
        """The kept line at offset, when it stands."""
        data = self._data
        begin = self._body + offset
        if not self._body <= begin < len(data):
            return None
        end = data.find(b"\n", begin)
        line = bytes(data[begin : end + 1 if end >= 0 else len(data)])
        return line if self._stands(line) else None

    def _offsets(self, start: int, end: int, key: str, limit: int) -> list[int]:
        """The first offsets (at most limit) listed on the table line of key (a path or an
        id), or []. Only the header is checked when a catalog is opened (reading it whole
        would cost what the tables save), so an offset that is no number is damage, and is
        passed over: the line it would name is not found."""
        name = _encoded(key)
        if not name or b"\t" in name or b"\n" in name:
            return []
        data = self._data
        at = _seek(data, start, end, name)
        if at is None:
            return []
        stop = data.find(b"\n", at, end)
        listed = bytes(data[at + len(name) + 1 : stop]).split(b",", limit)[:limit]
        return [int(offset) for offset in listed if offset.isdigit()]

    def _found(self, start: int, end: int, key: str, limit: int) -> Iterator[bytes]:
        """The standing kept lines a table lists for key, in order: enough of them for limit
        whatever the delta removed (it removes at most one line per path it names)."""
        for offset in self._offsets(start, end, key, limit + len(self._removed)):
            line = self._raw(offset)
            if line is not None:
                yield line

    def citing(self, path: str, limit: int) -> list[Listed]:
        """The newest admitted entries (at most limit) whose `files` name path exactly."""
        out = []
        key = _kept(path)
        wanted = _encoded(key)
        if wanted is None:
            return []
        kept = self._found(self._table, self._ids, key, limit)
        added = (line for line in self._added if wanted in _cited(line))
        for line in _merged(kept, added):
            listed = _parse(line)
            if listed is not None and path in listed.files:
                out.append(listed)
                if len(out) >= limit:
                    break
        return out

    def get(self, entry_id: str, path: str | None = None) -> Listed | None:
        """The admitted entry with this id, or None (not admitted in this tree); with path,
        the line of that file alone. Where two files hold the id (a copy in another type
        folder, committed around the gate), the first in the catalog's order, which may be
        the other file's: a reader quoting a recalled hit names its file."""
        wanted = _encoded(entry_id)
        if wanted is None:
            return None
        added = (line for line in self._added if line.split(b"\t", 2)[1:2] == [wanted])
        every = self._found(self._ids, self._body, entry_id, ID_LINES)
        for line in _merged(every, added):
            listed = _parse(line)
            if listed is not None and listed.id == entry_id and path in (None, listed.path):
                return listed
        return None

    def recent(
        self, limit: int, types: Iterable[str] | None = None, tags: Iterable[str] | None = None
    ) -> list[Listed]:
        """The latest admissions (at most limit), of these types and with all these tags."""
        wanted_types = set(types or ())
        wanted_tags = set(tags or ())
        out = []
        for listed in self:
            if wanted_types and listed.type not in wanted_types:
                continue
            if not wanted_tags <= set(listed.tags):
                continue
            out.append(listed)
            if len(out) >= limit:
                break
        return out


def _compose(tree: str, lines: list[bytes]) -> tuple[bytes, int, int, int]:
    """The catalog file for sorted lines: (bytes, where the path table starts, where the id
    table starts, where the body starts).  The header names the format, the tree and the two
    tables' lengths."""
    cited: dict[bytes, list[int]] = {}
    ids: dict[bytes, list[int]] = {}
    offset = 0
    for line in lines:
        ids.setdefault(line.split(b"\t", 2)[1], []).append(offset)
        for path in dict.fromkeys(_cited(line)):
            cited.setdefault(path, []).append(offset)
        offset += len(line)
    table, by_id = (
        b"\n"
        + b"".join(
            key + b"\t" + b",".join(b"%d" % o for o in offsets) + b"\n"
            for key, offsets in sorted(found.items())
        )
        for found in (cited, ids)
    )
    body = b"".join(lines)
    crc = zlib.crc32(body, zlib.crc32(by_id, zlib.crc32(table)))
    header = VERSION + b"%s %d %d %d\n" % (tree.encode("ascii"), len(table), len(by_id), crc)
    head = len(header)
    return (
        header + table + by_id + body,
        head,
        head + len(table),
        head + len(table) + len(by_id),
    )


def _name(memory_dir: str, tree: str) -> str:
    return f"catalog-{tree}-{_folder_key(memory_dir)}.tsv"


def _delta_name(memory_dir: str, tree: str, base: str) -> str:
    return f"delta-{tree}-{base}-{_folder_key(memory_dir)}.tsv"


def _folder_key(memory_dir: str) -> str:
    """The memory folder and the scanner in a file name: the folder's path (a path holds
    slashes, and any text) and the scanner's source (`_scanner`), hashed together."""
    folder = memory_dir.encode("utf-8", "surrogateescape")
    return hashlib.sha256(folder + b"\0" + _scanner()).hexdigest()[:16]


#: The modules whose code gives a line its secret flag (gitmem.gate.secrets.may_hold_secret).
_SCANNER_SOURCES: Final = ("secrets.py", "secretrules.py")


@functools.cache
def _scanner() -> bytes:
    """The secret scanner's source, hashed. A line's secret flag is the verdict of the
    scanner that wrote it, and a hook trusts it to show an entry without scanning: kept across
    an upgrade that added a rule, a catalog said "no secret" of an entry the new scanner (and
    `gitmem recall`, and memory_recall) withholds, and the hook showed it. So a catalog is
    kept per scanner, and the first one after such an upgrade is built anew.  The source is
    read, not imported (some 190 KB hashed in under a millisecond, where the import costs a
    hook 30-100 ms); a package without its source keys the catalog by gitmem's version."""
    gate = os.path.join(os.path.dirname(os.path.dirname(__file__)), "gate")
    digest = hashlib.sha256()
    try:
        for name in _SCANNER_SOURCES:
            with open(os.path.join(gate, name), "rb") as source:
                digest.update(source.read())
    except OSError:
        import gitmem

        digest.update(f"gitmem {gitmem.__version__}".encode())
    return digest.digest()


def _of_folder(root: Path, memory_dir: str) -> list[Path]:
    """The catalogs kept for the memory folder, newest first."""
    found = root.glob(f"catalog-*-{_folder_key(memory_dir)}.tsv")
    return sorted(found, key=lambda p: p.stat().st_mtime, reverse=True)


def _read_lines(store: Store, items: list[TreeItem], memory_dir: str) -> Iterator[bytes]:
    from gitmem.model.fields import MAX_ENTRY_BYTES

    read = ((i, store.read(i.oid, MAX_ENTRY_BYTES + 1, path=i.path)) for i in items)
    return _lines_of(read, memory_dir)


def _lines_of(files: Iterable[tuple[TreeItem, bytes]], memory_dir: str) -> Iterator[bytes]:
    """The lines of the entries of files (each item with its bytes)."""
    for item, data in files:
        line = line_of(item.path, data, memory_dir)
        if line is not None:
            yield line


def _open(path: Path, tree: str, *, verify: bool = False) -> Catalog | None:
    """The catalog stored at path, when it is whole and describes tree (and a regular file:
    open_regular, as catalogs are written by rename, and a FIFO in the place of one made
    every reader wait for a writer forever).  A reader checks the header alone (the rest
    costs 10-20 ms to check at 100,000 entries); with verify, the CRC-32 of the rest is
    checked too, as it must be before a delta is written over the catalog: a delta keeps the
    catalog's lines, and one damaged would lose its entry until the next fold."""
    try:
        with open_regular(path) as handle:
            header = handle.readline()
            prefix = VERSION + tree.encode("ascii") + b" "
            if not header.startswith(prefix) or not header.endswith(b"\n"):
                return None
            sizes = header[len(prefix) : -1].split(b" ")
            table_size, ids_size, crc = (int(n) for n in sizes)
            size = os.fstat(handle.fileno()).st_size
            body = len(header) + table_size + ids_size
            if size < body or min(table_size, ids_size) < 1:
                return None
            mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError, UnicodeEncodeError):
        return None
    if verify:
        with memoryview(mapped) as view, view[len(header) :] as rest:
            if zlib.crc32(rest) != crc:
                return None
    return Catalog(tree, mapped, len(header), len(header) + table_size, body)


class _Delta(NamedTuple):
    """A tree's catalog over a whole one: the paths whose kept lines no longer stand (as the
    lines keep them), the new lines in the catalog's order, and the blob each was read from
    (the next delta over the same catalog takes a line again for an unchanged blob)."""

    removed: frozenset[bytes]
    added: tuple[bytes, ...]
    blobs: tuple[str, ...]

    def lines_by_blob(self) -> dict[tuple[bytes, str], bytes]:
        """Each added line by its path (as kept) and its blob."""
        return {
            (line.split(b"\t", 4)[3], blob): line
            for line, blob in zip(self.added, self.blobs, strict=True)
        }


_BLOB = re.compile(rb"[0-9a-f]{40}|[0-9a-f]{64}")


def _open_delta(path: Path, tree: str, base: str) -> _Delta:
    """The delta at path; ValueError when it is not a whole delta of tree over base (damage is
    never trusted: the delta is written again)."""
    with open_regular(path) as handle:
        data = handle.read(DELTA_BYTES + 1)
    header, _, rest = data.partition(b"\n")
    prefix = DELTA_VERSION + b"%s %s " % (tree.encode("ascii"), base.encode("ascii"))
    if not header.startswith(prefix) or len(data) > DELTA_BYTES or not data.endswith(b"\n"):
        raise ValueError(path)
    count, total = (int(n) for n in header[len(prefix) :].split(b" "))
    lines = rest.split(b"\n")[:-1]
    removed, added, blobs = lines[:count], lines[count:-total], lines[-total:] if total else []
    # a kept path holds no tab (`_kept`), a line ten, a blob id is hexadecimal
    if len(added) != total or len(lines) != count + 2 * total:
        raise ValueError(path)
    if any(b"\t" in line for line in removed) or not all(map(_BLOB.fullmatch, blobs)):
        raise ValueError(path)
    if any(line.count(b"\t") != 10 for line in added):
        raise ValueError(path)
    return _Delta(
        frozenset(removed),
        tuple(line + b"\n" for line in added),
        tuple(blob.decode("ascii") for blob in blobs),
    )


def _newest_delta(root: Path, memory_dir: str, base: str) -> _Delta | None:
    """The newest delta kept over the whole catalog of base, or None."""
    try:
        found = sorted(
            root.glob(_delta_name(memory_dir, "*", base)),
            key=lambda p: p.stat().st_mtime,
            reverse=True,
        )
    except OSError:
        return None
    for path in found:
        with contextlib.suppress(OSError, ValueError, UnicodeEncodeError):
            return _open_delta(path, path.name.split("-")[1], base)
    return None


def stored(common_dir: Path, memory_dir: str, entries_tree: str) -> Catalog | None:
    """The catalog of an entries tree in memory_dir as the git directory keeps it (a whole
    one, or a delta over one), or None when none is kept (yet): read without opening the
    repository (an agent's hook)."""
    root = common_dir / "gitmem" / "agents"
    found = _open(root / _name(memory_dir, entries_tree), entries_tree)
    if found is not None:
        return found
    with contextlib.suppress(OSError):
        for path in root.glob(_delta_name(memory_dir, entries_tree, "*")):
            base_tree = path.name.split("-")[2]
            base = _open(root / _name(memory_dir, base_tree), base_tree)
            if base is None:
                continue
            try:
                delta = _open_delta(path, entries_tree, base_tree)
            except (OSError, ValueError, UnicodeEncodeError):
                continue
            return base.over(entries_tree, delta.removed, delta.added)
    return None


def startable(common_dir: Path, memory_dir: str) -> bool:
    """Whether the git directory keeps a catalog of this format and memory folder that a new
    tree can be brought up from by the tree diff (one of an older format or another folder
    would mean a build from scratch: an agent's hook then leaves it to the background
    warm-up)."""
    try:
        found = _of_folder(common_dir / "gitmem" / "agents", memory_dir)
    except OSError:
        return False
    for path in found:
        try:
            with open_regular(path) as handle:
                if handle.read(len(VERSION)) == VERSION:
                    return True
        except (OSError, ValueError):
            continue  # gone meanwhile, or no catalog of gitmem's: another one may be
    return False


def load(store: Store, memory_dir: str, entries_tree: str | None) -> Catalog:
    """The catalog of an entries tree (None: no entries yet), from the cache or made now.
    A cache that cannot be read or written is worked around: the catalog is made in memory."""
    from gitmem import parallel as forked

    if entries_tree is None:
        return Catalog(None, b"\n\n", 0, 1, 2)
    found = brought_up(store.common_dir, memory_dir, entries_tree, store)
    if found is not None:
        return found
    items = [
        item
        for item in store.walk(entries_tree, f"{memory_dir}/entries/")
        if item.is_file and entry_place(item.path, memory_dir) is not None
    ]
    lines = forked.in_two(
        items, lambda part: _read_lines(store, part, memory_dir), minimum=PARALLEL_READ_MIN
    )
    return _saved(store.common_dir, memory_dir, entries_tree, list(lines))


def brought_up(
    common_dir: Path, memory_dir: str, entries_tree: str, trees: Trees
) -> Catalog | None:
    """The catalog of an entries tree as kept, or brought up from the newest whole one kept by
    the tree diff and saved, the changed files read by trees (the opened repository, or git's
    command line for an agent's hook that has not loaded pygit2: the first hook after an
    admission); None when no kept catalog can start it (a build from every entry is load's).

    Up to DELTA_MAX changed files since that catalog, only a delta is written (the removed
    paths and the new lines: milliseconds, where rewriting a 100,000-entry catalog took over
    a second); past it the delta is folded into a new whole catalog."""
    found = stored(common_dir, memory_dir, entries_tree)
    if found is not None:
        return found
    root = common_dir / "gitmem" / "agents"
    try:
        kept = _of_folder(root, memory_dir)
    except OSError:
        return None
    for path in kept:
        base_tree = path.name.removeprefix("catalog-").rsplit("-", 1)[0]
        base = _open(path, base_tree, verify=True)
        if base is None:
            continue  # damaged: another catalog, or a build from every entry, is right
        try:
            changes = trees.diff(base_tree, entries_tree, prefix=f"{memory_dir}/entries/")
        except (KeyError, ValueError):
            continue  # a tree git has pruned (a rewritten history)
        last = _newest_delta(root, memory_dir, base_tree)
        added = _added(trees, changes, memory_dir, last.lines_by_blob() if last else {})
        if added is None:
            continue  # a file git could not read: another catalog, or a build, lists it
        # a line keeps its path exact (_kept), so a changed file's line is told by it whatever
        # its name holds (a hidden character, a run of spaces, a tab)
        gone = {c.old.path for c in changes if c.old is not None} | {c.path for c in changes}
        removed = frozenset(_kept(p).encode("utf-8", "surrogateescape") for p in gone)
        if len(removed) <= DELTA_MAX:
            lines = _sorted(added)
            delta = _Delta(removed, tuple(lines), tuple(added[line] for line in lines))
            if _saved_delta(root, memory_dir, entries_tree, base_tree, delta):
                return base.over(entries_tree, delta.removed, delta.added)
        standing = base.over(entries_tree, removed, ())._kept_lines()
        return _saved(common_dir, memory_dir, entries_tree, [*standing, *added])
    return None


def _added(
    trees: Trees, changes: list[Change], memory_dir: str, known: dict[tuple[bytes, str], bytes]
) -> dict[bytes, str] | None:
    """The lines of the entries the changes add or change, each with the blob it was read
    from; a line known by its path and blob (the last delta's) is taken, not read again.
    None when git could not read a file."""
    from gitmem.model.fields import MAX_ENTRY_BYTES

    items = [
        change.new._replace(path=change.path)
        for change in changes
        if change.new is not None and change.new.is_file and entry_place(change.path, memory_dir)
    ]
    kept = {item: _kept(item.path).encode("utf-8", "surrogateescape") for item in items}
    found = {known[kept[i], i.oid]: i.oid for i in items if (kept[i], i.oid) in known}
    unknown = [item for item in items if (kept[item], item.oid) not in known]
    files = trees.read_all([item.oid for item in unknown], MAX_ENTRY_BYTES + 1)
    if any(item.oid not in files for item in unknown):
        return None
    blob_of = {kept[item]: item.oid for item in unknown}
    for line in _lines_of(((item, files[item.oid]) for item in unknown), memory_dir):
        found[line] = blob_of[line.split(b"\t", 4)[3]]
    return found


def _saved(common_dir: Path, memory_dir: str, entries_tree: str, lines: list[bytes]) -> Catalog:
    """The catalog of these lines, written whole (a rename) where the git directory allows."""
    root = common_dir / "gitmem" / "agents"
    name = _name(memory_dir, entries_tree)
    data, table, ids, body = _compose(entries_tree, _sorted(lines))
    with contextlib.suppress(OSError):
        root.mkdir(parents=True, exist_ok=True)
        atomic_write(root / name, data)
        _collect(root, keep=root / name)
    return Catalog(entries_tree, data, table, ids, body)


def _saved_delta(root: Path, memory_dir: str, entries_tree: str, base: str, delta: _Delta) -> bool:
    """Write the delta of entries_tree over base's whole catalog (a rename), where the git
    directory allows; False when it would hold more than DELTA_BYTES (it is folded instead)."""
    header = DELTA_VERSION + b"%s %s %d %d\n" % (
        entries_tree.encode("ascii"),
        base.encode("ascii"),
        len(delta.removed),
        len(delta.added),
    )
    data = b"".join(
        [
            header,
            *(path + b"\n" for path in sorted(delta.removed)),
            *delta.added,
            *(blob.encode("ascii") + b"\n" for blob in delta.blobs),
        ]
    )
    if len(data) > DELTA_BYTES:
        return False
    name = _delta_name(memory_dir, entries_tree, base)
    with contextlib.suppress(OSError):
        atomic_write(root / name, data)
        _collect(root, keep=root / name)
    return True


def _collect(root: Path, keep: Path) -> None:
    """Keep the KEEP newest catalogs and deltas and the catalogs those deltas are over (a
    reader that loses a race makes its own), and sweep the temporary files of writers killed
    a minute ago or more (no lock: a write takes milliseconds)."""
    sweep_temporaries(root, older_than=TEMPORARY_AGE)

    def newest(pattern: str) -> list[Path]:
        return sorted(root.glob(pattern), key=lambda p: p.stat().st_mtime, reverse=True)

    deltas = newest("delta-*.tsv")
    wholes = newest("catalog-*.tsv")
    bases = {
        f"catalog-{d.name.split('-')[2]}-{d.name.rsplit('-', 1)[1]}"
        for d in [*deltas[:KEEP], keep]
        if d.name.startswith("delta-")
    }
    for old in [*wholes[KEEP:], *deltas[KEEP:]]:
        if old != keep and old.name not in bases:
            with contextlib.suppress(OSError):
                old.unlink()
