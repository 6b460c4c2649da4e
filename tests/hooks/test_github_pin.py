"""The pin `gitmem init --github` writes into the workflows: this distribution at the version
running, with the sha256 of the wheel the package index publishes for it
(gitmem.hooks.release). Every index here is local: a folder of wheels handed to pip as
--find-links, or served by `python -m http.server` on the loopback address; the network is
never asked.
"""

from __future__ import annotations

import hashlib
import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from clirunner import run
from wheels import toy_wheel

from gitmem import DISTRIBUTION
from gitmem.errors import UsageError
from gitmem.hooks import github, release

WHEEL_NAME = DISTRIBUTION.replace("-", "_")
VERSION = github.GITMEM_PIN.version


@pytest.fixture
def pip_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """pip with no configuration of this machine: no config file, no index, no links."""
    for key in list(os.environ):
        if key.startswith("PIP_"):
            monkeypatch.delenv(key)
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_NO_CACHE_DIR", "1")
    yield


def published(folder: Path, version: str = VERSION) -> str:
    """A wheel of this distribution in folder, as a release would publish it; its sha256."""
    wheel = toy_wheel(folder, WHEEL_NAME, version)
    return hashlib.sha256(wheel.read_bytes()).hexdigest()


def test_the_pin_names_this_distribution_at_the_installed_version() -> None:
    assert github.GITMEM_PIN.name == DISTRIBUTION
    assert github.GITMEM_PIN.version == github.installed_version()
    assert github.GITMEM_PIN.hashes == ()


def test_the_hash_is_read_from_a_folder_of_wheels(
    tmp_path: Path, pip_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    digest = published(tmp_path / "index")
    published(tmp_path / "index", "0.0.1")  # another release beside it
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path / "index"))
    assert release.published_pin() == github.Pin(DISTRIBUTION, VERSION, (digest,))


@pytest.fixture
def http_index(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """`python -m http.server` on 127.0.0.1 over a PEP 503 layout (its folder listings are the
    simple pages); stopped when the test ends."""
    root = tmp_path / "served"
    (root / "simple" / DISTRIBUTION).mkdir(parents=True)
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", "0", "--bind", "127.0.0.1", "-d", str(root)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        port = re.search(r"port (\d+)", line)
        assert port, line
        yield f"http://127.0.0.1:{port.group(1)}/simple/", root / "simple" / DISTRIBUTION
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_init_github_pins_the_wheel_an_http_index_serves(
    memory: Path, http_index: tuple[str, Path], pip_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    url, folder = http_index
    digest = published(folder)
    monkeypatch.delenv("PIP_NO_INDEX")
    monkeypatch.setenv("PIP_INDEX_URL", url)
    result = run(memory, "init", "--github")
    assert result.exit_code == 0, result.output
    assert "created .github/workflows/gitmem-check.yml" in result.output
    check = (memory / ".github" / "workflows" / "gitmem-check.yml").read_text()
    assert f"{DISTRIBUTION}=={VERSION} \\\n" in check
    assert f"--hash=sha256:{digest}\n" in check
    assert "pins no published release" not in check
    assert github.is_pristine(check)


def test_the_pinned_step_installs_the_published_wheel(
    tmp_path: Path, pip_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The install step as the runner runs it, over the pin just read: the wheel installs and
    its `gitmem` command answers."""
    published(tmp_path / "index")
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path / "index"))
    script = github.install_script(release.published_pin(), dependencies=[])
    temp = tmp_path / "runner-temp"
    temp.mkdir()
    done = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
        cwd=temp,
        capture_output=True,
        text=True,
        env={**os.environ, "RUNNER_TEMP": str(temp)},
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith("toy ran")


def test_an_unpublished_version_fails_closed_and_writes_nothing(
    memory: Path, tmp_path: Path, pip_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    published(tmp_path / "index", "0.0.1")  # only an older release is on the index
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path / "index"))
    result = run(memory, "init", "--github")
    # a refusal to write, not a rule the project broke: exit 2, as the README's exit codes say
    assert result.exit_code == 2, result.output
    assert f"{DISTRIBUTION}=={VERSION} is not published on the package index" in result.output
    assert f"pipx install {DISTRIBUTION}" in result.output
    assert "--pin-hash sha256:" in result.output
    assert "Traceback" not in result.output
    assert not (memory / ".github").exists()


def test_an_unreachable_index_fails_closed_and_says_so(
    memory: Path, pip_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.delenv("PIP_NO_INDEX")
    monkeypatch.setenv("PIP_INDEX_URL", f"http://127.0.0.1:{port}/simple/")
    with pytest.raises(UsageError, match="the package index could not be asked") as caught:
        release.published_pin()
    assert "--pin-hash sha256:" in caught.value.message
    result = run(memory, "init", "--github")
    assert result.exit_code == 2, result.output
    assert not (memory / ".github").exists()


def test_a_hash_given_by_hand_is_pinned_without_asking(
    memory: Path, pip_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PIP_INDEX_URL", "http://127.0.0.1:9/never-asked/")
    digest = "ab" * 32
    result = run(memory, "init", "--github", "--pin-hash", f"sha256:{digest}")
    assert result.exit_code == 0, result.output
    admit = (memory / ".github" / "workflows" / "gitmem-admit.yml").read_text()
    assert f"{DISTRIBUTION}=={VERSION} \\\n" in admit and f"--hash=sha256:{digest}\n" in admit
    with pytest.raises(UsageError, match="sha256:<64 hex digits>"):
        release.published_pin("md5:1234")
    assert run(memory, "init", "--github", "--pin-hash", "1234").exit_code == 2
    assert run(memory, "init", "--pin-hash", f"sha256:{digest}").exit_code == 2


def test_the_workflows_written_are_in_the_commit_line(
    memory: Path, pip_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The closing `commit them: git add …` line named the memory files and left out the
    workflows just written, and with the memory already committed it was not printed at all:
    a person following it pushed a project whose workflows never ran."""
    monkeypatch.setenv("PIP_INDEX_URL", "http://127.0.0.1:9/never-asked/")
    result = run(memory, "init", "--github", "--pages", "--pin-hash", "sha256:" + "ab" * 32)
    assert result.exit_code == 0, result.output
    line = result.output.splitlines()[-1]
    assert line.startswith("commit them: git add ") and line.endswith(" && git commit")
    written = sorted(p.name for p in (memory / ".github" / "workflows").iterdir())
    assert len(written) == len(github.WORKFLOWS) + 1
    assert all(f".github/workflows/{name}" in line.split() for name in written)
