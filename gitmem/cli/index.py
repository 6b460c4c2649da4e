"""`gitmem index`: the generated files (INDEX.md, CANDIDATES.md) brought up to date, and the
INDEX.md merge driver git runs."""

from __future__ import annotations

import click

from gitmem.errors import UsageError


@click.command()
@click.option("--check", "check_only", is_flag=True, help="Exit 1 when INDEX.md is stale.")
@click.option(
    "--merge-driver",
    nargs=4,
    metavar="BASE OURS THEIRS PATH",
    help="Run as git's merge driver for INDEX.md (set up by `gitmem hooks install`).",
)
def index(check_only: bool, merge_driver: tuple[str, str, str, str] | None) -> int:
    """Regenerate INDEX.md and CANDIDATES.md in the working tree."""
    from gitmem.lifecycle import refresh

    if merge_driver:
        from pathlib import Path

        base, ours, theirs, _path = merge_driver
        try:
            merged = refresh.merge_driver(Path(base), Path(ours), Path(theirs))
        except FileNotFoundError as exc:
            # run by hand with made-up names, this was an unexpected error (exit 3)
            raise UsageError(
                f"--merge-driver: {exc.filename}: no such file: git passes the driver the "
                "files of the merge it runs (`gitmem hooks install` sets it up for INDEX.md); "
                "to bring INDEX.md up to date yourself, run `gitmem index`"
            ) from None
        # 1: git leaves the conflict for a person; `gitmem index` resolves it
        return 0 if merged else 1

    from gitmem.cli.options import command_workspace, emit_warnings

    ws = command_workspace()
    emit_warnings(ws.settings.warnings)  # the folder indexed may be the default's, not theirs
    done = refresh.refresh(ws, check_only=check_only)
    if check_only:
        for path in done.stale:
            click.echo(f"{path}: INDEX stale: run `gitmem index` and commit it")
        return 1 if done.stale else 0
    for path in done.written:
        click.echo(f"wrote {path}")
    if not done.written:
        click.echo("indexes up to date")
    return 0
