"""`gitmem github check` and `gitmem github protect`: the check and protect workflows' steps.

The check runs on `pull_request_target`, so its definition and the gitmem it installs come from
the default branch, which is checked out; the pull request's commits are fetched as data
(`refs/pull/N/head`) and judged, never run. A `gitmem/<id>` pull request is judged as its
candidate branch (and must target the memory branch); any other is judged as the merge GitHub
would make of it into its base, built here with `git merge-tree`. Either way every commit of the
range is judged by `gitmem check --range BASE..HEAD`, which reads its policy (memory branch and
folder) from BASE, the trusted side.

The protect workflow runs on every push to the memory branch and judges BEFORE..AFTER the same
way; a branch created by the push has its files judged.

Both write a job summary in which every value that came from the pull request or the pushed
commits is written as code (gitmem.model.markdown), so no link, image, mention or HTML from a
candidate renders; both print `gitmem check`'s annotations for the changed lines. The check's
summary shows a candidate as `gitmem review` does (gitmem.curate.review), and its findings are
also given as SARIF, which the workflow uploads to code scanning.

In warn mode (`gitmem init --github --warn` writes `--warn` into the two steps; on
pull_request_target the step is the default branch's, so a pull request cannot switch it),
both judge exactly the same and report the same annotations, SARIF and summary, under the warn
banner, but fail only on a secret or a text too large to scan (gitmem.gate.check.ALWAYS_REFUSED) or
when they cannot judge
at all (the pull request cannot be fetched or merged).
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any

from gitmem.gate.check import WARN_BANNER, Report, render, report_from_json
from gitmem.hooks.github_api import GIT_AUTH
from gitmem.model.entry import EntryError, parse
from gitmem.model.markdown import block, cell, code
from gitmem.model.names import BRANCH_PREFIX
from gitmem.model.terminal import visible
from gitmem.repo.store import ZERO
from gitmem.repo.workspace import Workspace
from gitmem.settings.policy import WARN

#: The most characters of findings the job summary's table holds: GitHub drops a step's
#: summary whole beyond 1 MiB, and a candidate can break a rule thousands of times.
TABLE_MAX = 200_000


@dataclass
class Verdict:
    """What a check or protect step found: its exit code, the annotations to print (gitmem
    check's `--format github` lines) and the job summary (Markdown)."""

    exit_code: int
    annotations: str
    summary: str
    range: str = ""
    notes: list[str] = field(default_factory=list)
    sarif: str = ""  # the same findings as SARIF 2.1.0, for code scanning ('' when not judged)


def installed_gitmem(
    ws: Workspace, *args: str, timeout: int = 900
) -> subprocess.CompletedProcess[str]:
    """The installed gitmem run in the workspace's checkout, as the workflows' steps run it:
    -P keeps the checkout off the module path, so a gitmem.py there never stands in for it
    (with the job's token in its environment)."""
    return subprocess.run(
        [sys.executable, "-P", "-m", "gitmem", *args],
        cwd=ws.store.workdir or ws.store.git_dir,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def _dig(data: Any, *keys: str) -> Any:
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    return data


# ---------------------------------------------------------------------------------------------
# pull requests


def check_pull_request(
    ws: Workspace, event: dict[str, Any], *, remote: str = "origin", warn: bool = False
) -> Verdict:
    """Judge the pull request of a pull_request_target event (in warn mode: see the module
    docstring)."""
    store = ws.store
    pr = event.get("pull_request") or {}
    number = _dig(pr, "number")
    base = str(_dig(pr, "base", "ref") or "")
    head_ref = str(_dig(pr, "head", "ref") or "")
    head_sha = str(_dig(pr, "head", "sha") or "")
    if not isinstance(number, int) or not base or len(head_sha) != 40:
        return _fail("the event names no pull request: this step runs on pull_request_target")
    fetched = store.run_git(
        *GIT_AUTH, "fetch", "--quiet", "--no-tags", remote,
        f"+refs/heads/{base}:refs/remotes/{remote}/{base}",
        f"+refs/pull/{number}/head:refs/gitmem-check/head",
        check=False,
    )  # fmt: skip
    if fetched.returncode != 0 or not store.has_object(head_sha):
        return _fail(f"could not fetch pull request #{number}: {fetched.stderr.strip()[:300]}")
    base_tip = store.ref_target(f"refs/remotes/{remote}/{base}")
    if base_tip is None:
        return _fail(f"the base branch {base!r} is not on the remote")
    candidate = head_ref.startswith(BRANCH_PREFIX)
    notes: list[str] = []
    # the base branch as the server trusts it: its committed settings judge
    store.run_git("checkout", "--quiet", "--detach")
    store.run_git("update-ref", f"refs/heads/{base}", base_tip)
    if candidate:
        if base != ws.branch:
            return _fail(
                f"a candidate's pull request must target the memory branch {ws.branch!r}, not "
                f"{base!r}: change its base"
            )
        # judged as its own branch: it may change only its own candidate file
        store.run_git("update-ref", f"refs/remotes/{remote}/{head_ref}", head_sha)
        # full names throughout: a tag `origin/<branch>` comes before the remote-tracking
        # branch in git's reading of a short name (actions/checkout fetches every tag)
        span = f"refs/remotes/{remote}/{base}..refs/remotes/{remote}/{head_ref}"
    else:
        merged = store.run_git(
            "merge-tree", "--write-tree", "--no-messages", base_tip, head_sha, check=False
        )
        tree = merged.stdout.split("\n", 1)[0].strip()
        if merged.returncode != 0 or len(tree) != 40:
            return _fail(f"the pull request conflicts with {base}: merge or rebase it first")
        # written by gitmem, not `git commit-tree`: a runner has no git identity, and git
        # refuses to write a commit without one (Store.signature falls back to gitmem's);
        # never signed: it is judged and kept nowhere, and where commit.gpgSign is set (the
        # check run by hand, a self-hosted runner) signing it only asked for a key or its
        # passphrase, and a key that could not sign failed the check of every code change
        merge = store.write_commit(
            tree, [base_tip, head_sha], "gitmem check: test merge\n", sign=False
        )
        # judged as what merging it would make of the base branch
        store.run_git("update-ref", f"refs/remotes/{remote}/{base}", merge)
        span = f"{base_tip}..refs/remotes/{remote}/{base}"
        notes.append(f"judged as the merge of {head_sha[:12]} into {base}")
    return _judge(ws, span, head_ref if candidate else None, head_sha, notes, warn)


def _judge(
    ws: Workspace,
    span: str,
    candidate_ref: str | None,
    head_sha: str,
    notes: list[str],
    warn: bool = False,
) -> Verdict:
    report, error = _judged_once(ws, ("--range", span), warn)
    lines = [_check_table(report)]
    if candidate_ref is not None:
        lines.append(_candidate_section(ws, candidate_ref, head_sha))
    if report is None:
        text = "::error title=gitmem check::" + _data(error)
        return Verdict(1, text, "\n\n".join(lines) + "\n", span, notes)
    # the annotations, the table and the SARIF (as `gitmem check --format sarif` wrote it, a
    # line of its own) are renderings of the one report
    text, sarif = render(report, "github"), render(report, "sarif") + "\n"
    code_ = 0 if report.ok else 1
    return Verdict(code_, text, "\n\n".join(lines) + "\n", span, notes, sarif)


def _judged_once(ws: Workspace, what: tuple[str, ...], warn: bool) -> tuple[Report | None, str]:
    """`gitmem check` over what (a range, or () for the files), run once by the installed
    gitmem as JSON and read back: (its report, ""), or (None, what it said) when it could not
    judge. A step renders every form it shows from this one report; each form had judged
    the same commits again."""
    mode = ("--warn",) if warn else ()
    judged = installed_gitmem(ws, "check", *what, "--format", "json", *mode)
    report = report_from_json(judged.stdout) if judged.returncode in (0, 1) else None
    if report is not None:
        return report, ""
    return None, judged.stderr.strip()[:2000] or f"gitmem check exited {judged.returncode}"


def _check_table(report: Report | None) -> str:
    if report is None:
        return "### gitmem check: could not run"
    errors = report.errors
    warn = report.mode == WARN
    mark = "passed" if report.ok and not errors else f"{len(errors)} problem(s)"
    out = [f"### gitmem check: {mark}{' (WARN mode)' if warn else ''}", ""]
    if warn:
        out += [_warn_banner(bool(errors), report.ok, "pull request"), ""]
    out.append(f"{report.checked} commit(s) checked.")
    if report.problems:
        out += ["", "| file | line | rule | message |", "| --- | --- | --- | --- |"]
        used = 0
        for listed, p in enumerate(report.problems):
            shown = str(p.line) if p.line is not None else ""
            row = f"| {cell(p.path)} | {shown} | {cell(p.rule)} | {cell(p.message)} |"
            used += len(row) + 1
            if used > TABLE_MAX:
                out += [
                    "",
                    f"… and {len(report.problems) - listed} more finding(s), left out to keep this "
                    "summary within what GitHub keeps: the step's log lists every one.",
                ]
                break
            out.append(row)
    return "\n".join(out)


def _candidate_section(ws: Workspace, head_ref: str, head_sha: str) -> str:
    entry_id = head_ref[len(BRANCH_PREFIX) :]
    out = [f"### Candidate {code(entry_id)}", ""]
    data = ws.store.read_path(ws.store.tree_of(head_sha), f"{ws.dir}/candidates/{entry_id}.md")
    try:
        entry = parse(data) if data is not None else None
    except EntryError:
        entry = None
    if entry is None:
        out.append("The candidate's file could not be read: see the check above.")
        return "\n".join(out)
    out += [f"**Title:** {code(entry.title)}", "", f"**Applies when:** {code(entry.applies_when)}"]
    # what a reviewer needs: gitmem review (near-duplicates, refused topics, supersedes, the
    # entry as it will read); it writes every value from the candidate as code
    review = installed_gitmem(ws, "review", entry_id, "--format", "markdown")
    if review.returncode in (0, 1) and review.stdout.startswith("### gitmem review:"):
        out += ["", review.stdout.rstrip("\n").replace("### gitmem review:", "#### Review of", 1)]
    else:
        out += ["", "The review could not run: see the check above."]
    out += [
        "",
        "Reviewers: read the **Commits** tab too. Only the reviewed file is admitted, and a "
        "branch of several commits is admitted as one re-created commit, but every commit is "
        "judged and any finding in any of them refuses the admission.",
    ]
    return "\n".join(out)


def _warn_banner(found: bool, passed: bool, what: str) -> str:
    """The warn mode banner of a job summary, as loud as Markdown makes it."""
    if not found:
        return "> **gitmem is in WARN mode**: nothing here would be rejected in enforce mode."
    then = (
        f"This {what} passes in warn mode; in enforce mode the problems below would fail it. "
        "Fix them, then switch to enforce (`gitmem init --github` without `--warn`)."
        if passed
        else "But a secret fails it in every mode: a leaked secret cannot be taken back."
    )
    return f"> [!WARNING]\n> **{WARN_BANNER}.**\n> {then}"


def _heading(message: str) -> str:
    return f"### gitmem check: refused\n\n{block(message)}\n"


def _fail(message: str) -> Verdict:
    return Verdict(1, f"::error title=gitmem check::{_data(message)}", _heading(message))


def _data(text: str) -> str:
    """A workflow command's message: % CR LF escaped, so it stays one command."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


# ---------------------------------------------------------------------------------------------
# pushes to the memory branch


def check_push(
    ws: Workspace,
    before: str,
    after: str,
    branch: str,
    *,
    remote: str = "origin",
    warn: bool = False,
) -> Verdict:
    """Judge a push to the memory branch: BEFORE..AFTER, or the files when it was created (in
    warn mode: see the module docstring)."""
    store = ws.store
    store.run_git("checkout", "--quiet", "--detach")
    if before == ZERO:
        return _protect(ws, branch, (), warn, "")
    if not store.has_object(before):
        # a force push: the old tip is no longer on any branch, but GitHub still has it
        store.run_git(*GIT_AUTH, "fetch", "--quiet", "--no-tags", remote, before, check=False)
    if not store.has_object(before):
        message = f"the previous tip {before} of {branch} is gone: history was rewritten"
        return Verdict(
            1, f"::error title=gitmem protect::{_data(message)}", _explain(branch, message)
        )
    # the branch as it was before the push (its committed settings judge), the push as origin's
    store.run_git("update-ref", f"refs/heads/{branch}", before)
    store.run_git("update-ref", f"refs/remotes/{remote}/{branch}", after)
    span = f"{before}..refs/remotes/{remote}/{branch}"
    return _protect(ws, branch, ("--range", span), warn, span)


def _protect(ws: Workspace, branch: str, what: tuple[str, ...], warn: bool, span: str) -> Verdict:
    """gitmem check over what (a range, or () for the files) with annotations, and the
    summary that says what to revert when it found a problem, in either mode: the
    annotations and check's text are renderings of one judgment (_judged_once)."""
    report, error = _judged_once(ws, what, warn)
    if report is None:
        return Verdict(
            1, f"::error title=gitmem protect::{_data(error)}", _explain(branch, error), span
        )
    annotations = render(report, "github")
    if not report.errors:  # in warn mode an error does not fail the step, but is still told
        return Verdict(0, annotations, "", span)
    text = visible(render(report, "text"))
    summary = _explain(branch, text, warn=warn, failed=not report.ok)
    return Verdict(0 if report.ok else 1, annotations, summary, span)


def _explain(branch: str, found: str, *, warn: bool = False, failed: bool = True) -> str:
    banner = f"{_warn_banner(True, not failed, 'push')}\n\n" if warn else ""
    return (
        f"### gitmem protect: this push to {code(branch)} breaks gitmem's rules"
        f"{' (WARN mode)' if warn else ''}\n\n{banner}"
        f"Memory enters {code(branch)} only through `gitmem admit` (an approved pull request "
        "from a gitmem/<id> branch). Revert the commits named below, then propose the change "
        "with `gitmem propose`.\n\n"
        f"{block(found)}\n"
    )
