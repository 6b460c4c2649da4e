"""Work split with a forked child: the child really does the second half, and its failure
costs only time."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from gitmem import parallel as forked


def _where(items: list[int]) -> Iterator[tuple[int, int]]:
    for item in items:
        yield item, os.getpid()


def test_the_child_works_through_the_second_half() -> None:
    results = list(forked.in_two(list(range(10)), _where, minimum=4))
    assert [item for item, _ in results] == list(range(10))
    here = os.getpid()
    assert {pid for _, pid in results[:5]} == {here}
    assert len({pid for _, pid in results[5:]}) == 1 and results[5][1] != here
    assert {pid for _, pid in forked.in_two(list(range(3)), _where, minimum=4)} == {here}


def test_a_failing_child_leaves_its_half_to_this_process() -> None:
    here = os.getpid()

    def failing_in_child(items: list[int]) -> Iterator[tuple[int, int]]:
        if os.getpid() != here:
            raise RuntimeError("the child fails")
        return _where(items)

    results = list(forked.in_two(list(range(10)), failing_in_child, minimum=4))
    assert results == [(item, here) for item in range(10)]


def test_without_a_fork_all_is_done_here(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_fork() -> int:
        raise OSError("Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", no_fork)
    here = os.getpid()
    assert list(forked.in_two(list(range(10)), _where, minimum=4)) == [
        (item, here) for item in range(10)
    ]
