"""What the command modules share: the repository a command works on, the `--format` option,
warnings, and whether a person is at the terminal."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from gitmem.repo.workspace import Workspace

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")

_FORMAT_HELP = {
    "text": "text lines for people",
    "json": "JSON for tools",
    "github": "GitHub workflow annotations",
    "sarif": "SARIF 2.1.0 for code scanning",
    "precedents": "a ## Precedents block to paste into a prompt",
    "markdown": "Markdown for a pull request's job summary",
}


def format_option(*choices: str) -> Callable[[F], F]:
    """`--format` with these choices (text first, the default), passed as `fmt`."""
    described = "; ".join(_FORMAT_HELP[c] for c in choices)
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(list(choices)),
        default=choices[0],
        show_default=True,
        help=f"Output: {described}.",
    )


#: The output of the commands that report rule problems, and of those that list things.
REPORT_FORMAT = format_option("text", "json", "github", "sarif")
TEXT_OR_JSON = format_option("text", "json")


def utf8_text(ctx: click.Context | None, param: click.Parameter | None, value: T) -> T:
    """The callback of every free-text option (propose's fields and --reason, --by): text
    whose words end up in an entry, a commit message or refused.md must be UTF-8.

    Python hands over argument bytes that are not UTF-8 as lone surrogates (PEP 383), which
    nothing can encode: they failed deep inside as an unexpected error (a commit message), or
    as a misleading "front matter is not valid YAML" (a title). Refused here, naming the
    option and the byte, as click's usage error (exit 2). A callback, not a ParamType: that
    is generic only from click 8.4, and gitmem supports 8.1."""
    for text in value if isinstance(value, tuple) else (value,):
        if not isinstance(text, str):
            continue
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as exc:
            byte = ord(text[exc.start]) & 0xFF
            raise click.BadParameter(
                f"not valid UTF-8 (byte 0x{byte:02x} at character {exc.start + 1}): "
                "pass the text in UTF-8",
                ctx=ctx,
                param=param,
            ) from None
    return value


def emit_warnings(warnings: Iterable[object]) -> None:
    for warning in warnings:
        click.echo(f"gitmem: warning: {warning}", err=True)


def interactive() -> bool:
    """A person at a terminal (stdin and stdout both): only then does gitmem ask or edit."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def command_workspace() -> Workspace:
    """The repository a command works on, with its settings: the one the GIT_DIR (and
    GIT_WORK_TREE) a person set name, as git takes them (gitcli.pinned_repository), else the
    one around the current folder."""
    from gitmem.repo.gitcli import pinned_repository
    from gitmem.repo.workspace import open_workspace

    return open_workspace(pinned=pinned_repository())
