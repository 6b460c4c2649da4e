"""The command line's group: which module holds each command, and the one place where an
exception becomes an exit code.

Exit codes: 0 ok, 1 a rule failed, 2 usage (a path or a disk the system refuses included:
a name too long, no permission, no space left), 3 unexpected (the traceback goes to a log
file whose path is printed; never to the terminal for an expected failure), 130 interrupted.

Commands return their exit code as a value and never end the process; `exit_code` below maps
what they raise, and only the entry point (gitmem.launcher, or click's standalone main that
CliRunner drives) ends the process with it.  Each command lives in the module of its family
(check, setup, propose, review, read, index, recall, curate, github) and is imported only when it
runs, so a hook's process loads only what its command needs.
"""

from __future__ import annotations

import contextlib
import difflib
import importlib
import io
import os
import sys
import traceback
from collections.abc import Callable, Iterable
from typing import Any

import click

from gitmem import DISTRIBUTION
from gitmem.errorlog import write_error_log
from gitmem.errors import (
    CWD_GONE,
    INTERRUPTED,
    NO_GIT,
    SYSTEM_ADVICE,
    UNEXPECTED,
    USAGE,
    GitmemError,
)
from gitmem.model.terminal import visible

#: Every command, and where it lives: imported only when called (hooks start fast).
COMMANDS: dict[str, str] = {
    "check": "gitmem.cli.check:check",
    "hook": "gitmem.cli.check:hook",
    "init": "gitmem.cli.setup:init",
    "hooks": "gitmem.cli.setup:hooks",
    "propose": "gitmem.cli.propose:propose",
    "candidates": "gitmem.cli.review:candidates",
    "admit": "gitmem.cli.review:admit",
    "refuse": "gitmem.cli.review:refuse",
    "list": "gitmem.cli.read:list_",
    "show": "gitmem.cli.read:show",
    "index": "gitmem.cli.index:index",
    "recall": "gitmem.cli.recall:recall",
    "mcp": "gitmem.cli.recall:mcp",
    "agent-hook": "gitmem.cli.agents:agent_hook",
    "export": "gitmem.cli.agents:export",
    "import": "gitmem.cli.curate:import_",
    "lint": "gitmem.cli.curate:lint",
    "hygiene": "gitmem.cli.curate:hygiene",
    "harvest": "gitmem.cli.curate:harvest",
    "github": "gitmem.cli.github:github",
    "site": "gitmem.cli.site:site",
    "review": "gitmem.cli.site:review",
    "help": "gitmem.cli.help:help_",
}


def exit_code(call: Callable[[], Any]) -> int:
    """Run a command line and return its exit code: the command's own, or the one what it
    raised maps to.  The only place in gitmem where an exception becomes an exit code."""
    try:
        result = call()
    except GitmemError as exc:
        # a message may quote a candidate's text (admit lists the rules it breaks): what a
        # terminal would act on (an escape that clears the screen, a lone carriage return)
        # is written as its escape
        message = f"gitmem: {exc.message}"
        if exc.exit_code == UNEXPECTED:
            # an account of what a failure left (an install stopped by an I/O error) is still
            # an unexpected one: its traceback goes to the log, as any other's
            path = write_error_log(traceback.format_exc())
            message += f" (the traceback is in {path})" if path else ""
        click.echo(visible(message), err=True)
        return exc.exit_code
    except click.exceptions.Exit as exc:  # --help, --version
        return exc.exit_code
    except click.ClickException as exc:  # a usage error click found: exit 2, with its hint
        exc.show()
        return exc.exit_code
    except (click.Abort, EOFError):  # a prompt that got no answer
        click.echo("Aborted!", err=True)
        return 1
    except KeyboardInterrupt:
        click.echo("gitmem: interrupted", err=True)
        return INTERRUPTED
    except BrokenPipeError:  # the reader went away (`gitmem list | head`): nothing is wrong
        _discard_stdout()
        return 0
    except OSError as exc:
        refusal = _system_refusal(exc)
        if refusal is None:
            return _unexpected(exc)
        click.echo(visible(f"gitmem: {refusal}"), err=True)
        return USAGE
    except Exception as exc:
        if _interrupted(exc, by_message=False):
            # a Ctrl-C that Python raised again as another error: one arriving while a class
            # is made (a dataclass's fields, as a lazy import runs) is "RuntimeError: Error
            # calling __set_name__", caused by the KeyboardInterrupt
            click.echo("gitmem: interrupted", err=True)
            return INTERRUPTED
        return _unexpected(exc)
    except BaseException as exc:
        if not _is_panic(exc):
            raise  # SystemExit, GeneratorExit: not ours to map
        if _interrupted(exc):
            click.echo("gitmem: interrupted", err=True)
            return INTERRUPTED
        return _unexpected(exc)
    return result if isinstance(result, int) else 0


_PATH_ENDS = 40


def _system_refusal(exc: OSError) -> str | None:
    """What to print for an OSError the system raised for a reason of its user's (the path
    it names, the system's reason, what to do), or None for one that is gitmem's to fix.
    Every place that starts git (there are a dozen) would raise the same FileNotFoundError
    on a system without it, so the one answer is given here; so is a current folder deleted
    under the shell (a `git worktree remove`, an `rm -r` in another terminal), which every
    command that looks for its repository met as an unexpected FileNotFoundError from
    os.getcwd(), where git says "Unable to read current working directory"."""
    if isinstance(exc, FileNotFoundError) and exc.filename == "git":
        return NO_GIT
    if isinstance(exc, FileNotFoundError) and not _cwd_exists():
        return CWD_GONE
    advice = SYSTEM_ADVICE.get(exc.errno) if exc.errno is not None else None
    if advice is None:
        return None
    reason = exc.strerror or os.strerror(exc.errno or 0)
    if isinstance(exc.filename, str | bytes):
        return f"{_quoted_path(os.fsdecode(exc.filename))}: {reason}: {advice}"
    if _raised_by_echo(exc):  # `gitmem list > /dev/full`
        return f"cannot write the output: {reason}: {advice}"
    return f"{reason}: {advice}"


def _cwd_exists() -> bool:
    """Whether the current folder still exists (os.getcwd() fails once it was removed)."""
    try:
        os.getcwd()
    except FileNotFoundError:
        return False
    return True


def _quoted_path(path: str) -> str:
    """A path as a message quotes it: whole when short, else its start and its end (where the
    name it is about is) and its length, so a message about a huge path stays a line."""
    if len(path) <= 2 * _PATH_ENDS:
        return repr(path)
    return f"{path[:_PATH_ENDS] + '…' + path[-_PATH_ENDS:]!r} ({len(path):,} characters)"


def _raised_by_echo(exc: BaseException) -> bool:
    """Whether exc came out of click.echo: a write to the standard output or error, which
    names no file."""
    echo = click.echo.__code__
    frame = exc.__traceback__
    while frame is not None:
        if frame.tb_frame.f_code is echo:
            return True
        frame = frame.tb_next
    return False


def _unexpected(exc: BaseException) -> int:
    path = write_error_log(traceback.format_exc())
    where = f"; the traceback is in {path}. Please report it with that file" if path else ""
    click.echo(f"gitmem: unexpected error ({exc!r}){where}.", err=True)
    return UNEXPECTED


def _is_panic(exc: BaseException) -> bool:
    """Whether exc is a Rust extension's panic (pyo3's PanicException, a BaseException so that
    `except Exception` lets it through). Told by its type's name and module, since
    `pyo3_runtime` is a module each extension makes at run time, not one to import."""
    kind = type(exc)
    return kind.__name__ == "PanicException" and kind.__module__ == "pyo3_runtime"


def _interrupted(exc: BaseException, *, by_message: bool = True) -> bool:
    """Whether an error was a Ctrl-C: a KeyboardInterrupt raised inside a Rust extension (the
    schema library importing `decimal` as the signal arrives) comes back as a panic whose
    cause, context or message names it; one raised inside a descriptor's __set_name__ as a
    RuntimeError caused by it. by_message=False looks at the types alone (an ordinary error's
    message may quote anything)."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, KeyboardInterrupt) or (by_message and "KeyboardInterrupt" in str(seen)):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _discard_stdout() -> None:
    """After a broken pipe, send what is still buffered for stdout nowhere, so the
    interpreter's final flush does not fail again (the recipe of Python's signal docs)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


class GitmemGroup(click.Group):
    """gitmem's group: lazy sub-commands, and exit codes returned, never raised."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, attr = target.split(":")
        loaded = getattr(importlib.import_module(module_name), attr)
        return loaded if isinstance(loaded, click.Command) else None

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """click's resolution, with git's courtesy for a mistyped command: the commands
        spelled closest to it (`gitmem recal` names `recall`)."""
        name = click.utils.make_str(args[0]) if args else ""
        if args and name not in COMMANDS and not ctx.resilient_parsing:
            similar = most_similar(name, COMMANDS)
            if similar:
                ctx.fail(f"No such command {name!r}.{similar}")
        return super().resolve_command(ctx, args)

    def main(  # type: ignore[override]
        self,
        args: list[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> int:
        """Parse and run one command line and return its exit code (exit_code maps what it
        raises).  In click's standalone mode, its contract for an entry point that CliRunner
        relies on, the code then ends the process; gitmem's own entry point asks for the
        code instead (run)."""
        argv = sys.argv[1:] if args is None else list(args)
        name = prog_name or "gitmem"
        self._main_shell_completion(extra, name, complete_var)  # click's tab completion

        def parse_and_invoke() -> Any:
            with self.make_context(name, argv, **extra) as ctx:
                return self.invoke(ctx)

        code = exit_code(parse_and_invoke)
        if standalone_mode:
            raise SystemExit(code)
        return code


def most_similar(name: str, commands: Iterable[str]) -> str:
    """What to add to "No such command" for a mistyped command name: the closest names
    (up to three, by difflib's ratio from 0.6), or "" when none is close."""
    close = difflib.get_close_matches(name, sorted(commands), n=3, cutoff=0.6)
    if not close:
        return ""
    are = "command is" if len(close) == 1 else "commands are"
    return f" The most similar {are} {', '.join(repr(c) for c in close)}."


@click.group(cls=GitmemGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name=DISTRIBUTION)
def main() -> None:
    """gitmem: a project's shared memory, kept as reviewed Markdown entries in git."""


def run(args: list[str] | None = None) -> int:
    """The command line (sys.argv by default) run to its exit code, for the entry point."""
    _escape_undecodable_output()
    group: Any = main
    code: int = group.main(args, standalone_mode=False)
    return code


def _escape_undecodable_output() -> None:
    """Write what cannot be encoded on the standard output as its escape (`\\udcff`), as
    Python already writes it on the standard error. An argument that is not UTF-8 (a file
    name in another encoding) reaches Python as lone surrogates (PEP 383); echoed on a
    standard output in a UTF-8 locale (Python encodes it strictly there, in all but the
    C and POSIX locales) it failed the command after its work was done: `gitmem check
    $'\\xff.md'`, `export -o`, `site --out` ended in an unexpected UnicodeEncodeError, exit 3.
    Escaped, every locale prints the same text, and JSON output stays valid (`\\udcff` is a
    JSON escape)."""
    stream = sys.stdout
    if isinstance(stream, io.TextIOWrapper):
        stream.reconfigure(errors="backslashreplace")
