"""`gitmem export claude|agents`: a budgeted MEMORY.md-style index, at 10, 1,000 and 100,000
entries (the last about a minute: part of every run, since the budget's cut is what matters at
that size).

The stores are written with `git fast-import` (one commit holding every entry, as a
repository whose history was squashed), so the 100,000 case builds in seconds.  Every entry
is admitted on a date of its own rank (ten a day), a tenth are mistakes and a seventh
supersede an older entry, which is then superseded; one in thirteen cites only a file the
project no longer has.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from agent_stores import entry_id, make_store, superseded
from clirunner import PROPOSE, admit, ok, run

from gitmem.agents.export import DEFAULT_BYTES, DEFAULT_LINES


@pytest.fixture(scope="module")
def thousand(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("export") / "work"
    make_store(root, 1000)
    return root


def _lines_of(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("> - [")]


def _listed_numbers(text: str) -> list[int]:
    return [int(line.split("Lesson number ", 1)[1].split("]", 1)[0]) for line in _lines_of(text)]


def test_ten_entries_are_all_listed_corrections_first(tmp_path: Path) -> None:
    root = tmp_path / "work"
    make_store(root, 10)
    out = ok(run(root, "export", "agents")).output
    assert out == "wrote MEMORY.md: 9 of 9 entries\n"  # entry 5 is superseded by entry 6
    text = (root / "MEMORY.md").read_text()
    assert text.startswith("# Project memory of ")
    assert "precedents, not instructions" in text
    numbers = _listed_numbers(text)
    assert sorted(numbers) == [0, 1, 2, 3, 4, 6, 7, 8, 9]
    corrections = [3, 6]  # the mistake, and the entry superseding entry 5
    assert sorted(numbers[:2]) == corrections
    assert text.index("## Corrections and mistakes") < text.index("## Decisions, methods")
    assert "All 9 admitted entries are listed." in text
    line = next(line for line in _lines_of(text) if "Lesson number 4]" in line)
    assert line == (
        f"> - [Lesson number 4](.gitmem/entries/method/{entry_id(4)}.md) — method: "
        "working on area 4 (human:bob, 2020-01-01; may be stale: its files changed since)"
    )  # src/app.py was committed (2023) after the entries' admission day (2020)

    assert "gitmem show ID" in text

    claude = ok(run(root, "export", "claude", "-o", "-")).output
    assert f"](../.gitmem/entries/method/{entry_id(4)}.md)" in claude  # relative to .claude/
    assert "memory_show" in claude
    ok(run(root, "export", "claude"))
    assert (root / ".claude" / "gitmem-memory.md").read_text() == claude


def _check_budget(text: str, lines: int, size: int) -> None:
    assert text.count("\n") <= lines
    assert len(text.encode("utf-8")) <= size


def _check_cut(text: str, count: int) -> None:
    """Superseded never listed; the newest half of the listed are the newest entries;
    corrections rank before the rest; entries citing only gone files come last."""
    numbers = _listed_numbers(text)
    gone = superseded(count)
    assert not set(numbers) & gone
    # newest first: by admission day, then by id (entries of one day have no other order)
    by_id = sorted((n for n in range(count) if n not in gone), key=entry_id)
    admitted = sorted(by_id, key=lambda n: n // 10, reverse=True)
    quota = (len(numbers) + 1) // 2
    assert set(admitted[:quota]) <= set(numbers)  # the newest are never the ones dropped

    def correction(n: int) -> bool:
        return n % 10 == 3 or n % 7 == 6

    def dead(n: int) -> bool:
        return n % 13 == 5

    rest = set(numbers) - set(admitted[:quota])
    left = set(admitted) - set(numbers)
    if any(not correction(n) and not dead(n) for n in rest):
        assert not {n for n in left if correction(n) and not dead(n)}
    if any(dead(n) for n in rest):
        assert all(dead(n) for n in left)
    footer = text.rstrip().splitlines()[-1]
    assert footer.startswith(f"Left out to fit the budget: {len(left)} of {len(admitted)} admitted")


def test_a_thousand_entries_fit_the_default_budget(thousand: Path) -> None:
    out = ok(run(thousand, "export", "claude", "-o", "-")).output
    _check_budget(out, DEFAULT_LINES, DEFAULT_BYTES)
    assert len(_lines_of(out)) > 100
    _check_cut(out, 1000)


def test_a_large_budget_lists_every_admitted_entry_with_its_notes(thousand: Path) -> None:
    args = ("export", "agents", "-o", "-", "--budget-lines", "5000", "--budget-bytes", "10000000")
    out = ok(run(thousand, *args)).output
    assert len(_lines_of(out)) == 1000 - len(superseded(1000))
    dead = next(line for line in _lines_of(out) if "Lesson number 18]" in line)
    assert dead.endswith("(human:bob, 2020-01-02; cites only missing files)")
    assert out.rstrip().endswith(f"All {len(_lines_of(out))} admitted entries are listed.")


def test_a_byte_budget_cuts_before_the_line_budget(thousand: Path) -> None:
    out = ok(run(thousand, "export", "agents", "-o", "-", "--budget-bytes", "6000")).output
    _check_budget(out, DEFAULT_LINES, 6000)
    assert 10 < len(_lines_of(out)) < 60
    _check_cut(out, 1000)
    small = ok(run(thousand, "export", "agents", "-o", "-", "--budget-lines", "30")).output
    _check_budget(small, 30, DEFAULT_BYTES)
    _check_cut(small, 1000)


def test_a_budget_too_small_for_the_header_is_a_usage_error(thousand: Path) -> None:
    result = run(thousand, "export", "agents", "-o", "-", "--budget-lines", "3")
    assert result.exit_code == 2 and "raise --budget-lines" in result.output


def test_an_empty_memory_exports_a_file_that_says_so(memory: Path) -> None:
    out = ok(run(memory, "export", "agents", "-o", "-")).output
    assert "No admitted entry yet." in out


def test_twenty_thousand_entries_fit_the_default_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An export of 20,000 entries (a hundred times the default line budget: the cut is the
    same at any larger size, and 100,000 took a minute of the suite) fits the default
    budget, the first one (cold) building the agents' catalog once and the next (warm)
    reading the one kept. The work is counted, not timed (speed is measured in bench/, and a
    timed bound fails on a loaded machine): catalogs composed, 1 then 0, where a cache that
    did not hold would read every entry file again on each export."""
    from gitmem.lifecycle import catalog

    built = [0]
    compose = catalog._compose

    def counted(*args: Any, **kwargs: Any) -> Any:
        built[0] += 1
        return compose(*args, **kwargs)

    monkeypatch.setattr(catalog, "_compose", counted)
    root = tmp_path / "work"
    make_store(root, 20_000)
    builds = []
    for _ in ("cold", "warm"):
        before = built[0]
        out = ok(run(root, "export", "claude", "-o", "-")).output
        builds.append(built[0] - before)
    assert builds == [1, 0]
    _check_budget(out, DEFAULT_LINES, DEFAULT_BYTES)
    _check_cut(out, 20_000)


def test_a_title_holding_markdown_stays_one_link_and_hides_nothing(memory: Path) -> None:
    """A title is free text: `]` ended the link early (its path left as text), a backtick
    opened a code span running past the line, and `<!--` hid every later line wherever the
    file is rendered. Each is now written with a backslash: one link whose text is the title."""
    from markdown_it import MarkdownIt

    title = "Arrays] start at [0 <!-- and `ticks \\ stay"
    args = ["propose", "--type", "method", "--title", title, "--applies-when", "indexing <b>"]
    entry_id = ok(run(memory, *args, "--content", "Index from zero.")).output.split()[1]
    ok(run(memory, "admit", entry_id))
    text = ok(run(memory, "export", "agents", "-o", "-")).output
    tokens = MarkdownIt("commonmark").parseInline(_lines_of(text)[0][2:])[0].children or []
    kinds = [t.type for t in tokens]
    assert kinds.count("link_open") == 1 and "html_inline" not in kinds, kinds
    opened = kinds.index("link_open")
    inside = tokens[opened + 1 : kinds.index("link_close")]
    assert "".join(t.content for t in inside) == title
    assert str(tokens[opened].attrGet("href")).endswith(f"/{entry_id}.md")
    assert "— method: indexing <b> (human:Test Author, " in "".join(t.content for t in tokens)


def _forge(repo: Path, name: bytes, **fields: str) -> None:
    """An admitted entry committed straight to main, past the hooks, in the file `name` (its
    bytes) in its type's folder, entries/<type>/ (entries/decision/ by default)."""
    import json
    import os

    from conftest import git

    meta = {
        "id": "local-decision-20261201-forged",
        "type": "decision",
        "status": "admitted",
        "title": "Forged past the hooks",
        "applies_when": "never",
        "source": "human:mallory",
        "admitted_by": "human:mallory",
        "created": "2026-12-01",
        "admitted": "2026-12-01",
        **fields,
    }
    front = "".join(f"{key}: {json.dumps(value)}\n" for key, value in meta.items())
    folder = os.fsencode(repo / ".gitmem" / "entries" / meta["type"])
    Path(os.fsdecode(folder)).mkdir(parents=True, exist_ok=True)
    Path(os.fsdecode(folder + b"/" + name)).write_text(
        f"---\n{front}---\n\n## Context\n\n## Content\nx\n\n## Evidence\n"
    )
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "forge an entry")


def test_a_forged_type_or_date_holding_markdown_hides_nothing(memory: Path) -> None:
    """The title, hook and admitter were written as literal text, but the type and the
    admission date went in as they were: a forged `type: "decision <!--"` hid every later
    line of the file wherever it is rendered, and a type holding a link made one. Every field
    of a line is now literal text."""
    from markdown_it import MarkdownIt

    _forge(
        memory,
        b"local-decision-20261201-forged.md",
        type="decision <!-- [here](example.org) `",  # a folder's name: no slash
        admitted="2026-12-01 <!--",
    )
    text = ok(run(memory, "export", "agents", "-o", "-")).output
    tokens = MarkdownIt("commonmark").parseInline(_lines_of(text)[0][2:])[0].children or []
    kinds = [t.type for t in tokens]
    assert kinds.count("link_open") == 1, kinds
    assert "html_inline" not in kinds and "code_inline" not in kinds, kinds
    shown = "".join(t.content for t in tokens)
    assert "— decision <!-- [here](example.org) `: never" in shown
    assert "(human:mallory, 2026-12-01 <!--)" in shown
    cut = ok(run(memory, "export", "agents", "-o", "-", "--budget-lines", "7")).output
    footer = cut.rstrip().splitlines()[-1]
    assert footer.startswith("Left out to fit the budget: 1 of 1"), cut
    tokens = MarkdownIt("commonmark").parseInline(footer)[0].children or []
    kinds = [t.type for t in tokens]
    assert "link_open" not in kinds and kinds.count("code_inline") == 1, kinds  # gitmem recall


def test_an_entry_holding_a_secret_is_exported_withheld(memory: Path) -> None:
    """The export is a file an agent loads whole and a person may commit: an entry admitted
    before a rule existed, or pushed around the gates, had its title, situation and admitter
    copied into it as they were. They are withheld, as recall withholds them."""
    from secret_samples import POSITIVES

    _, _, secret = next(p for p in POSITIVES if p[0] == "aws-access-key-id")
    _forge(
        memory,
        b"local-decision-20261201-forged.md",
        title=f"Deploy with {secret}",
        applies_when=f"deploying with {secret}",
    )
    text = ok(run(memory, "export", "agents", "-o", "-")).output
    line = _lines_of(text)[0]
    assert secret not in text
    assert "(withheld: the entry holds a secret)" in line and "local-decision-20261201" in line


def test_an_entry_file_of_any_name_is_one_link_to_it(memory: Path) -> None:
    """A link's target went in as the file's path: a name holding `)` or a space ended the
    link early, the rest of the name (and whatever link it spelled) left as Markdown. The
    target is now the path percent-encoded."""
    from urllib.parse import unquote

    from markdown_it import MarkdownIt

    name = "odd name) [here](https:--example.org) é.md"
    _forge(memory, name.encode(), id=name[:-3])  # the id of its place: an entry
    text = ok(run(memory, "export", "agents", "-o", "-")).output
    tokens = MarkdownIt("commonmark").parseInline(_lines_of(text)[0][2:])[0].children or []
    links = [t for t in tokens if t.type == "link_open"]
    assert len(links) == 1, [t.type for t in tokens]
    assert unquote(str(links[0].attrGet("href"))) == f".gitmem/entries/decision/{name}"


def test_an_entry_file_named_in_bytes_that_are_not_utf8_is_named_and_left_out(
    memory: Path,
) -> None:
    """git keeps a name's bytes; gitmem reads one that is not UTF-8 with lone surrogates,
    which the catalog's line could not encode: the export (and every reader of the
    catalog) ended with an unexpected error (exit 3). Such a name is no entry's place
    (gitmem.model.names.entry_place: LAYOUT to the gate, unlisted by `gitmem list`), so
    the export leaves the file out and names it, its bytes shown as escapes."""
    _forge(memory, b"forged-\xff.md")
    result = ok(run(memory, "export", "agents", "-o", "-"))
    assert _lines_of(result.stdout) == [], result.stdout
    assert "gitmem: .gitmem/entries/decision/forged-" in result.stderr, result.stderr
    assert "not a readable entry, left out" in result.stderr, result.stderr


def test_links_of_a_file_written_by_absolute_path_lead_to_the_entries(
    memory: Path, tmp_path: Path
) -> None:
    """With an absolute -o, a link was made relative to the current folder rather than the
    repository root: run from a sub-folder, every link missed its entry (`../sub/.gitmem/…`).
    Each link now leads from the file to the entry, wherever gitmem runs."""
    import re

    entry_id = ok(run(memory, *PROPOSE)).output.split()[1]
    ok(run(memory, "admit", entry_id))
    (memory / "sub").mkdir()
    for target in (memory / "docs" / "MEMORY.md", tmp_path / "elsewhere" / "MEMORY.md"):
        ok(run(memory / "sub", "export", "agents", "-o", str(target)))
        (href,) = re.findall(r"\]\(([^)]*)\)", target.read_text())
        assert (target.parent / href).resolve() == next(memory.rglob(f"{entry_id}.md")).resolve()


def test_an_at_sign_in_an_entry_imports_no_file_where_the_export_is_imported(
    memory: Path,
) -> None:
    """Claude Code reads `@path` after a space or at a line's start, in CLAUDE.md and in the
    files it imports (`@.claude/gitmem-memory.md`), as an import of that file into the
    model's context. An admitted title or hook holding `@.env` or `@~/.aws/credentials` made
    the export import it. Each `@` of an entry's text is now written `\\@`, which Markdown
    shows as `@` and no import reads."""
    import re

    from markdown_it import MarkdownIt

    args = ["propose", "--type", "method", "--title", "Keep @.env out of commits"]
    args += ["--applies-when", "reading @~/.aws/credentials or @README.md"]
    entry_id = ok(run(memory, *args, "--content", "Use a vault.")).output.split()[1]
    ok(run(memory, "admit", entry_id))
    text = ok(run(memory, "export", "claude", "-o", "-")).output
    assert not re.findall(r"(?:^|\s)@((?:[^\s\\]|\\ )+)", text, re.MULTILINE)
    tokens = MarkdownIt("commonmark").parseInline(_lines_of(text)[0][2:])[0].children or []
    shown = "".join(t.content for t in tokens)
    assert "Keep @.env out of commits" in shown
    assert "reading @~/.aws/credentials or @README.md" in shown


def test_an_entry_file_that_does_not_parse_is_named_not_silently_left_out(memory: Path) -> None:
    """An admitted entry's file broken past the gate (a field given twice, bytes that are not
    UTF-8) was left out of the export without a word: the file said "No admitted entry
    yet." (or "All N admitted entries are listed.") and the command exited 0, where `gitmem
    list` and the site name the file. The export now names it on stderr and its last line
    says how many entry files do not parse; a superseded entry is still left out quietly."""
    kept = admit(memory, PROPOSE)
    broken = admit(memory, [*PROPOSE[:4], "Read refs with pygit2 inside hooks", *PROPOSE[5:]])
    path = next((memory / ".gitmem" / "entries").rglob(f"{broken}.md"))
    path.write_text(path.read_text().replace("type: decision", "type: decision\ntype: method"))
    from conftest import git

    git(memory, "commit", "-q", "--no-verify", "-am", "a field given twice, past the gate")
    name = path.relative_to(memory).as_posix()
    for target in ("agents", "claude"):
        result = ok(run(memory, "export", target, "-o", "-"))
        assert f"gitmem: {name}: not a readable entry, left out; `gitmem check`" in result.stderr
        text = result.stdout
        assert kept in text and broken not in text
        assert text.rstrip().endswith(
            "All 1 admitted entries are listed. 1 file(s) below the main branch's entries/ "
            "are not readable entries and are left out: `gitmem check` names their problems."
        ), text
    written = ok(run(memory, "export", "agents"))
    assert name in written.stderr and "wrote MEMORY.md: 1 of 1 entries" in written.stdout


def test_an_entry_committed_as_a_symbolic_link_is_named_not_silently_left_out(
    memory: Path,
) -> None:
    """Every other reader names a symbolic link committed where an entry's file goes (SYMLINK:
    the hooks refuse it, but main may hold one pushed where no server hook runs); the export
    left it out without a word, as if the memory held nothing more."""
    from conftest import git

    kept = admit(memory, PROPOSE)
    folder = memory / ".gitmem" / "entries" / "decision"
    link = folder / "local-decision-20260101-a-linked-entry.md"
    link.symlink_to(next(folder.glob(f"{kept}.md")).name)
    git(memory, "add", "-A")
    git(memory, "commit", "-q", "--no-verify", "-m", "a link, past the gate")
    name = link.relative_to(memory).as_posix()
    result = ok(run(memory, "export", "agents", "-o", "-"))
    assert f"gitmem: {name}: not a readable entry, left out; `gitmem check`" in result.stderr
    assert result.stdout.rstrip().endswith(
        "All 1 admitted entries are listed. 1 file(s) below the main branch's entries/ are "
        "not readable entries and are left out: `gitmem check` names their problems."
    ), result.stdout


def test_a_cited_name_ending_in_a_carriage_return_is_gone_not_another_file(memory: Path) -> None:
    """git reads a path given on a line (`git log --stdin`) without its last carriage return:
    a cited `a.py\\r` (only an entry past the gate cites one) was asked as `a.py`, so its own
    changes were never found and the entry read as fresh. Such a name is now gone, as recall
    says it is (gitmem.recall.freshness.askable), and a plain name beside it keeps its note."""
    from conftest import git

    (memory / "a.py").write_text("a\n")
    (memory / "a.py\r").write_text("b\n")
    git(memory, "add", "-A")
    git(memory, "commit", "-q", "-m", "two files")
    _forge(memory, b"local-decision-20261201-forged.md", files=["a.py\r"], admitted="2000-01-01")
    plain = {"id": "local-decision-20261201-plain", "title": "Plain", "admitted": "2000-01-01"}
    _forge(memory, b"local-decision-20261201-plain.md", files=["a.py"], **plain)
    lines = _lines_of(ok(run(memory, "export", "agents", "-o", "-")).output)
    forged = next(line for line in lines if "[Forged past the hooks]" in line)
    assert forged.endswith("(human:mallory, 2000-01-01; cites only missing files)"), lines
    kept = next(line for line in lines if "[Plain]" in line)
    assert kept.endswith("(human:mallory, 2000-01-01; may be stale: its files changed since)")


def test_an_entry_citing_a_folder_is_stale_when_a_file_below_it_changed(memory: Path) -> None:
    """git lists the files a commit changed, never their folders, so an entry citing `src`
    was never found changed by the export, whatever changed below it, where recall counts
    the commits touching the folder's files."""
    from conftest import git

    (memory / "src").mkdir()
    (memory / "src" / "app.py").write_text("a\n")
    git(memory, "add", "-A")
    git(memory, "commit", "-q", "-m", "a folder")
    _forge(memory, b"local-decision-20261201-forged.md", files=["src"], admitted="2000-01-01")
    lines = _lines_of(ok(run(memory, "export", "agents", "-o", "-")).output)
    cited = next(line for line in lines if "[Forged past the hooks]" in line)
    assert cited.endswith("(human:mallory, 2000-01-01; may be stale: its files changed since)")


def test_a_shallow_clone_says_unknown_where_its_cut_is_the_newest_change(
    memory: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A clone of depth 1 holds its tip alone, where git calls every file added: the newest
    change of each cited file was the tip's day, so an entry whose file had not changed since
    its admission was exported "may be stale: its files changed since". Where that change is
    only the clone's cut, the line says the freshness is unknown; a cut older than the
    admission tells it all the same, and a clone deep enough answers as a full one."""
    from conftest import git

    def commit_on(day: str, files: dict[str, str] | None = None, **entry: str) -> None:
        monkeypatch.setenv("GIT_COMMITTER_DATE", f"{day}T12:00:00Z")
        if entry:
            _forge(memory, f"{entry['id']}.md".encode(), files=["a.py"], **entry)
            return
        for name, text in (files or {}).items():
            (memory / name).write_text(text)
        git(memory, "add", "-A")
        git(memory, "commit", "-q", "-m", f"on {day}")

    commit_on("2020-01-01", {"a.py": "a\n"})
    commit_on(
        "2021-01-01", id="local-decision-20210101-older", title="Older", admitted="2021-01-01"
    )
    commit_on("2022-01-01", {"b.py": "b\n"})
    commit_on(
        "2023-01-01", id="local-decision-20230101-newer", title="Newer", admitted="2023-01-01"
    )

    def notes(folder: Path) -> dict[str, str]:
        lines = _lines_of(ok(run(folder, "export", "agents", "-o", "-")).output)
        return {title: next(x for x in lines if f"[{title}]" in x) for title in ("Older", "Newer")}

    whole = notes(memory)
    assert whole["Older"].endswith("(human:mallory, 2021-01-01)"), whole  # a.py: 2020
    for depth, cut_is_newest in (("1", True), ("2", True), ("5", False)):
        clone = tmp_path / f"depth{depth}"
        git(tmp_path, "clone", "-q", "--depth", depth, f"file://{memory}", str(clone))
        assert (clone / ".git" / "shallow").is_file()
        said = notes(clone)
        assert said["Newer"] == whole["Newer"]  # the cut (2022 or 2023) is no later day
        if cut_is_newest:
            assert said["Older"].endswith(
                "(human:mallory, 2021-01-01; freshness unknown: this clone's history is "
                "shallow; run git fetch --unshallow to judge)"
            ), said
        else:
            assert said == whole
