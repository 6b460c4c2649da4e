"""What each hook does, called as the scripts call it: the gates fail the git command when a
rule fails; the post-* hooks never do."""

from __future__ import annotations

import io
import os
from pathlib import Path

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
