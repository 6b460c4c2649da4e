"""The GitHub workflows: valid, audited, installed safely, and their shell steps run for real.

The `run:` scripts are taken from the shipped YAML and run with bash (python for `shell:
python`) exactly as a runner would (`bash --noprofile --norc -eo pipefail`), with the
environment variables the step sets, their values simulating the GitHub event. The checkout is
simulated by cloning a local bare remote; `gh` is a fake that records its arguments.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
import yaml
from clirunner import run
from fakegh import FIELDS, FakeGh
from packaging.specifiers import SpecifierSet

from gitmem.hooks import github, installer
from gitmem.lifecycle import admit as admitting
from gitmem.lifecycle import propose as proposing
from gitmem.model.proposal import ProposalFields
from gitmem.repo.workspace import open_workspace

from conftest import git
from entries import text

ROOT = Path(__file__).resolve().parents[2]
PROJECT_WORKFLOWS = ROOT / ".github" / "workflows"
# actions pinned to the commits their release tags name (checked against the release notes)
PINS = {
    "actions/checkout": ("3d3c42e5aac5ba805825da76410c181273ba90b1", "v7.0.1"),
    "actions/setup-python": ("5fda3b95a4ea91299a34e894583c3862153e4b97", "v7.0.0"),
}
TOKEN = "ghp_" + "Z9y8" * 9
ZERO = "0" * 40
ENTRY_ID = "shop-method-20261129-run-hooks-through-gitmem"


def workflow(name: str) -> dict[Any, Any]:
    loaded = yaml.safe_load(github.template(name))
    assert isinstance(loaded, dict)
    return loaded


def step(name: str, step_name: str) -> dict[str, Any]:
    (job,) = workflow(name)["jobs"].values()
    found = [s for s in job["steps"] if s.get("name") == step_name]
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
    return paths


def test_every_workflow_matches_the_github_workflow_schema(all_workflows: list[Path]) -> None:
    done = subprocess.run(
        [tool("check-jsonschema"), "--builtin-schema", "vendor.github-workflows", *all_workflows],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok -- validation done" in done.stdout


def test_zizmor_finds_nothing_in_any_workflow(all_workflows: list[Path], tmp_path: Path) -> None:
    done = subprocess.run(
        [tool("zizmor"), "--offline", "--no-progress", *all_workflows],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "No findings to report" in done.stdout


def test_actions_are_pinned_to_full_commits() -> None:
    for name in github.WORKFLOWS:
        text_ = github.template(name)
        uses = re.findall(r"^\s*-?\s*uses:\s*(\S+)(.*)$", text_, re.M)
        assert uses, name
        for ref, comment in uses:
            action, _, sha = ref.partition("@")
            assert action in PINS, f"{name}: {action} is not one of the pinned actions"
            assert (sha, comment.strip()) == (PINS[action][0], f"# {PINS[action][1]}"), name


def test_least_privilege_and_no_expression_inside_a_script() -> None:
    for name in github.WORKFLOWS:
        flow = workflow(name)
        assert flow["permissions"] == {}, name
        for job in flow["jobs"].values():
            assert set(job["permissions"]) <= {"contents", "pull-requests"}, name
            for item in job["steps"]:
                assert "${{" not in item.get("run", ""), f"{name}: an expression inside run:"
                if item.get("uses", "").startswith("actions/checkout@"):
                    assert item["with"]["persist-credentials"] is False, name
    assert workflow("gitmem-check.yml")["jobs"]["check"]["permissions"] == {"contents": "read"}
    assert workflow("gitmem-protect.yml")["jobs"]["protect"]["permissions"] == {"contents": "read"}
    assert workflow("gitmem-admit.yml")["jobs"]["admit"]["permissions"] == {
        "contents": "write",
        "pull-requests": "write",
    }
    assert workflow("gitmem-admit.yml")["concurrency"] == {
        "group": "gitmem-admit-${{ github.event.pull_request.number }}",
        "cancel-in-progress": False,
    }


def test_the_workflows_install_a_gitmem_range_that_holds_this_version() -> None:
    version = metadata.version("gitmem")
    for name in github.WORKFLOWS:
        specs = re.findall(r'pip install [^\n]*"gitmem([^"]+)"', github.template(name))
        assert specs, name
        for spec in specs:
            assert version in SpecifierSet(spec), f"{name}: gitmem{spec} excludes {version}"


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
        "created .github/workflows/gitmem-admit.yml",
        "created .github/workflows/gitmem-protect.yml",
    ]
    for name in github.WORKFLOWS:
        installed = (repo / ".github" / "workflows" / name).read_text()
        assert installed == github.render(name)
        assert github.is_pristine(installed)
    assert github.install_workflows(repo) == [
        "unchanged .github/workflows/gitmem-check.yml",
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

    def run(self, workflow_name: str, step_name: str, env: dict[str, str]) -> Any:
        item = step(workflow_name, step_name)
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
                "GITHUB_REPOSITORY": "acme/shop",
                "GITHUB_STEP_SUMMARY": str(self.summary),
                "GITHUB_OUTPUT": str(self.output),
                "RUNNER_TEMP": str(self.temp),
                **env,
            },
            timeout=300,
        )
        return done

    def outputs(self) -> dict[str, str]:
        pairs = (line.split("=", 1) for line in self.output.read_text().splitlines() if line)
        return dict(pairs)


def clone(server: Path, where: Path) -> Path:
    git(where.parent, "clone", "-q", str(server), str(where))
    return where


@pytest.fixture
def memory(repo: Path) -> Path:
    result = run(repo, "init")
    assert result.exit_code == 0, result.output
    (repo / ".gitmem.toml").write_text('[memory]\nproject = "shop"\n')
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "gitmem init")
    return repo


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


def admit_env(
    branch: str,
    *,
    reviewed: str = "",
    head: str = "",
    event: str = "pull_request_review",
    reviewer: str = "alice",
    labeler: str = "alice",
    author: str = "carol",
) -> dict[str, str]:
    """The admit step's variables, as GitHub fills them for an approval or a label."""
    review = event == "pull_request_review"
    return {
        "EVENT": event,
        "PR_NUMBER": "7",
        "PR_AUTHOR": author,
        "HEAD_REF": branch,
        "HEAD_SHA": head or reviewed,
        "BASE_REF": "main",
        "DEFAULT_BRANCH": "main",
        "REVIEWER": reviewer if review else "",
        "REVIEW_COMMIT": reviewed if review else "",
        "LABELER": labeler,
        "GH_TOKEN": "ghs_test-token",
        "GITMEM_PUSH_TOKEN": "ghs_test-token",
    }


@pytest.fixture
def admission(memory: Path, tmp_path: Path) -> tuple[Path, Path, FakeGh]:
    """A server with gitmem's pre-receive hook, a developer's clone, and the fake gh."""
    server = bare(tmp_path, hooks=True)
    connect(memory, server)
    return memory, server, FakeGh(tmp_path / "fake-bin")


def admit_step(tmp_path: Path, server: Path, env: dict[str, str]) -> Any:
    checkout = tmp_path / f"runner-{len(list(tmp_path.glob('runner-*')))}"
    runner = Runner(tmp_path, clone(server, checkout))
    done = runner.run("gitmem-admit.yml", "Admit the candidate", env)
    done.summary = runner.summary.read_text() if runner.summary.exists() else ""
    return done


def comments(gh: FakeGh) -> list[str]:
    return [c["body"] for c in gh.called("pr", "comment", "7", "--repo", "acme/shop")]


def test_an_approval_admits_the_candidate_and_the_push_closes_the_pull_request(
    admission: tuple[Path, Path, FakeGh], tmp_path: Path
) -> None:
    dev, server, gh = admission
    proposal = propose(dev)
    done = admit_step(tmp_path, server, admit_env(proposal.branch, reviewed=proposal.commit))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"admitted {proposal.id}" in done.stdout
    main = tip(server, "main")
    assert git(server, "log", "-1", "--format=%s%n%b", main).startswith(
        f"gitmem: admit {proposal.id}"
    )
    assert "Gitmem-Admitted-By: human:alice" in git(server, "log", "-1", "--format=%b", main)
    # the reviewed commit is in main (the pull request shows as merged); the branch is gone
    assert git(server, "rev-parse", f"{main}^2").strip() == proposal.commit
    assert tip(server, proposal.branch) == ""
    entry = git(server, "show", f"{main}:.gitmem/entries/decision/{proposal.id}.md")
    assert "admitted_by: human:alice" in entry
    assert gh.called("api", "repos/acme/shop/collaborators/alice/permission", "--jq", ".permission")
    assert comments(gh) == []
    assert f"gitmem admitted `{proposal.id}` into `main`" in done.summary


def test_a_commit_pushed_after_the_approval_is_never_admitted(
    admission: tuple[Path, Path, FakeGh], tmp_path: Path
) -> None:
    dev, server, gh = admission
    proposal = propose(dev)
    approved = proposal.commit
    # the author pushes one more commit after the approval
    git(dev, "checkout", "-q", proposal.branch)
    path = dev / ".gitmem" / "candidates" / f"{proposal.id}.md"
    path.write_text(path.read_text().replace("Read objects with pygit2.", "Spawn git instead."))
    git(dev, "commit", "-q", "-am", "after the approval")
    git(dev, "push", "-q", "origin", proposal.branch)
    git(dev, "checkout", "-q", "main")
    moved = tip(dev, proposal.branch)
    main_before = tip(server, "main")

    done = admit_step(tmp_path, server, admit_env(proposal.branch, reviewed=approved))
    assert done.returncode == 1, done.stdout + done.stderr
    assert tip(server, "main") == main_before
    assert tip(server, proposal.branch) == moved
    (body,) = comments(gh)
    lines = body.splitlines()
    assert lines[0] == "**gitmem did not admit this candidate.**"
    assert lines[2] == (
        f"    gitmem: candidate {proposal.id} moved: its branch is at {moved[:12]}, not the "
        f"reviewed {approved[:12]}; review the new commits and approve again"
    )
    assert lines[-1].startswith(
        f"Fix the candidate and approve again, or run `gitmem admit {proposal.id}`"
    )
    assert "::error title=gitmem admit::" in done.stdout
    # the stop-commands guard wraps gitmem's own words
    assert re.search(r"::stop-commands::[0-9a-f]{32}\n.*moved", done.stdout)

    # approving the new head admits it
    done = admit_step(tmp_path, server, admit_env(proposal.branch, reviewed=moved))
    assert done.returncode == 0, done.stdout + done.stderr
    assert git(server, "rev-parse", "main^2").strip() == moved


def test_a_candidate_that_now_conflicts_with_main_is_refused_with_a_comment(
    admission: tuple[Path, Path, FakeGh], tmp_path: Path
) -> None:
    dev, server, gh = admission
    first = propose(dev)
    second = propose(dev)  # the same topic, proposed before the first was admitted
    assert second.id == f"{first.id}-2"
    done = admit_step(tmp_path, server, admit_env(first.branch, reviewed=first.commit))
    assert done.returncode == 0, done.stderr
    done = admit_step(tmp_path, server, admit_env(second.branch, reviewed=second.commit))
    assert done.returncode == 1
    (body,) = comments(gh)
    assert "DUPLICATE" in body and first.id in body
    assert tip(server, second.branch) == second.commit


def test_admissions_racing_for_main_both_land(
    admission: tuple[Path, Path, FakeGh], tmp_path: Path
) -> None:
    dev, server, gh = admission
    proposal = propose(dev)
    # While the runner pushes, another change lands on main first (once).
    other = clone(server, tmp_path / "other")
    (other / "NOTES.md").write_text("notes\n")
    git(other, "add", "NOTES.md")
    git(other, "commit", "-q", "-m", "notes")
    checkout = tmp_path / "runner-race"
    runner = Runner(tmp_path, clone(server, checkout))
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
    done = runner.run(
        "gitmem-admit.yml",
        "Admit the candidate",
        admit_env(proposal.branch, reviewed=proposal.commit),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert once.exists()
    assert "main moved during attempt 1: trying again" in done.stdout
    # the admission sits on top of the change that won the race
    assert git(server, "rev-parse", "main^1").strip() == tip(other, "main")
    assert git(server, "rev-parse", "main^2").strip() == proposal.commit
    assert comments(gh) == []


def test_an_approval_without_write_access_admits_nothing_quietly(
    admission: tuple[Path, Path, FakeGh], tmp_path: Path
) -> None:
    dev, server, gh = admission
    os.environ["FAKE_GH_PERMISSION"] = "read"
    proposal = propose(dev)
    main_before = tip(server, "main")
    done = admit_step(
        tmp_path, server, admit_env(proposal.branch, reviewed=proposal.commit, reviewer="eve")
    )
    assert done.returncode == 0, done.stderr
    assert "eve has read access: their approval does not admit" in done.stdout
    assert tip(server, "main") == main_before
    assert comments(gh) == []


def test_when_the_api_cannot_tell_the_access_nothing_is_admitted(
    admission: tuple[Path, Path, FakeGh], tmp_path: Path
) -> None:
    dev, server, gh = admission
    os.environ["FAKE_GH_API_FAIL"] = "1"
    proposal = propose(dev)
    done = admit_step(tmp_path, server, admit_env(proposal.branch, reviewed=proposal.commit))
    assert done.returncode == 1
    (body,) = comments(gh)
    assert "did not say whether `alice` has write access" in body
    assert tip(server, proposal.branch) == proposal.commit


def test_the_admit_label_by_another_writer_admits_the_head(
    admission: tuple[Path, Path, FakeGh], tmp_path: Path
) -> None:
    dev, server, _gh = admission
    proposal = propose(dev)
    env = admit_env(proposal.branch, head=proposal.commit, event="pull_request", labeler="dora")
    done = admit_step(tmp_path, server, env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Gitmem-Admitted-By: human:dora" in git(server, "log", "-1", "--format=%b", "main")


def test_the_admit_label_by_the_author_or_a_reader_is_explained(
    admission: tuple[Path, Path, FakeGh], tmp_path: Path
) -> None:
    dev, server, gh = admission
    proposal = propose(dev)
    env = admit_env(proposal.branch, head=proposal.commit, event="pull_request", labeler="carol")
    done = admit_step(tmp_path, server, env)
    assert done.returncode == 1
    os.environ["FAKE_GH_PERMISSION"] = "triage"
    env = admit_env(proposal.branch, head=proposal.commit, event="pull_request", labeler="tom")
    done = admit_step(tmp_path, server, env)
    assert done.returncode == 1
    own, reader = comments(gh)
    assert "`carol` labelled their own pull request" in own
    assert "`tom` labelled it `gitmem:admit` but has triage access" in reader
    assert tip(server, proposal.branch) == proposal.commit


def test_a_candidate_already_gone_is_nothing_to_do(
    admission: tuple[Path, Path, FakeGh], tmp_path: Path
) -> None:
    dev, server, gh = admission
    proposal = propose(dev)
    env = admit_env(proposal.branch, reviewed=proposal.commit)
    assert admit_step(tmp_path, server, env).returncode == 0
    done = admit_step(tmp_path, server, env)  # a second approval arriving late
    assert done.returncode == 0, done.stderr
    assert "is no longer on the remote" in done.stdout
    assert comments(gh) == []


# -- check ------------------------------------------------------------------------------------


@pytest.fixture
def forge_remote(memory: Path, tmp_path: Path) -> tuple[Path, Path]:
    """GitHub runs no server hooks: a bare remote without any."""
    server = bare(tmp_path, hooks=False)
    connect(memory, server)
    return memory, server


def pull_request_checkout(tmp_path: Path, server: Path, branch: str) -> Runner:
    """What actions/checkout gives a pull_request job: the test merge, detached."""
    checkout = clone(server, tmp_path / "runner")
    git(checkout, "checkout", "-q", "--detach", "origin/main")
    git(checkout, "merge", "-q", "--no-ff", "--no-edit", f"origin/{branch}")
    return Runner(tmp_path, checkout)


def check_env(branch: str) -> dict[str, str]:
    return {"BASE_REF": "main", "HEAD_REF": branch, "DEFAULT_BRANCH": "main"}


ANNOTATION = re.compile(
    r"^::(error|warning) file=(?P<file>[^,]+)(,line=(?P<line>\d+))?,"
    r"title=gitmem (?P<rule>[A-Z-]+)::(?P<message>.+)$"
)
SUMMARY = re.compile(r"^gitmem check: .+$")


def annotations(stdout: str) -> list[re.Match[str]]:
    """Every line of `--format github` output: annotations, then the one summary line."""
    lines = stdout.splitlines()
    assert lines and SUMMARY.match(lines[-1]), stdout
    found = []
    for line in lines[:-1]:
        match = ANNOTATION.match(line)
        assert match, f"not an annotation: {line!r}"
        found.append(match)
    return found


def test_a_valid_candidate_pull_request_passes_with_a_summary(
    forge_remote: tuple[Path, Path], tmp_path: Path
) -> None:
    dev, server = forge_remote
    proposal = propose(dev)
    runner = pull_request_checkout(tmp_path, server, proposal.branch)
    done = runner.run("gitmem-check.yml", "Check the memory", check_env(proposal.branch))
    assert done.returncode == 0, done.stdout + done.stderr
    assert annotations(done.stdout) == []
    assert done.stdout.splitlines()[-1] == "gitmem check: 1 commit checked, no problems"
    assert runner.outputs()["range"].endswith(f"..origin/{proposal.branch}")
    done = runner.run(
        "gitmem-check.yml",
        "Summary",
        {"RANGE": runner.outputs()["range"], "HEAD_REF": proposal.branch},
    )
    assert done.returncode == 0, done.stderr
    summary = runner.summary.read_text()
    assert summary.startswith("### gitmem check: passed\n")
    assert f"### Candidate `{proposal.id}`" in summary
    assert "**Use pygit2 inside hooks**" in summary
    assert "Applies when: writing code that runs inside a git hook" in summary
    recall = subprocess.run(["gitmem", "recall", "--help"], capture_output=True)
    if recall.returncode == 0:
        assert "Near-duplicates among the admitted entries:" in summary


def test_a_candidate_with_a_secret_fails_with_annotations(
    forge_remote: tuple[Path, Path], tmp_path: Path
) -> None:
    dev, server = forge_remote
    entry_id = ENTRY_ID
    branch = f"gitmem/{entry_id}"
    git(dev, "checkout", "-q", "-b", branch)
    body = (
        "## Context\nHooks were copied by hand.\n\n"
        f"## Content\nInstall them; the token was {TOKEN}.\n\n"
        "## Evidence\nThe hooks drifted twice.\n"
    )
    candidate = dev / ".gitmem" / "candidates" / f"{entry_id}.md"
    candidate.parent.mkdir(parents=True, exist_ok=True)
    candidate.write_text(text(body))
    git(dev, "add", "-A")
    git(dev, "commit", "-q", "-m", "candidate")
    git(dev, "push", "-q", "origin", branch)
    runner = pull_request_checkout(tmp_path, server, branch)
    done = runner.run("gitmem-check.yml", "Check the memory", check_env(branch))
    assert done.returncode == 1, done.stdout + done.stderr
    found = annotations(done.stdout)
    secret = [m for m in found if m["rule"] == "SECRET"]
    assert secret and secret[0]["file"] == f".gitmem/candidates/{entry_id}.md"
    line = candidate.read_text().splitlines().index(f"Install them; the token was {TOKEN}.") + 1
    assert secret[0]["line"] == str(line)
    assert TOKEN not in done.stdout
    runner.run(
        "gitmem-check.yml", "Summary", {"RANGE": runner.outputs()["range"], "HEAD_REF": branch}
    )
    summary = runner.summary.read_text()
    assert summary.startswith("### gitmem check: ")
    assert "| SECRET |" in summary and TOKEN not in summary


def test_a_pull_request_that_adds_an_entry_outside_the_flow_fails(
    forge_remote: tuple[Path, Path], tmp_path: Path
) -> None:
    dev, server = forge_remote
    git(dev, "checkout", "-q", "-b", "feature")
    entry = dev / ".gitmem" / "entries" / "method" / f"{ENTRY_ID}.md"
    entry.parent.mkdir(parents=True)
    entry.write_text(text(status="admitted", admitted_by="human:alice", admitted="2026-11-30"))
    git(dev, "add", "-A")
    git(dev, "commit", "-q", "-m", "sneak an entry in")
    git(dev, "push", "-q", "origin", "feature")
    runner = pull_request_checkout(tmp_path, server, "feature")
    done = runner.run("gitmem-check.yml", "Check the memory", check_env("feature"))
    assert done.returncode == 1, done.stdout + done.stderr
    rules = {m["rule"] for m in annotations(done.stdout)}
    assert "HISTORY-ADMIT" in rules


def test_a_code_only_pull_request_passes(forge_remote: tuple[Path, Path], tmp_path: Path) -> None:
    dev, server = forge_remote
    git(dev, "checkout", "-q", "-b", "feature")
    (dev / "app.py").write_text("print('hello')\n")
    git(dev, "add", "app.py")
    git(dev, "commit", "-q", "-m", "code")
    git(dev, "push", "-q", "origin", "feature")
    runner = pull_request_checkout(tmp_path, server, "feature")
    done = runner.run("gitmem-check.yml", "Check the memory", check_env("feature"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert annotations(done.stdout) == []


# -- protect ----------------------------------------------------------------------------------


def push_checkout(tmp_path: Path, server: Path) -> Runner:
    """What actions/checkout gives a push job: the pushed branch checked out."""
    return Runner(tmp_path, clone(server, tmp_path / "runner"))


PROTECT = "Check the pushed commits"


def protect_env(before: str, after: str) -> dict[str, str]:
    return {"BEFORE": before, "AFTER": after, "BRANCH": "main", "DEFAULT_BRANCH": "main"}


def test_a_direct_push_that_bypasses_the_flow_fails_loudly(
    forge_remote: tuple[Path, Path], tmp_path: Path
) -> None:
    dev, server = forge_remote
    before = tip(server, "main")
    entry = dev / ".gitmem" / "entries" / "method" / f"{ENTRY_ID}.md"
    entry.parent.mkdir(parents=True)
    entry.write_text(text(status="admitted", admitted_by="human:alice", admitted="2026-11-30"))
    git(dev, "add", "-A")
    git(dev, "commit", "-q", "-m", "a direct push")
    git(dev, "push", "-q", "origin", "main")
    runner = push_checkout(tmp_path, server)
    done = runner.run("gitmem-protect.yml", PROTECT, protect_env(before, tip(server, "main")))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "HISTORY-ADMIT" in {m["rule"] for m in annotations(done.stdout)}
    summary = runner.summary.read_text()
    assert summary.startswith("### gitmem protect: this push to `main` breaks gitmem's rules")
    assert "HISTORY-ADMIT" in summary


def test_an_admission_pushed_to_main_passes(
    forge_remote: tuple[Path, Path], tmp_path: Path
) -> None:
    dev, server = forge_remote
    proposal = propose(dev)
    before = tip(server, "main")
    admitting.admit(open_workspace(dev), proposal.id, by="human:alice", push=True)
    runner = push_checkout(tmp_path, server)
    done = runner.run("gitmem-protect.yml", PROTECT, protect_env(before, tip(server, "main")))
    assert done.returncode == 0, done.stdout + done.stderr
    assert annotations(done.stdout) == []
    assert not runner.summary.exists()


def test_the_first_push_of_the_branch_checks_its_files(
    forge_remote: tuple[Path, Path], tmp_path: Path
) -> None:
    _dev, server = forge_remote
    runner = push_checkout(tmp_path, server)
    done = runner.run("gitmem-protect.yml", PROTECT, protect_env(ZERO, tip(server, "main")))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1].startswith("gitmem check: ")
