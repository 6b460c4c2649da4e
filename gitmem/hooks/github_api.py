"""The few GitHub REST calls the workflows' helpers make, over the standard library's HTTP.

The helpers (`gitmem github admit|check|protect`) run inside GitHub Actions jobs, where
`GITHUB_API_URL` names the API (github.com or a GitHub Enterprise host) and `GITHUB_REPOSITORY`
the repository; the token comes from the step's environment. Nothing here trusts an answer
beyond its shape: a missing field, a refused call or an unreadable body is an `ApiError`, which
the admission turns into "nothing was admitted" and a message saying why.

Lists are read page by page (`Link: <…>; rel="next"`), at most `MAX_PAGES` pages of 100; a
next page on another host or scheme is an `ApiError`, never followed (the token never travels
elsewhere) nor dropped (a list cut short could hide a review or a push). The tests fake the
API at this boundary: a local HTTP server answering these paths.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any

from gitmem.errors import GitmemError, UsageError

TIMEOUT = 30
# git's options for fetching and pushing with the step's token: git asks this helper for it, so
# it stays in the step's environment (GITMEM_GIT_TOKEN) and is never written to disk
GIT_AUTH = (
    "-c",
    "credential.helper=",
    "-c",
    'credential.helper=!f() { test "$1" = get && '
    'printf "username=x-access-token\\npassword=%s\\n" "$GITMEM_GIT_TOKEN"; }; f',
)
MAX_PAGES = 20
_NEXT = re.compile(r'<([^>]+)>;\s*rel="next"')


class ApiError(GitmemError):
    """A GitHub API call failed or answered something unexpected: exit 1, nothing admitted."""


class _SameHost(urllib.request.HTTPRedirectHandler):
    """Follows a redirect only on the host it was sent to: urllib would send the request's
    headers, the token among them, to whatever host a redirect names."""

    def redirect_request(
        self, req: urllib.request.Request, fp: Any, code: int, msg: str, headers: Any, newurl: str
    ) -> urllib.request.Request | None:
        if urllib.parse.urlsplit(newurl)[:2] != urllib.parse.urlsplit(req.full_url)[:2]:
            shown = urllib.parse.urlsplit(req.full_url).path
            raise ApiError(f"GitHub redirected {req.get_method()} {shown} to another host")
        return super().redirect_request(req, fp, code, msg, headers, newurl)


_OPENER = urllib.request.build_opener(_SameHost)


@dataclass(frozen=True)
class Api:
    url: str  # e.g. https://api.github.com, no trailing slash
    repository: str  # owner/name
    token: str | None

    @classmethod
    def from_env(cls, token_variable: str = "GITHUB_TOKEN") -> Api:
        """The API of the workflow's repository, as the runner's environment names it. A
        GITHUB_REPOSITORY not set is a step run outside a workflow (a UsageError, exit 2, as
        gitmem.cli.github refuses an event not set), never an answer of GitHub's: as an
        ApiError it exited 1, the code of a pull request refused."""
        repository = os.environ.get("GITHUB_REPOSITORY", "")
        if repository.count("/") != 1:
            raise UsageError(
                "GITHUB_REPOSITORY is not set to owner/name: run inside GitHub Actions"
            )
        url = os.environ.get("GITHUB_API_URL") or "https://api.github.com"
        return cls(url.rstrip("/"), repository, os.environ.get(token_variable) or None)

    @property
    def repo_path(self) -> str:
        return f"/repos/{self.repository}"

    def get(self, path: str, **params: str | int) -> Any:
        return self._call("GET", self._url(path, params))[0]

    def pages(self, path: str, key: str | None = None, **params: str | int) -> list[Any]:
        """Every item of a list endpoint, following its next links (key: the field holding
        the list when the answer is an object, as in `{"workflow_runs": [...]}`)."""
        url: str | None = self._url(path, {"per_page": 100, **params})
        items: list[Any] = []
        for _ in range(MAX_PAGES):
            if url is None:
                break
            body, link = self._call("GET", url)
            page = body.get(key) if key and isinstance(body, dict) else body
            if not isinstance(page, list):
                raise ApiError(f"GitHub answered {path} with no list")
            items.extend(page)
            match = _NEXT.search(link or "")
            url = match.group(1) if match else None
            if url is not None and not self._same_host(url):
                # a list cut short here could hide a request for changes or a pusher
                raise ApiError(f"GitHub answered {path} with a next page on another host")
        if url is None:  # the last page read was the last there is
            return items
        raise ApiError(f"GitHub answered {path} with more than {MAX_PAGES} pages")

    def post(self, path: str, body: Any) -> Any:
        return self._call("POST", self._url(path, {}), body)[0]

    def graphql(self, query: str, variables: dict[str, Any]) -> Any:
        """A GraphQL query's data (GITHUB_API_URL/graphql; on Enterprise, API_URL is
        https://HOST/api/v3 and GraphQL lives at https://HOST/api/graphql)."""
        base = self.url.removesuffix("/v3") if self.url.endswith("/api/v3") else self.url
        answer = self._call("POST", f"{base}/graphql", {"query": query, "variables": variables})[0]
        if not isinstance(answer, dict) or answer.get("errors") or "data" not in answer:
            errors = answer.get("errors") if isinstance(answer, dict) else None
            raise ApiError(f"GitHub's GraphQL API refused the query: {errors or answer!r}"[:300])
        return answer["data"]

    def _url(self, path: str, params: dict[str, str | int]) -> str:
        url = path if path.startswith("http") else f"{self.url}{path}"
        return f"{url}?{urllib.parse.urlencode(params)}" if params else url

    def _same_host(self, url: str) -> bool:
        return urllib.parse.urlsplit(url)[:2] == urllib.parse.urlsplit(self.url)[:2]

    def _call(self, method: str, url: str, body: Any = None) -> tuple[Any, str | None]:
        data = json.dumps(body).encode("utf-8") if body is not None else None
        request = urllib.request.Request(url, data=data, method=method)
        request.add_header("Accept", "application/vnd.github+json")
        request.add_header("X-GitHub-Api-Version", "2022-11-28")
        request.add_header("User-Agent", "gitmem")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Authorization", f"Bearer {self.token}")
        shown = urllib.parse.urlsplit(url).path
        try:
            with _OPENER.open(request, timeout=TIMEOUT) as answer:
                raw = answer.read(8 * 1024 * 1024)
                link = answer.headers.get("Link")
        except urllib.error.HTTPError as exc:
            raise ApiError(_refusal(method, shown, exc)) from None
        except (urllib.error.URLError, OSError, ValueError, http.client.HTTPException) as exc:
            # HTTPException: a body cut off (IncompleteRead), a status line that cannot be
            # read (BadStatusLine), which are no OSError
            raise ApiError(f"GitHub did not answer {method} {shown}: {exc}") from None
        if not raw:
            return None, link
        try:
            return json.loads(raw), link
        except ValueError:
            raise ApiError(f"GitHub answered {method} {shown} with something not JSON") from None


def _refusal(method: str, shown: str, exc: urllib.error.HTTPError) -> str:
    """What a refused call says: GitHub's own reason (its answer's `message`, on one line),
    and a rate limit told as one, with when to try again. GitHub refuses a call over its
    primary rate limit with 403 or 429 and no requests left (`x-ratelimit-remaining: 0`,
    until `x-ratelimit-reset`), and over a secondary limit with `retry-after`; a bare
    "HTTP 403" reads the same as a token without a permission."""
    headers = exc.headers
    try:
        body = json.loads(exc.read(64 * 1024) or b"null")
    except (OSError, ValueError):
        body = None
    reason = body.get("message") if isinstance(body, dict) else None
    said = " ".join(str(reason).split())[:200] if reason else str(exc.reason or "")
    refused = f"GitHub refused {method} {shown}: HTTP {exc.code} {said}".rstrip()
    if exc.code not in (403, 429) or headers is None:
        return refused
    retry = str(headers.get("retry-after") or "")
    if retry.isdigit():
        return f"{refused} (a secondary rate limit: run the workflow again in {retry} seconds)"
    if headers.get("x-ratelimit-remaining") == "0":
        reset = str(headers.get("x-ratelimit-reset") or "")
        when = (
            time.strftime("%H:%M:%S UTC", time.gmtime(int(reset))) if reset.isdigit() else "later"
        )
        return f"{refused} (the API rate limit is used up: run the workflow again after {when})"
    return refused
