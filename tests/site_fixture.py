"""A real repository whose memory exercises every part of the site, built once per module.

Its history, through the real CLI: an entry admitted, the file it cites changed, a successor
admitted that supersedes it, an entry whose text tries to run script, a refused candidate, a
pending valid candidate and a pending candidate whose branch strays outside its own file.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from clirunner import HOOKS, SECRETS, ok, run

from conftest import git, isolated

HOSTILE = [
    "propose", "--type", "mistake", "--title", "Rendering untrusted Markdown in the review page",
    "--applies-when", "showing text written by someone else in a browser",
    "--context", "An entry held <script>window.pwned = 1; document.title = 'pwned'</script> "
    "and <img src=x onerror=\"window.pwned = 2\">.",
    "--content", "Never render raw HTML: [click me](javascript:window.pwned=3) and "
    "[data](data:text/html,<script>window.pwned=4</script>) and "
    "[spaced](  javascript:window.pwned=5) and ![pic](javascript:window.pwned=6) "
    "stay inert; [the docs](https://example.com/docs) and [a file](../../../README.md) link.",
    "--evidence", "<iframe src=\"javascript:window.pwned=7\"></iframe> `<b>code</b>`",
    "--correction", "escape everything; allow http, https and mailto links only",
    "--detection-signal", "a <script> tag appears in a rendered page",
    "--tag", "security", "--file", "README.md",
]  # fmt: skip
SUCCESSOR = [
    "propose", "--type", "decision", "--title", "Use pygit2 for every read inside git hooks",
    "--applies-when", "writing code that runs inside a git hook or reads objects",
    "--content", "Read objects and refs with pygit2; spawn git only for pushes.",
    "--file", "README.md", "--tag", "hooks", "--tag", "performance",
]  # fmt: skip
REFUSED = [
    "propose", "--type", "method", "--title", "Keep the search index in a database",
    "--applies-when", "storing derived data", "--content", "Use SQLite for the index.",
]  # fmt: skip
PENDING = [
    "propose", "--type", "method", "--title", "Review candidates on the memory site",
    "--applies-when", "a candidate waits for review",
    "--content", "Open the site's candidate page before approving.", "--tag", "review",
]  # fmt: skip
STRAY = [
    "propose", "--type", "method", "--title", "Stray candidate that edits code",
    "--applies-when", "never", "--content", "This branch also changes README.md.",
]  # fmt: skip


@dataclass(frozen=True)
class SiteRepo:
    path: Path
    first: str  # admitted, then superseded; its cited file changed after admission
    secrets: str  # admitted, fresh
    hostile: str  # admitted; its text tries to run script
    successor: str  # admitted, supersedes first
    refused: str
    pending: str  # a valid candidate
    stray: str  # a candidate whose branch changes README.md too
    first_admission: str  # the commit that admitted first


def _propose(repo: Path, args: list[str]) -> str:
    return ok(run(repo, *args)).output.split()[1]


def build_site_repo(repo: Path) -> SiteRepo:
    ok(run(repo, "init"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "gitmem init")
    first = _propose(repo, HOOKS)
    ok(run(repo, "admit", first))
    first_admission = git(repo, "rev-parse", "HEAD").strip()
    secrets = _propose(repo, SECRETS)
    ok(run(repo, "admit", secrets))
    (repo / "README.md").write_text("# project\n\nChanged after the first admission.\n")
    git(repo, "commit", "-q", "-am", "change the README")
    hostile = _propose(repo, HOSTILE)
    ok(run(repo, "admit", hostile))
    successor = _propose(repo, [*SUCCESSOR, "--supersedes", first])
    ok(run(repo, "admit", successor))
    refused = _propose(repo, REFUSED)
    ok(run(repo, "refuse", refused, "--reason", "derived data stays out of git"))
    pending = _propose(repo, PENDING)
    stray = _propose(repo, STRAY)
    git(repo, "checkout", "-q", f"gitmem/{stray}")
    (repo / "README.md").write_text("# project\n\nEdited on a candidate branch.\n")
    git(repo, "commit", "-q", "-am", "stray edit")
    git(repo, "checkout", "-q", "main")
    return SiteRepo(
        repo, first, secrets, hostile, successor, refused, pending, stray, first_admission
    )


@pytest.fixture(scope="module")
def site_repo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SiteRepo]:
    """Built once per module, in the same isolation every test has."""
    base = tmp_path_factory.mktemp("site-env")
    with isolated(base):
        path = base / "work"
        git(base, "init", "-q", "-b", "main", str(path))
        (path / "README.md").write_text("# project\n")
        git(path, "add", "README.md")
        git(path, "commit", "-q", "-m", "initial")
        yield build_site_repo(path)
