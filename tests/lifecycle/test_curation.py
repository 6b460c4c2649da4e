"""propose --amend / --retire and their admission, on real repositories: the entry changes in
place through one reviewed merge, INDEX.md follows, and the gate's range check agrees."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirunner import ok, proposed, recall_json, run

from gitmem.lifecycle.writing import today
from gitmem.model.entry import parse

from conftest import git

TITLE = "Keep hooks thin and fast"


def admitted(repo: Path, title: str = TITLE) -> str:
    args = ["propose", "--type", "method", "--title", title, "--applies-when", "writing hooks"]
    out = ok(run(repo, *args, "--content", "Call one function.", "--file", "README.md")).output
    entry_id = proposed(out)
    ok(run(repo, "admit", entry_id, "--by", "human:reviewer"))
    return entry_id


def entry_at(repo: Path, entry_id: str, rev: str = "main") -> str:
    return git(repo, "show", f"{rev}:.gitmem/entries/method/{entry_id}.md")


def test_an_amendment_corrects_the_entry_in_place_through_one_reviewed_merge(
    memory: Path,
) -> None:
    entry_id = admitted(memory)
    before = parse(entry_at(memory, entry_id))
    base = git(memory, "rev-parse", "main").strip()
    out = ok(run(memory, "propose", "--amend", entry_id, "--applies-when", "writing git hooks"))
    candidate_id = proposed(out.output)
    assert candidate_id == f"{entry_id}-amend"
    ok(run(memory, "admit", candidate_id, "--by", "human:bob"))
    message = git(memory, "log", "-1", "--format=%B", "main")
    assert message.startswith(f"gitmem: amend {candidate_id}\n")
    after = parse(entry_at(memory, entry_id))
    assert after.applies_when == "writing git hooks"
    assert after.meta["amended"] == [today()] and after.meta["amended_by"] == "human:bob"
    # identity, admission and text otherwise kept; no new entry, no lineage step
    for name in ("id", "type", "source", "created", "admitted_by", "admitted", "status"):
        assert after.meta[name] == before.meta[name], name
    assert after.content == before.content and "amends" not in after.meta
    assert git(memory, "ls-tree", "-r", "--name-only", "main", ".gitmem/entries").count("\n") == 1
    # a second amendment appends its date; the title change reaches INDEX.md
    out = ok(run(memory, "propose", "--amend", entry_id, "--title", "Keep git hooks thin"))
    ok(run(memory, "admit", proposed(out.output), "--by", "human:carol"))
    again = parse(entry_at(memory, entry_id))
    assert again.meta["amended"] == [today(), today()]
    assert again.meta["amended_by"] == "human:carol"
    index = git(memory, "show", "main:.gitmem/INDEX.md")
    assert f"[{entry_id}](entries/method/{entry_id}.md) admitted — Keep git hooks thin" in index
    ok(run(memory, "check", "--range", f"{base}..main"))
    assert "ID-TITLE" not in run(memory, "lint").output  # the id stays on purpose


def test_an_amendment_keeps_what_identifies_the_entry(memory: Path) -> None:
    entry_id = admitted(memory)
    result = run(memory, "propose", "--amend", entry_id, "--type", "decision")
    assert result.exit_code == 2 and "keeps the entry's type" in result.output
    assert "gitmem propose --edit" in result.output
    nothing = run(memory, "propose", "--amend", entry_id)
    assert nothing.exit_code == 2 and "nothing to amend" in nothing.output
    missing = run(memory, "propose", "--amend", "local-method-20261201-none", "--title", "x y")
    assert missing.exit_code == 2 and "no entry" in missing.output


def test_a_retirement_leaves_a_tombstone_shown_as_retired(memory: Path) -> None:
    entry_id = admitted(memory)
    base = git(memory, "rev-parse", "main").strip()
    no_reason = run(memory, "propose", "--retire", entry_id)
    assert no_reason.exit_code == 2 and "--reason" in no_reason.output
    out = ok(run(memory, "propose", "--retire", entry_id, "--reason", "a test write"))
    candidate_id = proposed(out.output)
    assert candidate_id == f"{entry_id}-retire"
    ok(run(memory, "admit", candidate_id, "--by", "human:bob"))
    assert git(memory, "log", "-1", "--format=%s", "main") == f"gitmem: retire {candidate_id}\n"
    tomb = parse(entry_at(memory, entry_id))
    assert tomb.status == "retired" and tomb.meta["retired_by"] == "human:bob"
    assert tomb.meta["retired"] == today() and tomb.meta["retired_reason"] == "a test write"
    index = git(memory, "show", "main:.gitmem/INDEX.md")
    assert f"[{entry_id}](entries/method/{entry_id}.md) retired — {TITLE}" in index
    ok(run(memory, "check", "--range", f"{base}..main"))
    # a tombstone is neither amended nor retired again
    again = run(memory, "propose", "--retire", entry_id, "--reason", "twice")
    assert again.exit_code == 2 and "is retired" in again.output
    amend = run(memory, "propose", "--amend", entry_id, "--title", "Back again")
    assert amend.exit_code == 2 and "is retired" in amend.output


def test_who_may_retire_is_a_source_rule(memory: Path) -> None:
    entry_id = admitted(memory)
    candidate_id = proposed(
        ok(run(memory, "propose", "--retire", entry_id, "--reason", "duplicate")).output
    )
    refused = run(memory, "admit", candidate_id, "--by", "audit:verdicts/a.json")
    assert refused.exit_code == 1 and "may not retire" in refused.output
    assert "memory.retireBy" in refused.output
    assert parse(entry_at(memory, entry_id)).status == "admitted"


def test_an_amend_candidate_is_judged_against_its_entry_at_admission(memory: Path) -> None:
    entry_id = admitted(memory)
    candidate_id = proposed(
        ok(run(memory, "propose", "--amend", entry_id, "--title", "Keep hooks thin")).output
    )
    # the entry is retired meanwhile: the amendment no longer has an admitted entry to change
    retire_id = proposed(
        ok(run(memory, "propose", "--retire", entry_id, "--reason", "obsolete")).output
    )
    ok(run(memory, "admit", retire_id, "--by", "human:bob"))
    late = run(memory, "admit", candidate_id, "--by", "human:bob")
    assert late.exit_code == 1 and "LINEAGE" in late.output and "retired" in late.output


def test_recall_list_show_lint_and_hygiene_understand_amended_and_retired_entries(
    memory: Path,
) -> None:
    kept = admitted(memory, "Keep hooks thin and fast")
    gone = admitted(memory, "Bake sourdough bread on fridays")
    # recall builds its cache before the changes: it must follow them, not serve the old
    assert [h["id"] for h in recall_json(memory, "sourdough bread")] == [gone]
    [before] = recall_json(memory, "keep hooks thin")
    assert before["id"] == kept and before["title"] == "Keep hooks thin and fast"
    ok(run(memory, "admit", proposed(ok(run(memory, "propose", "--retire", gone, "--reason",
                                            "a test write")).output)))  # fmt: skip
    amend = run(memory, "propose", "--amend", kept, "--title", "Keep git hooks thin and quick")
    ok(run(memory, "admit", proposed(ok(amend).output)))
    assert recall_json(memory, "sourdough bread") == []  # a tombstone is never recalled
    hits = recall_json(memory, "keep hooks thin")
    assert [(h["id"], h["title"]) for h in hits] == [(kept, "Keep git hooks thin and quick")]
    listed = ok(run(memory, "list")).output
    assert f"method          retired     {gone}" in listed
    assert f"method          admitted*   {kept}" in listed
    only = ok(run(memory, "list", "--status", "retired", "--format", "json")).output
    assert [row["id"] for row in json.loads(only)] == [gone]
    shown = ok(run(memory, "show", gone)).output
    assert f"# retired on {today()} by human:Test Author: a test write\n" in shown
    assert f"# amended {today()} by human:Test Author\n" in ok(run(memory, "show", kept)).output
    # a tombstone whose cited file is gone is no lint finding; hygiene judges admitted only
    git(memory, "rm", "-q", "README.md")
    git(memory, "commit", "-q", "-m", "drop the readme")
    linted = run(memory, "lint")
    assert gone not in linted.output and kept in linted.output  # kept cites it: FILES-DEAD
    assert f"gitmem propose --amend {kept} --file NEW-PATH" in linted.output
    report = json.loads(ok(run(memory, "hygiene", "--format", "json")).output)
    assert report["checked"] == 1


def test_an_admitted_amendment_pushed_as_a_branch_is_no_longer_pending(
    memory: Path, tmp_path: Path
) -> None:
    """An amend or retire candidate leaves no entry of its own id: a remote-tracking branch
    of one that was admitted is not listed as pending, while one waiting for review is."""
    bare = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    git(memory, "remote", "add", "origin", str(bare))
    entry_id = admitted(memory)
    git(memory, "push", "-q", "origin", "main")
    amend = proposed(
        ok(
            run(memory, "propose", "--amend", entry_id, "--title", "Keep git hooks thin", "--push")
        ).output
    )
    retire = proposed(
        ok(run(memory, "propose", "--retire", entry_id, "--reason", "hooks moved", "--push")).output
    )
    ok(run(memory, "admit", amend, "--by", "human:bob"))
    git(memory, "branch", "-q", "-D", f"gitmem/{retire}")  # only the remote's copy is left
    listed = json.loads(ok(run(memory, "candidates", "--format", "json")).output)
    ids = {c["id"] for c in listed}
    assert amend not in ids and retire in ids, listed


def test_a_title_an_amendment_gave_is_a_duplicate_in_any_letter_case(memory: Path) -> None:
    """The duplicate check looked for the topic's longest word, lower case, in INDEX.md: the
    id holds it, lower case, unless an amendment renamed the entry, and the title holds it as
    written ("Invalidate"). A new candidate repeating the amended title was admitted."""
    entry_id = admitted(memory, "Cache invalidation by event")
    amend = proposed(ok(run(memory, "propose", "--amend", entry_id,
                             "--title", "Invalidate caches on domain events")).output)  # fmt: skip
    ok(run(memory, "admit", amend, "--by", "human:reviewer"))
    args = ["propose", "--type", "method", "--title", "Invalidate caches on domain events"]
    again = run(memory, *args, "--applies-when", "caching", "--content", "Again.")
    assert again.exit_code == 1, again.output
    assert f"DUPLICATE an admitted entry has the same topic: {entry_id}" in again.output


@pytest.mark.parametrize(
    ("first", "again"),
    [
        ("Réindexation of logs", "Reindexation of logs"),  # the accented word is the longest
        ("Reindexation of logs", "RÉINDEXATION OF LOGS"),
        ("Shard the log rotation", "shard THE log-rotation"),
        ("Ｆｕｌｌ ｗｉｄｔｈ ｓｅａｒｃｈ", "Full width search"),  # NFKC alone tells them apart
    ],
)
def test_a_title_that_only_accents_or_case_change_is_a_duplicate(
    memory: Path, first: str, again: str
) -> None:
    """The lines to confirm are found by the id, which keeps the slug of the title it was made
    for ("Réindexation" gives reindexation), or by the title's words in order in any letter
    case; the search that replaced confirming every line with the topic's longest word must
    find what that one found."""
    entry_id = admitted(memory, first)
    args = ["propose", "--type", "method", "--title", again]
    result = run(memory, *args, "--applies-when", "logs", "--content", "Again.")
    assert result.exit_code == 1, result.output
    assert f"DUPLICATE an admitted entry has the same topic: {entry_id}" in result.output


def test_a_superseded_entry_is_retired_or_amended_through_its_successor(memory: Path) -> None:
    """Retiring a superseded entry said it was "only an admitted entry is retireed (amend its
    successor …)": a misspelt verb, and the advice of the other command."""
    old_id = admitted(memory)
    args = ["--type", "method", "--title", "Keep hooks thin", "--applies-when", "writing hooks"]
    new_id = proposed(
        ok(run(memory, "propose", *args, "--content", "One call.", "--supersedes", old_id)).output
    )
    ok(run(memory, "admit", new_id, "--by", "human:reviewer"))
    retire = run(memory, "propose", "--retire", old_id, "--reason", "junk")
    assert retire.exit_code == 2
    assert f"only an admitted entry is retired (retire its successor {new_id})" in retire.output
    amend = run(memory, "propose", "--amend", old_id, "--title", "Fixed")
    assert amend.exit_code == 2
    assert f"only an admitted entry is amended (amend its successor {new_id})" in amend.output


def test_an_amendment_admitted_already_is_not_admitted_again(memory: Path, tmp_path: Path) -> None:
    """A clone that admitted an amendment without --push keeps its remote-tracking branch
    until the push: `admit` found it there and amended the entry a second time (a second
    merge, the amended date twice). Refused now, as a candidate main has merged."""
    bare = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    git(memory, "remote", "add", "origin", str(bare))
    entry_id = admitted(memory)
    git(memory, "push", "-q", "origin", "main")
    amend = proposed(
        ok(
            run(memory, "propose", "--amend", entry_id, "--title", "Keep git hooks thin", "--push")
        ).output
    )
    git(memory, "branch", "-q", "-D", f"gitmem/{amend}")  # only the remote's copy is left
    ok(run(memory, "admit", amend, "--by", "human:bob"))
    once = git(memory, "rev-parse", "main")
    again = run(memory, "admit", amend, "--by", "human:bob")
    assert again.exit_code == 1, again.output
    assert f"gitmem/{amend} is merged into main already" in again.output
    assert f"git push origin --delete gitmem/{amend}" in again.output
    assert git(memory, "rev-parse", "main") == once
    assert f"amended: [{today()}]\n" in entry_at(memory, entry_id)  # once


def test_refusing_an_amendment_or_a_retirement_leaves_the_entrys_topic_open(
    memory: Path,
) -> None:
    """An amend or retire candidate carries the entry's title: refusing one appended the
    admitted entry's own topic to refused.md, and from then on every amendment and every
    retirement of that entry broke REFUSED-TOPIC. The row names the candidate instead."""
    entry_id = admitted(memory)
    amend = proposed(ok(run(memory, "propose", "--amend", entry_id, "--content", "Bad.")).output)
    ok(run(memory, "refuse", amend, "--reason", "wrong fix"))
    retire = proposed(
        ok(run(memory, "propose", "--retire", entry_id, "--reason", "not yet")).output
    )
    ok(run(memory, "refuse", retire, "--reason", "still used"))
    refused = git(memory, "show", "main:.gitmem/refused.md")
    assert f"| {amend} | wrong fix | {amend} |" in refused
    assert f"| {retire} | still used | {retire} |" in refused
    # the refused ids stay taken: the next amendment is a candidate of its own
    again = proposed(ok(run(memory, "propose", "--amend", entry_id, "--content", "Fine.")).output)
    assert again == f"{amend}-2"
    ok(run(memory, "refuse", again, "--reason", "not that either"))
    last = proposed(ok(run(memory, "propose", "--amend", entry_id, "--content", "Good.")).output)
    assert last == f"{amend}-3"
    ok(run(memory, "admit", last, "--by", "human:bob"))
    assert "Good." in entry_at(memory, entry_id)


def test_a_refused_amendment_left_on_the_remote_is_not_admitted(
    memory: Path, tmp_path: Path
) -> None:
    """A clone that refused an amendment without --push keeps its remote-tracking branch:
    refused under its id (not the entry's topic), it was then listed as valid and admitted."""
    bare = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    git(memory, "remote", "add", "origin", str(bare))
    entry_id = admitted(memory)
    git(memory, "push", "-q", "origin", "main")
    amend = proposed(
        ok(run(memory, "propose", "--amend", entry_id, "--content", "Bad.", "--push")).output
    )
    git(memory, "branch", "-q", "-D", f"gitmem/{amend}")  # only the remote's copy is left
    ok(run(memory, "refuse", amend, "--reason", "wrong fix"))
    listed = ok(run(memory, "candidates")).output
    assert f"{amend}  1 problem(s)" in listed
    assert f"REFUSED-TOPIC {amend} was refused on {today()}" in listed
    refused_main = git(memory, "rev-parse", "main")
    again = run(memory, "admit", amend, "--by", "human:bob")
    assert again.exit_code == 1, again.output
    assert git(memory, "rev-parse", "main") == refused_main
    assert "Bad." not in entry_at(memory, entry_id)


def test_an_entry_whose_id_is_near_the_longest_is_amended_and_retired(memory: Path) -> None:
    """An id takes at most MAX_ID_LENGTH characters (the schema's bound; an entry written by
    hand and merged by review may use them all), so an entry's id could leave no room for
    `-amend` or `-retire`: its candidate's id broke the schema, and the entry could be
    neither corrected nor retired. The candidate's id now cuts the entry's id
    (model.curation.curation_id); `amends:` / `retires:` name the entry."""
    from gitmem.model.names import MAX_ID_LENGTH

    made = admitted(memory)
    entry_id = f"{made}-{'x' * (MAX_ID_LENGTH - 3 - len(made))}"
    assert len(entry_id) == MAX_ID_LENGTH - 2
    folder = memory / ".gitmem" / "entries" / "method"
    text = (folder / f"{made}.md").read_text(encoding="utf-8")
    (folder / f"{made}.md").unlink()
    (folder / f"{entry_id}.md").write_text(text.replace(made, entry_id), encoding="utf-8")
    ok(run(memory, "index"))
    git(memory, "add", "-A")
    git(memory, "commit", "-q", "--no-verify", "-m", "an entry of a long id, written by hand")
    ok(run(memory, "check"))
    base = git(memory, "rev-parse", "main").strip()

    out = ok(run(memory, "propose", "--amend", entry_id, "--applies-when", "writing git hooks"))
    amend_id = proposed(out.output)
    assert len(amend_id) <= MAX_ID_LENGTH - 4 and amend_id.endswith("-amend"), amend_id
    assert amend_id.startswith(made)
    ok(run(memory, "admit", amend_id, "--by", "human:bob"))
    assert parse(entry_at(memory, entry_id)).applies_when == "writing git hooks"

    out = ok(run(memory, "propose", "--retire", entry_id, "--reason", "a test write"))
    retire_id = proposed(out.output)
    assert len(retire_id) <= MAX_ID_LENGTH - 4 and retire_id.endswith("-retire"), retire_id
    ok(run(memory, "admit", retire_id, "--by", "human:bob"))
    assert parse(entry_at(memory, entry_id)).status == "retired"
    assert git(memory, "ls-tree", "-r", "--name-only", "main", ".gitmem/entries").count("\n") == 1
    ok(run(memory, "check", "--range", f"{base}..main"))


def amend_twice(repo: Path, entry_id: str) -> tuple[str, str]:
    """Two amendments of entry_id drafted from the same text: one of its content, one of its
    title (the latter's title is "Keep git hooks thin")."""
    content = ["--content", "Call one fast function."]
    first = proposed(ok(run(repo, "propose", "--amend", entry_id, *content)).output)
    title = ["--title", "Keep git hooks thin"]
    return first, proposed(ok(run(repo, "propose", "--amend", entry_id, *title)).output)


def test_an_amendment_drafted_before_another_was_admitted_does_not_undo_it(
    memory: Path,
) -> None:
    """Two amendments drafted from the same text, both admitted: the second wrote the entry
    as it was drafted, and the first one's correction was gone, unseen (the gate accepts
    it: the merge writes what its candidate makes of the entry). The second is refused now,
    and proposed again from the entry as it is, it keeps both corrections."""
    entry_id = admitted(memory)
    first, second = amend_twice(memory, entry_id)
    ok(run(memory, "admit", first, "--by", "human:bob"))
    main_before = git(memory, "rev-parse", "main")
    late = run(memory, "admit", second, "--by", "human:bob")
    assert late.exit_code == 1, late.output
    assert f"AMEND amends {entry_id}, which changed on main since" in late.output
    listed = ok(run(memory, "candidates")).output  # listed as admit judges it
    assert f"{second}  1 problem(s)" in listed and f"{first}  " not in listed
    assert git(memory, "rev-parse", "main") == main_before
    assert git(memory, "branch", "--list", f"gitmem/{second}") != ""
    ok(run(memory, "refuse", second, "--reason", "drafted before the first amendment"))
    again = proposed(
        ok(run(memory, "propose", "--amend", entry_id, "--title", "Keep git hooks thin")).output
    )
    ok(run(memory, "admit", again, "--by", "human:bob"))
    after = parse(entry_at(memory, entry_id))
    assert after.title == "Keep git hooks thin"
    assert after.content == "Call one fast function."


def test_an_amendment_whose_branch_merged_main_in_cannot_undo_another(memory: Path) -> None:
    """A forge's "update branch" (which branch protection can require of every pull request)
    merges main into the candidate's branch: after another amendment was admitted, the branch
    then held main's new text of the entry while the candidate kept the old one, so the check
    against the branch passed, and admitting it undid the other amendment. The candidate
    records the text it was drafted from (drafted_from), which no merge changes."""
    entry_id = admitted(memory)
    first, second = amend_twice(memory, entry_id)
    drafted = parse(git(memory, "show", f"gitmem/{second}:.gitmem/candidates/{second}.md"))
    blob = git(memory, "rev-parse", f"main:.gitmem/entries/method/{entry_id}.md").strip()
    assert drafted.meta["drafted_from"] == blob
    ok(run(memory, "admit", first, "--by", "human:bob"))
    git(memory, "checkout", "-q", f"gitmem/{second}")
    git(memory, "merge", "-q", "--no-edit", "main")  # the forge's "update branch"
    git(memory, "checkout", "-q", "main")
    main_before = git(memory, "rev-parse", "main")
    late = run(memory, "admit", second, "--by", "human:bob")
    assert late.exit_code == 1, late.output
    assert f"AMEND amends {entry_id}, which changed on main since" in late.output
    listed = ok(run(memory, "candidates")).output
    assert f"{second}  1 problem(s)" in listed
    assert git(memory, "rev-parse", "main") == main_before
    assert "Call one fast function." in entry_at(memory, entry_id)
    # admitted, the record is not kept in the entry
    again = proposed(
        ok(run(memory, "propose", "--amend", entry_id, "--title", "Keep git hooks thin")).output
    )
    ok(run(memory, "admit", again, "--by", "human:bob"))
    after = parse(entry_at(memory, entry_id))
    assert after.title == "Keep git hooks thin" and "drafted_from" not in after.meta
    ok(run(memory, "check"))


def test_a_successor_started_before_an_amendment_was_admitted_does_not_undo_it(
    memory: Path,
) -> None:
    """A successor started from an entry (`propose --edit`), then an amendment of that entry
    admitted: admitting the successor superseded the corrected entry with a copy of its text
    from before the correction, and the correction was out of use, unseen. It is refused
    now (LINEAGE); started again, the successor carries the correction."""
    entry_id = admitted(memory)
    successor = proposed(
        ok(run(memory, "propose", "--edit", entry_id, "--title", "Keep hooks thin, fast")).output
    )
    fix = proposed(
        ok(
            run(memory, "propose", "--amend", entry_id, "--content", "Call one fast function.")
        ).output
    )
    ok(run(memory, "admit", fix, "--by", "human:bob"))
    main_before = git(memory, "rev-parse", "main")
    late = run(memory, "admit", successor, "--by", "human:bob")
    assert late.exit_code == 1, late.output
    assert f"LINEAGE supersedes {entry_id}, which changed on main since" in late.output
    assert git(memory, "rev-parse", "main") == main_before
    ok(run(memory, "refuse", successor, "--reason", "started before the amendment"))
    again = proposed(
        ok(run(memory, "propose", "--edit", entry_id, "--title", "Keep git hooks thin")).output
    )
    ok(run(memory, "admit", again, "--by", "human:bob"))
    assert parse(entry_at(memory, again)).content == "Call one fast function."


def test_a_successor_whose_branch_merged_main_in_cannot_undo_an_amendment(
    memory: Path,
) -> None:
    """A successor started from an entry (`propose --edit`), then an amendment of that entry
    admitted, then main merged into the successor's branch (a forge's "update branch"): the
    branch held the amended text of the entry, so the check against the branch passed, and
    admitting the successor superseded the corrected entry with a text drafted before the
    correction. The successor records the text it was drafted from (drafted_from, one blob
    id per entry it supersedes), which no merge changes; admitted, it does not keep it."""
    entry_id = admitted(memory)
    blob = git(memory, "rev-parse", f"main:.gitmem/entries/method/{entry_id}.md").strip()
    successor = proposed(
        ok(run(memory, "propose", "--edit", entry_id, "--title", "Keep hooks thin, fast")).output
    )
    drafted = parse(git(memory, "show", f"gitmem/{successor}:.gitmem/candidates/{successor}.md"))
    assert drafted.meta["drafted_from"] == [blob]
    fix = proposed(
        ok(
            run(memory, "propose", "--amend", entry_id, "--content", "Call one fast function.")
        ).output
    )
    ok(run(memory, "admit", fix, "--by", "human:bob"))
    git(memory, "checkout", "-q", f"gitmem/{successor}")
    git(memory, "merge", "-q", "--no-edit", "main")  # the forge's "update branch"
    git(memory, "checkout", "-q", "main")
    main_before = git(memory, "rev-parse", "main")
    late = run(memory, "admit", successor, "--by", "human:bob")
    assert late.exit_code == 1, late.output
    assert "Traceback" not in late.output
    assert f".gitmem/candidates/{successor}.md" in late.output
    assert f"LINEAGE supersedes {entry_id}, which changed on main since" in late.output
    assert f"propose it again from the entry as it is (gitmem propose --edit {entry_id})" in (
        late.output
    )
    listed = ok(run(memory, "candidates")).output  # listed as admit judges it
    assert f"{successor}  1 problem(s)" in listed
    assert git(memory, "rev-parse", "main") == main_before
    assert parse(entry_at(memory, entry_id)).status == "admitted"
    ok(run(memory, "refuse", successor, "--reason", "started before the amendment"))
    again = proposed(
        ok(run(memory, "propose", "--edit", entry_id, "--title", "Keep git hooks thin")).output
    )
    base = git(memory, "rev-parse", "main").strip()
    ok(run(memory, "admit", again, "--by", "human:bob"))
    after = parse(entry_at(memory, again))
    assert after.content == "Call one fast function." and "drafted_from" not in after.meta
    assert parse(entry_at(memory, entry_id)).meta["superseded_by"] == again
    ok(run(memory, "check"))
    ok(run(memory, "check", "--range", f"{base}..main"))


def test_a_successor_proposed_with_supersedes_records_what_it_was_drafted_from(
    memory: Path,
) -> None:
    """Only `propose --edit` recorded drafted_from: a successor proposed with `--supersedes`
    (or from a draft file, by an agent, by hygiene) was judged by the entry's copy on its
    branch alone, so once main was merged into its branch after an amendment of the entry,
    admit let it supersede the corrected entry. Every successor now records the entries'
    files as main held them when it was proposed."""
    entry_id = admitted(memory)
    blob = git(memory, "rev-parse", f"main:.gitmem/entries/method/{entry_id}.md").strip()
    args = ["propose", "--type", "method", "--title", "Keep every hook thin"]
    args += ["--applies-when", "writing hooks", "--content", "Call one function, once."]
    successor = proposed(ok(run(memory, *args, "--supersedes", entry_id)).output)
    drafted = parse(git(memory, "show", f"gitmem/{successor}:.gitmem/candidates/{successor}.md"))
    assert drafted.meta["drafted_from"] == [blob]
    fix = run(memory, "propose", "--amend", entry_id, "--content", "Call one fast function.")
    ok(run(memory, "admit", proposed(ok(fix).output), "--by", "human:bob"))
    git(memory, "checkout", "-q", f"gitmem/{successor}")
    git(memory, "merge", "-q", "--no-edit", "main")
    git(memory, "checkout", "-q", "main")
    late = run(memory, "admit", successor, "--by", "human:bob")
    assert late.exit_code == 1, late.output
    assert f"LINEAGE supersedes {entry_id}, which changed on main since" in late.output


def test_a_successor_that_changes_nothing_is_refused_as_an_amendment_that_does(
    memory: Path,
) -> None:
    """`propose --edit OLD` with no flag and no terminal (or an editor closed unsaved)
    proposed the old entry's text as its successor, and admitting it superseded the entry by
    a copy no one changed; `--amend` refused the same case ("nothing to amend")."""
    entry_id = admitted(memory)
    before = git(memory, "for-each-ref", "refs/heads/gitmem/")
    result = run(memory, "propose", "--edit", entry_id)
    assert result.exit_code == 2, result.output
    assert f"nothing to supersede {entry_id} with" in result.output
    assert git(memory, "for-each-ref", "refs/heads/gitmem/") == before
    ok(run(memory, "propose", "--edit", entry_id, "--title", "Keep hooks thin, fast"))


def test_superseding_a_retired_entry_is_refused_without_pointing_at_a_successor(
    memory: Path,
) -> None:
    """A retired entry has no successor, yet the refusal said to supersede it instead."""
    entry_id = admitted(memory)
    retire = proposed(ok(run(memory, "propose", "--retire", entry_id, "--reason", "done")).output)
    ok(run(memory, "admit", retire, "--by", "human:bob"))
    result = run(memory, "propose", "--type", "method", "--title", "Keep hooks thin again",
                 "--applies-when", "writing a hook", "--content", "Thin.",
                 "--supersedes", entry_id)  # fmt: skip
    assert result.exit_code == 1, result.output
    assert "which is already retired: a retired entry is out of use" in result.output
    assert "supersede its successor" not in result.output


def test_a_retirement_reason_holding_a_hidden_character_is_named_as_the_option(
    memory: Path,
) -> None:
    """It was refused as a YAML escape at a column of a candidate file the author never
    wrote, the option that held it unnamed; so was a token (as a SECRET of that file). Both
    are named as the option's now, as `gitmem refuse` names them."""
    from secret_samples import github_token

    entry_id = admitted(memory)
    before = git(memory, "for-each-ref", "refs/heads/gitmem/")
    for reason, says in [("done\x1b[2J here", "U+001B"), (f"leaked {github_token(7)}", "a secret")]:
        result = run(memory, "propose", "--retire", entry_id, "--reason", reason)
        assert result.exit_code == 2, result.output
        assert f"--reason holds {says}" in result.output, result.output
        assert "nothing was proposed" in result.output and github_token(7) not in result.output
        assert ".gitmem/candidates/" not in result.output
    assert git(memory, "for-each-ref", "refs/heads/gitmem/") == before
