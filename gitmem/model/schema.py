"""The JSON Schemas shipped inside the package, and validation of an entry's front matter.

The schema is the single source of truth for fields.  Valid front matter is confirmed by
jsonschema-rs (microseconds, so checking 10,000 entries stays well under a second); only an
invalid one goes through the reference `jsonschema` validator, whose errors carry what a
readable message needs.  The only thing the code adds is the
project's extra types (memory.types): they join the `type` enum, and since the source rules in
the schema list the types each non-human source may propose, extra types stay human-only.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Iterator, Mapping
from importlib import resources
from typing import Any

SCHEMA_FILES = ("entry.schema.json", "settings.schema.json")


@functools.cache
def load(name: str) -> dict[str, Any]:
    """A schema by file name, read from the installed package (never from the working tree)."""
    text = resources.files("gitmem").joinpath("schemas", name).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@functools.cache
def _entry_schema(extra_types: tuple[str, ...]) -> dict[str, Any]:
    schema = copy.deepcopy(load("entry.schema.json"))
    if extra_types:
        enum = schema["properties"]["type"]["enum"]
        enum.extend(t for t in extra_types if t not in enum)
    return schema


@functools.cache
def _fast_validator(extra_types: tuple[str, ...]) -> Any:
    # jsonschema_rs imports `decimal` as it loads, from Rust: a Ctrl-C arriving then became a
    # Rust panic (its report printed, a PanicException raised). Imported here first, a Ctrl-C
    # is a plain KeyboardInterrupt, and the extension finds the module already loaded.
    import decimal  # noqa: F401

    import jsonschema_rs

    return jsonschema_rs.validator_for(_entry_schema(extra_types))


@functools.cache
def _entry_validator(extra_types: tuple[str, ...]) -> Any:
    import jsonschema

    schema = _entry_schema(extra_types)
    cls = jsonschema.validators.validator_for(schema)
    ecma = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
        cls, {"pattern": _pattern, "uniqueItems": _unique_items}
    )
    return ecma(schema)


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
    """The `pattern` keyword as JSON Schema defines it (an ECMA-262 expression, whose `$`
    ends the text) and the fast validator reads it.  The reference validator's own check
    (Python's re.search) lets `$` match before a final line break too, so a value such as
    `source: "verdict:x\\n"` that the fast validator refused came back with no problem, and
    the entry passed for valid."""
    import jsonschema
    import jsonschema_rs

    if isinstance(instance, str) and not jsonschema_rs.is_valid({"pattern": pattern}, instance):
        yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r}")


def _unique_items(validator: Any, unique: bool, instance: Any, schema: Any) -> Iterator[Any]:
    """The `uniqueItems` keyword, decided by the fast validator.  The reference validator
    compares items that cannot be sorted (mappings) pair by pair: a front matter of 16 KiB
    holding `tags: [{0: }, {1: }, …]`, some 3,000 mappings, took it half a minute, on every
    push of such a file to the server's hook and on every `gitmem check`."""
    import jsonschema
    import jsonschema_rs

    if (
        unique
        and isinstance(instance, list)
        and not jsonschema_rs.is_valid({"uniqueItems": True}, instance)
    ):
        yield jsonschema.ValidationError(f"{instance!r} has non-unique elements")


def entry_problems(meta: Mapping[str, Any], extra_types: tuple[str, ...] = ()) -> list[str]:
    """Every schema violation of an entry's front matter, as one readable sentence each."""
    key = tuple(sorted(extra_types))
    if _fast_validator(key).is_valid(dict(meta)):
        return []
    validator = _entry_validator(key)
    messages = {_describe(error, meta) for error in validator.iter_errors(dict(meta))}
    return sorted(messages)


def _describe(error: Any, meta: Mapping[str, Any]) -> str:
    """One sentence per error, naming the field and what to do, not jsonschema's internals."""
    path = ".".join(str(p) for p in error.absolute_path)
    validator = error.validator
    if validator == "additionalProperties":
        extra = sorted(set(error.instance) - set(error.schema.get("properties", {})))
        names = ", ".join(repr(e) for e in extra)
        return f"unknown field {names}: remove it (see the README's field table)"
    if validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        reason = _required_reason(error)
        return f"missing field '{missing}'{reason}"
    if validator == "not" and error.schema_path and "allOf" in error.schema_path:
        return _not_reason(error)
    if validator in ("enum", "const") and path == "type" and "allOf" in error.schema_path:
        # a rule of the source (DESIGN.md "Sources and who may admit what"), not of the type
        allowed = error.validator_value if validator == "enum" else [error.validator_value]
        source = str(meta.get("source", ""))
        kind = source.split(":", 1)[0]
        article = "an" if kind[:1] in tuple("aeiou") else "a"
        return (
            f"type {error.instance!r} is not allowed for source {source!r}: {article} {kind}: "
            "source "
            f"proposes only {' and '.join(allowed)} (a person, human:NAME, proposes any type)"
        )
    if validator == "enum" and path == "type":
        allowed = ", ".join(error.validator_value)
        return f"type {error.instance!r} is not allowed here: use one of {allowed}"
    if validator == "enum" and path == "status":
        return (
            f"status {error.instance!r} is unknown: use candidate, admitted, superseded or retired"
        )
    if validator == "const" and path == "type":
        return (
            f"type {error.instance!r} is not allowed for this source: use {error.validator_value}"
        )
    if validator == "pattern":
        return f"{path or 'value'}: {_shorten(error.instance)!r} {_pattern_hint(path)}"
    if validator == "type" and path == "drafted_from":
        return (
            f"drafted_from: expected {_kind(error.validator_value)}, got "
            f"{_kind_of(error.instance)}: an amend candidate records the one blob id it was "
            "drafted from, a successor a list of them (one per entry it supersedes); leave it "
            "as gitmem propose wrote it"
        )
    if validator == "type":
        return f"{path}: expected {_kind(error.validator_value)}, got {_kind_of(error.instance)}"
    if validator == "uniqueItems" and isinstance(error.instance, list):
        return f"{path}: lists {_shorten(_repeated(error.instance))} more than once: list each once"
    if validator == "minItems" and path == "evidence_batches":
        return (
            "evidence_batches: an audit-sourced mistake needs the gap in at least 3 distinct "
            f"batches, got {len(error.instance)}"
        )
    return f"{path or 'front matter'}: {_shorten(error.message)}"


def _required_reason(error: Any) -> str:
    instance = error.instance if isinstance(error.instance, dict) else {}
    if instance.get("type") == "mistake" and error.validator_value == [
        "correction",
        "detection_signal",
    ]:
        return ": a mistake needs 'correction' and 'detection_signal'"
    status = instance.get("status")
    if status in ("admitted", "superseded", "retired"):
        return f": a {status} entry records its admission" + (
            " and its retirement" if status == "retired" else ""
        )
    if "amended" in instance or "amended_by" in instance:
        return ": an amended entry records the dates (amended) and its last amender (amended_by)"
    if "retires" in instance:
        return ": a retire candidate says why (retired_reason)"
    if "drafted_from" in instance:
        return (
            ": drafted_from belongs to an amend candidate (amends: ID) or a successor "
            "(supersedes: [ID]), which gitmem propose --amend or --edit writes; remove it"
        )
    if str(instance.get("source", "")).startswith("audit:"):
        return ": an audit-sourced mistake lists the batches it recurred in"
    return ""


def _not_reason(error: Any) -> str:
    instance = error.instance if isinstance(error.instance, dict) else {}
    status = instance.get("status")
    if status == "candidate":
        return (
            "a candidate carries no admission fields (admitted_by, admitted, superseded_by, "
            "amended, amended_by, retired, retired_by): remove them; admission adds them"
        )
    if status == "admitted":
        return (
            "an admitted entry has no superseded_by, retired fields, amends, retires or "
            "drafted_from: only a superseded entry names its successor, only a retired one its "
            "retirement"
        )
    if status in ("superseded", "retired"):
        return f"a {status} entry carries only its own end: superseded_by or the retired fields"
    if "amends" in instance or "retires" in instance:
        return (
            "a candidate amends, retires or supersedes one entry, never two of these: "
            "propose each separately"
        )
    return "front matter: fields that exclude each other are both present"


_HINTS = {
    "id": "is not an id: lowercase ASCII words joined by '-' (<project>-<type>-<yyyymmdd>-<slug>)",
    "source": "is not a source: human:<name>, audit:<file>, verdict:<stop> or import:<path>",
    "admitted_by": "is not an admitter: human:<name> or audit:<file>",
    "created": "is not a date: write YYYY-MM-DD",
    "admitted": "is not a date: write YYYY-MM-DD",
    "superseded_by": "is not an entry id",
    "amended_by": "is not an admitter: human:<name> or audit:<file>",
    "retired_by": "is not an admitter: human:<name> or audit:<file>",
    "amended": "is not a date: write YYYY-MM-DD",
    "retired": "is not a date: write YYYY-MM-DD",
    "amends": "is not an entry id",
    "retires": "is not an entry id",
    "drafted_from": (
        "is not a git blob id (gitmem propose --amend and --edit write it: leave it as written)"
    ),
}


def _pattern_hint(path: str) -> str:
    head = path.split(".")[0]
    if head in _HINTS:
        if head == "source" and path == "source":
            return _HINTS[head]
        return _HINTS[head]
    if head == "files":
        return "is not a repository path: relative, '/'-separated, no '..', '.', '//' or '\\'"
    if head in ("tags", "supersedes"):
        return "is not a slug: lowercase ASCII words joined by '-'"
    return "must be a single non-empty line"


def _kind(value: Any) -> str:
    if isinstance(value, list):
        return " or ".join(_kind(v) for v in value)
    return {"string": "text", "array": "a list", "object": "a mapping"}.get(str(value), str(value))


def _kind_of(value: Any) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "text"


def _repeated(items: list[Any]) -> str:
    """The first item of items that an earlier one equals, as a message quotes it."""
    seen: list[Any] = []
    for item in items:
        if item in seen:
            return repr(item)
        seen.append(item)
    return "an item"


def _shorten(value: Any, limit: int = 80) -> str:
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
