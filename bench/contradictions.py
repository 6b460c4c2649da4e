"""The contradiction call of `gitmem hygiene` / `gitmem lint`: CLAUSE_OVERLAP chosen on a tuning
set, precision and recall reported on a held-out set it was not chosen on.

    python bench/contradictions.py

Tuning set: tests/data/hygiene/contradictions.json, pairs of entries labelled contradicts
true/false (written for issue 17). All its entries form one memory, and only the labelled
pairs are scored: a pair is predicted when hygiene flags it. The overlap threshold with the
best F1 there wins (ties: the higher threshold, the fewer false alarms).

Held-out set: tests/data/hygiene/entries.json (35 entries written earlier by another engineer
for the near-duplicate measure, with their own `contradicts` labels: an entry names the entry
or the cluster it contradicts). Every pair of its entries is scored: the truth is the pairs
its labels name, a prediction every pair hygiene flags.

The figures are printed for the chosen threshold on both sets, and for the shipped
CLAUSE_OVERLAP, so a change of the constant that this script would not choose shows.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

from gitmem.curate import hygiene
from gitmem.model.entry import Entry

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "hygiene"
GRID = [round(0.20 + 0.05 * n, 2) for n in range(13)]  # 0.20 … 0.80


def entry(key: str, row: dict[str, Any]) -> Entry:
    meta = {"id": key, "status": "admitted", "type": row.get("type", "method")}
    meta.update({k: row[k] for k in ("title", "applies_when") if k in row})
    return Entry(meta, "", row["content"], "")


def tuning_set() -> tuple[list[tuple[str, Entry]], list[tuple[frozenset[str], bool]]]:
    pairs = json.loads((DATA / "contradictions.json").read_text())["pairs"]
    entries: list[tuple[str, Entry]] = []
    labelled: list[tuple[frozenset[str], bool]] = []
    for number, pair in enumerate(pairs):
        a, b = f"t{number}-a", f"t{number}-b"
        entries += [(a, entry(a, pair["a"])), (b, entry(b, pair["b"]))]
        labelled.append((frozenset((a, b)), bool(pair["contradicts"])))
    return entries, labelled


def held_out_set() -> tuple[list[tuple[str, Entry]], set[frozenset[str]]]:
    rows = json.loads((DATA / "entries.json").read_text())["entries"]
    entries = [(row["key"], entry(row["key"], row)) for row in rows]
    truth = set()
    for x, y in itertools.combinations(rows, 2):
        for one, other in ((x, y), (y, x)):
            named = one.get("contradicts")
            if named and named in (other["key"], other.get("cluster")):
                truth.add(frozenset((x["key"], y["key"])))
    return entries, truth


def flagged(entries: list[tuple[str, Entry]], overlap: float) -> set[frozenset[str]]:
    return {frozenset((c.a.id, c.b.id)) for c in hygiene.find_contradictions(entries, overlap)}


def scores(predicted: set[frozenset[str]], truth: set[frozenset[str]]) -> tuple[float, float]:
    hits = len(predicted & truth)
    precision = hits / len(predicted) if predicted else 1.0
    recall = hits / len(truth) if truth else 1.0
    return precision, recall


def f1(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def tuned(overlap: float) -> tuple[float, float]:
    entries, labelled = tuning_set()
    found = flagged(entries, overlap)
    truth = {pair for pair, yes in labelled if yes}
    predicted = {pair for pair, _ in labelled if pair in found}
    return scores(predicted, truth)


def held_out(overlap: float) -> tuple[float, float, int, int]:
    entries, truth = held_out_set()
    found = flagged(entries, overlap)
    precision, recall = scores(found, truth)
    return precision, recall, len(found), len(truth)


def choose() -> float:
    """The threshold with the best F1 on the tuning set (ties: the higher)."""
    return max(GRID, key=lambda t: (round(f1(*tuned(t)), 6), t))


def main() -> None:
    chosen = choose()
    print("tuning set: tests/data/hygiene/contradictions.json (labelled pairs)")
    for threshold in GRID:
        precision, recall = tuned(threshold)
        mark = "  <- chosen" if threshold == chosen else ""
        print(f"  overlap >= {threshold:.2f}: precision {precision:.2f} recall {recall:.2f}{mark}")
    for label, threshold in (
        ("chosen", chosen),
        ("shipped CLAUSE_OVERLAP", hygiene.CLAUSE_OVERLAP),
    ):
        precision, recall, found, truth = held_out(threshold)
        print(
            f"held-out set (tests/data/hygiene/entries.json, all pairs), {label} {threshold:.2f}: "
            f"precision {precision:.2f} recall {recall:.2f} ({found} flagged, {truth} labelled)"
        )


if __name__ == "__main__":
    main()
