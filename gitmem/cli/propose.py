"""`gitmem propose`: the proposal's fields from flags, a draft file or $EDITOR, then the core.

The flags are made from gitmem.model.proposal's field list (one option a field, repeatable for
the lists), so the command line and the MCP tool `memory_push` always offer the same fields.
Flags given beside `--from FILE` or `--edit OLD` win over the draft's values; `--from FILE`
beside `--amend ID` or `--edit OLD` is the amendment's or the successor's text (how a draft
of either that was kept is proposed again). A section that
still holds the template's placeholder text is refused, and a draft written in $EDITOR that
cannot be proposed is kept in the git directory (GITMEM_DRAFT.md) for `--from`: one the rules
refuse, and one the editor saved in another encoding than UTF-8, byte for byte.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from gitmem.cli.options import (
    TEXT_OR_JSON,
    command_workspace,
    emit_warnings,
    interactive,
    utf8_text,
)
from gitmem.errors import GitmemError, UsageError
from gitmem.model.fields import MAX_ENTRY_BYTES
from gitmem.model.proposal import ProposalFields, decode_draft, specs

if TYPE_CHECKING:
    from pathlib import Path

    from gitmem.lifecycle.propose import Proposal
    from gitmem.repo.workspace import Workspace

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")

#: The text each section of the template holds until the author writes their own.
PLACEHOLDERS = {
    "context": "Why this came up.",
    "content": "The lesson itself.",
    "evidence": "Commits, measurements, links that back it.",
}

#: What $EDITOR opens when no field is given.
TEMPLATE = f"""---
type: method
title:
applies_when:
tags: []
files: []
---

## Context
{PLACEHOLDERS["context"]}

## Content
{PLACEHOLDERS["content"]}

## Evidence
{PLACEHOLDERS["evidence"]}
"""

#: Where a draft written in $EDITOR is kept when it cannot be proposed (in the git directory,
#: as git keeps COMMIT_EDITMSG), so the author fixes it rather than writes it again.
DRAFT_FILE = "GITMEM_DRAFT.md"

#: The most characters a draft file may hold (an entry is at most 64 KiB): a longer one is
#: refused, not cut.
MAX_DRAFT = 256 * 1024


def proposal_options(command: F) -> F:
    """One option per proposal field, in the order the fields are declared."""
    for spec in reversed(specs()):
        help_text = spec.help + (" (repeatable)" if spec.many else "")
        command = click.option(
            spec.option,
            spec.name,
            multiple=spec.many,
            default=None,
            callback=utf8_text,
            help=help_text,
        )(command)
    return command


@click.command()
@proposal_options
@click.option(
    "--from",
    "from_file",
    type=click.Path(dir_okay=False),
    help="Read an entry file (- for standard input); beside --amend ID or --edit OLD, the "
    "amendment's or the successor's text.",
)
@click.option("--edit", "edit_id", metavar="OLD", help="Start a successor of an admitted entry.")
@click.option(
    "--amend",
    "amend_id",
    metavar="ID",
    help="Correct an admitted entry in place (same id, no successor): the fields and text "
    "given (or edited in $EDITOR) replace the entry's once the candidate is admitted.",
)
@click.option(
    "--retire",
    "retire_id",
    metavar="ID",
    help="Retire an admitted entry (junk, a test write, a duplicate): once admitted, its file "
    "stays as a tombstone in status retired. Needs --reason.",
)
@click.option("--reason", callback=utf8_text, help="With --retire: why the entry goes.")
@click.option(
    "--push",
    is_flag=True,
    help="Push the candidate branch to the remote git would push a new branch to: "
    "remote.pushDefault, else the only remote, else origin.",
)
@click.option(
    "--pr",
    is_flag=True,
    help="Push the branch as --push does and open a pull/merge request on that remote's "
    "repository (gh, GitLab push options), or print the URL that opens one. An id taken on "
    "the remote moves on, as with --push.",
)
@click.option(
    "--remote",
    metavar="NAME",
    help="With --push or --pr: push to this remote instead (git remote lists them).",
)
@TEXT_OR_JSON
def propose(
    from_file: str | None,
    edit_id: str | None,
    amend_id: str | None,
    retire_id: str | None,
    reason: str | None,
    push: bool,
    pr: bool,
    remote: str | None,
    fmt: str,
    **flags: Any,
) -> int:
    """Propose a memory: validate it, then commit it on a new branch gitmem/<id> from the main
    branch, without touching your working tree, staging index or HEAD.

    Fields come from the options, from --from FILE, or (with neither) from $EDITOR.
    With --amend ID or --retire ID --reason TEXT, the candidate changes an admitted entry.
    The same proposal run again (say after it was killed) reuses the branch it made. With
    --push or --pr, an id the remote holds for another candidate (another clone proposed it
    first) moves the proposal to the next free id, and the output says so; --pr opens the
    pull request for that id.
    """
    from gitmem.lifecycle import propose as proposing
    from gitmem.lifecycle.writing import NoRemote, push_remote

    given_options = (("--edit", edit_id), ("--amend", amend_id), ("--retire", retire_id),
                     ("--from", from_file))  # fmt: skip
    # an empty value (`--amend "$ID"` with ID unset) is an option given without its value,
    # not no option: taken for none, a full set of fields proposed a new entry instead
    for name, value in given_options:
        if value is not None and not value.strip():
            what = "a file" if name == "--from" else "an entry's id (see `gitmem list`)"
            raise UsageError(f"{name} needs {what}, and was given {value!r}")
    source = flags.get("source")
    if source is not None and not source.strip():
        # taken for no --source, `--source "$SOURCE"` with the variable unset proposed in the
        # name of the git user (human:…), whose proposals may be of any type
        raise UsageError(
            f"--source names nobody, and was given {source!r}: give human:NAME, audit:FILE, "
            "verdict:STOP or import:PATH, or leave --source out to propose as yourself"
        )
    chosen = [name for name, value in given_options if value is not None]
    # a draft file is the starting text of a successor or an amendment too: the way back
    # for one whose draft was kept (_kept), which --from alone proposed as a new entry
    starts = [name for name in chosen if name != "--from"]
    if len(starts) > 1 or (from_file is not None and retire_id is not None):
        raise UsageError(f"{' and '.join(chosen)} exclude each other: give one")
    if reason is not None and not retire_id:
        raise UsageError("--reason goes with --retire ID")
    if remote is not None and not (push or pr):
        raise UsageError("--remote goes with --push or --pr")
    ws = command_workspace()
    emit_warnings(ws.settings.warnings)
    if push or pr:
        # a remote that is not there is said now, before an editor opens or a candidate is
        # made; with none at all, the candidate is made and its output says to add one
        with contextlib.suppress(NoRemote):
            remote = push_remote(ws.store, remote)
    given = ProposalFields.from_mapping(flags)
    edited: str | None = None
    if retire_id:
        if any(given.given().values()):
            raise UsageError(
                "--retire takes only --reason (and --push): a retirement changes no field"
            )
        proposal = proposing.propose_retire(
            ws, retire_id, reason or "", push=push and not pr, remote=remote
        )
        return _report(ws, proposal, pr, remote, fmt)
    if amend_id:
        again = f"gitmem propose --amend {amend_id}"
        amend_draft, amend_blob = proposing.amend_start(ws, amend_id)
        start = amend_draft.render()
        no_flags = not any(given.given().values())
        if from_file:
            draft = _read_draft(from_file)
        else:
            edited = _edit(ws, start, again) if interactive() and no_flags else None
            draft = ProposalFields.from_text(edited or start)
        fields = given.over(draft)
        proposal = _kept_on_failure(
            ws,
            edited,
            again,
            lambda: proposing.propose_amend(
                ws,
                amend_id,
                _no_placeholders(fields),
                push=push and not pr,
                remote=remote,
                drafted_from=amend_blob,
            ),
        )
        return _report(ws, proposal, pr, remote, fmt)
    drafted: dict[str, str] = {}
    again = f"gitmem propose --edit {edit_id}" if edit_id else "gitmem propose"
    if edit_id:
        successor, drafted_blob = proposing.successor_draft(ws, edit_id)
        drafted = {edit_id: drafted_blob}
        start = successor.render()
        if from_file:
            # the successor of OLD whatever the file says: a draft written anew may not
            # name what it supersedes
            read = _read_draft(from_file)
            lineage = (*read.supersedes, *([] if edit_id in read.supersedes else [edit_id]))
            draft = dataclasses.replace(read, supersedes=lineage)
        else:
            edited = _edit(ws, start, again) if interactive() else None
            draft = ProposalFields.from_text(edited or start)
    elif from_file:
        draft = _read_draft(from_file)
    elif flags["title"] is None and flags["type"] is None and interactive():
        edited = _edit(ws, TEMPLATE, again)
        if not edited or edited == TEMPLATE:
            raise UsageError("nothing proposed: the editor closed without changes")
        draft = _kept_on_failure(ws, edited, again, lambda: ProposalFields.from_text(edited or ""))
    else:
        draft = ProposalFields()
    fields = given.over(draft)
    if edit_id and fields.given() == ProposalFields.from_text(start).given():
        # as --amend refuses one: a successor with the old entry's text, admitted, would
        # supersede it by a copy that no one changed
        raise UsageError(
            f"nothing to supersede {edit_id} with: the successor holds its text unchanged; "
            "give the changed fields (--title, --applies-when, --content, …) or edit it in "
            "$EDITOR"
        )
    # with --pr the pull-request module pushes, so GitLab's push options ride on that push
    proposal = _kept_on_failure(
        ws,
        edited,
        again,
        lambda: proposing.propose(
            ws, _no_placeholders(fields), push=push and not pr, remote=remote, drafted_from=drafted
        ),
    )
    return _report(ws, proposal, pr, remote, fmt)


def _edit(ws: Workspace, text: str, again: str) -> str | None:
    """The text as the person's editor left it (None: closed unsaved). An editor that fails,
    cannot start or removes its file proposes nothing, said as a usage error rather than
    click's bare "Editing failed" or an unexpected error. So does a file saved empty, which
    is how git's editors abort (`git commit` says "Aborting commit due to empty commit
    message"): the empty text was read as no edit at all, and a successor or an amendment
    was proposed from the unchanged draft.

    The file's bytes are read as `--from` reads a draft file (decode_draft). Saved in another
    encoding (an editor set to Latin-1 writes `é` as the byte 0xE9) or as binary, they are
    kept in the git directory byte for byte, and the error is the line `gitmem check` prints
    for that file, with how to propose it once fixed: click decoded them itself, and its
    error dropped the draft with the editor's temporary file."""
    try:
        saved = click.edit(text.encode("utf-8"), extension=".md")
    except (click.ClickException, FileNotFoundError) as exc:
        what = "left no file" if isinstance(exc, FileNotFoundError) else "failed"
        editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
        raise UsageError(
            f"the editor {editor} {what}: nothing proposed; set $VISUAL or $EDITOR to an "
            "editor that saves the file, or give the fields as options or --from FILE"
        ) from exc
    if saved is None:
        return None
    try:
        edited = decode_draft(saved, str(_draft_path(ws)))
    except GitmemError as exc:
        raise _kept(ws, saved, exc, again) from None
    if not edited.strip():
        raise UsageError(
            "the editor's file was saved empty: nothing proposed (saving it empty is how to abort)"
        )
    return edited


def _report(ws: Workspace, proposal: Proposal, pr: bool, remote: str | None, fmt: str) -> int:
    """Open the pull request when asked (on remote, the --remote given or push_remote's
    choice), print what was proposed, return the exit code."""
    request = None
    if pr:
        from gitmem.lifecycle import pulls
        from gitmem.lifecycle.propose import HeldByAnother
        from gitmem.lifecycle.writing import NoRemote

        try:
            request = pulls.open_pull_request(ws, proposal, remote=remote)
        except HeldByAnother as exc:
            proposal.unpushed = exc.message  # no push sends it under this id
        except NoRemote as exc:
            proposal.unpushed = (
                f"{exc.message}, then git push {exc.remote} {proposal.branch}, and open the "
                "pull request"
            )
            proposal.unpushed_code = exc.exit_code
        except GitmemError as exc:
            # the candidate is proposed already: say so beside the failure, with the push
            # that sends it, or its author proposes it again and gets a second copy
            proposal.unpushed = (
                f"{exc.message}\nthen: git push {proposal.remote or remote} {proposal.branch}, "
                "and open the pull request"
            )
        else:
            proposal.pushed = proposal.pushed or request.pushed
            emit_warnings(request.warnings)
    # a push that could not happen leaves the candidate here: exit 1 (2 with no remote to
    # push to), saying what to do
    code = proposal.unpushed_code if proposal.unpushed else 0
    if fmt == "json":
        out: dict[str, Any] = {
            "id": proposal.id,
            "branch": proposal.branch,
            "commit": proposal.commit,
            "pushed": proposal.pushed,
        }
        if proposal.unpushed:
            out["not_pushed"] = proposal.unpushed
        if proposal.reused:
            out["reused"] = True
        if proposal.taken_on_remote:
            out["taken_on_remote"] = proposal.taken_on_remote
        if request is not None:
            out["pull_request"] = {"url": request.url, "opened": request.opened}
        click.echo(json.dumps(out))
        return code
    for warning in proposal.warnings:
        click.echo(str(warning), err=True)
    notes = []
    if proposal.taken_on_remote:
        taken = ", ".join(proposal.taken_on_remote)
        notes.append(
            f"{taken} is taken on {proposal.remote} by another candidate: took the next free id"
            if len(proposal.taken_on_remote) == 1
            else f"{taken} are taken on {proposal.remote} by other candidates: took the next "
            "free id"
        )
    if proposal.reused:
        notes.append("proposed before: its branch holds this very text")
    click.echo(f"proposed {proposal.id}" + "".join(f" ({note})" for note in notes))
    click.echo(f"branch   {proposal.branch}" + (" (pushed)" if proposal.pushed else ""))
    if proposal.unpushed:
        click.echo(f"gitmem: not pushed: {proposal.unpushed}", err=True)
    elif request is not None:
        click.echo(request.message)
    return code


def _no_placeholders(fields: ProposalFields) -> ProposalFields:
    """fields, unless a section still holds the template's placeholder text: that is never
    the lesson, and used to be proposed as it was."""
    given = fields.given()
    left = [f"## {name.title()}" for name, text in PLACEHOLDERS.items() if given.get(name) == text]
    if left:
        raise UsageError(
            f"{' and '.join(left)} still hold{'s' if len(left) == 1 else ''} the template's "
            "placeholder text: write your own (or leave the section empty), then propose again"
        )
    return fields


def _kept_on_failure(ws: Workspace, edited: str | None, again: str, call: Callable[[], T]) -> T:
    """call(), and when it fails on a draft written in $EDITOR, the draft is kept in the git
    directory and the message says how to propose it again (again, with --from)."""
    try:
        return call()
    except GitmemError as exc:
        if edited is None:
            raise
        raise _kept(ws, edited.encode("utf-8"), exc, again) from None


def _draft_path(ws: Workspace) -> Path:
    return ws.store.common_dir / DRAFT_FILE


def _kept(ws: Workspace, data: bytes, exc: GitmemError, again: str) -> GitmemError:
    """exc, once the draft's bytes (data) are kept in the git directory, saying where and
    how to propose it again: the command that opened the editor (again: `gitmem propose`,
    with `--amend ID` or `--edit OLD` for an amendment's or a successor's draft, which
    --from alone proposed as a new entry), with --from the kept file."""
    from gitmem.repo.atomic import ABANDONED_AGE, atomic_write, remove_temporaries_of

    path = _draft_path(ws)
    # replaced whole: a plain write killed after it emptied the file lost the draft kept
    # before and this one both
    atomic_write(path, data)
    remove_temporaries_of([path], ABANDONED_AGE)  # a killed run's, beside it
    return type(exc)(
        f"{exc.message}\nyour draft is kept in {path}: fix it there, then {again} --from {path}",
        exit_code=exc.exit_code,
    )


def _read_draft(path: str) -> ProposalFields:
    """The draft file's fields. A file longer than MAX_DRAFT characters is a usage error,
    never its first MAX_DRAFT characters proposed as if they were all of it. Its bytes are
    judged as `gitmem check` judges them: a file that is not UTF-8 was "cannot read …:
    'utf-8' codec can't decode byte 0xff in position 274" (exit 2), and one with a NUL byte
    "FRONT-MATTER line 1: has no front matter", where check says ENCODING (with its line) or
    BINARY; each problem names the file."""
    try:
        if path == "-":
            # `--from -` is standard input, as for git and most tools: it was taken for a
            # file named "-" ("cannot read -: No such file or directory")
            data = sys.stdin.buffer.read(4 * MAX_DRAFT + 1)
        else:
            with open(path, "rb") as handle:
                # no character takes more than 4 bytes in UTF-8: a file cut here is too long
                data = handle.read(4 * MAX_DRAFT + 1)
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    text = None if len(data) > 4 * MAX_DRAFT else decode_draft(data, path)
    if text is None or len(text) > MAX_DRAFT:
        raise UsageError(
            f"{path} is longer than {MAX_DRAFT:,} characters, the most propose --from reads "
            f"(an entry is at most {MAX_ENTRY_BYTES // 1024} KiB): nothing proposed; shorten "
            "it (move long material into a file of the repository and name it in files:, or "
            "split it into several entries), then propose again"
        )
    return ProposalFields.from_text(text, path)
