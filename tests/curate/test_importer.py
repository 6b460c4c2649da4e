"""`gitmem import claude` on a realistic tree of Claude Code memory (tests/data/claude)."""

from __future__ import annotations

import json
import os
import random
import shutil
import string
from pathlib import Path

import pytest
from clirunner import ok, run

from gitmem.curate import importer
from gitmem.model.entry import parse

from conftest import git
from entries import text as entry_text

DATA = Path(__file__).parent.parent / "data" / "claude"


def fake_token() -> str:
    """A forge-token-shaped value built here, so no secret is ever stored in the test data."""
    rng = random.Random(6)
    return (
        "gh" + "p_" + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(36))
    )


@pytest.fixture
def claude(memory: Path) -> Path:
    """The memory repository with the fixture tree as its .claude/ folder, a secret planted in
    one agent's note, and one topic refused beforehand."""
    shutil.copytree(DATA / "project", memory / ".claude")
    secret_note = memory / ".claude" / "agent-memory" / "test-runner" / "MEMORY.md"
    with open(secret_note, "a", encoding="utf-8") as handle:
        handle.write(f"- Publish the docs site with the token {fake_token()} in the CI secrets.\n")
    refused = [
        "propose",
        "--type", "method",
        "--title", "Commit generated INDEX.md by hand after every merge",
        "--applies-when", "after a merge",
        "--content", "Edit INDEX.md by hand.",
    ]  # fmt: skip
    proposal = ok(run(memory, *refused))
    candidate = proposal.output.split("proposed ")[1].split()[0]
    ok(run(memory, "refuse", candidate, "--reason", "INDEX.md is generated: never edit it"))
    return memory


def branches(repo: Path) -> list[str]:
    return git(repo, "for-each-ref", "--format=%(refname:short)", "refs/heads/gitmem/").split()


def snapshot(path: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()
    }


def test_list_items_take_continuations_and_skip_fenced_markers() -> None:
    text = (DATA / "project/agent-memory/code-reviewer/MEMORY.md").read_text()
    items = importer.list_items(text)
    assert [i.heading for i in items] == ["Testing", "Testing", "Hooks", "Hooks"]
    assert items[2].lines[1].strip().startswith("Measured on the pre-commit hook")
    assert all("inside a fence" not in "\n".join(i.lines) for i in items)


def test_a_heading_indented_under_an_item_is_the_item_s_own() -> None:
    """`  ## Context` under an item ended it and became the section's heading: the lines
    after it were in no candidate, and every later item was filed under "Evidence"."""
    text = "# Rules\n- Item with headings\n  ## Context\n  ## Evidence\n  text\n- Title: yes\n"
    items = importer.list_items(text)
    assert [i.heading for i in items] == ["Rules", "Rules"]
    assert items[0].lines == ("Item with headings", "  ## Context", "  ## Evidence", "  text")
    top = importer.list_items("- An item\n## Next section\n- Another\n")
    assert [i.heading for i in top] == ["", "Next section"]


def test_folders_are_found_in_every_claude_code_layout(tmp_path: Path) -> None:
    repo_root = tmp_path / "shop"
    base = tmp_path / "home" / ".claude"
    shutil.copytree(DATA / "project", base)
    auto = base / "projects" / importer.project_folder_name(repo_root) / "memory"
    shutil.copytree(DATA / "auto-memory", auto)
    other = base / "projects" / "-somewhere-else" / "memory"
    shutil.copytree(DATA / "auto-memory", other)
    found = importer.find_folders(base, repo_root)
    assert [(f.kind, f.agent) for f in found] == [
        ("agent", "code-reviewer"),
        ("agent", "test-runner"),
        ("agent", "docs-writer"),
        ("auto", ""),
    ]
    assert found[-1].path == auto  # only this repository's auto memory, never another's
    assert importer.project_folder_name(Path("/home/al_ice/my.repo")) == "-home-al-ice-my-repo"
    # a memory folder named directly
    assert [f.kind for f in importer.find_folders(auto, repo_root)] == ["auto"]


def test_import_creates_candidates_and_reports_duplicates_refused_and_secrets(
    claude: Path,
) -> None:
    before_claude = snapshot(claude / ".claude")
    head = git(claude, "rev-parse", "HEAD")
    status = git(claude, "status", "--porcelain")
    result = run(claude, "import", "claude")
    assert result.exit_code == 1, result.output  # a secret was found
    out = result.output
    assert "Traceback" not in out
    assert fake_token() not in out and fake_token()[4:] not in out
    # the summary table
    assert "| created              |     9 |" in out
    assert "| skipped as duplicate |     1 |" in out
    assert "| refused              |     1 |" in out
    assert "| secret               |     1 |" in out
    assert "refused: Commit generated INDEX.md by hand after every merge" in out
    assert "INDEX.md is generated: never edit it" in out
    assert "skipped as duplicate: Keep hook scripts thin" in out
    assert ".claude/agent-memory/test-runner/MEMORY.md:7: SECRET github-pat" in out
    assert "secret: (withheld: it holds a secret)" in out
    # nothing under .claude/ changed, the working tree, index and HEAD are untouched
    assert snapshot(claude / ".claude") == before_claude
    assert git(claude, "rev-parse", "HEAD") == head
    assert git(claude, "status", "--porcelain") == status
    names = branches(claude)
    assert len(names) == 9
    assert not any("publish-the-docs" in n for n in names)


def test_setext_headings_of_a_note_are_demoted_too() -> None:
    """A note's paragraph underlined with --- is a section heading to the entry's rules: the
    import makes it a sub-heading, as it does a `## ` one, so the note stays one section."""
    note = "Why\n---\nbecause\n\nTitle\n===\nx\n\na\n\n---\nb\n```\nc\n---\n```"
    demoted = importer.demote_headings(note)
    assert demoted == "### Why\nbecause\n\n### Title\nx\n\na\n\n---\nb\n```\nc\n---\n```"
    body = f"## Context\nc\n\n## Content\n{demoted}\n\n## Evidence\ne\n"
    assert parse(entry_text(body=body)).content == demoted


def test_linked_note_supplies_the_content_and_front_matter(claude: Path) -> None:
    ok_or_secret = run(claude, "import", "claude")
    assert ok_or_secret.exit_code == 1
    [name] = [b for b in branches(claude) if b.endswith("build-repositories-in-tmp-path")]
    entry_id = name.removeprefix("gitmem/")
    entry = parse(git(claude, "show", f"{name}:.gitmem/candidates/{entry_id}.md"))
    assert entry.type == "method"
    assert entry.source == "import:.claude/agent-memory/code-reviewer/tmp-path-repos.md"
    assert entry.applies_when == "writing a test that needs a real git repository"
    assert "never in the source tree" in entry.content
    assert "### Why" in entry.content  # a heading inside a note cannot open a fourth section
    assert "code-reviewer" in entry.tags and "project" in entry.tags
    # the unlinked topic file is imported on its own, titled from its front matter name
    assert any(b.endswith("error-messages-say-what-to-do") for b in branches(claude))
    # an item without a link: the first sentence is the title, the whole item the content
    [hooks] = [b for b in branches(claude) if b.endswith("read-objects-with-pygit2-inside-hooks")]
    hook_id = hooks.removeprefix("gitmem/")
    text = git(claude, "show", f"{hooks}:.gitmem/candidates/{hook_id}.md")
    hook_entry = parse(text)
    assert "40 ms against 3 ms" in hook_entry.content
    assert hook_entry.source == "import:.claude/agent-memory/code-reviewer/MEMORY.md"
    assert hook_entry.applies_when == "Hooks"


def test_running_twice_writes_nothing_new(claude: Path) -> None:
    run(claude, "import", "claude")
    refs = git(claude, "for-each-ref")
    again = run(claude, "import", "claude", "--format", "json")
    assert again.exit_code == 1  # the secret is still reported
    data = json.loads(again.output)
    assert data["counts"]["created"] == 0
    assert data["counts"]["skipped as duplicate"] == 10
    assert data["counts"]["refused"] == 1 and data["counts"]["secret"] == 1
    assert git(claude, "for-each-ref") == refs


def test_admitted_topics_are_duplicates(claude: Path) -> None:
    run(claude, "import", "claude")
    [name] = [b for b in branches(claude) if b.endswith("prefer-clirunner-over-subprocess")]
    ok(run(claude, "admit", name.removeprefix("gitmem/"), "--by", "human:alice"))
    for branch in branches(claude):
        git(claude, "branch", "-D", branch)
    data = json.loads(run(claude, "import", "claude", "--format", "json").output)
    [row] = [i for i in data["items"] if i["title"] == "Prefer CliRunner over subprocess"]
    assert row["outcome"] == "duplicate" and "admitted entry" in row["detail"]
    assert data["counts"]["created"] == 8


def test_dry_run_writes_nothing(claude: Path) -> None:
    refs = git(claude, "for-each-ref")
    result = run(claude, "import", "claude", "--dry-run")
    assert "| would be created     |     9 |" in result.output
    assert git(claude, "for-each-ref") == refs


def test_user_level_auto_memory_with_from(memory: Path, tmp_path: Path) -> None:
    home_claude = tmp_path / "fake-home" / ".claude"
    auto = home_claude / "projects" / importer.project_folder_name(memory) / "memory"
    shutil.copytree(DATA / "auto-memory", auto)
    result = ok(run(memory, "import", "claude", "--from", str(home_claude)))
    assert "| created              |     2 |" in result.output
    [name] = [b for b in branches(memory) if b.endswith("use-uv-for-the-dev-environment")]
    text = git(memory, "show", f"{name}:.gitmem/candidates/{name.removeprefix('gitmem/')}.md")
    assert "source: import:" in text and "/memory/dev-env.md" in text
    assert "auto-memory" in parse(text).tags


def test_no_claude_folder_is_not_an_error(memory: Path) -> None:
    result = ok(run(memory, "import", "claude"))
    assert "nothing to import" in result.output


def test_missing_from_folder_is_a_usage_error(memory: Path) -> None:
    result = run(memory, "import", "claude", "--from", "no/such/dir")
    assert result.exit_code == 2
    assert "no such folder" in result.output and "Traceback" not in result.output


def test_an_empty_from_is_a_usage_error_not_the_current_folder(memory: Path) -> None:
    """`--from "$CLAUDE_DIR"` with the variable never set was read as the current folder: a
    MEMORY.md at the repository's root (the file `gitmem export agents` writes) was lifted
    into candidates as if it were Claude Code's."""
    (memory / "MEMORY.md").write_text("- Retry payments with idempotency keys\n")
    refs = git(memory, "for-each-ref")
    result = run(memory, "import", "claude", "--from", "")
    assert result.exit_code == 2, result.output
    assert "--from '' names no folder" in result.output
    assert git(memory, "for-each-ref") == refs


def test_hostile_files_are_skipped_with_a_note(memory: Path) -> None:
    folder = memory / ".claude" / "agent-memory" / "fuzzer"
    folder.mkdir(parents=True)
    (folder / "MEMORY.md").write_text("- [Binary note](blob.md)\n- " + "x" * 50 + "\n")
    (folder / "blob.md").write_bytes(b"\x00\x01\x02binary")
    (folder / "huge.md").write_text("word " * 60_000)
    (folder / "latin1.md").write_bytes("caf\xe9 notes".encode("latin-1"))
    (folder / "link.md").symlink_to("/etc/hostname")
    result = run(memory, "import", "claude")
    assert "Traceback" not in result.output
    assert "blob.md: skipped: it is a binary file" in result.output
    assert "huge.md: skipped: it is over 256 KiB" in result.output
    assert "latin1.md: skipped: it is not UTF-8" in result.output
    assert "link.md: skipped: it is not a regular file" in result.output


def test_front_matter_nested_past_pythons_stack_is_no_front_matter(memory: Path) -> None:
    """A 3 KB note of `name: [[[…]]]` made the YAML parser recurse past Python's stack (a
    RecursionError, exit 3): such front matter is read as none, and the import goes on."""
    deep = "---\nname: " + "[" * 1500 + "]" * 1500 + "\n---\nbody\n"
    assert importer.split_front_matter(deep) == ({}, "body\n", 4)
    folder = memory / "notes"
    folder.mkdir()
    (folder / "deep.md").write_text(deep)
    (folder / "MEMORY.md").write_text("- Retry payments with idempotency keys\n")
    result = run(memory, "import", "claude", "--from", "notes", "--dry-run")
    assert result.exit_code in (0, 1) and "unexpected error" not in result.output, result.output


def test_a_secret_in_a_file_or_folder_name_is_reported_never_echoed(memory: Path) -> None:
    """Only the files' text was scanned: a topic file named after a token had its name (in
    full, in the title and the origin) printed as an invalid item, and an agent folder so
    named was echoed in every origin and in the JSON folders. Now the item is a secret, and
    the path is withheld wherever a report would show it."""
    token = fake_token()
    agent = memory / ".claude" / "agent-memory" / "deployer"
    agent.mkdir(parents=True)
    (agent / f"{token}.md").write_text("Push the docs site after every release.\n")
    (agent / f"{token}-link.md").symlink_to("/etc/hostname")
    named = memory / ".claude" / "agent-memory" / token
    named.mkdir()
    (named / "MEMORY.md").write_text("- Rebuild the search index after a schema change.\n")
    for args in (["--dry-run"], [], ["--format", "json"]):
        result = run(memory, "import", "claude", *args)
        assert result.exit_code == 1, result.output
        assert token not in result.output and token[4:].lower() not in result.output.lower()
        assert "Traceback" not in result.output
    text = run(memory, "import", "claude", "--dry-run").output
    assert "secret: (withheld: it holds a secret)  [(withheld: its path holds a secret)]" in text
    assert "SECRET github-pat: GitHub personal access token (ghp_… (40 chars)) in the " in text
    assert "| secret               |     2 |" in text
    assert branches(memory) == []


def test_terminal_control_sequences_in_notes_are_shown_escaped(memory: Path) -> None:
    """The report printed an imported note's title and file name as they were: a note from
    a cloned repository could retitle the terminal, or clear what came before, on the screen
    of whoever imported it. They are written as escapes now, as `gitmem show` writes them."""
    folder = memory / ".claude" / "agent-memory" / "tester"
    folder.mkdir(parents=True)
    (folder / "MEMORY.md").write_text("- Run the tests \x1b]0;owned\x07before every push.\n")
    (folder / "wipe\x1b]0;x\x07.md").write_bytes(b"\x00binary")
    result = run(memory, "import", "claude", "--dry-run")
    assert "Traceback" not in result.output
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert "Run the tests \\x1b]0;owned\\x07before every push" in result.output
    assert "wipe\\x1b]0;x\\x07.md: skipped: it is a binary file" in result.output


def test_titles_without_ascii_words_are_not_one_topic(memory: Path) -> None:
    """Every title without an ASCII letter or digit slugs to the topic 'entry': a folder of
    notes written in Japanese or Russian had its first item imported and every other one
    skipped as its duplicate. Such titles are told apart by their words; the same title
    is still a duplicate, within a run and on the next one."""
    folder = memory / ".claude" / "agent-memory" / "helper"
    folder.mkdir(parents=True)
    (folder / "MEMORY.md").write_text(
        "- テストを先に実行する。\n- Всегда запускайте линтер перед коммитом.\n"
        "- デプロイの前にバックアップを取る。\n- テストを先に実行する。\n"
    )
    first = run(memory, "import", "claude")
    assert "| created              |     3 |" in first.output, first.output
    assert "| skipped as duplicate |     1 |" in first.output
    assert len(branches(memory)) == 3
    again = run(memory, "import", "claude")
    assert "| created              |     0 |" in again.output, again.output
    assert "| skipped as duplicate |     4 |" in again.output
    assert "skipped as duplicate: テストを先に実行する" in again.output
    assert "topic 'テストを先に実行する' is already a pending candidate" in again.output


def test_a_fence_left_open_inside_an_item_ends_with_the_item() -> None:
    """A code fence opened inside a list item and never closed took every later line of
    MEMORY.md for code: the items after it vanished into the first one, which then broke the
    unclosed-fence rule, where a Markdown reader ends the fence with its item."""
    text = (
        "- Always quote shell variables in scripts.\n"
        "  ```sh\n"
        '  echo "$x"\n'
        "- Prefer ripgrep over grep for code search.\n"
        "- Keep hooks fast.\n"
        "  ```\n"
        "  - not an item\n"
        "  ```\n"
    )
    items = importer.list_items(text)
    assert [i.lines[0] for i in items] == [
        "Always quote shell variables in scripts.",
        "Prefer ripgrep over grep for code search.",
        "Keep hooks fast.",
    ]
    assert items[0].lines[1:] == ("  ```sh", '  echo "$x"', "  ```")  # closed with its item
    assert items[2].lines[1:4] == ("  ```", "  - not an item", "  ```")
    # a closing fence written at the margin still closes the item's fence
    closed = importer.list_items("- Run it:\n  ```sh\n  make\n```\n- Keep hooks fast.\n")
    assert [i.lines[0] for i in closed] == ["Run it:", "Keep hooks fast."]
    assert closed[0].lines[1:] == ("  ```sh", "  make", "```")


def test_a_title_ends_at_a_full_stop_of_any_script() -> None:
    """A note in Japanese or Chinese has no space after its full stop (。): the whole item,
    every sentence of it, became the title and so the topic refusals and duplicates match."""
    assert importer.first_sentence("テストを先に書く。次に実装する。") == "テストを先に書く"
    assert importer.first_sentence("先写测试！然后写代码。") == "先写测试！"
    assert importer.first_sentence("Write tests first. Then code.") == "Write tests first"
    assert importer.first_sentence("Use v1.2 of the API. Then code.") == "Use v1.2 of the API"


def test_a_note_or_folder_whose_name_is_not_utf8_is_skipped_with_a_note(memory: Path) -> None:
    """A note's path goes into its candidate (source: import:..., Context, Evidence, the
    agent's tag): a file or an agent folder named in another encoding reached propose with
    its bytes as lone surrogates, and the import ended in exit 3 with a traceback."""
    memories = memory / ".claude" / "agent-memory"
    agent = memories / os.fsdecode(b"caf\xe9")
    agent.mkdir(parents=True)
    (agent / "MEMORY.md").write_text("- Always run tests before pushing.\n")
    fine = memories / "reviewer"
    fine.mkdir()
    (fine / "MEMORY.md").write_text("- Keep hooks fast.\n")
    (fine / os.fsdecode(b"tab\xe9.md")).write_text("---\nname: Tabs in Makefiles\n---\nUse tabs.\n")
    result = run(memory, "import", "claude")
    assert result.exit_code == 0, result.output
    assert ".claude/agent-memory/caf\\xe9/MEMORY.md: skipped: its name is not UTF-8" in (
        result.output
    )
    assert ".claude/agent-memory/reviewer/tab\\xe9.md: skipped: its name is not UTF-8" in (
        result.output
    )
    assert "created: Keep hooks fast" in result.output


def test_a_linked_memory_folder_is_named_not_passed_over(memory: Path, tmp_path: Path) -> None:
    """A memory folder that is a symbolic link (an agent's memory shared between clones) is
    not followed, by design; but it was passed over without a word, and the import said
    there was no Claude Code memory at all."""
    shared = tmp_path / "shared" / "reviewer"
    shared.mkdir(parents=True)
    (shared / "MEMORY.md").write_text("- Always run tests before pushing.\n")
    agents = memory / ".claude" / "agent-memory"
    agents.mkdir(parents=True)
    (agents / "reviewer").symlink_to(shared)
    result = run(memory, "import", "claude")
    assert result.exit_code == 0, result.output
    assert (
        ".claude/agent-memory/reviewer: skipped: it is a symbolic link, which import does not "
        "follow: name the folder it leads to with --from"
    ) in result.output
    (agents / "reviewer").unlink()
    agents.rmdir()
    agents.symlink_to(shared.parent)
    assert ".claude/agent-memory: skipped: it is a symbolic link" in (
        run(memory, "import", "claude").output
    )
    assert git(memory, "for-each-ref", "refs/heads/gitmem/") == ""


def test_a_linked_claude_folder_of_the_repository_is_not_followed(
    memory: Path, tmp_path: Path
) -> None:
    """Memory folders and notes that are links are not followed, but the repository's own
    .claude/ was: a cloned repository whose .claude links to the user's ~/.claude had the
    user's private agent memory lifted into candidates of that repository."""
    private = tmp_path / "home-claude" / "agent-memory" / "me"
    private.mkdir(parents=True)
    (private / "MEMORY.md").write_text("- My private note about the staging password.\n")
    (memory / ".claude").symlink_to(tmp_path / "home-claude")
    result = run(memory, "import", "claude")
    assert result.exit_code == 0, result.output
    assert ".claude is a symbolic link, which import does not follow" in result.output
    assert "private note" not in result.output
    assert git(memory, "for-each-ref", "refs/heads/gitmem/") == ""
    # named with --from, it is read: the person chose it
    named = ok(run(memory, "import", "claude", "--from", str(tmp_path / "home-claude")))
    assert "created: My private note" in named.output


def test_a_note_two_items_link_is_imported_once(memory: Path) -> None:
    """Two MEMORY.md items linking the same note (an index written twice) made two
    candidates of one note's text under two titles: the same lesson proposed twice."""
    folder = memory / ".claude" / "agent-memory" / "reviewer"
    folder.mkdir(parents=True)
    (folder / "MEMORY.md").write_text(
        "- [Retry with backoff](retry.md) — calling APIs\n"
        "- [Use exponential backoff](retry.md) — the same note\n"
    )
    (folder / "retry.md").write_text("Retry with exponential backoff and jitter.\n")
    result = ok(run(memory, "import", "claude"))
    assert result.output.count("created: ") == 1
    assert (
        ".claude/agent-memory/reviewer/MEMORY.md:2: skipped: it links "
        ".claude/agent-memory/reviewer/retry.md, which the item at line 1 imports"
    ) in result.output
    assert len(git(memory, "for-each-ref", "refs/heads/gitmem/").splitlines()) == 1


def test_a_secret_in_the_heading_over_an_item_is_reported_where_it_is(memory: Path) -> None:
    """An item's applies_when is the heading it sits under, but only the item's own lines
    were scanned: a token in that heading went on to propose, whose scan refused the
    candidate as `invalid`, naming a candidate file never written and a line in it, and
    advising `admit --allow`. The heading is now scanned with the item: a `secret` outcome
    naming MEMORY.md and the heading's line, nothing proposed, the token never shown."""
    token = fake_token()
    agent = memory / ".claude" / "agent-memory" / "deployer"
    agent.mkdir(parents=True)
    (agent / "MEMORY.md").write_text(
        f"# Notes\n\n## Deploying with {token}\n\n- Use the deploy script for every release.\n"
    )
    for args in (["--dry-run"], [], ["--format", "json"]):
        result = run(memory, "import", "claude", *args)
        assert result.exit_code == 1, result.output
        assert token not in result.output and token[4:].lower() not in result.output.lower()
        assert ".gitmem/candidates/" not in result.output
    text = run(memory, "import", "claude", "--dry-run").output
    assert "secret: (withheld: it holds a secret)  [.claude/agent-memory/deployer/MEMORY.md:5]" in (
        text
    )
    assert ".claude/agent-memory/deployer/MEMORY.md:3: SECRET github-pat" in text
    assert "| secret               |     1 |" in text
    assert branches(memory) == []


def test_an_imported_entry_whose_title_a_reviewer_corrected_is_not_imported_again(
    memory: Path,
) -> None:
    """Once only was judged by topic alone: after a reviewer corrected the title of an
    imported entry (an amendment, or an edit before admitting), the next import found the
    item's topic nowhere and proposed it again as `…-2`. An item whose own file (a note, a
    topic file), or whose MEMORY.md with its very text, is the source of an entry or a
    pending candidate is a duplicate too."""
    agent = memory / ".claude" / "agent-memory" / "reviewer"
    agent.mkdir(parents=True)
    (agent / "MEMORY.md").write_text("- Run the tests with pytest -n 4 before pushing.\n")
    (agent / "hooks.md").write_text("---\nname: hooks-stay-thin\n---\nKeep the hooks thin.\n")
    ok(run(memory, "import", "claude"))
    for name in branches(memory):
        entry_id = name.removeprefix("gitmem/")
        ok(run(memory, "admit", entry_id, "--by", "human:alice"))
        fixed = ["--title", f"Corrected title {len(entry_id)}"]
        ok(run(memory, "propose", "--amend", entry_id, *fixed))
        ok(run(memory, "admit", f"{entry_id}-amend", "--by", "human:alice"))
    assert branches(memory) == []
    data = json.loads(ok(run(memory, "import", "claude", "--format", "json")).output)
    assert [i["outcome"] for i in data["items"]] == ["duplicate", "duplicate"]
    assert all("admitted entry" in i["detail"] for i in data["items"])
    assert branches(memory) == []


def test_a_note_whose_code_block_runs_to_its_end_is_imported_with_it_closed(
    memory: Path,
) -> None:
    """Markdown ends a code block left open at the end of the document, and an item of
    MEMORY.md had its open fence closed with the item; but a note or topic file ending
    inside its code block (a note cut short, a last command never fenced off) was refused
    as invalid, told to close a fence of `--content`, an option import has not. Its fence
    is now closed at its end, as a reader sees it, and the rest of the entry stays prose."""
    folder = memory / ".claude" / "memory"
    folder.mkdir(parents=True)
    (folder / "MEMORY.md").write_text(
        "- [Release steps](release.md) — when releasing\n  Tag first.\n"
    )
    (folder / "release.md").write_text("Run the release:\n\n~~~~sh\nmake release\n")
    (folder / "tests.md").write_text(
        "---\nname: run-tests\n---\n```\nfirst\n```\nThen:\n  ```sh\n  make test\n"
    )
    result = ok(run(memory, "import", "claude"))
    assert "| created              |     2 |" in result.output, result.output
    found = {}
    for name in branches(memory):
        entry_id = name.removeprefix("gitmem/")
        found[entry_id] = parse(git(memory, "show", f"{name}:.gitmem/candidates/{entry_id}.md"))
    [release] = [e for i, e in found.items() if i.endswith("release-steps")]
    assert release.content == "Run the release:\n\n~~~~sh\nmake release\n~~~~\n\nTag first."
    [tests] = [e for i, e in found.items() if i.endswith("run-tests")]
    assert tests.content == "```\nfirst\n```\nThen:\n  ```sh\n  make test\n  ```"
    assert tests.evidence.startswith("Lifted from")


def test_one_run_proposes_a_bounded_number_of_candidates(
    memory: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The files read were capped, the items in them not: a cloned repository's MEMORY.md of
    256 KiB holds tens of thousands of one-line items, and one `gitmem import claude` made a
    candidate branch of each, minutes of work and as many branches to refuse. A run now
    stops after MAX_PROPOSED candidates, says so, and the next run goes on from there."""
    monkeypatch.setattr(importer, "MAX_PROPOSED", 3, raising=False)
    folder = memory / ".claude" / "memory"
    folder.mkdir(parents=True)
    notes = [f"- Check widget {word} before the release." for word in "abcde"]
    (folder / "MEMORY.md").write_text("\n".join(notes) + "\n")
    first = ok(run(memory, "import", "claude"))
    assert "| created              |     3 |" in first.output
    assert (
        "gitmem: stopped after proposing 3 candidates (2 items not read): review them, then "
        "run gitmem import claude again for the rest"
    ) in first.output
    assert len(branches(memory)) == 3
    second = ok(run(memory, "import", "claude"))
    assert "| created              |     2 |" in second.output
    assert "stopped after" not in second.output
    assert len(branches(memory)) == 5


def test_a_topic_file_whose_name_gives_no_title_takes_its_first_sentence(memory: Path) -> None:
    """A topic file whose front matter `name` (or file name) is only punctuation ("."),
    gave an empty title: the dry run called it invalid (SCHEMA, a candidate file never
    written) while the import itself stopped half-way with exit 2, "missing --title", after
    proposing the items before it. Its title is now its first sentence, as a MEMORY.md
    item's is, and the dry run and the import agree."""
    folder = memory / ".claude" / "memory"
    folder.mkdir(parents=True)
    (folder / "MEMORY.md").write_text("- Keep the hooks thin.\n")
    (folder / "dot.md").write_text('---\nname: "."\n---\nRebuild the index after a merge.\n')
    (folder / "....md").write_text("Rotate the logs weekly. Keep four.\n")
    dry = ok(run(memory, "import", "claude", "--dry-run"))
    assert "| would be created     |     3 |" in dry.output, dry.output
    result = ok(run(memory, "import", "claude"))
    assert "| created              |     3 |" in result.output, result.output
    names = sorted(b.split("-20", 1)[1][7:] for b in branches(memory))
    assert names == [
        "keep-the-hooks-thin",
        "rebuild-the-index-after-a-merge",
        "rotate-the-logs-weekly",
    ]


def test_an_item_whose_unindented_code_block_runs_to_the_end_is_imported_closed(
    memory: Path,
) -> None:
    """A fence opened right under an item's line, not indented, is part of the item and
    runs to the end of MEMORY.md when never closed; unlike an indented one it was not closed
    with the item, and the item was refused as invalid (`--content opens a code fence`).
    It is now closed at the end, as a note's is."""
    folder = memory / ".claude" / "memory"
    folder.mkdir(parents=True)
    (folder / "deploy.md").write_text("Deploy from main.\n")
    (folder / "MEMORY.md").write_text("- [Deploy](deploy.md) — releasing\n```sh\nmake deploy\n")
    agent = memory / ".claude" / "agent-memory" / "builder"
    agent.mkdir(parents=True)
    (agent / "MEMORY.md").write_text("- Build with make first\n```sh\nmake\n")
    result = ok(run(memory, "import", "claude"))
    assert "| created              |     2 |" in result.output, result.output
    found = {}
    for name in branches(memory):
        entry_id = name.removeprefix("gitmem/")
        found[entry_id] = parse(git(memory, "show", f"{name}:.gitmem/candidates/{entry_id}.md"))
    [build] = [e for i, e in found.items() if i.endswith("build-with-make-first")]
    assert build.content == "Build with make first\n```sh\nmake\n```"
    [deploy] = [e for i, e in found.items() if i.endswith("deploy")]
    assert deploy.content == "Deploy from main.\n\n```sh\nmake deploy\n```"


def test_an_invalid_item_says_which_file_to_correct(memory: Path) -> None:
    """An item propose refused (a note over memory.maxBody, the commonest) was reported by
    the lines of a candidate file that was never written, `.gitmem/candidates/<id>.md:12:
    BODY-LENGTH … keep one lesson, link the rest`: nothing said that the file to correct is
    the note it came from. The detail now ends by naming it, and the dry run says the same."""
    folder = memory / ".claude" / "memory"
    folder.mkdir(parents=True)
    (folder / "long.md").write_text("Keep the notes short. " + "Words of a long note. " * 120)
    for args in ([], ["--dry-run"]):
        result = run(memory, "import", "claude", *args)
        assert result.exit_code == 1, result.output
        assert "BODY-LENGTH" in result.output
        assert (
            "    made from .claude/memory/long.md: correct it there (Claude Code's memory), "
            "then run gitmem import claude again"
        ) in result.output, result.output
