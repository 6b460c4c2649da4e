"""The git command line as gitmem runs it: from a named folder, without a hook's GIT_* variables."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gitmem.errors import GitmemError, UsageError
from gitmem.repo import gitcli

from conftest import git


def test_a_hooks_variables_are_stripped_but_identity_and_isolation_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GIT_DIR", "/elsewhere")
    monkeypatch.setenv("GIT_INDEX_FILE", "/elsewhere/index")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Ada")
    env = gitcli.clean_git_env()
    assert "GIT_DIR" not in env and "GIT_INDEX_FILE" not in env
    assert env["GIT_AUTHOR_NAME"] == "Ada" and env["GIT_CONFIG_GLOBAL"] == os.devnull


def test_the_configuration_a_person_gave_git_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """`git -c` (GIT_CONFIG_PARAMETERS) and GIT_CONFIG_COUNT with its keys and values were
    stripped with the hook's variables: the git gitmem ran read other settings than the one
    that ran gitmem."""
    given = {
        "GIT_CONFIG_PARAMETERS": "'user.name'='Dashed'",
        "GIT_CONFIG_COUNT": "1",
        "GIT_CONFIG_KEY_0": "commit.gpgSign",
        "GIT_CONFIG_VALUE_0": "true",
        "GIT_CONFIG_SYSTEM": os.devnull,
    }
    for key, value in given.items():
        monkeypatch.setenv(key, value)
    env = gitcli.clean_git_env()
    assert {key: env.get(key) for key in given} == given
    assert gitcli.config_in_env()
    for key in gitcli.CONFIG_ENV:
        monkeypatch.delenv(key, raising=False)
    assert not gitcli.config_in_env()


def test_run_in_works_on_the_folder_named_not_the_hooks_repository(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "other"
    git(tmp_path, "init", "-q", "-b", "trunk", str(other))
    monkeypatch.setenv("GIT_DIR", str(repo / ".git"))  # as a hook of repo would have it
    assert gitcli.output_in(other, "symbolic-ref", "--short", "HEAD") == "trunk"


def test_failures_say_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="is not a folder"):
        gitcli.run_in(tmp_path / "absent", "status")
    (tmp_path / "plain").mkdir()
    with pytest.raises(UsageError, match="not inside a git repository"):
        gitcli.output_in(tmp_path / "plain", "rev-parse", "--git-dir")
    with pytest.raises(GitmemError, match="git no-such-command failed"):
        git(tmp_path, "init", "-q", str(tmp_path / "r"))
        gitcli.output_in(tmp_path / "r", "no-such-command")


def test_hook_output_is_none_when_git_fails(tmp_path: Path) -> None:
    assert gitcli.hook_output("rev-parse", "--show-toplevel", cwd=str(tmp_path)) is None
    git(tmp_path, "init", "-q", str(tmp_path / "r"))
    top = gitcli.hook_output("rev-parse", "--show-toplevel", cwd=str(tmp_path / "r"))
    assert top is not None and top.decode().strip() == str((tmp_path / "r").resolve())


def test_a_path_git_would_read_as_another_is_not_asked(repo: Path) -> None:
    """`git log --stdin` reads its paths line by line and drops a line's last carriage
    return, so `a.py\\r` was asked as `a.py`: the changes the walk gave for it were another
    file's. A path a line cannot carry exactly is left out, as one no commit changed."""
    from gitmem.repo.store import Store

    (repo / "a.py").write_text("a\n")
    (repo / "a.py\r").write_text("b\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "two files")
    store = Store.open(repo)
    tip = git(repo, "rev-parse", "HEAD").strip()
    assert [c for _, c in store.first_parent_changes(tip, ["a.py"])] == [[("A", "a.py")]]
    assert list(store.first_parent_changes(tip, ["a.py\r"])) == []


def test_trees_at_answers_as_the_opened_repository_and_never_for_a_missing_commit(
    memory: Path,
) -> None:
    """gitmem.repo.gitcli.trees_at (a moved branch followed without libgit2) gives
    Store.subtree's answer at every path (a folder, a file, nothing, a pattern), and None,
    not "no folder", for a commit git cannot read."""
    from gitmem.repo.gitcli import trees_at
    from gitmem.repo.store import Store

    store = Store.open(memory)
    tip = store.resolve("HEAD")
    assert tip is not None
    paths = [".gitmem", ".gitmem/entries", ".gitmem.toml", "nowhere", ".gitmem/*", "a b"]
    expected = [store.subtree(store.tree_of(tip), path) for path in paths]
    assert expected[0] is not None and expected[2] is None
    assert trees_at(memory, tip, paths) == expected
    assert trees_at(memory, "1" * 40, paths) is None
    assert trees_at(memory, tip, ["./.gitmem"]) is None
