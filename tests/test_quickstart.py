"""The README's Quick start, run as written: in a throwaway project with a bare remote that runs
gitmem's server hook, command by command with bash, on a project whose branch is main and on
one whose branch is master. The only edits: the install line is not run (the suite runs against
the installed package; tests/test_distribution.py holds the line to the distribution's name),
the admit line's ID becomes the id `gitmem propose` printed, and the teammate's URL the remote's
path."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gitmem import DISTRIBUTION

from conftest import git

README = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")


def quick_start() -> tuple[list[str], list[str]]:
    """The commands of the Quick start's two blocks (continuation lines joined)."""
    section = README.split("\n## Quick start\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    assert len(blocks) == 2, "the Quick start holds the first hour and the teammate's clone"
    return [_commands(block) for block in blocks]  # type: ignore[return-value]


def _commands(block: str) -> list[str]:
    return [line for line in block.replace("\\\n", " ").splitlines() if line.strip()]


def bash(cwd: Path, command: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env["PATH"]])
    return subprocess.run(
        ["bash", "--noprofile", "--norc", "-e", "-c", command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize("branch", ["main", "master"])
def test_the_quick_start_runs_as_written(tmp_path: Path, branch: str) -> None:
    first, teammate = quick_start()
    install = first.pop(0)
    assert install.split("#")[0].split() == ["pipx", "install", DISTRIBUTION]

    server = tmp_path / "shop.git"
    git(tmp_path, "init", "-q", "--bare", "-b", branch, str(server))
    assert bash(server, "gitmem hooks install --server").returncode == 0
    project = tmp_path / "shop"
    git(tmp_path, "init", "-q", "-b", branch, str(project))
    (project / "src").mkdir()
    (project / "src" / "payments.py").write_text("def charge(): ...\n")
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "the shop")
    git(project, "remote", "add", "origin", str(server))

    printed: dict[str, str] = {}
    for command in first:
        if command.startswith("gitmem admit ID"):
            command = command.replace("ID", printed["id"], 1)
        done = bash(project, command)
        assert done.returncode == 0, (command, done.stdout, done.stderr)
        found = re.search(r"^proposed (\S+)$", done.stdout, re.M)
        if found:
            printed["id"] = found.group(1)
            assert "(pushed)" in done.stdout, done.stdout
        if command.startswith("gitmem admit"):
            assert f"admitted {printed['id']}" in done.stdout and "pushed" in done.stdout
        if command.startswith("gitmem init"):
            assert f"memory branch: {branch} (" in done.stdout
    assert printed["id"].startswith("shop-decision-")
    assert git(server, "rev-parse", branch) == git(project, "rev-parse", branch)
    assert git(project, "status", "--porcelain") == ""

    # the teammate's block runs as one script (its `cd` holds for the next line)
    elsewhere = tmp_path / "teammate"
    elsewhere.mkdir()
    script = "\n".join(teammate).replace("URL", str(server))
    done = bash(elsewhere, script)
    assert done.returncode == 0, (script, done.stdout, done.stderr)
    assert "pre-commit: installed" in done.stdout
    clone = elsewhere / "shop"
    hooks = clone / ".git" / "hooks"
    assert all((hooks / name).is_file() for name in ("pre-commit", "pre-push", "post-merge"))
    listing = bash(clone, "gitmem list")
    assert printed["id"] in listing.stdout, listing.stdout + listing.stderr
