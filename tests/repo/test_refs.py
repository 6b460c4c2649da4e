"""git's refs read from their files (gitmem.repo.refs) agree with libgit2 (gitmem.repo.store)
on real repositories made by the git CLI: loose and packed refs, symbolic and detached HEADs,
unborn branches, linked worktrees, remote-tracking refs; and say "unsure" rather than guess."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitmem.repo.refs import GitFiles, Unsure, branch_facts
from gitmem.repo.store import Store

from conftest import git


def _agree(root: Path) -> GitFiles:
    """The files reader at root, checked against libgit2 on every question both answer."""
    files = GitFiles.at(root)
    assert files is not None
    store = Store.open(root)
    assert files.head_branch() == store.head_branch()
    assert files.remote_default_branch() == store.remote_default_branch()
    assert files.remote_names() == store.remote_names()
    assert branch_facts(files) == branch_facts(store)
    for prefix in ("refs/heads/", "refs/remotes/", "refs/tags/", "refs/heads/gitmem/"):
        assert files.under(prefix) == store.refs(prefix), prefix
        listed = git(root, "for-each-ref", "--format=%(refname)", prefix).split()
        assert sorted(files.names(prefix)) == sorted(listed), prefix
    # every branch git lists (the oracle is git, not the reader under test) has the same tip
    for line in git(
        root, "for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/"
    ).splitlines():
        name, oid = line.split()
        branch = name.removeprefix("refs/heads/")
        assert files.branch_tip(branch) == store.branch_tip(branch) == oid, name
    return files


def test_loose_and_packed_refs_read_as_libgit2_reads_them(repo: Path) -> None:
    tip = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "branch", "gitmem/one")
    git(repo, "tag", "-a", "-m", "annotated", "v1")  # a peeled `^` line once packed
    files = _agree(repo)
    assert files.branch_tip("main") == tip and files.names("refs/heads/") == [
        "refs/heads/gitmem/one",
        "refs/heads/main",
    ]
    git(repo, "pack-refs", "--all")
    assert not (repo / ".git" / "refs" / "heads" / "main").exists()
    files = _agree(repo)
    assert files.branch_tip("main") == tip
    # a new commit writes a loose ref beside the stale packed line: the loose one wins
    (repo / "b.txt").write_text("b\n")
    git(repo, "add", "b.txt")
    git(repo, "commit", "-q", "-m", "second")
    new = git(repo, "rev-parse", "HEAD").strip()
    assert new != tip
    assert _agree(repo).branch_tip("main") == new
    # a branch deleted after packing is gone from both
    git(repo, "branch", "-D", "gitmem/one")
    assert _agree(repo).names("refs/heads/gitmem/") == []


def test_detached_and_unborn_heads(repo: Path, tmp_path: Path) -> None:
    git(repo, "checkout", "-q", "--detach")
    files = _agree(repo)
    assert files.head_branch() is None
    git(repo, "checkout", "-q", "--orphan", "fresh")
    files = _agree(repo)
    assert files.head_branch() == "fresh" and files.branch_tip("fresh") is None
    empty = tmp_path / "empty"
    git(tmp_path, "init", "-q", "-b", "trunk", str(empty))
    files = _agree(empty)
    assert files.head_branch() == "trunk" and files.branch_tip("main") is None
    assert branch_facts(files)["main_has_commits"] is False


def test_a_linked_worktree_shares_the_branches_but_has_its_own_head(
    repo: Path, tmp_path: Path
) -> None:
    linked = tmp_path / "linked"
    git(repo, "worktree", "add", "-q", "-b", "side", str(linked))
    files = _agree(linked)
    assert files.git_dir != files.common_dir == (repo / ".git").resolve()
    assert files.head_branch() == "side"
    assert files.branch_tip("main") == git(repo, "rev-parse", "main").strip()
    assert _agree(repo).head_branch() == "main"


def test_remote_tracking_refs_and_origins_default(repo: Path, tmp_path: Path) -> None:
    bare = tmp_path / "origin.git"
    git(tmp_path, "clone", "-q", "--bare", str(repo), str(bare))
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(bare), str(clone))
    files = _agree(clone)
    assert files.remote_default_branch() == "main"
    assert "refs/remotes/origin/main" in files.names("refs/remotes/")
    git(clone, "pack-refs", "--all")
    assert _agree(clone).remote_default_branch() == "main"


def test_the_defaults_remote_is_the_clones_only_one_whatever_its_name(
    repo: Path, tmp_path: Path
) -> None:
    """A clone made with `git clone -o upstream`: the files reader names upstream, as libgit2
    does, and the facts are upstream's default branch; with a fork beside it (several
    remotes, none origin) the branches' upstreams decide, which this reader leaves to
    libgit2; an origin added decides alone again; a config that includes another is
    unsure."""
    bare = tmp_path / "shop.git"
    git(tmp_path, "clone", "-q", "--bare", str(repo), str(bare))
    git(bare, "branch", "-m", "main", "trunk")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "-o", "upstream", str(bare), str(clone))
    files = _agree(clone)
    assert files.remote_names() == ["upstream"]
    assert files.fetch_remote(None) == "upstream"
    assert branch_facts(files)["remote_default_branch"] == "trunk"
    git(clone, "remote", "add", "fork", str(tmp_path / "fork.git"))
    assert Store.open(clone).fetch_remote(None) == "upstream"
    with pytest.raises(Unsure):
        files.fetch_remote(None)
    git(clone, "remote", "add", "origin", str(tmp_path / "other.git"))
    assert _agree(clone).fetch_remote(None) == "origin"
    assert branch_facts(files)["remote_default_branch"] is None
    git(clone, "config", "include.path", "more.config")
    with pytest.raises(Unsure):
        files.remote_names()


def test_what_it_cannot_read_it_says_so(repo: Path, tmp_path: Path) -> None:
    assert GitFiles.at(tmp_path / "nowhere") is None
    odd = tmp_path / "odd"
    odd.mkdir()
    (odd / ".git").write_text("not a gitdir line\n")
    assert GitFiles.at(odd) is None
    files = GitFiles.at(repo)
    assert files is not None
    (repo / ".git" / "refs" / "heads" / "broken").write_text("no object id here\n")
    with pytest.raises(Unsure):
        files.branch_tip("broken")
    for name in ("../config", "/etc/passwd", "refs/heads/main.lock", ""):
        with pytest.raises(Unsure):
            files.raw(name)
    with pytest.raises(Unsure):
        files.names("heads/")
    (repo / ".git" / "refs" / "heads" / "broken").unlink()
    (repo / ".git" / "packed-refs").write_text("garbage line\n")
    with pytest.raises(Unsure):
        GitFiles.at(repo).packed()  # type: ignore[union-attr]


def test_a_symbolic_loop_is_unsure_not_endless(repo: Path) -> None:
    heads = repo / ".git" / "refs" / "heads"
    (heads / "a").write_text("ref: refs/heads/b\n")
    (heads / "b").write_text("ref: refs/heads/a\n")
    files = GitFiles.at(repo)
    assert files is not None
    with pytest.raises(Unsure):
        files.branch_tip("a")


def test_a_remote_the_environment_may_name_makes_the_files_unsure(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A remote given only by GIT_CONFIG_COUNT, `git -c` or a GIT_CONFIG_GLOBAL file is one
    git pushes to and Store sees; read from the repository's config file alone, the facts
    named no remote. Configuration there that names none (the blank global file every test
    runs with, a user's name) leaves the reader sure."""
    files = GitFiles.at(repo)
    assert files is not None and files.remote_names() == []
    chosen = tmp_path / "global.gitconfig"
    chosen.write_text("[user]\n\tname = Someone\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(chosen))
    monkeypatch.setenv("GIT_CONFIG_COUNT", "1")
    monkeypatch.setenv("GIT_CONFIG_KEY_0", "user.email")
    monkeypatch.setenv("GIT_CONFIG_VALUE_0", "someone@example.com")
    monkeypatch.setenv("GIT_CONFIG_PARAMETERS", "'user.name'='Dashed'")
    assert files.remote_names() == Store.open(repo).remote_names() == []
    for variable, value in [
        ("GIT_CONFIG_KEY_0", "Remote.up.URL"),
        ("GIT_CONFIG_PARAMETERS", f"'remote.up.url'='{tmp_path}'"),
        ("GIT_CONFIG_COUNT", "many"),
    ]:
        with monkeypatch.context() as changed:
            changed.setenv(variable, value)
            with pytest.raises(Unsure):
                files.remote_names()
            with pytest.raises(Unsure):
                branch_facts(files)
    chosen.write_text(f'[remote "up"]\n\turl = {tmp_path}\n')
    assert Store.open(repo).remote_names() == ["up"]
    with pytest.raises(Unsure):
        files.remote_names()
