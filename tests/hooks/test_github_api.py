"""gitmem.hooks.github_api: the token goes only to the API's own host."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from gitmem.hooks.github_api import MAX_PAGES, Api, ApiError


@contextmanager
def _server(location: str | None, seen: list[str | None]) -> Iterator[str]:
    """A server that redirects a GET to location + its path (to its own /moved/ when location
    is "self"), answers {} when location is None or the path is under /moved/, and records the
    Authorization header of each request."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_args: Any) -> None:
            pass

        def do_GET(self) -> None:
            seen.append(self.headers.get("Authorization"))
            if location is None or self.path.startswith("/moved/"):
                self.send_response(200)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"{}")
                return
            self.send_response(302)
            own = f"http://127.0.0.1:{self.server.server_address[1]}/moved"
            self.send_header("Location", (own if location == "self" else location) + self.path)
            self.send_header("Content-Length", "0")
            self.end_headers()

    with _serving(Handler) as url:
        yield url


def test_a_redirect_to_another_host_is_refused_and_gets_no_token() -> None:
    """urllib follows a redirect with every header of the request, Authorization included:
    an API answer redirecting elsewhere handed the step's token to that host."""
    elsewhere: list[str | None] = []
    api_seen: list[str | None] = []
    with _server(None, elsewhere) as other:
        port = other.rsplit(":", 1)[1]
        with (
            _server(f"http://localhost:{port}", api_seen) as url,
            pytest.raises(ApiError, match="redirected"),
        ):
            Api(url, "acme/shop", "secret-token").get("/repos/acme/shop/pulls/1")
    assert api_seen == ["Bearer secret-token"]
    assert elsewhere == []


def test_a_redirect_on_the_same_host_is_followed() -> None:
    seen: list[str | None] = []
    with _server("self", seen) as url:
        assert Api(url, "acme/shop", "secret-token").get("/repos/acme/shop") == {}
    assert seen == ["Bearer secret-token", "Bearer secret-token"]


@contextmanager
def _paged(next_link: str, seen: list[str | None]) -> Iterator[str]:
    """A server answering every GET with a one-item list and a Link to next_link ({port}: its
    own port)."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_args: Any) -> None:
            pass

        def do_GET(self) -> None:
            seen.append(self.headers.get("Authorization"))
            self.send_response(200)
            self.send_header("Content-Length", "4")
            link = next_link.format(port=self.server.server_address[1])
            self.send_header("Link", f'<{link}>; rel="next"')
            self.end_headers()
            self.wfile.write(b"[{}]")

    with _serving(Handler) as url:
        yield url


@pytest.mark.parametrize("elsewhere", ["http://localhost:{port}/2", "https://127.0.0.1:{port}/2"])
def test_a_next_page_elsewhere_fails_rather_than_cutting_the_list_short(elsewhere: str) -> None:
    """A next page on another host (or over another scheme) was not followed, and the list
    ended there: reviews, pushes or commits beyond the first page were silently missing, so a
    request for changes or a pusher on page two went unseen. Such a list is now an ApiError."""
    seen: list[str | None] = []
    with _paged(elsewhere, seen) as url, pytest.raises(ApiError, match="next page"):
        Api(url, "acme/shop", "secret-token").pages("/repos/acme/shop/pulls/1/reviews")
    assert seen == ["Bearer secret-token"]


@contextmanager
def _serving(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """The address of a local HTTP server answering with handler, shut down on exit."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def _refusing(status: int, headers: dict[str, str], body: bytes) -> Iterator[str]:
    """A server answering every GET with status, headers and body."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_args: Any) -> None:
            pass

        def do_GET(self) -> None:
            self.send_response(status, "Forbidden" if status == 403 else None)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    with _serving(Handler) as url:
        yield url


RESET = 1796558400  # 2026-12-06T12:00:00Z


@pytest.mark.parametrize(
    ("status", "headers", "said"),
    [
        # the primary limit: 403 (or 429) with no requests left until the reset
        (403, {"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(RESET)}, "12:00:00 UTC"),
        (429, {"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(RESET)}, "12:00:00 UTC"),
        # a secondary limit: wait as long as retry-after says
        (403, {"retry-after": "60"}, "60 seconds"),
    ],
)
def test_a_rate_limit_is_told_as_one(status: int, headers: dict[str, str], said: str) -> None:
    """GitHub refuses a call over its rate limits with 403 (or 429) and says so in headers and
    body; the message was "HTTP 403 Forbidden", the same as a token without a permission,
    which sent people to the workflow's permissions for a limit that only needs waiting."""
    body = b'{"message": "API rate limit exceeded for installation ID 1."}'
    with _refusing(status, headers, body) as url, pytest.raises(ApiError) as caught:
        Api(url, "acme/shop", "secret-token").get("/repos/acme/shop/pulls/1")
    assert "rate limit" in caught.value.message and said in caught.value.message
    assert "run the workflow again" in caught.value.message


def test_a_refusal_says_what_github_said() -> None:
    """GitHub's own reason ("Resource not accessible by integration": the job's token lacks a
    permission) was dropped, leaving only "HTTP 403 Forbidden"."""
    body = b'{"message": "Resource not accessible by integration\\n", "status": "403"}'
    limits = {"x-ratelimit-remaining": "4999"}
    with _refusing(403, limits, body) as url, pytest.raises(ApiError) as caught:
        Api(url, "acme/shop", "secret-token").get("/repos/acme/shop/commits/a/status")
    message = caught.value.message
    assert "HTTP 403" in message and "Resource not accessible by integration" in message
    assert "\n" not in message and "rate limit" not in message


@contextmanager
def _cut_short(head: bytes, sent: bytes) -> Iterator[str]:
    """A server that answers head (a status line and headers), sends sent and hangs up."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_args: Any) -> None:
            pass

        def do_GET(self) -> None:
            self.wfile.write(head + b"\r\n" + sent)
            self.wfile.flush()
            self.close_connection = True

    with _serving(Handler) as url:
        yield url


@pytest.mark.parametrize(
    ("head", "sent"),
    [
        # GitHub sends long lists chunked: the connection lost inside a chunk (IncompleteRead)
        (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n", b'400\r\n[{"id": 1}'),
        # no status line a client can read (BadStatusLine)
        (b"HTTP/1.1 2OO OK\r\nContent-Length: 2\r\n", b"[]"),
    ],
)
def test_a_connection_cut_short_is_an_api_error(head: bytes, sent: bytes) -> None:
    """http.client reports a body cut off inside a chunk (IncompleteRead) and a status line it
    cannot read (BadStatusLine) as HTTPException, which is no OSError: they escaped as an
    unexpected error, a traceback and exit 3, where a lost connection is an ApiError (exit 1,
    nothing admitted, a message) like any other."""
    with _cut_short(head, sent) as url, pytest.raises(ApiError, match="did not answer"):
        Api(url, "acme/shop", "secret-token").pages("/repos/acme/shop/pulls/1/reviews")


@contextmanager
def _numbered(last: int) -> Iterator[str]:
    """A server answering page n (`?page=n`, 1 when not given) with the one-item list [n] and
    a Link to page n + 1 while n < last."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_args: Any) -> None:
            pass

        def do_GET(self) -> None:
            query = self.path.partition("?")[2]
            number = next((int(p[5:]) for p in query.split("&") if p.startswith("page=")), 1)
            body = f"[{number}]".encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            if number < last:
                port = self.server.server_address[1]
                link = f"http://127.0.0.1:{port}/list?page={number + 1}"
                self.send_header("Link", f'<{link}>; rel="next"')
            self.end_headers()
            self.wfile.write(body)

    with _serving(Handler) as url:
        yield url


def test_a_list_of_exactly_the_most_pages_is_read_whole() -> None:
    """A list of MAX_PAGES pages, the last with no next link, was refused as "more than
    MAX_PAGES pages" (the loop ended on its last page without asking whether more followed);
    one page more still is."""
    with _numbered(MAX_PAGES) as url:
        assert Api(url, "acme/shop", None).pages("/list") == list(range(1, MAX_PAGES + 1))
    with _numbered(MAX_PAGES + 1) as url, pytest.raises(ApiError, match="more than"):
        Api(url, "acme/shop", None).pages("/list")
