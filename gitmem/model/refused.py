"""refused.md: the topics refused once, never proposed again; append-only.

The file is a Markdown table so a reviewer reads it as is:

    | topic | reason | id | date | by |
    | --- | --- | --- | --- | --- |
    | use-sqlite-index | keep derived data out of git | shop-decision-… | 2026-11-30 | human:bob |

A `|` inside a reason is written `\\|`.  Lines that are not table rows are ignored when read.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from gitmem.model.markdown import table_cells, table_row

HEADER = (
    "# Refused topics\n\n"
    "Topics refused once are never proposed again. gitmem appends here; do not edit rows.\n\n"
    "| topic | reason | id | date | by |\n"
    "| --- | --- | --- | --- | --- |\n"
)


@dataclass(frozen=True)
class Refusal:
    topic: str
    reason: str
    id: str
    date: str
    by: str
    line: int

    def describe(self) -> str:
        return f"refused on {self.date} by {self.by}: {self.reason}"


_COLUMNS = ["topic", "reason", "id", "date", "by"]


def parse_row(line: str, number: int = 0) -> Refusal | None:
    """One refusal row; None for anything else: the header row, the separator row, prose, a
    row without exactly five cells or without a topic."""
    if not line.startswith("|"):
        return None
    cells = table_cells(line, escapes="|\\")  # table_row writes both
    if len(cells) != 5 or not cells[0] or cells == _COLUMNS:
        return None
    if all(cell and set(cell) <= set("-: ") for cell in cells):
        return None  # | --- | --- | … |
    topic, reason, id_, date, by = cells
    return Refusal(topic, reason, id_, date, by, number)


def parse(text: str) -> dict[str, Refusal]:
    """The refusals in refused.md by topic (the first refusal of a topic wins). Lines that
    are not refusal rows are skipped, never an error: the file is read wherever it is."""
    out: dict[str, Refusal] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        row = parse_row(line, number)
        if row is not None:
            out.setdefault(row.topic, row)
    return out


def append(text: str | None, refusal: Refusal) -> str:
    """refused.md with one more row; the existing bytes are kept exactly (append-only)."""
    base = text if text else HEADER
    if not base.endswith("\n"):
        base += "\n"
    return base + table_row((refusal.topic, refusal.reason, refusal.id, refusal.date, refusal.by))


#: A proposal whose topic is at least this similar to a refused one is warned about (chosen on
#: one half of bench/refused.py's labelled pairs and reported on the other: see that script).
NEAR_MATCH = 0.45

#: Words a title needs for its grammar, not for its topic: "Store the orders in Mongo DB" and
#: "Store orders in Mongo DB" are one topic.
FUNCTION_WORDS = frozenset(
    """
    a an the of in on at to for from with by into onto over under about and or but nor as
    is are be been being was were it its this that these those our we you your their them
    there than then so
    """.split()  # noqa: SIM905 - a word list reads better as text
)


def near(topic: str, refusals: dict[str, Refusal]) -> Refusal | None:
    """The refused topic most like topic (but not equal to it), for a warning: the same
    words in any order, in other forms (stems), with function words dropped, compounds
    written apart or together, and a typo in a long word (similarity says how)."""
    best: tuple[float, Refusal] | None = None
    for other, refusal in refusals.items():
        if other == topic:
            continue
        score = similarity(topic, other)
        if score >= NEAR_MATCH and (best is None or score > best[0]):
            best = (score, refusal)
    return best[1] if best else None


def similarity(a: str, b: str) -> float:
    """How alike two topics (title slugs) are, 0..1: the Dice coefficient of their stemmed
    content words. Before stemming, words that one side writes apart and the other together
    are joined (mongo-db, mongodb); two long stems one typo apart count as one."""
    words_a, words_b = _content_words(a), _content_words(b)
    if not words_a or not words_b:
        return 0.0
    set_b = set(words_b)
    words_a = _joined(words_a, set_b)
    words_b = _joined(words_b, set(words_a))
    terms_a, terms_b = _stems(tuple(words_a)), set(_stems(tuple(words_b)))
    size = len(set(terms_a)) + len(terms_b)
    matched = 0
    for term in set(terms_a):
        if term in terms_b:
            terms_b.discard(term)
            matched += 1
        elif len(term) >= _TYPO_MIN:
            close = next((t for t in terms_b if _one_typo(term, t)), None)
            if close is not None:
                terms_b.discard(close)
                matched += 1
    return 2 * matched / size


_TYPO_MIN = 6


def _content_words(topic: str) -> list[str]:
    return [word for word in topic.split("-") if word and word not in FUNCTION_WORDS]


def _joined(words: list[str], other: set[str]) -> list[str]:
    """words with each run of two or three neighbours merged where the merge is a word of
    the other topic."""
    out: list[str] = []
    i = 0
    while i < len(words):
        for span in (3, 2):
            if i + span <= len(words) and "".join(words[i : i + span]) in other:
                out.append("".join(words[i : i + span]))
                i += span
                break
        else:
            out.append(words[i])
            i += 1
    return out


@functools.lru_cache(maxsize=8192)
def _stems(words: tuple[str, ...]) -> tuple[str, ...]:
    stemmer = _english()
    return tuple(stemmer.stemWord(word) for word in words)


@functools.cache
def _english() -> Any:
    """The Snowball English (Porter2) stemmer, loaded the first time a topic is compared."""
    import Stemmer

    return Stemmer.Stemmer("english")


def _one_typo(a: str, b: str) -> bool:
    """Whether two words differ by one edit (a letter added, dropped, changed or two
    neighbours swapped)."""
    if abs(len(a) - len(b)) > 1 or len(b) < _TYPO_MIN:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))
