"""`gitmem site` and `gitmem review`: the memory where people look (thin: parse, call, print)."""

from __future__ import annotations

from pathlib import Path

import click

from gitmem.cli.options import command_workspace, emit_warnings, format_option
from gitmem.model.terminal import visible


@click.command()
@click.option(
    "--out",
    "out",
    default="_site",
    show_default=True,
    type=click.Path(file_okay=False),
    help="Folder to write the site into, relative to the current folder or absolute. In a "
    "folder gitmem wrote before, only the old site's files (listed in its .gitmem-site) are "
    "replaced or removed; any other file there (a CNAME, a robots.txt) is kept, and one "
    "where the new site writes a file is refused by name.",
)
@click.option("--ref", help="The commit to show (default: the memory branch's tip).")
@click.option(
    "--no-candidates",
    is_flag=True,
    help="Leave out the pending candidate branches: the site is then a function of the "
    "commit alone.",
)
@click.option(
    "--web",
    metavar="URL",
    help="The repository's web address for links to commits and files "
    "(default: that of the remote the memory is read from: origin, else the only remote, "
    "else the one the local branches track; '' for none).",
)
def site(out: str, ref: str | None, no_candidates: bool, web: str | None) -> int:
    """Write the memory at a commit as a static, self-contained site: a home page with counts,
    latest admissions and pending candidates; every entry with filters and search; one page
    per entry with its lineage and cited files; the refused topics. Same commit, same bytes.
    A site in --out built from a newer commit (one descending from this one) is kept.
    """
    from gitmem.site import build, collect

    ws = command_workspace()
    emit_warnings(ws.settings.warnings)
    build.refuse_out(Path(out), ws)
    memory = collect.collect(ws, ref=ref, candidates=not no_candidates, web=web)
    files = build.generate(memory)
    written = build.write(
        files,
        Path(out),
        waiting=lambda: click.echo(
            f"gitmem site: another gitmem site is writing {out}; waiting for it to finish",
            err=True,
        ),
        store=ws.store,
    )
    if written.newer is not None:
        click.echo(
            f"kept the site in {out}: it was built from commit {written.newer[:12]}, newer than "
            f"{memory.commit[:12]} (remove {out} first to write an older commit's site)"
        )
        return 0
    click.echo(
        f"wrote {len(files)} files to {out}: {_count(len(memory.entries), 'entry', 'entries')}, "
        f"{_count(len(memory.candidates), 'candidate')}, "
        f"{_count(len(memory.refused), 'refused topic')} (commit {memory.commit[:12]})"
    )
    if written.kept:
        # a name on the line as one: a line break in it shown as \n
        named = ", ".join(visible(path).replace("\n", "\\n") for path in written.kept[:5])
        more = f" and {len(written.kept) - 5} more" if len(written.kept) > 5 else ""
        click.echo(
            f"kept {_count(len(written.kept), 'file')} in {out} that gitmem did not write: "
            f"{named}{more}"
        )
    return 0


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


@click.command()
@click.argument("entry_id", metavar="ID")
@format_option("text", "markdown", "json")
def review(entry_id: str, fmt: str) -> int:
    """Show a pending candidate as a reviewer needs it: as it will read once admitted, what
    the checks say, its near-duplicates among the admitted entries, the refused topics it
    matches and the entries it would supersede. Exits 1 when a rule fails."""
    from gitmem.curate import review as review_mod

    ws = command_workspace()
    emit_warnings(ws.settings.warnings)
    done = review_mod.review(ws, entry_id)
    render = {
        "text": review_mod.as_text,
        "markdown": review_mod.as_markdown,
        "json": review_mod.as_json,
    }[fmt]
    click.echo(render(done) if fmt == "json" else visible(render(done)))
    return 1 if done.errors else 0
