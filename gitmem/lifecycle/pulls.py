"""Open a pull request (GitHub) or a merge request (GitLab) for a proposed candidate.

`gitmem propose --pr` pushes the candidate branch `gitmem/<id>` (through propose's
push_candidate: an id another clone pushed first moves the proposal to the next free id, and
the request is opened for the id pushed) to the remote git would push a new branch to
(`--remote NAME`, else remote.pushDefault, else the only remote, else origin:
writing.push_remote), and then, on the repository that remote's URL names (its fetch URL:
the project's repository, main's home; when remote.<name>.pushurl sends the branch to a fork
on the same host instead, the request's head is the fork's branch, `owner:gitmem/ID`, and
GitLab's page is the fork's; when it sends it to another host, the branch is pushed there
and no request is opened, since none can be opened across hosts):

- on GitHub (github.com, a `github.*` host, or any host the `gh` CLI is logged in to), opens the
  pull request with `gh pr create` when `gh` is installed and authenticated: title from the
  entry's title, body rendered from the entry, label `gitmem`; otherwise answers the compare
  URL `https://HOST/OWNER/REPO/compare/BASE...gitmem/ID?expand=1` for the user to open;
- on GitLab (a host whose name holds `gitlab`), pushes with GitLab's push options, so the
  server itself opens the merge request while receiving the branch::

      git push -o merge_request.create -o merge_request.target=main \\
               -o merge_request.title=TITLE -o merge_request.label=gitmem REMOTE gitmem/ID

  and answers the merge request's URL (GitLab prints it while receiving), else the
  `…/-/merge_requests/new?merge_request[source_branch]=gitmem/ID` page;
- elsewhere (Gitea, Bitbucket, a bare repository over ssh…), pushes and says which branch to
  open a request from.

Credentials a remote URL may carry (`https://user:token@host/…`) never reach the answer: URLs
are rebuilt from host and path only, and git's own messages are scrubbed before they are quoted.
The push uses the user's own git, credentials and hooks (the pre-push gate runs).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, field
from urllib.parse import quote, urlencode, urlsplit

from gitmem.errors import GitmemError, UsageError
from gitmem.lifecycle.propose import Proposal, push_candidate
from gitmem.lifecycle.writing import base_missing_on, push_remote
from gitmem.model.entry import Entry, EntryError, parse
from gitmem.repo.gitcli import PinnedRepository, clean_git_env
from gitmem.repo.store import Store
from gitmem.repo.workspace import Workspace

LABEL = "gitmem"
LABEL_COLOR = "5319E7"
LABEL_DESCRIPTION = "A gitmem memory candidate: approve to admit it"
GH_TIMEOUT = 120

GITHUB = "github"
GITLAB = "gitlab"
OTHER = "other"


@dataclass(frozen=True)
class Remote:
    """Where a remote lives, without any credential: its host and repository path."""

    host: str
    path: str  # owner/repo (GitLab: group/subgroup/project), without .git
    port: int | None = None  # kept only for http(s), where the web pages share it

    @property
    def web(self) -> str:
        netloc = f"{self.host}:{self.port}" if self.port else self.host
        return f"https://{netloc}/{self.path}"

    @property
    def owner(self) -> str:
        """The account or group the repository belongs to (a fork's, in `owner:branch`)."""
        return self.path.rsplit("/", 1)[0]

    @property
    def slug(self) -> str:
        """owner/repo for github.com, HOST/owner/repo elsewhere (gh's --repo form)."""
        return self.path if self.host == "github.com" else f"{self.host}/{self.path}"


@dataclass(frozen=True)
class PullRequestResult:
    """What `gitmem propose --pr` did: the request (or the page to open one) and a line to
    print."""

    forge: str  # github, gitlab or other
    url: str | None  # the pull/merge request when opened, else the page that opens one
    opened: bool  # a pull/merge request now exists
    pushed: bool  # this call pushed the candidate branch
    message: str
    warnings: tuple[str, ...] = field(default=())


# ---------------------------------------------------------------------------------------------
# remote URLs

_SCP = re.compile(r"^(?:(?P<user>[^@/\s]+)@)?(?P<host>[A-Za-z0-9._-]+):(?P<path>(?!/).+)$")
_NETWORK_SCHEMES = ("https", "http", "ssh", "git", "git+ssh", "ssh+git")
_CREDENTIALS = re.compile(r"(?P<scheme>\b[A-Za-z][A-Za-z0-9+.-]*://)[^/\s@]*@")


def scrub(text: str) -> str:
    """text with any `scheme://user:secret@` credentials removed (git messages quote URLs)."""
    return _CREDENTIALS.sub(r"\g<scheme>", text)


def parse_remote(url: str) -> Remote | None:
    """The host and repository path of a remote URL: https, http, ssh://, git://, and the
    scp-like `git@host:owner/repo.git`; None for local paths and file:// URLs."""
    url = url.strip()
    if not url:
        return None
    if "://" in url:
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError:
            return None
        scheme = parts.scheme.lower()
        if (
            scheme not in ("https", "http", "ssh", "git", "git+ssh", "ssh+git")
            or not parts.hostname
        ):
            return None
        keep_port = port if scheme in ("https", "http") and port not in (None, 80, 443) else None
        return _remote(parts.hostname, parts.path, keep_port)
    if re.match(r"^[A-Za-z]:[\\/]", url):  # a Windows drive letter, not host:path
        return None
    match = _SCP.match(url)
    if match is None or "/" in match.group("host"):
        return None
    return _remote(match.group("host"), match.group("path"), None)


def _remote(host: str, path: str, port: int | None) -> Remote | None:
    path = path.strip("/")
    path = path.removesuffix(".git").strip("/")
    if path.startswith("~") or not path or "/" not in path:
        return None
    return Remote(host.lower(), path, port)


def forge_of(remote: Remote) -> str:
    host = remote.host
    if host == "github.com" or host.startswith("github."):
        return GITHUB
    if "gitlab" in host:
        return GITLAB
    return OTHER


def compare_url(remote: Remote, forge: str, base: str, branch: str) -> str | None:
    """The page that opens a pull/merge request from branch into base, for a known forge."""
    if forge == GITHUB:
        # branch may name a fork's branch as `owner:branch`, as GitHub's compare page takes it
        head = quote(branch, safe="/:")
        return f"{remote.web}/compare/{quote(base, safe='/')}...{head}?expand=1"
    if forge == GITLAB:
        query = urlencode(
            {"merge_request[source_branch]": branch, "merge_request[target_branch]": base}
        )
        return f"{remote.web}/-/merge_requests/new?{query}"
    return None


# ---------------------------------------------------------------------------------------------
# the request's text


def pull_request_body(entry: Entry, base: str) -> str:
    """The pull request's description: the entry as a reviewer reads it, then what approving
    does."""
    lines = [f"Memory candidate `{entry.id}` ({entry.type}, source `{entry.source}`).", ""]
    if entry.applies_when:
        lines += [f"**Applies when:** {entry.applies_when}", ""]
    details = []
    for key, label in (
        ("rationale", "Rationale"),
        ("correction", "Correction"),
        ("detection_signal", "Detection signal"),
    ):
        value = entry.meta.get(key)
        if value:
            details.append(f"- **{label}:** {value}")
    if entry.tags:
        details.append("- **Tags:** " + ", ".join(entry.tags))
    if entry.files:
        details.append("- **Files:** " + ", ".join(f"`{f}`" for f in entry.files))
    if entry.supersedes:
        details.append("- **Supersedes:** " + ", ".join(f"`{s}`" for s in entry.supersedes))
    if details:
        lines += [*details, ""]
    lines += [entry.body.replace("## ", "### "), ""]
    lines += [
        "---",
        f"Approving this pull request admits the entry into `{base}` "
        "(the gitmem admit workflow runs `gitmem admit` on the approved commit); "
        "commits pushed after the approval need a new one. To refuse it: "
        f"`gitmem refuse {entry.id} --reason …`. Please don't use the merge button: "
        "memory enters the main branch only through `gitmem admit`.",
    ]
    return "\n".join(lines) + "\n"


def _push_option_value(text: str) -> str:
    """A push option is one line: newlines become spaces, and it stays short."""
    return " ".join(text.split())[:250]


# ---------------------------------------------------------------------------------------------
# opening it


def open_pull_request(
    ws: Workspace, proposal: Proposal, *, remote: str | None = None
) -> PullRequestResult:
    """Push the candidate branch (unless already pushed) and open a pull/merge request for it,
    or answer the URL of the page that opens one. When the remote lacks the main commit the
    candidate is based on, nothing is pushed: proposal.unpushed says why and what to do.

    The remote is the one named (`propose --remote NAME`), else the one git pushes a new
    branch to (push_remote: remote.pushDefault, the only remote, origin), and the request is
    opened on the repository that remote's URL names: a fork's, when remote.pushDefault
    names the fork. A name no remote has is a UsageError, and so is a repository with no
    remote (NoRemote).

    The push is propose's (push_candidate): a remote that holds another candidate under the
    proposal's id (another clone proposed it first) moves the proposal, in place, to the next
    free id, and the request is opened for the id pushed; any other refusal is raised."""
    store = ws.store
    remote = push_remote(store, remote)
    url = _remote_url(store, remote)
    if not proposal.pushed:
        parents = store.commit(proposal.commit).parents
        missing = base_missing_on(ws, remote, parents[0]) if parents else None
        if missing:
            proposal.unpushed = (
                f"{missing}: git push {remote} {proposal.branch}, then open the pull request"
            )
            return PullRequestResult(OTHER, None, False, False, proposal.unpushed)
    entry = _candidate_entry(ws, proposal)
    where = parse_remote(url)
    urls = _push_urls(store, remote) if where is not None else []  # asked once, read twice
    across = _pushed_across(urls, where)
    if across is not None and where is not None:
        return _pushed_to_another_host(ws, proposal, remote, across, where)
    fork = _pushed_elsewhere(urls, where)
    base = ws.branch
    gh = shutil.which("gh")
    forge = forge_of(where) if where else OTHER
    if (
        where is not None
        and forge == OTHER
        and gh
        and _gh_authenticated(gh, where.host, store.pinned)
    ):
        forge = GITHUB  # GitHub Enterprise on a host of its own

    if forge == GITLAB and where is not None:
        # GitLab's new-request page of the project the branch is in proposes the project
        # it was forked from as the target; the project's own page knows no such branch
        return _gitlab(ws, remote, fork or where, base, entry, proposal)

    pushed = False
    if not proposal.pushed:
        sender = _Sender(store, remote)
        push_candidate(ws, proposal, remote=remote, send=sender)
        # not pushed by this call when the remote held this very candidate already
        pushed = sender.messages is not None
        entry = _candidate_entry(ws, proposal)  # its id, when the push moved it to another
    branch = proposal.branch
    if forge == GITHUB and where is not None:
        head = f"{fork.owner}:{branch}" if fork is not None else branch
        return _github(where, base, head, entry, pushed, gh, store.pinned)
    target = f"{remote} ({scrub(url)})" if where is None else where.web
    if fork is not None:
        return PullRequestResult(
            OTHER,
            None,
            False,
            pushed,
            f"pushed {branch} to {fork.web}: open a pull request from it into {base} of "
            f"{target}, or admit it with `gitmem admit {proposal.id}` after review",
        )
    return PullRequestResult(
        OTHER,
        None,
        False,
        pushed,
        f"pushed {branch} to {target}: open a pull request from {branch} into {base} there, "
        f"or admit it with `gitmem admit {proposal.id}` after review",
    )


def _candidate_entry(ws: Workspace, proposal: Proposal) -> Entry:
    path = f"{ws.dir}/candidates/{proposal.id}.md"
    data = ws.store.read_path(ws.store.tree_of(proposal.commit), path)
    if data is None:
        raise GitmemError(f"commit {proposal.commit[:12]} holds no {path}: nothing to propose")
    try:
        return parse(data)
    except EntryError as exc:
        raise GitmemError(f"{path}: {exc.rule} {exc.message}") from None


def _remote_url(store: Store, remote: str) -> str:
    url = store.remote_url(remote)
    if url is None:
        raise UsageError(f"no remote named {remote!r}: add one (git remote add {remote} URL)")
    return url


def _pushed_elsewhere(urls: list[str], where: Remote | None) -> Remote | None:
    """The repository `git push` sends the candidate to (urls: the remote's push URLs,
    _push_urls), when it is not the one the remote's URL names but another on the same
    host: a fork, in a triangular workflow that fetches from the project and pushes to
    one's own copy (remote.<name>.pushurl). None
    when the push goes where the URL says (no pushurl; a pushInsteadOf that only changes
    the protocol; one of several push URLs the project's), somewhere no web address names
    (a local mirror), or to another host (_pushed_across).

    The request is still opened on the project's repository, the one the fetch URL names
    and main is read from, with the fork's branch as its head (`owner:gitmem/<id>`); opened
    as if the branch were in the project, gh found no such branch there, and the compare
    page gitmem printed instead led to a branch the project did not have."""
    if where is None:
        return None
    pushed = [parse_remote(url) for url in urls]
    if not pushed or any(_same_repository(p, where) for p in pushed):
        return None
    return next((p for p in pushed if p is not None and _same_host(p, where)), None)


def _pushed_across(urls: list[str], where: Remote | None) -> str | None:
    """Where `git push` sends the candidate (urls: the remote's push URLs; the first one is
    given, credentials scrubbed), when every URL it pushes to names a repository on another
    host than where's: a pushurl naming another forge while the fetch URL names the project. None
    when the branch reaches the project or a fork of it there (_pushed_elsewhere), or when
    a push URL names no host (a local path, which a pushInsteadOf may make of the
    project's own URL: where it leads is not known).

    No request can be opened on the project for a branch another host holds: opened there
    as if the branch were the project's, gh was asked for a head the project does not have
    and the compare page led to nothing, and GitLab's push options asked a server that is
    not the project's to open the request."""
    if where is None:
        return None
    pushed = [parse_remote(url) for url in urls]
    if not urls or any(p is None or _same_host(p, where) for p in pushed):
        return None
    return scrub(urls[0])


def _push_urls(store: Store, remote: str) -> list[str]:
    """The URLs `git push remote` pushes to, as git names them (pushurl, insteadOf and
    pushInsteadOf applied); none when git cannot say."""
    done = store.run_git("remote", "get-url", "--push", "--all", remote, check=False)
    return (
        [line.strip() for line in done.stdout.splitlines() if line.strip()]
        if (done.returncode == 0)
        else []
    )


def _same_host(one: Remote, other: Remote) -> bool:
    return one.host == other.host and one.port == other.port


def _same_repository(one: Remote | None, other: Remote) -> bool:
    return one is not None and _same_host(one, other) and one.path.lower() == other.path.lower()


def _push(store: Store, remote: str, refspecs: list[str], options: Sequence[str] = ()) -> str:
    """Push with the user's git; answers git's messages (credentials scrubbed)."""
    args = ["push", "--porcelain"]
    for option in options:
        args += ["-o", option]
    done = store.run_git(*args, remote, *refspecs, check=False)
    messages = scrub(f"{done.stdout}\n{done.stderr}")
    if done.returncode != 0:
        raise GitmemError(f"git push to {remote} was refused:\n{scrub(done.stderr).strip()}")
    return messages


@dataclass
class _Sender:
    """propose's Send for --pr: pushes each id push_candidate tries (with GitLab's push
    options, when given), and keeps what git said of the one pushed (messages)."""

    store: Store
    remote: str
    options: Sequence[str] = ()
    messages: str | None = None  # None until a push succeeded
    warnings: list[str] = field(default_factory=list)

    def __call__(self, refspec: str) -> None:
        if not self.options:
            self.messages = _push(self.store, self.remote, [refspec])
            return
        try:
            self.messages = _push(self.store, self.remote, [refspec], self.options)
        except GitmemError as exc:
            if "push options" not in exc.message and "push-options" not in exc.message:
                raise
            # a server that takes no push options (an older GitLab, a mirror): push plainly,
            # and from then on (the next id, when this one is taken there)
            self.options = ()
            self.warnings.append(
                "the remote does not take push options: open the merge request by hand"
            )
            self.messages = _push(self.store, self.remote, [refspec])


def _pushed_to_another_host(
    ws: Workspace, proposal: Proposal, remote: str, across: str, where: Remote
) -> PullRequestResult:
    """Push the candidate where git pushes it (plainly: push options are for the project's
    forge), and say that the request is the user's to open (_pushed_across)."""
    pushed = False
    if not proposal.pushed:
        sender = _Sender(ws.store, remote)
        push_candidate(ws, proposal, remote=remote, send=sender)
        pushed = sender.messages is not None
    return PullRequestResult(
        OTHER,
        None,
        False,
        pushed,
        f"pushed {proposal.branch} to {across}, which is not on {where.host}, where {remote}'s "
        f"URL names the project ({where.web}): no pull request can be opened there for a "
        f"branch another host holds; bring the branch to {where.host} (a fork there) and open "
        f"one into {ws.branch}, or admit it with `gitmem admit {proposal.id}` after review",
    )


# GitHub


def _gh_env(pinned: PinnedRepository | None) -> dict[str, str]:
    """gh's environment: git's as gitmem runs it on the repository (pinned, when a person
    named it with GIT_DIR), with gh's prompts and update notices off."""
    env = clean_git_env(pinned)
    env.setdefault("GH_PROMPT_DISABLED", "1")
    env.setdefault("GH_NO_UPDATE_NOTIFIER", "1")
    return env


def _run_gh(
    gh: str, *args: str, pinned: PinnedRepository | None, input: str | None = None
) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            [gh, *args],
            capture_output=True,
            text=True,
            input=input,
            env=_gh_env(pinned),
            timeout=GH_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return subprocess.CompletedProcess([gh, *args], 1, "", str(exc))


def _gh_authenticated(gh: str, host: str, pinned: PinnedRepository | None) -> bool:
    return _run_gh(gh, "auth", "status", "--hostname", host, pinned=pinned).returncode == 0


def _github(
    where: Remote,
    base: str,
    branch: str,
    entry: Entry,
    pushed: bool,
    gh: str | None,
    pinned: PinnedRepository | None,
) -> PullRequestResult:
    page = compare_url(where, GITHUB, base, branch)
    if gh is None:
        return PullRequestResult(
            GITHUB,
            page,
            False,
            pushed,
            f"open the pull request: {page}  (install the gh CLI to have gitmem open it)",
        )
    if not _gh_authenticated(gh, where.host, pinned):
        return PullRequestResult(
            GITHUB,
            page,
            False,
            pushed,
            f"open the pull request: {page}  (gh is not logged in to {where.host}: "
            f"`gh auth login --hostname {where.host}` lets gitmem open it)",
        )
    repo = where.slug
    # The label may not exist yet: create it, and carry on when that is refused (it exists,
    # or the user may not create labels).
    _run_gh(
        gh,
        "label", "create", LABEL,
        "--repo", repo,
        "--color", LABEL_COLOR,
        "--description", LABEL_DESCRIPTION,
        pinned=pinned,
    )  # fmt: skip
    body = pull_request_body(entry, base)
    create = [
        "pr", "create",
        "--repo", repo,
        "--base", base,
        "--head", branch,
        "--title", entry.title,
        "--body-file", "-",
    ]  # fmt: skip
    done = _run_gh(gh, *create, "--label", LABEL, pinned=pinned, input=body)
    warnings: list[str] = []
    if done.returncode != 0 and "label" in done.stderr.lower():
        warnings.append(f"could not add the label {LABEL!r}: {_first_line(done.stderr)}")
        done = _run_gh(gh, *create, pinned=pinned, input=body)
    if done.returncode != 0:
        warnings.append(f"gh pr create failed: {_first_line(done.stderr)}")
        return PullRequestResult(
            GITHUB, page, False, pushed, f"open the pull request: {page}", tuple(warnings)
        )
    urls = re.findall(r"https?://\S+", done.stdout)
    url = scrub(urls[-1]) if urls else page
    return PullRequestResult(
        GITHUB, url, True, pushed, f"opened pull request {url}", tuple(warnings)
    )


def _first_line(text: str) -> str:
    lines = [line.strip() for line in scrub(text).splitlines() if line.strip()]
    return lines[0][:300] if lines else "no message"


# GitLab


_MR_URL = re.compile(r"https?://\S+/-/merge_requests/\d+")


def _gitlab(
    ws: Workspace, remote: str, where: Remote, base: str, entry: Entry, proposal: Proposal
) -> PullRequestResult:
    if proposal.pushed:
        # push options travel only with a ref update: nothing is left to carry them
        page = compare_url(where, GITLAB, base, proposal.branch)
        return PullRequestResult(GITLAB, page, False, False, f"open the merge request: {page}")
    options = [
        "merge_request.create",
        f"merge_request.target={base}",
        f"merge_request.title={_push_option_value(entry.title)}",
        f"merge_request.description={_push_option_value(entry.applies_when)}",
        f"merge_request.label={LABEL}",
    ]
    sender = _Sender(ws.store, remote, options)
    push_candidate(ws, proposal, remote=remote, send=sender)
    page = compare_url(where, GITLAB, base, proposal.branch)  # the id pushed
    warnings = tuple(sender.warnings)
    if sender.messages is None:
        # the remote held this very candidate already (pushed from another clone): this
        # push carried no options
        return PullRequestResult(
            GITLAB, page, False, False, f"open the merge request: {page}", warnings
        )
    if not sender.options:
        return PullRequestResult(
            GITLAB, page, False, True, f"open the merge request: {page}", warnings
        )
    found = _MR_URL.findall(sender.messages)
    if found:
        return PullRequestResult(
            GITLAB, found[-1], True, True, f"opened merge request {found[-1]}", warnings
        )
    return PullRequestResult(
        GITLAB,
        page,
        True,
        True,
        f"pushed {proposal.branch} asking GitLab to open a merge request; if none appears, "
        f"open it: {page}",
        warnings,
    )
