"""`gitmem hygiene`: clustering quality on a labelled set, stale entries, contradictions, and
consolidation candidates proposed on real repositories."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import benches
import pytest
from clirunner import ok, run

from gitmem.curate import hygiene
from gitmem.model.entry import Entry, parse

from conftest import git

LABELLED = json.loads(
    (Path(__file__).parent.parent / "data" / "hygiene" / "entries.json").read_text()
)["entries"]


def as_entry(row: dict[str, Any]) -> Entry:
    meta = {
        k: row[k]
        for k in ("type", "title", "applies_when", "correction", "detection_signal")
        if k in row
    }
    return Entry({"id": row["key"], **meta}, "", row["content"], "")


def pairs_of(groups: list[list[str]]) -> set[frozenset[str]]:
    return {frozenset(p) for group in groups for p in itertools.combinations(group, 2)}


def test_clustering_precision_and_recall_on_planted_duplicates_and_near_misses() -> None:
    entries = [(row["key"], as_entry(row)) for row in LABELLED]
    clusters, contradictions = hygiene.find_clusters(entries)
    predicted = pairs_of([[m.id for m in c.members] for c in clusters])
    planted: dict[str, list[str]] = {}
    for row in LABELLED:
        if row.get("cluster"):
            planted.setdefault(row["cluster"], []).append(row["key"])
    truth = pairs_of(list(planted.values()))
    true_positives = len(predicted & truth)
    precision = true_positives / len(predicted)
    recall = true_positives / len(truth)
    assert precision >= 0.9, (precision, predicted - truth)
    assert recall >= 0.85, (recall, truth - predicted)
    clustered = {m.id for c in clusters for m in c.members}
    near_misses = [r["key"] for r in LABELLED if r.get("near_miss_of") or r.get("contradicts")]
    assert not clustered & set(near_misses)
    assert not clustered & {r["key"] for r in LABELLED if r["key"].startswith("solo-")}
    flagged = {frozenset((c.a.id, c.b.id)) for c in contradictions}
    assert frozenset(("squash-a", "squash-b")) in flagged
    assert any("subprocess-contra" in pair for pair in flagged)
    # every flagged pair is a planted contradiction: no false alarm among the duplicates
    for pair in flagged:
        assert any(r["key"] in pair and r.get("contradicts") for r in LABELLED), pair


def test_the_threshold_separates_the_measured_scores() -> None:
    """Pin the measure: a reworded duplicate pair clears the threshold, its near-miss does not."""
    by_key = {row["key"]: as_entry(row) for row in LABELLED}
    keys = list(by_key)
    vectors = dict(
        zip(keys, hygiene.tfidf([hygiene.terms_of(by_key[k]) for k in keys]), strict=True)
    )
    assert hygiene.cosine(vectors["index-a"], vectors["index-b"]) > 0.7
    assert hygiene.cosine(vectors["index-a"], vectors["index-near-sort"]) < 0.35
    assert (
        hygiene.cosine(vectors["re2-a"], vectors["re2-near-redact"]) < hygiene.DUPLICATE_THRESHOLD
    )
    assert abs(hygiene.cosine(vectors["crlf-a"], vectors["crlf-a"]) - 1) < 1e-9


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Never squash a candidate branch.", [True]),
        ("Use pygit2 instead of subprocess git.", [False, True]),
        ("Read objects through pygit2, not subprocess.", [False, True]),
        ("Do not edit INDEX.md: regenerate it.", [True, False]),
        ("Keep hooks thin but fast.", [False, False]),
    ],
)
def test_clause_polarity(text: str, expected: list[bool]) -> None:
    assert [c.negative for c in hygiene.clauses(text)] == expected


def test_clause_terms_keep_identifiers_whole() -> None:
    assert hygiene.clause_terms("Always use INDEX.md and memory_push") == {
        "index.md",
        "memory_push",
    }


def test_components_never_join_contradicting_entries() -> None:
    edges = [(0.9, 0, 1), (0.8, 1, 2), (0.7, 2, 3)]
    assert hygiene.components(5, edges) == [[0, 1, 2, 3]]
    assert hygiene.components(5, edges, apart=[(0, 2)]) == [[0, 1], [2, 3]]


# ---------------------------------------------------------------------------------------------
# on a repository


def propose_admit(repo: Path, row: dict[str, Any], *extra: str) -> str:
    args = [
        "propose",
        "--type", row["type"], "--title", row["title"],
        "--applies-when", row["applies_when"], "--content", row["content"],
        "--evidence", f"Seen in review {row['key']}.",
        *extra,
    ]  # fmt: skip
    for key in ("correction", "detection_signal"):
        if key in row:
            args += [f"--{key.replace('_', '-')}", row[key]]
    out = ok(run(repo, *args)).output
    entry_id = out.split("proposed ")[1].split()[0]
    ok(run(repo, "admit", entry_id, "--by", "human:alice"))
    return entry_id


def row(key: str) -> dict[str, Any]:
    return next(r for r in LABELLED if r["key"] == key)


@pytest.fixture
def store(memory: Path) -> tuple[Path, dict[str, str]]:
    (memory / "src").mkdir()
    for name in ("app.py", "gone.py", "calm.py"):
        (memory / "src" / name).write_text(f"# {name}\n")
    git(memory, "add", "src")
    git(memory, "commit", "-q", "-m", "sources")
    ids = {}
    for key in (
        "index-a",
        "index-b",
        "index-near-sort",
        "re2-a",
        "re2-near-redact",
        "squash-a",
        "squash-b",
        "solo-schemas",
        "solo-mcp",
        "solo-recall",
    ):
        ids[key] = propose_admit(memory, row(key))
    ids["app"] = propose_admit(
        memory,
        {"key": "app", "type": "code-structure", "title": "The app module owns the event loop",
         "applies_when": "changing start-up", "content": "src/app.py creates and runs the loop."},
        "--file", "src/app.py",
    )  # fmt: skip
    ids["gone"] = propose_admit(
        memory,
        {"key": "gone", "type": "code-structure", "title": "Helpers live in gone.py",
         "applies_when": "adding a helper", "content": "Put shared helpers in src/gone.py."},
        "--file", "src/gone.py",
    )  # fmt: skip
    ids["calm"] = propose_admit(
        memory,
        {"key": "calm", "type": "code-structure", "title": "Calm module is stable",
         "applies_when": "touching calm.py", "content": "src/calm.py rarely changes."},
        "--file", "src/calm.py",
    )  # fmt: skip
    for n in range(5):
        (memory / "src" / "app.py").write_text(f"# app.py, revision {n}\n")
        git(memory, "commit", "-q", "-am", f"app revision {n}")
    (memory / "src" / "calm.py").write_text("# calm, once\n")
    git(memory, "commit", "-q", "-am", "calm changed once")
    git(memory, "rm", "-q", "src/gone.py")
    git(memory, "commit", "-q", "-m", "drop gone.py")
    return memory, ids


def test_report_lists_clusters_stale_entries_and_contradictions(
    store: tuple[Path, dict[str, str]],
) -> None:
    repo, ids = store
    main = git(repo, "rev-parse", "main")
    result = ok(run(repo, "hygiene", "--format", "json"))
    data = json.loads(result.output)
    clusters = [sorted(m["id"] for m in c["members"]) for c in data["clusters"]]
    assert clusters == [sorted([ids["index-a"], ids["index-b"]])]
    stale = {s["id"]: s for s in data["stale"]}
    assert set(stale) == {ids["app"], ids["gone"]}
    assert stale[ids["gone"]]["reason"] == "gone"
    assert stale[ids["app"]]["reason"] == "changed" and stale[ids["app"]]["commits"] == 5
    pairs = {frozenset((c["a"]["id"], c["b"]["id"])) for c in data["contradictions"]}
    assert pairs == {frozenset((ids["squash-a"], ids["squash-b"]))}
    assert git(repo, "rev-parse", "main") == main
    assert git(repo, "for-each-ref", "refs/heads/gitmem/") == ""
    text = ok(run(repo, "hygiene")).output
    assert "near-duplicate clusters: 1" in text
    assert f"{ids['app']}  5 commits changed src/app.py since its admission" in text
    assert f"{ids['gone']}  cited file(s) gone from main: src/gone.py" in text
    assert "contradictions for a person to judge: 1" in text
    # a lower bar makes the once-changed entry stale too
    lower = json.loads(ok(run(repo, "hygiene", "--stale-commits", "1", "--format", "json")).output)
    assert ids["calm"] in {s["id"] for s in lower["stale"]}


def test_propose_writes_one_superseding_candidate_per_cluster_and_only_once(
    store: tuple[Path, dict[str, str]],
) -> None:
    repo, ids = store
    main = git(repo, "rev-parse", "main")
    result = ok(run(repo, "hygiene", "--propose"))
    assert git(repo, "rev-parse", "main") == main  # nothing merged on its own
    names = git(repo, "for-each-ref", "--format=%(refname:short)", "refs/heads/gitmem/").split()
    by_supersedes = {
        frozenset(parse(git(repo, "show", f"{n}:.gitmem/candidates/{n[7:]}.md")).supersedes): n
        for n in names
    }
    branch = by_supersedes.pop(frozenset((ids["index-a"], ids["index-b"])))
    # the other one resolves the contradiction (test_propose_resolves_a_contradiction)
    assert list(by_supersedes) == [frozenset((ids["squash-a"], ids["squash-b"]))]
    cid = branch.removeprefix("gitmem/")
    assert f"proposed {cid}" in result.output
    entry = parse(git(repo, "show", f"{branch}:.gitmem/candidates/{cid}.md"))
    assert set(entry.supersedes) == {ids["index-a"], ids["index-b"]}
    assert entry.status == "candidate"
    assert "gitmem hygiene found these entries near-duplicates" in entry.evidence
    assert "Seen in review index-a." in entry.evidence and "cosine" in entry.evidence
    assert "Consolidates 2 near-duplicate entries" in entry.context
    # the candidate is valid as it stands
    assert "valid" in ok(run(repo, "candidates")).output
    again = ok(run(repo, "hygiene", "--propose"))
    assert f"already consolidated by pending {cid}" in again.output
    assert len(git(repo, "for-each-ref", "refs/heads/gitmem/").splitlines()) == 2
    # a person admits it: the cluster is gone, the originals superseded
    ok(run(repo, "admit", cid, "--by", "human:bob"))
    after = json.loads(ok(run(repo, "hygiene", "--format", "json")).output)
    assert after["clusters"] == []
    listed = ok(run(repo, "list", "--status", "superseded")).output
    assert ids["index-a"] in listed and ids["index-b"] in listed


def test_a_consolidation_records_the_texts_it_was_drafted_from(
    store: tuple[Path, dict[str, str]],
) -> None:
    """hygiene --propose writes a successor of the entries of a cluster from their texts, and
    recorded nothing of them: after an amendment of one was admitted and main merged into the
    candidate's branch (a forge's "update branch"), admitting it superseded the corrected
    entry with a text drafted before the correction. It records the blob id of each entry's
    file it was drafted from (drafted_from), and admit refuses it as it refuses a successor
    of propose --edit."""
    repo, ids = store
    members = (ids["index-a"], ids["index-b"])
    listed = git(repo, "ls-tree", "-r", "--name-only", "main", ".gitmem/entries").split()
    paths = {m: next(p for p in listed if p.endswith(f"/{m}.md")) for m in members}
    blobs = sorted(git(repo, "rev-parse", f"main:{paths[m]}").strip() for m in members)
    ok(run(repo, "hygiene", "--propose"))
    names = git(repo, "for-each-ref", "--format=%(refname:short)", "refs/heads/gitmem/").split()
    candidates = {n: parse(git(repo, "show", f"{n}:.gitmem/candidates/{n[7:]}.md")) for n in names}
    branch = next(n for n, e in candidates.items() if set(e.supersedes) == set(members))
    assert sorted(candidates[branch].meta["drafted_from"]) == blobs
    cid = branch.removeprefix("gitmem/")
    fix = run(repo, "propose", "--amend", members[0], "--title", "Regenerate INDEX.md, always")
    ok(run(repo, "admit", ok(fix).output.split()[1], "--by", "human:bob"))
    git(repo, "checkout", "-q", branch)
    git(repo, "merge", "-q", "--no-edit", "main")  # the forge's "update branch"
    git(repo, "checkout", "-q", "main")
    late = run(repo, "admit", cid, "--by", "human:bob")
    assert late.exit_code == 1, late.output
    assert f"LINEAGE supersedes {members[0]}, which changed on main since" in late.output


def test_consolidation_fits_the_body_limit() -> None:
    long = "x " * 900
    a = Entry(
        {"id": "a", "type": "method", "title": "T", "applies_when": "w", "admitted": "2026-01-01"},
        "c",
        long,
        "e" * 500,
    )
    b = Entry(
        {"id": "b", "type": "method", "title": "T2", "applies_when": "w", "admitted": "2026-01-02"},
        "c",
        "Short and different words here.",
        "f" * 500,
    )
    cluster = hygiene.Cluster(
        [hygiene.Member("a", "pa", "T"), hygiene.Member("b", "pb", "T2")], [("a", "b", 0.5)]
    )
    fields = hygiene.consolidation_fields(cluster, [a, b], 2000, lambda _: True)
    assert fields is not None
    assert fields.title == "T2"  # the most recently admitted wording leads
    assert (
        len(Entry({}, fields.context or "", fields.content or "", fields.evidence or "").body)
        <= 2000
    )
    assert hygiene.consolidation_fields(cluster, [a, b], 100, lambda _: True) is None


def test_propose_resolves_a_contradiction_with_the_evidence_for_the_call(
    store: tuple[Path, dict[str, str]],
) -> None:
    repo, ids = store
    text = ok(run(repo, "hygiene")).output
    assert "    evidence: opposite on " in text and "applies_when alike at " in text
    result = ok(run(repo, "hygiene", "--propose", "--format", "json"))
    [resolution] = json.loads(result.output)["resolutions"]
    assert set(resolution["entries"]) == {ids["squash-a"], ids["squash-b"]}
    cid = resolution["id"]
    entry = parse(git(repo, "show", f"gitmem/{cid}:.gitmem/candidates/{cid}.md"))
    assert set(entry.supersedes) == {ids["squash-a"], ids["squash-b"]}
    assert "opposite polarity on " in entry.evidence and "clause overlap" in entry.evidence
    assert "Resolves a contradiction gitmem hygiene found" in entry.context
    assert "valid" in ok(run(repo, "candidates")).output
    again = json.loads(ok(run(repo, "hygiene", "--propose", "--format", "json")).output)
    assert again["resolutions"][0]["note"] == f"already superseded by pending {cid}"


def test_lint_reports_a_contradiction_as_a_warning_with_its_evidence(
    store: tuple[Path, dict[str, str]],
) -> None:
    repo, ids = store
    found = json.loads(run(repo, "lint", "--format", "json").output)
    clashes = [p for p in found["problems"] if p["rule"] == "CONTRADICTION"]
    assert len(clashes) == 1 and clashes[0]["severity"] == "warning"
    message = clashes[0]["message"]
    assert {ids["squash-a"], ids["squash-b"]} & {clashes[0]["path"].rsplit("/", 1)[1][:-3]}
    assert "opposite polarity on " in message and "gitmem hygiene --propose" in message


def _bench() -> Any:
    return benches.load("contradictions")


def test_the_clause_overlap_is_the_one_the_tuning_set_chooses_and_holds_out() -> None:
    """CLAUSE_OVERLAP is chosen on the tuning set; the held-out set (written by someone else)
    keeps its precision, and its recall is pinned at what was measured (README)."""
    bench = _bench()
    assert bench.choose() == hygiene.CLAUSE_OVERLAP
    precision, recall, flagged, labelled = bench.held_out(hygiene.CLAUSE_OVERLAP)
    assert precision == 1.0 and recall >= 0.5, (precision, recall, flagged, labelled)


def _admitted(repo: Path, title: str, content: str, *more: str) -> str:
    args = ["propose", "--type", "decision", "--title", title, "--content", content, *more]
    entry_id = ok(run(repo, *args, "--applies-when", "writing code that runs in a git hook"))
    ok(run(repo, "admit", entry_id.output.split()[1], "--by", "human:bob"))
    return entry_id.output.split()[1]


def test_a_contradiction_between_long_entries_is_still_proposed_within_the_limit(
    memory: Path,
) -> None:
    """The resolution kept the later entry's Context and Evidence whole and added its own: two
    entries near memory.maxBody made a candidate over it, refused as BODY-LENGTH (naming a
    candidate file that was never written), so that contradiction could never be proposed."""
    long = " ".join(["Measured on the staging cluster with the nightly load profile."] * 14)
    more = ["--context", long, "--evidence", long]
    first = _admitted(
        memory, "Run subprocess git inside hooks", "Run subprocess git in hooks.", *more
    )
    later = _admitted(memory, "Keep hooks fast", "Never run subprocess git in hooks.", *more)
    result = json.loads(ok(run(memory, "hygiene", "--propose", "--format", "json")).output)
    [resolution] = result["resolutions"]
    assert resolution["id"], resolution["note"]
    cid = resolution["id"]
    entry = parse(git(memory, "show", f"gitmem/{cid}:.gitmem/candidates/{cid}.md"))
    assert set(entry.supersedes) == {first, later}
    assert entry.content == "Never run subprocess git in hooks."
    assert "opposite polarity on " in entry.evidence
    assert len(entry.body) <= 2000


def test_a_contradiction_or_a_split_of_an_entry_citing_a_deleted_file_is_still_proposed(
    memory: Path,
) -> None:
    """A resolution and a split copied the entry's `files` as they were, while a consolidation
    keeps only the cited files still on main: an entry citing a file deleted since (the very
    entries hygiene reports as stale) made a candidate that propose refused (FILES-MISSING),
    so it could never be resolved or split."""
    (memory / "src").mkdir()
    (memory / "src" / "hooks.py").write_text("# hooks\n")
    (memory / "src" / "kept.py").write_text("# kept\n")
    git(memory, "add", "src")
    git(memory, "commit", "-q", "-m", "sources")
    cite = ["--file", "src/hooks.py", "--file", "src/kept.py"]
    first = _admitted(memory, "Run subprocess git inside hooks", "Run subprocess git in hooks.")
    later = _admitted(memory, "Keep hooks fast", "Never run subprocess git in hooks.", *cite)
    mixed = _admitted(
        memory,
        "Open the repository from the environment in hooks",
        "Open the repository from the environment inside a pre-receive hook, so the objects "
        "git holds in quarantine during the push are visible to the judge.\nSourdough bread "
        "needs a ripe starter fed twelve hours before baking; a young starter gives a dense "
        "crumb and a flat loaf.",
        *cite,
    )
    git(memory, "rm", "-q", "src/hooks.py")
    git(memory, "commit", "-q", "-m", "drop hooks.py")
    result = json.loads(ok(run(memory, "hygiene", "--propose", "--format", "json")).output)
    [resolution] = result["resolutions"]
    assert resolution["id"], resolution["note"]
    [(entry, ids, note)] = [(s["entry"], s["ids"], s["note"]) for s in result["split_proposals"]]
    assert entry == mixed and len(ids) == 2 and not note, note
    assert set(resolution["entries"]) == {first, later}
    for cid in [resolution["id"], *ids]:
        candidate = parse(git(memory, "show", f"gitmem/{cid}:.gitmem/candidates/{cid}.md"))
        assert candidate.files == ("src/kept.py",)


def test_a_shallow_clone_says_its_staleness_is_cut_short(
    store: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    """In a shallow clone the walk took the first commit it held for a root: its whole tree
    read as added, so every entry seemed admitted there, its changes before it uncounted, and
    the report said so with a false admission commit and no word of the cut history."""
    repo, ids = store
    clone = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "3", f"file://{repo}", str(clone))
    cut = git(clone, "rev-parse", "HEAD~2").strip()
    result = ok(run(clone, "hygiene", "--stale-commits", "1", "--format", "json"))
    report = json.loads(result.output)
    assert [w for w in report["warnings"] if "shallow" in w and "--unshallow" in w]
    assert report["stale"] and all(s["since"] != cut for s in report["stale"])
    assert ids["calm"] in {s["id"] for s in report["stale"]}  # changed once since the cut
    text = ok(run(clone, "hygiene", "--stale-commits", "1")).output
    assert "this clone is shallow" in text
    assert f"{ids['calm']}  1 commits changed src/calm.py since the cut" in text


def test_a_large_cluster_is_consolidated_within_the_limits(memory: Path) -> None:
    """The consolidation's Evidence listed the cosine of every pair in the cluster and its
    Context every id: from about six members on it never fitted memory.maxBody ('too long to
    merge within memory.maxBody: merge by hand'), and past twenty members the entry whose
    text it keeps could fall outside the twenty it supersedes, while all of them were taken
    as consolidated."""
    ids = []
    for letter in "abcdefghijklmnopqrstuv":
        more = " It pays." if letter == "v" else ""  # the longest text: the one kept
        ids.append(
            _admitted(
                memory,
                f"{letter} Read git objects with pygit2 inside hooks",
                f"Read git objects with pygit2 inside hooks for speed.{more}",
            )
        )
    report = json.loads(ok(run(memory, "hygiene", "--propose", "--format", "json")).output)
    [cluster] = report["clusters"]
    assert len(cluster["members"]) == 22
    [proposed] = report["proposed"]
    assert proposed["id"], proposed["note"]
    cid = proposed["id"]
    entry = parse(git(memory, "show", f"gitmem/{cid}:.gitmem/candidates/{cid}.md"))
    assert entry.title.startswith("v Read git objects") and ids[-1] in entry.supersedes
    assert len(entry.supersedes) == 20 and len(entry.body) <= 2000
    assert sorted(proposed["members"]) == sorted(entry.supersedes)
    assert "valid" in ok(run(memory, "candidates")).output
    left = [i for i in ids if i not in entry.supersedes]
    ok(run(memory, "admit", cid, "--by", "human:bob"))
    again = json.loads(ok(run(memory, "hygiene", "--propose", "--format", "json")).output)
    assert sorted(m["id"] for m in again["clusters"][0]["members"]) == sorted([*left, cid])


def test_an_entry_citing_a_folder_goes_stale_when_its_files_change(memory: Path) -> None:
    """`files` may name a folder (it must exist where the entry is admitted), and hygiene
    reports one that is gone; but the commits counted were those changing a cited path
    itself, and a commit changes files, never a folder: an entry citing a folder was never
    stale, however much its files changed."""
    (memory / "src" / "app").mkdir(parents=True)
    (memory / "src" / "app" / "main.py").write_text("# app\n")
    git(memory, "add", "src")
    git(memory, "commit", "-q", "-m", "sources")
    entry_id = _admitted(
        memory, "The app lives under src", "All of the app's code is under src/app.",
        "--file", "src",
    )  # fmt: skip
    for n in range(5):
        (memory / "src" / "app" / "main.py").write_text(f"# app, revision {n}\n")
        git(memory, "commit", "-q", "-am", f"revision {n}")
    report = json.loads(ok(run(memory, "hygiene", "--format", "json")).output)
    assert [(s["id"], s["reason"], s["commits"]) for s in report["stale"]] == [
        (entry_id, "changed", 5)
    ]


def test_a_cluster_that_cannot_fit_is_given_up_on_quickly(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fitting a consolidation tried every count of pairs for every count of other entries'
    Evidence and of added clauses: twenty members whose text could not fit took a quarter of
    a minute for one cluster. The pairs that fit are now found once per try of the clauses.
    The work is counted, not timed (a timed bound fails on a loaded machine): each try builds
    one Entry to measure its body, 7,640 of them here, where every combination of two
    contexts, 20 counts of clauses, 21 of Evidence and 191 of pairs would be some 160,000."""
    tried = [0]

    class Counted(Entry):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            tried[0] += 1
            super().__init__(*args, **kwargs)

    ids = [f"shop-method-20261201-read-git-objects-with-pygit2-inside-hooks-{n}" for n in range(20)]
    entries = [
        Entry(
            {
                "id": i,
                "type": "method",
                "title": "T",
                "applies_when": "w",
                "admitted": "2026-01-01",
            },
            "c " * 300,
            "Read objects. " * 100 + f" Topic{n} alpha{n} beta{n} gamma{n}.",
            "e " * 200,
        )
        for n, i in enumerate(ids)
    ]
    pairs = [(a, b, 0.5) for a, b in itertools.combinations(ids, 2)]
    cluster = hygiene.Cluster([hygiene.Member(i, "p", "T") for i in ids], pairs)
    monkeypatch.setattr(hygiene, "Entry", Counted)
    assert hygiene.consolidation_fields(cluster, entries, 2000, lambda _: True) is None
    assert 0 < tried[0] <= 20_000


def test_a_proposal_that_breaks_a_rule_fails_the_run_and_the_sound_ones_are_kept(
    memory: Path,
) -> None:
    """--propose exited 0 when a candidate it made broke a rule (its text copied from an
    entry committed past the gate): the refusal was one "not proposed" line among the
    report, and a script or workflow running it took the run for a success. It now exits 1,
    as every command does when a rule fails, saying which entries' files the text came
    from, the rule, and what to do; the proposals that passed are written all the same."""
    first = _admitted(memory, "Run subprocess git inside hooks", "Run subprocess git in hooks.")
    later = _admitted(memory, "Keep hooks fast", "Never run subprocess git in hooks.")
    twins = [
        _admitted(
            memory,
            f"{n} Pin the CI runner image by its digest",
            "Pin the CI runner image by its digest so builds repeat.",
        )
        for n in ("One:", "Two:")
    ]
    paths = []
    for twin in twins:  # a zero-width space, committed past the gate (HIDDEN-UNICODE)
        path = next((memory / ".gitmem" / "entries").rglob(f"{twin}.md"))
        path.write_text(path.read_text().replace("so builds repeat.", "so builds\u200b repeat."))
        paths.append(path.relative_to(memory).as_posix())
    git(memory, "commit", "-q", "--no-verify", "-am", "an invisible character, past the gate")
    for fmt in ("text", "json"):
        result = run(memory, "hygiene", "--propose", "--format", fmt)
        assert result.exit_code == 1, result.output
        if fmt == "json":
            report = json.loads(result.stdout)
            assert report["ok"] is False
            [proposed] = report["proposed"]
            assert proposed["id"] is None and "HIDDEN-UNICODE" in proposed["note"]
            [failure] = report["failures"]
        else:
            failure = result.stderr
        assert "HIDDEN-UNICODE" in failure, failure
        assert all(path in failure for path in paths), failure
        assert "gitmem propose --amend" in failure and "gitmem hygiene --propose" in failure
    # the sound proposal, the resolution of the contradiction, was written on the first run
    [resolution] = json.loads(run(memory, "hygiene", "--propose", "--format", "json").stdout)[
        "resolutions"
    ]
    assert resolution["note"].startswith("already superseded by pending ")
    cid = resolution["note"].rsplit(" ", 1)[1]
    entry = parse(git(memory, "show", f"gitmem/{cid}:.gitmem/candidates/{cid}.md"))
    assert set(entry.supersedes) == {first, later}


def test_a_copy_of_an_entry_left_outside_its_place_is_no_near_duplicate(memory: Path) -> None:
    """A copy of an entry under entries/ (a merge tool's `….md.orig` is skipped, but a
    `copy.md` straight under entries/ or in a folder of another type was read) was taken for
    a second entry of the same id: hygiene listed the entry as a near-duplicate of itself,
    and --propose failed the run on a consolidation superseding one id twice, telling the
    reader to amend the sound entry. Only a file at its entry's place is judged; the others
    are named in a warning (lint and check say what is wrong with them)."""
    entry_id = _admitted(memory, "Keep hooks fast", "Never run subprocess git in hooks.")
    real = memory / ".gitmem" / "entries" / "decision" / f"{entry_id}.md"
    for stray in (real.parent.parent / "copy.md", real.parent.parent / "method" / real.name):
        stray.parent.mkdir(exist_ok=True)
        stray.write_bytes(real.read_bytes())
    git(memory, "add", "-A")
    git(memory, "commit", "-q", "-m", "copies")
    result = run(memory, "hygiene", "--propose", "--format", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["checked"] == 1
    assert report["clusters"] == [] and report["proposed"] == [] and report["failures"] == []
    warned = "\n".join(report["warnings"])
    assert ".gitmem/entries/copy.md: not judged: it is at no entry's place" in warned
    assert f".gitmem/entries/method/{entry_id}.md: not judged" in warned
    assert git(memory, "branch", "--list", "gitmem/*").strip() == ""


def test_an_entry_holding_a_secret_is_not_judged_nor_quoted(memory: Path) -> None:
    """An admitted entry holding a token (committed past the gate) was judged with the
    others: the report printed its clause as one side of a contradiction, its title in a
    cluster, and --propose copied it into a resolution that propose then refused. It is now
    left out, named in a warning that says why (gitmem lint says where), its text never
    printed, and the run proposes nothing from it."""
    from secret_samples import github_token

    token = github_token(98)
    _admitted(memory, "Run subprocess git inside hooks", "Run subprocess git in hooks.")
    leaked = _admitted(memory, "Keep hooks fast", "Never run subprocess git in hooks.")
    path = memory / ".gitmem" / "entries" / "decision" / f"{leaked}.md"
    path.write_text(path.read_text().replace("in hooks.", f"in hooks with {token}."))
    git(memory, "commit", "-q", "--no-verify", "-am", "committed past the gate")
    for args in (["--format", "json"], ["--propose"]):
        result = run(memory, "hygiene", *args)
        assert result.exit_code == 0, result.output
        assert token[4:].lower() not in result.output.lower(), result.output
    report = json.loads(run(memory, "hygiene", "--format", "json").output)
    assert report["checked"] == 1 and report["contradictions"] == []
    assert any(
        w.startswith(f".gitmem/entries/decision/{leaked}.md: not judged: it holds a secret")
        for w in report["warnings"]
    ), report["warnings"]
    assert git(memory, "branch", "--list", "gitmem/*").strip() == ""


def test_a_stray_file_holding_a_secret_in_its_id_is_not_echoed(memory: Path) -> None:
    """The warning naming a file under entries/ that is not at its entry's place quoted the
    id and type its front matter gives: a stray file whose id held a token printed it. A
    file at no entry's place is now read as no entry, and named by its path alone."""
    from secret_samples import github_token

    token = github_token(99)
    entry_id = _admitted(memory, "Keep hooks fast", "Never run subprocess git in hooks.")
    real = memory / ".gitmem" / "entries" / "decision" / f"{entry_id}.md"
    stray = real.parent.parent / "copy.md"
    stray.write_text(real.read_text().replace(f"id: {entry_id}", f"id: {token}"))
    git(memory, "add", "-A")
    git(memory, "commit", "-q", "--no-verify", "-m", "a stray file")
    result = run(memory, "hygiene", "--format", "json")
    assert result.exit_code == 0, result.output
    assert token[4:].lower() not in result.output.lower(), result.output
    warnings = json.loads(result.output)["warnings"]
    assert warnings == [
        ".gitmem/entries/copy.md: not judged: it is at no entry's place, "
        ".gitmem/entries/<type>/<id>.md (gitmem lint says what is wrong with this file)"
    ]


def test_an_entry_holding_an_allowed_finding_is_judged_as_any_other(memory: Path) -> None:
    """A finding a reviewer allowed by fingerprint (allowed.md on the memory branch) is no
    secret to the gate: the entry holding it is judged, contradictions and all, as lint and
    check judge it."""
    from secret_samples import github_token

    from gitmem.gate import secrets
    from gitmem.model import allowed

    token = github_token(100)
    _admitted(memory, "Run subprocess git inside hooks", "Run subprocess git in hooks.")
    example = _admitted(memory, "Keep hooks fast", "Never run subprocess git in hooks.")
    path = memory / ".gitmem" / "entries" / "decision" / f"{example}.md"
    path.write_text(path.read_text().replace("## Evidence\n", f"## Evidence\nrevoked {token}\n"))
    row = allowed.Allowance(
        secrets.fingerprint("github-pat", token.encode()), example, "human:bob", "2026-12-01", "x"
    )
    (memory / ".gitmem" / allowed.NAME).write_text(allowed.append(None, [row]))
    git(memory, "add", "-A")
    git(memory, "commit", "-q", "--no-verify", "-m", "an allowed example token")
    assert "SECRET" not in run(memory, "lint").output
    report = json.loads(ok(run(memory, "hygiene", "--format", "json")).output)
    assert report["checked"] == 2 and report["warnings"] == []
    assert len(report["contradictions"]) == 1


def test_a_refused_consolidation_or_split_is_not_proposed_again_nor_a_failure(
    memory: Path,
) -> None:
    """A reviewer who refused a consolidation (the entries are two lessons after all) put
    its topic in refused.md, and every later `hygiene --propose` failed the run (exit 1) on
    the same consolidation, REFUSED-TOPIC, telling the reader to amend the sound entries.
    The team decided: the proposal is now left out with a note saying so, and the run
    passes; so for a refused split."""
    _admitted(
        memory, "Use pygit2 inside git hooks",
        "Read objects with pygit2 inside hooks; spawning git per call costs more.",
    )  # fmt: skip
    _admitted(
        memory, "Prefer pygit2 over git in hooks",
        "Inside hooks read objects with pygit2; spawning git per call costs more time.",
    )  # fmt: skip
    first = json.loads(ok(run(memory, "hygiene", "--propose", "--format", "json")).output)
    [proposed] = first["proposed"]
    ok(run(memory, "refuse", proposed["id"], "--reason", "two lessons: keep both"))
    result = run(memory, "hygiene", "--propose", "--format", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["failures"] == []
    [again] = report["proposed"]
    assert again["id"] is None and "was refused" in again["note"], again
    assert "two lessons: keep both" in again["note"]
    text = ok(run(memory, "hygiene", "--propose")).output
    assert "not proposed (" in text and "was refused" in text
    assert git(memory, "branch", "--list", "gitmem/*").strip() == ""


def test_an_entry_a_pending_amendment_or_retirement_changes_is_left_to_it(
    memory: Path,
) -> None:
    """hygiene proposed consolidating an entry that a pending candidate was already retiring
    (or amending): two candidates changing one entry, of which the one admitted second is
    refused (LINEAGE: it supersedes an entry already retired). An entry a pending amendment
    or retirement changes is now left to it, with a note naming it; nothing is proposed."""
    _admitted(
        memory, "Use pygit2 inside git hooks",
        "Read objects with pygit2 inside hooks; spawning git per call costs more.",
    )  # fmt: skip
    junk = _admitted(
        memory, "Prefer pygit2 over git in hooks",
        "Inside hooks read objects with pygit2; spawning git per call costs more time.",
    )  # fmt: skip
    ok(run(memory, "propose", "--retire", junk, "--reason", "a duplicate a test wrote"))
    result = json.loads(ok(run(memory, "hygiene", "--propose", "--format", "json")).output)
    [cluster] = result["proposed"]
    assert cluster["id"] is None
    assert cluster["note"] == f"{junk} is being retired by pending {junk}-retire: review it first"
    branches = git(memory, "branch", "--list", "gitmem/*").split()
    assert branches == [f"gitmem/{junk}-retire"]
