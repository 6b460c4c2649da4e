"""The command line: parse, call one core function, print what it returns.

Exit codes: 0 ok, 1 a rule failed, 2 usage, 3 unexpected (the traceback goes to a log file
whose path is printed; never to the terminal for an expected failure).
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import traceback
from typing import Any, NoReturn

import click

from gitmem.errors import UNEXPECTED, USAGE, GitmemError, UsageError


def _log_path() -> str:
    return os.path.join(tempfile.gettempdir(), f"gitmem-{os.getuid()}-error.log")


def _fail(message: str, code: int) -> NoReturn:
    click.echo(message, err=True)
    sys.exit(code)


#: True when the command line is its process's entry point (the launcher sets it), not run in
#: process by a caller (CliRunner): only then may a command end the process at once (exit_now).
owns_process = False


def _keep_judges_until_exit() -> None:
    if owns_process:
        from gitmem.gate import history

        history.keep_until_exit = []  # the command ends with exit_now


def exit_now(code: int) -> NoReturn:
    """End a history check's process once its verdict is out: flush what was printed, then
    os._exit, skipping the interpreter's teardown, which would free everything a big push
    made the judge read, one object at a time (0.1 s of a push of 10,000 admissions).  Only
    for commands that have nothing left to do (no file to close, no child still running), and
    only when the command line owns the process; otherwise a plain exit."""
    if not owns_process:
        sys.exit(code)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a reader gone, or a closed stream
            stream.flush()
    os._exit(code)


# Commands that live in their own modules, imported only when called (hooks start fast).
LAZY_COMMANDS: dict[str, str] = {
    "recall": "gitmem.cli.recall:recall",
    "mcp": "gitmem.cli.recall:mcp",
    "import": "gitmem.cli.curate:import_",
    "lint": "gitmem.cli.curate:lint",
    "hygiene": "gitmem.cli.curate:hygiene",
    "harvest": "gitmem.cli.curate:harvest",
    "github": "gitmem.cli.github:github",
}


class GitmemGroup(click.Group):
    """The one place where exceptions become exit codes; lazy sub-commands."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self._lazy()})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is not None or cmd_name not in self._lazy():
            return command
        import importlib

        module_name, attr = self._lazy()[cmd_name].split(":")
        loaded = getattr(importlib.import_module(module_name), attr)
        return loaded if isinstance(loaded, click.Command) else None

    def _lazy(self) -> dict[str, str]:
        import importlib.util

        return {
            name: target
            for name, target in LAZY_COMMANDS.items()
            if importlib.util.find_spec(target.split(":")[0]) is not None
        }

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except GitmemError as exc:
            _fail(f"gitmem: {exc.message}", exc.exit_code)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException):
            raise
        except KeyboardInterrupt:
            _fail("gitmem: interrupted", 130)
        except BrokenPipeError:
            sys.exit(0)
        except Exception:
            path = _log_path()
            try:
                with open(path, "w", encoding="utf-8") as log:
                    traceback.print_exc(file=log)
                where = f"; the traceback is in {path}"
            except OSError:
                where = ""
            _fail(
                f"gitmem: unexpected error ({sys.exc_info()[1]!r}){where}. "
                "Please report it with that file.",
                UNEXPECTED,
            )


REPORT_FORMAT = click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "github"]),
    default="text",
    show_default=True,
    help="text lines, JSON, or GitHub workflow annotations.",
)
TEXT_OR_JSON = click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Text for people, JSON for tools.",
)


@click.group(cls=GitmemGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="gitmem")
def main() -> None:
    """gitmem: a project's shared memory, kept as reviewed Markdown entries in git."""


def _emit_warnings(warnings: list[str]) -> None:
    for warning in warnings:
        click.echo(f"gitmem: warning: {warning}", err=True)


@main.command()
@click.argument("paths", nargs=-1)
@click.option("--staged", is_flag=True, help="Check what git is committing (pre-commit).")
@click.option(
    "--range", "range_", metavar="A..B", help="Check every commit in A..B (history rules)."
)
@click.option("--pre-push", is_flag=True, help="Read a pre-push hook's stdin and check.")
@click.option("--pre-receive", is_flag=True, help="Read a pre-receive hook's stdin and check.")
@REPORT_FORMAT
def check(
    paths: tuple[str, ...],
    staged: bool,
    range_: str | None,
    pre_push: bool,
    pre_receive: bool,
    fmt: str,
) -> None:
    """Validate memory files against the schema, the source rules and the secret scanner.

    With PATHs (files or folders), checks them in the working tree; with no option and no
    PATH, the whole memory folder. Prints `path:line: RULE-ID message` per problem and a
    summary; exits 1 when a rule fails.
    """
    from gitmem.gate import check as check_mod

    modes = sum(bool(x) for x in (staged, range_, pre_push, pre_receive))
    if modes > 1 or (modes and paths):
        raise click.UsageError("use one of PATH…, --staged, --range, --pre-push, --pre-receive")
    if staged:
        report = check_mod.check_staged()
    elif range_ or pre_push or pre_receive:
        from gitmem.gate import history

        _keep_judges_until_exit()
        if range_:
            report = history.check_range(range_)
        elif pre_push:
            report = history.check_pre_push(sys.stdin.read())
        else:
            report = history.check_pre_receive(sys.stdin.read())
    else:
        from gitmem.repo.workspace import open_workspace

        report = check_mod.check_worktree(open_workspace(), list(paths))
    if fmt == "text":
        _emit_warnings(report.warnings)
    out = check_mod.render(report, fmt)
    if pre_receive and os.environ.get("GL_ID"):
        out = "\n".join(f"GL-HOOK-ERR: {line}" for line in out.splitlines())
    click.echo(out, err=pre_receive or pre_push)
    code = 0 if report.ok else 1
    if range_ or pre_push or pre_receive:
        exit_now(code)
    sys.exit(code)


@main.command(context_settings={"ignore_unknown_options": True})
@click.argument("name")
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def hook(name: str, args: tuple[str, ...]) -> None:
    """Run gitmem's part of a git hook (called by the scripts in hooks/)."""
    from gitmem.hooks import dispatch as hooks

    if name not in hooks.HOOK_NAMES:
        _fail(f"gitmem: unknown hook {name!r}: one of {', '.join(hooks.HOOK_NAMES)}", USAGE)
    judging = name in ("pre-push", "pre-receive")
    if judging:
        _keep_judges_until_exit()
    code, out = hooks.run(name, list(args), sys.stdin)
    if out:
        click.echo(out, err=True)
    if judging:
        exit_now(code)
    sys.exit(code)


# ---------------------------------------------------------------------------------------------
# init, hooks


@main.command()
@click.option("--dir", "memory_dir", help="Memory folder (default .gitmem).")
@click.option("--project", help="Project part of ids (default: the origin remote's name).")
@click.option("--branch", help="Branch where admitted memory lives (default main).")
@click.option("--hooks", "with_hooks", is_flag=True, help="Also install gitmem's git hooks.")
@click.option("--github", "with_github", is_flag=True, help="Also install the GitHub workflows.")
@click.option("--force", is_flag=True, help="With --github: replace workflows edited by hand.")
def init(
    memory_dir: str | None,
    project: str | None,
    branch: str | None,
    with_hooks: bool,
    with_github: bool,
    force: bool,
) -> None:
    """Create the memory folder (refused.md, INDEX.md, .gitignore) and, where a setting
    differs from its default, .gitmem.toml. Safe to run twice."""
    from gitmem.lifecycle.bootstrap import init as do_init
    from gitmem.repo.store import Store

    store = Store.open(None)
    done = do_init(store, memory_dir=memory_dir, project=project, branch=branch)
    for path in done.created:
        click.echo(f"created {path}")
    for path in done.kept:
        click.echo(f"kept {path} (already there)")
    if with_hooks:
        from gitmem.hooks import installer

        assert store.workdir is not None
        for line in installer.install(store.workdir):
            click.echo(line)
    if with_github:
        from gitmem.hooks import github

        assert store.workdir is not None
        for line in github.install_workflows(store.workdir, force=force):
            click.echo(line)
    if done.created:
        click.echo("commit them: git add " + " ".join(done.created) + " && git commit")


@main.group()
def hooks() -> None:
    """Install or remove gitmem's git hooks."""


@hooks.command("install")
@click.option("--server", is_flag=True, help="Install the pre-receive hook (a bare server repo).")
def hooks_install(server: bool) -> None:
    """Install the hooks (chaining any existing hook; safe to run twice)."""
    from pathlib import Path

    from gitmem.hooks import installer

    for line in installer.install(Path.cwd(), server=server):
        click.echo(line)


@hooks.command("uninstall")
@click.option("--server", is_flag=True, help="Remove the pre-receive hook.")
def hooks_uninstall(server: bool) -> None:
    """Remove gitmem's hooks and restore the ones they chained."""
    from pathlib import Path

    from gitmem.hooks import installer

    for line in installer.uninstall(Path.cwd(), server=server):
        click.echo(line)


# ---------------------------------------------------------------------------------------------
# propose


_TEMPLATE = """---
type: method
title:
applies_when:
tags: []
files: []
---

## Context
Why this came up.

## Content
The lesson itself.

## Evidence
Commits, measurements, links that back it.
"""


def _fields_from_text(text: str) -> dict[str, Any]:
    from gitmem.model.entry import EntryError, parse

    try:
        entry = parse(text)
    except EntryError as exc:
        raise GitmemError(f"{exc.rule} line {exc.line or '?'}: {exc.message}") from None
    fields = dict(entry.meta)
    fields.update(context=entry.context, content=entry.content, evidence=entry.evidence)
    return fields


@main.command()
@click.option("--type", "type_", help="decision, method, code-structure, mistake (or extra).")
@click.option("--title", help="One line: the lesson's name.")
@click.option("--applies-when", help="The situation in which the lesson applies.")
@click.option("--context", help="Why this came up (## Context).")
@click.option("--content", help="The lesson itself (## Content).")
@click.option("--evidence", help="Commits, measurements, links (## Evidence).")
@click.option("--tag", "tags", multiple=True, help="A tag (repeatable).")
@click.option("--file", "files", multiple=True, help="A repository path it is about (repeatable).")
@click.option("--supersedes", multiple=True, help="Id of an entry this one replaces (repeatable).")
@click.option("--source", help="human:NAME (default: you), audit:FILE, verdict:STOP, import:PATH.")
@click.option("--rationale", help="decision: why.")
@click.option("--correction", help="mistake: what to do instead.")
@click.option("--detection-signal", help="mistake: how to notice it.")
@click.option("--evidence-batch", "evidence_batches", multiple=True, help="audit batches.")
@click.option("--from", "from_file", type=click.Path(dir_okay=False), help="Read an entry file.")
@click.option("--edit", "edit_id", metavar="OLD", help="Start a successor of an admitted entry.")
@click.option("--push", is_flag=True, help="Push the candidate branch to origin.")
@click.option(
    "--pr",
    is_flag=True,
    help="Push the branch and open a pull/merge request (gh, GitLab push options), "
    "or print the URL that opens one.",
)
@TEXT_OR_JSON
def propose(
    type_: str | None,
    title: str | None,
    applies_when: str | None,
    context: str | None,
    content: str | None,
    evidence: str | None,
    tags: tuple[str, ...],
    files: tuple[str, ...],
    supersedes: tuple[str, ...],
    source: str | None,
    rationale: str | None,
    correction: str | None,
    detection_signal: str | None,
    evidence_batches: tuple[str, ...],
    from_file: str | None,
    edit_id: str | None,
    push: bool,
    pr: bool,
    fmt: str,
) -> None:
    """Propose a memory: validate it, then commit it on a new branch gitmem/<id> from the main
    branch, without touching your working tree, staging index or HEAD.

    Fields come from the options, from --from FILE, or (with neither) from $EDITOR.
    """
    import json

    from gitmem.lifecycle import flow as lifecycle
    from gitmem.repo.workspace import open_workspace

    ws = open_workspace()
    _emit_warnings(list(ws.settings.warnings))
    fields: dict[str, Any] = {}
    if edit_id:
        from gitmem.lifecycle import read as memory

        _, old = memory.show(ws, edit_id)
        if old.status != "admitted":
            raise UsageError(f"{edit_id} is {old.status}: only an admitted entry is superseded")
        start = old.with_meta(
            id=None,
            status=None,
            admitted_by=None,
            admitted=None,
            created=None,
            source=None,
            supersedes=[edit_id],
        )
        edited = click.edit(start.render(), extension=".md") if _interactive() else None
        fields = _fields_from_text(edited or start.render())
    elif from_file:
        try:
            with open(from_file, encoding="utf-8", errors="strict") as handle:
                fields = _fields_from_text(handle.read(256 * 1024))
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"cannot read {from_file}: {exc}") from None
    elif title is None and type_ is None and _interactive():
        edited = click.edit(_TEMPLATE, extension=".md")
        if not edited or edited == _TEMPLATE:
            raise UsageError("nothing proposed: the editor closed without changes")
        fields = _fields_from_text(edited)
    given = {
        "type": type_,
        "title": title,
        "applies_when": applies_when,
        "context": context,
        "content": content,
        "evidence": evidence,
        "tags": list(tags) or None,
        "files": list(files) or None,
        "supersedes": list(supersedes) or None,
        "source": source,
        "rationale": rationale,
        "correction": correction,
        "detection_signal": detection_signal,
        "evidence_batches": list(evidence_batches) or None,
    }
    fields.update({k: v for k, v in given.items() if v is not None})
    for key in ("id", "status", "created"):
        fields.pop(key, None)
    missing = [k for k in ("type", "title", "applies_when", "content") if not fields.get(k)]
    if missing:
        flags = ", ".join("--" + m.replace("_", "-") for m in missing)
        raise UsageError(
            f"missing {flags}: a candidate needs a type, a title, when it applies and its content"
        )
    # with --pr the forge module pushes, so GitLab's push options ride on that push
    proposal = lifecycle.propose(ws, fields, push=push and not pr)
    request: dict[str, Any] | None = None
    if pr:
        from gitmem.lifecycle import pulls as forge

        done = forge.open_pull_request(ws, proposal)
        proposal.pushed = proposal.pushed or done.pushed
        _emit_warnings(list(done.warnings))
        request = {"url": done.url, "opened": done.opened, "message": done.message}
    if fmt == "json":
        out: dict[str, Any] = {
            "id": proposal.id,
            "branch": proposal.branch,
            "commit": proposal.commit,
            "pushed": proposal.pushed,
        }
        if request is not None:
            out["pull_request"] = {"url": request["url"], "opened": request["opened"]}
        click.echo(json.dumps(out))
    else:
        for warning in proposal.warnings:
            click.echo(str(warning), err=True)
        click.echo(f"proposed {proposal.id}")
        click.echo(f"branch   {proposal.branch}" + (" (pushed)" if proposal.pushed else ""))
        if request is not None:
            click.echo(request["message"])


def _interactive() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


# ---------------------------------------------------------------------------------------------
# candidates, list, show


@main.command()
@TEXT_OR_JSON
def candidates(fmt: str) -> None:
    """Pending candidates (local and remote-tracking gitmem/<id> branches) and their state."""
    import json

    from gitmem.lifecycle import flow as lifecycle
    from gitmem.repo.workspace import open_workspace

    rows: list[dict[str, Any]] = [
        {
            "id": item.candidate.id,
            "ref": item.candidate.ref,
            "tip": item.candidate.tip,
            "title": item.title,
            "valid": not item.errors,
            "problems": [str(p) for p in item.errors],
        }
        for item in lifecycle.review(open_workspace())
    ]
    if fmt == "json":
        click.echo(json.dumps(rows, indent=2))
        return
    if not rows:
        click.echo("no pending candidates")
    for row in rows:
        state = "valid" if row["valid"] else f"{len(row['problems'])} problem(s)"
        click.echo(f"{row['id']}  {state}  {row['title']}  ({row['ref']})")
        for problem in row["problems"]:
            click.echo(f"    {problem}")


@main.command("list")
@click.option("--status", type=click.Choice(["admitted", "superseded"]))
@click.option("--type", "types", multiple=True, help="Only this type (repeatable).")
@TEXT_OR_JSON
def list_(status: str | None, types: tuple[str, ...], fmt: str) -> None:
    """Entries on the main branch, by type, with their status."""
    import json
    from dataclasses import asdict

    from gitmem.lifecycle import read as memory
    from gitmem.repo.workspace import open_workspace

    rows = memory.list_entries(open_workspace(), status=status, types=types)
    if fmt == "json":
        click.echo(json.dumps([asdict(r) for r in rows], indent=2))
        return
    if not rows:
        click.echo("no entries")
    for row in rows:
        click.echo(f"{row.type:<15} {row.status:<11} {row.id}  {row.title}")


@main.command()
@click.argument("entry_id", metavar="ID")
@click.option("--lineage", is_flag=True, help="Show the supersession chain through it.")
def show(entry_id: str, lineage: bool) -> None:
    """Print an entry (or a pending candidate)."""
    from gitmem.lifecycle import read as memory
    from gitmem.repo.workspace import open_workspace

    ws = open_workspace()
    if lineage:
        for item in memory.lineage(ws, entry_id):
            marker = "*" if item.id == entry_id else " "
            click.echo(f"{marker} {item.id}  {item.status}  {item.title}")
        return
    where, entry = memory.show(ws, entry_id)
    click.echo(f"# {where}")
    click.echo(entry.render(), nl=False)


# ---------------------------------------------------------------------------------------------
# admit, refuse, index


@main.command()
@click.argument("ids", nargs=-1, metavar="ID...")
@click.option("--by", help="human:NAME (default: you) or audit:FILE.")
@click.option("--expect", metavar="OID", help="Admit only if the candidate branch is at OID.")
@click.option("--push", is_flag=True, help="Push main and delete the remote candidate branch.")
@click.option("--auto", "auto", is_flag=True, help="Admit audit-backed candidates when allowed.")
def admit(ids: tuple[str, ...], by: str | None, expect: str | None, push: bool, auto: bool) -> None:
    """Admit candidates: one merge commit on main each, INDEX.md regenerated in it.

    With no ID in a terminal, walks the pending candidates one by one and asks.
    """
    from gitmem.lifecycle import flow as lifecycle
    from gitmem.repo.workspace import open_workspace

    ws = open_workspace()
    if expect and len(ids) != 1:
        raise click.UsageError("--expect goes with exactly one ID")
    if auto:
        _admit_auto(ws, push)
        return
    if not ids:
        if not _interactive():
            click.echo(
                "no ID given and no terminal to ask in: admitted nothing (run `gitmem admit ID`)",
                err=True,
            )
            sys.exit(USAGE)
        _admit_interactive(ws, by, push)
        return
    for entry_id in ids:
        done = lifecycle.admit(ws, entry_id, by=by, expect=expect, push=push)
        _print_admission(done)


def _print_admission(done: Any) -> None:
    click.echo(f"admitted {done.id} ({done.commit[:12]})")
    for old in done.superseded:
        click.echo(f"superseded {old}")
    if done.pushed:
        click.echo("pushed")


def _admit_auto(ws: Any, push: bool) -> None:
    from gitmem.lifecycle import flow as lifecycle
    from gitmem.model.entry import EntryError, parse

    if not ws.settings.auto_admit_audited:
        click.echo(
            "memory.autoAdmitAudited is not on in both the project and your own "
            "settings: admitted nothing",
            err=True,
        )
        return
    for candidate in lifecycle.pending(ws):
        try:
            entry = parse(candidate.data or b"")
        except EntryError:
            click.echo(f"skipped {candidate.id}: does not parse")
            continue
        if not entry.source.startswith("audit:"):
            click.echo(f"skipped {candidate.id}: source {entry.source} needs a person")
            continue
        try:
            done = lifecycle.admit(ws, candidate.id, by=entry.source, push=push)
        except GitmemError as exc:
            click.echo(f"skipped {candidate.id}: {exc.message}")
            continue
        _print_admission(done)


def _admit_interactive(ws: Any, by: str | None, push: bool) -> None:
    from gitmem.lifecycle import flow as lifecycle

    pending = lifecycle.pending(ws)
    if not pending:
        click.echo("no pending candidates")
        return
    for candidate in pending:
        click.echo(f"\n=== {candidate.id}  ({candidate.ref} at {candidate.tip[:12]})")
        click.echo((candidate.data or b"").decode("utf-8", "replace"))
        problems = lifecycle.candidate_problems(ws, candidate)
        for problem in problems:
            click.echo(f"  {problem}")
        if not [p for p in problems if not p.warning]:
            click.echo("  checks: all rules pass")
        answer = click.prompt("admit / refuse / skip", default="skip", show_default=True)
        if answer.strip().lower() in ("admit", "a", "yes", "y"):
            done = lifecycle.admit(ws, candidate.id, by=by, expect=candidate.tip, push=push)
            _print_admission(done)
        elif answer.strip().lower() in ("refuse", "r"):
            reason = click.prompt("reason")
            lifecycle.refuse(ws, candidate.id, reason=reason, by=by, push=push)
            click.echo(f"refused {candidate.id}")
        else:
            click.echo(f"skipped {candidate.id}")


@main.command()
@click.argument("entry_id", metavar="ID")
@click.option("--reason", required=True, help="Why: shown to later proposals of this topic.")
@click.option("--by", help="human:NAME (default: you).")
@click.option("--push", is_flag=True, help="Push main and delete the remote candidate branch.")
def refuse(entry_id: str, reason: str, by: str | None, push: bool) -> None:
    """Refuse a candidate: its topic joins refused.md on main; its branch is deleted."""
    from gitmem.lifecycle import flow as lifecycle
    from gitmem.repo.workspace import open_workspace

    done = lifecycle.refuse(open_workspace(), entry_id, reason=reason, by=by, push=push)
    click.echo(f"refused {done.id} (topic {done.topic}, {done.commit[:12]})")


@main.command()
@click.option("--check", "check_only", is_flag=True, help="Exit 1 when INDEX.md is stale.")
@click.option(
    "--merge-driver",
    nargs=4,
    metavar="BASE OURS THEIRS PATH",
    help="Run as git's merge driver for INDEX.md (set up by `gitmem hooks install`).",
)
def index(check_only: bool, merge_driver: tuple[str, str, str, str] | None) -> None:
    """Regenerate INDEX.md and CANDIDATES.md in the working tree."""
    from gitmem.lifecycle import refresh
    from gitmem.repo.workspace import open_workspace

    if merge_driver:
        from pathlib import Path

        from gitmem.index import indexmd as index_mod
        from gitmem.repo.store import atomic_write

        _base, ours, theirs, _path = merge_driver
        merged = index_mod.merge(
            Path(ours).read_text(encoding="utf-8", errors="replace"),
            Path(theirs).read_text(encoding="utf-8", errors="replace"),
        )
        if merged is None:
            sys.exit(1)  # git leaves the conflict for a person; `gitmem index` resolves it
        atomic_write(Path(ours), merged.encode("utf-8"))
        return

    done = refresh.refresh(open_workspace(), check_only=check_only)
    if check_only:
        for path in done.stale:
            click.echo(f"{path}: INDEX stale: run `gitmem index` and commit it")
        sys.exit(1 if done.stale else 0)
    for path in done.written:
        click.echo(f"wrote {path}")
    if not done.written:
        click.echo("indexes up to date")
