"""The curation commands: `gitmem import claude`, `gitmem lint`, `gitmem hygiene`,
`gitmem harvest`.  Thin: parse, call one core function, print what it returns, and return
the exit code; a GitmemError propagates to gitmem.cli.main, which maps it to its exit code.
"""

from __future__ import annotations

from pathlib import Path

import click

from gitmem.cli.options import REPORT_FORMAT, command_workspace, emit_warnings
from gitmem.cli.options import TEXT_OR_JSON as FORMAT
from gitmem.model.terminal import visible


def _echo(text: str = "", *, err: bool = False) -> None:
    """Print a line of a report made of others' text: an imported note's title and file name,
    an audit file's name and rows, an entry's title. Each character a terminal would act on
    (an escape sequence that clears the screen or retitles the window, a backspace) is
    written as its escape, as `gitmem show` and `gitmem review` do: these commands read files
    a cloned repository or an audit tool wrote, and print them before any gate has looked."""
    click.echo(visible(text), err=err)


def _table(rows: list[tuple[str, int]]) -> list[str]:
    width = max(len(label) for label, _ in rows)
    lines = [f"| {'outcome':<{width}} | count |", f"| {'-' * width} | ----: |"]
    lines.extend(f"| {label:<{width}} | {count:>5} |" for label, count in rows)
    return lines


# ---------------------------------------------------------------------------------------------
# import


@click.group("import")
def import_() -> None:
    """Import memory kept elsewhere as candidates (reviewed like any proposal)."""


@import_.command("claude")
@click.option(
    "--from",
    "from_dir",
    type=click.Path(file_okay=False),
    help="A Claude Code folder to read (default: this repository's .claude/); e.g. ~/.claude "
    "for user-level agent memory and this repository's auto memory, or one memory folder.",
)
@click.option("--dry-run", is_flag=True, help="Show what would be proposed; write nothing.")
@FORMAT
def import_claude(from_dir: str | None, dry_run: bool, fmt: str) -> int:
    """Lift Claude Code memory into `method` candidates, once.

    Reads .claude/agent-memory/<agent>/MEMORY.md (each top-level item, with the note it links),
    agent-memory-local/, and auto-memory topic files (front matter name/description/type).
    A topic already pending, admitted or refused is skipped; an item holding a secret is
    reported and nothing is written for it. Never writes under .claude/. Exits 1 when an item
    held a secret or broke a rule.
    """
    import json

    from gitmem.curate import importer

    if from_dir == "":
        # a variable never set: as a Path it was the current folder, whose MEMORY.md (the one
        # `gitmem export agents` writes) was lifted into candidates as Claude Code's
        raise click.UsageError(
            "--from '' names no folder: name a Claude Code folder, or leave --from out for "
            "this repository's .claude/"
        )
    ws = command_workspace()
    emit_warnings(ws.settings.warnings)  # the memory checked against may be the default's
    report = importer.import_claude(
        ws, Path(from_dir).expanduser() if from_dir is not None else None, dry_run=dry_run
    )
    if fmt == "json":
        _echo(
            json.dumps(
                {
                    "base": report.base,
                    "folders": report.folders,
                    "items": [
                        {
                            "origin": o.origin,
                            "title": o.title,
                            "topic": o.topic,
                            "outcome": o.status,
                            "detail": o.detail,
                            "id": o.id,
                        }
                        for o in report.outcomes
                    ],
                    "counts": dict(importer.iter_rows(report)),
                    "notes": report.notes,
                },
                indent=2,
            )
        )
        return 0 if report.ok else 1
    for note in report.notes:
        _echo(f"gitmem: {note}", err=True)
    if report.folders:
        _echo(f"read {len(report.folders)} memory folder(s) below {report.base}")
    for outcome in report.outcomes:
        label = importer.LABELS[outcome.status]
        head = f"{label}: {outcome.title}  [{outcome.origin}]"
        _echo(head + (f" → {outcome.id}" if outcome.id else ""))
        for line in outcome.detail.splitlines():
            _echo(f"    {line}")
    _echo("")
    for line in _table(list(importer.iter_rows(report))):
        _echo(line)
    return 0 if report.ok else 1


# ---------------------------------------------------------------------------------------------
# lint


@click.command("lint")
@click.option("--rev", metavar="REV", help="Lint the memory at this commit (default: main's tip).")
@REPORT_FORMAT
def lint(rev: str | None, fmt: str) -> int:
    """Check the admitted memory as a whole: INDEX.md drift, broken or one-sided lineage,
    dead `files`, ids that disagree with their entry, bodies grown into a change log,
    relative dates ("yesterday", "last week") in admitted text, and (as warnings, with the
    evidence) admitted entries that apply to the same situation and contradict each other.

    \b
    Rules, besides the file rules of `gitmem check`:
      INDEX-DRIFT        INDEX.md disagrees with the entry files, or is missing
      LINEAGE-BROKEN     supersedes or superseded_by names an entry not on main
      LINEAGE-ONE-SIDED  one side of a supersession is missing
      LINEAGE-CYCLE      following superseded_by comes back to the start
      ID-DUPLICATE       two files carry the same id
      ID-TITLE           the id's slug is not the slug of the title
      FILES-DEAD         an admitted entry cites a path main no longer has
      CHANGELOG-BODY     Context and Content grew into a log of dated edits
      RELATIVE-DATE      "yesterday", "last week", "3 days ago" in admitted prose
      CODEOWNERS         the CODEOWNERS block does not match memory.owners
      CONTRADICTION      (a warning) two entries for one situation disagree

    Prints `path:line: RULE-ID message` per problem (at most 20 of one file: --format json
    lists them all) and a summary; exits 1 when a rule fails.
    """
    from gitmem.curate import lint as lint_mod
    from gitmem.gate import check

    report = lint_mod.lint(command_workspace(), rev)
    if fmt == "text":
        emit_warnings(report.warnings)
    _echo(check.render(report, fmt))
    return 0 if report.ok else 1


# ---------------------------------------------------------------------------------------------
# hygiene


@click.command("hygiene")
@click.option(
    "--propose",
    is_flag=True,
    help="Propose each near-duplicate cluster as one candidate that supersedes its members, "
    "and each contradiction as one that supersedes both (the later-admitted text kept).",
)
@click.option(
    "--stale-commits",
    type=click.IntRange(min=1),
    default=5,
    show_default=True,
    help="Commits touching an entry's files since its admission that make it stale.",
)
@FORMAT
def hygiene(propose: bool, stale_commits: int, fmt: str) -> int:
    """Find near-duplicate clusters, stale entries and contradictions among admitted entries.

    Near-duplicates: TF-IDF cosine of title, applies_when and content at or above 0.42.
    Stale: cited files gone, or changed by --stale-commits commits since admission.
    Contradictions: related entries where one says to do what the other says not to do;
    shown for a person to judge. With --propose, each cluster becomes an ordinary candidate
    branch that supersedes the entries it merges; nothing on main is merged, edited or deleted.
    Exits 1 when a candidate it would propose broke a rule (the others are proposed all the
    same), naming the entries' files its text came from and the rule.
    """
    import json
    from dataclasses import asdict

    from gitmem.curate import hygiene as hygiene_mod
    from gitmem.curate import split as split_mod

    ws = command_workspace()
    emit_warnings(ws.settings.warnings)  # the folder judged may be the default's, not theirs
    report = hygiene_mod.hygiene(ws, propose=propose, min_commits=stale_commits)
    if fmt == "json":
        _echo(
            json.dumps(
                {
                    "ok": report.ok,
                    "checked": report.checked,
                    "warnings": report.warnings,
                    "failures": report.failures,
                    "clusters": [asdict(c) for c in report.clusters],
                    "stale": [asdict(s) for s in report.stale],
                    "contradictions": [asdict(c) for c in report.contradictions],
                    "proposed": [
                        {
                            "members": [m.id for m in p.cluster.members],
                            "id": p.id,
                            "branch": p.branch,
                            "note": p.note,
                        }
                        for p in report.proposed
                    ],
                    "splits": [asdict(s) for s in report.splits],
                    "split_proposals": [
                        {"entry": entry, "ids": ids, "note": note}
                        for entry, ids, note in report.split_proposals
                    ],
                    "resolutions": [
                        {
                            "entries": [m.id for m in p.cluster.members],
                            "id": p.id,
                            "branch": p.branch,
                            "note": p.note,
                        }
                        for p in report.resolutions
                    ],
                },
                indent=2,
            )
        )
        return 0 if report.ok else 1
    for warning in report.warnings:
        _echo(f"gitmem: warning: {warning}", err=True)
    _echo(
        f"near-duplicate clusters: {len(report.clusters)} "
        f"(TF-IDF cosine >= {hygiene_mod.DUPLICATE_THRESHOLD})"
    )
    for number, cluster in enumerate(report.clusters, start=1):
        _echo(f"  cluster {number}:")
        for member in cluster.members:
            _echo(f"    {member.id}  {member.title}")
        for a, b, score in cluster.pairs:
            _echo(f"    {score:.2f}  {a} ↔ {b}")
    _echo(f"stale entries: {len(report.stale)}")
    for stale in report.stale:
        if stale.reason == "gone":
            why = f"cited file(s) gone from main: {', '.join(stale.files)}"
        else:
            when = f"its admission ({stale.since[:12]})" if stale.since else "the cut"
            why = f"{stale.commits} commits changed {', '.join(stale.files)} since {when}"
        _echo(f"  {stale.id}  {why}")
    _echo(f"contradictions for a person to judge: {len(report.contradictions)}")
    for clash in report.contradictions:
        _echo(f"  {clash.a.id}: {clash.clause_a!r}")
        _echo(f"  {clash.b.id}: {clash.clause_b!r}")
        _echo(
            f"    evidence: opposite on {', '.join(clash.shared)} (clause overlap "
            f"{clash.overlap:.2f}), related at {clash.score:.2f}, applies_when alike at "
            f"{clash.situation:.2f}" + (", a cited file in common" if clash.same_files else "")
        )
    _echo(f"entries mixing two lessons: {len(report.splits)}")
    for split in report.splits:
        _echo(
            f"  {split.id}  parts cohere at {split.coherence:.2f} "
            f"(< {split_mod.SPLIT_THRESHOLD}); it would split before {split.second[0][:60]!r}"
        )
    for entry, ids, note in report.split_proposals:
        if ids and not note:
            _echo(f"proposed {' and '.join(ids)} splitting {entry}")
        else:
            _echo(f"not split ({entry}): {note}")
    for resolved in report.resolutions:
        pair = " and ".join(m.id for m in resolved.cluster.members)
        if resolved.id:
            _echo(f"proposed {resolved.id} (branch {resolved.branch}) resolving {pair}")
        else:
            _echo(f"not proposed ({pair}): {resolved.note}")
    for proposed in report.proposed:
        members = ", ".join(m.id for m in proposed.cluster.members)
        if proposed.id:
            _echo(f"proposed {proposed.id} (branch {proposed.branch}) superseding {members}")
        else:
            _echo(f"not proposed ({members}): {proposed.note}")
    if report.clusters and not propose:
        _echo("run `gitmem hygiene --propose` to propose each cluster as one candidate")
    for failure in report.failures:
        _echo(f"gitmem hygiene: {failure}", err=True)
    return 0 if report.ok else 1


# ---------------------------------------------------------------------------------------------
# harvest


@click.command("harvest")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--dry-run", is_flag=True, help="Show what would be proposed; write nothing.")
@FORMAT
def harvest(paths: tuple[str, ...], dry_run: bool, fmt: str) -> int:
    """Propose `mistake` candidates for gaps that audits keep finding.

    Reads audit verdict files (or folders of them): a '## Verdict — VALID' or '## Verdict —
    GAPS' heading over a '| Severity | Axis | Gap | Evidence | Expected fix |' table; one file
    is one batch, and only Blocking and Major rows count. A gap recurring in 3 or more distinct
    batches is proposed (source audit:<latest file>, evidence_batches, correction from the
    Expected fix, detection_signal from the gap); one seen in 2 batches is reported as
    "watch". Topics already pending, admitted or refused are skipped. When an untreated gap
    (no admitted entry holds it, its topic not refused) recurs in 2 or more batches, says
    that a review of mistakes is due, and which gaps. A gap holding a secret is reported
    (where, and which rule), its text withheld, and never proposed. Exits 1 when a file could
    not be read, a candidate broke a rule or a gap held a secret.
    """
    import json

    from gitmem.curate import harvest as harvest_mod
    from gitmem.model.problem import shown_lines

    # An empty PATH (a variable never set) names nothing; as a Path it was the current
    # folder, and every Markdown file of the repository was harvested as a verdict
    if any(not path for path in paths):
        raise click.UsageError(
            "an empty PATH names no file: name the audit verdict files (or folders of them)"
        )
    ws = command_workspace()
    emit_warnings(ws.settings.warnings)  # the memory checked against may be the default's
    result = harvest_mod.harvest(ws, [Path(path) for path in paths], dry_run=dry_run)
    if fmt == "json":
        _echo(
            json.dumps(
                {
                    "ok": result.ok,
                    "batches": [
                        {"batch": v.batch, "verdict": v.verdict, "gaps": len(v.gaps)}
                        for v in result.verdicts
                    ],
                    "problems": [str(p) for p in result.problems],
                    "groups": [
                        {
                            "title": g.shown_title,
                            "batches": g.batches,
                            "outcome": g.outcome,
                            "detail": g.detail,
                            "id": g.id,
                            "branch": g.branch,
                        }
                        for g in result.groups
                    ],
                    "review_due": {
                        "due": bool(result.review_due),
                        "gaps": [
                            {"title": g.shown_title, "batches": g.batches, "outcome": g.outcome}
                            for g in result.review_due
                        ],
                    },
                },
                indent=2,
            )
        )
        return 0 if result.ok else 1
    see_all = "`gitmem harvest --format json` with the same paths lists them all"
    for line in shown_lines(result.problems, see_all):
        _echo(line, err=True)
    counted = sum(len(v.gaps) for v in result.verdicts)
    _echo(
        f"read {len(result.verdicts)} verdict file(s): {counted} Blocking or Major gap(s) "
        f"in {len(result.groups)} group(s)"
    )
    once = 0
    for group in result.groups:
        if group.outcome == "once":
            once += 1
            continue
        batches = f"{len(group.batches)} batches: {', '.join(group.batches)}"
        if group.outcome == "proposed":
            _echo(f"proposed  {group.id}  {group.title!r} ({batches})")
        elif group.outcome == "watch":
            _echo(f"watch     {group.title!r} ({batches}): one more batch proposes it")
        else:
            _echo(f"{group.outcome:<9} {group.shown_title!r} ({batches})")
        for line in group.detail.splitlines():
            _echo(f"    {line}")
    if once:
        _echo(f"{once} gap(s) seen in one batch only")
    due = result.review_due
    if due:
        _echo(
            f"a review of mistakes is due: {len(due)} untreated gap(s) recur in "
            f"{harvest_mod.REVIEW_BATCHES} or more batches (no admitted entry holds them yet):"
        )
        for group in due:
            _echo(f"  {group.shown_title!r} ({len(group.batches)} batches, {group.outcome})")
        _echo("  review them together: admit or refuse their candidates, or propose the lesson")
    return 0 if result.ok else 1
