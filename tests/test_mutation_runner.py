"""The mutation runner's own bookkeeping (tests/mutation.py, run on demand by `make
mutation`): a stopped run resumes from its journal without mixing versions of the code, and the
tests most likely to kill a mutant run first. The runner below is a stand-in that runs no test:
what is checked is what run_module asks of it and what it keeps."""

from __future__ import annotations

import json
import time
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
    journal = mutation.Journal.open(MODULE, "k1", tmp_path / "journal.jsonl", fresh=False)
    first = Recording()
    mutation.run_module(MODULE, found[:2], 1, first, journal)  # type: ignore[arg-type]
    assert first.asked == [m.name for m in found[:2]]
    with journal.path.open("a", encoding="utf-8") as out:
        out.write('{"name": "gitmem/model/refu')  # the line a kill cut short
    second = Recording()
    outcomes, _ = mutation.run_module(MODULE, found, 1, second, journal)  # type: ignore[arg-type]
    assert second.asked == [found[2].name]
    assert [o.mutant.name for o in outcomes] == [m.name for m in found]
    assert all(o.killed and o.by.endswith("::test_x") for o in outcomes)
    lines = journal.path.read_text().splitlines()
    assert lines[0] == '{"journal": "k1"}'
    assert [json.loads(line)["name"] for line in lines[1:3]] == [m.name for m in found[:2]]
    again = mutation.Journal.open(MODULE, "k1", journal.path, fresh=True)
    assert again.read(found) == {}  # --fresh: started anew


def test_a_journal_belongs_to_one_version_of_the_code_tests_and_options(tmp_path: Path) -> None:
    tests = mutation.MODULES[MODULE]
    key = mutation._journal_key(MODULE, tests, 0.0)
    assert key == mutation._journal_key(MODULE, tests, 0.0)
    assert key != mutation._journal_key(MODULE, tests, 30.0)
    assert key != mutation._journal_key(MODULE, tests[:1], 0.0)
    assert mutation.Journal.open(MODULE, key, None, fresh=False).path.name.endswith(f"{key}.jsonl")
    mutation.Journal.open(MODULE, key, tmp_path / "carried.jsonl", fresh=False)
    with pytest.raises(SystemExit, match="another version of the code"):
        mutation.Journal.open(MODULE, "other", tmp_path / "carried.jsonl", fresh=False)


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


def test_a_test_that_loops_is_stopped_at_its_limit_with_what_it_started(tmp_path: Path) -> None:
    """A mutant that makes a hook loop: the test running it stops at its own limit (here 1 s),
    counts as a timeout, not as the test's failure, and the process it started dies with it."""
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    (scratch / "gitmem_mutation_limits.py").write_text(mutation._LIMITS, encoding="utf-8")
    (scratch / "test-limits.json").write_text('{"": 1.0}', encoding="utf-8")
    pid_file = tmp_path / "sleeper.pid"
    loop = tmp_path / "loops" / "test_loop.py"
    loop.parent.mkdir()
    loop.write_text(
        "import subprocess\n\n\n"
        "def test_a_push_whose_hook_loops():\n"
        "    sleeper = subprocess.Popen(['sleep', '120'])\n"
        f"    open({str(pid_file)!r}, 'w').write(str(sleeper.pid))\n"
        "    sleeper.wait()\n",
        encoding="utf-8",
    )
    runner = mutation.Runner([], 120.0, None)
    assert runner._pytest([str(loop)], scratch, timeout=120.0) == "(timed out)"
    stat = Path(f"/proc/{int(pid_file.read_text())}/stat")
    for _ in range(100):  # SIGKILL is sent; the process ends a moment later
        if not stat.exists() or stat.read_text().split(") ")[1].startswith("Z"):
            break
        time.sleep(0.05)
    else:
        raise AssertionError("the process the looping test started is still running")
