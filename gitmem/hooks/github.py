"""Install gitmem's GitHub workflows into a repository (`gitmem init --github`).

The workflows ship inside the package (`gitmem/hooks/workflows/`), so installing gitmem is all a
project needs (docs/github.md says what each does and which settings make them the gate):

- `gitmem-check.yml`: every pull request judged by `gitmem github check` on
  pull_request_target (the default branch's definition), and the `gitmem merge button` check
  that keeps candidates from being merged by the button;
- `gitmem-review.yml`: relays an approval to the admit workflow, holding nothing;
- `gitmem-admit.yml`: `gitmem github admit`, from the default branch, with the admission token
  of an environment limited to it;
- `gitmem-protect.yml`: every push to the memory branch judged by the history rules;
- `gitmem-pages.yml`, only with `gitmem init --pages`: `gitmem site` published to GitHub
  Pages on every push to the memory branch.

Every job installs gitmem the same way, rendered here from one place: a virtual environment in
the runner's temporary folder, outside the checkout (`python -I`, so neither the working folder
nor PYTHON* variables are read), pip in hash-checking mode (`--require-hashes --no-deps
--only-binary :all:`) over gitmem's pin and the dependency lock `workflows/requirements.txt`,
in a step that holds no token. The pin is `GITMEM_PIN` (the distribution, at the version
running) with the sha256 of the wheel the package index publishes for it, read when the
workflows are written (gitmem.hooks.release): a wheel cannot carry its own hash.

Each installed file starts with a line recording the hash of the text gitmem wrote. While the
file still matches it, gitmem knows nobody edited it and brings it up to date freely; once a
person changed it, gitmem leaves it alone unless asked to replace it (`force`). The push
trigger of the protect workflow follows the project's `memory.branch`.

With `warn` (`gitmem init --github --warn`, for a team adopting gitmem on a repository with
history), the check and protect steps run with `--warn`: they report the same annotations,
SARIF and job summary under the warn banner, and fail only on a secret or a text too large to
scan. The mode lives in the workflow files themselves, so the check's comes from the default
branch, never from the pull request it judges; `gitmem init --github` without `--warn` writes
them back in enforce mode.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from importlib import metadata, resources
from pathlib import Path

from gitmem import DISTRIBUTION, __version__
from gitmem.errors import UsageError
from gitmem.repo.atomic import ABANDONED_AGE, atomic_write, remove_temporaries_of
from gitmem.repo.gitcli import PinnedRepository

WORKFLOWS = ("gitmem-check.yml", "gitmem-review.yml", "gitmem-admit.yml", "gitmem-protect.yml")
#: Installed on request only (`gitmem init --pages`): publishes `gitmem site` to GitHub Pages.
PAGES = "gitmem-pages.yml"
SHIPPED = (*WORKFLOWS, PAGES)
FOLDER = Path(".github") / "workflows"
HASH_LINE = "# Installed by `gitmem init --github`; gitmem updates it while it matches: sha256:"
_HASH = re.compile(r"\A# Installed by `gitmem init --github`[^\n]*sha256:([0-9a-f]{64})\n")
_PUSH_BRANCHES = "    branches: [main]\n"
_INSTALL = "          @INSTALL@\n"
_INDENT = " " * 10
#: The end of each step that warn mode runs with --warn (each occurs once, in its workflow).
WARN_STEPS = {
    "gitmem-check.yml": ' github check --sarif "$RUNNER_TEMP/gitmem.sarif"\n',
    "gitmem-protect.yml": ' --branch "$BRANCH"\n',
}
VENV = "gitmem"  # the virtual environment's folder, in the runner's temporary folder


@dataclass(frozen=True)
class Pin:
    """A distribution as pip's hash-checking mode names it: name, version, and the sha256 of
    each of its files that may be installed."""

    name: str
    version: str
    hashes: tuple[str, ...]

    def lines(self) -> list[str]:
        return [f"{self.name}=={self.version}", *(f"    --hash=sha256:{h}" for h in self.hashes)]


def installed_version() -> str:
    """The version of the gitmem distribution running now (the package's own when it runs
    from a source tree that was never installed)."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return __version__


#: The one place the workflows' gitmem comes from: this distribution at the version running.
#: A wheel cannot carry its own hash, so the pin ships without one, and a workflow rendered
#: from it stops with an error rather than install whatever an index serves under the name;
#: `gitmem init --github` writes the workflows with gitmem.hooks.release.published_pin(),
#: which adds the hash of the release's wheel as the package index publishes it.
GITMEM_PIN = Pin(DISTRIBUTION, installed_version(), ())


def lock() -> list[str]:
    """The dependency lock's requirement lines (workflows/requirements.txt, comments dropped)."""
    text = (resources.files("gitmem.hooks") / "workflows" / "requirements.txt").read_text(
        encoding="utf-8"
    )
    return [line for line in text.splitlines() if line.strip() and not line.startswith("#")]


def lock_text(folder: str | Path) -> str:
    """Requirement lines pinning every wheel in folder by its sha256 (what `pip download`
    left there): how workflows/requirements.txt is renewed."""
    lines = []
    for wheel in sorted(Path(folder).glob("*.whl"), key=lambda p: p.name.lower()):
        name, version = wheel.name.split("-")[:2]
        digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
        lines.append(f"{re.sub(r'[-_.]+', '-', name).lower()}=={version} --hash=sha256:{digest}")
    return "\n".join(lines)


def install_script(pin: Pin = GITMEM_PIN, dependencies: list[str] | None = None) -> str:
    """The install step's script (it runs in the runner's temporary folder): pin, then the
    dependency lock (dependencies, when given, replace it)."""
    if not pin.hashes:
        return (
            "# no published release of gitmem is pinned (gitmem init --github pins one):\n"
            "# installing by name alone could install another project's code\n"
            f'echo "::error title=gitmem install::this gitmem pins no published release of '
            f'{pin.name}: install the workflows with a released gitmem (gitmem init --github)"\n'
            "exit 1\n"
        )
    locked = lock() if dependencies is None else dependencies
    requirements = "\n".join([" \\\n".join(pin.lines()), *locked])
    return (
        "# a virtual environment outside the checkout, from hash-checked wheels only\n"
        f"python -I -m venv {VENV}\n"
        "cat > gitmem-requirements.txt <<'REQUIREMENTS'\n"
        f"{requirements}\n"
        "REQUIREMENTS\n"
        f"{VENV}/bin/python -I -m pip install --quiet --disable-pip-version-check \\\n"
        "  --require-hashes --no-deps --only-binary :all: -r gitmem-requirements.txt\n"
        f'"$RUNNER_TEMP/{VENV}/bin/gitmem" --version\n'
    )


def template(name: str) -> str:
    """The shipped text of one workflow, as it is in the package."""
    if name not in SHIPPED:
        raise UsageError(f"unknown workflow {name!r}: gitmem ships {', '.join(SHIPPED)}")
    return (resources.files("gitmem.hooks") / "workflows" / name).read_text(encoding="utf-8")


def render(name: str, *, branch: str = "main", pin: Pin = GITMEM_PIN, warn: bool = False) -> str:
    """The text `install_workflows` writes: the template for this branch with the install
    step of pin (and, with warn, its gitmem step in warn mode), under its hash line."""
    body = template(name)
    step = WARN_STEPS.get(name)
    if warn and step is not None:
        if body.count(step) != 1:
            raise AssertionError(f"{name}: the step warn mode changes is not there once")
        body = body.replace(step, step.replace("\n", " --warn\n"))
    if branch != "main":
        pattern = json.dumps(_literal_pattern(branch))
        body = body.replace(_PUSH_BRANCHES, f"    branches: [{pattern}]\n", 1)
    script = "".join(
        f"{_INDENT}{line}\n" if line else "\n" for line in install_script(pin).splitlines()
    )
    body = body.replace(_INSTALL, script)
    return f"{HASH_LINE}{_digest(body)}\n{body}"


def _literal_pattern(branch: str) -> str:
    """A push filter matching exactly branch. GitHub reads a branch filter as a pattern; of
    its special characters a git branch name may hold `+` (one or more of the character
    before) and `!` (first, negates the filter), which a backslash makes literal; `*`, `?`,
    `[` and `\\` cannot be in a branch name."""
    escaped = branch.replace("+", "\\+")
    return "\\" + escaped if escaped.startswith("!") else escaped


def _digest(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def is_pristine(text: str) -> bool:
    """Whether an installed workflow is exactly what gitmem wrote (any gitmem version)."""
    match = _HASH.match(text)
    return match is not None and _digest(text[match.end() :]) == match.group(1)


def install_workflows(
    root: Path,
    *,
    force: bool = False,
    branch: str | None = None,
    names: tuple[str, ...] = WORKFLOWS,
    pin: Pin = GITMEM_PIN,
    warn: bool = False,
    pinned: PinnedRepository | None = None,
) -> list[str]:
    """Write `.github/workflows/gitmem-*.yml` (the names given) under root, installing gitmem
    as pin says (release.published_pin() for a user's project), in warn mode when warn; answer
    one line per file saying what happened. A file someone edited is kept unless force; branch
    defaults to the project's memory.branch (of pinned, the repository GIT_DIR names, when
    given)."""
    root = Path(root)
    if not root.is_dir():
        raise UsageError(f"{root} is not a folder: run gitmem init --github in a repository")
    if branch is None:
        branch = _memory_branch(root, pinned)
    folder = root / FOLDER
    # a file on the way had each workflow kept as one that "cannot be read" (exit 0, none
    # installed), and --force end in an unexpected FileExistsError making the folder
    for part in (folder.parent, folder):
        if os.path.lexists(part) and not part.is_dir():
            shown = part.relative_to(root).as_posix()
            what = "a file" if part.is_file() else "not a folder"
            raise UsageError(
                f"{shown} is {what}, where the workflows go ({FOLDER.as_posix()}/): move it "
                "away, then run again"
            )
    # a killed run's temporary beside a workflow, untracked where `git add -A` commits it
    remove_temporaries_of((folder / name for name in names), ABANDONED_AGE)
    lines: list[str] = []
    for name in names:
        path = folder / name
        shown = (FOLDER / name).as_posix()
        want = render(name, branch=branch, pin=pin, warn=warn)
        try:
            have: str | None = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            have = None
        except (OSError, UnicodeDecodeError) as exc:
            if not force:
                lines.append(f"kept {shown}: cannot read it ({exc}); --force replaces it")
                continue
            have = ""
        if have == want:
            lines.append(f"unchanged {shown}")
            continue
        if have is not None and not force and not is_pristine(have):
            lines.append(f"kept {shown}: it was edited by hand; --force replaces it")
            continue
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write(path, want.encode("utf-8"))
        if have is None:
            lines.append(f"created {shown}")
        elif is_pristine(have):
            lines.append(f"updated {shown}")
        else:
            lines.append(f"replaced {shown} (--force)")
    return lines


def _memory_branch(root: Path, pinned: PinnedRepository | None) -> str:
    """memory.branch as the project sets it (main when the settings cannot be read)."""
    from gitmem.errors import GitmemError
    from gitmem.repo.workspace import open_workspace

    try:
        return open_workspace(root, pinned=pinned).settings.branch
    except GitmemError:
        return "main"
