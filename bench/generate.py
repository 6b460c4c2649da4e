"""Realistic generated memory stores for the benchmarks.

Entries look like real ones: a title, an applies_when, tags, cited files, and three sections
of prose mixed with identifiers, paths, commands and numbers, about 1.2 to 1.8 KB each.
The same seed gives the same store.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

from gitmem.model.entry import Entry, make_id

TYPES = ("decision", "method", "code-structure", "mistake")
SUBJECTS = (
    "payment retries",
    "the index cache",
    "database migrations",
    "feature flags",
    "the CI runner",
    "release tags",
    "the auth middleware",
    "webhook delivery",
    "log rotation",
    "schema changes",
    "the search service",
    "image uploads",
    "rate limiting",
    "session tokens",
    "the job queue",
    "backfills",
    "error budgets",
    "dependency pins",
    "the staging cluster",
    "config loading",
)
VERBS = (
    "Batch",
    "Cache",
    "Pin",
    "Retry",
    "Validate",
    "Stream",
    "Shard",
    "Lock",
    "Version",
    "Audit",
    "Throttle",
    "Document",
    "Split",
    "Measure",
    "Replay",
    "Isolate",
    "Precompute",
    "Rotate",
)
SENTENCES = (
    "We saw {n} failures in a week when {subject} ran without a bound.",
    "The fix lives in `{path}` and is covered by `{test}`.",
    "Run `make {target}` before opening the pull request; it takes about {n} seconds.",
    "A reviewer asked why `{ident}` returns early; the answer is the lock ordering.",
    "Measured on a two-core runner: p50 {n} ms, p95 {m} ms after the change.",
    "Do not call `{ident}()` from a request handler: it blocks on disk.",
    "The incident review (INC-{n}) traced it to {subject} under load.",
    "Keep the retry budget at {n} attempts with jitter; more only hides the outage.",
    "See commit {sha} for the migration and its rollback.",
    "Prefer `{ident}` over hand-written loops; it already handles the edge cases.",
    "Staging and production differ in {subject}: check both before merging.",
    "The owner of {subject} signs off on changes to `{path}`.",
)
IDENTS = (
    "load_config",
    "PaymentClient.charge",
    "retry_with_backoff",
    "IndexCache.update",
    "parse_entry",
    "QueueWorker.run",
    "verify_signature",
    "render_index",
    "open_store",
)
PATHS = (
    "src/payments/client.py",
    "src/cache/index.py",
    "db/migrations/0042_add_index.sql",
    "ci/pipeline.yml",
    "src/auth/middleware.py",
    "docs/runbook.md",
    "src/jobs/worker.py",
)


class Generator:
    def __init__(self, seed: int = 1, project: str = "shop") -> None:
        self.rng = random.Random(seed)
        self.project = project

    def _sentence(self) -> str:
        r = self.rng
        return r.choice(SENTENCES).format(
            n=r.randint(2, 900),
            m=r.randint(900, 5000),
            subject=r.choice(SUBJECTS),
            path=r.choice(PATHS),
            test=f"tests/test_{r.choice(IDENTS).split('.')[0].lower()}.py",
            target=r.choice(("test", "lint", "check", "bench")),
            ident=r.choice(IDENTS),
            sha="".join(r.choice("0123456789abcdef") for _ in range(12)),
        )

    def _paragraph(self, low: int, high: int) -> str:
        return " ".join(self._sentence() for _ in range(self.rng.randint(low, high)))

    def entry(self, n: int, status: str = "admitted") -> Entry:
        r = self.rng
        type_ = TYPES[n % len(TYPES)]
        subject = r.choice(SUBJECTS)
        title = f"{r.choice(VERBS)} {subject} {n}"
        created = f"2026-{1 + n % 12:02d}-{1 + n % 28:02d}"
        meta: dict[str, object] = {
            "id": make_id(self.project, type_, created, title),
            "type": type_,
            "status": status,
            "title": title,
            "applies_when": f"changing {subject} or code that calls {r.choice(IDENTS)}",
            "source": "human:alice",
            "created": created,
            "tags": sorted({subject.split()[-1], r.choice(("perf", "ops", "db", "ci", "api"))}),
            "files": [r.choice(PATHS)],
        }
        if status != "candidate":
            meta.update(admitted_by="human:bob", admitted=created)
        if type_ == "mistake":
            meta.update(correction=self._sentence(), detection_signal=self._sentence())
        if type_ == "decision":
            meta["rationale"] = self._sentence()
        return Entry(meta, self._paragraph(2, 3), self._paragraph(4, 6), self._paragraph(1, 2))

    def entries(self, count: int, status: str = "admitted") -> Iterator[Entry]:
        for n in range(count):
            yield self.entry(n, status)


def write_store(root: Path, count: int, seed: int = 1, memory_dir: str = ".gitmem") -> list[Path]:
    """count admitted entries as files under root/memory_dir/entries/<type>/<id>.md, plus the
    files they cite."""
    for path in PATHS:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text("# code\n")
    written = []
    for entry in Generator(seed).entries(count):
        path = root / memory_dir / "entries" / entry.type / f"{entry.id}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(entry.render(), encoding="utf-8")
        written.append(path)
    return written
