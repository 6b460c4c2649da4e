"""`gitmem check` over files, folders and the staging index: every bad input gets one line
naming file, rule and fix, exit 1, and no traceback."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from clirunner import run, write
from hypothesis import given
from hypothesis import strategies as st
from secret_samples import github_token

from gitmem.gate.check import Report, render, report_from_json
from gitmem.model import allowed
from gitmem.model.problem import Problem
from gitmem.settings.policy import MODES

from conftest import git
from entries import text

CANDIDATE = ".gitmem/candidates/shop-method-20261129-run-hooks-through-gitmem.md"
ENTRY = ".gitmem/entries/method/shop-method-20261129-run-hooks-through-gitmem.md"
ADMITTED = {"status": "admitted", "admitted_by": "human:bob", "admitted": "2026-11-30"}


def one_problem(result: Result, rule: str, path: str = CANDIDATE) -> str:
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if f" {rule} " in line]
    assert lines, result.output
    assert lines[0].startswith(f"{path}:") or lines[0].startswith(f"{path} "), lines[0]
    return lines[0]


def test_a_valid_candidate_and_entry_pass(repo: Path) -> None:
    write(repo, CANDIDATE, text())
    write(repo, ENTRY, text(**ADMITTED))
    result = run(repo, "check")
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "gitmem check: 2 files checked, no problems"


def test_malformed_yaml(repo: Path) -> None:
    write(repo, CANDIDATE, text().replace("title: Run", "title: [Run"))
    line = one_problem(run(repo, "check", CANDIDATE), "FRONT-MATTER")
    assert "not valid YAML" in line and "fix the YAML" in line


@pytest.mark.parametrize("front", ["- a\n- b\n", "just text\n"])
def test_front_matter_that_is_a_list_or_scalar(repo: Path, front: str) -> None:
    write(repo, CANDIDATE, f"---\n{front}---\n\n## Context\n## Content\n## Evidence\n")
    line = one_problem(run(repo, "check", CANDIDATE), "FRONT-MATTER")
    assert f"{CANDIDATE}:2:" in line and "not a mapping" in line


def test_missing_and_duplicated_sections(repo: Path) -> None:
    write(repo, CANDIDATE, text(body="## Context\nc\n## Content\nx\n"))
    assert "missing section '## Evidence'" in one_problem(run(repo, "check"), "SECTIONS")
    write(repo, CANDIDATE, text(body="## Context\nc\n## Content\nx\n## Content\ny\n## Evidence\n"))
    assert "appears twice" in one_problem(run(repo, "check"), "SECTIONS")


def _body_of(length: int) -> str:
    fixed = "## Context\nc\n\n## Content\n\n\n## Evidence\ne"
    return fixed.replace("## Content\n\n", "## Content\n" + "x" * (length - len(fixed)) + "\n")


def test_body_length_limit_is_exact(repo: Path) -> None:
    body = _body_of(2000)
    write(repo, CANDIDATE, text(body=body + "\n"))
    assert run(repo, "check").exit_code == 0
    write(repo, CANDIDATE, text(body=_body_of(2001) + "\n"))
    line = one_problem(run(repo, "check"), "BODY-LENGTH")
    assert "2001 characters, over the limit of 2000" in line


def test_binary_file(repo: Path) -> None:
    write(repo, CANDIDATE, b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    assert "binary file" in one_problem(run(repo, "check"), "BINARY")


def test_fifty_megabyte_file_is_refused_without_reading_it_all(repo: Path) -> None:
    path = repo / CANDIDATE
    path.parent.mkdir(parents=True)
    with open(path, "wb") as handle:
        handle.truncate(50 * 1024 * 1024)
    line = one_problem(run(repo, "check"), "TOO-LARGE")
    assert "over 64 KiB" in line


def test_symlink_is_refused(repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text(text())
    (repo / ".gitmem/candidates").mkdir(parents=True)
    (repo / CANDIDATE).symlink_to(outside)
    assert "symbolic link" in one_problem(run(repo, "check"), "SYMLINK")


def test_a_fifo_is_refused_without_blocking_the_check(repo: Path) -> None:
    """A named pipe where an entry belongs: opening it to read would wait for a writer
    forever; it is judged by its kind and never opened."""
    (repo / ".gitmem/candidates").mkdir(parents=True)
    os.mkfifo(repo / CANDIDATE)
    assert "not a regular file" in one_problem(run(repo, "check"), "LAYOUT")


@pytest.mark.parametrize("kind", ["a file", "a symbolic link", "a special file"])
def test_a_memory_folder_that_is_no_folder_is_named_as_such(
    repo: Path, tmp_path: Path, kind: str
) -> None:
    """A file at .gitmem was judged as an entry (`.gitmem:1: FRONT-MATTER has no front
    matter`), a link to a folder as one (`SYMLINK ... a memory entry must be a file`): the
    rule named was not what is wrong, and neither said what to do."""
    folder = repo / ".gitmem"
    shutil.rmtree(folder, ignore_errors=True)
    if kind == "a file":
        folder.write_text("notes\n")
    elif kind == "a symbolic link":
        (tmp_path / "elsewhere").mkdir()
        folder.symlink_to(tmp_path / "elsewhere")
    else:
        os.mkfifo(folder)
    result = run(repo, "check")
    assert result.exit_code == 2, result.output
    assert f"gitmem: .gitmem is {kind}, where the memory folder belongs" in result.output
    assert "FRONT-MATTER" not in result.output and "Traceback" not in result.output


def test_a_file_swapped_for_a_symlink_or_fifo_after_its_look_is_not_read(repo: Path) -> None:
    """The worktree snapshot reads only the regular file it opened: a symlink or FIFO put in
    a file's place between kind() and read() gives None, neither its target nor a hang."""
    from gitmem.repo.snapshot import WorktreeSnapshot

    secret = repo / "secret.txt"
    secret.write_text("not memory")
    (repo / "link.md").symlink_to(secret)
    os.mkfifo(repo / "pipe.md")
    snapshot = WorktreeSnapshot(repo)
    assert snapshot.read("link.md", 100) is None
    assert snapshot.read("pipe.md", 100) is None
    assert snapshot.read("secret.txt", 100) == b"not memory"


def test_many_files_are_judged_by_two_processes_with_the_same_problems(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past PARALLEL_MIN files a forked child judges half of them: the same report, in the
    same order, as one process, also when the child fails or no process can be forked."""
    from gitmem.gate import rules

    for n in range(40):
        write(repo, CANDIDATE.replace("gitmem.md", f"gitmem-{n}.md"), text(id=f"{n}"))
        write(repo, ENTRY.replace("gitmem.md", f"gitmem-{n}.md"), text(**ADMITTED))
    write(repo, CANDIDATE, text(body=f"## Context\n{github_token(7)}\n"))
    write(repo, ".gitmem/entries/method/stray.txt", "x")
    monkeypatch.setenv("GITMEM_PARALLEL", "0")
    alone = run(repo, "check")
    assert alone.exit_code == 1 and alone.output.count("ID-PATH") >= 40, alone.output
    monkeypatch.delenv("GITMEM_PARALLEL")
    monkeypatch.setattr(rules, "PARALLEL_MIN", 10)
    parent, judge = os.getpid(), rules.check_one
    judges = repo.parent / "judges"

    def recorded(*args: Any, **kwargs: Any) -> Any:
        with open(judges, "a") as log:
            log.write(f"{os.getpid()}\n")
        return judge(*args, **kwargs)

    monkeypatch.setattr(rules, "check_one", recorded)
    assert run(repo, "check").output == alone.output
    assert len(set(judges.read_text().split())) == 2  # this process and one child

    def failing_in_child(*args: Any, **kwargs: Any) -> Any:
        if os.getpid() != parent:
            raise RuntimeError("the forked judge fails")
        return judge(*args, **kwargs)

    monkeypatch.setattr(rules, "check_one", failing_in_child)
    assert run(repo, "check").output == alone.output

    def no_fork() -> int:
        raise OSError("Resource temporarily unavailable")

    monkeypatch.setattr(rules, "check_one", judge)
    monkeypatch.setattr(os, "fork", no_fork)
    assert run(repo, "check").output == alone.output


@pytest.mark.parametrize(
    ("changes", "rule", "words"),
    [
        ({"id": "shop-method-20261129-other-name"}, "ID-PATH", "disagrees with the file name"),
        ({"type": "decision"}, "ID-TYPE", "does not name its type 'decision'"),
        ({"created": "2026-11-28"}, "ID-DATE", "does not carry its created date"),
        ({"id": "../../../etc/passwd"}, "SCHEMA", "is not an id"),
        ({"type": "opinion"}, "SCHEMA", "type 'opinion' is not allowed"),
        ({"colour": "red"}, "SCHEMA", "unknown field 'colour'"),
        (
            {"status": "admitted", "admitted_by": "human:b", "admitted": "2026-11-30"},
            "STATUS-FOLDER",
            "does not fit candidates/",
        ),
        (
            {"created": "2026-02-30", "id": "shop-method-20260230-run-hooks-through-gitmem"},
            "DATE",
            "not a calendar date",
        ),
    ],
)
def test_field_rules(repo: Path, changes: dict[str, str], rule: str, words: str) -> None:
    write(repo, CANDIDATE, text(**changes))
    line = one_problem(run(repo, "check"), rule)
    assert words in line


def test_admitted_status_under_candidates_and_candidate_under_entries(repo: Path) -> None:
    write(repo, ENTRY, text())
    line = one_problem(run(repo, "check"), "STATUS-FOLDER", ENTRY)
    assert "only admitted, superseded or retired entries live there" in line
    assert f"{ENTRY}:4:" in line


def test_entry_in_the_wrong_type_folder(repo: Path) -> None:
    wrong = ENTRY.replace("/method/", "/decision/")
    write(repo, wrong, text(**ADMITTED))
    assert "move the file to entries/method/" in one_problem(run(repo, "check"), "ID-PATH", wrong)


def test_crlf_and_bom_are_accepted(repo: Path) -> None:
    write(repo, CANDIDATE, ("\ufeff" + text()).replace("\n", "\r\n").encode("utf-8"))
    result = run(repo, "check")
    assert result.exit_code == 0, result.output


def test_invalid_utf8(repo: Path) -> None:
    write(repo, CANDIDATE, text().encode("utf-8").replace(b"Run hooks", b"Run \xff\xfe"))
    line = one_problem(run(repo, "check"), "ENCODING")
    assert f"{CANDIDATE}:5:" in line and "save the file as UTF-8" in line


def test_secret_is_reported_redacted(repo: Path) -> None:
    token = github_token(147)
    write(repo, CANDIDATE, text(body=f"## Context\nc\n## Content\nuse {token}\n## Evidence\n"))
    line = one_problem(run(repo, "check"), "SECRET")
    assert token not in line and f"{CANDIDATE}:15:" in line


def test_secret_in_front_matter_and_secret_file_in_files(repo: Path) -> None:
    write(repo, CANDIDATE, text(rationale="password: hunter2hunter2hunter2", files=["deploy/.env"]))
    (repo / "deploy").mkdir()
    (repo / "deploy/.env").write_text("x")
    result = run(repo, "check")
    assert result.exit_code == 1
    assert "hunter2hunter2hunter2" not in result.output
    assert result.output.count(" SECRET ") >= 2, result.output


def test_hidden_unicode(repo: Path) -> None:
    write(repo, CANDIDATE, text(title="Run hooks\u202e through gitmem"))
    assert "U+202E" in one_problem(run(repo, "check"), "HIDDEN-UNICODE")


def test_cited_files_must_exist(repo: Path) -> None:
    write(repo, CANDIDATE, text(files=["README.md", "gone.py"]))
    line = one_problem(run(repo, "check"), "FILES-MISSING")
    assert "'gone.py'" in line and "README.md" not in line


def test_refused_topic(repo: Path) -> None:
    from gitmem.model import refused

    write(
        repo,
        ".gitmem/refused.md",
        refused.append(
            None,
            refused.Refusal(
                "run-hooks-through-gitmem",
                "we use pre-commit only",
                "x",
                "2026-11-01",
                "human:bob",
                0,
            ),
        ),
    )
    write(repo, CANDIDATE, text())
    # refused topics bind proposals only: an entry of the topic admitted before stays valid
    write(repo, ENTRY, text(**ADMITTED))
    result = run(repo, "check")
    line = one_problem(result, "REFUSED-TOPIC")
    assert "we use pre-commit only" in line
    assert ENTRY not in result.output, result.output


@pytest.mark.parametrize("kind", ["a symbolic link", "a folder"])
def test_a_refused_md_that_is_no_file_is_named_not_read_as_no_refusals(
    repo: Path, tmp_path: Path, kind: str
) -> None:
    """refused.md as a link (to a copy of itself) or a folder was read as no refused topic
    at all: a candidate on a refused topic passed `gitmem check` without a word."""
    from gitmem.model import refused

    row = refused.Refusal("run-hooks-through-gitmem", "no", "x", "2026-11-01", "human:bob", 0)
    copy = tmp_path / "refused-copy.md"
    copy.write_text(refused.append(None, row))
    target = repo / ".gitmem" / "refused.md"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.unlink(missing_ok=True)
    if kind == "a symbolic link":
        target.symlink_to(copy)
    else:
        target.mkdir()
    write(repo, CANDIDATE, text())
    line = one_problem(run(repo, "check"), "LAYOUT", ".gitmem/refused.md")
    assert f"is {kind}, where gitmem keeps the refused topics" in line


def test_a_candidate_close_to_a_refused_topic_is_warned_with_the_row(repo: Path) -> None:
    """A reworded refused topic is no error (people may mean something else) but a warning
    that names the refused topic and its line in refused.md."""
    from gitmem.model import refused

    refusal = refused.Refusal(
        "run-the-hooks-through-gitmem", "we use pre-commit only", "x", "2026-11-01", "human:bob", 0
    )
    write(repo, ".gitmem/refused.md", refused.append(None, refusal))
    write(repo, CANDIDATE, text())
    result = run(repo, "check")
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if " REFUSED-TOPIC " in x)
    assert line.startswith(f"{CANDIDATE}:"), line
    assert "close to refused topic 'run-the-hooks-through-gitmem'" in line
    assert f"refused.md line {refused.HEADER.count(chr(10)) + 1})" in line, line


def test_a_draft_outside_the_repository_is_checked_as_an_entry(repo: Path, tmp_path: Path) -> None:
    """`gitmem check FILE` of a draft outside the repository judges it as a standalone entry;
    a path outside that names nothing is a usage error, never a silent pass."""
    drafts = tmp_path / "drafts"
    drafts.mkdir()
    token = github_token(147)
    (drafts / "x.md").write_text(
        text(body=f"## Context\nc\n## Content\nuse {token}\n## Evidence\n"), encoding="utf-8"
    )
    result = run(repo, "check", str(drafts / "x.md"))
    assert result.exit_code == 1, result.output
    assert f"{drafts / 'x.md'}:15: SECRET " in result.output and token not in result.output
    missing = run(repo, "check", str(drafts / "missing.md"))
    assert missing.exit_code == 2 and "missing.md: no such file" in missing.output


def test_a_path_with_dot_dot_is_folded_before_it_is_placed(repo: Path, tmp_path: Path) -> None:
    """`..` is folded as git folds it: from inside the memory folder, `..` is the repository
    (judged as `check .` at its root judges it) and `../..` the folder above it, outside. It
    was kept: `.gitmem/..` counted as inside, every file of the repository was a LAYOUT
    problem, and `../..` walked and reported the files around the repository."""
    write(repo, CANDIDATE, text())
    (tmp_path / "next-to-the-repository.txt").write_text("not the project's\n")
    at_root = run(repo, "check", ".")
    inside = run(repo / ".gitmem", "check", "..")
    assert inside.exit_code == at_root.exit_code == 0, inside.output
    assert inside.output == at_root.output and "LAYOUT" not in inside.output
    above = run(repo / ".gitmem", "check", "../..")
    assert above.exit_code == 2, above.output
    assert "not a file (folders are checked inside the repository only)" in above.output
    assert "next-to-the-repository" not in above.output


def test_a_file_name_a_terminal_would_act_on_is_shown_escaped(repo: Path) -> None:
    """A memory file named with an escape sequence or a lone carriage return (committed in a
    cloned repository) reached the terminal as is: the colour changed, or the carriage return
    let the rest of the name write over the problem's line."""
    name = ".gitmem/candidates/a\x1b[2Kb\rgitmem check: no problems.md"
    write(repo, name, "no front matter")
    result = run(repo, "check")
    assert result.exit_code == 1, result.output
    assert "\x1b" not in result.output and "\r" not in result.output
    assert ".gitmem/candidates/a\\x1b[2Kb\\rgitmem check: no problems.md:1: FRONT-MATTER" in (
        result.output
    )


def test_stray_file_in_memory_folder(repo: Path) -> None:
    write(repo, ".gitmem/notes.txt", "hello")
    assert "is not a memory file" in one_problem(run(repo, "check"), "LAYOUT", ".gitmem/notes.txt")


def test_formats_json_and_github(repo: Path) -> None:
    write(repo, CANDIDATE, text(type="decision"))
    data = json.loads(run(repo, "check", "--format", "json").output)
    assert data["ok"] is False and data["checked"] == 1
    assert {p["rule"] for p in data["problems"]} == {"ID-TYPE"}
    gh = run(repo, "check", "--format", "github").output.splitlines()
    assert gh[0].startswith(f"::error file={CANDIDATE},line=2,title=gitmem ID-TYPE::id ")
    assert gh[-1].startswith("gitmem check: 1 problem in 1 file")


def a_file_of_many_secrets(repo: Path, count: int) -> None:
    """CANDIDATE holding count tokens, one a line (count SECRET problems), and ENTRY two
    problems of its own (ID-TYPE, ID-PATH) that a flood of the other file's must not bury."""
    tokens = "\n".join(f"use {github_token(1000 + n)}" for n in range(count))
    write(repo, CANDIDATE, text(body=f"## Context\nc\n## Content\n{tokens}\n## Evidence\n"))
    write(repo, ENTRY, text(type="decision", **ADMITTED))


def test_the_text_shows_twenty_problems_a_file_and_says_how_many_more(repo: Path) -> None:
    """A hostile entry broke a rule once a line, and the text printed every one of them (40
    here, thousands at will), burying the other files' findings in the logs. The text now
    shows the first 20 of a file and one line for the rest; JSON and SARIF keep them all."""
    a_file_of_many_secrets(repo, 40)
    result = run(repo, "check")
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert sum(line.startswith(f"{CANDIDATE}:") and " SECRET " in line for line in lines) == 20
    assert (
        f"{CANDIDATE}: … 20 more problems in this file not shown (the first 20 are): "
        "`gitmem check --format json` with the same options lists them all"
    ) in lines
    assert sum(f"{ENTRY}:2: ID-TYPE " in line for line in lines) == 1
    assert lines[-1] == "gitmem check: 42 problems in 2 files (2 files checked)"
    data = json.loads(run(repo, "check", "--format", "json").output)
    assert sum(p["path"] == CANDIDATE for p in data["problems"]) == 40
    sarif = json.loads(run(repo, "check", "--format", "sarif").output)
    assert len(sarif["runs"][0]["results"]) == 42


def test_twenty_problems_of_a_file_are_all_shown(repo: Path) -> None:
    a_file_of_many_secrets(repo, 20)
    output = run(repo, "check").output
    assert output.count(" SECRET ") == 20 and "not shown" not in output


def test_the_pre_commit_hook_shows_twenty_problems_a_file_too(repo: Path) -> None:
    from gitmem.hooks import installer

    installer.install(repo)
    a_file_of_many_secrets(repo, 25)
    git(repo, "add", "-A")
    done = subprocess.run(
        ["git", "commit", "-q", "-m", "many"], cwd=repo, capture_output=True, text=True
    )
    assert done.returncode != 0
    assert done.stderr.count(" SECRET ") == 20, done.stderr
    assert f"{CANDIDATE}: … 5 more problems in this file not shown" in done.stderr


def test_a_push_report_says_to_list_them_all_over_the_commits() -> None:
    """The history gates (pre-push, pre-receive, --range) print the same text, with the way
    to list every problem that suits commits."""
    problems = [Problem("a.md", n, "SECRET", f"token {n}") for n in range(1, 23)]
    problems.append(Problem("b.md", 1, "LAYOUT", "stray"))
    lines = render(Report(problems, 3, unit="commit"), "text").splitlines()
    assert lines[:20] == [f"a.md:{n}: SECRET token {n}" for n in range(1, 21)]
    assert lines[20:] == [
        "a.md: … 2 more problems in this file not shown (the first 20 are): "
        "`gitmem check --range A..B --format json` over those commits lists them all",
        "b.md:1: LAYOUT stray",
        "gitmem check: 23 problems in 2 files (3 commits checked)",
    ]


def test_github_format_escapes_newlines_and_commas(repo: Path) -> None:
    from gitmem.gate.check import _github
    from gitmem.model.problem import Problem

    line = _github(Problem("a,b:c.md", 3, "SECRET", "50% of\nlines"))
    assert line == "::error file=a%2Cb%3Ac.md,line=3,title=gitmem SECRET::50%25 of%0Alines"


def test_usage_errors_exit_2(repo: Path, tmp_path: Path) -> None:
    assert run(repo, "check", "missing.md").exit_code == 2
    assert run(repo, "check", "--staged", "x.md").exit_code == 2


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--range", ""], "--range '' names no commits"),
        (["--range", " "], "--range ' ' names no commits"),
        ([""], "an empty PATH names no file"),
        ([".gitmem", ""], "an empty PATH names no file"),
    ],
)
def test_an_empty_range_or_path_is_a_usage_error(repo: Path, args: list[str], says: str) -> None:
    """`gitmem check --range "$RANGE"` with RANGE unset judged the working tree instead of
    the commits, and passed; an empty PATH was taken for the current folder."""
    result = run(repo, "check", *args)
    assert result.exit_code == 2 and says in result.output, result.output


# --- the staging index: what git is actually committing --------------------------------------


def test_staged_check_reads_the_index_not_the_working_tree(repo: Path) -> None:
    write(repo, CANDIDATE, text(type="decision"))
    git(repo, "add", CANDIDATE)
    write(repo, CANDIDATE, text())  # fixed on disk, not staged
    result = run(repo, "check", "--staged")
    assert result.exit_code == 1 and "ID-TYPE" in result.output


def test_staged_check_with_nothing_in_memory_is_a_no_op(repo: Path) -> None:
    write(repo, "code.py", "print(1)\n")
    git(repo, "add", "code.py")
    result = run(repo, "check", "--staged")
    assert result.exit_code == 0
    assert "0 files checked" in result.output


@pytest.mark.parametrize("staged", [[], ["--staged"]])
def test_an_index_file_git_cannot_read_is_rebuilt_not_resolved(
    memory: Path, staged: list[str]
) -> None:
    """A staging index cut short (a crash as git wrote it): check said to "resolve the
    conflicts (git status lists them)", and there are none; git rebuilds it from HEAD."""
    index = memory / ".git" / "index"
    index.write_bytes(index.read_bytes()[:20])
    result = run(memory, "check", *staged)
    assert result.exit_code == 2, result.output
    assert "index file smaller than expected" in result.output
    assert "the index file git names is damaged: remove it and rebuild it from HEAD" in (
        result.output
    )
    assert "conflicts" not in result.output
    index.unlink()
    git(memory, "reset", "-q")
    assert run(memory, "check", *staged).exit_code == 0


def test_pre_commit_hook_blocks_commit_a_and_commit_path(repo: Path) -> None:
    """`git commit -a` and `git commit PATH` stage into a temporary GIT_INDEX_FILE."""
    from gitmem.hooks import installer

    installer.install(repo)
    write(repo, CANDIDATE, text())
    git(repo, "add", CANDIDATE)
    git(repo, "commit", "-q", "-m", "valid candidate")
    write(repo, CANDIDATE, text(type="decision"))  # tracked, modified, not staged
    for args in (["commit", "-a", "-m", "bad"], ["commit", CANDIDATE, "-m", "bad"]):
        done = git(repo, *args, check=False)
        assert git(repo, "log", "-1", "--format=%s").strip() == "valid candidate", done
    result = git(repo, "status", "--porcelain")
    assert CANDIDATE in result


def test_a_reviewed_exception_is_a_fingerprint_never_an_inline_marker(repo: Path) -> None:
    body = "## Context\nc\n## Content\nNever commit .env files.\n## Evidence\n"
    write(repo, CANDIDATE, text(body=body))
    line = one_problem(run(repo, "check"), "SECRET")
    fingerprint = line.split("fingerprint ")[1].split()[0]
    assert fingerprint.startswith("secret-file-name:") and len(fingerprint) == 17 + 32
    assert "reviewer other than its author" in line and "gitmem admit --allow" in line
    marked = body.replace("files.", "files. <!-- gitmem:allow secret-file-name -->")
    write(repo, CANDIDATE, text(body=marked))
    line = one_problem(run(repo, "check"), "SECRET")
    assert "inline gitmem:allow marker exempts nothing" in line
    row = f"| {fingerprint} | {CANDIDATE.split('/')[-1][:-3]} | human:bob | 2026-12-01 | a doc |"
    write(repo, ".gitmem/allowed.md", allowed.append(None, []) + row + "\n")
    assert run(repo, "check").exit_code == 0


def test_a_repository_without_memory_has_nothing_to_check(repo: Path) -> None:
    result = run(repo, "check")
    assert result.exit_code == 0 and "0 files checked" in result.output


def test_an_admitted_entry_whose_cited_file_moved_later_still_passes(repo: Path) -> None:
    """Cited files must exist where an entry is admitted; a later rename makes the entry stale
    (recall and lint say so), never invalid: a repository-wide check must not start failing."""
    write(repo, ENTRY, text(**ADMITTED, files=["README.md", "moved-away.py"]))
    result = run(repo, "check")
    assert result.exit_code == 0, result.output
    assert "FILES-MISSING" not in result.output


def test_the_git_ignored_candidates_md_is_no_problem_until_it_is_tracked(memory: Path) -> None:
    """Issue 14, case 4: `gitmem check` with no arguments after `gitmem index` wrote it."""
    assert run(memory, "index").exit_code == 0
    assert (memory / ".gitmem" / "CANDIDATES.md").is_file()
    assert git(memory, "status", "--porcelain") == ""  # git-ignored
    result = run(memory, "check")
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "gitmem check: 3 files checked, no problems"
    assert run(memory, "check", ".gitmem").exit_code == 0

    git(memory, "add", "-f", ".gitmem/CANDIDATES.md")
    line = one_problem(run(memory, "check"), "LAYOUT", ".gitmem/CANDIDATES.md")
    assert "git rm --cached it" in line


@pytest.mark.parametrize("target", ["INDEX.md", "CANDIDATES.md"])
def test_a_killed_writes_temporary_is_no_problem_until_it_is_staged(
    memory: Path, target: str
) -> None:
    """A write of INDEX.md or CANDIDATES.md killed before its rename leaves its temporary,
    which the next refresh removes only a minute on (a live writer may own it): until then
    `gitmem check` passes it over, and once staged names it for what it is."""
    temporary = f".gitmem/.{target}.0123456789ab.tmp"
    write(memory, temporary, "# half writ")
    write(memory, ".gitmem/.notes.tmp", "mine")  # a temporary of someone else's: stray
    line = one_problem(run(memory, "check"), "LAYOUT", ".gitmem/.notes.tmp")
    assert "is not a memory file" in line
    (memory / ".gitmem/.notes.tmp").unlink()
    assert run(memory, "check").exit_code == 0
    git(memory, "add", "-A")
    line = one_problem(run(memory, "check"), "LAYOUT", temporary)
    assert "killed gitmem left" in line and "git rm --cached" in line


# --- paths: where memory files live, whatever the disk makes of their names -------------------


def test_a_file_named_with_line_breaks_is_reported_on_one_line(repo: Path) -> None:
    """The path was printed raw: a name holding a line break printed a line of its own, which
    a CI log reads as a workflow command (`::error file=…`) and a reader as another problem."""
    name = ".gitmem/entries/decision/x\n::error file=evil::forged\r\u2028.md"
    write(repo, name, "---\n---\n")
    result = run(repo, "check")
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert not [line for line in lines if line.startswith("::error")], result.output
    shown = "decision/x\\n::error file=evil::forged\\r\\u2028.md:"
    assert any(shown in line for line in lines), result.output


def test_a_committed_candidates_md_and_a_non_md_file_under_entries_are_layout(repo: Path) -> None:
    write(repo, ".gitmem/CANDIDATES.md", "# Candidates\n")
    git(repo, "add", "-f", ".gitmem/CANDIDATES.md")  # generated, and now tracked
    line = one_problem(run(repo, "check"), "LAYOUT", ".gitmem/CANDIDATES.md")
    assert "generated locally and git-ignored" in line and "git rm --cached" in line
    git(repo, "rm", "-q", "--cached", ".gitmem/CANDIDATES.md")
    (repo / ".gitmem/CANDIDATES.md").unlink()
    write(repo, ".gitmem/entries/method/notes.txt", text(**ADMITTED))
    line = one_problem(run(repo, "check"), "LAYOUT", ".gitmem/entries/method/notes.txt")
    assert "entries live in .gitmem/entries/<type>/<id>.md" in line


def test_a_file_named_outside_the_memory_folder_is_checked_as_an_entry(repo: Path) -> None:
    write(repo, "drafts/lesson.md", text(type="decision"))
    line = one_problem(run(repo, "check", "drafts/lesson.md"), "ID-TYPE", "drafts/lesson.md")
    assert "does not name its type" in line
    write(repo, "drafts/lesson.md", text())
    assert run(repo, "check", "drafts/lesson.md").exit_code == 0
    # and the whole memory folder's check never looks at files outside it
    write(repo, "drafts/lesson.md", text(type="decision"))
    assert run(repo, "check").exit_code == 0


def test_an_impossible_admitted_date(repo: Path) -> None:
    write(repo, ENTRY, text(status="admitted", admitted_by="human:bob", admitted="2026-02-30"))
    line = one_problem(run(repo, "check"), "DATE", ENTRY)
    assert "admitted '2026-02-30' is not a calendar date" in line


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        (
            {"amended": ["2026-12-01", "2026-13-45"], "amended_by": "human:bob"},
            "amended '2026-13-45' is not a calendar date",
        ),
        (
            {
                "status": "retired",
                "retired": "2026-02-30",
                "retired_by": "human:bob",
                "retired_reason": "a test write",
            },
            "retired '2026-02-30' is not a calendar date",
        ),
    ],
)
def test_every_date_field_is_a_calendar_date(
    repo: Path, changes: dict[str, Any], words: str
) -> None:
    """The schema gives a date's shape (YYYY-MM-DD); only created and admitted were held to
    the calendar, so an amendment or a retirement on 2026-02-30 was a valid entry."""
    write(repo, ENTRY, text(**{**ADMITTED, **changes}))
    assert words in one_problem(run(repo, "check"), "DATE", ENTRY)


@pytest.mark.parametrize("folder", [".GITMEM", ".Gitmem", ".gitmem."])
def test_a_variant_of_the_memory_folder_in_the_working_tree_and_the_index(
    repo: Path, folder: str
) -> None:
    write(repo, CANDIDATE, text())
    write(repo, f"{folder}/entries/method/x.md", text(**ADMITTED))
    line = one_problem(run(repo, "check"), "LAYOUT", f"{folder}/")
    assert "variant of the memory folder" in line
    git(repo, "add", "-A")
    staged = run(repo, "check", "--staged")
    assert staged.exit_code == 1 and f"{folder}/entries/method/x.md: LAYOUT" in staged.output


@pytest.mark.parametrize(
    "path", [".gitmem/Entries/method/x.md", ".gitmem/CANDIDATES/x.md", ".gitmem/Refused.md"]
)
def test_a_variant_of_a_layout_name_inside_the_memory_folder(repo: Path, path: str) -> None:
    """`Entries/` beside `entries/`: a case-insensitive checkout merges the two."""
    write(repo, path, text(**ADMITTED))
    line = one_problem(run(repo, "check", path), "LAYOUT", path)
    assert "variant of a name of the memory folder's layout" in line


def test_the_pre_commit_hook_sees_a_variant_of_the_memory_folder(repo: Path) -> None:
    """The hook's fast path (no memory file staged: exit at once) compares in any case."""
    from gitmem.hooks import installer

    installer.install(repo)
    write(repo, ".GITMEM/entries/method/x.md", text(**ADMITTED))
    git(repo, "add", "-A")
    done = git(repo, "commit", "-m", "a variant", check=False)
    assert git(repo, "log", "-1", "--format=%s").strip() == "initial", done


def test_a_name_that_is_not_utf8_is_layout_not_a_crash(repo: Path) -> None:
    folder = repo / ".gitmem/entries/method"
    folder.mkdir(parents=True)
    (folder / "caf\udce9.md").write_bytes(text(**ADMITTED).encode())
    line = one_problem(run(repo, "check"), "LAYOUT", ".gitmem/entries/method/caf\\xe9.md")
    assert "not UTF-8" in line
    index = run(repo, "index")
    assert index.exit_code == 0, index.output  # INDEX.md lists entries, not that file
    assert "caf" not in (repo / ".gitmem/INDEX.md").read_text()


# --- warn mode: the same findings, only a secret fails -------------------------------------


def test_warn_reports_every_finding_loudly_and_passes(repo: Path) -> None:
    write(repo, CANDIDATE, text(type="decision"))
    enforced = run(repo, "check")
    result = run(repo, "check", "--warn")
    assert enforced.exit_code == 1 and result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[1] == "gitmem is in WARN mode: these pushes would be REJECTED in enforce mode"
    assert lines[0] == lines[3] == "=" * max(len(lines[1]), len(lines[2]))
    assert (
        lines[2] == "1 problem reported, not enforced: fix it, then switch the gate to enforce mode"
    )
    assert lines[4:] == [
        *enforced.output.splitlines()[:-1],
        "gitmem check: 1 problem in 1 file (1 file checked); "
        "WARN mode: accepted, enforce mode would reject",
    ]
    data = json.loads(run(repo, "check", "--warn", "--format", "json").output)
    assert data["ok"] is True and data["mode"] == "warn"
    assert [p["severity"] for p in data["problems"]] == ["error"]  # still what it is
    gh = run(repo, "check", "--warn", "--format", "github").output.splitlines()
    assert gh[0] == (
        "::warning title=gitmem WARN mode::gitmem is in WARN mode: these pushes would be "
        "REJECTED in enforce mode"
    )
    assert gh[2].startswith(f"::error file={CANDIDATE},line=2,title=gitmem ID-TYPE::")


def test_warn_still_fails_on_a_secret(repo: Path) -> None:
    token = github_token(161)
    body = f"## Context\nc\n## Content\nuse {token}\n## Evidence\n"
    write(repo, CANDIDATE, text(type="decision", body=body))
    result = run(repo, "check", "--warn")
    assert result.exit_code == 1, result.output
    assert "but SECRET is refused in every mode" in result.output
    assert result.output.splitlines()[-1].endswith("WARN mode, but 1 refused in every mode")
    assert " ID-TYPE " in result.output and token not in result.output


def test_every_help_of_warn_mode_names_what_it_still_refuses(repo: Path) -> None:
    """A text too large to scan fails warn mode as a secret does (ALWAYS_REFUSED); the help of
    every --warn said "only a secret", so a person rolling out warn mode was surprised by it."""
    for command in (
        ["check"],
        ["init"],
        ["hooks", "install"],
        ["github", "check"],
        ["github", "protect"],
    ):
        result = run(repo, *command, "--help")
        assert result.exit_code == 0, result.output
        words = " ".join(result.output.split())
        assert "too large to scan" in words, command


def test_warn_with_nothing_found_says_so_in_one_line(repo: Path) -> None:
    write(repo, CANDIDATE, text())
    result = run(repo, "check", "--warn")
    assert result.exit_code == 0
    assert result.output.splitlines() == [
        "gitmem is in WARN mode: nothing here would be rejected in enforce mode",
        "gitmem check: 1 file checked, no problems (WARN mode)",
    ]
    assert "WARN" not in run(repo, "check").output


def test_a_report_takes_only_the_two_modes() -> None:
    from gitmem.gate.check import Report

    assert Report(mode="warn").in_mode("enforce").mode == "enforce"
    with pytest.raises(ValueError, match="mode 'lenient'"):
        Report(mode="lenient")
    with pytest.raises(ValueError, match="mode 'WARN'"):
        Report().in_mode("WARN")  # a mode is checked however the report is made


@pytest.mark.e2e
def test_a_merge_that_leaves_conflict_markers_in_the_memory_is_not_committed(
    memory: Path,
) -> None:
    """A merge that conflicts in refused.md (a row appended on each side), committed with the
    markers in (`git commit -a`): the pre-commit hook passed it, since refused.md, INDEX.md
    and allowed.md had no file rule at all, and only the push was refused, as an edit of
    refused.md, with the merge already made. Markers left by a merge or rebase in those
    files are a file rule now (CONFLICT), so the commit is refused."""
    from clirunner import PROPOSE, first_id

    ok = run(memory, "hooks", "install")
    assert ok.exit_code == 0, ok.output
    git(memory, "checkout", "-q", "-b", "other")
    row = "| by-hand | kept | x | 2026-12-01 | human:bob |\n"
    refused = memory / ".gitmem/refused.md"
    refused.write_text(refused.read_text() + row)
    git(memory, "commit", "-q", "--no-verify", "-am", "a row by hand")
    git(memory, "checkout", "-q", "main")
    assert run(memory, *PROPOSE).exit_code == 0
    assert run(memory, "refuse", first_id(), "--reason", "not needed").exit_code == 0
    git(memory, "merge", "-q", "other", check=False)  # conflicts
    assert "<<<<<<< HEAD" in refused.read_text()
    line = one_problem(run(memory, "check"), "CONFLICT", ".gitmem/refused.md")
    assert line.startswith(".gitmem/refused.md:7: CONFLICT ")
    done = subprocess.run(
        ["git", "commit", "-q", "-am", "merge"], cwd=memory, capture_output=True, text=True
    )
    assert done.returncode != 0 and ".gitmem/refused.md:7: CONFLICT " in done.stderr
    assert git(memory, "rev-parse", "-q", "--verify", "MERGE_HEAD", check=False).strip()


def test_a_memory_file_git_converts_on_checkout_is_refused(repo: Path) -> None:
    """A .gitattributes line made the checkout's refused.md UTF-16, its blob unchanged:
    `gitmem check` read no refusal in it and passed a candidate on a refused topic, which the
    pre-commit hook, reading the staged blob, refuses. Refused, naming the file and the
    attribute; files git holds as they are on disk are judged as before."""
    from gitmem.model import refused

    refusal = refused.Refusal(
        "run-hooks-through-gitmem", "we use pre-commit only", "x", "2026-11-01", "human:bob", 0
    )
    write(repo, ".gitmem/refused.md", refused.append(None, refusal))
    git(repo, "add", ".gitmem")
    git(repo, "commit", "-q", "-m", "refused")
    write(repo, ".gitattributes", ".gitmem/refused.md working-tree-encoding=UTF-16\n")
    git(repo, "add", ".gitattributes")
    git(repo, "commit", "-q", "-m", "attributes")
    (repo / ".gitmem/refused.md").unlink()
    git(repo, "checkout", "--", ".gitmem/refused.md")  # as a clone writes it
    assert (repo / ".gitmem/refused.md").read_bytes().startswith(b"\xff\xfe")
    write(repo, CANDIDATE, text())
    result = run(repo, "check")
    assert result.exit_code == 2, result.output
    assert ".gitmem/refused.md: git converts this file" in result.output
    assert "working-tree-encoding=UTF-16" in result.output and "Traceback" not in result.output
    git(repo, "add", CANDIDATE)
    assert "we use pre-commit only" in one_problem(run(repo, "check", "--staged"), "REFUSED-TOPIC")
    write(repo, ".gitattributes", ".gitmem/candidates/*.md ident\n")  # a file as staged
    (repo / ".gitmem/refused.md").unlink()
    git(repo, "checkout", "--", ".gitmem/refused.md")
    assert "we use pre-commit only" in one_problem(run(repo, "check"), "REFUSED-TOPIC")


# -- the JSON report read back ------------------------------------------------------------------

_TEXT = st.text(st.characters(codec="utf-8") | st.sampled_from("\n\r\t%:,|`\x1b"), max_size=40)
_PROBLEMS = st.builds(
    Problem,
    _TEXT,
    st.none() | st.integers(min_value=0, max_value=10**6),
    st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ-", min_size=1, max_size=20),
    _TEXT,
    warning=st.booleans(),
)
_REPORTS = st.builds(
    Report,
    st.lists(_PROBLEMS, max_size=6),
    st.integers(min_value=0, max_value=10**6),
    st.lists(_TEXT, max_size=3),
    st.sampled_from(["file", "commit"]),
    st.sampled_from(["gitmem check", "gitmem hook pre-receive"]),
    st.sampled_from(MODES),
)


@given(_REPORTS)
def test_a_json_report_read_back_renders_every_format_as_the_report_did(report: Report) -> None:
    """The GitHub check judges once (`check --format json` in the installed gitmem) and renders
    the annotations, the SARIF and the table from what it reads back: nothing may be lost on
    the way (it ran the check once per format before)."""
    read = report_from_json(render(report, "json"))
    assert read is not None
    for fmt in ("json", "text", "github", "sarif"):
        assert render(read, fmt) == render(report, fmt)
    assert read.ok == report.ok


@pytest.mark.parametrize(
    "text",
    [
        "",
        "[]",
        '{"problems": []}',
        '{"problems": [], "checked": 1, "warnings": [], "mode": "loud", "unit": "commit", '
        '"command": "gitmem check"}',
        '{"problems": [{"path": "a", "line": "3", "rule": "R", "message": "m", '
        '"severity": "error"}], "checked": 1, "warnings": [], "mode": "enforce", '
        '"unit": "commit", "command": "gitmem check"}',
        '{"problems": [], "checked": true, "warnings": [], "mode": "enforce", "unit": "commit", '
        '"command": "gitmem check"}',
    ],
)
def test_what_is_not_a_whole_json_report_reads_as_none(text: str) -> None:
    """A report with a field missing or of the wrong kind (an older gitmem's, a crash's
    partial output) is no report: the GitHub check then says it could not run."""
    assert report_from_json(text) is None
