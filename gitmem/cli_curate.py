"""The curation commands: `gitmem import claude`, `gitmem lint`, `gitmem hygiene`,
`gitmem harvest`.  Thin: parse, call one core function, print what it returns.  cli.py loads
this module only when one of these commands runs; GitmemError propagates to its group, which
maps it to the exit code.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

FORMAT = click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Text for people, JSON for tools.",
)


def _table(rows: list[tuple[str, int]]) -> list[str]:
    width = max(len(label) for label, _ in rows)
    lines = [f"| {'outcome':<{width}} | count |", f"| {'-' * width} | ----: |"]
    lines.extend(f"| {label:<{width}} | {count:>5} |" for label, count in rows)
    return lines


# ---------------------------------------------------------------------------------------------
# import


@click.group("import")
def import_() -> None:
    """Import memory kept elsewhere as candidates (reviewed like any proposal)."""


@import_.command("claude")
@click.option(
    "--from",
    "from_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="A Claude Code folder to read (default: this repository's .claude/); e.g. ~/.claude "
    "for user-level agent memory and this repository's auto memory, or one memory folder.",
)
@click.option("--dry-run", is_flag=True, help="Show what would be proposed; write nothing.")
@FORMAT
def import_claude(from_dir: Path | None, dry_run: bool, fmt: str) -> None:
    """Lift Claude Code memory into `method` candidates, once.

    Reads .claude/agent-memory/<agent>/MEMORY.md (each top-level item, with the note it links),
    agent-memory-local/, and auto-memory topic files (front matter name/description/type).
    A topic already pending, admitted or refused is skipped; an item holding a secret is
    reported and nothing is written for it. Never writes under .claude/. Exits 1 when an item
    held a secret or broke a rule.
    """
    import json

    from gitmem import importer
    from gitmem.workspace import open_workspace

    ws = open_workspace()
    report = importer.import_claude(
        ws, from_dir.expanduser() if from_dir else None, dry_run=dry_run
    )
    if fmt == "json":
        click.echo(
            json.dumps(
                {
                    "base": report.base,
                    "folders": report.folders,
                    "items": [
                        {
                            "origin": o.item.origin,
                            "title": o.title,
                            "topic": o.topic,
                            "outcome": o.status,
                            "detail": o.detail,
                            "id": o.id,
                        }
                        for o in report.outcomes
                    ],
                    "counts": dict(importer.iter_rows(report)),
                    "notes": report.notes,
                },
                indent=2,
            )
        )
        sys.exit(0 if report.ok else 1)
    for note in report.notes:
        click.echo(f"gitmem: {note}", err=True)
    if report.folders:
        click.echo(f"read {len(report.folders)} memory folder(s) below {report.base}")
    for outcome in report.outcomes:
        label = importer.LABELS[outcome.status]
        head = f"{label}: {outcome.title}  [{outcome.item.origin}]"
        click.echo(head + (f" → {outcome.id}" if outcome.id else ""))
        for line in outcome.detail.splitlines():
            click.echo(f"    {line}")
    click.echo("")
    for line in _table(list(importer.iter_rows(report))):
        click.echo(line)
    sys.exit(0 if report.ok else 1)


# ---------------------------------------------------------------------------------------------
# lint


@click.command("lint")
@click.option("--rev", metavar="REV", help="Lint the memory at this commit (default: main's tip).")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "github"]),
    default="text",
    show_default=True,
    help="text lines, JSON, or GitHub workflow annotations.",
)
def lint(rev: str | None, fmt: str) -> None:
    """Check the admitted memory as a whole: INDEX.md drift, broken or one-sided lineage,
    dead `files`, ids that disagree with their entry, bodies grown into a change log, and
    relative dates ("yesterday", "last week") in admitted text.

    Prints `path:line: RULE-ID message` per problem and a summary; exits 1 when a rule fails.
    """
    from gitmem import check
    from gitmem import lint as lint_mod
    from gitmem.workspace import open_workspace

    report = lint_mod.lint(open_workspace(), rev)
    if fmt == "text":
        for warning in report.warnings:
            click.echo(f"gitmem: warning: {warning}", err=True)
    out = check.render(report, fmt)
    if fmt != "json":
        head, _, last = out.rpartition("\n")
        out = (head + "\n" if head else "") + last.replace("gitmem check:", "gitmem lint:", 1)
    click.echo(out)
    sys.exit(0 if report.ok else 1)
