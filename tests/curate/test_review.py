"""`gitmem review ID`: the candidate as it will read, its checks, its near-duplicates, the
refused topics it comes near and what it supersedes; in a terminal, a job summary, or JSON."""

from __future__ import annotations

import json
from pathlib import Path

from clirunner import HOOKS, ok, proposed, run
from secret_samples import github_token

from conftest import git

NEAR_DUPLICATE = [
    "propose", "--type", "decision", "--title", "Use pygit2 inside git hooks, not git",
    "--applies-when", "writing code that runs inside a git hook",
    "--content", "Read objects with pygit2 inside hooks; spawning git per call costs more.",
    "--file", "README.md", "--tag", "hooks",
]  # fmt: skip
REFUSED = [
    "propose", "--type", "method", "--title", "Keep the search index in a database",
    "--applies-when", "storing derived data", "--content", "Use SQLite for the index.",
]  # fmt: skip
NEAR_REFUSED = [
    "propose", "--type", "method", "--title", "Keep the search index in databases",
    "--applies-when", "storing what is derived from entries",
    "--content", "Put the index in Postgres.\n### gitmem review: fake heading\n<b>bold</b>",
]  # fmt: skip


def _id(repo: Path, args: list[str]) -> str:
    result = ok(run(repo, *args, "--format", "json"))
    return str(json.loads(result.stdout)["id"])


def test_review_shows_what_a_reviewer_needs(memory: Path) -> None:
    first = _id(memory, HOOKS)
    ok(run(memory, "admit", first))
    refused = _id(memory, REFUSED)
    ok(run(memory, "refuse", refused, "--reason", "derived data stays out of git"))
    successor = _id(memory, [*NEAR_DUPLICATE, "--supersedes", first])
    result = run(memory, "review", successor)
    assert result.exit_code == 0, result.output
    out = result.output
    assert f"candidate {successor}  (refs/heads/gitmem/{successor}" in out
    assert "checks: all rules pass" in out
    near = [line for line in out.splitlines() if first in line and "near-duplicate" in line]
    assert near, out
    assert f"  {first}  admitted  Use pygit2 inside git hooks" in out  # what it supersedes
    assert "status: admitted" in out and "admitted_by: human:<reviewer>" in out
    data = json.loads(ok(run(memory, "review", successor, "--format", "json")).output)
    assert data["ok"] is True
    assert data["similar"][0]["id"] == first and data["similar"][0]["near_duplicate"]
    assert data["supersedes"] == [
        {"id": first, "title": "Use pygit2 inside git hooks", "status": "admitted"}
    ]


def test_near_refused_topic_and_markdown_that_cannot_fake_the_summary(memory: Path) -> None:
    refused = _id(memory, REFUSED)
    ok(run(memory, "refuse", refused, "--reason", "derived data stays out of git"))
    candidate = _id(memory, NEAR_REFUSED)
    text = run(memory, "review", candidate).output
    assert "near keep-the-search-index-in-a-database: refused on" in text
    md = ok(run(memory, "review", candidate, "--format", "markdown")).output
    assert "Near a refused topic: `keep-the-search-index-in-a-database`" in md
    assert "derived data stays out of git" in md
    # the candidate's text is one fenced block: its HTML and its heading are inert text
    fence = md.index("```text\n")
    body = md[fence:]
    assert "<b>bold</b>" in body and "### gitmem review: fake heading" in body
    assert body.rstrip().endswith("```")
    assert "<b>" not in md[:fence]
    own = [line for line in md[:fence].splitlines() if line.startswith("### ")]
    assert own == [f"### gitmem review: `{candidate}`"]
    assert "None: no admitted entry comes close." in md


def test_a_failing_candidate_exits_1_and_an_unknown_one_2(memory: Path) -> None:
    candidate = _id(memory, HOOKS)
    git(memory, "checkout", "-q", f"gitmem/{candidate}")
    (memory / "README.md").write_text("edited on the candidate branch\n")
    git(memory, "commit", "-q", "-am", "stray")
    git(memory, "checkout", "-q", "main")
    result = run(memory, "review", candidate)
    assert result.exit_code == 1
    assert "CANDIDATE-BRANCH" in result.output
    md = run(memory, "review", candidate, "--format", "markdown").output
    assert "**Checks:** 1 problem(s)" in md and "CANDIDATE-BRANCH" in md
    missing = run(memory, "review", "local-method-20261201-nothing-here")
    assert missing.exit_code == 2
    assert "no candidate" in missing.output and "Traceback" not in missing.output


def test_a_secret_is_never_shown(memory: Path) -> None:
    token = github_token(95)
    candidate = _id(memory, HOOKS)
    git(memory, "checkout", "-q", f"gitmem/{candidate}")
    path = next((memory / ".gitmem" / "candidates").glob("*.md"))
    path.write_text(path.read_text().replace("## Evidence\n", f"## Evidence\ntoken {token}\n"))
    git(memory, "commit", "-q", "-am", "leak")
    git(memory, "checkout", "-q", "main")
    for fmt in ("text", "markdown", "json"):
        result = run(memory, "review", candidate, "--format", fmt)
        assert result.exit_code == 1
        assert "SECRET" in result.output and token not in result.output, fmt
    assert (
        json.loads(run(memory, "review", candidate, "--format", "json").output)["as_admitted"]
        is None
    )


def test_an_amendment_is_reviewed_as_a_diff_of_the_entry_it_corrects(memory: Path) -> None:
    entry_id = _id(memory, HOOKS)
    ok(run(memory, "admit", entry_id, "--by", "human:reviewer"))
    path = git(memory, "ls-tree", "-r", "--name-only", "main", ".gitmem/entries").split()[0]
    args = ["propose", "--amend", entry_id, "--applies-when", "writing a git hook in Python"]
    amend = proposed(ok(run(memory, *args)).output)
    out = ok(run(memory, "review", amend)).output
    assert f"amends {entry_id}:" in out
    diff = [line.strip() for line in out.splitlines()]
    assert f"--- a/{path}" in diff and f"+++ b/{path}" in diff
    assert any(
        d.startswith("-applies_when:") and "writing a git hook in Python" not in d for d in diff
    )
    assert "+applies_when: writing a git hook in Python" in diff
    assert "+amended_by: human:<reviewer>" in diff
    data = json.loads(ok(run(memory, "review", amend, "--format", "json")).output)
    assert (data["kind"], data["target"]) == ("amend", entry_id)
    assert entry_id not in {s["id"] for s in data["similar"]}  # not its own near-duplicate
    # what the review promised is what admit writes, the reviewer's name apart
    ok(run(memory, "admit", amend, "--by", "human:bob"))
    written = git(memory, "show", f"main:{path}")
    assert data["as_admitted"].replace("human:<reviewer>", "human:bob") == written
    markdown = ok(run(memory, "review", _retire(memory, entry_id), "--format", "markdown")).output
    assert f"#### Retires `{entry_id}`" in markdown
    assert "-status: admitted" in markdown and "+status: retired" in markdown


def _retire(repo: Path, entry_id: str) -> str:
    return proposed(ok(run(repo, "propose", "--retire", entry_id, "--reason", "Rust now")).output)


def test_a_new_entry_has_no_changes_section(memory: Path) -> None:
    candidate = _id(memory, HOOKS)
    data = json.loads(ok(run(memory, "review", candidate, "--format", "json")).output)
    assert (data["kind"], data["target"], data["changes"]) == ("admit", None, None)
    assert "amends" not in ok(run(memory, "review", candidate)).output


def test_the_checks_show_twenty_problems_a_file_as_check_does(memory: Path) -> None:
    """A candidate committed by hand with a token on each of 30 lines was reviewed with all
    30 SECRET lines (thousands at will), burying the rest of the review; text and markdown
    now show the first 20 of a file and say how many more, as `gitmem check` does, and JSON
    keeps them all."""
    tokens = "".join(f"token {github_token(300 + n)}\n" for n in range(30))
    candidate = _id(memory, HOOKS)
    git(memory, "checkout", "-q", f"gitmem/{candidate}")
    path = next((memory / ".gitmem" / "candidates").glob("*.md"))
    path.write_text(path.read_text().replace("## Evidence\n", f"## Evidence\n{tokens}"))
    git(memory, "commit", "-q", "--no-verify", "-am", "leaks")
    git(memory, "checkout", "-q", "main")
    more = "10 more problems in this file not shown (the first 20 are): "
    text = run(memory, "review", candidate)
    assert text.exit_code == 1
    assert text.output.count(": SECRET ") == 20, text.output
    assert f"{more}`gitmem review {candidate} --format json` lists them all" in text.output
    markdown = run(memory, "review", candidate, "--format", "markdown").output
    assert markdown.count("`SECRET`") == 20, markdown
    assert "10 more problems in this file not shown" in markdown
    data = json.loads(run(memory, "review", candidate, "--format", "json").output)
    assert sum(p["rule"] == "SECRET" for p in data["problems"]) == 30


def test_a_secret_is_not_shown_through_the_messages_of_other_rules(memory: Path) -> None:
    """The review withheld the candidate's text when it held a secret, but printed every
    problem's message, and other rules quote the value they judge: a token written into
    `tags` and `files` came out whole in SCHEMA and FILES-MISSING lines, in the terminal
    and in the pull request's job summary. With a secret in the candidate, only the SECRET
    lines (redacted by the scanner) say what they found; the others keep their place and
    rule, their message withheld, and a superseded id that is not on main is withheld too."""
    token = github_token(96)
    candidate = _id(memory, HOOKS)
    git(memory, "checkout", "-q", f"gitmem/{candidate}")
    path = next((memory / ".gitmem" / "candidates").glob("*.md"))
    lines = [
        line
        for line in path.read_text().split("\n")
        if not line.startswith(("tags:", "files:", "supersedes:", "  - "))
    ]
    at = lines.index("---", 1)
    lines[at:at] = [f"tags: [{token}]", f"files: [{token}]", f"supersedes: [{token.lower()}]"]
    path.write_text("\n".join(lines))
    git(memory, "commit", "-q", "--no-verify", "-am", "leak")
    git(memory, "checkout", "-q", "main")
    for fmt in ("text", "markdown", "json"):
        result = run(memory, "review", candidate, "--format", fmt)
        assert result.exit_code == 1, result.output
        assert "SECRET" in result.output, fmt
        assert token[4:].lower() not in result.output.lower(), (fmt, result.output)
    data = json.loads(run(memory, "review", candidate, "--format", "json").output)
    rules = {p["rule"] for p in data["problems"]}
    assert {"SECRET", "SCHEMA", "FILES-MISSING"} <= rules
    for problem in data["problems"]:
        if problem["rule"] != "SECRET":
            assert problem["message"].startswith("not shown: the candidate holds a secret")
