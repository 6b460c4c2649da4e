"""`gitmem init`: the memory folder, .gitmem.toml only for what differs from the defaults, and
nothing overwritten when run twice; and the memory branch it chooses, in real repositories on
any default branch: the remote's default branch, else the branch HEAD names when it has
commits, else main. init says which, and a choice read from HEAD is written down (issue 14,
cases 2 and 3)."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest
from clirunner import HOOKS, PROPOSE, SECRETS, ok, proposed, run

from gitmem.errors import UsageError
from gitmem.lifecycle.bootstrap import init
from gitmem.lifecycle.writing import today
from gitmem.repo.atomic import ABANDONED_AGE
from gitmem.repo.store import Store

from conftest import git, killed_at_rename


def test_defaults_write_no_settings_file_and_a_second_run_keeps_everything(repo: Path) -> None:
    done = init(Store.open(repo))
    assert done.root == repo and ".gitmem.toml" not in done.created
    assert sorted(done.created) == [
        ".gitattributes", ".gitmem/.gitignore", ".gitmem/INDEX.md", ".gitmem/refused.md",
    ]  # fmt: skip
    (repo / ".gitmem/refused.md").write_text("# kept as the person left it\n")
    again = init(Store.open(repo))
    assert again.created == [] and len(again.kept) == 4
    assert (repo / ".gitmem/refused.md").read_text() == "# kept as the person left it\n"
    assert (repo / ".gitattributes").read_text().count("merge=gitmem-index") == 1


def test_settings_that_differ_go_to_gitmem_toml(repo: Path) -> None:
    done = init(Store.open(repo), memory_dir="notes/memory", project="shop", branch="trunk")
    assert ".gitmem.toml" in done.created
    toml = (repo / ".gitmem.toml").read_text()
    assert toml == '[memory]\ndir = "notes/memory"\nproject = "shop"\nbranch = "trunk"\n'
    assert (repo / "notes/memory/INDEX.md").is_file()


def test_the_folder_that_settings_written_before_init_name_is_the_one_made(repo: Path) -> None:
    """.gitmem.toml first (memory.dir = docs/memory), then init: the memory folder is made
    where the settings say, which every other command reads, never at .gitmem."""
    (repo / ".gitmem.toml").write_text('[memory]\ndir = "docs/memory"\n')
    done = init(Store.open(repo))
    assert (repo / "docs/memory/INDEX.md").is_file() and not (repo / ".gitmem").exists()
    assert "docs/memory/INDEX.md merge=gitmem-index" in (repo / ".gitattributes").read_text()
    assert ".gitmem.toml" not in done.created


def test_bad_values_are_refused_before_anything_is_written(repo: Path) -> None:
    for kwargs in ({"project": "Not A Slug"}, {"memory_dir": ".git/memory"}, {"branch": "a..b"}):
        with pytest.raises(UsageError):
            init(Store.open(repo), **kwargs)  # type: ignore[arg-type]
    assert not (repo / ".gitmem").exists() and not (repo / ".gitmem.toml").exists()


ID = "{project}-decision-{date}-use-pygit2-inside-hooks"


def entry_id(project: str = "local") -> str:
    return ID.format(project=project, date=today().replace("-", ""))


def on_master(tmp_path: Path) -> Path:
    """A repository on master with one commit and no remote (git's old default branch)."""
    path = tmp_path / "work"
    git(tmp_path, "init", "-q", "-b", "master", str(path))
    (path / "README.md").write_text("# project\n")
    git(path, "add", "README.md")
    git(path, "commit", "-q", "-m", "initial")
    return path


def test_a_repository_on_master_keeps_its_memory_on_master(tmp_path: Path) -> None:
    repo = on_master(tmp_path)
    out = ok(run(repo, "init")).output
    assert (
        "memory branch: master (the branch HEAD names; there is no remote; written to .gitmem.toml)"
    ) in out
    assert (repo / ".gitmem.toml").read_text() == '[memory]\nbranch = "master"\n'
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "gitmem init")
    tip = git(repo, "rev-parse", "master").strip()

    git(repo, "checkout", "-q", "-b", "feature")  # the choice does not follow HEAD
    ok(run(repo, *PROPOSE))
    parents = git(repo, "rev-list", "--parents", "-n", "1", f"gitmem/{entry_id()}").split()
    assert parents[1:] == [tip], "the candidate is not based on master's tip"
    ok(run(repo, "admit", entry_id()))
    merge = git(repo, "rev-list", "--parents", "-n", "1", "master").split()
    assert merge[1] == tip and len(merge) == 3
    assert git(repo, "rev-list", "--max-parents=0", "master").split() == [
        git(repo, "rev-list", "--max-parents=0", tip).strip()
    ], "main has a second root commit"
    assert git(repo, "branch", "--list", "main") == ""


def test_the_reason_names_the_remote_there_is_or_says_there_is_none(tmp_path: Path) -> None:
    """Without any remote, init said "origin names no default branch", naming a remote the
    repository does not have; with one that names no default (an empty server, added by
    `git remote add`), it is that remote that is named."""
    (tmp_path / "alone").mkdir()
    (tmp_path / "added").mkdir()
    alone = on_master(tmp_path / "alone")
    out = ok(run(alone, "init")).output
    assert "memory branch: master (the branch HEAD names; there is no remote; " in out
    assert "origin" not in out
    git(tmp_path, "init", "-q", "--bare", str(tmp_path / "server.git"))
    added = on_master(tmp_path / "added")
    git(added, "remote", "add", "upstream", str(tmp_path / "server.git"))
    out = ok(run(added, "init")).output
    assert "memory branch: master (the branch HEAD names; upstream names no default branch; " in out


def test_a_remotes_default_branch_decides_and_nothing_is_written(tmp_path: Path) -> None:
    server = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "trunk", str(server))
    seed = on_master(tmp_path)
    git(seed, "push", "-q", str(server), "master:trunk")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(server), str(clone))
    out = ok(run(clone, "init")).output
    assert "memory branch: trunk (origin's default branch)" in out
    assert not (clone / ".gitmem.toml").exists()


def test_an_unborn_head_falls_back_to_main_and_says_how_to_keep_it(tmp_path: Path) -> None:
    repo = tmp_path / "new"
    git(tmp_path, "init", "-q", "-b", "master", str(repo))
    out = ok(run(repo, "init")).output
    fallback = "the default; there is no remote, HEAD's none with commits"
    assert f"memory branch: main ({fallback})\n" in out
    assert "note: HEAD's branch master has no commits yet: to keep the memory on master, " in out
    assert "run gitmem init --branch master" in out
    assert not (repo / ".gitmem.toml").exists()


def test_a_feature_branch_of_a_repository_on_main_never_becomes_the_memory_branch(
    repo: Path,
) -> None:
    git(repo, "checkout", "-q", "-b", "feature")
    out = ok(run(repo, "init")).output
    assert "memory branch: main (the default; there is no remote)" in out
    assert not (repo / ".gitmem.toml").exists()


def test_an_explicit_branch_is_written_when_the_default_differs(tmp_path: Path) -> None:
    repo = on_master(tmp_path)
    out = ok(run(repo, "init", "--branch", "main")).output
    assert "memory branch: main (--branch; written to .gitmem.toml)" in out
    assert (repo / ".gitmem.toml").read_text() == '[memory]\nbranch = "main"\n'


def test_propose_on_a_memory_branch_without_commits_refuses_and_writes_nothing(
    tmp_path: Path,
) -> None:
    """The candidate used to be a root commit, and admit then failed (case 3)."""
    repo = on_master(tmp_path)
    (repo / ".gitmem.toml").write_text('[memory]\nbranch = "main"\n')
    result = run(repo, *PROPOSE)
    assert result.exit_code == 2
    assert "branch main has no commits (memory.branch: .gitmem.toml): commit on main first" in (
        result.output
    )
    assert "or keep the memory on master: gitmem init --branch master" in result.output
    assert git(repo, "for-each-ref", "refs/heads/gitmem/") == ""


def test_a_clone_of_an_empty_remote_is_told_to_push_main_before_the_candidate(
    tmp_path: Path,
) -> None:
    """The Quick start on a fresh remote: the candidate stays here, the "proposed" line is
    printed, and the message says to push the memory branch first (case 2)."""
    server = tmp_path / "shop.git"
    git(tmp_path, "init", "-q", "--bare", str(server))
    clone = tmp_path / "shop"
    git(tmp_path, "clone", "-q", str(server), str(clone))
    git(clone, "checkout", "-q", "-b", "main")
    (clone / "README.md").write_text("# shop\n")
    ok(run(clone, "init", "--hooks"))
    git(clone, "add", "-A")
    git(clone, "commit", "-q", "-m", "Start the project's memory")

    result = run(clone, *PROPOSE, "--push")
    assert result.exit_code == 1
    new = entry_id("shop")
    assert f"proposed {new}\nbranch   gitmem/{new}\n" in result.output
    assert (
        "gitmem: not pushed: origin has no main yet, and a candidate branch carries only its "
        "own file on top of it: push main first (git push -u origin main), then the "
        f"candidate: git push origin gitmem/{new}"
    ) in result.output
    assert git(server, "for-each-ref") == ""

    # pushed by hand, the pre-push hook says the same
    pushed = run_git(clone, "push", "origin", f"gitmem/{new}")
    assert pushed.returncode == 1
    assert "push main first (git push -u origin main), then the candidate branch" in pushed.stderr

    git(clone, "push", "-q", "-u", "origin", "main")
    assert run_git(clone, "push", "-q", "origin", f"gitmem/{new}").returncode == 0
    ok(run(clone, "admit", new, "--push"))
    assert git(server, "rev-parse", "main") == git(clone, "rev-parse", "main")


def run_git(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)


def test_init_refuses_a_clone_s_links_to_the_user_s_files_before_writing(
    repo: Path, tmp_path: Path
) -> None:
    """A clone can commit .gitattributes as a link to a file of the user's (init read it and
    wrote its text, with gitmem's line, into the working tree), or the memory folder as a link
    out of the repository (init wrote its files there). Both are refused, nothing written."""
    secret = tmp_path / "id_key"
    secret.write_text("-----BEGIN KEY-----\n")
    (repo / ".gitattributes").symlink_to(secret)
    result = run(repo, "init")
    assert result.exit_code == 2, result.output
    assert ".gitattributes: is a symbolic link" in result.output
    assert not (repo / ".gitmem").exists() and (repo / ".gitattributes").is_symlink()
    (repo / ".gitattributes").unlink()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (repo / ".gitmem").symlink_to(elsewhere)
    result = run(repo, "init")
    assert result.exit_code == 2, result.output
    assert "its folder leads outside the repository" in result.output
    assert list(elsewhere.iterdir()) == []


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--dir", ""], "memory.dir '' is empty"),
        (["--project", ""], "--project '': lowercase ASCII words"),
        (["--branch", ""], "--branch '' is not a valid git branch name (it is empty)"),
        (["--branch", "a..b"], "--branch 'a..b' is not a valid git branch name (it contains '..')"),
        (["--branch", "gitmem/x"], "--branch 'gitmem/x' is where candidates live (gitmem/<id>)"),
        (["--dir", "mem\udcff"], "Invalid value for '--dir': not valid UTF-8 (byte 0xff"),
        (["--branch", "trunk\udcff"], "Invalid value for '--branch': not valid UTF-8"),
    ],
)
def test_an_empty_or_undecodable_option_is_refused_naming_it(
    repo: Path, args: list[str], says: str
) -> None:
    """`--dir ""` (an unset shell variable) was taken for no --dir and the default written; a
    byte that is not UTF-8 in --dir or --branch ended as an unexpected error (exit 3) writing
    .gitmem.toml; a bad --branch was refused as "it contains '..'", naming no option."""
    result = run(repo, "init", *args)
    assert result.exit_code == 2, result.output
    assert says in result.output and "Traceback" not in result.output
    assert not (repo / ".gitmem").exists() and not (repo / ".gitmem.toml").exists()


@pytest.mark.parametrize(
    ("make", "says"),
    [
        ("file .gitmem", ".gitmem: is a file, where gitmem init makes the memory folder"),
        ("folder .gitattributes", ".gitattributes: is a folder"),
        ("folder .gitmem/refused.md", ".gitmem/refused.md: is a folder"),
        ("folder .gitmem.toml", ".gitmem.toml: is a folder"),
    ],
)
def test_a_file_or_folder_in_the_way_is_refused_before_anything_is_written(
    repo: Path, make: str, says: str
) -> None:
    """A file named .gitmem and a folder named .gitattributes failed as unexpected errors
    (exit 3), the second after the memory folder was made; a folder at refused.md was kept
    as if it were the file."""
    kind, rel = make.split(" ")
    if kind == "file":
        (repo / rel).write_text("")
    else:
        (repo / rel).mkdir(parents=True)
    before = _work_files(repo)
    result = run(repo, "init", "--project", "shop")
    assert result.exit_code == 2, result.output
    assert says in result.output and "Traceback" not in result.output
    assert _work_files(repo) == before


def _work_files(repo: Path) -> list[str]:
    """Every path of the working tree, outside .git."""
    return sorted(
        p.relative_to(repo).as_posix()
        for p in repo.rglob("*")
        if ".git" not in p.relative_to(repo).parts
    )


@pytest.mark.parametrize("where", ["info/exclude", "core.excludesFile"])
def test_init_refuses_a_memory_folder_git_ignores(repo: Path, tmp_path: Path, where: str) -> None:
    """A rule of .git/info/exclude or of the user's excludes file ignoring the memory folder
    (or `*.md`): init wrote its files, `git add` then refused them, the memory folder was
    never committed, and a later admit said INDEX.md had uncommitted changes. init now
    refuses before writing anything, naming the file, the rule and what to do; once an
    exception is made, the files it writes are committed; and a memory folder git tracks
    passes whatever the rules say."""
    if where == "info/exclude":
        rule, source = ".gitmem/\n", repo / ".git/info/exclude"
        source.write_text(rule)
        named = ".git/info/exclude:1: .gitmem/"
    else:
        rule, source = "*.md\n", tmp_path / "global-ignore"
        source.write_text(rule)
        git(repo, "config", "core.excludesFile", str(source))
        named = f"{source}:1: *.md"
    result = run(repo, "init")
    assert result.exit_code == 2, result.output
    assert f".gitmem/refused.md: git ignores it ({named})" in result.output
    assert "`!/.gitmem/` and `!/.gitmem/**`" in result.output
    assert not (repo / ".gitmem").exists() and not (repo / ".gitattributes").exists()

    (repo / ".gitignore").write_text("!/.gitmem/\n!/.gitmem/**\n")
    ok(run(repo, "init"))
    git(repo, "add", ".gitignore", ".gitattributes", ".gitmem")
    git(repo, "commit", "-q", "-m", "gitmem init")
    assert ".gitmem/INDEX.md" in git(repo, "ls-files").split()

    (repo / ".gitignore").unlink()  # the rule back: what git tracks is not ignored
    git(repo, "commit", "-q", "-am", "no exception")
    ok(run(repo, "init"))


def test_a_single_branch_clone_of_another_branch_never_takes_it_for_the_memory(
    memory: Path, tmp_path: Path
) -> None:
    """`git clone --single-branch --branch dev` (or `--depth 1 --branch dev`) keeps no
    origin/HEAD and no main: the memory branch fell to HEAD's branch, dev, so list and recall
    read the memory there, and propose, admit and refuse wrote on dev, which the server
    judges as no memory branch. Each command now refuses, saying how to fetch origin's
    default; a single-branch clone of the default branch works as any clone."""
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", entry_id()))
    server = tmp_path / "server.git"
    git(tmp_path, "clone", "-q", "--bare", str(memory), str(server))
    git(server, "branch", "dev", "main")
    for args in (["--single-branch"], ["--depth", "1"]):
        clone = tmp_path / f"dev{len(args)}"
        git(tmp_path, "clone", "-q", *args, "--branch", "dev", f"file://{server}", str(clone))
        dev = git(clone, "rev-parse", "dev")
        for command in (["list"], ["recall", "hooks"], ["candidates"], [*PROPOSE]):
            result = run(clone, *command)
            assert result.exit_code == 2, (command, result.output)
            assert "which this clone does not know: it fetches dev alone" in result.output
        assert git(clone, "rev-parse", "dev") == dev
        assert git(clone, "branch", "--list", "gitmem/*") == ""
    git(clone, "remote", "set-branches", "origin", "*")  # the advice, followed
    git(clone, "fetch", "-q", "origin")
    git(clone, "remote", "set-head", "origin", "--auto")
    assert "create it from origin/main: git branch main origin/main" in run(clone, "list").output
    git(clone, "branch", "-q", "main", "origin/main")
    assert entry_id() in ok(run(clone, "list")).output

    default = tmp_path / "default"  # origin's default, alone: origin/HEAD names it
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{server}", str(default))
    assert entry_id() in ok(run(default, "list")).output


@pytest.mark.parametrize("remote", ["origin", "upstream"])
def test_a_clone_reads_the_defaults_from_its_only_remote_whatever_its_name(
    memory: Path, tmp_path: Path, remote: str
) -> None:
    """`git clone -o upstream` names the one remote upstream: the defaults of memory.branch
    and memory.project were read from origin alone, so such a clone on a feature branch took
    the feature branch for the memory branch, and its ids the prefix `local`, where a clone
    with an origin reads the memory on the remote's default branch and takes the project's
    name. Both kinds of clone now read the same defaults, and say which remote they read."""
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", entry_id()))
    server = tmp_path / "shop.git"
    git(tmp_path, "clone", "-q", "--bare", str(memory), str(server))
    git(server, "branch", "-m", "main", "trunk")  # the project's default branch: trunk
    clone = tmp_path / remote
    git(tmp_path, "clone", "-q", "-o", remote, str(server), str(clone))
    git(clone, "checkout", "-q", "-b", "feature")

    assert f"memory branch: trunk ({remote}'s default branch)\n" in ok(run(clone, "init")).output
    assert entry_id() in ok(run(clone, "list")).output
    made = proposed(ok(run(clone, *HOOKS)).output)
    assert made.startswith("shop-decision-"), made
    assert git(clone, "rev-parse", f"gitmem/{made}~1") == git(clone, "rev-parse", "trunk")
    # a fork where one's own branches are pushed changes neither: with two remotes, none
    # origin, the one the branches are fetched from is read
    git(clone, "remote", "add", "fork", str(tmp_path / "fork.git"))
    git(clone, "config", "remote.pushDefault", "fork")
    assert f"memory branch: trunk ({remote}'s default branch)\n" in ok(run(clone, "init")).output
    assert proposed(ok(run(clone, *SECRETS)).output).startswith("shop-method-")


def test_a_clone_assembled_by_fetch_on_a_feature_branch_keeps_the_memory_on_main(
    memory: Path, tmp_path: Path
) -> None:
    """`git init`, `git remote add origin URL`, `git fetch`, then a feature branch checked out
    from origin's: no origin/HEAD and no local main, so the memory branch fell to the feature
    branch; list read the memory there and propose based candidates on it. origin/main now
    counts as main: each command names the memory branch and how to create it."""
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", entry_id()))
    server = tmp_path / "server.git"
    git(tmp_path, "clone", "-q", "--bare", str(memory), str(server))
    git(server, "branch", "feature", "main")
    work = tmp_path / "work2"
    git(tmp_path, "init", "-q", "-b", "scratch", str(work))
    git(work, "remote", "add", "origin", str(server))
    git(work, "fetch", "-q", "origin")
    git(work, "checkout", "-q", "-b", "feature", "origin/feature")
    for command in (["list"], [*PROPOSE]):
        result = run(work, *command)
        assert result.exit_code == 2, (command, result.output)
        assert "create it from origin/main: git branch main origin/main" in result.output
    assert git(work, "branch", "--list", "gitmem/*") == ""
    git(work, "branch", "-q", "main", "origin/main")
    assert entry_id() in ok(run(work, "list")).output


@pytest.mark.parametrize("folder", ["mémoire dir", "#notes", "!notes", 'say "hi"', "mem*", "a[b]c"])
def test_the_index_merge_attribute_names_a_folder_of_any_name(repo: Path, folder: str) -> None:
    """`gitmem init --dir "mémoire dir"` wrote `mémoire dir/INDEX.md merge=gitmem-index`:
    git split the line at the space, warned "dir/INDEX.md is not a valid attribute name" on
    every command, and INDEX.md had no merge driver. The pattern is quoted and its
    wildcards escaped now: it names that INDEX.md, and no other."""
    result = run(repo, "init", "--dir", folder)
    if result.exit_code == 2:  # a name the settings refuse is not this test's business
        pytest.skip(result.output)
    ok(result)
    done = subprocess.run(
        ["git", "check-attr", "merge", "--", f"{folder}/INDEX.md", "memx/INDEX.md"],
        cwd=repo, capture_output=True, text=True,
    )  # fmt: skip
    assert done.stderr == "", done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].endswith(": merge: gitmem-index"), done.stdout
    assert lines[1].endswith(": merge: unspecified"), done.stdout


@pytest.mark.parametrize(
    ("name", "command"),
    [
        ("INDEX.md", ["init"]),
        (".gitattributes", ["init"]),
        (".gitmem.toml", ["init", "--project", "shop"]),
        ("AGENTS.md", ["init", "--agents"]),
        (".mcp.json", ["init", "--claude"]),
        ("pre-commit", ["hooks", "install"]),
    ],
)
def test_a_setup_killed_in_the_middle_of_a_write_leaves_no_temporary_for_long(
    repo: Path, name: str, command: list[str]
) -> None:
    """init (and the hooks, the agents' files it installs) killed with a file's temporary
    written and not renamed left `.NAME.<hex>.tmp` untracked beside it for good: the next
    run kept the file and never looked at the temporary, which `git add -A` then commits.
    A later run deletes it once it is older than any write takes; one just written may be
    a live writer's (no lock is held), and stays."""
    killed_at_rename(repo, name, *command)
    [temporary] = [p for p in repo.rglob(f".{name}.*.tmp")]
    ok(run(repo, *command))
    assert temporary.exists()  # a live init could be about to rename it
    old = time.time() - 2 * ABANDONED_AGE
    os.utime(temporary, (old, old))
    ok(run(repo, *command))
    assert not list(repo.rglob("*.tmp"))
    assert ".tmp" not in git(repo, "status", "--porcelain", "--untracked-files=all")


def test_an_init_killed_half_way_is_named_whole_in_the_next_runs_commit_line(
    repo: Path,
) -> None:
    """init killed after writing refused.md and INDEX.md, before .gitignore: the next run kept
    those two (they are there) and its closing `commit them: git add …` line named only what
    it created itself, so the memory folder was committed without them. Every file of init's
    that HEAD does not hold is named; once committed, none is."""
    killed_at_rename(repo, ".gitignore", "init")
    again = ok(run(repo, "init")).output
    assert "kept .gitmem/INDEX.md (already there)" in again
    [line] = [x for x in again.splitlines() if x.startswith("commit them: git add ")]
    named = line.removeprefix("commit them: git add ").removesuffix(" && git commit").split()
    assert sorted(named) == [
        ".gitattributes", ".gitmem/.gitignore", ".gitmem/INDEX.md", ".gitmem/refused.md",
    ]  # fmt: skip
    git(repo, "add", *named)
    git(repo, "commit", "-q", "-m", "gitmem init")
    assert "commit them" not in ok(run(repo, "init")).output
    # all that is left is the temporary the kill left, no file to commit (it goes once old)
    left = git(repo, "status", "--porcelain", "--untracked-files=all").splitlines()
    assert [line.endswith(".tmp") for line in left] == [True]


def test_the_commit_line_runs_as_printed_for_a_folder_named_with_a_space(repo: Path) -> None:
    """`commit them: git add …` named `mém oire/INDEX.md` unquoted: pasted into a shell, git
    was asked for `mém` and `oire/INDEX.md`, and the memory was never committed."""
    output = ok(run(repo, "init", "--dir", "mém oire")).output
    [line] = [x for x in output.splitlines() if x.startswith("commit them: ")]
    done = subprocess.run(
        # the person writes the commit's message; the test gives it on the line
        [
            "bash",
            "--noprofile",
            "--norc",
            "-e",
            "-c",
            line.removeprefix("commit them: ") + " -qm m",
        ],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""
    assert "mém oire/INDEX.md" in git(repo, "-c", "core.quotePath=false", "ls-files")


@pytest.mark.parametrize("where", ["on the memory branch", "in the working tree"])
@pytest.mark.parametrize("folder", ["mem2", ".GITMEM"])
def test_init_starts_no_second_memory_beside_one_holding_entries(
    memory: Path, where: str, folder: str
) -> None:
    """`gitmem init --dir mem2` in a project whose .gitmem/ held admitted entries created an
    empty mem2/ and named it in .gitmem.toml: every command read that one alone, and the
    entries were gone from list, recall and check without a word."""
    from clirunner import first_id

    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    if where == "in the working tree":  # admitted here, the branch reset behind it
        git(memory, "reset", "-q", "--soft", "HEAD~1")
    result = run(memory, "init", "--dir", folder)
    assert result.exit_code == 2, result.output
    assert f".gitmem/ holds this project's memory already: --dir {folder}" in result.output
    assert not (memory / folder).exists() and not (memory / ".gitmem.toml").exists()
    ok(run(memory, "init"))  # the memory it has: as before


def test_init_moves_to_another_folder_while_the_memory_holds_no_entry(memory: Path) -> None:
    ok(run(memory, "init", "--dir", "mem2"))
    assert (memory / "mem2/INDEX.md").is_file() and 'dir = "mem2"' in (
        memory / ".gitmem.toml"
    ).read_text()
