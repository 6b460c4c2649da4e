"""Stores of many admitted entries for the agents' tests, written with `git fast-import` (one
commit holding every entry, as a repository whose history was squashed), so even 100,000
entries build in seconds.

Entry n is admitted on day n // 10 from 2020-01-01 (ten a day); one in ten is a mistake, one
in seven supersedes the entry before it (which is then superseded); one in thirteen cites only
a file the project no longer has (gone/old.py), the others cite src/app.py.
"""

from __future__ import annotations

import datetime
import subprocess
from pathlib import Path

from gitmem.model.entry import Entry

from conftest import git

TYPES = ("decision", "method", "code-structure", "mistake")


def _entry(n: int, superseded_by: str | None) -> Entry:
    type_ = "mistake" if n % 10 == 3 else TYPES[n % 3]
    day = datetime.date(2020, 1, 1) + datetime.timedelta(days=n // 10)
    meta: dict[str, object] = {
        "id": f"shop-{type_}-{day:%Y%m%d}-lesson-number-{n}",
        "type": type_,
        "status": "superseded" if superseded_by else "admitted",
        "title": f"Lesson number {n}",
        "applies_when": f"working on area {n % 50}",
        "source": "human:alice",
        "admitted_by": "human:bob",
        "created": f"{day}",
        "admitted": f"{day}",
        "tags": ["area"],
        "files": ["gone/old.py"] if n % 13 == 5 else ["src/app.py"],
    }
    if superseded_by:
        meta["superseded_by"] = superseded_by
    if n % 7 == 6 and n >= 1:
        meta["supersedes"] = [entry_id(n - 1)]
    if type_ == "mistake":
        meta.update(correction="do it the other way", detection_signal="the tests fail")
    return Entry(meta, "It came up.", f"The lesson {n}.", "Evidence.")


def entry_id(n: int) -> str:
    type_ = "mistake" if n % 10 == 3 else TYPES[n % 3]
    day = datetime.date(2020, 1, 1) + datetime.timedelta(days=n // 10)
    return f"shop-{type_}-{day:%Y%m%d}-lesson-number-{n}"


def superseded(count: int) -> set[int]:
    return {n - 1 for n in range(count) if n % 7 == 6 and n >= 1}


def make_store(root: Path, count: int) -> None:
    """A repository whose main branch holds count entries (and src/app.py), in one commit."""
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    gone = superseded(count)
    chunks = [
        b"commit refs/heads/main\ncommitter A <a@example.com> 1700000000 +0000\ndata 6\nstore\n",
        b"M 100644 inline src/app.py\ndata 5\ncode\n",
        b"M 100644 inline .gitmem/refused.md\ndata 0\n",
    ]
    for n in range(count):
        entry = _entry(n, entry_id(n + 1) if n in gone else None)
        data = entry.render().encode("utf-8")
        path = f".gitmem/entries/{entry.type}/{entry.id}.md"
        chunks.append(b"M 100644 inline %s\ndata %d\n%s\n" % (path.encode(), len(data), data))
    subprocess.run(["git", "fast-import", "--quiet"], cwd=root, input=b"".join(chunks), check=True)
    git(root, "reset", "-q", "--hard", "main")
