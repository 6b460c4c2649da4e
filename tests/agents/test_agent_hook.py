"""`gitmem agent-hook EVENT` as Claude Code runs it: a real process fed the documented event
JSON on stdin, its answer parsed and checked against the documented output shape
(tests/agents/data/claude-hooks.json, restated from the Claude Code hooks reference).

One repository serves the module: a memory with admitted entries (some citing src/pay.py,
several about payment retries, one pending candidate), committed with the real CLI.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from conftest import isolation

DATA = json.loads((Path(__file__).parent / "data" / "claude-hooks.json").read_text())
GITMEM = str(Path(sys.executable).parent / "gitmem")


def _sh(cwd: Path, env: dict[str, str], *args: str) -> str:
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"{args} failed: {done.stderr}{done.stdout}"
    return done.stdout


def _admit(repo: Path, env: dict[str, str], title: str, applies: str, *files: str) -> str:
    out = _sh(
        repo, env, GITMEM, "propose", "--type", "decision", "--title", title,
        "--applies-when", applies, "--context", "It came up in review.",
        "--content", f"{title}: the lesson.", "--evidence", "review notes",
        "--source", "human:alice", *(a for f in files for a in ("--file", f)),
    )  # fmt: skip
    entry_id = out.split()[1]
    _sh(repo, env, GITMEM, "admit", entry_id, "--by", "human:bob")
    return entry_id


class Repo:
    def __init__(self, root: Path, env: dict[str, str], ids: dict[str, str]) -> None:
        self.root = root
        self.env = env
        self.ids = ids

    def event(self, event: str, cwd: Path | None = None, **fields: Any) -> dict[str, Any]:
        """A documented event: the common fields, then the event's own."""
        payload = {
            "session_id": "abc123",
            "transcript_path": str(self.root.parent / "transcript.jsonl"),
            "cwd": str(cwd or self.root),
            "permission_mode": "default",
            "hook_event_name": event,
            **fields,
        }
        jsonschema.validate(payload, DATA["inputs"]["common"])
        jsonschema.validate(payload, DATA["inputs"][event]["schema"])
        if "tool_input" in fields and fields.get("tool_name") in DATA["inputs"]["tool_input"]:
            jsonschema.validate(
                fields["tool_input"], DATA["inputs"]["tool_input"][fields["tool_name"]]
            )
        return payload

    def hook(self, event: str, payload: object, raw: str | None = None) -> dict[str, Any] | None:
        """Run the hook; its answer (None when it printed nothing), checked against the
        documented output shape. It always exits 0 and never writes to stderr."""
        done = subprocess.run(
            [GITMEM, "agent-hook", event],
            input=raw if raw is not None else json.dumps(payload),
            cwd=self.root,
            env={**self.env, "CLAUDE_PROJECT_DIR": str(self.root)},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert done.stderr == ""
        if not done.stdout:
            return None
        answer: dict[str, Any] = json.loads(done.stdout)
        jsonschema.validate(answer, DATA["outputs"]["common"])
        specific = answer["hookSpecificOutput"]
        jsonschema.validate(specific, DATA["outputs"][event])
        return answer

    def pre_tool_use_bytes(self, raw: bytes, **env: str) -> dict[str, Any]:
        """The PreToolUse hook's hookSpecificOutput for raw bytes on its input, run with env
        added; it exits 0 and writes nothing to stderr."""
        done = subprocess.run(
            [GITMEM, "agent-hook", "PreToolUse"],
            input=raw,
            cwd=self.root,
            env={**self.env, "CLAUDE_PROJECT_DIR": str(self.root), **env},
            capture_output=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0 and done.stderr == b""
        specific: dict[str, Any] = json.loads(done.stdout)["hookSpecificOutput"]
        return specific

    def context(self, event: str, payload: object) -> str | None:
        answer = self.hook(event, payload)
        if answer is None:
            return None
        assert "permissionDecision" not in answer["hookSpecificOutput"]
        text: str = answer["hookSpecificOutput"]["additionalContext"]
        return text

    def denied(self, payload: dict[str, Any]) -> str | None:
        answer = self.hook("PreToolUse", payload)
        if answer is None or "permissionDecision" not in answer["hookSpecificOutput"]:
            return None
        assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
        reason: str = answer["hookSpecificOutput"]["permissionDecisionReason"]
        return reason


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Repo:
    base = tmp_path_factory.mktemp("agent-hook")
    env = isolation(base)
    root = base / "work"
    _sh(base, env, "git", "init", "-q", "-b", "main", str(root))
    (root / "src").mkdir()
    (root / "src" / "pay.py").write_text("def charge(): ...\n")
    (root / "src" / "other.py").write_text("x = 1\n")
    (root / "notes.ipynb").write_text("{}\n")
    _sh(root, env, "git", "add", "-A")
    _sh(root, env, "git", "commit", "-q", "-m", "initial")
    _sh(root, env, GITMEM, "init")
    _sh(root, env, "git", "add", "-A")
    _sh(root, env, "git", "commit", "-q", "-m", "gitmem init")
    ids = {
        "keys": _admit(
            root, env, "Retry payments with idempotency keys",
            "calling the payment provider's charge endpoint", "src/pay.py",
        ),
        "lock": _admit(root, env, "Hold the release lock while tagging", "tagging a release"),
    }  # fmt: skip
    for n, what in enumerate(("timeouts", "backoff", "jitter", "ceilings", "logging", "alerts")):
        ids[what] = _admit(
            root, env, f"Payment retries need {what} rules {n}",
            f"retrying payment provider calls after a failure, about {what}", "src/pay.py",
        )  # fmt: skip
    # Lessons on other topics: in a memory of eight entries, words that seven of them share
    # ("payment", "retries") carry no keyword evidence (gitmem.recall.engine.COMMON_SHARE),
    # and the hook recalls by keyword alone (docs/agents.md).
    for topic in (
        "schema migrations",
        "cache invalidation",
        "log rotation",
        "feature flags",
        "database backups",
        "TLS certificates",
        "CSV exports",
        "cron schedules",
    ):
        _admit(root, env, f"Review {topic} twice", f"changing {topic}")
    _sh(
        root, env, GITMEM, "propose", "--type", "method", "--title", "A pending lesson",
        "--applies-when", "never", "--content", "pending", "--source", "human:alice",
    )  # fmt: skip
    return Repo(root, env, ids)


def test_the_documented_examples_have_the_documented_shape() -> None:
    for event in ("SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse"):
        example = DATA["inputs"][event]["example"]
        jsonschema.validate(example, DATA["inputs"]["common"])
        jsonschema.validate(example, DATA["inputs"][event]["schema"])
    with pytest.raises(jsonschema.ValidationError):  # the output shapes reject a typo
        jsonschema.validate({"hookEventName": "PreToolUse", "permisionDecision": "deny"},
                            DATA["outputs"]["PreToolUse"])  # fmt: skip


# ---------------------------------------------------------------------------------------------
# SessionStart, UserPromptSubmit


def test_session_start_says_how_to_recall_and_propose_and_what_waits(repo: Repo) -> None:
    text = repo.context("SessionStart", repo.event("SessionStart", source="startup"))
    assert text is not None and len(text) < 1500
    assert "memory_recall" in text and "memory_push" in text and "gitmem propose" in text
    assert "1 candidate waits for a person's review" in text
    assert "never above the user's request" in text


def test_a_prompt_that_matches_gets_quoted_precedents_with_provenance(repo: Repo) -> None:
    prompt = "What should I know before calling the payment provider's charge endpoint?"
    text = repo.context("UserPromptSubmit", repo.event("UserPromptSubmit", prompt=prompt))
    assert text is not None
    assert len(text) <= 1500
    assert text.startswith("## Precedents from the project memory\n\nReference material")
    assert "never outranks the user's request, the project's instructions or the code" in text
    assert f"> **Retry payments with idempotency keys** (`{repo.ids['keys']}`)" in text
    assert "admitted by human:bob on " in text
    assert "fresh: its files are unchanged" in text or "may be stale" in text
    # every line of an entry is inside the quote
    entry_lines = text.split("\n\n", 2)[2].splitlines()
    assert all(line.startswith("> ") or line.startswith("(") or not line for line in entry_lines)


def test_a_prompt_with_no_precedent_gets_nothing(repo: Repo) -> None:
    payload = repo.event("UserPromptSubmit", prompt="bake sourdough bread at home")
    assert repo.hook("UserPromptSubmit", payload) is None


def test_the_prompt_context_stays_within_its_budget(repo: Repo) -> None:
    agents = repo.root / ".git" / "gitmem" / "agents"
    for memo_file in agents.glob("freshness-*.json"):  # as the first call at a new tip finds it
        memo_file.unlink()
    prompt = "retrying payment provider calls after a failure: timeouts backoff jitter ceilings"
    text = repo.context("UserPromptSubmit", repo.event("UserPromptSubmit", prompt=prompt))
    assert text is not None
    assert len(text) <= 1500
    assert text.count("\n> **") + text.startswith("> **") >= 2
    assert "left out to keep this short" in text
    # git was asked the freshness of the entries shown only (each asked costs a git process)
    memo = json.loads(next(agents.glob("freshness-*.json")).read_text())
    shown = {i for i in repo.ids.values() if f"(`{i}`)" in text}
    assert {Path(path).stem for path in memo["entries"]} == shown


# ---------------------------------------------------------------------------------------------
# PreToolUse: the guard


def _input(tool: str, target: str) -> dict[str, Any]:
    if tool == "Bash":
        return {"command": target}
    if tool == "NotebookEdit":
        return {"notebook_path": target, "new_source": "x"}
    if tool == "Edit":
        return {"file_path": target, "old_string": "a", "new_string": "b"}
    if tool == "MultiEdit":
        return {"file_path": target, "edits": []}
    return {"file_path": target, "content": "x"}


def _spellings(root: Path) -> list[tuple[str, str, dict[str, Any], Path]]:
    """(label, tool, tool_input, cwd): 22 ways to write into the memory."""
    src, r, up = root / "src", str(root), str(root.parent)
    cases = [
        ("absolute", "Write", f"{r}/.gitmem/entries/decision/x.md", src),
        ("dot-dot", "Write", "../.gitmem/entries/decision/x.md", src),
        ("dot-slash", "Write", "./.gitmem/candidates/c.md", root),
        ("upper case", "Write", f"{r}/.GITMEM/ENTRIES/decision/x.md", src),
        ("mixed case", "Edit", f"{r}/.GitMem/Candidates/c.md", src),
        ("INDEX.md", "Edit", f"{r}/.gitmem/INDEX.md", src),
        ("index.md lower", "Write", ".gitmem/index.md", root),
        ("refused.md case", "Write", f"{r}/.gitmem/Refused.MD", src),
        ("inner dot-dot", "Write", f"{r}/src/../.gitmem/entries/x.md", src),
        ("slashes", "Write", f"{r}//.gitmem///entries//x.md", src),
        ("inner dots", "Write", f"{r}/.gitmem/./entries/./x.md", src),
        ("symlinked folder", "Write", f"{r}/src/memlink/entries/x.md", src),
        ("symlink to entries", "Write", "notes/x.md", root),
        ("symlinked root", "Write", f"{up}/rootlink/.gitmem/entries/x.md", src),
        ("NotebookEdit", "NotebookEdit", f"{r}/.gitmem/entries/n.ipynb", src),
        ("MultiEdit", "MultiEdit", "../.gitmem/entries/decision/x.md", src),
        ("cat heredoc", "Bash", "cat > .gitmem/entries/decision/x.md <<'EOF'\nDon't\nEOF", root),
        ("tee", "Bash", "echo x | tee -a ../.gitmem/refused.md", src),
        ("cd and sed -i", "Bash", "cd .. && sed -i 's/a/b/' .gitmem/entries/decision/*.md", src),
        ("rm the folder", "Bash", "rm -rf .gitmem", root),
        ("mv away", "Bash", "mv .gitmem/candidates/c.md /dev/null", root),
        ("redirect 2>", "Bash", "make 2> ../.GITMEM/Entries/log.md", src),
    ]
    return [(label, tool, _input(tool, target), cwd) for label, tool, target, cwd in cases]


@pytest.fixture(scope="module")
def links(repo: Repo) -> Repo:
    (repo.root / "src" / "memlink").symlink_to(repo.root / ".gitmem")
    (repo.root / "notes").symlink_to(repo.root / ".gitmem" / "entries")
    rootlink = repo.root.parent / "rootlink"
    if not rootlink.exists():
        rootlink.symlink_to(repo.root)
    return repo


@pytest.mark.parametrize("index", range(22))
def test_every_spelling_of_a_memory_write_is_denied(links: Repo, index: int) -> None:
    label, tool, tool_input, cwd = _spellings(links.root)[index]
    payload = links.event("PreToolUse", cwd=cwd, tool_name=tool, tool_input=tool_input,
                          tool_use_id="toolu_1")  # fmt: skip
    reason = links.denied(payload)
    assert reason is not None, label
    assert "memory_push" in reason and "gitmem propose" in reason, label
    assert "review" in reason


@pytest.mark.parametrize(
    ("tool", "tool_input"),
    [
        ("Write", {"file_path": "src/new.py", "content": "x"}),
        ("Write", {"file_path": "entries/x.md", "content": "x"}),  # not under the memory
        ("Write", {"file_path": ".gitmem/.gitignore", "content": "x"}),
        ("Bash", {"command": "cat .gitmem/entries/decision/*.md"}),
        ("Bash", {"command": "grep -r retry .gitmem/entries > found.txt"}),
        ("Bash", {"command": "git log -- .gitmem/entries"}),
        ("Bash", {"command": "cp .gitmem/INDEX.md /dev/null/../../tmp-copy 2>&1 | less"}),
        ("Bash", {"command": 'echo "unbalanced > .gitmem/entries/x.md'}),
        ("Read", {"file_path": ".gitmem/entries/decision/x.md"}),
    ],
)
def test_reads_and_writes_elsewhere_are_not_denied(
    repo: Repo, tool: str, tool_input: dict[str, Any]
) -> None:
    payload = repo.event("PreToolUse", tool_name=tool, tool_input=tool_input)
    assert repo.denied(payload) is None, tool_input


#: A diff of git's own naming INDEX.md, beside the repository (index.diff).
_INDEX_DIFF = (
    "diff --git a/.gitmem/INDEX.md b/.gitmem/INDEX.md\n--- a/.gitmem/INDEX.md\n"
    "+++ b/.gitmem/INDEX.md\n@@ -1 +1,2 @@\n x\n+y\n"
)


#: Commands the guard misjudged, as the hook judges them now: (command, the folder below the
#: repository it runs in, whether it is denied).
_MISJUDGED: list[tuple[str, str, bool]] = [
    ("git sparse-checkout set src", "", True),  # the memory folder leaves the work tree
    ("git sparse-checkout list", "src", False),
    ("git checkout -f .", "", False),  # from the index, as `git checkout -- .`
    ("git checkout -f -- .gitmem/entries", "", True),
    # git apply in a subfolder skips a git diff's names outside it (_INDEX_DIFF)
    ("git apply ../index.diff", "", True),
    ("git apply ../../index.diff", "src", False),
    # the names sort prints are the lines of its file (names.txt, beside the repository)
    ("sort ../../names.txt | xargs rm", "src", False),  # src/.gitmem/INDEX.md
    ("sort ../names.txt | xargs rm", "", True),
    # a patch cat writes from a here-document, then applied: read as that text
    (
        "cat > ../fix.diff <<'EOF'\n" + _INDEX_DIFF.replace("INDEX.md", "notes.md") + "EOF\n"
        "git apply ../fix.diff",
        "",
        False,
    ),
    ("cat > ../fix.diff <<'EOF'\n" + _INDEX_DIFF + "EOF\ngit apply ../fix.diff", "", True),
    # what an awk program writes itself
    ("awk 'BEGIN { print 1 > \".gitmem/INDEX.md\" }'", "", True),
    ("awk '{ print $1 > \"out.txt\" }' src/pay.py", "", False),
    # what an editor's own commands write
    ("vim -es -c 'w .gitmem/INDEX.md' -c q src/pay.py", "", True),
    ("vim -es -c '%s/a/b/' -c wq src/pay.py", "", False),
    # what a Perl one-liner writes itself
    ("""perl -e 'rename "x", ".gitmem/INDEX.md"'""", "", True),
    ("""perl -ne 'print if /charge/' src/pay.py""", "", False),
    # a `<<` the shell does not read as a here-document hides no line after it
    ('echo "<<EOF"\nrm -rf .gitmem\nEOF', "", True),
    ("cat <<<EOF\nrm -rf .gitmem\nEOF", "", True),
    ("cat <<'EOF'\nrm -rf .gitmem\nEOF", "", False),
    # the script a shell reads from its standard input
    ("bash <<< 'rm .gitmem/INDEX.md'", "", True),
    ("echo 'rm -rf .gitmem/entries' | sh", "", True),
    ("git switch --orphan fresh", "src", True),  # every tracked file removed
    # a person's decision another command runs
    ("find . -maxdepth 0 -exec gitmem admit abc \\;", "", True),
    # behind a prefix the guard did not know
    ("uv run rm .gitmem/INDEX.md", "", True),
    # variables the command sets itself
    ("for f in .gitmem/entries/*; do rm $f; done", "", True),
    # the list find prints to a file
    ("find src -fprint .gitmem/INDEX.md", "", True),
    # what sed's e command runs
    ("sed '1e rm .gitmem/INDEX.md' src/pay.py", "", True),
    # the folder the shell says it runs in
    ("echo x > $PWD/.gitmem/INDEX.md", "", True),
    ('rm "$(pwd)/../.gitmem/entries"', "src", True),
    ("echo x > $PWD/notes.txt", "src", False),
    # python's -m in a cluster of flags
    ("python -Im gitmem admit abc", "", True),
    # a locale string, `$"…"`
    ('rm .git$""mem/INDEX.md', "", True),
    # pushd -n changes the folder stack only
    ("pushd -n src; rm .gitmem/INDEX.md", "", True),
    # shells beyond bash, sh, zsh, dash and ksh
    ("busybox ash -c 'rm .gitmem/INDEX.md'", "", True),
    # what printf prints: its format too
    ("printf .gitmem/INDEX.md | xargs rm", "", True),
    # the word a variable's use spells for itself
    ("rm ${X:-.gitmem}/INDEX.md", "", True),
    # what git runs through a shell
    ("git rebase --exec 'rm .gitmem/INDEX.md' HEAD~1", "", True),
    # a script sourced from the standard input
    ("source /dev/stdin <<< 'rm .gitmem/INDEX.md'", "", True),
]


@pytest.mark.parametrize(("command", "folder", "denied"), _MISJUDGED)
def test_commands_the_guard_once_misjudged(
    repo: Repo, command: str, folder: str, denied: bool
) -> None:
    (repo.root.parent / "index.diff").write_text(_INDEX_DIFF)
    (repo.root.parent / "names.txt").write_text(".gitmem/INDEX.md\n")
    payload = repo.event("PreToolUse", cwd=repo.root / folder, tool_name="Bash",
                         tool_input={"command": command}, tool_use_id="toolu_1")  # fmt: skip
    reason = repo.denied(payload)
    assert (reason is not None) == denied, (command, reason)
    assert reason is None or "memory_push" in reason or "a person's decision" in reason


@pytest.mark.parametrize(
    ("tool", "tool_input"),
    [
        ("Write", {"file_path": ".gitmem/entries/decision/x\udc00.md", "content": "x"}),
        (
            "Edit",
            {"file_path": ".gitmem/candidates/\ud83d.md", "old_string": "a", "new_string": "b"},
        ),
        ("Bash", {"command": "echo x > .gitmem/candidates/c\ud800.md"}),
    ],
)
def test_a_write_into_the_memory_spelled_with_a_lone_surrogate_is_denied(
    repo: Repo, tool: str, tool_input: dict[str, Any]
) -> None:
    """JSON may carry an unpaired surrogate escape (what JavaScript's JSON.stringify writes for
    half an emoji); the client then writes the path with U+FFFD in its place. The guard judged
    a string no file system takes, failed, and let the write through."""
    payload = repo.event("PreToolUse", tool_name=tool, tool_input=tool_input,
                         tool_use_id="toolu_1")  # fmt: skip
    reason = repo.denied(payload)
    assert reason is not None, tool_input
    assert "\ufffd" in reason and "memory_push" in reason


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"], ids=["plain", "bom"])
def test_a_write_into_the_memory_spelled_with_invalid_utf8_is_denied(
    repo: Repo, bom: bytes
) -> None:
    """Bytes that are not UTF-8 in the event's JSON are read as U+FFFD, as a client writes
    them, not taken for a payload the hook cannot read; a byte order mark before the JSON
    (some Windows tools write one before UTF-8) is skipped, where json refused the payload
    and the hook let the write through."""
    tool_input = {"file_path": ".gitmem/entries/xNOTUTF8.md", "content": "x"}
    payload = repo.event("PreToolUse", tool_name="Write", tool_use_id="toolu_1",
                         tool_input=tool_input)  # fmt: skip
    raw = bom + json.dumps(payload, ensure_ascii=False).encode().replace(b"NOTUTF8", b"\xff\xfe")
    assert repo.pre_tool_use_bytes(raw)["permissionDecision"] == "deny"


def test_a_deeply_nested_payload_is_still_judged(repo: Repo) -> None:
    """json reads a payload nested some hundreds deep, but the pass that replaces unpaired
    surrogates recursed twice a level and failed on it, and a failing hook lets the write
    through: a field the tool ignores, nested so, carried a write into the memory past
    the guard."""
    depth = 700
    nested = "[" * depth + "]" * depth
    raw = (
        '{"hook_event_name": "PreToolUse", "tool_name": "Write", "tool_input": '
        f'{{"file_path": ".gitmem/entries/x.md", "content": "x", "extra": {nested}}}}}'
    )
    answer = repo.hook("PreToolUse", None, raw=raw)
    assert answer is not None
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_a_payload_nested_deeper_than_json_recurses_is_still_answered(repo: Repo) -> None:
    """json refuses a payload nested deeper than Python recurses (a RecursionError, some
    thousand levels in): the hook logged it and said nothing, so a write into the memory whose
    input carried a field nested so went through unjudged. Such a payload is read with a
    stack of its own: the write is denied, one elsewhere allowed, a prompt answered as
    without the field, and a payload that is no JSON at that depth still gets silence."""
    depth = 200_000
    nested = "[" * depth + '{"a": [1, "x", null]}' + "]" * depth

    def raw(tool_input: str) -> str:
        return (
            f'{{"hook_event_name": "PreToolUse", "cwd": {json.dumps(str(repo.root))}, '
            f'"tool_name": "Write", "tool_input": {{{tool_input}, "extra": {nested}}}}}'
        )

    denied = repo.hook("PreToolUse", None, raw=raw('"file_path": ".gitmem/entries/x.md"'))
    assert denied is not None
    assert denied["hookSpecificOutput"]["permissionDecision"] == "deny"
    elsewhere = repo.hook("PreToolUse", None, raw=raw('"file_path": "src/other.py"'))
    assert elsewhere is None or "permissionDecision" not in elsewhere["hookSpecificOutput"]
    prompt = "What should I know before calling the payment provider's charge endpoint?"
    plain = repo.event("UserPromptSubmit", prompt=prompt)
    deep = json.dumps(plain)[:-1] + f', "extra": {nested}}}'
    expected = repo.hook("UserPromptSubmit", plain)
    assert expected is not None and repo.hook("UserPromptSubmit", None, raw=deep) == expected
    assert repo.hook("PreToolUse", None, raw=raw('"file_path": "x"')[:-1]) is None


def test_a_payload_too_deep_to_read_in_time_is_denied_not_waited_on(repo: Repo) -> None:
    """Read with a stack of its own, a payload nested 10 million deep took 10 s, past the
    hook's timeout, after which Claude Code lets the tool call through. Past
    DEEP_TEXT_LIMIT such a tool call is denied unread; another event gets silence."""
    from gitmem.agents.agent_hook import DEEP_TEXT_LIMIT

    depth = DEEP_TEXT_LIMIT  # twice the limit in characters
    nested = "[" * depth + "]" * depth
    raw = (
        f'{{"hook_event_name": "PreToolUse", "cwd": {json.dumps(str(repo.root))}, '
        f'"tool_name": "Write", "tool_input": {{"file_path": "src/x.py", "extra": {nested}}}}}'
    )
    denied = repo.hook("PreToolUse", None, raw=raw)
    assert denied is not None
    decision = denied["hookSpecificOutput"]
    assert decision["permissionDecision"] == "deny"
    assert "is nested deeper than a hook reads in its time" in decision["permissionDecisionReason"]
    prompt = repo.event("UserPromptSubmit", prompt="payment retries")
    deep = json.dumps(prompt)[:-1] + f', "extra": {nested}}}'
    assert repo.hook("UserPromptSubmit", None, raw=deep) is None


@pytest.mark.parametrize("encoding", ["cp1252", "ascii", "latin-1"])
def test_the_answer_reaches_a_client_whatever_the_standard_output_s_encoding(
    repo: Repo, encoding: str
) -> None:
    """Python writes its standard output in the locale's encoding (cp1252 in a Windows
    pipe): a deny whose reason names a path written in another script failed to encode,
    the error went to the log, nothing was printed, and the write went through."""
    tool_input = {"file_path": ".gitmem/entries/\u65e5\u672c.md", "content": "x"}
    payload = repo.event("PreToolUse", tool_name="Write", tool_input=tool_input)
    said = repo.pre_tool_use_bytes(json.dumps(payload).encode(), PYTHONIOENCODING=encoding)
    assert said["permissionDecision"] == "deny"
    assert "\u65e5\u672c.md" in said["permissionDecisionReason"]


def test_a_megabyte_command_is_decided_and_a_write_into_the_memory_denied(repo: Repo) -> None:
    """One word of a million characters kept the hook splitting for 19 s, past the 10 s
    timeout `init --claude` registers, after which Claude Code lets the call through; a path
    of a million characters kept it resolving for 32 s.  Now such a text is decided unread:
    denied when it names the memory folder, with a reason saying why, else allowed."""
    word = "a" * 1_000_000
    into_memory = f"echo {word} > .gitmem/INDEX.md"
    payload = repo.event("PreToolUse", tool_name="Bash", tool_input={"command": into_memory},
                         tool_use_id="toolu_1")  # fmt: skip
    reason = repo.denied(payload)
    assert reason is not None
    assert reason.startswith("gitmem: this command is 1,000,024 characters long (here-document")
    assert "names the memory folder .gitmem/" in reason and "memory_push" in reason
    elsewhere = repo.event("PreToolUse", tool_name="Bash",
                           tool_input={"command": f"echo {word} > notes.txt"})  # fmt: skip
    assert repo.hook("PreToolUse", elsewhere) is None
    deep_path = {"file_path": "a/" * 500_000 + "x.py", "content": "x"}
    deep = repo.event("PreToolUse", tool_name="Write", tool_input=deep_path)
    assert repo.hook("PreToolUse", deep) is None


def test_a_memory_folder_named_in_the_settings_is_guarded_too(tmp_path: Path) -> None:
    env = isolation(tmp_path)
    root = tmp_path / "work"
    _sh(tmp_path, env, "git", "init", "-q", "-b", "main", str(root))
    (root / ".gitmem.toml").write_text('[memory]\ndir = "docs/memory"\n')
    other = Repo(root, env, {})
    for path in ("docs/memory/entries/x.md", "DOCS/Memory/INDEX.md", ".gitmem/entries/x.md"):
        payload = other.event("PreToolUse", tool_name="Write",
                              tool_input={"file_path": path, "content": "x"})  # fmt: skip
        assert other.denied(payload) is not None, path
    payload = other.event("PreToolUse", tool_name="Write",
                          tool_input={"file_path": "docs/guide.md", "content": "x"})  # fmt: skip
    assert other.hook("PreToolUse", payload) is None


@pytest.mark.parametrize(
    "line", [".gitmem.toml working-tree-encoding=UTF-16", ".gitmem.toml filter=moved"]
)
def test_a_settings_file_git_converts_leaves_its_memory_folder_guarded(
    tmp_path: Path, line: str
) -> None:
    """A .gitattributes line changes no settings blob but makes the checkout's .gitmem.toml
    other bytes: in UTF-16 the guard read no `dir` in it, and a filter made it name another
    folder, so a write into the memory folder the blob names was let through."""
    env = isolation(tmp_path)
    root = tmp_path / "work"
    _sh(tmp_path, env, "git", "init", "-q", "-b", "main", str(root))
    _sh(root, env, "git", "config", "filter.moved.smudge", "sed s,docs/memory,elsewhere,")
    _sh(root, env, "git", "config", "filter.moved.clean", "sed s,elsewhere,docs/memory,")
    (root / ".gitmem.toml").write_text('[memory]\ndir = "docs/memory"\n')
    _sh(root, env, "git", "add", ".gitmem.toml")
    _sh(root, env, "git", "commit", "-q", "-m", "settings")
    (root / ".gitattributes").write_text(line + "\n")
    _sh(root, env, "git", "add", ".gitattributes")
    _sh(root, env, "git", "commit", "-q", "-m", "attributes")
    (root / ".gitmem.toml").unlink()
    _sh(root, env, "git", "checkout", "--", ".gitmem.toml")  # as a clone writes it
    assert b"docs/memory" not in (root / ".gitmem.toml").read_bytes()
    other = Repo(root, env, {})
    for path in ("docs/memory/entries/x.md", ".gitmem/entries/x.md"):
        payload = other.event("PreToolUse", tool_name="Write",
                              tool_input={"file_path": path, "content": "x"})  # fmt: skip
        assert other.denied(payload) is not None, path


def _project_with_settings(tmp_path: Path, env: dict[str, str], settings: str) -> Path:
    """A repository with gitmem's memory and these settings committed (past the hooks)."""
    root = tmp_path / "work"
    _sh(tmp_path, env, "git", "init", "-q", "-b", "main", str(root))
    _sh(root, env, GITMEM, "init")
    (root / ".gitmem.toml").write_text(settings)
    _sh(root, env, "git", "add", "-A")
    _sh(root, env, "git", "commit", "-q", "--no-verify", "-m", "memory")
    return root


def test_a_session_is_told_when_gitmem_refuses_the_project_s_settings(tmp_path: Path) -> None:
    """A settings file git converts on checkout is refused (exit 2 for `gitmem`, with what to
    do); the hooks then said nothing at all, and the agent worked without precedents and
    without a word of why."""
    env = isolation(tmp_path)
    root = _project_with_settings(tmp_path, env, '[memory]\nproject = "local"\n')
    (root / ".gitattributes").write_text(".gitmem.toml working-tree-encoding=UTF-16\n")
    _sh(root, env, "git", "add", ".gitattributes")
    _sh(root, env, "git", "commit", "-q", "-m", "attributes")
    (root / ".gitmem.toml").unlink()
    _sh(root, env, "git", "checkout", "--", ".gitmem.toml")  # as a clone writes it
    project = Repo(root, env, {})
    said = project.context("SessionStart", project.event("SessionStart", source="startup"))
    assert said is not None and "gitmem cannot read this project's memory" in said, said
    assert ".gitmem.toml" in said and "working-tree-encoding" in said, said


def test_a_session_is_told_of_settings_set_aside(tmp_path: Path) -> None:
    """A .gitmem.toml that is not TOML is set aside (the defaults used): `gitmem list` and
    the MCP answers say so, the session's context said nothing, and the agent took the
    default folder's memory for the project's."""
    env = isolation(tmp_path)
    root = _project_with_settings(tmp_path, env, "this is [not toml\n")
    project = Repo(root, env, {})
    said = project.context("SessionStart", project.event("SessionStart", source="startup"))
    assert said is not None and "- Settings set aside: .gitmem.toml:1: invalid TOML" in said


def test_git_dir_and_git_work_tree_name_the_repository_as_they_do_for_git(
    repo: Repo, tmp_path: Path
) -> None:
    """A bare repository whose work tree is elsewhere (as dotfiles are kept), named for the
    agent's session by GIT_DIR and GIT_WORK_TREE, as for git and every gitmem command. The
    hooks looked for a `.git` above the folder, found none in the work tree, and said
    nothing: no session block, no precedents, and a write into the memory let through."""
    dot, home = tmp_path / "dot.git", tmp_path / "home"
    _sh(tmp_path, repo.env, "git", "clone", "-q", "--bare", str(repo.root), str(dot))
    home.mkdir()
    named = {**repo.env, "GIT_DIR": str(dot), "GIT_WORK_TREE": str(home)}
    _sh(tmp_path, named, "git", "checkout", "-q", "main", "--", ".")
    _sh(tmp_path, named, "git", "reset", "-q")
    dotfiles = Repo(home, named, repo.ids)

    write = dotfiles.event("PreToolUse", tool_name="Write", tool_input={
        "file_path": str(home / ".gitmem/entries/decision/x.md"), "content": "x"})  # fmt: skip
    reason = dotfiles.denied(write)
    assert reason is not None and "memory_push" in reason
    session = dotfiles.context("SessionStart", dotfiles.event("SessionStart", source="startup"))
    assert session is not None and session.startswith("## Project memory (gitmem)")
    assert "1 candidate waits" in session
    edit = dotfiles.event("PreToolUse", tool_name="Edit", tool_input={
        "file_path": "src/pay.py", "old_string": "a", "new_string": "b"})  # fmt: skip
    text = dotfiles.context("PreToolUse", edit)
    assert text is not None and text.startswith("## Precedents for src/pay.py")
    assert f"(`{repo.ids['keys']}`)" in text or "left out to keep this short" in text


def test_removing_a_second_name_of_a_memory_file_is_allowed_its_own_name_denied(
    tmp_path: Path,
) -> None:
    """A hard link is a second name of the memory's file: writing through it writes the
    entry, and is denied, but removing or renaming it leaves the entry as it was, and was
    denied all the same. Removing the entry's own name, however spelled, stays denied."""
    env = isolation(tmp_path)
    root = tmp_path / "work"
    _sh(tmp_path, env, "git", "init", "-q", "-b", "main", str(root))
    entry = root / ".gitmem" / "entries" / "decision" / "a.md"
    entry.parent.mkdir(parents=True)
    entry.write_text("the entry\n")
    os.link(entry, root / "second.md")
    (root / "alias").symlink_to(entry.parent)
    project = Repo(root, env, {})

    def denied(command: str) -> str | None:
        return project.denied(
            project.event("PreToolUse", tool_name="Bash", tool_input={"command": command})
        )

    for command in ("rm second.md", "rm -f ./second.md", "unlink second.md",
                    "git rm -q second.md", "mv second.md third.md"):  # fmt: skip
        assert denied(command) is None, command
    for command in ("echo x >> second.md", "truncate -s0 second.md",
                    "rm .gitmem/entries/decision/a.md", "rm alias/a.md",
                    "unlink .GITMEM/Entries/decision/A.md", "mv alias/a.md second.md"):  # fmt: skip
        reason = denied(command)
        assert reason is not None and ".gitmem/entries/" in reason, command


def test_the_memory_of_another_repository_the_session_reaches_is_guarded(tmp_path: Path) -> None:
    """A session works in one project (CLAUDE_PROJECT_DIR) and may reach a second repository
    (a folder added to the session, a sibling checkout), whose own hooks do not run: the guard
    judged every path against the project's memory alone, so writes into the other's were let
    through. A path outside the project is judged against the repository holding it."""
    env = isolation(tmp_path)
    root, sibling = tmp_path / "work", tmp_path / "sibling"
    for repository in (root, sibling):
        _sh(tmp_path, env, "git", "init", "-q", "-b", "main", str(repository))
    (sibling / ".gitmem.toml").write_text('[memory]\ndir = "docs/memory"\n')
    project = Repo(root, env, {})
    for tool, tool_input in (
        ("Write", {"file_path": str(sibling / ".gitmem/entries/x.md"), "content": "x"}),
        ("Edit", {"file_path": str(sibling / "Docs/Memory/INDEX.md"), "old_string": "a",
                  "new_string": "b"}),
        ("Bash", {"command": f"cd {sibling} && rm -rf .gitmem/candidates"}),
        ("Bash", {"command": f"touch {sibling}/docs/memory/entries/*.md"}),
    ):  # fmt: skip
        payload = project.event("PreToolUse", tool_name=tool, tool_input=tool_input)
        reason = project.denied(payload)
        assert reason is not None and str(sibling) in reason, tool_input
    elsewhere = {"file_path": str(sibling / "docs/guide.md"), "content": "x"}
    payload = project.event("PreToolUse", tool_name="Write", tool_input=elsewhere)
    assert project.hook("PreToolUse", payload) is None


def test_a_session_outside_any_repository_still_guards_the_ones_it_reaches(
    tmp_path: Path,
) -> None:
    """A session opened in a folder of projects (the hooks registered in the user's own
    settings) has no repository of its own: the hook answered nothing before judging, and
    writes into the memory of every repository below or beside it went through."""
    env = isolation(tmp_path)
    projects = tmp_path / "projects"
    shop = projects / "shop"
    _sh(tmp_path, env, "git", "init", "-q", "-b", "main", str(shop))
    session = Repo(projects, {k: v for k, v in env.items() if k != "CLAUDE_PROJECT_DIR"}, {})
    for tool, tool_input in (
        ("Write", {"file_path": str(shop / ".gitmem/entries/x.md"), "content": "x"}),
        ("Bash", {"command": "rm -rf shop/.gitmem/candidates"}),
        ("Bash", {"command": "cd shop && echo x >> .gitmem/INDEX.md"}),
        ("Bash", {"command": "gitmem admit shop-method-20261205-retry"}),
    ):  # fmt: skip
        payload = session.event("PreToolUse", tool_name=tool, tool_input=tool_input)
        done = subprocess.run(
            [GITMEM, "agent-hook", "PreToolUse"], input=json.dumps(payload), cwd=projects,
            env=session.env, capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert done.returncode == 0 and done.stderr == "", done.stderr
        answer = json.loads(done.stdout or "{}")
        decision = answer.get("hookSpecificOutput", {}).get("permissionDecision")
        assert decision == "deny", tool_input
    elsewhere = {"file_path": str(shop / "README.md"), "content": "x"}
    payload = session.event("PreToolUse", tool_name="Write", tool_input=elsewhere)
    done = subprocess.run(
        [GITMEM, "agent-hook", "PreToolUse"], input=json.dumps(payload), cwd=projects,
        env=session.env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (0, "")


def test_a_long_command_outside_any_repository_is_decided_fast_and_denied_into_a_memory(
    tmp_path: Path,
) -> None:
    """A command too long to read word by word (MAX_JUDGED) is denied when it names a memory
    folder; but a session with no repository of its own has no memory folder of its own, so
    such a command was let through unread, whatever it wrote: `cd shop && … >>
    .gitmem/INDEX.md` with a megabyte of text in it went into the memory of the repository
    it reached, which the same command short enough to read was denied. It is searched for
    the memory folders any repository may have, and decided within the hook's time."""
    env = isolation(tmp_path)
    projects = tmp_path / "projects"
    shop = projects / "shop"
    _sh(tmp_path, env, "git", "init", "-q", "-b", "main", str(shop))
    session = {k: v for k, v in env.items() if k != "CLAUDE_PROJECT_DIR"}
    word = "a" * 1_000_000
    for command, denied in (
        (f"cd shop && echo {word} >> .gitmem/INDEX.md", True),
        (f"cd shop && echo {word} >> '.GitMem'/entries/x.md", True),
        (f"cd shop && echo {word} >> notes.txt", False),
        (f"cd shop && cat <<EOF > notes.txt\n{word}\n.gitmem\nEOF", False),  # a body aside
    ):
        payload = {"hook_event_name": "PreToolUse", "cwd": str(projects), "tool_name": "Bash",
                   "tool_input": {"command": command}}  # fmt: skip
        started = time.monotonic()
        done = subprocess.run(
            [GITMEM, "agent-hook", "PreToolUse"], input=json.dumps(payload), cwd=projects,
            env=session, capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert time.monotonic() - started < 5, command[-30:]
        assert done.returncode == 0 and done.stderr == "", done.stderr
        answer = json.loads(done.stdout or "{}").get("hookSpecificOutput", {})
        assert (answer.get("permissionDecision") == "deny") == denied, command[-30:]
        if denied:
            reason = answer["permissionDecisionReason"]
            assert "1,000,0" in reason and "names the memory folder .gitmem/" in reason


def test_a_git_dir_git_cannot_open_leaves_the_guard_on(repo: Repo) -> None:
    """GIT_DIR naming no repository (a stale one in the session's environment) made the
    hook fail before it judged anything, and a failing hook lets the write through: git
    refuses to work there, but the agent's file tools do not. The guard judges by the
    folder the session is in, and the other events say nothing, as git would."""
    write = {"file_path": ".gitmem/entries/x.md", "content": "x"}
    payload = repo.event("PreToolUse", tool_name="Write", tool_input=write)
    nope = str(repo.root / "nope")
    said = repo.pre_tool_use_bytes(json.dumps(payload).encode(), GIT_DIR=nope)
    assert said["permissionDecision"] == "deny"
    env = {**repo.env, "CLAUDE_PROJECT_DIR": str(repo.root), "GIT_DIR": nope}
    prompt = repo.event("UserPromptSubmit", prompt="payment retries")
    done = subprocess.run(
        [GITMEM, "agent-hook", "UserPromptSubmit"], input=json.dumps(prompt), cwd=repo.root,
        env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_a_bare_git_dir_without_a_work_tree_leaves_the_guard_on(repo: Repo, tmp_path: Path) -> None:
    """GIT_DIR naming a bare repository and no work tree gives git no files, so the hooks
    say nothing; but the agent's file tools write where the session is, and a write into
    the memory of the repository there was let through unjudged."""
    bare = tmp_path / "bare.git"
    _sh(tmp_path, repo.env, "git", "clone", "-q", "--bare", str(repo.root), str(bare))
    write = {"file_path": str(repo.root / ".gitmem/entries/x.md"), "content": "x"}
    payload = repo.event("PreToolUse", tool_name="Write", tool_input=write)
    said = repo.pre_tool_use_bytes(json.dumps(payload).encode(), GIT_DIR=str(bare))
    assert said["permissionDecision"] == "deny"


def test_the_memory_of_a_worktree_inside_the_project_is_guarded(tmp_path: Path) -> None:
    """A linked worktree is often made inside the project (`git worktree add .worktrees/x`),
    and a submodule or a clone can sit there too: a path in it lies below the project's root,
    so it was judged against the project's memory folders alone, as `.worktrees/x/.gitmem/…`,
    which names none, and writes into the worktree's memory went through. A path in a
    repository nested in the project is judged against that repository's memory too."""
    env = isolation(tmp_path)
    root = tmp_path / "work"
    _sh(tmp_path, env, "git", "init", "-q", "-b", "main", str(root))
    (root / "README.md").write_text("# project\n")
    _sh(root, env, "git", "add", "-A")
    _sh(root, env, "git", "commit", "-q", "-m", "initial")
    _sh(root, env, "git", "worktree", "add", "-q", "-b", "feature", ".worktrees/feature")
    nested = root / ".worktrees" / "feature"
    project = Repo(root, env, {})
    for tool, tool_input in (
        ("Write", {"file_path": str(nested / ".gitmem/entries/x.md"), "content": "x"}),
        ("Write", {"file_path": ".worktrees/feature/.gitmem/INDEX.md", "content": "x"}),
        ("Bash", {"command": "rm -rf .worktrees/feature/.gitmem/candidates"}),
        ("Bash", {"command": "cd .worktrees/feature && echo x >> .gitmem/refused.md"}),
        ("Bash", {"command": "touch .worktrees/feature/.gitmem/entries/*.md"}),
        ("Bash", {"command": "git -C .worktrees/feature checkout HEAD~1 -- '*INDEX.md'"}),
        ("Bash", {"command": "cd .worktrees/feature && git rm -q :/.gitmem/INDEX.md"}),
    ):  # fmt: skip
        payload = project.event("PreToolUse", tool_name=tool, tool_input=tool_input)
        reason = project.denied(payload)
        assert reason is not None and str(nested) in reason, tool_input
    elsewhere = {"file_path": ".worktrees/feature/README.md", "content": "x"}
    payload = project.event("PreToolUse", tool_name="Write", tool_input=elsewhere)
    assert project.hook("PreToolUse", payload) is None


# ---------------------------------------------------------------------------------------------
# PreToolUse and PostToolUse: precedents for the file


def _entry(entry_id: str, title: str, applies: str, files: str = "[]") -> str:
    return (
        f"---\nid: {entry_id}\ntype: method\nstatus: admitted\ntitle: {title}\n"
        f"applies_when: {applies}\nfiles: {files}\nsource: human:alice\n"
        "created: 2026-01-01\nadmitted: 2026-01-02\nadmitted_by: human:bob\n---\n\n"
        "## Context\nA release.\n\n## Content\nThe lesson.\n\n## Evidence\nReview notes.\n"
    )


def _secret_on_main(
    tmp_path: Path, written: Callable[[str], str] = lambda secret: secret
) -> tuple[Repo, str, str]:
    """A repository whose main holds, beside three plain entries, an admitted entry whose
    title and situation hold a secret (committed with the hooks off, as where no server hook
    runs), as written() writes it; its id and the secret."""
    from secret_samples import POSITIVES

    _, _, secret = next(p for p in POSITIVES if p[0] == "aws-access-key-id")
    written_secret = written(secret)
    env = isolation(tmp_path)
    root = tmp_path / "work"
    _sh(tmp_path, env, "git", "init", "-q", "-b", "main", str(root))
    (root / "src").mkdir()
    (root / "src" / "deploy.py").write_text("def deploy(): ...\n")
    _sh(root, env, GITMEM, "init")
    folder = root / ".gitmem" / "entries" / "method"
    folder.mkdir(parents=True, exist_ok=True)
    secret_id = "local-method-20260101-deploy-the-release-script"
    (folder / f"{secret_id}.md").write_text(
        _entry(secret_id, f"Deploy the release script {written_secret}",
               f"deploying the release script with {written_secret}", "[src/deploy.py]")
    )  # fmt: skip
    for n, topic in enumerate(("schema migrations", "log rotation", "feature flags")):
        entry_id = f"local-method-2026010{n + 2}-review-{topic.replace(' ', '-')}"
        (folder / f"{entry_id}.md").write_text(_entry(entry_id, f"Review {topic}", topic))
    _sh(root, env, "git", "add", "-A")
    _sh(root, env, "git", "commit", "-q", "--no-verify", "-m", "direct")
    return Repo(root, env, {}), secret_id, secret


@pytest.mark.parametrize(
    "written",
    [lambda s: s, lambda s: f"{s[:8]}\u200b{s[8:]}", lambda s: "x " * 130 + s],
    ids=["whole", "split by a zero-width space", "split by the catalog's cut"],
)
def test_an_admitted_entry_holding_a_secret_is_withheld_from_the_context(
    tmp_path: Path, written: Callable[[str], str]
) -> None:
    """The gates scan an entry when it is admitted, but main may hold one admitted before a
    rule existed, or pushed where no server hook runs: the precedents for a prompt and for a
    file quoted its title and situation as they were. The catalog flags a line whose fields
    hold a secret, judged whole; the hook then judged the line's own text against main's
    allowed.md, and that text is cleaned (a zero-width space made a space) and cut (300
    characters): the scanner found no secret there, and the precedent showed the key split
    by a space, or its first characters."""
    project, secret_id, secret = _secret_on_main(tmp_path, written)
    prompt = project.context("UserPromptSubmit", project.event(
        "UserPromptSubmit", prompt="how do I deploy the release script?"))  # fmt: skip
    edit_input = {"file_path": "src/deploy.py", "old_string": "a", "new_string": "b"}
    edit = project.context(
        "PreToolUse", project.event("PreToolUse", tool_name="Edit", tool_input=edit_input)
    )
    for said in (prompt, edit):
        assert said is not None and secret_id in said and "withheld" in said, said
        assert secret[:6] not in said and secret[-6:] not in said, said


def test_recall_s_precedents_block_withholds_an_entry_holding_a_secret(tmp_path: Path) -> None:
    """`gitmem recall --format precedents` writes the block an agent pastes into a prompt, as
    the hooks do: it quoted the entry's title and situation, secret and all, before the
    agents' catalog existed (the cold path) and after (the warm path, which a hook's run
    leaves)."""
    project, secret_id, secret = _secret_on_main(tmp_path)
    ask = (GITMEM, "recall", "--format", "precedents", "deploy the release script")
    cold = _sh(project.root, project.env, *ask)
    project.context("UserPromptSubmit", project.event("UserPromptSubmit", prompt="deploy"))
    warm = _sh(project.root, project.env, *ask)
    for said in (cold, warm):
        assert secret_id in said and "withheld" in said and secret not in said, said
    plain = _sh(project.root, project.env, GITMEM, "recall", "review log rotation")
    assert "Review log rotation" in plain  # what holds no secret is shown as it was


def test_an_edit_elsewhere_brings_the_precedents_citing_that_file(repo: Repo) -> None:
    payload = repo.event(
        "PreToolUse",
        cwd=repo.root / "src",
        tool_name="Edit",
        tool_input={"file_path": str(repo.root / "src" / "pay.py"), "old_string": "a",
                    "new_string": "b"},
    )  # fmt: skip
    text = repo.context("PreToolUse", payload)
    assert text is not None and len(text) <= 1500
    assert text.startswith("## Precedents for src/pay.py\n\nReference material")
    assert "admitted by human:bob on" in text
    citing = {v for k, v in repo.ids.items() if k != "lock"}
    shown = {i for i in repo.ids.values() if f"(`{i}`)" in text}
    assert 2 <= len(shown) <= 4 and shown <= citing  # seven cite it: newest first, budgeted
    assert "left out to keep this short" in text

    after = repo.event("PostToolUse", tool_name="Write",
                       tool_input={"file_path": "src/pay.py", "content": "x"},
                       tool_response={"success": True})  # fmt: skip
    post = repo.context("PostToolUse", after)
    assert post is not None and post.startswith("## Precedents for src/pay.py")


def test_a_file_no_entry_cites_gets_nothing(repo: Repo) -> None:
    payload = repo.event("PreToolUse", tool_name="Write",
                         tool_input={"file_path": "src/other.py", "content": "x"})  # fmt: skip
    assert repo.hook("PreToolUse", payload) is None


def _lazy_startup_admitted(tmp_path: Path) -> tuple[dict[str, str], Path, str]:
    """A repository whose app.py an admitted entry cites: its environment, its root and the
    entry's id."""
    env = isolation(tmp_path)
    root = tmp_path / "work"
    _sh(tmp_path, env, "git", "init", "-q", "-b", "main", str(root))
    (root / "app.py").write_text("v1\n")
    _sh(root, env, "git", "add", "-A")
    _sh(root, env, "git", "commit", "-q", "-m", "initial")
    _sh(root, env, GITMEM, "init")
    _sh(root, env, "git", "add", "-A")
    _sh(root, env, "git", "commit", "-q", "-m", "init")
    entry_id = _admit(root, env, "Keep app startup lazy", "changing app startup", "app.py")
    return env, root, entry_id


def test_file_precedents_say_when_they_may_be_stale(tmp_path: Path) -> None:
    env, root, entry_id = _lazy_startup_admitted(tmp_path)
    fresh = Repo(root, env, {})
    payload = fresh.event("PreToolUse", tool_name="Write",
                          tool_input={"file_path": "app.py", "content": "x"})  # fmt: skip
    text = fresh.context("PreToolUse", payload)
    assert text is not None and entry_id in text and "fresh: its files are unchanged" in text
    (root / "app.py").write_text("v2\n")
    _sh(root, env, "git", "commit", "-q", "-am", "change app")
    text = fresh.context("PreToolUse", payload)
    assert text is not None and "may be stale: 1 commit touched its files since admission" in text


def test_file_precedents_in_a_shallow_clone_say_unknown_until_it_is_deepened(
    tmp_path: Path,
) -> None:
    """A clone of depth 1 has no commit before its tip, where git calls every file added: an
    entry whose file changed after its admission was quoted to the agent as "fresh: its files
    are unchanged", and the hook kept that for the tip. It says the freshness is unknown, and
    once `git fetch --unshallow` brings the history the next edit is told the count."""
    env, root, entry_id = _lazy_startup_admitted(tmp_path)
    (root / "app.py").write_text("v2\n")
    _sh(root, env, "git", "commit", "-q", "-am", "change app")
    clone = tmp_path / "clone"
    _sh(tmp_path, env, "git", "clone", "-q", "--depth", "1", f"file://{root}", str(clone))
    shallow = Repo(clone, env, {})
    payload = shallow.event("PreToolUse", tool_name="Write",
                            tool_input={"file_path": "app.py", "content": "x"})  # fmt: skip
    for _ in range(2):  # asked of git, then read from what the hook kept for the tip
        text = shallow.context("PreToolUse", payload)
        assert text is not None and entry_id in text, text
        assert "freshness unknown: this clone's history is shallow" in text
        assert "fresh: its files are unchanged" not in text
    _sh(clone, env, "git", "fetch", "-q", "--unshallow")
    text = shallow.context("PreToolUse", payload)
    assert text is not None and "may be stale: 1 commit touched its files since admission" in text


# ---------------------------------------------------------------------------------------------
# never failing


@pytest.mark.parametrize(
    ("event", "raw"),
    [
        ("PreToolUse", "not json"),
        ("PreToolUse", "[1, 2]"),
        ("PreToolUse", ""),
        ("PreToolUse", '{"tool_name": "Write", "tool_input": "a string"}'),
        ("PreToolUse", '{"tool_name": "Write", "tool_input": {"file_path": 42}}'),
        ("PreToolUse", '{"tool_name": "Bash", "tool_input": {"command": ["rm"]}}'),
        ("UserPromptSubmit", '{"prompt": 17}'),
        ("SessionStart", '{"cwd": "/no/such/folder"}'),
        ("NoSuchEvent", "{}"),
        ("PostToolUse", '{"tool_name": "Write", "tool_input": {"file_path": "a\\u0000.py"}}'),
    ],
)
def test_a_hook_never_fails_the_action(repo: Repo, event: str, raw: str, tmp_path: Path) -> None:
    """Nor does it take any of these for a bug of its own: nothing is logged (bad JSON, and a
    path no file system opens, left a traceback in a shared log that only grew)."""
    state = tmp_path / "state"
    done = subprocess.run(
        [GITMEM, "agent-hook", event], input=raw, cwd=repo.root,
        env={**repo.env, "XDG_STATE_HOME": str(state)},
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert not (state / "gitmem").exists()


def test_an_event_written_in_another_letter_case_is_named_on_stderr(repo: Repo) -> None:
    """`gitmem agent-hook sessionstart` answered nothing and said nothing: a hook command
    miswritten so never worked, and nothing told why. An event gitmem does not answer at all
    (a hook registered for every event) stays silent."""
    payload = json.dumps(repo.event("SessionStart", source="startup"))
    done = subprocess.run(
        [GITMEM, "agent-hook", "sessionstart"], input=payload, cwd=repo.root, env=repo.env,
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (0, "")
    assert "no event 'sessionstart': event names are written SessionStart" in done.stderr


def test_a_bug_in_a_hook_is_logged_in_a_private_file_of_the_users(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """It went to a file under a fixed name in the shared temporary folder: readable by other
    users, and written through a link any of them could plant there first."""
    import io

    from gitmem.agents import agent_hook

    def broken(*args: object) -> None:
        raise RuntimeError("a bug of the hook's")

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setattr(agent_hook, "answer", broken)
    out = io.StringIO()
    assert agent_hook.main("PreToolUse", io.StringIO("{}"), out, {}) == 0
    assert out.getvalue() == ""
    [log] = (tmp_path / "state/gitmem/errors").iterdir()
    assert "a bug of the hook's" in log.read_text()
    assert stat.S_IMODE(log.stat().st_mode) == 0o600


def test_outside_a_repository_or_memory_nothing_is_said(tmp_path: Path) -> None:
    env = isolation(tmp_path)
    plain = tmp_path / "plain"
    plain.mkdir()
    for event, fields in (
        ("SessionStart", {"source": "startup"}),
        ("UserPromptSubmit", {"prompt": "payment retries"}),
        ("PreToolUse", {"tool_name": "Write", "tool_input": {"file_path": "x.py", "content": ""}}),
    ):
        payload = {"session_id": "s", "transcript_path": "t", "cwd": str(plain),
                   "hook_event_name": event, **fields}  # fmt: skip
        done = subprocess.run(
            [GITMEM, "agent-hook", event], input=json.dumps(payload), cwd=plain,
            env={k: v for k, v in env.items() if k != "CLAUDE_PROJECT_DIR"},
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert (done.returncode, done.stdout) == (0, ""), event
    # a repository where gitmem init never ran: no memory, nothing to say, no error
    _sh(tmp_path, env, "git", "init", "-q", "-b", "main", str(tmp_path / "bare-memory"))
    empty = Repo(tmp_path / "bare-memory", env, {})
    assert empty.hook("SessionStart", empty.event("SessionStart", source="startup")) is None
    prompt = empty.event("UserPromptSubmit", prompt="payment retries")
    assert empty.hook("UserPromptSubmit", prompt) is None


@pytest.mark.parametrize("option", ["--help", "-h"])
def test_help_is_served_by_the_command_line(option: str) -> None:
    done = subprocess.run([GITMEM, "agent-hook", option], capture_output=True, text=True,
                          env={**os.environ}, check=False)  # fmt: skip
    assert done.returncode == 0 and "Claude Code hook" in done.stdout


@pytest.mark.parametrize(
    "args",
    [[], ["PreToolUse", "extra"], ["PreToolUse", "--verbose"], ["--verbose", "PreToolUse"]],
)
def test_a_miswritten_hook_command_never_blocks_the_agent(repo: Repo, args: list[str]) -> None:
    """Claude Code takes exit 2 from a hook for a blocking error (the tool call refused, the
    prompt erased), and click answers a usage mistake with exit 2: a hook command written
    wrongly must instead answer nothing, exit 0, and say on stderr what to fix."""
    payload = repo.event("PreToolUse", tool_name="Write",
                         tool_input={"file_path": "src/new.py", "content": "x"})  # fmt: skip
    done = subprocess.run(
        [GITMEM, "agent-hook", *args], input=json.dumps(payload), cwd=repo.root,
        env={**repo.env, "CLAUDE_PROJECT_DIR": str(repo.root)},
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (0, "")
    given = repr(" ".join(args)) if args else "nothing"
    assert done.stderr == (
        "gitmem agent-hook: expected one event (SessionStart, UserPromptSubmit, PreToolUse, "
        f"PostToolUse), got {given}; nothing answered. Fix the hook's command "
        "(`gitmem init --claude` writes it).\n"
    )


# ---------------------------------------------------------------------------------------------
# a cold cache of a large memory never stalls the agent


def test_a_cold_large_memory_answers_nothing_and_warms_in_the_background(tmp_path: Path) -> None:
    """A call in a clone of a large memory with no cache answers nothing and leaves the
    building to a background warm-up. That the call does not build is checked by what it
    leaves behind, not by its time (a timed bound fails on a loaded machine): while a fresh
    warm-up marker stands, no warm-up is started, so a catalog or recall state written then
    could only have been built by the call itself."""
    from agent_stores import make_store

    env = isolation(tmp_path)
    root = tmp_path / "work"
    make_store(root, 5200)  # above COLD_LIMIT
    big = Repo(root, env, {})
    edit_input = {"file_path": "src/app.py", "old_string": "a", "new_string": "b"}
    edit = big.event("PreToolUse", tool_name="Edit", tool_input=edit_input)
    prompt = big.event("UserPromptSubmit", prompt="lesson number 5102")
    agents = root / ".git" / "gitmem" / "agents"
    state = root / ".git" / "gitmem" / "recall" / "state.json"
    agents.mkdir(parents=True)
    (agents / "warming").touch()  # as if a warm-up were running
    assert big.hook("PreToolUse", edit) is None
    assert big.hook("UserPromptSubmit", prompt) is None
    assert not list(agents.glob("catalog-*.tsv")), "the call built the catalog itself"
    assert not state.exists(), "the call built the recall index itself"
    (agents / "warming").unlink()
    assert big.hook("PreToolUse", edit) is None
    assert (agents / "warming").exists()
    # a second call while it warms starts no second warm-up and still answers nothing
    assert big.hook("UserPromptSubmit", prompt) is None
    deadline = time.monotonic() + 300  # only stops a hung warm-up from stalling the suite
    while (agents / "warming").exists() and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not (agents / "warming").exists(), "the warm-up did not finish"
    assert list(agents.glob("catalog-*.tsv"))
    assert state.exists()
    text = big.context("PreToolUse", edit)
    assert text is not None and text.startswith("## Precedents for src/app.py")
    assert big.context("UserPromptSubmit", prompt) is not None


def test_the_help_names_every_refusal_the_hook_makes(tmp_path: Path) -> None:
    """The hook denies a Bash `gitmem admit` or `gitmem refuse` as well as a write into the
    memory (the test above outside any repository shows both); its help said "the only
    refusal is the deny of a write into the memory", so a person reading why an agent's
    admit was denied found the help saying it could not happen."""
    done = subprocess.run(
        [GITMEM, "agent-hook", "--help"], capture_output=True, text=True, check=True,
        env=isolation(tmp_path), timeout=120,
    )  # fmt: skip
    text = " ".join(done.stdout.split())
    assert "a write into the memory" in text
    assert "`gitmem admit` or `gitmem refuse`" in text
