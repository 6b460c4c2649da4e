"""`gitmem harvest` on audit verdict files spanning one, two and three batches
(tests/data/verdicts), and on hostile input."""

from __future__ import annotations

import json
import os
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from clirunner import ok, run

from gitmem.curate import harvest
from gitmem.model.entry import parse

from conftest import git

DATA = Path(__file__).parent.parent / "data" / "verdicts"
RECURRING = "No test pushes to a bare repository with the pre-receive hook installed"
WATCHED = "The README does not list the rule ids"
REFUSABLE = "Candidate branches are not pushed after propose"


@pytest.fixture
def audits(memory: Path) -> Path:
    shutil.copytree(DATA, memory / "audits")
    return memory


def branches(repo: Path) -> list[str]:
    return git(repo, "for-each-ref", "--format=%(refname:short)", "refs/heads/gitmem/").split()


def groups(repo: Path, *paths: str) -> dict[str, dict[str, object]]:
    result = run(repo, "harvest", *paths, "--format", "json")
    assert "Traceback" not in result.output
    return {g["title"]: g for g in json.loads(result.output)["groups"]}


def test_one_batch_proposes_nothing(audits: Path) -> None:
    found = groups(audits, "audits/audit-2026-11-20.md")
    assert {g["outcome"] for g in found.values()} == {"once"}
    # two rows of one file are one batch, not two
    [split] = [g for t, g in found.items() if "scanner misses tokens" in t]
    assert split["batches"] == ["audits/audit-2026-11-20.md"]
    assert branches(audits) == []


def test_two_batches_are_watched_not_proposed(audits: Path) -> None:
    found = groups(audits, "audits/audit-2026-11-20.md", "audits/audit-2026-11-24.md")
    assert found[RECURRING]["outcome"] == "watch"
    assert found[WATCHED]["outcome"] == "watch"
    assert branches(audits) == []
    text = ok(run(audits, "harvest", "audits/audit-2026-11-20.md", "audits/audit-2026-11-24.md"))
    assert f"watch     {WATCHED!r} (2 batches" in text.output


def test_three_batches_propose_a_mistake(audits: Path) -> None:
    result = ok(run(audits, "harvest", "audits"))
    assert "read 5 verdict file(s): 11 Blocking or Major gap(s)" in result.output
    assert "2 gap(s) seen in one batch only" in result.output
    names = branches(audits)
    assert len(names) == 2
    [name] = [n for n in names if "no-test-pushes" in n]
    cid = name.removeprefix("gitmem/")
    assert f"proposed  {cid}  {RECURRING!r} (3 batches" in result.output
    entry = parse(git(audits, "show", f"{name}:.gitmem/candidates/{cid}.md"))
    assert entry.type == "mistake" and entry.status == "candidate"
    assert entry.title == RECURRING  # the earliest batch's words: a stable topic
    assert entry.source == "audit:audits/audit-2026-11-28.md"  # the latest batch
    assert entry.meta["evidence_batches"] == [
        "audits/audit-2026-11-20.md",
        "audits/audit-2026-11-24.md",
        "audits/audit-2026-11-28.md",
    ]
    assert entry.meta["correction"].startswith("Add a test that installs the hook")
    assert entry.meta["detection_signal"].startswith("The pre-receive hook is never exercised")
    assert entry.applies_when == "work audited on the tests axis"
    assert entry.files == ("README.md",)  # a path in Evidence that exists on main
    assert "audits/audit-2026-11-24.md:7 (Major, tests)" in entry.evidence
    assert "Long lines" not in entry.render()  # Minor rows never count
    # the candidate passes every rule, the audit-source ones included
    assert "valid" in ok(run(audits, "candidates")).output


def test_a_bare_repository_names_the_batches_from_where_harvest_runs(
    memory: Path, tmp_path: Path
) -> None:
    """A bare repository has no working tree to name the verdict files from, and harvest
    wrote their absolute paths, this machine's own, into the candidate's source and
    evidence_batches, which go into the memory. They are named from the folder harvest
    runs in, as they were given."""
    bare = tmp_path / "bare.git"
    git(tmp_path, "clone", "-q", "--bare", str(memory), str(bare))
    shutil.copytree(DATA, tmp_path / "audits")
    result = ok(run(bare, "harvest", str(tmp_path / "audits")))
    assert "proposed" in result.output, result.output
    [name] = [n for n in branches(bare) if "no-test-pushes" in n]
    cid = name.removeprefix("gitmem/")
    entry = parse(git(bare, "show", f"{name}:.gitmem/candidates/{cid}.md"))
    assert entry.source == "audit:../audits/audit-2026-11-28.md", entry.source
    assert str(tmp_path) not in entry.render()


def test_harvesting_again_writes_nothing_new(audits: Path) -> None:
    ok(run(audits, "harvest", "audits"))
    refs = git(audits, "for-each-ref")
    found = groups(audits, "audits")
    assert found[RECURRING]["outcome"] == "duplicate"
    assert "pending candidate" in str(found[RECURRING]["detail"])
    assert git(audits, "for-each-ref") == refs


def test_refused_topics_are_not_proposed_again(audits: Path) -> None:
    refusable = [
        "propose", "--type", "method", "--title", REFUSABLE,
        "--applies-when", "proposing", "--content", "Push it.",
    ]  # fmt: skip
    proposed = ok(run(audits, *refusable)).output.split()[1]
    ok(run(audits, "refuse", proposed, "--reason", "pushing is the author's choice"))
    found = groups(audits, "audits")
    assert found[REFUSABLE]["outcome"] == "refused"
    assert "pushing is the author's choice" in str(found[REFUSABLE]["detail"])
    assert not any("candidate-branches" in b for b in branches(audits))


def test_an_admitted_mistake_describing_the_gap_is_a_duplicate(audits: Path) -> None:
    admitted = [
        "propose", "--type", "mistake",
        "--title", "Server hook shipped without a push test",
        "--applies-when", "changing the pre-receive hook",
        "--content", "It broke silently.",
        "--correction", "push to a bare repository in a test",
        "--detection-signal", "no test pushes to a bare repository with the pre-receive hook",
    ]  # fmt: skip
    proposed = ok(run(audits, *admitted)).output.split()[1]
    ok(run(audits, "admit", proposed, "--by", "human:alice"))
    found = groups(audits, "audits")
    assert found[RECURRING]["outcome"] == "duplicate"
    assert f"admitted entry {proposed}" in str(found[RECURRING]["detail"])


def test_audited_mistakes_flow_in_when_both_settings_allow(
    audits: Path, isolated_env: Path
) -> None:
    (audits / ".gitmem.toml").write_text("[memory]\nautoAdmitAudited = true\n")
    git(audits, "add", ".gitmem.toml")
    git(audits, "commit", "-q", "-m", "allow audits")
    (isolated_env / "gitmem").mkdir()
    (isolated_env / "gitmem/config.toml").write_text("[memory]\nautoAdmitAudited = true\n")
    ok(run(audits, "harvest", "audits"))
    admitted = ok(run(audits, "admit", "--auto")).output
    assert admitted.count("admitted local-mistake-") == 2
    listed = ok(run(audits, "list", "--type", "mistake")).output
    assert "No test pushes to a bare repository" in listed


def test_dry_run_writes_nothing(audits: Path) -> None:
    found = groups(audits, "audits", "--dry-run")
    assert found[RECURRING]["outcome"] == "would propose"
    assert branches(audits) == []


# ---------------------------------------------------------------------------------------------
# reading verdict files


def test_columns_by_name_escaped_bars_and_extra_columns() -> None:
    text = (
        "## Verdict — GAPS\n\n"
        "| Gap | Severity | Expected fix | Axis | Evidence | Owner |\n"
        "|-----|----------|--------------|------|----------|-------|\n"
        "| `a \\| b` pipes break tables | BLOCKING | escape them | docs | x | ann |\n"
        "| fine | minor | - | docs | x | ann |\n"
    )
    verdict, problems = harvest.parse_verdict("v.md", text)
    assert problems == [] and verdict is not None
    [gap] = verdict.gaps
    assert (gap.severity, gap.axis, gap.gap, gap.fix, gap.line) == (
        "Blocking",
        "docs",
        "`a | b` pipes break tables",
        "escape them",
        5,
    )


@pytest.mark.parametrize(
    ("text", "rule", "line"),
    [
        ("# Notes\n\nno verdict here\n", "HARVEST-VERDICT", None),
        ("## Verdict — GAPS\n\nSee the tracker.\n", "HARVEST-TABLE", 1),
        ("## Verdict — GAPS\n| Severity | Gap |\n| --- | --- |\n", "HARVEST-TABLE", 2),
        (
            "## Verdict — GAPS\n| Severity | Axis | Gap | Evidence | Expected fix |\n| a | b |\n",
            "HARVEST-TABLE",
            3,
        ),
        (
            "## Verdict — GAPS\n| Severity | Axis | Gap | Evidence | Expected fix |\n"
            "| --- | --- | --- | --- | --- |\n| Major | a | b | c |\n",
            "HARVEST-ROW",
            4,
        ),
    ],
)
def test_malformed_verdicts_give_one_clear_problem(text: str, rule: str, line: int | None) -> None:
    _, problems = harvest.parse_verdict("v.md", text)
    assert [(p.rule, p.line) for p in problems] == [(rule, line)]


def test_hostile_files_are_reported_and_the_rest_still_harvested(audits: Path) -> None:
    bad = audits / "bad"
    bad.mkdir()
    (bad / "binary.md").write_bytes(b"## Verdict \x00 GAPS")
    (bad / "huge.md").write_text("## Verdict — GAPS\n" + "| x |\n" * 300_000)
    (bad / "latin1.md").write_bytes("## Verdict - GAPS\ncaf\xe9\n".encode("latin-1"))
    (bad / "ragged.md").write_text(
        "## Verdict — GAPS\n| Severity | Axis | Gap | Evidence | Expected fix |\n"
        "| --- | --- | --- | --- | --- |\n| Major | a | b |\n| Critical | a | b | c | d |\n"
    )
    (bad / "prose.md").write_text("Just notes, no verdict.\n")
    result = run(audits, "harvest", "audits", "bad", "missing.md")
    assert result.exit_code == 1
    out = result.output
    assert "Traceback" not in out
    assert "bad/binary.md: HARVEST-FILE is a binary file" in out
    assert "bad/huge.md: HARVEST-FILE is over 1024 KiB" in out
    assert "bad/latin1.md:2: HARVEST-FILE is not UTF-8" in out
    assert "bad/ragged.md:4: HARVEST-ROW row has 3 cells, the header 5" in out
    assert "bad/ragged.md:5: HARVEST-ROW warning: unknown severity 'critical'" in out
    assert "bad/prose.md: HARVEST-VERDICT no '## Verdict — VALID'" in out
    assert "missing.md: HARVEST-FILE no such file" in out
    assert "proposed  local-mistake-" in out  # the good files were still harvested


def test_a_large_table_is_read_in_linear_time(
    audits: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A verdict table of 12,000 Major rows is read up to MAX_ROWS counted rows and no
    further, and only those gaps are grouped (grouping compares gaps with each other). The
    work is counted, not timed (a timed bound fails on a loaded machine): rows split into
    cells, MAX_ROWS + 3 at most (the header, the separator, the counted rows and the one
    that is refused), where reading the whole table splits 12,002; gaps grouped, MAX_ROWS
    at most, where all 12,000 would be."""
    split = [0]
    grouped = [0]
    table_cells, group_gaps = harvest.table_cells, harvest.group_gaps

    def counted_cells(line: str) -> list[str]:
        split[0] += 1
        return table_cells(line)

    def counted_groups(gaps: Any) -> list[harvest.Group]:
        grouped[0] += len(gaps)
        return group_gaps(gaps)

    monkeypatch.setattr(harvest, "table_cells", counted_cells)
    monkeypatch.setattr(harvest, "group_gaps", counted_groups)
    rows = "".join(
        f"| Major | axis{n % 7} | gap number {n} about module{n} | e{n} | fix {n} |\n"
        for n in range(12_000)
    )
    text = (
        "## Verdict — GAPS\n| Severity | Axis | Gap | Evidence | Expected fix |\n"
        "| --- | --- | --- | --- | --- |\n" + rows
    )
    assert len(text) < harvest.MAX_FILE_BYTES
    (audits / "big.md").write_text(text)
    result = run(audits, "harvest", "big.md", "--format", "json")
    assert 0 < split[0] <= harvest.MAX_ROWS + 3, split[0]
    assert 0 < grouped[0] <= harvest.MAX_ROWS, grouped[0]
    assert result.exit_code == 1
    assert f"more than {harvest.MAX_ROWS} Blocking or Major rows" in result.output


def test_no_paths_is_a_usage_error(audits: Path) -> None:
    result = run(audits, "harvest")
    assert result.exit_code == 2 and "name the audit verdict files" in result.output


def test_an_empty_path_is_a_usage_error_not_the_current_folder(audits: Path) -> None:
    """An empty PATH (`gitmem harvest "$AUDITS"` with the variable never set) was read as the
    current folder: every Markdown file of the repository harvested, its audits proposed."""
    result = run(audits, "harvest", "")
    assert result.exit_code == 2, result.output
    assert "an empty PATH names no file" in result.output
    assert branches(audits) == []


def review(repo: Path, *paths: str) -> dict[str, object]:
    result = run(repo, "harvest", *paths, "--format", "json")
    due: dict[str, object] = json.loads(result.output)["review_due"]
    return due


def test_a_review_of_mistakes_is_due_when_untreated_gaps_recur(audits: Path) -> None:
    # one batch: nothing recurs, nothing is due
    assert review(audits, "audits/audit-2026-11-20.md") == {"due": False, "gaps": []}
    # two batches: the watched gaps are untreated and recur, so learning is due
    two = ["audits/audit-2026-11-20.md", "audits/audit-2026-11-24.md"]
    due = review(audits, *two)
    assert due["due"] is True
    titles = {g["title"] for g in due["gaps"]}  # type: ignore[attr-defined]
    assert {RECURRING, WATCHED} <= titles
    text = ok(run(audits, "harvest", *two)).output
    assert "a review of mistakes is due: " in text and f"  {WATCHED!r} (2 batches, watch)" in text


def test_a_gap_is_treated_once_an_admitted_entry_holds_it_or_its_topic_is_refused(
    audits: Path,
) -> None:
    ok(run(audits, "harvest", "audits"))  # proposed: pending, not yet learnt
    pending = review(audits, "audits")
    assert RECURRING in {g["title"] for g in pending["gaps"]}  # type: ignore[attr-defined]
    [name] = [n for n in branches(audits) if "no-test-pushes" in n]
    ok(run(audits, "admit", name.removeprefix("gitmem/"), "--by", "human:alice"))
    for other in branches(audits):
        ok(run(audits, "refuse", other.removeprefix("gitmem/"), "--reason", "not ours"))
    left = review(audits, "audits")
    titles = {g["title"] for g in left["gaps"]}  # type: ignore[attr-defined]
    assert RECURRING not in titles and REFUSABLE not in titles
    assert WATCHED in titles  # still only watched: nobody learnt from it yet


def test_a_gap_holding_a_secret_is_reported_withheld_and_never_proposed(memory: Path) -> None:
    """A gap quoting a leaked token was printed in full as the group's title (watched, due
    for review, or refused by propose as invalid, its candidate file named after the token).
    It is now a `secret` group: where and which rule, its text never shown, exit 1."""
    token = "gh" + "p_" + "u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d"  # built here, not stored
    table = "| Severity | Axis | Gap | Evidence | Expected fix |\n| --- | --- | --- | --- | --- |\n"
    folder = memory / "audits"
    folder.mkdir()
    for batch in (1, 2, 3):
        row = f"| Blocking | security | The deploy token {token} shows in CI logs | ci {batch} "
        row += "| Mask |\n"  # each batch's own evidence: two batches, not one file twice
        rows = row if batch != 3 else "| Major | docs | The README is out of date | x | Fix |\n"
        (folder / f"batch-{batch}.md").write_text("## Verdict — GAPS\n\n" + table + rows)
    for args in (["audits/batch-1.md", "audits/batch-2.md"], ["audits"], ["audits", "--dry-run"]):
        for fmt in ("text", "json"):
            result = run(memory, "harvest", *args, "--format", fmt)
            assert result.exit_code == 1, result.output
            assert token not in result.output and token[4:].lower() not in result.output.lower()
    text = run(memory, "harvest", "audits").output
    assert "secret    '(withheld: it holds a secret)' (2 batches" in text
    assert "    audits/batch-1.md:5: SECRET github-pat: GitHub personal access token" in text
    assert "  '(withheld: it holds a secret)' (2 batches, secret)" in text
    (folder / "batch-3.md").write_text((folder / "batch-1.md").read_text().replace("ci 1", "ci 3"))
    assert run(memory, "harvest", "audits").exit_code == 1
    assert branches(memory) == []


def test_terminal_control_sequences_in_audit_files_are_shown_escaped(memory: Path) -> None:
    """The batch names (file names) and the lines of a refusal were printed as they were: an
    audit file named with an escape sequence acted on the terminal of whoever harvested it."""
    table = "| Severity | Axis | Gap | Evidence | Expected fix |\n| --- | --- | --- | --- | --- |\n"
    folder = memory / "audits"
    folder.mkdir()
    for name in ("one\x1b]0;owned\x07", "two", "three"):
        (folder / f"{name}.md").write_text(
            "## Verdict — GAPS\n\n" + table + "| Major | tests | No test covers the \x08\x08"
            "pre-receive hook | x | Add one |\n"
        )
    result = run(memory, "harvest", "audits")
    assert "Traceback" not in result.output
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert "\x08" not in result.output
    assert "audits/one\\x1b]0;owned\\x07.md" in result.output


def test_one_file_named_three_ways_is_one_batch(audits: Path) -> None:
    """A verdict file reached through `..` or a linked folder was a batch of its own under
    each spelling: one audit, named three ways, recurred in "3 distinct batches" and was
    proposed as an audited mistake (which `admit --auto` admits without a person)."""
    (audits / "linked").symlink_to("audits")
    one = "audits/audit-2026-11-20.md"
    result = run(
        audits, "harvest", one, "audits/../audits/audit-2026-11-20.md",
        "linked/audit-2026-11-20.md", str(audits / one), "--format", "json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert [b["batch"] for b in report["batches"]] == [one]
    assert {g["outcome"] for g in report["groups"]} == {"once"}
    assert branches(audits) == []


def _covering_as_first_written(state: Any, group: harvest.Group) -> str | None:
    """The covering measure as first written: every mistake's terms and TF-IDF weights over
    again for each group."""
    from gitmem.curate import hygiene
    from gitmem.recall.engine import analyze

    texts = [analyze(group.first.gap), analyze(group.latest.gap)]
    texts += [analyze(text) for _, text in state.mistakes]
    vectors = hygiene.tfidf(texts)
    for number, (holder, _) in enumerate(state.mistakes, start=2):
        best = max(
            hygiene.cosine(vectors[0], vectors[number]),
            hygiene.cosine(vectors[1], vectors[number]),
        )
        if best >= harvest.GROUP_THRESHOLD:
            return str(holder)
    return None


def test_gaps_are_matched_against_thousands_of_mistakes_in_linear_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each recurring gap re-analysed and re-weighed every admitted or pending mistake: 300
    recurring gaps against 2,000 mistakes took half a minute of a harvest. Each mistake is now
    analysed once and only those sharing a term with the gap are weighed, with the same
    result as before. The work is counted, not timed (a timed bound fails on a loaded
    machine): texts analysed, 3,900 here (each of the 3,000 mistakes and of the 300 added
    once, and each group's two wordings), where analysing every mistake again for each group
    made 945,450 (counted on the module as it was before)."""
    words = ["parser", "cache", "index", "hook", "branch", "merge", "commit", "tree", "blob"]
    rng = random.Random(7)

    def text() -> str:
        return " ".join(rng.choice(words) for _ in range(5))

    mistakes = [(f"pending candidate m{n}", f"{text()} case {n}") for n in range(3000)]
    groups = [
        harvest.Group(
            [
                harvest.Gap(f"b{b}", n, "Major", "tests", f"{text()} gap {n}", "", "")
                for b in (1, 2)
            ],
            ["b1", "b2"],
        )
        for n in range(300)
    ]
    expected = harvest._State({}, set(), {}, list(mistakes[:300]), None)
    found = harvest._State({}, set(), {}, list(mistakes[:300]), None)
    answers = [found.covering(group) for group in groups[:40]]
    assert answers == [_covering_as_first_written(expected, group) for group in groups[:40]]
    assert 0 < sum(1 for answer in answers if answer) < 40
    from gitmem.recall import engine

    analysed = [0]
    analyze = engine.analyze

    def counted(text: str) -> list[str]:
        analysed[0] += 1
        return analyze(text)

    monkeypatch.setattr(engine, "analyze", counted)
    bound = len(mistakes) + 3 * len(groups)  # the list grows as the loop adds to it
    state = harvest._State({}, set(), {}, mistakes, None)
    for group in groups:
        state.covering(group)
        state.mistakes.append(("candidate of this harvest", group.first.gap))
    assert analysed[0] <= bound, analysed[0]


def test_a_verdict_file_outside_the_repository_is_named_relative_to_it(
    memory: Path, tmp_path: Path
) -> None:
    """A verdict file outside the repository, named by its absolute path (or through a
    folder link), gave the candidate's `source: audit:` and `evidence_batches` that machine
    path (a home folder, a user name) for everyone who reads the memory."""
    outside = tmp_path / "elsewhere" / "audits"
    shutil.copytree(DATA, outside)
    result = run(memory, "harvest", str(outside), "--dry-run", "--format", "json")
    batches = [b["batch"] for b in json.loads(result.output)["batches"]]
    assert batches[0] == "../elsewhere/audits/audit-2026-11-20.md", batches
    assert not any(str(tmp_path) in batch for batch in batches)


def test_gaps_written_beyond_ascii_are_grouped_by_their_own_words(memory: Path) -> None:
    """Gaps were grouped as one when their text, kept to ASCII letters and digits, was equal:
    every gap written in Japanese, Greek or Russian was the empty text, so three different
    gaps in three batches became one recurring mistake, proposed (and, with audits allowed to
    admit, admitted) though no gap recurred."""
    table = "| Severity | Axis | Gap | Evidence | Expected fix |\n| --- | --- | --- | --- | --- |\n"
    folder = memory / "audits"
    folder.mkdir()
    gaps = ["テストがありません", "ドキュメントが古い", "Токены попадают в журнал"]
    for batch, gap in enumerate(gaps, start=1):
        rows = f"| Major | tests | {gap} | x | fix it |\n"
        rows += "| Major | docs | Ο κώδικας δεν ελέγχεται | y | z |\n"
        (folder / f"b{batch}.md").write_text("## Verdict — GAPS\n\n" + table + rows)
    found = groups(memory, "audits", "--dry-run")
    assert {title: g["outcome"] for title, g in found.items()} == {
        **{gap: "once" for gap in gaps},
        "Ο κώδικας δεν ελέγχεται": "would propose",  # the one gap that did recur
    }


def test_a_verdict_file_whose_name_is_not_utf8_is_reported_not_a_crash(audits: Path) -> None:
    """A verdict file named in another encoding became the candidate's source and
    evidence_batches as it was, and writing the candidate ended harvest in exit 3."""
    folder = audits / "latin"
    folder.mkdir()
    for n in (1, 2, 3):
        name = os.fsdecode(b"caf\xe9-" + str(n).encode() + b".md")
        shutil.copy(audits / "audits" / "audit-2026-11-28.md", folder / name)
    result = run(audits, "harvest", "latin")
    assert result.exit_code == 1, result.output
    assert "latin/caf\\xe9-1.md: HARVEST-FILE its name is not UTF-8: rename it" in result.output
    assert branches(audits) == []


def test_copies_of_one_verdict_are_one_batch(audits: Path) -> None:
    """Three files holding the same verdict, byte for byte (a verdict copied under new
    names), were three batches: its gaps 'recurred' in three and were proposed as audited
    mistakes, which admit --auto admits without a person."""
    folder = audits / "copies"
    folder.mkdir()
    for name in ("one.md", "two.md", "three.md"):
        shutil.copy(audits / "audits" / "audit-2026-11-28.md", folder / name)
    result = run(audits, "harvest", "copies", "--format", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert [b["batch"] for b in report["batches"]] == ["copies/one.md"]
    assert {g["outcome"] for g in report["groups"]} == {"once"}
    assert "copies/three.md: HARVEST-FILE warning: the same verdict as copies/one.md" in (
        "\n".join(report["problems"])
    )
    assert branches(audits) == []


def test_verdicts_without_gaps_alike_are_not_called_copies(audits: Path) -> None:
    """Every VALID verdict of an audit tool reads the same: warning that each is a copy of
    the first was noise, since a verdict without gaps adds no batch to any gap."""
    for name in ("one.md", "two.md"):
        (audits / name).write_text("## Verdict — VALID\n")
    result = ok(run(audits, "harvest", "one.md", "two.md"))
    assert "the same verdict" not in result.output


def test_a_dry_run_says_which_candidates_propose_would_refuse(memory: Path) -> None:
    """A dry run said 'would propose' of every recurring gap, while the real run refused
    some (a gap holding an invisible character: HIDDEN-UNICODE): the dry run promised what
    harvest would not do. It now judges each candidate as propose does, as import's does."""
    table = "| Severity | Axis | Gap | Evidence | Expected fix |\n| --- | --- | --- | --- | --- |\n"
    folder = memory / "audits"
    folder.mkdir()
    for batch in (1, 2, 3):
        row = f"| Major | tests | No test covers the\u200b hook | x{batch} | Add one |\n"
        (folder / f"b{batch}.md").write_text("## Verdict — GAPS\n\n" + table + row)
    dry = run(memory, "harvest", "audits", "--dry-run")
    real = run(memory, "harvest", "audits")
    assert dry.exit_code == real.exit_code == 1, (dry.output, real.output)
    assert "invalid   'No test covers the\\u200b hook'" in dry.output
    assert "HIDDEN-UNICODE" in dry.output


def test_the_problems_of_a_file_are_shown_twenty_at_most(memory: Path) -> None:
    """A verdict file breaking a row rule on each of 30 rows printed all 30 lines (thousands
    at will); harvest now shows the first 20 of a file and says how many more, as `gitmem
    check` does, and JSON keeps them all."""
    rows = "".join(f"| Severe | tests | gap {n} | e | f |\n" for n in range(30))
    table = "| Severity | Axis | Gap | Evidence | Expected fix |\n| --- | --- | --- | --- | --- |\n"
    (memory / "audit.md").write_text(f"# Audit\n\n## Verdict — GAPS\n\n{table}{rows}")
    result = run(memory, "harvest", "audit.md", "--dry-run")
    assert result.stderr.count("HARVEST-ROW") == 20, result.stderr
    assert (
        "audit.md: … 10 more problems in this file not shown (the first 20 are): "
        "`gitmem harvest --format json` with the same paths lists them all"
    ) in result.stderr
    data = json.loads(run(memory, "harvest", "audit.md", "--dry-run", "--format", "json").output)
    assert len(data["problems"]) == 30


def test_a_verdict_file_whose_path_holds_a_secret_is_withheld_and_skipped(memory: Path) -> None:
    """A verdict file whose folder or name held a token (an audit tool naming its output
    after the run's credentials) had that path printed in full in the batch list of every
    group, in the problems and in JSON; the candidate it recurred into carried it in source
    and evidence_batches (propose's scan refused it, naming the candidate file). The path is
    now withheld, the file skipped with its rule said, and nothing is proposed from it."""
    token = "gh" + "p_" + "u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d"  # built here, not stored
    table = "| Severity | Axis | Gap | Evidence | Expected fix |\n| --- | --- | --- | --- | --- |\n"
    folder = memory / "audits" / f"run-{token}"
    folder.mkdir(parents=True)
    for batch in (1, 2, 3):
        row = f"| Blocking | tests | No test covers the refusal path | t{batch} | Add one |\n"
        (folder / f"b{batch}.md").write_text("## Verdict — GAPS\n\n" + table + row)
    for args in (["audits"], ["audits", "--dry-run"]):
        for fmt in ("text", "json"):
            result = run(memory, "harvest", *args, "--format", fmt)
            assert "Traceback" not in result.output
            assert result.exit_code == 1, result.output
            assert token not in result.output and token[4:].lower() not in result.output.lower()
    text = run(memory, "harvest", "audits").output
    assert (
        "(withheld: its path holds a secret): HARVEST-FILE its path holds a secret "
        "(github-pat: GitHub personal access token"
    ) in text
    assert "rename it; the file is not read" in text
    assert branches(memory) == []


def test_a_recurring_gap_with_long_evidence_is_proposed_within_the_limit(memory: Path) -> None:
    """A candidate is fitted into memory.maxBody by dropping evidence rows, but never the
    last one, whole: a gap whose Evidence cell is long (a stack trace, a log excerpt) made
    no candidate fit, and harvest said "no batch gives an Expected fix: nothing to propose"
    of a gap that gives one in every batch. The rows now go without their Evidence text
    when they must (the verdict files keep it), and a gap too long even so says so."""
    table = "| Severity | Axis | Gap | Evidence | Expected fix |\n| --- | --- | --- | --- | --- |\n"
    gap = "The pre-receive hook accepts a push that rewrites admitted entries " + "x" * 240
    fix = "Refuse any push that rewrites an admitted entry; " + "y " * 350
    folder = memory / "audits"
    folder.mkdir()
    for batch in (1, 2, 3):
        evidence = f"trace {batch}: " + " ".join(f"frame{n}" for n in range(140))
        row = f"| Blocking | gate | {gap} | {evidence} | {fix} |\n"
        (folder / f"b{batch}.md").write_text("## Verdict — GAPS\n\n" + table + row)
    result = run(memory, "harvest", "audits", "--format", "json")
    assert result.exit_code == 0, result.output
    [group] = json.loads(result.output)["groups"]
    assert group["outcome"] == "proposed", group
    cid = group["id"]
    entry = parse(git(memory, "show", f"gitmem/{cid}:.gitmem/candidates/{cid}.md"))
    assert len(entry.body) <= 2000
    assert "- audits/b1.md:5 (Blocking, gate)" in entry.evidence
    too_long = "The gap is long " + "z " * 990
    for batch in (1, 2, 3):
        row = f"| Major | docs | {too_long} | e{batch} | {'w ' * 990} |\n"
        (folder / f"b{batch}.md").write_text("## Verdict — GAPS\n\n" + table + row)
    result = run(memory, "harvest", "audits", "--dry-run")
    assert result.exit_code == 1, result.output
    assert "too long for memory.maxBody" in result.output
    assert "no batch gives an Expected fix" not in result.output


def test_a_verdict_quoted_in_code_is_no_verdict() -> None:
    """The verdict heading and its table were looked for in every line, stripped of its
    indent: a file that quotes the format (a README of the audits folder, in a fenced or an
    indented code block, as this module's docstring does) was read as a verdict, its example
    gaps a batch of their own, and a real verdict below the example was never read. Code is
    not a heading: only a heading outside code, indented three spaces at most, opens one."""
    example = (
        "| Severity | Axis | Gap | Evidence | Expected fix |\n| --- | --- | --- | --- | --- |\n"
        "| Blocking | tests | An example gap | e | f |\n"
    )
    fenced = "# How to write a verdict\n\n```markdown\n## Verdict — GAPS\n\n" + example + "```\n"
    indented = "# How to write a verdict\n\n" + "".join(
        f"    {line}\n" for line in ("## Verdict — GAPS", "", *example.splitlines())
    )
    for text in (fenced, indented):
        verdict, problems = harvest.parse_verdict("README.md", text)
        assert verdict is None and [p.rule for p in problems] == ["HARVEST-VERDICT"], text
    real = "## Verdict — GAPS\n\n" + example.replace("An example gap", "A real gap")
    verdict, problems = harvest.parse_verdict("audit.md", fenced + "\n" + real)
    assert problems == [] and verdict is not None
    assert [g.gap for g in verdict.gaps] == ["A real gap"]


def test_a_severity_cell_holding_a_token_is_withheld_from_the_problem() -> None:
    """A row's unknown severity is quoted in its warning, which CI logs keep: a cell holding a
    token is said to be withheld instead (its first 40 characters held the token's start)."""
    token = "ghp_" + "aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6"
    text = (
        "## Verdict — GAPS\n| Severity | Axis | Gap | Evidence | Expected fix |\n"
        f"| --- | --- | --- | --- | --- |\n| {token} | a | b | c | d |\n"
    )
    _, problems = harvest.parse_verdict("v.md", text)
    assert [p.rule for p in problems] == ["HARVEST-ROW"]
    assert "ghp_" not in problems[0].message and harvest.WITHHELD in problems[0].message
