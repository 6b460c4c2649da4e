"""`gitmem check` and `gitmem hook NAME`: the gates, as a person, CI or a git hook calls them."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

import click

from gitmem.cli.options import REPORT_FORMAT, command_workspace, emit_warnings
from gitmem.errors import UsageError
from gitmem.model.names import HOOK_NAMES
from gitmem.model.terminal import visible


@click.command()
@click.argument("paths", nargs=-1)
@click.option("--staged", is_flag=True, help="Check what git is committing (pre-commit).")
@click.option(
    "--range", "range_", metavar="A..B", help="Check every commit in A..B (history rules)."
)
@click.option("--pre-push", is_flag=True, help="Read a pre-push hook's stdin and check.")
@click.option("--pre-receive", is_flag=True, help="Read a pre-receive hook's stdin and check.")
@click.option(
    "--pre-commit-framework",
    "framework",
    is_flag=True,
    help="The pre-commit framework's hook: at its pre-push stage the history rules over the "
    "pushed ref it names (PRE_COMMIT_FROM_REF/TO_REF), else what git is committing.",
)
@click.option(
    "--warn",
    is_flag=True,
    help="Warn mode: report every finding under a banner, and exit 1 only for a secret or a "
    "text too large to scan (the workflows of `gitmem init --github --warn`); a server's mode "
    "is its git config.",
)
@REPORT_FORMAT
def check(
    paths: tuple[str, ...],
    staged: bool,
    range_: str | None,
    pre_push: bool,
    pre_receive: bool,
    framework: bool,
    warn: bool,
    fmt: str,
) -> int:
    """Validate memory files against the schema, the source rules and the secret scanner.

    With PATHs (files or folders), checks them in the working tree; with no option and no
    PATH, the whole memory folder. Prints `path:line: RULE-ID message` per problem (at most
    20 of one file: --format json lists them all) and a summary; exits 1 when a rule fails.

    --range A..B (CI) and --pre-push judge history with the policy (memory branch and
    folder, admitters, types, reviewed exceptions) committed at the trusted base: A, or the
    remote's tip of the memory branch; never with settings from the commits being judged.
    --pre-receive (the server's hook) takes it from the server's git config (gitmem.*),
    which `gitmem hooks install --server` writes, and its mode too (gitmem.enforcement).

    --warn judges exactly as without it, prints the findings under a banner, and fails only on
    a secret or a text too large to scan: for a team adopting gitmem on a repository with
    history.
    """
    from gitmem.gate import check as check_mod

    # An empty --range or PATH (a CI variable that was never set) names nothing: taken for no
    # option, it judged the working tree instead of the commits and passed without a word.
    if range_ is not None and not range_.strip():
        raise click.UsageError(f"--range {range_!r} names no commits: write A..B (two revisions)")
    if any(not path for path in paths):
        raise click.UsageError(
            "an empty PATH names no file: name a file or folder, or none for the memory folder"
        )
    modes = sum(bool(x) for x in (staged, range_, pre_push, pre_receive, framework))
    if modes > 1 or (modes and paths):
        raise click.UsageError(
            "use one of PATH…, --staged, --range, --pre-push, --pre-receive, --pre-commit-framework"
        )
    if warn and pre_receive:
        raise click.UsageError(
            "--pre-receive takes its mode from the server's git config, never from a flag: "
            "`gitmem hooks install --server --warn` sets it"
        )
    if framework:
        from gitmem.gate import history
        from gitmem.repo.gitcli import pinned_repository

        if pushed_by_pre_commit(os.environ):
            report = history.check_pushed_by_pre_commit(os.environ)
        elif os.environ.get("PRE_COMMIT_FROM_REF") and os.environ.get("PRE_COMMIT_TO_REF"):
            # `pre-commit run --from-ref A --to-ref B`: every commit of the range
            spec = f"{os.environ['PRE_COMMIT_FROM_REF']}..{os.environ['PRE_COMMIT_TO_REF']}"
            report = history.check_range(spec, pinned=pinned_repository())
        else:
            report = check_mod.check_staged()
    elif staged:
        report = check_mod.check_staged()
    elif range_ or pre_push or pre_receive:
        from gitmem.gate import history
        from gitmem.repo.gitcli import pinned_repository

        if range_:
            report = history.check_range(range_, pinned=pinned_repository())
        elif pre_push:
            report = history.check_pre_push(sys.stdin.read())
        else:
            report = history.check_pre_receive(sys.stdin.read())
    else:
        report = check_mod.check_worktree(command_workspace(), list(paths))
    if warn:
        from gitmem.settings.policy import WARN

        report = report.in_mode(WARN)
    if fmt == "text":
        emit_warnings(report.warnings)
    out = check_mod.render(report, fmt)
    if fmt == "text":
        # a file name is the committer's text: an escape sequence or a lone carriage return in
        # it reached the terminal as is (recolouring it, or writing over the problem's line)
        out = visible(out)
    if pre_receive:
        out = check_mod.for_server(out)
    click.echo(out, err=pre_receive or pre_push)
    return 0 if report.ok else 1


def pushed_by_pre_commit(environ: Mapping[str, str]) -> bool:
    """Whether the pre-commit framework runs its pre-push stage (it names the pushed ref)."""
    return bool(environ.get("PRE_COMMIT_REMOTE_BRANCH"))


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("name")
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def hook(name: str, args: tuple[str, ...]) -> int:
    """Run gitmem's part of a git hook (called by the scripts in hooks/)."""
    from gitmem.hooks import dispatch

    if name not in HOOK_NAMES:
        raise UsageError(f"unknown hook {name!r}: one of {', '.join(HOOK_NAMES)}")
    code, out = dispatch.run(name, list(args), sys.stdin)
    if out:
        try:
            click.echo(visible(out), err=True)  # as check's text: file names shown, not acted on
        except OSError:
            # the reader went away (the pusher hung up): the verdict stands unprinted. Left to
            # exit_code, a broken pipe is the 0 of `gitmem list | head`, and a refusing
            # pre-receive would let the push in
            return code
    return code
