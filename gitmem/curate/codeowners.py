"""CODEOWNERS from the settings: each entry type's files routed to the team that reviews it.

`memory.owners` names, per entry type, its owners as CODEOWNERS writes them. `gitmem init
--codeowners` writes one block of lines into the repository's CODEOWNERS (the first of
.github/CODEOWNERS, CODEOWNERS, docs/CODEOWNERS that exists, the order GitHub reads them in;
else a new .github/CODEOWNERS), between two marker comments, and rewrites only that block
when run again. `gitmem lint` checks that the committed block is the one the settings make
(rule CODEOWNERS).

Each owned type gets two lines, because a type's files appear in two places:

    /.gitmem/candidates/shop-decision-*.md @acme/architects   # the pull request of a candidate
    /.gitmem/entries/decision/ @acme/architects                # its admitted entries

A candidate's pull request changes only `candidates/<id>.md`, and the id holds the project
and the type (`<project>-<type>-<yyyymmdd>-<slug>`), so the first line makes GitHub ask that
team for the review; with "Require review from Code Owners" on (docs/review.md), the pull
request is not approved until one of them approves. CODEOWNERS has no character classes, so a
type that begins with another type and a dash (`code` and `code-structure`) would match the
shorter one's pattern: lines are written shortest type first (the last match wins), and a type
the settings leave without owners gets an owner-less line when an owned type's pattern would
otherwise claim its files. The block goes at the end of the file, since a later line would
override it; lint reports a later line that does.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gitmem.errors import UsageError
from gitmem.model.names import PROJECT_SETTINGS
from gitmem.model.problem import Problem
from gitmem.repo.atomic import ABANDONED_AGE, atomic_write, remove_temporaries_of
from gitmem.settings.load import Settings

LOCATIONS = (".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS")
BEGIN = "# gitmem: begin: written by `gitmem init --codeowners` from memory.owners; do not edit"
END = "# gitmem: end"
RULE = "CODEOWNERS"
_FIX = "run `gitmem init --codeowners` and commit CODEOWNERS"


@dataclass(frozen=True)
class Written:
    path: str
    action: str  # created, updated, unchanged


def block(settings: Settings) -> list[str]:
    """The lines gitmem owns in CODEOWNERS, markers included ([] when no type has owners)."""
    owners = dict(settings.owners)
    if not owners:
        return []
    folder = settings.dir
    if re.search(r"[\s#\\*?]", folder):  # no escapes: '*' and '?' would match other folders
        raise UsageError(
            f"memory.dir {folder!r} holds a space, '#', '\\', '*' or '?', which CODEOWNERS "
            "cannot write"
        )
    types = sorted(set(settings.all_types) | set(owners), key=lambda t: (len(t), t))
    lines = [BEGIN]
    for name in types:
        shadowed = any(name.startswith(other + "-") for other in owners if other != name)
        if name not in owners and not shadowed:
            continue
        who = owners.get(name, "")
        lines.append(f"/{folder}/candidates/{settings.project}-{name}-*.md {who}".rstrip())
        lines.append(f"/{folder}/entries/{name}/ {who}".rstrip())
    lines.append(END)
    return lines


def find(exists: Callable[[str], bool]) -> str | None:
    """The CODEOWNERS file GitHub would read, among those that exist."""
    return next((path for path in LOCATIONS if exists(path)), None)


def _without_block(lines: list[str]) -> tuple[list[str], int | None]:
    """The file's lines less gitmem's block, every copy of it (a merge that kept both sides
    writes it twice), and where the first started (None: no block)."""
    start = lines.index(BEGIN) if BEGIN in lines else None
    rest = list(lines)
    while BEGIN in rest:
        at = rest.index(BEGIN)
        end = rest.index(END, at) if END in rest[at:] else len(rest) - 1
        rest = rest[:at] + rest[end + 1 :]
    return rest, start


def _unclosed(lines: list[str]) -> int | None:
    """Where a block of gitmem's starts that no end line closes before the next one starts."""
    for at, line in enumerate(lines):
        if line == BEGIN:
            following = (x for x in lines[at + 1 :] if x in (BEGIN, END))
            if next(following, None) != END:
                return at
    return None


def install(root: Path, settings: Settings) -> Written:
    """Write (or bring up to date) gitmem's block in the repository's CODEOWNERS."""
    wanted = block(settings)
    if not wanted:
        raise UsageError(
            'memory.owners names no team: add e.g. `owners = { decision = "@acme/architects" }` '
            "under [memory] in .gitmem.toml, then run gitmem init --codeowners again"
        )
    path = find(lambda p: (root / p).is_file()) or LOCATIONS[0]
    target = root / path
    if target.is_symlink() or not target.parent.resolve().is_relative_to(root.resolve()):
        # a cloned repository may link CODEOWNERS (or .github/) to any file of the machine:
        # read through the link and written back, that file's text landed in the repository
        raise UsageError(
            f"{path} is a symbolic link, or lies behind one: gitmem does not follow it; put "
            "a regular CODEOWNERS file there, then run this again"
        )
    remove_temporaries_of([target], ABANDONED_AGE)  # a killed run's, untracked beside it
    try:
        current = target.read_bytes().decode("utf-8")  # as it is: CRLF stays CRLF
    except FileNotFoundError:
        current = None
    except UnicodeDecodeError:
        raise UsageError(
            f"{path} is not UTF-8 text, and gitmem reads and writes it as UTF-8: save it as "
            "UTF-8, then run this again"
        ) from None
    except OSError as exc:  # a folder of that name, a file where its folder goes
        raise _unwritable(path, exc) from None
    lines = current.splitlines() if current is not None else []
    rest, start = _without_block(lines)
    unclosed = _unclosed(lines)
    if unclosed is not None:
        # the block would run to the end of the file, and the team's lines below it with it
        raise UsageError(
            f"{path}:{unclosed + 1}: gitmem's block has no end line {END!r}: put it back after "
            "the block's last line (the lines below it are yours), then run this again"
        )
    if start is None:
        while rest and not rest[-1].strip():
            rest.pop()
        merged = [*rest, *([""] if rest else []), *wanted]
    else:
        merged = rest[:start] + wanted + rest[start:]
    newline = "\r\n" if current is not None and "\r\n" in current else "\n"
    text = newline.join(merged) + newline
    if text == current:
        return Written(path, "unchanged")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(target, text.encode("utf-8"))
    except OSError as exc:
        raise _unwritable(path, exc) from None
    return Written(path, "created" if current is None else "updated")


def _unwritable(path: str, exc: OSError) -> UsageError:
    return UsageError(
        f"{path} cannot be written: {exc.strerror or exc}: CODEOWNERS is a file there (move "
        "what is in its way), then run this again"
    )


def check(settings: Settings, read: Callable[[str], str | None]) -> list[Problem]:
    """The CODEOWNERS rule: the committed block is the one memory.owners makes, nothing after
    it overrides it, and every owned type is a type the project has."""
    problems: list[Problem] = []
    known = set(settings.all_types)
    for name, _ in settings.owners:
        if name not in known:
            problems.append(
                Problem(
                    PROJECT_SETTINGS,
                    None,
                    RULE,
                    f"memory.owners names type {name!r}, which the project does not have "
                    f"(types: {', '.join(settings.all_types)}): fix the key or add the type "
                    "to memory.types",
                )
            )
    texts = {path: read(path) for path in LOCATIONS}
    path = next((p for p in LOCATIONS if texts[p] is not None), None)
    wanted = block(settings)
    if path is None:
        if wanted:
            problems.append(
                Problem(LOCATIONS[0], None, RULE, f"missing: memory.owners routes types; {_FIX}")
            )
        return problems
    lines = (texts[path] or "").splitlines()
    _, start = _without_block(lines)
    if not wanted:
        if start is not None:
            problems.append(
                Problem(
                    path,
                    start + 1,
                    RULE,
                    "gitmem's block is here but memory.owners names no team: remove the block "
                    "or set memory.owners",
                )
            )
        return problems
    if start is None:
        problems.append(Problem(path, None, RULE, f"has no gitmem block for memory.owners; {_FIX}"))
        return problems
    have = lines[start : start + len(wanted)]
    if have != wanted:
        offset = next(
            (i for i, (a, b) in enumerate(zip(have, wanted, strict=False)) if a != b),
            min(len(have), len(wanted)),
        )
        problems.append(
            Problem(
                path,
                start + offset + 1,
                RULE,
                f"gitmem's block differs from what memory.owners makes "
                f"(expected {wanted[min(offset, len(wanted) - 1)]!r}); {_FIX}",
            )
        )
    after = start + len(wanted)
    routed = [_example(line.split()[0]) for line in wanted[1:-1]]
    copy = False
    for number, line in enumerate(lines[after:], start=after + 1):
        if line == BEGIN:
            problems.append(
                Problem(path, number, RULE, f"gitmem's block is here a second time; {_FIX}")
            )
        copy = (copy or line == BEGIN) and line != END
        if copy or line == END:
            continue
        pattern = line.split("#", 1)[0].split()
        if pattern and any(_matcher(pattern[0]).fullmatch(path) for path in routed):
            problems.append(
                Problem(
                    path,
                    number,
                    RULE,
                    f"{pattern[0]!r} comes after gitmem's block and overrides it for the memory "
                    "folder (the last matching line wins): move it above the block",
                )
            )
    return problems


def _example(pattern: str) -> str:
    """A file one of gitmem's own patterns routes: `/.gitmem/entries/decision/` gives
    `.gitmem/entries/decision/x.md`, `…/shop-decision-*.md` gives `…/shop-decision-x.md`."""
    return (pattern.strip("/") + ("/x.md" if pattern.endswith("/") else "")).replace("*", "x")


_WILDCARDS = {"**/": "(?:.*/)?", "/**": "(?:/.*)?", "**": ".*", "*": "[^/]*", "?": "[^/]"}


def _matcher(pattern: str) -> Any:
    """A CODEOWNERS pattern as a regular expression over repository paths, by the gitignore
    rules GitHub applies: a slash before the end anchors it at the root (else it matches at
    any depth), `*` and `?` stay within a name, `**` crosses folders, and a pattern that
    names a folder matches everything below it (a trailing slash: only a folder). RE2, not
    re: a committed line of many `*a` would backtrack for minutes on one path."""
    import re2

    anchored = "/" in pattern.rstrip("/")
    parts = re.split(r"(\*\*/|/\*\*|\*\*|\*|\?)", pattern.strip("/"))
    body = "".join(_WILDCARDS.get(part, re.escape(part)) for part in parts)
    head = "" if anchored else "(?:.*/)?"
    tail = "/.*" if pattern.endswith("/") else "(?:/.*)?"
    return re2.compile(f"{head}{body}{tail}")
