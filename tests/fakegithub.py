"""A fake GitHub REST API on a local port, for the workflows' helpers: it answers the paths
`gitmem github admit` reads from the state a test sets (a pull request, its reviews, pushes,
labels, commits, permissions, rulesets, check runs) and records every request. Git itself is
never faked: the repositories are real and the pushes go to a real bare remote."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

REPO = "acme/shop"
CHECK_SUITE = 501


class Page:
    """A list answer GitHub pages: `per_page` items of it (`default` unless the query asks),
    the page the query names, and a `Link: <…>; rel="next"` header while more remain. The
    list is body[key], or body itself when key is None (a list endpoint answering an array)."""

    def __init__(
        self, body: Any, key: str | None, query: dict[str, str], default: int = 30
    ) -> None:
        self.size = min(int(query.get("per_page") or default), 100)
        self.number = int(query.get("page") or 1)
        items = body if key is None else body[key]
        start = (self.number - 1) * self.size
        self.more = len(items) > start + self.size
        shown = items[start : start + self.size]
        self.body = shown if key is None else {**body, key: shown}
        self.query = query

    def link(self, url: str, path: str) -> str | None:
        if not self.more:
            return None
        return f'<{url}{path}?{urlencode({**self.query, "page": self.number + 1})}>; rel="next"'


class FakeGitHub:
    def __init__(self) -> None:
        self.requests: list[tuple[str, str]] = []
        self.pr: dict[str, Any] = {}
        self.reviews: list[dict[str, Any]] = []
        self.activity: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = []
        self.commits: list[dict[str, Any]] = []
        self.permissions: dict[str, str] = {}
        self.rules: list[dict[str, Any]] = []
        self.review_decision: str | None = "APPROVED"
        self.check_runs: dict[str, list[dict[str, Any]]] = {}  # by check name
        self.workflow_runs: dict[int, list[dict[str, Any]]] = {}  # by check suite
        self.jobs: dict[int, list[dict[str, Any]]] = {}  # by workflow run
        self.base_sha = "b" * 40  # the default branch's tip, as GitHub records it
        self.statuses: dict[str, list[dict[str, Any]]] = {}  # commit statuses, by commit
        self.fail: set[str] = set()  # path fragments answered with HTTP 500
        self.limited: set[str] = set()  # path fragments answered as over the rate limit
        self.on_request: Callable[[str], None] | None = None
        self.url = ""

    # -- a pull request as a test starts it --------------------------------------------------

    def candidate(
        self, number: int, branch: str, sha: str, *, opener: str = "carol", base: str = "main"
    ) -> None:
        self.pr = {
            "number": number,
            "state": "open",
            "user": {"login": opener, "type": "User"},
            "head": {"ref": branch, "sha": sha, "repo": {"full_name": REPO}},
            "base": {"ref": base, "repo": {"full_name": REPO}},
            "labels": [],
        }
        self.activity = [
            {"actor": {"login": opener}, "activity_type": "branch_creation",
             "timestamp": "2026-11-29T10:00:00Z", "ref": f"refs/heads/{branch}",
             "before": "0" * 40, "after": sha}
        ]  # fmt: skip
        self.commits = [{"sha": sha, "author": {"login": opener}, "committer": {"login": opener}}]
        self.permissions = {opener: "write"}
        self.passed(sha)

    def approve(self, login: str, sha: str, state: str = "APPROVED", at: str = "") -> None:
        self.permissions.setdefault(login, "write")
        self.reviews.append(
            {
                "id": len(self.reviews) + 1,
                "user": {"login": login, "type": "Bot" if login.endswith("[bot]") else "User"},
                "state": state,
                "commit_id": sha,
                "submitted_at": at or "2026-11-29T12:00:00Z",
            }
        )

    def passed(
        self,
        sha: str,
        *,
        conclusion: str = "success",
        path: str = ".github/workflows/gitmem-check.yml",
        event: str = "pull_request_target",
        status: str = "completed",
        number: int | None = None,
        title: str | None = None,
        judged: str | None = None,
    ) -> None:
        """A run of the check workflow that judged `sha` on pull request `number`, as GitHub
        records one started by pull_request_target. GitHub's documentation (Events that
        trigger workflows, pull_request_target: GITHUB_SHA is the last commit on the default
        branch, the changelog "Actions pull_request_target and environment branch protections
        changes") and actions/checkout's own code (a pull_request_target run's `head_sha` is
        the default branch's commit, not the pull request's head) put such a run, its check
        suite and so its check runs on the default branch's tip (`self.base_sha`): asked for
        the check runs of the pull request's head, GitHub lists none of them. The run is
        named by the definition's `run-name` (`title`: a definition without one shows the
        pull request's title there) and its `gitmem check` job's first step names the commit
        judged (`judged`: that commit when not given, '' for a definition without the step)."""
        number = number if number is not None else int(self.pr.get("number") or 0)
        run_id = CHECK_SUITE + len(self.workflow_runs)
        head = self.base_sha if event == "pull_request_target" else sha
        finished = status == "completed"
        self.check_runs.setdefault("gitmem check", []).append(
            {
                "id": run_id,
                "head_sha": head,
                "name": "gitmem check",
                "status": status,
                "conclusion": conclusion if finished else None,
                "started_at": f"2026-11-29T11:{len(self.workflow_runs):02d}:00Z",
                "check_suite": {"id": run_id},
            }
        )
        judge = f"Judge {judged or sha} of pull request #{number}"
        steps = [{"name": judge, "status": status}] if judged != "" and finished else []
        self.workflow_runs[run_id] = [
            {
                "id": run_id,
                "path": path,
                "event": event,
                "head_sha": head,
                "display_title": title if title is not None else f"gitmem check #{number} at {sha}",
                "status": status,
                # the merge-button job fails in every candidate's run
                "conclusion": "failure" if finished else None,
                "created_at": f"2026-11-29T11:{len(self.workflow_runs):02d}:00Z",
            }
        ]
        self.jobs[run_id] = [
            {
                "name": "gitmem check",
                "status": status,
                "conclusion": conclusion if finished else None,
                "head_sha": head,
                "steps": steps,
            },
            {"name": "gitmem merge button", "status": "completed", "conclusion": "failure"},
        ]

    # -- answers ------------------------------------------------------------------------------

    def answer(self, method: str, path: str, query: dict[str, str], body: Any) -> Any:
        repo = f"/repos/{REPO}"
        number = self.pr.get("number")
        if method == "POST" and path == "/graphql":
            return {
                "data": {"repository": {"pullRequest": {"reviewDecision": self.review_decision}}}
            }
        if path == f"{repo}/pulls" and method == "GET":
            head = query.get("head", "")
            return [self.pr] if self.pr and head == f"acme:{self.pr['head']['ref']}" else []
        if path == f"{repo}/pulls/{number}":
            return {**self.pr, "commits": len(self.commits)}
        # every list paged as GitHub pages it: a review, commit, push or label may be on any page
        if path == f"{repo}/pulls/{number}/reviews":
            return Page(self.reviews, None, query)
        if path == f"{repo}/pulls/{number}/commits":
            # "Lists a maximum of 250 commits for a pull request" (REST API, List commits on
            # a pull request); the pull request's `commits` counts them all
            return Page(self.commits[:250], None, query)
        if path == f"{repo}/issues/{number}/events":
            return Page(self.events, None, query)
        if path == f"{repo}/activity":
            ref = query.get("ref")
            return Page([a for a in self.activity if a.get("ref") == ref], None, query)
        if path.startswith(f"{repo}/collaborators/") and path.endswith("/permission"):
            login = path.split("/")[-2]
            role = self.permissions.get(login, "read")
            # a custom role is written "name:base" here: GitHub gives its name as role_name
            # and the base role it builds on as permission
            role, _, base = role.partition(":")
            legacy = base or {"maintain": "write", "triage": "read"}.get(role, role)
            return {"permission": legacy, "role_name": role}
        if path.startswith(f"{repo}/rules/branches/"):
            return Page(self.rules, None, query)
        if path.startswith(f"{repo}/commits/") and path.endswith("/check-runs"):
            sha = path.split("/")[-2]
            runs = [r for r in self.check_runs.get(query.get("check_name", ""), [])]
            found = [r for r in runs if r["head_sha"] == sha]
            # paged as GitHub pages it: per_page runs (30 unless asked), a Link to the next
            return Page({"total_count": len(found), "check_runs": found}, "check_runs", query)
        if path.startswith(f"{repo}/commits/") and path.endswith("/status"):
            statuses = self.statuses.get(path.split("/")[-2], [])
            return Page({"total_count": len(statuses), "statuses": statuses}, "statuses", query)
        if path == f"{repo}/actions/runs":
            return {
                "workflow_runs": self.workflow_runs.get(int(query.get("check_suite_id", 0)), [])
            }
        if path.startswith(f"{repo}/actions/workflows/") and path.endswith("/runs"):
            file = path.split("/")[-2]
            runs = [
                run
                for listed in self.workflow_runs.values()
                for run in listed
                if run["path"].split("@")[0] == f".github/workflows/{file}"
                and query.get("event", run["event"]) == run["event"]
                and query.get("head_sha", run["head_sha"]) == run["head_sha"]
            ]
            runs.sort(key=lambda r: -int(r["id"]))  # newest first
            return Page({"total_count": len(runs), "workflow_runs": runs}, "workflow_runs", query)
        if path.startswith(f"{repo}/actions/runs/") and path.endswith("/jobs"):
            jobs = self.jobs.get(int(path.split("/")[-2]), [])
            return Page({"total_count": len(jobs), "jobs": jobs}, "jobs", query)
        raise KeyError(path)

    def paths(self) -> list[str]:
        return [path for _method, path in self.requests]


@contextmanager
def serve(fake: FakeGitHub) -> Iterator[FakeGitHub]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_args: Any) -> None:
            pass

        def _reply(self, method: str) -> None:
            parts = urlsplit(self.path)
            query = {k: v[0] for k, v in parse_qs(parts.query).items()}
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length)) if length else None
            fake.requests.append((method, parts.path))
            if fake.on_request:
                fake.on_request(parts.path)
            if any(fragment in parts.path for fragment in fake.fail):
                self.send_response(500)
                self.end_headers()
                return
            if any(fragment in parts.path for fragment in fake.limited):
                data = b'{"message": "API rate limit exceeded"}'
                self.send_response(403)
                self.send_header("x-ratelimit-remaining", "0")
                self.send_header("x-ratelimit-reset", "1796000000")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                return
            try:
                answer = fake.answer(method, parts.path, query, body)
            except KeyError:
                self.send_response(404)
                self.end_headers()
                return
            link = answer.link(fake.url, parts.path) if isinstance(answer, Page) else None
            data = json.dumps(answer.body if isinstance(answer, Page) else answer).encode()
            self.send_response(200)
            if link:
                self.send_header("Link", link)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            self._reply("GET")

        def do_POST(self) -> None:
            self._reply("POST")

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    # shutdown() waits for the loop to look at its flag, every poll_interval (0.5 s by default:
    # a quarter of a second of every test's teardown, on average)
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    fake.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
