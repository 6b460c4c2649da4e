"""`gitmem github admit`: the admit workflow's one step, deciding from GitHub's own records.

The job that holds the admission token runs the default branch's workflow (`workflow_run` after
the review relay or the check, `pull_request_target` for the label, `workflow_dispatch`), with
the default branch checked out. The event is only a nudge naming a pull request: everything that
decides is read back from the API when the job runs, and read again just before the push:

- the pull request is open, from a `gitmem/<id>` branch of this repository, and its base is the
  memory branch (`memory.branch` of the checked-out default branch);
- the commit admitted (`--expect`) is the pull request's head as the API reports it now, and the
  admission push carries a lease on the candidate branch at that commit;
- an approval that still stands on exactly that commit (the reviewer's latest approving,
  dismissing or change-requesting review), or the label `gitmem:admit` still on the pull request
  and added after the branch's last push, by a person with write access who is neither the pull
  request's opener, nor anyone who pushed to the branch (the repository's activity log), nor an
  author or committer of its commits, nor a bot, nor the candidate's own `human:` source;
- no standing request for changes;
- the rulesets on the memory branch: as many such approvals as `required_approving_review_count`,
  GitHub's own review decision `APPROVED` whenever it gives one (a ruleset's pull-request rule or
  classic branch protection requiring reviews; code-owner review and approval of the most recent
  push included), and every required status check passed on the
  commit (`gitmem merge button` excepted: it fails on every candidate by design);
- the job `gitmem check` passed in the latest run of `.github/workflows/gitmem-check.yml` started
  by `pull_request_target` (the default branch's definition, which the pull request cannot edit)
  that judged exactly this pull request at exactly this commit, found by the run's name and its
  judge step, not by check runs on the commit (a pull_request_target run is the default
  branch's; see _check_state);
- and `gitmem check --range <memory branch>..<commit>` passes here, every commit judged.

Then exactly the reviewed file is admitted. A branch of one commit on the memory branch's
history is merged as it is (the pull request shows as merged). A branch of several commits is
never merged: a candidate commit is re-created on the merge base holding only the reviewed file
at the approved commit, the admit merge takes it as its second parent, and the branch is deleted
with the push, so the earlier commits never become part of main's history; the pull request then
shows as closed, with a comment naming the admit merge.
"""

from __future__ import annotations

import json
import re
import urllib.parse
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from gitmem.errors import GitmemError, UsageError
from gitmem.hooks.github_api import GIT_AUTH, Api, ApiError
from gitmem.hooks.github_check import installed_gitmem
from gitmem.lifecycle import admit as admitting
from gitmem.model.entry import EntryError, parse
from gitmem.model.markdown import block, code
from gitmem.model.names import BRANCH_PREFIX, is_slug
from gitmem.repo.store import BLOB
from gitmem.repo.workspace import Workspace

LABEL = "gitmem:admit"
CHECK_WORKFLOW = ".github/workflows/gitmem-check.yml"
CHECK_NAME = "gitmem check"
GUARD_NAME = "gitmem merge button"
WRITERS = frozenset({"admin", "maintain", "write"})
PASSING = frozenset({"success", "neutral", "skipped"})
ATTEMPTS = 5
UNPROVEN = "unproven"
#: The most bytes (UTF-8) of a refusal's details its comment quotes: GitHub refuses a comment
#: longer than 65536 characters, the report step receives it as one environment variable,
#: which Linux caps at 128 KiB, and a candidate can break a rule thousands of times.
DETAILS_MAX = 50_000
_CHECK_TITLE = re.compile(rf"{re.escape(CHECK_NAME)} #([1-9][0-9]{{0,9}}) at [0-9a-f]{{40}}")


@dataclass
class Outcome:
    """What the job did: admitted, refused (a comment says why), or nothing to do (a notice)."""

    status: str  # admitted | refused | skipped
    message: str  # one line for the log
    comment: str = ""  # Markdown for the pull request, every foreign value escaped
    pull_request: int | None = None
    details: list[str] = field(default_factory=list)
    left_out: int = 0  # lines of details the comment leaves out (the log shows them all)

    @property
    def exit_code(self) -> int:
        return 1 if self.status == "refused" else 0


@dataclass(frozen=True)
class Approval:
    """Who may admit the pull request's head now, as the API tells it."""

    admitter: str
    expect: str
    head_ref: str
    number: int


class _Refused(Exception):
    def __init__(self, message: str, details: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class _Skipped(Exception):
    pass


# ---------------------------------------------------------------------------------------------
# the event: which pull request


def pull_request_of(api: Api, event_name: str, event: dict[str, Any]) -> int | None:
    """The number of the pull request the event is about, or None when it names none (a
    workflow run of a branch without an open pull request, a fork's run)."""
    if event_name == "pull_request_target":
        return _int(_dig(event, "pull_request", "number"))
    if event_name == "workflow_dispatch":
        return _int(_dig(event, "inputs", "pull-request"))
    if event_name == "workflow_run":
        run = _dig(event, "workflow_run")
        branch = _dig(run, "head_branch")
        head_repo = _dig(run, "head_repository", "full_name")
        if _is_check_run(run):
            # a pull_request_target run may name the default branch, not the pull request's:
            # its name, which the default branch's definition writes, names the pull request
            named = _CHECK_TITLE.fullmatch(str(_dig(run, "display_title") or ""))
            if named:
                return _int(named.group(1))
        if not isinstance(branch, str) or not branch.startswith(BRANCH_PREFIX):
            return None
        if head_repo != api.repository:
            return None
        owner = api.repository.split("/")[0]
        found = api.pages(f"{api.repo_path}/pulls", state="open", head=f"{owner}:{branch}")
        numbers = [_int(p.get("number")) for p in found if isinstance(p, dict)]
        return next((n for n in numbers if n is not None), None)
    raise UsageError(
        f"gitmem github admit runs on workflow_run, pull_request_target or "
        f"workflow_dispatch, not {event_name!r}"
    )


def candidate_of(api: Api, event_name: str, event: dict[str, Any]) -> tuple[int | None, str]:
    """The number of the open candidate pull request of this repository the event is about,
    or None, with a line saying which or why none. Every trigger of the admit workflow names
    the pull request this way, so that its admit job's concurrency group is one a pull request
    whatever started it; the number is a nudge, which admit_pull_request reads back."""
    number = pull_request_of(api, event_name, event)
    if number is None:
        return None, "the event names no open gitmem/<id> pull request of this repository"
    pr = api.get(f"{api.repo_path}/pulls/{number}")
    head_ref = str(_dig(pr, "head", "ref") or "")
    if _dig(pr, "state") != "open":
        return None, f"pull request #{number} is not open: nothing to admit"
    if _dig(pr, "head", "repo", "full_name") != api.repository:
        return None, f"pull request #{number} comes from a fork: forks are never admitted"
    if not head_ref.startswith(BRANCH_PREFIX):
        return None, f"pull request #{number} is not a gitmem/<id> candidate: nothing to admit"
    return number, f"the event is about pull request #{number}"


def _is_check_run(run: Any) -> bool:
    """Whether a workflow run is one of the default branch's check workflow on a pull request."""
    path = str(_dig(run, "path") or "").split("@")[0]
    return path == CHECK_WORKFLOW and _dig(run, "event") == "pull_request_target"


def _dig(data: Any, *keys: str) -> Any:
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    return data


def _int(value: Any) -> int | None:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number if number > 0 else None


def _login(user: Any) -> str:
    login = _dig(user, "login")
    return login if isinstance(login, str) else ""


def _is_bot(user: Any) -> bool:
    """Whether a user GitHub names is an app's bot (its type, or the `[bot]` of its login)."""
    return _dig(user, "type") == "Bot" or _login(user).endswith("[bot]")


def _time(text: Any) -> datetime | None:
    """A time the API gives, or None. One without an offset is no time of GitHub's (which
    writes UTC with a Z): read as unknown, as a malformed one is, where comparing it with
    the others raised a TypeError and the step ended as an unexpected error."""
    try:
        when = datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo is not None else None


# ---------------------------------------------------------------------------------------------
# what the API says now


def assess(api: Api, number: int, memory_branch: str, source: str | None = None) -> Approval:
    """The standing approval of pull request `number`, read from the API now; raises _Skipped
    when there is nothing to admit yet and _Refused when something forbids the admission.
    source: the login the candidate names as its `human:` source, once the file has been read;
    that person neither admits it nor counts among the approvals."""
    repo = api.repo_path
    pr = api.get(f"{repo}/pulls/{number}")
    if not isinstance(pr, dict):
        raise ApiError(f"GitHub answered pull request #{number} with no object")
    head_ref = str(_dig(pr, "head", "ref") or "")
    head_sha = str(_dig(pr, "head", "sha") or "")
    if pr.get("state") != "open":
        raise _Skipped(f"pull request #{number} is {pr.get('state')}: nothing to admit")
    if _dig(pr, "head", "repo", "full_name") != api.repository:
        raise _Skipped(f"pull request #{number} comes from a fork: forks are never admitted")
    if not head_ref.startswith(BRANCH_PREFIX) or not is_slug(head_ref[len(BRANCH_PREFIX) :]):
        raise _Skipped(f"pull request #{number} is not a gitmem/<id> candidate")
    if len(head_sha) != 40:
        raise ApiError(f"GitHub gave no head commit for pull request #{number}")
    base = str(_dig(pr, "base", "ref") or "")
    if base != memory_branch:
        raise _Refused(
            f"The pull request targets {code(base)}, but memory lives on {code(memory_branch)}: "
            f"change its base to {code(memory_branch)} and approve again."
        )
    opener = _login(pr.get("user"))

    # the reviews: each reviewer's latest approving, dismissed or change-requesting review
    standing: dict[str, dict[str, Any]] = {}
    for review in api.pages(f"{repo}/pulls/{number}/reviews"):
        if isinstance(review, dict) and review.get("state") in (
            "APPROVED",
            "CHANGES_REQUESTED",
            "DISMISSED",
        ):
            standing[_login(review.get("user"))] = review
    bots = {login for login, review in standing.items() if _is_bot(review.get("user"))}
    approvers = [
        login
        for login, review in standing.items()
        if review["state"] == "APPROVED" and review.get("commit_id") == head_sha and login
    ]
    stale = [
        login
        for login, review in standing.items()
        if review["state"] == "APPROVED" and review.get("commit_id") != head_sha
    ]
    blockers = [login for login, r in standing.items() if r["state"] == "CHANGES_REQUESTED"]

    # the label, when it is still there and came after the branch's last push
    pushes = [
        a
        for a in api.pages(f"{repo}/activity", ref=f"refs/heads/{head_ref}")
        if isinstance(a, dict)
    ]
    pushers = {_login(a.get("actor")) for a in pushes} - {""}
    if any(_time(a.get("timestamp")) is None for a in pushes):
        raise _Refused(
            f"The repository's activity log gives a push to {code(head_ref)} a time that "
            "cannot be read, so which push came last cannot be told: run the workflow again."
        )
    last_push = max((t for a in pushes if (t := _time(a.get("timestamp")))), default=None)
    labeller: str | None = None
    label_note = ""
    if any(_dig(label, "name") == LABEL for label in pr.get("labels") or []):
        labelled = [
            e
            for e in api.pages(f"{repo}/issues/{number}/events")
            if isinstance(e, dict)
            and e.get("event") == "labeled"
            and _dig(e, "label", "name") == LABEL
        ]
        if labelled:
            latest = labelled[-1]
            at = _time(latest.get("created_at"))
            if at is not None and (last_push is None or at > last_push):
                labeller = _login(latest.get("actor")) or None
                if _is_bot(latest.get("actor")) and labeller:
                    bots.add(labeller)
            else:
                label_note = "the label was added before the last push to the branch: label again"

    if not approvers and labeller is None and not blockers:
        if stale:
            raise _Refused(
                f"The approval by {', '.join(code(s) for s in stale)} is of an older commit; "
                f"the branch is now at {code(head_sha[:12])}: review the new commits and "
                "approve again."
            )
        if label_note:
            raise _Refused(f"`{LABEL}` cannot admit: {label_note}.")
        raise _Skipped(f"pull request #{number} has no standing approval")
    _pushes_known(pushes, head_ref, head_sha, last_push)

    # who may admit: write access, and no part in the change
    authors: set[str] = set()
    listed = api.pages(f"{repo}/pulls/{number}/commits")
    for commit in listed:
        authors |= {_login(_dig(commit, "author")), _login(_dig(commit, "committer"))}
    authors -= {"", "web-flow"}
    counted = _int(pr.get("commits")) or 0
    if counted > len(listed):  # GitHub lists at most 250 commits of a pull request
        raise _Refused(
            f"The pull request has {counted} commits, more commits than GitHub lists "
            f"({len(listed)}), so who wrote them cannot be told: propose the candidate again "
            "on a branch of a few commits."
        )
    permissions: dict[str, str] = {}

    def permission(login: str) -> str:
        if login not in permissions:
            answer = api.get(f"{repo}/collaborators/{login}/permission")
            # role_name names a custom role by its own name; permission is the base role it
            # builds on, as GitHub maps it (maintain to write): a custom role on write access
            # was refused as "not write"
            role, base = _dig(answer, "role_name"), _dig(answer, "permission")
            permissions[login] = str(role if role in WRITERS else base or role or "none")
        return permissions[login]

    requested = [b for b in blockers if permission(b) in WRITERS]
    if requested:
        raise _Refused(
            f"{', '.join(code(b) for b in requested)} requested changes: nothing is admitted "
            "while that review stands (it is resolved by their approval, or dismissed)."
        )
    candidates = approvers + ([labeller] if labeller and labeller not in approvers else [])
    eligible: list[str] = []
    why_not: list[str] = []
    # logins are not case-sensitive: one spelled otherwise by another endpoint (a record
    # kept from before an account's rename) is the same person
    took_part = {
        "opened the pull request": {opener.casefold()},
        "pushed to the candidate branch": {p.casefold() for p in pushers},
        "wrote or committed one of its commits": {a.casefold() for a in authors},
    }
    for login in candidates:
        reason = None
        part = next((why for why, who in took_part.items() if login.casefold() in who), None)
        if login in bots:
            reason = "is a bot"
        elif source is not None and login.casefold() == source.casefold():
            reason = "is the candidate's own source"
        elif part is not None:
            reason = part
        elif permission(login) not in WRITERS:
            reason = f"has {permission(login)} access, not write"
        if reason:
            why_not.append(f"{code(login)} {reason}")
        else:
            eligible.append(login)
    if not eligible:
        if all(r.endswith("access, not write") for r in why_not):
            raise _Skipped(f"no approval of #{number} by a person with write access")
        raise _Refused(
            "Nobody who may admit it has approved it: "
            + "; ".join(why_not)
            + ". A candidate is admitted by a person with write access who took no part in it."
        )

    # the rulesets of the memory branch, and the checks on the commit
    required, reviews_required, checks = _rules(api, base)
    eligible_approvals = [a for a in eligible if a in approvers]
    if required and len(eligible_approvals) < required:
        raise _Skipped(
            f"#{number} has {len(eligible_approvals)} of the {required} approvals the ruleset "
            f"on {base} requires"
        )
    # GitHub decides whenever reviews are required, by a ruleset or by classic branch
    # protection (which gitmem cannot read otherwise); it gives no decision when none are
    decision = _review_decision(api, number)
    if (reviews_required or decision is not None) and decision != "APPROVED":
        raise _Skipped(
            f"GitHub's review decision on #{number} is {decision or 'not given'}: the rules "
            f"of {base} ask for more reviews (code owners, the last push)"
        )
    state = _check_state(api, number, head_sha, last_push)
    if state == "pending":
        raise _Skipped(f"gitmem check has not finished on {head_sha[:12]}: waiting for it")
    if state == UNPROVEN:
        raise _Refused(
            f"The run of {CHECK_NAME} named for {code(head_sha[:12])} does not show that it "
            "judged that commit (the check workflow on the default branch is older than this "
            "gitmem): update the workflows with `gitmem init --github`, then approve again."
        )
    if state != "success":
        raise _Refused(
            f"{CHECK_NAME} did not pass on {code(head_sha[:12])} ({state}): fix what it "
            "reports, then approve again."
        )
    for context, app in checks:
        if context in (CHECK_NAME, GUARD_NAME):
            continue
        if not _passed(api, head_sha, context, app):
            raise _Skipped(f"the required check {context!r} has not passed on {head_sha[:12]}")
    return Approval(eligible[0], head_sha, head_ref, number)


def _pushes_known(
    pushes: list[dict[str, Any]], head_ref: str, head_sha: str, last_push: datetime | None
) -> None:
    """Refuses unless the activity log names the person behind every push to the branch and
    shows the push that made head_sha its head. Who pushed is known only from that log, and a
    pusher never admits: a push it names nobody for (a deploy key, a deleted account), a bot
    for (github-actions[bot], pushing for whoever ran a workflow of their own branch), or a
    head it shows no push of (a branch renamed to gitmem/<id>, whose pushes the log keeps
    under the old name), let the person who pushed approve their own text as a bystander."""
    if any(not _login(a.get("actor")) for a in pushes):
        raise _Refused(
            f"The repository's activity log shows a push to {code(head_ref)} by nobody it "
            "names (a deploy key, or an account since deleted), so who pushed cannot be told "
            "apart from who approved: propose the candidate again, pushed from a person's "
            "account."
        )
    bots = sorted({_login(a.get("actor")) for a in pushes if _is_bot(a.get("actor"))})
    if bots:
        raise _Refused(
            f"{', '.join(code(b) for b in bots)} pushed to {code(head_ref)}: a bot pushes for "
            "someone the activity log does not name, so who pushed cannot be told apart from "
            "who approved: propose the candidate again, pushed from a person's account."
        )
    latest = {a.get("after") for a in pushes if _time(a.get("timestamp")) == last_push}
    if last_push is None or head_sha not in latest:
        raise _Refused(
            f"The repository's activity log shows no push that made {code(head_sha[:12])} "
            f"the head of {code(head_ref)} (a branch renamed to this name, or a log not up to "
            "date yet), so who pushed it cannot be told: run the workflow again in a few "
            "minutes, or propose the candidate again on a branch of its own."
        )


def _rules(api: Api, branch: str) -> tuple[int, bool, list[tuple[str, int | None]]]:
    """(required approvals, whether a pull-request rule applies, required checks as (context,
    the app it must come from or None)) of the rulesets active on branch."""
    approvals, reviews = 0, False
    checks: list[tuple[str, int | None]] = []
    # the name as one path: a `#` or `%`, legal in a branch name, is no fragment or escape
    for rule in api.pages(f"{api.repo_path}/rules/branches/{urllib.parse.quote(branch)}"):
        kind = _dig(rule, "type")
        params = _dig(rule, "parameters") or {}
        if not isinstance(params, dict):
            raise _Refused(
                f"A ruleset rule of {code(branch)} ({code(str(kind))}) has parameters that "
                "cannot be read, so what it requires cannot be told: nothing is admitted."
            )
        if kind == "pull_request":
            reviews = True
            approvals = max(approvals, _int(params.get("required_approving_review_count")) or 0)
        elif kind == "required_status_checks":
            for item in params.get("required_status_checks") or []:
                if isinstance(item, dict) and isinstance(item.get("context"), str):
                    checks.append((item["context"], _int(item.get("integration_id"))))
    return approvals, reviews, checks


def _review_decision(api: Api, number: int) -> str | None:
    owner, name = api.repository.split("/")
    data = api.graphql(
        "query($owner: String!, $name: String!, $number: Int!) {"
        " repository(owner: $owner, name: $name) {"
        " pullRequest(number: $number) { reviewDecision } } }",
        {"owner": owner, "name": name, "number": number},
    )
    decision = _dig(data, "repository", "pullRequest", "reviewDecision")
    return decision if isinstance(decision, str) else None


def check_title(number: int | str, sha: str) -> str:
    """The name gitmem-check.yml gives its run (`run-name`) for pull request `number` at
    commit `sha`: how the admission finds the run that judged exactly that commit."""
    return f"{CHECK_NAME} #{number} at {sha}"


def judge_step(number: int | str, sha: str) -> str:
    """The name of the check job's first step, evaluated by GitHub from the default branch's
    definition: a pull request's title can stand in for a run's name, never for a step's."""
    return f"Judge {sha} of pull request #{number}"


def _check_state(api: Api, number: int, sha: str, since: datetime | None) -> str:
    """success, pending or the conclusion of the job `gitmem check` in the latest run of
    `.github/workflows/gitmem-check.yml`, started by pull_request_target, that judged pull
    request `number` at exactly `sha`; `missing` when there is none.

    The run is found through the workflow runs, not the check runs on `sha`: a
    pull_request_target run belongs to the default branch's latest commit (GITHUB_SHA; its
    `head_sha`, and the check suite its check runs attach to), not to the pull request's head.
    What ties it to `sha` is its name and its judge step, both written by the default branch's
    definition from the event (see docs/github.md). The run's own conclusion is no verdict:
    `gitmem merge button` fails in every candidate's run by design."""
    repo = api.repo_path
    params: dict[str, str | int] = {"event": "pull_request_target"}
    if since is not None:  # a run that judged the head started after the head was pushed
        params["created"] = f">={(since - timedelta(days=1)).date().isoformat()}"
    name = CHECK_WORKFLOW.rsplit("/", 1)[-1]
    title = check_title(number, sha)
    runs = [
        run
        for run in api.pages(f"{repo}/actions/workflows/{name}/runs", "workflow_runs", **params)
        if isinstance(run, dict)
        and run.get("display_title") == title
        and str(run.get("path") or "").split("@")[0] == CHECK_WORKFLOW
        and run.get("event") == "pull_request_target"
        and _int(run.get("id")) is not None
    ]
    if not runs:
        return "missing"
    latest = max(runs, key=lambda r: _int(r.get("id")) or 0)
    jobs = api.pages(f"{repo}/actions/runs/{latest['id']}/jobs", "jobs", filter="latest")
    for job in jobs:
        if not isinstance(job, dict) or job.get("name") != CHECK_NAME:
            continue
        if job.get("status") != "completed":
            return "pending"
        steps = [_dig(s, "name") for s in job.get("steps") or []]
        if judge_step(number, sha) not in steps:
            return UNPROVEN
        conclusion = job.get("conclusion")
        return "success" if conclusion == "success" else str(conclusion)
    return "pending" if latest.get("status") != "completed" else "missing"


def _passed(api: Api, sha: str, context: str, app: int | None = None) -> bool:
    """Whether the required check `context` passed on sha. When the ruleset names the app it
    must come from (`integration_id`), as GitHub does only a check run of that app counts: a
    commit status, which anyone who may push can post, or another app's check run does not."""
    # every page: GitHub answers 30 runs unless asked, and a failed one may be on any page
    runs = api.pages(
        f"{api.repo_path}/commits/{sha}/check-runs",
        "check_runs",
        check_name=context,
        filter="latest",
    )
    found = [
        r
        for r in runs
        if isinstance(r, dict) and (app is None or _int(_dig(r, "app", "id")) == app)
    ]
    if found:
        return all(r.get("conclusion") in PASSING for r in found)
    if app is not None:
        return False
    # every page too: the combined status lists 30 contexts unless asked
    statuses = api.pages(f"{api.repo_path}/commits/{sha}/status", "statuses")
    return any(
        isinstance(s, dict) and s.get("context") == context and s.get("state") == "success"
        for s in statuses
    )


# ---------------------------------------------------------------------------------------------
# admitting


def admit_pull_request(
    ws: Workspace, api: Api, number: int, *, remote: str = "origin", date: str | None = None
) -> Outcome:
    """Decide from the API, judge every commit, admit exactly the reviewed file, push."""
    try:
        approval = assess(api, number, ws.branch)
    except _Skipped as skip:
        return Outcome("skipped", str(skip), pull_request=number)
    except _Refused as refusal:
        return _refused(number, refusal.message, refusal.details)
    except ApiError as exc:
        return _refused(
            number,
            f"GitHub's API could not be read ({code(exc.message)}), so nothing was "
            "admitted: run the workflow again later.",
        )
    try:
        return _admit(ws, api, approval, remote, date)
    except _Skipped as skip:  # too few approvals once the candidate's own source is left out
        return Outcome("skipped", str(skip), pull_request=number)
    except _Refused as refusal:
        return _refused(number, refusal.message, refusal.details)
    except ApiError as exc:
        return _refused(number, f"GitHub's API could not be read: {code(exc.message)}.")
    except GitmemError as exc:
        return _refused(number, "gitmem refused the admission:", exc.message)


def _admit(ws: Workspace, api: Api, approval: Approval, remote: str, date: str | None) -> Outcome:
    store = ws.store
    branch = ws.branch
    entry_id = approval.head_ref[len(BRANCH_PREFIX) :]
    expect = approval.expect
    store.run_git("checkout", "--quiet", "--detach")  # main is moved by ref, never checked out
    for _attempt in range(ATTEMPTS):
        main_tip = _fetch(store, remote, branch, approval.head_ref, expect)
        _judge(ws, remote, branch, approval.head_ref)
        entry = _candidate_entry(ws, expect, entry_id)
        # the person the candidate names as its source neither admits it nor counts among the
        # approvals: decided again now that the file is read
        kind, _, login = str(entry.source).partition(":")
        source = login if kind == "human" and login else None
        if source is not None:
            approval = assess(api, approval.number, branch, source)
            if approval.expect != expect:
                raise _Refused("The branch moved while the admission was prepared: approve again.")
        tip, recreated = _candidate_commit(ws, entry_id, main_tip, expect)
        local = f"refs/heads/{approval.head_ref}"
        store.run_git("update-ref", local, tip)
        store.run_git("update-ref", f"refs/heads/{branch}", main_tip)
        admission = admitting.admit(
            ws, entry_id, by=f"human:{approval.admitter}", expect=tip, push=False, date=date
        )
        try:  # what was read may have changed meanwhile
            again = assess(api, approval.number, branch, source)
        except _Skipped as skip:
            raise _Refused(f"The approval no longer stands ({skip}): nothing was pushed.") from None
        if (again.expect, again.admitter) != (expect, approval.admitter):
            raise _Refused("The approval changed while the admission was prepared: approve again.")
        pushed = store.run_git(
            *GIT_AUTH,
            "push", "--porcelain", "--atomic",
            f"--force-with-lease=refs/heads/{approval.head_ref}:{expect}",
            remote,
            f"refs/heads/{branch}:refs/heads/{branch}",
            f":refs/heads/{approval.head_ref}",
            check=False,
        )  # fmt: skip
        if pushed.returncode == 0:
            return _admitted(approval, admission.commit, tip, recreated, branch)
        moved = _remote_tip(store, remote, branch)
        if moved == main_tip:
            raise _Refused(
                "The push was refused (the candidate branch moved, or the memory branch's "
                "rules refused it):",
                (pushed.stderr or pushed.stdout).strip(),
            )
    raise _Refused(f"{code(branch)} kept moving during {ATTEMPTS} attempts: approve again.")


def _fetch(store: Any, remote: str, branch: str, head_ref: str, expect: str) -> str:
    done = store.run_git(
        *GIT_AUTH, "fetch", "--quiet", "--no-tags", remote,
        f"+refs/heads/{branch}:refs/remotes/{remote}/{branch}",
        f"+refs/heads/{head_ref}:refs/remotes/{remote}/{head_ref}",
        check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise _Refused(
            f"{code(head_ref)} or {code(branch)} could not be fetched: it was admitted or "
            "refused already, or deleted.",
            done.stderr.strip(),
        )
    tip = store.ref_target(f"refs/remotes/{remote}/{head_ref}")
    if tip != expect:
        raise _Refused(
            f"The branch moved to {code((tip or '')[:12])} after {code(expect[:12])} was "
            "approved: review the new commits and approve again."
        )
    main_tip = store.ref_target(f"refs/remotes/{remote}/{branch}")
    if main_tip is None:
        raise _Refused(f"{code(branch)} has no commits on the remote: nothing to admit into.")
    return str(main_tip)


def _remote_tip(store: Any, remote: str, branch: str) -> str | None:
    store.run_git(
        *GIT_AUTH, "fetch", "--quiet", "--no-tags", remote,
        f"+refs/heads/{branch}:refs/remotes/{remote}/{branch}",
        check=False,
    )  # fmt: skip
    tip = store.ref_target(f"refs/remotes/{remote}/{branch}")
    return str(tip) if tip else None


def _judge(ws: Workspace, remote: str, branch: str, head_ref: str) -> None:
    """`gitmem check --range` over every commit of the candidate branch (the installed gitmem,
    in this checkout): any finding refuses the admission."""
    # full names: a tag `origin/main` (any writer may push one; `actions/checkout` fetches
    # every tag) comes before the remote-tracking branch in git's reading of a short name,
    # and chose what was judged
    span = f"refs/remotes/{remote}/{branch}..refs/remotes/{remote}/{head_ref}"
    done = installed_gitmem(ws, "check", "--range", span, "--format", "json", timeout=600)
    try:
        report = json.loads(done.stdout)
    except ValueError:
        report = None
    if not isinstance(report, dict):
        raise _Refused("gitmem check could not judge the branch:", done.stderr.strip())
    if report.get("ok") and done.returncode == 0:
        return
    lines = [
        f"{p.get('path')}:{p.get('line') or ''} {p.get('rule')} {p.get('message')}"
        for p in report.get("problems") or []
        if isinstance(p, dict) and p.get("severity") == "error"
    ]
    raise _Refused(
        f"gitmem check found problems in the commits of {code(head_ref)} (every commit is "
        "judged, not only the last): rewrite the branch without them and approve again.",
        "\n".join(lines) or done.stderr.strip(),
    )


def _candidate_entry(ws: Workspace, expect: str, entry_id: str) -> Any:
    path = f"{ws.dir}/candidates/{entry_id}.md"
    data = ws.store.read_path(ws.store.tree_of(expect), path)
    if data is None:
        raise _Refused(f"The approved commit holds no {code(path)}: nothing to admit.")
    try:
        return parse(data)
    except EntryError as exc:
        raise _Refused(f"{code(path)} does not parse:", f"{exc.rule} {exc.message}") from None


def _candidate_commit(ws: Workspace, entry_id: str, main_tip: str, expect: str) -> tuple[str, bool]:
    """The commit the admit merge takes as its second parent: the approved commit itself when
    it is the branch's only commit, on a commit of the memory branch; otherwise a new commit on
    the merge base holding only the approved candidate file (author kept), so that none of the
    branch's commits enters main's history. Returns (commit, whether it was re-created)."""
    store = ws.store
    base = store.merge_base(main_tip, expect)
    commits = store.new_commits(expect, [main_tip])
    if base is not None and len(commits) == 1 and commits[0].parents == (base,):
        return expect, False
    if base is None:
        raise _Refused("The branch shares no history with the memory branch: propose it anew.")
    path = f"{ws.dir}/candidates/{entry_id}.md"
    item = store.item(store.tree_of(expect), path)
    if item is None or not item.is_file:
        raise _Refused(f"The approved commit holds no {code(path)}: nothing to admit.")
    tree = store.build_tree(store.tree_of(base), {path: (item.oid, BLOB)})
    who = store.run_git("log", "-1", "--format=%an%n%ae", expect).stdout.splitlines()
    author = store.signature(*[*who, "", ""][:2]) if who else None
    message = (
        f"gitmem: propose {entry_id}\n\n"
        f"The reviewed file of {expect}, re-created on {base[:12]} by the admit workflow:\n"
        f"the branch's {len(commits)} commits stay out of the memory branch's history.\n"
    )
    return store.write_commit(tree, [base], message, author=author), True


# ---------------------------------------------------------------------------------------------
# what the pull request is told


def _admitted(approval: Approval, merge: str, tip: str, recreated: bool, branch: str) -> Outcome:
    entry_id = approval.head_ref[len(BRANCH_PREFIX) :]
    lines = [
        f"**gitmem admitted {code(entry_id)}** into {code(branch)} with {code(merge[:12])}, "
        f"approved by {code(approval.admitter)} on {code(approval.expect[:12])}."
    ]
    if recreated:
        lines += [
            "",
            f"The branch held more than one commit, so none of them was merged: the admit merge "
            f"takes {code(tip[:12])}, a commit holding only the reviewed file. This pull request "
            "therefore shows as closed, not merged; the entry is on the memory branch.",
        ]
    return Outcome(
        "admitted",
        f"admitted {entry_id} into {branch} as {merge} (approved by {approval.admitter})",
        "\n".join(lines) + "\n",
        approval.number,
    )


def _refused(number: int, message: str, details: str = "") -> Outcome:
    shown, left = _cut(details, DETAILS_MAX)
    lines = [f"**gitmem did not admit this candidate.** {message}"]
    if shown:
        lines += ["", block(shown)]
    if left:
        lines += [
            "",
            f"… and {left} more line(s), left out to keep this comment within what GitHub "
            "takes: the log of the admit job lists them all.",
        ]
    lines += [
        "",
        "Nothing was merged. Fix what is named above and approve again, or refuse it with "
        "`gitmem refuse ID --reason …`.",
    ]
    return Outcome(
        "refused",
        "not admitted: see the comment",
        "\n".join(lines) + "\n",
        number,
        [details] if details else [],
        left,
    )


def _cut(text: str, budget: int) -> tuple[str, int]:
    """text's first lines that fit in budget bytes of UTF-8 (the first line cut short when it
    alone does not), and how many lines were left out. Bytes, not characters: a line of
    letters beyond ASCII takes up to four times as much of an environment variable."""
    lines = text.splitlines()
    kept: list[str] = []
    used = 0
    for line in lines:
        size = len(line.encode("utf-8", "surrogateescape")) + 1
        if used + size > budget:
            if not kept:
                head = line.encode("utf-8", "surrogateescape")[: budget - 4]
                kept.append(head.decode("utf-8", "ignore") + "…")
            break
        kept.append(line)
        used += size
    return "\n".join(kept), len(lines) - len(kept)
