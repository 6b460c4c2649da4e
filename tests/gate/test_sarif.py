"""`gitmem check --format sarif`: a SARIF 2.1.0 log that the schema accepts and code scanning
reads: one result a problem, with its rule, level, file and line."""

from __future__ import annotations

import json
import re
import urllib.parse
from importlib import metadata
from pathlib import Path

import jsonschema
import jsonschema_rs
import pytest
from clirunner import run, write
from npmpkgs import SARIF_SCHEMA, SARIF_SCHEMA_PACKAGE, fetch

import gitmem
from gitmem import DISTRIBUTION
from gitmem.gate import sarif
from gitmem.model.problem import Problem

from entries import text

CANDIDATE = ".gitmem/candidates/shop-method-20261129-run-hooks-through-gitmem.md"
README = Path(__file__).resolve().parents[2] / "README.md"


@pytest.fixture(scope="module")
def schema(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    folder = fetch(SARIF_SCHEMA_PACKAGE, tmp_path_factory.getbasetemp() / "npm")
    loaded: dict[str, object] = json.loads((folder / SARIF_SCHEMA).read_text(encoding="utf-8"))
    return loaded


def _sarif(repo: Path, *args: str) -> tuple[int, dict[str, object], str]:
    result = run(repo, "check", *args, "--format", "sarif")
    return result.exit_code, json.loads(result.stdout), result.stdout


def test_problems_as_valid_sarif(repo: Path, schema: dict[str, object]) -> None:
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    written = text(body=f"## Context\nc\n## Content\nuse {token}\n## Evidence\ne\n")
    write(repo, CANDIDATE, written)
    token_line = written.splitlines().index(f"use {token}") + 1
    code, log, out = _sarif(repo)
    assert code == 1
    jsonschema.Draft7Validator(schema).validate(log)
    run_ = log["runs"][0]  # type: ignore[index]
    results = run_["results"]
    secret = [r for r in results if r["ruleId"] == "SECRET"]
    assert secret, results
    finding = secret[0]
    assert finding["level"] == "error"
    place = finding["locations"][0]["physicalLocation"]
    assert place["artifactLocation"]["uri"] == CANDIDATE
    assert place["region"]["startLine"] == token_line
    assert token not in out  # the secret is never printed, here neither
    rules = run_["tool"]["driver"]["rules"]
    assert rules[finding["ruleIndex"]]["id"] == "SECRET"
    assert {r["id"] for r in rules} >= set(sarif.RULES)
    assert _sarif(repo)[2] == out  # byte-stable


def test_a_clean_check_is_an_empty_run(repo: Path, schema: dict[str, object]) -> None:
    write(repo, CANDIDATE, text())
    code, log, _ = _sarif(repo)
    assert code == 0
    jsonschema.Draft7Validator(schema).validate(log)
    assert log["runs"][0]["results"] == []  # type: ignore[index]


def test_warnings_and_file_level_findings() -> None:
    problems = [
        Problem("a.md", None, "REFUSED-TOPIC", "near a refused topic", warning=True),
        Problem("b.md", 3, "NEW-RULE", "a rule the catalogue lacks (commit 0123456789ab)"),
    ]
    log = sarif.log(problems, ["memory.maxBody: not a number"])
    results = log["runs"][0]["results"]
    assert results[0]["level"] == "warning"
    assert results[0]["locations"][0]["physicalLocation"]["region"] == {"startLine": 1}
    assert any(r["id"] == "NEW-RULE" for r in log["runs"][0]["tool"]["driver"]["rules"])
    notes = log["runs"][0]["invocations"][0]["toolConfigurationNotifications"]
    assert notes[0]["message"]["text"] == "memory.maxBody: not a number"
    # the commit a history finding names does not split one finding into many alerts
    again = sarif.log(
        [Problem("b.md", 3, "NEW-RULE", "a rule the catalogue lacks (commit ffff000)")]
    )
    assert (
        again["runs"][0]["results"][0]["partialFingerprints"] == (results[1]["partialFingerprints"])
    )


def test_every_rule_of_the_readme_has_a_descriptor() -> None:
    table = README.read_text(encoding="utf-8").split("| rule | gate | fails when |", 1)[1]
    ids = set()
    for line in table.split("\n\n", 1)[0].splitlines():
        cell = line.split("|")[1] if line.startswith("|") else ""
        ids.update(re.findall(r"`([A-Z][A-Z-]+)`", cell))
    assert ids, "the README's rule table moved"
    assert ids <= set(sarif.RULES), ids - set(sarif.RULES)


#: RFC 3986's URI and URI reference, as the SARIF schema names them (jsonschema alone checks
#: neither format without an extra package)
_URI_FORMATS = jsonschema.FormatChecker([])
for _format in ("uri", "uri-reference"):
    _URI_FORMATS.checks(_format)(
        jsonschema_rs.Draft7Validator({"format": _format}, validate_formats=True).is_valid
    )


@pytest.mark.parametrize(
    "path",
    [
        ".gitmem/candidates/notes #1.md",  # a space, and a '#' that would start a fragment
        ".gitmem/candidates/100%.md",  # a '%' that is no escape
        ".gitmem/candidates/ünïcode.md",  # not ASCII: a URI holds it percent-encoded
        "commit 0123456789ab message",  # a secret in a commit message: no file at all
        "a:b.md",  # read as the scheme `a` when written raw
    ],
)
def test_every_location_is_a_uri_reference(path: str, schema: dict[str, object]) -> None:
    """artifactLocation.uri is a URI reference (SARIF 2.1.0 §3.4.3; the schema's format
    `uri-reference`). The path went in raw: a space, a '#' or a letter beyond ASCII made the
    log invalid, and a '#' cut what code scanning read of the path at it."""
    log = sarif.log([Problem(path, 2, "SECRET", "a token")])
    jsonschema.Draft7Validator(schema, format_checker=_URI_FORMATS).validate(log)
    uri = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert urllib.parse.unquote(uri["uri"]) == path
    assert urllib.parse.urlsplit(uri["uri"]).path == uri["uri"]  # no scheme, query, fragment


def test_the_tool_is_the_gitmem_that_ran() -> None:
    """The driver's version was read from the distribution `gitmem`, which is not gitmem's
    (DISTRIBUTION names it): every log said version "0", or the version of whatever unrelated
    project of that name was installed beside it."""
    driver = sarif.log([])["runs"][0]["tool"]["driver"]
    assert driver["version"] == metadata.version(DISTRIBUTION) == gitmem.__version__
