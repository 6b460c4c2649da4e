"""`gitmem github …`: the steps of the workflows `gitmem init --github` installs. Thin: read the
runner's environment (GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_REPOSITORY, GITHUB_API_URL),
call one core function (gitmem.hooks.github_admit, gitmem.hooks.github_check), print its lines
and write the job summary and step outputs. main.py loads this module only when one of these
commands runs.

Text that is not gitmem's own is printed with workflow commands stopped (`::stop-commands::`),
so a file name or message cannot issue one; annotations are escaped.
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path
from typing import Any

import click

from gitmem.errors import UsageError

WARN_HELP = (
    "Warn mode (gitmem init --github --warn): report the same findings under the warn banner, "
    "fail only on a secret or a text too large to scan."
)


@click.group("github")
def github() -> None:
    """The steps of gitmem's GitHub workflows (they run inside GitHub Actions)."""


def _event() -> tuple[str, dict[str, Any]]:
    """The event's name and payload, only on a GitHub Actions runner (GITHUB_ACTIONS=true).

    Each step rewrites the checkout it runs in as the workflow's throwaway checkout: it
    detaches HEAD, points the memory branch at the push's old tip and sets origin's HEAD. Run
    by hand in a developer's clone with an event file at hand, `gitmem github protect`
    moved the local main branch back and left HEAD detached; it is refused there now."""
    if os.environ.get("GITHUB_ACTIONS") != "true":
        raise UsageError(
            "gitmem github steps run only in a GitHub Actions workflow (GITHUB_ACTIONS=true): "
            "they rewrite the checkout they run in (HEAD detached, the memory branch moved). "
            "To judge your own clone run `gitmem check` (or `gitmem check --range A..B`)"
        )
    name = os.environ.get("GITHUB_EVENT_NAME", "")
    path = os.environ.get("GITHUB_EVENT_PATH", "")
    unset = [
        var
        for var, value in (("GITHUB_EVENT_NAME", name), ("GITHUB_EVENT_PATH", path))
        if not value
    ]
    if unset:
        # named one by one: "both are not set" sent a person to check the one that was fine
        raise UsageError(
            f"{' and '.join(unset)} {'is' if len(unset) == 1 else 'are'} not set: GitHub "
            "Actions sets both for a workflow's steps; run the step in a workflow"
        )
    try:
        event = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot read the event file {path}: {exc}") from None
    if not isinstance(event, dict):
        raise UsageError(f"the event file {path} holds no object")
    return name, event


def _workspace(event: dict[str, Any]) -> Any:
    """The checkout's workspace, origin's HEAD set to the repository's default branch first
    (memory.branch defaults to it)."""
    from gitmem.repo.gitcli import pinned_repository, run_in
    from gitmem.repo.workspace import open_workspace

    # an event whose `repository` is not an object (a hand-made or truncated event file) was
    # an unexpected error here, AttributeError on str.get; it names no default branch
    repository = event.get("repository")
    default = repository.get("default_branch") if isinstance(repository, dict) else None
    pinned = pinned_repository()
    if isinstance(default, str) and default:
        run_in(Path.cwd(), "remote", "set-head", "origin", default, pinned=pinned)
    return open_workspace(pinned=pinned)


def _quote(text: str) -> None:
    """Print text with workflow commands off, so nothing in it is taken for one."""
    if not text.strip():
        return
    token = secrets.token_hex(16)
    click.echo(f"::stop-commands::{token}")
    click.echo(text.rstrip("\n"))
    click.echo(f"::{token}::")


def _annotate(level: str, title: str, message: str) -> None:
    data = message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    click.echo(f"::{level} title={title}::{data}")


def _summary(text: str) -> None:
    path = os.environ.get("GITHUB_STEP_SUMMARY")
    if path and text:
        with open(path, "a", encoding="utf-8") as out:
            out.write(text if text.endswith("\n") else text + "\n")


def _output(name: str, value: str) -> None:
    path = os.environ.get("GITHUB_OUTPUT")
    if not path:
        return
    delimiter = f"gitmem-{secrets.token_hex(16)}"
    with open(path, "a", encoding="utf-8") as out:
        out.write(f"{name}<<{delimiter}\n{value}\n{delimiter}\n")


@github.command("admit")
@click.option(
    "--resolve",
    is_flag=True,
    help="Only name the candidate's pull request the event is about, in the step output "
    "`pull-request` (empty when there is none): the admit job's concurrency group, one for "
    "every trigger.",
)
@click.option(
    "--pull-request",
    "given",
    type=click.IntRange(min=1),
    metavar="N",
    help="The pull request to admit, as --resolve named it (default: the event's).",
)
def admit(resolve: bool, given: int | None) -> int:
    """Admit the candidate of the event's pull request when GitHub's records allow it.

    Reads the pull request, its reviews, label, pushes, commits, the rulesets and the checks
    from the API (token: GITHUB_TOKEN), judges every commit, admits exactly the reviewed file and
    pushes (token: GITMEM_GIT_TOKEN, through a credential helper). Writes the step outputs
    `status` (admitted, refused, skipped), `pull-request` and `comment`. Exits 1 when refused.
    """
    from gitmem.hooks import github_admit
    from gitmem.hooks.github_api import Api

    name, event = _event()
    api = Api.from_env()
    if resolve:
        found, why = github_admit.candidate_of(api, name, event)
        _output("pull-request", str(found or ""))
        click.echo(f"gitmem admit: {why}")
        return 0
    number = given or github_admit.pull_request_of(api, name, event)
    if number is None:
        click.echo(
            "gitmem admit: the event names no open gitmem/<id> pull request of this "
            "repository: nothing to do"
        )
        _output("status", "skipped")
        return 0
    ws = _workspace(event)
    outcome = github_admit.admit_pull_request(ws, api, number)
    _output("status", outcome.status)
    _output("pull-request", str(number))
    _output("comment", outcome.comment)
    if outcome.status == "refused":
        _annotate(
            "error",
            "gitmem admit",
            f"pull request #{number} was not admitted: see the comment on it and the job summary",
        )
    elif outcome.status == "skipped":
        _annotate("notice", "gitmem admit", outcome.message)
    else:
        click.echo(f"gitmem admit: {outcome.message}")
    _quote(outcome.comment)
    if outcome.left_out:  # the comment quotes only the first of them: the log has them all
        _quote("\n".join(outcome.details))
    _summary(outcome.comment or f"gitmem admit: {outcome.message}\n")
    return outcome.exit_code


@github.command("check")
@click.option(
    "--sarif",
    "sarif_path",
    metavar="FILE",
    help="Also write the findings as SARIF 2.1.0 to FILE (for code scanning) and set the step "
    "output `sarif` to its name.",
)
@click.option("--warn", is_flag=True, help=WARN_HELP)
def check(sarif_path: str | None, warn: bool) -> int:
    """Judge the event's pull request (pull_request_target): annotations and a job summary."""
    from gitmem.hooks import github_check

    _name, event = _event()
    ws = _workspace(event)
    verdict = github_check.check_pull_request(ws, event, warn=warn)
    _print(verdict)
    if sarif_path and verdict.sarif:
        try:
            Path(sarif_path).write_text(verdict.sarif, encoding="utf-8")
        except OSError as exc:
            raise UsageError(
                f"cannot write the SARIF file {sarif_path}: {exc.strerror or exc}: name a file "
                'in a folder that exists, e.g. --sarif "$RUNNER_TEMP/gitmem.sarif"'
            ) from None
        _output("sarif", Path(sarif_path).name)
    return verdict.exit_code


@github.command("protect")
@click.option("--before", required=True, help="The branch's tip before the push.")
@click.option("--after", required=True, help="The pushed tip.")
@click.option("--branch", required=True, help="The pushed branch.")
@click.option("--warn", is_flag=True, help=WARN_HELP)
def protect(before: str, after: str, branch: str, warn: bool) -> int:
    """Judge a push to the memory branch: every pushed commit, by the history rules."""
    from gitmem.hooks import github_check
    from gitmem.repo.refs import is_object_id

    # an id that is no commit id (a workflow edited by hand, a misspelt expression) was told
    # "the previous tip x of main is gone: history was rewritten", blaming the push
    for name, oid in (("--before", before), ("--after", after)):
        if not is_object_id(oid):
            raise UsageError(
                f"{name} {oid[:80]!r} is not a full commit id (40 or 64 hex digits): pass the "
                "push event's before and after"
            )
    _name, event = _event()
    ws = _workspace(event)
    verdict = github_check.check_push(ws, before, after, branch, warn=warn)
    _print(verdict)
    return verdict.exit_code


def _print(verdict: Any) -> None:
    for note in verdict.notes:
        _quote(f"gitmem: {note}")
    if verdict.annotations:
        click.echo(verdict.annotations)
    _summary(verdict.summary)
