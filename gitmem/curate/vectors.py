"""TF-IDF vectors and their cosine: the measure hygiene, split proposals and harvest share."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence


def tfidf(documents: Sequence[Sequence[str]]) -> list[dict[str, float]]:
    """L2-normalised TF-IDF vectors (tf = 1 + ln count, idf = ln((1+N)/(1+df)) + 1)."""
    counts = [Counter(doc) for doc in documents]
    df: Counter[str] = Counter()
    for count in counts:
        df.update(count.keys())
    n = len(documents)
    return [weigh(count, df, n) for count in counts]


def weigh(count: Mapping[str, int], df: Mapping[str, int], n: int) -> dict[str, float]:
    """One document's L2-normalised TF-IDF vector, from its term counts, how many of the n
    documents hold each of its terms (df), and n."""
    vector = {
        t: (1 + math.log(c)) * (math.log((1 + n) / (1 + df[t])) + 1) for t, c in count.items()
    }
    norm = math.sqrt(sum(v * v for v in vector.values())) or 1.0
    return {t: v / norm for t, v in vector.items()}


def cosine(a: dict[str, float], b: dict[str, float]) -> float:
    if len(a) > len(b):
        a, b = b, a
    return sum(v * b.get(t, 0.0) for t, v in a.items())
