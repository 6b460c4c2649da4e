"""What each hook does, called as the scripts call it: the gates fail the git command when a
rule fails; the post-* hooks never do."""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import pytest

from gitmem.hooks import dispatch

from conftest import git


def _in(repo: Path, name: str, stdin: str = "") -> tuple[int, str]:
    old = Path.cwd()
    os.chdir(repo)
    try:
        return dispatch.run(name, [], io.StringIO(stdin))
    finally:
        os.chdir(old)


def test_pre_commit_judges_what_is_staged(memory: Path) -> None:
    assert _in(memory, "pre-commit") == (0, "")
    (memory / ".gitmem/candidates").mkdir()
    (memory / ".gitmem/candidates/broken.md").write_text("no front matter\n")
    git(memory, "add", "-A")
    code, out = _in(memory, "pre-commit")
    assert code == 1 and "FRONT-MATTER" in out


@pytest.mark.parametrize(
    "settings",
    ['[memory]\ndir = "mem"\nbogus = [\n', '[memory]\ndir = "../elsewhere"\n'],
    ids=["not TOML", "a dir it cannot take"],
)
def test_a_commit_that_leaves_the_settings_set_aside_is_refused(repo: Path, settings: str) -> None:
    """The settings then fall back to the defaults: the memory folder they named (mem/) was
    judged as no memory, so a commit that broke them could bring a secret into it, and the
    hook said nothing, not even the warning."""
    from clirunner import ok, run, write
    from secret_samples import github_token

    ok(run(repo, "init", "--dir", "mem"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "memory in mem/")
    (repo / ".gitmem.toml").write_text(settings)
    write(repo, "mem/candidates/x.md", f"token {github_token(40)}\n")
    git(repo, "add", "-A")
    code, out = _in(repo, "pre-commit")
    assert code == 1, out
    assert "gitmem: warning: .gitmem.toml" in out
    assert "fix them in this commit" in out
    line = (
        ".gitmem.toml:3: SETTINGS invalid TOML" if "bogus" in settings else ".gitmem.toml: SETTINGS"
    )
    assert line in out, out


@pytest.mark.parametrize("kind", ["symlink", "huge", "folder"])
def test_a_settings_file_set_aside_whole_without_a_line_is_refused(repo: Path, kind: str) -> None:
    """A .gitmem.toml staged as a symbolic link, or beyond the 1 MiB read, is set aside as a
    whole, with a warning that names the file as its subject (`.gitmem.toml is a symbolic
    link: ...`), not as `<file>: ...`. The rule parsed the warning's text back to find the
    file, missed that shape, and let the commit through: the settings fell back to the
    defaults and a secret went into mem/, judged as no memory."""
    from clirunner import ok, run, write
    from secret_samples import github_token

    ok(run(repo, "init", "--dir", "mem"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "memory in mem/")
    settings = repo / ".gitmem.toml"
    if kind == "symlink":
        (repo / "shared.toml").write_text(settings.read_text())
        settings.unlink()
        settings.symlink_to("shared.toml")
    elif kind == "folder":  # staged as `.gitmem.toml/x`, never as `.gitmem.toml`
        settings.unlink()
        write(repo, ".gitmem.toml/x", "[memory]\n")
    else:
        settings.write_text(("#" * 99 + "\n") * 11_000 + settings.read_text())
    write(repo, "mem/candidates/x.md", f"token {github_token(40)}\n")
    git(repo, "add", "-A")
    code, out = _in(repo, "pre-commit")
    assert code == 1, out
    said = {"symlink": "is a symbolic link", "folder": "is a folder"}.get(
        kind, "is larger than 1 MiB"
    )
    assert f"gitmem: warning: .gitmem.toml {said}" in out, out
    assert f".gitmem.toml: SETTINGS {said}" in out, out
    assert "fix them in this commit" in out, out


@pytest.mark.parametrize("kind", ["not UTF-8", "folder", "symlink", "huge", "gitlink"])
def test_a_pyproject_set_aside_whole_is_refused_as_the_settings_file_is(
    repo: Path, kind: str
) -> None:
    """With no .gitmem.toml, pyproject.toml's [tool.gitmem] says where the memory is. Made a
    link, a folder, a submodule, a file beyond the 1 MiB read or one that is not UTF-8, it
    was taken for no file at all, with nothing said: the settings fell back to the defaults
    and a secret went into mem/, judged as no memory, past the pre-commit hook (a submodule
    ended it with "object ... is missing"). Each is said, and refused as .gitmem.toml's is."""
    from clirunner import ok, run, write
    from secret_samples import github_token

    ok(run(repo, "init", "--dir", "mem"))
    (repo / ".gitmem.toml").unlink()
    body = '[project]\nname = "x"\n\n[tool.gitmem.memory]\ndir = "mem"\n'
    pyproject = repo / "pyproject.toml"
    pyproject.write_text(body)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "memory in mem/, named in pyproject.toml")
    if kind == "not UTF-8":
        pyproject.write_bytes(b"# caf\xe9\n" + body.encode())
    elif kind == "folder":
        pyproject.unlink()
        write(repo, "pyproject.toml/x", body)
    elif kind == "symlink":
        (repo / "shared.toml").write_text(body)
        pyproject.unlink()
        pyproject.symlink_to("shared.toml")
    elif kind == "huge":
        pyproject.write_text(("#" * 99 + "\n") * 11_000 + body)
    else:
        git(repo, "rm", "-q", "pyproject.toml")
        git(repo, "update-index", "--add", "--cacheinfo", f"160000,{'1' * 40},pyproject.toml")
    write(repo, "mem/candidates/x.md", f"token {github_token(40)}\n")
    git(repo, "add", "-A") if kind != "gitlink" else git(repo, "add", "mem")
    code, out = _in(repo, "pre-commit")
    assert code == 1, out
    where, said = {
        "not UTF-8": (":1:", "is not UTF-8 (byte 5)"),
        "folder": ("", "is a folder"),
        "symlink": ("", "is a symbolic link"),
        "huge": ("", "is larger than 1 MiB"),
        "gitlink": ("", "is a special file"),
    }[kind]
    warned = f"pyproject.toml{where} {said}" if where else f"pyproject.toml {said}"
    assert f"gitmem: warning: {warned}" in out, out
    assert f"pyproject.toml{where or ':'} SETTINGS {said}" in out, out
    assert "fix them in this commit" in out, out


def test_a_settings_file_removed_is_refused_when_pyproject_s_table_is_set_aside(
    repo: Path,
) -> None:
    """pyproject.toml's [tool.gitmem] is read only with no .gitmem.toml. A commit removing
    .gitmem.toml brought a stale table into force, whose memory.dir gitmem sets aside: the
    memory fell back to .gitmem/, and a secret went into mem/ past the hook, which judged
    only the warnings of the file the commit changed, pyproject.toml unchanged."""
    from clirunner import ok, run, write
    from secret_samples import github_token

    ok(run(repo, "init", "--dir", "mem"))
    (repo / "pyproject.toml").write_text('[tool.gitmem.memory]\ndir = "../mem"\n')
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "memory in mem/, a stale table beside it")
    git(repo, "rm", "-q", ".gitmem.toml")
    write(repo, "mem/candidates/x.md", f"token {github_token(40)}\n")
    git(repo, "add", "-A")
    code, out = _in(repo, "pre-commit")
    assert code == 1, out
    assert "pyproject.toml: SETTINGS tool.gitmem.memory.dir '../mem' contains '..'" in out, out


def test_a_pyproject_without_settings_of_gitmem_is_read_as_before(repo: Path) -> None:
    """A pyproject.toml that is not UTF-8 but names no gitmem holds none of its settings, as
    one that is not TOML: nothing is said, and a commit changing it passes."""
    from clirunner import ok, run

    ok(run(repo, "init"))
    (repo / "pyproject.toml").write_bytes(b'# caf\xe9\n[project]\nname = "x"\n')
    git(repo, "add", "-A")
    assert _in(repo, "pre-commit") == (0, "")


def test_a_builtin_type_listed_in_the_settings_is_said_not_refused(repo: Path) -> None:
    """A built-in type in memory.types sets nothing aside (the type is accepted anyway): the
    commit that lists it passes, with the warning saying to remove it."""
    from clirunner import ok, run

    ok(run(repo, "init"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "memory")
    (repo / ".gitmem.toml").write_text('[memory]\ntypes = ["decision", "incident"]\n')
    git(repo, "add", "-A")
    code, out = _in(repo, "pre-commit")
    assert code == 0, out
    assert "gitmem: warning: .gitmem.toml: memory.types holds the built-in type 'decision'" in out


def test_post_hooks_turn_every_failure_into_a_line(tmp_path: Path) -> None:
    plain = tmp_path / "not-a-repository"
    plain.mkdir()
    for name in ("post-merge", "post-checkout", "post-rewrite"):
        code, out = _in(plain, name)
        assert code == 0 and out.startswith(f"gitmem: {name}: "), out


def test_pre_receive_lines_carry_gitlabs_prefix_only_under_gitlab(memory: Path) -> None:
    from gitmem.gate.check import for_server

    assert for_server("a\nb") == "a\nb"
    os.environ["GL_ID"] = "user-1"
    try:
        assert for_server("a\nb") == "GL-HOOK-ERR: a\nGL-HOOK-ERR: b"
    finally:
        del os.environ["GL_ID"]


def test_what_shows_gitmem_in_a_repository_it_cannot_read(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """keeps_gitmem, which decides whether a hook refuses a SHA-256 repository or lets it
    through: each sign alone is enough, in the work tree, at HEAD or in a pushed commit."""
    monkeypatch.chdir(repo)
    assert dispatch.keeps_gitmem([]) == "gitmem's hooks run from this repository's own hooks folder"
    config = tmp_path / "gitconfig"
    config.write_text(f"[core]\n\thooksPath = {tmp_path / 'everyones-hooks'}\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    assert dispatch.keeps_gitmem([]) is None
    git(repo, "config", "gitmem.branch", "main")
    assert dispatch.keeps_gitmem([]) == "its git config sets gitmem.*"
    git(repo, "config", "--unset", "gitmem.branch")

    (repo / "pyproject.toml").write_text('[tool.gitmem]\ndir = "notes/memory"\n')
    assert dispatch.keeps_gitmem([]) == "pyproject.toml in its work tree has a [tool.gitmem] table"
    git(repo, "add", "pyproject.toml")
    git(repo, "commit", "-q", "-m", "settings")
    pushed = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "reset", "-q", "--hard", "HEAD~1")
    assert dispatch.keeps_gitmem([]) is None
    assert (
        dispatch.keeps_gitmem([pushed]) == f"pyproject.toml at {pushed} has a [tool.gitmem] table"
    )

    git(repo, "checkout", "-q", "-b", "side")
    (repo / ".gitmem").mkdir()
    (repo / ".gitmem" / "INDEX.md").write_text("# Index\n")
    assert dispatch.keeps_gitmem([]) == ".gitmem is in its work tree"
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "memory")
    git(repo, "checkout", "-q", "main")
    shutil.rmtree(repo / ".gitmem", ignore_errors=True)
    side = git(repo, "rev-parse", "side").strip()
    assert dispatch.keeps_gitmem([side]) == f".gitmem is in {side}"
    assert dispatch._pushed_tips(f"refs/heads/side {side} refs/heads/side {'0' * 40}\n") == [side]
    assert dispatch._pushed_tips(f"refs/heads/x {'0' * 40} refs/heads/x {side}\n") == []


def test_a_pyproject_change_beside_a_settings_file_passes_with_the_warning(repo: Path) -> None:
    """pyproject.toml's [tool.gitmem] is ignored while .gitmem.toml exists, which says where
    the memory is: nothing is set aside, the memory folder is judged as the settings file
    says. The SETTINGS rule took the warning for a set-aside and refused every commit that
    touched pyproject.toml (a dependency bumped) with 'the memory folder they name unjudged'."""
    from clirunner import ok, run

    ok(run(repo, "init", "--dir", "mem"))
    (repo / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.gitmem.memory]\n')
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "memory in mem/, a stale table beside it")
    (repo / "pyproject.toml").write_text(
        '[project]\nname = "x"\nversion = "2"\n\n[tool.gitmem.memory]\n'
    )
    git(repo, "add", "-A")
    code, out = _in(repo, "pre-commit")
    assert code == 0, out
    assert "gitmem: warning: pyproject.toml: [tool.gitmem] is ignored" in out, out
