"""Recall, the agents' catalog and the export read only files at an entry's place.

The invariant: an entry is a file at `<dir>/entries/<type>/<id>.md` (gitmem.model.names
.entry_place), the place `gitmem check` requires; a file anywhere else below entries/ is
LAYOUT and no entry, whoever committed it past the hooks. `gitmem list`, `show` and the site
already read it so; recall's cache and the agents' catalog took every `.md` below entries/,
so a merge tool's copy straight under entries/ or in a folder below a type's was recalled
and exported as an admitted entry."""

from __future__ import annotations

from pathlib import Path

from clirunner import PROPOSE, first_id, ok, run

from conftest import git

STRAY_ID = "local-decision-20260101-quokkas-are-fed-at-dawn"
STRAYS = (".gitmem/entries/copy.md", f".gitmem/entries/decision/sub/{STRAY_ID}.md")
QUERY = "when are the quokkas fed at the zoo"


def _commit_strays(memory: Path) -> None:
    """Two copies of the admitted entry, renamed to a topic of their own, outside any
    entry's place, committed without the hooks (as a merge resolved by hand may be)."""
    text = (memory / f".gitmem/entries/decision/{first_id()}.md").read_text(encoding="utf-8")
    text = text.replace(first_id(), STRAY_ID)
    text = text.replace("Use pygit2 inside hooks", "Quokkas are fed at dawn at the zoo")
    text = text.replace("writing code that runs inside a git hook", "feeding the zoo's quokkas")
    for stray in STRAYS:
        (memory / stray).parent.mkdir(parents=True, exist_ok=True)
        (memory / stray).write_text(text, encoding="utf-8")
    git(memory, "add", "-A")
    git(memory, "commit", "-q", "--no-verify", "-m", "copies, past the hooks")


def _recalls_no_stray(repo: Path) -> None:
    for fmt in ("text", "json", "precedents"):
        done = run(repo, "recall", "--min-score", "0", "--format", fmt, QUERY)
        assert done.exit_code == 0, done.output
        assert STRAY_ID not in done.stdout and "Quokka" not in done.stdout, (fmt, done.stdout)
    found = ok(run(repo, "recall", "--format", "json", "pygit2 inside hooks")).stdout
    assert found.count(f'"id": "{first_id()}"') == 1, found
    assert f'"path": ".gitmem/entries/decision/{first_id()}.md"' in found, found


def test_a_stray_copy_is_not_recalled_after_an_update_or_a_first_build(
    memory: Path, tmp_path: Path
) -> None:
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    # the cache remembers this tree: the strays' commit reaches it as an update (a diff)
    ok(run(memory, "recall", "pygit2 inside hooks"))
    _commit_strays(memory)
    _recalls_no_stray(memory)
    # a clone builds its cache from the whole tree
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(memory), str(clone))
    _recalls_no_stray(clone)


def test_the_export_leaves_a_stray_out_and_names_it(memory: Path) -> None:
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", first_id()))
    ok(run(memory, "export", "agents", "-o", "-"))  # a catalog of the tree before the strays
    _commit_strays(memory)
    done = run(memory, "export", "agents", "-o", "-")
    assert done.exit_code == 0, done.output
    assert "Quokka" not in done.stdout and first_id() in done.stdout, done.stdout
    assert "2 file(s) below the main branch's entries/ are not readable entries" in done.stdout
    for stray in STRAYS:
        assert f"gitmem: {stray}: not a readable entry" in done.stderr, done.stderr
