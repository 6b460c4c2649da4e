"""The site's search index, built at generation time by recall's own engine, so that the
browser ranks the way `gitmem recall` (keywords) ranks.

What the browser gets (`search.js`, one `GITMEM_SEARCH = {…}` assignment, loaded by a script
tag because pages opened from `file://` may not fetch):

- `docs`: each admitted entry's number, id, type and title;
- `terms`: for each indexed term, its postings `[entry number, value, …]` where value is
  c(t, d) quantised to 1..255, the per-term evidence recall's engine stores (its module
  docstring, "Score");
- `words`: every word of the memory's text, as a reader may type it, mapped to the terms the
  engine makes of it as a query (stop words dropped, stems, identifier parts);
- `common`: the terms in so many entries that the engine drops them from a query;
- `heads`: for each entry, the terms of its title and applies_when (the gate's head share);
- `n`, `reach`, `gate`, `heads_of`, `relative_floor`: the entry count, what a query's
  evidence is measured against at most, the keyword gate's weights (best score, head share,
  names no entry holds, bias, the best head share among the first `heads_of` hits) and the
  share of the best score a hit needs (the engine's module docstring, "Gating").

The values come from the engine, never from a second copy of its formula: an `Index` is built
over the same `Doc`s the recall cache builds (`doc_of`), and each term's values are read back
by asking the engine a one-term query (`Index.search`, every entry, no gate): for a single
term the engine's score *is* that term's value, rounded to 4 decimals, which gives back the
byte exactly. The browser then sums weight(t) * value / 255 over the query's terms (the weight
is idf(t) over the idf of a term in one entry), divides by what the query could reach, and
gates the best score, as `Index.search` does.

How far the browser can differ from `gitmem recall` (tests/site/test_browser.py compares the
two on the labelled queries of tests/recall_queries.py):

- a query word the memory's text never contains is unknown to the browser, which cannot stem
  it; it tries the word less a common English ending (`-s`, `-es`, `-ed`, `-ing`, `-ly`) and
  otherwise counts it, as the engine counts any word no entry holds, with the idf of a word
  seen once. A word whose stem the memory holds under other forms only can rank lower in the
  browser than in recall;
- the whole form of a compound identifier (`memory_push` as one term beside `memory` and
  `push`) is not indexed for the browser; its parts are. An entry holding the very identifier
  asked for gains less over one holding its parts apart;
- the gate's names (words capitalised inside a sentence, acronyms, words with digits) are
  found in the words as the browser cuts them, and one unknown to the browser counts as one
  absent name where the engine may split it into parts;
- `gitmem[semantic]` (the embedding model) is not in the browser: recall with the extra also
  finds entries that share no word with the query; the browser is keywords only;
- tokens are cut by a JavaScript pattern equal to the engine's for letters and digits; marks
  (accents typed as combining characters) may split differently.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from gitmem.model.entry import Entry
from gitmem.recall.cache import doc_of
from gitmem.recall.engine import (
    COMMON_SHARE,
    HEADS_OF,
    KEYWORD_GATE,
    REACH,
    RELATIVE_FLOOR,
    STOP_WORDS,
    Doc,
    Index,
    analyze,
    query_terms,
)

#: The words of a text, cut as the engine cuts its tokens (letters and digits, joined by
#: `_ . -` inside identifiers); each is then asked of the engine as a query.
_WORD = re.compile(r"[^\W_]+(?:[_.\-]+[^\W_]+)*")
_CAMEL_OR_SEPARATED = re.compile(r"[_.\-]|[a-z][A-Z]|[A-Z]{2}[a-z]")


def docs_of(entries: Sequence[tuple[str, Entry]]) -> list[Doc]:
    """The admitted entries ((path, entry) pairs) as recall's cache reads them."""
    return [doc_of(entry, path) for path, entry in entries]


def build(docs: Sequence[Doc], hrefs: Sequence[str]) -> dict[str, object]:
    """The browser's index over recall documents, with each one's page."""
    index = Index.build(docs)
    words: dict[str, list[tuple[str, bool]]] = {}  # a word as typed -> its query terms
    plain: dict[str, frozenset[str]] = {}  # a word as found -> the plain terms it holds
    holders: dict[str, list[int]] = {}  # term -> the entries whose text holds it, ascending
    for number, doc in enumerate(docs):
        text = "\n".join((doc.title, doc.applies_when, " ".join(doc.tags), doc.body))
        found: set[str] = set()
        for word in set(_WORD.findall(text)):
            terms = plain.get(word)
            if terms is None:
                key = word.lower() if not _CAMEL_OR_SEPARATED.search(word) else word
                if key not in words:
                    words[key] = query_terms(key)
                terms = plain[word] = frozenset(t for t, whole in words[key] if not whole)
            found.update(terms)
        for term in found:
            holders.setdefault(term, []).append(number)
    for word in STOP_WORDS:  # so the browser drops them as the engine does, seen or not
        words.setdefault(word, query_terms(word))
    asked: dict[str, str] = {}  # term -> a word whose query is exactly that term
    for word, asked_terms in words.items():
        if len(asked_terms) == 1 and not asked_terms[0][1]:
            asked.setdefault(asked_terms[0][0], word)
    for term in holders:
        if term not in asked and query_terms(term) == [(term, False)]:
            asked[term] = term
    n = len(docs)
    postings: dict[str, list[int]] = {}
    common: list[str] = []
    for term in sorted(asked):
        numbers = holders.get(term, [])
        if len(numbers) >= 3 and len(numbers) > COMMON_SHARE * n:
            common.append(term)  # no evidence: the engine drops it from the query
            continue
        values = _values(index, asked[term], [docs[i].id for i in numbers])
        flat: list[int] = []
        for i, value in zip(numbers, values, strict=True):
            if value:
                flat.extend((i, value))
        if flat:
            postings[term] = flat
    known = postings.keys() | set(common)
    word_map = {
        word: [term for term, whole in terms if not whole and term in known]
        for word, terms in words.items()
    }
    return {
        "n": n,
        "reach": REACH,
        "gate": [
            KEYWORD_GATE.score_weight,
            KEYWORD_GATE.head_weight,
            KEYWORD_GATE.names_weight,
            KEYWORD_GATE.bias,
            KEYWORD_GATE.heads_weight,
        ],
        "heads_of": HEADS_OF,
        "heads": [
            sorted(set(analyze(f"{doc.title}\n{doc.applies_when}")) & postings.keys())
            for doc in docs
        ],
        "relative_floor": RELATIVE_FLOOR,
        "docs": [
            [doc.id, doc.type, doc.title, href] for doc, href in zip(docs, hrefs, strict=True)
        ],
        "terms": postings,
        "common": common,
        "words": {w: t for w, t in sorted(word_map.items()) if t != [w]},
    }


def _values(index: Index, word: str, ids: list[str]) -> list[int]:
    """c(t, d) as the engine stores it (1..255) for each entry id, 0 where it lacks the term:
    the engine's score of a one-term query, which for one term is that term's value."""
    if len(ids) <= 16:  # a few entries: look each one up
        scores = index.scores(word, ids)
    else:  # many: one pass over the term's postings
        scores = {h.id: h.score for h in index.search(word, k=len(index), min_score=0.0)}
    return [round(scores.get(i, 0.0) * 255) for i in ids]


def script(index: dict[str, object]) -> bytes:
    """search.js: the index as one assignment, byte-stable (sorted keys, ASCII only)."""
    body = json.dumps(index, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return f"window.GITMEM_SEARCH={body};\n".encode("ascii")
