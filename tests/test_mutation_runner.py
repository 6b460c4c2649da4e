"""The mutation runner's own bookkeeping (tests/mutation.py, run on demand by `make
mutation`): a stopped run resumes from its journal without mixing versions of the code, and the
tests most likely to kill a mutant run first. The runner below is a stand-in that runs no test:
what is checked is what run_module asks of it and what it keeps."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import mutation
import pytest

MODULE = "gitmem/model/refused.py"


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The runner's cache folder (its maps and journals) in the test's own folder."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


class Recording:
    """Answers every mutant as killed by one test, and remembers which it was asked to run."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def run(self, mutant: mutation.Mutant, scratch: Path) -> mutation.Outcome:
        self.asked.append(mutant.name)
        return mutation.Outcome(mutant, True, "tests/model/test_refused.py::test_x", 1.0)


def test_a_stopped_run_takes_what_its_journal_holds_and_runs_only_the_rest(
    tmp_path: Path,
) -> None:
    found = mutation.mutants(MODULE)[:3]
    journal = tmp_path / "journal.jsonl"
    first = Recording()
    mutation.run_module(MODULE, found[:2], 1, first, journal)  # type: ignore[arg-type]
    assert first.asked == [m.name for m in found[:2]]
    with journal.open("a", encoding="utf-8") as out:
        out.write('{"name": "gitmem/model/refu')  # the line a kill cut short
    second = Recording()
    outcomes, _ = mutation.run_module(MODULE, found, 1, second, journal)  # type: ignore[arg-type]
    assert second.asked == [found[2].name]
    assert [o.mutant.name for o in outcomes] == [m.name for m in found]
    assert all(o.killed and o.by.endswith("::test_x") for o in outcomes)
    names = [json.loads(line)["name"] for line in journal.read_text().splitlines()[:2]]
    assert names == [m.name for m in found[:2]]


def test_a_journal_belongs_to_one_version_of_the_code_tests_and_options() -> None:
    tests = mutation.MODULES[MODULE]
    assert mutation._journal(MODULE, tests, 0.0) == mutation._journal(MODULE, tests, 0.0)
    assert mutation._journal(MODULE, tests, 0.0) != mutation._journal(MODULE, tests, 30.0)
    assert mutation._journal(MODULE, tests, 0.0) != mutation._journal(MODULE, tests[:1], 0.0)


def test_a_mutants_tests_run_likeliest_killer_first() -> None:
    durations = {"a": 1.0, "b": 10.0, "c": 1.0, "d": 2.0}
    runner = mutation.Runner([], 0.0, mutation.Map({}, durations), Counter({"b": 20, "c": 1}))
    mutant = mutation.mutants(MODULE)[0]
    runner.killers[mutant.line + 3] = "d"  # killed a mutant three lines away
    runner.killers[mutant.line + 40] = "a"  # too far to count
    # d: near; b: 2 kills a second; c: 1; a: none
    assert runner._likely_killers_first(mutant, ["a", "c", "d", "b"]) == ["d", "b", "c", "a"]


def test_the_kills_of_earlier_journals_count_but_timeouts_and_survivors_do_not() -> None:
    folder = mutation._cache_dir()
    lines = [
        {"name": "x:1:skip-if", "killed": True, "by": "t::one", "seconds": 1, "covered": True},
        {"name": "x:2:skip-if", "killed": True, "by": "(timed out)", "seconds": 1, "covered": True},
        {"name": "x:3:skip-if", "killed": False, "by": "", "seconds": 1, "covered": True},
    ]
    for key in ("old", "new"):
        text = "".join(json.dumps(line) + "\n" for line in lines)
        (folder / f"journal-refused-{key}.jsonl").write_text(text, encoding="utf-8")
    (folder / "journal-rules-old.jsonl").write_text(json.dumps(lines[0]) + "\n")
    assert mutation._kills_in_journals(MODULE) == Counter({"t::one": 2})
