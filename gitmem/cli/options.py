"""What the command modules share: the `--format` option, warnings, and whether a person is
at the terminal."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

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


def emit_warnings(warnings: Iterable[object]) -> None:
    for warning in warnings:
        click.echo(f"gitmem: warning: {warning}", err=True)


def interactive() -> bool:
    """A person at a terminal (stdin and stdout both): only then does gitmem ask or edit."""
    return sys.stdin.isatty() and sys.stdout.isatty()
