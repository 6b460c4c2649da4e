"""Reading the memory: `gitmem show ID` and `gitmem list`, on ids and files that are not
what a reader expects."""

from __future__ import annotations

from pathlib import Path

from clirunner import PROPOSE, first_id, ok, run
from remote import connect, make_server

from conftest import git


def test_show_of_an_id_on_no_branch_says_neither_entry_nor_candidate(memory: Path) -> None:
    """`gitmem show ID` of an id that is no entry on main answered "no candidate", as if
    only candidates were looked up: the message now says both were, and where to look
    (exit 2, as every command's unknown id)."""
    unknown = "local-decision-20990101-nothing-here"
    shown = run(memory, "show", unknown)
    assert shown.exit_code == 2, shown.output
    assert shown.output == (
        f"gitmem: no entry {unknown!r} on main and no candidate {unknown!r} (no branch "
        f"gitmem/{unknown} here or on a remote): `gitmem list` lists the entries, "
        "`gitmem candidates` the candidates (git fetch first?)\n"
    )


def test_an_unknown_id_names_the_ids_that_were_most_likely_meant(memory: Path) -> None:
    """Ids are long (`local-decision-20261207-use-pygit2-inside-hooks`), and people type the
    part they remember or mistype one word: show, amend and admit said only that no such id
    exists. They name the ids holding what was typed, else those spelled closest to it among
    the ids sharing a word with it; admit, which only a candidate answers, names candidates
    alone."""
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    entry = first_id()
    shown = run(memory, "show", "pygit2-inside-hooks")
    assert shown.exit_code == 2, shown.output
    assert f"(did you mean {entry!r}?)" in shown.output, shown.output
    typo = entry.replace("inside", "insde")
    assert f"(did you mean {entry!r}?)" in run(memory, "show", typo).output
    amended = run(memory, "propose", "--amend", "inside-hooks", "--title", "Another title")
    assert amended.exit_code == 2 and f"(did you mean {entry!r}?)" in amended.output

    ok(run(memory, *PROPOSE[:3], "--title", "Keep hooks fast", *PROPOSE[5:]))
    candidate = entry.replace("use-pygit2-inside-hooks", "keep-hooks-fast")
    admitted = run(memory, "admit", "hooks")
    assert admitted.exit_code == 2, admitted.output
    assert f"(did you mean {candidate!r}?)" in admitted.output, admitted.output
    assert entry not in admitted.output  # admitted already: no candidate to admit
    assert "did you mean" not in run(memory, "show", "zzzzqqq").output
    # a long id is named whole, to be copied, where a quoted unknown id is cut short
    long_title = "Keep every generated folder listing what it wrote so rebuilds keep the rest"
    ok(run(memory, *PROPOSE[:3], "--title", long_title, *PROPOSE[5:]))
    long_id = next(
        b.removeprefix("gitmem/")
        for b in git(memory, "branch", "--format=%(refname:short)", "--list", "gitmem/*").split()
        if "generated-folder" in b
    )
    assert len(long_id) > 60
    asked = run(memory, "admit", long_id + "-x").output
    assert f"(did you mean {long_id!r}" in asked and "characters)" not in asked, asked


def test_show_in_a_clone_behind_origin_says_the_entry_is_on_origin_not_on_main(
    memory: Path, tmp_path: Path
) -> None:
    """A teammate who fetched but did not pull asks for an entry admitted on origin's main:
    show said "is no longer a candidate", not that the entry is on origin/main and not on
    their main, nor how to read it."""
    server = make_server(tmp_path)
    connect(memory, server)
    teammate = tmp_path / "teammate"
    git(tmp_path, "clone", "-q", str(server), str(teammate))
    ok(run(memory, *PROPOSE, "--push"))
    ok(run(memory, "admit", first_id(), "--push"))
    git(teammate, "fetch", "-q")
    shown = run(teammate, "show", first_id())
    assert shown.exit_code == 2, shown.output
    assert shown.output.startswith(
        f"gitmem: no entry {first_id()!r} on main: it was admitted by human:Test Author on "
    ), shown.output
    assert shown.output.endswith(
        f"(.gitmem/entries/decision/{first_id()}.md on origin/main): git pull, then show it\n"
    ), shown.output
    git(teammate, "pull", "-q")
    assert "status: admitted" in ok(run(teammate, "show", first_id())).output


def _every_reader(repo: Path, entry_id: str, path: str, rule: str) -> None:
    """Each reader of the memory asked about the entry file at path, which breaks rule (a
    file rule `gitmem check` names): none reads it, and each that reports names the file and
    the rule."""
    from gitmem.repo.workspace import open_workspace
    from gitmem.site import collect

    checked = run(repo, "check")
    assert checked.exit_code == 1 and f"{path}: {rule} " in checked.output, checked.output
    linted = run(repo, "lint")
    assert linted.exit_code == 1 and f"{path}: {rule} " in linted.output, linted.output
    listed = run(repo, "list")
    assert listed.exit_code == 0 and entry_id not in listed.stdout, listed.output
    assert f"gitmem: {path}: {rule} " in listed.stderr, listed.stderr
    shown = run(repo, "show", entry_id)
    assert shown.exit_code == 1 and f"{path}: {rule} " in shown.output, shown.output
    retire = ["propose", "--retire", entry_id, "--reason", "unreadable"]
    for asked in (["show", "--lineage", entry_id], ["propose", "--amend", entry_id], retire):
        done = run(repo, *asked)
        assert done.exit_code == 1 and f"{path}: {rule} " in done.output, (asked, done.output)
    recalled = ok(run(repo, "recall", "pygit2 inside hooks", "--format", "json")).stdout
    assert entry_id not in recalled
    exported = run(repo, "export", "claude", "-o", "-")
    assert exported.exit_code == 0 and entry_id not in exported.stdout, exported.output
    if rule != "SYMLINK":  # export's own walk passes links by without a word (gitmem/agents)
        assert f"gitmem: {path}: " in exported.stderr, exported.stderr
    site = collect.collect(open_workspace(repo))
    assert [e for e in site.entries if e.entry.id == entry_id] == []
    assert site.unreadable == (path,)


def test_an_entry_over_64_kib_is_read_by_no_reader(memory: Path) -> None:
    """An admitted entry grown past 64 KiB by a commit no gate saw (a push where no server
    hook runs): check refused it (TOO-LARGE), recall and export left it out, but list and
    the site read its first 64 KiB as if that were the entry, and show read it whole. The
    one rule, TOO-LARGE: no reader reads a memory file over 64 KiB, and those that report
    name it."""
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    path = f".gitmem/entries/decision/{first_id()}.md"
    with (memory / path).open("a") as grown:
        grown.write("A measurement of the hook, again.\n" * 2000)
    git(memory, "rm", "-q", "README.md")  # a file it cites, gone: lint's DEAD-FILE
    git(memory, "commit", "-q", "--no-verify", "-am", "grown by hand")
    _every_reader(memory, first_id(), path, "TOO-LARGE")
    linted = run(memory, "lint").output
    assert [line for line in linted.splitlines() if line.startswith(path)] == [
        f"{path}: TOO-LARGE is over 64 KiB: a memory entry is a short note (body at most "
        "2000 characters)"
    ], linted


def test_a_symbolic_link_named_like_an_entry_is_named_by_every_reader(memory: Path) -> None:
    """A symbolic link committed as entries/<type>/<id>.md (mode 120000, past the hooks)
    was refused by check (SYMLINK) and left out of list, show and the site without a word:
    `gitmem list` showed nothing of it, `gitmem show ID` said no such entry. The hooks refuse
    it; every reader now leaves it out and those that report name the file and the rule."""
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    linked = first_id().replace("use-pygit2", "linked-pygit2")
    path = f".gitmem/entries/decision/{linked}.md"
    (memory / path).symlink_to(f"{first_id()}.md")
    git(memory, "add", path)
    staged = run(memory, "check", "--staged")
    assert staged.exit_code == 1 and f"{path}: SYMLINK " in staged.output, staged.output
    git(memory, "commit", "-q", "--no-verify", "-m", "a link, past the hooks")
    assert git(memory, "ls-tree", "HEAD", path).startswith("120000 blob ")
    _every_reader(memory, linked, path, "SYMLINK")


def test_show_of_a_candidate_reads_it_as_every_gate_does(memory: Path) -> None:
    """A candidate committed by hand over 64 KiB was shown whole (admit refuses it:
    TOO-LARGE), and one committed as a symbolic link was said to have "no front matter": show
    now names the rule the file breaks, as it does for an entry on main (exit 1)."""
    ok(run(memory, *PROPOSE))
    branch = f"gitmem/{first_id()}"
    path = f".gitmem/candidates/{first_id()}.md"
    git(memory, "checkout", "-q", branch)
    with (memory / path).open("a") as grown:
        grown.write("A measurement of the hook, again.\n" * 2000)
    git(memory, "commit", "-q", "--no-verify", "-am", "grown by hand")
    shown = run(memory, "show", first_id())
    assert shown.exit_code == 1, shown.output
    assert shown.output.startswith(f"gitmem: refs/heads/{branch}:{path}: TOO-LARGE is over 64 KiB")
    (memory / path).unlink()
    (memory / path).symlink_to("../../README.md")
    git(memory, "add", path)
    git(memory, "commit", "-q", "--no-verify", "-m", "a link, past the hooks")
    git(memory, "checkout", "-q", "main")
    shown = run(memory, "show", first_id())
    assert shown.exit_code == 1, shown.output
    assert shown.output.startswith(f"gitmem: refs/heads/{branch}:{path}: SYMLINK "), shown.output


def test_a_memory_folder_committed_as_a_link_is_named_not_read_as_empty(memory: Path) -> None:
    """The memory folder itself committed as a symbolic link to a folder beside it (past the
    hooks): check refused it (SYMLINK), but list said "no entries", show "no entry", lint "no
    .gitmem/ folder", the site had nothing, recall "no precedent" and the export "no admitted
    entry yet": a memory read as empty, not named as broken."""
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    git(memory, "mv", ".gitmem", "kept")
    (memory / ".gitmem").symlink_to("kept")
    git(memory, "add", ".gitmem")
    git(memory, "commit", "-q", "--no-verify", "-m", "the folder as a link")
    said = ".gitmem: SYMLINK the memory folder is a symbolic link"
    commands = (
        ["list"], ["show", first_id()], ["show", "--lineage", first_id()], ["lint"],
        ["recall", "measure the hook"], ["export", "agents", "-o", "-"],
    )  # fmt: skip
    for command in commands:
        done = run(memory, *command)
        assert done.exit_code == 1 and said in done.output, (command, done.output)


def test_lineage_of_a_pending_candidate_says_it_is_one(memory: Path) -> None:
    """`gitmem show --lineage ID` of a pending candidate said "no entry on main: see `gitmem
    list`", as of an id nothing has: it now says the id is a pending candidate, whose lineage
    begins once it is admitted, and how to read it."""
    ok(run(memory, *PROPOSE))
    done = run(memory, "show", "--lineage", first_id())
    assert done.exit_code == 2, done.output
    assert done.output == (
        f"gitmem: no entry {first_id()!r} on main: it is a pending candidate "
        f"(refs/heads/gitmem/{first_id()}), whose lineage begins once it is admitted; "
        f"`gitmem show {first_id()}` shows it\n"
    )


def test_the_reading_commands_say_which_settings_they_set_aside(memory: Path) -> None:
    """A settings file with a value gitmem cannot take (memory.dir given as a number) is set
    aside for the default, with a warning from check, candidates, propose, index and the
    rest; list and show said nothing, and read the default folder as if it were the one the
    project names."""
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    (memory / ".gitmem.toml").write_text("[memory]\ndir = 5\n")
    warned = "gitmem: warning: .gitmem.toml: memory.dir: "
    for command in (["list"], ["show", first_id()], ["show", "--lineage", first_id()]):
        done = ok(run(memory, *command))
        assert done.stderr.startswith(warned), (command, done.stderr)


def test_a_stray_copy_under_entries_is_read_as_no_entry(memory: Path) -> None:
    """Copies left under entries/ outside an entry's place (`entries/copy.md`, a nested
    `entries/decision/sub/<id>.md`, committed past the hooks) are LAYOUT to `gitmem check`,
    but lifecycle.read.entries and the site read every `.md` below entries/ as an entry:
    `gitmem list` listed the entry three times, and the site built pages for the copies.
    Only entries/<type>/<id>.md is an entry; the readers that report name the strays as
    check does, and a merge tool's `….md.orig` stays no entry too."""
    from gitmem.repo.workspace import open_workspace
    from gitmem.site import collect

    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    text = (memory / f".gitmem/entries/decision/{first_id()}.md").read_text()
    strays = [
        ".gitmem/entries/copy.md",
        f".gitmem/entries/decision/sub/{first_id()}.md",
        f".gitmem/entries/decision/{first_id()}.md.orig",
    ]
    for stray in strays:
        (memory / stray).parent.mkdir(parents=True, exist_ok=True)
        (memory / stray).write_text(text)
    git(memory, "add", "-A")
    git(memory, "commit", "-q", "--no-verify", "-m", "copies, past the hooks")
    checked = run(memory, "check")
    assert checked.exit_code == 1, checked.output
    for stray in strays:
        assert f"{stray}: LAYOUT " in checked.output, checked.output
    listed = run(memory, "list")
    assert listed.exit_code == 0 and listed.stdout.count(first_id()) == 1, listed.output
    for stray in strays:
        assert f"gitmem: {stray}: LAYOUT " in listed.stderr, listed.stderr
    rows = ok(run(memory, "list", "--format", "json")).stdout
    assert rows.count(f'"id": "{first_id()}"') == 1, rows
    shown = ok(run(memory, "show", first_id())).output
    assert shown.startswith(f"# .gitmem/entries/decision/{first_id()}.md\n"), shown
    site = collect.collect(open_workspace(memory))
    assert [e.path for e in site.entries] == [f".gitmem/entries/decision/{first_id()}.md"]
    assert set(strays) <= set(site.unreadable), site.unreadable


def _copies_at_other_places(memory: Path) -> list[str]:
    """An admitted entry and two copies of its file committed past the hooks at other
    entries' places (another id's name, another type's folder); the copies' paths."""
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    text = (memory / f".gitmem/entries/decision/{first_id()}.md").read_text()
    copies = [
        ".gitmem/entries/decision/local-decision-20261206-another-name.md",
        f".gitmem/entries/method/{first_id()}.md",
    ]
    for copy in copies:
        (memory / copy).parent.mkdir(parents=True, exist_ok=True)
        (memory / copy).write_text(text)
    git(memory, "add", "-A")
    git(memory, "commit", "-q", "--no-verify", "-m", "copies, past the hooks")
    return copies


def test_a_copy_at_another_entrys_place_is_listed_once_and_named(memory: Path) -> None:
    """A copy of an entry committed at another entry's place (entries/decision/other.md, or
    entries/method/<id>.md, past the hooks) holds the id it copies: `gitmem list` listed that
    id twice, and `gitmem show ID` showed one of the two files. The copy is left out and
    named with the rule `gitmem check` gives it."""
    copies = _copies_at_other_places(memory)
    checked = run(memory, "check")
    for copy in copies:
        assert f"{copy}:" in checked.output and " ID-PATH " in checked.output, checked.output
    listed = run(memory, "list")
    assert listed.exit_code == 0 and listed.stdout.count(first_id()) == 1, listed.output
    for copy in copies:
        assert f"gitmem: {copy}:" in listed.stderr, listed.stderr
    assert listed.stderr.count(" ID-PATH ") == 2, listed.stderr
    rows = ok(run(memory, "list", "--format", "json")).stdout
    assert rows.count(f'"id": "{first_id()}"') == 1, rows


def test_every_reader_leaves_a_copy_at_another_entrys_place_out_as_list_does(
    memory: Path,
) -> None:
    """list left out a copy of an entry at another entry's place (its front matter's id or
    type not the place's, committed past the hooks), but recall, the export, the site and
    review each took it for an entry: recall answered with the copy's path, the export
    listed the id twice, the site built a page for it, review counted the entry twice among
    the candidate's near-duplicates. They share list's rule now (names.misplaced)."""
    import json

    from clirunner import HOOKS, proposed

    from gitmem.repo.workspace import open_workspace
    from gitmem.site import collect

    copies = _copies_at_other_places(memory)
    real = f".gitmem/entries/decision/{first_id()}.md"
    for _ in range(2):  # cold, then from what the first call kept
        recalled = ok(run(memory, "recall", "--format", "json", "pygit2 inside hooks")).stdout
        assert [(h["id"], h["path"]) for h in json.loads(recalled)] == [(first_id(), real)]
    exported = ok(run(memory, "export", "agents", "-o", "-"))
    assert exported.stdout.count("[Use pygit2 inside hooks]") == 1, exported.stdout
    assert f"]({real})" in exported.stdout, exported.stdout
    for copy in copies:
        assert f"gitmem: {copy}: " in exported.stderr, exported.stderr
    site = collect.collect(open_workspace(memory))
    assert [e.path for e in site.entries] == [real]
    assert set(copies) <= set(site.unreadable), site.unreadable
    candidate = proposed(ok(run(memory, *HOOKS)).output)
    reviewed = json.loads(ok(run(memory, "review", candidate, "--format", "json")).stdout)
    assert [s["id"] for s in reviewed["similar"]] == [first_id()], reviewed["similar"]


def test_show_answers_for_an_id_with_the_file_recall_answers_from(memory: Path) -> None:
    """Where two type folders each hold an entry of one id at its own place (committed past
    the hooks), `gitmem show ID` and memory_show (lifecycle.read.show, through find_entry)
    took the first type folder and recall the last: show printed another text than recall
    had given for the id. Both take the file names.answers_for_id says answers. And a copy
    of another entry at an id's place was shown as that id's entry: it is none."""
    import json

    from gitmem.lifecycle import read
    from gitmem.repo.workspace import open_workspace

    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    text = (memory / f".gitmem/entries/decision/{first_id()}.md").read_text()
    twin = memory / f".gitmem/entries/method/{first_id()}.md"
    twin.parent.mkdir()
    twin.write_text(
        text.replace("type: decision", "type: method").replace(
            "title: Use pygit2 inside hooks", "title: Use pygit2 inside hooks, the twin"
        )
    )
    other = "local-decision-20261206-another-name"
    copy = f".gitmem/entries/decision/{other}.md"
    (memory / copy).write_text(text)
    git(memory, "add", "-A")
    git(memory, "commit", "-q", "--no-verify", "-m", "a twin and a copy, past the hooks")
    recalled = json.loads(ok(run(memory, "recall", "--format", "json", "pygit2 hooks")).stdout)
    (hit,) = [h for h in recalled if h["id"] == first_id()]
    assert (hit["path"], hit["title"]) == (
        twin.relative_to(memory).as_posix(),
        "Use pygit2 inside hooks, the twin",
    )
    shown = ok(run(memory, "show", first_id())).stdout
    assert shown.startswith(f"# {hit['path']}\n") and "the twin" in shown, shown
    where, entry = read.show(open_workspace(memory), first_id())
    assert (where, entry.title) == (hit["path"], hit["title"])
    # no entry of that id, as list has none; but not "no entry" either, which sent the user
    # looking for a file that is there: the file and what `gitmem check` says of it (exit 1)
    refused = run(memory, "show", other)
    assert refused.exit_code == 1, refused.output
    assert f"gitmem: {copy}: ID-PATH id {first_id()!r} disagrees" in refused.stderr, refused.stderr
