"""The push scanner: a forked worker finds exactly what scanning in process finds."""

from __future__ import annotations

import pytest
from secret_samples import CLEAN, NEGATIVES, POSITIVES

from gitmem.gate.scanner import BATCH, Scanner

from conftest import child_processes


def _texts() -> list[bytes]:
    texts = [f"line one\n{text}\n".encode() for _, text, _ in POSITIVES]
    texts += [text.encode() for _, text in NEGATIVES]
    texts += [text.encode() for text in CLEAN]
    texts.append("hidden\u202ebidi\n".encode())
    texts.append(b"\xff\xfe not UTF-8 \x00")
    return texts * 3  # past one batch, so several batches come back in order


@pytest.mark.parametrize("offset", [0, 40])
def test_the_worker_finds_what_the_process_finds(offset: int) -> None:
    texts = _texts()
    assert len(texts) > BATCH
    found = {}
    for parallel in (False, True):
        scanner = Scanner(parallel=parallel)
        for number, data in enumerate(texts):
            scanner.add(str(number), data, offset)
        found[parallel] = scanner.results()
        scanner.close()
    assert found[True] == found[False]
    labels = [int(label) for label, _ in found[True]]
    assert labels == sorted(labels) and len(labels) >= len(POSITIVES)
    assert all(f.line > offset for _, findings in found[True] for f in findings)


def test_a_worker_stopped_half_way_leaves_nothing_behind() -> None:
    scanner = Scanner(parallel=True)
    assert scanner.parallel
    for number, data in enumerate(_texts()):
        scanner.add(str(number), data)
    workers = len(child_processes())
    assert workers >= 1
    scanner.close()  # as judging does when it fails before asking for results
    assert not scanner.parallel
    assert len(child_processes()) == workers - 1


def test_where_forks_are_not_allowed_the_scans_run_in_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GITMEM_PARALLEL", "0")
    scanner = Scanner(parallel=True)
    assert not scanner.parallel
    scanner.add("0", POSITIVES[0][1].encode())
    assert [label for label, _ in scanner.results()] == ["0"]


def test_results_stop_the_worker_and_are_given_once() -> None:
    assert not Scanner(parallel=False).parallel  # a small push never starts a process
    scanner = Scanner(parallel=True)
    workers = len(child_processes())
    scanner.add("0", POSITIVES[0][1].encode())
    assert [label for label, _ in scanner.results()] == ["0"]
    assert not scanner.parallel and len(child_processes()) == workers - 1
    assert scanner.results() == []  # nothing is reported twice
