"""The server hook fails closed when it cannot finish: killed half-way through judging (a
server's timeout, an out-of-memory killer, an administrator) or unable to say its verdict (the
pipe to the pusher gone), a push is never accepted half-checked. Real pushes to a bare remote
with the real hook; the hook's Python is made to die by a `sitecustomize` module put on its
path (a local push hands git's hooks the pusher's environment, which a test may set)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from clirunner import write
from remote import commit_all, entry_path, forged, index, push

from conftest import git

#: dies by the signal GITMEM_TEST_DIE names when the judge first loads the secret scanner,
#: half-way through a push that changes the memory
DYING = """\
import os, signal, sys

class _Die:
    def find_spec(self, name, path=None, target=None):
        if name == "gitmem.gate.scanner":
            os.kill(os.getpid(), getattr(signal, os.environ["GITMEM_TEST_DIE"]))
        return None

if os.environ.get("GITMEM_TEST_DIE") and "pre-receive" in sys.argv:
    # Ctrl-C reaches a hook whose SIGINT is Python's own: a test run started in the
    # background of a shell without job control inherits it ignored, and the hook then
    # judged on instead of dying
    signal.signal(signal.SIGINT, signal.default_int_handler)
    sys.meta_path.insert(0, _Die())
"""


def _dying(tmp_path: Path, signal_name: str) -> dict[str, str]:
    folder = tmp_path / "dying"
    folder.mkdir()
    (folder / "sitecustomize.py").write_text(DYING)
    return {"PYTHONPATH": str(folder), "GITMEM_TEST_DIE": signal_name}


@pytest.mark.parametrize("signal_name", ["SIGKILL", "SIGTERM", "SIGINT"])  # SIGINT: Ctrl-C
def test_a_hook_killed_while_judging_refuses_the_push(
    clone: Path, server: Path, tmp_path: Path, signal_name: str
) -> None:
    """A candidate file pushed to a branch: the hook dies as it starts scanning it, and the
    branch is not created (nor would it be with a forged entry on main)."""
    git(clone, "checkout", "-q", "-b", "gitmem/local-method-20261129-x")
    write(clone, ".gitmem/candidates/local-method-20261129-x.md", "notes\n")
    commit_all(clone, "a candidate")
    done = push(clone, "HEAD", env=_dying(tmp_path, signal_name))
    assert done.returncode != 0, done.stderr
    assert "pre-receive hook declined" in done.stderr, done.stderr
    assert git(server, "for-each-ref", "refs/heads/gitmem/") == ""
    said = {"SIGKILL": "Killed", "SIGTERM": "Terminated", "SIGINT": "gitmem: interrupted"}
    assert f"remote: {said[signal_name]}" in done.stderr, done.stderr  # it died, as meant


def test_a_verdict_the_hook_cannot_print_still_refuses(clone: Path, server: Path) -> None:
    """The hook's stderr gone (the pusher hung up, a forge's runner closed the pipe): the
    refusal it cannot print is still its exit code, never the 0 of an ordinary broken pipe
    (`gitmem list | head`)."""
    git(clone, "checkout", "-q", "-b", "feature")
    entry_id = "local-method-20261129-forged"
    write(clone, entry_path(entry_id), forged(entry_id))
    index(clone)
    new = commit_all(clone, "a forged entry")
    assert push(clone, "feature").returncode == 0  # a forged entry is no matter off main
    old = git(server, "rev-parse", "main").strip()
    read, write_end = os.pipe()
    os.close(read)  # whatever the hook writes to stderr now breaks the pipe
    try:
        done = subprocess.run(
            ["gitmem", "hook", "pre-receive"],
            cwd=server,
            input=f"{old} {new} refs/heads/main\n".encode(),
            stdout=subprocess.DEVNULL,
            stderr=write_end,
            env={**os.environ, "GIT_DIR": str(server)},
            check=False,
        )
    finally:
        os.close(write_end)
    assert done.returncode != 0
