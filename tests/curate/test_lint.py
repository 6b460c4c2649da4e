"""`gitmem lint` on a store built with real admissions, then damaged on purpose."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from clirunner import ok, run
from secret_samples import github_token

from gitmem.curate import lint
from gitmem.model.entry import Entry

from conftest import git

DAY = "2026-11-29"


def propose_admit(repo: Path, *args: str) -> str:
    out = ok(run(repo, "propose", *args)).output
    entry_id = out.split("proposed ")[1].split()[0]
    ok(run(repo, "admit", entry_id, "--by", "human:alice"))
    return entry_id


def plant(repo: Path, slug: str, title: str, content: str, **meta: Any) -> str:
    """Write an entry file straight onto main's working tree (as a careless hand would)."""
    type_ = meta.pop("type", "method")
    entry_id = meta.pop("id", f"local-{type_}-{DAY.replace('-', '')}-{slug}")
    fields = {
        "id": entry_id,
        "type": type_,
        "status": "admitted",
        "title": title,
        "applies_when": meta.pop("applies_when", "working on the store"),
        "source": "human:bob",
        "admitted_by": "human:alice",
        "created": DAY,
        "admitted": DAY,
        **meta,
    }
    if fields.get("superseded_by"):
        fields["status"] = "superseded"
    entry = Entry(fields, "Why.", content, "A commit.")
    path = repo / ".gitmem" / "entries" / type_ / f"{entry_id}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(entry.render())
    return entry_id


@pytest.fixture
def store(memory: Path) -> Path:
    (memory / "src").mkdir()
    (memory / "src" / "old.py").write_text("print('old')\n")
    git(memory, "add", "src/old.py")
    git(memory, "commit", "-q", "-m", "add src/old.py")
    propose_admit(
        memory,
        "--type", "method", "--title", "Use pygit2 inside hooks",
        "--applies-when", "writing code that runs inside a git hook",
        "--content", "Read objects with pygit2; run `today()` only in tests.",
        "--file", "src/old.py",
    )  # fmt: skip
    old = propose_admit(
        memory,
        "--type", "decision", "--title", "Keep INDEX.md generated",
        "--applies-when", "changing INDEX.md", "--content", "Never edit it.",
    )  # fmt: skip
    propose_admit(
        memory,
        "--type", "decision", "--title", "Regenerate INDEX.md on merge conflicts",
        "--applies-when", "a merge conflicts on INDEX.md",
        "--content", "Run gitmem index; never merge it as text.",
        "--supersedes", old,
    )  # fmt: skip
    return memory


def test_a_healthy_store_passes(store: Path) -> None:
    result = ok(run(store, "lint"))
    assert result.output.strip() == "gitmem lint: 3 files checked, no problems"


def test_planted_damage_is_reported_with_lines(store: Path) -> None:
    date = git(store, "log", "-1", "--format=%cs").strip().replace("-", "")
    pygit2_id = f"local-method-{date}-use-pygit2-inside-hooks"
    git(store, "rm", "-q", "src/old.py")  # a dead path
    plant(
        store,
        "supersedes-a-ghost",
        "Supersedes a ghost",
        "x",
        supersedes=["local-method-20260101-ghost"],
    )
    plant(
        store,
        "points-at-a-ghost",
        "Points at a ghost",
        "x",
        superseded_by="local-method-20260101-gone",
    )
    plant(store, "one-sided", "One sided", "x", supersedes=[pygit2_id])
    plant(store, "old-title", "A new title", "x")
    plant(
        store,
        "grew-a-log",
        "Grew a log",
        "Use the cache.\n\n- 2026-10-01: cache added\n- 2026-10-09: cache size doubled\n"
        "- Update: the cache is keyed by tree\n- Nov 3: cache moved to the git dir",
        type="code-structure",
    )
    plant(
        store,
        "relative-dates",
        "Relative dates",
        "We found this yesterday.\n\n```\nrecently = True  # code, not prose\n```",
        applies_when="since last week",
        supersedes=["local-method-20261129-superseded-history"],
    )
    plant(
        store,
        "superseded-history",
        "Superseded history",
        "Written yesterday, and that is fine in history.",
        superseded_by="local-method-20261129-relative-dates",
    )
    ok(run(store, "index"))
    index = store / ".gitmem" / "INDEX.md"
    text = index.read_text()
    text = text.replace("Use pygit2 inside hooks", "Use pygit2 in hooks")
    text = "\n".join(line for line in text.split("\n") if "one-sided" not in line)
    index.write_text(
        text
        + "- [local-method-20260101-x](entries/method/local-method-20260101-x.md) admitted — X\n"
    )
    git(store, "add", "-A")
    git(store, "commit", "-q", "-m", "careless hand edits")

    result = run(store, "lint")
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    rules = sorted(
        {
            line.split(": ", 1)[1].split()[0]
            for line in lines
            if ": " in line and not line.startswith("gitmem")
        }
    )
    assert rules == [
        "CHANGELOG-BODY",
        "FILES-DEAD",
        "ID-TITLE",
        "INDEX-DRIFT",
        "LINEAGE-BROKEN",
        "LINEAGE-ONE-SIDED",
        "RELATIVE-DATE",
    ]
    out = result.output
    e = ".gitmem/entries"
    assert f"{e}/method/{pygit2_id}.md:11: FILES-DEAD files: 'src/old.py' no longer exists" in out
    assert (
        "supersedes-a-ghost.md:11: LINEAGE-BROKEN supersedes 'local-method-20260101-ghost'" in out
    )
    assert (
        "points-at-a-ghost.md:11: LINEAGE-BROKEN superseded_by 'local-method-20260101-gone'" in out
    )
    assert f"one-sided.md:11: LINEAGE-ONE-SIDED supersedes {pygit2_id}, but" in out
    assert (
        "old-title.md:2: ID-TITLE id 'local-method-20261129-old-title' ends in 'old-title'" in out
    )
    assert "grew-a-log.md:19: CHANGELOG-BODY 4 dated or 'update:' lines" in out
    assert "relative-dates.md:6: RELATIVE-DATE 'last week'" in out
    assert "relative-dates.md:18: RELATIVE-DATE 'yesterday'" in out
    assert "'recently'" not in out and "'today'" not in out
    assert "superseded-history" not in out
    assert f"INDEX.md:17: INDEX-DRIFT the line for {pygit2_id} reads" in out
    assert "does not list local-method-20261129-one-sided" in out
    assert "lists local-method-20260101-x, which has no entry file" in out
    assert lines[-1].startswith("gitmem lint: ") and "problems in" in lines[-1]


def test_ids_of_titles_beyond_ascii_made_either_way_pass_id_title(store: Path) -> None:
    """An id made for a Japanese title ends in a digest of its topic (entry.id_slug); one made
    before that ends in -entry. Both are the title's id; a digest of another title is not."""
    proposed = propose_admit(
        store, "--type", "method", "--title", "フックではリポジトリを一度だけ開く",
        "--applies-when", "a hook opens the repository", "--content", "Once per hook.",
    )  # fmt: skip
    assert "-entry-" in proposed
    plant(store, "entry", "データベースの選択", "x")  # made before the digest
    plant(store, "entry-2", "ログの保存期間", "x")
    plant(store, "entry-0badc0de", "ログの保存期間を決める", "x")
    git(store, "add", "-A")
    git(store, "commit", "-q", "-m", "planted")
    out = run(store, "lint").output
    assert out.count("ID-TITLE") == 1, out
    assert "entry-0badc0de.md:2: ID-TITLE" in out, out


def test_lineage_that_agrees_on_both_sides_passes_and_cycles_are_caught(store: Path) -> None:
    plant(
        store,
        "loop-a",
        "Loop a",
        "x",
        superseded_by="local-method-20261129-loop-b",
        supersedes=["local-method-20261129-loop-b"],
    )
    plant(
        store,
        "loop-b",
        "Loop b",
        "x",
        superseded_by="local-method-20261129-loop-a",
        supersedes=["local-method-20261129-loop-a"],
    )
    ok(run(store, "index"))
    git(store, "add", "-A")
    git(store, "commit", "-q", "-m", "a forged cycle")
    result = run(store, "lint", "--format", "json")
    assert result.exit_code == 1
    problems = json.loads(result.output)["problems"]
    assert {p["rule"] for p in problems} == {"LINEAGE-CYCLE"}


def test_missing_index_and_github_format(store: Path) -> None:
    git(store, "rm", "-q", ".gitmem/INDEX.md")
    git(store, "commit", "-q", "-m", "drop the index")
    result = run(store, "lint", "--format", "github")
    assert result.exit_code == 1
    assert (
        "::error file=.gitmem/INDEX.md,title=gitmem INDEX-DRIFT::INDEX.md is missing"
        in result.output
    )


def test_rev_option_lints_an_older_commit(store: Path) -> None:
    git(store, "rm", "-q", "src/old.py")
    git(store, "commit", "-q", "-m", "drop old.py")
    assert run(store, "lint").exit_code == 1
    ok(run(store, "lint", "--rev", "HEAD~1"))
    assert run(store, "lint", "--rev", "nope").exit_code == 2


@pytest.mark.parametrize("rev", ["", "x" * 100_000])
def test_an_empty_or_huge_rev_is_refused_briefly(store: Path, rev: str) -> None:
    """An empty --rev names no commit, as in git: it was taken for no --rev and linted main
    (exit 0 here, where main's tip is healthy). A huge one is quoted briefly."""
    result = run(store, "lint", "--rev", rev)
    assert result.exit_code == 2, result.output
    assert result.output.startswith("gitmem: --rev '") and "is not a commit here" in result.output
    assert len(result.output) < 300


@pytest.mark.parametrize(
    ("line", "log"),
    [
        ("- 2026-11-29: cache added", True),
        ("* **Nov 3**: moved", True),
        ("3. 29.11.2026 fixed", True),
        ("Updated on 2026-01-02: clarified", True),
        ("EDIT 2: removed the flag", True),
        ("- Use `update:` in the commit message", False),
        ("The cache is keyed by tree.", False),
        ("- 2026 was the year of the rewrite", False),
    ],
)
def test_change_log_line_heuristic(line: str, log: bool) -> None:
    assert bool(lint._LOG_LINE.match(lint._INLINE_CODE.sub(" ", line))) is log


@pytest.mark.parametrize(
    ("text", "relative"),
    [
        ("we fixed it yesterday", True),
        ("Since last week the hook is slow", True),
        ("recently added", True),
        ("3 days ago", True),
        ("a few weeks ago", True),
        ("earlier this month", True),
        ("next sprint", True),
        ("the last release of pygit2", False),
        ("run the next step", False),
        ("in 2026-11", False),
    ],
)
def test_relative_date_words(text: str, relative: bool) -> None:
    assert bool(lint._RELATIVE.search(text)) is relative


def test_ids_that_disagree_with_their_file_are_reported(store: Path) -> None:
    entry_id = plant(store, "misplaced", "Misplaced", "x")
    folder = store / ".gitmem" / "entries"
    (folder / "method" / f"{entry_id}.md").rename(
        folder / "method" / "local-method-20261129-other.md"
    )
    plant(store, "wrong-folder", "Wrong folder", "x", type="decision")
    (folder / "decision").rename(folder / "mistaken")
    ok(run(store, "index"))
    git(store, "add", "-A")
    git(store, "commit", "-q", "-m", "misplaced files")
    out = run(store, "lint").output
    assert "local-method-20261129-other.md:2: ID-PATH id 'local-method-20261129-misplaced'" in out
    assert "ID-PATH type 'decision' disagrees with the folder entries/mistaken/" in out


def test_type_misfits_are_reported(store: Path) -> None:
    plant(
        store, "imported-decision", "Imported decision", "x", type="decision", source="import:a.md"
    )
    plant(store, "bare-mistake", "Bare mistake", "x", type="mistake")
    ok(run(store, "index"))
    git(store, "add", "-A")
    git(store, "commit", "-q", "-m", "misfits")
    result = run(store, "lint")
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if "SCHEMA" in line]
    assert any("imported-decision" in line and "source" in line for line in lines), lines
    assert any("bare-mistake" in line and "correction" in line for line in lines), lines


@pytest.mark.parametrize(
    "command",
    [
        ["lint"],
        ["hygiene"],
        ["hygiene", "--propose"],
        ["harvest", "audit.md", "--dry-run"],
        ["import", "claude", "--dry-run"],
        ["list"],
        ["recall", "hooks"],
    ],
)
@pytest.mark.parametrize("detached", [False, True])
def test_a_memory_branch_missing_here_is_named_not_read_as_an_empty_memory(
    memory: Path, tmp_path: Path, command: list[str], detached: bool
) -> None:
    """In a clone with another branch checked out and the memory branch only on origin (a CI
    checkout), lint said '0 files checked, no problems' and exited 0, and hygiene reported no
    entries, as if the memory were empty: a lint job passed on a memory it never read.
    `gitmem list` and recall already name the missing branch and how to create it. A
    detached checkout with no local branch at all (a pull request's checkout in CI) was still
    taken for a repository without memory, by `list` and recall too."""
    propose_admit(
        memory, "--type", "method", "--title", "Use pygit2 inside hooks",
        "--applies-when", "writing hooks", "--content", "Read with pygit2.",
    )  # fmt: skip
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(memory), str(clone))
    git(clone, "checkout", "-q", "--detach" if detached else "-b", *([] if detached else ["work"]))
    git(clone, "branch", "-q", "-D", "main")
    (clone / "audit.md").write_text("## Verdict — VALID\n")
    result = run(clone, *command)
    assert result.exit_code == 2, result.output
    assert "the memory branch main does not exist here" in result.output
    assert "git branch main origin/main" in result.output


def test_an_entry_with_crlf_line_ends_or_a_bom_is_linted_as_its_lf_twin(store: Path) -> None:
    """The parser and `gitmem check` accept an entry written with CRLF line ends or a
    byte-order mark, but lint read its raw text: no `## Context` heading matched before the
    `\\r`, so a body grown into a change log passed, and behind a BOM the front matter was
    read as prose, each relative date in it reported twice. It now reads the text the
    parser reads, and the three spellings of one entry get the same problems."""
    log = "Use the cache.\n\n- 2026-10-01: cache added\n- 2026-10-09: size doubled\n- Nov 3: moved"
    for slug in ("log-lf", "log-crlf", "log-bom"):
        plant(store, slug, f"Log {slug.split('-')[1]}", log, applies_when="since last week")
    folder = store / ".gitmem" / "entries" / "method"
    crlf = folder / f"local-method-{DAY.replace('-', '')}-log-crlf.md"
    crlf.write_bytes(crlf.read_bytes().replace(b"\n", b"\r\n"))
    bom = folder / f"local-method-{DAY.replace('-', '')}-log-bom.md"
    bom.write_bytes(b"\xef\xbb\xbf" + bom.read_bytes().replace(b"\n", b"\r\n"))
    ok(run(store, "index"))
    git(store, "add", "-A")
    git(store, "commit", "-q", "-m", "entries written on another system")
    ok(run(store, "check", str(crlf.relative_to(store)), str(bom.relative_to(store))))

    result = run(store, "lint", "--format", "json")
    found: dict[str, list[tuple[int | None, str]]] = {}
    for problem in json.loads(result.output)["problems"]:
        slug = problem["path"].rsplit("-log-", 1)[-1].removesuffix(".md")
        if "-log-" in problem["path"]:
            found.setdefault(slug, []).append((problem["line"], problem["rule"]))
    assert sorted(found["lf"]) == [(6, "RELATIVE-DATE"), (19, "CHANGELOG-BODY")]
    assert sorted(found["crlf"]) == sorted(found["lf"])
    assert sorted(found["bom"]) == sorted(found["lf"])


def test_a_stray_file_under_entries_is_layout_as_check_says_not_an_entry(store: Path) -> None:
    """A copy of an entry left under entries/ by a merge tool or an editor (`….md.orig`,
    `entries/copy.md`) is LAYOUT to `gitmem check`, but lint read it as an entry: no LAYOUT,
    its body linted, and the real entry blamed as ID-DUPLICATE of the copy (sorted first).
    lint now reports what check reports for it and reads no entry from it."""
    date = git(store, "log", "-1", "--format=%cs").strip().replace("-", "")
    real = (
        store / ".gitmem" / "entries" / "method" / f"local-method-{date}-use-pygit2-inside-hooks.md"
    )
    strays = [real.parent / "a-backup.md.orig", real.parent.parent / "copy.md"]
    for stray in strays:
        stray.write_bytes(real.read_bytes())
    git(store, "add", "-A")
    git(store, "commit", "-q", "-m", "a merge tool's leftovers")
    paths = [str(p.relative_to(store)) for p in strays]
    checked = json.loads(run(store, "check", *paths, "--format", "json").output)["problems"]
    assert sorted((p["path"], p["rule"]) for p in checked) == sorted(
        (path, "LAYOUT") for path in paths
    )
    linted = json.loads(run(store, "lint", "--format", "json").output)["problems"]
    assert sorted((p["path"], p["rule"]) for p in linted) == sorted(
        (path, "LAYOUT") for path in paths
    )


def test_a_secret_in_an_admitted_entry_is_not_quoted_by_other_rules(store: Path) -> None:
    """lint reports a token committed into an admitted entry as SECRET, redacted, and then
    printed it whole in the same run: the CONTRADICTION warning quotes the clauses that
    disagree, and the other rules quote the values they judge (a cited path, a title in
    INDEX.md). An entry holding a secret is not judged for contradictions, its other
    problems keep their place and rule with the message withheld, and any other message
    that holds a secret is withheld too."""
    token = github_token(97)
    plant(store, "run-git", "Run subprocess git inside hooks", "Run subprocess git in hooks.")
    leaked = plant(
        store,
        "keep-fast",
        "Keep hooks fast",
        f"Never run subprocess git in hooks with {token}.",
        files=[f"src/{token}.py"],
    )
    ok(run(store, "index"))
    index = store / ".gitmem" / "INDEX.md"
    index.write_text(index.read_text().replace("Keep hooks fast", f"Keep hooks fast {token}"))
    git(store, "add", "-A")
    git(store, "commit", "-q", "--no-verify", "-m", "committed past the gate")
    for fmt in ("text", "json", "github", "sarif"):
        result = run(store, "lint", "--format", fmt)
        assert result.exit_code == 1, result.output
        assert "SECRET" in result.output, fmt
        assert token[4:].lower() not in result.output.lower(), (fmt, result.output)
    problems = json.loads(run(store, "lint", "--format", "json").output)["problems"]
    assert "CONTRADICTION" not in {p["rule"] for p in problems}
    rules = {p["rule"] for p in problems if p["path"].endswith(f"{leaked}.md")}
    assert {"SECRET", "FILES-DEAD"} <= rules
    for problem in problems:
        if problem["rule"] != "SECRET" and (
            problem["path"].endswith(f"{leaked}.md") or problem["path"].endswith("INDEX.md")
        ):
            assert problem["message"].startswith("not shown: "), problem


def test_a_finding_a_reviewer_allowed_is_quoted_as_any_other_text(store: Path) -> None:
    """A finding allowed by fingerprint in allowed.md is no SECRET to the file rules, so lint
    does not withhold the messages that quote it either: the CONTRADICTION warning shows
    its clauses."""
    from gitmem.gate import secrets
    from gitmem.model import allowed

    token = github_token(101)
    plant(store, "run-git", "Run subprocess git inside hooks", "Run subprocess git in hooks.")
    example = plant(
        store, "keep-fast", "Keep hooks fast", f"Never run subprocess git in hooks as {token}."
    )
    row = allowed.Allowance(
        secrets.fingerprint("github-pat", token.encode()), example, "human:bob", "2026-12-01", "x"
    )
    (store / ".gitmem" / allowed.NAME).write_text(allowed.append(None, [row]))
    ok(run(store, "index"))
    git(store, "add", "-A")
    git(store, "commit", "-q", "--no-verify", "-m", "an allowed example token")
    problems = json.loads(run(store, "lint", "--format", "json").output)["problems"]
    [clash] = [p for p in problems if p["rule"] == "CONTRADICTION"]
    assert token in clash["message"]
    assert not any(p["message"].startswith("not shown: ") for p in problems)
