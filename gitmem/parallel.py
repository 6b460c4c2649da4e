"""A long list of independent items, worked through by two processes.

Reading and parsing 100,000 entry files (a first recall cache build, INDEX.md regenerated
from the working tree) depends on nothing but each file, so a forked child does the second
half of the items while this process does the first. The child writes its results, pickled in
batches, to a temporary file: a pipe would stall it until this process got round to draining
it. If the child fails, or no process can be forked, this process does the whole list: the
answer is the same, only slower. Only on Linux: elsewhere (macOS) forking a process that has
loaded system frameworks is not safe, and the work is done here. The child shares this
process's memory as it was at the fork, so the work needs nothing sent to it.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from typing import Generic, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

#: Results the child pickles at a time.
BATCH = 1024


def in_two(
    items: list[Item], work: Callable[[list[Item]], Iterable[Result]], *, minimum: int
) -> Iterator[Result]:
    """work(items)'s results, in order; from minimum items on, a forked child works through
    the second half while this process works through the first."""
    if len(items) < minimum or sys.platform != "linux":  # where forking is the safe default
        yield from work(items)
        return
    half = len(items) // 2
    try:
        child = _Child(items[half:], work)
    except OSError:  # no process to spare
        yield from work(items)
        return
    try:
        yield from work(items[:half])
        yield from child.results()
    finally:
        child.close()


class _Child(Generic[Item, Result]):
    def __init__(self, items: list[Item], work: Callable[[list[Item]], Iterable[Result]]) -> None:
        self._items = items
        self._work = work
        import pickle  # here, not at the top: every hook imports this module, few fork

        self._file = tempfile.TemporaryFile()  # noqa: SIM115 - close() closes it
        try:
            self._pid = os.fork()
        except OSError:
            self._file.close()
            raise
        if self._pid == 0:  # pragma: no cover - the child, checked by its output
            status = 1
            try:
                batch: list[Result] = []
                for result in work(items):
                    batch.append(result)
                    if len(batch) >= BATCH:
                        pickle.dump(batch, self._file, protocol=pickle.HIGHEST_PROTOCOL)
                        batch = []
                pickle.dump(batch, self._file, protocol=pickle.HIGHEST_PROTOCOL)
                self._file.flush()
                status = 0
            finally:
                os._exit(status)

    def results(self) -> list[Result]:
        """The child's results once it has ended; its items worked through here if it failed."""
        import pickle

        _, status = os.waitpid(self._pid, 0)
        self._pid = 0
        results: list[Result] = []
        if status == 0:
            self._file.seek(0)
            try:
                while True:
                    results.extend(pickle.load(self._file))
            except EOFError:
                pass
            except (pickle.UnpicklingError, ValueError, TypeError):
                status = 1
        return results if status == 0 else list(self._work(self._items))

    def close(self) -> None:
        if self._pid:
            with contextlib.suppress(OSError):
                os.kill(self._pid, 9)
                os.waitpid(self._pid, 0)
            self._pid = 0
        self._file.close()
