"""The proposal's fields: one list, read from flags, drafts and callers alike."""

from __future__ import annotations

import re

import pytest

from gitmem.errors import RuleError, UsageError
from gitmem.model.proposal import SET_BY_GITMEM, ProposalFields, specs

from entries import text


def test_the_fields_are_the_schema_s_minus_what_gitmem_sets() -> None:
    import json
    from importlib import resources

    schema = json.loads((resources.files("gitmem") / "schemas/entry.schema.json").read_text())
    names = {s.name for s in specs()} - {"context", "content", "evidence"}
    assert names | set(SET_BY_GITMEM) == set(schema["properties"])
    assert {s.name for s in specs() if s.required} == {"type", "title", "applies_when", "content"}
    assert [s.option for s in specs() if s.many] == [
        "--tag", "--file", "--supersedes", "--evidence-batch",
    ]  # fmt: skip


def test_a_draft_gives_its_fields_and_flags_win_over_it() -> None:
    draft = ProposalFields.from_text(text(tags=["hooks", "speed"]))
    assert draft.type == "method" and draft.tags == ("hooks", "speed")
    assert draft.content and draft.extra == {}
    flags = ProposalFields(title="A new title", tags=["other"])
    merged = flags.over(draft)
    assert merged.title == "A new title" and merged.tags == ("other",)
    assert merged.applies_when == draft.applies_when  # not given: the draft's stands
    given = merged.given()
    assert "id" not in given and "status" not in given and "created" not in given
    assert given["tags"] == ["other"]


def test_a_draft_s_unknown_field_is_kept_for_the_schema_to_refuse() -> None:
    draft = ProposalFields.from_text(text(colour="blue"))
    assert draft.extra == {"colour": "blue"}
    assert draft.given()["colour"] == "blue"


def test_a_draft_that_does_not_parse_says_where() -> None:
    with pytest.raises(RuleError, match=r"^FRONT-MATTER line"):
        ProposalFields.from_text("no front matter here\n")


def test_missing_required_fields_are_named_by_their_options() -> None:
    with pytest.raises(UsageError, match=r"missing --applies-when, --content: a candidate needs"):
        ProposalFields(type="method", title="x").require()
    ProposalFields(type="method", title="x", applies_when="y", content="z").require()


def test_empty_lists_and_empty_text_count_as_not_given() -> None:
    fields = ProposalFields(type="method", context="", tags=[], files=None)  # type: ignore[arg-type]
    assert fields.given() == {"type": "method"}


@pytest.mark.parametrize(
    ("field", "words"),
    [
        ("title: {a: b}", "title: expected text, got a mapping"),
        ("title: [a, b]", "title: expected text, got a list"),
        ("rationale:\n  a: b", "rationale: expected text, got a mapping"),
        ("tags: hooks", "tags: expected a list, got text"),
        ("tags: {hooks: x}", "tags: expected a list, got a mapping"),
        ("files: [[a]]", "files.0: expected text, got a list"),
        ("evidence_batches: [b1, {b2: x}]", "evidence_batches.1: expected text, got a mapping"),
    ],
)
def test_a_draft_value_of_the_wrong_kind_is_refused_not_reshaped(field: str, words: str) -> None:
    """`gitmem check` and the server refuse these drafts; propose --from made them fit (the
    title "{'a': 'b'}", the tags h, o, o, k, s) and proposed what nobody wrote."""
    name = field.split(":")[0]
    draft = text(**{name: "x"}).replace(f"\n{name}: x\n", f"\n{field}\n")
    assert field in draft
    with pytest.raises(RuleError, match=re.escape(words)):
        ProposalFields.from_text(draft)
    # named where it stands, as every other draft problem is (it said neither file nor line)
    line = draft.split("\n").index(field.split("\n")[0]) + 1
    with pytest.raises(RuleError, match=re.escape(f"lesson.md:{line}: SCHEMA {words}")):
        ProposalFields.from_text(draft, "lesson.md")
