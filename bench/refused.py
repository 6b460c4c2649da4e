"""Near-matches of refused topics: how often a reworded refused topic is warned about, and how
often an unrelated one is.

    python bench/refused.py

A refused topic is the slug of a title; a later proposal whose topic is similar enough
(gitmem.model.refused.similarity >= NEAR_MATCH) is warned about. The labelled pairs come from
data gitmem's tests already ship, written for other purposes:

- same topic, paraphrased: every pair of titles in one cluster of
  tests/data/hygiene/entries.json (a lesson planted several times in other words), and the
  rewording issue 14 reported ("Store the orders in Mongo DB" refused, then "Keep orders in
  MongoDB");
- same topic, reworded: each of the 79 real decision-record titles of
  tests/data/recall/adr-entries.json beside one rewording of it, made here by one seeded
  random edit of the kinds a person makes when proposing a refused lesson again: the words in
  another order, another form of one word (a plural, an -ing), a function word added or
  dropped, or, in a title of three content words or more, one of them dropped or replaced by
  a word of another title;
- other topics: every pair of hygiene titles from different clusters (near-misses included:
  titles that share a cluster's words but teach another lesson), and every pair of the
  decision-record titles.

The pairs are split in two: the clusters alternately (sorted by name), the rewordings and the
other pairs by their position; the issue's example goes with the first half. The threshold is
chosen on the first half (the lowest at which at most 1% of other-topic pairs are warned
about, so the highest recall at that cost) and the figures are reported on the second half,
which the choice never saw.
"""

from __future__ import annotations

import itertools
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gitmem.index.indexmd import topic_of_title  # noqa: E402
from gitmem.model.refused import NEAR_MATCH, similarity  # noqa: E402

Pair = tuple[str, str]
MAX_FALSE_ALARMS = 0.01


FUNCTION = ("the", "a", "of", "for", "in")


def reworded(title: str, vocabulary: list[str], rng: random.Random) -> str:
    """One edit of a title, of a kind drawn at random (see the module's docstring)."""
    words = title.split()
    content = [i for i, w in enumerate(words) if w.lower() not in FUNCTION and len(w) > 2]
    kind = rng.choice(["order", "form", "function", "drop", "replace"])
    if kind in ("drop", "replace") and len(content) < 3:
        kind = "form"  # in a title of one or two words, that would be another topic
    if kind == "order" and len(words) < 2:
        kind = "form"
    if kind == "order":
        while len(words) > 1 and " ".join(words) == title:
            rng.shuffle(words)
    elif kind == "form" and content:
        i = rng.choice(content)
        w = words[i]
        words[i] = w[:-1] if w.endswith("s") else (w + "ing" if w.endswith("t") else w + "s")
    elif kind == "function":
        if any(w.lower() in FUNCTION for w in words):
            words = [w for w in words if w.lower() not in FUNCTION]
        else:
            words.insert(rng.randrange(len(words) + 1), rng.choice(FUNCTION))
    elif kind == "drop":
        del words[rng.choice(content)]
    elif kind == "replace":
        words[rng.choice(content)] = rng.choice(vocabulary)
    return " ".join(words)


def labelled() -> dict[str, list[Pair]]:
    """The labelled pairs by part: same-topic pairs ("paraphrased", "reworded") and
    other-topic pairs ("other"), each for "tune" and for "report"."""
    hygiene = json.loads((ROOT / "tests/data/hygiene/entries.json").read_text())["entries"]
    adr = json.loads((ROOT / "tests/data/recall/adr-entries.json").read_text())
    parts: dict[str, list[Pair]] = {
        f"{kind} {half}": []
        for kind in ("paraphrased", "reworded", "other")
        for half in ("tune", "report")
    }
    parts["paraphrased tune"].append(("Store the orders in Mongo DB", "Keep orders in MongoDB"))
    clusters: dict[str, list[str]] = {}
    for entry in hygiene:
        if entry.get("cluster"):
            clusters.setdefault(entry["cluster"], []).append(entry["title"])
    for number, name in enumerate(sorted(clusters)):
        half = "tune" if number % 2 == 0 else "report"
        parts[f"paraphrased {half}"].extend(itertools.combinations(clusters[name], 2))
    titles = [e["title"] for e in adr]
    vocabulary = sorted({w for t in titles for w in t.split() if len(w) > 3})
    rng = random.Random(14)
    for number, title in enumerate(titles):
        half = "tune" if number % 2 == 0 else "report"
        parts[f"reworded {half}"].append((title, reworded(title, vocabulary, rng)))
    others = [
        (a["title"], b["title"])
        for a, b in itertools.combinations(hygiene, 2)
        if not (a.get("cluster") and a.get("cluster") == b.get("cluster"))
    ]
    others += list(itertools.combinations(titles, 2))
    parts["other tune"], parts["other report"] = others[0::2], others[1::2]
    return parts


def score(pair: Pair) -> float:
    return similarity(topic_of_title(pair[0]), topic_of_title(pair[1]))


def warned(pairs: list[Pair], threshold: float) -> int:
    return sum(score(pair) >= threshold for pair in pairs)


def main() -> None:
    parts = labelled()
    print(", ".join(f"{name}: {len(pairs)} pairs" for name, pairs in parts.items()))
    same_tune = parts["paraphrased tune"] + parts["reworded tune"]
    print("threshold  tuning half: same-topic pairs warned / other-topic pairs warned")
    chosen = None
    for step in range(30, 95, 5):
        threshold = step / 100
        hit = warned(same_tune, threshold) / len(same_tune)
        alarm = warned(parts["other tune"], threshold) / len(parts["other tune"])
        print(f"  {threshold:.2f}     {hit:.2f} / {alarm:.4f}")
        if alarm <= MAX_FALSE_ALARMS and chosen is None:
            chosen = threshold
    print(f"chosen on the tuning half: {chosen}; NEAR_MATCH in the code: {NEAR_MATCH}")
    print(f"reported on the other half, at {NEAR_MATCH}:")
    for name in ("reworded report", "paraphrased report", "other report"):
        pairs = parts[name]
        count = warned(pairs, NEAR_MATCH)
        print(f"  {name.split()[0]:>11}: warned {count} of {len(pairs)} ({count / len(pairs):.3f})")
    print("same-topic pairs missed on the reporting half:")
    for pair in parts["reworded report"] + parts["paraphrased report"]:
        if score(pair) < NEAR_MATCH:
            print(f"  {score(pair):.2f}  {pair[0]!r} / {pair[1]!r}")


if __name__ == "__main__":
    main()
