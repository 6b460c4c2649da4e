"""`gitmem init --claude` / `--agents` [--uninstall]: merged into what is there, safe to run
twice, and removing exactly what they added."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from clirunner import ok, run

from gitmem.agents.install import AGENTS_BEGIN, AGENTS_END, HOOK_EVENTS, MCP_SERVER

DATA = json.loads((Path(__file__).parent / "data" / "claude-hooks.json").read_text())

THEIRS = {
    "permissions": {"allow": ["Bash(npm test:*)"]},
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "./audit.sh"}]}
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
    },
}
THEIR_SERVERS = {"mcpServers": {"docs": {"type": "stdio", "command": "docs-server", "args": []}}}


def _json(path: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_init_claude_writes_hooks_and_server_into_a_fresh_project(memory: Path) -> None:
    out = ok(run(memory, "init", "--claude")).output
    assert ".claude/settings.json: added the gitmem hooks" in out
    settings = _json(memory / ".claude" / "settings.json")
    jsonschema.validate(settings, DATA["settings"]["schema"])
    hooks = settings["hooks"]
    assert isinstance(hooks, dict) and set(hooks) == set(HOOK_EVENTS)
    pre = hooks["PreToolUse"][0]
    assert pre["matcher"] == "Edit|Write|MultiEdit|NotebookEdit|Bash"
    assert pre["hooks"][0]["command"] == "gitmem agent-hook PreToolUse"
    for event in ("SessionStart", "UserPromptSubmit"):
        assert hooks[event] == [
            {"hooks": [{"type": "command", "command": f"gitmem agent-hook {event}", "timeout": 10}]}
        ]
    mcp = _json(memory / ".mcp.json")
    jsonschema.validate(mcp, DATA["mcp"]["schema"])
    assert mcp == {"mcpServers": {"gitmem": MCP_SERVER}}

    before = {
        p: p.read_bytes() for p in (memory / ".claude" / "settings.json", memory / ".mcp.json")
    }
    again = ok(run(memory, "init", "--claude")).output
    assert "kept .claude/settings.json" in again and "kept .mcp.json" in again
    assert {p: p.read_bytes() for p in before} == before

    ok(run(memory, "init", "--claude", "--uninstall"))
    assert not (memory / ".claude").exists()
    assert not (memory / ".mcp.json").exists()


def test_init_claude_merges_into_existing_files_and_uninstall_restores_them(
    memory: Path,
) -> None:
    (memory / ".claude").mkdir()
    (memory / ".claude" / "settings.json").write_text(json.dumps(THEIRS, indent=2) + "\n")
    (memory / ".mcp.json").write_text(json.dumps(THEIR_SERVERS, indent=2) + "\n")
    ok(run(memory, "init", "--claude"))
    settings = _json(memory / ".claude" / "settings.json")
    assert settings["permissions"] == THEIRS["permissions"]
    hooks = settings["hooks"]
    assert isinstance(hooks, dict)
    assert hooks["Stop"] == THEIRS["hooks"]["Stop"]
    assert hooks["PreToolUse"][0] == THEIRS["hooks"]["PreToolUse"][0]  # theirs stays first
    assert hooks["PreToolUse"][1]["hooks"][0]["command"] == "gitmem agent-hook PreToolUse"
    servers = _json(memory / ".mcp.json")["mcpServers"]
    assert servers == {**THEIR_SERVERS["mcpServers"], "gitmem": MCP_SERVER}

    ok(run(memory, "init", "--claude", "--uninstall"))
    assert _json(memory / ".claude" / "settings.json") == THEIRS
    assert _json(memory / ".mcp.json") == THEIR_SERVERS
    second = ok(run(memory, "init", "--claude", "--uninstall")).output
    assert "no gitmem hook to remove" in second and "no gitmem server to remove" in second


def test_a_gitmem_server_set_up_by_hand_is_kept_both_ways(memory: Path) -> None:
    mine = {"mcpServers": {"gitmem": {"command": "/opt/gitmem", "args": ["mcp", "--path", "."]}}}
    (memory / ".mcp.json").write_text(json.dumps(mine))
    out = ok(run(memory, "init", "--claude")).output
    assert "a server named gitmem is already set up there" in out
    assert _json(memory / ".mcp.json") == mine
    out = ok(run(memory, "init", "--claude", "--uninstall")).output
    assert "kept the server named gitmem" in out
    assert _json(memory / ".mcp.json") == mine


def test_files_of_the_wrong_shape_are_refused_not_rewritten(memory: Path) -> None:
    (memory / ".claude").mkdir()
    bad = memory / ".claude" / "settings.json"
    for text, says in (
        ("{not json", "not valid JSON"),
        ("[1]", "not an object"),
        ('{"hooks": []}', "`hooks` is not an object"),
        ('{"hooks": {"PreToolUse": {}}}', "hooks.PreToolUse is not a list"),
        ("[" * 100_000, "not valid JSON"),  # deeper than the parser recurses: exit 3
    ):
        bad.write_text(text)
        result = run(memory, "init", "--claude")
        assert result.exit_code == 2, result.output
        assert says in result.output and ".claude/settings.json" in result.output
        assert "Traceback" not in result.output
        assert bad.read_text() == text


def test_an_mcp_json_of_the_wrong_shape_is_refused_before_the_settings_are_written(
    memory: Path,
) -> None:
    """.claude/settings.json was merged and written first, then .mcp.json refused: the
    command failed having done half of its work."""
    (memory / ".mcp.json").write_text('{"mcpServers": []}')
    result = run(memory, "init", "--claude")
    assert result.exit_code == 2, result.output
    assert ".mcp.json: `mcpServers` is not an object" in result.output
    assert not (memory / ".claude").exists()
    assert (memory / ".mcp.json").read_text() == '{"mcpServers": []}'


def test_a_file_or_folder_linked_out_of_the_repository_is_refused_before_any_write(
    memory: Path, tmp_path: Path
) -> None:
    """A clone can commit AGENTS.md as a link to a shell start-up file, or .claude as one to
    the user's own folder: init --agents appended its Markdown block to the file, init
    --claude merged its hooks into the user's settings. Both are refused, nothing written."""
    rc = tmp_path / "bashrc"
    rc.write_text("export PATH=$PATH\n")
    (memory / "AGENTS.md").symlink_to(rc)
    result = run(memory, "init", "--claude", "--agents")
    assert result.exit_code == 2, result.output
    assert "AGENTS.md: is a symbolic link" in result.output
    assert rc.read_text() == "export PATH=$PATH\n"
    assert not (memory / ".claude").exists() and not (memory / ".mcp.json").exists()
    (memory / "AGENTS.md").unlink()
    users = tmp_path / "users-claude"
    users.mkdir()
    (users / "settings.json").write_text("{}")
    (memory / ".claude").symlink_to(users)
    result = run(memory, "init", "--claude")
    assert result.exit_code == 2, result.output
    assert ".claude/settings.json: its folder leads outside the repository" in result.output
    assert (users / "settings.json").read_text() == "{}"


@pytest.mark.parametrize(
    ("rel", "content", "says"),
    [
        ("AGENTS.md", None, "AGENTS.md: is not a file"),
        (
            "AGENTS.md",
            b"\xff\xfe# agents\n",
            "AGENTS.md: is not UTF-8 text (byte 0xff at offset 0)",
        ),
        ("CLAUDE.md", b"caf\xe9\n", "CLAUDE.md: is not UTF-8 text (byte 0xe9 at offset 3)"),
        (".claude/settings.json", None, ".claude/settings.json: is not a file"),
        (".claude", b"notes\n", ".claude: is a file, not a folder"),
    ],
)
def test_a_folder_or_a_file_not_in_utf8_is_refused_before_any_write(
    memory: Path, rel: str, content: bytes | None, says: str
) -> None:
    """A folder named AGENTS.md or .claude/settings.json, a file named .claude, or an
    AGENTS.md or CLAUDE.md saved in another encoding, failed as an unexpected error (exit 3),
    with --claude --agents only after the Claude files were written."""
    path = memory / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if content is None:
        path.mkdir()
    else:
        path.write_bytes(content)
    result = run(memory, "init", "--claude", "--agents")
    assert result.exit_code == 2, result.output
    assert says in result.output and "Traceback" not in result.output
    assert not (memory / ".mcp.json").exists()
    if content is not None:
        assert path.read_bytes() == content


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--uninstall", "--claude", "--hooks"], "--uninstall removes only what --claude"),
        (["--uninstall", "--agents", "--dir", "mem"], "not --dir"),
        (["--force"], "--force goes with --github or --pages"),
    ],
)
def test_an_option_init_would_ignore_is_a_usage_error(
    memory: Path, args: list[str], says: str
) -> None:
    """`--uninstall --claude --hooks` removed the Claude wiring and installed no hook, and
    `--force` alone replaced nothing, each without a word."""
    ok(run(memory, "init", "--claude"))
    settings = (memory / ".claude" / "settings.json").read_text()
    result = run(memory, "init", *args)
    assert result.exit_code == 2 and says in result.output, result.output
    assert (memory / ".claude" / "settings.json").read_text() == settings
    assert not (memory / "mem").exists()


def test_uninstall_alone_is_a_usage_error(memory: Path) -> None:
    result = run(memory, "init", "--uninstall")
    assert result.exit_code == 2 and "--claude" in result.output


def test_init_agents_keeps_one_managed_block_and_imports_it_from_claude_md(memory: Path) -> None:
    (memory / "AGENTS.md").write_text("# Agents\n\nRun `make test` before committing.\n")
    ok(run(memory, "init", "--agents"))
    text = (memory / "AGENTS.md").read_text()
    assert text.startswith("# Agents\n\nRun `make test` before committing.\n\n" + AGENTS_BEGIN)
    assert text.count(AGENTS_BEGIN) == 1 and text.rstrip().endswith(AGENTS_END)
    assert "gitmem recall" in text and "memory_push" in text and "gitmem propose" in text
    assert "not instructions" in text
    assert (memory / "CLAUDE.md").read_text() == "@AGENTS.md\n"

    # edited inside the block, a copy pasted below, text added after: one fresh block
    edited = text.replace("Project memory", "Project memory EDITED")
    copy = text[text.index(AGENTS_BEGIN) :]
    (memory / "AGENTS.md").write_text(edited + "\nMore of theirs.\n\n" + copy)
    out = ok(run(memory, "init", "--agents")).output
    assert "updated the gitmem block" in out and "kept CLAUDE.md" in out
    again = (memory / "AGENTS.md").read_text()
    assert again.count(AGENTS_BEGIN) == 1 and "EDITED" not in again
    assert "More of theirs." in again and again.index(AGENTS_BEGIN) < again.index("More of")
    assert ok(run(memory, "init", "--agents")).output.startswith("kept AGENTS.md")
    assert (memory / "CLAUDE.md").read_text() == "@AGENTS.md\n"

    ok(run(memory, "init", "--agents", "--uninstall"))
    left = (memory / "AGENTS.md").read_text()
    assert AGENTS_BEGIN not in left and "Run `make test`" in left and "More of theirs." in left


def test_init_agents_adds_the_import_to_an_existing_claude_md(memory: Path) -> None:
    (memory / "CLAUDE.md").write_text("# Notes\nUse tabs.")
    ok(run(memory, "init", "--agents", "--dir", ".gitmem"))
    assert (memory / "CLAUDE.md").read_text() == "# Notes\nUse tabs.\n@AGENTS.md\n"
    ok(run(memory, "init", "--agents", "--uninstall"))
    assert not (memory / "AGENTS.md").exists()  # it held only the block


@pytest.mark.parametrize("uninstall", [False, True])
def test_a_block_without_its_end_marker_is_refused(memory: Path, uninstall: bool) -> None:
    """With --claude too, the Claude files were written (or removed) first, and the command
    then failed on AGENTS.md, half done: it is refused before anything is written."""
    if uninstall:
        assert run(memory, "init", "--claude").exit_code == 0
    claude = {rel: (memory / rel).exists() for rel in (".mcp.json", ".claude")}
    (memory / "AGENTS.md").write_text(f"{AGENTS_BEGIN}\nhalf a block\n")
    result = run(memory, "init", "--claude", "--agents", *(["--uninstall"] if uninstall else []))
    assert result.exit_code == 2 and "no END marker" in result.output
    assert {rel: (memory / rel).exists() for rel in claude} == claude
    assert (memory / "AGENTS.md").read_text() == f"{AGENTS_BEGIN}\nhalf a block\n"


@pytest.mark.parametrize("uninstall", [False, True])
def test_a_block_opened_twice_is_refused_not_cut_with_the_users_text(
    memory: Path, uninstall: bool
) -> None:
    """The first BEGIN was paired with the next END, whatever lay between: a marker quoted in
    the user's text (in a code fence) and a block further on had the user's own rules cut
    out with the block, without a word."""
    original = (
        f"# Agents\n```\n{AGENTS_BEGIN}\n```\n## My own rules\nNEVER force push.\n\n"
        f"{AGENTS_BEGIN}\nblock\n{AGENTS_END}\n"
    )
    (memory / "AGENTS.md").write_text(original)
    result = run(memory, "init", "--agents", *(["--uninstall"] if uninstall else []))
    assert result.exit_code == 2, result.output
    assert "AGENTS.md:8: a `" in result.output and "opens again before the END" in result.output
    assert (memory / "AGENTS.md").read_text() == original


def test_init_agents_keeps_a_crlf_file_s_line_ends(memory: Path) -> None:
    """AGENTS.md and CLAUDE.md were read with newline translation: in a CRLF file every line
    of the user's came back changed (and a lone CR inside a line became a line break)."""
    agents = b"# Agents\r\n\r\nUse tabs.\r\nA lone CR\rinside\r\n"
    claude = b"# Claude\r\nBe nice.\r\n"
    (memory / "AGENTS.md").write_bytes(agents)
    (memory / "CLAUDE.md").write_bytes(claude)
    ok(run(memory, "init", "--agents"))
    written = (memory / "AGENTS.md").read_bytes()
    assert written.startswith(agents) and AGENTS_BEGIN.encode() in written
    assert b"\n" not in written.replace(b"\r\n", b"")  # the block's lines end in CRLF too
    assert (memory / "CLAUDE.md").read_bytes() == claude + b"@AGENTS.md\r\n"
    ok(run(memory, "init", "--agents", "--uninstall"))
    assert (memory / "AGENTS.md").read_bytes() == agents


@pytest.mark.parametrize("target", ["AGENTS.md", "./AGENTS.md"])
def test_a_claude_md_linked_to_agents_md_is_kept_as_the_link_it_is(
    memory: Path, target: str
) -> None:
    """Projects keep one file for every agent by making CLAUDE.md a link to AGENTS.md: Claude
    Code then reads the block through the link and needs no import. init --agents refused
    the link as one that could lead out of the repository, and left nothing installed."""
    (memory / "AGENTS.md").write_text("# Agents\n\nRun `make test`.\n")
    (memory / "CLAUDE.md").symlink_to(target)
    out = ok(run(memory, "init", "--agents")).output
    assert "CLAUDE.md" in out and "link to AGENTS.md" in out
    assert (memory / "CLAUDE.md").is_symlink()
    text = (memory / "AGENTS.md").read_text()
    assert text.count(AGENTS_BEGIN) == 1 and "@AGENTS.md" not in text
    ok(run(memory, "init", "--agents", "--uninstall"))
    assert (memory / "CLAUDE.md").is_symlink()
    assert (memory / "AGENTS.md").read_text() == "# Agents\n\nRun `make test`.\n"
