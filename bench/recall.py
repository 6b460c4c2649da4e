"""Recall benchmark: index build, size, query latency, fresh-process recall against git grep.

    python bench/recall.py                      # sizes 1,000, 10,000 and 100,000
    python bench/recall.py --sizes 1000,10000   # quicker
    python bench/recall.py --quality            # hit@1, hit@5, no-match share on the labelled set
    python bench/recall.py --fit                # how the gates were fitted (tuning part, negatives)
    python bench/recall.py --probe              # the gates' signals tried and dropped
    python bench/recall.py --corpora            # the gates fitted on other corpora's sizes too
    python bench/recall.py --ceiling            # the best any linear gate could do (diagnostic)
    python bench/recall.py --shortlist          # semantic shortlist against exact ranking
    python bench/recall.py --cli                # the real `gitmem recall`, whole process
    python bench/recall.py --cli --against OTHER/bin/python   # and another install, alternately
    python bench/recall.py --phases             # the semantic extra's per-process cost, by part
    python bench/recall.py --gc --sizes 100000  # an index build with the collector running/paused

For each size it writes that many realistic entries as Markdown files (front matter and the
three sections, text recombined from the labelled corpus in tests/ plus a long tail of project
names and identifiers) into a temporary git repository, commits them, then prints:

- cold build: parsing the files into Docs, building the index, serialising it;
- the index size on disk, per 1,000 entries;
- in-process query p50/p95 over a fixed list of queries, index loaded (warm);
- a fresh process that loads the index (a manifest and memory-mapped segment files, as the
  cache keeps them) and answers one query, interpreter start included, beside
  `git grep -i -l` for the same query words in the same checkout;
- the update after one admission: load, add one entry, write the new segment and manifest;
- with the semantic extra installed: vector build time and size, fused query latency, and the
  time to embed one entry.

--cli writes a store of valid entries (bench/generate.py) and runs the real `gitmem recall` with
its cache: the cold build, warm recalls with and without the semantic extra (on queries the
keyword engine alone is not sure of, which reach the model, and on a mix) beside `git grep -i
-l`, peak memory, the cache's size per 1,000 entries, and the update after one admission.
--shortlist builds vectors for generated entries and prints the share of the exact nearest
entries (by cosine) that the semantic shortlist keeps, for several shortlist sizes.

Figures depend on the machine (and on what else runs on it: compare with and without the
extra in the same run); the README quotes a run and says which.
"""

from __future__ import annotations

import argparse
import math
import mmap
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from array import array
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from recall_corpus import corpus  # noqa: E402
from recall_queries import MATCHING, NO_MATCH, SITUATIONS  # noqa: E402

from gitmem.recall.engine import (  # noqa: E402
    KEYWORD_GATE,
    REACH,
    RELATIVE_FLOOR,
    Doc,
    Gate,
    Hit,
    Index,
    Signals,
    _contains,
    query_names,
)

TYPES = ("decision", "method", "code-structure", "mistake")
QUERIES = [q for q, _ in MATCHING[::3] + SITUATIONS[::3]] + NO_MATCH[::3]


class Generator:
    """Entries recombined from the labelled corpus's sentences, plus a long tail of names."""

    def __init__(self, seed: int = 1) -> None:
        self.rng = random.Random(seed)
        docs = corpus()
        self.sentences = sorted(
            {
                s.strip()
                for d in docs
                for s in d.body.replace("\n", " ").split(". ")
                if 30 < len(s.strip()) < 300 and not s.strip().startswith("##")
            }
        )
        self.titles = [d.title for d in docs]
        self.whens = [d.applies_when for d in docs]
        self.tags = sorted({t for d in docs for t in d.tags})
        self.words = sorted({w for d in docs for w in d.title.lower().split() if w.isalpha()})
        syllables = "ka lo mi ne ru sa ti vo ze bar dex fin gor hul jin kor lem mor nix pol"
        self.syllables = syllables.split()

    def name(self) -> str:
        rng = self.rng
        return "".join(rng.choice(self.syllables) for _ in range(rng.randint(2, 4)))

    def identifier(self) -> str:
        rng = self.rng
        parts = [rng.choice(self.words), self.name()]
        style = rng.randrange(4)
        if style == 0:
            return "_".join(parts)
        if style == 1:
            return "".join(p.capitalize() for p in parts)
        if style == 2:
            return f"{parts[1]}/{parts[0]}.py"
        return "-".join(parts) + f"-{rng.randint(1, 99)}"

    def sentence(self) -> str:
        rng = self.rng
        words = rng.choice(self.sentences).split()
        for _ in range(rng.randint(0, 2)):
            words.insert(rng.randrange(len(words) + 1), self.identifier())
        return " ".join(words).rstrip(".") + "."

    def doc(self, i: int) -> Doc:
        rng = self.rng
        kind = TYPES[i % 4]
        title = rng.choice(self.titles)
        if rng.random() < 0.7:
            title = f"{title} in {self.name()}"
        slug = "-".join(w for w in title.lower().split() if w.isalnum())[:40].strip("-")
        doc_id = f"bench-{kind}-2026{1 + i % 12:02}{1 + i % 28:02}-{slug}-{i}"

        def section(n: int, m: int) -> str:
            return " ".join(self.sentence() for _ in range(rng.randint(n, m)))

        body = (
            f"## Context\n{section(1, 3)}\n\n## Content\n{section(2, 5)}\n\n"
            f"## Evidence\n{section(1, 2)}\n"
        )[:2000]
        return Doc(
            id=doc_id,
            type=kind,
            title=title,
            applies_when=rng.choice(self.whens),
            tags=tuple(rng.sample(self.tags, 3)),
            body=body,
            path=f".gitmem/entries/{kind}/{doc_id}.md",
        )


def write_entry(root: Path, doc: Doc) -> None:
    path = root / doc.path
    path.parent.mkdir(parents=True, exist_ok=True)
    tags = ", ".join(doc.tags)
    path.write_text(
        f"---\nid: {doc.id}\ntype: {doc.type}\nstatus: admitted\ntitle: {doc.title}\n"
        f"applies_when: {doc.applies_when}\nsource: human:bench\ntags: [{tags}]\n---\n\n"
        f"{doc.body}",
        encoding="utf-8",
    )


def read_entry(path: Path, root: Path) -> Doc:
    """A minimal reader for the files written above (the real one is gitmem.model.entry's)."""
    text = path.read_text(encoding="utf-8")
    _, head, body = text.split("---\n", 2)
    fields = dict(line.split(": ", 1) for line in head.splitlines() if ": " in line)
    return Doc(
        id=fields["id"],
        type=fields["type"],
        title=fields["title"],
        applies_when=fields["applies_when"],
        tags=tuple(t.strip() for t in fields["tags"].strip("[]").split(",")),
        body=body,
        path=path.relative_to(root).as_posix(),
    )


def git(cwd: Path, *args: str) -> None:
    # No background gc: it would still be writing into .git when the folder is removed.
    subprocess.run(["git", "-c", "gc.auto=0", *args], cwd=cwd, check=True, capture_output=True)


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]


FRESH = """
import mmap, sys
from pathlib import Path
from gitmem.recall.engine import Index
cache = Path(sys.argv[1])
def segment(name):
    with (cache / name).open("rb") as f:
        return memoryview(mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ))
index = Index.from_parts((cache / "manifest").read_bytes(), segment, verify=sys.argv[3] == "1")
print(len(index.search(sys.argv[2])))
"""

# As installed packages are, the fresh process runs from cached bytecode.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def save_parts(cache: Path, index: Index) -> int:
    """Write the segments the cache lacks, then the manifest; return the bytes written."""
    manifest, segments = index.to_parts()
    written = 0
    for name, data in segments.items():
        path = cache / name
        if not path.exists():
            tmp = path.with_suffix(".tmp")
            tmp.write_bytes(data)
            tmp.replace(path)
            written += len(data)
    tmp = cache / "manifest.tmp"
    tmp.write_bytes(manifest)
    tmp.replace(cache / "manifest")
    return written + len(manifest)


def load_parts(cache: Path, verify: bool) -> Index:
    def segment(name: str) -> memoryview:
        with (cache / name).open("rb") as f:
            return memoryview(mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ))

    return Index.from_parts((cache / "manifest").read_bytes(), segment, verify=verify)


def fresh_process(cache: Path, query: str, verify: bool) -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", FRESH, str(cache), query, "1" if verify else "0"],
        check=True,
        capture_output=True,
        env=ENV,
    )
    return time.perf_counter() - start


def git_grep(root: Path, query: str) -> float:
    """git grep -i -l for the query's words (any of them), as a grep-based recall would."""
    words = [w.strip("?,.'\"") for w in query.split()]
    args = ["git", "grep", "-i", "-l"]
    for word in [w for w in words if len(w) > 3][:8] or ["zzzz"]:
        args += ["-e", word]
    start = time.perf_counter()
    subprocess.run(args, cwd=root, capture_output=True)
    return time.perf_counter() - start


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def bench_size(n: int, work: Path) -> None:
    print(f"\n== {n:,} entries")
    gen = Generator(seed=n)
    root = work / f"store-{n}"
    root.mkdir()
    for i in range(n):
        write_entry(root, gen.doc(i))
    git(root, "init", "-q")
    git(root, "add", ".")
    git(root, "-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-qm", "x")

    start = time.perf_counter()
    parsed = [read_entry(p, root) for p in sorted((root / ".gitmem").rglob("*.md"))]
    t_parse = time.perf_counter() - start
    start = time.perf_counter()
    cpu = time.process_time()
    index = Index.build(parsed)
    t_build = time.perf_counter() - start
    cpu_build = time.process_time() - cpu
    cache = work / f"cache-{n}"
    cache.mkdir()
    start = time.perf_counter()
    cpu = time.process_time()
    size = save_parts(cache, index)
    t_save = time.perf_counter() - start
    cpu_save = time.process_time() - cpu
    print(
        f"cold build: {t_build + t_save:.1f} s, {cpu_build + cpu_save:.1f} s of "
        f"CPU (index {t_build:.1f} s, serialise and write {t_save:.1f} s); reading the {n:,} "
        f"files took another {t_parse:.1f} s; load average {os.getloadavg()[0]:.1f}"
    )
    print(f"index size: {size / 1e6:.1f} MB, {size / n:.0f} kB per 1,000 entries")

    start = time.perf_counter()
    loaded = load_parts(cache, verify=True)
    t_load = time.perf_counter() - start
    start = time.perf_counter()
    load_parts(cache, verify=False)
    t_load_nv = time.perf_counter() - start
    times = []
    for _ in range(3):
        for q in QUERIES:
            start = time.perf_counter()
            loaded.search(q)
            times.append(time.perf_counter() - start)
    print(
        f"load (mmap): {ms(t_load)} verified, {ms(t_load_nv)} unverified; warm query "
        f"p50 {ms(percentile(times, 0.5))}, p95 {ms(percentile(times, 0.95))} "
        f"({len(QUERIES)} queries x 3)"
    )

    sample = QUERIES[::3]
    fresh = statistics.median(fresh_process(cache, q, True) for q in sample)
    fresh_nv = statistics.median(fresh_process(cache, q, False) for q in sample)
    grep = statistics.median(git_grep(root, q) for q in sample)
    python = statistics.median(time_process([sys.executable, "-c", "pass"]) for _ in range(5))
    print(
        f"fresh process recall p50: {ms(fresh)} verified, {ms(fresh_nv)} unverified "
        f"(python -c pass: {ms(python)}); git grep -i -l p50: {ms(grep)}; "
        f"ratio {fresh / grep:.2f}"
    )

    updates = []
    written = []
    for i in range(20):
        start = time.perf_counter()
        idx = load_parts(cache, verify=False)
        idx.add(gen.doc(n + i))
        written.append(save_parts(cache, idx))
        updates.append(time.perf_counter() - start)
    print(
        f"update after one admission (load, add, serialise, write), 20 in a row: "
        f"p50 {ms(statistics.median(updates))}, max {ms(max(updates))}; "
        f"bytes written p50 {statistics.median(written) / 1e3:.0f} kB"
    )
    semantic_figures(parsed, index, gen, n, work)


def time_process(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(args, check=True, capture_output=True, env=ENV)
    return time.perf_counter() - start


def mapped(path: Path) -> memoryview:
    with path.open("rb") as f:
        return memoryview(mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ))


def semantic_figures(docs: list[Doc], index: Index, gen: Generator, n: int, work: Path) -> None:
    from gitmem.recall import semantic

    if not semantic.available():
        print("semantic extra not installed: no semantic figures")
        return
    start = time.perf_counter()
    cpu = os.times()
    vectors = semantic.build(docs)  # two processes, as a cache's first build
    t_build = time.perf_counter() - start
    used = os.times()
    cpu_build = sum(used[:4]) - sum(cpu[:4])
    cache = work / f"vectors-{n}"
    cache.mkdir()

    def save(v: semantic.Vectors) -> int:
        """Write the chunks the cache lacks, then the manifest; return the bytes written."""
        manifest, chunks = v.to_parts()
        written = len(manifest)
        for name, data in chunks.items():
            if not (cache / name).exists():
                (cache / name).write_bytes(data)
                written += len(data)
        (cache / "manifest").write_bytes(manifest)
        return written

    def load() -> semantic.Vectors:
        return semantic.Vectors.from_parts(
            (cache / "manifest").read_bytes(), lambda name: mapped(cache / name)
        )

    size = save(vectors)
    start = time.perf_counter()
    loaded = load()
    semantic.search(index, loaded, "warm up")
    t_load = time.perf_counter() - start
    times = []
    for q in QUERIES:
        start = time.perf_counter()
        semantic.search(index, loaded, q)
        times.append(time.perf_counter() - start)
    updates = []
    for i in range(10):
        start = time.perf_counter()
        v = load()
        v.add(gen.doc(n + 100 + i))
        save(v)
        updates.append(time.perf_counter() - start)
    print(
        f"semantic: vectors built in {t_build:.1f} s ({cpu_build:.0f} s of CPU, two processes; "
        f"load average {os.getloadavg()[0]:.1f}), {size / 1e6:.1f} MB; loaded and first "
        f"query {ms(t_load)}; fused query p50 {ms(percentile(times, 0.5))}, "
        f"p95 {ms(percentile(times, 0.95))}; update after one admission (load, embed, save) "
        f"p50 {ms(statistics.median(updates))}"
    )


Searcher = Callable[..., Any]


def figures(search: Searcher, asked: list[tuple[str, str, frozenset[str]]], **kw: Any) -> str:
    """hit@1, hit@5 and MRR per kind of answerable query and overall, and the share of
    no-match queries answered with nothing. asked: (query, kind, expected ids)."""
    cells = []
    found = [(kind, expect, [h.id for h in search(q, **kw)]) for q, kind, expect in asked]
    for kind in ("paraphrase", "situation", None):
        rows = [(e, ids) for k, e, ids in found if e and (kind is None or k == kind)]
        if not rows:
            continue
        hit1 = sum(bool(ids) and ids[0] in e for e, ids in rows) / len(rows)
        hit5 = sum(any(i in e for i in ids[:5]) for e, ids in rows) / len(rows)
        mrr = sum(next((1 / r for r, i in enumerate(ids[:5], 1) if i in e), 0.0) for e, ids in rows)
        label = kind or "overall"
        cells.append(f"{label} hit@1 {hit1:.2f} hit@5 {hit5:.2f} MRR {mrr / len(rows):.2f}")
    empty = [not ids for _, e, ids in found if not e]
    if empty:
        cells.append(f"no-match empty {sum(empty) / len(empty):.2f}")
    return "; ".join(cells)


def engines(
    docs: list[Doc], embedded: dict[str, bytes] | None = None
) -> list[tuple[str, Searcher, Searcher]]:
    """(name, search, ranking search) for keyword and, when installed, the model: search
    takes a `gate`; the ranking search returns (top five ranked with no gate, the signals the
    gate reads of the best of them, None when nothing ranks). embedded: the docs' vectors by
    id, made once (`embed`) for callers that build engines over many subsets of one corpus."""
    from gitmem.recall import semantic

    index = Index.build(docs)

    def keyword(q: str, gate: Gate = KEYWORD_GATE, **kw: Any) -> list[Hit]:
        return index_answer(index, q, gate, **kw)

    def keyword_ranked(q: str) -> tuple[list[Hit], Signals | None]:
        ranked = index.search(q, min_score=0.0)
        return ranked, index.signals(q, ranked) if ranked else None

    found: list[tuple[str, Searcher, Searcher]] = [("keyword only", keyword, keyword_ranked)]
    if semantic.available():
        if embedded is None:
            vectors = semantic.Vectors.build(docs)
        else:
            vectors = semantic.Vectors()
            for doc in docs:
                vectors.set(doc.id, embedded[doc.id])

        bodies = {d.id: d.body for d in docs}

        def body_of(hit: Hit) -> str | None:
            return bodies.get(hit.id)

        def fused(q: str, gate: Gate = semantic.FUSED_GATE, **kw: Any) -> list[Hit]:
            return semantic.answer(
                index, vectors, q, explain=False, gate=gate, body_of=body_of, **kw
            ).hits

        def fused_ranked(q: str) -> tuple[list[Hit], Signals | None]:
            ranked = semantic.search(index, vectors, q, min_score=0.0)
            return ranked, semantic.signals(index, q, ranked, body_of) if ranked else None

        found.append(("with the model extra", fused, fused_ranked))
    else:
        print("(the semantic extra is not installed: keyword figures only)")
    return found


def embed(docs: list[Doc]) -> dict[str, bytes] | None:
    """Each doc's vector by id, as the cache stores it (None without the extra)."""
    from gitmem.recall import semantic

    if not semantic.available():
        return None
    return dict(zip((d.id for d in docs), semantic._embed_many(docs), strict=True))


def index_answer(index: Index, query: str, gate: Gate, **kw: Any) -> list[Hit]:
    """Index.answer's hits under another gate than its own (the fit compares gates)."""
    if gate == KEYWORD_GATE or "min_score" in kw:
        return index.answer(query, explain=False, **kw).hits
    ranked = index.search(query, min_score=0.0, **kw)
    if not ranked or not gate.passes(index.signals(query, ranked)):
        return []
    return [h for h in ranked if h.score >= RELATIVE_FLOOR * ranked[0].score]


def quality() -> None:
    """The development set's report part, its tuning part, then the project's own set and
    the development set's queries against the ADR corpus (nothing should come back)."""
    from recall_dev import adr_corpus
    from recall_dev import corpus as dev_corpus
    from recall_dev import queries as dev_queries

    from gitmem.recall import semantic

    print(
        "recall quality. Development set (tests/data/recall-dev, records nobody here wrote): "
        "a query is in the tuning part when the first byte of the SHA-256 of its text is "
        "even, else in the report part; every parameter was chosen on the tuning part "
        f"(bench/recall.py --fit). Gates: keyword {KEYWORD_GATE}, fused {semantic.FUSED_GATE} "
        f"(similarity weight {semantic.SEMANTIC_WEIGHT}); hits within {RELATIVE_FLOOR} of the "
        "best."
    )
    dev = engines(list(dev_corpus()))
    for part in ("report", "tune"):
        asked = [(q.text, q.kind, q.expect) for q in dev_queries(part)]
        kinds = {k: sum(q[1] == k for q in asked) for k in ("paraphrase", "situation", "nomatch")}
        label = "REPORT part (held out from tuning)" if part == "report" else "TUNING part"
        print(f"\n== development set, {label}: {len(asked)} queries {kinds}")
        for name, search, _ in dev:
            print(f"{name}: {figures(search, asked)}")
        for name, search, _ in dev:
            ranking = figures(search, asked, min_score=0.0).split("; no-match")[0]
            print(f"{name}, ranking alone (--min-score 0): {ranking}")
    own = corpus()
    asked = (
        [(q, "paraphrase", r) for q, r in MATCHING]
        + [(q, "situation", r) for q, r in SITUATIONS]
        + [(q, "nomatch", frozenset[str]()) for q in NO_MATCH]
    )
    print(
        f"\n== the project's own labelled set (tests/recall_queries.py, written by this team; "
        f"not used for tuning): {len(own)} entries, {len(MATCHING)} paraphrased, "
        f"{len(SITUATIONS)} situations, {len(NO_MATCH)} no-match"
    )
    for name, search, _ in engines(list(own)):
        print(f"{name}: {figures(search, asked)}")
    adr = adr_corpus()
    asked = [(q.text, "nomatch", frozenset[str]()) for q in dev_queries()]
    print(
        f"\n== an unseen corpus: the {len(adr)} ADRs of the shared data set, asked all "
        f"{len(asked)} development queries (written for other records: most should find "
        "nothing; a few may genuinely apply, nobody labelled them)"
    )
    for name, search, _ in engines(adr):
        print(f"{name}: {figures(search, asked)}")


def hard() -> None:
    """Hard no-answer questions, made from the TUNING part alone: each answered question asked
    again of the development corpus without the entries that answer it (leave-one-out), so
    that what ranks first is the nearest neighbour of the missing precedent. Prints the share
    of them each gate leaves empty, beside the tuning part's written no-match questions and
    fit()'s generated negatives; then, by 5-fold cross-validation grouped by question (a
    question's answered and leave-one-out rows in the same fold), fit()'s rule refitted with
    and without them, with the gate's signals alone and with the best hit's margin over the
    second; and how well each signal, and the margins over the second and the fifth, tells an
    answered question whose answer ranks in the top five from its leave-one-out twin (AUC).
    The report part is not read."""
    import numpy as np
    from recall_dev import adr_corpus
    from recall_dev import corpus as dev_corpus
    from recall_dev import queries as dev_queries
    from recall_negatives import negatives

    from gitmem.recall import semantic

    docs = list(dev_corpus())
    embedded = embed(docs)

    def rankers(kept: list[Doc]) -> list[Searcher]:
        return [ranked for _, _, ranked in engines(kept, embedded)]

    whole = rankers(docs)
    table: list[list[tuple[list[float], str, bool, int]]] = [[] for _ in whole]

    def ask(ranked_search: list[Searcher], text: str, kind: str, expect: frozenset[str], g: int):
        for rows_of, search in zip(table, ranked_search, strict=True):
            ranked, read = search(text)
            values = (
                [0.0] * len(SIGNALS) if read is None else [getattr(read, f) or 0.0 for f in SIGNALS]
            )
            scores = [h.score for h in ranked[:5]] + [0.0] * 5
            values += [scores[0] - scores[1], scores[0] - scores[4]]
            rows_of.append((values, kind, any(h.id in expect for h in ranked[:5]), g))

    for g, q in enumerate(dev_queries("tune")):
        ask(whole, q.text, "answered" if q.expect else "written", q.expect, g)
        if q.expect:
            ask(rankers([d for d in docs if d.id not in q.expect]), q.text, "left out", q.expect, g)
    adr = [ranked for _, _, ranked in engines(adr_corpus())]
    for name, searches in (("dev", whole), ("adr", adr)):
        for j, (_, text) in enumerate(negatives(name)):
            ask(searches, text, "generated", frozenset(), 100_000 * (name == "adr") + 10_000 + j)
    names = [*PROBE_BASES]
    for name, rows_of in zip(names, table, strict=False):
        x = np.array([r[0] for r in rows_of])
        kind = np.array([r[1] for r in rows_of])
        hit = np.array([r[2] for r in rows_of])
        group = np.array([r[3] for r in rows_of])
        gate = KEYWORD_GATE if name == "keyword only" else semantic.FUSED_GATE
        weights = [gate.score_weight, gate.head_weight, gate.names_weight]
        weights += [gate.situation_weight, gate.heads_weight]

        print(f"\n== {name}: {int((kind == 'left out').sum())} leave-one-out questions")
        print(
            f"  the gate as shipped: {_shares(x[:, :5] @ np.array(weights) + gate.bias, kind, hit)}"
        )
        base = [SIGNALS.index(s) for s in PROBE_BASES[name]]
        groups = np.unique(group)
        fold_of = dict(
            zip(groups, np.random.default_rng(1).integers(0, 5, len(groups)), strict=True)
        )
        fold = np.array([fold_of[v] for v in group])
        for extra, columns in (("", base), (" + margin over the 2nd", [*base, 5])):
            for with_left_out in (False, True):
                logit = np.zeros(len(kind))
                for k in range(5):
                    train = (fold != k) & (with_left_out | (kind != "left out"))
                    w, b = _fit_gate(x[train][:, columns], (kind[train] == "answered") * 1.0)
                    logit[fold == k] = x[fold == k][:, columns] @ w + b
                label = "with" if with_left_out else "without"
                print(f"  refitted{extra}, {label} them (CV): {_shares(logit, kind, hit)}")
        twin = (kind == "answered") & hit
        auc = {}
        for i, signal in enumerate([*SIGNALS, "margin over the 2nd", "margin over the 5th"]):
            a, b = x[twin, i], x[kind == "left out", i]
            auc[signal] = round(float((a[:, None] > b).mean() + 0.5 * (a[:, None] == b).mean()), 2)
        print(f"  AUC, answered (top five) against left out: {auc}")


def _shares(logit: Any, kind: Any, hit: Any) -> str:
    """hard()'s line for a gate's logits: gated hit@5 of the answered questions, and the
    share of each kind of no-answer question left empty."""
    passed = logit >= 0
    answered = (passed & hit)[kind == "answered"].mean()
    empty = {k: float((~passed)[kind == k].mean()) for k in ("written", "left out", "generated")}
    return (
        f"gated hit@5 {answered:.2f}, empty: written no-match {empty['written']:.2f}, "
        f"left out {empty['left out']:.2f}, generated {empty['generated']:.2f}"
    )


#: The gates' signals, in Gate's order (the keyword engine has no situation).
SIGNALS = ("top", "head", "names", "situation", "heads", "body")
#: The share of the fitting set's no-answer questions each gate must leave empty.
EMPTY_TARGET = 0.9


def fit() -> None:
    """How the gates were chosen, on the TUNING part and generated no-answer questions only.

    Fitting set: the development set's tuning part (its answered questions and its 20 no-match
    ones) asked of the development corpus, and the questions of tests/recall_negatives.py
    (written off-topic questions, templated ones, and one corpus's titles and applies_when
    lines asked of the other corpus, genuine matches read out by hand) asked of both the
    development corpus and the ADR corpus. For each engine, an L2-regularised logistic model
    of "the query has an answer" over the best hit's signals (engine.Signals: its score, the
    share of the query's words in its title or applies_when, the query's names no entry holds,
    and with the model the query's similarity to its applies_when), answered questions
    weighted to balance the many negatives; its boundary then moved so that EMPTY_TARGET of
    the fitting set's negatives stay empty. Each candidate set of signals (the best score
    alone among them) is measured by 5-fold cross-validation on the fitting set and by
    fitting on one corpus's negatives and testing on the other's; the one with the best
    cross-validated gated hit@5 is chosen (ties: fewer signals). Prints each gate and its
    figures on both parts of the development set."""
    import numpy as np
    from recall_dev import adr_corpus
    from recall_dev import corpus as dev_corpus
    from recall_dev import queries as dev_queries
    from recall_negatives import negatives

    print("fitting the gates on the TUNING part and on generated no-answer questions")
    dev_engines = engines(list(dev_corpus()))
    adr_engines = engines(adr_corpus())
    for (name, search, ranked_dev), (_, _, ranked_adr) in zip(
        dev_engines, adr_engines, strict=True
    ):
        model = name != "keyword only"
        fitting: list[tuple[Searcher, str, frozenset[str], str]] = [
            (ranked_dev, q.text, q.expect, "tune") for q in dev_queries("tune")
        ]
        for corpus_name, ranked_search in (("dev", ranked_dev), ("adr", ranked_adr)):
            fitting += [
                (ranked_search, t, frozenset(), corpus_name) for _, t in negatives(corpus_name)
            ]
        rows: list[tuple[list[float], bool, bool, str]] = []  # signals, answered, hit@5, where
        for ranked_search, text, expect, corpus_name in fitting:
            rows.append((*_signal_row(ranked_search, text, expect), corpus_name))
        x = np.array([r[0] for r in rows], dtype=float)
        y = np.array([r[1] for r in rows], dtype=float)
        hit = np.array([r[2] for r in rows])
        origin = np.array([r[3] for r in rows])
        print(f"\n{name}: {int(y.sum())} answered and {int((y == 0).sum())} unanswered questions")
        candidates = [(0,), (0, 1, 2), (0, 1, 2, 4)]
        if model:
            candidates += [(0, 2, 3), (0, 1, 2, 3), (0, 1, 2, 3, 4)]
            candidates += [(0, 2, 3, 5), (0, 1, 2, 3, 5), (0, 1, 2, 3, 4, 5)]
        chosen: tuple[float, int, str] | None = None
        for features in candidates:
            label = " + ".join(SIGNALS[f] for f in features)
            weights, bias = _fit_gate(x[:, features], y)
            full = [0.0] * len(SIGNALS)
            for f, w in zip(features, weights, strict=True):
                full[f] = round(float(w), 2)
            gate = Gate(full[0], full[1], full[2], full[3], round(bias, 2), full[4], full[5])
            cv_hit, cv_empty = _cross_validate(x[:, features], y, hit)
            transfer = []
            for train, test in (("dev", "adr"), ("adr", "dev")):
                keep = (origin == "tune") | (origin == train)
                w2, b2 = _fit_gate(x[keep][:, features], y[keep])
                rejected = x[origin == test][:, features] @ w2 + b2 < 0
                transfer.append(float(rejected.mean()))
            if chosen is None or (cv_hit, -len(features)) > (chosen[0], -chosen[1]):
                chosen = (cv_hit, len(features), label)
            print(
                f"  {label}: {gate}\n"
                f"    5-fold cross-validation on the fitting set: gated hit@5 {cv_hit:.3f}, "
                f"no-answer empty {cv_empty:.3f}; fitted with the development corpus's "
                f"negatives, the ADR corpus's stay empty {transfer[0]:.2f}, and the reverse "
                f"{transfer[1]:.2f}"
            )
            for part in ("tune", "report"):
                asked = [(q.text, q.kind, q.expect) for q in dev_queries(part)]
                print(f"    {part}: {figures(search, asked, gate=gate)}")
        assert chosen is not None
        print(f"  chosen (best cross-validated gated hit@5, then fewer signals): {chosen[2]}")


def ceiling(directions: int = 20_000) -> None:
    """What no gate over today's signals can do: a diagnostic, not a result (thirteenth round).

    For each part of the development set and each engine, the gated hit@5 and situations
    hit@5 at the first threshold that leaves 0.9 of the part's no-match questions empty,
    for the shipped gate's direction and for the best of `directions` random directions over
    the gate's signals, each scored on the part itself. That best direction is chosen on the
    very questions it is scored on, so it is an upper bound for any linear gate over these
    signals: it overfits by construction and is never shipped. Where the bound lies below a
    target, the target needs a new signal (or a better ranking), not a better fit."""
    import numpy as np
    from recall_dev import corpus as dev_corpus
    from recall_dev import queries as dev_queries

    from gitmem.recall import semantic

    def at_target(scores: Any, y: Any, hit: Any, situation: Any) -> tuple[float, float]:
        """(hit@5, situations hit@5) passing scores above the 0.9 quantile of the negatives."""
        negatives = np.sort(scores[y == 0])
        passed = scores > negatives[math.ceil(EMPTY_TARGET * len(negatives)) - 1]
        found = passed & hit
        return float(found[y == 1].mean()), float(found[(y == 1) & situation].mean())

    rng = np.random.default_rng(0)
    print(
        f"hit@5 / situations hit@5 at {EMPTY_TARGET} of each part's no-match questions empty; "
        f"'bound': the best of {directions:,} random gate directions, chosen on the part itself"
    )
    for name, _, ranked_search in engines(list(dev_corpus())):
        gate = KEYWORD_GATE if name == "keyword only" else semantic.FUSED_GATE
        shipped = np.array(
            [
                gate.score_weight,
                gate.head_weight,
                gate.names_weight,
                gate.situation_weight,
                gate.heads_weight,
                gate.body_weight,
            ]
        )  # SIGNALS' order
        model_only = ("situation", "body")
        used = [i for i, s in enumerate(SIGNALS) if s not in model_only or gate is not KEYWORD_GATE]
        for part in ("tune", "report"):
            asked = list(dev_queries(part))
            rows = [_signal_row(ranked_search, q.text, q.expect) for q in asked]
            x = np.array([r[0] for r in rows], dtype=float)
            y = np.array([r[1] for r in rows], dtype=float)
            hit = np.array([r[2] for r in rows])
            situation = np.array([q.kind == "situation" for q in asked])
            z = (x[:, used] - x[:, used].mean(0)) / (x[:, used].std(0) + 1e-9)
            bound = max(
                at_target(z @ rng.normal(size=len(used)), y, hit, situation)
                for _ in range(directions)
            )
            gated = at_target(x @ shipped, y, hit, situation)
            print(
                f"{name}, {part} part: ungated {hit[y == 1].mean():.2f} / "
                f"{hit[(y == 1) & situation].mean():.2f}; shipped direction {gated[0]:.2f} / "
                f"{gated[1]:.2f}; bound {bound[0]:.2f} / {bound[1]:.2f}"
            )


def _signal_row(
    ranked_search: Searcher, text: str, expect: frozenset[str]
) -> tuple[list[float], bool, bool]:
    """A fitting row: the gate's SIGNALS of the query's best hit (zeros when nothing ranks),
    whether the query has an answer, and whether the ungated top five hold it."""
    ranked, read = ranked_search(text)
    values = [0.0] * len(SIGNALS) if read is None else [getattr(read, f) or 0.0 for f in SIGNALS]
    return values, bool(expect), any(h.id in expect for h in ranked[:5])


def corpora() -> None:
    """Whether the gates hold on corpora larger and smaller than the ones they were fitted on,
    and whether fitting on those too would do better (the README says why not).

    Beside fit()'s two corpora, the fitting set's questions are asked of the development and
    ADR corpora together (the tuning part's questions and the written and templated negatives;
    the crossed ones would find themselves there) and of the development corpus cut to a third
    (the tuning part's answers kept, the other entries drawn with a fixed seed). Gates fitted
    by fit()'s rule on fit()'s rows ("as now") and on all four corpora's rows are compared by
    5-fold cross-validation grouped by question, so that no question is in a training fold in
    one corpus and a test fold in another: gated hit@5 / negatives left empty on each corpus's
    held-out folds, the mean of four repeats."""
    import numpy as np
    from recall_dev import adr_corpus
    from recall_dev import corpus as dev_corpus
    from recall_dev import queries as dev_queries
    from recall_negatives import DROPPED, OWN_WORDS, negatives, templated

    dev, adr, tune = list(dev_corpus()), adr_corpus(), dev_queries("tune")
    answers = {i for q in tune for i in q.expect}
    draw = random.Random(1)
    third = [d for d in dev if d.id in answers or draw.random() < 1 / 3]
    asked = [(q.text, q.expect) for q in tune]
    written = [q for q in (*OWN_WORDS, *templated()) if not {("dev", q), ("adr", q)} & DROPPED]
    configs = {
        "development": (dev, asked + [(t, frozenset()) for _, t in negatives("dev")]),
        "ADR": (adr, [(t, frozenset()) for _, t in negatives("adr")]),
        "both": (dev + adr, asked + [(t, frozenset()) for t in written]),
        "a third": (third, asked + [(t, frozenset()) for _, t in negatives("dev")]),
    }
    features = {"keyword only": [0, 1, 2, 4], "with the model extra": [0, 1, 2, 3]}
    rows: dict[str, list[tuple[str, str, list[float], bool, bool]]] = {}
    for corpus_name, (docs, questions) in configs.items():
        for name, _, ranked_search in engines(docs):
            for text, expect in questions:
                signals, answered, found = _signal_row(ranked_search, text, expect)
                rows.setdefault(name, []).append((corpus_name, text, signals, answered, found))
    print(f"corpora: {', '.join(f'{c} {len(d)} entries' for c, (d, _) in configs.items())}")
    for name, found in rows.items():
        where = np.array([r[0] for r in found])
        x = np.array([r[2] for r in found])[:, features[name]]
        y = np.array([r[3] for r in found], dtype=float)
        hit = np.array([r[4] for r in found])
        group = np.array([zlib.crc32(r[1].encode()) for r in found], dtype=np.int64)
        print(f"\n{name}: gated hit@5 / negatives empty on held-out folds")
        for label, use in (
            ("fitted as now", np.isin(where, ["development", "ADR"])),
            ("fitted on all four", np.ones(len(y), dtype=bool)),
        ):
            cells: dict[str, tuple[list[float], list[float]]] = {c: ([], []) for c in configs}
            for repeat in range(4):
                fold = (group * 2654435761 + 97 * repeat) % 5
                for k in range(5):
                    weights, bias = _fit_gate(x[(fold != k) & use], y[(fold != k) & use])
                    passed = x @ weights + bias >= 0
                    for corpus_name, (hits, empties) in cells.items():
                        held = (fold == k) & (where == corpus_name)
                        if (held & (y == 1)).any():
                            hits.append(float((passed & hit)[held & (y == 1)].mean()))
                        if (held & (y == 0)).any():
                            empties.append(float((~passed)[held & (y == 0)].mean()))
            print(f"  {label}: " + "; ".join(
                f"{c} {np.mean(h):.3f} / {np.mean(e):.3f}" if h else f"{c} — / {np.mean(e):.3f}"
                for c, (h, e) in cells.items()
            ))  # fmt: skip


#: The keyword gate's signals, then the fused gate's, that every probed signal is added to.
PROBE_BASES = {"keyword only": ("top", "head", "names", "heads"),
               "with the model extra": ("top", "head", "names", "situation")}  # fmt: skip


def probe() -> None:
    """Directions tried for the gates and the keyword ranking, and dropped (the README says
    why): each candidate signal is added to a gate's own signals, fitted by fit()'s rule on
    fit()'s fitting set, cross-validated there, and measured on the report part, the own
    set and the ADR cross-corpus check. Gated hit@5 here is "the gate passes and the
    ungated top five hold the answer" (the RELATIVE_FLOOR cut aside), so a gate's figures
    can differ from --quality's by a question.

    Signals probed (about the best hit unless said): background, the best score's share of
    a corpus's near misses below it (up to 200 entries' titles and applies_when lines asked
    of the corpus, the best hit other than the entry itself) and the best score less their
    median; asking again without the query's rarest matched term: whether the best hit
    holds it, whether it stays first without it, the share of its evidence left; the second
    hit's score over the best's; pre-retrieval predictors of the query alone (its length,
    the mean and largest idf of its words some entry holds); the query's names some entry
    holds that the best hit, or any of the first five, lacks; with the model, the query's
    similarity to the best hit's title, the best similarity to an applies_when among the
    first five hits, and soft coverage from the model's token states. Then
    pseudo-relevance feedback (RM3-like, from the first hits' titles and applies_when, the
    index holding no bodies) on the ranking alone, and the gates fitted with generated
    answered questions as well (an entry's context asked of the entries without their
    contexts)."""
    import numpy as np
    from recall_dev import adr_corpus
    from recall_dev import corpus as dev_corpus
    from recall_dev import queries as dev_queries
    from recall_negatives import negatives

    from gitmem.recall import semantic

    sets = {"dev": list(dev_corpus()), "adr": adr_corpus(), "own": list(corpus())}
    asked: dict[str, list[tuple[str, str, frozenset[str]]]] = {
        "fit": [(q.text, "dev", q.expect) for q in dev_queries("tune")]
        + [(t, c, frozenset()) for c in ("dev", "adr") for _, t in negatives(c)],
        "report": [(q.text, "dev", q.expect) for q in dev_queries("report")],
        "own": [(q, "own", r) for q, r in MATCHING + SITUATIONS]
        + [(q, "own", frozenset()) for q in NO_MATCH],
        "adr": [(q.text, "adr", frozenset()) for q in dev_queries()],
    }
    kinds = {q.text: q.kind for q in dev_queries()} | {q: "situation" for q, _ in SITUATIONS}
    generated = {name: _generated(name) for name in ("dev", "adr")}
    names = ["keyword only"] + (["with the model extra"] if semantic.available() else [])
    for name in names:
        fused = name != "keyword only"
        rows: dict[str, list[tuple[dict[str, float], bool, bool, str]]] = {}
        probers: dict[str, _Prober] = {}
        for part, questions in [*asked.items(), ("generated", [])]:
            rows[part] = []
            for corpus_name in ("dev", "adr", "own"):
                if part == "generated":
                    if corpus_name == "own":
                        continue
                    docs, questions = generated[corpus_name]
                    questions = [(t, corpus_name, e) for t, e in questions]
                else:
                    docs = sets[corpus_name]
                mine = [q for q in questions if q[1] == corpus_name]
                if mine:
                    key = f"{corpus_name} without contexts" if part == "generated" else corpus_name
                    prober = probers.get(key) or probers.setdefault(key, _Prober(docs, fused))
                    for text, _, expect in mine:
                        found = prober.signals(text, expect)
                        rows[part].append((*found, kinds.get(text, "")))
        print(f"\n{name}; the background's median near miss per corpus:")
        for key, prober in probers.items():
            print(
                f"  {key}: titles and applies_when asked {statistics.median(prober.near):.3f}"
                + (f", head vectors asked {prober.head_median:.3f}" if fused else "")
            )
        base = PROBE_BASES[name]
        extras = ["", "bg_share", "bg_less", "rare_held", "rare_first", "rare_left", "second"]
        extras += ["length", "mean_idf", "max_idf", "length+mean_idf+max_idf"]
        extras += ["names_lacked", "names_lacked_5"]
        if fused:
            extras += ["bg_head_less", "title", "applies_max", "soft", "soft_head", "soft_max"]
        for extra in extras:
            features = [*base, *extra.split("+")] if extra else list(base)
            cells = []
            for with_generated in (False, True) if not extra else (False,):
                fitting = rows["fit"] + (rows["generated"] if with_generated else [])
                x = np.array([[r[0][f] for f in features] for r in fitting])
                y = np.array([r[1] for r in fitting], dtype=float)
                hit = np.array([r[2] for r in fitting])
                cv_hit, cv_empty = _cross_validate(x, y, hit)
                weights, bias = _fit_gate(x, y)
                cells = [f"cross-validated {cv_hit:.3f} / {cv_empty:.3f}"]
                for part in ("report", "own", "adr"):
                    got = rows[part]
                    xs = np.array([[r[0][f] for f in features] for r in got])
                    passed = xs @ weights + bias >= 0
                    answered = np.array([r[1] for r in got])
                    hits = passed & np.array([r[2] for r in got])
                    situation = np.array([r[3] == "situation" for r in got])
                    cell = f"{part}: empty {(~passed)[~answered].mean():.2f}"
                    if answered.any():
                        cell = (
                            f"{part}: hit@5 {hits[answered].mean():.2f} situations "
                            f"{hits[situation].mean():.2f} empty {(~passed)[~answered].mean():.2f}"
                        )
                    cells.append(cell)
                label = " + ".join(features) + (
                    " (fitted with generated)" if with_generated else ""
                )
                print(f"  {label}: " + "; ".join(cells))
    index = Index.build(sets["dev"])
    print(
        "\npseudo-relevance feedback, keyword ranking alone, hit@5 (feedback hits, terms, weight)"
    )
    for setting in ((0, 0, 0.0), (3, 5, 0.2), (5, 10, 0.2), (5, 10, 0.4)):
        cells = []
        for part in ("tune", "report"):
            for kind in ("paraphrase", "situation"):
                questions = [q for q in dev_queries(part) if q.kind == kind]
                found = sum(
                    any(h.id in q.expect for h in _feedback(index, q.text, *setting))
                    for q in questions
                )
                cells.append(f"{part} {kind} {found / len(questions):.2f}")
        for corpus_name in ("dev", "adr"):
            docs, questions = generated[corpus_name]
            other = Index.build(docs)
            found = sum(any(h.id in e for h in _feedback(other, t, *setting)) for t, e in questions)
            cells.append(f"generated {corpus_name} {found / len(questions):.2f}")
        print(f"  {setting}: " + "; ".join(cells))


class _Prober:
    """One corpus's index (and vectors), its background, and the probed signals of a query."""

    def __init__(self, docs: list[Doc], fused: bool) -> None:
        from gitmem.recall import semantic

        self.index = Index.build(docs)
        self.bodies = {d.id: d.body for d in docs}
        self.vectors = semantic.Vectors.build(docs) if fused else None
        self.fused = fused
        sample = sorted(docs, key=lambda d: zlib.crc32(d.id.encode()))[:200]
        near = []
        for d in sample:
            for text in (d.title, d.applies_when):
                other = [h.score for h in self.rank(text, 6) if h.id != d.id]
                near.append(other[0] if other else 0.0)
        self.near = sorted(near)
        # The same with each entry's head vector (what the cache stores: no model run) and
        # its title and applies_when as one text, as an admission could afford it.
        heads = [0.0]
        if self.vectors is not None:
            heads = [self.head_near(d) for d in sample]
        self.head_median = statistics.median(heads)

    def head_near(self, doc: Doc) -> float:
        """The best fused score of another entry for doc's head vector and head text."""
        import struct

        from gitmem.recall import semantic

        assert self.vectors is not None
        raw = semantic.embed_doc(doc)
        vector = list(struct.unpack(f"<{len(raw) // 2}e", raw))
        text = f"{doc.title}\n{doc.applies_when}"
        near = {i: max(0.0, c) for c, i in self.vectors.nearest(vector, 20)[0]}
        words = {h.id: h.score for h in self.index.search(text, k=20, min_score=0.0)}
        words.update(self.index.scores(text, [i for i in near if i not in words]))
        fused = [
            semantic.SEMANTIC_WEIGHT * near.get(i, max(0.0, self.vectors.cosine(vector, i) or 0))
            + (1 - semantic.SEMANTIC_WEIGHT) * words.get(i, 0.0)
            for i in set(near) | set(words)
            if i != doc.id
        ]
        return max(fused, default=0.0)

    def rank(self, text: str, k: int = 5) -> list[Hit]:
        from gitmem.recall import semantic

        if self.vectors is None:
            return self.index.search(text, k=k, min_score=0.0)
        return semantic.search(self.index, self.vectors, text, k=k, min_score=0.0)

    def signals(self, text: str, expect: frozenset[str]) -> tuple[dict[str, float], bool, bool]:
        from gitmem.recall import semantic

        ranked = self.rank(text)
        if not ranked:
            return dict.fromkeys(_PROBED, 0.0), bool(expect), False
        index = self.index
        bodies = self.bodies
        read = (
            semantic.signals(index, text, ranked, lambda hit: bodies.get(hit.id))
            if self.fused
            else index.signals(text, ranked)
        )
        out = {f: float(getattr(read, f) or 0.0) for f in SIGNALS}
        out["bg_share"] = bisect_left(self.near, read.top) / len(self.near)
        out["bg_less"] = read.top - statistics.median(self.near)
        out["bg_head_less"] = read.top - self.head_median
        out["second"] = ranked[1].score / ranked[0].score if len(ranked) > 1 else 0.0
        # Asking again without the rarest matched term (engine internals: a bench may look).
        weighted = index._weigh(text)[0]
        matched = [w for w in weighted if w[2]]
        # Pre-retrieval predictors of the query alone: its length in the words that count
        # towards its reach, and the rarity (idf / idf_1) of the words some entry holds.
        # The query's names (engine.query_names) that some entry holds but the best hit does
        # not, and that none of the first five hits holds: a near-topic trap's best hit
        # lacks the named thing the question is about.
        known = [t for t in query_names(text) if index._live_count(index._postings(t))]

        def holds(doc_id: str, term: str) -> bool:
            found = index._find(doc_id)
            return found is not None and any(
                _contains(plist, found) is not None for plist in index._postings(term)
            )

        out["names_lacked"] = float(sum(not holds(ranked[0].id, t) for t in known))
        out["names_lacked_5"] = float(
            sum(not any(holds(h.id, t) for h in ranked[:5]) for t in known)
        )
        out["length"] = math.log1p(len(weighted))
        out["mean_idf"] = statistics.fmean(w[0] for w in matched) if matched else 0.0
        out["max_idf"] = max((w[0] for w in matched), default=0.0)
        rare = max(matched, key=lambda w: w[0]) if matched else None
        number = index._find(ranked[0].id)
        out["rare_held"] = out["rare_first"] = out["rare_left"] = 0.0
        if rare is not None and number is not None:
            rest = [w for w in weighted if w is not rare]
            full = sum(w * v for w, _, v in index._matched(weighted, number))
            left = sum(w * v for w, _, v in index._matched(rest, number))
            again = index._ranked(rest, 1, None, 0.0) if any(w[2] for w in rest) else []
            out["rare_held"] = float(any(True for _ in index._matched([rare], number)))
            out["rare_first"] = float(bool(again) and again[0].id == ranked[0].id)
            out["rare_left"] = left / full if full else 0.0
        if self.fused:
            query = semantic.embed_query(text) or []
            heads = [Doc("", "", "", h.applies_when, (), "", "") for h in ranked]
            out["title"] = semantic.cosine_of(query, Doc("", "", ranked[0].title, "", (), "", ""))
            out["applies_max"] = max(semantic.cosine_of(query, d) for d in heads)
            asked = _token_states(text, semantic.QUERY_TOKENS)
            held = [
                _soft(asked, _token_states(f"{h.title}. {h.applies_when}", semantic.DOC_TOKENS))
                for h in ranked
            ]
            applies = _token_states(ranked[0].applies_when, semantic.DOC_TOKENS)
            out["soft"] = _soft(asked, applies)
            out["soft_head"] = held[0]
            out["soft_max"] = max(held)
        return out, bool(expect), any(h.id in expect for h in ranked)


_PROBED = (*SIGNALS, "bg_share", "bg_less", "bg_head_less", "second", "rare_held",
           "rare_first", "rare_left", "length", "mean_idf", "max_idf", "names_lacked",
           "names_lacked_5", "title", "applies_max",
           "soft", "soft_head", "soft_max")  # fmt: skip


def _token_states(text: str, tokens: int) -> Any:
    """The model's unit-length output row of each content word-piece of text (not [CLS],
    [SEP], punctuation or a stop word), for the soft-coverage probe."""
    import numpy as np

    from gitmem.recall import semantic
    from gitmem.recall.engine import STOP_WORDS

    model = semantic._model()
    model.tokenizer.no_padding()
    model.tokenizer.enable_truncation(tokens)
    encoded = model.tokenizer.encode(text)
    size = len(encoded.ids)
    feeds = {
        "input_ids": array("q", encoded.ids),
        "attention_mask": array("q", [1] * size),
        "token_type_ids": array("q", [0] * size),
    }
    (_, _, dim), out = model.session.run(feeds, (1, size), "last_hidden_state")
    hidden = np.frombuffer(out, dtype=np.float32).reshape(size, dim)
    keep = [
        i
        for i, piece in enumerate(encoded.tokens)
        if piece not in ("[CLS]", "[SEP]")
        and piece.strip("#").isalnum()
        and piece.strip("#").lower() not in STOP_WORDS
    ]
    rows = hidden[keep] if keep else hidden[:0]
    return rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-9)


def _soft(asked: Any, held: Any) -> float:
    """The mean, over the query's content word-pieces, of each one's best cosine with a
    word-piece of the other text (BERTScore's recall, unweighted)."""
    if not len(asked) or not len(held):
        return 0.0
    return float((asked @ held.T).max(axis=1).mean())


def _generated(name: str) -> tuple[list[Doc], list[tuple[str, frozenset[str]]]]:
    """(the corpus without its entries' contexts, each entry's context's first sentences
    as a question whose answer is that entry)."""
    import json
    import re

    from recall_corpus import DATA as ADR_DATA
    from recall_dev import DATA as DEV_DATA
    from recall_dev import adr_corpus
    from recall_dev import corpus as dev_corpus

    if name == "dev":
        records = json.loads((DEV_DATA / "corpus.json").read_text(encoding="utf-8"))
        rest = {r["key"]: (r["context"], [r["content"], r["evidence"]]) for r in records}
        docs = list(dev_corpus())
    else:
        records = json.loads(ADR_DATA.read_text(encoding="utf-8"))
        rest = {r["key"]: (r["context"], [r["decision"], r["consequences"]]) for r in records}
        docs = [d for d in adr_corpus() if d.id in rest]
    out_docs, questions = [], []
    for d in docs:
        context, others = rest[d.id]
        out_docs.append(replace(d, body="\n".join(p for p in others if p)))
        words = " ".join(line.strip(" -*#") for line in context.splitlines() if line.strip())
        question = ""
        for sentence in re.split(r"(?<=[.!?])\s+", words):
            question = f"{question} {sentence}".strip()
            if len(question) >= 80:
                break
        if question:
            questions.append((question[:300], frozenset([d.id])))
    return out_docs, questions


def _feedback(index: Index, text: str, hits: int, terms: int, weight: float) -> list[Hit]:
    """The first five hits after expanding the query with `terms` terms of the first `hits`
    hits' titles and applies_when, each at `weight` times its idf weight (engine internals)."""
    weighted = index._weigh(text)[0]
    first = index._ranked(weighted, max(5, hits), None, 0.0)
    if not hits or not first:
        return first[:5]
    asked = {t for _, t, _ in weighted}
    total = sum(h.score for h in first[:hits]) or 1.0
    share: dict[str, float] = {}
    for h in first[:hits]:
        head = index._analyzer.terms(f"{h.title}\n{h.applies_when}")
        for t in set(head) - asked:
            share[t] = share.get(t, 0.0) + h.score / total * head.count(t) / len(head)
    expansion = []
    for term, p in share.items():
        found = index._weigh(term)[0]
        if found and found[0][2]:
            expansion.append((p * found[0][0], found[0]))
    expansion.sort(key=lambda e: -e[0])
    wider = weighted + [(weight * w, t, p) for _, (w, t, p) in expansion[:terms]]
    reach = min(REACH, sum(w for w, _, _ in weighted))
    evidence: dict[int, float] = {}
    for w, _, postings in wider:
        for plist in postings:
            for posting in plist:
                n = posting >> 8
                evidence[n] = evidence.get(n, 0.0) + w * (posting & 0xFF) / 255
    scored = [(round(e / reach, 4), n) for n, e in evidence.items() if n not in index._dead]
    return index._top(scored, 5)


def _fit_gate(x: Any, y: Any) -> tuple[Any, float]:
    """fit()'s rule: a class-balanced logistic model, its boundary moved so that EMPTY_TARGET
    of the negatives are rejected."""
    import numpy as np

    balance = np.where(y == 1, (y == 0).sum() / max(1, (y == 1).sum()), 1.0)
    weights, bias = _logistic(x, y, weights=balance)
    logits = x @ weights + bias
    bias -= float(np.quantile(logits[y == 0], EMPTY_TARGET))
    return weights, bias


def _cross_validate(
    x: Any, y: Any, hit: Any, folds: int = 5, repeats: int = 4
) -> tuple[float, float]:
    """(gated hit@5 of the answered questions, share of the others left empty) on held-out
    folds of the fitting set, each gate fitted by _fit_gate on the other folds."""
    import numpy as np

    rng = np.random.default_rng(0)
    hits, empties = [], []
    for _ in range(repeats):
        fold = rng.integers(0, folds, len(y))
        for k in range(folds):
            train, test = fold != k, fold == k
            weights, bias = _fit_gate(x[train], y[train])
            passed = x[test] @ weights + bias >= 0
            answered = y[test] == 1
            hits.append(float((passed & hit[test])[answered].mean()))
            empties.append(float((~passed)[~answered].mean()))
    return float(np.mean(hits)), float(np.mean(empties))


def _logistic(x: Any, y: Any, l2: float = 1.0, weights: Any = None) -> tuple[Any, float]:
    """Weights and bias of an L2-regularised logistic regression (Newton's method) on
    standardised features, returned for the raw features; weights: each row's weight."""
    import numpy as np

    rows = np.ones(len(y)) if weights is None else weights
    mu, sd = x.mean(0), x.std(0) + 1e-9
    z = np.hstack([(x - mu) / sd, np.ones((len(x), 1))])
    w = np.zeros(z.shape[1])
    penalty = np.r_[np.ones(len(w) - 1), 0.0] * l2
    for _ in range(50):
        p = 1 / (1 + np.exp(-z @ w))
        grad = z.T @ ((p - y) * rows) + penalty * w
        hess = (z.T * (p * (1 - p) * rows)) @ z + np.diag(penalty)
        w -= np.linalg.solve(hess, grad)
    raw = w[:-1] / sd
    return raw, float(w[-1] - raw @ mu)


def collector(n: int) -> None:
    """What pausing the cyclic garbage collector around an index build would be worth (the
    engine once did; it no longer does): n generated entries built and serialised with the
    collector running, then paused (here, by the bench), alternately, two rounds, CPU time."""
    import gc

    gen = Generator()
    docs = [gen.doc(i) for i in range(n)]
    print(f"\n== index build of {n:,} generated entries, CPU seconds")
    for _ in range(2):
        for paused in (False, True):
            if paused:
                gc.disable()
            try:
                start = time.process_time()
                index = Index.build(docs)
                built = time.process_time()
                index.to_parts()
                done = time.process_time()
            finally:
                gc.enable()
            label = "paused " if paused else "running"
            print(f"collector {label}: build {built - start:.2f} s, serialise {done - built:.2f} s")
            del index


def shortlist(n: int) -> None:
    """How much of the exact nearest entries (by cosine) the sign-plane shortlist keeps, on n
    generated entries (bench/generate.py, as --cli) plus the labelled corpus, for the labelled
    questions and the --cli queries: the share of the exact top 100 and top 10, counting only
    entries above COS_FLOOR (the others add nothing to a fused score)."""
    import numpy as np

    sys.path.insert(0, str(ROOT / "bench"))
    from generate import Generator as StoreGenerator

    from gitmem.recall import semantic
    from gitmem.recall.cache import doc_of

    entries = StoreGenerator(seed=1).entries(n)
    docs = [doc_of(e, f".gitmem/entries/{e.type}/{e.id}.md") for e in entries] + list(corpus())
    start = time.perf_counter()
    vectors = semantic.Vectors.build(docs)
    manifest, chunks = vectors.to_parts()
    t_build = time.perf_counter() - start
    vectors = semantic.Vectors.from_parts(manifest, chunks.__getitem__)
    (chunk,) = vectors._chunks
    matrix = np.frombuffer(chunk.rows, dtype="<f2").reshape(chunk.count, -1).astype(np.float64)
    ids = chunk.ids()
    queries = [q for q, _ in MATCHING + SITUATIONS] + NO_MATCH + CLI_QUERIES
    vecs = [v for v in map(semantic.embed_query, queries) if v is not None]
    print(f"\n== shortlist, {len(docs):,} entries (built in {t_build:.1f} s), {len(vecs)} queries")
    start = time.perf_counter()
    vectors.nearest(vecs[0], 100)
    first = time.perf_counter() - start
    start = time.perf_counter()
    vectors.nearest(vecs[0], 100)
    print(
        f"nearest, the process's first query (planes read and converted): {ms(first)}; "
        f"the same query again: {ms(time.perf_counter() - start)}"
    )
    default = semantic.SHORTLIST
    for size in (128, 256, 512, 1024):
        semantic.SHORTLIST = size  # type: ignore[misc]
        kept = {100: [0, 0], 10: [0, 0]}
        times = []
        for v in vecs:
            cos = matrix @ np.asarray(v)
            order = np.argsort(-cos, kind="stable")
            t = time.perf_counter()
            found = {i for _, i in vectors.nearest(v, 100)[0]}
            times.append(time.perf_counter() - t)
            for top, counts in kept.items():
                best = [ids[i] for i in order[:top] if cos[i] > semantic.COS_FLOOR]
                counts[0] += sum(i in found for i in best)
                counts[1] += len(best)
        shares = ", ".join(
            f"top {top}: {a / b:.3f} of {b}" if b else f"top {top}: none above the floor"
            for top, (a, b) in kept.items()
        )
        print(
            f"shortlist {size}: {shares}; nearest p50 {ms(statistics.median(times))}"
            f"{' (default)' if size == default else ''}"
        )
    semantic.SHORTLIST = default  # type: ignore[misc]


CLI_QUERIES = ["retry payments with jitter", "index cache update", "database migrations lock",
               "rotate session tokens", "how do I bake bread"]  # fmt: skip


SEMANTIC_QUERIES = ["retry payments with jitter", "how do I bake bread",
                    "flaky test depends on the date", "keep credentials out of notes"]  # fmt: skip
PEAK = """
import resource, runpy, sys
sys.argv = ["gitmem", *sys.argv[1:]]
try:
    runpy.run_module("gitmem", run_name="__main__")
finally:
    kinds = (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    print(max(resource.getrusage(kind).ru_maxrss for kind in kinds), file=sys.stderr)
"""

#: A fresh process's cache update (gitmem.lifecycle.refresh's, the post-merge hook's):
#: prints the update's seconds, those spent importing gitmem and opening the repository, and
#: the update's CPU seconds (all the process's threads).
FRESH_UPDATE = """
import time
start = time.perf_counter()
from gitmem.lifecycle.refresh import warm_recall_cache
from gitmem.repo.workspace import open_workspace
ws = open_workspace()
opened, cpu = time.perf_counter(), time.process_time()
warm_recall_cache(ws)
print(time.perf_counter() - opened, opened - start, time.process_time() - cpu)
"""
#: How many fresh-process updates the bench times: the machine's load moves one by tens of ms.
FRESH_ROUNDS = 11

PHASES = """
import os, resource, sys, time
from gitmem.recall import semantic
mark = [time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF)]
def lap(label):
    now, use = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF)
    then, was = mark
    cpu = use.ru_utime + use.ru_stime - was.ru_utime - was.ru_stime
    print(f"{label:48} {1000 * (now - then):6.1f} ms {1000 * cpu:6.1f} ms CPU "
          f"{use.ru_minflt - was.ru_minflt:6d} page faults")
    mark[:] = [time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF)]
lap("(start)")
if sys.argv[1] == "steps":
    from gitmem.recall import onnxrt
    onnxrt.prepare(); lap("onnxruntime's C library: load, environment")
    import tokenizers; lap("import tokenizers")
    text = semantic._verified(semantic._TOKENIZER_FILE).decode()
    tokenizers.Tokenizer.from_str(text); lap("tokenizer: verify and load")
    path = semantic._file(semantic._MODEL_FILE)
    data = path.read_bytes(); lap("model file: read 22.9 MB")
    import hashlib; hashlib.sha256(data).hexdigest(); lap("model file: SHA-256")
    from gitmem.recall.onnxgraph import sentence_model
    data = sentence_model(data, "last_hidden_state", "attention_mask")
    lap("rewrite: embeddings gathered first, pooling added")
    onnxrt.Session(data); lap("session from the bytes")
else:
    semantic._model(); lap("the model as gitmem loads it (all the above)")
    semantic.embed_query(sys.argv[2]); lap("first run: the query")
    semantic._model().embed([sys.argv[3]], semantic.DOC_TOKENS); lap("second run: an applies_when")
    semantic._model().embed([sys.argv[3]], semantic.DOC_TOKENS); lap("third run: the same again")
"""


def phases() -> None:
    """Where a warm recall with the extra spends its time beyond the keyword one, each part
    measured in a fresh process (wall, CPU, minor page faults): onnxruntime's C library, the
    tokenizer, reading and hashing the model file, making the session, each step alone; then
    the model as gitmem loads it (the session made in a thread beside the tokenizer) and its
    first runs.
    The shortlist's cost is measured by --shortlist."""
    query = "retry payments with jitter"
    applies_when = "changing payment retries or code that calls retry_with_backoff"
    print(f"\n== the semantic extra's per-process cost, load average {os.getloadavg()[0]:.1f}")
    for args in (["steps"], ["gitmem", query, applies_when]):
        done = subprocess.run(
            [sys.executable, "-c", PHASES, *args],
            check=True,
            capture_output=True,
            env=ENV,
            text=True,
            cwd=tempfile.gettempdir(),
        )
        print("\n".join(line for line in done.stdout.splitlines() if "(start)" not in line))


def committed_store(work: Path, name: str, n: int) -> Path:
    """A store of n valid generated entries (bench/generate.py) in one commit on main."""
    sys.path.insert(0, str(ROOT / "bench"))
    from generate import write_store

    root = work / name
    root.mkdir()
    write_store(root, n)
    (root / ".gitmem.toml").write_text('[memory]\nproject = "shop"\n')
    git(root, "init", "-q", "-b", "main")
    git(root, "add", ".")
    git(root, "-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-qm", "x")
    return root


def admit_one(root: Path, folder: Path, text: str, suffix: str) -> None:
    """Commit a copy of an entry (its text) in folder, its id with -suffix: one admission."""
    old_id = text.split("id: ", 1)[1].split("\n", 1)[0]
    new_id = f"{old_id}-{suffix}"
    path = folder / f"{new_id}.md"
    path.write_text(text.replace(old_id, new_id))
    git(root, "add", str(path))
    git(root, "-c", "user.name=b", "-c", "user.email=b@example.com", "commit", "-qm", "y")


def bench_cli(n: int, work: Path, against: str | None = None) -> None:
    """The real command, whole process, with the real cache in the git directory: a committed
    store of valid entries (bench/generate.py), `gitmem recall` cold and warm beside
    `git grep -i -l`, with and without the semantic extra (GITMEM_SEMANTIC=false), wall and CPU
    (user + system) time, its peak memory, the cache's size, and the cache update after one
    admission. against names another interpreter whose gitmem (another checkout's install)
    runs the same warm recalls alternately with this one, on the same store and cache."""
    from gitmem.recall.cache import RecallCache
    from gitmem.repo.workspace import open_workspace

    print(f"\n== gitmem recall, whole process, {n:,} entries")
    root = committed_store(work, f"cli-{n}", n)

    def recall(
        query: str, semantic: bool = True, peak: bool = False, python: str = sys.executable
    ) -> tuple[float, float, int]:
        """Wall and CPU seconds of one `gitmem recall`, or with peak its peak resident kB, its
        own or a child's (measured by a wrapper that costs some time of its own)."""
        env = ENV if semantic else {**ENV, "GITMEM_SEMANTIC": "false"}
        run = [python, "-c", PEAK] if peak else [python, "-m", "gitmem"]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(
            [*run, "recall", "--format", "json", query],
            cwd=root,
            check=True,
            capture_output=True,
            env=env,
            text=True,
        )
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        return wall, cpu, int(done.stderr.split()[-1]) if peak else 0

    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cold, _, cold_kb = recall(SEMANTIC_QUERIES[0], peak=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    print(f"cold (builds the cache): {cold:.1f} s, {cpu:.0f} s of CPU in all its processes, "
          f"peak {cold_kb / 1e3:.0f} MB; load average {os.getloadavg()[0]:.1f}")  # fmt: skip
    pythons = [sys.executable] + ([against] if against else [])
    greps: list[float] = []  # git grep -i -l's p50 for each set of queries
    for label, queries in (("reaching the model", SEMANTIC_QUERIES), ("mixed", CLI_QUERIES)):
        peak = max(recall(q, peak=True)[2] for q in queries)
        on: dict[str, list[tuple[float, float]]] = {p: [] for p in pythons}
        off: dict[str, list[tuple[float, float]]] = {p: [] for p in pythons}
        for _ in range(3):
            for q in queries:
                for python in pythons:  # alternately, so that both see the same minutes
                    on[python].append(recall(q, python=python)[:2])
                    off[python].append(recall(q, semantic=False, python=python)[:2])
        grep = statistics.median(git_grep(root, q) for q in queries for _ in range(2))
        greps.append(grep)
        for python in pythons:
            name = "" if python == sys.executable else f" [{python}]"
            wall, cpu = (statistics.median(t[i] for t in on[python]) for i in (0, 1))
            wall_off, cpu_off = (statistics.median(t[i] for t in off[python]) for i in (0, 1))
            print(
                f"warm, queries {label}{name}: p50 {ms(wall)} ({ms(cpu)} CPU) with the extra"
                f"{f' (peak {peak / 1e3:.0f} MB)' if not name else ''}, {ms(wall_off)} "
                f"({ms(cpu_off)} CPU) without (+{ms(wall - wall_off)}, +{ms(cpu - cpu_off)} CPU); "
                f"git grep -i -l p50 {ms(grep)}; with the extra / grep = {wall / grep:.2f}, "
                f"without / grep = {wall_off / grep:.2f}"
            )
    print(f"load average {os.getloadavg()[0]:.1f}")
    os.chdir(root)
    ws = open_workspace(root)
    cache = RecallCache(ws.store, ws.dir)
    vectors = 0
    from gitmem.recall import semantic

    record = cache._state()[0]
    if record.get("vectors"):
        manifest = cache._blob("manifests", record["vectors"])
        loaded = semantic.Vectors.from_parts(manifest, lambda name: cache._blob("segments", name))
        vectors = sum(len(chunk.data) for chunk in loaded._chunks)
    total = sum(f.stat().st_size for f in cache.root.rglob("*") if f.is_file())
    print(
        f"cache size: {total / n:.0f} kB per 1,000 entries, of which vectors {vectors / n:.0f} kB"
    )
    methods = root / ".gitmem/entries/method"
    text = next(iter(methods.iterdir())).read_text()
    updates = []
    for i in range(7):
        admit_one(root, methods, text, f"one-more-{i}")
        tip = ws.main_tip() or ""
        start = time.perf_counter()
        cache.load(ws.store.subtree(ws.store.tree_of(tip), ws.dir))
        updates.append(time.perf_counter() - start)
    print(
        f"cache update after one new entry (in process), 7 in a row: p50 "
        f"{ms(statistics.median(updates))}, max {ms(max(updates))}"
    )
    # What an admission costs where it happens: the post-merge hook is a fresh process, which
    # imports gitmem, opens the repository and loads the model before it updates the cache.
    # The update leaves the admitted entry's vector to the next recall with the extra
    # (gitmem.recall.cache: "Vectors left behind"): that recall is timed too, beside the same
    # query asked again once the vectors are up to date.
    fresh: list[tuple[float, ...]] = []
    catching_up: list[tuple[float, float]] = []
    for i in range(FRESH_ROUNDS):
        admit_one(root, methods, text, f"one-more-fresh-{i}")
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", FRESH_UPDATE], cwd=root, check=True, capture_output=True,
            env=ENV, text=True,
        )  # fmt: skip
        fresh.append((*(float(v) for v in done.stdout.split()), time.perf_counter() - start))
        query = SEMANTIC_QUERIES[i % len(SEMANTIC_QUERIES)]
        catching_up.append((recall(query)[0], recall(query)[0]))
    update, opening, cpu, whole = (statistics.median(f[i] for f in fresh) for i in range(4))
    quartiles = statistics.quantiles([f[0] for f in fresh], n=4)
    print(
        f"cache update after one new entry in a fresh process, as the post-merge hook makes "
        f"it, {FRESH_ROUNDS} in a row: p50 {ms(update)} ({ms(cpu)} CPU), quartiles "
        f"{ms(quartiles[0])} / {ms(quartiles[2])}, min {ms(min(f[0] for f in fresh))}, max "
        f"{ms(max(f[0] for f in fresh))}; after {ms(opening)} importing gitmem and opening the "
        f"repository; the whole process {ms(whole)}"
    )
    first, again = (statistics.median(pair[i] for pair in catching_up) for i in (0, 1))
    print(
        f"the recall with the extra after each of those updates, which embeds the admitted "
        f"entry: p50 {ms(first)}; the same query again: p50 {ms(again)} "
        f"(+{ms(first - again)}); / git grep -i -l of the warm rows = "
        f"{' / '.join(f'{first / grep:.2f}' for grep in greps)}"
    )


def bench_history(n: int, work: Path, commits: int) -> None:
    """Recall's freshness check on a store with a history: n entries in one commit, then
    `commits` admissions, one entry each, round the four type folders. A hit admitted in the
    first commit asks git for the commits since that touched its entry (path-limited, on the
    first-parent chain), and each such commit's diff reads its type folder's tree, some n / 4
    names. Whole-process `gitmem recall` (keywords only, so that the model does not hide the
    difference), warm, p50 of the CLI queries, with git's commit-graph as `git gc` writes it
    (no changed-path filters), then as gitmem keeps it (gitmem.repo.gitcli.write_path_filters)."""
    from gitmem.repo.gitcli import write_path_filters

    print(f"\n== recall with a history: {n:,} entries, then {commits:,} admissions")
    root = committed_store(work, f"history-{n}", n)
    folders = sorted((root / ".gitmem/entries").iterdir())
    start = time.perf_counter()
    for i in range(commits):
        folder = folders[i % len(folders)]
        admit_one(root, folder, next(iter(folder.iterdir())).read_text(), f"again-{i}")
    print(f"{commits} commits made in {time.perf_counter() - start:.0f} s")
    env = {**ENV, "GITMEM_SEMANTIC": "false"}

    def recall(query: str) -> float:
        begin = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "gitmem", "recall", "--format", "json", query],
            cwd=root, check=True, capture_output=True, env=env,
        )  # fmt: skip
        return time.perf_counter() - begin

    recall(CLI_QUERIES[0])  # brings the cache up to the tip
    git(root, "commit-graph", "write", "--reachable", "--no-changed-paths")
    plain = statistics.median(recall(q) for q in CLI_QUERIES for _ in range(3))
    start = time.perf_counter()
    writing = write_path_filters(root, limit=None)
    if writing is not None:
        writing.wait()
    built = time.perf_counter() - start
    filtered = statistics.median(recall(q) for q in CLI_QUERIES for _ in range(3))
    grep = statistics.median(git_grep(root, q) for q in CLI_QUERIES for _ in range(2))
    print(
        f"warm recall, keywords only, p50: {ms(plain)} with git gc's commit-graph, {ms(filtered)} "
        f"with changed-path filters (computed for the whole history in {built:.1f} s); "
        f"git grep -i -l p50 {ms(grep)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--quality", action="store_true", help="labelled-set figures only")
    parser.add_argument("--fit", action="store_true", help="how the gates were fitted")
    parser.add_argument("--probe", action="store_true", help="signals tried and dropped")
    parser.add_argument("--corpora", action="store_true", help="the gates on other corpora")
    parser.add_argument("--hard", action="store_true", help="leave-one-out no-answer questions")
    parser.add_argument("--ceiling", action="store_true", help="the best any linear gate could do")
    parser.add_argument("--cli", action="store_true", help="the gitmem recall command only")
    parser.add_argument("--shortlist", action="store_true", help="semantic shortlist accuracy")
    parser.add_argument("--phases", action="store_true", help="the extra's per-process cost")
    parser.add_argument(
        "--history", type=int, default=0, help="recall after this many admissions (commits)"
    )
    parser.add_argument("--gc", action="store_true", help="index builds, collector running/paused")
    parser.add_argument(
        "--against", metavar="PYTHON", help="--cli: also time another install's gitmem, alternately"
    )
    args = parser.parse_args()
    if args.quality:
        quality()
        return
    if args.fit:
        fit()
        return
    if args.probe:
        probe()
        return
    if args.corpora:
        corpora()
        return
    if args.ceiling:
        ceiling()
        return
    if args.hard:
        hard()
        return
    if args.phases:
        phases()
        return
    if args.shortlist:
        for n in (int(s) for s in args.sizes.split(",")):
            shortlist(n)
        return
    if args.gc:
        for n in (int(s) for s in args.sizes.split(",")):
            collector(n)
        return
    with tempfile.TemporaryDirectory(prefix="gitmem-bench-", ignore_cleanup_errors=True) as tmp:
        for n in (int(s) for s in args.sizes.split(",")):
            if args.history:
                bench_history(n, Path(tmp), args.history)
            elif args.cli:
                bench_cli(n, Path(tmp), args.against)
            else:
                bench_size(n, Path(tmp))


if __name__ == "__main__":
    main()
