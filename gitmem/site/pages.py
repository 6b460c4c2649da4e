"""The site's pages as HTML text: home, the entry list, one page per entry and candidate, and
the refused topics.

Every value an entry holds is escaped (`html.escape`, quotes included) or goes through
gitmem.site.prose; no page has an inline script or style, and each carries a
Content-Security-Policy that lets scripts and styles come only from the site's own files, so
even a rendering mistake could not run an entry's script. Links are relative, so the site
works from `file://`, from a sub-folder of GitHub Pages, and from any static host.

Accessibility: one `h1` a page, landmarks (header, nav, main, footer), a skip link, labelled
form controls, tables with header cells, a live region announcing how many entries a filter
or search shows, visible focus, and a layout that reflows to one column on a phone.
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from urllib.parse import quote

from gitmem.model.curation import state_note
from gitmem.model.entry import Entry
from gitmem.model.names import is_entry_id
from gitmem.model.problem import Problem
from gitmem.site import lineage as lineage_mod
from gitmem.site import prose
from gitmem.site.collect import Memory, SiteCandidate, SiteEntry

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "base-uri 'none'; form-action 'none'"
)
LATEST = 10
_FIELDS = (
    ("applies_when", "Applies when"),
    ("rationale", "Rationale"),
    ("correction", "Correction"),
    ("detection_signal", "Detection signal"),
)


def page_name(entry_id: str, taken: set[str]) -> str:
    """A file name for an entry's page: its id when that is an id gitmem could make (a slug
    of at most MAX_ID_LENGTH characters, the usual case), else a digest, so no id can name a
    path outside the site, nor a name longer than a file system takes (an entry committed
    without the hooks, its id a 300-character slug, made every build fail); a repeated id
    gets -2, -3…"""
    base = (
        entry_id
        if is_entry_id(entry_id)
        else "id-" + hashlib.sha256(entry_id.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    )
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}-{n}"
    taken.add(name)
    return name


@dataclass(frozen=True)
class Links:
    """Where things are: entry pages by id and by file, and the forge addresses when the web
    is known."""

    #: id -> path from the site root, of the file whose entry answers for the id where two
    #: files hold it (gitmem.model.names.answers_for_id, as recall takes it)
    entries: dict[str, str]
    candidates: dict[str, str]
    web: str | None
    commit: str
    files: dict[str, str]  # an entry file's repository path -> its page's path

    def commit_url(self, oid: str) -> str | None:
        return f"{self.web}/commit/{oid}" if self.web else None

    def file_url(self, path: str) -> str | None:
        """The address of a repository path, its bytes percent-encoded: a path is any bytes
        git keeps, a name that is not UTF-8 included (a lone surrogate here). None for what
        names no file in the repository (an empty, `.` or `..` part, a leading `/`): a
        browser resolves the dot parts of an address, so `files: [../../../owner/repo]`
        linked another repository on the forge under a path that read as a cited file."""
        if not self.web or any(part in ("", ".", "..") for part in path.split("/")):
            return None
        quoted = quote(path.encode("utf-8", "surrogateescape"), safe="/")
        return f"{self.web}/blob/{self.commit}/{quoted}"


def source_kind(source: str) -> str:
    kind = source.split(":", 1)[0]
    return kind if kind in ("human", "audit", "verdict", "import") else "other"


def _utc(seconds: int) -> str:
    """A commit's time as a date, or as its seconds where the system has no date for it (a
    commit written with a time past what gmtime takes, 2**62 s: git keeps one; the build
    failed with an unexpected error)."""
    try:
        return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(seconds))
    except (OverflowError, OSError, ValueError):
        return f"at {seconds} s since 1970 UTC"


def layout(title: str, body: str, memory: Memory, *, depth: int, current: str = "") -> str:
    """A whole page around body; depth is how many folders below the site root it sits."""
    up = "../" * depth
    nav = []
    for href, label in (
        ("index.html", "Home"),
        ("entries.html", "Entries"),
        ("refused.html", "Refused topics"),
    ):
        mark = ' aria-current="page"' if href == current else ""
        nav.append(f'<li><a href="{up}{href}"{mark}>{label}</a></li>')
    where = escape(memory.label)
    commit = _commit_link(memory.commit, memory.web)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="referrer" content="no-referrer">\n'
        f"<title>{escape(title)} · gitmem</title>\n"
        f'<link rel="stylesheet" href="{up}site.css">\n'
        f'<script src="{up}site.js" defer></script>\n'
        "</head>\n<body>\n"
        '<a class="skip" href="#main">Skip to the content</a>\n'
        '<header class="top"><p class="brand">gitmem memory</p>'
        f'<nav aria-label="Site"><ul>{"".join(nav)}</ul></nav></header>\n'
        f'<main id="main" tabindex="-1">\n{body}</main>\n'
        f"<footer><p>The memory at {where}, commit {commit}, committed "
        f"{_utc(memory.commit_time)}. Generated by <code>gitmem site</code>.</p></footer>\n"
        "</body>\n</html>\n"
    )


def _filtered(up: str, key: str, value: str) -> str:
    """The entry list filtered by one value, as an attribute: the value percent-encoded, as
    the list's script reads it back (URLSearchParams), so a value holding `+`, `&`, `#` or
    `%` (committed past the hooks) filters by itself, not by a space, a cut or nothing."""
    return escape(f"{up}entries.html?{key}={quote(value, safe='')}")


def _commit_link(oid: str, web: str | None) -> str:
    short = f"<code>{escape(oid[:12])}</code>"
    return f'<a href="{escape(web)}/commit/{escape(oid)}">{short}</a>' if web else short


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], caption: str, css: str = "") -> str:
    """A table of already-escaped cells."""
    cls = f' class="{css}"' if css else ""
    out = [f'<div class="scroll"><table{cls}><caption>{escape(caption)}</caption><thead><tr>']
    out.extend(f'<th scope="col">{h}</th>' for h in head)
    out.append("</tr></thead><tbody>")
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>")
    out.append("</tbody></table></div>\n")
    return "".join(out)


def _own_link(item: SiteEntry, links: Links) -> str:
    """An entry's title as a link to its own page (not to the page of an id another file may
    hold too)."""
    title = escape(item.entry.title or item.entry.id)
    return f'<a href="{escape(links.files[item.path])}">{title}</a>'


def _entry_link(entry_id: str, title: str, links: Links, up: str) -> str:
    target = links.entries.get(entry_id)
    if target is None:
        return escape(title or entry_id)
    return f'<a href="{up}{escape(target)}">{escape(title or entry_id)}</a>'


def _problems(problems: Sequence[Problem]) -> str:
    if not problems:
        return '<span class="ok">passes every rule</span>'
    items = "".join(
        f"<li><code>{escape(p.rule)}</code> {'(warning) ' if p.warning else ''}"
        f"{escape(p.message)}</li>"
        for p in problems
    )
    errors = sum(1 for p in problems if not p.warning)
    label = f"{errors} problem{'s' if errors != 1 else ''}" if errors else "passes, with warnings"
    css = "bad" if errors else "ok"
    return f'<span class="{css}">{label}</span><ul class="problems">{items}</ul>'


# ---------------------------------------------------------------------------------------------
# home


def home(memory: Memory, links: Links) -> str:
    entries = memory.entries
    by_type = Counter(e.entry.type for e in entries)
    by_status = Counter(e.entry.status for e in entries)
    by_source = Counter(source_kind(e.entry.source) for e in entries)
    stale = sum(1 for e in entries if e.stale)

    def counts(counter: Counter[str], key: str, caption: str) -> str:
        rows = [
            [f'<a href="{_filtered("", key, name)}">{escape(name)}</a>', str(count)]
            for name, count in sorted(counter.items())
        ]
        return _table(["", "entries"], rows, caption, "counts")

    pending = (
        f"{len(memory.candidates)} pending candidate{'s' if len(memory.candidates) != 1 else ''}, "
        if memory.candidates_read
        else ""
    )
    body = [
        "<h1>The project's memory</h1>\n",
        f'<p class="lead">{len(entries)} entr{"y" if len(entries) == 1 else "ies"}, {pending}'
        f"{len(memory.refused)} refused topic{'s' if len(memory.refused) != 1 else ''}; "
        f'<a href="entries.html?stale=1">{stale} may be stale</a>.</p>\n',
        '<section aria-labelledby="counts"><h2 id="counts">Counts</h2><div class="grid">',
        counts(by_type, "type", "By type"),
        counts(by_status, "status", "By status"),
        counts(by_source, "source", "By source"),
        "</div></section>\n",
    ]
    latest = sorted(
        (e for e in entries if e.entry.meta.get("admitted")),
        key=lambda e: (str(e.entry.meta.get("admitted")), e.entry.id),
        reverse=True,
    )[:LATEST]
    rows = [
        [
            escape(str(e.entry.meta.get("admitted"))),
            _own_link(e, links),
            escape(e.entry.type),
            escape(str(e.entry.meta.get("admitted_by", ""))),
        ]
        for e in latest
    ]
    body.append('<section aria-labelledby="latest"><h2 id="latest">Latest admissions</h2>')
    body.append(
        _table(["admitted", "entry", "type", "by"], rows, "The latest admitted entries")
        if rows
        else "<p>None yet.</p>\n"
    )
    body.append("</section>\n")
    body.append('<section aria-labelledby="pending"><h2 id="pending">Pending candidates</h2>')
    if memory.candidates:
        crow = []
        for c in memory.candidates:
            title = c.entry.title if c.entry else c.id
            target = links.candidates.get(c.id)
            name = f'<a href="{escape(target)}">{escape(title)}</a>' if target else escape(title)
            crow.append([name, f"<code>{escape(c.ref)}</code>", _problems(c.problems)])
        body.append(_table(["candidate", "branch", "checks"], crow, "Candidates awaiting review"))
    elif not memory.candidates_read:
        # built with --no-candidates: whether any waits, this site cannot say
        body.append(
            "<p>The candidate branches are left out of this site "
            "(<code>gitmem site --no-candidates</code>).</p>\n"
        )
    else:
        body.append("<p>No candidate is waiting for review.</p>\n")
    body.append("</section>\n")
    if memory.withheld:
        some = f"{memory.withheld} of the entries and candidates " + (
            "is" if memory.withheld == 1 else "are"
        )
        body.append(
            '<section aria-labelledby="withheld"><h2 id="withheld">Withheld</h2>'
            f"<p>{some} left out of this site: each holds a secret that no reviewer allowed. "
            "Run <code>gitmem check</code> and <code>gitmem candidates</code> to see which, "
            "and remove it.</p></section>\n"
        )
    if memory.unreadable:
        items = "".join(f"<li><code>{escape(p)}</code></li>" for p in memory.unreadable)
        body.append(
            '<section aria-labelledby="unreadable"><h2 id="unreadable">Files that do not parse'
            f"</h2><p>Run <code>gitmem check</code> on them.</p><ul>{items}</ul></section>\n"
        )
    return layout("Home", "".join(body), memory, depth=0, current="index.html")


# ---------------------------------------------------------------------------------------------
# the list


def _freshness_badge(item: SiteEntry) -> list[str]:
    """The badge an admitted entry's freshness gives it in the list and on its page: none
    when its cited files are unchanged (or none can be told of)."""
    if item.stale:
        return ['<span class="badge stale">may be stale</span>']
    if item.shallow:
        return ['<span class="badge stale">freshness unknown</span>']
    return []


def entry_list(memory: Memory, links: Links, numbers: dict[str, int]) -> str:
    """Every entry, with the filter and search form the script drives (without the script, the
    whole list shows); numbers gives each admitted entry's file its number in the search
    index."""
    entries = memory.entries
    types = sorted({e.entry.type for e in entries})
    tags = sorted({t for e in entries for t in e.entry.tags})
    sources = sorted({source_kind(e.entry.source) for e in entries})
    statuses = sorted({e.entry.status for e in entries})

    def select(name: str, label: str, values: Sequence[str]) -> str:
        options = "".join(f'<option value="{escape(v)}">{escape(v)}</option>' for v in values)
        return (
            f'<div class="field"><label for="f-{name}">{label}</label>'
            f'<select id="f-{name}" name="{name}"><option value="">any</option>{options}'
            "</select></div>"
        )

    form = (
        '<form id="filters" class="filters" role="search" aria-label="Filter and search">'
        '<div class="field wide"><label for="f-q">Search</label>'
        '<input id="f-q" name="q" type="search" autocomplete="off" '
        'aria-describedby="search-help"></div>'
        + select("type", "Type", types)
        + select("tag", "Tag", tags)
        + select("source", "Source", sources)
        + select("status", "Status", statuses)
        + '<div class="field check"><input id="f-stale" name="stale" type="checkbox" value="1">'
        '<label for="f-stale">may be stale</label></div>'
        "</form>\n"
        '<p id="search-help" class="help">Search ranks admitted entries the way '
        "<code>gitmem recall</code> does (keywords); press <kbd>/</kbd> to search.</p>\n"
        '<p id="shown" class="shown" role="status" aria-live="polite">'
        f"{len(entries)} entries</p>\n"
        "<noscript><p>Filtering and search need JavaScript; every entry is listed below."
        "</p></noscript>\n"
    )
    items = []
    for e in entries:
        entry = e.entry
        number = numbers.get(e.path)
        attrs = {
            "data-type": entry.type,
            "data-status": entry.status,
            "data-source": source_kind(entry.source),
            "data-stale": "1" if e.stale else "0",
            "data-id": entry.id,
        }
        if number is not None:
            attrs["data-n"] = str(number)
        # the tags apart as the list's script reads them: a tag may hold a space (committed
        # past the hooks: `x hooks` listed its entry under the filter `hooks`), never a
        # U+001F once the page is written (shown as its escape), so that, as a reference
        # the page's bytes hold as ASCII, parts them
        attr_text = " ".join(f'{k}="{escape(v)}"' for k, v in attrs.items())
        attr_text += ' data-tags="' + "&#31;".join(escape(t) for t in entry.tags) + '"'
        status = lineage_mod.status_class(entry.status)
        marks = [f'<span class="badge {status}">{escape(entry.status)}</span>']
        marks += _freshness_badge(e)
        tags_text = ", ".join(escape(t) for t in entry.tags)
        items.append(
            f"<li {attr_text}>"
            f'<p class="title">{_own_link(e, links)} '
            f'<span class="score" hidden></span></p>'
            f'<p class="meta"><span class="type">{escape(entry.type)}</span> '
            f"{' '.join(marks)} "
            f'<span class="source">{escape(entry.source)}</span>'
            + (f' <span class="tags">tags: {tags_text}</span>' if tags_text else "")
            + "</p>"
            f'<p class="applies">{escape(entry.applies_when)}</p></li>'
        )
    body = (
        "<h1>Entries</h1>\n"
        + form
        + '<ol id="entries" class="entries">\n'
        + "\n".join(items)
        + "\n</ol>\n"
        + '<script src="search.js" defer></script>\n'
    )
    return layout("Entries", body, memory, depth=0, current="entries.html")


# ---------------------------------------------------------------------------------------------
# one entry


def entry_page(
    item: SiteEntry | SiteCandidate,
    memory: Memory,
    links: Links,
    graph: lineage_mod.Lineage | None,
) -> str:
    """An entry (or a candidate) as it reads: its fields, its sections rendered, its admission,
    its lineage and its cited files."""
    if isinstance(item, SiteCandidate):
        assert item.entry is not None
        entry, path = item.entry, f"{memory.dir}/candidates/{item.id}.md"
    else:
        entry, path = item.entry, item.path
    # a candidate's page says what the site knows of it, never the status its text claims
    # (anyone's text: `status: admitted` on a candidate branch read as an admitted entry)
    candidate = isinstance(item, SiteCandidate)
    title = ("Candidate: " if candidate else "") + (entry.title or entry.id)
    body = [f"<h1>{escape(title)}</h1>\n"]
    status = (
        '<span class="badge candidate">candidate, not admitted</span>'
        if candidate
        else f'<span class="badge {lineage_mod.status_class(entry.status)}">'
        f"{escape(entry.status)}</span>"
    )
    marks = [f'<span class="badge type">{escape(entry.type)}</span>', status]
    if isinstance(item, SiteEntry):
        marks += _freshness_badge(item)
    body.append(f'<p class="marks">{" ".join(marks)}</p>\n')
    # a tombstone's reason, or when it was corrected: what admission and curation write,
    # which a candidate that claims it has not been through
    if not candidate and (note := state_note(entry)):
        body.append(f'<p class="state">{escape(note)}</p>\n')
    if isinstance(item, SiteCandidate):
        body.append(
            f'<section aria-labelledby="checks"><h2 id="checks">Checks</h2>'
            f'<div class="checks">Branch <code>{escape(item.ref)}</code> at '
            f"<code>{escape(item.tip[:12])}</code>: {_problems(item.problems)}</div></section>\n"
        )
    body.append(_fields(entry, item, memory, links))
    file_url = links.file_url if links.web else None
    for name, text in (
        ("Context", entry.context),
        ("Content", entry.content),
        ("Evidence", entry.evidence),
    ):
        html = prose.render(text, entry_path=path, file_url=file_url) if text else "<p>—</p>"
        body.append(f'<section class="prose"><h2>{name}</h2>\n{html}</section>\n')
    if graph is not None and not graph.empty:
        body.append(_lineage(graph, entry.id, links))
    if entry.files:
        body.append(_cited(entry, item, links))
    return layout(title, "".join(body), memory, depth=1)


def _fields(entry: Entry, item: SiteEntry | SiteCandidate, memory: Memory, links: Links) -> str:
    rows: list[tuple[str, str]] = [("Id", f"<code>{escape(entry.id)}</code>")]
    for key, label in _FIELDS:
        value = entry.meta.get(key)
        if value:
            rows.append((label, escape(str(value))))
    rows.append(("Source", escape(entry.source)))
    rows.append(("Created", escape(entry.created)))
    if entry.tags:
        tags = " ".join(
            f'<a class="tag" href="{_filtered("../", "tag", t)}">{escape(t)}</a>'
            for t in entry.tags
        )
        rows.append(("Tags", tags))
    if isinstance(item, SiteEntry):
        by = escape(str(entry.meta.get("admitted_by", "")))
        when = escape(str(entry.meta.get("admitted", "")))
        admitted = f"by {by} on {when}" if by else "—"
        if item.admitted_in:
            admitted += f", in commit {_commit_link(item.admitted_in, links.web)}"
        rows.append(("Admitted", admitted))
    if entry.supersedes:
        rows.append(
            ("Supersedes", ", ".join(_entry_link(s, s, links, "../") for s in entry.supersedes))
        )
    newer = str(entry.meta.get("superseded_by") or "")
    if newer:
        rows.append(("Superseded by", _entry_link(newer, newer, links, "../")))
    cells = "".join(f"<dt>{label}</dt><dd>{value}</dd>" for label, value in rows)
    return (
        '<section aria-labelledby="fields"><h2 id="fields">Fields</h2>'
        f'<dl class="fields">{cells}</dl></section>\n'
    )


def _lineage(graph: lineage_mod.Lineage, current: str, links: Links) -> str:
    def href(entry_id: str) -> str | None:
        target = links.entries.get(entry_id)
        return "../" + target if target else None

    drawing = lineage_mod.svg(graph, href, current)
    items = []
    for node in graph.nodes:
        where = (
            "this entry" if node.id == current else ("older" if node.generation < 0 else "newer")
        )
        name = (
            escape(node.title)
            if node.id == current
            else _entry_link(node.id, node.title, links, "../")
        )
        items.append(
            f'<li>{name} <span class="status">({escape(node.status)}, {where})</span></li>'
        )
    more = (
        f"<p>The lineage goes on beyond what is drawn ({lineage_mod.GENERATIONS} generations "
        f"either way, {lineage_mod.MAX_NODES} entries at most): follow its oldest or newest "
        "entry here.</p>"
        if graph.cut
        else ""
    )
    return (
        '<section aria-labelledby="lineage"><h2 id="lineage">Lineage</h2>'
        f'<div class="scroll">{drawing}</div><ol class="lineage-list">{"".join(items)}</ol>'
        f"{more}</section>\n"
    )


def _cited(entry: Entry, item: SiteEntry | SiteCandidate, links: Links) -> str:
    rows = []
    for path in entry.files:
        url = links.file_url(path)
        name = (
            f'<a href="{escape(url)}"><code>{escape(path)}</code></a>'
            if url
            else f"<code>{escape(path)}</code>"
        )
        if isinstance(item, SiteEntry):
            if path in item.missing:
                state = '<span class="badge stale">missing at this commit</span>'
            else:
                state = "—"
        else:
            state = "—"
        rows.append([name, state])
    note = ""
    if isinstance(item, SiteEntry) and item.changed:
        plural = "s" if item.changed != 1 else ""
        note = (
            f'<p><span class="badge stale">changed since admission</span> {item.changed} '
            f"commit{plural} on the main line changed its cited files since it was admitted.</p>"
        )
    elif isinstance(item, SiteEntry) and item.shallow and len(item.missing) < len(entry.files):
        note = (
            '<p><span class="badge stale">freshness unknown</span> this clone\'s history is '
            "shallow, cut before the entry's admission; run git fetch --unshallow to judge.</p>"
        )
    elif isinstance(item, SiteEntry) and item.admitted_in and not item.missing:
        note = "<p>Its cited files have not changed since it was admitted.</p>"
    return (
        '<section aria-labelledby="cited"><h2 id="cited">Cited files</h2>'
        + note
        + _table(["file", "state"], rows, "Files the entry is about")
        + "</section>\n"
    )


# ---------------------------------------------------------------------------------------------
# refused topics


def refused(memory: Memory) -> str:
    rows = [
        [
            f"<code>{escape(r.topic)}</code>",
            escape(r.reason),
            f"<code>{escape(r.id)}</code>",
            escape(r.date),
            escape(r.by),
        ]
        for r in memory.refused
    ]
    body = (
        "<h1>Refused topics</h1>\n<p>A refused topic is never proposed again; "
        "<code>gitmem check</code> warns of near matches.</p>\n"
        + (
            _table(["topic", "reason", "candidate", "date", "by"], rows, "Refused topics and why")
            if rows
            else "<p>No topic has been refused.</p>\n"
        )
    )
    return layout("Refused topics", body, memory, depth=0, current="refused.html")
