"""Secret scans of the memory files of a push, on another core when the push is big.

A push of 10,000 admissions holds 20,000 memory files to scan for secrets and hidden Unicode,
a fifth of the time it takes to judge it. The scans depend on nothing but each file's bytes,
so a big push hands them, in batches, to a worker process (gitmem.parallel.Worker, under its
one rule) while the judge goes on with the history rules; small pushes, and processes where
forking is not allowed, scan in process. Either way the findings are the same (tested),
reported in the same order.
"""

from __future__ import annotations

from typing import Final

from gitmem.gate import secrets
from gitmem.gate.secrets import Finding
from gitmem.parallel import Worker

#: Files a worker gets at a time: big enough that sending them costs little beside scanning.
BATCH: Final = 256

#: (a label the caller gives back with the findings, the text's bytes, the first line's number)
Item = tuple[str, bytes, int]


def scan(data: bytes, line_offset: int = 0) -> list[Finding]:
    """One file's findings (undecodable bytes read as U+FFFD, as everywhere else)."""
    return secrets.scan_text(data.decode("utf-8", "replace"), line_offset=line_offset)


def _scan_batch(items: list[Item]) -> list[tuple[str, list[Finding]]]:
    found = []
    for label, data, offset in items:
        findings = scan(data, offset)
        if findings:
            found.append((label, findings))
    return found


class Scanner:
    """Collects files to scan; with parallel=True (and forks allowed) a worker scans them.

    add() queues a file; results() returns (label, findings) for every file with findings, in
    the order the files were added, and stops the worker.
    """

    def __init__(self, *, parallel: bool) -> None:
        self._worker: Worker[Item, tuple[str, list[Finding]]] = Worker(_scan_batch, fork=parallel)
        self._batch: list[Item] = []

    @property
    def parallel(self) -> bool:
        return self._worker.parallel

    def add(self, label: str, data: bytes, line_offset: int = 0) -> None:
        self._batch.append((label, data, line_offset))
        if len(self._batch) >= (BATCH if self._worker.parallel else 1):
            self._worker.send(self._batch)
            self._batch = []

    def results(self) -> list[tuple[str, list[Finding]]]:
        if self._batch:
            self._worker.send(self._batch)
            self._batch = []
        return self._worker.results()

    def close(self) -> None:
        """Stop the worker (also when judging failed half-way)."""
        self._worker.close()
