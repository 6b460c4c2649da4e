"""gitmem.hooks.github_api: the token goes only to the API's own host."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from gitmem.hooks.github_api import Api, ApiError


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
