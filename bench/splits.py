"""The split call of `gitmem hygiene`: SPLIT_THRESHOLD chosen on the tuning part of a labelled
set, precision and recall reported on the held-out part it was not chosen on.

    python bench/splits.py

The set is built from tests/data/hygiene/splits.json (gitmem's own admitted memory, written by
other sessions, frozen): the entries sorted by id alternate between the tuning part (even
positions) and the held-out part (odd). In each part, every entry alone is a negative (one
lesson) and every entry's Context and Content followed by the next entry's of the same part,
under the first one's title, is a positive (two lessons in one entry). idf is computed over
the part's own entries, as hygiene computes it over the memory it judges. The threshold with
the best F1 on the tuning part wins (ties: the lower threshold); both parts'
figures are printed, for it and for the shipped SPLIT_THRESHOLD.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gitmem.curate import split
from gitmem.model.entry import Entry

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "hygiene" / "splits.json"
GRID = [round(0.10 + 0.02 * n, 2) for n in range(21)]  # 0.10 … 0.50


def entry(row: dict[str, Any]) -> Entry:
    meta = {"id": row["id"], "type": "method", "status": "admitted", "title": row["title"]}
    return Entry(meta, row["context"], row["content"], "")


def parts() -> tuple[list[Entry], list[Entry]]:
    rows = sorted(json.loads(DATA.read_text())["entries"], key=lambda r: r["id"])
    entries = [entry(r) for r in rows]
    return entries[0::2], entries[1::2]


def labelled(entries: list[Entry]) -> list[tuple[Entry, bool]]:
    out = [(e, False) for e in entries]
    for number, first in enumerate(entries):
        other = entries[(number + 1) % len(entries)]
        mixed = Entry(
            dict(first.meta),
            f"{first.context}\n{first.content}",
            f"{other.context}\n{other.content}",
            "",
        )
        out.append((mixed, True))
    return out


def scores(entries: list[Entry], threshold: float) -> tuple[float, float]:
    idf = split.idf_of(entries)
    hits = predicted = truth = 0
    for candidate, mixed in labelled(entries):
        found = split.coherence(candidate.title, split.units(candidate), idf)
        said = found is not None and found[0] < threshold
        predicted += said
        truth += mixed
        hits += said and mixed
    return (hits / predicted if predicted else 1.0), (hits / truth if truth else 1.0)


def f1(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def choose() -> float:
    tuning, _ = parts()
    return max(GRID, key=lambda t: (round(f1(*scores(tuning, t)), 6), -t))


def main() -> None:
    tuning, held_out = parts()
    chosen = choose()
    print(f"tuning part: {len(tuning)} entries, {len(tuning)} mixed")
    for threshold in GRID:
        precision, recall = scores(tuning, threshold)
        mark = "  <- chosen" if threshold == chosen else ""
        print(f"  coherence < {threshold:.2f}: precision {precision:.2f} recall {recall:.2f}{mark}")
    for label, threshold in (("chosen", chosen), ("shipped", split.SPLIT_THRESHOLD)):
        precision, recall = scores(held_out, threshold)
        print(
            f"held-out part ({len(held_out)} entries, {len(held_out)} mixed), {label} "
            f"{threshold:.2f}: precision {precision:.2f} recall {recall:.2f}"
        )


if __name__ == "__main__":
    main()
