"""One entry text through every door that judges it: `gitmem check` of the file in the
working tree (what the pre-commit hook runs) and the server's pre-receive hook, which judges
the same bytes pushed on a candidate branch. Hostile texts must get the same verdict from
both, naming the same rules, and neither may fail unexpectedly (exit 3, a traceback)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from clirunner import run, write
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from remote import commit_all, push

from gitmem.errors import RuleError
from gitmem.gate.rules import MAX_FILE_BYTES, Context, Place, check_bytes
from gitmem.model.entry import Entry, parse
from gitmem.model.proposal import BODY_FIELDS, SET_BY_GITMEM, ProposalFields
from gitmem.settings.load import Settings

from conftest import git
from entries import text

ENTRY_ID = "local-method-20261129-run-hooks-through-gitmem"
PATH = f".gitmem/candidates/{ENTRY_ID}.md"
RULE = re.compile(r"^(?:remote: )?\S+?:(?:\d+:)? ([A-Z][A-Z-]+) ", re.MULTILINE)


def by_check(clone: Path, data: bytes) -> set[str]:
    """The rules `gitmem check` names for data as the candidate's file."""
    write(clone, PATH, data)
    result = run(clone, "check", PATH)
    assert result.exit_code in (0, 1), result.output
    assert "Traceback" not in result.output
    (clone / PATH).unlink()
    return set(RULE.findall(result.output))


def by_server(clone: Path, data: bytes) -> set[str]:
    """The rules the server's hook names for data pushed as the candidate's file."""
    branch = f"gitmem/{ENTRY_ID}"
    git(clone, "checkout", "-q", "-b", branch)
    write(clone, PATH, data)
    commit_all(clone, f"gitmem: propose {ENTRY_ID}")
    done = push(clone, branch)
    git(clone, "checkout", "-q", "main")
    git(clone, "branch", "-q", "-D", branch)
    assert "Traceback" not in done.stderr and "unexpected error" not in done.stderr, done.stderr
    if done.returncode == 0:
        assert push(clone, f":{branch}").returncode == 0  # the next text goes on a new branch
        return set()
    assert "pre-receive hook declined" in done.stderr, done.stderr
    return set(RULE.findall(done.stderr))


VALID = text(id=ENTRY_ID)
HOSTILE = {
    # a carriage return that ends no line: a line break to the parser, hidden text on a
    # terminal (it returns the cursor and overwrites the line)
    "lone-cr": VALID.replace("\n", "\r").encode(),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_the_check_and_the_server_judge_a_hostile_text_alike(clone: Path, name: str) -> None:
    assert by_check(clone, VALID.encode()) == by_server(clone, VALID.encode()) == set()
    data = HOSTILE[name]
    assert by_check(clone, data) == by_server(clone, data) != set()


# ---------------------------------------------------------------------------------------------
# the same, in process, over generated front matter: the server judges a pushed file with the
# file rules (check_bytes without the scan, or check_entry over its parse) and the scanner over
# the blob's bytes; `gitmem check` with check_bytes alone; propose --from rebuilds the entry
# from the draft's fields and judges what it would write.

#: YAML values that every reader of a field has met in hostile drafts
_VALUES = [
    "x", "Run hooks through gitmem", "''", '""', "~", "null", "yes", "1e3", ".inf", "0x1F",
    "2026-11-29", "2026-02-30", "20261129", "[]", "[a, b]", "[a, a]", "[hooks]", "{a: b}",
    "[{a: b}]", "[[a]]", "{}", "!!binary aGk=", "!!str 12", "!foo x", "!!int 1", "&a x", "*a",
    "|\n  block\n  text", ">-\n  folded\n  text", "\n  - a\n  - b", "\n  a: b",
    '"a\\u2028b"', '"a\\rb"', '"a\\x85b"', '"a\\u202eb"', "'it''s'", "a #note", "a: b",
    "human:alice", "verdict:stop-1", "audit:v.md", "import:x.md", "human:", "src/a.py",
    "[src/a.py]", "['../x']", "[/etc/passwd]", "method", "mistake", "decision", "candidate",
    "admitted", "local-method-20261129-run-hooks-through-gitmem", "a\tb", "a\u202eb",
    "a\u200bb", "a\u2028b", "a\u0085b", "\u00e9t\u00e9", "x" * 250,
]  # fmt: skip
_KEYS = [
    "type", "title", "applies_when", "source", "tags", "files", "supersedes", "rationale",
    "correction", "detection_signal", "evidence_batches", "admitted_by", "admitted", "amended",
    "amended_by", "retired", "retired_by", "retired_reason", "amends", "retires",
    "superseded_by", "colour", "null", "1", "<<", "Title",
]  # fmt: skip
_BODIES = [
    "\n## Context\nWhy.\n\n## Content\nThe lesson.\n\n## Evidence\nLinks.\n",
    "\n## Context\n```\n## Content\n```\n## Content\nx\n## Evidence\n",
    "\n## Context\n## Content\n## Content\n## Evidence\n",
    "\n## Content\nx\n## Context\n## Evidence\n",
    "\n## Context\n~~~\n## Evidence\n",
    "\n## Context\na\u2028## Content\n## Content\nb\n## Evidence\nc",
    # setext headings: sections as `## ` ones are, or a section hidden in another
    "\nContext\n-------\nWhy.\n\nContent\n---\nThe lesson.\n\nEvidence\n-\nLinks.\n",
    "\n## Context\nWhy.\n## Content\nx\n\nEvidence\n---\nno\n## Evidence\ne\n",
    "\n## Context\nWhy.\n## Content\nx\nNotes\n---\n## Evidence\ne\n",
    "\n## Context\nWhy.\n\n---\n## Content\nTitle\n===\n- a\n---\n## Evidence\ne\n",
    "",
]


def _server_rules(data: bytes, ctx: Any, place: Place) -> set[str]:
    from gitmem.gate import scanner

    quiet = replace(ctx, scan_secrets=False)
    found = {p.rule for p in check_bytes(PATH, data, quiet, place) if not p.warning}
    if len(data) <= MAX_FILE_BYTES:
        found |= {_RULE_OF.get(f.rule, "SECRET") for f in scanner.scan(data)}
    return found


_RULE_OF = {"hidden-unicode": "HIDDEN-UNICODE"}


@st.composite
def _drafts(draw: st.DrawFn) -> bytes:
    fields = {
        "id": ENTRY_ID,
        "type": "method",
        "status": "candidate",
        "title": "Run hooks through gitmem",
        "applies_when": "installing hooks",
        "source": "human:alice",
        "created": "2026-11-29",
    }
    for key in draw(st.lists(st.sampled_from(_KEYS), max_size=4, unique=True)):
        fields[key] = draw(st.one_of(st.sampled_from(_VALUES), st.text(max_size=12)))
    lines = "".join(f"{key}: {value}\n" for key, value in fields.items())
    body = draw(st.sampled_from(_BODIES))
    text = f"---\n{lines}---\n{body}"
    text = draw(st.sampled_from([text, text.replace("\n", "\r\n"), "\ufeff" + text]))
    return text.encode("utf-8", "surrogatepass")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_drafts())
def test_every_door_judges_generated_front_matter_alike(data: bytes) -> None:
    """`gitmem check` and the server name the same rules for any text, and propose --from
    refuses exactly the drafts that `gitmem check` refuses (the fields gitmem sets itself
    aside), and none of them fails any other way than by naming a rule."""
    ctx = Context(Settings(project="local"), path_exists=lambda path: path == "src/a.py")
    place = Place("candidate", id=ENTRY_ID)
    checked = {p.rule for p in check_bytes(PATH, data, ctx, place) if not p.warning}
    served = _server_rules(data, ctx, place)
    if checked & {"BINARY", "ENCODING"}:
        # a file that is no UTF-8 text is refused as such; the server's scan, which reads it
        # anyway (U+FFFD for what does not decode), may name more
        assert checked <= served
        return
    assert checked == served

    try:
        draft = ProposalFields.from_text(data.decode("utf-8", "surrogatepass"))
    except RuleError:
        assert checked, "propose --from refused a draft that gitmem check accepts"
        return
    given_fields = draft.given()
    meta = {k: v for k, v in given_fields.items() if k not in BODY_FIELDS}
    meta.update(id=ENTRY_ID, status="candidate", created="2026-11-29")
    sections = [str(given_fields.get(name) or "") for name in BODY_FIELDS]
    written = Entry(meta, *sections).render().encode("utf-8", "surrogatepass")
    proposed = {p.rule for p in check_bytes(PATH, written, ctx, place) if not p.warning}
    # propose drops what is empty ("not given": a draft's `rationale: ''`, `supersedes: []`)
    # and what gitmem sets itself (`admitted_by`, `retires`…): judge the draft without them
    own = set(SET_BY_GITMEM) - {"id", "status", "created"}
    dropped = [k for k, v in parse(data).meta.items() if v in ("", []) or k in own]
    if dropped and not proposed:
        bare = parse(data).with_meta(**dict.fromkeys(dropped)).render().encode()
        checked = {p.rule for p in check_bytes(PATH, bare, ctx, place) if not p.warning}
    assert bool(proposed) == bool(checked), (proposed, checked)
