"""The GitHub workflows: valid, audited, installed safely, and their steps run for real.

The `run:` scripts are taken from the shipped YAML and run with bash exactly as a runner would
(`bash --noprofile --norc -eo pipefail`), with the environment variables the step sets and the
ones a runner gives every step (the event file, the API's address), their values simulating the
GitHub event. The checkout is a clone of a real bare remote (with gitmem's server hook where
the test says so); GitHub's API is a fake HTTP server answering from the state each test sets
(tests/fakegithub.py); `gh` is a fake that records its arguments. Each attack the issue names
(tokens, self-admission, unreviewed commits, faked gates, the base branch, the head that moved,
the rulesets, the merge button, dropped runs, Markdown injection, the install) is a test here.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from clirunner import run
from fakegh import FIELDS, FakeGh
from fakegithub import FakeGitHub, serve
from remote import connected_copy
from secret_samples import github_token
from wheels import toy_wheel

from gitmem.hooks import github, github_admit, github_check, installer
from gitmem.hooks.github_api import Api
from gitmem.lifecycle import admit as admitting
from gitmem.lifecycle import propose as proposing
from gitmem.model.markdown import block
from gitmem.model.proposal import ProposalFields
from gitmem.repo.workspace import open_workspace

from conftest import git, isolated, new_repo, run_gitmem
from entries import text

ROOT = Path(__file__).resolve().parents[2]
PROJECT_WORKFLOWS = ROOT / ".github" / "workflows"
# actions pinned to the commits their release tags name (checked against the release notes)
PINS = {
    "actions/checkout": ("3d3c42e5aac5ba805825da76410c181273ba90b1", "v7.0.1"),
    "actions/setup-python": ("5fda3b95a4ea91299a34e894583c3862153e4b97", "v7.0.0"),
    # the first releases that run on Node.js 24 (GitHub runs Node.js 20 actions on 24 since
    # June 2026, warning that they may not work), with the inputs of the v4 ones
    "actions/upload-artifact": ("b7c566a772e6b6bfb58ed0dc250532a479d7789f", "v6.0.0"),
    "actions/download-artifact": ("37930b1c2abaa49bbe596cd826c3c89aef350131", "v7.0.0"),
    "github/codeql-action/upload-sarif": ("5d4e8d1aca955e8d8589aabd499c5cae939e33c7", "v4.31.9"),
}
TOKEN = github_token(40)
ZERO = "0" * 40
ENTRY_ID = "shop-method-20261129-run-hooks-through-gitmem"


def workflow(name: str, warn: bool = False) -> dict[Any, Any]:
    loaded = yaml.safe_load(github.render(name, warn=warn))
    assert isinstance(loaded, dict)
    return loaded


def triggers(name: str) -> dict[str, Any]:
    on = workflow(name)[True]  # PyYAML reads `on:` as True
    return on if isinstance(on, dict) else {on: None}


def step(name: str, step_name: str, warn: bool = False) -> dict[str, Any]:
    found = [
        s
        for job in workflow(name, warn)["jobs"].values()
        for s in job["steps"]
        if s.get("name") == step_name
    ]
    assert len(found) == 1, f"{name} has no step {step_name!r}"
    return dict(found[0])


def tool(name: str) -> str:
    found = shutil.which(name) or shutil.which(name, path=str(Path(sys.executable).parent))
    if found is None:
        pytest.skip(f"{name} is not installed (a pinned test dependency: pip install .[test])")
    return found


# ---------------------------------------------------------------------------------------------
# every workflow file: schema and audit


@pytest.fixture
def all_workflows(tmp_path: Path) -> list[Path]:
    """The shipped templates (from the installed package), the project's own workflows, and
    the workflows as installed for a project whose memory branch is not main."""
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    paths = []
    for name in github.WORKFLOWS:
        path = shipped / name
        path.write_text(github.template(name))
        paths.append(path)
    paths += sorted(PROJECT_WORKFLOWS.glob("*.yml"))
    assert PROJECT_WORKFLOWS / "ci.yml" in paths
    trunk = tmp_path / "trunk"
    trunk.mkdir()
    github.install_workflows(trunk, branch="trunk")
    paths += sorted((trunk / ".github" / "workflows").glob("*.yml"))
    warned = tmp_path / "warned"
    warned.mkdir()
    github.install_workflows(warned, names=tuple(github.WARN_STEPS), warn=True)
    paths += sorted((warned / ".github" / "workflows").glob("*.yml"))
    return paths


def test_every_workflow_matches_the_github_workflow_schema(all_workflows: list[Path]) -> None:
    done = subprocess.run(
        [tool("check-jsonschema"), "--builtin-schema", "vendor.github-workflows", *all_workflows],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok -- validation done" in done.stdout


@pytest.mark.parametrize("mode", [[], ["--pedantic"], ["--persona=auditor"]])
def test_zizmor_finds_nothing_in_any_workflow(
    all_workflows: list[Path], tmp_path: Path, mode: list[str]
) -> None:
    done = subprocess.run(
        [tool("zizmor"), "--offline", "--no-progress", *mode, *all_workflows],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "No findings to report" in done.stdout
    # what is ignored is explained where it is: the two default-branch triggers of admit and
    # the check's pull_request_target, each with its reason beside it
    for name in github.WORKFLOWS:
        for line in github.render(name).splitlines():
            if "zizmor: ignore[" in line:
                assert re.search(r"ignore\[dangerous-triggers\] \S+ .{20,}", line), line


def test_actions_are_pinned_to_full_commits() -> None:
    for name in github.WORKFLOWS:
        text_ = github.template(name)
        uses = re.findall(r"^\s*-?\s*uses:\s*(\S+)(.*)$", text_, re.M)
        for ref, comment in uses:
            action, _, sha = ref.partition("@")
            assert action in PINS, f"{name}: {action} is not one of the pinned actions"
            assert (sha, comment.strip()) == (PINS[action][0], f"# {PINS[action][1]}"), name


def test_least_privilege_and_no_expression_inside_a_script() -> None:
    for name in github.WORKFLOWS:
        flow = workflow(name)
        assert flow["permissions"] == {}, name
        for job in flow["jobs"].values():
            for item in job["steps"]:
                assert "${{" not in item.get("run", ""), f"{name}: an expression inside run:"
                if item.get("uses", "").startswith("actions/checkout@"):
                    assert item["with"]["persist-credentials"] is False, name
                    assert "ref" not in item["with"], (
                        f"{name}: only the default branch is checked out"
                    )
    jobs = {name: workflow(name)["jobs"] for name in github.WORKFLOWS}
    assert jobs["gitmem-check.yml"]["check"]["permissions"] == {"contents": "read"}
    # only the job that uploads the check's SARIF may write security events; it checks out
    # nothing and reads only the check's file
    scanning = jobs["gitmem-check.yml"]["code-scanning"]
    assert scanning["permissions"] == {"security-events": "write"}
    assert scanning["needs"] == "check"
    assert [s["uses"].split("@")[0] for s in scanning["steps"]] == [
        "actions/download-artifact",
        "github/codeql-action/upload-sarif",
    ]
    upload = scanning["steps"][1]["with"]
    assert upload["category"] == "gitmem"
    assert upload["ref"] == "refs/pull/${{ github.event.pull_request.number }}/head"
    assert upload["sha"] == "${{ github.event.pull_request.head.sha }}"
    assert jobs["gitmem-check.yml"]["merge-button"]["permissions"] == {}
    assert jobs["gitmem-review.yml"]["relay"]["permissions"] == {}
    assert jobs["gitmem-protect.yml"]["protect"]["permissions"] == {"contents": "read"}
    # the job holding the admission token only reads; the one that comments holds no token
    assert set(jobs["gitmem-admit.yml"]["admit"]["permissions"].values()) == {"read"}
    assert jobs["gitmem-admit.yml"]["report"]["permissions"] == {"pull-requests": "write"}


def test_the_admission_token_lives_only_in_the_admit_step_of_a_default_branch_job() -> None:
    """Issue item 1: the token is an environment secret, read by one step of one job, which
    runs only on triggers whose definition GitHub takes from the default branch."""
    for name in github.WORKFLOWS:
        text_ = github.render(name)
        uses = text_.count("secrets.")
        if name != "gitmem-admit.yml":
            assert uses == 0, f"{name} reads a secret"
    assert set(triggers("gitmem-admit.yml")) == {
        "workflow_run",
        "pull_request_target",
        "workflow_dispatch",
    }
    assert triggers("gitmem-admit.yml")["pull_request_target"] == {"types": ["labeled"]}
    admit = workflow("gitmem-admit.yml")["jobs"]["admit"]
    assert admit["environment"] == {"name": "gitmem-admit", "deployment": False}
    holding = [s for s in admit["steps"] if "secrets." in json.dumps(s)]
    assert [s["name"] for s in holding] == ["Admit the candidate"]
    assert holding[0]["env"]["GITMEM_GIT_TOKEN"] == "${{ secrets.GITMEM_ADMIT_TOKEN }}"
    assert "||" not in holding[0]["env"]["GITMEM_GIT_TOKEN"]  # no fallback to another token
    report = workflow("gitmem-admit.yml")["jobs"]["report"]
    assert "environment" not in report and "secrets." not in json.dumps(report)
    # the check too runs the default branch's definition: a pull request cannot stub it out
    assert set(triggers("gitmem-check.yml")) == {"pull_request_target"}
    # the review relay holds nothing
    relay = workflow("gitmem-review.yml")["jobs"]["relay"]
    assert relay["permissions"] == {} and "env" not in relay["steps"][0]


def test_concurrency_is_per_pull_request_at_the_job_level() -> None:
    """Issue item 9: only jobs that run join a group (job level, after their `if`), one group
    a candidate; protect has groups of its own."""
    for name in github.WORKFLOWS:
        assert "concurrency" not in workflow(name), f"{name}: a workflow-wide group"
        for job_name, job in workflow(name)["jobs"].items():
            assert "concurrency" in job, f"{name}: {job_name} has no group"
    admit = workflow("gitmem-admit.yml")["jobs"]["admit"]["concurrency"]
    assert admit["cancel-in-progress"] is False
    protect = workflow("gitmem-protect.yml")["jobs"]["protect"]["concurrency"]
    assert protect["group"].startswith("gitmem-protect-") and protect["cancel-in-progress"] is False


@pytest.mark.e2e
def test_every_trigger_of_an_admission_joins_the_one_group_of_its_pull_request(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path
) -> None:
    """The admit job's group was the branch for a workflow run or the label and the number for
    a dispatch, so a dispatch and a review of the same pull request admitted it at once. Now
    every trigger is named by the resolve job, and the group is that pull request's number."""
    flow = workflow("gitmem-admit.yml")
    admit = flow["jobs"]["admit"]
    assert admit["concurrency"] == {
        "group": "gitmem-admit-${{ needs.resolve.outputs.pull-request }}",
        "cancel-in-progress": False,
    }
    assert admit["needs"] == "resolve"
    assert admit["if"] == "needs.resolve.outputs.pull-request != ''"
    assert step("gitmem-admit.yml", "Admit the candidate")["env"]["PULL_REQUEST"] == (
        "${{ needs.resolve.outputs.pull-request }}"
    )
    resolve = flow["jobs"]["resolve"]
    assert resolve["permissions"] == {"pull-requests": "read"}
    assert "secrets." not in json.dumps(resolve) and "environment" not in resolve
    dev, server, _gh = admission
    proposal = propose(dev)
    approved(api, proposal)
    label = {
        "label": {"name": "gitmem:admit"},
        "pull_request": {"number": NUMBER, "head": {"ref": proposal.branch}},
    }
    events = [
        ("workflow_run", review_event(proposal.branch)),
        ("workflow_run", check_run_event(NUMBER, proposal.commit)),
        ("pull_request_target", label),
        ("workflow_dispatch", {"inputs": {"pull-request": NUMBER}}),
    ]
    groups = set()
    for index, (event_name, event) in enumerate(events):
        runner = Runner(tmp_path, clone(server, tmp_path / f"resolver-{index}"))
        runner_env(runner, api, event_name, event)
        done = runner.run("gitmem-admit.yml", "Name the pull request", {"GITHUB_TOKEN": "ghs_r"})
        assert done.returncode == 0, done.stdout + done.stderr
        groups.add(f"gitmem-admit-{runner.outputs()['pull-request']}")
    assert groups == {f"gitmem-admit-{NUMBER}"}


def install_steps() -> list[tuple[str, dict[str, Any]]]:
    return [
        (name, s)
        for name in github.WORKFLOWS
        for job in workflow(name)["jobs"].values()
        for s in job["steps"]
        if s.get("name") == "Install gitmem"
    ]


def test_every_job_installs_gitmem_one_way_outside_the_checkout_holding_no_token() -> None:
    """Issue item 11: one pin, rendered into every install step; run in the runner's temporary
    folder, with python -I, pip in hash-checking mode, and no environment at all."""
    steps = install_steps()
    assert {name for name, _ in steps} == {
        "gitmem-check.yml",
        "gitmem-admit.yml",
        "gitmem-protect.yml",
    }
    for name, item in steps:
        assert item["working-directory"] == "${{ runner.temp }}", name
        assert "env" not in item, f"{name}: the install step holds no variable, no token"
        assert item["run"] == github.install_script(), name
    assert "pip install" not in github.render("gitmem-review.yml")


def test_the_install_script_pins_every_file_by_its_hash() -> None:
    pin = github.Pin("gitmem-x", "1.2.3", ("a" * 64, "b" * 64))
    script = github.install_script(pin)
    assert "python -I -m venv gitmem\n" in script
    assert "--require-hashes --no-deps --only-binary :all:" in script
    requirements = script.split("<<'REQUIREMENTS'\n", 1)[1].split("\nREQUIREMENTS\n", 1)[0]
    lines = requirements.replace(" \\\n", " ").splitlines()
    assert lines[0] == f"gitmem-x==1.2.3     --hash=sha256:{'a' * 64}     --hash=sha256:{'b' * 64}"
    assert lines[1:] == github.lock()
    assert len(lines) > 30  # the whole dependency closure, each pinned
    for line in lines:
        assert re.fullmatch(r"[a-z0-9-]+==[^ ]+( +--hash=sha256:[0-9a-f]{64})+", line), line
    assert "python -m pip" not in script and " pip " not in script.replace("-m pip", "")


def test_without_a_published_release_the_install_stops_instead_of_guessing(tmp_path: Path) -> None:
    """Until issue 14 names and publishes gitmem, nothing is installed by name alone."""
    assert github.GITMEM_PIN.hashes == ()
    done = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", github.install_script()],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    assert "::error title=gitmem install::this gitmem pins no published release" in done.stdout
    assert list(tmp_path.iterdir()) == []


def test_the_install_script_installs_the_pinned_file_and_refuses_any_other(tmp_path: Path) -> None:
    """The step for real: a virtual environment in the temporary folder, the pinned wheel from
    an index; the same step with a hash that does not match installs nothing. A `pip/` folder
    in the working folder (as a checkout might hold) is never imported."""
    wheel = toy_wheel(tmp_path / "index")
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    env = {
        **os.environ,
        "PIP_NO_INDEX": "1",
        "PIP_FIND_LINKS": str(wheel.parent),
    }
    for attempt, (hashes, code) in enumerate([(("f" * 64,), 1), ((digest,), 0)]):
        temp = tmp_path / f"runner-temp-{attempt}"
        (temp / "pip").mkdir(parents=True)
        (temp / "pip" / "__init__.py").write_text("raise SystemExit('the planted pip ran')\n")
        script = github.install_script(github.Pin("gitmem-toy", "1.0", hashes), dependencies=[])
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
            cwd=temp,
            capture_output=True,
            text=True,
            env={**env, "RUNNER_TEMP": str(temp)},
        )
        assert done.returncode == code, done.stdout + done.stderr
        assert "planted pip" not in done.stdout + done.stderr
        if code:
            assert "DO NOT MATCH" in done.stderr.upper()
            assert not (temp / "gitmem" / "bin" / "gitmem").exists()
        else:
            assert done.stdout.strip().endswith("toy ran")


# ---------------------------------------------------------------------------------------------
# installing them


def test_the_projects_own_workflows_are_the_shipped_ones() -> None:
    for name in github.WORKFLOWS:
        assert (PROJECT_WORKFLOWS / name).read_text() == github.render(name, branch="main"), (
            f"{name}: run install_workflows(ROOT, branch='main') to refresh the project's copy"
        )


def test_install_creates_then_leaves_alone(repo: Path) -> None:
    assert github.install_workflows(repo) == [
        "created .github/workflows/gitmem-check.yml",
        "created .github/workflows/gitmem-review.yml",
        "created .github/workflows/gitmem-admit.yml",
        "created .github/workflows/gitmem-protect.yml",
    ]
    for name in github.WORKFLOWS:
        installed = (repo / ".github" / "workflows" / name).read_text()
        assert installed == github.render(name)
        assert github.is_pristine(installed)
    assert github.install_workflows(repo) == [
        "unchanged .github/workflows/gitmem-check.yml",
        "unchanged .github/workflows/gitmem-review.yml",
        "unchanged .github/workflows/gitmem-admit.yml",
        "unchanged .github/workflows/gitmem-protect.yml",
    ]


def test_an_edited_workflow_is_kept_unless_forced(repo: Path) -> None:
    github.install_workflows(repo)
    path = repo / ".github" / "workflows" / "gitmem-check.yml"
    edited = path.read_text().replace("timeout-minutes: 15", "timeout-minutes: 30")
    path.write_text(edited)
    assert not github.is_pristine(edited)
    lines = github.install_workflows(repo)
    assert (
        lines[0]
        == "kept .github/workflows/gitmem-check.yml: it was edited by hand; --force replaces it"
    )
    assert path.read_text() == edited
    lines = github.install_workflows(repo, force=True)
    assert lines[0] == "replaced .github/workflows/gitmem-check.yml (--force)"
    assert path.read_text() == github.render("gitmem-check.yml")


@pytest.mark.parametrize("where", [".github", ".github/workflows"])
def test_a_file_where_the_workflows_folder_belongs_is_named(repo: Path, where: str) -> None:
    """With a file at .github/workflows, init --github kept every workflow as one that
    "cannot be read", exit 0 with none installed, and --force ended in an unexpected
    FileExistsError (exit 3)."""
    from gitmem.errors import UsageError

    (repo / where).parent.mkdir(parents=True, exist_ok=True)
    (repo / where).write_text("notes\n")
    for force in (False, True):
        with pytest.raises(UsageError, match=f"{where} is a file, where the workflows go"):
            github.install_workflows(repo, force=force)
    assert (repo / where).read_text() == "notes\n"


def test_a_file_written_by_an_older_gitmem_is_updated(repo: Path) -> None:
    folder = repo / ".github" / "workflows"
    folder.mkdir(parents=True)
    older_body = "name: gitmem check\n# an older version\n"
    older = f"{github.HASH_LINE}{github._digest(older_body)}\n{older_body}"
    assert github.is_pristine(older)
    (folder / "gitmem-check.yml").write_text(older)
    (folder / "gitmem-admit.yml").write_text("name: mine\n")
    lines = github.install_workflows(repo)
    assert lines == [
        "updated .github/workflows/gitmem-check.yml",
        "created .github/workflows/gitmem-review.yml",
        "kept .github/workflows/gitmem-admit.yml: it was edited by hand; --force replaces it",
        "created .github/workflows/gitmem-protect.yml",
    ]


def test_protect_follows_the_projects_memory_branch(repo: Path) -> None:
    (repo / ".gitmem.toml").write_text('[memory]\nbranch = "trunk"\n')
    github.install_workflows(repo)
    protect = yaml.safe_load((repo / ".github/workflows/gitmem-protect.yml").read_text())
    assert protect[True]["push"]["branches"] == ["trunk"]  # PyYAML reads `on:` as True
    check = (repo / ".github/workflows/gitmem-check.yml").read_text()
    assert check == github.render("gitmem-check.yml")


def github_filter_matches(pattern: str, ref: str) -> bool:
    """Whether a branch filter pattern matches ref, by the rules of GitHub's filter pattern
    cheat sheet (Workflow syntax for GitHub Actions): `*` any characters but `/`, `**` any
    characters, `?` zero or one of the preceding character, `+` one or more of it, `[]` one
    character of a set, `!` first negates, and `\\` makes the next character literal."""
    if pattern.startswith("!"):
        return not github_filter_matches(pattern[1:], ref)
    out, i = "", 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\" and i + 1 < len(pattern):
            out, i = out + re.escape(pattern[i + 1]), i + 2
        elif pattern.startswith("**", i):
            out, i = out + ".*", i + 2
        elif char == "*":
            out, i = out + "[^/]*", i + 1
        elif char in "?+":
            out, i = out + char, i + 1
        elif char == "[":
            end = pattern.index("]", i)
            out, i = out + pattern[i : end + 1], end + 1
        else:
            out, i = out + re.escape(char), i + 1
    return re.fullmatch(out, ref) is not None


@pytest.mark.parametrize("branch", ["trunk", "memory+v2", "c++", "!memory", "release/2.0"])
def test_the_push_filter_matches_exactly_the_memory_branch(branch: str) -> None:
    """The memory branch went into the push filters as it is, but GitHub reads a branch filter
    as a pattern: a `+` (legal in a git branch name) repeats the character before it, so the
    protect and pages workflows never ran for a push to `memory+v2`, and a leading `!`
    negates the whole filter."""
    for name in ("gitmem-protect.yml", github.PAGES):
        loaded = yaml.safe_load(github.render(name, branch=branch))
        (pattern,) = loaded[True]["push"]["branches"]
        assert github_filter_matches(pattern, branch), (name, pattern)
        for other in ("main", branch.replace("+", ""), branch + "x", f"x{branch}"):
            if other != branch:
                assert not github_filter_matches(pattern, other), (name, pattern, other)


def test_install_into_something_that_is_not_a_folder(tmp_path: Path) -> None:
    from gitmem.errors import UsageError

    with pytest.raises(UsageError):
        github.install_workflows(tmp_path / "missing")


# ---------------------------------------------------------------------------------------------
# running the steps


class Runner:
    """What a GitHub runner gives a step: a checkout, a temp folder, the output files."""

    def __init__(self, tmp_path: Path, checkout: Path) -> None:
        self.checkout = checkout
        self.temp = tmp_path / "runner-temp"
        self.temp.mkdir(exist_ok=True)
        self.summary = self.temp / "step-summary.md"
        self.output = self.temp / "output"
        self.base: dict[str, str] = {}  # what the runner gives every step (runner_env)

    def run(
        self, workflow_name: str, step_name: str, env: dict[str, str], warn: bool = False
    ) -> Any:
        item = step(workflow_name, step_name, warn)
        assert set(item.get("env", {})) == set(env), "the test must set what the step sets"
        script = self.temp / "step-script"
        script.write_text(item["run"])
        if item.get("shell") == "python":
            command = [sys.executable, str(script)]
        else:
            command = ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)]
        self.output.write_text("")
        done = subprocess.run(
            command,
            cwd=self.checkout,
            capture_output=True,
            text=True,
            env={
                **os.environ,
                "GITHUB_ACTIONS": "true",
                "GITHUB_REPOSITORY": "acme/shop",
                "GITHUB_STEP_SUMMARY": str(self.summary),
                "GITHUB_OUTPUT": str(self.output),
                "RUNNER_TEMP": str(self.temp),
                **self.base,
                **env,
            },
            timeout=300,
        )
        return done

    def outputs(self) -> dict[str, str]:
        """The step's outputs, in either of GITHUB_OUTPUT's forms (name=value, or a heredoc)."""
        found: dict[str, str] = {}
        lines = iter(self.output.read_text().splitlines())
        for line in lines:
            if "<<" in line and "=" not in line.split("<<", 1)[0]:
                name, delimiter = line.split("<<", 1)
                value = []
                for more in lines:
                    if more == delimiter:
                        break
                    value.append(more)
                found[name] = "\n".join(value)
            elif "=" in line:
                name, value_ = line.split("=", 1)
                found[name] = value_
        return found


def clone(server: Path, where: Path) -> Path:
    git(where.parent, "clone", "-q", str(server), str(where))
    return where


def shop(repo: Path) -> Path:
    """repo with gitmem set up for the project "shop", committed."""
    result = run(repo, "init")
    assert result.exit_code == 0, result.output
    (repo / ".gitmem.toml").write_text('[memory]\nproject = "shop"\n')
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "gitmem init")
    return repo


@pytest.fixture
def memory(repo: Path) -> Path:
    return shop(repo)


def bare(tmp_path: Path, *, hooks: bool) -> Path:
    path = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(path))
    if hooks:
        installer.install(path, server=True)
    return path


def connect(repo: Path, server: Path) -> None:
    git(repo, "remote", "add", "origin", str(server))
    git(repo, "push", "-q", "origin", "main")


def propose(repo: Path, **changes: Any) -> proposing.Proposal:
    fields = ProposalFields.from_mapping({**FIELDS, **changes})
    return proposing.propose(open_workspace(repo), fields, push=True)


def tip(repo: Path, ref: str) -> str:
    return git(repo, "rev-parse", "--verify", "--quiet", ref, check=False).strip()


# -- admit ------------------------------------------------------------------------------------

NUMBER = 7


@pytest.fixture
def api() -> Iterator[FakeGitHub]:
    with serve(FakeGitHub()) as fake:
        yield fake


@pytest.fixture(scope="module")
def admission_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The memory and its server of `admission`, made once per module and copied for each test
    (connecting them runs the server's hook), under the isolation every test runs in."""
    root = tmp_path_factory.mktemp("admission")
    with isolated(tmp_path_factory.mktemp("admission-env")):
        connect(shop(new_repo(root / "work")), bare(root, hooks=True))
    return root


@pytest.fixture
def admission(admission_template: Path, tmp_path: Path) -> tuple[Path, Path, FakeGh]:
    """A server with gitmem's pre-receive hook (tmp_path/server.git), a developer's clone of
    the memory (tmp_path/work) with main pushed, and the fake gh."""
    work, server = connected_copy(admission_template, tmp_path)
    return work, server, FakeGh(tmp_path / "fake-bin")


def runner_env(runner: Runner, api: FakeGitHub, event_name: str, event: dict[str, Any]) -> None:
    """What a runner gives every step: the event file, the API, the gitmem the install step
    put in the temporary folder (here: the one under test)."""
    path = runner.temp / "event.json"
    path.write_text(json.dumps({"repository": {"default_branch": "main"}, **event}))
    bin_ = runner.temp / "gitmem" / "bin"
    bin_.mkdir(parents=True, exist_ok=True)
    if not (bin_ / "gitmem").exists():
        (bin_ / "gitmem").symlink_to(tool("gitmem"))
    runner.base = {
        "GITHUB_EVENT_NAME": event_name,
        "GITHUB_EVENT_PATH": str(path),
        "GITHUB_API_URL": api.url,
    }


def review_event(branch: str) -> dict[str, Any]:
    """workflow_run, after the review relay completed for a candidate's pull request."""
    return {
        "workflow_run": {
            "name": "gitmem review",
            "conclusion": "success",
            "head_branch": branch,
            "head_repository": {"full_name": "acme/shop"},
        }
    }


def admit_step(
    tmp_path: Path,
    server: Path,
    api: FakeGitHub,
    event: dict[str, Any] | None = None,
    event_name: str = "workflow_run",
) -> Any:
    checkout = tmp_path / f"runner-{len(list(tmp_path.glob('runner-*')))}"
    runner = Runner(tmp_path, clone(server, checkout))
    runner_env(runner, api, event_name, event or review_event(api.pr["head"]["ref"]))
    # the resolve job names the pull request; the admit job runs only when it named one
    resolved = runner.run("gitmem-admit.yml", "Name the pull request", {"GITHUB_TOKEN": "ghs_r"})
    assert resolved.returncode == 0, resolved.stdout + resolved.stderr
    number = runner.outputs()["pull-request"]
    if not number:
        resolved.summary, resolved.outputs = "", {"pull-request": ""}
        return resolved
    env = {
        "GITHUB_TOKEN": "ghs_read-only",
        "GITMEM_GIT_TOKEN": "ghs_admission",
        "PULL_REQUEST": number,
    }
    done = runner.run("gitmem-admit.yml", "Admit the candidate", env)
    done.summary = runner.summary.read_text() if runner.summary.exists() else ""
    done.outputs = runner.outputs()
    return done


def comment(done: Any) -> str:
    return str(done.outputs.get("comment", ""))


def approved(api: FakeGitHub, proposal: proposing.Proposal, reviewer: str = "alice") -> None:
    api.candidate(NUMBER, proposal.branch, proposal.commit)
    api.approve(reviewer, proposal.commit)


def approved_unchecked(dev: Path, api: FakeGitHub) -> proposing.Proposal:
    """A candidate proposed and approved, with no check run or workflow run recorded yet: the
    test writes the runs it means."""
    proposal = propose(dev)
    approved(api, proposal)
    api.check_runs.clear()
    api.workflow_runs.clear()
    return proposal


def untouched(server: Path, main_before: str, proposal: proposing.Proposal) -> None:
    assert tip(server, "main") == main_before
    assert tip(server, proposal.branch) == proposal.commit


def refused(tmp_path: Path, server: Path, api: FakeGitHub, proposal: proposing.Proposal) -> str:
    """Run the admit step, which must refuse (exit 1) and leave main and the candidate as they
    were; the comment it left on the pull request."""
    main_before = tip(server, "main")
    done = admit_step(tmp_path, server, api)
    untouched(server, main_before, proposal)
    assert done.returncode == 1, done.stdout + done.stderr
    return comment(done)


@pytest.mark.e2e
def test_an_approval_admits_the_candidate_and_the_push_closes_the_pull_request(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path
) -> None:
    dev, server, _gh = admission
    proposal = propose(dev)
    approved(api, proposal)
    done = admit_step(tmp_path, server, api)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.outputs["status"] == "admitted"
    main = tip(server, "main")
    message = git(server, "log", "-1", "--format=%s%n%b", main)
    assert message.startswith(f"gitmem: admit {proposal.id}")
    assert "Gitmem-Admitted-By: human:alice" in message
    # a one-commit branch is merged as it is: the pull request shows as merged
    assert git(server, "rev-parse", f"{main}^2").strip() == proposal.commit
    assert tip(server, proposal.branch) == ""
    entry = git(server, "show", f"{main}:.gitmem/entries/decision/{proposal.id}.md")
    assert "admitted_by: human:alice" in entry
    # everything that decided was read from the API
    for path in (
        "/pulls/7",
        "/pulls/7/reviews",
        "/activity",
        "/pulls/7/commits",
        "/collaborators/alice/permission",
        "/rules/branches/main",
        "/actions/workflows/gitmem-check.yml/runs",
        "/jobs",
    ):
        assert any(p.endswith(path) for p in api.paths()), path
    assert f"gitmem admitted `{proposal.id}`" in done.summary


@pytest.mark.e2e
def test_the_report_job_comments_what_the_admit_job_said(
    admission: tuple[Path, Path, FakeGh], tmp_path: Path
) -> None:
    _dev, _server, gh = admission
    runner = Runner(tmp_path, tmp_path)
    body = "**gitmem did not admit this candidate.** `x`\n"
    env = {"GH_TOKEN": "ghs_comment", "PR_NUMBER": "7", "COMMENT": body}
    done = runner.run("gitmem-admit.yml", "Tell the pull request", env)
    assert done.returncode == 0, done.stderr
    (call,) = gh.called("pr", "comment", "7", "--repo", "acme/shop")
    assert call["body"] == body + "\n"


@pytest.mark.e2e
def test_a_commit_pushed_after_the_approval_is_never_admitted(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path
) -> None:
    """Issue item 6: the head the API reports now, not the one at the event, is what an
    approval must stand on."""
    dev, server, _gh = admission
    proposal = propose(dev)
    approved(api, proposal)
    git(dev, "checkout", "-q", proposal.branch)
    path = dev / ".gitmem" / "candidates" / f"{proposal.id}.md"
    path.write_text(path.read_text().replace("Read objects with pygit2.", "Spawn git instead."))
    git(dev, "commit", "-q", "-am", "after the approval")
    git(dev, "push", "-q", "origin", proposal.branch)
    git(dev, "checkout", "-q", "main")
    moved = tip(dev, proposal.branch)
    api.pr["head"]["sha"] = moved
    api.activity.append(
        {
            "actor": {"login": "carol"},
            "activity_type": "push",
            "timestamp": "2026-11-29T13:00:00Z",
            "ref": f"refs/heads/{proposal.branch}",
            "before": proposal.commit,
            "after": moved,
        }
    )
    main_before = tip(server, "main")
    done = admit_step(tmp_path, server, api)
    assert done.returncode == 1, done.stdout + done.stderr
    assert tip(server, "main") == main_before and tip(server, proposal.branch) == moved
    assert "is of an older commit" in comment(done)
    assert "::error title=gitmem admit::pull request #7 was not admitted" in done.stdout


@pytest.mark.e2e
def test_the_branch_moving_after_the_api_was_read_is_never_admitted(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path
) -> None:
    dev, server, _gh = admission
    proposal = propose(dev)
    approved(api, proposal)
    git(dev, "checkout", "-q", proposal.branch)
    path = dev / ".gitmem" / "candidates" / f"{proposal.id}.md"
    path.write_text(path.read_text().replace("Read objects with pygit2.", "Race it."))
    git(dev, "commit", "-q", "-am", "racing the admission")
    git(dev, "push", "-q", "origin", proposal.branch)
    git(dev, "checkout", "-q", "main")
    main_before = tip(server, "main")
    done = admit_step(tmp_path, server, api)
    assert done.returncode == 1
    assert "The branch moved to" in comment(done)
    assert tip(server, "main") == main_before


@pytest.mark.parametrize(
    "change",
    ["dismissed", "changes-requested", "label-removed", "approval-gone"],
)
@pytest.mark.e2e
def test_a_queued_run_admits_nothing_once_the_review_no_longer_stands(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path, change: str
) -> None:
    """Issue item 6: a run started by an approval re-reads the reviews; dismissed, changes
    requested, or a label taken off, nothing is admitted."""
    dev, server, _gh = admission
    proposal = propose(dev)
    api.candidate(NUMBER, proposal.branch, proposal.commit)
    if change == "dismissed":
        api.approve("alice", proposal.commit, state="DISMISSED")
    elif change == "changes-requested":
        api.approve("alice", proposal.commit)
        api.approve("bob", proposal.commit, state="CHANGES_REQUESTED")
    elif change == "label-removed":
        api.events.append(
            {
                "event": "labeled",
                "label": {"name": "gitmem:admit"},
                "actor": {"login": "dora"},
                "created_at": "2026-11-29T12:00:00Z",
            }
        )
        api.events.append(
            {
                "event": "unlabeled",
                "label": {"name": "gitmem:admit"},
                "actor": {"login": "dora"},
                "created_at": "2026-11-29T12:01:00Z",
            }
        )
    main_before = tip(server, "main")
    done = admit_step(tmp_path, server, api)
    untouched(server, main_before, proposal)
    if change == "changes-requested":
        assert done.returncode == 1 and "`bob` requested changes" in comment(done)
    else:
        assert done.returncode == 0 and done.outputs["status"] == "skipped", done.stdout


@pytest.mark.e2e
def test_an_approval_withdrawn_while_the_admission_is_made_stops_the_push(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path
) -> None:
    """The API is read again just before the push."""
    dev, server, _gh = admission
    proposal = propose(dev)
    approved(api, proposal)
    reads = []

    def dismiss_on_second_read(path: str) -> None:
        if path.endswith("/pulls/7/reviews"):
            reads.append(path)
            if len(reads) == 2:
                api.reviews[0]["state"] = "DISMISSED"

    api.on_request = dismiss_on_second_read
    main_before = tip(server, "main")
    done = admit_step(tmp_path, server, api)
    assert len(reads) == 2, done.stdout + done.stderr
    untouched(server, main_before, proposal)
    assert done.outputs["status"] in ("refused", "skipped"), done.stdout + done.stderr


@pytest.mark.parametrize(
    "who",
    ["opener", "pusher", "author", "bot", "reader", "source"],
)
@pytest.mark.e2e
def test_nobody_admits_their_own_candidate(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path, who: str
) -> None:
    """Issue item 2: a second account opening the pull request from the author's branch does
    not let the author admit it; nor does a commit, a push, a bot or read access."""
    dev, server, _gh = admission
    proposal = propose(dev, source="human:mallory") if who == "source" else propose(dev)
    api.candidate(NUMBER, proposal.branch, proposal.commit, opener="sock-puppet")
    reviewer = "mallory"
    if who == "opener":
        api.pr["user"]["login"] = reviewer
    elif who == "pusher":
        api.activity.append(
            {
                "actor": {"login": reviewer},
                "activity_type": "push",
                "timestamp": "2026-11-29T09:00:00Z",
                "ref": f"refs/heads/{proposal.branch}",
            }
        )
    elif who == "author":
        api.commits[0]["author"] = {"login": reviewer}
    elif who == "bot":
        reviewer = "helper[bot]"
    elif who == "reader":
        api.permissions[reviewer] = "triage"
    api.approve(reviewer, proposal.commit)
    if who == "reader":
        api.permissions[reviewer] = "triage"
    main_before = tip(server, "main")
    done = admit_step(tmp_path, server, api)
    untouched(server, main_before, proposal)
    if who == "reader":
        assert done.returncode == 0 and done.outputs["status"] == "skipped"
        return
    assert done.returncode == 1, done.stdout + done.stderr
    reason = {
        "opener": "opened the pull request",
        "pusher": "pushed to the candidate branch",
        "author": "wrote or committed one of its commits",
        "bot": "is a bot",
        "source": "is the candidate's own source",
    }[who]
    assert reason in comment(done)


@pytest.mark.parametrize("order", ["source-first", "source-last"])
@pytest.mark.e2e
def test_the_candidates_own_source_neither_admits_nor_counts_among_the_approvals(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path, order: str
) -> None:
    """The approval of the person the candidate names as its `human:` source counted toward
    the ruleset's required approvals (two required: the source and one other admitted it), and
    when the source had reviewed first, the candidate was refused although another writer,
    who may admit it, had approved it."""
    dev, server, _gh = admission
    proposal = propose(dev, source="human:alice")
    api.candidate(NUMBER, proposal.branch, proposal.commit)
    for reviewer in ["alice", "bob"] if order == "source-first" else ["bob", "alice"]:
        api.approve(reviewer, proposal.commit)
    api.rules = [{"type": "pull_request", "parameters": {"required_approving_review_count": 2}}]
    main_before = tip(server, "main")
    done = admit_step(tmp_path, server, api)
    untouched(server, main_before, proposal)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.outputs["status"] == "skipped" and "1 of the 2 approvals" in done.stdout
    api.rules = [{"type": "pull_request", "parameters": {"required_approving_review_count": 1}}]
    done = admit_step(tmp_path, server, api)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.outputs["status"] == "admitted"
    assert "Gitmem-Admitted-By: human:bob" in git(server, "log", "-1", "--format=%b", "main")


@pytest.mark.e2e
def test_the_source_is_matched_to_a_login_as_github_matches_logins(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path
) -> None:
    """GitHub logins are not case-sensitive, so `human:Alice` (her git user.name, gitmem's
    default source) names the account `alice`; she admitted her own candidate."""
    dev, server, _gh = admission
    proposal = propose(dev, source="human:Alice")
    approved(api, proposal, reviewer="alice")
    assert "`alice` is the candidate's own source" in refused(tmp_path, server, api, proposal)


@pytest.mark.e2e
def test_an_author_beyond_the_commits_github_lists_is_not_taken_for_a_bystander(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path
) -> None:
    """GitHub lists at most 250 commits of a pull request; an author of a later one was not
    seen, and could admit the candidate. A pull request with more commits than listed is
    refused: who took part in it cannot be told."""
    dev, server, _gh = admission
    proposal = propose(dev)
    approved(api, proposal, reviewer="mallory")
    filler = {"sha": "e" * 40, "author": {"login": "carol"}, "committer": {"login": "carol"}}
    mallorys = {"sha": "f" * 40, "author": {"login": "mallory"}, "committer": {"login": "carol"}}
    api.commits = [filler] * 250 + [mallorys, *api.commits]
    assert "more commits than GitHub lists" in refused(tmp_path, server, api, proposal)


@pytest.mark.e2e
def test_the_label_admits_only_after_the_last_push_and_by_another_writer(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path
) -> None:
    dev, server, _gh = admission
    proposal = propose(dev)
    api.candidate(NUMBER, proposal.branch, proposal.commit)
    api.pr["labels"] = [{"name": "gitmem:admit"}]
    api.permissions["dora"] = "write"
    api.events.append(
        {
            "event": "labeled",
            "label": {"name": "gitmem:admit"},
            "actor": {"login": "dora"},
            "created_at": "2026-11-29T09:00:00Z",
        }
    )
    event = {"pull_request": {"number": NUMBER}, "label": {"name": "gitmem:admit"}}
    done = admit_step(tmp_path, server, api, event, "pull_request_target")
    assert done.returncode == 1 and "before the last push" in comment(done)  # label at 09:00
    api.events[0]["created_at"] = "2026-11-29T12:00:00Z"
    done = admit_step(tmp_path, server, api, event, "pull_request_target")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.outputs["status"] == "admitted", done.stdout
    assert "Gitmem-Admitted-By: human:dora" in git(server, "log", "-1", "--format=%b", "main")


@pytest.mark.e2e
def test_the_base_must_be_the_memory_branch(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path
) -> None:
    """Issue item 5: a pull request retargeted at a looser branch is not admitted there."""
    dev, server, _gh = admission
    git(dev, "push", "-q", "origin", "main:loose")
    proposal = propose(dev)
    approved(api, proposal)
    api.pr["base"]["ref"] = "loose"
    done = admit_step(tmp_path, server, api)
    assert done.returncode == 1
    assert "targets `loose`, but memory lives on `main`" in comment(done)
    assert tip(server, "loose") == tip(server, "main")


@pytest.mark.parametrize(
    "check",
    ["failed", "running", "missing", "from-the-pull-request", "another-workflow"],
)
@pytest.mark.e2e
def test_the_check_must_have_passed_in_the_default_branchs_workflow(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path, check: str
) -> None:
    """Issue items 4 and 7: a green `gitmem check` counts only from the check workflow run by
    pull_request_target (a pull request's own copy could be a stub)."""
    dev, server, _gh = admission
    proposal = approved_unchecked(dev, api)
    if check == "failed":
        api.passed(proposal.commit, conclusion="failure")
    elif check == "running":
        api.passed(proposal.commit, status="in_progress")
    elif check == "from-the-pull-request":
        api.passed(proposal.commit, event="pull_request")
    elif check == "another-workflow":
        api.passed(proposal.commit, path=".github/workflows/stub.yml")
    main_before = tip(server, "main")
    done = admit_step(tmp_path, server, api)
    untouched(server, main_before, proposal)
    if check == "running":
        assert done.returncode == 0 and "waiting for it" in done.stdout
    else:
        assert done.returncode == 1 and "gitmem check did not pass" in comment(done)


def check_run_event(number: int, sha: str, branch: str = "main") -> dict[str, Any]:
    """workflow_run, after the check workflow completed on a pull request: GitHub records a
    pull_request_target run on the default branch, so it may name that branch, not the
    candidate's; its name (run-name) names the pull request."""
    return {
        "workflow_run": {
            "name": "gitmem check",
            "event": "pull_request_target",
            "path": ".github/workflows/gitmem-check.yml",
            "conclusion": "failure",  # the merge-button job fails in every candidate's run
            "head_branch": branch,
            "head_sha": "b" * 40,
            "display_title": f"gitmem check #{number} at {sha}",
            "head_repository": {"full_name": "acme/shop"},
        }
    }


@pytest.mark.e2e
def test_the_check_is_found_through_its_run_when_its_check_runs_sit_on_the_default_branch(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path
) -> None:
    """A pull_request_target run, and so its check runs, belong to the default branch's tip:
    the check runs of the candidate's head list none of them. The verdict is read from the
    run of the check workflow named for exactly that pull request and commit, and its job."""
    dev, server, _gh = admission
    proposal = propose(dev)
    approved(api, proposal)
    assert all(r["head_sha"] != proposal.commit for r in api.check_runs["gitmem check"])
    done = admit_step(tmp_path, server, api, check_run_event(NUMBER, proposal.commit))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.outputs["status"] == "admitted"
    assert tip(server, proposal.branch) == ""


@pytest.mark.parametrize(
    "spoof", ["another-pull-requests-title", "another-commit", "a-newer-failure"]
)
@pytest.mark.e2e
def test_only_a_run_that_judged_exactly_the_head_counts(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path, spoof: str
) -> None:
    """A run's name can be a pull request's title (a definition without run-name shows it), so
    the run counts only when its `gitmem check` job's first step, which no title can write,
    names the commit; and the latest such run decides."""
    dev, server, _gh = admission
    proposal = approved_unchecked(dev, api)
    if spoof == "another-pull-requests-title":
        # pull request #8, titled like #7's run, passed; its definition wrote no judge step
        title = f"gitmem check #{NUMBER} at {proposal.commit}"
        api.passed("c" * 40, number=8, title=title, judged="")
    elif spoof == "another-commit":
        api.passed(proposal.commit, judged="d" * 40)
    else:
        api.passed(proposal.commit)
        api.passed(proposal.commit, conclusion="failure")
    said = refused(tmp_path, server, api, proposal)
    if spoof == "a-newer-failure":
        assert "gitmem check did not pass" in said
    else:
        assert "does not show that it judged that commit" in said


def test_the_check_workflow_names_its_run_and_the_commit_it_judges() -> None:
    """What the admission reads back: the run's name and the judge step, both from the event
    by the default branch's definition, in the forms gitmem_admit looks for."""
    flow = workflow("gitmem-check.yml")
    number = "${{ github.event.pull_request.number }}"
    sha = "${{ github.event.pull_request.head.sha }}"
    assert flow["run-name"] == github_admit.check_title(number, sha)
    first = flow["jobs"]["check"]["steps"][0]
    assert first["name"] == github_admit.judge_step(number, sha)
    assert "env" not in first and "${{" not in first["run"]
    condition = " ".join(workflow("gitmem-admit.yml")["jobs"]["resolve"]["if"].split())
    assert (
        "(github.event.workflow_run.event == 'pull_request_target' && "
        "(github.event.workflow_run.path == '.github/workflows/gitmem-check.yml' || "
        "startsWith(github.event.workflow_run.path, '.github/workflows/gitmem-check.yml@')))"
    ) in condition


@pytest.mark.e2e
def test_the_rulesets_of_the_memory_branch_govern_the_admission(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path
) -> None:
    """Issue item 7: required approvals, GitHub's review decision (code owners, the last push)
    and the required checks count for an admission too."""
    dev, server, _gh = admission
    proposal = propose(dev)
    approved(api, proposal)
    api.rules = [
        {"type": "pull_request", "parameters": {"required_approving_review_count": 2}},
        {"type": "required_status_checks", "parameters": {"required_status_checks": [
            {"context": "gitmem check"}, {"context": "gitmem merge button"},
            {"context": "tests"}]}},
    ]  # fmt: skip
    main_before = tip(server, "main")
    done = admit_step(tmp_path, server, api)
    assert done.outputs["status"] == "skipped" and "1 of the 2 approvals" in done.stdout
    api.approve("bob", proposal.commit)
    api.review_decision = "REVIEW_REQUIRED"
    done = admit_step(tmp_path, server, api)
    assert done.outputs["status"] == "skipped" and "REVIEW_REQUIRED" in done.stdout
    api.review_decision = "APPROVED"
    done = admit_step(tmp_path, server, api)
    assert done.outputs["status"] == "skipped" and "'tests' has not passed" in done.stdout
    untouched(server, main_before, proposal)
    api.check_runs["tests"] = [
        {
            "id": 9,
            "head_sha": proposal.commit,
            "status": "completed",
            "conclusion": "success",
            "check_suite": {"id": 9},
        }
    ]
    done = admit_step(tmp_path, server, api)
    assert done.returncode == 0, done.stdout + done.stderr
    assert tip(server, proposal.branch) == ""


def test_the_admit_help_names_the_variables_the_step_reads(tmp_path: Path) -> None:
    """`gitmem github admit --help` said the push token came from GITMEM_PUSH_TOKEN, which
    nothing reads: a person wiring the step by hand set it and the push had no token."""
    result = run(tmp_path, "github", "admit", "--help")
    assert result.exit_code == 0, result.output
    shown = " ".join(result.output.split())
    for variable in step("gitmem-admit.yml", "Admit the candidate")["env"]:
        if variable.endswith("TOKEN"):
            assert variable in shown, variable
    assert "GITMEM_PUSH_TOKEN" not in shown


#: The permission of a job's token each API call the admission makes needs, as GitHub's REST
#: reference lists it under "Fine-grained access tokens" for the endpoint (any one of a set
#: will do; `metadata` is given to every token that has any permission).
API_PERMISSIONS = [
    (r"GET /repos/[^/]+/[^/]+/pulls(/\d+(/reviews|/commits)?)?", {"pull-requests"}),
    (r"POST /graphql", {"pull-requests"}),  # pullRequest { reviewDecision }
    (r"GET /repos/[^/]+/[^/]+/issues/\d+/events", {"issues", "pull-requests"}),
    (r"GET /repos/[^/]+/[^/]+/activity", {"metadata"}),
    (r"GET /repos/[^/]+/[^/]+/collaborators/[^/]+/permission", {"metadata"}),
    (r"GET /repos/[^/]+/[^/]+/rules/branches/.+", {"metadata"}),
    (r"GET /repos/[^/]+/[^/]+/commits/[0-9a-f]{40}/check-runs", {"checks"}),
    (r"GET /repos/[^/]+/[^/]+/commits/[0-9a-f]{40}/status", {"statuses"}),
    (r"GET /repos/[^/]+/[^/]+/actions/(workflows/[^/]+/runs|runs/\d+/jobs)", {"actions"}),
]


def uncovered(requests: list[tuple[str, str]], permissions: dict[str, str]) -> list[str]:
    """The calls among requests that a token of these permissions may not make."""
    held = {"metadata", *permissions}
    missing = []
    for method, path in requests:
        call = f"{method} {path}"
        needs = [need for pattern, need in API_PERMISSIONS if re.fullmatch(pattern, call)]
        assert needs, f"{call}: add the permission it needs to API_PERMISSIONS"
        if not needs[0] & held:
            missing.append(f"{call} needs {' or '.join(sorted(needs[0]))}")
    return missing


@pytest.mark.e2e
def test_each_admit_job_may_read_everything_its_step_reads(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path
) -> None:
    """A required check that an outside CI reports as a commit status is read from the
    combined status, which a token reads only with `statuses: read`. The admit job did not ask
    for it: on a private repository GitHub answered 403 there, and every admission under such
    a ruleset was refused as "GitHub's API could not be read"."""
    dev, server, _gh = admission
    proposal = propose(dev)
    approved(api, proposal)
    api.pr["labels"] = [{"name": "gitmem:admit"}]  # read back from the issue's events
    api.events = [{"event": "labeled", "label": {"name": "gitmem:admit"},
                   "actor": {"login": "alice"}, "created_at": "2026-11-29T12:00:00Z"}]  # fmt: skip
    api.rules = [
        {"type": "pull_request", "parameters": {"required_approving_review_count": 1}},
        {"type": "required_status_checks", "parameters": {"required_status_checks": [
            {"context": "gitmem check"}, {"context": "ci/jenkins"}]}},
    ]  # fmt: skip
    api.statuses[proposal.commit] = [{"context": "ci/jenkins", "state": "success"}]
    runner = Runner(tmp_path, clone(server, tmp_path / "runner"))
    runner_env(runner, api, "workflow_run", review_event(proposal.branch))
    jobs = workflow("gitmem-admit.yml")["jobs"]
    resolved = runner.run("gitmem-admit.yml", "Name the pull request", {"GITHUB_TOKEN": "ghs_r"})
    assert resolved.returncode == 0 and runner.outputs()["pull-request"] == str(NUMBER)
    assert uncovered(api.requests, jobs["resolve"]["permissions"]) == []
    api.requests.clear()
    env = {"GITHUB_TOKEN": "ghs_r", "GITMEM_GIT_TOKEN": "ghs_a", "PULL_REQUEST": str(NUMBER)}
    done = runner.run("gitmem-admit.yml", "Admit the candidate", env)
    assert done.returncode == 0 and runner.outputs()["status"] == "admitted", done.stdout
    assert any(path.endswith("/status") for _method, path in api.requests)
    assert uncovered(api.requests, jobs["admit"]["permissions"]) == []


@pytest.mark.parametrize("branch", ["memory#2", "memory%41", "team/memory"])
def test_the_rulesets_are_read_for_the_memory_branch_by_its_whole_name(
    api: FakeGitHub, branch: str
) -> None:
    """The memory branch went into the rulesets' URL as it is: a `#` (legal in a branch name)
    began a fragment, so `memory#2` was asked for as `memory`, whose rulesets (none, or other
    ones) then governed the admission; a `%` was read as an escape."""
    api_ = Api(api.url, "acme/shop", "ghs_read-only")
    github_admit._rules(api_, branch)
    (path,) = [path for _method, path in api.requests if "/rules/branches/" in path]
    assert urllib.parse.unquote(path) == f"/repos/acme/shop/rules/branches/{branch}"


ACTIONS_APP = 15368  # GitHub Actions' app id, as a ruleset names a check's source


@pytest.mark.e2e
def test_a_required_check_counts_only_from_the_source_the_ruleset_names(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path
) -> None:
    """A ruleset may name where a required check must come from (integration_id); GitHub then
    ignores a commit status or a check run of that name from anyone else. The admission, which
    pushes past the ruleset, took any of them: the candidate's author, who may post a commit
    status on their own commit, could stand in for a check that never ran on it."""
    dev, server, _gh = admission
    proposal = propose(dev)
    approved(api, proposal)
    api.rules = [
        {"type": "required_status_checks", "parameters": {"required_status_checks": [
            {"context": "tests", "integration_id": ACTIONS_APP}]}},
    ]  # fmt: skip
    api.statuses[proposal.commit] = [
        {"context": "tests", "state": "success", "creator": {"login": "carol"}}
    ]
    main_before = tip(server, "main")
    done = admit_step(tmp_path, server, api)
    untouched(server, main_before, proposal)
    assert done.returncode == 0 and done.outputs["status"] == "skipped", done.stdout
    assert "'tests' has not passed" in done.stdout
    run = {"head_sha": proposal.commit, "status": "completed", "conclusion": "success"}
    api.check_runs["tests"] = [{**run, "id": 9, "app": {"id": 999}, "check_suite": {"id": 9}}]
    done = admit_step(tmp_path, server, api)
    untouched(server, main_before, proposal)
    assert done.outputs["status"] == "skipped" and "'tests' has not passed" in done.stdout
    api.check_runs["tests"].append(
        {**run, "id": 10, "app": {"id": ACTIONS_APP}, "check_suite": {"id": 10}}
    )
    done = admit_step(tmp_path, server, api)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.outputs["status"] == "admitted"


@pytest.mark.e2e
def test_a_failed_required_check_beyond_the_first_page_is_seen(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path
) -> None:
    """The check runs of a required check were read with one call, and GitHub answers 30 a
    page unless asked: a commit with more runs of that name (one per check suite: workflows,
    apps, re-runs) had those beyond the first page ignored, and a failed run there did not
    stop the admission."""
    dev, server, _gh = admission
    proposal = propose(dev)
    approved(api, proposal)
    api.rules = [
        {"type": "required_status_checks", "parameters": {"required_status_checks": [
            {"context": "tests"}]}},
    ]  # fmt: skip
    run = {"head_sha": proposal.commit, "status": "completed", "name": "tests"}
    api.check_runs["tests"] = [
        {**run, "id": 100 + n, "conclusion": "success", "check_suite": {"id": 100 + n}}
        for n in range(30)
    ]
    api.check_runs["tests"].append(
        {**run, "id": 200, "conclusion": "failure", "check_suite": {"id": 200}}
    )
    main_before = tip(server, "main")
    done = admit_step(tmp_path, server, api)
    untouched(server, main_before, proposal)
    assert done.outputs["status"] == "skipped", done.stdout + done.stderr
    assert "'tests' has not passed" in done.stdout


def push_commit(dev: Path, branch: str, path: Path, body: str, message: str) -> str:
    git(dev, "checkout", "-q", branch)
    path.write_text(body)
    git(dev, "commit", "-q", "-am", message)
    git(dev, "push", "-q", "--no-verify", "origin", branch)
    git(dev, "checkout", "-q", "main")
    return tip(dev, branch)


@pytest.mark.e2e
def test_a_token_in_an_earlier_commit_refuses_the_admission(
    memory: Path, api: FakeGitHub, tmp_path: Path
) -> None:
    """Issue item 3: every commit is judged; a token added in commit 1 and removed in commit
    2 never becomes part of main's history."""
    server = bare(tmp_path, hooks=False)  # GitHub runs no server hook
    connect(memory, server)
    dev = memory
    proposal = propose(dev)
    path = dev / ".gitmem" / "candidates" / f"{proposal.id}.md"
    clean = git(dev, "show", f"{proposal.commit}:.gitmem/candidates/{proposal.id}.md")
    leaky = clean.replace("Read objects with pygit2.", f"Read objects; token {TOKEN}.")
    push_commit(dev, proposal.branch, path, leaky, "with a token")
    head = push_commit(dev, proposal.branch, path, clean, "token removed")
    api.candidate(NUMBER, proposal.branch, head)
    api.approve("alice", head)
    main_before = tip(server, "main")
    done = admit_step(tmp_path, server, api)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "SECRET" in comment(done) and TOKEN not in comment(done)
    assert tip(server, "main") == main_before


#: The longest comment GitHub takes: a longer body is refused ("Body is too long (maximum is
#: 65536 characters)"), and the report job failed without telling the pull request anything.
COMMENT_MAX = 65536


@pytest.mark.e2e
def test_a_refusal_of_thousands_of_findings_still_fits_in_a_comment(
    memory: Path, api: FakeGitHub, tmp_path: Path
) -> None:
    """Every finding of every commit went into the refusal comment: a candidate that breaks a
    rule a thousand times (here: a token on each line) made a comment GitHub refuses, so the
    report job failed and the pull request was never told why it was not admitted."""
    server = bare(tmp_path, hooks=False)
    connect(memory, server)
    dev = memory
    proposal = propose(dev)
    path = dev / ".gitmem" / "candidates" / f"{proposal.id}.md"
    clean = git(dev, "show", f"{proposal.commit}:.gitmem/candidates/{proposal.id}.md")
    tokens = "\n".join(f"token {github_token(n)}" for n in range(1300))
    leaky = clean.replace("Read objects with pygit2.", f"Read objects.\n\n{tokens}\n")
    head = push_commit(dev, proposal.branch, path, leaky, "tokens")
    api.candidate(NUMBER, proposal.branch, head)
    api.approve("alice", head)
    done = admit_step(tmp_path, server, api)
    assert done.returncode == 1, done.stdout + done.stderr
    body = comment(done)
    assert len(body) <= COMMENT_MAX, len(body)
    assert "SECRET" in body and github_token(0) not in body
    assert re.search(r"\d+ more", body), body[-500:]
    assert body.rstrip().endswith("--reason …`.")  # the comment's end is still there
    assert done.stdout.count(" SECRET ") >= 1300  # the job's log lists every finding


#: The longest value one environment variable may hold on Linux (MAX_ARG_STRLEN, 32 pages):
#: the report step is given the comment as $COMMENT, and a longer one stops the step from
#: starting at all ("Argument list too long").
ENV_VALUE_MAX = 32 * 4096


def test_a_refusal_in_letters_beyond_ascii_still_fits(tmp_path: Path) -> None:
    """The refusal's details were cut to 50,000 characters, but the report step receives the
    comment as an environment variable, which Linux measures in bytes: 50,000 characters of
    file names in, say, Chinese are 150,000 bytes, and the step could not start."""
    details = "\n".join(f".gitmem/candidates/{'界' * 200}-{n}.md: SECRET" for n in range(3000))
    body = github_admit._refused(NUMBER, "gitmem check found problems:", details).comment
    assert len(body) <= COMMENT_MAX
    assert len(f"COMMENT={body}".encode()) < ENV_VALUE_MAX, len(body.encode())
    assert re.search(r"\d+ more line", body)


@pytest.mark.e2e
def test_a_branch_of_several_commits_is_admitted_as_one_recreated_commit(
    memory: Path, api: FakeGitHub, tmp_path: Path
) -> None:
    """Issue item 3: the reviewed file enters main, the branch's commits do not; the pull
    request is told it shows as closed."""
    server = bare(tmp_path, hooks=True)
    connect(memory, server)
    dev = memory
    proposal = propose(dev)
    path = dev / ".gitmem" / "candidates" / f"{proposal.id}.md"
    draft = git(dev, "show", f"{proposal.commit}:.gitmem/candidates/{proposal.id}.md")
    head = push_commit(
        dev,
        proposal.branch,
        path,
        draft.replace("Read objects with pygit2.", "Read objects with pygit2, once."),
        "second thoughts",
    )
    api.candidate(NUMBER, proposal.branch, head)
    api.approve("alice", head)
    done = admit_step(tmp_path, server, api)
    assert done.returncode == 0, done.stdout + done.stderr
    main = tip(server, "main")
    second = git(server, "rev-parse", f"{main}^2").strip()
    assert second not in (head, proposal.commit)
    for commit in (head, proposal.commit):
        merged = git(server, "merge-base", "--is-ancestor", commit, main, check=False)
        assert (
            subprocess.run(
                ["git", "merge-base", "--is-ancestor", commit, main], cwd=server
            ).returncode
            == 1
        ), merged
    assert (
        git(server, "rev-parse", f"{second}^").strip()
        == git(server, "rev-parse", f"{main}^1").strip()
    )
    entry = git(server, "show", f"{main}:.gitmem/entries/decision/{proposal.id}.md")
    assert "Read objects with pygit2, once." in entry
    assert git(server, "diff-tree", "--no-commit-id", "--name-only", "-r", second).split() == [
        f".gitmem/candidates/{proposal.id}.md"
    ]
    assert "shows as closed, not merged" in comment(done)
    assert tip(server, proposal.branch) == ""


@pytest.mark.e2e
def test_admissions_racing_for_main_both_land(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path
) -> None:
    dev, server, _gh = admission
    proposal = propose(dev)
    approved(api, proposal)
    other = clone(server, tmp_path / "other")
    (other / "NOTES.md").write_text("notes\n")
    git(other, "add", "NOTES.md")
    git(other, "commit", "-q", "-m", "notes")
    checkout = tmp_path / "runner-race"
    runner = Runner(tmp_path, clone(server, checkout))
    runner_env(runner, api, "workflow_run", review_event(proposal.branch))
    hook = checkout / ".git" / "hooks" / "pre-push"
    once = tmp_path / "raced"
    hook.write_text(
        "#!/bin/sh\n"
        f'[ -e "{once}" ] && exit 0\n'
        f'touch "{once}"\n'
        "unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_PREFIX\n"
        f'git -C "{other}" push -q origin main\n'
    )
    hook.chmod(0o755)
    env = {
        "GITHUB_TOKEN": "ghs_read-only",
        "GITMEM_GIT_TOKEN": "ghs_admission",
        "PULL_REQUEST": str(NUMBER),
    }
    done = runner.run("gitmem-admit.yml", "Admit the candidate", env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert once.exists()
    assert git(server, "rev-parse", "main^1").strip() == tip(other, "main")
    assert git(server, "rev-parse", "main^2").strip() == proposal.commit


@pytest.mark.e2e
def test_when_the_api_cannot_be_read_nothing_is_admitted(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path
) -> None:
    dev, server, _gh = admission
    proposal = propose(dev)
    approved(api, proposal)
    api.fail.add("/permission")
    main_before = tip(server, "main")
    done = admit_step(tmp_path, server, api)
    assert done.returncode == 1
    assert "could not be read" in comment(done) and "HTTP 500" in comment(done)
    untouched(server, main_before, proposal)


@pytest.mark.e2e
def test_a_run_of_another_branch_or_a_fork_is_nothing_to_do(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path
) -> None:
    dev, server, _gh = admission
    proposal = propose(dev)
    approved(api, proposal)
    fork = review_event(proposal.branch)
    fork["workflow_run"]["head_repository"]["full_name"] = "mallory/shop"
    done = admit_step(tmp_path, server, api, fork)
    assert done.returncode == 0 and done.outputs == {"pull-request": ""}  # admit never runs
    assert api.requests == []  # not even the API was asked
    api.pr["head"]["repo"]["full_name"] = "mallory/shop"  # a fork's pull request by number
    event = {"inputs": {"pull-request": str(NUMBER)}}
    done = admit_step(tmp_path, server, api, event, "workflow_dispatch")
    assert done.returncode == 0 and "comes from a fork" in done.stdout
    assert tip(server, proposal.branch) == proposal.commit


def test_a_refusal_comment_keeps_foreign_text_inside_its_code_block(
    memory: Path, api: FakeGitHub, tmp_path: Path
) -> None:
    """Issue item 10: a carriage return or a fence in a file name that gitmem quotes cannot
    end the block: no mention, link or heading of it renders."""
    server = bare(tmp_path, hooks=False)  # GitHub runs no server hook
    connect(memory, server)
    dev = memory
    proposal = propose(dev)
    git(dev, "checkout", "-q", proposal.branch)
    hostile = "notes\r```\r@acme-everyone [click](https:evil.example) # Admitted"
    (dev / hostile).write_text("x\n")
    git(dev, "add", "-A")
    git(dev, "commit", "-q", "-m", "a stray file")
    git(dev, "push", "-q", "--no-verify", "origin", proposal.branch)
    git(dev, "checkout", "-q", "main")
    head = tip(dev, proposal.branch)
    api.candidate(NUMBER, proposal.branch, head)
    api.approve("alice", head)
    done = admit_step(tmp_path, server, api)
    assert done.returncode == 1, done.stdout + done.stderr
    body = comment(done)
    assert "\r" not in body
    assert "@acme-everyone" in body
    outside = rendered_outside_code(body)
    assert "@acme" not in outside and "https:evil" not in outside and "# Admitted" not in outside


def rendered_outside_code(markdown: str) -> str:
    """The text of markdown outside fenced blocks and code spans (CommonMark's rules for a
    fence: it closes only on a line of at least as many of its backticks)."""
    out, fence = [], ""
    for line in markdown.split("\n"):
        stripped = line.lstrip(" ")
        run = len(stripped) - len(stripped.lstrip("`"))
        if fence:
            if run >= len(fence) and not stripped[run:].strip():
                fence = ""
            continue
        if run >= 3:
            fence = "`" * run
            continue
        out.append(re.sub(r"(`+)(?:(?!\1).)+?\1", "", line))
    return "\n".join(out)


# -- check ------------------------------------------------------------------------------------


@pytest.fixture
def forge_remote(memory: Path, tmp_path: Path) -> tuple[Path, Path]:
    """GitHub runs no server hooks: a bare remote without any."""
    server = bare(tmp_path, hooks=False)
    connect(memory, server)
    return memory, server


def pull_request_checkout(tmp_path: Path, server: Path, dev: Path, branch: str) -> Runner:
    """What a pull_request_target job has: the default branch checked out, and the event; the
    pull request's head is on the server as refs/pull/7/head, as GitHub keeps it."""
    sha = tip(dev, branch)
    git(dev, "push", "-q", "--no-verify", "origin", f"{sha}:refs/pull/7/head")
    runner = Runner(tmp_path, clone(server, tmp_path / "runner"))
    event = {
        "pull_request": {
            "number": 7,
            "base": {"ref": "main"},
            "head": {"ref": branch, "sha": sha, "repo": {"full_name": "acme/shop"}},
        }
    }
    runner_env(runner, FakeGitHub(), "pull_request_target", event)
    return runner


CHECK = "Check the pull request"
CHECK_ENV = {"GITMEM_GIT_TOKEN": "ghs_read-only"}


ANNOTATION = re.compile(
    r"^::(error|warning) file=(?P<file>[^,]+)(,line=(?P<line>\d+))?,"
    r"title=gitmem (?P<rule>[A-Z-]+)::(?P<message>.+)$"
)
SUMMARY = re.compile(r"^gitmem check: .+$")


def annotations(stdout: str) -> list[re.Match[str]]:
    """Every line of `--format github` output: annotations, then the one summary line."""
    lines = re.sub(r"(?ms)^::stop-commands::(\w+)$.*?^::\1::$\n?", "", stdout).splitlines()
    assert lines and SUMMARY.match(lines[-1]), stdout
    found = []
    for line in lines[:-1]:
        match = ANNOTATION.match(line)
        assert match, f"not an annotation: {line!r}"
        found.append(match)
    return found


@pytest.mark.e2e
def test_a_valid_candidate_pull_request_passes_with_a_summary(
    forge_remote: tuple[Path, Path], tmp_path: Path
) -> None:
    dev, server = forge_remote
    proposal = propose(dev)
    runner = pull_request_checkout(tmp_path, server, dev, proposal.branch)
    done = runner.run("gitmem-check.yml", CHECK, CHECK_ENV)
    assert done.returncode == 0, done.stdout + done.stderr
    assert annotations(done.stdout) == []
    assert done.stdout.splitlines()[-1] == "gitmem check: 1 commit checked, no problems"
    summary = runner.summary.read_text()
    assert summary.startswith("### gitmem check: passed\n")
    assert f"### Candidate `{proposal.id}`" in summary
    assert "**Title:** `Use pygit2 inside hooks`" in summary
    assert "**Applies when:** `writing code that runs inside a git hook`" in summary
    # the review: near-duplicates, refused topics, supersedes, the entry as it will read
    assert f"#### Review of `{proposal.id}`" in summary
    assert "#### Near-duplicates among the admitted entries" in summary
    assert "#### As it will read once admitted" in summary and "status: admitted" in summary
    assert "read the **Commits** tab" in summary
    # the same findings as SARIF, for the code scanning job
    sarif = json.loads((runner.temp / "gitmem.sarif").read_text())
    assert sarif["version"] == "2.1.0" and sarif["runs"][0]["results"] == []
    assert "gitmem.sarif" in runner.output.read_text()


def secret_candidate(dev: Path) -> Path:
    """A candidate holding a token (made by hand: gitmem propose refuses one), pushed on its
    branch; returns its file."""
    branch = f"gitmem/{ENTRY_ID}"
    git(dev, "checkout", "-q", "-b", branch)
    body = (
        "## Context\nHooks were copied by hand.\n\n"
        f"## Content\nInstall them; the token was {TOKEN}.\n\n"
        "## Evidence\nThe hooks drifted twice.\n"
    )
    candidate = dev / ".gitmem" / "candidates" / f"{ENTRY_ID}.md"
    candidate.parent.mkdir(parents=True, exist_ok=True)
    candidate.write_text(text(body))
    git(dev, "add", "-A")
    git(dev, "commit", "-q", "-m", "candidate")
    git(dev, "push", "-q", "origin", branch)
    return candidate


@pytest.mark.e2e
def test_a_candidate_with_a_secret_fails_with_annotations(
    forge_remote: tuple[Path, Path], tmp_path: Path
) -> None:
    dev, server = forge_remote
    entry_id = ENTRY_ID
    candidate = secret_candidate(dev)
    runner = pull_request_checkout(tmp_path, server, dev, f"gitmem/{entry_id}")
    done = runner.run("gitmem-check.yml", CHECK, CHECK_ENV)
    assert done.returncode == 1, done.stdout + done.stderr
    found = annotations(done.stdout)
    secret = [m for m in found if m["rule"] == "SECRET"]
    assert secret and secret[0]["file"] == f".gitmem/candidates/{entry_id}.md"
    line = candidate.read_text().splitlines().index(f"Install them; the token was {TOKEN}.") + 1
    assert secret[0]["line"] == str(line)
    assert TOKEN not in done.stdout
    summary = runner.summary.read_text()
    assert summary.startswith("### gitmem check: ")
    assert "| `SECRET` |" in summary and TOKEN not in summary


#: The most a step's job summary may hold: GitHub drops a larger one whole ("$GITHUB_STEP_SUMMARY
#: upload aborted, supports content up to a size of 1024k").
SUMMARY_MAX = 1024 * 1024


@pytest.mark.e2e
def test_a_check_of_thousands_of_findings_keeps_its_summary(
    forge_remote: tuple[Path, Path], tmp_path: Path
) -> None:
    """The check's summary had a table row for every finding of every commit: a candidate
    that breaks a rule thousands of times made it larger than GitHub keeps, so the reviewers
    lost the whole summary (the candidate as it will read, its near-duplicates) with it."""
    dev, server = forge_remote
    candidate = secret_candidate(dev)
    clean = candidate.read_text()
    for commit in range(6):
        tokens = "\n".join(f"token {github_token(commit * 2000 + n)}" for n in range(1300))
        candidate.write_text(clean.replace("## Evidence\n", f"{tokens}\n\n## Evidence\n"))
        git(dev, "commit", "-q", "-am", f"tokens {commit}")
    git(dev, "push", "-q", "origin", f"gitmem/{ENTRY_ID}")
    runner = pull_request_checkout(tmp_path, server, dev, f"gitmem/{ENTRY_ID}")
    done = runner.run("gitmem-check.yml", CHECK, CHECK_ENV)
    assert done.returncode == 1, done.stdout + done.stderr
    summary = runner.summary.read_text()
    assert len(summary.encode("utf-8")) <= SUMMARY_MAX, len(summary.encode("utf-8"))
    assert "| `SECRET` |" in summary and "### Candidate" in summary
    assert re.search(r"\d+ more finding", summary)


@pytest.mark.e2e
def test_a_pull_request_that_adds_an_entry_and_stubs_the_gates_still_fails(
    forge_remote: tuple[Path, Path], tmp_path: Path
) -> None:
    """Issue item 4: the pull request replaces both workflows with stubs; the check that
    judges it is the default branch's, which it cannot edit, and it fails."""
    dev, server = forge_remote
    github.install_workflows(dev)
    git(dev, "add", "-A")
    git(dev, "commit", "-q", "-m", "workflows")
    git(dev, "push", "-q", "origin", "main")
    git(dev, "checkout", "-q", "-b", "feature")
    for name in ("gitmem-check.yml", "gitmem-protect.yml"):
        stub = "name: stub\non: [pull_request, push]\njobs:\n  check:\n    name: gitmem check\n"
        (dev / ".github" / "workflows" / name).write_text(
            stub + "    runs-on: ubuntu-latest\n    steps:\n      - run: true\n"
        )
    entry = dev / ".gitmem" / "entries" / "method" / f"{ENTRY_ID}.md"
    entry.parent.mkdir(parents=True)
    entry.write_text(text(status="admitted", admitted_by="human:alice", admitted="2026-11-30"))
    git(dev, "add", "-A")
    git(dev, "commit", "-q", "-m", "sneak an entry in")
    git(dev, "push", "-q", "origin", "feature")
    git(dev, "checkout", "-q", "main")
    runner = pull_request_checkout(tmp_path, server, dev, "feature")
    # what runs is the step of the default branch's workflow, as checked out
    item = yaml.safe_load((runner.checkout / ".github/workflows/gitmem-check.yml").read_text())
    assert "pull_request_target" in item[True]
    done = runner.run("gitmem-check.yml", CHECK, CHECK_ENV)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "HISTORY-ADMIT" in {m["rule"] for m in annotations(done.stdout)}


def _code_pull_request(forge_remote: tuple[Path, Path], tmp_path: Path) -> Runner:
    """The runner's checkout of a pull request that changes code only (app.py on feature)."""
    dev, server = forge_remote
    git(dev, "checkout", "-q", "-b", "feature")
    (dev / "app.py").write_text("print('hello')\n")
    git(dev, "add", "app.py")
    git(dev, "commit", "-q", "-m", "code")
    git(dev, "push", "-q", "origin", "feature")
    git(dev, "checkout", "-q", "main")
    return pull_request_checkout(tmp_path, server, dev, "feature")


@pytest.mark.e2e
def test_a_code_only_pull_request_passes(forge_remote: tuple[Path, Path], tmp_path: Path) -> None:
    runner = _code_pull_request(forge_remote, tmp_path)
    done = runner.run("gitmem-check.yml", CHECK, CHECK_ENV)
    assert done.returncode == 0, done.stdout + done.stderr
    assert annotations(done.stdout) == []


#: A GitHub-hosted runner configures no git identity, and its user has no full name: git
#: stops any commit it writes with "empty ident name (for <runner@…>) not allowed", as it
#: does when the name is empty here (this suite's isolation gives every git a fixed author).
NO_IDENTITY = {
    "GIT_AUTHOR_NAME": "",
    "GIT_AUTHOR_EMAIL": "",
    "GIT_COMMITTER_NAME": "",
    "GIT_COMMITTER_EMAIL": "",
}


@pytest.mark.e2e
def test_a_code_pull_request_is_judged_on_a_runner_with_no_git_identity(
    forge_remote: tuple[Path, Path], tmp_path: Path
) -> None:
    """A pull request that is no candidate is judged as the merge it would make, which the
    step wrote with `git commit-tree`: git asks for an identity there, the runner has none,
    and the step failed on every such pull request ("git commit-tree … failed: … empty ident
    name"), so the required check `gitmem check` blocked all code changes."""
    runner = _code_pull_request(forge_remote, tmp_path)
    runner.base.update(NO_IDENTITY)
    done = runner.run("gitmem-check.yml", CHECK, CHECK_ENV)
    assert done.returncode == 0, done.stdout + done.stderr
    assert annotations(done.stdout) == []
    assert "judged as the merge of" in done.stdout


@pytest.mark.e2e
def test_the_test_merge_of_a_code_pull_request_is_never_signed(
    forge_remote: tuple[Path, Path], tmp_path: Path
) -> None:
    """The merge a code pull request is judged as is kept nowhere: where commit.gpgSign is
    set (the check run by hand, a self-hosted runner's git config), it is not signed, so a
    key that cannot sign (here, its file is missing) does not fail the check."""
    runner = _code_pull_request(forge_remote, tmp_path)
    git(runner.checkout, "config", "commit.gpgSign", "true")
    git(runner.checkout, "config", "gpg.format", "ssh")
    git(runner.checkout, "config", "user.signingKey", str(tmp_path / "no-such-key.pub"))
    done = runner.run("gitmem-check.yml", CHECK, CHECK_ENV)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "judged as the merge of" in done.stdout


@pytest.mark.e2e
def test_a_candidate_pull_request_must_target_the_memory_branch(
    forge_remote: tuple[Path, Path], tmp_path: Path
) -> None:
    """Issue item 5, at the check: a candidate aimed at another branch fails."""
    dev, server = forge_remote
    git(dev, "push", "-q", "origin", "main:loose")
    proposal = propose(dev)
    runner = pull_request_checkout(tmp_path, server, dev, proposal.branch)
    event = json.loads(Path(runner.base["GITHUB_EVENT_PATH"]).read_text())
    event["pull_request"]["base"]["ref"] = "loose"
    Path(runner.base["GITHUB_EVENT_PATH"]).write_text(json.dumps(event))
    done = runner.run("gitmem-check.yml", CHECK, CHECK_ENV)
    assert done.returncode == 1
    assert "must target the memory branch 'main', not 'loose'" in done.stdout


def test_the_merge_button_check_fails_on_every_candidate(tmp_path: Path) -> None:
    """Issue item 8: a required check that fails on gitmem/* heads keeps the button from
    merging a candidate; the admission's push bypasses it."""
    runner = Runner(tmp_path, tmp_path)
    step_name = "A candidate is admitted by approval, never merged"
    done = runner.run("gitmem-check.yml", step_name, {"HEAD_REF": "gitmem/x"})
    assert done.returncode == 1
    assert done.stdout.startswith("::error title=gitmem merge button::")
    done = runner.run("gitmem-check.yml", step_name, {"HEAD_REF": "feature"})
    assert done.returncode == 0


@pytest.mark.e2e
def test_the_check_summary_renders_nothing_a_candidate_wrote(
    forge_remote: tuple[Path, Path], tmp_path: Path
) -> None:
    """Issue item 10: links, images, mentions and HTML in title and applies_when stay text."""
    dev, server = forge_remote
    title = "Ping @acme/everyone ![x](https://evil.example/i.png) [y](https://evil.example) <b>"
    proposal = propose(
        dev, title=title, applies_when="a `tick` | and | [link](https://evil.example)"
    )
    runner = pull_request_checkout(tmp_path, server, dev, proposal.branch)
    runner.run("gitmem-check.yml", CHECK, CHECK_ENV)
    summary = runner.summary.read_text()
    assert "@acme/everyone" in summary
    outside = rendered_outside_code(summary)
    for bad in ("@acme", "https://evil", "<b>", "[y]"):
        assert bad not in outside, (bad, outside)


# -- protect ----------------------------------------------------------------------------------


def push_checkout(tmp_path: Path, server: Path) -> Runner:
    """What actions/checkout gives a push job: the pushed branch checked out."""
    return Runner(tmp_path, clone(server, tmp_path / "runner"))


PROTECT = "Check the pushed commits"


def protect_env(before: str, after: str) -> dict[str, str]:
    return {"BEFORE": before, "AFTER": after, "BRANCH": "main", "GITMEM_GIT_TOKEN": "ghs_read"}


def push_runner(tmp_path: Path, server: Path) -> Runner:
    runner = push_checkout(tmp_path, server)
    runner_env(runner, FakeGitHub(), "push", {})
    return runner


def direct_push_of_a_forged_entry(dev: Path, server: Path) -> str:
    """An entry claiming admission pushed straight to main (no admit merge); returns main's
    tip on the server before it."""
    before = tip(server, "main")
    entry = dev / ".gitmem" / "entries" / "method" / f"{ENTRY_ID}.md"
    entry.parent.mkdir(parents=True)
    entry.write_text(text(status="admitted", admitted_by="human:alice", admitted="2026-11-30"))
    git(dev, "add", "-A")
    git(dev, "commit", "-q", "-m", "a direct push")
    git(dev, "push", "-q", "origin", "main")
    return before


@pytest.mark.e2e
def test_a_direct_push_that_bypasses_the_flow_fails_loudly(
    forge_remote: tuple[Path, Path], tmp_path: Path
) -> None:
    dev, server = forge_remote
    before = direct_push_of_a_forged_entry(dev, server)
    runner = push_runner(tmp_path, server)
    done = runner.run("gitmem-protect.yml", PROTECT, protect_env(before, tip(server, "main")))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "HISTORY-ADMIT" in {m["rule"] for m in annotations(done.stdout)}
    summary = runner.summary.read_text()
    assert summary.startswith("### gitmem protect: this push to `main` breaks gitmem's rules")
    assert "HISTORY-ADMIT" in summary
    # the summary's text is what `gitmem check` prints of that range
    span = f"{before}..origin/main"
    text = subprocess.run(
        [sys.executable, "-m", "gitmem", "check", "--range", span],
        cwd=runner.checkout, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert text.returncode == 1 and "HISTORY-ADMIT" in text.stdout
    assert block(text.stdout.rstrip("\n")) in summary


@pytest.mark.e2e
def test_protect_judges_a_push_once_and_fails_when_the_check_cannot_run(
    forge_remote: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The annotations and the summary's text are renderings of one run of the installed
    gitmem's check (each ran it again); a check that cannot run at all (here the installed
    gitmem is given an option it does not know) fails the step with what it said."""
    dev, server = forge_remote
    before = direct_push_of_a_forged_entry(dev, server)
    after = tip(server, "main")
    checkout = push_checkout(tmp_path, server).checkout
    real = github_check.installed_gitmem
    runs: list[tuple[str, ...]] = []

    def counted(ws: Any, *args: str, **kw: Any) -> subprocess.CompletedProcess[str]:
        runs.append(args)
        return real(ws, *args, **kw)

    monkeypatch.setattr(github_check, "installed_gitmem", counted)
    for warn in (False, True):
        runs.clear()
        found = github_check.check_push(open_workspace(checkout), before, after, "main", warn=warn)
        assert found.exit_code == (0 if warn else 1), found
        assert "HISTORY-ADMIT" in found.annotations and "HISTORY-ADMIT" in found.summary
        assert [args[0] for args in runs] == ["check"], runs

    def broken(ws: Any, *args: str, **kw: Any) -> subprocess.CompletedProcess[str]:
        return real(ws, *args, "--no-such-option", **kw)

    monkeypatch.setattr(github_check, "installed_gitmem", broken)
    failed = github_check.check_push(open_workspace(checkout), before, after, "main", warn=True)
    assert failed.exit_code == 1, failed
    assert failed.annotations.startswith("::error title=gitmem protect::"), failed.annotations
    assert "no-such-option" in failed.annotations and "no-such-option" in failed.summary


@pytest.mark.e2e
def test_an_admission_pushed_to_main_passes(
    forge_remote: tuple[Path, Path], tmp_path: Path
) -> None:
    dev, server = forge_remote
    proposal = propose(dev)
    before = tip(server, "main")
    admitting.admit(open_workspace(dev), proposal.id, by="human:alice", push=True)
    runner = push_runner(tmp_path, server)
    done = runner.run("gitmem-protect.yml", PROTECT, protect_env(before, tip(server, "main")))
    assert done.returncode == 0, done.stdout + done.stderr
    assert annotations(done.stdout) == []
    assert not runner.summary.exists()


@pytest.mark.e2e
def test_the_first_push_of_the_branch_checks_its_files(
    forge_remote: tuple[Path, Path], tmp_path: Path
) -> None:
    _dev, server = forge_remote
    runner = push_runner(tmp_path, server)
    done = runner.run("gitmem-protect.yml", PROTECT, protect_env(ZERO, tip(server, "main")))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1].startswith("gitmem check: ")


# -- warn mode --------------------------------------------------------------------------------

WARNED = re.compile(r"^::warning title=gitmem WARN mode::(?P<message>.+)$")


def warn_annotations(stdout: str) -> tuple[list[str], list[re.Match[str]]]:
    """The warn banner's annotations, and the others (parsed as annotations() does)."""
    lines = stdout.splitlines()
    banner = [m["message"] for m in map(WARNED.match, lines) if m]
    return banner, annotations("\n".join(line for line in lines if not WARNED.match(line)))


def test_warn_mode_changes_only_the_two_steps_and_init_switches_it(repo: Path) -> None:
    for name in github.SHIPPED:
        plain, warned = github.render(name), github.render(name, warn=True)
        if name not in github.WARN_STEPS:
            assert warned == plain
            continue
        changed = [
            (a, b)
            for a, b in zip(plain.splitlines()[1:], warned.splitlines()[1:], strict=True)
            if a != b
        ]
        assert len(changed) == 1 and changed[0][1] == changed[0][0] + " --warn", changed
    assert step("gitmem-check.yml", CHECK, warn=True)["run"].rstrip().endswith(" --warn")
    assert step("gitmem-protect.yml", PROTECT, warn=True)["run"].rstrip().endswith(" --warn")
    github.install_workflows(repo, warn=True)
    check = repo / ".github/workflows/gitmem-check.yml"
    assert " github check --sarif" in check.read_text() and "--warn" in check.read_text()
    # the way back to enforce: the same command without --warn (the files are gitmem's)
    lines = github.install_workflows(repo)
    assert "updated .github/workflows/gitmem-check.yml" in lines
    assert "--warn" not in check.read_text()
    assert "unchanged .github/workflows/gitmem-admit.yml" in lines
    result = run(repo, "init", "--warn")
    assert result.exit_code == 2
    assert "gitmem hooks install --server --warn" in result.output


@pytest.mark.e2e
def feature_with_a_forged_entry(dev: Path) -> None:
    """A branch `feature`, pushed, whose commit adds an entry that no admit merge made."""
    git(dev, "checkout", "-q", "-b", "feature")
    entry = dev / ".gitmem" / "entries" / "method" / f"{ENTRY_ID}.md"
    entry.parent.mkdir(parents=True)
    entry.write_text(text(status="admitted", admitted_by="human:alice", admitted="2026-11-30"))
    git(dev, "add", "-A")
    git(dev, "commit", "-q", "-m", "an entry outside the flow")
    git(dev, "push", "-q", "--no-verify", "origin", "feature")
    git(dev, "checkout", "-q", "main")


def test_in_warn_mode_the_check_reports_a_forged_entry_and_passes(
    forge_remote: tuple[Path, Path], tmp_path: Path
) -> None:
    dev, server = forge_remote
    feature_with_a_forged_entry(dev)
    runner = pull_request_checkout(tmp_path, server, dev, "feature")
    enforced = runner.run("gitmem-check.yml", CHECK, CHECK_ENV)
    assert enforced.returncode == 1
    runner.summary.unlink()
    done = runner.run("gitmem-check.yml", CHECK, CHECK_ENV, warn=True)
    assert done.returncode == 0, done.stdout + done.stderr
    banner, found = warn_annotations(done.stdout)
    assert banner[0] == "gitmem is in WARN mode: these pushes would be REJECTED in enforce mode"
    assert "HISTORY-ADMIT" in {m["rule"] for m in found}
    assert {m["rule"] for m in found} == {m["rule"] for m in warn_annotations(enforced.stdout)[1]}
    summary = runner.summary.read_text()
    assert re.match(r"### gitmem check: \d+ problem\(s\) \(WARN mode\)\n", summary), summary
    assert "**gitmem is in WARN mode: these pushes would be REJECTED in enforce mode.**" in summary
    assert "in enforce mode the problems below would fail it" in summary
    assert "| `HISTORY-ADMIT` |" in summary
    sarif = json.loads((runner.temp / "gitmem.sarif").read_text())
    assert "HISTORY-ADMIT" in {r["ruleId"] for r in sarif["runs"][0]["results"]}


@pytest.mark.e2e
def test_in_warn_mode_the_check_still_fails_a_secret(
    forge_remote: tuple[Path, Path], tmp_path: Path
) -> None:
    dev, server = forge_remote
    secret_candidate(dev)
    runner = pull_request_checkout(tmp_path, server, dev, f"gitmem/{ENTRY_ID}")
    done = runner.run("gitmem-check.yml", CHECK, CHECK_ENV, warn=True)
    assert done.returncode == 1, done.stdout + done.stderr
    banner, found = warn_annotations(done.stdout)
    assert "SECRET" in {m["rule"] for m in found} and banner
    summary = runner.summary.read_text()
    assert "But a secret fails it in every mode" in summary and TOKEN not in summary


@pytest.mark.e2e
def test_in_warn_mode_protect_reports_a_direct_push_and_passes(
    forge_remote: tuple[Path, Path], tmp_path: Path
) -> None:
    dev, server = forge_remote
    before = direct_push_of_a_forged_entry(dev, server)
    runner = push_runner(tmp_path, server)
    env = protect_env(before, tip(server, "main"))
    done = runner.run("gitmem-protect.yml", PROTECT, env, warn=True)
    assert done.returncode == 0, done.stdout + done.stderr
    banner, found = warn_annotations(done.stdout)
    assert banner and "HISTORY-ADMIT" in {m["rule"] for m in found}
    summary = runner.summary.read_text()
    assert summary.startswith(
        "### gitmem protect: this push to `main` breaks gitmem's rules (WARN mode)\n"
    )
    assert "these pushes would be REJECTED in enforce mode" in summary
    assert "HISTORY-ADMIT" in summary
    runner.summary.unlink()
    assert runner.run("gitmem-protect.yml", PROTECT, env).returncode == 1  # enforce mode


@pytest.mark.e2e
def test_in_warn_mode_a_clean_push_says_so_and_writes_no_summary(
    forge_remote: tuple[Path, Path], tmp_path: Path
) -> None:
    dev, server = forge_remote
    proposal = propose(dev)
    before = tip(server, "main")
    admitting.admit(open_workspace(dev), proposal.id, by="human:alice", push=True)
    runner = push_runner(tmp_path, server)
    env = protect_env(before, tip(server, "main"))
    done = runner.run("gitmem-protect.yml", PROTECT, env, warn=True)
    assert done.returncode == 0, done.stdout + done.stderr
    banner, found = warn_annotations(done.stdout)
    assert banner == ["gitmem is in WARN mode: nothing here would be rejected in enforce mode"]
    assert found == [] and not runner.summary.exists()


@pytest.mark.parametrize(
    "step",
    [["protect", "--before", "{before}", "--after", "{after}", "--branch", "main"], ["check"]],
)
def test_a_step_run_outside_a_workflow_is_refused_and_moves_nothing(
    memory: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: list[str]
) -> None:
    """`gitmem github protect` run by hand in a developer's clone, with an event file at hand,
    detached HEAD and set main back to --before (the runner's throwaway checkout is what it
    expects); `github check` set origin's HEAD. Outside GitHub Actions both are refused."""
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"repository": {"default_branch": "main"}}))
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    monkeypatch.setenv("GITHUB_EVENT_NAME", "push")
    monkeypatch.setenv("GITHUB_EVENT_PATH", str(event))
    refs_before = git(memory, "for-each-ref")
    before, after = git(memory, "rev-parse", "main~1", "main").split()
    args = [a.format(before=before, after=after) for a in step]
    result = run(memory, "github", *args)
    assert result.exit_code == 2, result.output
    assert "run only in a GitHub Actions workflow (GITHUB_ACTIONS=true)" in result.output
    assert git(memory, "for-each-ref") == refs_before
    assert git(memory, "symbolic-ref", "--short", "HEAD").strip() == "main"


@pytest.mark.parametrize("unset", ["GITHUB_EVENT_NAME", "GITHUB_EVENT_PATH"])
def test_a_step_names_the_one_event_variable_that_is_not_set(
    memory: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unset: str
) -> None:
    """With one of the two set, the step said both were not set, sending the person to
    check a variable that was fine."""
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"repository": {"default_branch": "main"}}))
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_EVENT_NAME", "pull_request_target")
    monkeypatch.setenv("GITHUB_EVENT_PATH", str(event))
    monkeypatch.setenv(unset, "")
    result = run(memory, "github", "check")
    assert result.exit_code == 2, result.output
    assert f"gitmem: {unset} is not set" in result.output
    assert " and " not in result.output.splitlines()[0]


@pytest.mark.parametrize("repository", [None, "", "shop"])
def test_admit_without_the_workflow_s_repository_is_a_usage_error(
    memory: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, repository: str | None
) -> None:
    """GITHUB_REPOSITORY not set (or not owner/name) is a step run outside a workflow, as an
    event variable not set is (exit 2): it exited 1, which the workflow reads as a pull
    request refused."""
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"number": 1}}))
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_EVENT_NAME", "pull_request_target")
    monkeypatch.setenv("GITHUB_EVENT_PATH", str(event))
    if repository is None:
        monkeypatch.delenv("GITHUB_REPOSITORY", raising=False)
    else:
        monkeypatch.setenv("GITHUB_REPOSITORY", repository)
    refs = git(memory, "for-each-ref")
    done = run_gitmem(memory, "github", "admit")
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        "gitmem: GITHUB_REPOSITORY is not set to owner/name: run inside GitHub Actions\n"
    )
    assert git(memory, "for-each-ref") == refs


@pytest.mark.parametrize("repository", ["acme/shop", ["acme"], 7])
def test_an_event_whose_repository_is_no_object_names_no_default_branch(
    memory: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, repository: object
) -> None:
    """`repository` as a string (or a list, a number) in the event file failed as an
    unexpected error (exit 3, AttributeError); it names no default branch, and the step goes
    on to say what the event lacks."""
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"repository": repository}))
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_EVENT_NAME", "pull_request_target")
    monkeypatch.setenv("GITHUB_EVENT_PATH", str(event))
    result = run(memory, "github", "check")
    assert result.exit_code == 1, result.output
    assert "the event names no pull request" in result.output


@pytest.mark.parametrize(
    "run_", ["gitmem/x", ["gitmem/x"], {"head_branch": 7}, {"head_branch": ["gitmem/x"]}]
)
def test_admit_on_a_workflow_run_event_of_the_wrong_shape_has_nothing_to_do(
    memory: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_: object
) -> None:
    """`workflow_run` as no object, or a `head_branch` that is no string, failed as an
    unexpected error (exit 3, AttributeError on str.get or int.startswith); such an event names
    no candidate's pull request, so there is nothing to do."""
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"workflow_run": run_}))
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_EVENT_NAME", "workflow_run")
    monkeypatch.setenv("GITHUB_EVENT_PATH", str(event))
    monkeypatch.setenv("GITHUB_REPOSITORY", "acme/shop")
    result = run(memory, "github", "admit")
    assert result.exit_code == 0, result.output
    assert "names no open gitmem/<id> pull request" in result.output


def test_check_says_so_when_it_cannot_write_the_sarif_file(
    memory: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--sarif naming a file in a folder that does not exist ended the step with an
    unexpected error (exit 3, FileNotFoundError) after the verdict was printed."""
    from gitmem.hooks import github_check

    event = tmp_path / "event.json"
    event.write_text(json.dumps({"repository": {"default_branch": "main"}}))
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_EVENT_NAME", "pull_request_target")
    monkeypatch.setenv("GITHUB_EVENT_PATH", str(event))
    verdict = github_check.Verdict(0, "", "", sarif='{"version": "2.1.0"}')
    monkeypatch.setattr(github_check, "check_pull_request", lambda *_a, **_k: verdict)
    target = tmp_path / "missing" / "gitmem.sarif"
    result = run(memory, "github", "check", "--sarif", str(target))
    assert result.exit_code == 2, result.output
    assert "cannot write the SARIF file" in result.output


@pytest.mark.parametrize("ids", [("x", "f" * 40), ("0" * 40, ""), ("0" * 40, "HEAD")])
def test_protect_refuses_what_is_no_commit_id(
    memory: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ids: tuple[str, str]
) -> None:
    """--before x was told "the previous tip x of main is gone: history was rewritten",
    blaming the push for a workflow's mistake; --after '' or HEAD went on to judge."""
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"repository": {"default_branch": "main"}}))
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_EVENT_NAME", "push")
    monkeypatch.setenv("GITHUB_EVENT_PATH", str(event))
    before, after = ids
    refs = git(memory, "for-each-ref")
    result = run(
        memory, "github", "protect", "--before", before, "--after", after, "--branch", "main"
    )
    assert result.exit_code == 2, result.output
    assert "is not a full commit id (40 or 64 hex digits)" in result.output
    assert git(memory, "for-each-ref") == refs


# -- attacks on the admission, each as a writer or an author would try it ------------------------


def hookless(memory: Path, tmp_path: Path) -> Path:
    """A remote with no server hook, as GitHub is: only the admit job stands in the way."""
    server = bare(tmp_path, hooks=False)
    connect(memory, server)
    return server


@pytest.mark.parametrize("log", ["no-actor", "renamed"])
@pytest.mark.e2e
def test_a_push_the_activity_log_does_not_name_admits_nothing(
    memory: Path, api: FakeGitHub, tmp_path: Path, log: str
) -> None:
    """Mallory, a writer, keeps her name off the candidate: commits under an e-mail address
    GitHub ties to no account, pushed by a deploy key (the activity log names no actor) or to
    a branch she then renamed to gitmem/<id> (the log holds her pushes under the old name
    only), the pull request opened by a second account; then she approves it herself."""
    server = hookless(memory, tmp_path)
    proposal = propose(memory)
    api.candidate(NUMBER, proposal.branch, proposal.commit, opener="sock-puppet")
    api.commits[0]["author"] = api.commits[0]["committer"] = None
    if log == "no-actor":
        api.activity[0]["actor"] = None
    else:
        api.activity[0]["ref"] = "refs/heads/scratch"
        api.activity[0]["actor"] = {"login": "mallory"}
    api.approve("mallory", proposal.commit)
    main_before = tip(server, "main")
    done = admit_step(tmp_path, server, api)
    untouched(server, main_before, proposal)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "who pushed" in comment(done)


@pytest.mark.parametrize("beyond", ["reviews", "pushes", "commits"])
@pytest.mark.e2e
def test_what_forbids_the_admission_is_read_on_every_page(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path, beyond: str
) -> None:
    """A pull request of more than a hundred reviews, pushes or commits: what forbids the
    admission (a request for changes, the approver's own push or commit) is on the last page
    GitHub answers, and is read there."""
    dev, server, _gh = admission
    proposal = propose(dev)
    approved(api, proposal, reviewer="mallory")
    if beyond == "reviews":
        api.reviews += [
            {"id": 10 + n, "user": {"login": f"passer-{n}", "type": "User"}, "state": "COMMENTED",
             "commit_id": proposal.commit, "submitted_at": "2026-11-29T12:30:00Z"}
            for n in range(150)
        ]  # fmt: skip
        api.approve("bob", proposal.commit, state="CHANGES_REQUESTED")
        reason = "`bob` requested changes"
    elif beyond == "pushes":
        ref = f"refs/heads/{proposal.branch}"
        api.activity += [
            {"actor": {"login": "carol"}, "activity_type": "push", "ref": ref,
             "timestamp": "2026-11-29T09:00:00Z", "after": "e" * 40}
            for _ in range(150)
        ] + [{"actor": {"login": "mallory"}, "activity_type": "push", "ref": ref,
              "timestamp": "2026-11-29T08:00:00Z", "after": "e" * 40}]  # fmt: skip
        reason = "pushed to the candidate branch"
    else:
        filler = {"sha": "e" * 40, "author": {"login": "carol"}, "committer": {"login": "carol"}}
        mallorys = {"sha": "f" * 40, "author": {"login": "mallory"}, "committer": None}
        api.commits = [filler] * 150 + [mallorys, *api.commits]
        reason = "wrote or committed one of its commits"
    assert reason in refused(tmp_path, server, api, proposal)


@pytest.mark.parametrize(
    "call",
    ["/reviews", "/activity", "/pulls/7/commits", "/permission", "/rules/branches/",
     "/graphql", "/workflows/gitmem-check.yml/runs", "/jobs", "/check-runs", "/status"],
)  # fmt: skip
@pytest.mark.e2e
def test_any_call_the_api_refuses_admits_nothing(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path, call: str
) -> None:
    """Every read that decides, refused by GitHub (an error; the rate limit used up, on every
    second one), leaves main and the candidate as they were and says why: the job fails
    closed."""
    how = "rate-limit" if call in ("/reviews", "/graphql", "/jobs", "/status") else "error"
    dev, server, _gh = admission
    proposal = propose(dev)
    approved(api, proposal)
    api.rules = [
        {"type": "pull_request", "parameters": {"required_approving_review_count": 1}},
        {"type": "required_status_checks", "parameters": {"required_status_checks": [
            {"context": "ci/build"}]}},
    ]  # fmt: skip
    api.statuses[proposal.commit] = [{"context": "ci/build", "state": "success"}]
    (api.fail if how == "error" else api.limited).add(call)
    said = refused(tmp_path, server, api, proposal)
    assert "could not be read" in said or "could not judge" in said, said
    if how == "rate-limit":
        assert "rate limit is used up" in said, said


#: A file name that, printed as it is, would be workflow commands: a mask, an output, an error.
COMMANDS = "x\n::add-mask::ghs_admission\n::set-output name=status::admitted %0A::error::forged"


def own_commands(stdout: str) -> list[str]:
    """The lines of a step's log that the runner takes for workflow commands (those inside a
    stop-commands block are text)."""
    outside = re.sub(r"(?ms)^::stop-commands::(\w+)$.*?^::\1::$\n?", "", stdout)
    return [line for line in outside.splitlines() if line.startswith("::")]


@pytest.mark.e2e
def test_workflow_command_text_in_a_candidate_stays_text_in_every_log(
    forge_remote: tuple[Path, Path], api: FakeGitHub, tmp_path: Path
) -> None:
    """A candidate branch carrying a file whose name holds workflow commands (a line break,
    `::add-mask::`, `::set-output`, `%0A`): the check's annotations and the admission's log
    print it as data, so it masks, sets and forges nothing."""
    dev, server = forge_remote
    proposal = propose(dev)
    git(dev, "checkout", "-q", proposal.branch)
    (dev / COMMANDS).write_text("x\n")
    git(dev, "add", "-A")
    git(dev, "commit", "-q", "-m", "::set-output name=status::admitted")
    git(dev, "push", "-q", "--no-verify", "origin", proposal.branch)
    git(dev, "checkout", "-q", "main")
    head = tip(dev, proposal.branch)
    runner = pull_request_checkout(tmp_path, server, dev, proposal.branch)
    checked = runner.run("gitmem-check.yml", CHECK, CHECK_ENV)
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert [m.group("rule") for m in annotations(checked.stdout)]  # each line an annotation
    api.candidate(NUMBER, proposal.branch, head)
    api.approve("alice", head)
    done = admit_step(tmp_path, server, api)
    assert done.returncode == 1 and done.outputs["status"] == "refused", done.stdout
    assert "::add-mask::" in done.stdout  # quoted, inside a stop-commands block
    assert own_commands(done.stdout) == [
        "::error title=gitmem admit::pull request #7 was not admitted: see the comment on it "
        "and the job summary"
    ]


@pytest.mark.parametrize("beside", [".github/workflows/gitmem-admit.yml", ".gitmem.toml"])
@pytest.mark.e2e
def test_a_candidate_commit_that_also_edits_the_gate_is_refused(
    memory: Path, api: FakeGitHub, tmp_path: Path, beside: str
) -> None:
    """A branch of one commit is merged as it is: a commit that adds the candidate and, beside
    it, edits a workflow or the settings would bring that edit into main with the approval."""
    server = bare(tmp_path, hooks=False)  # GitHub runs no server hook
    connect(memory, server)
    proposal = propose(memory)
    git(memory, "checkout", "-q", proposal.branch)
    target = memory / beside
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("# mallory was here\n")
    git(memory, "add", "-A")
    git(memory, "commit", "-q", "--amend", "--no-edit")
    git(memory, "push", "-q", "--force", "--no-verify", "origin", proposal.branch)
    git(memory, "checkout", "-q", "main")
    head = tip(memory, proposal.branch)
    api.candidate(NUMBER, proposal.branch, head)
    api.approve("alice", head)
    main_before = tip(server, "main")
    done = admit_step(tmp_path, server, api)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "CANDIDATE-BRANCH" in comment(done)
    assert tip(server, "main") == main_before and tip(server, proposal.branch) == head


@pytest.mark.e2e
def test_a_candidate_on_a_branch_not_named_gitmem_is_never_admitted(
    forge_remote: tuple[Path, Path], api: FakeGitHub, tmp_path: Path
) -> None:
    """The candidate's file pushed to `notes/pygit2`: no admission names it (the admission
    takes only gitmem/<id> heads), and the check, judging it as the merge it would make,
    fails it, so the merge button cannot take it either."""
    dev, server = forge_remote
    proposal = propose(dev)
    git(dev, "push", "-q", "--no-verify", "origin", f"{proposal.commit}:refs/heads/notes/pygit2")
    api.candidate(NUMBER, "notes/pygit2", proposal.commit)
    api.approve("alice", proposal.commit)
    event = {"inputs": {"pull-request": str(NUMBER)}}
    done = admit_step(tmp_path, server, api, event, "workflow_dispatch")
    assert done.returncode == 0 and done.outputs == {"pull-request": ""}, done.stdout
    assert "not a gitmem/<id> candidate" in done.stdout
    git(dev, "branch", "-q", "notes/pygit2", proposal.commit)
    runner = pull_request_checkout(tmp_path, server, dev, "notes/pygit2")
    checked = runner.run("gitmem-check.yml", CHECK, CHECK_ENV)
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert "HISTORY-CANDIDATE" in {m.group("rule") for m in annotations(checked.stdout)}
    assert tip(server, "main") == tip(dev, "main")


@pytest.mark.parametrize("reviews", ["commented-after", "commented-only", "label-by-opener"])
@pytest.mark.e2e
def test_a_comment_or_the_openers_own_label_is_no_approval(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path, reviews: str
) -> None:
    """A COMMENTED review neither approves nor withdraws an approval (as GitHub counts them);
    the label added by the pull request's own opener admits nothing."""
    dev, server, _gh = admission
    proposal = propose(dev)
    api.candidate(NUMBER, proposal.branch, proposal.commit)
    if reviews == "commented-after":
        api.approve("alice", proposal.commit)
        api.approve("alice", proposal.commit, state="COMMENTED", at="2026-11-29T12:30:00Z")
        done = admit_step(tmp_path, server, api)
        assert done.returncode == 0 and done.outputs["status"] == "admitted", done.stdout
        return
    main_before = tip(server, "main")
    if reviews == "commented-only":
        api.approve("alice", proposal.commit, state="COMMENTED")
        done = admit_step(tmp_path, server, api)
        untouched(server, main_before, proposal)
        assert done.returncode == 0 and done.outputs["status"] == "skipped", done.stdout
        return
    api.pr["labels"] = [{"name": "gitmem:admit"}]
    api.events = [{"event": "labeled", "label": {"name": "gitmem:admit"},
                   "actor": {"login": "carol"}, "created_at": "2026-11-29T12:00:00Z"}]  # fmt: skip
    event = {"pull_request": {"number": NUMBER}, "label": {"name": "gitmem:admit"}}
    done = admit_step(tmp_path, server, api, event, "pull_request_target")
    untouched(server, main_before, proposal)
    assert done.returncode == 1 and "`carol` opened the pull request" in comment(done)


@pytest.mark.e2e
def test_an_approval_given_under_another_base_admits_only_once_checked_against_memory(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path
) -> None:
    """Approved while the pull request targeted `loose`, then retargeted at main: the approval
    is of the commit, but the check of that commit failed (a candidate must target the memory
    branch), so nothing is admitted until the check GitHub runs on the retargeting passes."""
    dev, server, _gh = admission
    git(dev, "push", "-q", "origin", "main:loose")
    proposal = approved_unchecked(dev, api)
    api.passed(proposal.commit, conclusion="failure")  # judged while the base was loose
    main_before = tip(server, "main")
    assert "gitmem check did not pass" in refused(tmp_path, server, api, proposal)
    api.passed(proposal.commit)  # the `edited` event's run, on the new base
    done = admit_step(tmp_path, server, api)
    assert done.returncode == 0 and done.outputs["status"] == "admitted", done.stdout
    assert tip(server, "main") != main_before


@pytest.mark.e2e
def test_a_push_by_a_bot_admits_nothing(
    forge_remote: tuple[Path, Path], api: FakeGitHub, tmp_path: Path
) -> None:
    """Any writer can have github-actions[bot] push for her: a workflow of her own branch,
    run on its push, asks for `contents: write` and pushes gitmem/<id>. The activity log then
    names the bot, not her, and she approved her own text as a bystander."""
    dev, server = forge_remote
    proposal = propose(dev)
    api.candidate(NUMBER, proposal.branch, proposal.commit, opener="sock-puppet")
    api.commits[0]["author"] = api.commits[0]["committer"] = None
    api.activity[0]["actor"] = {"login": "github-actions[bot]", "type": "Bot"}
    api.approve("mallory", proposal.commit)
    said = refused(tmp_path, server, api, proposal)
    assert "`github-actions[bot]`" in said and "who pushed" in said, said


@pytest.mark.e2e
def test_a_required_commit_status_beyond_the_first_page_is_seen(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path
) -> None:
    """The combined status of a commit lists 30 contexts a page unless asked; a required check
    an outside CI reports as a commit status, listed after thirty others, was never seen, and
    the candidate waited for it for ever."""
    dev, server, _gh = admission
    proposal = propose(dev)
    approved(api, proposal)
    api.rules = [
        {"type": "required_status_checks", "parameters": {"required_status_checks": [
            {"context": "ci/build"}]}},
    ]  # fmt: skip
    api.statuses[proposal.commit] = [
        {"context": f"lint/{n}", "state": "success"} for n in range(40)
    ] + [{"context": "ci/build", "state": "success"}]
    done = admit_step(tmp_path, server, api)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.outputs["status"] == "admitted", done.stdout


@pytest.mark.parametrize("decision", ["REVIEW_REQUIRED", "CHANGES_REQUESTED"])
@pytest.mark.e2e
def test_classic_branch_protection_governs_through_the_review_decision(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path, decision: str
) -> None:
    """A memory branch under classic branch protection (two approvals, code owners) and no
    ruleset: GitHub's review decision says the pull request still needs reviews, but the
    admission asked for it only when a ruleset's pull-request rule applied, and one approval
    admitted the candidate."""
    dev, server, _gh = admission
    proposal = propose(dev)
    approved(api, proposal)
    api.review_decision = decision
    main_before = tip(server, "main")
    done = admit_step(tmp_path, server, api)
    untouched(server, main_before, proposal)
    assert done.returncode == 0 and done.outputs["status"] == "skipped", done.stdout
    assert decision in done.stdout
    api.review_decision = None  # no review required at all: GitHub gives no decision
    done = admit_step(tmp_path, server, api)
    assert done.returncode == 0 and done.outputs["status"] == "admitted", done.stdout


# ---------------------------------------------------------------------------------------------
# a tag named as a remote-tracking branch


def _shadow(dev: Path, commit: str, name: str) -> None:
    """A tag `origin/<name>` on the forge, which any writer may push (no ruleset documented
    here covers tags) and `actions/checkout` fetches with every other tag: in git's reading
    of the short name `origin/<name>` it comes before the remote-tracking branch."""
    git(dev, "push", "-q", "--no-verify", "origin", f"{commit}:refs/tags/origin/{name}")


@pytest.mark.e2e
def test_a_tag_shadowing_the_memory_branch_does_not_narrow_the_admissions_check(
    memory: Path, api: FakeGitHub, tmp_path: Path
) -> None:
    """The admission judged `origin/main..origin/gitmem/<id>`: a tag origin/main at the
    candidate's head made that range empty, and a branch whose first commit held a token was
    admitted."""
    server = bare(tmp_path, hooks=False)
    connect(memory, server)
    proposal = propose(memory)
    path = memory / ".gitmem" / "candidates" / f"{proposal.id}.md"
    clean = git(memory, "show", f"{proposal.commit}:.gitmem/candidates/{proposal.id}.md")
    leaky = clean.replace("Read objects with pygit2.", f"Read objects; token {TOKEN}.")
    assert leaky != clean
    push_commit(memory, proposal.branch, path, leaky, "with a token")
    head = push_commit(memory, proposal.branch, path, clean, "token removed")
    _shadow(memory, head, "main")
    api.candidate(NUMBER, proposal.branch, head)
    api.approve("alice", head)
    main_before = tip(server, "main")
    done = admit_step(tmp_path, server, api)
    assert done.returncode == 1 and tip(server, "main") == main_before, done.stdout


@pytest.mark.e2e
@pytest.mark.parametrize("shadowed", ["the candidate's branch", "main"])
def test_a_tag_shadowing_a_branch_does_not_empty_the_pull_requests_check(
    forge_remote: tuple[Path, Path], tmp_path: Path, shadowed: str
) -> None:
    """The check judged `origin/main..origin/gitmem/<id>` (a candidate) and
    `<base>..origin/main` (any other pull request, as merged): a tag shadowing either branch
    had it check no commit at all, and pass a token or a forged entry."""
    dev, server = forge_remote
    if shadowed == "main":
        _shadow(dev, tip(dev, "main"), "main")
        feature_with_a_forged_entry(dev)
        branch = "feature"
    else:
        secret_candidate(dev)
        branch = f"gitmem/{ENTRY_ID}"
        _shadow(dev, tip(dev, "main"), branch)
    runner = pull_request_checkout(tmp_path, server, dev, branch)
    done = runner.run("gitmem-check.yml", CHECK, CHECK_ENV)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "0 commits checked" not in done.stdout


@pytest.mark.e2e
def test_a_tag_shadowing_the_memory_branch_does_not_empty_protect(
    forge_remote: tuple[Path, Path], tmp_path: Path
) -> None:
    dev, server = forge_remote
    _shadow(dev, tip(dev, "main"), "main")
    before = direct_push_of_a_forged_entry(dev, server)
    runner = push_runner(tmp_path, server)
    done = runner.run("gitmem-protect.yml", PROTECT, protect_env(before, tip(server, "main")))
    assert done.returncode == 1, done.stdout
    assert "HISTORY-ADMIT" in {m["rule"] for m in annotations(done.stdout)}


# ---------------------------------------------------------------------------------------------
# what the API says, spelled otherwise


def _admitted_after(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path, change: Any
) -> tuple[Any, bool]:
    """The admit step's result after change(api, proposal) edits the API's answers, and
    whether main moved."""
    dev, server, _gh = admission
    proposal = propose(dev)
    approved(api, proposal)
    change(api, proposal)
    before = tip(server, "main")
    done = admit_step(tmp_path, server, api)
    return done, tip(server, "main") != before


@pytest.mark.parametrize("part", ["pushed", "opened", "wrote"])
def test_a_login_spelled_in_another_letter_case_took_part_all_the_same(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path, part: str
) -> None:
    """Logins are not case-sensitive; the source was compared so, but not the opener, the
    pushers or the authors: `Mallory` pushing and `mallory` approving admitted."""

    def change(api: FakeGitHub, proposal: proposing.Proposal) -> None:
        api.reviews.clear()
        api.approve("mallory", proposal.commit)
        api.pr["user"]["login"] = "Mallory" if part == "opened" else "sock"
        author = {"login": "MALLORY" if part == "wrote" else "sock"}
        api.commits[0]["author"] = api.commits[0]["committer"] = author
        api.activity[0]["actor"] = {"login": "Mallory" if part == "pushed" else "sock"}

    done, moved = _admitted_after(admission, api, tmp_path, change)
    assert not moved and done.outputs.get("status") == "refused", done.stdout + done.stderr


@pytest.mark.parametrize("odd", ["a push's time without an offset", "a rule's parameters"])
def test_an_api_answer_that_cannot_be_read_refuses_rather_than_crashes(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path, odd: str
) -> None:
    """A time with no offset (compared with GitHub's UTC times: TypeError) or a ruleset
    rule whose parameters are no object (AttributeError) ended the step as an unexpected
    error, with no status for the comment job to say why."""

    def change(api: FakeGitHub, proposal: proposing.Proposal) -> None:
        if odd == "a rule's parameters":
            api.rules = [{"type": "pull_request", "parameters": ["x"]}]
        else:
            api.activity.append({**api.activity[0], "timestamp": "2026-11-29T10:30:00"})

    done, moved = _admitted_after(admission, api, tmp_path, change)
    assert not moved and done.returncode == 1, done.stdout + done.stderr
    assert done.outputs.get("status") == "refused" and "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("role", "admitted"), [("release-manager:write", True), ("auditor:read", False)]
)
def test_a_custom_role_counts_by_the_base_role_it_builds_on(
    admission: tuple[Path, Path, FakeGh], api: FakeGitHub, tmp_path: Path, role: str, admitted: bool
) -> None:
    """GitHub names a custom role by its own name (role_name) and gives the base role it
    builds on (permission): an approval by a custom role on write access was refused as
    "not write"; one on read access still admits nothing."""

    def change(api: FakeGitHub, proposal: proposing.Proposal) -> None:
        api.permissions["alice"] = role

    done, moved = _admitted_after(admission, api, tmp_path, change)
    assert moved == admitted, done.stdout + done.stderr
    assert done.outputs.get("status") == ("admitted" if admitted else "skipped"), done.stdout
