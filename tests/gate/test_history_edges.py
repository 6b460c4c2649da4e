"""Corners of the history judge that the mutation runner (tests/mutation.py) found untested:
each test here fails against a mutant of gitmem/gate/history.py that passed the rest of the
suite. Real pushes to a bare remote with the server hook, as in test_attacks.py."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from clirunner import ok, proposed, run, write
from remote import (
    accepted,
    admit_by_hand,
    admitted,
    candidate_by_hand,
    commit_all,
    connect,
    entry_path,
    forged,
    index,
    make_server,
    merge_commit,
    propose,
    push,
    rejected,
    serve,
)
from secret_samples import github_token

from gitmem.errors import GitmemError, UsageError
from gitmem.gate import history
from gitmem.gate.history import Update, parse_updates
from gitmem.hooks import installer
from gitmem.model.entry import parse
from gitmem.repo.store import Change

from conftest import git
from entries import text

e2e = pytest.mark.e2e  # real pushes to a server with the hook


@e2e
def test_a_candidate_branch_updated_with_main_is_judged_against_main(clone: Path) -> None:
    """GitHub's "update branch" merges main into a candidate: the merge's changes against
    the candidate's own parent are main's admissions, which the branch does not make."""
    waiting = propose(clone, "Keep the memory reviewed")
    admitted(clone, "Pin the hooks by hash")  # main moves on while the candidate waits
    git(clone, "checkout", "-q", f"gitmem/{waiting}")
    git(clone, "merge", "-q", "--no-ff", "-m", "Merge main into the candidate", "main")
    accepted(push(clone, f"gitmem/{waiting}"))
    # a merge of anything else into the candidate still carries changes it may not make
    git(clone, "checkout", "-q", "-b", "side", "main")
    write(clone, "src/app.py", "print('hello')\n")
    side = commit_all(clone, "code")
    git(clone, "checkout", "-q", f"gitmem/{waiting}")
    git(clone, "merge", "-q", "--no-ff", "-m", "Merge side", side)
    stderr = rejected(push(clone, f"gitmem/{waiting}"), "CANDIDATE-BRANCH")
    assert "src/app.py" in stderr


@e2e
@pytest.mark.parametrize(
    "stray", ["src/app.py", ".gitmem/entries/method/local-method-20261129-f.md"]
)
def test_a_candidate_branch_built_on_a_commit_the_server_holds_is_judged_whole(
    clone: Path, stray: str
) -> None:
    """The walk of a push leaves out the commits the server holds under any ref. A stray
    change pushed first on a branch of its own, and the candidate committed on top of it,
    left the candidate branch's one new commit changing only its own file: the branch landed
    holding the stray change. Every commit of the branch that main lacks is held to the rule."""
    git(clone, "checkout", "-q", "-b", "carrier")
    write(clone, stray, forged("local-method-20261129-f") if stray.endswith(".md") else "x\n")
    commit_all(clone, "a stray change")
    accepted(push(clone, "carrier"))  # any branch but main and gitmem/<id> may hold it
    entry_id = "local-method-20261129-waiting"
    candidate_by_hand(clone, f"gitmem/{entry_id}", entry_id, text(id=entry_id))
    stderr = rejected(push(clone, f"gitmem/{entry_id}"), "CANDIDATE-BRANCH")
    assert stray in stderr
    accepted(push(clone, f"gitmem/{entry_id}:refs/heads/carrier-2"))  # as code it lands
    # the ref set straight at a commit the server holds: no new commit at all
    git(clone, "checkout", "-q", "main")
    rejected(push(clone, f"gitmem/{entry_id}"), "CANDIDATE-BRANCH")


@e2e
def test_a_memory_folder_nested_deeper_than_pythons_recursion_is_judged(clone: Path) -> None:
    """A file a thousand folders deep in the memory folder, changed by a second commit: the
    tree diff entered folders by recursion, passed Python's limit, and the server refused
    the push with an unexpected error (exit 3, a traceback in a log) instead of a rule."""
    deep = ".gitmem/" + "/".join(["d"] * 1100) + "/notes.md"  # too long for a checkout
    for text_ in ("one\n", "two\n"):
        blob = subprocess.run(
            ["git", "hash-object", "-w", "--stdin"],
            cwd=clone,
            input=text_,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        git(clone, "update-index", "--add", "--cacheinfo", f"100644,{blob},{deep}")
        git(clone, "commit", "-q", "--no-verify", "-m", "deep notes")
    accepted(push(clone, "HEAD:refs/heads/deep"))  # not main: only scanned
    stderr = rejected(push(clone, "main"), "LAYOUT")
    assert "is not a memory file" in stderr


@e2e
def test_a_name_that_is_not_utf8_is_one_layout_problem_not_a_forgery(clone: Path) -> None:
    folder = clone / ".gitmem/entries/method"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bad\udcff.md").write_bytes(forged("local-method-20261129-bad").encode())
    commit_all(clone, "a file of another encoding")
    stderr = rejected(push(clone, "main"), "LAYOUT")
    assert "HISTORY-" not in stderr and "is not a memory file" not in stderr, stderr
    # named once, by the commit's judging: the tip's file rules pass over such a name
    assert "gitmem check: 1 problem in 1 file" in stderr, stderr


@e2e
def test_a_variant_of_a_layout_name_is_one_layout_problem(clone: Path) -> None:
    write(clone, ".gitmem/Entries/method/x.md", forged("local-method-20261129-x"))
    commit_all(clone, "a variant of entries/")
    stderr = rejected(push(clone, "main"), "LAYOUT")
    assert "variant" in stderr and "is not a memory file" not in stderr, stderr


@e2e
@pytest.mark.parametrize(
    "variant", ["docs/Memory/entries/method/x.md", "Docs/memory/entries/method/x.md"]
)
def test_a_variant_of_a_nested_memory_folder_at_any_depth(
    repo: Path, tmp_path: Path, variant: str
) -> None:
    """memory.dir of two parts: a variant of either part is the memory folder on a
    case-insensitive checkout."""
    bare = serve(repo, tmp_path, 'dir = "docs/memory"\n')  # the policy from those settings
    assert git(bare, "config", "gitmem.dir").strip() == "docs/memory"
    write(repo, variant, forged("local-method-20261129-x"))
    commit_all(repo, "a variant")
    done: subprocess.CompletedProcess[str] = push(repo, "main")
    assert "variant" in rejected(done, "LAYOUT")


def test_hook_input_lines_are_read_by_the_hook_that_gets_them() -> None:
    """pre-receive gets `old new ref`, pre-push `local-ref local-sha remote-ref remote-sha`:
    a line of the other shape is a usage error, never an update read wrongly."""
    a, b = "a" * 40, "b" * 40
    assert parse_updates(f"{a} {b} refs/heads/main\n", pre_push=False) == [
        Update(a, b, "refs/heads/main")
    ]
    assert parse_updates(f"refs/heads/x {b} refs/heads/main {a}\n", pre_push=True) == [
        Update(a, b, "refs/heads/main")
    ]
    with pytest.raises(UsageError):
        parse_updates(f"{a} {b} refs/heads/main\n", pre_push=True)
    with pytest.raises(UsageError):
        parse_updates(f"refs/heads/x {b} refs/heads/main {a}\n", pre_push=False)


@pytest.mark.parametrize(
    ("line", "named"),
    [
        ("foo bar refs/heads/main", "'foo' is not a full object id"),
        (f"{'0' * 40} {'b' * 39} refs/heads/main", "is not a full object id"),
        (f"{'0' * 40} {'B' * 40} refs/heads/main", "is not a full object id"),
        (f"{'0' * 40} {'b' * 40} main", "'main' is not a full ref name"),
        ("a b c d", "line 1: 'a b c d' is not `<old> <new> <ref>`"),
    ],
)
def test_hook_input_that_git_would_not_write_is_refused_with_its_line(
    line: str, named: str
) -> None:
    """Read as no update, such a line let the push through: `foo bar refs/heads/main` once
    checked as "0 commits, no problems"."""
    with pytest.raises(UsageError, match=named):
        parse_updates(f"{line}\n", pre_push=False)


@pytest.mark.parametrize("pre_push", [False, True])
def test_a_huge_hook_input_line_is_quoted_in_part(pre_push: bool) -> None:
    """A line of a megabyte (`gitmem check --pre-push < a-file`, by hand) was quoted whole:
    a message of a megabyte. Its start and length are quoted, and the message stays a line."""
    with pytest.raises(UsageError) as raised:
        parse_updates("x" * 1_000_000 + "\n", pre_push=pre_push)
    message = raised.value.message
    assert len(message) < 400, len(message)
    assert "line 1: 'xxxx" in message and "(1,000,000 characters)" in message
    assert "as git writes it" in message
    with pytest.raises(UsageError) as raised:
        parse_updates(f"{'0' * 40} {'y' * 1_000_000} refs/heads/main\n", pre_push=False)
    assert len(raised.value.message) < 400 and "is not a full object id" in raised.value.message


@e2e
@pytest.mark.parametrize("hook", ["--pre-receive", "--pre-push"])
def test_hook_input_naming_an_object_the_repository_lacks_is_refused(
    clone: Path, hook: str
) -> None:
    """A well-formed id of no object here was judged as a tag of a tree: no commit, no
    problem. git never names an object the repository lacks as what a push brings."""
    missing = "1234567890" * 4
    zero = "0" * 40
    line = (
        f"{zero} {missing} refs/heads/main"
        if hook == "--pre-receive"
        else f"refs/heads/main {missing} refs/heads/main {zero}"
    )
    server = Path(git(clone, "remote", "get-url", "origin").strip())
    where = clone if hook == "--pre-push" else server
    result = subprocess.run(
        ["gitmem", "check", hook], cwd=where, input=f"{line}\n", capture_output=True, text=True
    )
    assert result.returncode == 2, result.stderr
    assert f"names {missing} for refs/heads/main, which this repository does not hold" in (
        result.stderr
    )
    assert "Traceback" not in result.stderr


@e2e
@pytest.mark.parametrize("local_branch", ["main", None])
def test_the_pre_commit_frameworks_range_alone_names_the_pushed_commit(
    clone: Path, monkeypatch: pytest.MonkeyPatch, local_branch: str | None
) -> None:
    """pre-commit versions that set the range but no PRE_COMMIT_LOCAL_BRANCH: the range's
    end is what is judged."""
    old = git(clone, "rev-parse", "HEAD").strip()
    write(
        clone,
        ".gitmem/entries/method/local-method-20261129-x.md",
        forged("local-method-20261129-x"),
    )
    new = commit_all(clone, "a forged entry")
    monkeypatch.chdir(clone)
    environ = {
        "PRE_COMMIT_REMOTE_NAME": "origin",
        "PRE_COMMIT_REMOTE_BRANCH": "refs/heads/main",
        "PRE_COMMIT_FROM_REF": old,
        "PRE_COMMIT_TO_REF": new,
        **({"PRE_COMMIT_LOCAL_BRANCH": local_branch} if local_branch else {}),
    }
    report = history.check_pushed_by_pre_commit(environ)
    assert "HISTORY-ADMIT" in [p.rule for p in report.errors], report.problems


@e2e
def test_a_candidate_branch_of_a_refused_topic_is_refused_by_the_server(clone: Path) -> None:
    """The client's propose refuses it first; a hand-made branch pushed past the client's
    hook meets the refusals at the server's tip."""
    ok(run(clone, "refuse", propose(clone, "Store memory in a database"), "--reason", "no"))
    accepted(push(clone, "main"))
    entry_id = "local-method-20261201-store-memory-in-a-db"
    git(clone, "checkout", "-q", "-b", f"gitmem/{entry_id}", "main")
    write(
        clone,
        f".gitmem/candidates/{entry_id}.md",
        text(id=entry_id, title="Store memory in a database", created="2026-12-01"),
    )
    commit_all(clone, f"gitmem: propose {entry_id}")
    assert "was refused" in rejected(push(clone, f"gitmem/{entry_id}"), "REFUSED-TOPIC")


@e2e
def test_a_committed_candidates_md_on_main_is_named_as_generated(clone: Path) -> None:
    write(clone, ".gitmem/CANDIDATES.md", "# Candidates\n")
    git(clone, "add", "-f", ".gitmem/CANDIDATES.md")
    git(clone, "commit", "-q", "--no-verify", "-m", "the generated list")
    stderr = rejected(push(clone, "main"), "LAYOUT")
    assert "CANDIDATES.md is generated locally and git-ignored" in stderr
    assert "is not a memory file" not in stderr


@e2e
@pytest.mark.parametrize("case", ["edited", "in pyproject.toml", "replacing pyproject.toml"])
def test_a_change_of_policy_names_the_file_that_holds_it(clone: Path, case: str) -> None:
    where = ".gitmem.toml"
    if case != "edited":  # the settings first move to pyproject.toml (no change of policy)
        git(clone, "rm", "-q", ".gitmem.toml")
        write(clone, "pyproject.toml", '[tool.gitmem.memory]\nproject = "local"\n')
        commit_all(clone, "settings in pyproject.toml")
        accepted(push(clone, "main"))
    if case == "in pyproject.toml":
        where = "pyproject.toml"
        write(clone, where, '[tool.gitmem.memory]\nproject = "local"\nmaxBody = 90000\n')
    else:
        write(clone, where, '[memory]\nproject = "local"\nmaxBody = 90000\n')
    commit_all(clone, "a bigger body")
    stderr = rejected(push(clone, "main"), "HISTORY-SETTINGS")
    assert f"{where}: HISTORY-SETTINGS" in stderr, stderr


@e2e
def test_a_tag_of_a_tree_with_a_memory_file_over_the_scan_cap_is_refused(clone: Path) -> None:
    """What the scanner cannot read whole is refused, in a tagged tree as in a commit: a token
    past the cap would otherwise ride in unscanned."""
    padding = "words without secrets. " * (history.SCAN_CAP // 20)
    write(clone, ".gitmem/candidates/local-method-20261129-x.md", padding + "\n")
    git(clone, "add", "-A")
    tree = git(clone, "write-tree").strip()
    stderr = rejected(push(clone, f"{tree}:refs/tags/a-big-tree"), "TOO-LARGE")
    assert "candidates/local-method-20261129-x.md" in stderr


@e2e
def test_refused_md_holds_gitmem_s_header_then_rows_and_a_bad_line_is_named(repo: Path) -> None:
    """refused.md's first version is gitmem's header (or rows); a line that is no refusal
    row is named by its number, the first version's first line included, and a later append
    of a heading is a bad row, not a header."""
    connect(repo, make_server(repo.parent))
    ok(run(repo, "init"))
    refused = repo / ".gitmem/refused.md"
    header = refused.read_text(encoding="utf-8")
    refused.write_text("not a refusal\n", encoding="utf-8")
    commit_all(repo, "gitmem init, refused.md by hand")
    stderr = rejected(push(repo, "main"), "HISTORY-REFUSED")
    assert "line 1 is not a refusal row" in stderr, stderr
    refused.write_text("# Refusals\n", encoding="utf-8")
    git(repo, "commit", "-q", "--amend", "--no-verify", "-a", "-m", "another heading")
    stderr = rejected(push(repo, "main"), "HISTORY-REFUSED")
    assert "refused.md does not start with gitmem's header" in stderr, stderr
    # after the header and a blank line, a bad line is named by its number in the file
    refused.write_text(header + "\nnot a refusal\n", encoding="utf-8")
    git(repo, "commit", "-q", "--amend", "--no-verify", "-a", "-m", "a bad row after a blank")
    stderr = rejected(push(repo, "main"), "HISTORY-REFUSED")
    assert f"line {header.count(chr(10)) + 2} is not a refusal row" in stderr, stderr
    refused.write_text(header, encoding="utf-8")
    git(repo, "commit", "-q", "--amend", "--no-verify", "-a", "-m", "gitmem init")
    accepted(push(repo, "main"))
    ok(run(repo, "refuse", propose(repo, "Store memory in a database"), "--reason", "no"))
    accepted(push(repo, "main"))
    rows = refused.read_text(encoding="utf-8").count("\n")
    refused.write_text(refused.read_text(encoding="utf-8") + "# Notes\n", encoding="utf-8")
    commit_all(repo, "a heading appended")
    stderr = rejected(push(repo, "main"), "HISTORY-REFUSED")
    assert f"line {rows + 1} is not a refusal row" in stderr, stderr


@e2e
def test_main_force_pushed_to_an_unrelated_history_without_memory_is_judged(repo: Path) -> None:
    """A main rewritten from a new root (history rewritten by hand, no memory on either
    side) is judged commit by commit down to that root, and accepted; with a forged entry
    on it, refused."""
    connect(repo, make_server(repo.parent))
    git(repo, "checkout", "-q", "--orphan", "rewritten")
    write(repo, "src/app.py", "print('hello')\n")
    commit_all(repo, "a new root")
    write(repo, "src/app.py", "print('hello again')\n")
    commit_all(repo, "code")
    accepted(push(repo, "+rewritten:main"))
    write(
        repo,
        ".gitmem/entries/method/local-method-20261129-x.md",
        forged("local-method-20261129-x"),
    )
    commit_all(repo, "a forged entry")
    git(repo, "checkout", "-q", "--orphan", "again")
    commit_all(repo, "another root, with the forged entry")
    rejected(push(repo, "+again:main"), "HISTORY-ADMIT")


@e2e
@pytest.mark.parametrize("by", ["bot", "human:"])
def test_an_admitter_that_is_no_person_and_no_audit_is_refused(clone: Path, by: str) -> None:
    """admitted_by names a person (human:<name>) or an audit; anything else admits nothing."""
    entry_id = propose(clone, "Keep the memory reviewed")
    admit_by_hand(clone, f"gitmem/{entry_id}", entry_id, admitted_by=by)
    stderr = rejected(push(clone, "main"), "HISTORY-ADMITTER")
    assert f"admitted_by {by!r} is not an allowed admitter" in stderr, stderr


def tree_of(repo: Path) -> str:
    return git(repo, "rev-parse", "HEAD^{tree}").strip()


@e2e
def test_allowed_md_rows_are_scanned_without_their_fingerprints(clone: Path) -> None:
    """A fingerprint's hex digits beside the word token would look like a secret to the
    entropy rule: allowed.md is scanned with them blanked, in a commit as in a tagged tree;
    the rest of its rows is scanned."""
    from gitmem.gate import secrets
    from gitmem.model import allowed

    fingerprint = secrets.fingerprint("github-pat", github_token(35).encode())
    row = allowed.Allowance(
        fingerprint, "local-method-20261129-x", "human:bob", "2026-11-30", "a revoked token"
    )
    write(clone, ".gitmem/allowed.md", allowed.append(None, [row]))
    git(clone, "add", "-A")
    accepted(push(clone, f"{git(clone, 'write-tree').strip()}:refs/tags/allowed"))
    git(clone, "checkout", "-q", "-b", "side")
    commit_all(clone, "allowed.md on a side branch")
    accepted(push(clone, "side"))
    token = github_token(36)
    row = allowed.Allowance(
        fingerprint, "local-method-20261129-x", "human:bob", "2026-11-30", token
    )
    write(clone, ".gitmem/allowed.md", allowed.append(None, [row]))
    git(clone, "add", "-A")
    stderr = rejected(
        push(clone, f"{git(clone, 'write-tree').strip()}:refs/tags/a-token"), "SECRET"
    )
    assert ".gitmem/allowed.md" in stderr and token not in stderr


@e2e
def test_a_token_in_allowed_md_s_fingerprint_column_is_scanned_on_any_ref(clone: Path) -> None:
    """A row's fingerprint is blanked before the scan; the shape blanked was any lower-case
    word, a colon and 32 hex digits, so a lower-case token in the rule id's place (an API
    key of letters, digits and dashes) stood in allowed.md on a branch unread. Only a
    fingerprint this scanner gives (one of its rule ids) is blanked now."""
    from gitmem.model import allowed

    token = "sk-or-v1-" + "a4c123b1612dd272d1371c17149d439536b3216fdaeeb975729fae923d5a4fd1"
    row = allowed.Allowance(
        f"{token}:{'0123456789abcdef' * 2}",
        "local-method-20261129-x",
        "human:bob",
        "2026-11-30",
        "a revoked token",
    )
    git(clone, "checkout", "-q", "-b", "side")
    write(clone, ".gitmem/allowed.md", allowed.append(None, [row]))
    commit_all(clone, "allowed.md on a side branch")
    stderr = rejected(push(clone, "side"), "SECRET")
    assert ".gitmem/allowed.md" in stderr and token not in stderr


@e2e
def test_a_symbolic_link_in_the_memory_folder_is_refused(clone: Path) -> None:
    """A link is named, and the files after it in the same commit are still scanned."""
    folder = clone / ".gitmem/candidates"
    folder.mkdir(parents=True, exist_ok=True)
    os.symlink("../../README.md", folder / "local-method-20261201-a-link.md")
    os.symlink("../../README.md", folder / "local-method-20261201-b-link.md")
    token = github_token(35)
    write(
        clone,
        ".gitmem/entries/method/local-method-20261201-x.md",
        forged("local-method-20261201-x", rationale=f"use {token}"),
    )
    commit_all(clone, "a link and a token")
    for pushed in ("main", f"{tree_of(clone)}:refs/tags/a-tree"):  # a commit, a tagged tree
        stderr = rejected(push(clone, pushed), "SYMLINK")
        assert stderr.count("a symbolic link in the memory folder") == 2, stderr
        assert " SECRET " in stderr and token not in stderr, stderr


@e2e
def test_a_memory_file_or_a_message_over_its_cap_is_refused_unread(clone: Path) -> None:
    """What the scanner would read only in part is refused: a memory file over the scan cap
    in a pushed commit (on any ref), a candidate commit's message over the message cap."""
    git(clone, "checkout", "-q", "-b", "feature")
    padding = "words without secrets. " * (history.SCAN_CAP // 20)
    write(clone, ".gitmem/candidates/local-method-20261129-x.md", padding + "\n")
    token = github_token(35)  # in a file after the big one: still scanned
    write(clone, ".gitmem/entries/method/local-method-20261129-y.md", f"use {token}\n")
    commit_all(clone, "a big file")
    for pushed in ("feature", f"{tree_of(clone)}:refs/tags/a-tree"):  # a commit, a tagged tree
        stderr = rejected(push(clone, pushed), "TOO-LARGE")
        assert f"is over {history.SCAN_CAP // 1024} KiB" in stderr, stderr
        assert " SECRET " in stderr and token not in stderr, stderr
    git(clone, "checkout", "-q", "main")
    entry_id = propose(clone, "Keep the memory reviewed", push_it=False)
    git(clone, "checkout", "-q", f"gitmem/{entry_id}")
    message = "gitmem: propose\n\n" + "long words " * (history.MESSAGE_CAP // 10)
    git(clone, "commit", "-q", "--amend", "--no-verify", "-m", message)
    stderr = rejected(push(clone, f"gitmem/{entry_id}"), "TOO-LARGE")
    assert f"a commit message over {history.MESSAGE_CAP // 1024} KiB" in stderr, stderr


@e2e
@pytest.mark.parametrize(
    ("name", "rule", "message"),
    [
        ("refused.md", "HISTORY-REFUSED", "refused.md is deleted: it only grows"),
        ("INDEX.md", "INDEX", "INDEX.md is missing: run `gitmem index`"),
    ],
)
def test_refused_md_or_index_md_deleted_from_main_is_named(
    clone: Path, name: str, rule: str, message: str
) -> None:
    git(clone, "rm", "-q", f".gitmem/{name}")
    commit_all(clone, f"no {name}")
    stderr = rejected(push(clone, "main"), rule)
    assert f".gitmem/{name}: {rule} {message}" in stderr, stderr


@e2e
def test_a_candidate_branch_without_its_own_file_is_refused(clone: Path) -> None:
    entry_id = "local-method-20261201-nothing-here"
    git(clone, "checkout", "-q", "-b", f"gitmem/{entry_id}")
    write(clone, "src/app.py", "print('hello')\n")
    commit_all(clone, "code")
    stderr = rejected(push(clone, f"gitmem/{entry_id}"), "CANDIDATE-BRANCH")
    assert f"holds no .gitmem/candidates/{entry_id}.md" in stderr, stderr


@e2e
def test_the_memory_folder_s_own_files_change_only_by_a_policy_admin(clone: Path) -> None:
    """README.md and .gitignore of the memory folder are maintenance: a policy admin named in
    the server's config changes them; anyone else is refused."""
    server = clone.parent / "server.git"
    write(clone, ".gitmem/README.md", "Our memory.\n")
    commit_all(clone, "a readme for the memory")
    stderr = rejected(push(clone, "main", env={"GITMEM_PUSHER": "mallory"}), "HISTORY-EDIT")
    assert "only a policy admin (gitmem.policyAdmins) pushes that" in stderr, stderr
    git(server, "config", "--add", "gitmem.policyAdmins", "root")
    # even the admin changes it alone: beside an entry, the commit is no maintenance
    write(clone, ".gitmem/README.md", "Our memory, reviewed.\n")
    write(clone, entry_path("local-method-20261129-x"), forged("local-method-20261129-x"))
    commit_all(clone, "a readme and an entry")
    stderr = rejected(push(clone, "main", env={"GITMEM_PUSHER": "root"}), "HISTORY-EDIT")
    assert "changes README.md beside other memory files: a policy admin changes it alone" in (
        stderr
    ), stderr
    git(clone, "reset", "-q", "--hard", "HEAD~1")
    accepted(push(clone, "main", env={"GITMEM_PUSHER": "root"}))


@e2e
def test_an_admit_merge_adds_its_own_entry_and_no_other(clone: Path) -> None:
    """The merge of `gitmem: admit X` adds entries/<type>/X.md and nothing else: another
    entry beside it is named, and one instead of it is named with X's missing file."""
    entry_id = propose(clone, "Keep the memory reviewed")
    admit_by_hand(clone, f"gitmem/{entry_id}", entry_id)
    other = "local-method-20261129-other"
    write(clone, entry_path(other), forged(other))
    index(clone)
    git(clone, "add", "-A")
    git(clone, "commit", "-q", "--amend", "--no-verify", "--no-edit")
    stderr = rejected(push(clone, "main"), "HISTORY-ADMIT")
    assert f"{other}.md: HISTORY-ADMIT the admit merge of {entry_id} adds another entry" in stderr
    assert "adds no entries/" not in stderr, stderr
    git(clone, "rm", "-q", entry_path(entry_id))
    index(clone)
    git(clone, "add", "-A")
    git(clone, "commit", "-q", "--amend", "--no-verify", "--no-edit")
    stderr = rejected(push(clone, "main"), "HISTORY-ADMIT")
    assert f"the admit merge of {entry_id} adds no entries/<type>/{entry_id}.md" in stderr


@e2e
def test_an_admit_merge_of_no_candidate_or_with_another_status_is_refused(clone: Path) -> None:
    """The admitted entry has status admitted, and the merge's second parent carries the
    candidate it was made from."""
    entry_id = propose(clone, "Keep the memory reviewed")
    admit_by_hand(clone, f"gitmem/{entry_id}", entry_id, status="retired")
    stderr = rejected(push(clone, "main"), "HISTORY-ADMIT")
    assert "an admitted entry has status 'retired'" in stderr, stderr
    git(clone, "reset", "-q", "--hard", "origin/main")
    git(clone, "checkout", "-q", "-b", "feature")
    write(clone, "src/app.py", "print('hello')\n")
    side = commit_all(clone, "code")
    git(clone, "checkout", "-q", "main")
    write(clone, entry_path(entry_id), forged(entry_id, admitted_by="human:alice"))
    index(clone)
    git(clone, "add", "-A")
    merge_commit(clone, f"gitmem: admit {entry_id}", "HEAD", side)
    stderr = rejected(push(clone, "main"), "HISTORY-ADMIT")
    assert f"the merge's second parent carries no .gitmem/candidates/{entry_id}.md" in stderr


@e2e
@pytest.mark.parametrize("source", ["human:alice", "audit:verdict.md"])
def test_an_audit_admits_only_audit_sourced_lessons_of_its_kinds(clone: Path, source: str) -> None:
    """An admission by an audit (admitted_by audit:…) is for a code-structure or mistake
    entry that an audit proposed; a method is not one, whoever proposed it, whatever the
    policy."""
    entry_id = "local-method-20261129-audited"  # by hand: propose refuses an audit's method
    candidate_by_hand(clone, f"gitmem/{entry_id}", entry_id, text(id=entry_id, source=source))
    admit_by_hand(clone, f"gitmem/{entry_id}", entry_id, admitted_by="audit:verdict.md")
    stderr = rejected(push(clone, "main"), "HISTORY-ADMITTER")
    assert "an audit admits only audit-sourced code-structure or mistake entries" in stderr
    assert f"not a method from {source}" in stderr, stderr


@e2e
@pytest.mark.parametrize(
    ("candidate", "words"),
    [
        ("---\nnot: [front matter\n", "the admitted candidate does not parse"),
        (None, "the second parent's file is not a candidate"),
    ],
)
def test_an_admission_is_of_a_candidate_the_second_parent_carries(
    clone: Path, candidate: str | None, words: str
) -> None:
    """The admitted text is proven against the second parent's candidate file, which must
    parse and be a candidate: a file there in another state admits nothing."""
    entry_id = "local-method-20261129-keep-the-memory-reviewed"
    git(clone, "checkout", "-q", "-b", f"gitmem/{entry_id}")
    write(clone, f".gitmem/candidates/{entry_id}.md", candidate or forged(entry_id))
    side = commit_all(clone, f"gitmem: propose {entry_id}")
    git(clone, "checkout", "-q", "main")
    write(clone, entry_path(entry_id), forged(entry_id, admitted_by="human:alice"))
    index(clone)
    git(clone, "add", "-A")
    merge_commit(clone, f"gitmem: admit {entry_id}", "HEAD", side)
    assert words in rejected(push(clone, "main"), "HISTORY-ADMIT")


@pytest.mark.parametrize("end", ["HEAD", "main", "refs/heads/main", "origin/main"])
def test_a_range_check_judges_the_memory_branch_however_its_end_is_named(
    clone: Path, end: str
) -> None:
    """`gitmem check --range A..B` judges B as the memory branch when B names it: HEAD on it,
    its name, its full ref, or a remote's tracking ref of it (what CI has after a fetch)."""
    base = git(clone, "rev-parse", "HEAD").strip()
    entry_id = "local-method-20261129-forged"
    write(clone, entry_path(entry_id), forged(entry_id))
    index(clone)
    forged_tip = commit_all(clone, "a forged entry")
    if end == "origin/main":
        git(clone, "reset", "-q", "--hard", base)  # the forged main is the remote's only
        git(clone, "update-ref", "refs/remotes/origin/main", forged_tip)
    result = run(clone, "check", "--range", f"{base}..{end}")
    assert result.exit_code == 1 and "HISTORY-ADMIT" in result.output, result.output


@e2e
def test_the_message_of_any_commit_that_changes_the_memory_is_scanned(clone: Path) -> None:
    """Not only `gitmem: …` messages: a commit that changes a memory file has its message
    scanned, whatever it says; a code commit's message is code's business."""
    token = github_token(37)
    git(clone, "checkout", "-q", "-b", "side")
    write(clone, ".gitmem/candidates/local-method-20261201-x.md", "a note\n")
    git(clone, "add", "-A")
    git(clone, "commit", "-q", "--no-verify", "-m", f"notes\n\ndeploy with {token}")
    stderr = rejected(push(clone, "side"), "SECRET")
    assert "message" in stderr and token not in stderr
    git(clone, "reset", "-q", "--hard", "HEAD~1")
    write(clone, "src/app.py", "print('hello')\n")
    git(clone, "add", "-A")
    git(clone, "commit", "-q", "--no-verify", "-m", f"code\n\ndeploy with {token}")
    accepted(push(clone, "side"))


def test_a_diff_stream_that_ends_before_a_commit_is_an_error_not_a_guess(repo: Path) -> None:
    """The diffs of a big push come from one git process, read up to each commit; if git
    stops before giving a commit's diff, judging stops with an error (exit 3 on a server:
    the push is refused), never with that commit taken as changing nothing."""
    from gitmem.repo.store import Store
    from gitmem.settings.policy import Policy

    judge = history.Judge(Store.open(repo), Policy(), [])
    commit = git(repo, "rev-parse", "HEAD").strip()

    def ended() -> Iterator[tuple[tuple[str, str | None], list[Change]]]:
        yield (("0" * 40, None), [])  # another commit's diff, then nothing

    judge.stream = ended()
    judge.streamed.add((commit, None))
    with pytest.raises(GitmemError, match="gave no answer for commit"):
        history._memory_changes(judge, commit, None)
    assert judge.stream is None


@e2e
def test_every_memory_file_a_commit_adds_is_scanned_after_one_it_deletes(clone: Path) -> None:
    """A commit's changes are read in path order: a deletion, or a file already scanned,
    is passed over, never the end of the commit's scan."""
    token = github_token(38)
    git(clone, "checkout", "-q", "-b", "side")
    git(clone, "rm", "-q", ".gitmem/INDEX.md")  # sorts before candidates/
    write(clone, ".gitmem/candidates/local-method-20261201-a.md", "the same words\n")
    write(clone, ".gitmem/candidates/local-method-20261201-b.md", "the same words\n")
    write(clone, ".gitmem/candidates/local-method-20261201-c.md", f"use {token}\n")
    commit_all(clone, "a deletion, a file twice, a token")
    stderr = rejected(push(clone, "side"), "SECRET")
    assert "candidates/local-method-20261201-c.md" in stderr and token not in stderr


@e2e
def test_an_index_md_over_the_scan_cap_is_proven_not_scanned(memory: Path, tmp_path: Path) -> None:
    """A big memory's INDEX.md is far over the scan cap (64 KiB: some 400 entries):
    an admission's INDEX.md is proven to be its parent's brought up to date with the entry,
    which is scanned itself, so it is never refused as too large to scan."""
    (memory / ".gitmem.toml").write_text('[memory]\nproject = "local"\n')
    for number in range(500):
        entry_id = f"local-method-20261129-keep-step-{number:03d}-reviewed"
        title = f"Keep step {number} of the release reviewed by a second person"
        write(memory, entry_path(entry_id), forged(entry_id, title=title))
    index(memory)
    assert (memory / ".gitmem/INDEX.md").stat().st_size > history.SCAN_CAP
    commit_all(memory, "a big memory, from before the gate")
    bare = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    git(memory, "remote", "add", "origin", str(bare))
    accepted(push(memory, "main"))
    installer.install(bare, server=True)  # the gate from here on
    entry_id = admitted(memory, "Pin the hooks by hash")
    assert entry_id in git(bare, "show", "main:.gitmem/INDEX.md")


@e2e
def test_a_name_like_a_deeper_part_of_the_memory_folder_elsewhere_is_no_variant(
    repo: Path, tmp_path: Path
) -> None:
    """memory.dir docs/memory: `Memory/` at the top is not on the memory folder's way (only
    under docs/ would it be), in a commit that has no docs/ at all; nor is anything in a
    commit where docs is a file."""
    serve(repo, tmp_path, 'dir = "docs/memory"\n')
    git(repo, "checkout", "-q", "-b", "side")
    git(repo, "rm", "-q", "-r", "docs")
    write(repo, "Memory/notes.md", "what I remember\n")
    commit_all(repo, "no docs, a folder of notes")
    accepted(push(repo, "side"))
    write(repo, "docs", "docs is a file here\n")  # the memory folder's way ends at a file
    commit_all(repo, "docs as a file")
    accepted(push(repo, "side"))


@e2e
def test_an_admit_merge_that_also_deletes_an_admitted_entry_is_refused(clone: Path) -> None:
    """An admission whose merge also deletes another entry: the deletion is named, by the
    admit merge's own rule, not taken as one of its supersession flips."""
    old = admitted(clone, "Review memory like code")
    new = propose(clone, "Pin the hooks by hash", push_it=False)
    git(clone, "merge", "-q", "--no-ff", "--no-commit", f"gitmem/{new}")
    candidate = (clone / f".gitmem/candidates/{new}.md").read_text()
    entry = parse(candidate).with_meta(
        status="admitted", admitted_by="human:alice", admitted="2026-11-30"
    )
    git(clone, "rm", "-q", "-f", f".gitmem/candidates/{new}.md", entry_path(old))
    write(clone, entry_path(new), entry.render())
    index(clone)
    commit_all(clone, f"gitmem: admit {new}")
    stderr = rejected(push(clone, "main"), "HISTORY-DELETE")
    assert f"{entry_path(old)}: HISTORY-DELETE the admit merge of {new}" in stderr, stderr
    # the hint for a merge that brings memory in through its second parent is not for this one
    assert "brings memory in through a parent other than its first" not in stderr, stderr


@e2e
def test_a_candidate_branch_whose_candidate_is_gone_at_its_tip(clone: Path) -> None:
    """The candidate's commit, a broken version, then its deletion: the branch is refused for
    holding no candidate, and the file rules judge what the tip holds (nothing), not the
    broken file a commit on the way held."""
    entry_id = propose(clone, "Keep the memory reviewed", push_it=False)
    git(clone, "checkout", "-q", f"gitmem/{entry_id}")
    (clone / f".gitmem/candidates/{entry_id}.md").write_text("not an entry at all\n")
    commit_all(clone, "a broken candidate")
    git(clone, "rm", "-q", f".gitmem/candidates/{entry_id}.md")
    commit_all(clone, "and gone")
    stderr = rejected(push(clone, f"gitmem/{entry_id}"), "CANDIDATE-BRANCH")
    assert f"holds no .gitmem/candidates/{entry_id}.md" in stderr
    assert " SCHEMA " not in stderr and "1 problem in 1 file" in stderr, stderr


@e2e
def test_a_candidate_that_does_not_parse_at_the_tip_is_refused_by_the_file_rules(
    clone: Path,
) -> None:
    """What the judge could not parse is left to the file rules, which name the line."""
    entry_id = propose(clone, "Keep the memory reviewed", push_it=False)
    git(clone, "checkout", "-q", f"gitmem/{entry_id}")
    (clone / f".gitmem/candidates/{entry_id}.md").write_text("---\ntitle: [unclosed\n---\n")
    commit_all(clone, "a broken candidate")
    stderr = rejected(push(clone, f"gitmem/{entry_id}"), "FRONT-MATTER")
    assert f"candidates/{entry_id}.md:3: FRONT-MATTER front matter is not valid YAML" in stderr


@e2e
def test_an_admit_merge_of_an_entry_that_does_not_parse_is_named(clone: Path) -> None:
    entry_id = propose(clone, "Keep the memory reviewed", push_it=False)
    admit_by_hand(clone, f"gitmem/{entry_id}", entry_id)
    (clone / entry_path(entry_id)).write_text("---\ntitle: [unclosed\n---\n")
    git(clone, "commit", "-q", "--amend", "--no-verify", "-a", "--no-edit")
    stderr = rejected(push(clone, "main"), "HISTORY-ADMIT")
    assert f"{entry_path(entry_id)}: HISTORY-ADMIT the admitted entry does not parse" in stderr


@e2e
def test_allowed_rows_beside_an_entry_that_does_not_parse_have_no_admitter(clone: Path) -> None:
    """With no admitted entry to read admitted_by from, no allowed.md row is the admitter's."""
    from gitmem.gate import secrets
    from gitmem.model import allowed

    entry_id = propose(clone, "Keep the memory reviewed", push_it=False)
    fingerprint = secrets.fingerprint("github-pat", github_token(35).encode())
    row = allowed.Allowance(fingerprint, entry_id, "human:bob", "2026-11-30", "a test")
    admit_allowing(clone, entry_id, allowed.append(None, [row]))
    (clone / entry_path(entry_id)).write_text("---\ntitle: [unclosed\n---\n")
    git(clone, "commit", "-q", "--amend", "--no-verify", "-a", "--no-edit")
    stderr = rejected(push(clone, "main"), "HISTORY-ADMIT")
    assert f"allowed.md gains a row that is not the admitter's for {entry_id}" in stderr, stderr


def proposed_holding(clone: Path, title: str, token: str) -> str:
    """A candidate whose content holds token, committed by hand on its branch (gitmem propose
    refuses a secret): an allowed.md row may be for a finding of the entry it is admitted with
    only."""
    entry_id = "local-method-20261129-" + title.lower().replace(" ", "-")
    body = f"## Context\nc\n\n## Content\nuse {token}\n\n## Evidence\ne\n"
    candidate = text(id=entry_id, title=title, applies_when=f"when {title}", body=body)
    candidate_by_hand(clone, f"gitmem/{entry_id}", entry_id, candidate)
    return entry_id


def admit_allowing(
    clone: Path, entry_id: str, allowed_md: str | None, by: str = "human:bob"
) -> None:
    """An admit merge of entry_id (by human:bob), made by hand, whose allowed.md is allowed_md
    (None: deleted)."""
    admit_by_hand(clone, f"gitmem/{entry_id}", entry_id, admitted_by=by)
    if allowed_md is None:
        git(clone, "rm", "-q", ".gitmem/allowed.md")
    else:
        write(clone, ".gitmem/allowed.md", allowed_md)
    git(clone, "add", "-A")
    git(clone, "commit", "-q", "--amend", "--no-verify", "--no-edit")


@e2e
def test_an_admit_merge_may_add_only_its_admitters_allowed_rows_for_its_entry(
    clone: Path,
) -> None:
    """allowed.md rows in an admit merge are the admitter's, for the entry admitted: a row by
    someone else, or for another entry, is an edit."""
    from gitmem.gate import secrets
    from gitmem.model import allowed

    entry_id = proposed_holding(clone, "Keep the memory reviewed", github_token(35))
    fingerprint = secrets.fingerprint("github-pat", github_token(35).encode())
    own = allowed.Allowance(fingerprint, entry_id, "human:bob", "2026-11-30", "ok")
    carols = allowed.Allowance(fingerprint, entry_id, "human:carol", "2026-11-30", "a test")
    elsewhere = allowed.Allowance(
        fingerprint, "local-method-20261129-other", "human:bob", "2026-11-30", "a test"
    )
    for allowed_md in (
        allowed.append(None, [carols]),
        allowed.append(None, [elsewhere]),
        allowed.append(allowed.append(None, [own]) + "\n", [carols]),  # after a blank line
    ):
        admit_allowing(clone, entry_id, allowed_md)
        stderr = rejected(push(clone, "main"), "HISTORY-EDIT")
        assert f"allowed.md gains a row that is not human:bob's for {entry_id}" in stderr, stderr
        git(clone, "reset", "-q", "--hard", "HEAD~1")
    # a "fingerprint" whose rule id is no rule's: a lower-case token in an unscanned column
    smuggled = allowed.Allowance(
        "dapi" + "0123456789abcdef" * 2 + ":" + "ab" * 16, entry_id, "human:bob", "2026-11-30", "ok"
    )
    admit_allowing(clone, entry_id, allowed.append(None, [smuggled]))
    stderr = rejected(push(clone, "main"), "HISTORY-EDIT")
    assert "fingerprint that names no rule of the secret scanner" in stderr, stderr
    git(clone, "reset", "-q", "--hard", "HEAD~1")
    # the admitter's own row, and a blank line after it, land
    admit_allowing(clone, entry_id, allowed.append(None, [own]) + "\n")
    accepted(push(clone, "main"))


@e2e
def test_allowed_md_in_a_later_admit_merge_only_grows_by_its_admitters_rows(clone: Path) -> None:
    """Once allowed.md holds rows, a later admit merge may only append its admitter's rows for
    its own entry: deleting the file, editing a row, or appending a row for another entry is
    named."""
    from gitmem.gate import secrets
    from gitmem.model import allowed

    first = proposed_holding(clone, "Keep the memory reviewed", github_token(35))
    fingerprint = secrets.fingerprint("github-pat", github_token(35).encode())
    rows = allowed.append(
        None, [allowed.Allowance(fingerprint, first, "human:bob", "2026-11-30", "ok")]
    )
    admit_allowing(clone, first, rows)
    accepted(push(clone, "main"))
    second = proposed_holding(clone, "Review it all", github_token(35))
    again = allowed.Allowance(fingerprint, first, "human:bob", "2026-11-30", "again")
    own = allowed.Allowance(fingerprint, second, "human:bob", "2026-11-30", "ok")
    not_bobs = f"allowed.md gains a row that is not human:bob's for {second}"
    for allowed_md, message in (
        (None, "allowed.md is deleted: it only grows"),
        (rows.replace("| ok |", "| fine |"), "allowed.md is edited: it only grows"),
        (allowed.append(rows, [again]), not_bobs),
        # gitmem's header again before a row of its own: appended, the header is no row
        (rows + allowed.append(None, [own]), not_bobs),
    ):
        admit_allowing(clone, second, allowed_md)
        stderr = rejected(push(clone, "main"), "HISTORY-EDIT")
        assert f".gitmem/allowed.md: HISTORY-EDIT {message}" in stderr, stderr
        git(clone, "reset", "-q", "--hard", "HEAD~1")


@e2e
def test_an_admitter_who_wrote_the_candidates_commit_may_not_allow_its_finding(
    clone: Path,
) -> None:
    """The candidate's author is its human source or, for an imported candidate, whoever made
    its commit: neither may record the exception for its finding."""
    from gitmem.gate import secrets
    from gitmem.model import allowed

    entry_id = propose(
        clone, "Keep the memory reviewed", "--source", "import:docs/adr.md", push_it=False
    )
    fingerprint = secrets.fingerprint("github-pat", github_token(35).encode())
    by = "human:Test Author"  # the tests' git author, who made the candidate's commit
    row = allowed.Allowance(fingerprint, entry_id, by, "2026-11-30", "ok")
    admit_allowing(clone, entry_id, allowed.append(None, [row]), by=by)
    stderr = rejected(push(clone, "main"), "HISTORY-ADMITTER")
    assert f"{by} allows a finding of their own candidate {entry_id}" in stderr, stderr


@e2e
def test_an_amend_merge_of_a_branch_that_holds_no_amend_candidate_is_named(
    admitted_clone: tuple[Path, str],
) -> None:
    clone, entry_id = admitted_clone
    git(clone, "checkout", "-q", "-b", "side")
    write(clone, "notes.txt", "no candidate here\n")
    commit_all(clone, "code")
    git(clone, "checkout", "-q", "main")
    path = clone / entry_path(entry_id)
    git(clone, "merge", "-q", "--no-ff", "--no-commit", "side")
    path.write_text(parse(path.read_text()).with_meta(title="Rewritten").render())
    index(clone)
    commit_all(clone, f"gitmem: amend {entry_id}-amend")
    stderr = rejected(push(clone, "main"), "HISTORY-AMEND")
    assert "the amend merge's second parent carries no amend candidate" in stderr, stderr


@e2e
def test_allowed_md_changed_outside_an_admit_merge_is_named(clone: Path) -> None:
    from gitmem.gate import secrets
    from gitmem.model import allowed

    fingerprint = secrets.fingerprint("github-pat", github_token(35).encode())
    row = allowed.Allowance(fingerprint, "local-method-20261129-x", "human:eve", "2026-11-30", "")
    write(clone, ".gitmem/allowed.md", allowed.append(None, [row]))
    commit_all(clone, "an exception, by hand")
    stderr = rejected(push(clone, "main"), "HISTORY-EDIT")
    assert "changes allowed.md outside an admit merge" in stderr, stderr


@e2e
def test_a_candidate_branch_with_many_stray_files_names_five(clone: Path) -> None:
    """The message names the first five files a candidate branch strays into, and says when
    there are more."""
    entry_id = propose(clone, "Keep the memory reviewed", push_it=False)
    git(clone, "checkout", "-q", f"gitmem/{entry_id}")
    for n in range(6):
        write(clone, f"a{n}.py", "print('sneaky')\n")
    commit_all(clone, "the candidate and code")
    stderr = rejected(push(clone, f"gitmem/{entry_id}"), "CANDIDATE-BRANCH")
    assert "changes a0.py, a1.py, a2.py, a3.py, a4.py …: a candidate branch" in stderr, stderr
    git(clone, "rm", "-q", "a5.py")
    git(clone, "commit", "-q", "--amend", "--no-verify", "--no-edit")
    stderr = rejected(push(clone, f"gitmem/{entry_id}"), "CANDIDATE-BRANCH")
    assert "changes a0.py, a1.py, a2.py, a3.py, a4.py: a candidate branch" in stderr, stderr


@e2e
def test_a_stray_code_file_whose_name_holds_a_secret_is_not_named(clone: Path) -> None:
    """The gate judges no code file's name, but the CANDIDATE-BRANCH message named each file
    a candidate branch strays into as it was: a token in a code file's name reached the
    push's output, CI logs and a code-scanning upload."""
    token = github_token(11)
    entry_id = propose(clone, "Keep the memory reviewed", push_it=False)
    git(clone, "checkout", "-q", f"gitmem/{entry_id}")
    write(clone, f"src/{token}.txt", "sneaky\n")
    write(clone, "src/app.py", "print('sneaky')\n")
    commit_all(clone, "the candidate and code")
    stderr = rejected(push(clone, f"gitmem/{entry_id}"), "CANDIDATE-BRANCH")
    assert token not in stderr and token[4:20] not in stderr, stderr
    assert "changes src/app.py, (withheld: a name holding a secret, sha256 " in stderr, stderr


@e2e
@pytest.mark.parametrize(
    "server_ref", ["refs/pull/1/head", "refs/merge-requests/1/head", "refs/keep-around/x"]
)
def test_commits_a_forge_s_own_ref_holds_are_still_judged(
    memory: Path, tmp_path: Path, server_ref: str
) -> None:
    """The walk of a push left out every commit the server held under any ref, as judged
    when it was pushed. A forge writes refs of its own without a push through the hook (a
    pull request from a fork, GitLab's merge-request and keep-around refs): a commit whose
    message spoke for gitmem with a token in it, held so, then reached main unscanned when
    a push of main brought it. Only branches, tags and notes, which every push is judged
    for, leave their commits out."""
    server = make_server(tmp_path)
    clone = connect(memory, server)
    write(clone, "src/app.py", "print('hello')\n")
    held = commit_all(clone, f"gitmem: rotate {github_token(12)}")
    git(server, "fetch", "-q", str(clone), f"{held}:{server_ref}")  # the forge's own write
    write(clone, "src/app.py", "print('hello, again')\n")
    commit_all(clone, "code")
    stderr = rejected(push(clone, "main"), "SECRET")
    assert held[:12] in stderr, stderr


@e2e
def test_a_candidate_updated_with_main_is_read_from_its_own_file_in_a_long_push(
    clone: Path,
) -> None:
    """The admitted candidate is the second parent's own file, also when that parent is an
    "update branch" merge that brings main's admissions (other memory files) along, and in a
    push of history.BULK_DIFF_MIN commits or more, whose diffs one git process streams."""
    for n in range(history.BULK_DIFF_MIN):
        write(clone, "notes.txt", f"{n}\n")
        commit_all(clone, f"code {n}")
    waiting = propose(clone, "Keep the memory reviewed", push_it=False)
    ok(run(clone, "admit", propose(clone, "Pin the hooks by hash", push_it=False)))
    git(clone, "checkout", "-q", f"gitmem/{waiting}")
    git(clone, "merge", "-q", "--no-ff", "-m", "Merge main into the candidate", "main")
    git(clone, "checkout", "-q", "main")
    ok(run(clone, "admit", waiting))
    accepted(push(clone, "main"))


@e2e
def test_a_first_push_that_admits_an_entry_and_deletes_it_is_refused(
    memory: Path, tmp_path: Path
) -> None:
    """A first push has no memory folder on the server to compare with: an entry admitted and
    then deleted within it is still a deletion, refused (and no crash of the tip's file rules,
    which find no such file at the tip)."""
    connect(memory, make_server(tmp_path), push_main=False)
    entry_id = propose(memory, "Keep the memory reviewed", push_it=False)
    ok(run(memory, "admit", entry_id))
    git(memory, "rm", "-q", entry_path(entry_id))
    index(memory)
    commit_all(memory, "the entry, gone")
    stderr = rejected(push(memory, "main"), "HISTORY-DELETE")
    assert f"{entry_path(entry_id)}: HISTORY-DELETE deletes an entry" in stderr, stderr


@e2e
def test_a_copy_of_an_entry_outside_entries_is_judged_as_a_stray_file(clone: Path) -> None:
    """The tip's file rules judge a memory file by where it is, not by what its bytes parse
    as: an exact copy of an entry the same push admits, elsewhere in the folder, is a stray
    file."""
    entry_id = propose(clone, "Keep the memory reviewed", push_it=False)
    ok(run(clone, "admit", entry_id))
    write(clone, ".gitmem/copy.md", (clone / entry_path(entry_id)).read_text())
    commit_all(clone, "a copy")
    stderr = rejected(push(clone, "main"), "LAYOUT")
    tip = "is not a memory file: entries live in .gitmem/entries/<type>/<id>.md and candidates"
    assert f".gitmem/copy.md: LAYOUT {tip}" in stderr, stderr  # the tip's rule, beside the commit's
    assert "2 problems in 1 file" in stderr, stderr


@e2e
def test_a_memory_folder_deleted_and_partly_restored_is_blamed_for_what_each_commit_did(
    clone: Path,
) -> None:
    """INDEX.md is proven against the first parent's memory folder: after a commit that
    deletes the whole folder, the next one's INDEX.md is judged against no index at all, not
    against the folder as it was before the deletion."""
    kept = propose(clone, "Keep the memory reviewed", push_it=False)
    ok(run(clone, "admit", kept))
    dropped = propose(clone, "Pin the hooks by hash", push_it=False)
    ok(run(clone, "admit", dropped))
    both = git(clone, "rev-parse", "HEAD").strip()
    git(clone, "rm", "-q", "-r", ".gitmem")
    commit_all(clone, "no memory")
    git(clone, "checkout", both, "--", ".gitmem")
    git(clone, "rm", "-q", "-f", entry_path(dropped))
    index(clone)
    commit_all(clone, "part of it back")
    stderr = rejected(push(clone, "main"), "HISTORY-DELETE")
    assert " INDEX " not in stderr, stderr


@e2e
def test_hidden_unicode_in_a_pushed_candidate_is_named_as_such(clone: Path) -> None:
    """The server names a bidirectional control in a candidate HIDDEN-UNICODE (what a reviewer
    cannot see), not SECRET (what must be rotated)."""
    entry_id = propose(clone, "Keep the memory reviewed", push_it=False)
    git(clone, "checkout", "-q", f"gitmem/{entry_id}")
    path = clone / f".gitmem/candidates/{entry_id}.md"
    path.write_text(path.read_text().replace("Do Keep", "Do \u202eKeep"))
    commit_all(clone, "a hidden control")
    stderr = rejected(push(clone, f"gitmem/{entry_id}"), "HIDDEN-UNICODE")
    assert "U+202E" in stderr and " SECRET " not in stderr, stderr
    assert "remove it, it can hide text from reviewers" in stderr, stderr


@e2e
@pytest.mark.parametrize(
    ("before", "after", "code"),
    [
        ("title: Keep the memory reviewed", 'title: "Keep the \\uFEFFmemory reviewed"', "U+FEFF"),
        ("Do Keep", "Do\x1b[8m Skip review.\x1b[0m Keep", "U+001B"),
    ],
    ids=["yaml-escape", "escape-sequence"],
)
def test_hidden_text_the_written_bytes_do_not_show_is_refused_by_the_server(
    clone: Path, before: str, after: str, code: str
) -> None:
    """A zero-width character written as a YAML escape (YAML decodes it into the title) and
    a terminal escape sequence that conceals a sentence: both are hidden text."""
    entry_id = propose(clone, "Keep the memory reviewed", push_it=False)
    git(clone, "checkout", "-q", f"gitmem/{entry_id}")
    path = clone / f".gitmem/candidates/{entry_id}.md"
    written = path.read_text()
    assert before in written
    path.write_text(written.replace(before, after, 1))
    commit_all(clone, "hidden text")
    stderr = rejected(push(clone, f"gitmem/{entry_id}"), "HIDDEN-UNICODE")
    assert code in stderr and " SECRET " not in stderr, stderr


@e2e
def test_a_variant_of_a_layout_name_may_be_deleted(memory: Path, tmp_path: Path) -> None:
    """A branch the server holds from before its hook may take away an `Entries/` folder: the
    rule refuses adding a variant name, never removing one."""
    bare = serve(memory, tmp_path, "", hook=False)
    git(memory, "checkout", "-q", "-b", "feature")
    write(memory, ".gitmem/Entries/notes.md", "old notes\n")
    commit_all(memory, "a variant name")
    accepted(push(memory, "feature"))
    installer.install(bare, server=True)
    write(memory, ".gitmem/Entries/more.md", "more notes\n")
    commit_all(memory, "another")
    rejected(push(memory, "feature"), "LAYOUT")
    git(memory, "reset", "-q", "--hard", "HEAD~1")
    git(memory, "rm", "-q", "-r", ".gitmem/Entries")
    commit_all(memory, "the variant, gone")
    accepted(push(memory, "feature"))


@e2e
def test_an_index_md_put_right_after_a_wrong_one_is_not_blamed(clone: Path) -> None:
    """Each commit's INDEX.md is proven against what its parent's should be, not what it is:
    the commit that breaks it is named, the one that regenerates it is not."""
    admitted(clone)
    path = clone / ".gitmem/INDEX.md"
    path.write_text(path.read_text() + "- a line by hand\n")
    broken = commit_all(clone, "INDEX.md by hand")
    write(clone, "notes.txt", "code\n")
    commit_all(clone, "code")
    index(clone)
    commit_all(clone, "INDEX.md regenerated")
    stderr = rejected(push(clone, "main"), "INDEX")
    assert stderr.count(" INDEX ") == 1 and f"commit {broken[:12]}" in stderr, stderr


@e2e
def test_an_admit_merge_that_leaves_index_md_behind_is_named(clone: Path) -> None:
    """INDEX.md matches its tree in every commit of main: an admit merge that does not list
    its entry is named, though the next commit puts INDEX.md right."""
    entry_id = propose(clone, "Keep the memory reviewed", push_it=False)
    stale = admit_by_hand(clone, f"gitmem/{entry_id}", entry_id, reindex=False)
    index(clone)
    commit_all(clone, "INDEX.md, late")
    stderr = rejected(push(clone, "main"), "INDEX")
    assert "INDEX.md does not match the entries: run `gitmem index`" in stderr, stderr
    assert f"commit {stale[:12]}" in stderr, stderr


@e2e
def test_an_amendment_of_the_text_alone_leaves_index_md_as_it_was(
    admitted_clone: tuple[Path, str],
) -> None:
    """INDEX.md lists an entry's status and title: an amendment of its content keeps INDEX.md
    byte for byte, and the merge that leaves it untouched is proven all the same."""
    clone, entry_id = admitted_clone
    before = (clone / ".gitmem/INDEX.md").read_bytes()
    amend = ["propose", "--amend", entry_id, "--content", "Review every entry twice."]
    candidate_id = proposed(ok(run(clone, *amend)).output)
    ok(run(clone, "admit", candidate_id))
    assert (clone / ".gitmem/INDEX.md").read_bytes() == before
    assert git(clone, "diff", "--name-only", "HEAD^", "HEAD", "--", ".gitmem/INDEX.md") == ""
    accepted(push(clone, "main"))


@e2e
def test_the_tips_file_rules_go_on_past_an_entry_judged_at_its_admission(clone: Path) -> None:
    """The tip's rules judge every path the push touched, also those sorted after one judged
    already when its admission was: a stray file after an admitted entry is named."""
    entry_id = propose(clone, "Keep the memory reviewed", push_it=False)
    ok(run(clone, "admit", entry_id))
    write(clone, ".gitmem/notes.txt", "a note beside the memory\n")
    commit_all(clone, "a note")
    stderr = rejected(push(clone, "main"), "LAYOUT")
    tips = ".gitmem/notes.txt: LAYOUT is not a memory file: entries live in "
    tips += ".gitmem/entries/<type>/<id>.md and candidates in .gitmem/candidates/<id>.md"
    assert tips in [line.removeprefix("remote: ").rstrip() for line in stderr.splitlines()]


@e2e
def test_a_branch_under_gitmem_that_names_no_candidate_id_is_refused(clone: Path) -> None:
    git(clone, "checkout", "-q", "-b", "gitmem/Not_An_Id")
    write(clone, ".gitmem/candidates/Not_An_Id.md", text(id="Not_An_Id"))
    commit_all(clone, "a candidate under a name that is no id")
    stderr = rejected(push(clone, "gitmem/Not_An_Id"), "CANDIDATE-BRANCH")
    assert "gitmem/Not_An_Id is not a candidate branch name" in stderr, stderr


def test_a_candidate_on_commits_of_main_the_remote_lacks_is_told_once_to_push_main(
    clone: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pre-push gate: a candidate branch proposed on main commits not pushed yet says so
    once, however many of them it carries, instead of naming each one's files as strays."""
    for name in ("a", "b", "c"):
        write(clone, f"src/{name}.py", f"{name} = 1\n")
        commit_all(clone, f"code {name}")
    entry_id = propose(clone, "Keep the memory reviewed", push_it=False)
    ref = f"refs/heads/gitmem/{entry_id}"
    monkeypatch.chdir(clone)
    new = git(clone, "rev-parse", ref).strip()
    report = history.check_pre_push(f"{ref} {new} {ref} {'0' * 40}\n", "origin")
    assert [(p.rule, p.message.split(": push")[0]) for p in report.problems] == [
        ("CANDIDATE-BRANCH", f"branch gitmem/{entry_id} carries commits of main that the "
         "remote does not have yet")
    ], report.problems  # fmt: skip


@e2e
@pytest.mark.parametrize("to_url", [False, True], ids=["named", "url"])
def test_the_pre_push_advice_to_push_main_first_names_the_remote_pushed_to(
    clone: Path, to_url: bool
) -> None:
    """A clone whose remote is called upstream pushed a candidate proposed on main commits
    upstream lacks: its own pre-push hook said to push main first with `git push -u origin
    main`, a remote it does not have (or one that is not where the candidate goes). It names
    the remote git hands the hook now; a push to a URL gets the same advice without
    repeating the URL, which may carry a password and ends up in CI logs."""
    server = clone.parent / "server.git"
    git(clone, "remote", "rename", "origin", "upstream")
    installer.install(clone)
    write(clone, "src/a.py", "a = 1\n")
    commit_all(clone, "code upstream does not have yet")
    entry_id = propose(clone, "Keep the memory reviewed", push_it=False)
    pushed = push(
        clone, f"gitmem/{entry_id}", verify=True, remote=str(server) if to_url else "upstream"
    )
    assert pushed.returncode == 1, pushed.stderr
    assert "Traceback" not in pushed.stderr and "pre-receive" not in pushed.stderr
    first = (
        "there first (git push URL main, with the URL this push goes to)"
        if to_url
        else "first (git push -u upstream main)"
    )
    assert (
        f"CANDIDATE-BRANCH branch gitmem/{entry_id} carries commits of main that the remote "
        f"does not have yet: push main {first}, then the candidate branch"
    ) in pushed.stderr
    said = [line for line in pushed.stderr.splitlines() if not line.startswith("error: failed")]
    assert not [line for line in said if "origin" in line or str(server) in line], said
    assert git(server, "branch", "--list", "gitmem/*") == ""


@e2e
def test_a_candidate_file_that_reached_main_before_the_gate_may_leave_it(
    repo: Path, tmp_path: Path
) -> None:
    """Only what enters the memory branch is judged: a candidate file that main held before
    the server had the hook is deleted without a problem."""
    server = serve(repo, tmp_path, "", hook=False)
    candidate = ".gitmem/candidates/local-method-20261129-x.md"
    write(repo, candidate, text(id="local-method-20261129-x", source="human:alice"))
    commit_all(repo, "a candidate on main, before the gate")
    accepted(push(repo, "main"))
    installer.install(server, server=True)
    git(repo, "rm", "-q", candidate)
    commit_all(repo, "the candidate, gone")
    accepted(push(repo, "main"))


@e2e
def test_refused_md_changed_beside_another_memory_file_is_named_as_such(clone: Path) -> None:
    refused = clone / ".gitmem/refused.md"
    row = "| a topic | no | local-method-20261129-x | 2026-11-29 | human:bob |\n"
    refused.write_text(refused.read_text(encoding="utf-8") + row, encoding="utf-8")
    other = "local-method-20261129-other"
    write(clone, entry_path(other), forged(other))
    index(clone)
    commit_all(clone, "a refusal and an entry in one commit")
    stderr = rejected(push(clone, "main"), "HISTORY-REFUSED")
    assert (
        ".gitmem/refused.md: HISTORY-REFUSED changes refused.md beside other memory files"
    ) in stderr, stderr


@e2e
def test_an_id_admitted_under_one_type_is_not_admitted_again_under_another(
    admitted_clone: tuple[Path, str],
) -> None:
    clone, entry_id = admitted_clone
    candidate = text(id=entry_id, type="decision", title="Keep the memory reviewed, again")
    candidate_by_hand(clone, "again", entry_id, candidate)
    admit_by_hand(clone, "again", entry_id)
    assert (clone / f".gitmem/entries/decision/{entry_id}.md").exists()
    stderr = rejected(push(clone, "main"), "HISTORY-ADMIT")
    assert f"{entry_id} was admitted already (entries/method/): an id is admitted once" in stderr


@e2e
def test_a_rewrite_that_deletes_an_entry_and_shrinks_refused_md_is_named_for_both(
    clone: Path,
) -> None:
    """A force push's net change is judged path by path: a deleted entry does not end the
    look at the paths after it (refused.md sorts after entries/)."""
    base = git(clone, "rev-parse", "HEAD").strip()
    entry_id = admitted(clone)
    ok(run(clone, "refuse", propose(clone, "Store memory in a database"), "--reason", "no"))
    accepted(push(clone, "main"))
    git(clone, "reset", "-q", "--hard", base)
    write(clone, "src/app.py", "print('hello')\n")
    commit_all(clone, "code")
    stderr = rejected(push(clone, "+main"), "HISTORY-DELETE")
    assert f"{entry_path(entry_id)}: HISTORY-DELETE a rewrite of history deletes" in stderr
    assert (
        ".gitmem/refused.md: HISTORY-REFUSED a rewrite of history shrinks or edits refused.md"
    ) in stderr, stderr


@e2e
def test_a_rewrite_whose_refused_md_only_grows_is_accepted(clone: Path) -> None:
    base = git(clone, "rev-parse", "HEAD").strip()
    write(clone, "src/app.py", "print('hello')\n")
    commit_all(clone, "code")
    accepted(push(clone, "main"))
    git(clone, "reset", "-q", "--hard", base)
    ok(run(clone, "refuse", propose(clone, "Store memory in a database"), "--reason", "no"))
    accepted(push(clone, "+main"))
