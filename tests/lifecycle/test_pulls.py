"""`propose --pr`: push the candidate branch, then open the pull/merge request or say where.

Pushes are real (to bare repositories in tmp_path); the remote keeps a forge-looking fetch URL
while `url.<bare>.pushInsteadOf` sends the push to the bare. `gh` is a small fake on PATH that
records its arguments and answers `gh auth status` as told.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from clirunner import ok, proposed, run
from fakegh import FIELDS, FakeGh

from gitmem.errors import GitmemError, UsageError
from gitmem.lifecycle import propose as proposing
from gitmem.lifecycle import pulls as forge
from gitmem.model.proposal import ProposalFields
from gitmem.repo.workspace import open_workspace

from conftest import git


@pytest.fixture
def fake_gh(tmp_path: Path) -> FakeGh:
    return FakeGh(tmp_path / "fake-bin")


@pytest.fixture
def no_gh(tmp_path: Path) -> None:
    """PATH with git and this interpreter's scripts only: no gh anywhere."""
    folder = tmp_path / "bin-without-gh"
    folder.mkdir()
    real_git = shutil.which("git")
    assert real_git
    (folder / "git").symlink_to(real_git)
    os.environ["PATH"] = os.pathsep.join([str(folder), str(Path(sys.executable).parent)])
    assert shutil.which("gh") is None


@pytest.fixture
def memory(repo: Path) -> Path:
    result = run(repo, "init")
    assert result.exit_code == 0, result.output
    (repo / ".gitmem.toml").write_text('[memory]\nproject = "shop"\n')
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "gitmem init")
    return repo


def bare(tmp_path: Path, name: str = "server.git") -> Path:
    path = tmp_path / name
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(path))
    return path


def with_remote(repo: Path, url: str, server: Path, name: str = "origin") -> None:
    """origin (or the remote called name) shows url; pushes to it land in server."""
    git(repo, "remote", "add", name, url)
    git(repo, "config", f"url.{server}.pushInsteadOf", url)
    git(repo, "push", "-q", name, "main")


def propose(repo: Path, **changes: Any) -> proposing.Proposal:
    return proposing.propose(
        open_workspace(repo), ProposalFields.from_mapping({**FIELDS, **changes})
    )


def open_pr(repo: Path, proposal: proposing.Proposal) -> forge.PullRequestResult:
    return forge.open_pull_request(open_workspace(repo), proposal)


def refuse_pushes(server: Path) -> None:
    hook = server / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'rejected by policy' >&2\nexit 1\n")
    hook.chmod(0o755)


def on_server(server: Path, branch: str) -> str:
    return git(server, "for-each-ref", "--format=%(objectname)", f"refs/heads/{branch}").strip()


# ---------------------------------------------------------------------------------------------
# remote URLs


@pytest.mark.parametrize(
    ("url", "host", "path", "web"),
    [
        ("https://github.com/acme/shop.git", "github.com", "acme/shop", None),
        ("https://github.com/acme/shop", "github.com", "acme/shop", None),
        ("https://github.com/acme/shop/", "github.com", "acme/shop", None),
        ("https://alice:ghp_s3cret@github.com/acme/shop.git", "github.com", "acme/shop", None),
        ("https://oauth2:glpat-s3cret@gitlab.com/g/sub/shop.git", "gitlab.com", "g/sub/shop", None),
        ("http://git.example.org:8080/team/shop.git", "git.example.org", "team/shop",
         "https://git.example.org:8080/team/shop"),
        ("git@github.com:acme/shop.git", "github.com", "acme/shop", None),
        ("github.com:acme/shop", "github.com", "acme/shop", None),
        ("ssh://git@github.com/acme/shop.git", "github.com", "acme/shop", None),
        ("ssh://git@gitlab.example.com:2222/g/shop.git", "gitlab.example.com", "g/shop",
         "https://gitlab.example.com/g/shop"),
        ("git://example.org/team/shop.git", "example.org", "team/shop", None),
        ("GIT@GitHub.COM:acme/shop.git", "github.com", "acme/shop", None),
    ],
)  # fmt: skip
def test_remote_urls_are_parsed_without_credentials(
    url: str, host: str, path: str, web: str | None
) -> None:
    remote = forge.parse_remote(url)
    assert remote is not None
    assert (remote.host, remote.path) == (host, path)
    assert remote.web == (web or f"https://{host}/{path}")
    assert "s3cret" not in repr(remote) and "s3cret" not in remote.web


@pytest.mark.parametrize(
    "url",
    [
        "/srv/git/shop.git",
        "../shop.git",
        "file:///srv/git/shop.git",
        "C:\\repos\\shop.git",
        "C:/repos/shop.git",
        "https://github.com/",
        "https://github.com/shop",
        "git@host:~alice/shop.git",
        "",
        "https://[not-a-host/x/y",
    ],
)
def test_local_and_unusable_urls_have_no_web_page(url: str) -> None:
    assert forge.parse_remote(url) is None


def test_forges_are_told_by_host() -> None:
    def kind(url: str) -> str:
        remote = forge.parse_remote(url)
        assert remote is not None
        return forge.forge_of(remote)

    assert kind("git@github.com:a/b.git") == forge.GITHUB
    assert kind("https://github.acme.corp/a/b") == forge.GITHUB
    assert kind("https://gitlab.com/a/b") == forge.GITLAB
    assert kind("https://gitlab.acme.corp/a/b") == forge.GITLAB
    assert kind("https://codeberg.org/a/b") == forge.OTHER


def test_scrub_removes_credentials_from_any_text() -> None:
    text = "To https://alice:ghp_s3cret@github.com/acme/shop.git\n ! [rejected] ssh://bob@h/x"
    assert forge.scrub(text) == "To https://github.com/acme/shop.git\n ! [rejected] ssh://h/x"


def test_compare_urls() -> None:
    remote = forge.parse_remote("git@gitlab.com:g/sub/shop.git")
    assert remote is not None
    assert forge.compare_url(remote, forge.GITLAB, "main", "gitmem/x-1") == (
        "https://gitlab.com/g/sub/shop/-/merge_requests/new?"
        "merge_request%5Bsource_branch%5D=gitmem%2Fx-1&merge_request%5Btarget_branch%5D=main"
    )
    assert forge.compare_url(remote, forge.GITHUB, "main", "gitmem/x-1") == (
        "https://gitlab.com/g/sub/shop/compare/main...gitmem/x-1?expand=1"
    )
    assert forge.compare_url(remote, forge.OTHER, "main", "gitmem/x-1") is None


# ---------------------------------------------------------------------------------------------
# GitHub


GITHUB_URL = "https://alice:ghp_s3cret@github.com/acme/shop.git"


def assert_no_secret(result: forge.PullRequestResult) -> None:
    assert "s3cret" not in f"{result.message} {result.url} {result.warnings}"


def test_github_with_gh_logged_in_opens_the_pull_request(
    memory: Path, tmp_path: Path, fake_gh: FakeGh
) -> None:
    server = bare(tmp_path)
    with_remote(memory, GITHUB_URL, server)
    proposal = propose(memory)
    result = open_pr(memory, proposal)
    assert result.forge == forge.GITHUB
    assert result.opened and result.pushed
    assert result.url == "https://github.com/acme/shop/pull/7"
    assert result.message == "opened pull request https://github.com/acme/shop/pull/7"
    assert_no_secret(result)
    assert on_server(server, proposal.branch) == proposal.commit
    assert fake_gh.called("auth", "status", "--hostname", "github.com")
    assert fake_gh.called("label", "create", "gitmem", "--repo", "acme/shop")
    (create,) = fake_gh.called("pr", "create")
    assert create["args"] == [
        "pr", "create",
        "--repo", "acme/shop",
        "--base", "main",
        "--head", proposal.branch,
        "--title", "Use pygit2 inside hooks",
        "--body-file", "-",
        "--label", "gitmem",
    ]  # fmt: skip
    body = create["body"]
    assert f"`{proposal.id}`" in body
    assert "**Applies when:** writing code that runs inside a git hook" in body
    assert "**Rationale:** one git process per call costs more than the check" in body
    assert "**Files:** `README.md`" in body
    for section in ("### Context\nHooks ran git", "### Content\nRead objects", "### Evidence"):
        assert section in body
    assert "Approving this pull request admits the entry into `main`" in body
    assert all("s3cret" not in " ".join(c["args"]) for c in fake_gh.calls())


def test_github_pull_request_without_the_label_when_it_cannot_be_added(
    memory: Path, tmp_path: Path, fake_gh: FakeGh
) -> None:
    os.environ["FAKE_GH_NO_LABEL"] = "1"
    with_remote(memory, GITHUB_URL, bare(tmp_path))
    result = open_pr(memory, propose(memory))
    assert result.opened
    assert any("could not add the label" in w for w in result.warnings)
    first, second = fake_gh.called("pr", "create")
    assert "--label" in first["args"] and "--label" not in second["args"]


def test_github_without_gh_prints_the_compare_url(
    memory: Path, tmp_path: Path, no_gh: None
) -> None:
    server = bare(tmp_path)
    with_remote(memory, GITHUB_URL, server)
    proposal = propose(memory)
    result = open_pr(memory, proposal)
    page = f"https://github.com/acme/shop/compare/main...{proposal.branch}?expand=1"
    assert (result.forge, result.url, result.opened, result.pushed) == (
        forge.GITHUB,
        page,
        False,
        True,
    )
    assert result.message.startswith(f"open the pull request: {page}")
    assert "install the gh CLI" in result.message
    assert_no_secret(result)
    assert on_server(server, proposal.branch) == proposal.commit


def test_github_with_gh_logged_out_prints_the_compare_url(
    memory: Path, tmp_path: Path, fake_gh: FakeGh
) -> None:
    os.environ["FAKE_GH_AUTH"] = "1"
    with_remote(memory, "git@github.com:acme/shop.git", bare(tmp_path))
    proposal = propose(memory)
    result = open_pr(memory, proposal)
    assert not result.opened
    assert result.url == f"https://github.com/acme/shop/compare/main...{proposal.branch}?expand=1"
    assert "gh auth login --hostname github.com" in result.message
    assert not fake_gh.called("pr", "create")


def test_an_already_pushed_candidate_is_not_pushed_again(
    memory: Path, tmp_path: Path, fake_gh: FakeGh
) -> None:
    server = bare(tmp_path)
    with_remote(memory, GITHUB_URL, server)
    proposal = proposing.propose(open_workspace(memory), ProposalFields(**FIELDS), push=True)
    assert proposal.pushed
    refuse_pushes(server)
    result = open_pr(memory, proposal)
    assert result.opened and not result.pushed


def test_github_enterprise_on_its_own_host_is_found_through_gh(
    memory: Path, tmp_path: Path, fake_gh: FakeGh
) -> None:
    with_remote(memory, "https://git.corp.example/acme/shop.git", bare(tmp_path))
    result = open_pr(memory, propose(memory))
    assert result.forge == forge.GITHUB and result.opened
    (create,) = fake_gh.called("pr", "create")
    assert create["args"][2:4] == ["--repo", "git.corp.example/acme/shop"]


def test_a_refused_push_says_so_without_credentials(
    memory: Path, tmp_path: Path, fake_gh: FakeGh
) -> None:
    server = bare(tmp_path)
    with_remote(memory, GITHUB_URL, server)
    refuse_pushes(server)

    with pytest.raises(GitmemError) as caught:
        open_pr(memory, propose(memory))
    assert "rejected by policy" in caught.value.message
    assert "s3cret" not in caught.value.message
    assert not fake_gh.called("pr", "create")


# ---------------------------------------------------------------------------------------------
# GitLab


def gitlab_server(tmp_path: Path, *, push_options: bool) -> tuple[Path, Path]:
    """A bare repository that behaves like GitLab receiving push options: it records them and
    prints the merge request's URL."""
    server = bare(tmp_path, "gitlab.git")
    log = tmp_path / "push-options.log"
    git(server, "config", "receive.advertisePushOptions", "true" if push_options else "false")
    hook = server / "hooks" / "post-receive"
    hook.write_text(
        "#!/bin/sh\n"
        f': > "{log}"\n'
        "i=0\n"
        'while [ "$i" -lt "${GIT_PUSH_OPTION_COUNT:-0}" ]; do\n'
        f'  eval "printf \'%s\\n\' \\"\\$GIT_PUSH_OPTION_$i\\"" >> "{log}"\n'
        "  i=$((i + 1))\n"
        "done\n"
        'if [ "${GIT_PUSH_OPTION_COUNT:-0}" -gt 0 ]; then\n'
        "  echo 'View merge request for the branch:' >&2\n"
        "  echo '  https://gitlab.com/g/sub/shop/-/merge_requests/12' >&2\n"
        "fi\n"
    )
    hook.chmod(0o755)
    return server, log


def test_gitlab_merge_request_through_push_options(
    memory: Path, tmp_path: Path, no_gh: None
) -> None:
    server, log = gitlab_server(tmp_path, push_options=True)
    with_remote(memory, "https://oauth2:glpat-s3cret@gitlab.com/g/sub/shop.git", server)
    proposal = propose(memory, applies_when="writing code\nthat runs inside a hook")
    result = open_pr(memory, proposal)
    assert result.forge == forge.GITLAB
    assert result.opened and result.pushed
    assert result.url == "https://gitlab.com/g/sub/shop/-/merge_requests/12"
    assert (
        result.message == "opened merge request https://gitlab.com/g/sub/shop/-/merge_requests/12"
    )
    assert "s3cret" not in f"{result.message} {result.url}"
    assert log.read_text().splitlines() == [
        "merge_request.create",
        "merge_request.target=main",
        "merge_request.title=Use pygit2 inside hooks",
        "merge_request.description=writing code that runs inside a hook",
        "merge_request.label=gitmem",
    ]
    assert on_server(server, proposal.branch) == proposal.commit


def test_gitlab_without_push_options_pushes_and_prints_the_new_merge_request_page(
    memory: Path, tmp_path: Path, no_gh: None
) -> None:
    server, _log = gitlab_server(tmp_path, push_options=False)
    with_remote(memory, "git@gitlab.com:g/sub/shop.git", server)
    proposal = propose(memory)
    result = open_pr(memory, proposal)
    assert not result.opened and result.pushed
    assert result.url == (
        "https://gitlab.com/g/sub/shop/-/merge_requests/new?merge_request%5Bsource_branch%5D="
        f"gitmem%2F{proposal.id}&merge_request%5Btarget_branch%5D=main"
    )
    assert result.warnings and "push options" in result.warnings[0]
    assert on_server(server, proposal.branch) == proposal.commit


def test_gitlab_candidate_already_pushed_gets_the_page_to_open_it(
    memory: Path, tmp_path: Path, no_gh: None
) -> None:
    server, _log = gitlab_server(tmp_path, push_options=True)
    with_remote(memory, "git@gitlab.com:g/sub/shop.git", server)
    proposal = proposing.propose(open_workspace(memory), ProposalFields(**FIELDS), push=True)
    result = open_pr(memory, proposal)
    assert not result.opened and not result.pushed
    assert result.url and "/-/merge_requests/new?" in result.url


# ---------------------------------------------------------------------------------------------
# other hosts


def test_other_hosts_get_a_plain_message(memory: Path, tmp_path: Path, no_gh: None) -> None:
    server = bare(tmp_path)
    with_remote(memory, "ssh://git@git.example.org:2222/team/shop.git", server)
    proposal = propose(memory)
    result = open_pr(memory, proposal)
    assert (result.forge, result.url, result.opened, result.pushed) == (
        forge.OTHER,
        None,
        False,
        True,
    )
    assert result.message == (
        f"pushed {proposal.branch} to https://git.example.org/team/shop: open a pull request "
        f"from {proposal.branch} into main there, or admit it with `gitmem admit {proposal.id}` "
        "after review"
    )
    assert on_server(server, proposal.branch) == proposal.commit


def test_a_remote_without_main_is_not_pushed_to_and_the_answer_says_why(
    memory: Path, tmp_path: Path
) -> None:
    server = bare(tmp_path)
    git(memory, "remote", "add", "origin", str(server))
    proposal = propose(memory)
    result = open_pr(memory, proposal)
    assert (result.opened, result.pushed) == (False, False)
    assert (
        proposal.unpushed
        == result.message
        == (
            "origin has no main yet, and a candidate branch carries only its own file on top of "
            "it: push main first (git push -u origin main), then the candidate: "
            f"git push origin {proposal.branch}, then open the pull request"
        )
    )
    assert git(server, "for-each-ref") == ""


def test_a_local_bare_remote_is_pushed_to_and_named(memory: Path, tmp_path: Path) -> None:
    server = bare(tmp_path)
    git(memory, "remote", "add", "origin", str(server))
    git(memory, "push", "-q", "origin", "main")
    proposal = propose(memory)
    result = open_pr(memory, proposal)
    assert result.forge == forge.OTHER and result.url is None
    assert f"to origin ({server})" in result.message
    assert on_server(server, proposal.branch) == proposal.commit


def test_no_remote_is_a_usage_error(memory: Path) -> None:
    with pytest.raises(UsageError, match="git remote add origin"):
        open_pr(memory, propose(memory))


# ---------------------------------------------------------------------------------------------
# the command line (once `gitmem propose --pr` is wired)


def test_propose_pr_on_the_command_line(memory: Path, tmp_path: Path, fake_gh: FakeGh) -> None:
    if "--pr" not in run(memory, "propose", "--help").output:
        pytest.skip("gitmem propose has no --pr option yet")
    server = bare(tmp_path)
    with_remote(memory, GITHUB_URL, server)
    result = run(
        memory,
        "propose",
        "--type", "method",
        "--title", "Open pull requests with gitmem",
        "--applies-when", "proposing a memory",
        "--content", "Use gitmem propose --pr.",
        "--pr",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "https://github.com/acme/shop/pull/7" in result.output
    assert "s3cret" not in result.output
    assert fake_gh.called("pr", "create")


# ---------------------------------------------------------------------------------------------
# an id another clone took first


FAKE_SSH = """\
#!{python}
import os, shlex, sys
# ssh HOST "git-receive-pack 'OWNER/REPO.git'": run that on the bare repository instead
program, _path = shlex.split(sys.argv[-1])
os.execvp("git", ["git", program.removeprefix("git-"), {server!r}])
"""


def over_ssh(repo: Path, url: str, server: Path) -> None:
    """origin is url (an scp-like forge address) for gitmem; git's ssh, fetches and pushes
    alike, reaches server, so the remote can be asked what it holds."""
    if git(repo, "remote").split():
        git(repo, "remote", "set-url", "origin", url)
    else:
        git(repo, "remote", "add", "origin", url)
    ssh_reaches(repo, server)


def ssh_reaches(repo: Path, server: Path) -> None:
    """Every ssh URL repo's git fetches from or pushes to reaches server."""
    ssh = server.parent / f"ssh-to-{server.name}"
    ssh.write_text(FAKE_SSH.format(python=sys.executable, server=str(server)))
    ssh.chmod(0o755)
    git(repo, "config", "core.sshCommand", str(ssh))
    git(repo, "config", "ssh.variant", "simple")


def two_clones(memory: Path, tmp_path: Path, url: str, server: Path) -> Path:
    """memory and a second clone of server, both with origin url; main pushed."""
    over_ssh(memory, url, server)
    git(memory, "push", "-q", "origin", "main")
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(server), str(other))
    over_ssh(other, url, server)
    return other


PR_ARGS = [
    "propose",
    "--type", "method",
    "--title", "Open pull requests with gitmem",
    "--applies-when", "proposing a memory",
]  # fmt: skip


def test_pr_for_an_id_another_clone_took_first_moves_to_the_next_free_id_on_github(
    memory: Path, tmp_path: Path, fake_gh: FakeGh
) -> None:
    """`propose --pr` pushed the branch itself, outside propose's handling of an id another
    clone had pushed first: the push was refused and the candidate left here with "then:
    git push origin gitmem/<id>", a push that can never succeed, and no pull request. It
    now moves to the next free id as --push does, says which id was taken, and opens the
    pull request from the branch actually pushed."""
    server = bare(tmp_path)
    other = two_clones(memory, tmp_path, "git@github.com:acme/shop.git", server)
    first = ok(run(memory, *PR_ARGS, "--content", "Use gitmem propose --pr.", "--pr"))
    first_id = first.output.split()[1]
    branch = f"gitmem/{first_id}"

    second = run(other, *PR_ARGS, "--content", "Open them with --pr, not by hand.", "--pr")
    assert second.exit_code == 0, second.output
    moved = f"{first_id}-2"
    taken = f"({first_id} is taken on origin by another candidate: took the next free id)"
    assert f"proposed {moved} {taken}\nbranch   gitmem/{moved} (pushed)\n" in second.output
    assert "opened pull request https://github.com/acme/shop/pull/7" in second.output
    assert "not pushed" not in second.output
    heads = [call["args"][call["args"].index("--head") + 1] for call in fake_gh.called("pr")]
    assert heads == [branch, f"gitmem/{moved}"]
    assert f"`{moved}`" in fake_gh.called("pr", "create")[-1]["body"]
    assert on_server(server, branch) == git(memory, "rev-parse", branch).strip()
    text = git(server, "show", f"gitmem/{moved}:.gitmem/candidates/{moved}.md")
    assert f"id: {moved}\n" in text and "Open them with --pr, not by hand." in text
    names = ["branch", "--list", "--format=%(refname:short)", "gitmem/*"]
    assert git(other, *names).split() == [f"gitmem/{moved}"]


def test_pr_for_an_id_another_clone_took_first_moves_to_the_next_free_id_on_gitlab(
    memory: Path, tmp_path: Path, no_gh: None
) -> None:
    """On GitLab the merge request is opened by the push itself (push options): the push of
    the taken id was refused with them, and the push of the next free id carries them."""
    server, log = gitlab_server(tmp_path, push_options=True)
    other = two_clones(memory, tmp_path, "git@gitlab.com:g/sub/shop.git", server)
    first = ok(run(memory, *PR_ARGS, "--content", "Use gitmem propose --pr.", "--pr"))
    first_id = first.output.split()[1]

    second = run(other, *PR_ARGS, "--content", "Open them with --pr.", "--pr", "--format", "json")
    assert second.exit_code == 0, second.output
    answer = json.loads(second.output)
    moved = f"{first_id}-2"
    assert (answer["id"], answer["pushed"], answer["taken_on_remote"]) == (
        moved,
        True,
        [first_id],
    )
    assert answer["pull_request"] == {
        "url": "https://gitlab.com/g/sub/shop/-/merge_requests/12",
        "opened": True,
    }
    assert "merge_request.create" in log.read_text().splitlines()
    text = git(server, "show", f"gitmem/{moved}:.gitmem/candidates/{moved}.md")
    assert f"id: {moved}\n" in text and "Open them with --pr." in text


def test_pr_refused_for_another_reason_keeps_its_id(
    memory: Path, tmp_path: Path, no_gh: None
) -> None:
    """Only a remote holding another candidate under the id moves a --pr proposal: a push a
    hook refuses leaves the branch here under its id, with the push that sends it."""
    server = bare(tmp_path)
    other = two_clones(memory, tmp_path, "git@github.com:acme/shop.git", server)
    refuse_pushes(server)
    refused = run(other, *PR_ARGS, "--content", "Use gitmem propose --pr.", "--pr")
    assert refused.exit_code == 1, refused.output
    entry_id = refused.output.split()[1]
    assert "rejected by policy" in refused.output
    assert f"then: git push origin gitmem/{entry_id}, and open the pull request" in (refused.output)
    assert git(other, "branch", "--list", "gitmem/*").split() == [f"gitmem/{entry_id}"]


def test_the_pull_request_is_opened_on_the_repository_of_the_remote_pushed_to(
    memory: Path, tmp_path: Path, fake_gh: FakeGh
) -> None:
    """A clone that pushes to a fork (remote.pushDefault = fork) beside the project it came
    from (origin): `propose --pr` pushed the candidate to origin and opened the pull request
    on origin's repository, where `git push` goes to the fork. Both now follow the remote
    chosen as git chooses it, and `--remote NAME` chooses another."""
    project, fork = bare(tmp_path), bare(tmp_path, "fork.git")
    with_remote(memory, GITHUB_URL, project)
    with_remote(memory, "git@github.com:alice/shop.git", fork, name="fork")
    git(memory, "config", "remote.pushDefault", "fork")
    ok(run(memory, *PR_ARGS, "--content", "Use gitmem propose --pr.", "--pr"))
    other = [*PR_ARGS, "--content", "Open them on origin.", "--pr", "--remote", "origin"]
    other[other.index("--title") + 1] = "Open pull requests on origin"
    ok(run(memory, *other))
    first, second = (call["args"] for call in fake_gh.called("pr", "create"))
    assert first[first.index("--repo") + 1] == "alice/shop"
    assert second[second.index("--repo") + 1] == "acme/shop"
    pushed = first[first.index("--head") + 1]
    assert on_server(fork, pushed) == git(memory, "rev-parse", pushed).strip()
    assert on_server(project, pushed) == ""
    assert git(fork, "branch", "--list", "gitmem/*").split() == [pushed]
    assert git(project, "branch", "--list", "gitmem/*").split() == [
        second[second.index("--head") + 1]
    ]


def fetch_from_project_push_to_fork(
    memory: Path, tmp_path: Path, url: str, fork: Path | None = None
) -> tuple[Path, Path]:
    """A triangular workflow: origin fetches from the project (url, main on project) and
    pushes to alice's fork of it (remote.origin.pushurl, over ssh, reaching fork)."""
    project = bare(tmp_path)
    fork = fork or bare(tmp_path, "fork.git")
    with_remote(memory, url, project)
    host = forge.parse_remote(url)
    assert host is not None
    git(memory, "config", "remote.origin.pushurl", f"git@{host.host}:alice/shop.git")
    ssh_reaches(memory, fork)
    return project, fork


def test_a_pull_request_from_a_fork_named_by_pushurl_names_the_forks_branch(
    memory: Path, tmp_path: Path, fake_gh: FakeGh
) -> None:
    """origin fetches from acme/shop and pushes to alice/shop (remote.origin.pushurl): the
    candidate lands in the fork, so the pull request on the project names its head as
    `alice:gitmem/<id>`. Named as a branch of acme/shop, gh looked for a branch the
    project does not have."""
    project, fork = fetch_from_project_push_to_fork(memory, tmp_path, GITHUB_URL)
    ok(run(memory, *PR_ARGS, "--content", "Use gitmem propose --pr.", "--pr"))
    (create,) = (call["args"] for call in fake_gh.called("pr", "create"))
    assert create[create.index("--repo") + 1] == "acme/shop"
    head = create[create.index("--head") + 1]
    owner, _, branch = head.partition(":")
    assert owner == "alice"
    assert on_server(fork, branch) == git(memory, "rev-parse", branch).strip()
    assert on_server(project, branch) == ""


def test_the_compare_page_for_a_fork_named_by_pushurl_names_the_forks_branch(
    memory: Path, tmp_path: Path, no_gh: None
) -> None:
    fetch_from_project_push_to_fork(memory, tmp_path, GITHUB_URL)
    proposal = propose(memory)
    result = open_pr(memory, proposal)
    assert result.pushed and not result.opened
    assert result.url == (
        f"https://github.com/acme/shop/compare/main...alice:{proposal.branch}?expand=1"
    )


def test_other_hosts_name_the_fork_pushurl_sent_the_branch_to(
    memory: Path, tmp_path: Path, no_gh: None
) -> None:
    _, fork = fetch_from_project_push_to_fork(memory, tmp_path, "https://git.example.org/acme/shop")
    proposal = propose(memory)
    result = open_pr(memory, proposal)
    assert result.message == (
        f"pushed {proposal.branch} to https://git.example.org/alice/shop: open a pull request "
        "from it into main of https://git.example.org/acme/shop, or admit it with "
        f"`gitmem admit {proposal.id}` after review"
    )
    assert on_server(fork, proposal.branch) == proposal.commit


@pytest.mark.parametrize(
    "url", [GITHUB_URL, "https://gitlab.com/acme/shop.git"], ids=["github", "gitlab"]
)
def test_a_pushurl_on_another_host_opens_no_request_on_the_project(
    memory: Path, tmp_path: Path, fake_gh: FakeGh, url: str
) -> None:
    """origin fetches from the project and pushes to a copy on another host
    (remote.origin.pushurl): the pull request was opened on the project for a branch it
    does not have (gh asked for a head that is not there), and GitLab's push options asked
    the other host to open it. The branch is pushed where git pushes it, no request is
    opened, and the answer says why and what to do."""
    project, copy = bare(tmp_path), bare(tmp_path, "copy.git")
    with_remote(memory, url, project)
    git(memory, "config", "remote.origin.pushurl", "git@git.example.org:alice/shop.git")
    ssh_reaches(memory, copy)
    done = ok(run(memory, *PR_ARGS, "--content", "Use gitmem propose --pr.", "--pr"))
    entry_id = proposed(done.output)
    assert fake_gh.called("pr", "create") == []
    assert (
        on_server(copy, f"gitmem/{entry_id}")
        == git(memory, "rev-parse", f"gitmem/{entry_id}").strip()
    )
    assert on_server(project, f"gitmem/{entry_id}") == ""
    host = "github.com" if url == GITHUB_URL else "gitlab.com"
    said = " ".join(done.output.split())
    assert (
        f"pushed gitmem/{entry_id} to git@git.example.org:alice/shop.git, which is not on "
        f"{host}, where origin's URL names the project (https://{host}/acme/shop): no pull "
        "request can be opened there"
    ) in said, done.output


def test_one_of_several_push_urls_the_projects_opens_the_request_there(
    memory: Path, tmp_path: Path, fake_gh: FakeGh
) -> None:
    """git pushes to every push URL: one of them the project's own, the branch is there, and
    the request is opened on the project for its own branch."""
    project = bare(tmp_path)
    with_remote(memory, GITHUB_URL, project)
    for url in ("git@github.com:acme/shop.git", "git@git.example.org:alice/shop.git"):
        git(memory, "config", "--add", "remote.origin.pushurl", url)
    ssh_reaches(memory, project)
    entry_id = proposed(ok(run(memory, *PR_ARGS, "--content", "Use it.", "--pr")).output)
    (create,) = (call["args"] for call in fake_gh.called("pr", "create"))
    assert create[create.index("--repo") + 1] == "acme/shop"
    assert create[create.index("--head") + 1] == f"gitmem/{entry_id}"
    assert on_server(project, f"gitmem/{entry_id}") != ""


def test_the_merge_request_page_for_a_fork_named_by_pushurl_is_the_forks(
    memory: Path, tmp_path: Path, no_gh: None
) -> None:
    """GitLab opens a merge request from a fork's branch on the fork's new-request page
    (which proposes the project as its target); the project's page knows no such branch."""
    fork, _log = gitlab_server(tmp_path, push_options=False)
    fetch_from_project_push_to_fork(memory, tmp_path, "https://gitlab.com/g/shop.git", fork)
    proposal = propose(memory)
    result = open_pr(memory, proposal)
    assert result.pushed and not result.opened
    assert result.url == (
        "https://gitlab.com/alice/shop/-/merge_requests/new?merge_request%5Bsource_branch%5D="
        f"gitmem%2F{proposal.id}&merge_request%5Btarget_branch%5D=main"
    )
    assert on_server(fork, proposal.branch) == proposal.commit
