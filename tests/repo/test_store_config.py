"""Store's config readers read the configuration the user's git reads, including what the
environment tells git to read instead of its files (GIT_CONFIG_GLOBAL, GIT_CONFIG_COUNT,
`git -c`), which libgit2 does not see."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from clirunner import PROPOSE, first_id

from gitmem.errors import UsageError
from gitmem.repo.gitcli import CONFIG_ENV
from gitmem.repo.store import Store

from conftest import git, run_gitmem

IDENTITY_ENV = ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL")


@pytest.fixture
def by_config(memory: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """memory, with no identity from the environment, and a home whose ~/.gitconfig names
    Home Name: what libgit2 reads when the variables git is given are not read."""
    for key in IDENTITY_ENV:
        monkeypatch.delenv(key, raising=False)
    home = tmp_path / "home"
    home.mkdir()
    (home / ".gitconfig").write_text("[user]\n\tname = Home Name\n\temail = home@example.com\n")
    monkeypatch.setenv("HOME", str(home))
    return memory


def _candidate(repo: Path, entry_id: str) -> str:
    return git(repo, "show", f"gitmem/{entry_id}:.gitmem/candidates/{entry_id}.md")


def test_a_proposal_is_written_by_the_user_git_config_global_names(
    by_config: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With GIT_CONFIG_GLOBAL naming a file (as CI jobs and test harnesses isolate git),
    gitmem read ~/.gitconfig's user.name through libgit2 while git committed under the
    file's: the proposal's source and its commit's author named someone else."""
    memory = by_config
    chosen = tmp_path / "global.gitconfig"
    chosen.write_text("[user]\n\tname = Alice Global\n\temail = alice@example.com\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(chosen))
    assert git(memory, "config", "user.name").strip() == "Alice Global"
    done = run_gitmem(memory, *PROPOSE)
    assert done.returncode == 0, done.stderr
    assert "source: human:Alice Global\n" in _candidate(memory, first_id())
    shown = git(memory, "log", "-1", "--format=%an <%ae>|%cn", f"gitmem/{first_id()}")
    assert shown.strip() == "Alice Global <alice@example.com>|Alice Global"


def test_an_admission_is_made_by_the_user_git_config_count_names(
    by_config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GIT_CONFIG_COUNT with GIT_CONFIG_KEY_<n> and GIT_CONFIG_VALUE_<n> outweigh every file;
    admitted_by and the merge's author follow them, as the commit git would make does."""
    memory = by_config
    monkeypatch.setenv("GIT_CONFIG_COUNT", "2")
    monkeypatch.setenv("GIT_CONFIG_KEY_0", "user.name")
    monkeypatch.setenv("GIT_CONFIG_VALUE_0", "Proposer")
    monkeypatch.setenv("GIT_CONFIG_KEY_1", "user.email")
    monkeypatch.setenv("GIT_CONFIG_VALUE_1", "proposer@example.com")
    done = run_gitmem(memory, *PROPOSE)
    assert done.returncode == 0, done.stderr
    assert "source: human:Proposer\n" in _candidate(memory, first_id())
    monkeypatch.setenv("GIT_CONFIG_VALUE_0", "Envy")
    assert git(memory, "config", "user.name").strip() == "Envy"
    done = run_gitmem(memory, "admit", first_id())
    assert done.returncode == 0, done.stderr
    admitted = (memory / f".gitmem/entries/decision/{first_id()}.md").read_text()
    assert "admitted_by: human:Envy\n" in admitted
    assert git(memory, "log", "-1", "--format=%an", "main").strip() == "Envy"


def test_git_dash_c_reaches_gitmem_run_by_git(by_config: Path) -> None:
    """`git -c key=value` hands its settings to what it runs in GIT_CONFIG_PARAMETERS (a
    hook, a shell alias): gitmem run so proposes under the name given."""
    memory = by_config
    alias = f"alias.memory=!{sys.executable} -m gitmem"
    done = git(memory, "-c", "user.name=Dashed", "-c", alias, "memory", *PROPOSE)
    assert f"proposed {first_id()}" in done
    assert "source: human:Dashed\n" in _candidate(memory, first_id())
    shown = git(memory, "log", "-1", "--format=%an", f"gitmem/{first_id()}")
    assert shown.strip() == "Dashed"


def test_settings_read_through_git_answer_as_git_does(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last value wins, keys match in git's letter case (section and name in any case,
    the subsection exactly), a section gives every value, booleans read as git reads them."""
    monkeypatch.setenv("GIT_CONFIG_COUNT", "1")
    monkeypatch.setenv("GIT_CONFIG_KEY_0", "Branch.main.Remote")
    monkeypatch.setenv("GIT_CONFIG_VALUE_0", "upstream")
    (repo / ".git" / "config").write_text(
        (repo / ".git" / "config").read_text()
        + '[branch "main"]\n\tremote = origin\n[branch "Main"]\n\tremote = other\n'
        + "[gitmem]\n\tbare\n\tno = off\n\tnumber = 2\n\tempty =\n\tword = maybe\n"
    )
    store = Store.open(repo)
    assert store.config("branch.main.remote") == "upstream"
    assert store.config("BRANCH.Main.REMOTE") == "other"
    assert store.config("branch.MAIN.remote") is None
    assert store.config_section("branch")["branch.main.remote"][-1] == "upstream"
    assert store.config_section("gitmem")["gitmem.no"] == ["off"]
    booleans = [store.config_bool(f"gitmem.{k}") for k in ("bare", "no", "number", "empty")]
    assert booleans == [True, False, True, False]
    assert store.config_bool("gitmem.word") is None and store.config_bool("gitmem.unset") is None


def test_a_setting_git_refuses_is_named_not_a_traceback(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GIT_CONFIG_COUNT", "one")
    with pytest.raises(UsageError, match="GIT_CONFIG_COUNT"):
        Store.open(repo).config("user.name")


def test_without_those_variables_libgit2_answers_and_no_git_runs(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The common case, and every commit's hook: no process for a setting. A git on PATH
    that logs each run shows whether one was started."""
    real = git(repo, "--exec-path").strip()
    shim, log = tmp_path / "logging-git", tmp_path / "git-runs"
    shim.mkdir()
    (shim / "git").write_text(f'#!/bin/sh\necho "$@" >> "{log}"\nexec "{real}/git" "$@"\n')
    (shim / "git").chmod(0o755)
    git(repo, "config", "user.name", "Local Name")
    monkeypatch.setenv("PATH", f"{shim}{os.pathsep}{os.environ['PATH']}")
    for key in CONFIG_ENV:
        monkeypatch.delenv(key, raising=False)
    store = Store.open(repo)
    assert store.config("user.name") == "Local Name"
    assert not log.exists()

    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    store = Store.open(repo)
    assert store.config("user.name") == "Local Name" and store.config_bool("core.bare") is False
    assert log.read_text().count("config --list") == 1  # once a store, however many questions


def test_a_name_alone_reads_the_same_through_libgit2_and_through_git(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A key written with no `=` (`[gitmem] bare`): libgit2 gives no value, and str() of it
    read "None" where git reads an empty value; both paths answer as git does."""
    with (repo / ".git" / "config").open("a") as config:
        config.write("[gitmem]\n\tbare\n")
    monkeypatch.setenv("GIT_CONFIG_COUNT", "0")
    through_git = Store.open(repo)
    assert through_git.config("gitmem.bare") == "" and through_git.config_bool("gitmem.bare")
    for name in CONFIG_ENV:
        monkeypatch.delenv(name, raising=False)
    through_libgit2 = Store.open(repo)
    assert through_libgit2.config("gitmem.bare") == ""
    assert through_libgit2.config_bool("gitmem.bare")


def _remote_in_env(monkeypatch: pytest.MonkeyPatch, name: str, url: str) -> None:
    """remote.<name>.url given by GIT_CONFIG_COUNT alone, as a CI job may give it."""
    monkeypatch.setenv("GIT_CONFIG_COUNT", "1")
    monkeypatch.setenv("GIT_CONFIG_KEY_0", f"remote.{name}.url")
    monkeypatch.setenv("GIT_CONFIG_VALUE_0", url)


def test_a_remote_the_environment_alone_names_is_read_as_git_reads_it(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """libgit2 does not see a remote given by GIT_CONFIG_COUNT or a GIT_CONFIG_GLOBAL file,
    which git fetches from and pushes to: Store named no remote, and every choice of remote
    (fetch_remote, push_remote) fell back to an origin that does not exist. Its URL is the
    one `git ls-remote --get-url` prints, url.<base>.insteadOf applied (`git remote get-url`
    knows only the remotes of the repository's own config)."""
    from gitmem.lifecycle.writing import push_remote

    bare = tmp_path / "up.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    _remote_in_env(monkeypatch, "up", str(bare))
    assert git(repo, "remote").split() == ["up"]
    store = Store.open(repo)
    assert store.remote_names() == ["up"]
    assert store.remote_url("up") == git(repo, "ls-remote", "--get-url", "up").strip() == str(bare)
    assert store.fetch_remote(None) == store.fetch_remote("main") == "up"
    assert push_remote(store) == push_remote(store, "up") == "up"
    assert store.remote_url("origin") is None and not store.fetches_one_branch("up")

    chosen = tmp_path / "global.gitconfig"
    chosen.write_text(
        '[remote "Fork"]\n\turl = gh:someone/shop\n\tfetch = +refs/heads/main:refs/remotes/'
        'Fork/main\n[url "https://github.example/"]\n\tinsteadOf = gh:\n'
        '[url "https://other.example/"]\n\tinsteadOf = g\n'
    )
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(chosen))
    assert sorted(git(repo, "remote").split()) == ["Fork", "up"]
    store = Store.open(repo)
    assert store.remote_names() == ["Fork", "up"]
    rewritten = git(repo, "ls-remote", "--get-url", "Fork").strip()
    assert store.remote_url("Fork") == rewritten == "https://github.example/someone/shop"
    assert store.remote_url("fork") is None  # a remote's name is matched exactly, as git does
    assert store.fetches_one_branch("Fork") and not store.fetches_one_branch("up")


def test_propose_push_reaches_a_remote_the_environment_alone_names(
    memory: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`gitmem propose --push --remote up`, up given only by GIT_CONFIG_* variables (which
    `git push up` honours), said there was no remote named 'up'."""
    bare = tmp_path / "up.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    _remote_in_env(monkeypatch, "up", str(bare))
    git(memory, "push", "-q", "up", "main")
    done = run_gitmem(memory, *PROPOSE, "--push", "--remote", "up")
    assert done.returncode == 0, done.stderr
    pushed = git(bare, "for-each-ref", "--format=%(refname)", "refs/heads/gitmem/").split()
    local = git(memory, "for-each-ref", "--format=%(refname)", "refs/heads/gitmem/").split()
    assert pushed == local and len(local) == 1
