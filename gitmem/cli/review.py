"""`gitmem candidates`, `gitmem admit`, `gitmem refuse`: reviewing what was proposed."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar

import click

from gitmem.cli.options import (
    TEXT_OR_JSON,
    command_workspace,
    emit_warnings,
    interactive,
    utf8_text,
)
from gitmem.errors import USAGE
from gitmem.lifecycle.admit import Admission
from gitmem.model.names import quoted_id
from gitmem.model.terminal import visible
from gitmem.repo.workspace import Workspace

#: A click command being built, which an options decorator gives back as it took it.
Command = TypeVar("Command", bound=Callable[..., Any])


def _someone(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """--by of admit and refuse: UTF-8 text that names someone. An empty one (`--by
    "$REVIEWER"` with the variable unset) was taken for no --by, and the merge was recorded in
    the name of whoever ran the command."""
    value = utf8_text(ctx, param, value)
    if value is not None and not value.strip():
        raise click.BadParameter(
            "names nobody: give human:NAME, or leave --by out to act as yourself",
            ctx=ctx,
            param=param,
        )
    return value


@click.command()
@TEXT_OR_JSON
def candidates(fmt: str) -> int:
    """Pending candidates (local and remote-tracking gitmem/<id> branches) and their state."""
    from gitmem.lifecycle.candidates import review, tracking_in_the_way
    from gitmem.model.problem import shown_lines

    ws = command_workspace()
    # the settings set aside, on stderr: candidates are judged by the defaults in their place
    # (a misspelt maxBody's limit), and candidates, admit, refuse and index said nothing of it
    emit_warnings(ws.settings.warnings)
    # a remote's candidates git cannot fetch are missing from the list: said, on stderr
    emit_warnings(tracking_in_the_way(ws))
    reviews = review(ws)
    rows: list[dict[str, Any]] = [
        {
            "id": item.candidate.id,
            "ref": item.candidate.ref,
            "tip": item.candidate.tip,
            "title": item.title,
            "valid": not item.errors,
            "problems": [str(p) for p in item.errors],
            "warnings": [str(p) for p in item.warnings],
        }
        for item in reviews
    ]
    if fmt == "json":
        click.echo(json.dumps(rows, indent=2))
        return 0
    for hint in dict.fromkeys(item.hint for item in reviews if item.hint):
        click.echo(f"note: {hint}; candidates are judged against it")
    if not rows:
        click.echo("no pending candidates")
    see_all = "`gitmem candidates --format json` lists them all"
    for row, item in zip(rows, reviews, strict=True):
        state = "valid" if row["valid"] else f"{len(row['problems'])} problem(s)"
        click.echo(visible(f"{row['id']}  {state}  {row['title']}  ({row['ref']})"))
        # at most 20 of a file, as check shows them: a hostile candidate breaks a rule
        # thousands of times
        for line in shown_lines([*item.errors, *item.warnings], see_all):
            # a problem quotes the candidate's own text (its type, in ID-TYPE's hint)
            click.echo(visible(f"    {line}"))
    return 0


def _landing_push(command: Command) -> Command:
    """--push and --remote, which admit and refuse take alike: both land on main, then push
    it where `git push` pushes it (writing.landing_remote)."""
    command = click.option(
        "--remote",
        metavar="NAME",
        help="With --push: push to this remote instead (git remote lists them).",
    )(command)
    return click.option(
        "--push",
        is_flag=True,
        help="Push main and delete the candidate branch there, on the remote git pushes main "
        "to: branch.main.pushRemote, else remote.pushDefault, else main's upstream remote, "
        "else the only remote, else origin.",
    )(command)


@click.command()
@click.argument("ids", nargs=-1, metavar="ID...")
@click.option("--by", callback=_someone, help="human:NAME (default: you) or audit:FILE.")
@click.option("--expect", metavar="OID", help="Admit only if the candidate branch is at OID.")
@_landing_push
@click.option("--auto", "auto", is_flag=True, help="Admit audit-backed candidates when allowed.")
@click.option(
    "--allow",
    "allow",
    multiple=True,
    metavar="FINGERPRINT",
    help="A secret-scanner finding you reviewed and judged harmless (as its SECRET message "
    "prints it): recorded in allowed.md by the admit merge. Not the candidate's author.",
)
def admit(
    ids: tuple[str, ...],
    by: str | None,
    expect: str | None,
    push: bool,
    remote: str | None,
    auto: bool,
    allow: tuple[str, ...],
) -> int:
    """Admit candidates: one merge commit on main each, INDEX.md regenerated in it.

    With no ID in a terminal, walks the pending candidates one by one and asks.
    """
    from gitmem.lifecycle import admit as admitting

    ws = command_workspace()
    emit_warnings(ws.settings.warnings)
    remote = _push_remote(ws, push, remote)
    # --auto admits each audited candidate under its own audit: an ID, --by, --expect or
    # --allow beside it was ignored without a word (`admit --auto ID` never admitted ID)
    if auto and (ids or expect or allow or by):
        given = "ID" if ids else "--expect" if expect else "--allow" if allow else "--by"
        raise click.UsageError(
            f"--auto admits every audit-backed candidate under its audit: give no {given} "
            "with it (or leave --auto out to admit the candidates you name)"
        )
    # `--expect "$REVIEWED"` with the variable unset: an empty --expect was taken for none, and
    # the candidate was admitted at whatever commit its branch had moved to since the review
    if expect is not None and not expect.strip():
        raise click.UsageError(
            "--expect '' names no commit: give the commit you reviewed (the candidate's tip, "
            "as `gitmem candidates --format json` shows it), or leave --expect out"
        )
    if expect and len(ids) != 1:
        raise click.UsageError("--expect goes with exactly one ID")
    if allow and len(ids) != 1:
        raise click.UsageError("--allow goes with exactly one ID")
    _find_all(ws, ids)
    if auto:
        done = admitting.admit_audited(ws, push=push, remote=remote)
        if not done.allowed:
            click.echo(
                "memory.autoAdmitAudited is not on in both the project and your own "
                "settings: admitted nothing",
                err=True,
            )
        for admission in done.admitted:
            _print_admission(admission)
        for entry_id, why in done.skipped:
            click.echo(f"skipped {entry_id}: {why}")
        return 0
    if not ids:
        if not interactive():
            click.echo(
                "no ID given and no terminal to ask in: admitted nothing (run `gitmem admit ID`)",
                err=True,
            )
            return USAGE
        _admit_interactive(ws, by, push, remote)
        return 0
    for entry_id in ids:
        _print_admission(
            admitting.admit(
                ws, entry_id, by=by, expect=expect, push=push, remote=remote, allow=allow
            )
        )
    return 0


def _find_all(ws: Workspace, ids: tuple[str, ...]) -> None:
    """Refuse, before main moves, a list of IDs that would stop half-way: an ID given twice
    (its second admit found it admitted already) or one that names no pending candidate. The
    candidates before it were admitted, and the command then exited 2 as if nothing had been
    done. Each admit still judges its own candidate when its turn comes.

    One ID, or any while a killed admit or refuse awaits finishing, is left to admit itself:
    running a killed `gitmem admit ID` again finishes it, though ID is no candidate by then."""
    from gitmem.lifecycle import recovery
    from gitmem.lifecycle.candidates import find_candidate

    twice = [entry_id for entry_id, count in Counter(ids).items() if count > 1]
    if twice:
        raise click.UsageError(
            f"{quoted_id(twice[0])} is given twice: name each candidate once (admitted nothing)"
        )
    if len(ids) < 2 or recovery.pending(ws.store) is not None:
        return
    for entry_id in ids:
        find_candidate(ws, entry_id)


def _print_admission(done: Admission) -> None:
    for line in done.recovered:  # what a command killed before had left, finished now
        click.echo(f"gitmem: {line}", err=True)
    click.echo(f"admitted {done.id} ({done.commit[:12]})")
    for old in done.superseded:
        click.echo(f"superseded {old}")
    if done.pushed:
        click.echo("pushed")


def _push_remote(ws: Workspace, push: bool, remote: str | None) -> str | None:
    """The remote --push pushes main to, asked before anything is done (a name no remote has
    is said before a candidate is shown, or the first of several admitted): --remote NAME,
    else the one `git push` pushes main to."""
    if not push:
        if remote is not None:
            raise click.UsageError("--remote goes with --push")
        return None
    from gitmem.lifecycle.writing import landing_remote

    return landing_remote(ws, remote)


def _admit_interactive(ws: Workspace, by: str | None, push: bool, remote: str | None) -> None:
    from gitmem.lifecycle.admit import admit as do_admit
    from gitmem.lifecycle.candidates import judged, pending
    from gitmem.lifecycle.refuse import refuse as do_refuse

    waiting = pending(ws)
    if not waiting:
        click.echo("no pending candidates")
        return
    for candidate in waiting:
        click.echo(f"\n=== {candidate.id}  ({candidate.ref} at {candidate.tip[:12]})")
        click.echo(visible((candidate.data or b"").decode("utf-8", "replace")))
        problems, hint = judged(ws, candidate)
        for problem in problems:  # a problem quotes the candidate's own text
            click.echo(visible(f"  {problem}"))
        if hint:
            click.echo(visible(f"  note: {hint}"))
        if not [p for p in problems if not p.warning]:
            click.echo("  checks: all rules pass")
        answer = click.prompt("admit / refuse / skip", default="skip", show_default=True)
        if answer.strip().lower() in ("admit", "a", "yes", "y"):
            done = do_admit(ws, candidate.id, by=by, expect=candidate.tip, push=push, remote=remote)
            _print_admission(done)
        elif answer.strip().lower() in ("refuse", "r"):
            reason = click.prompt("reason", value_proc=lambda text: utf8_text(None, None, text))
            refused = do_refuse(ws, candidate.id, reason=reason, by=by, push=push, remote=remote)
            click.echo(f"refused {candidate.id}" + (", pushed" if refused.pushed else ""))
        else:
            click.echo(f"skipped {candidate.id}")


@click.command()
@click.argument("entry_id", metavar="ID")
@click.option(
    "--reason",
    required=True,
    callback=utf8_text,
    help="Why: shown to later proposals of this topic.",
)
@click.option("--by", callback=_someone, help="human:NAME (default: you).")
@_landing_push
def refuse(entry_id: str, reason: str, by: str | None, push: bool, remote: str | None) -> int:
    """Refuse a candidate: its topic joins refused.md on main; its branch is deleted."""
    from gitmem.lifecycle.refuse import refuse as do_refuse

    ws = command_workspace()
    emit_warnings(ws.settings.warnings)
    remote = _push_remote(ws, push, remote)
    done = do_refuse(ws, entry_id, reason=reason, by=by, push=push, remote=remote)
    for line in done.recovered:  # what a command killed before had left, finished now
        click.echo(f"gitmem: {line}", err=True)
    click.echo(f"refused {done.id} (topic {done.topic}, {done.commit[:12]})")
    if done.pushed:
        click.echo("pushed")
    return 0
