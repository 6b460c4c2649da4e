"""`gitmem agent-hook EVENT` and `gitmem export`: the commands that wire the memory into
coding agents (loaded only when called).  The `--claude` and `--agents` options of `gitmem
init` call gitmem.agents.install the same way."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from gitmem.agents.agent_hook import EVENTS
from gitmem.agents.export import DEFAULT_BYTES, DEFAULT_LINES, TARGETS
from gitmem.cli.options import command_workspace, emit_warnings
from gitmem.errors import UsageError
from gitmem.model.problem import LEFT_OUT
from gitmem.model.terminal import visible
from gitmem.repo.atomic import atomic_write, refuse_links, remove_temporaries_of

#: A temporary file of the exported file this many seconds old belongs to no live export (no
#: lock is held: a write takes milliseconds); a killed one's is deleted (_write_output).
TEMPORARY_AGE = 60.0


@click.command("agent-hook", context_settings={"ignore_unknown_options": True})
@click.argument("words", nargs=-1, metavar="EVENT")
def agent_hook(words: tuple[str, ...]) -> int:
    """Answer one Claude Code hook: the event's JSON on stdin, the answer's on stdout.

    EVENT is SessionStart, UserPromptSubmit, PreToolUse or PostToolUse; `gitmem init --claude`
    registers them. It never fails the agent's action: on any error it prints nothing and
    exits 0; it refuses only a write into the memory, and a `gitmem admit` or `gitmem refuse`
    (a person's decision)."""
    if len(words) != 1:
        # Claude Code takes exit 2 from a hook for a blocking error (the tool call refused,
        # the prompt erased), so a miswritten hook command must not be a usage error: it
        # answers nothing, exits 0, and says on stderr (shown in Claude Code's debug log and
        # to a person trying it by hand) what to fix.
        given = _cut(" ".join(words)) if words else "nothing"
        click.echo(
            f"gitmem agent-hook: expected one event ({', '.join(EVENTS)}), got {given}; "
            "nothing answered. Fix the hook's command (`gitmem init --claude` writes it).",
            err=True,
        )
        return 0
    from gitmem.agents.agent_hook import main as run

    return run(words[0], sys.stdin, sys.stdout, os.environ)


def _cut(text: str, limit: int = 200) -> str:
    """text, or its start when it is longer than a note on stderr should quote."""
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}…"


@click.command()
@click.argument("target", type=click.Choice(sorted(TARGETS)))
@click.option(
    "-o",
    "--output",
    metavar="FILE",
    help="Where to write it: a path relative to the repository root, or an absolute path "
    "(anywhere, as git archive -o takes one); - for stdout "
    f"(default: {TARGETS['claude']} for claude, {TARGETS['agents']} for agents).",
)
@click.option(
    "--budget-lines",
    type=click.IntRange(1),
    default=DEFAULT_LINES,
    show_default=True,
    help="At most this many lines, the whole file included.",
)
@click.option(
    "--budget-bytes",
    type=click.IntRange(1),
    default=DEFAULT_BYTES,
    show_default=True,
    help="At most this many bytes (UTF-8), the whole file included.",
)
def export(target: str, output: str | None, budget_lines: int, budget_bytes: int) -> int:
    """Write a MEMORY.md-style index of the admitted memory for tools that load a file.

    One line per admitted entry (title, one-line hook, link); superseded entries never appear;
    corrections and mistakes first; within the budget, the newest entries are kept and the
    file says what was left out."""
    from gitmem.agents.export import export as do_export

    if output is not None and not output.strip():
        # `-o "$OUT"` with the variable unset: taken for no -o, the export overwrote the
        # default file (.claude/gitmem-memory.md, MEMORY.md) in the working tree
        raise UsageError(
            f"-o needs a file (or - for the standard output), and was given {output!r}"
        )
    ws = command_workspace()
    emit_warnings(ws.settings.warnings)  # the folder exported may be the default's, not theirs
    done = do_export(ws, target, output=output, max_lines=budget_lines, max_bytes=budget_bytes)
    for unread in done.unreadable:  # on stderr, as `gitmem list` says it
        click.echo(visible(f"gitmem: {unread}: not a readable entry, {LEFT_OUT}"), err=True)
    if output == "-":
        click.echo(done.text, nl=False)
        return 0
    root = ws.store.workdir
    if root is None:
        raise click.UsageError("export needs a working tree (this repository is bare)")
    given = output or TARGETS[target]
    path = Path(root) / given  # an absolute path stays as it is
    managed = [ws.store.git_dir, ws.store.common_dir, Path(root) / ws.dir]
    _write_output(path, given, done.text, Path(root), managed)
    left = f", {done.left_out} left out to fit the budget" if done.left_out else ""
    click.echo(visible(f"wrote {given}: {done.listed} of {done.total} entries{left}"))
    return 0


def _refuse_managed(path: Path, given: str, managed: list[Path]) -> None:
    """Refuse a path in the repository's git folders or in the memory folder (managed: the
    git folders, then the memory folder), as `gitmem site` refuses an --out there: `-o
    .git/config` replaced the repository's configuration with the export (every git command
    then failed: "bad config line"), and `-o .gitmem/INDEX.md` a file gitmem generates and
    checks. The caller has refused a link on the way, so the resolved path is where the
    file would be written."""
    where = path.resolve()
    *git_dirs, memory = (folder.resolve() for folder in managed)
    for folder in git_dirs:
        if where == folder or folder in where.parents:
            raise UsageError(
                f"-o {given}: the path is in the repository's git folder, which the export "
                "would overwrite; choose a path in the working tree, e.g. MEMORY.md"
            )
    if where == memory or memory in where.parents:
        raise UsageError(
            f"-o {given}: the path is in the memory folder, whose files gitmem writes and "
            "checks; choose a path outside it, e.g. MEMORY.md"
        )


#: What the first line of every export says (gitmem.agents.export's header), and so what
#: tells a file an export wrote from one it would destroy.
_EXPORT_MARK = b"(generated by `gitmem export "


def _refuse_foreign(path: Path, given: str) -> None:
    """Refuse to replace a file no export wrote: the default MEMORY.md at the root may be a
    project's own, and `-o README.md` a slip of the hand; both were replaced without a word,
    uncommitted edits with them. An empty file, or one whose first line is an export's
    header (of either target), is replaced."""
    try:
        with path.open("rb") as handle:
            first = handle.readline(4096)
    except FileNotFoundError:
        return
    except OSError:
        return  # the write that follows names what the system refuses
    if first and _EXPORT_MARK not in first:
        raise UsageError(
            f"-o {given}: the file is not one an export wrote (its first line does not say "
            "so): choose another path, or move the file away first"
        )


def _write_output(path: Path, given: str, text: str, root: Path, managed: list[Path]) -> None:
    """Write the exported file; a path the system will not write (a folder, a read-only
    place, a parent that is a file) or that is no regular file (a device, a pipe) is the
    user's to fix, said with the system's reason and the path as they gave it, never an
    unexpected error.

    A symbolic link at the path, or a folder on the way that leads out of the repository, is
    refused, not written through: the default paths lie in the working tree, where a cloned
    repository can commit `.claude/gitmem-memory.md`, or `.claude` itself, as a link to a file
    or folder of the user's, which a plain write would have changed. The file is replaced
    whole (atomic_write), so an interrupted export leaves the previous file as it was, and
    the temporary a killed one left goes with a later export once a minute old."""
    if path.is_dir() and not path.is_symlink():
        raise UsageError(f"-o {given}: is a folder: give the path of a file to write")
    if path.exists() and not path.is_symlink() and not path.is_file():
        # the rename that replaces the file whole would put a regular file in its place
        raise UsageError(
            f"-o {given}: not a regular file (a device, a pipe): give the path of a file to "
            "write, or -o - for the standard output"
        )
    refuse_links(path, f"-o {given}", root)
    _refuse_managed(path, given, managed)
    _refuse_foreign(path, given)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, text.encode("utf-8"))
        # an export killed between writing the temporary and renaming it left it beside the
        # file, untracked in the working tree
        remove_temporaries_of([path], TEMPORARY_AGE)
    except OSError as exc:
        blocker = _file_on_the_way(root, given)
        if blocker is not None:
            # the system says "File exists" (or "Not a directory") of the folder it could not
            # make, which named no file the user could find
            raise UsageError(
                f"-o {given}: cannot write it: {blocker} is a file, not a folder: move it "
                "away, or choose another path"
            ) from None
        raise UsageError(
            f"-o {given}: cannot write it: {exc.strerror or exc}: choose a path you can write to"
        ) from None


def _file_on_the_way(root: Path, given: str) -> str | None:
    """The first folder of the output's path, as given, that is something else (a file)."""
    for parent in reversed(Path(given).parents):
        if parent != Path(".") and os.path.lexists(root / parent) and not (root / parent).is_dir():
            return parent.as_posix()
    return None
