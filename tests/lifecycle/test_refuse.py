"""refuse: the topic joins refused.md on main, which only ever grows."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from clirunner import PROPOSE, first_id, ok, run
from remote import connect
from secret_samples import github_token

from gitmem.lifecycle import recovery, refuse

from conftest import git, read_only, run_gitmem


def snapshot(repo: Path) -> tuple[str, str, str]:
    """Every ref with its target, what git status says, and what is staged."""
    return (
        git(repo, "for-each-ref", "--format=%(refname) %(objectname)"),
        git(repo, "status", "--porcelain", "--untracked-files=all"),
        git(repo, "diff", "--cached"),
    )


def test_refuse_records_the_topic_and_blocks_it(memory: Path) -> None:
    ok(run(memory, *PROPOSE))
    ok(run(memory, "refuse", first_id(), "--reason", "we shell out on purpose | really"))
    refused = git(memory, "show", "main:.gitmem/refused.md")
    assert "| use-pygit2-inside-hooks | we shell out on purpose \\| really |" in refused
    assert git(memory, "branch", "--list", "gitmem/*") == ""
    again = run(memory, *PROPOSE)
    assert again.exit_code == 1
    assert "REFUSED-TOPIC" in again.output and "we shell out on purpose | really" in again.output


def test_refuse_keeps_a_refused_md_with_foreign_bytes_exactly(memory: Path) -> None:
    odd = b"# Refused topics\n\nlatin-1 note: caf\xe9\n"
    (memory / ".gitmem/refused.md").write_bytes(odd)
    git(memory, "commit", "-q", "-am", "a hand-written refused.md")
    ok(run(memory, *PROPOSE))
    ok(run(memory, "refuse", first_id(), "--reason", "not now"))
    after = subprocess.run(
        ["git", "show", "main:.gitmem/refused.md"], cwd=memory, capture_output=True, check=True
    ).stdout
    assert after.startswith(odd) and b"| use-pygit2-inside-hooks | not now |" in after


def test_refusing_a_title_beyond_ascii_refuses_that_topic_only(memory: Path) -> None:
    """Every title without ASCII words had the topic 'entry': refusing one Japanese-titled
    candidate refused every later one, pending candidates included, at propose and admit."""

    def japanese(title: str) -> list[str]:
        return [
            *("propose", "--type", "decision", "--title", title),
            *("--applies-when", "データベースを選ぶとき", "--content", "PostgreSQL を使う"),
        ]

    first = ok(run(memory, *japanese("データベースの選択"))).output.split()[1]
    pending = ok(run(memory, *japanese("キャッシュの方針"))).output.split()[1]
    ok(run(memory, "refuse", first, "--reason", "決定済み"))
    assert "| データベースの選択 | 決定済み |" in git(memory, "show", "main:.gitmem/refused.md")
    ok(run(memory, *japanese("ログの保存期間")))
    ok(run(memory, "admit", pending, "--by", "human:bob"))
    again = run(memory, *japanese("データベースの選択"))
    assert again.exit_code == 1 and "REFUSED-TOPIC" in again.output


def orders(title: str) -> list[str]:
    return [
        *("propose", "--type", "decision", "--title", title),
        *("--applies-when", "choosing where orders are kept"),
        *("--content", "Orders go to the document store."),
    ]


def test_a_refused_topic_reworded_is_warned_about_wherever_it_is_reviewed(memory: Path) -> None:
    """Issue 14: "Keep orders in MongoDB" after "Store the orders in Mongo DB" was refused
    passed without a warning, and `candidates` showed none."""
    first = ok(run(memory, *orders("Store the orders in Mongo DB"))).output.split()[1]
    ok(run(memory, "refuse", first, "--reason", "orders stay in Postgres"))
    proposed = run(memory, *orders("Keep orders in MongoDB"))
    assert proposed.exit_code == 0, proposed.output
    warning = (
        "REFUSED-TOPIC warning: close to refused topic 'store-the-orders-in-mongo-db' (refused "
    )
    assert warning in proposed.output
    assert "orders stay in Postgres, refused.md line 7)" in proposed.output
    listing = ok(run(memory, "candidates")).output
    assert "  valid  Keep orders in MongoDB" in listing
    assert warning in listing


def test_refuse_push_says_it_pushed(memory: Path, tmp_path: Path) -> None:
    server = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(server))
    git(memory, "remote", "add", "origin", str(server))
    git(memory, "push", "-q", "-u", "origin", "main")
    proposed = ok(run(memory, *PROPOSE, "--push")).output.split()[1]
    out = ok(run(memory, "refuse", proposed, "--reason", "not now", "--push")).output
    assert out.splitlines()[-1] == "pushed"
    assert git(server, "rev-parse", "main") == git(memory, "rev-parse", "main")
    assert git(server, "for-each-ref", "refs/heads/gitmem/") == ""


def test_refuse_under_a_stale_lock_names_it_and_moves_nothing(memory: Path) -> None:
    """A lock git left on main used to read as "main kept moving: gave up after 20
    attempts"; a stale index.lock let refuse move main and then fail with exit 3."""
    ok(run(memory, *PROPOSE))
    for lock in (memory / ".git/refs/heads/main.lock", memory / ".git/index.lock"):
        lock.touch()
        before = snapshot(memory)
        result = run(memory, "refuse", first_id(), "--reason", "not now")
        assert result.exit_code == 2, result.output
        assert f"rm '{lock}'" in result.output
        assert "kept moving" not in result.output and "unexpected" not in result.output
        lock.unlink()
        assert snapshot(memory) == before
    ok(run(memory, "refuse", first_id(), "--reason", "not now"))
    assert git(memory, "status", "--porcelain") == ""


def test_refuse_into_a_read_only_git_directory_says_it_cannot_write(memory: Path) -> None:
    ok(run(memory, *PROPOSE))
    before = snapshot(memory)
    with read_only(memory / ".git") as prefix:
        done = run_gitmem(memory, "refuse", first_id(), "--reason", "no", prefix=prefix)
    assert done.returncode == 2, done.stderr
    assert f"cannot write {memory / '.git' / recovery.LOCK}: " in done.stderr
    assert "unexpected" not in done.stderr
    assert snapshot(memory) == before


def test_a_reason_the_history_gate_would_refuse_is_refused_before_main_moves(
    memory: Path,
) -> None:
    """A reason holding a right-to-left override (or a token) went into refused.md and the
    commit message on main: a commit `gitmem check --range` and the server then refused."""
    ok(run(memory, *PROPOSE))
    main_before = git(memory, "rev-parse", "main").strip()
    for reason, says in [
        ("evil \u202e text", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        (f"leaked {github_token(7)}", "a secret"),
    ]:
        result = run(memory, "refuse", first_id(), "--reason", reason)
        assert result.exit_code == 2, result.output
        assert f"--reason holds {says}" in result.output
        assert github_token(7) not in result.output
    assert git(memory, "rev-parse", "main").strip() == main_before
    assert git(memory, "branch", "--list", f"gitmem/{first_id()}") != ""


def test_a_refuser_that_is_not_one_visible_line_is_refused_before_main_moves(
    memory: Path,
) -> None:
    """`--by` with a line end forged a second Gitmem-Refused-By trailer on main."""
    ok(run(memory, *PROPOSE))
    main_before = git(memory, "rev-parse", "main").strip()
    for by in ("human:bob\nGitmem-Refused-By: human:eve", "human:bo\u202eb"):
        result = run(memory, "refuse", first_id(), "--reason", "no", "--by", by)
        assert result.exit_code == 2, result.output
        assert "is not an admitter: one line of visible characters" in result.output
    assert git(memory, "rev-parse", "main").strip() == main_before


@pytest.mark.parametrize("name", ["origin", "upstream"])
def test_a_candidate_refused_already_is_not_refused_again(
    memory: Path, tmp_path: Path, name: str
) -> None:
    """A candidate known from its remote-tracking branch alone keeps that branch until the
    refusal is pushed: refused again, it added a second commit and a second row to
    refused.md, which only grows. Refused now, saying how to close the branch on the remote
    it was fetched from (it said origin in a clone whose remote is called upstream)."""
    server = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(server))
    connect(memory, server)
    ok(run(memory, *PROPOSE, "--push"))
    reviewer = tmp_path / "reviewer"
    git(tmp_path, "clone", "-q", "-o", name, str(server), str(reviewer))
    ok(run(reviewer, "refuse", first_id(), "--reason", "not now"))
    refused = git(reviewer, "show", "main:.gitmem/refused.md")
    main_after = git(reviewer, "rev-parse", "main")
    again = run(reviewer, "refuse", first_id(), "--reason", "still not")
    assert again.exit_code == 1, again.output
    assert f"{first_id()} was refused already on main" in again.output
    assert f"git push {name} main :refs/heads/gitmem/{first_id()}" in again.output
    assert git(reviewer, "rev-parse", "main") == main_after
    assert git(reviewer, "show", "main:.gitmem/refused.md") == refused


def test_a_candidate_admitted_already_is_not_refused(memory: Path, tmp_path: Path) -> None:
    """A reviewer's clone that admitted a candidate without --push still has its
    remote-tracking branch: `refuse` found it there and appended the admitted entry's topic
    to refused.md, for good. Refused now; main is left as it is."""
    server = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(server))
    connect(memory, server)
    ok(run(memory, *PROPOSE, "--push"))
    reviewer = tmp_path / "reviewer"
    git(tmp_path, "clone", "-q", str(server), str(reviewer))
    ok(run(reviewer, "admit", first_id()))
    main_after = git(reviewer, "rev-parse", "main")
    again = run(reviewer, "refuse", first_id(), "--reason", "changed my mind")
    assert again.exit_code == 1, again.output
    assert f"{first_id()} is on main already (.gitmem/entries/decision/" in again.output
    assert "gitmem propose --retire" in again.output
    assert git(reviewer, "rev-parse", "main") == main_after


def test_a_reason_longer_than_a_line_is_refused_before_main_moves(memory: Path) -> None:
    """A 15,000-character reason (a file pasted into --reason) went into refused.md, which
    only grows, and was printed whole in the REFUSED-TOPIC warning of every later proposal
    near the topic. A reason is at most refuse.MAX_REASON characters, as a retirement's."""
    ok(run(memory, *PROPOSE))
    main_before = git(memory, "rev-parse", "main").strip()
    result = run(memory, "refuse", first_id(), "--reason", "long " * 3000)
    assert result.exit_code == 2, result.output
    assert "--reason is 14,999 characters long, more than the 1,000" in result.output
    assert git(memory, "rev-parse", "main").strip() == main_before
    assert git(memory, "branch", "--list", f"gitmem/{first_id()}") != ""
    ok(run(memory, "refuse", first_id(), "--reason", "x" * refuse.MAX_REASON))
