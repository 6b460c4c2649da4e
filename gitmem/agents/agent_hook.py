"""`gitmem agent-hook EVENT`: what gitmem answers when Claude Code runs one of its hooks.

Claude Code runs a hook command with the event's JSON on stdin and reads an answer on stdout
(the hooks reference of Claude Code: https://code.claude.com/docs/en/hooks; the shapes this
module reads and writes are kept, with that citation, in tests/agents/data/claude-hooks.json
and every answer is checked against them).  Every answer is one JSON object whose
`hookSpecificOutput.hookEventName` names the event:

- **SessionStart**: `additionalContext`, a short block saying how to recall and propose and
  how many candidates wait for review.
- **UserPromptSubmit**: gated recall on the prompt; the precedents, if any, as
  `additionalContext` within HOOK_BUDGET characters (gitmem.agents.precedents); nothing at all
  when nothing applies.
- **PreToolUse**: for Write, Edit, MultiEdit and NotebookEdit, and for Bash commands that
  visibly write (gitmem.agents.guard), `permissionDecision: "deny"` with a reason naming
  `memory_push` when the write would touch the memory, and for a Bash `gitmem admit` or
  `gitmem refuse` (a person's decision); for a file tool writing elsewhere, the
  admitted entries whose `files` cite that file as `additionalContext` ("precedents for this
  file"), which the reference documents as added to the model's context before the tool runs.
- **PostToolUse**: the same precedents for the file just written, for a client whose
  PreToolUse does not pass context on (an early Claude Code dropped it: anthropics/claude-code
  issue 19432); `gitmem init --claude` registers PreToolUse only, docs/agents.md says how to
  use this one instead.

A hook never fails the agent's action for any reason but those denies: on any error (no git
repository, no memory, bad JSON, a bug) it prints nothing and exits 0, and the traceback of an
unexpected error goes to a private log file of the user's (gitmem.errorlog) for whoever debugs
it.

A cold cache never stalls the agent: the first call in a clone of a large memory (over
COLD_LIMIT entries) would spend seconds building the recall index or the agents' catalog,
past Claude Code's hook timeout.  Instead the hook answers nothing for now and starts one
detached `python -m gitmem.agents.agent_hook --warm ROOT`, which builds both and exits (a
marker file in the git directory keeps a second one from starting); the next calls are warm.
A smaller memory is built in the call itself, as `gitmem recall` does.

Speed: every prompt and every edit runs one of these, so the command line's fast path
(gitmem.launcher) calls `main` without loading click, the deny is decided before pygit2 or
the settings are imported (the memory folders come from gitmem.settings.folders), and
the file precedents come from the agents' catalog (gitmem.lifecycle.catalog), a binary search
of one mapped file's tables.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Mapping, Sequence
from typing import IO, TYPE_CHECKING, Any, Final

from gitmem.agents.memory import Memory
from gitmem.errors import UsageError

if TYPE_CHECKING:
    from gitmem.agents.guard import Denied
    from gitmem.agents.precedents import Precedent
    from gitmem.lifecycle.catalog import Catalog, Listed
    from gitmem.recall.engine import Index
    from gitmem.repo.gitcli import PinnedRepository
    from gitmem.repo.workspace import Workspace

__all__ = ["EVENTS", "answer", "as_the_client_writes", "main"]

EVENTS: Final = ("SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse")

#: Precedents recalled for a prompt, and listed for a file, before the budget cuts.
PROMPT_K: Final = 4
FILE_K: Final = 4

READ_HINT: Final = "MCP memory_show `{id}` or `gitmem show {id}`"

#: From how many entries a missing cache is built in the background rather than in the call
#: (the git hooks' warm-up uses the same bound: gitmem.lifecycle.refresh.WARM_COLD_LIMIT).
COLD_LIMIT: Final = 5000
#: A warm-up marker older than this is taken for a warm-up that died.
WARMING_STALE_SECONDS: Final = 1800


def main(event: str, stdin: IO[str], stdout: IO[str], environ: Mapping[str, str]) -> int:
    """Answer one hook call; always 0, and nothing printed unless there is an answer."""
    if event not in EVENTS:
        # an event of the client's that gitmem does not answer is no mistake (a hook
        # registered for every event); the letter case of one it does answer is
        meant = next((known for known in EVENTS if known.lower() == event.lower()), None)
        if meant is not None:
            print(
                f"gitmem agent-hook: no event {event!r}: event names are written {meant}; "
                "nothing answered. Fix the hook's command (`gitmem init --claude` writes it).",
                file=sys.stderr,
            )
        return 0
    try:
        try:
            payload = as_the_client_writes(_loads(_read_text(stdin) or "{}"))
        except TooDeep as deep:
            if event == "PreToolUse":  # unread, the call may write the memory: refused
                stdout.write(json.dumps(_too_deep(deep)) + "\n")
                stdout.flush()
            return 0
        except ValueError:
            return 0  # not JSON: no event of the client's, nothing to answer, no bug of ours
        if not isinstance(payload, dict):
            return 0
        out = answer(event, payload, environ)
        if out is not None:
            # in ASCII (JSON's \u escapes): standard output is written in the locale's
            # encoding (cp1252 in a Windows pipe), where a reason naming a path in another
            # script failed to encode, and the deny was lost, the write let through
            stdout.write(json.dumps(out) + "\n")
            stdout.flush()
    except Exception:
        _log()
    return 0


#: A UTF-16 surrogate: json.loads pairs a surrogate pair's escapes into one character, so one
#: left in a string it returns is unpaired.
_SURROGATE: Final = re.compile(r"[\ud800-\udfff]")


def _read_text(stdin: IO[str]) -> str:
    """The event's JSON; bytes that are not UTF-8 read as U+FFFD rather than refused, and a
    byte order mark before it skipped (json refuses one, and a refused payload lets the
    write through)."""
    buffer = getattr(stdin, "buffer", None)
    text = buffer.read().decode("utf-8", "replace") if buffer is not None else stdin.read()
    return text.removeprefix("\ufeff")


class TooDeep(Exception):
    """A payload nested deeper than json reads, and too long for _read_deep in a hook's time."""

    def __init__(self, size: int) -> None:
        super().__init__(size)
        self.size = size


#: The longest payload nested too deep for json that _read_deep reads (some 0.5 µs a
#: character: about half a second); a longer one is refused (TooDeep), never waited on: a
#: 20 MB one took 10 s, and Claude Code lets a tool call through when its hook times out.
DEEP_TEXT_LIMIT: Final = 1_000_000


def _loads(text: str) -> Any:
    """The event's JSON. json recurses once a level of nesting and refuses a payload nested
    deeper than Python recurses (RecursionError): the hook said nothing, and a write into
    the memory whose input carried a field nested so went through unjudged. Such a payload
    is read by _read_deep, with a stack of its own, up to DEEP_TEXT_LIMIT characters."""
    try:
        return json.loads(text)
    except RecursionError:
        if len(text) > DEEP_TEXT_LIMIT:
            raise TooDeep(len(text)) from None
        return _read_deep(text)


def _too_deep(deep: TooDeep) -> dict[str, Any]:
    """The deny of a tool call whose payload could not be read in a hook's time: no client
    nests a tool's input so, and read or not, it may write the memory."""
    return _deny(
        f"this tool call's input ({deep.size:,} characters) is nested deeper than a hook "
        "reads in its time, so whether it writes the project memory cannot be judged: send "
        "it flatter"
    )


#: How many levels of a payload _read_deep keeps: a value nested deeper is read (the JSON
#: must be whole) but kept as None. What a hook reads lies on the first three levels.
KEPT_DEPTH: Final = 64
_BLANK: Final = re.compile("[ \t\n\r]*")  # JSON's whitespace


def _read_deep(text: str) -> Any:
    """What json.loads reads of text, at any depth: the open arrays and objects are a stack,
    not recursion (each string, number or constant json reads itself: raw_decode), and those
    below KEPT_DEPTH are counted, not kept (a byte each), so a megabyte of `[` costs about a
    megabyte. ValueError when text is not JSON."""
    scalar = json.JSONDecoder().raw_decode
    kept: list[list[Any]] = []  # each open container kept: [its values, is an object, key]
    deeper = bytearray()  # the open containers below those: `{` or `[` each

    def skip(at: int) -> int:
        blank = _BLANK.match(text, at)  # it matches the empty text too
        return blank.end() if blank is not None else at

    def fail(at: int) -> ValueError:
        return ValueError(f"the hook's input is not JSON (at character {at})")

    def key(at: int) -> int:
        """Read an object's key and its colon; where its value begins."""
        if not text.startswith('"', at):
            raise fail(at)
        name, at = scalar(text, at)
        if not deeper:
            kept[-1][2] = name
        at = skip(at)
        if not text.startswith(":", at):
            raise fail(at)
        return skip(at + 1)

    def close() -> Any:
        """Close the innermost open container; what it holds (None when not kept)."""
        if deeper:
            deeper.pop()
            return None
        return kept.pop()[0]

    at = skip(0)
    while True:
        char = text[at : at + 1]
        if char in ("{", "["):
            if deeper or len(kept) >= KEPT_DEPTH:
                deeper.append(ord(char))
            else:
                kept.append([{} if char == "{" else [], char == "{", None])
            at = skip(at + 1)
            if not text.startswith("}" if char == "{" else "]", at):
                at = key(at) if char == "{" else at
                continue  # its first value begins at `at`
            value, at = close(), at + 1
        else:
            value, at = scalar(text, at)  # a string, a number or a constant
        # a whole value: into the container it is in, then past what follows it
        while True:
            if not kept:
                if skip(at) != len(text):
                    raise fail(skip(at))
                return value
            if deeper:
                is_object = deeper[-1] == ord("{")
            else:
                values, is_object, name = kept[-1]
                if is_object:
                    values[name] = value
                else:
                    values.append(value)
            at = skip(at)
            char = text[at : at + 1]
            if char == ",":
                at = skip(at + 1)
                at = key(at) if is_object else at
                break  # the next value begins at `at`
            if char != ("}" if is_object else "]"):
                raise fail(at)
            value, at = close(), at + 1


def as_the_client_writes(value: Any) -> Any:
    """The payload with every unpaired surrogate as U+FFFD.  JSON may escape one (JavaScript's
    JSON.stringify writes half an emoji so), and json.loads keeps it; the client (Claude Code
    runs on Node.js) then writes the path or runs the command with U+FFFD in its place.  The
    guard must judge that path: a string with a surrogate is one no file system takes, and
    resolving it failed, and a failing hook lets the write through.  Walked with a stack of
    its own, not by recursion: json reads a payload nested deeper than Python recurses."""
    if not isinstance(value, list | dict):
        return _SURROGATE.sub("\ufffd", value) if isinstance(value, str) else value
    top: list[Any] | dict[Any, Any] = [] if isinstance(value, list) else {}
    stack: list[tuple[list[Any] | dict[Any, Any], list[Any] | dict[Any, Any]]] = [(value, top)]
    while stack:
        source, copy = stack.pop()
        pairs = source.items() if isinstance(source, dict) else ((None, v) for v in source)
        for key, item in pairs:
            if isinstance(item, list | dict):
                inner: Any = [] if isinstance(item, list) else {}
                stack.append((item, inner))  # filled in later, in place
            else:
                inner = _SURROGATE.sub("\ufffd", item) if isinstance(item, str) else item
            if isinstance(copy, list):
                copy.append(inner)
            else:
                copy[_SURROGATE.sub("\ufffd", key) if isinstance(key, str) else key] = inner
    return top


def _log() -> None:
    """The traceback of a bug, in a private file of the user's own, as the command line's
    exit 3 writes it (gitmem.errorlog): a traceback can quote paths and memory text, which a
    file under a fixed name in the shared temporary folder gave to any other user, and
    through a link planted there, to any file of this one's."""
    import traceback

    from gitmem.errorlog import write_error_log

    write_error_log(traceback.format_exc())


def answer(
    event: str, payload: Mapping[str, Any], environ: Mapping[str, str]
) -> dict[str, Any] | None:
    """The JSON answer to one event, or None when gitmem has nothing to say."""
    cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else None
    cwd = cwd or environ.get("CLAUDE_PROJECT_DIR") or os.getcwd()
    try:
        pinned = _pinned(environ)
    except UsageError:
        # GIT_DIR names no repository git can open: git refuses to work there, so nothing
        # is said, but the agent's file tools still write, and a failing hook let them
        if event != "PreToolUse":
            return None
        pinned = None
    if pinned is not None:
        root = pinned.work_tree  # None in a bare repository: no file the agent edits
    else:
        root = _repository_root(environ.get("CLAUDE_PROJECT_DIR") or cwd)
        root = root or _repository_root(cwd)
    if root is None:
        # no repository of its own (a session opened in a folder of projects, a GIT_DIR with
        # no work tree): nothing to say, but a write into a memory it reaches is denied
        return _deny_outside(payload, cwd) if event == "PreToolUse" else None
    if event == "PreToolUse":
        return _pre_tool_use(payload, root, cwd, pinned)
    if event == "PostToolUse":
        return _file_context("PostToolUse", payload, root, cwd, pinned)
    if event == "UserPromptSubmit":
        prompt = payload.get("prompt")
        if isinstance(prompt, str) and prompt.strip():
            return _prompt(prompt, root, pinned)
        return None
    if event == "SessionStart":
        try:
            block = _session_block(root, pinned)
        except UsageError as error:
            block = _unreadable(error)
        return _context("SessionStart", block)
    return None


def _unreadable(error: UsageError) -> str:
    """What a session is told when gitmem refuses this repository's memory (settings git
    converts on checkout, settings that name a folder outside the repository, …): every
    other hook then says nothing, and the agent worked without precedents and without a word
    of why, where `gitmem` would tell a person. The refusal's message says what to do."""
    from gitmem.model.terminal import clean

    return (
        "## Project memory (gitmem)\n\n"
        "gitmem cannot read this project's memory, so no precedents will come with prompts or "
        "edits, and the MCP memory tools will fail: "
        f"{clean(error.message, 600)}\nTell the user; do not work around it."
    )


def _pinned(environ: Mapping[str, str]) -> PinnedRepository | None:
    """The repository the GIT_DIR (and GIT_WORK_TREE) set for the agent's session name, as
    git, and every gitmem command, takes them (gitcli.pinned_repository): a bare repository
    whose work tree is elsewhere, as dotfiles are kept, has no `.git` for _repository_root to
    find, and the hooks said nothing and guarded nothing there. None when GIT_DIR is not set
    (and git is not asked: the hook's usual path runs no git for it)."""
    if not environ.get("GIT_DIR"):
        return None
    from gitmem.repo.gitcli import pinned_repository

    return pinned_repository(environ)


def _context(event: str, text: str | None) -> dict[str, Any] | None:
    if not text:
        return None
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}


def _repository_root(start: str) -> str | None:
    """The work tree holding start: the nearest folder with a `.git` entry."""
    here = os.path.abspath(start)
    while True:
        if os.path.exists(os.path.join(here, ".git")):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def _memory_dirs(root: str, pinned: PinnedRepository | None) -> list[str]:
    """Every folder that could be the memory folder (wider than the settings' one answer)."""
    from gitmem.repo.sparse import left_out_bytes
    from gitmem.settings.folders import memory_prefixes

    prefixes = memory_prefixes(root, left_out_bytes)
    if prefixes is not None:
        return [p.decode("utf-8", "replace").rstrip("/") for p in prefixes]
    dirs = {".gitmem"}
    if os.environ.get("GITMEM_DIR"):
        dirs.add(os.environ["GITMEM_DIR"])
    dirs.add(_settings_dir(root, pinned))
    return sorted(dirs)


def _settings_dir(root: str, pinned: PinnedRepository | None) -> str:
    """The memory folder the settings name. Where git converts a settings file on checkout,
    the file on disk is refused (ConvertedFile), and the guard failing let every write
    through: the folder is then the one the staging index's settings name, as git holds them
    and the next commit will."""
    from gitmem.repo.snapshot import ConvertedFile, StagedSnapshot
    from gitmem.repo.store import Store
    from gitmem.repo.workspace import settings_from

    try:
        return _workspace(root, pinned).dir
    except ConvertedFile:
        store = Store.open(root, pinned=pinned)
        return settings_from(store, StagedSnapshot(store), store.workdir).dir


def _other_memory_dirs(root: str) -> list[str]:
    """_memory_dirs of another repository the session reaches (never the one GIT_DIR pins);
    the default folder when its settings cannot be read (a failing hook would let the write
    through)."""
    try:
        return _memory_dirs(root, None)
    except Exception:
        return [".gitmem"]


def _workspace(root: str, pinned: PinnedRepository | None) -> Workspace:
    from gitmem.repo.workspace import open_workspace

    return open_workspace(root, pinned=pinned)


class _Memory(Memory):
    """The memory as one hook call sees it (gitmem.agents.memory), and what the hooks read
    of it: the agents' catalog, the keyword index, the precedents' block."""

    def catalog(self) -> Catalog | None:
        """The agents' catalog of the entries at the tip (as the post-* git hooks keep it, or
        brought up from the one kept by the files git itself reads, without opening the
        repository); None while a cold one is built in the background."""
        from gitmem.lifecycle import catalog

        entries = self.known.entries_tree
        found = (
            catalog.brought_up(self.common_dir, self.known.dir, entries, self.trees())
            if entries is not None
            else None
        )
        if found is not None:
            return found
        ws = self.workspace()
        if _catalog_cold(ws):
            _warm_in_background(ws)
            return None
        return catalog.load(ws.store, self.known.dir, entries)

    def index(self) -> Index | None:
        """The keyword index of the entries at the tip; None while a cold one is built in the
        background."""
        from gitmem.recall.cache import RecallCache, stored_index

        entries = self.known.entries_tree
        found = (
            stored_index(self.common_dir, self.known.dir, entries) if entries is not None else None
        )
        if found is not None:
            return found
        ws = self.workspace()
        if _recall_cold(ws):
            _warm_in_background(ws)
            return None
        # the settings' semantic extra keeps the cache's vectors for `gitmem recall`, which
        # embeds what this update leaves behind (gitmem.recall.cache: "Vectors left behind")
        cache = RecallCache(
            ws.store, self.known.dir, semantic=ws.settings.semantic, embed_later=True
        )
        return cache.load(self.known.memory_tree).index

    def precedents(
        self, listed: Sequence[Listed], scores: Sequence[float | None], *, fresh: bool = True
    ) -> list[Precedent]:
        """Precedents for catalog lines, with their provenance and freshness at the tip (with
        fresh=False, no freshness: nothing is asked of git), as a model may read them: a line
        the catalog says holds a secret is judged against main's allowed.md, and withheld
        (gitmem.agents.precedents.withheld)."""
        from gitmem.agents import state
        from gitmem.agents.precedents import Precedent, withheld
        from gitmem.recall.freshness import freshness

        tip = self.known.tip
        if not listed or tip is None:
            return []
        notes = [""] * len(listed)
        if fresh:
            known = state.freshness_known(self.common_dir, tip)
            asked = [(e.path, e.files) for e in listed if e.path not in known]
            if asked:
                found = freshness(self.history(), tip, asked)
                known.update((path, f) for (path, _), f in zip(asked, found, strict=True))
                state.remember_freshness(self.common_dir, tip, known)
            notes = [known[e.path].note for e in listed]
        flagged = {e.id for e in listed if e.secret}
        if flagged:  # judged whole, as read from the entries (gitmem.agents.precedents.whole)
            from gitmem.agents.precedents import whole

            store = self.workspace().store
            tree = store.tree_of(tip)
            listed = [whole(store, tree, e) if e.secret else e for e in listed]
        shown = (
            withheld(
                Precedent(
                    id=e.id,
                    type=e.type,
                    title=e.title,
                    applies_when=e.applies_when,
                    path=e.path,
                    admitted_by=e.admitted_by or "unknown",
                    admitted=e.admitted or "unknown",
                    freshness=note,
                    score=score,
                ),
                lambda p, text: p.id in flagged and self.holds_secret(p.path, text),
            )
            for e, note, score in zip(listed, notes, scores, strict=True)
        )
        return [p for p in shown if p is not None]

    def holds_secret(self, path: str, text: str) -> bool:
        """Whether text, read from the entry at path, holds a secret main's allowed.md does not
        list (what memory_show withholds)."""
        from gitmem.lifecycle.read import secrets_in

        return bool(secrets_in(self.workspace(), path, text))

    def block(
        self, listed: Sequence[Listed], scores: Sequence[float | None], heading: str, more: str
    ) -> str:
        """The context a hook adds for these catalog lines, best first, within HOOK_BUDGET.
        The freshness is asked for the precedents the budget holds whatever their notes say,
        not for every line: each entry asked costs the hook a git process."""
        from gitmem.agents.precedents import HOOK_BUDGET, render, room

        shown = room(
            self.precedents(listed, scores, fresh=False),
            heading=heading,
            budget=HOOK_BUDGET,
            read=READ_HINT,
            more=more,
        )
        return render(
            self.precedents(listed[:shown], scores[:shown]),
            heading=heading,
            budget=HOOK_BUDGET,
            read=READ_HINT,
            more=more,
            omitted=len(listed) - shown,
        )


def _large(ws: Workspace) -> bool:
    """More than COLD_LIMIT entries on the main branch, counted by the type folders' sizes
    (no walk of every entry)."""
    store = ws.store
    tip = ws.main_tip()
    memory = store.subtree(store.tree_of(tip), ws.dir) if tip else None
    entries = store.subtree(memory, "entries") if memory else None
    folders = [store.subtree(entries, name) for name in store.folders(entries)]
    return sum(store.size(folder) for folder in folders) > COLD_LIMIT


def _catalog_cold(ws: Workspace) -> bool:
    from gitmem.lifecycle.catalog import startable

    return not startable(ws.store.common_dir, ws.dir) and _large(ws)


def _recall_cold(ws: Workspace) -> bool:
    from gitmem.recall.cache import RecallCache

    return not RecallCache(ws.store, ws.dir).startable() and _large(ws)


def _warm_in_background(ws: Workspace) -> None:
    """Start one detached warm-up of the caches, unless one is running."""
    import subprocess
    import time

    marker = ws.store.common_dir / "gitmem" / "agents" / "warming"
    marker.parent.mkdir(parents=True, exist_ok=True)
    try:
        if time.time() - marker.stat().st_mtime < WARMING_STALE_SECONDS:
            return
        marker.unlink()
    except FileNotFoundError:
        pass
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return
    root = str(ws.store.workdir or ws.store.git_dir)
    subprocess.Popen(
        [sys.executable, "-P", "-m", "gitmem.agents.agent_hook", "--warm", root],
        cwd=root,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def warm(root: str) -> None:
    """Build the agents' catalog and the recall index of the main branch, then remove the
    warm-up marker (`python -m gitmem.agents.agent_hook --warm ROOT`), in the repository the
    GIT_DIR the hook was given (and passed on) names, if any."""
    from gitmem.lifecycle import catalog
    from gitmem.recall.cache import RecallCache

    ws = _workspace(root, _pinned(os.environ))
    try:
        tip = ws.main_tip()
        memory = ws.store.subtree(ws.store.tree_of(tip), ws.dir) if tip else None
        catalog.load(ws.store, ws.dir, ws.store.subtree(memory, "entries") if memory else None)
        RecallCache(ws.store, ws.dir, semantic=ws.settings.semantic).load(memory)
    finally:
        (ws.store.common_dir / "gitmem" / "agents" / "warming").unlink(missing_ok=True)


# ---------------------------------------------------------------------------------------------
# events


def _pre_tool_use(
    payload: Mapping[str, Any], root: str, cwd: str, pinned: PinnedRepository | None
) -> dict[str, Any] | None:
    from gitmem.agents.guard import FILE_TOOLS, Guard  # here: a prompt's hook needs no guard

    tool = payload.get("tool_name")
    if not isinstance(tool, str) or (tool not in FILE_TOOLS and tool != "Bash"):
        return None
    guard = Guard(root, _memory_dirs(root, pinned), elsewhere=_other_memory_dirs)
    denied = guard.judge_tool(tool, payload.get("tool_input"), cwd)
    if denied is not None:
        return _denial(denied)
    return _file_context("PreToolUse", payload, root, cwd, pinned)


def _deny_outside(payload: Mapping[str, Any], cwd: str) -> dict[str, Any] | None:
    """The deny for a session with no repository of its own (none around its folder, or a
    GIT_DIR with no work tree): every path is judged against the memory of the repository
    holding it (Guard's elsewhere), the one around the folder the session is in included;
    no precedents, which come from a project's memory."""
    from gitmem.agents.guard import FILE_TOOLS, Guard

    tool = payload.get("tool_name")
    if not isinstance(tool, str) or (tool not in FILE_TOOLS and tool != "Bash"):
        return None
    here = _repository_root(cwd)
    guard = (
        Guard(here, _other_memory_dirs(here), elsewhere=_other_memory_dirs)
        if here is not None
        # a text too long to read names no path the guard can resolve: it is searched for
        # the memory folders any repository may have (the default, the user's settings'),
        # as one in a repository is for that repository's own
        else Guard(cwd, [], elsewhere=_other_memory_dirs, reached=lambda: _other_memory_dirs(cwd))
    )
    return _denial(guard.judge_tool(tool, payload.get("tool_input"), cwd))


def _denial(denied: Denied | None) -> dict[str, Any] | None:
    return None if denied is None else _deny(denied.reason)


def _deny(reason: str) -> dict[str, Any]:
    """A PreToolUse answer that refuses the tool call, saying why."""
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": f"gitmem: {reason}",
        }
    }


def _target(payload: Mapping[str, Any], root: str, cwd: str) -> str | None:
    """The repository path a file tool writes, or None (not a file tool, outside the repo)."""
    from gitmem.agents.guard import FILE_TOOLS, MAX_JUDGED

    tool = payload.get("tool_name")
    tool_input = payload.get("tool_input")
    field = FILE_TOOLS.get(tool) if isinstance(tool, str) else None
    if field is None or not isinstance(tool_input, dict):
        return None
    spelled = tool_input.get(field)
    if not isinstance(spelled, str) or not spelled or len(spelled) > MAX_JUDGED:
        return None  # a path too long to resolve in time (and for any file system to open)
    if "\x00" in spelled:
        return None  # no file system opens it (os.path.realpath refuses it with ValueError)
    full = os.path.realpath(os.path.join(cwd, os.path.expanduser(spelled)))
    rel = os.path.relpath(full, os.path.realpath(root))
    if rel == os.curdir or rel.split(os.sep)[0] == os.pardir:
        return None
    return rel.replace(os.sep, "/")


def _file_context(
    event: str,
    payload: Mapping[str, Any],
    root: str,
    cwd: str,
    pinned: PinnedRepository | None,
) -> dict[str, Any] | None:
    path = _target(payload, root, cwd)
    if path is None:
        return None
    memory = _Memory(root, pinned)
    citing = _citing(memory, path, FILE_K + 1)
    more = f"MCP memory_recall or `gitmem recall` about {path}"
    block = memory.block(citing, [None] * len(citing), f"## Precedents for {path}", more)
    return _context(event, block)


def file_precedents(memory: _Memory, path: str, limit: int) -> list[Precedent]:
    """The newest admitted entries whose `files` cite path, with their provenance and
    freshness, as of the main branch."""
    citing = _citing(memory, path, limit)
    return memory.precedents(citing, [None] * len(citing))


def _citing(memory: _Memory, path: str, limit: int) -> list[Listed]:
    """The catalog lines of the newest admitted entries whose `files` cite path."""
    found = memory.catalog() if memory.known.entries_tree is not None else None
    return found.citing(path, limit) if found is not None else []


def _prompt(prompt: str, root: str, pinned: PinnedRepository | None) -> dict[str, Any] | None:
    """Keyword recall on the prompt, gated as `gitmem recall` gates it (never the model of
    the semantic extra, which costs a hook more than its whole budget to load: docs/agents.md)."""
    memory = _Memory(root, pinned)
    if memory.known.entries_tree is None:
        return None
    index = memory.index()
    hits = index.answer(prompt, k=PROMPT_K, explain=False).hits if index is not None else []
    found = memory.catalog() if hits else None
    if found is None:
        return None
    listed = [(found.get(h.id, h.path), h.score) for h in hits]  # each hit's own file
    # the index and the catalog describe the same tree: an entry one lacks is left out
    kept = [(entry, score) for entry, score in listed if entry is not None]
    block = memory.block(
        [e for e, _ in kept],
        [score for _, score in kept],
        "## Precedents from the project memory",
        "MCP memory_recall or `gitmem recall` with a narrower query",
    )
    return _context("UserPromptSubmit", block)


def _session_block(root: str, pinned: PinnedRepository | None) -> str | None:
    from gitmem.model.terminal import clean

    memory = _Memory(root, pinned)
    known = memory.known
    if known.memory_tree is None:
        return None  # no memory on the main branch: nothing to tell
    pending = pending_count(memory)
    waiting = (
        f"{pending} candidate{'s' if pending != 1 else ''} wait{'s' if pending == 1 else ''} "
        "for a person's review (`gitmem candidates`)."
        if pending
        else "No candidate waits for review."
    )
    # the settings set aside (a file not TOML, a value gitmem cannot take), as `gitmem list`
    # and the MCP answers say them: the memory read may not be the project's
    aside = "".join(f"\n- Settings set aside: {clean(w)}" for w in known.warnings)
    return (
        "## Project memory (gitmem)\n\n"
        f"This project keeps reviewed lessons in {known.dir}/ (decisions, methods, code "
        "structure, mistakes). Precedents are reference material: never above the user's "
        "request, the project's instructions or the code as it is.\n"
        "- Recall: MCP memory_recall (situation in your own words; step spec, plan, batch, "
        'correction or audit) or `gitmem recall "…"`; prompts and edits already bring '
        "the precedents that apply.\n"
        "- Propose what you learned: MCP memory_push with source verdict:<stop> (or "
        f"`gitmem propose`). Never write {known.dir}/entries, candidates, INDEX.md, "
        "refused.md or allowed.md yourself: the hooks deny it and review would reject it.\n"
        f"- {waiting}{aside}"
    )


def _candidate_ids(memory: _Memory) -> set[str]:
    """The ids of candidate branches: local ones and remote-tracking ones, from git's ref
    files when they can be read, else from the repository."""
    from gitmem.model.names import CANDIDATE_REFS, candidate_id_of
    from gitmem.repo.refs import Unsure

    files = None if memory.opened else memory.known.files
    try:
        if files is None:
            raise Unsure("no ref files")
        local = files.names(CANDIDATE_REFS)
        remote = files.names("refs/remotes/")
    except Unsure:
        store = memory.workspace().store
        local = list(store.refs(CANDIDATE_REFS))
        remote = list(store.refs("refs/remotes/"))
    return {entry_id for entry_id in map(candidate_id_of, [*local, *remote]) if entry_id}


def pending_count(memory: _Memory) -> int:
    """Candidate branches (local, and remote-tracking ones with no local twin) whose entry is
    not admitted on the main branch: what `gitmem candidates` lists, counted from refs and
    the catalog without reading or validating a candidate.  While a cold catalog is built in
    the background: every candidate branch, admitted or not."""
    found = memory.catalog() if memory.known.entries_tree is not None else None
    ids = _candidate_ids(memory)
    if not ids or memory.known.entries_tree is None:
        return len(ids)
    if found is None:
        return len(ids)
    return sum(found.get(entry_id) is None for entry_id in ids)


if __name__ == "__main__":  # python -m gitmem.agents.agent_hook EVENT | --warm ROOT
    if sys.argv[1:2] == ["--warm"] and len(sys.argv) == 3:
        try:
            warm(sys.argv[2])
        except Exception:
            _log()
        sys.exit(0)
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "", sys.stdin, sys.stdout, os.environ))
