"""The recall development set (tests/data/recall-dev): real records written by other teams and
160 labelled queries (paraphrase, situation, nomatch), split once into a tuning part and a
report part by a fixed rule, so that parameters are chosen on one and figures reported on the
other (bench/recall.py --quality prints both and says which is which).

The rule: a query belongs to the tuning part when the first byte of the SHA-256 of its text
(UTF-8) is even, else to the report part. It depends on nothing but the query, so adding
queries never moves an old one from one part to the other.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from gitmem.recall.engine import Doc

DATA = Path(__file__).parent / "data" / "recall-dev"
KINDS = ("paraphrase", "situation", "nomatch")


@dataclass(frozen=True)
class Query:
    text: str
    kind: str
    expect: frozenset[str]


def part_of(text: str) -> str:
    """'tune' or 'report' (module docstring)."""
    return "tune" if hashlib.sha256(text.encode()).digest()[0] % 2 == 0 else "report"


@cache
def corpus() -> tuple[Doc, ...]:
    """The records as recall Docs, keyed by their `key`."""
    docs = []
    for r in json.loads((DATA / "corpus.json").read_text(encoding="utf-8")):
        body = "\n".join(p for p in (r["context"], r["content"], r["evidence"]) if p)
        path = f".gitmem/entries/{r['type']}/{r['key']}.md"
        docs.append(
            Doc(r["key"], r["type"], r["title"], r["applies_when"], tuple(r["tags"]), body, path)
        )
    return tuple(docs)


@cache
def queries(part: str | None = None) -> tuple[Query, ...]:
    """The labelled queries, of one part ('tune', 'report') or all (None)."""
    raw = json.loads((DATA / "queries.json").read_text(encoding="utf-8"))["queries"]
    found = [Query(q["q"], q["kind"], frozenset(q["expect"])) for q in raw]
    return tuple(q for q in found if part is None or part_of(q.text) == part)
