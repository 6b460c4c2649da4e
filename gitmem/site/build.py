"""`gitmem site`: the memory at a commit as a static, self-contained site.

`generate` is a pure function of the `Memory` it is given (gitmem.site.collect reads that from
one commit and the candidate branches): it returns every file of the site as bytes, sorted by
path, with nothing taken from the clock, the machine or the order files were read in. So two
runs on the same commit give the same bytes, and a published site changes only when the memory
does.

`write` puts those files in a folder. It refuses a folder that holds anything but a site it
wrote before (marked by `.gitmem-site`), so `--out` can never empty a folder of someone
else's files; a folder it wrote before is replaced whole, so no page of a removed entry is
left behind, unless the site there was built from a newer commit (`write` says when).

The files:

    index.html              counts by type, status and source; latest admissions; candidates
    entries.html            every entry, with filters and search (site.js, search.js)
    entries/<id>.html       one page per entry
    candidates/<id>.html    one page per pending candidate, as it will read once admitted
    refused.html            the refused topics and why
    site.css, site.js       the style and the script (shipped inside the package)
    search.js               the search index (gitmem.site.search)
    .nojekyll               GitHub Pages serves the files as they are
    .gitmem-site            the marker above, naming the commit the site was built from
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import fcntl
import os
import re
import shutil
import stat
import tempfile
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from gitmem.errors import UsageError
from gitmem.gate.rules import shown
from gitmem.model.names import answers_for_id
from gitmem.model.terminal import HIDDEN_CLASS
from gitmem.repo.atomic import refuse_links
from gitmem.repo.store import atomic_write
from gitmem.site import lineage as lineage_mod
from gitmem.site import pages, search
from gitmem.site.collect import Memory, SiteEntry

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from gitmem.repo.store import Store
    from gitmem.repo.workspace import Workspace

MARKER = ".gitmem-site"
#: The marker while a build swaps its site in: the folder is gitmem's, its site no one
#: commit's (a build killed then leaves it so, and the next build replaces it whatever its
#: commit).
UNFINISHED = b"gitmem site being written\n"
_BUILT_FROM = re.compile(rb"gitmem site of ([0-9a-f]{40}|[0-9a-f]{64})\n")
ASSETS = ("site.css", "site.js")
#: The new site while it is written: a hidden folder beside out named `.<out's name>` and this
#: and mkdtemp's letters, or inside out named this and those letters where out's parent
#: will not do (gitmem.site.build._stage says when).
STAGE_PREFIX = ".gitmem-site-new-"


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
        MARKER: f"gitmem site of {memory.commit}\n".encode(),
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
    return dict(sorted(files.items()))


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


def write(
    files: dict[str, bytes],
    out: Path,
    waiting: Callable[[], None] | None = None,
    store: Store | None = None,
) -> str | None:
    """Replace the site in out (created when missing) with files, and return None; or keep
    a newer site that is there, and return the commit it was built from. A folder the
    system will not write (read-only, under a file, on /proc) is the user's to fix: the
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
    try:
        if out.exists() and not out.is_dir():
            raise UsageError(f"--out {out}: not a folder")
        out.mkdir(parents=True, exist_ok=True)
        with _locked(out, waiting):
            newer = _newer_site(files, out, store)
            if newer is None:
                _write(files, out)
            return newer
    except OSError as exc:
        where = f" ({exc.filename})" if exc.filename and str(exc.filename) != str(out) else ""
        raise UsageError(
            f"--out {out}: cannot write the site there{where}: {exc.strerror or exc}: "
            "choose a folder you can write to"
        ) from None


def built_from(marker: bytes) -> str | None:
    """The commit a site's marker names (None: it names none)."""
    found = _BUILT_FROM.fullmatch(marker)
    return found.group(1).decode() if found else None


def _newer_site(files: dict[str, bytes], out: Path, store: Store | None) -> str | None:
    """The commit the site in out was built from, when it descends from files' (write)."""
    ours = built_from(files.get(MARKER, b""))
    marker = out / MARKER
    if store is None or ours is None or marker.is_symlink() or not marker.is_file():
        return None
    with open(marker, "rb") as handle:
        theirs = built_from(handle.read(128))
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


def _write(files: dict[str, bytes], out: Path) -> None:
    """Write the new site whole into a hidden folder, then swap it into out page by page:
    each new file is renamed over its old one (rename(2) replaces a file in one step), the
    pages under entries/ and candidates/ first, then the style and the scripts, then the
    top-level pages that link to them; only then do the old site's files that the new one
    does not hold go, and the marker comes last.

    So at no moment is a page of the old site that the new one keeps missing: a reader or
    a web server pointed at out gets the old page or the new one, never a 404 (the old swap
    deleted the whole old site first, then renamed the new one in). While the swap lasts (one
    rename per page: about 2 s for 10,000 on a busy machine) a reader may get a new page
    beside an old one; a page of a removed entry stays until the swap is done.

    The marker is claimed before anything else is written and stays through the swap, so
    a build that fails or is interrupted (a full disk, a name the file system refuses, a
    Ctrl-C) never leaves a folder the next run refuses as someone else's; a failure while
    the new site is written leaves the old one as it was. While the swap lasts the marker
    names no commit (UNFINISHED): a swap cut short leaves a mix of two sites, or a part of
    one, which the next build replaces whatever its commit (write). out stays the same
    folder (a server started inside it serves the new site). The new site is staged beside
    out, not in it (_stage), so a build killed mid-way leaves no folder a web server
    pointed at out would serve; the next build removes what a killed one left, beside out
    and in it. The caller holds out locked: what is in it now is a finished site, or a
    build's leftovers."""
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
            "new folder (gitmem replaces only a site it wrote, marked by .gitmem-site)"
        )
    if not (out / MARKER).is_file():
        atomic_write(out / MARKER, UNFINISHED)
    _sweep_stages(out)
    stage = _stage(out)
    try:
        for path, data in files.items():
            target = stage / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        atomic_write(out / MARKER, UNFINISHED)
        made: set[str] = set()
        for path in sorted(files, key=_swap_order):  # str paths: 10,000 pages, no pathlib
            if path == MARKER:
                continue
            folder = path.rpartition("/")[0]
            if folder and folder not in made:
                _make_folder(out, out / folder)
                made.add(folder)
            place = os.path.join(out, path)
            with contextlib.suppress(FileNotFoundError):
                if stat.S_ISDIR(os.lstat(place).st_mode):
                    shutil.rmtree(place)  # a folder where the new site has a file
            os.replace(os.path.join(stage, path), place)
        _remove_all_but(out, set(files), stage)
        if MARKER in files:
            # last, once the old site's other files are gone: a build killed while it
            # removes them leaves a marker naming no commit, not a finished site
            os.replace(stage / MARKER, out / MARKER)
    finally:
        shutil.rmtree(stage, ignore_errors=True)


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
    folder of out that is there now is a dead build's."""
    real = out.resolve()
    beside = re.compile(rf"\.{re.escape(real.name)}{re.escape(STAGE_PREFIX)}[a-z0-9_]+")
    places = [(out, re.compile(rf"{re.escape(STAGE_PREFIX)}[a-z0-9_-]+"))]
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
    """folder, a real folder inside out: anything else in its place (a file, a link that
    would lead the pages elsewhere) is removed first."""
    if folder == out:
        return
    _make_folder(out, folder.parent)
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        folder.unlink()
    folder.mkdir(exist_ok=True)


def _remove_all_but(out: Path, keep: set[str], stage: Path) -> None:
    """Remove from out every file and folder the new site does not hold (a removed entry's
    page, a build's leftover staging folder) but stage, which the caller removes."""
    folders = {folder.as_posix() for path in keep for folder in Path(path).parents} - {"."}
    # compared absolute: mkdtemp gives an absolute path from Python 3.12 on, os.walk of a
    # relative out (the default) relative ones
    staged = os.path.abspath(stage)
    for parent, dirs, names in os.walk(out):
        where = Path(parent)
        prefix = where.relative_to(out).as_posix() + "/"
        prefix = "" if prefix == "./" else prefix
        for name in names:
            if prefix + name not in keep:
                os.unlink(os.path.join(parent, name))
        for name in list(dirs):
            child = where / name
            if os.path.abspath(child) == staged:
                dirs.remove(name)
            elif prefix + name not in folders:
                dirs.remove(name)
                if child.is_symlink():
                    child.unlink()
                else:
                    shutil.rmtree(child)
