"""TF-IDF vectors and their cosine: the measure hygiene, split proposals and harvest share."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence


def tfidf(documents: Sequence[Sequence[str]]) -> list[dict[str, float]]:
    """L2-normalised TF-IDF vectors (tf = 1 + ln count, idf = ln((1+N)/(1+df)) + 1)."""
    counts = [Counter(doc) for doc in documents]
    df: Counter[str] = Counter()
    for count in counts:
        df.update(count.keys())
    n = len(documents)
    vectors = []
    for count in counts:
        vector = {
            t: (1 + math.log(c)) * (math.log((1 + n) / (1 + df[t])) + 1) for t, c in count.items()
        }
        norm = math.sqrt(sum(v * v for v in vector.values())) or 1.0
        vectors.append({t: v / norm for t, v in vector.items()})
    return vectors


def cosine(a: dict[str, float], b: dict[str, float]) -> float:
    if len(a) > len(b):
        a, b = b, a
    return sum(v * b.get(t, 0.0) for t, v in a.items())
