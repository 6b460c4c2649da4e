"""The recall cache: the search index (and, with gitmem[semantic], the entry vectors) kept in
the git directory, shared by linked worktrees, keyed by the memory tree's object id and the
memory folder's path: an index names each entry's path, and after `memory.dir` changes the same
entries tree lies at other paths (a key of the tree alone cited the old ones).

Layout under `<git common dir>/gitmem/recall/`:

    state.json          which trees have an index: [{dir, tree, index, vectors}], newest first;
                        `vectors_of` names the older tree a record's vectors were made for,
                        when an admission's update left them behind (below)
    manifests/<name>    index and vector manifests, named by their content
    segments/<name>     immutable index segments and vector chunks, named by their content
    lock                held (flock) by whoever writes

Readers take no lock: state.json is replaced atomically and everything it names is immutable, so
a reader sees an old complete index or a new complete one. A writer takes the lock, reads the
newest state again, brings the nearest known tree up to date from the tree diff (one admission =
one entry's work and one small segment), writes the new segments, then the manifest, then
state.json, each under a temporary name renamed into place; so a writer killed at any point
leaves the old cache whole, and the next writer deletes the temporary files it left
(tests/recall/test_killed_update.py kills one at each of its writes). An index written by a
gitmem of another index format (an upgrade) is built again from the entries, and its vectors,
which depend on the entries' text and the model alone, are kept. A corrupt or incompatible
cache is set aside (renamed; the newest one set aside is kept for inspection, older ones are
removed) and rebuilt; recall still answers. A git directory this process cannot write (a
read-only mount, another user's repository, a full disk) is no damage: the nearest remembered
tree is brought up to date in memory, and nothing is saved or set aside. Up to KEEP_TREES
trees are remembered, so recalling at another ref (origin/main) does not throw away the main
branch's index.

Vectors left behind: the post-merge hook's update (gitmem.lifecycle.refresh, `embed_later`)
brings the keyword index up to date and embeds nothing. Loading the model is most of an
admission's update with the extra (250-290 ms of it), and the next recall with the extra
loads the model for its own query anyway. So the hook saves the new tree's index with the
nearest remembered tree's vectors, naming that tree (`vectors_of`); a reader with the model
takes such a record for no vectors of this tree, and under the lock embeds what changed since
(`_catch_up`) and saves; a warm recall, which has not opened the repository, does the same
with the changed files read by git itself (`caught_up`, gitmem.repo.trees), so the first
recall after an admission does not import libgit2 for them. A reader without the model, or
the hook, never needs them. The lag
is bounded: when more than NEAR changes lead from the vectors' tree, the hook embeds them
itself, so a recall never embeds more than NEAR entries on its way. A gitmem of the same cache
version that predates `vectors_of` takes such vectors for the tree's own: its semantic hits
miss the few newest entries, its keyword hits do not.

A reader that has only the git directory, the memory folder and a tree id (an agent's hook,
which never opens the repository) reads the keyword index with `stored_index`: this module
loads pygit2 only when it reads entries or diffs trees.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import mmap
import os
import shutil
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from gitmem.errors import GitmemError
from gitmem.model.names import answers_for_id, entry_place, misplaced
from gitmem.recall.engine import Doc, Index, IndexFormatError
from gitmem.repo.atomic import atomic_write, open_regular, read_regular, sweep_temporaries
from gitmem.repo.locks import exclusive

if TYPE_CHECKING:
    from gitmem.model.entry import Entry
    from gitmem.repo.objects import Change, TreeItem
    from gitmem.repo.store import Store
    from gitmem.repo.trees import Trees

#: 2: Snowball stems and saturation values in the index, MiniLM vectors.
CACHE_VERSION = 2
KEEP_TREES = 4
#: An update takes the newest remembered tree when at most this many changes lead from it.
NEAR = 8


class Behind(NamedTuple):
    """Vectors made for an older entries tree than the index they are saved with: their
    manifest, that tree, and the files the older record kept (its vectors' chunks among them;
    a superset is harmless, as the next KEEP_TREES saves collect what no record names)."""

    manifest: str
    tree: str | None
    parts: list[str]


@dataclass
class Loaded:
    """An index (and vectors, when the semantic extra is there) for one memory tree, and the
    files at an entry's place that it holds no entry of because they are none (Unreadable):
    path -> what is wrong, as `gitmem list` names it."""

    tree: str | None
    index: Index
    vectors: Any | None
    unreadable: dict[str, str] = field(default_factory=dict)
    #: set when the vectors (loaded or not) were made for an older tree (Behind)
    behind: Behind | None = None


class Unreadable(NamedTuple):
    """A file at an entry's place that is no readable entry (it does not parse, it is too
    large, a link: read_entry): recall leaves it out, and says so (Loaded.unreadable), where
    it said nothing and its answer passed for the whole memory's."""

    path: str
    #: the problem, as list prints it (gitmem.model.problem.Problem)
    problem: str


class _Deferred:
    """Vectors loaded on first use: a caller that needs only the keyword index (or an empty
    query, which embeds nothing) never maps 100,000 vectors."""

    def __init__(self, load: Any) -> None:
        self._load = load
        self._value: Any = None

    def __getattr__(self, name: str) -> Any:
        if self._value is None:
            self._value = self._load()
        return getattr(self._value, name)


def doc_of(entry: Entry, path: str) -> Doc:
    """What recall reads of an entry: title, applies_when and tags weigh more than the rest."""
    extra = [str(entry.meta.get(k, "")) for k in ("rationale", "correction", "detection_signal")]
    body = "\n".join(p for p in (entry.context, entry.content, entry.evidence, *extra) if p)
    return Doc(
        entry.id,
        entry.type,
        entry.title,
        entry.applies_when,
        entry.tags,
        body,
        path,
        tuple(entry.files),
    )


def _semantic() -> Any | None:
    from gitmem.recall import semantic

    return semantic if semantic.available() else None


#: From how many entries a first build reads them with two processes.
PARALLEL_READ_MIN = 4000


def _read_docs(store: Store, items: list[TreeItem]) -> Iterator[Doc | Unreadable]:
    """The admitted entries of items as Docs, and an Unreadable for each file that is no
    entry (both cross from a forked reader: gitmem.parallel)."""
    from gitmem.model.fields import MAX_ENTRY_BYTES

    return _docs_from(items, lambda item: store.read(item.oid, MAX_ENTRY_BYTES, path=item.path))


def _docs_from(
    items: list[TreeItem], data_of: Callable[[TreeItem], bytes]
) -> Iterator[Doc | Unreadable]:
    """_read_docs, each file's bytes given by data_of, as the file rules read them
    (gitmem.repo.snapshot.file_entry: what every gate refuses, no reader reads)."""
    from gitmem.model.entry import EntryError  # the YAML stack: only when building
    from gitmem.model.problem import Problem
    from gitmem.repo.snapshot import file_entry

    for item in items:
        try:
            entry = file_entry(data_of(item) if item.is_file else b"", item.mode)
        except EntryError as exc:
            yield Unreadable(item.path, str(Problem(item.path, exc.line, exc.rule, exc.message)))
            continue
        if entry.status == "admitted":
            yield doc_of(entry, item.path)


#: What an OSError's errno says when the git directory cannot be written here (a read-only
#: mount, another user's repository, a full disk): no damage of the cache.
_CANNOT_WRITE = frozenset({errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOSPC, errno.EDQUOT})


def _unwritable(error: OSError) -> bool:
    """Whether error is one of _CANNOT_WRITE: a writer that meets it brings the nearest
    remembered tree up to date in memory and saves nothing, where it set a sound cache aside
    and rebuilt from every entry, at every recall."""
    return error.errno in _CANNOT_WRITE


def _well_formed(record: object) -> bool:
    """Whether a record of state.json holds each field in the type _save writes: another
    (a hand edit, another program's write) reached libgit2 as a tree id, or the collection
    of unused files as a list of names, and ended the recall in an unexpected error."""
    if not isinstance(record, dict):
        return False
    parts = record.get("parts", [])
    unreadable = record.get("unreadable", [])
    return (
        isinstance(unreadable, list)
        and all(
            isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair)
            for pair in unreadable
        )
        and isinstance(record.get("dir"), str)
        and isinstance(record.get("tree"), str | None)
        and isinstance(record.get("index"), str)
        and isinstance(record.get("vectors"), str | None)
        and isinstance(record.get("vectors_of"), str | None)
        and ("vectors_of" not in record or isinstance(record.get("vectors"), str))
        and isinstance(parts, list)
        and all(isinstance(name, str) for name in parts)
    )


class _Stored:
    """The cache's files under root, read without a lock (and without the repository)."""

    def __init__(self, root: Path, memory_dir: str) -> None:
        self.root = root
        self.memory_dir = memory_dir

    def startable(self) -> bool:
        """Whether an index of this memory folder is remembered, which a new tree is brought
        up from by the tree diff (cheap at any size) rather than built from scratch."""
        try:
            return bool(self._mine())
        except (OSError, ValueError):
            return False

    def _state(self) -> list[dict[str, Any]]:
        try:
            data = json.loads(read_regular(self.root / "state.json").decode("utf-8"))
        except FileNotFoundError:
            return []
        except RecursionError:  # arrays nested past Python's stack: nothing _save writes
            raise ValueError("recall cache state is malformed") from None
        if not isinstance(data, dict) or data.get("version") != CACHE_VERSION:
            raise ValueError("recall cache of another version")
        trees = data.get("trees")
        if not isinstance(trees, list):
            raise ValueError("recall cache state is malformed")
        return [t for t in trees if _well_formed(t)]

    def _mine(self) -> list[dict[str, Any]]:
        """What state.json remembers of this memory folder's trees, newest first (a record
        of a cache older than the folder key names none, and is never taken)."""
        return [r for r in self._state() if r.get("dir") == self.memory_dir]

    def _record(self, entries_tree: str | None) -> dict[str, Any] | None:
        """What state.json remembers of this entries tree in this memory folder, or None."""
        for record in self._mine():
            if record.get("tree") == entries_tree:
                return record
        return None

    def _blob(self, kind: str, name: str) -> bytes:
        return read_regular(self._path(kind, name))

    def _path(self, kind: str, name: str) -> Path:
        if not name or "/" in name or name.startswith("."):
            raise ValueError(f"bad cache file name {name!r}")
        return self.root / kind / name

    def _mapped(self, kind: str, name: str) -> memoryview:
        """A segment mapped, not read: a query touches only its own terms' postings, so a
        100,000-entry index costs no 80 MB read per recall.  Files are immutable."""
        with open_regular(self._path(kind, name)) as handle:
            if os.fstat(handle.fileno()).st_size == 0:
                return memoryview(b"")
            return memoryview(mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ))

    def _load_entry(
        self,
        record: dict[str, Any],
        semantic: Any | None,
        *,
        verify: bool = True,
        verify_index: bool | None = None,
    ) -> Loaded:
        """The record's index and (with semantic) vectors; verify reads them whole, their
        checksums checked, the index only if verify_index too when that is given."""
        if "unreadable" not in record:
            # written before the cache named the files that are no entry: its index is built
            # again from the entries, which finds them, and its vectors are kept (_reindexed)
            raise IndexFormatError("recall cache record without its unreadable files")
        index = Index.from_parts(
            self._blob("manifests", str(record["index"])),
            lambda name: self._mapped("segments", name),
            verify=verify if verify_index is None else verify_index,
        )
        vectors = None
        if semantic is not None and record.get("vectors"):
            manifest = self._blob("manifests", str(record["vectors"]))

            def load() -> Any:
                return self._vectors(semantic, manifest, verify=verify)

            # verified, as writers and recover() load, the chunks are read now, under the lock
            vectors = load() if verify else _Deferred(load)
        unreadable = {str(path): str(problem) for path, problem in record["unreadable"]}
        return Loaded(record.get("tree"), index, vectors, unreadable, _behind(record))

    def _vectors(self, semantic: Any, manifest: bytes, *, verify: bool) -> Any:
        """The stored vectors a manifest names, their chunks mapped (read whole if verify)."""
        return semantic.Vectors.from_parts(
            manifest, lambda name: self._mapped("segments", name), verify=verify
        )

    def _read(
        self,
        entries_tree: str | None,
        semantic: Any | None,
        *,
        verify: bool = False,
        index_only: bool = False,
    ) -> Loaded | None:
        """The remembered index of this tree, loaded without reading it whole unless verify:
        checksums are not verified here (that would read every page of a large index on every
        recall);
        structural damage (a cut file, a bad header, a link or a FIFO) surfaces as a
        ValueError, and recover() handles it; a flipped byte inside a title, a term table or
        a vector does not, and is answered from until an update reads it: updates, which
        write what they load, verify."""
        record = self._record(entries_tree)
        if record is None:
            return None
        if index_only:  # one that embeds later: vectors left behind, or none, are this tree's
            return self._load_entry(record, None, verify=verify)
        if semantic is not None and not record.get("vectors"):
            return None  # the extra was installed since, or a hook saved the index alone
        if semantic is not None and "vectors_of" in record:
            return None  # vectors left behind by an admission's update: to bring up to date
        return self._load_entry(record, semantic, verify=verify)


def _behind(record: dict[str, Any]) -> Behind | None:
    """What a record says of vectors it holds for an older tree than its own, if so."""
    return _kept(record) if "vectors_of" in record else None


def _kept(record: dict[str, Any]) -> Behind:
    """A record's vectors as an update that embeds later keeps them: for the tree they were
    made for (vectors_of, else the record's own)."""
    tree = record["vectors_of"] if "vectors_of" in record else record.get("tree")
    return Behind(str(record["vectors"]), tree, [str(name) for name in record.get("parts", [])])


def stored_index(common_dir: Path, memory_dir: str, entries_tree: str) -> Index | None:
    """The keyword index of an entries tree (in memory_dir) as the cache keeps it, or None
    when it keeps none (or cannot be read): for a reader without the repository (an agent's
    hook), which then takes RecallCache's way.  Loaded as `RecallCache.load` loads it
    (mapped, not verified)."""
    found = stored(common_dir, memory_dir, entries_tree, semantic=False)
    return found.index if found is not None else None


def stored(
    common_dir: Path, memory_dir: str, entries_tree: str, *, semantic: bool
) -> Loaded | None:
    """What `RecallCache.load` would answer for an entries tree (in memory_dir) the cache
    holds, read without the repository; None when it holds none, or (semantic, the extra
    installed) holds no vectors for it, or cannot be read: the caller then takes
    RecallCache's way, which builds or repairs it."""
    module = _semantic() if semantic else None
    found = _Stored(common_dir / "gitmem" / "recall", memory_dir)
    try:
        return found._read(entries_tree, module)
    except (OSError, ValueError, KeyError):
        return None


def caught_up(common_dir: Path, memory_dir: str, entries_tree: str, trees: Trees) -> Loaded | None:
    """What RecallCache.load answers, with the extra, for an entries tree whose vectors an
    admission's update left behind (the module's "Vectors left behind"): brought up to date
    and saved by a reader that has not opened the repository (a warm recall), the changed
    files read by trees (git's command line), so that the first recall after an admission
    does not import libgit2 for a few files. None when the cache holds no such record of the
    tree, more than NEAR changes lead from its vectors, the git directory cannot be written,
    or anything fails: the caller then takes RecallCache's way, which repairs what it must."""
    semantic = _semantic()
    if semantic is None:
        return None
    cache = _Written(common_dir / "gitmem" / "recall", memory_dir, trees)
    try:
        with cache._lock() as writable:
            record = cache._record(entries_tree) if writable else None
            if record is None or not record.get("vectors"):
                return None
            if "vectors_of" not in record:  # brought up meanwhile, by another
                return cache._load_entry(record, semantic, verify=False)
            lag = cache._lag(_kept(record), entries_tree)
            if lag is None or len(lag) > NEAR:
                return None
            # as an update loads what it writes from: the vectors verified, not the index,
            # which it rewrites none of
            loaded = cache._load_entry(record, semantic, verify_index=False)
            cache._catch_up(loaded, lag, entries_tree)
            loaded.behind = None
            cache._save(loaded, semantic)
            return loaded
    except (OSError, ValueError, KeyError, GitmemError):
        return None


class _Written(_Stored):
    """The cache's files written, under the lock, and vectors left behind brought up to date
    by the entries' files that trees reads (the opened repository, or git's command line for
    a reader that has not opened it: caught_up)."""

    def __init__(self, root: Path, memory_dir: str, trees: Trees) -> None:
        super().__init__(root, memory_dir)
        self.trees = trees

    @property
    def _prefix(self) -> str:
        return f"{self.memory_dir}/entries/"

    def _lag(self, behind: Behind, entries_tree: str | None) -> list[Change] | None:
        """The changes from the tree vectors were made for to entries_tree; None when git no
        longer holds that tree (a rewritten history, pruned)."""
        try:
            return self.trees.diff(behind.tree, entries_tree, prefix=self._prefix)
        except (KeyError, ValueError):
            return None

    def _catch_up(self, loaded: Loaded, lag: list[Change], entries_tree: str | None) -> None:
        """Vectors brought up by the changes since the tree they were made for, to
        entries_tree, whose index loaded already holds: every id a changed file held before
        or holds now is dropped, and embedded again from the file the index took it from, if
        the index holds it. So the vectors end holding the index's ids, each from the index's
        file, whatever rule chose that file (_apply's). The files are read in batches
        (Trees.read_all: git's command line reads each in one process), the changed ones
        and then the indexed ones not read yet, which are mostly none."""
        vectors = loaded.vectors
        assert vectors is not None, "only vectors loaded are brought up"
        now = {c.path: c.new._replace(path=c.path) for c in lag if c.new is not None}
        changed = [change.old for change in lag if change.old is not None] + list(now.values())
        ids = {Path(item.path).stem for item in changed}
        files: dict[str, bytes] = {}
        ids.update(doc.id for doc in self._admitted(changed, files))
        wanted: dict[str, TreeItem] = {}
        for entry_id in sorted(ids):
            vectors.remove(entry_id)
            indexed = loaded.index.hit(entry_id, 0.0)
            if indexed is None:
                continue
            item = now.get(indexed.path) or self.trees.item(
                entries_tree or "", indexed.path[len(self._prefix) :]
            )
            if item is not None:
                wanted[entry_id] = item._replace(path=indexed.path)
        for doc in self._admitted(list(wanted.values()), files):
            if doc.id in wanted and wanted[doc.id].path == doc.path:
                vectors.add(doc)

    def _admitted(self, items: list[TreeItem], files: dict[str, bytes]) -> Iterator[Doc]:
        """The admitted entries of items, the files not in files (read before, by id) read
        at once and kept there; a file git does not hold, or that is no entry, gives none."""
        from gitmem.model.fields import MAX_ENTRY_BYTES

        unread = {item.oid for item in items if item.is_file} - files.keys()
        if unread:
            files.update(self.trees.read_all(unread, MAX_ENTRY_BYTES))
        readable = [item for item in items if not item.is_file or item.oid in files]
        for doc in _docs_from(readable, lambda item: files[item.oid]):
            if isinstance(doc, Doc):
                yield doc

    # -- writing -------------------------------------------------------------------------

    @contextlib.contextmanager
    def _lock(self) -> Iterator[bool]:
        """Held by whoever writes; gives False, holding nothing, where the git directory
        cannot be written (_unwritable): a process that can save nothing needs no lock.

        The cache's folder, or its lock, replaced by a symbolic link is damage (ValueError
        and OSError: set aside), as a link in a folder's place is (_folder): every writer
        writes state.json and deletes what no tree uses in the folder a link points to, and
        opening the lock through a link created a file where it points."""
        if self.root.is_symlink():
            raise ValueError("the recall cache folder is a symbolic link")
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
            descriptor = os.open(self.root / "lock", flags, 0o666)
        except OSError as error:
            if not _unwritable(error):
                raise
            yield False
            return
        # a file system that takes no flock gets a held file instead (gitmem.repo.locks):
        # without one, every recall there set the cache aside and rebuilt it from every entry
        with os.fdopen(descriptor, "r+b"), exclusive(descriptor, self.root / "lock"):
            yield True

    def _folder(self, kind: str) -> Path:
        """The folder of kind, made when missing; a link in its place is damage (ValueError:
        set aside): the cache writes, and deletes what no tree uses, only in folders of its
        own, never in a folder elsewhere that a link points to."""
        folder = self.root / kind
        folder.mkdir(parents=True, exist_ok=True)
        if folder.is_symlink():
            raise ValueError(f"recall cache folder {kind} is a symbolic link")
        return folder

    def _write(self, kind: str, data: bytes | memoryview) -> str:
        folder = self._folder(kind)
        name = hashlib.sha256(data).hexdigest()[:32]
        if not (folder / name).exists():
            atomic_write(folder / name, bytes(data))
        return name

    def _write_parts(self, manifest: bytes, parts: dict[str, Any], names: set[str]) -> str:
        folder = self._folder("segments")
        for name, data in parts.items():
            if not (folder / name).exists():
                atomic_write(folder / name, bytes(data))
            names.add(name)
        return self._write("manifests", manifest)

    def _save(self, loaded: Loaded, semantic: Any | None) -> None:
        parts: set[str] = set()
        record: dict[str, Any] = {"dir": self.memory_dir, "tree": loaded.tree}
        manifest, segments = loaded.index.to_parts()
        record["index"] = self._write_parts(manifest, segments, parts)
        record["vectors"] = None
        if loaded.vectors is not None:
            manifest, chunks = loaded.vectors.to_parts()
            record["vectors"] = self._write_parts(manifest, chunks, parts)
        elif loaded.behind is not None:
            record["vectors"], record["vectors_of"] = loaded.behind.manifest, loaded.behind.tree
            parts.update(loaded.behind.parts)
        record["parts"] = sorted(parts)
        record["unreadable"] = [
            [path, loaded.unreadable[path]] for path in sorted(loaded.unreadable)
        ]
        try:
            older = [
                r
                for r in self._state()
                if (r.get("dir"), r.get("tree")) != (self.memory_dir, loaded.tree)
            ]
        except ValueError:
            older = []
        records = [record, *older][:KEEP_TREES]
        state = {"version": CACHE_VERSION, "trees": records}
        atomic_write(self.root / "state.json", json.dumps(state, indent=1).encode("utf-8"))
        self._collect(records)

    def _collect(self, records: list[dict[str, Any]]) -> None:
        """Delete files no remembered tree uses (a reader that loses a race rebuilds), and the
        temporary files of a writer killed before its rename (atomic_write's `.NAME.PID.tmp`):
        every writer holds the lock, and so does the caller, so no live writer owns one."""
        keep = {
            "manifests": {str(r[k]) for r in records for k in ("index", "vectors") if r.get(k)},
            "segments": {str(name) for r in records for name in r.get("parts", [])},
        }
        sweep_temporaries(self.root, older_than=0)
        for kind, names in keep.items():
            folder = self.root / kind
            if folder.is_symlink() or not folder.is_dir():
                continue
            sweep_temporaries(folder, older_than=0)
            for path in folder.iterdir():
                if path.name not in names and not path.name.startswith("."):
                    with contextlib.suppress(OSError):
                        path.unlink()


class RecallCache(_Written):
    """The cache of one repository's memory folder."""

    def __init__(
        self,
        store: Store,
        memory_dir: str,
        *,
        semantic: bool = True,
        progress: Callable[[int, int], None] | None = None,
        embed_later: bool = False,
    ) -> None:
        super().__init__(store.common_dir / "gitmem" / "recall", memory_dir, store)
        self.store = store
        self.use_semantic = semantic
        #: an update leaves the vectors behind for the next reader with the model (the
        #: module's "Vectors left behind"), unless that would leave it more than NEAR changes
        self.embed_later = embed_later
        #: told (entries embedded, entries) while a build embeds; a terminal shows it
        self.progress = progress

    # -- the public operation ------------------------------------------------------------

    def load(self, memory_tree: str | None, *, verify: bool = False) -> Loaded:
        """The index for the entries of memory_tree, brought up to date and saved if needed;
        verify reads a remembered one whole, under the lock, its checksums checked.
        Never fails for a cache problem: the worst case is a rebuild in memory."""
        entries_tree = self.store.subtree(memory_tree, "entries")
        semantic = _semantic() if self.use_semantic else None
        # one that embeds later reads the keyword index alone (_read's index_only)
        later = self.embed_later and semantic is not None
        try:
            found = None if verify else self._read(entries_tree, semantic, index_only=later)
            if found is not None:
                return found
        except (OSError, ValueError, KeyError):
            pass  # a writer may have collected what this read: ask again under its lock
        try:
            with self._lock() as writable:
                try:
                    found = self._read(entries_tree, semantic, verify=verify, index_only=later)
                except IndexFormatError:
                    found = None  # written by another gitmem: _update keeps its vectors
                if found is not None:
                    return found
                loaded = self._update(entries_tree, semantic)
                if writable:
                    try:
                        self._save(loaded, semantic)
                    except OSError as error:
                        if not _unwritable(error):
                            raise
                return loaded
        except (OSError, ValueError, KeyError, json.JSONDecodeError):
            self._set_aside()
            loaded = self._build(entries_tree, semantic)
            with contextlib.suppress(OSError, ValueError), self._lock():
                self._save(loaded, semantic)
            return loaded

    # -- reading -------------------------------------------------------------------------

    def recover(self, memory_tree: str | None) -> Loaded:
        """After a search failed on what load() gave: load again, verified (load's verify).
        A reader takes no lock and reads vectors when a query first needs them, so a writer
        may have collected them meanwhile (its tree no longer among the KEEP_TREES newest):
        that is no damage, and setting the cache aside made every reader rebuild it from
        every entry. A damaged cache fails the verified load, and is set aside and rebuilt."""
        return self.load(memory_tree, verify=True)

    # -- building and updating -------------------------------------------------------------

    def _docs(
        self, entries_tree: str | None, unreadable: dict[str, str] | None = None
    ) -> Iterator[Doc]:
        """The admitted entries of a tree as Docs, in path order: where two files hold one id
        (a copy that came in without the gate), a build keeps the last, the one that answers
        for the id (gitmem.model.names.answers_for_id), as an update does (_add). The tree
        walk's own order takes the type folders from the last, so a build kept the first, and
        recalled another text than the update before it. A big tree is read by two processes
        (gitmem.parallel): reading and parsing are half of a first build's time. Each file
        that is no entry goes to unreadable, when given (Unreadable)."""
        items = sorted(
            (
                item
                for item in self.store.walk(entries_tree, f"{self.memory_dir}/entries/")
                if entry_place(item.path, self.memory_dir) is not None
            ),
            key=lambda item: item.path,
        )
        from gitmem import parallel as forked

        # _read_docs looked up when called: tests replace it
        yield from self._placed(
            forked.in_two(
                items, lambda part: _read_docs(self.store, part), minimum=PARALLEL_READ_MIN
            ),
            unreadable,
        )

    def _placed(
        self, found: Iterable[Doc | Unreadable], unreadable: dict[str, str] | None
    ) -> Iterator[Doc]:
        """The docs whose file is at their own entry's place: a copy of an entry committed
        at another entry's place (entries/decision/<other>.md, entries/method/<id>.md of a
        decision) holds the id it copies, and was recalled as that entry, with that file's
        text, where `gitmem list` leaves it out (gitmem.model.names.misplaced). Each file
        that is no entry, or no entry at its place, goes to unreadable, when given."""
        for doc in found:
            if isinstance(doc, Unreadable):
                if unreadable is not None:
                    unreadable[doc.path] = doc.problem
            elif (wrong := misplaced(doc.path, self.memory_dir, doc.id, doc.type)) is None:
                yield doc
            elif unreadable is not None:  # named as `gitmem list` names it: it was silent
                from gitmem.model.problem import Problem

                unreadable[doc.path] = str(Problem(doc.path, None, "ID-PATH", wrong))

    def _build(self, entries_tree: str | None, semantic: Any | None) -> Loaded:
        unreadable: dict[str, str] = {}
        docs = list(self._docs(entries_tree, unreadable))
        index = Index.build(docs)
        vectors = semantic.build(docs, self.progress) if semantic is not None else None
        return Loaded(entries_tree, index, vectors, unreadable)

    def _update(self, entries_tree: str | None, semantic: Any | None) -> Loaded:
        """From the nearest remembered tree of this memory folder, by the diff; else from
        scratch."""
        # An update of a cache with vectors embeds what was admitted (unless embed_later:
        # then it leaves them behind, up to NEAR changes): the model loads in
        # another thread while the trees are diffed (gitmem.recall.semantic.loading_ahead).
        # Not when no tree with vectors is remembered: that is a first build, which embeds
        # in two processes only while the model is not loaded here (semantic.build), and a
        # load begun ahead had the cold build of 100,000 entries run on one core.
        remembered = any(r.get("vectors") for r in self._mine())
        later = self.embed_later and semantic is not None
        loads = remembered and not later
        ahead = semantic.loading_ahead() if semantic is not None and loads else None
        with ahead or contextlib.nullcontext():
            nearest = self._nearest(entries_tree, semantic)
            if nearest is not None:
                base, changes = nearest
                was = base.tree
                # vectors of an older tree than the index's are brought up by _catch_up
                left = base.vectors if base.behind is not None else None
                if left is not None:
                    base.vectors = None
                self._apply(base, changes, entries_tree)
                if left is not None and base.behind is not None:
                    base.vectors = left
                    lag = self._lag(base.behind, entries_tree)
                    self._bring_up(base, lag, entries_tree, semantic)
        if nearest is None:
            # one that embeds later builds the keyword index alone: a first build embeds
            # every entry (seconds a thousand), which an agent's hook or an admission's
            # post-merge hook must not wait for; the first recall with the extra does it
            return self._build(entries_tree, None if later else semantic)
        base.tree = entries_tree
        if later and base.behind is not None:
            # vectors of the base's own tree lag by the changes _nearest found
            lag = changes if base.behind.tree == was else self._lag(base.behind, entries_tree)
            if lag is None or len(lag) > NEAR:  # more than a recall should embed on its way
                if lag is not None:
                    manifest = self._blob("manifests", base.behind.manifest)
                    base.vectors = self._vectors(semantic, manifest, verify=True)
                self._bring_up(base, lag, entries_tree, semantic)
        return base

    def _bring_up(
        self, loaded: Loaded, lag: list[Change] | None, entries_tree: str | None, semantic: Any
    ) -> None:
        """loaded's vectors, made for an older tree, brought to entries_tree: by the lag's
        changes, or embedded anew when git no longer holds that tree (the index stays)."""
        if lag is None:
            loaded.vectors = semantic.build(list(self._docs(entries_tree)), self.progress)
        else:
            self._catch_up(loaded, lag, entries_tree)
        loaded.behind = None

    def _nearest(
        self, entries_tree: str | None, semantic: Any | None
    ) -> tuple[Loaded, list[Change]] | None:
        """The remembered tree of this memory folder (with vectors, when they are wanted) that
        the fewest changes lead from to entries_tree, loaded, and those changes; None when
        there is none or it does not load. A tree git no longer holds is passed over. The
        newest is taken at once when at most NEAR changes lead from it (an admission's
        update), else each one is diffed: after a recall at an old --ref the newest is that
        ref's tree, and the memory branch's next update from it read and embedded every entry
        admitted since."""
        nearest: tuple[dict[str, Any], list[Change]] | None = None
        records = self._mine()
        later = self.embed_later and semantic is not None
        # one that embeds later takes a tree with vectors when one is remembered (it saves
        # the new index naming them: vectors_of), else any: it needs no vectors of its own
        vectored = semantic is not None and (not later or any(r.get("vectors") for r in records))
        for record in records:
            if vectored and not record.get("vectors"):
                continue
            try:
                changes = self.store.diff(record.get("tree"), entries_tree, prefix=self._prefix)
            except (KeyError, ValueError):
                continue  # a tree git has pruned (the branch was reset): no damage of the cache
            if nearest is None or len(changes) < len(nearest[1]):
                nearest = (record, changes)
            if len(changes) <= NEAR:
                break
        if nearest is None:
            return None
        record, changes = nearest
        try:
            try:
                # an update verifies what it writes from: the index when the changes touch
                # it (a recall bringing vectors up on an unchanged tree rewrites none of it)
                loaded = self._load_entry(
                    record, None if later else semantic, verify_index=bool(changes)
                )
            except IndexFormatError:
                loaded = self._reindexed(record, None if later else semantic)
        except (OSError, ValueError, KeyError):
            return None
        if later and loaded.behind is None and record.get("vectors"):
            loaded.behind = _kept(record)  # the record's vectors, saved with the new index
        return loaded, changes

    def _reindexed(self, record: dict[str, Any], semantic: Any | None) -> Loaded:
        """A remembered tree whose index another gitmem wrote (an upgrade changed its
        format): the index is built again from the tree's entries, with no run of the model,
        and the vectors are kept, verified. They are derived from the entries' text and the
        model alone, and embedding is most of a first build's time (the README's cold build
        with the extra)."""
        vectors = None
        if semantic is not None and record.get("vectors"):
            manifest = self._blob("manifests", str(record["vectors"]))
            vectors = self._vectors(semantic, manifest, verify=True)
        tree = record.get("tree")
        unreadable: dict[str, str] = {}
        index = Index.build(list(self._docs(tree, unreadable)))
        return Loaded(tree, index, vectors, unreadable, _behind(record))

    def _apply(self, loaded: Loaded, changes: list[Change], entries_tree: str | None) -> None:
        """Every removal first, then every addition: the diff comes in path order, so an
        entry moved to a path that sorts before its old one (entries/method/ to decision/)
        would otherwise be added and then removed by its id. A removed file's id is its
        name's and, when it parses, its front matter's: an entry whose id and name disagree
        (one that came in without the gate) was indexed under the latter.

        An id goes only with the file it was indexed from: two files may hold one id (a
        copy in another type folder, also without the gate), and the one that stays keeps
        it found. When the indexed one goes, a file of entries_tree named after the id gives
        it back (a regular file, the last in path order, as a build reads and keeps it)."""
        removed: set[str] = set()
        for change in changes:
            old = change.old
            if old is None:
                continue
            ids = {Path(old.path).stem}
            if old.is_file:
                with contextlib.suppress(GitmemError):
                    ids.update(d.id for d in _read_docs(self.store, [old]) if isinstance(d, Doc))
            for entry_id in ids:
                indexed = loaded.index.hit(entry_id, 0.0)
                if indexed is None or indexed.path != old.path:
                    continue  # indexed from another file, which stays
                removed.add(entry_id)
                loaded.index.remove(entry_id)
                if loaded.vectors is not None:
                    loaded.vectors.remove(entry_id)
        for change in changes:
            loaded.unreadable.pop(change.path, None)  # read again below, if it is still there
        for change in changes:
            new = change.new
            if new is not None and entry_place(change.path, self.memory_dir):
                self._add(loaded, new._replace(path=change.path))
        changed = {change.path for change in changes}
        for entry_id in sorted(removed):
            if entry_id in loaded.index or "/" in entry_id:
                continue
            for folder in self.store.folders(entries_tree):
                path = f"{self.memory_dir}/entries/{folder}/{entry_id}.md"
                item = self.store.item(entries_tree or "", f"{folder}/{entry_id}.md")
                if item is not None and item.is_file and path not in changed:
                    self._add(loaded, item._replace(path=path))

    def _add(self, loaded: Loaded, item: TreeItem) -> None:
        """Index the entry of item, unless a file later in path order holds its id: that
        one stays (answers_for_id), as a build (_docs) keeps it."""
        for doc in self._placed(_read_docs(self.store, [item]), loaded.unreadable):
            indexed = loaded.index.hit(doc.id, 0.0)
            if indexed is not None and answers_for_id(indexed.path, doc.path):
                continue
            loaded.index.add(doc)
            if loaded.vectors is not None:
                loaded.vectors.add(doc)

    def _set_aside(self) -> None:
        """Move a broken cache out of the way, so a rebuild starts clean.  The newest one set
        aside is kept for inspection and the older ones go: each is a whole cache (150 MB at
        100,000 entries with the extra), and a cache of another version, which every upgrade
        of the format sets aside, must not pile up."""
        if self.root.exists():
            aside = self.root.with_name(f"recall.broken-{time.time_ns()}-{os.getpid()}")
            with contextlib.suppress(OSError):
                self.root.rename(aside)
                for older in self.root.parent.glob("recall.broken-*"):
                    if older != aside:
                        shutil.rmtree(older, ignore_errors=True)
