"""What each git hook does (the scripts in hooks/ exec `gitmem hook NAME`).

- pre-commit: the file rules over what git is committing (GIT_INDEX_FILE honoured); no commit
  at all while an admit or refuse killed after main moved is not finished in this checkout;
- pre-push: the history rules over what the remote does not have yet;
- pre-receive: the history rules on the server, with the server's own policy (its git config,
  gitmem.settings.policy), GitLab-style `GL-HOOK-ERR:` lines under GitLab; in the server's warn
  mode (gitmem.enforcement) it prints its findings under a banner and refuses a secret only,
  and says it is in warn mode on every push, so nobody forgets to switch to enforce;
- pre-commit and pre-push know nothing of a server's mode (it lives in the server's config):
  they judge as they always do; a client hook is a courtesy, `--no-verify` passes it;
- post-merge, post-checkout, post-rewrite: regenerate INDEX.md in the working tree when it is
  stale, CANDIDATES.md, and warm the recall cache.  They never fail the user's git command:
  any error becomes one line on stderr and exit 0.
"""

from __future__ import annotations

from typing import TextIO

from gitmem.errors import GitmemError


def run(name: str, args: list[str], stdin: TextIO) -> tuple[int, str]:
    """Run one hook; returns its exit code and what to print on stderr."""
    from gitmem.gate import check

    if name == "pre-commit":
        cut_short = _unfinished_landing()
        if cut_short:
            return 1, cut_short
        report = check.check_staged()
        return (0 if report.ok else 1), (check.render(report, "text") if report.problems else "")
    if name in ("pre-push", "pre-receive"):
        from gitmem.gate import history
        from gitmem.settings.policy import WARN

        text = stdin.read()
        if name == "pre-push":
            report = history.check_pre_push(text, args[0] if args else None)
        else:
            report = history.check_pre_receive(text)
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
        f"gitmem: {landing.branch} holds `gitmem {landing.action}`, but the command was cut "
        f"short before this checkout followed: the staging index still holds the memory as "
        f"it was, and this commit would undo it. Run `gitmem {landing.action}` again to "
        f"finish it, then commit."
    )
