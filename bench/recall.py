"""Recall benchmark: index build, size, query latency, fresh-process recall against git grep.

    python bench/recall.py                      # sizes 1,000, 10,000 and 100,000
    python bench/recall.py --sizes 1000,10000   # quicker
    python bench/recall.py --quality            # hit@1, hit@5, no-match share on the labelled set

For each size it writes that many realistic entries as Markdown files (front matter and the
three sections, text recombined from the labelled corpus in tests/ plus a long tail of project
names and identifiers) into a temporary git repository, commits them, then prints:

- cold build: parsing the files into Docs, building the index, serialising it;
- the index size on disk, per 1,000 entries;
- in-process query p50/p95 over a fixed list of queries, index loaded (warm);
- a fresh process that loads the index file and answers one query (interpreter start included),
  beside `git grep -i -l` for the same query words in the same checkout;
- the update after one admission: load, add one entry, serialise, write.

Figures depend on the machine; the README quotes a run and says which.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from recall_corpus import corpus  # noqa: E402
from recall_queries import MATCHING, NO_MATCH  # noqa: E402

from gitmem.recall import DEFAULT_MIN_SCORE, Doc, Index, query_terms  # noqa: E402

TYPES = ("decision", "method", "code-structure", "mistake")
QUERIES = [q for q, _ in MATCHING[::3]] + NO_MATCH[::3]


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
    """A minimal reader for the files written above (the real one is gitmem.entry's)."""
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
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]


FRESH = """
import sys, time
start = time.perf_counter()
from gitmem.recall import Index
with open(sys.argv[1], "rb") as f:
    data = f.read()
index = Index.from_bytes(data, verify=sys.argv[3] == "1")
hits = index.search(sys.argv[2])
print(len(hits))
"""


# As installed packages are, the fresh process runs from cached bytecode.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def fresh_process(index_file: Path, query: str, verify: bool) -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", FRESH, str(index_file), query, "1" if verify else "0"],
        check=True,
        capture_output=True,
        env=ENV,
    )
    return time.perf_counter() - start


def git_grep(root: Path, query: str) -> float:
    words = [t for t, whole in query_terms(query) if not whole]
    raw = [w for w in query.split() if w.strip("?,.").lower() in words or len(w) > 3]
    args = ["git", "grep", "-i", "-l"]
    for w in raw[:8] or ["zzzz"]:
        args += ["-e", w.strip("?,.'\"")]
    start = time.perf_counter()
    subprocess.run(args, cwd=root, capture_output=True)
    return time.perf_counter() - start


def bench_size(n: int, work: Path) -> None:
    print(f"\n== {n:,} entries")
    gen = Generator(seed=n)
    root = work / f"store-{n}"
    root.mkdir()
    docs = [gen.doc(i) for i in range(n + 1)]
    extra = docs.pop()
    for d in docs:
        write_entry(root, d)
    git(root, "init", "-q")
    git(root, "add", ".")
    git(root, "-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-qm", "x")

    start = time.perf_counter()
    parsed = [read_entry(p, root) for p in sorted((root / ".gitmem").rglob("*.md"))]
    t_parse = time.perf_counter() - start
    start = time.perf_counter()
    index = Index.build(parsed)
    t_build = time.perf_counter() - start
    start = time.perf_counter()
    data = index.to_bytes()
    t_ser = time.perf_counter() - start
    index_file = work / f"recall-{n}.idx"
    index_file.write_bytes(data)
    print(
        f"cold build: {t_parse + t_build + t_ser:.2f} s "
        f"(parse files {t_parse:.2f} s, index {t_build:.2f} s, serialise {t_ser:.2f} s)"
    )
    print(f"index size: {len(data) / 1e6:.1f} MB, {len(data) / n * 1000 / 1e3:.0f} kB per 1,000")

    start = time.perf_counter()
    loaded = Index.from_bytes(data)
    t_load = time.perf_counter() - start
    start = time.perf_counter()
    Index.from_bytes(data, verify=False)
    t_load_nv = time.perf_counter() - start
    times = []
    for _ in range(3):
        for q in QUERIES:
            start = time.perf_counter()
            loaded.search(q)
            times.append(time.perf_counter() - start)
    print(
        f"load in-process: {t_load * 1000:.1f} ms verified, {t_load_nv * 1000:.2f} ms unverified; "
        f"warm query p50 {percentile(times, 0.5) * 1000:.1f} ms, "
        f"p95 {percentile(times, 0.95) * 1000:.1f} ms ({len(QUERIES)} queries x 3)"
    )

    sample = QUERIES[::4]
    fresh = [fresh_process(index_file, q, True) for q in sample]
    fresh_nv = [fresh_process(index_file, q, False) for q in sample]
    grep = [git_grep(root, q) for q in sample]
    baseline = [fresh_process(index_file, "", False) for _ in range(3)]
    print(
        f"fresh process recall p50: {statistics.median(fresh) * 1000:.0f} ms verified, "
        f"{statistics.median(fresh_nv) * 1000:.0f} ms unverified "
        f"(empty-query floor {statistics.median(baseline) * 1000:.0f} ms); "
        f"git grep -i -l p50: {statistics.median(grep) * 1000:.0f} ms; "
        f"ratio {statistics.median(fresh) / statistics.median(grep):.2f}"
    )

    updates = []
    for i in range(5):
        start = time.perf_counter()
        blob = index_file.read_bytes()
        idx = Index.from_bytes(blob, verify=False)
        idx.add(extra if i == 0 else gen.doc(n + 1 + i))
        out = idx.to_bytes()
        index_file.write_bytes(out)
        updates.append(time.perf_counter() - start)
    print(
        "update after one admission (read, add, serialise, write): "
        + ", ".join(f"{u * 1000:.0f}" for u in updates)
        + " ms"
    )


def quality() -> None:
    index = Index.build(corpus())
    print(
        f"labelled set: {len(corpus())} entries, {len(MATCHING)} questions, "
        f"{len(NO_MATCH)} no-match questions; default threshold {DEFAULT_MIN_SCORE}"
    )
    engines: list[tuple[str, object]] = [("keyword", index.search)]
    try:
        from gitmem import semantic
    except ImportError:
        semantic = None  # type: ignore[assignment]
    if semantic is not None and semantic.available():
        vectors = semantic.Vectors.build(corpus())
        engines.append(
            ("keyword+semantic", lambda q, **kw: semantic.search(index, vectors, q, **kw))
        )
    else:
        print("(semantic extra not installed: keyword figures only)")
    for name, search in engines:
        print(f"-- {name}")
        for t in (None, 0.25, 0.3, 0.35, 0.4, 0.45):
            hit1 = hit5 = 0
            for q, right in MATCHING:
                ids = [h.id for h in search(q, min_score=t)]  # type: ignore[operator]
                hit5 += any(i in right for i in ids)
                hit1 += bool(ids) and ids[0] in right
            empty = sum(not search(q, min_score=t) for q in NO_MATCH)  # type: ignore[operator]
            label = "default" if t is None else f"{t:.2f}"
            print(
                f"threshold {label:>7}: hit@1 {hit1 / len(MATCHING):.2f}  "
                f"hit@5 {hit5 / len(MATCHING):.2f}  "
                f"no-match empty {empty / len(NO_MATCH):.2f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--quality", action="store_true", help="labelled-set figures only")
    args = parser.parse_args()
    if args.quality:
        quality()
        return
    with tempfile.TemporaryDirectory(prefix="gitmem-bench-") as tmp:
        for n in (int(s) for s in args.sizes.split(",")):
            bench_size(n, Path(tmp))


if __name__ == "__main__":
    main()
