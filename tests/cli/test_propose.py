"""`gitmem propose`: its options are the proposal's fields, and flags win over a draft."""

from __future__ import annotations

from pathlib import Path

from clirunner import ok, run

from gitmem.cli.propose import MAX_DRAFT
from gitmem.model.proposal import specs

from conftest import git
from entries import text


def test_every_proposal_field_is_an_option(memory: Path) -> None:
    helped = ok(run(memory, "propose", "--help")).output
    for spec in specs():
        assert f"{spec.option} " in helped, spec.option


def test_flags_win_over_a_draft_and_unknown_draft_fields_are_refused(
    memory: Path, tmp_path: Path
) -> None:
    draft = tmp_path / "draft.md"
    draft.write_text(text())
    result = ok(run(memory, "propose", "--from", str(draft), "--title", "Flags win over drafts"))
    new_id = result.output.split()[1]
    assert new_id.endswith("-flags-win-over-drafts")
    committed = git(memory, "show", f"gitmem/{new_id}:.gitmem/candidates/{new_id}.md")
    assert "title: Flags win over drafts\n" in committed
    assert "Install them with `gitmem hooks install`." in committed  # the draft's content
    draft.write_text(text(colour="blue"))
    refused = run(memory, "propose", "--from", str(draft))
    assert refused.exit_code == 1 and "SCHEMA" in refused.output and "colour" in refused.output


def test_a_draft_file_is_judged_as_check_judges_it_and_named(memory: Path, tmp_path: Path) -> None:
    """`propose --from` a draft that is not UTF-8 said "cannot read …: 'utf-8' codec can't
    decode byte 0xff in position …" (exit 2), one with a NUL byte in its first line "has no
    front matter", and neither named the file's line nor said what to do: each is now the
    line `gitmem check` prints for that file, exit 1; a BOM and CRLF are still accepted."""
    good = text().encode("utf-8")
    draft = tmp_path / "draft.md"
    for data, line in (
        (good.replace(b"## Content\n", b"## Content\n\xff\n"), "ENCODING"),
        (b"---\x00\n" + good[4:], "BINARY"),
        (good.decode("utf-8").encode("utf-16"), "ENCODING"),  # a Windows editor's "Unicode"
    ):
        draft.write_bytes(data)
        checked = run(memory, "check", str(draft))
        proposed = run(memory, "propose", "--from", str(draft))
        assert checked.exit_code == proposed.exit_code == 1, proposed.output
        said = checked.output.splitlines()[0]
        assert said.startswith(f"{draft}") and f" {line} " in said, said
        assert proposed.output == f"gitmem: {said}\n"
    draft.write_bytes(b"\xef\xbb\xbf" + good.replace(b"\n", b"\r\n"))
    ok(run(memory, "propose", "--from", str(draft)))


def test_an_empty_id_or_file_is_refused_not_taken_for_no_option(memory: Path) -> None:
    """`--amend "$ID"` with ID unset passes an empty string, which was taken for no option at
    all: a full set of fields then proposed a brand-new entry instead of the amendment asked
    for, and `--retire ""` answered that --reason goes with --retire. Each now names the
    option and says it needs a value (exit 2), and nothing is proposed."""
    fields = [
        "--type", "decision", "--title", "A new entry nobody asked for",
        "--applies-when", "an id variable is empty", "--content", "Nothing.",
    ]  # fmt: skip
    for option, extra in (
        ("--amend", fields),
        ("--edit", fields),
        ("--from", fields),
        ("--retire", ["--reason", "a duplicate"]),
    ):
        result = run(memory, "propose", option, "", *extra)
        assert result.exit_code == 2, (option, result.output)
        assert f"{option} needs " in result.output, (option, result.output)
    assert git(memory, "for-each-ref", "refs/heads/gitmem/") == ""


def test_a_draft_file_over_the_limit_is_refused_whole_not_cut(memory: Path, tmp_path: Path) -> None:
    """--from read the first MAX_DRAFT characters of the file and proposed them as if they
    were all of it: a valid entry padded past the limit lost its last section silently. It is
    now a usage error naming the file, the limit and what to do, and nothing is written."""
    draft = tmp_path / "draft.md"
    start = text(body="## Context\nc\n\n## Content\nThe lesson.\n")
    late = "## Evidence\nThe rest of the draft, past the limit.\n"
    draft.write_text(start + "\n" * (MAX_DRAFT - len(start)) + late)
    before = git(memory, "for-each-ref"), git(memory, "status", "--porcelain", "--ignored")
    result = run(memory, "propose", "--from", str(draft))
    assert result.exit_code == 2, result.output
    assert f"{draft} is longer than {MAX_DRAFT:,} characters" in result.output
    assert "nothing proposed; shorten it" in result.output
    assert (git(memory, "for-each-ref"), git(memory, "status", "--porcelain", "--ignored")) == (
        before
    )
    assert not list(
        Path(memory, git(memory, "rev-parse", "--git-common-dir").strip()).glob("GITMEM*")
    )
    draft.write_text(start + "\n" * (MAX_DRAFT - len(start) - len(late)) + late)
    assert ok(run(memory, "propose", "--from", str(draft))).output.startswith("proposed ")


def test_an_empty_source_is_refused_not_taken_for_the_git_user(memory: Path) -> None:
    """`--source "$SOURCE"` with the variable unset was taken for no --source: an agent's
    proposal went in as `source: human:<git user.name>`, a person's, whose proposals may
    be of any type."""
    for source in ("", "  "):
        result = run(
            memory, "propose", "--type", "mistake", "--title", "An agent's lesson",
            "--applies-when", "a variable is unset", "--content", "Nothing.",
            "--source", source,
        )  # fmt: skip
        assert result.exit_code == 2, result.output
        assert f"--source names nobody, and was given {source!r}" in result.output
    assert git(memory, "for-each-ref", "refs/heads/gitmem/") == ""


def test_amend_and_retire_quote_a_huge_unknown_id_briefly(memory: Path) -> None:
    """An id of 10,000 characters was quoted whole in "no entry … on main"; like every other
    command, amend and retire now quote its start and its length."""
    huge = "a" * 10_000
    for args in (["--amend", huge, "--title", "A title"], ["--retire", huge, "--reason", "x"]):
        result = run(memory, "propose", *args)
        assert result.exit_code == 2, result.output
        assert "(10,000 characters)" in result.output and len(result.output) < 400


def test_a_push_or_pull_request_that_fails_still_says_the_candidate_was_proposed(
    memory: Path, tmp_path: Path
) -> None:
    """The candidate branch is written before it is pushed. When the push itself failed (an
    unreachable remote) or --pr found no remote, the command said only the failure, so the
    author took it for nothing proposed, and `--pr` even said to run `gitmem propose --pr`
    again, which proposes a second copy. Now it says what was proposed, why it was not
    pushed and the git push that sends it (exit 1, or 2 when there is no remote to push to:
    the usage to fix is adding one), as when the remote lacks main."""
    fields = ["--type", "decision", "--applies-when", "the remote is down", "--content", "x"]
    result = run(memory, "propose", "--title", "A pull request without a remote", *fields, "--pr")
    assert result.exit_code == 2, result.output
    branch = f"gitmem/{result.output.split()[1]}"
    assert result.output.startswith("proposed ") and f"branch   {branch}\n" in result.output
    assert "has no remote to push the candidate to: add one (git remote add origin URL)" in (
        result.output
    )
    assert f"git push origin {branch}" in result.output and "again" not in result.output

    git(memory, "remote", "add", "origin", str(tmp_path / "no-such-server.git"))
    # the remote-tracking main says origin has the base, so the push itself is what fails
    git(memory, "update-ref", "refs/remotes/origin/main", "main")
    result = run(memory, "propose", "--title", "A push to a remote that is gone", *fields, "--push")
    assert result.exit_code == 1, result.output
    branch = f"gitmem/{result.output.split()[1]}"
    assert result.output.startswith("proposed ")
    assert "git push to origin was refused" in result.output
    assert f"git push origin {branch}" in result.output
    assert git(memory, "rev-parse", "--verify", "-q", branch).strip()


def test_a_section_whose_code_fence_never_closes_is_named(memory: Path) -> None:
    """A field holding an opened code fence (a snippet cut short, an agent's truncated
    output) swallowed every section after it, and the refusal said "missing section
    '## Evidence'" to an author who had given --evidence. The refusal now names the field
    and the fence to close (exit 1, a rule)."""
    base = ["--type", "decision", "--title", "Unclosed fences", "--applies-when", "a snippet"]
    result = run(
        memory, "propose", *base, "--context", "```python\nprint(1)", "--content", "x",
        "--evidence", "measured",
    )  # fmt: skip
    assert result.exit_code == 1, result.output
    assert "--context opens a code fence (```) that it never closes" in result.output
    assert "missing section" not in result.output
    closed = ["--content", "```\n## Context\n```", "--evidence", "~~~~\nok\n~~~~~"]
    ok(run(memory, "propose", *base, *closed))


def test_a_refusal_shows_twenty_problems_a_file_as_check_does(memory: Path, tmp_path: Path) -> None:
    """A draft that breaks a rule once a line (30 tokens here, thousands at will) was refused
    with every problem on its own line; the refusal shows the first 20, as `gitmem check`
    does, and says how many more."""
    from secret_samples import github_token

    tokens = "\n".join(f"use {github_token(2000 + n)}" for n in range(30))
    draft = tmp_path / "draft.md"
    draft.write_text(text(body=f"## Context\nc\n## Content\n{tokens}\n## Evidence\ne\n"))
    refused = run(memory, "propose", "--from", str(draft))
    assert refused.exit_code == 1, refused.output
    assert refused.output.count(" SECRET ") == 20, refused.output
    assert "10 more problems in this file not shown" in refused.output


def test_options_that_start_a_text_exclude_each_other_but_a_draft_file(
    memory: Path, tmp_path: Path
) -> None:
    """--from FILE beside --amend ID or --edit OLD is that amendment's or successor's text
    (how a kept draft of one is proposed again); --amend, --edit and --retire each start a
    candidate of their own, and a retirement takes no text, so those pairs are refused."""
    draft = tmp_path / "draft.md"
    draft.write_text("---\ntype: decision\ntitle: T\napplies_when: w\n---\n\n## Content\nC.\n")
    for pair in (
        ["--amend", "a-b", "--edit", "a-b"],
        ["--retire", "a-b", "--from", str(draft), "--reason", "r"],
        ["--edit", "a-b", "--retire", "a-b", "--reason", "r"],
    ):
        result = run(memory, "propose", *pair)
        assert result.exit_code == 2 and "exclude each other" in result.output, result.output
    assert git(memory, "for-each-ref", "refs/heads/gitmem/") == ""
