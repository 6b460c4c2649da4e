"""`gitmem recall` and `gitmem mcp`: the commands agents use (loaded only when called)."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

import click

from gitmem.cli.options import format_option
from gitmem.errors import GitmemError
from gitmem.recall.engine import DEFAULT_MIN_SCORE, STEP_TYPES

if TYPE_CHECKING:
    from gitmem.recall.service import Recalled
    from gitmem.repo.store import Store


def _precedents(hits: list[Recalled], store: Store, tree: str | None) -> str:
    from gitmem.agents.precedents import from_recalled, render

    return render(
        from_recalled(store, tree, hits), empty="No precedent in the project memory for this step."
    )


@click.command()
@click.argument("query", nargs=-1, required=True)
@click.option("-k", "k", default=5, show_default=True, help="At most this many entries.")
@click.option("--type", "types", multiple=True, help="Only this type (repeatable).")
@click.option(
    "--step",
    type=click.Choice(sorted(STEP_TYPES)),
    help="Recall the types a work step needs (spec, plan, batch, correction, audit).",
)
@click.option("--ref", metavar="REF", help="Recall from this commit (e.g. origin/main).")
@click.option(
    "--min-score",
    type=click.FloatRange(0.0, 1.0),
    help=f"Relevance threshold, 0..1 (default {DEFAULT_MIN_SCORE} on keywords alone; lower with "
    "the semantic extra, whose fused scores run lower).",
)
@format_option("text", "json", "precedents")
def recall(
    query: tuple[str, ...],
    k: int,
    types: tuple[str, ...],
    step: str | None,
    ref: str | None,
    min_score: float | None,
    fmt: str,
) -> int:
    """Admitted entries that apply to QUERY, best first, with a score in 0..1.

    A query with no genuine match returns nothing: an honest "no precedent" beats a wrong
    one. Candidates and superseded entries never come back.
    """
    from gitmem.recall.service import recall as do_recall
    from gitmem.repo.workspace import open_workspace

    wanted = set(types) | set(STEP_TYPES.get(step, ()) if step else ())
    text = " ".join(query)
    try:
        ws = open_workspace()
        hits = do_recall(ws, text, k=k, types=wanted or None, ref=ref, min_score=min_score)
        if fmt == "precedents":
            commit = ws.store.resolve(ref) if ref else ws.main_tip()
            block = _precedents(hits, ws.store, ws.store.tree_of(commit) if commit else None)
    except (GitmemError, OSError) as exc:
        if fmt != "precedents":
            raise
        # a precedents recall never fails the step that asked for it
        message = exc.message if isinstance(exc, GitmemError) else str(exc)
        click.echo(f"gitmem: recall could not run: {message}", err=True)
        return 0
    if fmt == "precedents":
        click.echo(block)
    elif fmt == "json":
        click.echo(
            json.dumps(
                [{**asdict(h), "missing_files": list(h.missing_files)} for h in hits], indent=2
            )
        )
    elif not hits:
        click.echo("no precedent: nothing in the memory genuinely matches this query")
    else:
        for hit in hits:
            click.echo(f"{hit.score:.2f}  {hit.type:<15} {hit.id}")
            click.echo(f"      {hit.title}")
            click.echo(f"      applies when: {hit.applies_when}")
            click.echo(f"      {hit.path}" + (f"  [{hit.freshness}]" if hit.freshness else ""))
    return 0


@click.command()
@click.option(
    "--path",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    help="The project folder (default: the current one).",
)
def mcp(path: Path | None) -> int:
    """Serve the project memory to AI agents over the Model Context Protocol (stdio):
    memory_recall, memory_push, memory_candidates, memory_show."""
    from gitmem.agents.mcp_server import serve

    serve(path)
    return 0
