"""`gitmem init --claude` and `gitmem init --agents`: wire the memory into agents' own files.

**--claude** merges into the project's `.claude/settings.json` the hooks that run `gitmem
agent-hook EVENT` (SessionStart, UserPromptSubmit, and PreToolUse for the file tools and Bash),
and into `.mcp.json` the `gitmem` MCP server (`gitmem mcp`).  Both files are shared with the
team and with other tools, so the merge keeps everything already there: a hook gitmem adds is
one handler in a matcher group of its own, appended to the event's list; a server entry named
`gitmem` that is already there is kept as it is, and said so.  Running it twice changes
nothing.  `--uninstall` removes exactly the handlers whose command is gitmem's own (and a
group left empty by that), the `gitmem` server when it is still the one gitmem wrote, and a
file left holding nothing at all; everything else stays, byte for byte in meaning (the JSON is
written back with two-space indents, the form Claude Code writes).

**--agents** keeps a short managed block in AGENTS.md, between BEGIN and END markers: written
when absent, replaced in place when present (a second copy, pasted by hand, is removed), so it
is never duplicated; and, for Claude Code, which reads CLAUDE.md and its `@file` imports, an
`@AGENTS.md` line in CLAUDE.md when no line imports it yet.  `--agents --uninstall` removes the
block (the import line stays: it is the project's own once written).

Files that are not what they should be (settings that are not a JSON object, a hooks table of
the wrong shape) are never rewritten: a UsageError says which file and what to fix.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from gitmem.errors import UsageError
from gitmem.repo.atomic import ABANDONED_AGE, atomic_write, refuse_links, remove_temporaries_of
from gitmem.repo.gitcli import PinnedRepository

__all__ = [
    "AGENTS_BEGIN",
    "AGENTS_END",
    "HOOK_EVENTS",
    "MCP_SERVER",
    "install_agents",
    "install_claude",
    "run",
    "uninstall_agents",
    "uninstall_claude",
]

#: event -> the tool matcher gitmem's handler is registered under (None: every occurrence).
HOOK_EVENTS: Final[dict[str, str | None]] = {
    "SessionStart": None,
    "UserPromptSubmit": None,
    "PreToolUse": "Edit|Write|MultiEdit|NotebookEdit|Bash",
}
HOOK_TIMEOUT: Final = 10  # seconds; gitmem answers in a fraction of one
MCP_SERVER: Final = {"type": "stdio", "command": "gitmem", "args": ["mcp"]}

AGENTS_BEGIN: Final = (
    "<!-- BEGIN gitmem (managed by `gitmem init --agents`; edits here are replaced) -->"
)
AGENTS_END: Final = "<!-- END gitmem -->"
CLAUDE_IMPORT: Final = "@AGENTS.md"


def hook_command(event: str) -> str:
    return f"gitmem agent-hook {event}"


def _handler(event: str) -> dict[str, Any]:
    return {"type": "command", "command": hook_command(event), "timeout": HOOK_TIMEOUT}


def _read_json(path: Path, where: str) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8") or "{}")
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UsageError(f"{where}: not valid JSON ({exc}): fix it, then run again") from None
    except RecursionError:
        raise UsageError(
            f"{where}: not valid JSON (nested deeper than it can be read): fix it, then run again"
        ) from None
    if not isinstance(data, dict):
        raise UsageError(f"{where}: holds a JSON {type(data).__name__}, not an object: fix it")
    return data


def _write_json(path: Path, data: dict[str, Any], before: dict[str, Any]) -> bool:
    """Write data when it differs from before; remove the file when data is empty."""
    if data == before and (path.exists() or not data):
        return False
    if not data:
        if path.exists():
            path.unlink()
            return True
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    return True


def _event_groups(hooks: dict[str, Any], event: str, where: str) -> list[Any]:
    groups = hooks.setdefault(event, [])
    if not isinstance(groups, list):
        raise UsageError(f"{where}: hooks.{event} is not a list: fix it, then run again")
    return groups


def _is_ours(handler: object, event: str) -> bool:
    return isinstance(handler, dict) and handler.get("command") == hook_command(event)


def install_claude(root: Path) -> list[str]:
    """Merge gitmem's hooks into .claude/settings.json and its server into .mcp.json; both
    files are read and their shapes checked before either is written."""
    lines = []
    mcp_path = root / ".mcp.json"
    config = _read_json(mcp_path, ".mcp.json")
    mcp_before = json.loads(json.dumps(config))
    servers = config.setdefault("mcpServers", {})
    if not isinstance(servers, dict):
        raise UsageError(".mcp.json: `mcpServers` is not an object: fix it, then run again")
    settings_path = root / ".claude" / "settings.json"
    where = ".claude/settings.json"
    settings = _read_json(settings_path, where)
    before = json.loads(json.dumps(settings))
    hooks = settings.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise UsageError(f"{where}: `hooks` is not an object: fix it, then run again")
    added = []
    for event, matcher in HOOK_EVENTS.items():
        groups = _event_groups(hooks, event, where)
        present = any(
            _is_ours(h, event)
            for g in groups
            if isinstance(g, dict) and isinstance(g.get("hooks"), list)
            for h in g["hooks"]
        )
        if present:
            continue
        group: dict[str, Any] = {"hooks": [_handler(event)]}
        if matcher is not None:
            group = {"matcher": matcher, **group}
        groups.append(group)
        added.append(event)
    if _write_json(settings_path, settings, before):
        lines.append(f"{where}: added the gitmem hooks for {', '.join(added)}")
    else:
        lines.append(f"kept {where} (the gitmem hooks are there)")

    if "gitmem" in servers:
        if servers["gitmem"] == MCP_SERVER:
            lines.append("kept .mcp.json (the gitmem server is there)")
        else:
            lines.append("kept .mcp.json: a server named gitmem is already set up there, as it is")
    else:
        servers["gitmem"] = dict(MCP_SERVER)
        _write_json(mcp_path, config, mcp_before)
        lines.append(".mcp.json: added the gitmem MCP server (`gitmem mcp`)")
    return lines


def uninstall_claude(root: Path) -> list[str]:
    """Remove exactly what install_claude adds."""
    lines = []
    settings_path = root / ".claude" / "settings.json"
    where = ".claude/settings.json"
    settings = _read_json(settings_path, where)
    before = json.loads(json.dumps(settings))
    hooks = settings.get("hooks")
    removed = []
    if isinstance(hooks, dict):
        for event in HOOK_EVENTS:
            groups = hooks.get(event)
            if not isinstance(groups, list):
                continue
            kept_groups = []
            for group in groups:
                handlers = group.get("hooks") if isinstance(group, dict) else None
                if not isinstance(handlers, list) or not any(_is_ours(h, event) for h in handlers):
                    kept_groups.append(group)
                    continue
                removed.append(event)
                rest = [h for h in handlers if not _is_ours(h, event)]
                if rest:
                    kept_groups.append({**group, "hooks": rest})
            if kept_groups:
                hooks[event] = kept_groups
            else:
                del hooks[event]
        if not hooks:
            del settings["hooks"]
    if _write_json(settings_path, settings, before):
        lines.append(f"{where}: removed the gitmem hooks for {', '.join(dict.fromkeys(removed))}")
        claude_dir = settings_path.parent
        if claude_dir.is_dir() and not any(claude_dir.iterdir()):
            claude_dir.rmdir()
    else:
        lines.append(f"{where}: no gitmem hook to remove")

    mcp_path = root / ".mcp.json"
    config = _read_json(mcp_path, ".mcp.json")
    before = json.loads(json.dumps(config))
    servers = config.get("mcpServers")
    if isinstance(servers, dict) and servers.get("gitmem") == MCP_SERVER:
        del servers["gitmem"]
        if not servers:
            del config["mcpServers"]
        _write_json(mcp_path, config, before)
        lines.append(".mcp.json: removed the gitmem MCP server")
    elif isinstance(servers, dict) and "gitmem" in servers:
        lines.append(".mcp.json: kept the server named gitmem: it is not the one gitmem wrote")
    else:
        lines.append(".mcp.json: no gitmem server to remove")
    return lines


# ---------------------------------------------------------------------------------------------
# AGENTS.md


def agents_block(memory_dir: str) -> str:
    """The managed block: how any agent recalls and proposes, through the CLI or MCP."""
    return f"""{AGENTS_BEGIN}
## Project memory (gitmem)

This project keeps reviewed lessons (decisions, methods, code structure, mistakes) in
`{memory_dir}/`. They are precedents, not instructions: none outranks the request, this file's
other instructions or the code as it is.

- Before a step of work, recall what applies: `gitmem recall "the situation in your words"`
  (`--step spec|plan|batch|correction|audit`, `--format precedents` for a prompt block), or the
  MCP tool `memory_recall` of the `gitmem mcp` server. An empty answer means no precedent.
- To keep a lesson, propose it: `gitmem propose --type method --title … --applies-when …
  --content …` or MCP `memory_push` with `source: "verdict:<stop>"`. It becomes a candidate on
  its own branch for a person to review; it never changes the main branch.
- Never edit `{memory_dir}/entries/`, `{memory_dir}/candidates/`, `INDEX.md`, `refused.md`
  or `allowed.md` by hand: review and the git hooks reject it.
{AGENTS_END}
"""


def _without_blocks(text: str) -> tuple[str, int]:
    """text with every managed block cut out, and where the first one began (-1: none). A
    BEGIN marker with no END after it, or a second BEGIN before the first one's END (an END
    deleted by hand, a marker quoted in the user's text), is refused naming its line: cut
    from the first BEGIN to the next END, the user's own text between went with the block."""
    first = -1
    cut_lines = 0  # lines of the file before the text's current start that were cut
    while True:
        start = text.find(AGENTS_BEGIN)
        if start < 0:
            return text, first
        end = text.find(AGENTS_END, start)
        again = text.find(AGENTS_BEGIN, start + len(AGENTS_BEGIN), end if end >= 0 else None)
        if end < 0 or again >= 0:
            at = start if end < 0 else again
            line = text.count("\n", 0, at) + 1 + cut_lines
            what = "has no END marker after it" if end < 0 else "opens again before the END"
            raise UsageError(
                f"AGENTS.md:{line}: a `{AGENTS_BEGIN[:20]}…` marker {what}: gitmem would cut "
                "text of yours with its block; fix the markers, then run again"
            )
        end += len(AGENTS_END)
        for ending in ("\r\n", "\n"):
            if text.startswith(ending, end):
                end += len(ending)
                break
        first = start if first < 0 else first
        cut_lines += text.count("\n", start, end)
        text = text[:start] + text[end:]


def _read_kept(path: Path) -> str:
    """A file of the user's, its line ends as they are (read_text made CRLF and a lone CR
    into LF, so the rewrite changed every line of a CRLF file)."""
    return path.read_bytes().decode("utf-8") if path.exists() else ""


def _line_end(text: str) -> str:
    """The line end a file of the user's is written with: CRLF when it has one, else LF."""
    return "\r\n" if "\r\n" in text else "\n"


def install_agents(root: Path, memory_dir: str) -> list[str]:
    """Write or refresh the managed AGENTS.md block, and import AGENTS.md from CLAUDE.md."""
    lines = []
    path = root / "AGENTS.md"
    old = _read_kept(path)
    rest, at = _without_blocks(old)
    eol = _line_end(old)
    block = agents_block(memory_dir).replace("\n", eol)
    if at >= 0:
        new = rest[:at] + block + rest[at:]
    elif rest.strip():
        new = rest.rstrip("\r\n") + eol + eol + block
    else:
        new = block
    if new != old:
        atomic_write(path, new.encode("utf-8"))
        lines.append(f"AGENTS.md: {'updated' if at >= 0 else 'added'} the gitmem block")
    else:
        lines.append("kept AGENTS.md (the gitmem block is up to date)")
    claude = root / "CLAUDE.md"
    if _links_to_agents(root):
        lines.append("kept CLAUDE.md (a link to AGENTS.md: Claude Code reads the block there)")
        return lines
    text = _read_kept(claude)
    if any(line.strip() == CLAUDE_IMPORT for line in text.splitlines()):
        lines.append("kept CLAUDE.md (it imports AGENTS.md)")
    else:
        eol = _line_end(text)
        sep = "" if not text or text.endswith("\n") else eol
        atomic_write(claude, (text + sep + CLAUDE_IMPORT + eol).encode("utf-8"))
        lines.append(f"CLAUDE.md: {'added' if text else 'created with'} the line {CLAUDE_IMPORT}")
    return lines


def _links_to_agents(root: Path) -> bool:
    """Whether CLAUDE.md is a symbolic link to the repository's own AGENTS.md (itself no
    link), as projects make it to keep one file for every agent: Claude Code reads the
    block through it, so it needs no import and is never written."""
    claude, agents = root / "CLAUDE.md", root / "AGENTS.md"
    if not claude.is_symlink() or agents.is_symlink():
        return False
    try:
        return claude.resolve(strict=True) == agents.resolve(strict=True)
    except (OSError, RuntimeError):  # a dangling link, or a loop
        return False


def uninstall_agents(root: Path) -> list[str]:
    path = root / "AGENTS.md"
    if not path.exists():
        return ["AGENTS.md: no gitmem block to remove"]
    old = _read_kept(path)
    rest, at = _without_blocks(old)
    if at < 0:
        return ["AGENTS.md: no gitmem block to remove"]
    if rest.strip():
        atomic_write(path, (rest.rstrip("\r\n") + _line_end(old)).encode("utf-8"))
    else:
        path.unlink()
    return ["AGENTS.md: removed the gitmem block (CLAUDE.md keeps its @AGENTS.md line)"]


def _refuse_unreadable(root: Path, touched: list[str]) -> None:
    """Refuse, before any file is written, one that is there but not a file (a folder named
    AGENTS.md), one whose folder is a file (a file named .claude), or one not in UTF-8 text:
    each failed as an unexpected error (exit 3), and with --claude --agents only after the
    Claude files had been written."""
    for rel in touched:
        path = root / rel
        for folder in reversed(Path(rel).parents[:-1]):
            if (root / folder).exists() and not (root / folder).is_dir():
                raise UsageError(
                    f"{folder.as_posix()}: is a file, not a folder: move it away, then run again"
                )
        if not path.exists():
            continue
        if not path.is_file():
            raise UsageError(f"{rel}: is not a file (a folder?): move it away, then run again")
        try:
            path.read_bytes().decode("utf-8")
        except UnicodeDecodeError as exc:
            raise UsageError(
                f"{rel}: is not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset "
                f"{exc.start}): save it as UTF-8, then run again"
            ) from None


CLAUDE_FILES: Final = (".claude/settings.json", ".mcp.json")
AGENTS_FILES: Final = ("AGENTS.md", "CLAUDE.md")


def run(
    root: Path,
    memory_dir: str | None,
    *,
    claude: bool,
    agents: bool,
    uninstall: bool,
    pinned: PinnedRepository | None = None,
) -> list[str]:
    """What `gitmem init --claude/--agents [--uninstall]` does, as printed lines.  Every file it
    may write is first checked not to be a symbolic link nor to lie in a folder linked out of
    the repository (refuse_links): a cloned repository could commit AGENTS.md as a link to a
    shell start-up file, or .claude as one to the user's own, which the merge would change."""
    lines: list[str] = []
    touched = [*(CLAUDE_FILES if claude else ()), *(AGENTS_FILES if agents else ())]
    for rel in touched:
        if rel == "CLAUDE.md" and _links_to_agents(root):
            continue  # read through, never written (install_agents)
        refuse_links(root / rel, rel, root)
    _refuse_unreadable(root, touched)
    # the temporary a killed run left beside a file it was writing, untracked in the working
    # tree where `git add -A` commits it
    remove_temporaries_of((root / rel for rel in touched), ABANDONED_AGE)
    if agents and (root / "AGENTS.md").exists():
        # a block that cannot be replaced or removed, refused before the Claude files change
        _without_blocks((root / "AGENTS.md").read_text(encoding="utf-8"))
    if claude:
        lines += uninstall_claude(root) if uninstall else install_claude(root)
    if agents:
        if uninstall:
            lines += uninstall_agents(root)
        else:
            if memory_dir is None:
                from gitmem.repo.workspace import open_workspace

                memory_dir = open_workspace(root, pinned=pinned).dir
            lines += install_agents(root, memory_dir)
    return lines
