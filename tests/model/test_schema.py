"""The entry schema: per-type, per-status and source rules, readable messages, and the fast
validator agreeing with the reference one."""

from __future__ import annotations

from typing import Any

import jsonschema
import jsonschema_rs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitmem.model import schema
from gitmem.model.names import MAX_ID_LENGTH

from entries import meta


def test_schemas_ship_inside_the_package_and_are_2020_12() -> None:
    for name in schema.SCHEMA_FILES:
        loaded = schema.load(name)
        assert loaded["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        jsonschema.Draft202012Validator.check_schema(loaded)


def test_a_valid_candidate_has_no_problem() -> None:
    assert schema.entry_problems(meta()) == []
    amends = {"amends": "shop-method-20261129-x"}
    for blob in ("a" * 40, "b" * 64):  # a SHA-1 or a SHA-256 repository's blob id
        assert schema.entry_problems(meta(**amends, drafted_from=blob)) == []
    # a successor records one blob id per entry it supersedes
    successor = {"supersedes": ["shop-method-20261129-x", "shop-method-20261129-y"]}
    assert schema.entry_problems(meta(**successor, drafted_from=["a" * 40, "b" * 40])) == []


def test_the_longest_id_looked_up_is_the_longest_the_schema_admits() -> None:
    """Lookups refuse an id longer than MAX_ID_LENGTH before reading anything: the schema
    must admit no longer one, or an admitted entry could not be found."""
    longest = "shop-method-20261129-" + "a" * (MAX_ID_LENGTH - 21)
    assert schema.entry_problems(meta(id=longest)) == []
    assert schema.entry_problems(meta(id=longest + "a")) != []


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"type": "mistake"}, "a mistake needs 'correction' and 'detection_signal'"),
        ({"type": "opinion"}, "type 'opinion' is not allowed here"),
        ({"colour": "red"}, "unknown field 'colour'"),
        ({"status": "admitted"}, "missing field 'admitted_by': a admitted entry records"),
        ({"status": "approved"}, "status 'approved' is unknown"),
        ({"admitted_by": "human:bob"}, "a candidate carries no admission fields"),
        ({"source": "alice"}, "is not a source"),
        (
            {"source": "audit:v.md", "type": "decision"},
            "type 'decision' is not allowed for source 'audit:v.md': an audit: source proposes "
            "only code-structure and mistake (a person, human:NAME, proposes any type)",
        ),
        (
            {
                "source": "verdict:stop-1",
                "type": "mistake",
                "correction": "c",
                "detection_signal": "d",
            },
            # issue 14: the source is the reason, and it is named
            "type 'mistake' is not allowed for source 'verdict:stop-1': a verdict: source "
            "proposes only method and decision",
        ),
        (
            {"source": "import:notes.md", "type": "decision"},
            "not allowed for source 'import:notes.md': an import: source proposes only method",
        ),
        ({"created": "29/11/2026"}, "is not a date"),
        ({"id": "../../etc/passwd"}, "is not an id"),
        ({"files": ["../secrets.txt"]}, "is not a repository path"),
        ({"files": ["/etc/passwd"]}, "is not a repository path"),
        ({"files": ["a//b"]}, "is not a repository path"),
        ({"tags": "hooks"}, "tags: expected a list, got text"),
        # jsonschema's "has non-unique elements" named neither the item nor what to do
        ({"files": ["a.py", "b.py", "a.py"]}, "files: lists 'a.py' more than once: list each once"),
        ({"tags": ["x", "x"]}, "tags: lists 'x' more than once"),
        ({"title": ""}, "title"),
        ({"applies_when": None}, "missing field 'applies_when'"),
        # a pattern's `$` ends the text (ECMA-262), not a line: Python's re let these pass
        ({"source": "verdict:plan-review\n"}, "source: 'verdict:plan-review\\n' is not a source"),
        ({"tags": ["retry\n"]}, "tags.0: 'retry\\n' is not a slug"),
        ({"files": ["src/pay.py\n"]}, "is not a repository path"),
        ({"created": "2026-11-29\n"}, "is not a date"),
        # an amend candidate's record of the text it was drafted from, and nothing else's
        (
            {"drafted_from": "0" * 40},
            "drafted_from belongs to an amend candidate (amends: ID) or a successor "
            "(supersedes: [ID])",
        ),
        (
            {"supersedes": ["shop-method-20261129-x"], "drafted_from": "0" * 40},
            "drafted_from: expected a list, got text: an amend candidate records the one blob "
            "id it was drafted from, a successor a list of them",
        ),
        (
            {"amends": "shop-method-20261129-x", "drafted_from": ["0" * 40]},
            "drafted_from: expected text, got a list",
        ),
        (
            {"supersedes": ["shop-method-20261129-x"], "drafted_from": ["HEAD"]},
            "drafted_from.0: 'HEAD' is not a git blob id",
        ),
        (
            {"supersedes": ["shop-method-20261129-x"], "drafted_from": {"a": "b"}},
            "drafted_from: expected text or a list, got a mapping",
        ),
        (
            {"amends": "shop-method-20261129-x", "drafted_from": "HEAD"},
            "drafted_from: 'HEAD' is not a git blob id",
        ),
        (
            {
                "status": "admitted",
                "admitted_by": "human:bob",
                "admitted": "2026-11-30",
                "drafted_from": "0" * 40,
            },
            "an admitted entry has no superseded_by, retired fields, amends, retires or "
            "drafted_from",
        ),
    ],
)
def test_schema_violations_read_as_sentences(changes: dict[str, Any], words: str) -> None:
    problems = schema.entry_problems(meta(**changes))
    assert any(words in p for p in problems), problems


def test_audit_mistake_needs_three_batches() -> None:
    base = {
        "source": "audit:verdicts/b3.md",
        "type": "mistake",
        "correction": "c",
        "detection_signal": "d",
        "id": "shop-mistake-20261129-run-hooks-through-gitmem",
    }
    two = schema.entry_problems(meta(**base, evidence_batches=["b1", "b2"]))
    assert any("at least 3 distinct batches, got 2" in p for p in two)
    assert schema.entry_problems(meta(**base, evidence_batches=["b1", "b2", "b3"])) == []


def test_audit_admission_only_for_audit_sources() -> None:
    admitted = {"status": "admitted", "admitted": "2026-11-30"}
    assert schema.entry_problems(meta(**admitted, admitted_by="audit:v.md")) != []
    assert schema.entry_problems(meta(**admitted, admitted_by="human:bob")) == []


def test_extra_types_are_human_only() -> None:
    assert schema.entry_problems(meta(type="runbook"), ("runbook",)) == []
    verdict = schema.entry_problems(meta(type="runbook", source="verdict:s"), ("runbook",))
    assert verdict


_values = st.one_of(
    st.none(),
    st.sampled_from(
        [
            "decision",
            "mistake",
            "candidate",
            "admitted",
            "human:a",
            "audit:f",
            "verdict:s",
            "import:p",
            "2026-11-29",
            "x",
            "",
            "a/../b",
            "shop-method-20261129-x",
            "superseded",
        ]
    ),
    st.lists(st.sampled_from(["a", "b", "../c", "a b", "", "b1", "b2", "b3"]), max_size=4),
)


@settings(max_examples=400, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(
            [
                *meta().keys(),
                "admitted_by",
                "admitted",
                "superseded_by",
                "correction",
                "detection_signal",
                "evidence_batches",
                "supersedes",
                "files",
                "odd",
            ]
        ),
        _values,
        max_size=8,
    )
)
def test_fast_and_reference_validators_agree(changes: dict[str, Any]) -> None:
    doc = meta(**{k: v for k, v in changes.items() if v is not None})
    loaded = schema.load("entry.schema.json")
    reference = jsonschema.Draft202012Validator(loaded).is_valid(doc)
    assert jsonschema_rs.validator_for(loaded).is_valid(doc) == reference
    assert (schema.entry_problems(doc) == []) == reference


@pytest.mark.parametrize("field", ["tags", "files", "supersedes", "evidence_batches"])
def test_a_long_list_of_mappings_is_judged_in_linear_time(
    field: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reference validator's uniqueItems compared unsortable items (mappings) pair by
    pair: 2,000 of them, less than 16 KiB of front matter holds, took it a quarter of a minute.
    The work is counted, not timed (a timed bound fails on a loaded machine): the pairwise
    check calls jsonschema's `_utils.equal` once per pair: 3,998,002 times for the two lists
    here before uniqueItems was decided by the fast validator, none now."""
    import jsonschema._utils

    compared = [0]
    equal = jsonschema._utils.equal

    def counted(one: Any, two: Any) -> bool:
        compared[0] += 1
        return bool(equal(one, two))

    monkeypatch.setattr(jsonschema._utils, "equal", counted)
    items = [{str(n): ""} for n in range(2000)]
    problems = schema.entry_problems(meta(**{field: items}))
    assert problems
    repeated = schema.entry_problems(meta(**{field: [*items, {"0": ""}]}))
    assert any("more than once" in p for p in repeated)
    assert compared[0] <= 10 * len(items), compared[0]
