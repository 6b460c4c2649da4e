"""An entry's lineage both ways, as a small graph: what it superseded, and what superseded it.

The graph holds the entry, its predecessors (following `supersedes`, transitively) and its
successors (following `superseded_by`, and any entry whose `supersedes` names it). Each entry
sits in a column by generation (older to the left), rows sorted by id, so the drawing is a
pure function of the entries. It is drawn as inline SVG (no script, no external file) whose
nodes are links; the page also lists the same entries as text for screen readers and narrow
screens.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from html import escape

from gitmem.model.entry import Entry

_COLUMN = 230
_ROW = 64
_BOX_W = 200
_BOX_H = 44
_TITLE_CHARS = 26
#: How many generations either way a page draws: every entry of a chain of supersessions
#: draws its lineage, so drawing the whole chain made the site grow with the chain's square.
GENERATIONS = 8
#: How many entries, and lines between them beyond the one that reached each entry, a page
#: draws at most: a lineage of valid entries is a tree (one successor each) far smaller, but
#: entries committed past the hooks, each superseding every one before it, drew every
#: earlier entry and every line among them on each page (300 such entries, a 2 MB
#: repository: a 530 MB site).
MAX_NODES = 48
MAX_EDGES = 96


#: The statuses the style sheet draws: an entry's status is a class only when it is one of
#: them, so a status forged past the hooks (`superseded skip`) cannot give its badge or box
#: a class of the page's own (`skip` moves it off the page, `current` draws another entry's
#: box as the one the page is about).
STATUS_CLASSES = frozenset({"candidate", "admitted", "superseded", "retired", "missing"})


def status_class(status: str) -> str:
    """The class for an entry's status: the status itself when the site knows it."""
    return status if status in STATUS_CLASSES else "unknown"


@dataclass(frozen=True)
class Node:
    id: str
    generation: int  # 0 for the entry itself, negative for predecessors
    title: str
    status: str


@dataclass(frozen=True)
class Lineage:
    nodes: tuple[Node, ...]  # sorted by (generation, id)
    edges: tuple[tuple[str, str], ...]  # (older, newer), sorted
    cut: bool = False  # the lineage goes on beyond GENERATIONS either way

    @property
    def empty(self) -> bool:
        return len(self.nodes) <= 1


def successors_of(entries: Mapping[str, Entry]) -> dict[str, list[str]]:
    """id -> the ids of the entries that supersede it (either side of the lineage may say so)."""
    out: dict[str, set[str]] = {}
    for entry in entries.values():
        for old in entry.supersedes:
            out.setdefault(old, set()).add(entry.id)
        newer = str(entry.meta.get("superseded_by") or "")
        if newer:
            out.setdefault(entry.id, set()).add(newer)
    return {k: sorted(v) for k, v in out.items()}


def lineage(
    entry_id: str, entries: Mapping[str, Entry], successors: dict[str, list[str]]
) -> Lineage:
    """The lineage through entry_id, among the entries known (ids they name but the memory
    lacks are shown too, as missing), as far as GENERATIONS either way and MAX_NODES
    entries."""
    generation = {entry_id: 0}
    edges: set[tuple[str, str]] = set()
    extra = 0  # edges drawn beyond those that reached an entry
    cut = False

    def reach(node: str, gen: int, edge: tuple[str, str]) -> bool:
        """Draw edge, and node at gen when it is new; False when the drawing is full."""
        nonlocal cut, extra
        if node not in generation:
            if abs(gen) > GENERATIONS or len(generation) >= MAX_NODES:
                cut = True
                return False
            generation[node] = gen
            edges.add(edge)
            return True
        if edge not in edges:
            if extra >= MAX_EDGES:
                cut = True
            else:
                extra += 1
                edges.add(edge)
        return False

    frontier = [entry_id]
    while frontier:  # predecessors, nearest first
        current = frontier.pop(0)
        known = entries.get(current)
        for old in known.supersedes if known else ():
            if reach(old, generation[current] - 1, (old, current)):
                frontier.append(old)
    frontier = [entry_id]
    while frontier:  # successors, nearest first
        current = frontier.pop(0)
        for newer in successors.get(current, ()):
            if reach(newer, generation[current] + 1, (current, newer)):
                frontier.append(newer)
    nodes = []
    for node_id, gen in generation.items():
        known = entries.get(node_id)
        title = known.title if known else "(not in the memory)"
        status = known.status if known else "missing"
        nodes.append(Node(node_id, gen, title, status))
    nodes.sort(key=lambda n: (n.generation, n.id))
    return Lineage(tuple(nodes), tuple(sorted(edges)), cut)


def svg(graph: Lineage, href: Callable[[str], str | None], current: str) -> str:
    """The graph as inline SVG; href gives an id's page (ids without a page are not links)."""
    columns: dict[int, list[Node]] = {}
    for node in graph.nodes:
        columns.setdefault(node.generation, []).append(node)
    first = min(columns)
    place: dict[str, tuple[int, int]] = {}
    for gen, nodes in columns.items():
        for row, node in enumerate(nodes):
            place[node.id] = ((gen - first) * _COLUMN + 8, row * _ROW + 8)
    width = (max(columns) - first) * _COLUMN + _BOX_W + 16
    height = max(len(nodes) for nodes in columns.values()) * _ROW + 8
    parts = [
        f'<svg class="lineage" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" role="group" aria-label="Lineage graph">'
    ]
    for old, new in graph.edges:
        x1, y1 = place[old]
        x2, y2 = place[new]
        parts.append(
            f'<line x1="{x1 + _BOX_W}" y1="{y1 + _BOX_H // 2}" x2="{x2}" '
            f'y2="{y2 + _BOX_H // 2}" class="edge"/>'
        )
    for node in graph.nodes:
        x, y = place[node.id]
        title = node.title if len(node.title) <= _TITLE_CHARS else node.title[:_TITLE_CHARS] + "…"
        css = "node current" if node.id == current else f"node {status_class(node.status)}"
        box = (
            f'<rect x="{x}" y="{y}" width="{_BOX_W}" height="{_BOX_H}" rx="6" '
            f'class="{escape(css)}"/>'
            f'<text x="{x + 8}" y="{y + 18}">{escape(title)}</text>'
            f'<text x="{x + 8}" y="{y + 36}" class="status">{escape(node.status)}</text>'
        )
        target = href(node.id)
        if target and node.id != current:
            parts.append(f'<a href="{escape(target)}"><title>{escape(node.title)}</title>{box}</a>')
        else:
            parts.append(f"<g><title>{escape(node.title)}</title>{box}</g>")
    parts.append("</svg>")
    return "".join(parts)
