"""gitmem installs under a distribution name of its own (the name `gitmem` on the package index
belongs to another project), defined once, gitmem.DISTRIBUTION: pyproject.toml, the installed
metadata, the README and docs, every install hint gitmem prints, the hooks' hint and the
workflows' install line are held to it here."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

from gitmem import DISTRIBUTION, __version__
from gitmem.hooks import github

SOURCE = Path(__file__).resolve().parent.parent
PACKAGE = Path(sys.modules["gitmem"].__file__ or "").parent

#: `pip install …`, `pipx install …`, `pipx inject …`, `pip download …`: the words after it.
INSTALL = re.compile(r"\bpipx? (?:install|inject|download)\b((?:[ \t]+|[ \t]*\\\n[ \t]*)\S+)+")
#: Options that take a value, whose value is not a name.
WITH_VALUE = {
    *("-r", "--requirement", "-c", "--constraint", "-d", "--dest", "--only-binary"),
    *("--python-version", "--implementation", "--abi", "--platform"),
}


def names_installed(text: str) -> list[str]:
    """The distributions an install command in text names (not files, folders or options)."""
    names = []
    for found in INSTALL.finditer(text):
        words = found.group(0).replace("\\\n", " ").split()[2:]
        skip = False
        for word in words:
            word = word.strip("'\"`,;)")
            if skip or not word:
                skip = False
                continue
            if word in WITH_VALUE:
                skip = True
            elif not word.startswith(("-", ".", "/", "$", "<", "\\")) and not word.endswith(".txt"):
                names.append(word)
            if not word.startswith("-"):
                break  # the first name ends what is read: the rest is prose
    return names


def test_pyproject_names_the_distribution() -> None:
    project = tomllib.loads((SOURCE / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["name"] == DISTRIBUTION
    assert project["version"] == __version__
    assert project.get("scripts", {}) == {} or "gitmem" in project["scripts"]
    assert DISTRIBUTION != "gitmem"


def test_the_installed_distribution_is_the_one_named() -> None:
    dist = metadata.distribution(DISTRIBUTION)
    assert dist.version == __version__
    assert [e.name for e in dist.entry_points if e.group == "console_scripts"] == ["gitmem"]
    done = subprocess.run(
        [sys.executable, "-m", "gitmem", "--version"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert __version__ in done.stdout


@pytest.mark.parametrize(
    "doc",
    ["README.md", *sorted(p.relative_to(SOURCE).as_posix() for p in SOURCE.glob("docs/*.md"))],
)
def test_the_docs_install_this_distribution(doc: str) -> None:
    text = (SOURCE / doc).read_text(encoding="utf-8")
    for name in names_installed(text):
        assert re.split(r"[\[=<>!~]", name)[0] == DISTRIBUTION, f"{doc} installs {name!r}"


def test_the_readme_says_pipx_installs_the_command() -> None:
    readme = (SOURCE / "README.md").read_text(encoding="utf-8")
    quick = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert f"pipx install {DISTRIBUTION}" in quick


def test_every_hint_gitmem_prints_names_this_distribution() -> None:
    """Python source spells the name through the constant; the shipped templates say it."""
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix not in (".py", ".yml", ".txt", "") or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for name in names_installed(text):
            assert re.split(r"[\[=<>!~]", name)[0] in (
                DISTRIBUTION,
                "{DISTRIBUTION}",
                "@DISTRIBUTION@",
            ), f"{path.relative_to(PACKAGE)} installs {name!r}"


def test_the_workflows_install_this_distribution() -> None:
    assert github.GITMEM_PIN.name == DISTRIBUTION
    pin = github.Pin(DISTRIBUTION, __version__, ("0" * 64,))
    for name in ("gitmem-check.yml", "gitmem-admit.yml", "gitmem-protect.yml"):
        assert f"{DISTRIBUTION}=={__version__} \\\n" in github.render(name, pin=pin)


def test_the_workflows_lock_pins_every_dependency() -> None:
    """The workflows install with --no-deps from the lock: a dependency missing there would
    break every job at its first import."""
    project = tomllib.loads((SOURCE / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = {
        re.split(r"[\[<>=!~ ;]", dep, maxsplit=1)[0].lower() for dep in project["dependencies"]
    }
    locked = {line.split("==")[0] for line in github.lock()}
    assert {re.sub(r"[-_.]+", "-", name) for name in wanted} <= locked
