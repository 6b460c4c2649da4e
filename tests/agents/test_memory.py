"""The warm recall that never opens the repository (gitmem.agents.memory): the same answer as
the full path, figure for figure, without pygit2; and the full path whenever it is not sure."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from clirunner import HOOKS, SECRETS, admit, ok, run

from gitmem.agents import state
from gitmem.repo.store import Store

from conftest import git

#: `gitmem recall` in a fresh process, then whether it loaded libgit2, on a last line.
PROBE = (
    "import sys\n"
    "from gitmem.cli.main import run\n"
    "code = run(['recall', *sys.argv[1:]])\n"
    "print('pygit2' in sys.modules, code)\n"
)


def probed(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """One `gitmem recall` in a fresh process, its last line of output saying whether it
    opened the repository (imported pygit2) and its exit code."""
    return subprocess.run(
        [sys.executable, "-c", PROBE, *args], cwd=repo, capture_output=True, text=True
    )


def recall(repo: Path, *args: str) -> tuple[str, bool]:
    """One `gitmem recall` in a fresh process: its output, and whether it opened the
    repository (imported pygit2)."""
    done = probed(repo, *args)
    *out, last = done.stdout.rstrip("\n").split("\n")
    opened, code = last.split()
    assert code == "0", done.stderr
    return "\n".join(out), opened == "True"


def forget(repo: Path) -> None:
    """Drop what earlier calls remembered: the next recall takes the full path."""
    (Path(Store.open(repo).git_dir) / "gitmem" / state.NAME).unlink(missing_ok=True)


#: A lesson no other entry of these tests is about.
SOURDOUGH = [
    "propose", "--type", "method", "--title", "Proof sourdough bread somewhere warm",
    "--applies-when", "baking sourdough bread at home", "--content", "Proof it warm.",
]  # fmt: skip


def admitted_and_updated(repo: Path) -> str:
    """SOURDOUGH admitted, then the recall cache updated as the post-merge hook updates it;
    the new entry's id."""
    from gitmem.lifecycle.refresh import warm_recall_cache
    from gitmem.repo.workspace import open_workspace

    fresh = admit(repo, SOURDOUGH)
    warm_recall_cache(open_workspace(repo))
    return fresh


@pytest.fixture
def recalled(memory: Path) -> Path:
    admit(memory, HOOKS)
    admit(memory, SECRETS)
    return memory


QUERIES = [
    ("pygit2 in a git hook", "--format", "json", "--explain"),
    ("how do I bake sourdough bread", "--format", "json", "--explain"),
    ("scan secrets", "--step", "spec"),
    ("hooks", "--type", "decision", "-k", "1", "--format", "json"),
    ("hooks", "--min-score", "0", "--explain"),
]


@pytest.mark.parametrize("semantic", ["true", "false"])
def test_a_warm_recall_gives_the_full_paths_answer_without_opening_the_repository(
    recalled: Path, semantic: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITMEM_SEMANTIC", semantic)
    (recalled / "README.md").write_text("changed since the entry was admitted\n")
    git(recalled, "commit", "-q", "-am", "touch a cited file")
    for query in QUERIES:
        forget(recalled)
        full, opened = recall(recalled, *query)
        assert opened, query  # nothing remembered: the full path, which remembers
        warm, opened = recall(recalled, *query)
        assert not opened, query
        assert warm == full, query
    hit = json.loads(recall(recalled, *QUERIES[0])[0])["entries"][0]
    assert hit["files"] == ["README.md"] and hit["stale_commits"] == 1


def test_whatever_moved_takes_the_full_path_once(recalled: Path) -> None:
    """A new admission (the tip moved, the cache lacks the tree), another ref: each answered
    as the full path answers it."""
    assert recall(recalled, "pygit2 hooks")[1]  # the first call remembers
    assert not recall(recalled, "pygit2 hooks")[1]
    fresh = admit(recalled, SOURDOUGH)
    out = recall(recalled, "how do I bake sourdough bread", "--format", "json")[0]
    assert [h["id"] for h in json.loads(out)] == [fresh]
    assert not recall(recalled, "how do I bake sourdough bread")[1]
    assert recall(recalled, "pygit2 hooks", "--ref", "main")[1]


@pytest.mark.parametrize("semantic", ["false", "true"])
def test_the_first_recall_after_an_admission_stays_warm(
    recalled: Path, semantic: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An admission moves main, and its post-merge hook brings the cache to the new tree (its
    keyword index; with the extra, the vectors left behind): the next recall follows the
    moved branch (gitmem.agents.state) and, with the extra, embeds the new entry from the
    file git reads (gitmem.recall.cache.caught_up), without opening the repository, where it
    opened it for both; and it answers as the full path does."""
    from gitmem.recall import semantic as model
    from gitmem.recall.cache import RecallCache
    from gitmem.repo.workspace import open_workspace

    if semantic == "true" and not model.available():
        pytest.skip("gitmem[semantic] not installed")
    monkeypatch.setenv("GITMEM_SEMANTIC", semantic)
    recall(recalled, "pygit2 hooks")  # remembers where the memory is
    fresh = admitted_and_updated(recalled)
    ws = open_workspace(recalled)
    newest = RecallCache(ws.store, ws.dir)._mine()
    assert ("vectors_of" in newest[0]) is (semantic == "true")
    asked = ("how do I bake sourdough bread", "--format", "json", "--explain")
    warm, opened = recall(recalled, *asked)
    assert not opened and [h["id"] for h in json.loads(warm)["entries"]] == [fresh]
    caught = RecallCache(ws.store, ws.dir)._mine()[0]
    assert caught["tree"] == newest[0]["tree"] and "vectors_of" not in caught
    forget(recalled)
    assert recall(recalled, *asked) == (warm, True)


#: An agent's prompt hook in a fresh process: its answer, then whether it loaded libgit2.
PROMPT = (
    "import json, os, sys\n"
    "from gitmem.agents import agent_hook\n"
    "event = {'cwd': os.getcwd(), 'prompt': sys.argv[1], 'session_id': 's',\n"
    "         'hook_event_name': 'UserPromptSubmit'}\n"
    "print(json.dumps(agent_hook.answer('UserPromptSubmit', event, os.environ)))\n"
    "print('pygit2' in sys.modules)\n"
)


def prompted(repo: Path, prompt: str) -> tuple[str, bool]:
    """An agent's UserPromptSubmit hook in a fresh process: the context it adds, and
    whether it opened the repository (imported pygit2)."""
    done = subprocess.run(
        [sys.executable, "-c", PROMPT, prompt], cwd=repo, capture_output=True, text=True
    )
    answer, opened = done.stdout.rstrip("\n").split("\n")
    found = json.loads(answer)
    context = found["hookSpecificOutput"]["additionalContext"] if found else ""
    return str(context), opened == "True"


def test_the_first_prompt_after_an_admission_stays_warm(recalled: Path) -> None:
    """After an admission (and the post-merge hook's cache update) an agent's first prompt
    follows the moved branch, brings the agents' catalog up from the one kept by the files
    git itself reads (gitmem.lifecycle.catalog.brought_up), and quotes the new entry without
    opening the repository; with nothing remembered and no catalog kept, the full path
    quotes it the same."""
    asked = "how do I bake sourdough bread at home"
    assert prompted(recalled, "pygit2 in a git hook")[1]  # remembers, and keeps a catalog
    assert not prompted(recalled, "pygit2 in a git hook")[1]
    fresh = admitted_and_updated(recalled)
    warm, opened = prompted(recalled, asked)
    assert not opened and fresh in warm
    forget(recalled)
    shutil.rmtree(Path(Store.open(recalled).git_dir) / "gitmem" / "agents")
    assert prompted(recalled, asked) == (warm, True)


def test_a_warm_precedents_block_takes_its_provenance_from_the_agents_catalog(
    recalled: Path,
) -> None:
    """Without the agents' catalog of the tip's entries the block reads the entries (the full
    path); with it, the same block without opening the repository."""
    from gitmem.lifecycle import catalog
    from gitmem.repo.workspace import open_workspace

    asked = ("pygit2 hooks", "--format", "precedents")
    recall(recalled, *asked)  # remembers where the memory is
    full, opened = recall(recalled, *asked)
    assert opened and full.startswith("## Precedents") and "admitted by human:" in full
    ws = open_workspace(recalled)
    memory = ws.store.subtree(ws.store.tree_of(ws.main_tip() or ""), ws.dir)
    catalog.load(ws.store, ws.dir, ws.store.subtree(memory, "entries"))
    assert recall(recalled, *asked) == (full, False)
    nothing = ("how do I bake sourdough bread", "--format", "precedents")
    assert recall(recalled, *nothing)[0].endswith(
        "No precedent in the project memory for this step."
    )


def test_a_damaged_cache_takes_the_full_path_which_repairs_it(recalled: Path) -> None:
    full, _ = recall(recalled, "pygit2 in a git hook", "--format", "json")
    cache = Path(Store.open(recalled).git_dir) / "gitmem" / "recall"
    for segment in (cache / "segments").iterdir():
        segment.write_bytes(b"\0" * 64)
    out, opened = recall(recalled, "pygit2 in a git hook", "--format", "json")
    assert out == full and opened
    assert recall(recalled, "pygit2 in a git hook", "--format", "json") == (full, False)


def test_git_pointed_elsewhere_or_no_work_tree_takes_the_full_path(
    recalled: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    recall(recalled, "pygit2 hooks")
    monkeypatch.setenv("GIT_DIR", str(recalled / ".git"))
    assert recall(recalled, "pygit2 hooks")[1]
    monkeypatch.delenv("GIT_DIR")
    sub = recalled / "docs"
    sub.mkdir()
    assert not recall(sub, "pygit2 hooks")[1]  # from a subfolder: the work tree's top
    outside = tmp_path / "outside"
    outside.mkdir()
    ok(run(recalled, "recall", "pygit2 hooks"))
    done = subprocess.run([sys.executable, "-c", PROBE, "x"], cwd=outside, capture_output=True)
    assert done.stdout.split()[-1] == b"2", done.stderr  # not a repository: a usage error


def test_the_warm_answer_is_the_full_answer_for_every_question(
    memory: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In process, over 300 generated entries whose cited files were since changed or removed,
    and every third labelled question (with a type filter, another k, a plain threshold): the warm
    recall and the full path agree on every field of every hit, explanation included, and on
    the rejected candidate."""
    from dataclasses import asdict

    import benches
    from recall_queries import MATCHING, NO_MATCH, SITUATIONS

    from gitmem.agents.memory import Memory, remembered_recall
    from gitmem.recall.service import recall_answer
    from gitmem.repo.workspace import open_workspace

    generate = benches.load("generate")
    generate.write_store(memory, 300)
    git(memory, "add", "-A")
    git(memory, "commit", "-q", "-m", "entries")
    changed, removed = generate.PATHS[0], generate.PATHS[1]
    (memory / changed).write_text("# changed\n")
    (memory / removed).unlink()
    git(memory, "commit", "-q", "-am", "code moves on")
    questions = ([q for q, _ in MATCHING + SITUATIONS] + NO_MATCH)[::3]
    variants: list[dict[str, Any]] = [{}, {"types": {"method"}}, {"k": 2}, {"min_score": 0.0}]
    stale = 0
    for semantic in ("true", "false"):
        monkeypatch.setenv("GITMEM_SEMANTIC", semantic)
        assert Memory(str(memory)).opened  # the first call finds and remembers
        warm = Memory(str(memory))
        assert not warm.opened and warm.known.semantic is (semantic == "true")
        ws = open_workspace(memory)
        for n, question in enumerate(questions):
            kw: dict[str, Any] = variants[n % len(variants)]
            full = recall_answer(ws, question, **kw)  # the first one builds the cache
            got = remembered_recall(warm, question, **kw)
            assert got is not None and asdict(got) == asdict(full), question
            stale += sum(bool(h.freshness) for h in got.entries)
    assert stale > 0  # the comparison covered hits whose freshness says something


def test_a_warm_precedents_block_says_who_admitted_an_entry_as_the_full_path_says_it(
    recalled: Path,
) -> None:
    """An entry whose `admitted_by` is no text (a list, committed around the gate):
    the full path reads it as unknown, but the agents' catalog kept the value written out
    ("['human:bob', 'human:carol']"), so the warm block named an admitter the full one did
    not, and memory_recent an admitter memory_recall did not."""
    from gitmem.lifecycle import catalog
    from gitmem.repo.workspace import open_workspace

    entry = next((recalled / ".gitmem/entries").glob("decision/*.md"))
    text = entry.read_text()
    by = next(line for line in text.splitlines() if line.startswith("admitted_by: "))
    entry.write_text(text.replace(by, "admitted_by: [human:bob, human:carol]"))
    git(recalled, "commit", "-q", "--no-verify", "-am", "admitted_by written otherwise")
    asked = ("pygit2 hooks", "--format", "precedents")
    recall(recalled, *asked)  # remembers where the memory is
    full, opened = recall(recalled, *asked)
    assert opened and "admitted by unknown" in full
    ws = open_workspace(recalled)
    memory = ws.store.subtree(ws.store.tree_of(ws.main_tip() or ""), ws.dir)
    catalog.load(ws.store, ws.dir, ws.store.subtree(memory, "entries"))
    assert recall(recalled, *asked) == (full, False)


def test_a_warm_precedents_block_takes_provenance_from_the_hits_own_file(
    recalled: Path,
) -> None:
    """Two files hold one id (a copy in another type folder, committed around the gate),
    each saying another admitter: recall answers from the one last in path order, and the
    full path reads the provenance from that hit's file; the catalog found a line by the id
    alone, which may be the other file's, so the warm block named the other admitter. The
    catalog's line of the hit's own file answers warm, as the full path does."""
    from gitmem.lifecycle import catalog
    from gitmem.repo.workspace import open_workspace

    entry = next((recalled / ".gitmem/entries").glob("decision/*.md"))
    text = entry.read_text()
    by = next(line for line in text.splitlines() if line.startswith("admitted_by: "))
    copy = recalled / ".gitmem/entries/method" / entry.name
    copy.parent.mkdir(exist_ok=True)
    when = next(line for line in text.splitlines() if line.startswith("admitted: "))
    copy.write_text(  # of the type of its folder, at its own place: an entry to every reader
        text.replace(by, "admitted_by: human:mallory")
        .replace(when, "admitted: 2020-01-01")
        .replace("type: decision", "type: method")
    )
    git(recalled, "add", "-A")
    git(recalled, "commit", "-q", "--no-verify", "-m", "a copy saying another admitter")
    asked = ("pygit2 hooks", "--format", "precedents")
    recall(recalled, *asked)  # remembers where the memory is
    full, opened = recall(recalled, *asked)
    assert opened and "admitted by human:mallory" in full
    ws = open_workspace(recalled)
    memory = ws.store.subtree(ws.store.tree_of(ws.main_tip() or ""), ws.dir)
    loaded = catalog.load(ws.store, ws.dir, ws.store.subtree(memory, "entries"))
    assert len([e for e in loaded if e.id == entry.stem]) == 2
    assert recall(recalled, *asked) == (full, False)


@pytest.mark.parametrize("settings", [b'[memory\ndir = ".gitmem"\n', b"[memory]\n# caf\xe9\n"])
def test_recall_says_the_settings_set_aside_as_list_does_warm_or_cold(
    recalled: Path, settings: bytes
) -> None:
    """A .gitmem.toml that is not valid TOML, or not UTF-8, is set aside for the defaults:
    `gitmem list` says so on stderr and the MCP tools in their answer, but `gitmem recall`
    said nothing, cold or warm, and its "no precedent" read as the memory's word. It now
    prints the same warnings on stderr, whatever the format (the warm path remembers them
    with the rest of what the settings decided)."""
    (recalled / ".gitmem.toml").write_bytes(settings)
    listed = subprocess.run(
        [sys.executable, "-m", "gitmem", "list"], cwd=recalled, capture_output=True, text=True
    )
    assert listed.returncode == 0 and listed.stderr.startswith("gitmem: warning: .gitmem.toml")
    for fmt in ("text", "json", "precedents"):
        forget(recalled)
        for warm in (False, True):
            done = probed(recalled, "pygit2 in a git hook", "--format", fmt)
            # (a precedents block is warm only with the agents' catalog, which hooks keep)
            opened = done.stdout.endswith(f"{not warm or fmt == 'precedents'} 0\n")
            assert opened, (fmt, warm, done.stdout, done.stderr)
            assert done.stderr == listed.stderr, (fmt, warm, done.stderr)


def test_recall_names_an_entry_file_that_does_not_parse_warm_or_cold(recalled: Path) -> None:
    """An admitted entry's file that does not parse (committed past the hooks) was left out
    of recall without a word, where `gitmem list` and the export name it: the answer passed
    for the whole memory's. Recall now names the file and what is wrong on stderr, as list
    does, and answers from the rest: on a first build, after an update, and warm."""
    broken = recalled / ".gitmem/entries/decision/local-decision-20261206-broken.md"
    broken.write_text("---\nid: local-decision-20261206-broken\n---\nno front matter end\n")
    git(recalled, "add", "-A")
    git(recalled, "commit", "-q", "--no-verify", "-m", "a file that does not parse")
    listed = subprocess.run(
        [sys.executable, "-m", "gitmem", "list"], cwd=recalled, capture_output=True, text=True
    )
    (said,) = [line for line in listed.stderr.splitlines() if "broken.md" in line]
    assert said.startswith("gitmem: .gitmem/entries/decision/local-decision-20261206-broken.md")
    for fmt in ("text", "json"):
        forget(recalled)
        for warm in (False, True):
            done = probed(recalled, "pygit2 in a git hook", "--format", fmt)
            assert done.stdout.endswith(f"{not warm} 0\n"), (fmt, warm, done.stdout, done.stderr)
            assert "use-pygit2-inside-git-hooks" in done.stdout, done.stdout
            assert done.stderr.splitlines() == [said], (fmt, warm, done.stderr)
    admit(
        recalled,
        ["propose", "--type", "method", "--title", "Proof sourdough somewhere warm",
         "--applies-when", "baking sourdough bread", "--content", "Proof it warm."],
    )  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-m", "gitmem", "recall", "sourdough bread"],
        cwd=recalled, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0 and done.stderr.splitlines() == [said], done.stderr
    broken.unlink()
    git(recalled, "commit", "-q", "--no-verify", "-am", "the file goes")
    done = subprocess.run(
        [sys.executable, "-m", "gitmem", "recall", "sourdough bread"],
        cwd=recalled, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0 and done.stderr == "", done.stderr


@pytest.mark.parametrize("fmt", [("--format", "text"), ("--format", "json", "--explain")])
def test_recall_withholds_an_entry_holding_a_secret_warm_or_cold(
    recalled: Path, fmt: tuple[str, ...]
) -> None:
    """Agents are told to run `gitmem recall`; its text and JSON printed an entry committed
    past the gates whole, a token in its title, where the precedents block, the hooks and
    the MCP server withhold it."""
    from secret_samples import github_token

    from entries import text

    token = github_token(40)
    forged = "local-decision-20261207-rotate-deploy-tokens"
    path = recalled / f".gitmem/entries/decision/{forged}.md"
    path.write_text(
        text(
            id=forged,
            type="decision",
            status="admitted",
            admitted_by="human:eve",
            admitted="2026-12-07",
            title=f"Rotate deploy tokens {token} weekly",
            applies_when="rotating deploy tokens",
        )
    )
    ok(run(recalled, "index"))
    git(recalled, "add", "-A")
    git(recalled, "commit", "-q", "--no-verify", "-m", "forged past the gates")
    for _ in ("cold", "warm"):
        out, _opened = recall(recalled, "rotate deploy tokens weekly", *fmt)
        assert token not in out and token.lower() not in out
        assert forged in out and "(withheld: the entry holds a secret)" in out
    forget(recalled)


def test_recall_names_an_entry_at_another_entry_s_place_warm_or_cold(recalled: Path) -> None:
    """A file whose id is not its place's (ID-PATH) was left out of recall without a word,
    where `gitmem list` names it."""
    copy = recalled / ".gitmem/entries/decision/local-decision-20261207-elsewhere.md"
    first = next((recalled / ".gitmem/entries/decision").glob("*.md"))
    copy.write_text(first.read_text())
    git(recalled, "add", "-A")
    git(recalled, "commit", "-q", "--no-verify", "-m", "a copy at another entry's place")
    listed = subprocess.run(
        [sys.executable, "-m", "gitmem", "list"], cwd=recalled, capture_output=True, text=True
    )
    (said,) = [line for line in listed.stderr.splitlines() if "elsewhere.md" in line]
    assert "ID-PATH" in said
    forget(recalled)
    for warm in (False, True):
        done = probed(recalled, "pygit2 in a git hook")
        assert done.stdout.endswith(f"{not warm} 0\n"), (warm, done.stdout, done.stderr)
        assert [line for line in done.stderr.splitlines() if "elsewhere.md" in line] == [said]
