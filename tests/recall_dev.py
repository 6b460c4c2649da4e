"""The recall development set (tests/data/recall-dev): real records written by other teams and
160 labelled queries (paraphrase, situation, nomatch), split once into a tuning part and a
report part by a fixed rule, so that parameters are chosen on one and figures reported on the
other (bench/recall.py --quality prints both and says which is which).

`adr_corpus()` is a second corpus for abstention: the 79 architecture decision records of
tests/data/recall (other teams' ADRs, labelled for the project's own set): the development
queries were written for other records, so asked of these they should mostly find nothing.

The rule: a query belongs to the tuning part when the first byte of the SHA-256 of its text
(UTF-8) is even, else to the report part. It depends on nothing but the query, so adding
queries never moves an old one from one part to the other.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from gitmem.recall.engine import Doc, Hit

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


def adr_corpus() -> list[Doc]:
    """The ADR records of tests/data/recall as recall Docs (module docstring)."""
    from recall_corpus import corpus as own_corpus

    return [d for d in own_corpus() if d.id.startswith(("cloud-platform-", "govuk-aws-"))]


def report_figures(search: Callable[[str], list[Hit]]) -> dict[str, float]:
    """hit@1, hit@5 (all and situations) and no-match empty on the development set's report
    part, the part no parameter was chosen on."""
    asked = queries("report")
    top = {q.text: [h.id for h in search(q.text)] for q in asked}
    answered = [q for q in asked if q.expect]
    situations = [q for q in answered if q.kind == "situation"]
    nomatch = [q for q in asked if not q.expect]

    def share(queries: list[Any], hit: Callable[[Any], bool]) -> float:
        return sum(map(hit, queries)) / len(queries)

    return {
        "hit@1": share(answered, lambda q: bool(top[q.text]) and top[q.text][0] in q.expect),
        "hit@5": share(answered, lambda q: any(i in q.expect for i in top[q.text])),
        "situations hit@5": share(situations, lambda q: any(i in q.expect for i in top[q.text])),
        "no-match empty": share(nomatch, lambda q: not top[q.text]),
    }
