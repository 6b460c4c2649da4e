"""`gitmem check --format sarif`: the check's report as a SARIF 2.1.0 log, for GitHub code
scanning (and any SARIF viewer).

Uploaded by the check workflow (`github/codeql-action/upload-sarif`, with a category of its
own), the findings show inline on the pull request's files beyond the caps workflow
annotations have (ten errors and ten warnings a step), and stay listed under Security → Code
scanning until a later run no longer reports them.

The log has one run whose tool is gitmem, with a rule descriptor for every rule gitmem has
(RULES: the README's rule table, said once more here where SARIF viewers show it), one result
a problem: its rule, its level (error, or warning for warnings), its message, and where it is
(the file as a path from the repository root, percent-encoded as the URI reference SARIF asks
for, and the line when the rule knows it; a finding about a whole file points at its first
line). Each result carries a partial fingerprint made of the rule, the path and the message
less the commit it names, so a finding that persists across pushes stays one alert. The
output is byte-stable: keys sorted, results in the order of the report.
"""

from __future__ import annotations

import hashlib
import json
import re
import urllib.parse
from importlib import metadata
from typing import Any

from gitmem import DISTRIBUTION, __version__
from gitmem.model.problem import Problem

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"

#: Every rule gitmem reports: id | the gates that run it | what fails (one rule a line).
_RULE_TABLE = """
FRONT-MATTER | file | No front matter, invalid YAML, not a mapping, duplicate keys, aliases, tags.
SECTIONS | file | A section missing, repeated, out of order or unknown; text before Context.
SCHEMA | file | A field missing, unknown or misshapen; a type or source the rules forbid.
ID-PATH | file | The id disagrees with the file name.
ID-TYPE | file | The id disagrees with the entry's type or folder.
ID-DATE | file | The id disagrees with the created date.
ID-FORMAT | file | The id is not `<project>-<type>-<yyyymmdd>-<slug>`.
DATE | file | `created`, `admitted`, `amended` or `retired` is not a calendar date.
STATUS-FOLDER | file | The status does not fit the folder (a candidate under entries/...).
BODY-LENGTH | file | The body is longer than `memory.maxBody` characters.
SECRET | file, history | A secret: token, private key, password, entropy near a secret word.
HIDDEN-UNICODE | file, history | Zero-width, bidirectional-control or other invisible characters.
REFUSED-TOPIC | file | The topic was refused before (a near match is a warning naming the refusal).
FILES-MISSING | file | A cited file does not exist where the entry is admitted.
BINARY | file | Not a text file (NUL bytes).
ENCODING | file | Not valid UTF-8.
TOO-LARGE | file | A memory file over 64 KiB.
SYMLINK | file | A symbolic link where a memory file must be a file.
LAYOUT | file, history | Not where memory files live (or a case variant of the folder or branch).
CONFLICT | file, history | INDEX.md, refused.md or allowed.md holds a merge's conflict marker.
SETTINGS | pre-commit | The commit leaves the settings file unreadable: its memory folder unjudged.
DUPLICATE | propose, admit | The same topic as an admitted entry.
AMEND | propose, admit | An amendment changes the entry's type, source or created date.
LINEAGE | propose, admit, history | Supersedes what is no admitted entry, or leaves it admitted.
CANDIDATE-BRANCH | history | A gitmem/<id> branch changes more than its own file, or is misnamed.
HISTORY-ADMIT | history | An entry on main without an admit merge carrying the same candidate text.
HISTORY-ADMITTER | history | `admitted_by` is not an allowed admitter (or not the pusher).
HISTORY-EDIT | history | An entry was edited other than by a supersession, amend or retire merge.
HISTORY-AMEND | history | An amend merge writes other text than its reviewed candidate makes.
HISTORY-RETIRE | history | A retire merge changes more than the retirement its candidate names.
HISTORY-DELETE | history | An entry was deleted, or the main branch was.
HISTORY-CANDIDATE | history | A file under candidates/ on the main branch.
HISTORY-REFUSED | history | refused.md was edited, shortened or given a malformed row.
HISTORY-SETTINGS | history | A push to main changes a policy setting; its pusher is no admin.
INDEX | history | INDEX.md does not match its tree, in any commit of main's first-parent chain.
POLICY | history | The server holds no usable gitmem policy in its git config.
INDEX-DRIFT | lint | INDEX.md is missing, hand-written or out of date.
LINEAGE-BROKEN | lint | A lineage field names an entry the memory lacks.
LINEAGE-ONE-SIDED | lint | `supersedes` and `superseded_by` do not agree.
LINEAGE-CYCLE | lint | Supersession goes round in a cycle.
ID-DUPLICATE | lint | Two files hold the same id.
ID-TITLE | lint | The id's slug no longer matches the title.
FILES-DEAD | lint | A cited file no longer exists.
CONTRADICTION | lint | Two admitted entries apply to the same situation and disagree.
CHANGELOG-BODY | lint | The body has grown into a change log.
RELATIVE-DATE | lint | Admitted text uses a relative date (yesterday) that will not stay true.
CODEOWNERS | lint | CODEOWNERS does not route an entry type's files to the team the settings name.
"""
RULES: dict[str, tuple[str, str]] = {
    rule: (gate, text)
    for rule, gate, text in (
        (cell.strip() for cell in line.split("|", 2)) for line in _RULE_TABLE.strip().splitlines()
    )
}
_COMMIT_NOTE = re.compile(r" \(commit [0-9a-f]{7,40}\)")


def _name(rule: str) -> str:
    return "".join(part.capitalize() for part in rule.split("-"))


def _version() -> str:
    """gitmem's version, as its distribution (DISTRIBUTION: the name `gitmem` on the package
    index is another project's) records it, or the package's own from a source tree."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:  # run from a source tree never installed
        return __version__


def _descriptor(rule: str) -> dict[str, Any]:
    gate, text = RULES.get(rule, ("", f"gitmem rule {rule}."))
    descriptor: dict[str, Any] = {
        "id": rule,
        "name": _name(rule),
        "shortDescription": {"text": text.split(" (")[0].rstrip(".") + "."},
        "fullDescription": {"text": text},
        "help": {
            "text": f"{text} The message of each finding says what to do. "
            "`gitmem check --help` lists the gates; the README's rule table every rule."
        },
        "defaultConfiguration": {"level": "error"},
        "properties": {"tags": ["gitmem", *(g.strip() for g in gate.split(",") if g.strip())]},
    }
    if rule == "SECRET":
        descriptor["properties"]["security-severity"] = "8.0"
        descriptor["properties"]["tags"].append("security")
    return descriptor


def _uri(path: str) -> str:
    """A path from the repository root as the relative URI reference SARIF asks for (§3.4.3):
    every character but the unreserved ones and '/' percent-encoded, UTF-8 first, so a space, a
    '#' (a fragment), a '?' (a query), a ':' (a scheme) or a letter beyond ASCII in a file name,
    or a finding that names no file (`commit 0123456789ab message`), still reads back as the
    path."""
    return urllib.parse.quote(path.lstrip("/"), safe="/")


def _fingerprint(problem: Problem) -> str:
    message = _COMMIT_NOTE.sub("", problem.message)
    key = "\0".join((problem.rule, problem.path, message))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def log(problems: list[Problem], warnings: list[str] | None = None) -> dict[str, Any]:
    """The SARIF log of a check's problems (and its settings warnings, as notifications)."""
    rules = sorted({*RULES, *(p.rule for p in problems)})
    index = {rule: i for i, rule in enumerate(rules)}
    results = []
    for problem in problems:
        location = {
            "physicalLocation": {
                "artifactLocation": {"uri": _uri(problem.path), "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": problem.line or 1},
            }
        }
        results.append(
            {
                "ruleId": problem.rule,
                "ruleIndex": index[problem.rule],
                "level": "warning" if problem.warning else "error",
                "message": {"text": problem.message},
                "locations": [location],
                "partialFingerprints": {"gitmemFinding/v1": _fingerprint(problem)},
            }
        )
    invocation: dict[str, Any] = {"executionSuccessful": True}
    if warnings:
        invocation["toolConfigurationNotifications"] = [
            {"level": "warning", "message": {"text": w}} for w in warnings
        ]
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "gitmem",
                        "version": _version(),
                        "rules": [_descriptor(rule) for rule in rules],
                    }
                },
                "originalUriBaseIds": {
                    "%SRCROOT%": {"description": {"text": "the repository root"}}
                },
                "invocations": [invocation],
                "results": results,
            }
        ],
    }


def render(problems: list[Problem], warnings: list[str] | None = None) -> str:
    return json.dumps(log(problems, warnings), indent=2, sort_keys=True, ensure_ascii=False)
