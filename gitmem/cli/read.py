"""`gitmem list` and `gitmem show`: reading the admitted memory and pending candidates."""

from __future__ import annotations

import json
from dataclasses import asdict

import click

from gitmem.cli.options import TEXT_OR_JSON, command_workspace, emit_warnings
from gitmem.model.problem import LEFT_OUT
from gitmem.model.terminal import visible


@click.command("list")
@click.option(
    "--status",
    type=click.Choice(["admitted", "superseded", "retired"]),
    help="Only entries of this status (default: all).",
)
@click.option("--type", "types", multiple=True, help="Only this type (repeatable).")
@TEXT_OR_JSON
def list_(status: str | None, types: tuple[str, ...], fmt: str) -> int:
    """Entries on the main branch, by type, with their status (an amended entry is marked
    `admitted*`; a retired one is a tombstone, never recalled)."""
    from gitmem.lifecycle import read
    from gitmem.model.problem import Problem

    skipped: list[Problem] = []
    ws = command_workspace()
    emit_warnings(ws.settings.warnings)  # the folder listed may be the default's, not theirs
    ws.settings.check_types(types)  # a typo would list "no entries"
    rows = read.list_entries(ws, status=status, types=types, skipped=skipped)
    for problem in skipped:  # on stderr, so that --format json stays one document
        click.echo(visible(f"gitmem: {problem}: {LEFT_OUT}"), err=True)
    if fmt == "json":
        click.echo(json.dumps([asdict(r) for r in rows], indent=2))
        return 0
    if not rows:
        click.echo("no entries")
    for row in rows:
        status = f"{row.status}*" if row.amended else row.status
        click.echo(visible(f"{row.type:<15} {status:<11} {row.id}  {row.title}"))
    return 0


@click.command()
@click.argument("entry_id", metavar="ID")
@click.option("--lineage", is_flag=True, help="Show the supersession chain through it.")
def show(entry_id: str, lineage: bool) -> int:
    """Print an entry (or a pending candidate)."""
    from gitmem.lifecycle import read

    ws = command_workspace()
    emit_warnings(ws.settings.warnings)
    if lineage:
        for item in read.lineage(ws, entry_id):
            marker = "*" if item.id == entry_id else " "
            click.echo(visible(f"{marker} {item.id}  {item.status}  {item.title}"))
        return 0
    from gitmem.model.curation import state_note

    where, entry = read.show(ws, entry_id)
    click.echo(f"# {where}")
    # the note quotes the entry's own fields (a candidate's are anyone's text): escaped too
    if note := state_note(entry):
        click.echo(visible(f"# {note}"))
    click.echo(visible(entry.render()), nl=False)
    return 0
