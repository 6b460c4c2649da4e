"""`gitmem site`: the memory at a commit as a static, self-contained site.

`generate` is a pure function of the `Memory` it is given (gitmem.site.collect reads that from
one commit and the candidate branches): it returns every file of the site as bytes, sorted by
path, with nothing taken from the clock, the machine or the order files were read in. So two
runs on the same commit give the same bytes, and a published site changes only when the memory
does.

`write` puts those files in a folder. It refuses a non-empty folder it did not write before
(marked by `.gitmem-site`), so `--out` never scatters a site among someone else's files. In
a folder it wrote before it replaces or removes only the files the marker lists as the old
site's, so no page of a removed entry is left behind, and keeps every other file and folder
there as it is: a `CNAME` or `robots.txt` added for the web host, notes. A file of the
user's where the new site writes one is refused by name, never overwritten. A site built
from a newer commit is kept whole (`write` says when).

The files:

    index.html              counts by type, status and source; latest admissions; candidates
    entries.html            every entry, with filters and search (site.js, search.js)
    entries/<id>.html       one page per entry
    candidates/<id>.html    one page per pending candidate, as it will read once admitted
    refused.html            the refused topics and why
    site.css, site.js       the style and the script (shipped inside the package)
    search.js               the search index (gitmem.site.search)
    .nojekyll               GitHub Pages serves the files as they are
    .gitmem-site            the marker above: the commit the site was built from, then the
                            site's files, one a line (the files a build may replace or remove)
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import fcntl
import os
import re
import shutil
import tempfile
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from gitmem.errors import UsageError
from gitmem.gate.rules import shown
from gitmem.model.names import answers_for_id
from gitmem.model.terminal import HIDDEN_CLASS
from gitmem.repo.atomic import read_regular, refuse_links, remove_temporaries_of
from gitmem.repo.store import atomic_write
from gitmem.site import lineage as lineage_mod
from gitmem.site import pages, search
from gitmem.site.collect import Memory, SiteEntry

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

    from gitmem.repo.store import Store
    from gitmem.repo.workspace import Workspace

MARKER = ".gitmem-site"
#: The marker's first line while a build swaps its site in: the folder is gitmem's, its site
#: no one commit's (a build killed then leaves it so, and the next build replaces it whatever
#: its commit).
UNFINISHED = b"gitmem site being written\n"
_BUILT_FROM = re.compile(rb"gitmem site of ([0-9a-f]{40}|[0-9a-f]{64})\n")
#: The marker's second line: the lines after it are the files of the site (while a build
#: swaps, of the old site and the new one), relative to its root. A marker without it was
#: written by an earlier gitmem (_owned says what is taken for that site's files then).
LISTED = b"# the files of this site, one a line; a build replaces or removes only these\n"
#: The files of a site written before the marker listed them, by path: its pages and
#: scripts; anything else in such a folder is taken for the user's, and kept.
_OLD_LAYOUT = re.compile(
    r"(?:index|entries|refused)\.html|search\.js|site\.(?:css|js)|\.nojekyll"
    r"|(?:entries|candidates)/[^/\n]+\.html"
)
ASSETS = ("site.css", "site.js")
#: The new site while it is written: a hidden folder beside out named `.<out's name>` and this
#: and mkdtemp's letters, or inside out named this and those letters where out's parent
#: will not do (gitmem.site.build._stage says when).
STAGE_PREFIX = ".gitmem-site-new-"
#: The letters mkdtemp ends a staging folder's name with (tempfile's: eight of a-z, 0-9, _):
#: only a folder named so is a build's, swept; `.gitmem-site-new-drafts` is the user's.
_STAGE_LETTERS = "[a-z0-9_]{8}"
_STAGE_INSIDE = re.compile(rf"{re.escape(STAGE_PREFIX)}(?:probe-)?{_STAGE_LETTERS}")


def asset(name: str) -> bytes:
    return (resources.files("gitmem.site") / "assets" / name).read_bytes()


#: What a browser does not show, or lets reorder the text around it: every character the
#: gate's HIDDEN-UNICODE rule refuses in an entry (gitmem.model.terminal.HIDDEN_CLASS, the one
#: list) but the carriage return, which a browser reads as a line break: control characters,
#: bidirectional controls, zero-width characters, fillers, the tag characters that spell
#: invisible ASCII, the default-ignorable code points a browser draws as nothing. No page of
#: gitmem's own holds one.
_UNSEEN = re.compile(f"(?!\r){HIDDEN_CLASS}")
#: those of them in ASCII: a page all ASCII (most are) is looked through three times faster
_UNSEEN_ASCII = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _encoded(page: str) -> bytes:
    """A page's bytes, with nothing in it hidden from a reader. A character in _UNSEEN shows
    as its escape (a right-to-left override ran on to the end of its paragraph, reversing
    the words after the field that held it), as the terminal commands show it to a
    reviewer. A name git keeps whose bytes are not UTF-8 (a file, a branch) reaches a page as
    lone surrogates, which UTF-8 cannot encode: each such byte shows as \\xNN, as `gitmem
    check` shows the name."""
    page = (_UNSEEN_ASCII if page.isascii() else _UNSEEN).sub(_escape, page)
    return shown(page).encode()


def _escape(match: re.Match[str]) -> str:
    """A character as its escape: \\u202e, or \\U000e0041 beyond the first 65,536."""
    code = ord(match.group())
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def generate(memory: Memory) -> dict[str, bytes]:
    """Every file of the site, by path relative to its root."""
    taken: set[str] = set()
    # a page for each file: two files holding one id (the gate refuses that, a commit past
    # it does not) each get theirs, and a link by id, or the lineage, takes the file whose
    # entry recall answers with (answers_for_id)
    page_of = {e.path: f"entries/{pages.page_name(e.entry.id, taken)}.html" for e in memory.entries}
    holder: dict[str, SiteEntry] = {}
    for e in memory.entries:
        held = holder.get(e.entry.id)
        if held is None or answers_for_id(e.path, held.path):
            holder[e.entry.id] = e
    entry_pages = {entry_id: page_of[e.path] for entry_id, e in holder.items()}
    taken = set()
    candidate_pages = {
        c.id: f"candidates/{pages.page_name(c.id, taken)}.html"
        for c in memory.candidates
        if c.entry is not None
    }
    links = pages.Links(entry_pages, candidate_pages, memory.web, memory.commit, page_of)
    admitted = [e for e in memory.entries if e.entry.status == "admitted"]
    index = search.build(
        search.docs_of([(e.path, e.entry) for e in admitted]),
        [page_of[e.path] for e in admitted],
    )
    numbers = {e.path: i for i, e in enumerate(admitted)}
    files: dict[str, bytes] = {
        "index.html": _encoded(pages.home(memory, links)),
        "entries.html": _encoded(pages.entry_list(memory, links, numbers)),
        "refused.html": _encoded(pages.refused(memory)),
        "search.js": search.script(index),
        ".nojekyll": b"",
    }
    for name in ASSETS:
        files[name] = asset(name)
    by_id = {entry_id: e.entry for entry_id, e in holder.items()}
    successors = lineage_mod.successors_of(by_id)
    for item in memory.entries:
        entry = item.entry
        graph = None
        if entry.supersedes or entry.id in successors:
            graph = lineage_mod.lineage(entry.id, by_id, successors)
        files[page_of[item.path]] = _encoded(pages.entry_page(item, memory, links, graph))
    for candidate in memory.candidates:
        if candidate.entry is None:
            continue
        graph = None
        if candidate.entry.supersedes:
            known = {**by_id, candidate.id: candidate.entry}
            graph = lineage_mod.lineage(candidate.id, known, lineage_mod.successors_of(known))
            # drawn as what it is, not as the status its text claims
            graph = dataclasses.replace(
                graph,
                nodes=tuple(
                    dataclasses.replace(n, status="candidate") if n.id == candidate.id else n
                    for n in graph.nodes
                ),
            )
        files[candidate_pages[candidate.id]] = _encoded(
            pages.entry_page(candidate, memory, links, graph)
        )
    files[MARKER] = marker(f"gitmem site of {memory.commit}\n".encode(), files)
    return dict(sorted(files.items()))


def marker(first: bytes, paths: Iterable[str]) -> bytes:
    """The marker's bytes: its first line, then LISTED and paths (but the marker's own), sorted,
    each as the file system spells it. A path holds no line break: generate makes none
    (pages.page_name), and _owned takes none for an earlier site's."""
    listed = (os.fsencode(path) + b"\n" for path in sorted(set(paths) - {MARKER}))
    return first + LISTED + b"".join(listed)


def refuse_out(out: Path, ws: Workspace) -> None:
    """Refuse an out folder the site must not replace, marker or not: one that is or holds
    the repository (its working tree or git folder), lies in the git folder, holds the
    memory folder, or lies in the memory folder (a repository that commits a `.gitmem-site`
    file, or a `_site` link to its root, would otherwise have `gitmem site` delete its
    working tree and .git, or its memory folder); and, as gitmem export does, a symbolic
    link at out or a folder on the way out of the repository (a clone can commit `_site`,
    the default, as a link to a folder of its own with a marker, whose files of the user's
    the site would replace)."""
    store = ws.store
    if store.workdir is not None:
        refuse_links(out, f"--out {out}", store.workdir)
    where = out.resolve()
    for folder in (store.workdir, store.git_dir, store.common_dir):
        if folder is not None and (where == folder.resolve() or where in folder.resolve().parents):
            raise UsageError(
                f"--out {out}: the folder holds the repository, which the site would replace; "
                "choose a new folder for the site, e.g. _site"
            )
    for folder in (store.git_dir, store.common_dir):
        if folder.resolve() in where.parents:
            # `--out .git/refs/heads/x` wrote pages where git reads refs, and every git
            # command then warned of broken ones
            raise UsageError(
                f"--out {out}: the folder is inside the git folder {folder}, which git "
                "alone writes; choose a folder outside it, e.g. _site"
            )
    if store.workdir is not None:
        memory = (store.workdir / ws.dir).resolve()
        if where == memory or memory in where.parents:
            raise UsageError(
                f"--out {out}: the folder is in the memory folder {ws.dir}; choose a folder "
                "outside it, e.g. _site"
            )
        if where in memory.parents:
            # memory.dir docs/memory and a `docs` holding a committed .gitmem-site: the site
            # replaced docs whole, the memory folder's files with it
            raise UsageError(
                f"--out {out}: the folder holds the memory folder {ws.dir}, which the site "
                "would replace; choose a folder outside it, e.g. _site"
            )


@dataclasses.dataclass(frozen=True)
class Written:
    """What write did: kept a newer site (newer, the commit it was built from; nothing
    written), or wrote the site and left kept, the files in out that are not the site's."""

    newer: str | None = None
    #: paths relative to out, sorted: files and links of the user's, left as they were
    kept: tuple[str, ...] = ()


def write(
    files: dict[str, bytes],
    out: Path,
    waiting: Callable[[], None] | None = None,
    store: Store | None = None,
) -> Written:
    """Replace the site in out (created when missing) with files, keeping every file there
    that is not the old site's; or keep a newer site that is there (Written.newer). A folder
    the system will not write (read-only, under a file, on /proc) is the user's to fix: the
    error names it with the system's reason. Another build writing out at the time is
    waited for (called `waiting` first, so the command can say why it stands still).

    With store, the repository files were built from: once out is locked, a site there
    built from a commit that descends from files' own (by the commit graph) is newer, and
    is kept. Two builds at once used to end with the site of whichever took the lock last:
    one that had read main's tip, then waited while a build of a later tip wrote it,
    replaced the newer site with its older one. Every other site there is replaced: one
    built from the same commit (the candidate branches may have moved since), from an
    older one, and from a commit neither older nor newer (another branch, a rewritten
    history) or one this repository does not hold, since the graph cannot say which is
    newer and the site asked for last is the one the user means; as is a site whose
    marker names no commit (what a build killed while it claimed a new folder, swapped
    its pages in or removed the old ones left)."""
    out = Path(out)
    if MARKER in files:  # the list is of the files given, whoever made them
        first = files[MARKER].partition(b"\n")[0] + b"\n"
        files = {**files, MARKER: marker(first, files)}
    try:
        if out.exists() and not out.is_dir():
            raise UsageError(f"--out {out}: not a folder")
        out.mkdir(parents=True, exist_ok=True)
        with _locked(out, waiting):
            newer = _newer_site(files, out, store)
            if newer is not None:
                return Written(newer=newer)
            return Written(kept=_write(files, out))
    except OSError as exc:
        where = f" ({exc.filename})" if exc.filename and str(exc.filename) != str(out) else ""
        raise UsageError(
            f"--out {out}: cannot write the site there{where}: {exc.strerror or exc}: "
            "choose a folder you can write to"
        ) from None


def built_from(marker: bytes) -> str | None:
    """The commit a site's marker names, on its first line (None: it names none)."""
    first, newline, _ = marker.partition(b"\n")
    found = _BUILT_FROM.fullmatch(first + newline)
    return found.group(1).decode() if found else None


def _newer_site(files: dict[str, bytes], out: Path, store: Store | None) -> str | None:
    """The commit the site in out was built from, when it descends from files' (write)."""
    ours = built_from(files.get(MARKER, b""))
    marker = out / MARKER
    if store is None or ours is None or marker.is_symlink() or not marker.is_file():
        return None
    with open(marker, "rb") as handle:
        theirs = built_from(handle.readline(128))
    if theirs is None or theirs == ours or not store.is_ancestor(ours, theirs):
        return None
    return theirs


@contextlib.contextmanager
def _locked(out: Path, waiting: Callable[[], None] | None) -> Iterator[None]:
    """Hold out itself locked (flock on the folder: no lock file joins the site) while the
    site in it is replaced. Two builds into one folder at once each swept the other's
    staging folder away as a page of the old site and renamed their pages over each
    other's: one failed, or both ended leaving a site missing pages. The second now waits
    for the first and then writes its own site whole. A file system that takes no flock on
    a folder (some network mounts) is written unlocked, as before."""
    fd = os.open(out, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if waiting is not None:
                waiting()
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError as exc:
            if exc.errno not in (errno.EBADF, errno.ENOLCK, errno.EOPNOTSUPP, errno.EINVAL):
                raise
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _write(files: dict[str, bytes], out: Path) -> tuple[str, ...]:
    """Write the new site whole into a hidden folder, then swap it into out page by page:
    each new file is renamed over its old one (rename(2) replaces a file in one step), the
    pages under entries/ and candidates/ first, then the style and the scripts, then the
    top-level pages that link to them; only then do the old site's files that the new one
    does not hold go, and the marker comes last. Return the files in out that are not the
    site's, which stay as they were.

    The old site's files are those its marker lists (_owned); every other file and folder
    in out is the user's: a `CNAME` or `robots.txt` added for the web host, notes, a
    folder of their own. The site used to replace the folder whole, and these went without
    a word. One of them where the new site writes a file, or a file of theirs where it
    needs a folder, is refused before anything is written (_refuse_in_the_way), never
    replaced: which of the two is meant, only the user can say.

    So at no moment is a page of the old site that the new one keeps missing: a reader or
    a web server pointed at out gets the old page or the new one, never a 404 (the old swap
    deleted the whole old site first, then renamed the new one in). While the swap lasts (one
    rename per page: about 2 s for 10,000 on a busy machine) a reader may get a new page
    beside an old one; a page of a removed entry stays until the swap is done.

    The marker is claimed before anything else is written and stays through the swap, so
    a build that fails or is interrupted (a full disk, a name the file system refuses, a
    Ctrl-C) never leaves a folder the next run refuses as someone else's; a failure while
    the new site is written leaves the old one as it was. While the swap lasts the marker
    names no commit (UNFINISHED) and lists the files of both sites: a swap cut short leaves
    a mix of two sites, or a part of one, which the next build replaces whatever its commit
    (write), telling every file either site wrote from the user's. out stays the same
    folder (a server started inside it serves the new site). The new site is staged beside
    out, not in it (_stage), so a build killed mid-way leaves no folder a web server
    pointed at out would serve; the next build removes what a killed one left, beside out
    and in it. The caller holds out locked: what is in it now is a finished site, or a
    build's leftovers, and the user's files."""
    if os.path.lexists(out / ".git"):
        # a clone or worktree (of any repository) whose root holds a committed .gitmem-site:
        # the site replaced it whole, its history and the work not yet committed with it
        raise UsageError(
            f"--out {out}: the folder is a git repository or worktree (it holds .git), which "
            "the site would replace; choose a new folder for the site, e.g. _site"
        )
    if any(out.iterdir()) and not (out / MARKER).is_file():
        raise UsageError(
            f"--out {out}: the folder holds files gitmem did not write; choose an empty or "
            "new folder (gitmem writes only into a site it wrote, marked by .gitmem-site)"
        )
    if not (out / MARKER).is_file():
        atomic_write(out / MARKER, marker(UNFINISHED, ()))
    _sweep_stages(out)
    remove_temporaries_of([out / MARKER])  # a killed claim's or swap's: under the lock
    found, folders = _present(out)
    owned = _owned(out, found, files)
    _refuse_in_the_way(out, files, found, folders, owned)
    stage = _stage(out)
    try:
        for path, data in files.items():
            target = stage / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        atomic_write(out / MARKER, marker(UNFINISHED, owned | set(files)))
        made: set[str] = set()
        for path in sorted(files, key=_swap_order):  # str paths: 10,000 pages, no pathlib
            if path == MARKER:
                continue
            folder = path.rpartition("/")[0]
            if folder and folder not in made:
                _make_folder(out, out / folder)
                made.add(folder)
            os.replace(os.path.join(stage, path), os.path.join(out, path))
        _remove_old(out, owned - set(files), set(files))
        if MARKER in files:
            # last, once the old site's other files are gone: a build killed while it
            # removes them leaves a marker naming no commit, not a finished site
            os.replace(stage / MARKER, out / MARKER)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    return tuple(sorted(found - owned - {MARKER}))


def _present(out: Path) -> tuple[set[str], set[str]]:
    """What is in out, by path relative to it: everything but folders (files, links, a link
    to a folder too, which is not followed), and the folders. A staging folder that the
    sweep could not remove is left out of both."""
    found: set[str] = set()
    folders: set[str] = set()

    def look(folder: str, prefix: str) -> None:
        with os.scandir(folder) as children:
            for child in children:
                path = prefix + child.name
                if child.is_dir(follow_symlinks=False):
                    if not (prefix == "" and _STAGE_INSIDE.fullmatch(child.name)):
                        folders.add(path)
                        look(child.path, path + "/")
                else:
                    found.add(path)

    look(os.fspath(out), "")
    return found, folders


def _owned(out: Path, found: set[str], files: dict[str, bytes]) -> set[str]:
    """The files in out (of found) that are the old site's, for the new one to replace or
    remove: those its marker lists after LISTED. Only a path found is taken, so a list
    naming `../x`, or a file through a link to a folder, never reaches out of out.

    A marker without the list was written by an earlier gitmem, which replaced the folder
    whole and wrote no file but the site's: what such a folder holds beside its site was
    put there since, by the user. Its site's files are told by path: the files the new site
    writes, and those of the layout every such site had (_OLD_LAYOUT: the top-level pages,
    scripts and style, entries/*.html, candidates/*.html); every other file is kept."""
    try:
        held = read_regular(out / MARKER)
    except (OSError, ValueError):
        held = b""
    rest = held.partition(b"\n")[2]
    if rest.startswith(LISTED):
        listed = os.fsdecode(rest[len(LISTED) :]).split("\n")
        return found & set(listed)
    return {path for path in found if path in files or _OLD_LAYOUT.fullmatch(path)}


def _refuse_in_the_way(
    out: Path, files: dict[str, bytes], found: set[str], folders: set[str], owned: set[str]
) -> None:
    """Refuse, naming them, the user's files and folders where the new site writes a file:
    a file or folder of theirs at a page's path (an entry admitted since as `notes`, a page
    `entries/notes.html` of their own), or a file or link of theirs at a folder the site
    needs (a file named `entries`). Replaced, the user's would be lost; kept, the site would
    lack a page or link to theirs as if it were its own."""
    way: set[str] = set()
    for path in files:
        if path == MARKER:
            continue
        if path in folders or (path in found and path not in owned):
            way.add(path)
        way.update(f for f in _folders_of(path) if f in found and f not in owned)
    if not way:
        return
    named = sorted(way)
    listed = ", ".join(shown(name).replace("\n", "\\n") for name in named[:5])
    more = f" and {len(named) - 5} more" if len(named) > 5 else ""
    if len(named) == 1:
        said, them = f"{listed} is not gitmem's (.gitmem-site does not list it)", "it"
    else:
        said, them = "these are not gitmem's (.gitmem-site does not list them)", "them"
    raise UsageError(
        f"--out {out}: {said}, and the new site writes there"
        f"{'' if len(named) == 1 else ': ' + listed + more}; move {them} out of {out} or "
        f"remove {them}, then build again"
    )


def _stage(out: Path) -> Path:
    """A new, empty folder to write the site into before the swap: beside out (in its
    parent, named `.<out's name>.gitmem-site-new-<letters>`), where a web server pointed at
    out never serves it, even when a killed build leaves it behind. A folder beside out
    needs write access to out's parent and a rename from it into out: where out is a mount
    point (of another file system or a bind mount: rename(2) says EXDEV) or its parent is
    read-only, the site is staged inside out as before, in a hidden folder only its owner
    may read (mkdtemp makes it 0700), which a killed build leaves until the next one."""
    real = out.resolve()
    if real.parent != real:
        try:
            stage = Path(tempfile.mkdtemp(prefix=f".{real.name}{STAGE_PREFIX}", dir=real.parent))
        except OSError:
            pass  # a read-only parent, a name too long beside out's: stage inside
        else:
            try:
                probe = stage / "probe"
                probe.mkdir()
                inside = out / f"{STAGE_PREFIX}probe-{stage.name[-8:]}"
                os.rename(probe, inside)  # swept by the next build if killed before rmdir
                inside.rmdir()
            except OSError:
                shutil.rmtree(stage, ignore_errors=True)
            else:
                return stage
    return Path(tempfile.mkdtemp(prefix=STAGE_PREFIX, dir=out))


def _sweep_stages(out: Path) -> None:
    """Remove the staging folders killed builds left beside out and inside it. The caller
    holds out locked, and a build stages only while it holds that lock, so every staging
    folder of out that is there now is a dead build's: one named as _stage names them, to
    mkdtemp's last letter. A folder of the user's that merely starts so (any letters after
    the prefix were taken for a stage's) was removed with everything in it."""
    real = out.resolve()
    beside = re.compile(rf"\.{re.escape(real.name)}{re.escape(STAGE_PREFIX)}{_STAGE_LETTERS}")
    places = [(out, _STAGE_INSIDE)]
    if real.parent != real:
        places.append((real.parent, beside))
    for folder, name in places:
        with contextlib.suppress(OSError):
            for child in os.scandir(folder):
                if name.fullmatch(child.name) and child.is_dir(follow_symlinks=False):
                    shutil.rmtree(child.path, ignore_errors=True)


def _swap_order(path: str) -> tuple[int, str]:
    """Pages in folders first, then the files they and the top-level pages load, then the
    top-level pages: a page is in place before a page linking to it (the marker, last, goes
    in once the old site's other files are gone: _write)."""
    if path == MARKER:
        return 3, path
    if "/" in path:
        return 0, path
    return (2 if path.endswith(".html") else 1), path


def _make_folder(out: Path, folder: Path) -> None:
    """folder, a real folder inside out: anything else in its place (a file or a link of the
    old site's; one of the user's was refused, _refuse_in_the_way) is removed first."""
    if folder == out:
        return
    _make_folder(out, folder.parent)
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        folder.unlink()
    folder.mkdir(exist_ok=True)


def _remove_old(out: Path, old: set[str], new: set[str]) -> None:
    """Remove the old site's files that the new one does not hold (a removed entry's page),
    then each of their folders left empty that the new site has no file in. A folder holding
    a file of the user's stays, with the file. A file of the old site's where the new one
    has a folder is gone already (_make_folder put the folder in its place): a marker that
    listed `entries`, a link there (a `_site` committed so), failed the build at unlinking
    the new site's folder, "cannot write the site there", the folder left half swapped."""
    needed = {folder for path in new for folder in _folders_of(path)}
    for path in sorted(old - needed):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(os.path.join(out, path))
    emptied = {folder for path in old for folder in _folders_of(path)} - needed
    for folder in sorted(emptied, key=lambda f: (-f.count("/"), f)):  # deepest first
        with contextlib.suppress(OSError):  # not empty: it holds the user's
            os.rmdir(os.path.join(out, folder))


def _folders_of(path: str) -> list[str]:
    """The folders a path relative to out lies in: `a/b/c.html` -> `a`, `a/b`."""
    parts = path.split("/")
    return ["/".join(parts[:n]) for n in range(1, len(parts))]
