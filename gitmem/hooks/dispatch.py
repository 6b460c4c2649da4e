"""What each git hook does (the scripts in hooks/ exec `gitmem hook NAME`).

- pre-commit: the file rules over what git is committing (GIT_INDEX_FILE honoured); no commit
  at all while an admit or refuse killed after main moved is not finished in this checkout;
- pre-push: the history rules over what the remote does not have yet;
- pre-receive: the history rules on the server, with the server's own policy (its git config,
  gitmem.settings.policy), GitLab-style `GL-HOOK-ERR:` lines under GitLab; in the server's warn
  mode (gitmem.enforcement) it prints its findings under a banner and refuses only a secret or a
  text too large to scan (gitmem.gate.check.ALWAYS_REFUSED),
  and says it is in warn mode on every push, so nobody forgets to switch to enforce;
- pre-commit and pre-push know nothing of a server's mode (it lives in the server's config):
  they judge as they always do; a client hook is a courtesy, `--no-verify` passes it;
- post-merge, post-checkout, post-rewrite: regenerate INDEX.md in the working tree when it is
  stale, CANDIDATES.md, warm the recall cache and bring up the agents' catalog when one is
  kept.  They never fail the user's git command: any error becomes one line on stderr and
  exit 0.

gitmem reads SHA-1 repositories whose refs are kept in files only (libgit2 opens no other:
gitmem.repo.store.unsupported_format). In any other (SHA-256 objects, reftable refs), a hook
refuses what it was asked to judge (exit 2, saying why) wherever gitmem keeps memory there,
and lets it through with one line on stderr where nothing shows gitmem at all (keeps_gitmem):
gitmem's hooks in a folder that a global or system core.hooksPath shares with every
repository of the user refused every push from a SHA-256 one.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TextIO

from gitmem.errors import GitmemError, UsageError

#: What a hook says when it lets a repository it cannot read through (keeps_gitmem: None).
PASSED_UNREAD = "{why}; it has no gitmem memory, settings or hooks of its own: passed unjudged"


def run(name: str, args: list[str], stdin: TextIO) -> tuple[int, str]:
    """Run one hook; returns its exit code and what to print on stderr."""
    from gitmem.repo.store import UnsupportedRepositoryFormat

    pushed = stdin.read() if name in ("pre-push", "pre-receive") else ""
    try:
        return _run(name, args, pushed)
    except UnsupportedRepositoryFormat as exc:
        why = keeps_gitmem(_pushed_tips(pushed))
        if why is None:
            return 0, f"gitmem: {name}: {PASSED_UNREAD.format(why=exc.short)}"
        if name not in ("pre-commit", "pre-push", "pre-receive"):
            return 0, f"gitmem: {name}: {exc.message}"  # a post-* hook never fails git's command
        raise UsageError(f"{exc.message} ({why})") from None


def _run(name: str, args: list[str], pushed: str) -> tuple[int, str]:
    from gitmem.gate import check
    from gitmem.repo.store import UnsupportedRepositoryFormat

    if name == "pre-commit":
        cut_short = _unfinished_landing()
        if cut_short:
            return 1, cut_short
        report = check.check_staged()
        # a settings file set aside is said, as pre-push says it: silent, the memory folder
        # it named went unjudged without a word
        warned = [f"gitmem: warning: {warning}" for warning in report.warnings]
        shown = [check.render(report, "text")] if report.problems else []
        return (0 if report.ok else 1), "\n".join([*warned, *shown])
    if name in ("pre-push", "pre-receive"):
        from gitmem.gate import history
        from gitmem.settings.policy import WARN

        if name == "pre-push":
            report = history.check_pre_push(pushed, args[0] if args else None)
        else:
            report = history.check_pre_receive(pushed)
        # a clean push says nothing, except in warn mode, whose banner is always shown
        quiet = not report.problems and not report.warnings and report.mode != WARN
        if report.ok and quiet:
            return 0, ""
        warned = [f"gitmem: warning: {warning}" for warning in report.warnings]
        out = "\n".join([*warned, check.render(report, "text")])
        if name == "pre-receive":
            out = check.for_server(out)
        return (0 if report.ok else 1), out
    try:
        from gitmem.lifecycle import refresh
        from gitmem.repo.gitcli import pinned_repository
        from gitmem.repo.workspace import open_workspace

        # the repository git runs the hook for, as a command would take it: a GIT_DIR set
        # for `git checkout` (a work tree without .git, as dotfiles keep) was not found
        refresh.refresh(open_workspace(pinned=pinned_repository()), from_hook=True)
        return 0, ""
    except UnsupportedRepositoryFormat:
        raise  # run says whether it is gitmem's to refuse, or passed unjudged
    except GitmemError as exc:
        return 0, f"gitmem: {name}: {exc.message}"
    except Exception as exc:  # a post-* hook never fails the user's git command
        return 0, f"gitmem: {name}: could not refresh the indexes ({exc!r})"


def _unfinished_landing() -> str | None:
    """Why no commit may be made here yet, when an admit or refuse was killed after main
    moved and before the checkout followed (gitmem.lifecycle.recovery.unfinished)."""
    from gitmem.lifecycle import recovery
    from gitmem.repo.store import Store

    landing = recovery.unfinished(Store.open(from_env=True))
    if landing is None:
        return None
    return (
        f"gitmem: {landing.branch} moved ({landing.action}), but `gitmem {landing.command}` "
        f"was cut short before this checkout followed: the staging index still holds the memory as "
        f"it was, and this commit would undo it. Run `gitmem {landing.command}` again to "
        f"finish it, then commit."
    )


def _pushed_tips(pushed: str) -> list[str]:
    """The commits a push brings (pre-push lines `ref commit remote-ref remote-commit`,
    pre-receive lines `old new ref`: the second field either way), none that deletes."""
    tips = []
    for line in pushed.splitlines():
        fields = line.split()
        if len(fields) >= 2 and fields[1].strip("0"):
            tips.append(fields[1])
    return tips


def keeps_gitmem(tips: Sequence[str]) -> str | None:
    """What shows that gitmem keeps memory in the repository a hook runs for, or None: its
    own hooks folder runs gitmem (installed, or copied there by hand, for this repository,
    not shared through a core.hooksPath of the user's or the machine's git config), its git
    config sets gitmem.* (a server's policy), or a folder that could be the memory folder, or
    a gitmem settings file, is in its work tree, at HEAD or in a commit pushed (tips). Asked
    of the git command line with the hook's environment (quarantined objects included), for
    a repository gitmem cannot open."""
    from gitmem.model.names import DEFAULT_DIR, PROJECT_SETTINGS, PYPROJECT
    from gitmem.repo.gitcli import hook_output
    from gitmem.repo.sparse import left_out_bytes
    from gitmem.settings.folders import memory_prefixes

    scope = hook_output("config", "--show-scope", "--get", "core.hooksPath")
    if scope is None or scope.split(b"\t", 1)[0].strip() not in (b"global", b"system"):
        return "gitmem's hooks run from this repository's own hooks folder"
    if hook_output("config", "--local", "--get-regexp", r"^gitmem\."):
        return "its git config sets gitmem.*"
    found = hook_output("rev-parse", "--show-toplevel")
    top = os.fsdecode(found.strip()) if found and found.strip() else None
    folders = {DEFAULT_DIR, os.environ.get("GITMEM_DIR", DEFAULT_DIR).strip("/") or DEFAULT_DIR}
    prefixes = memory_prefixes(top, left_out_bytes) if top is not None else None
    folders.update(os.fsdecode(prefix).rstrip("/") for prefix in prefixes or ())
    names = sorted({*folders, PROJECT_SETTINGS})
    if top is not None:
        for name in names:
            if os.path.lexists(os.path.join(top, name)):
                return f"{name} is in its work tree"
        if _names_gitmem(_read(os.path.join(top, PYPROJECT))):
            return f"{PYPROJECT} in its work tree has a [tool.gitmem] table"
    for commit in ("HEAD", *tips):
        held = hook_output(
            "--literal-pathspecs", "ls-tree", "--name-only", "-z", commit, "--", *names
        )
        if held:
            shown = os.fsdecode(held.split(b"\0", 1)[0])
            return f"{shown} is in {commit}"
        if _names_gitmem(hook_output("cat-file", "blob", f"{commit}:{PYPROJECT}")):
            return f"{PYPROJECT} at {commit} has a [tool.gitmem] table"
    return None


def _read(path: str) -> bytes | None:
    try:
        with open(path, "rb") as file:
            return file.read()
    except OSError:
        return None


def _names_gitmem(pyproject: bytes | None) -> bool:
    """Whether a pyproject.toml's text has a [tool.gitmem] table (or one below it)."""
    return pyproject is not None and b"[tool.gitmem" in pyproject
