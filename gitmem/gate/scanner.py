"""Secret scans of the memory files of a push, on another core when the push is big.

A push of 10,000 admissions holds 20,000 memory files to scan for secrets and hidden Unicode,
a fifth of the time it takes to judge it. The scans depend on nothing but each file's bytes,
so a big push hands them, in batches, to one forked worker process while the judge goes on
with the history rules; small pushes, and systems where forking is not the safe default,
scan in process. Either way the findings are the same (tested), reported in the same order.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Final

from gitmem.gate import secrets
from gitmem.gate.secrets import Finding

if TYPE_CHECKING:
    from multiprocessing.pool import AsyncResult, Pool

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
    """Collects files to scan; with parallel=True (and fork available) a worker scans them.

    add() queues a file; results() returns (label, findings) for every file with findings, in
    the order the files were added, and stops the worker.
    """

    def __init__(self, *, parallel: bool) -> None:
        self._pool: Pool | None = None
        if parallel and sys.platform == "linux":  # fork: no re-import, no pickled settings
            import multiprocessing  # only for big pushes: its import is a cost of its own

            try:
                self._pool = multiprocessing.get_context("fork").Pool(1)
            except OSError:  # no process to spare: scan in process, as for a small push
                self._pool = None
        self._batch: list[Item] = []
        self._pending: list[AsyncResult[list[tuple[str, list[Finding]]]]] = []
        self._found: list[tuple[str, list[Finding]]] = []

    @property
    def parallel(self) -> bool:
        return self._pool is not None

    def add(self, label: str, data: bytes, line_offset: int = 0) -> None:
        if self._pool is None:
            self._found.extend(_scan_batch([(label, data, line_offset)]))
            return
        self._batch.append((label, data, line_offset))
        if len(self._batch) >= BATCH:
            self._pending.append(self._pool.apply_async(_scan_batch, (self._batch,)))
            self._batch = []

    def results(self) -> list[tuple[str, list[Finding]]]:
        if self._pool is not None:
            if self._batch:
                self._pending.append(self._pool.apply_async(_scan_batch, (self._batch,)))
                self._batch = []
            for pending in self._pending:
                self._found.extend(pending.get())
            self._pending.clear()
            self.close()
        found, self._found = self._found, []
        return found

    def close(self) -> None:
        """Stop the worker (also when judging failed half-way)."""
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None
