"""Work done by a second process, under one rule, or here when the rule says no.

gitmem has two shapes of work worth a second core: a long list of independent items known up
front (100,000 entry files parsed for a first recall cache, INDEX.md regenerated from the
working tree, the files of a `gitmem check` of the whole memory, the updates of a push of
10,000 branches: in_two), and items that arrive while
this process goes on with other work (the secret scans of a push's files, handed over as the
judge meets them: Worker).  Both fork a child that shares this process's memory as it was,
so nothing is sent but the items, and both give the same answer as working here, only sooner.

The rule, the same for both (forks_allowed):

- only on Linux, where forking is the safe default (elsewhere, macOS, forking a process that
  has loaded system frameworks is not);
- never while another thread runs (threading.active_count() > 1: the MCP server answers each
  call in a worker thread): a fork copies one thread and every lock as it was, held or not;
- never when GITMEM_PARALLEL is 0, false, off or no (for debugging, profiling, or a machine
  whose process limits make forking unwelcome);
- when forking fails, or the child fails, this process does the child's share itself.

A child writes its results, pickled in batches, to a temporary file, never to a pipe: a pipe
would stall it until this process got round to draining it.  A Worker's items come the same
way, through a file the parent appends to and a pipe that only says how many batches wait
(one byte a batch, so the parent never blocks on it).  A child ends with os._exit: it must not
run the parent's clean-ups, flush the parent's buffers or return into the parent's code.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any, Generic, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

#: Results the child of in_two pickles at a time.
BATCH = 1024
#: The environment variable that turns every fork off.
SWITCH = "GITMEM_PARALLEL"


def forks_allowed() -> bool:
    """The one rule: Linux, no other thread running, and not switched off."""
    if sys.platform != "linux":
        return False
    if os.environ.get(SWITCH, "").strip().lower() in ("0", "false", "off", "no"):
        return False
    threading = sys.modules.get("threading")  # not imported: no thread was started with it
    return threading is None or threading.active_count() == 1


def in_two(
    items: list[Item], work: Callable[[list[Item]], Iterable[Result]], *, minimum: int
) -> Iterator[Result]:
    """work(items)'s results, in order; from minimum items on, and when forks are allowed,
    a forked child works through the second half while this process works the first."""
    if len(items) < minimum or not forks_allowed():
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
        self._file = tempfile.TemporaryFile()  # noqa: SIM115 - close() closes it
        parent = os.getpid()
        try:
            self._pid = os.fork()
        except OSError:
            self._file.close()
            raise
        if self._pid == 0:  # pragma: no cover - the child, checked by its output
            _run_child(lambda: _dump_all(work(items), self._file), parent)

    def results(self) -> list[Result]:
        """The child's results once it has ended; its items worked through here if it failed."""
        found = _wait_and_load(self._pid, self._file)
        self._pid = 0
        return found if found is not None else list(self._work(self._items))

    def close(self) -> None:
        _stop(self._pid)
        self._pid = 0
        self._file.close()


class Worker(Generic[Item, Result]):
    """A forked child working through batches sent to it while this process goes on.

    send() hands a batch over (or, when forks are not allowed or fork failed, works it here at
    once); results() waits for the child and returns every batch's results in the order sent,
    working here whatever the child could not.  close() stops the child if it still runs.
    """

    def __init__(self, work: Callable[[list[Item]], list[Result]], *, fork: bool = True) -> None:
        self._work = work
        self._sent: list[list[Item]] = []
        self._done: list[Result] = []
        self._pid = 0
        self._requests: IO[bytes] | None = None  # the batches, appended by this process
        self._results: IO[bytes] | None = None  # the child's results, read at the end
        self._ready = 0  # one byte a batch sent; closed when no more come
        if fork and forks_allowed():
            self._start()

    def _start(self) -> None:
        named = tempfile.NamedTemporaryFile(delete=False)  # noqa: SIM115 - closed below
        try:
            writer = open(named.name, "ab")  # noqa: SIM115 - closed by _shut_channels
            reader = open(named.name, "rb")  # noqa: SIM115 - the child's, with its own offset
        finally:
            named.close()
            os.unlink(named.name)
        results = tempfile.TemporaryFile()  # noqa: SIM115 - closed by _shut_channels
        ready_r, ready_w = os.pipe()
        parent = os.getpid()
        try:
            pid = os.fork()
        except OSError:  # no process to spare: the work is done here
            pid = -1
        if pid == 0:  # pragma: no cover - the child, checked by its output
            os.close(ready_w)
            writer.close()
            _run_child(lambda: _serve(self._work, reader, ready_r, results), parent)
        reader.close()
        os.close(ready_r)
        self._requests, self._results, self._ready = writer, results, ready_w
        if pid < 0:
            self._shut_channels()
        else:
            self._pid = pid

    @property
    def parallel(self) -> bool:
        """Whether a child does the work (else it is done here)."""
        return self._pid != 0

    def send(self, batch: list[Item]) -> None:
        if not self._pid:
            self._done.extend(self._work(batch))
            return
        import pickle

        assert self._requests is not None  # open while a child works
        self._sent.append(batch)
        pickle.dump(batch, self._requests, protocol=pickle.HIGHEST_PROTOCOL)
        self._requests.flush()
        os.write(self._ready, b".")

    def results(self) -> list[Result]:
        if self._pid:
            self._shut_requests()
            assert self._results is not None
            found = _wait_and_load(self._pid, self._results)
            self._pid = 0
            if found is None:  # the child failed: every batch it had is worked here
                found = [r for batch in self._sent for r in self._work(batch)]
            self._done.extend(found)
            self._shut_channels()
        done, self._done = self._done, []
        self._sent = []
        return done

    def close(self) -> None:
        _stop(self._pid)
        self._pid = 0
        self._shut_channels()

    def _shut_requests(self) -> None:
        if self._ready:
            os.close(self._ready)  # the child reads end-of-file: no more batches
            self._ready = 0

    def _shut_channels(self) -> None:
        self._shut_requests()
        for handle in (self._requests, self._results):
            if handle is not None:
                handle.close()
        self._requests = self._results = None


def _serve(
    work: Callable[[list[Any]], list[Any]], reader: IO[bytes], ready: int, out: IO[bytes]
) -> None:
    """The Worker child: one batch per byte on the pipe, until the parent closes it."""
    import pickle

    while os.read(ready, 1):
        batch = pickle.load(reader)
        pickle.dump(work(batch), out, protocol=pickle.HIGHEST_PROTOCOL)
    out.flush()


def _dump_all(results: Iterable[Any], out: IO[bytes]) -> None:
    import pickle  # here, not at the top: every hook imports this module, few fork

    batch: list[Any] = []
    for result in results:
        batch.append(result)
        if len(batch) >= BATCH:
            pickle.dump(batch, out, protocol=pickle.HIGHEST_PROTOCOL)
            batch = []
    pickle.dump(batch, out, protocol=pickle.HIGHEST_PROTOCOL)
    out.flush()


def _run_child(body: Callable[[], None], parent: int) -> None:  # pragma: no cover - the child
    status = 1
    try:
        _die_with_parent(parent)
        body()
        status = 0
    finally:
        os._exit(status)


def _die_with_parent(parent: int) -> None:  # pragma: no cover - runs in the child
    """Have the kernel end this child when parent, the process that forked it, ends (Linux's
    PR_SET_PDEATHSIG; forks are Linux's only: forks_allowed). A `kill -9` of a recall in
    its first build left the child embedding half the entries for nobody, at full CPU, until
    it was done; an interrupt, which the parent handles, ended it already (_stop)."""
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, 9, 0, 0, 0)  # PR_SET_PDEATHSIG, SIGKILL
    if os.getppid() != parent:  # the parent ended before the request was made
        os._exit(1)


def _wait_and_load(pid: int, results: IO[bytes]) -> list[Any] | None:
    """Wait for the child; its pickled results in order, or None when it failed."""
    import pickle

    _, status = os.waitpid(pid, 0)
    if status != 0:
        return None
    results.seek(0)
    found: list[Any] = []
    try:
        while True:
            found.extend(pickle.load(results))
    except EOFError:
        return found
    except (pickle.UnpicklingError, ValueError, TypeError):
        return None


def _stop(pid: int) -> None:
    if pid:
        with contextlib.suppress(OSError):
            os.kill(pid, 9)
            os.waitpid(pid, 0)
