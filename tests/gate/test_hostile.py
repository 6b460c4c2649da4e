"""Hostile text against every reader of untrusted Markdown: linear time or a clean refusal.

Each case is a line or file built to make a backtracking regular expression go quadratic
(long runs of the characters a pattern's optional tails accept, then one that defeats it).
The bound is generous (seconds, not milliseconds): it separates linear from quadratic on
inputs this size, and is no speed target.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable

import pytest

from gitmem.curate import harvest, importer
from gitmem.gate import secrets
from gitmem.model import entry, markdown
from gitmem.recall.engine import Index, analyze

from entries import text

BOUND = 5.0
N = 60_000

LINES = {
    "heading-spaces-then-hashes": "## a" + " " * N + "### x",
    "heading-hash-space-runs": "## " + "# " * (N // 2) + "x",
    "hashes-only": "#" * N,
    "fence-runs": "`" * N,
    "path-run-without-slash": "a" * N,
    "dotted-run": "a." * (N // 2),
    "colon-space-runs": "k: " * (N // 3),
    "table-pipes": "|" * N,
    "escaped-pipes": "\\|" * (N // 2),
    "bracket-links": "[" * (N // 2) + "](" * (N // 4),
    "emphasis-runs": "*_" * (N // 2),
    "date-like-runs": "2026-01-01 " * (N // 11),
    "words-ago": "last week " * (N // 10),
}


def _refused_or_read(call: Callable[[], object]) -> None:
    """Either outcome is fine; only the time matters here."""
    with contextlib.suppress(entry.EntryError):
        call()


def _timed(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


@pytest.mark.parametrize("name", sorted(LINES))
def test_markdown_readers_are_linear(name: str) -> None:
    line = LINES[name]
    body = f"## Context\n{line}\n## Content\n{line}\n## Evidence\n{line}\n"
    assert _timed(lambda: markdown.heading(line)) < BOUND
    assert _timed(lambda: list(markdown.fenced([line] * 3))) < BOUND
    assert _timed(lambda: _refused_or_read(lambda: entry.split_sections(body))) < BOUND
    assert _timed(lambda: importer.demote_headings(body)) < BOUND


@pytest.mark.parametrize("name", sorted(LINES))
def test_entry_parser_and_scanner_are_linear(name: str) -> None:
    source = text(body=f"## Context\n{LINES[name]}\n## Content\nx\n## Evidence\n")

    assert _timed(lambda: _refused_or_read(lambda: entry.parse(source))) < BOUND
    assert _timed(lambda: secrets.scan_text(source)) < BOUND


@pytest.mark.parametrize("name", sorted(LINES))
def test_verdict_reader_is_linear(name: str) -> None:
    line = LINES[name]
    verdict = (
        "# Audit\n\n## Verdict — GAPS\n\n| Severity | Axis | Gap | Evidence | Expected fix |\n"
        "| --- | --- | --- | --- | --- |\n"
        f"| Blocking | tests | {line} | {line} | {line} |\n"
    )
    assert _timed(lambda: harvest.parse_verdict("batch-1.md", verdict)) < BOUND


@pytest.mark.parametrize("name", sorted(LINES))
def test_recall_analysis_and_queries_are_linear(name: str) -> None:
    line = LINES[name]
    assert _timed(lambda: analyze(line)) < BOUND
    index = Index()
    assert _timed(lambda: index.search(line)) < BOUND
