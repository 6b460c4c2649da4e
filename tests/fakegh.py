"""A fake `gh` CLI on PATH for pull-request tests: it records its arguments and answers as the
environment tells it (FAKE_GH_AUTH, FAKE_GH_PERMISSION, FAKE_GH_PR_URL, ...)."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

FIELDS: dict[str, Any] = {
    "type": "decision",
    "title": "Use pygit2 inside hooks",
    "applies_when": "writing code that runs inside a git hook",
    "context": "Hooks ran git many times.",
    "content": "Read objects with pygit2.",
    "evidence": "A profile of the pre-commit hook.",
    "tags": ["hooks"],
    "files": ["README.md"],
    "rationale": "one git process per call costs more than the check",
}


FAKE_GH = """\
#!{python}
import json, os, sys
args = sys.argv[1:]
record = {{"args": args}}
if "--body-file" in args:
    name = args[args.index("--body-file") + 1]
    record["body"] = sys.stdin.read() if name == "-" else open(name, encoding="utf-8").read()
with open(os.environ["FAKE_GH_LOG"], "a", encoding="utf-8") as log:
    log.write(json.dumps(record) + "\\n")
if args[:2] == ["auth", "status"]:
    sys.exit(int(os.environ.get("FAKE_GH_AUTH", "0")))
if args[:1] == ["api"]:
    if os.environ.get("FAKE_GH_API_FAIL"):
        print("HTTP 403: Resource not accessible by integration", file=sys.stderr)
        sys.exit(1)
    print(os.environ.get("FAKE_GH_PERMISSION", "write"))
elif args[:2] == ["pr", "create"]:
    if os.environ.get("FAKE_GH_NO_LABEL") and "--label" in args:
        print("could not add label: 'gitmem' not found", file=sys.stderr)
        sys.exit(1)
    print(os.environ.get("FAKE_GH_PR_URL", "https://github.com/acme/shop/pull/7"))
"""


class FakeGh:
    """A fake gh on PATH; calls() answers what it was asked, in order."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.log = folder / "gh.log"
        script = folder / "gh"
        script.write_text(FAKE_GH.format(python=sys.executable))
        script.chmod(script.stat().st_mode | stat.S_IXUSR)
        os.environ["FAKE_GH_LOG"] = str(self.log)
        os.environ["PATH"] = os.pathsep.join([str(folder), os.environ["PATH"]])

    def calls(self) -> list[dict[str, Any]]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines()]

    def called(self, *prefix: str) -> list[dict[str, Any]]:
        return [c for c in self.calls() if c["args"][: len(prefix)] == list(prefix)]
