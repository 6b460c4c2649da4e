"""pygit2, loaded without making OpenSSL parse the whole CA bundle, and without `ssl`.

As it is imported, libgit2 (built with OpenSSL) and then pygit2 point TLS at the system's CA
certificates, and OpenSSL parses a bundle file whole, twice when SSL_CERT_FILE names one:
some 30 ms of every gitmem process that opens a repository, for TLS that gitmem never speaks
through libgit2 (pushes and fetches run the git CLI). Pointed at the CA directory alone,
which systems that have a bundle also have, OpenSSL reads a certificate only when one is
needed: SSL_CERT_FILE is set aside while libgit2 starts, and pygit2 is given the directory.

pygit2 asks the `ssl` module for those paths, and `ssl` costs another 15 ms to import (its
enums); when nothing has imported it yet, pygit2 gets a stand-in answering the same two names
from `_ssl`, as `ssl` does, and a later `import ssl` loads the real module. The environment
and sys.modules are left as they were. gitmem.repo.store imports this module first.
"""

from __future__ import annotations

import os
import sys
import types
from typing import Any, NamedTuple


class _VerifyPaths(NamedTuple):
    """ssl.DefaultVerifyPaths, field for field."""

    cafile: str | None
    capath: str | None
    openssl_cafile_env: str
    openssl_cafile: str
    openssl_capath_env: str
    openssl_capath: str


def _default_verify_paths() -> _VerifyPaths:
    """ssl.get_default_verify_paths(): OpenSSL's defaults, which its environment variables
    override, each kept only when it exists."""
    import _ssl

    file_env, file_default, dir_env, dir_default = _ssl.get_default_verify_paths()
    cafile = os.environ.get(file_env, file_default)
    capath = os.environ.get(dir_env, dir_default)
    return _VerifyPaths(
        cafile if os.path.isfile(cafile) else None,
        capath if os.path.isdir(capath) else None,
        file_env,
        file_default,
        dir_env,
        dir_default,
    )


def _load() -> None:
    if "pygit2" in sys.modules:
        return
    paths = _default_verify_paths()
    answer = paths._replace(cafile=None) if paths.capath else paths
    ssl: Any = sys.modules.get("ssl")
    stand_in = ssl is None
    if stand_in:
        ssl = types.ModuleType("ssl", "gitmem's stand-in while pygit2 loads")
        ssl.DefaultVerifyPaths = _VerifyPaths
        sys.modules["ssl"] = ssl
    real = getattr(ssl, "get_default_verify_paths", None)
    ssl.get_default_verify_paths = lambda: answer
    bundle = os.environ.pop(paths.openssl_cafile_env, None) if paths.capath else None
    try:
        import pygit2  # noqa: F401 - kept in sys.modules for gitmem.repo.store
    finally:
        if bundle is not None:
            os.environ[paths.openssl_cafile_env] = bundle
        if stand_in:
            del sys.modules["ssl"]
        else:
            ssl.get_default_verify_paths = real


_load()
