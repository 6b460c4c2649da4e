"""`gitmem help [COMMAND…]`: a command's help, as `git help commit` gives git's.

The same text as `gitmem COMMAND --help` (a sub-command of a group too: `gitmem help hooks
install`); with no command, gitmem's own. An unknown command is a usage error that names
the closest ones, as `gitmem COMMAND` does.
"""

from __future__ import annotations

import click

from gitmem.errors import UsageError


@click.command("help")
@click.argument("words", nargs=-1, metavar="[COMMAND]...")
@click.pass_context
def help_(ctx: click.Context, words: tuple[str, ...]) -> int:
    """Show the help of gitmem, or of a command (`gitmem help recall`, `gitmem help hooks
    install`): the text `--help` gives."""
    parent = ctx.find_root()
    command: click.Command = parent.command
    shown = parent
    for depth, word in enumerate(words):
        found = command.get_command(shown, word) if isinstance(command, click.Group) else None
        if found is None:
            from gitmem.cli.main import most_similar

            asked = " ".join(words[: depth + 1])
            named = " ".join(words[:depth])
            where = f"`gitmem {named} --help`" if named else "`gitmem --help`"
            names = command.list_commands(shown) if isinstance(command, click.Group) else []
            raise UsageError(
                f"no command {asked!r}.{most_similar(word, names)} {where} lists the commands"
            )
        command = found
        shown = click.Context(command, info_name=word, parent=shown)
    click.echo(command.get_help(shown))
    return 0
