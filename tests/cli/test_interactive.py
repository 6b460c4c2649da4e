"""Commands that talk to a person: run in a real pseudo-terminal, answered like a person would."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from clirunner import PROPOSE, first_id, ok, run

from gitmem.lifecycle.candidates import pending
from gitmem.repo.workspace import open_workspace

from conftest import git


def converse(cwd: Path, args: list[str], answers: list[tuple[str, str]], env: dict[str, str]
             ) -> tuple[int, str]:  # fmt: skip
    """Run gitmem in a terminal; each time `prompt` appears in its output, type `answer`."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gitmem", *args],
        cwd=cwd, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True,
    )  # fmt: skip
    os.close(slave)
    output = b""
    pending = list(answers)
    seen = 0  # answers wait for their prompt after what was already answered
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
            text = output.decode("utf-8", "replace")
            if pending and pending[0][0] in text[seen:]:
                seen = len(text)
                os.write(master, pending.pop(0)[1].encode() + b"\r")
        elif proc.poll() is not None:
            break
    proc.wait(timeout=30)
    os.close(master)
    return proc.returncode, output.decode("utf-8", "replace")


def test_admit_walks_candidates_and_admits_only_an_explicit_yes(memory: Path) -> None:
    ok(run(memory, *PROPOSE))
    second = ok(run(
        memory, "propose", "--type", "method", "--title", "Review memory like code",
        "--applies-when", "a candidate waits", "--content", "Open a pull request.",
    )).output.split()[1]  # fmt: skip
    third = ok(run(
        memory, "propose", "--type", "method", "--title", "Name hooks after git's",
        "--applies-when", "adding a hook", "--content", "Use git's own hook names.",
    )).output.split()[1]  # fmt: skip
    env = {**os.environ, "TERM": "dumb"}
    # candidates come sorted by id: the decision, then the two methods
    code, out = converse(
        memory,
        ["admit", "--by", "human:bob"],
        [("admit / refuse / skip", "yes"), ("admit / refuse / skip", "maybe"),
         ("admit / refuse / skip", "refuse"), ("reason", "too vague")],
        env,
    )  # fmt: skip
    assert code == 0, out
    assert "checks: all rules pass" in out
    assert f"admitted {first_id()}" in out
    ws_ids = {c.id for c in pending(open_workspace(memory))}
    admitted = git(memory, "ls-tree", "-r", "--name-only", "main", ".gitmem/entries")
    assert first_id() in admitted
    refused = git(memory, "show", "main:.gitmem/refused.md")
    skipped, refused_id = sorted([second, third])[0], sorted([second, third])[1]
    assert f"skipped {skipped}" in out and ws_ids == {skipped}
    assert "too vague" in refused and refused_id in refused


def test_propose_in_the_editor(memory: Path, tmp_path: Path) -> None:
    """The template's placeholder sections are never proposed as they are (issue 14); the
    draft is kept for --from."""
    editor = tmp_path / "editor.sh"
    editor.write_text(
        "#!/bin/sh\n"
        "sed -i -e 's/^title:$/title: Written in the editor/' "
        "-e 's/^applies_when:$/applies_when: a person proposes by hand/' \"$1\"\n"
    )
    editor.chmod(0o755)
    env = {**os.environ, "EDITOR": str(editor), "VISUAL": str(editor), "TERM": "dumb"}
    code, out = converse(memory, ["propose"], [], env)
    assert code == 2, out
    assert "## Context and ## Content and ## Evidence still hold the template's" in out
    draft = memory / ".git" / "GITMEM_DRAFT.md"
    assert f"your draft is kept in {draft}: fix it there, then gitmem propose --from" in out
    assert "title: Written in the editor" in draft.read_text()
    assert git(memory, "for-each-ref", "refs/heads/gitmem/") == ""

    editor.write_text(
        "#!/bin/sh\n"
        "sed -i -e 's/^title:$/title: Written in the editor/' "
        "-e 's/^applies_when:$/applies_when: a person proposes by hand/' "
        "-e 's/^Why this came up.$/A reviewer asked for it./' "
        "-e 's/^The lesson itself.$/Write the lesson in the editor./' "
        "-e '/^Commits, measurements/d' \"$1\"\n"
    )
    code, out = converse(memory, ["propose"], [], env)
    assert code == 0, out
    assert "proposed local-method-" in out and "written-in-the-editor" in out


def test_the_admit_prompt_shows_a_near_refused_topic(memory: Path) -> None:
    def orders(title: str) -> list[str]:
        return [
            *("propose", "--type", "decision", "--title", title),
            *(
                "--applies-when",
                "choosing where orders are kept",
                "--content",
                "Use a document store.",
            ),
        ]

    first = ok(run(memory, *orders("Store the orders in Mongo DB"))).output.split()[1]
    ok(run(memory, "refuse", first, "--reason", "orders stay in Postgres"))
    ok(run(memory, *orders("Keep orders in MongoDB")))
    env = {**os.environ, "TERM": "dumb"}
    code, out = converse(memory, ["admit"], [("admit / refuse / skip", "skip")], env)
    assert code == 0, out
    before = out.split("admit / refuse / skip", 1)[0]
    assert "REFUSED-TOPIC warning: close to refused topic 'store-the-orders-in-mongo-db'" in before


def test_the_admit_prompt_shows_a_candidates_control_characters_escaped(memory: Path) -> None:
    """The interactive admit printed each check's message as it was, and a message quotes the
    candidate's own text (ID-TYPE quotes its type): a type holding an escape sequence
    retitled or cleared the reviewer's terminal. `gitmem candidates` escaped them already."""
    cid = "local-decision-20261205-hostile"
    git(memory, "checkout", "-q", "-b", f"gitmem/{cid}")
    (memory / ".gitmem" / "candidates").mkdir()
    (memory / ".gitmem" / "candidates" / f"{cid}.md").write_text(
        f"---\nid: {cid}\n"
        'type: "deci\\e]0;PWNED\\asion\\e[2J"\n'
        "status: candidate\ntitle: Hostile\napplies_when: always\nsource: human:me\n"
        "created: 2026-12-05\n---\n\n## Context\nc\n\n## Content\nc\n\n## Evidence\ne\n"
    )
    git(memory, "add", "-A")
    git(memory, "commit", "-q", "--no-verify", "-m", "hostile candidate")
    git(memory, "checkout", "-q", "main")
    env = {**os.environ, "TERM": "dumb"}
    code, out = converse(memory, ["admit"], [("admit / refuse / skip", "skip")], env)
    assert code == 0, out
    assert "ID-TYPE" in out
    assert "\x1b" not in out and "\x07" not in out


def test_an_editor_that_fails_or_deletes_its_file_is_a_clear_error(
    memory: Path, tmp_path: Path
) -> None:
    """An editor that removed its file ended in an unexpected error (exit 3, a traceback in
    the log); one that failed or could not start printed click's bare "Editing failed"."""
    editor = tmp_path / "editor.sh"
    for script, says in [
        ('rm "$1"\n', "left no file"),
        ("exit 4\n", "failed"),
    ]:
        editor.write_text("#!/bin/sh\n" + script)
        editor.chmod(0o755)
        env = {**os.environ, "EDITOR": str(editor), "VISUAL": str(editor), "TERM": "dumb"}
        code, out = converse(memory, ["propose"], [], env)
        assert code == 2, out
        assert f"gitmem: the editor {editor} {says}: nothing proposed" in out
        assert "unexpected error" not in out and "Error:" not in out
    assert git(memory, "for-each-ref", "refs/heads/gitmem/") == ""


#: What an editor set to Latin-1 saves for a draft that holds an accent: `é` as the one byte
#: 0xE9 (on the third line, the title's), which is not UTF-8.
LATIN_1_DRAFT = (
    "---\ntype: decision\ntitle: Write the caf\u00e9's orders down\n"
    "applies_when: a draft holds an accent\n---\n\n## Context\nSaved by an editor in Latin-1.\n"
    "\n## Content\nKeep each order in the caf\u00e9's book.\n\n## Evidence\nA bug report.\n"
).encode("latin-1")


@pytest.mark.parametrize("start", [[], ["--edit", "ENTRY"], ["--amend", "ENTRY"]])
def test_a_draft_the_editor_saved_in_latin_1_is_kept_byte_for_byte(
    memory: Path, tmp_path: Path, start: list[str]
) -> None:
    """An editor that saved the draft in another encoding than UTF-8 (Latin-1: `é` as the
    byte 0xE9) proposed nothing, and the draft was lost with the editor's temporary file:
    "saved text that is not UTF-8: nothing proposed". It is now kept in the git directory,
    byte for byte, as a draft the rules refuse is, and the error is the line `gitmem check`
    prints for it (ENCODING, with its line), with where it is kept and how to propose it
    once saved as UTF-8 (`--from`)."""
    entry_id = first_id()
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", entry_id, "--by", "human:bob"))
    saved = tmp_path / "saved.md"
    saved.write_bytes(LATIN_1_DRAFT)
    editor = tmp_path / "editor.sh"
    editor.write_text(f'#!/bin/sh\ncat "{saved}" > "$1"\n')
    editor.chmod(0o755)
    env = {**os.environ, "EDITOR": str(editor), "VISUAL": str(editor), "TERM": "dumb"}
    args = [entry_id if a == "ENTRY" else a for a in start]
    code, out = converse(memory, ["propose", *args], [], env)
    draft = memory / ".git" / "GITMEM_DRAFT.md"
    assert code == 1, out
    assert f"{draft}:3: ENCODING is not valid UTF-8 (byte " in out, out
    again = " ".join(["gitmem", "propose", *args, "--from", str(draft)])
    assert f"your draft is kept in {draft}: fix it there, then {again}" in out, out
    assert "unexpected error" not in out and "Traceback" not in out
    assert draft.read_bytes() == LATIN_1_DRAFT
    assert git(memory, "for-each-ref", "refs/heads/gitmem/") == ""
    # proposed again as the advice says: an amendment's draft as an amendment of the entry
    # (--from alone proposed it as a new one), a successor's as its successor
    draft.write_bytes(LATIN_1_DRAFT.decode("latin-1").encode("utf-8"))  # saved as UTF-8
    new_id = ok(run(memory, "propose", *args, "--from", str(draft))).output.split()[1]
    text = git(memory, "show", f"gitmem/{new_id}:.gitmem/candidates/{new_id}.md")
    assert "Keep each order in the caf\u00e9's book." in text
    if "--amend" in start:
        assert new_id == f"{entry_id}-amend" and f"amends: {entry_id}" in text, text
    if "--edit" in start:
        assert f"supersedes: [{entry_id}]" in text, text


#: A sitecustomize that kills (SIGKILL) the process as it writes the first bytes into the
#: draft file or into a temporary of it: the file opened for writing, not written yet.
KILLED_WRITING_DRAFT = """
import os, signal, sys


def where(handle):
    name = getattr(handle, "name", None)
    if isinstance(name, int):
        try:
            return os.readlink(f"/proc/self/fd/{name}")
        except OSError:
            return ""
    return str(name or "")


def on_call(frame, event, arg):
    if event == "c_call" and getattr(arg, "__name__", "") == "write":
        if "GITMEM_DRAFT.md" in where(getattr(arg, "__self__", None)):
            os.kill(os.getpid(), signal.SIGKILL)


sys.setprofile(on_call)
"""


def test_a_draft_kept_by_a_killed_propose_is_the_old_one_or_the_new_one(
    memory: Path, tmp_path: Path
) -> None:
    """The draft of a proposal the rules refused was written over the one kept before by a
    plain write: killed between the truncation and the bytes, both drafts were lost, the
    file left empty. It is now replaced whole."""
    if not Path("/proc/self/fd").is_dir():
        pytest.skip("no /proc/self/fd: the kill cannot tell which file is written")
    draft = memory / ".git" / "GITMEM_DRAFT.md"
    draft.write_text("title: An earlier draft\n")
    editor = tmp_path / "editor.sh"
    editor.write_text("#!/bin/sh\nsed -i -e 's/^title:$/title: Written in the editor/' \"$1\"\n")
    editor.chmod(0o755)
    custom = tmp_path / "custom"
    custom.mkdir()
    (custom / "sitecustomize.py").write_text(KILLED_WRITING_DRAFT)
    path = os.pathsep.join(filter(None, [str(custom), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "EDITOR": str(editor), "VISUAL": str(editor), "TERM": "dumb",
           "PYTHONPATH": path}  # fmt: skip
    code, out = converse(memory, ["propose"], [], env)
    assert code == -9, out
    assert draft.read_text() == "title: An earlier draft\n"


@pytest.mark.parametrize("start", [[], ["--edit", "ENTRY"], ["--amend", "ENTRY"]])
def test_an_editor_file_saved_empty_proposes_nothing(
    memory: Path, tmp_path: Path, start: list[str]
) -> None:
    """Saving the editor's file empty is how git's editors abort (`git commit`: "Aborting
    commit due to empty commit message"). For a successor (`--edit`) or an amendment
    (`--amend`), the empty text was read as "no edit" and the unchanged draft proposed in
    its place; a new proposal said the editor closed "without changes". Each now says the
    file was saved empty, and proposes nothing (exit 2)."""
    entry_id = first_id()
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", entry_id, "--by", "human:bob"))
    editor = tmp_path / "editor.sh"
    editor.write_text('#!/bin/sh\n: > "$1"\n')
    editor.chmod(0o755)
    env = {**os.environ, "EDITOR": str(editor), "VISUAL": str(editor), "TERM": "dumb"}
    args = [entry_id if a == "ENTRY" else a for a in start]
    code, out = converse(memory, ["propose", *args], [], env)
    assert code == 2, out
    assert "the editor's file was saved empty: nothing proposed" in out, out
    assert git(memory, "for-each-ref", "refs/heads/gitmem/") == ""


@pytest.mark.parametrize(("flag", "rule"), [("--amend", "AMEND"), ("--edit", "LINEAGE")])
def test_the_text_recorded_as_drafted_from_is_the_one_the_editor_opened(
    memory: Path, tmp_path: Path, flag: str, rule: str
) -> None:
    """An amendment drafted in $EDITOR while another amendment of the entry was admitted
    (another terminal, a pull): `propose --amend` read the entry again once the editor
    closed and recorded that newer text as drafted_from, though the draft held the older
    one, so admitting it undid the other amendment unseen. The record is of the text the
    editor opened, for an amendment as for a successor (`--edit`), and admit refuses both."""
    entry_id = first_id()
    ok(run(memory, *PROPOSE))
    ok(run(memory, "admit", entry_id, "--by", "human:bob"))
    path = f".gitmem/entries/decision/{entry_id}.md"
    opened = git(memory, "rev-parse", f"main:{path}").strip()
    fix = ok(run(memory, "propose", "--amend", entry_id, "--content", "Read with pygit2 only."))
    fix_id = fix.output.split()[1]
    editor = tmp_path / "editor.sh"
    editor.write_text(
        "#!/bin/sh\n"
        f'"{sys.executable}" -m gitmem admit {fix_id} --by human:carol >/dev/null || exit 1\n'
        "sed -i -e 's/^title: .*$/title: Use pygit2 inside every hook/' \"$1\"\n"
    )
    editor.chmod(0o755)
    env = {**os.environ, "EDITOR": str(editor), "VISUAL": str(editor), "TERM": "dumb"}
    code, out = converse(memory, ["propose", flag, entry_id], [], env)
    assert code == 0, out
    assert git(memory, "rev-parse", f"main:{path}").strip() != opened  # the fix landed
    candidate_id = out.split("proposed ", 1)[1].split()[0]
    text = git(memory, "show", f"gitmem/{candidate_id}:.gitmem/candidates/{candidate_id}.md")
    assert opened in text and "Read with pygit2 only." not in text
    late = run(memory, "admit", candidate_id, "--by", "human:bob")
    assert late.exit_code == 1, late.output
    assert f"{rule} " in late.output and "which changed on main since" in late.output
    assert "Read with pygit2 only." in git(memory, "show", f"main:{path}")
