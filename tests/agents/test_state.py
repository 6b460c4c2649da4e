"""What the agents' hooks remember between calls (gitmem.agents.state) is used only while
everything it was found from is unchanged: the memory branch's tip, the settings files, the
user's settings, GITMEM_* variables, HEAD's branch and the memory folder on disk."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from clirunner import ok, run

from gitmem.agents import agent_hook, state
from gitmem.repo.store import Store

from conftest import fed_fifo, git, run_gitmem


def _admit(repo: Path, title: str) -> str:
    out = ok(run(repo, "propose", "--type", "method", "--title", title, "--applies-when",
                 f"when {title.lower()}", "--content", "The lesson.", "--source",
                 "human:alice", "--file", "README.md")).output  # fmt: skip
    entry_id = out.split()[1]
    ok(run(repo, "admit", entry_id, "--by", "human:bob"))
    return entry_id


def _session(repo: Path) -> dict[str, Any] | None:
    """One SessionStart hook call, in this process: it records the state when it must."""
    return agent_hook.answer("SessionStart", {"cwd": str(repo)}, os.environ)


def _expected(repo: Path, dir: str = ".gitmem") -> tuple[str, str]:
    tip = git(repo, "rev-parse", "main").strip()
    return tip, git(repo, "rev-parse", f"main:{dir}/entries").strip()


@pytest.fixture
def mem(memory: Path) -> Path:
    _admit(memory, "Keep the README short")
    assert _session(memory) is not None  # the full path, which records what it found
    known = state.current(str(memory))
    assert known is not None
    assert (known.tip, known.entries_tree) == _expected(memory)
    assert (known.dir, known.branch) == (".gitmem", "main")
    return memory


def _fields(known: state.Known | None) -> tuple[object, ...]:
    assert known is not None
    return tuple(getattr(known, name) for name in state.Known.__slots__ if name != "files")


def _full_path(repo: Path) -> state.Known | None:
    """What the full path finds and records, with nothing remembered before it."""
    (Path(Store.open(repo).git_dir) / "gitmem" / state.NAME).unlink()
    assert _session(repo) is not None
    return state.current(str(repo))


def _move_without_hooks(repo: Path, how: str) -> None:
    """Move main to a commit made without the hooks: the memory folder changed as `how` says."""
    if how == "entries gone":
        git(repo, "rm", "-q", "-r", ".gitmem/entries")
    elif how == "memory folder a file":
        git(repo, "rm", "-q", "-r", ".gitmem")
        (repo / ".gitmem").write_text("not a folder\n")
        git(repo, "add", ".gitmem")
    elif how == "replaced":  # git would read the old tip's commit in the new one's place
        old = git(repo, "rev-parse", "main").strip()
        git(repo, "commit", "-q", "--allow-empty", "--no-verify", "-m", "empty")
        git(repo, "rm", "-q", "-r", ".gitmem/entries")
        git(repo, "commit", "-q", "--no-verify", "-m", "entries gone")
        git(repo, "replace", git(repo, "rev-parse", "main").strip(), old)
        return
    git(repo, "commit", "-q", "--no-verify", "-m", how)


def test_a_moved_branch_is_followed_by_asking_git_and_recorded_anew(mem: Path) -> None:
    """An admission moves main: the remembered answer is followed to the new tip (its trees
    asked of git) and recorded there, the full path's answer field for field."""
    _admit(mem, "Tag releases from main")
    known = state.current(str(mem))
    assert known is not None and (known.tip, known.entries_tree) == _expected(mem)
    assert known.memory_tree == git(mem, "rev-parse", "main:.gitmem").strip()
    where = Path(Store.open(mem).git_dir) / "gitmem" / state.NAME
    recorded = json.loads(where.read_text())["states"]
    assert len(recorded) == 1 and recorded[0]["tip"] == known.tip
    assert recorded[0]["entries_tree"] == known.entries_tree
    assert _fields(known) == _fields(_full_path(mem))


@pytest.mark.parametrize("how", ["entries gone", "memory folder a file", "replaced"])
def test_a_branch_moved_anywhere_is_followed_as_the_full_path_finds_it(mem: Path, how: str) -> None:
    _move_without_hooks(mem, how)
    followed = state.current(str(mem))
    assert followed is not None and followed.tip == git(mem, "rev-parse", "main").strip()
    assert followed.entries_tree is None
    if how == "memory folder a file":  # no full path runs on it: it says what is wrong
        assert followed.memory_tree is None
    else:
        assert _fields(followed) == _fields(_full_path(mem))


@pytest.mark.parametrize("name", [".gitmem.toml", "pyproject.toml"])
def test_an_edited_settings_file_takes_the_full_path(mem: Path, name: str) -> None:
    path = mem / name
    before = path.read_bytes() if path.exists() else None
    path.write_bytes((before or b"") + b"\n# edited\n")
    assert state.current(str(mem)) is None
    if before is None:
        path.unlink()
    else:
        path.write_bytes(before)
    assert state.current(str(mem)) is not None  # the same inputs again: the same answer


def test_the_users_settings_and_the_environment_count_too(
    mem: Path, isolated_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITMEM_DIR", ".memory")
    assert state.current(str(mem)) is None
    monkeypatch.delenv("GITMEM_DIR")
    assert state.current(str(mem)) is not None
    user = isolated_env / "gitmem" / "config.toml"
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text('[memory]\ndir = ".memory"\n')
    assert state.current(str(mem)) is None


def test_another_head_branch_takes_the_full_path(mem: Path) -> None:
    git(mem, "checkout", "-q", "-b", "feature")
    assert state.current(str(mem)) is None  # what HEAD names is a default of memory.branch
    git(mem, "checkout", "-q", "main")
    assert state.current(str(mem)) is not None  # back where it was recorded: the same answer


def test_a_memory_folder_replaced_by_a_link_takes_the_full_path(mem: Path) -> None:
    moved = mem.parent / "elsewhere"
    shutil.move(str(mem / ".gitmem"), moved)
    (mem / ".gitmem").symlink_to(moved, target_is_directory=True)
    assert state.current(str(mem)) is None


def test_a_damaged_or_foreign_state_is_never_used(mem: Path) -> None:
    where = Path(Store.open(mem).git_dir) / "gitmem" / state.NAME
    recorded = json.loads(where.read_text())
    assert recorded["version"] == state.VERSION and len(recorded["states"]) == 1
    one = recorded["states"][0]

    def holding(*states: object) -> str:
        return json.dumps({**recorded, "states": list(states)})

    for damaged in ("{", "[]", json.dumps({**recorded, "version": state.VERSION + 1}),
                    json.dumps({**recorded, "states": one}), holding("x", [one]),
                    holding({k: v for k, v in one.items() if k != "tip"}),
                    holding({**one, "root": str(mem.parent)}),
                    holding({**one, "inputs": "0" * 64}),
                    holding({**one, "real_dir": str(mem)}, one)):  # fmt: skip
        where.write_text(damaged)
        assert state.current(str(mem)) is None, damaged
    where.write_text(holding({**one, "inputs": "0" * 64}, one))
    assert state.current(str(mem)) is not None  # another set of inputs' answer is passed by
    where.unlink()
    assert state.current(str(mem)) is None


def test_answers_for_other_inputs_are_kept_beside_each_other(mem: Path) -> None:
    """A shell and an agent's hooks that differ in a GITMEM_* variable each keep their answer
    (at most KEEP, the newest first), so neither makes the other take the full path."""
    os.environ["GITMEM_SEMANTIC"] = "false"
    assert state.current(str(mem)) is None
    assert _session(mem) is not None
    off = state.current(str(mem))
    assert off is not None and off.semantic is False
    del os.environ["GITMEM_SEMANTIC"]
    on = state.current(str(mem))
    assert on is not None and on.semantic is True
    for n in range(state.KEEP + 1):
        os.environ["GITMEM_OTHER"] = str(n)
        assert _session(mem) is not None
    del os.environ["GITMEM_OTHER"]
    where = Path(Store.open(mem).git_dir) / "gitmem" / state.NAME
    assert len(json.loads(where.read_text())["states"]) == state.KEEP
    assert state.current(str(mem)) is None  # the oldest answers made room for the newest


def test_a_linked_worktree_keeps_its_own_state(mem: Path, tmp_path: Path) -> None:
    linked = tmp_path / "linked"
    git(mem, "worktree", "add", "-q", "-b", "side", str(linked))
    assert state.current(str(linked)) is None
    assert _session(linked) is not None
    known = state.current(str(linked))
    assert known is not None and known.tip == _expected(mem)[0]
    assert state.current(str(mem)) is not None  # the main worktree's is untouched


def test_freshness_is_kept_for_one_tip_and_read_for_that_tip_only(tmp_path: Path) -> None:
    from gitmem.recall.freshness import Freshness

    common = tmp_path / "git"
    one, two = "1" * 40, "2" * 40
    assert state.freshness_known(common, one) == {}
    known = {"a.md": Freshness(2, ()), "b.md": Freshness(0, ("gone.py",))}
    state.remember_freshness(common, one, known)
    assert state.freshness_known(common, one) == known
    assert state.freshness_known(common, two) == {}
    state.remember_freshness(common, two, {"a.md": Freshness(3, ())})
    assert state.freshness_known(common, one) == {}  # another tip's file is removed
    assert state.freshness_known(common, two) == {"a.md": Freshness(3, ())}
    path = common / "gitmem" / "agents" / f"freshness-{two}.json"
    bad = json.dumps({"version": state.VERSION, "tip": two, "entries": {"a.md": 3}})
    for damaged in ("{", "[]", bad):
        path.write_text(damaged)
        assert state.freshness_known(common, two) == {}, damaged


def test_a_state_or_freshness_file_replaced_by_a_fifo_is_never_read(mem: Path) -> None:
    """gitmem writes its state files by rename, so a FIFO in the place of one is none of its
    own: reading it like a file waited for a writer that never comes, and every later hook
    and `gitmem recall` hung. A FIFO that does give a whole state (fed_fifo) shows whether
    it was read: it must not be."""
    from gitmem.recall.freshness import Freshness

    where = Path(Store.open(mem).git_dir) / "gitmem" / state.NAME
    recorded = where.read_bytes()
    with fed_fifo(where, recorded):
        assert state.current(str(mem)) is None
    where.unlink()
    assert _session(mem) is not None  # the full path records it again, as a file
    assert state.current(str(mem)) is not None and where.is_file()

    common = Path(Store.open(mem).common_dir)
    tip = "1" * 40
    state.remember_freshness(common, tip, {"a.md": Freshness(2, ())})
    kept = common / "gitmem" / "agents" / f"freshness-{tip}.json"
    with fed_fifo(kept, kept.read_bytes()):
        assert state.freshness_known(common, tip) == {}


def test_a_settings_file_that_is_a_fifo_is_never_waited_on(mem: Path, isolated_env: Path) -> None:
    """The full path reads only a regular file for `.gitmem.toml`, `pyproject.toml` and the
    user's own settings (anything else is ignored, with a warning), but the digest of the
    inputs opened each of them like a file: a FIFO in one's place made every later hook and
    `gitmem recall` wait for a writer forever, before the full path could answer. A FIFO
    that does give bytes (fed_fifo) shows whether it was read: it must not be."""
    from gitmem.repo.refs import GitFiles
    from gitmem.settings.folders import user_settings_file

    files = GitFiles.at(mem)
    assert files is not None and state.inputs(str(mem), files) is not None
    user = isolated_env / "gitmem" / "config.toml"
    assert Path(user_settings_file()) == user
    user.parent.mkdir(parents=True, exist_ok=True)
    for path in (mem / ".gitmem.toml", mem / "pyproject.toml", user):
        with fed_fifo(path, b'[memory]\ndir = ".memory"\n'):
            assert state.inputs(str(mem), files) is None, path
        path.unlink()
    assert state.inputs(str(mem), files) is not None


def test_a_settings_file_that_is_a_folder_is_passed_to_the_full_path(
    mem: Path, isolated_env: Path
) -> None:
    """A folder in `.gitmem.toml`'s place (made by mkdir) opens without error, but fdopen
    refused its descriptor with an IsADirectoryError naming no file, and `gitmem recall`
    ended with "Is a directory" where every other command warns and carries on. The digest
    says it cannot read the inputs, and the full path answers."""
    from gitmem.repo.refs import GitFiles

    files = GitFiles.at(mem)
    assert files is not None
    (mem / ".gitmem.toml").unlink(missing_ok=True)
    (mem / ".gitmem.toml").mkdir()
    assert state.inputs(str(mem), files) is None
    result = run_gitmem(mem, "recall", "anything")
    assert result.returncode == 0, result.stderr
    assert "Is a directory" not in result.stderr


def test_freshness_kept_in_a_shallow_clone_is_not_read_once_it_is_deepened(
    repo: Path, tmp_path: Path
) -> None:
    """Freshness is kept by tip, as a pure function of the tip's history; but a shallow
    clone's history ends at its boundary, where git calls every file added, so an entry
    admitted before it counts no commit since (it is kept as unknown, null, and read back so).
    `git fetch --unshallow` brings the history and leaves the tip: the hooks went on reading
    the shallow clone's answer (0, then unknown, where git now says 2) until the branch
    moved."""
    from gitmem.recall.freshness import Freshness, freshness
    from gitmem.repo.gitcli import History

    def commit(files: dict[str, str], message: str) -> None:
        for name, text in files.items():
            (repo / name).write_text(text)
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", message)

    commit({"a.py": "a\n", "e.md": "e\n"}, "admit e, citing a.py")
    commit({"a.py": "a2\n"}, "touch a")
    commit({"a.py": "a3\n"}, "touch a again")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{repo}", str(clone))
    tip = git(clone, "rev-parse", "HEAD").strip()
    common = clone / ".git"
    entries = [("e.md", ["a.py"])]
    shallow = freshness(History(clone), tip, entries)
    state.remember_freshness(common, tip, dict(zip(["e.md"], shallow, strict=True)))
    assert state.freshness_known(common, tip) == {"e.md": Freshness(None, ())}
    git(clone, "fetch", "-q", "--unshallow")
    assert freshness(History(clone), tip, entries) == [Freshness(2, ())]
    assert state.freshness_known(common, tip) == {}
