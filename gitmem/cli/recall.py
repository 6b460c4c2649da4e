"""`gitmem recall` and `gitmem mcp`: the commands agents use (loaded only when called)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click

from gitmem.cli.options import command_workspace, emit_warnings, format_option
from gitmem.errors import GitmemError
from gitmem.model.terminal import visible
from gitmem.recall.engine import STEP_TYPES, Hit, Why

if TYPE_CHECKING:
    from gitmem.agents.memory import Memory
    from gitmem.recall.service import RecallAnswer, Recalled
    from gitmem.repo.workspace import Workspace


_NO_PRECEDENT = "No precedent in the project memory for this step."

H = TypeVar("H", bound=Hit)


def _precedents(hits: list[Recalled], ws: Workspace, tree: str | None) -> str:
    """The block an agent pastes into a prompt: an entry holding a secret is withheld from
    it, as from the hooks' and the MCP server's (gitmem.agents.precedents.withheld)."""
    from gitmem.agents.precedents import from_recalled, held_in, render, withheld

    held = held_in(ws)
    shown = [withheld(p, held) for p in from_recalled(ws.store, tree, hits)]
    return render([p for p in shown if p is not None], empty=_NO_PRECEDENT)


def _withheld(
    answer: RecallAnswer, warm: Memory | None, workspace: Callable[[], Workspace]
) -> RecallAnswer:
    """The answer as the text and JSON outputs may print it: a hit whose text holds a secret
    main's allowed.md does not list (an entry committed where no server hook ran) shown with
    no title, situation, files or explanation, and left out when even its id or path holds
    one, as the precedents block, the hooks and the MCP server withhold it. Agents are told
    to run `gitmem recall`, whose text reached their context whole.

    A warm answer (warm: the memory it was remembered from) whose hits the agents' catalog
    has lines for, none flagged, is printed as it is: the catalog's flags are the scanner's
    verdicts, so nothing is scanned at recall time. Otherwise the scanner reads each hit, and
    workspace() (the repository, for main's allowed.md) is opened only for one it flags."""
    from dataclasses import replace

    from gitmem.agents.memory import remembered_precedents

    if not answer.entries and answer.rejected is None:
        return answer
    if (
        warm is not None
        and answer.rejected is None
        and remembered_precedents(warm, answer.entries) is not None
    ):
        return answer
    from functools import cache

    from gitmem.agents.precedents import WITHHELD, WITHHELD_TITLE
    from gitmem.gate.secrets import may_hold_secret

    opened = cache(workspace)

    def held(hit: Hit, *shown: str) -> bool:
        text = "\n".join(shown)
        if not may_hold_secret(text):
            return False  # the scanner first: a warm recall imports no libgit2 for its hits
        from gitmem.lifecycle.read import holds_secret

        return holds_secret(opened(), hit.path, text)

    def judged(hit: H) -> H | None:
        terms = [m.term for m in hit.why.terms] if hit.why is not None else []
        missing = getattr(hit, "missing_files", ())
        if not held(hit, hit.id, hit.type, hit.path, hit.title, hit.applies_when, *hit.files,
                    *missing, *terms):  # fmt: skip
            return hit
        if held(hit, hit.id, hit.type, hit.path):
            return None  # it cannot be named
        from gitmem.recall.service import Recalled

        hidden = replace(hit, title=WITHHELD_TITLE, applies_when=WITHHELD, files=(), why=None)
        return replace(hidden, missing_files=()) if isinstance(hidden, Recalled) else hidden

    entries = [e for e in map(judged, answer.entries) if e is not None]
    rejected = judged(answer.rejected) if answer.rejected is not None else None
    return replace(answer, entries=entries, rejected=rejected)


def _a_number(param: click.Parameter, value: float | None) -> float | None:
    """FloatRange lets NaN through (no comparison with it fails): a NaN threshold would
    quietly turn every hit away."""
    if value is not None and value != value:
        raise click.BadParameter("not a number: give a score from 0 to 1", param=param)
    return value


@click.command()
@click.argument("query", nargs=-1, required=True)
@click.option(
    "-k", "k", default=5, show_default=True, type=click.IntRange(min=1),
    help="At most this many entries.",
)  # fmt: skip
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
    callback=lambda _ctx, param, value: _a_number(param, value),
    help="Every entry scoring at least this, instead of the gate's judgement (0: the ranking).",
)
@click.option(
    "--explain",
    is_flag=True,
    help="Say why: each hit's matched terms and fields, similarity and gate; for an empty "
    "answer, the best rejected candidate.",
)
@format_option("text", "json", "precedents")
def recall(
    query: tuple[str, ...],
    k: int,
    types: tuple[str, ...],
    step: str | None,
    ref: str | None,
    min_score: float | None,
    explain: bool,
    fmt: str,
) -> int:
    """Admitted entries that apply to QUERY, best first, with a score in 0..1.

    A query with no genuine match returns nothing: an honest "no precedent" beats a wrong
    one. Candidates and superseded entries never come back.
    """
    from gitmem.recall.service import recall_answer, require_query

    wanted = set(types) | set(STEP_TYPES.get(step, ()) if step else ())
    text = " ".join(query)
    if fmt != "precedents":  # a precedents recall never fails the step that asked for it
        require_query(text)
    try:
        # the branch tip's memory, warm: answered from the cache without opening the repository
        memory = _memory() if ref is None else None
        _known_types(memory, types)
        warm = (
            _remembered(memory, text, k, wanted, min_score, fmt == "precedents")
            if memory is not None and not memory.opened
            else None
        )
        if warm is not None:
            answer, block = warm
            # remembered with the rest of what the settings decided (memory.known)
            emit_warnings(memory.known.warnings if memory is not None else ())
        else:
            # the repository the record was just found in, else the command's
            ws = memory.workspace() if memory is not None else command_workspace()
            # the memory recalled may be the default folder's, not the project's: as list says
            emit_warnings(ws.settings.warnings)
            answer = recall_answer(
                ws,
                text,
                k=k,
                types=wanted or None,
                ref=ref,
                min_score=min_score,
                progress=_progress if sys.stderr.isatty() else None,
            )
            if fmt == "precedents":
                commit = ws.store.resolve(ref) if ref is not None else ws.main_tip()
                tree = ws.store.tree_of(commit) if commit else None
                block = _precedents(answer.entries, ws, tree)
        if fmt != "precedents":

            def workspace() -> Workspace:
                return memory.workspace() if memory is not None else command_workspace()

            answer = _withheld(answer, memory if warm is not None else None, workspace)
        hits = answer.entries
        for warning in answer.warnings:  # on stderr, as `gitmem list` names such a file
            click.echo(visible(f"gitmem: {warning}"), err=True)
    except (GitmemError, OSError) as exc:
        if fmt != "precedents":
            raise
        # a precedents recall never fails the step that asked for it
        message = exc.message if isinstance(exc, GitmemError) else str(exc)
        click.echo(f"gitmem: recall could not run: {message}", err=True)
        return 0
    if fmt == "precedents":
        click.echo(visible(block))
    elif fmt == "json":
        entries = [{**asdict(h), "missing_files": list(h.missing_files)} for h in hits]
        if explain:
            rejected = asdict(answer.rejected) if answer.rejected is not None else None
            click.echo(json.dumps({"entries": entries, "rejected": rejected}, indent=2))
        else:
            click.echo(json.dumps(entries, indent=2))
    elif not hits:
        click.echo("no precedent: nothing in the memory genuinely matches this query")
        if explain and answer.rejected is not None:
            best = answer.rejected
            click.echo(visible(f"closest, rejected: {best.score:.2f}  {best.id}  {best.title}"))
            click.echo(_why(best.why))
    else:
        for hit in hits:
            click.echo(visible(f"{hit.score:.2f}  {hit.type:<15} {hit.id}"))
            click.echo(visible(f"      {hit.title}"))
            click.echo(visible(f"      applies when: {hit.applies_when}"))
            note = f"  [{hit.freshness}]" if hit.freshness else ""
            click.echo(visible(f"      {hit.path}{note}"))
            if explain:
                click.echo(_why(hit.why))
    return 0


def _known_types(memory: Memory | None, types: tuple[str, ...]) -> None:
    """Refuse a type the project does not know, as memory_recall does: a typo (`decisions`)
    matched nothing and answered "no precedent", which reads as the memory holding none.
    Only a type beyond the built-in ones opens the repository for its settings, so a recall
    of those stays warm."""
    from gitmem.settings.load import DEFAULT_TYPES

    if set(types) <= set(DEFAULT_TYPES):
        return
    (memory.workspace() if memory is not None else command_workspace()).settings.check_types(types)


def _memory() -> Memory | None:
    """Where the memory of the work tree here is: remembered by an earlier call, else found
    (opening the repository) and remembered; None outside a work tree or when git is pointed
    elsewhere by the environment (gitmem.agents.memory)."""
    from gitmem.agents.memory import memory_here

    return memory_here()


def _remembered(
    memory: Memory, text: str, k: int, types: set[str], min_score: float | None, precedents: bool
) -> tuple[RecallAnswer, str] | None:
    """A recall at the memory branch's tip from the cache alone, with its precedents block
    when asked (the provenance from the agents' catalog); None when the full path must
    answer.  Either way the same answer."""
    from gitmem.agents.memory import remembered_precedents, remembered_recall
    from gitmem.agents.precedents import render

    answer = remembered_recall(memory, text, k=k, types=types or None, min_score=min_score)
    if answer is None:
        return None
    if not precedents:
        return answer, ""
    found = remembered_precedents(memory, answer.entries)
    return (answer, render(found, empty=_NO_PRECEDENT)) if found is not None else None


def _why(why: Why | None) -> str:
    """The explanation of one hit, indented under it."""
    if why is None:
        return "      why: no signal recorded"
    terms = ", ".join(f"{m.term} ({'/'.join(m.fields)}, +{m.evidence:.2f})" for m in why.terms)
    lines = [f"      why: {why.gate}"]
    lines.append(
        f"           keyword score {why.keyword:.2f} (evidence {why.evidence:.2f}): "
        + (terms or "no query term matched")
    )
    if why.similarity is not None:
        lines.append(f"           similarity {why.similarity:.2f} (cosine with the query)")
    if why.coverage is not None:
        lines.append(f"           the memory holds {why.coverage:.0%} of the query's words")
    return "\n".join(lines)


def _progress(done: int, total: int) -> None:
    """A first build's embedding, on one terminal line."""
    end = "\n" if done >= total else ""
    click.echo(f"\rgitmem: embedding entries for recall: {done:,}/{total:,}", err=True, nl=False)
    if end:
        click.echo("", err=True)


@click.command()
@click.option(
    "--path",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    help="The project folder (default: the current one).",
)
def mcp(path: Path | None) -> int:
    """Serve the project memory to AI agents over the Model Context Protocol (stdio):
    memory_recall, memory_recent, memory_push, memory_candidates, memory_show."""
    from gitmem.agents.mcp_server import serve
    from gitmem.repo.gitcli import pinned_repository

    # the folder named wins over a GIT_DIR
    serve(path, pinned=pinned_repository() if path is None else None)
    return 0
