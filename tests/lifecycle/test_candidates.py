"""Pending candidates: listed, shown and judged as admission would judge them."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from clirunner import HOOKS, PROPOSE, first_id, ok, proposed, run
from remote import connect, make_server

from conftest import git


def test_candidates_and_show(memory: Path) -> None:
    ok(run(memory, *PROPOSE))
    listing = ok(run(memory, "candidates")).output
    assert first_id() in listing and "valid" in listing
    shown = ok(run(memory, "show", first_id())).output
    assert "status: candidate" in shown


def test_a_clone_behind_origin_judges_remote_candidates_against_origins_main(
    memory: Path, tmp_path: Path
) -> None:
    """Issue 14, case 8: a teammate fetched but did not pull; a candidate proposed on the
    newer main is valid, and the hint says to pull (admitting without it would fail)."""
    server = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(server))
    git(memory, "remote", "add", "origin", str(server))
    git(memory, "push", "-q", "-u", "origin", "main")
    teammate = tmp_path / "teammate"
    git(tmp_path, "clone", "-q", str(server), str(teammate))

    first = ok(run(memory, *PROPOSE, "--push")).output.split()[1]
    ok(run(memory, "admit", first, "--push"))
    second = ok(run(memory, *HOOKS, "--push")).output.split()[1]

    git(teammate, "fetch", "-q")
    listing = ok(run(teammate, "candidates")).output
    assert (
        "note: your main is 2 commits behind origin/main: run git pull before admitting "
        "(gitmem admit --push catches up by itself); candidates are judged against it\n"
    ) in listing
    assert f"{second}  valid  " in listing
    assert "CANDIDATE-BRANCH" not in listing
    assert first not in listing  # admitted on origin's main: no longer pending

    refused = run(teammate, "admit", second)
    assert refused.exit_code == 1
    assert (
        "CANDIDATE-BRANCH" in refused.output and "run git pull before admitting" in refused.output
    )
    ok(run(teammate, "admit", second, "--push"))
    assert git(server, "rev-parse", "main") == git(teammate, "rev-parse", "main")


def test_a_clone_whose_only_remote_is_upstream_hears_it_is_behind_upstream(
    memory: Path, tmp_path: Path
) -> None:
    """A local candidate in a clone made with `git clone -o upstream` is judged against the
    main its memory branch is fetched from, upstream's: the hint looked for origin/main,
    which such a clone has not, and said nothing while upstream had admitted more."""
    server = make_server(tmp_path)
    connect(memory, server)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "-o", "upstream", str(server), str(clone))
    mine = proposed(ok(run(clone, *HOOKS)).output)
    ok(run(memory, *PROPOSE, "--push"))
    ok(run(memory, "admit", first_id(), "--push"))

    git(clone, "fetch", "-q")
    listing = ok(run(clone, "candidates")).output
    assert (
        "note: your main is 2 commits behind upstream/main: run git pull before admitting "
        "(gitmem admit --push catches up by itself); candidates are judged against it\n"
    ) in listing
    assert f"{mine}  valid  " in listing
    # a fork that pushes go to reads nothing: main is still fetched from upstream
    git(clone, "remote", "add", "fork", str(tmp_path / "fork.git"))
    git(clone, "config", "remote.pushDefault", "fork")
    assert "behind upstream/main" in ok(run(clone, "candidates")).output


def test_show_and_list_name_an_admitted_entry_that_does_not_parse(memory: Path) -> None:
    """An entry broken by hand on main: `show` names its file, line and rule (not "no
    candidate"), and `list` says it left it out instead of saying nothing."""
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    path = memory / f".gitmem/entries/decision/{first_id()}.md"
    lines = path.read_text().splitlines(keepends=True)
    number = next(n for n, line in enumerate(lines, 1) if line.startswith("title:"))
    lines[number - 1] = "title: [unclosed: {bad\n"
    path.write_text("".join(lines))
    git(memory, "commit", "-q", "--no-verify", "-am", "break it")
    shown = run(memory, "show", first_id())
    assert shown.exit_code == 1, shown.output
    where = f".gitmem/entries/decision/{first_id()}.md:"
    assert where in shown.output and "FRONT-MATTER" in shown.output, shown.output
    assert "no candidate" not in shown.output and "Traceback" not in shown.output
    listed = run(memory, "list")
    assert listed.exit_code == 0 and "no entries" in listed.stdout
    assert listed.stderr.startswith(f"gitmem: {where}"), listed.stderr
    assert ": FRONT-MATTER front matter is not valid YAML" in listed.stderr
    assert listed.stderr.endswith(": left out; `gitmem check` names every problem of the memory\n")


def test_an_id_that_cannot_be_one_is_refused_at_once_quoting_only_its_start(
    memory: Path,
) -> None:
    """An id longer than any gitmem makes (past 1,024 bytes libgit2 refuses the ref name with
    a ValueError, which was a crash) or not a slug names nothing: each command that looks a
    candidate up says so in one short line, whatever the id's size."""
    for bad in ("a" * 201, "a" * 1_100, "a" * 1_000_000, "../../etc/passwd"):
        for command in (["show", bad], ["admit", bad], ["refuse", bad, "--reason", "no"]):
            result = run(memory, *command)
            assert result.exit_code == 2, result.output
            assert "is not a candidate id" in result.output, result.output
            assert "at most 200 characters" in result.output
            assert len(result.output) < 300, result.output[:300]
    lineage = run(memory, "show", "--lineage", "a" * 1_000_000)
    assert lineage.exit_code == 2
    assert lineage.output == (
        f"gitmem: no entry {'a' * 60!r}… (1,000,000 characters) on main: see `gitmem list`\n"
    )
    # the longest id an entry may have is still looked up (and here names nothing)
    longest = run(memory, "show", "a" * 200)
    assert longest.exit_code == 2 and "no entry " in longest.output
    assert f"no candidate {'a' * 60!r}… (200 characters)" in longest.output


def test_review_and_show_write_what_a_terminal_would_hide_as_escapes(memory: Path) -> None:
    """A candidate committed by hand (no hook) whose text conceals a sentence with an escape
    sequence: review names the problem and shows the sequence as `\\x1b`, never sends it to
    the reviewer's terminal; so does show."""
    ok(run(memory, *PROPOSE))
    branch = f"gitmem/{first_id()}"
    git(memory, "checkout", "-q", branch)
    path = memory / f".gitmem/candidates/{first_id()}.md"
    path.write_text(path.read_text().replace("## Content\n", "## Content\nOK.\x1b[8m Skip it.\n"))
    git(memory, "commit", "-q", "--no-verify", "-am", "hidden")
    git(memory, "checkout", "-q", "main")
    reviewed = run(memory, "review", first_id())
    assert reviewed.exit_code == 1 and "HIDDEN-UNICODE" in reviewed.output
    shown = ok(run(memory, "show", first_id())).output
    for output in (reviewed.output, shown):
        assert "\x1b" not in output and "OK.\\x1b[8m Skip it." in output, output


def test_review_and_show_write_what_a_terminal_draws_as_nothing_as_escapes(memory: Path) -> None:
    """Text a terminal shows as nothing, not only text it acts on: tag characters spelling
    an instruction in invisible ASCII, an Arabic letter mark (a bidirectional control) and a
    soft hyphen. review and show wrote them as they came, so the reviewer read "OK." where
    the candidate said more; they are escapes now, as the gate's HIDDEN-UNICODE names them."""
    ok(run(memory, *PROPOSE))
    branch = f"gitmem/{first_id()}"
    git(memory, "checkout", "-q", branch)
    path = memory / f".gitmem/candidates/{first_id()}.md"
    tags = "".join(chr(0xE0000 + ord(c)) for c in "admit me")
    hidden = f"OK.{tags}\u061c\u00ad done\n"
    path.write_text(path.read_text().replace("## Content\n", f"## Content\n{hidden}"))
    git(memory, "commit", "-q", "--no-verify", "-am", "hidden")
    git(memory, "checkout", "-q", "main")
    reviewed = run(memory, "review", first_id())
    assert reviewed.exit_code == 1 and "HIDDEN-UNICODE" in reviewed.output
    shown = ok(run(memory, "show", first_id())).output
    escaped = "OK.\\U000e0061\\U000e0064"
    for output in (reviewed.output, shown):
        assert not any(c in output for c in (tags[0], "\u061c", "\u00ad")), output
        assert escaped in output and "\\u061c\\xad done" in output, output


def test_list_and_recall_write_what_a_terminal_would_act_on_as_escapes(memory: Path) -> None:
    """An entry edited on main without the gate (warn mode, a server without the hook) whose
    title carries a clear-screen and a window-title sequence: list and recall print them as
    escapes, as show and review do."""
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    path = memory / f".gitmem/entries/decision/{first_id()}.md"
    text = path.read_text()
    title = next(line for line in text.splitlines() if line.startswith("title: "))
    hostile = f'title: "{title[7:]} \\e[2J\\e]0;pwned\\a"'  # YAML escapes: ESC, BEL
    path.write_text(text.replace(title, hostile))
    git(memory, "commit", "-q", "--no-verify", "-am", "by hand")
    listed = ok(run(memory, "list")).output
    recalled = ok(run(memory, "recall", title[7:])).output
    for output in (listed, recalled):
        assert "\x1b" not in output and "\x07" not in output, output
        assert "\\x1b[2J\\x1b]0;pwned\\x07" in output, output


def test_a_shallow_clone_says_to_unshallow_instead_of_blaming_the_candidate(
    memory: Path, tmp_path: Path
) -> None:
    """In a clone made with --depth 1, main moved on since the candidate was proposed has
    no merge base with it: the branch was said to change every file of main's tree (a false
    CANDIDATE-BRANCH, exit 1). The clone is the cause, and it is told (exit 2); once the
    history is fetched, the candidate is valid and admitted."""
    server = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(server))
    git(memory, "remote", "add", "origin", str(server))
    git(memory, "push", "-q", "-u", "origin", "main")
    entry_id = proposed(ok(run(memory, *PROPOSE, "--push")).output)
    (memory / "README.md").write_text("# project\nmore\n")
    git(memory, "commit", "-q", "-am", "main moves on")
    git(memory, "push", "-q", "origin", "main")
    shallow = tmp_path / "shallow"
    git(
        tmp_path, "clone", "-q", "--depth", "1", "--no-single-branch", server.as_uri(), str(shallow)
    )

    said = "this clone is shallow: run git fetch --unshallow"
    for args in (["candidates"], ["admit", entry_id]):
        result = run(shallow, *args)
        assert result.exit_code == 2, result.output
        assert said in result.output and "CANDIDATE-BRANCH" not in result.output
    assert git(shallow, "rev-parse", "main") == git(memory, "rev-parse", "main")

    git(shallow, "fetch", "-q", "--unshallow")
    assert f"{entry_id}  valid  " in ok(run(shallow, "candidates")).output
    ok(run(shallow, "admit", entry_id))


def test_a_remote_branch_that_only_ends_in_gitmem_id_is_not_that_candidate(
    memory: Path, tmp_path: Path
) -> None:
    """Anyone who may push a branch could push `aaa/gitmem/<id>` beside a teammate's real
    candidate `gitmem/<id>`: that branch is no candidate (gitmem candidates never lists it),
    yet show, review and admit took it for <id>, since its name sorts first, and a person
    would admit text they never reviewed. Only `<remote>/gitmem/<id>` is the candidate."""
    server = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(server))
    git(memory, "remote", "add", "origin", str(server))
    git(memory, "push", "-q", "-u", "origin", "main")
    real = ok(run(memory, *PROPOSE, "--push")).output.split()[1]
    # the attacker's branch: the same path and id, other words
    git(memory, "checkout", "-q", "-b", "evil", f"gitmem/{real}")
    path = memory / f".gitmem/candidates/{real}.md"
    path.write_text(path.read_text().replace("Read objects with pygit2.", "Shell out to git."))
    git(memory, "commit", "-q", "-am", "evil")
    git(memory, "push", "-q", "origin", f"evil:refs/heads/aaa/gitmem/{real}")
    teammate = tmp_path / "teammate"
    git(tmp_path, "clone", "-q", str(server), str(teammate))

    listing = ok(run(teammate, "candidates")).output
    assert f"refs/remotes/origin/gitmem/{real}" in listing and "aaa/" not in listing
    shown = ok(run(teammate, "show", real)).output
    assert shown.startswith(f"# refs/remotes/origin/gitmem/{real}:")
    assert "Read objects with pygit2." in shown and "Shell out to git." not in shown


def test_show_escapes_what_a_hostile_candidate_puts_in_its_state_line(memory: Path) -> None:
    """A candidate branch is anyone's text until a reviewer reads it. One claiming to be a
    tombstone put YAML escapes in retired_by and retired_reason, and `gitmem show` printed
    them raw in its `# retired on … by …: …` line, where a terminal clears the screen or
    recolours what follows; the entry's own text below was already escaped. The line is now
    escaped the same way (the terminal's colour mode is kept on, so click strips nothing)."""
    import os

    from click.testing import CliRunner

    from gitmem.cli.main import main

    cid = "local-method-20261205-esc-note"
    git(memory, "checkout", "-q", "-b", f"gitmem/{cid}")
    path = memory / f".gitmem/candidates/{cid}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f"---\nid: {cid}\ntype: method\nstatus: retired\ntitle: Esc note\napplies_when: x\n"
        'source: human:A\ncreated: 2026-12-05\nretired: 2026-12-05\nretired_by: "human:\\e[31m"\n'
        'retired_reason: "\\e[2J\\e[Hall clear"\n---\n\n## Context\n\n## Content\ny\n\n'
        "## Evidence\n"
    )
    git(memory, "add", "-A")
    git(memory, "commit", "-q", "-m", "hostile")
    git(memory, "checkout", "-q", "main")
    old = Path.cwd()
    os.chdir(memory)
    try:
        shown = CliRunner().invoke(main, ["show", cid], color=True, catch_exceptions=False)
    finally:
        os.chdir(old)
    assert shown.exit_code == 0, shown.output
    assert "\x1b" not in shown.output
    assert "# retired on 2026-12-05 by human:\\x1b[31m: \\x1b[2J\\x1b[Hall clear" in shown.output


def test_a_branch_named_with_no_candidate_id_says_how_to_clear_it(memory: Path) -> None:
    """`gitmem/Notes_2026` was listed as holding no `.gitmem/candidates/Notes_2026.md`, while
    admit and refuse refused its name: nothing said how to clear it."""
    git(memory, "branch", "gitmem/Notes_2026", "main")
    out = ok(run(memory, "candidates")).output
    assert "branch refs/heads/gitmem/Notes_2026 is named with no candidate id" in out
    assert "git branch -D gitmem/Notes_2026" in out and "holds no" not in out


def test_a_candidates_text_quoted_in_a_problem_is_shown_escaped(memory: Path) -> None:
    """A candidate whose type decodes to an escape sequence and a carriage return (YAML's \\e
    and \\r) had them quoted raw by ID-TYPE's hint: `gitmem candidates` and the error of
    `gitmem admit` wrote them to the terminal, which cleared the screen or wrote over lines."""
    entry_id = "local-decision-20261205-hostile"
    git(memory, "checkout", "-q", "-b", f"gitmem/{entry_id}")
    path = memory / ".gitmem" / "candidates" / f"{entry_id}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f'---\nid: {entry_id}\ntype: "dec\\e[2Jision\\rX"\nstatus: candidate\ntitle: Hostile\n'
        "applies_when: x\nsource: human:T\ncreated: 2026-12-05\n---\n\n## Context\nc\n"
        "## Content\nc\n## Evidence\ne\n"
    )
    git(memory, "add", "-A")
    git(memory, "commit", "-q", "-m", "hostile")
    git(memory, "checkout", "-q", "main")
    for command in (["candidates"], ["admit", entry_id]):
        out = run(memory, *command).output
        assert "ID-TYPE" in out and "\x1b" not in out and "\r" not in out, out


def test_a_candidate_ref_that_points_at_no_commit_is_listed_with_its_problem(
    memory: Path, tmp_path: Path
) -> None:
    """A ref may point at a tree or a blob (git update-ref; a fetch from a fork that made
    one): reading the candidate's file from it raised, so `gitmem candidates` and
    `gitmem site` ended with an unexpected error (exit 3) while such a ref existed. It is
    now a candidate that holds no file, with that problem, as any other."""
    blob = git(memory, "rev-parse", "HEAD:README.md").strip()
    tree = git(memory, "rev-parse", "HEAD^{tree}").strip()
    git(memory, "update-ref", "refs/remotes/origin/gitmem/local-method-20261201-a-blob", blob)
    git(memory, "update-ref", "refs/remotes/fork/gitmem/local-method-20261201-a-tree", tree)
    listed = ok(run(memory, "candidates"))
    for name in ("a-blob", "a-tree"):
        assert f"holds no .gitmem/candidates/local-method-20261201-{name}.md" in listed.output
    ok(run(memory, "site", "--out", str(tmp_path / "site")))


def test_a_candidate_committed_as_a_link_is_named_so_by_every_command(memory: Path) -> None:
    """A candidate branch whose candidate file is a symbolic link (committed past the hooks)
    was judged by reading the link's target path as the entry's text: candidates, review,
    admit and refuse said "has no front matter", where the gate's rule is SYMLINK."""
    ok(run(memory, *PROPOSE))
    path = f".gitmem/candidates/{first_id()}.md"
    git(memory, "checkout", "-q", f"gitmem/{first_id()}")
    (memory / path).unlink()
    (memory / path).symlink_to("../../README.md")
    git(memory, "add", path)
    git(memory, "commit", "-q", "--no-verify", "-m", "a link, past the hooks")
    git(memory, "checkout", "-q", "main")
    said = f"{path}: SYMLINK is a symbolic link: a memory entry must be a file"
    assert said in ok(run(memory, "candidates")).output
    for command in (["review", first_id()], ["admit", first_id()]):
        done = run(memory, *command)
        assert done.exit_code == 1 and said in done.output, (command, done.output)
        assert "FRONT-MATTER" not in done.output


def test_candidates_shows_twenty_problems_a_file_as_check_does(memory: Path) -> None:
    """`gitmem candidates` printed every problem of a candidate: one committed by hand with a
    token on each of 30 lines printed 30 SECRET lines (thousands at will), burying the other
    candidates. It now shows the first 20 of a file and says how many more, as `gitmem
    check` does; JSON keeps them all."""
    from secret_samples import github_token

    ok(run(memory, *PROPOSE))
    path = memory / f".gitmem/candidates/{first_id()}.md"
    git(memory, "checkout", "-q", f"gitmem/{first_id()}")
    tokens = "".join(f"token {github_token(700 + n)}\n" for n in range(30))
    path.write_text(path.read_text().replace("## Evidence\n", f"## Evidence\n{tokens}"))
    git(memory, "commit", "-q", "--no-verify", "-am", "leaks")
    git(memory, "checkout", "-q", "main")
    listing = ok(run(memory, "candidates")).output
    assert listing.count(": SECRET ") == 20, listing
    assert (
        "10 more problems in this file not shown (the first 20 are): "
        "`gitmem candidates --format json` lists them all"
    ) in listing
    rows = json.loads(ok(run(memory, "candidates", "--format", "json")).output)
    assert sum(": SECRET " in p for p in rows[0]["problems"]) == 30


def test_a_candidate_committed_as_a_submodule_or_a_folder_is_named_and_the_rest_listed(
    memory: Path, tmp_path: Path
) -> None:
    """A candidate branch holding a submodule link at its candidate path (anyone allowed to
    push a branch can make one) was read as a file: `gitmem candidates` and `gitmem site`
    stopped with "object … is not a file" for every candidate. It is now that candidate's
    problem, named by its branch and path as every reader names a submodule (LAYOUT), and a
    folder there is a branch that holds no file; the others are listed as before."""
    ok(run(memory, *PROPOSE))
    ok(run(memory, *HOOKS))
    second = next(
        ref.removeprefix("gitmem/")
        for ref in git(memory, "branch", "--format=%(refname:short)").split()
        if ref.startswith("gitmem/") and ref != f"gitmem/{first_id()}"
    )
    tip = git(memory, "rev-parse", "main").strip()
    path = f".gitmem/candidates/{first_id()}.md"
    git(memory, "checkout", "-q", f"gitmem/{first_id()}")
    git(memory, "rm", "-q", "--cached", path)
    git(memory, "update-index", "--add", "--cacheinfo", f"160000,{tip},{path}")
    git(memory, "commit", "-q", "--no-verify", "-m", "a submodule, past the hooks")
    other = f".gitmem/candidates/{second}.md"
    git(memory, "checkout", "-q", "-f", f"gitmem/{second}")
    git(memory, "rm", "-q", "--cached", other)
    blob = git(memory, "hash-object", "-w", "--stdin", input="text\n").strip()
    git(memory, "update-index", "--add", "--cacheinfo", f"100644,{blob},{other}/inside.md")
    git(memory, "commit", "-q", "--no-verify", "-m", "a folder, past the hooks")
    git(memory, "checkout", "-q", "-f", "main")

    listed = run(memory, "candidates")
    assert "Traceback" not in listed.output and "is not a file" not in listed.output
    assert listed.exit_code == 0, listed.output  # a listing, as with any candidate's problems
    assert f"{path}: LAYOUT is not a regular file" in listed.output, listed.output
    assert f"branch refs/heads/gitmem/{second} holds no {other}" in listed.output
    shown = run(memory, "show", first_id())
    assert shown.exit_code == 1, shown.output
    assert f"refs/heads/gitmem/{first_id()}:{path}: LAYOUT " in shown.output, shown.output
    built = run(memory, "site", "--out", str(tmp_path / "site"))
    assert "Traceback" not in built.output and "is not a file" not in built.output, built.output
    assert built.exit_code == 0, built.output


def _leak_into_candidate(memory: Path, token: str) -> str:
    """A candidate committed by hand (past the hooks) with token in its title, tags and
    files: its id."""
    ok(run(memory, *PROPOSE))
    path = memory / f".gitmem/candidates/{first_id()}.md"
    git(memory, "checkout", "-q", f"gitmem/{first_id()}")
    lines = [
        line
        for line in path.read_text().split("\n")
        if not line.startswith(("title:", "tags:", "files:", "  - "))
    ]
    at = lines.index("---", 1)
    lines[at:at] = [f"title: Use {token} inside hooks", f"tags: [{token}]", f"files: [{token}]"]
    path.write_text("\n".join(lines))
    git(memory, "commit", "-q", "--no-verify", "-am", "leak")
    git(memory, "checkout", "-q", "main")
    return first_id()


def test_candidates_withholds_a_secret_in_the_title_and_the_messages_that_quote_it(
    memory: Path,
) -> None:
    """`gitmem candidates` printed a hand-committed candidate's token whole: in its title,
    and in the SCHEMA and FILES-MISSING lines that quote the value they judge (CANDIDATES.md
    and the JSON too). As `gitmem review` does, only the SECRET lines (redacted by the
    scanner) say what they found; the title and the other messages are withheld."""
    from secret_samples import github_token

    token = github_token(97)
    _leak_into_candidate(memory, token)
    for fmt in ("text", "json"):
        listing = ok(run(memory, "candidates", "--format", fmt)).output
        assert ": SECRET " in listing, listing
        assert token[4:].lower() not in listing.lower(), (fmt, listing)
    [row] = json.loads(ok(run(memory, "candidates", "--format", "json")).output)
    assert row["title"].startswith("(withheld")
    assert any(": SCHEMA " in p for p in row["problems"]), row["problems"]
    assert any(": FILES-MISSING " in p for p in row["problems"]), row["problems"]
    ok(run(memory, "index"))
    assert token[4:] not in (memory / ".gitmem" / "CANDIDATES.md").read_text()


def test_candidates_quotes_a_finding_a_reviewer_allowed(memory: Path) -> None:
    """A finding allowed by fingerprint in main's allowed.md is no secret to the file rules,
    so `gitmem candidates` withholds nothing of it either."""
    from secret_samples import github_token

    from gitmem.gate import secrets
    from gitmem.model import allowed

    token = github_token(98)
    entry_id = _leak_into_candidate(memory, token)
    row = allowed.Allowance(
        secrets.fingerprint("github-pat", token.encode()),
        f".gitmem/candidates/{entry_id}.md",
        "human:bob",
        "2026-12-01",
        "an example",
    )
    (memory / ".gitmem" / allowed.NAME).write_text(allowed.append(None, [row]))
    git(memory, "add", "-A")
    git(memory, "commit", "-q", "--no-verify", "-m", "an allowed example token")
    [listed] = json.loads(ok(run(memory, "candidates", "--format", "json")).output)
    assert not any(": SECRET " in p for p in listed["problems"]), listed["problems"]
    assert token in listed["title"], listed
    assert any(token in p for p in listed["problems"] if ": FILES-MISSING " in p), listed


@pytest.mark.parametrize("what", ["commit", "file"])
def test_a_damaged_candidate_branch_is_named_and_the_others_still_listed(
    memory: Path, what: str
) -> None:
    """One candidate branch leading to an object the repository lacks stopped `gitmem
    candidates` (and CANDIDATES.md, the MCP tool, the site) for every candidate, or was
    listed as holding no file; it is listed with its damage, beside the others, and a command
    that asks for it by its id says the repository is damaged (exit 2)."""
    damaged = proposed(ok(run(memory, *PROPOSE)).output)
    other = proposed(ok(run(memory, *HOOKS)).output)
    rev = f"gitmem/{damaged}" + (f":.gitmem/candidates/{damaged}.md" if what == "file" else "")
    oid = git(memory, "rev-parse", rev).strip()
    (memory / ".git" / "objects" / oid[:2] / oid[2:]).unlink()

    listing = ok(run(memory, "candidates")).output
    assert f"{other}  valid" in listing
    kind = "file" if what == "file" else "commit"
    assert (
        f"CANDIDATE-BRANCH branch refs/heads/gitmem/{damaged} cannot be read: this repository "
        f"is damaged: the {kind} {oid}"
    ) in listing
    for args in (["admit", damaged], ["show", damaged], ["review", damaged]):
        result = run(memory, *args)
        assert result.exit_code == 2, result.output
        assert "this repository is damaged" in result.output and "git fsck" in result.output
    ok(run(memory, "admit", other))


@pytest.mark.parametrize("packed", [False, True])
def test_a_candidate_ref_file_holding_garbage_is_named_not_left_out(
    memory: Path, packed: bool
) -> None:
    """libgit2 lists no ref whose file holds no object id (git says "ignoring broken ref"):
    such a candidate branch vanished from `gitmem candidates` and CANDIDATES.md without a
    word. It is listed with its damage beside the others, and admit of it says so (exit 2).
    When packed-refs holds the branch too (after `git gc`), libgit2 lists it, and reading it
    stopped `gitmem candidates` for every candidate."""
    broken = proposed(ok(run(memory, *PROPOSE)).output)
    other = proposed(ok(run(memory, *HOOKS)).output)
    if packed:
        git(memory, "pack-refs", "--all")
    loose = memory / ".git" / "refs" / "heads" / "gitmem" / broken
    loose.parent.mkdir(parents=True, exist_ok=True)
    loose.write_text("garbage\n")

    listing = ok(run(memory, "candidates")).output
    assert f"{other}  valid" in listing
    assert (
        f"CANDIDATE-BRANCH branch refs/heads/gitmem/{broken} cannot be read: this repository "
        f"is damaged: the ref refs/heads/gitmem/{broken} cannot be read"
    ) in listing
    result = run(memory, "admit", broken)
    assert result.exit_code == 2, result.output
    assert f"git update-ref refs/heads/gitmem/{broken} COMMIT" in result.output
    ok(run(memory, "index"))
    assert f"[{broken}] 1 problem(s)" in (memory / ".gitmem" / "CANDIDATES.md").read_text()


@pytest.mark.parametrize("packed", [False, True])
def test_a_remote_tracking_candidate_ref_holding_garbage_is_named_as_a_local_one_is(
    memory: Path, tmp_path: Path, packed: bool
) -> None:
    """A remote-tracking candidate branch whose ref file holds no object id was never looked
    for: alone in its file, it vanished from `gitmem candidates` and show said there was no
    such candidate; shadowing the line a clone wrote in packed-refs, it stopped `gitmem
    candidates` for every candidate (exit 2). It is now named with its damage beside the
    others, as a local branch is, and every command asking for it says so (exit 2)."""
    server = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(server))
    git(memory, "remote", "add", "origin", str(server))
    git(memory, "push", "-q", "-u", "origin", "main")
    broken = proposed(ok(run(memory, *PROPOSE, "--push")).output)
    other = proposed(ok(run(memory, *HOOKS, "--push")).output)
    teammate = tmp_path / "teammate"
    git(tmp_path, "clone", "-q", str(server), str(teammate))  # writes packed-refs
    ref = f"refs/remotes/origin/gitmem/{broken}"
    if not packed:  # a fetch writes the ref as a loose file
        git(teammate, "update-ref", "-d", ref)
        git(teammate, "fetch", "-q")
    assert (f" {ref}\n" in (teammate / ".git" / "packed-refs").read_text()) is packed
    loose = teammate / ".git" / ref
    loose.parent.mkdir(parents=True, exist_ok=True)
    loose.write_text("garbage\n")

    listing = ok(run(teammate, "candidates")).output
    assert f"{other}  valid" in listing
    assert (
        f"CANDIDATE-BRANCH branch {ref} cannot be read: this repository is damaged: the ref "
        f"{ref} cannot be read"
    ) in listing
    for args in (["admit", broken], ["show", broken], ["review", broken]):
        result = run(teammate, *args)
        assert result.exit_code == 2, result.output
        assert f"the ref {ref} cannot be read" in result.output, result.output
        assert "git fsck" in result.output and f"remove its file, {ref} in the" in result.output
        assert "or `git fetch` it again" in result.output
    ok(run(teammate, "admit", other))


def test_a_stale_remote_tracking_branch_where_candidates_go_is_named_with_prune(
    memory: Path, tmp_path: Path
) -> None:
    """origin had a branch `gitmem`, which a teammate fetched; deleted there since, it stays
    here until pruned, and git can then write no `origin/gitmem/<id>`: `git fetch` brings
    none of origin's candidates, and `gitmem candidates` said "no pending candidates". It
    names the branch in the way and `git remote prune origin`; once pruned, they are
    listed."""
    server = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(server))
    git(memory, "remote", "add", "origin", str(server))
    git(memory, "push", "-q", "-u", "origin", "main")
    git(server, "branch", "gitmem", "main")
    teammate = tmp_path / "teammate"
    git(tmp_path, "clone", "-q", str(server), str(teammate))
    git(server, "branch", "-D", "gitmem")
    entry_id = proposed(ok(run(memory, *PROPOSE, "--push")).output)
    fetched = subprocess.run(["git", "fetch"], cwd=teammate, capture_output=True, text=True)
    assert fetched.returncode != 0, fetched.stderr  # git's own words vary with its version

    listing = ok(run(teammate, "candidates")).output
    assert (
        "gitmem: warning: a remote-tracking branch named `origin/gitmem` "
        "(refs/remotes/origin/gitmem) stands where origin/gitmem/<id> goes"
    ) in listing
    assert "prune it (`git remote prune origin`)" in listing
    git(teammate, "remote", "prune", "origin")
    git(teammate, "fetch", "-q")
    listing = ok(run(teammate, "candidates")).output
    assert f"{entry_id}  valid" in listing and "warning" not in listing


def test_a_local_branch_and_its_remote_tracking_one_apart_are_read_local_first(
    memory: Path, tmp_path: Path
) -> None:
    """A candidate's local branch `gitmem/<id>` and origin's `origin/gitmem/<id>` may hold
    different commits (the author fixed it here and has not pushed yet). The rule
    (docs/review.md) is that the local branch is read first: what `gitmem candidates` lists
    (text and JSON), show, review and CANDIDATES.md read, and what admit merges, is the
    same commit, and `--expect` of origin's tip is refused as a moved candidate."""
    server = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(server))
    git(memory, "remote", "add", "origin", str(server))
    git(memory, "push", "-q", "-u", "origin", "main")
    entry_id = proposed(ok(run(memory, *PROPOSE, "--push")).output)
    branch, path = f"gitmem/{entry_id}", memory / ".gitmem" / "candidates" / f"{entry_id}.md"
    git(memory, "checkout", "-q", branch)
    path.write_text(path.read_text().replace("Read objects with pygit2.", "Read refs too."))
    git(memory, "commit", "-q", "-am", "fixed here, not pushed")
    git(memory, "checkout", "-q", "main")
    local = git(memory, "rev-parse", branch).strip()
    remote = git(memory, "rev-parse", f"origin/{branch}").strip()
    assert local != remote

    listing = ok(run(memory, "candidates")).output
    assert f"{entry_id}  valid  Use pygit2 inside hooks  (refs/heads/{branch})" in listing
    assert f"refs/remotes/origin/{branch}" not in listing
    [row] = json.loads(ok(run(memory, "candidates", "--format", "json")).output)
    assert (row["ref"], row["tip"]) == (f"refs/heads/{branch}", local)
    for args in (["show", entry_id], ["review", entry_id]):
        shown = ok(run(memory, *args)).output
        assert "Read refs too." in shown and "Read objects with pygit2." not in shown, shown
    ok(run(memory, "index"))
    assert f"(branch {branch})" in (memory / ".gitmem" / "CANDIDATES.md").read_text()

    moved = run(memory, "admit", entry_id, "--expect", remote)
    assert moved.exit_code == 1, moved.output
    assert f"its branch is at {local[:12]}, not the reviewed {remote[:12]}" in moved.output
    ok(run(memory, "admit", entry_id, "--expect", local))
    assert git(memory, "rev-parse", "main^2").strip() == local
    admitted = git(memory, "show", f"main:.gitmem/entries/decision/{entry_id}.md")
    assert "Read refs too." in admitted


def test_remote_of_is_asked_of_remote_tracking_candidates_alone() -> None:
    """A local candidate came from no remote: remote_of named origin for it, which a
    repository whose remote is upstream, or that has none, does not have."""
    from gitmem.lifecycle.candidates import Candidate, remote_of

    tracking = Candidate("x", "refs/remotes/upstream/gitmem/x", "0" * 40, "x.md", None)
    assert remote_of(tracking) == "upstream"
    with pytest.raises(ValueError, match="gitmem/x is a local branch"):
        remote_of(Candidate("x", "refs/heads/gitmem/x", "0" * 40, "x.md", None))
