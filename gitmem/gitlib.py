"""pygit2, loaded without making OpenSSL parse the whole CA bundle.

As it is imported, pygit2 points libgit2 at the system's CA certificates, and libgit2 built
with OpenSSL then parses a bundle file whole: about 15 ms of every gitmem process that opens
a repository (a pre-receive hook takes some 200 ms in all), for TLS that gitmem never speaks
through libgit2 (pushes and fetches run the git CLI). Pointed at the CA directory alone, which
systems that have a bundle also have, OpenSSL reads a certificate only when one is needed.
gitmem.store imports this module first; nothing else changes (the ssl module is restored).
"""

from __future__ import annotations

import ssl
import sys


def _load() -> None:
    if "pygit2" in sys.modules:
        return
    real = ssl.get_default_verify_paths
    paths = real()
    if paths.capath:
        directory_only = paths._replace(cafile=None)  # type: ignore[arg-type]  # None: no file
        ssl.get_default_verify_paths = lambda: directory_only
    try:
        import pygit2  # noqa: F401 - kept in sys.modules for gitmem.store
    finally:
        ssl.get_default_verify_paths = real


_load()
