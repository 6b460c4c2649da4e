"""`gitmem init` and `gitmem hooks install|uninstall`: setting a repository up for gitmem."""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING

import click

from gitmem.cli.options import utf8_text

if TYPE_CHECKING:
    from gitmem.repo.store import Store


@click.command()
@click.option("--dir", "memory_dir", callback=utf8_text, help="Memory folder (default .gitmem).")
@click.option(
    "--project",
    callback=utf8_text,
    help="Project part of ids (default: the repository name of origin, else of the only remote).",
)
@click.option(
    "--branch",
    callback=utf8_text,
    help="Branch where admitted memory lives (default: origin's default branch, or the only "
    "remote's whatever its name, else the branch HEAD names when it has commits, else main).",
)
@click.option("--hooks", "with_hooks", is_flag=True, help="Also install gitmem's git hooks.")
@click.option("--github", "with_github", is_flag=True, help="Also install the GitHub workflows.")
@click.option(
    "--force", is_flag=True, help="With --github, --pages: replace workflows edited by hand."
)
@click.option(
    "--pages",
    "with_pages",
    is_flag=True,
    help="Also install the workflow that publishes `gitmem site` to GitHub Pages.",
)
@click.option(
    "--codeowners",
    "with_codeowners",
    is_flag=True,
    help="Also write CODEOWNERS lines routing each entry type to the owners in memory.owners.",
)
@click.option(
    "--claude", "with_claude", is_flag=True, help="Also wire Claude Code: hooks and .mcp.json."
)
@click.option("--agents", "with_agents", is_flag=True, help="Also keep a block in AGENTS.md.")
@click.option("--uninstall", is_flag=True, help="With --claude/--agents: remove what they added.")
@click.option(
    "--warn",
    is_flag=True,
    help="With --github: the check and protect workflows in warn mode (report every finding, "
    "fail only on a secret or a text too large to scan), for adopting gitmem on a repository "
    "with history; without it they are written in enforce mode.",
)
@click.option(
    "--pin-hash",
    metavar="sha256:HEX",
    help="With --github or --pages: the sha256 of this gitmem's published wheel, when the "
    "package index cannot be asked (by default it is read from the index).",
)
def init(
    memory_dir: str | None,
    project: str | None,
    branch: str | None,
    with_hooks: bool,
    with_github: bool,
    force: bool,
    with_pages: bool,
    with_codeowners: bool,
    with_claude: bool,
    with_agents: bool,
    uninstall: bool,
    warn: bool,
    pin_hash: str | None,
) -> int:
    """Create the memory folder (refused.md, INDEX.md, .gitignore) and, where a setting
    differs from its default, .gitmem.toml. Safe to run twice.

    With --github, the workflows install this version of gitmem pinned by the hash of its
    published wheel, read from the package index pip uses (or given with --pin-hash); when
    neither can be had, nothing is written.
    """
    from gitmem.lifecycle.bootstrap import init as do_init
    from gitmem.repo.gitcli import pinned_repository
    from gitmem.repo.store import Store

    if pin_hash and not (with_github or with_pages):
        raise click.UsageError("--pin-hash goes with --github or --pages")
    # options that do nothing here were ignored without a word: `--force` alone replaced
    # nothing, and `--uninstall --claude --hooks` removed the Claude wiring and installed no
    # hook (nor made the folder --dir named)
    if force and not (with_github or with_pages):
        raise click.UsageError("--force goes with --github or --pages (it replaces workflows)")
    if uninstall:
        undone = {
            "--dir": memory_dir is not None,
            "--project": project is not None,
            "--branch": branch is not None,
            "--hooks": with_hooks,
            "--github": with_github,
            "--pages": with_pages,
            "--codeowners": with_codeowners,
        }
        extra = [name for name, given in undone.items() if given]
        if extra:
            raise click.UsageError(
                f"--uninstall removes only what --claude and --agents added, not {extra[0]}: "
                "run them apart (`gitmem hooks uninstall` removes the hooks)"
            )
    if warn and not with_github:
        raise click.UsageError(
            "--warn goes with --github; a git server's mode is its own: "
            "`gitmem hooks install --server --warn` in the bare repository"
        )
    store = Store.open(None, pinned=pinned_repository())
    pin = None
    if with_github or with_pages:
        from gitmem.hooks import release

        # before anything is written: a pin that cannot be had changes nothing
        pin = release.published_pin(pin_hash)
    if with_hooks and store.workdir is not None:
        from gitmem.hooks import installer

        # before anything is written: hooks that cannot be installed change nothing
        installer.check_install(store.workdir, pinned=store.pinned)
    if uninstall or with_claude or with_agents:
        from gitmem.agents import install

        if uninstall and not (with_claude or with_agents):
            raise click.UsageError("--uninstall goes with --claude and/or --agents")
        if store.workdir is None:
            raise click.UsageError("--claude and --agents need a working tree")
        lines = install.run(
            store.workdir,
            memory_dir,
            claude=with_claude,
            agents=with_agents,
            uninstall=uninstall,
            pinned=store.pinned,
        )
        for line in lines:
            click.echo(line)
        if uninstall:
            return 0
    done = do_init(store, memory_dir=memory_dir, project=project, branch=branch)
    for path in done.created:
        click.echo(f"created {path}")
    for path in done.kept:
        click.echo(f"kept {path} (already there)")
    click.echo(f"memory branch: {done.branch} ({done.branch_from})")
    for note in done.notes:
        click.echo(f"note: {note}")
    if with_hooks:
        from gitmem.hooks import installer

        for line in installer.install(done.root, pinned=store.pinned):
            click.echo(line)
    if pin is not None:
        from gitmem.hooks import github

        names = (github.WORKFLOWS if with_github else ()) + ((github.PAGES,) if with_pages else ())
        for line in github.install_workflows(
            done.root, force=force, names=names, pin=pin, warn=warn, pinned=store.pinned
        ):
            click.echo(line)
            # a workflow written is one to commit: the closing `git add` line left them out,
            # and a workflow that is not committed never runs
            action, _, path = line.partition(" ")
            if action in ("created", "updated", "replaced"):
                done.created.append(path.split(" ")[0])
    if with_codeowners:
        from gitmem.cli.options import emit_warnings
        from gitmem.curate import codeowners
        from gitmem.repo.workspace import open_workspace

        settings = open_workspace(done.root, pinned=store.pinned).settings
        emit_warnings(settings.warnings)
        written = codeowners.install(done.root, settings)
        click.echo(f"{written.action} {written.path}")
        if written.action != "unchanged":
            done.created.append(written.path)
    # a file kept because an init killed before it could say so had written it is as much to
    # commit as one created now: the closing line named none of them, and the memory folder
    # was committed without them
    to_commit = [*done.created, *_uncommitted(store, done.kept)]
    if to_commit:
        # quoted for the shell: a memory folder named with a space (`--dir "team memory"`)
        # printed a line that, pasted, added files named `team` and `memory/INDEX.md`
        click.echo("commit them: git add " + shlex.join(to_commit) + " && git commit")
    return 0


def _uncommitted(store: Store, paths: list[str]) -> list[str]:
    """Those of paths (relative to the working tree) that HEAD's commit does not hold."""
    head = store.resolve("HEAD")
    tree = store.tree_of(head) if head is not None else None
    return [path for path in paths if tree is None or not store.exists(tree, path)]


@click.group()
def hooks() -> None:
    """Install or remove gitmem's git hooks."""


@hooks.command("install")
@click.option("--server", is_flag=True, help="Install the pre-receive hook (a bare server repo).")
@click.option(
    "--warn",
    is_flag=True,
    help="With --server: warn mode, for adopting gitmem on a repository with history: every "
    "push is judged and its findings printed under a banner, but only a secret or a text too "
    "large to scan is rejected.",
)
@click.option(
    "--enforce",
    is_flag=True,
    help="With --server: enforce mode (the default): a push that breaks a rule is rejected.",
)
def hooks_install(server: bool, warn: bool, enforce: bool) -> int:
    """Install the hooks (chaining any existing hook; safe to run twice).

    Every hook is checked before any is written: a hook that cannot be installed without
    losing a file refuses the whole install (exit 2), naming each problem. A write the
    system refuses later says which hooks are installed and which are not; run the command
    again to finish, or `gitmem hooks uninstall` to undo.

    With --server, also writes the gate's policy into the bare repository's git config
    (gitmem.*) from the settings committed at HEAD. The enforcement mode
    (gitmem.enforcement) changes only with --warn or --enforce; running it again without
    either keeps the mode the server has.
    """
    from gitmem.hooks import installer

    # Two flags, not one option with two flag values: with one, click kept the last given,
    # so `--warn --enforce` set enforce mode without a word about the --warn before it.
    if warn and enforce:
        raise click.UsageError("--warn and --enforce are opposite modes: give one of them")
    mode = "warn" if warn else "enforce" if enforce else None
    if mode is not None and not server:
        raise click.UsageError(
            f"--{mode} goes with --server: the mode is the server's; the client hooks judge "
            "the same in either"
        )
    from gitmem.repo.gitcli import command_folder, pinned_repository

    pinned = pinned_repository()
    for line in installer.install(
        command_folder(pinned), server=server, enforcement=mode, pinned=pinned
    ):
        click.echo(line)
    return 0


@hooks.command("uninstall")
@click.option("--server", is_flag=True, help="Remove the pre-receive hook.")
def hooks_uninstall(server: bool) -> int:
    """Remove gitmem's hooks and restore the ones they chained.

    Every hook is checked before any is removed: one that cannot be put back (a folder where
    a chained hook should go) refuses the whole uninstall (exit 2), naming each problem. A
    removal the system refuses later says which hooks were removed and which are still
    installed; run the command again to finish.
    """
    from gitmem.hooks import installer
    from gitmem.repo.gitcli import command_folder, pinned_repository

    pinned = pinned_repository()
    for line in installer.uninstall(command_folder(pinned), server=server, pinned=pinned):
        click.echo(line)
    return 0
