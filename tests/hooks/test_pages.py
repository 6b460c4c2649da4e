"""The Pages workflow (`gitmem init --pages`): valid, audited, pinned, least privilege, and it
publishes what `gitmem site` writes."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from clirunner import ok, run

from gitmem.hooks import github

PINNED = {
    "actions/checkout": "3d3c42e5aac5ba805825da76410c181273ba90b1",
    "actions/setup-python": "5fda3b95a4ea91299a34e894583c3862153e4b97",
    "actions/upload-pages-artifact": "fc324d3547104276b827a68afc52ff2a11cc49c9",
    "actions/deploy-pages": "cd2ce8fcbc39b97be8ca5fce6e763baed58fa128",
}


def _tool(name: str) -> str:
    found = shutil.which(name) or shutil.which(name, path=str(Path(sys.executable).parent))
    if found is None:
        pytest.skip(f"{name} is not installed (a pinned test dependency: pip install .[test])")
    return found


def _installed(tmp_path: Path, branch: str) -> Path:
    root = tmp_path / branch
    root.mkdir()
    github.install_workflows(root, branch=branch, names=(github.PAGES,))
    return root / ".github" / "workflows" / github.PAGES


def test_schema_and_audit(tmp_path: Path) -> None:
    paths = [_installed(tmp_path, "main"), _installed(tmp_path, "trunk")]
    done = subprocess.run(
        [_tool("check-jsonschema"), "--builtin-schema", "vendor.github-workflows", *paths],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    done = subprocess.run(
        [_tool("zizmor"), "--offline", "--no-progress", *paths],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "No findings to report" in done.stdout


def test_pinned_least_privilege_and_the_site_command() -> None:
    flow = yaml.safe_load(github.template(github.PAGES))
    assert flow["permissions"] == {}
    jobs = flow["jobs"]
    assert jobs["build"]["permissions"] == {"contents": "read"}
    assert jobs["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}
    assert jobs["deploy"]["needs"] == "build"
    steps = [s for job in jobs.values() for s in job["steps"]]
    for step in steps:
        if "uses" in step:
            action, _, sha = step["uses"].partition("@")
            assert PINNED[action] == sha, step["uses"]
        assert "${{" not in step.get("run", "")
    runs = [s["run"] for s in steps if "run" in s]
    assert any('gitmem" site --out _site' in r for r in runs)
    upload = next(s for s in steps if s.get("uses", "").startswith("actions/upload-pages"))
    assert upload["with"]["path"] == "_site"


def test_init_pages_installs_it_alone_or_with_the_others(memory: Path) -> None:
    # the pages workflow installs gitmem pinned like the others (gitmem.hooks.release): the
    # hash is given here, where no release of this version is published
    pin = ("--pin-hash", "sha256:" + "ab" * 32)
    out = ok(run(memory, "init", "--pages", *pin)).output
    assert "created .github/workflows/gitmem-pages.yml" in out
    assert sorted(p.name for p in (memory / ".github" / "workflows").iterdir()) == [
        "gitmem-pages.yml"
    ]
    out = ok(run(memory, "init", "--github", "--pages", *pin)).output
    assert "unchanged .github/workflows/gitmem-pages.yml" in out
    assert len(list((memory / ".github" / "workflows").iterdir())) == len(github.WORKFLOWS) + 1
    (memory / ".gitmem.toml").write_text('[memory]\nbranch = "trunk"\n')
    ok(run(memory, "init", "--pages", *pin))
    text = (memory / ".github" / "workflows" / "gitmem-pages.yml").read_text()
    assert 'branches: ["trunk"]' in text
