"""Site benchmark: `gitmem site` over a memory of 10,000 admitted entries.

    python bench/site.py                 # 10,000 entries
    python bench/site.py --count 2000    # quicker

The store is a real history, streamed through `git fast-import`: every entry arrives by its
own admit merge (a candidate commit as second parent, so 20,000 commits), one entry in fifty
supersedes an earlier one, a code commit changes a cited file every hundred admissions (so
entries go stale), and twenty candidate branches are pending. Prints the whole process's time
(median of 3; interpreter start included; target < 20 s) and its CPU time (the machine is
shared: when other work holds the cores, the wall time grows and the CPU time does not), the
in-process split (reading the
memory and its history, making the pages and the search index, writing the files), the size
of the site, and whether two runs wrote the same bytes.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from generate import PATHS, Generator  # noqa: E402

from gitmem.index import indexmd as index_mod  # noqa: E402
from gitmem.model import refused  # noqa: E402
from gitmem.model.entry import Entry  # noqa: E402

COMMITTER = b"committer bench <bench@example.com> %d +0000\n"


def _data(text: bytes) -> bytes:
    return b"data %d\n" % len(text) + text + b"\n"


def build_repo(path: Path, count: int) -> None:
    """A non-bare repository whose main has count admissions, each by its own merge."""
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    gen = Generator(seed=count)
    when = 1_700_000_000
    out = [b"commit refs/heads/main\nmark :1\n", COMMITTER % when, _data(b"start")]
    for code in PATHS:
        out += [b"M 100644 inline " + code.encode() + b"\n", _data(b"# code\n")]
    out += [b"M 100644 inline .gitmem.toml\n", _data(b'[memory]\nproject = "shop"\n')]
    out += [b"M 100644 inline .gitmem/refused.md\n"]
    rows = refused.HEADER + "".join(
        f"| refused-topic-{n} | not for this project | shop-method-20260101-refused-{n} "
        f"| 2026-01-01 | human:bob |\n"
        for n in range(50)
    )
    out += [_data(rows.encode())]
    main = 1
    mark = 2
    admitted: list[Entry] = []
    index_lines = []
    for n in range(count):
        when += 60
        entry = gen.entry(n, status="candidate")
        entry = entry.with_meta(id=f"{entry.id}-{n}")
        if n % 50 == 49 and admitted:
            entry = entry.with_meta(supersedes=[admitted[n - 40].id])
        cand = mark
        out += [b"commit refs/heads/bench-candidate\nmark :%d\n" % cand, COMMITTER % when]
        out += [_data(f"gitmem: propose {entry.id}".encode()), b"from :%d\n" % main]
        out += [f"M 100644 inline .gitmem/candidates/{entry.id}.md\n".encode()]
        out += [_data(entry.render().encode())]
        mark += 1
        final = entry.with_meta(status="admitted", admitted_by="human:bob", admitted=entry.created)
        out += [b"commit refs/heads/main\nmark :%d\n" % mark, COMMITTER % (when + 1)]
        out += [_data(f"gitmem: admit {entry.id}".encode())]
        out += [b"from :%d\nmerge :%d\n" % (main, cand)]
        out += [f"M 100644 inline .gitmem/entries/{final.type}/{final.id}.md\n".encode()]
        out += [_data(final.render().encode())]
        for old_id in final.supersedes:
            old = next(e for e in admitted if e.id == old_id)
            flipped = old.with_meta(status="superseded", superseded_by=final.id)
            out += [f"M 100644 inline .gitmem/entries/{old.type}/{old.id}.md\n".encode()]
            out += [_data(flipped.render().encode())]
        main = mark
        mark += 1
        admitted.append(final)
        index_lines.append(
            index_mod.IndexLine(
                final.id,
                final.type,
                index_mod.line_for(final.type, final.id, "admitted", final.title, ""),
            )
        )
        if n % 100 == 99:
            code = PATHS[(n // 100) % len(PATHS)]
            out += [b"commit refs/heads/main\nmark :%d\n" % mark, COMMITTER % (when + 2)]
            out += [_data(b"change code"), b"from :%d\n" % main]
            out += [f"M 100644 inline {code}\n".encode(), _data(f"# code {n}\n".encode())]
            main = mark
            mark += 1
    out += [b"commit refs/heads/main\nmark :%d\n" % mark, COMMITTER % (when + 3)]
    out += [_data(b"regenerate INDEX.md"), b"from :%d\n" % main]
    out += [b"M 100644 inline .gitmem/INDEX.md\n", _data(index_mod.render(index_lines).encode())]
    main = mark
    mark += 1
    for n in range(20):  # pending candidates
        entry = Generator(seed=777_000 + n).entry(n, status="candidate")
        entry = entry.with_meta(id=f"{entry.id}-pending-{n}")
        out += [f"commit refs/heads/gitmem/{entry.id}\n".encode(), COMMITTER % (when + 4)]
        out += [_data(f"gitmem: propose {entry.id}".encode()), b"from :%d\n" % main]
        out += [f"M 100644 inline .gitmem/candidates/{entry.id}.md\n".encode()]
        out += [_data(entry.render().encode())]
    subprocess.run(["git", "fast-import", "--quiet"], cwd=path, input=b"".join(out), check=True)
    subprocess.run(["git", "branch", "-q", "-D", "bench-candidate"], cwd=path, check=True)
    subprocess.run(["git", "reset", "-q", "--hard", "main"], cwd=path, check=True)
    subprocess.run(["git", "commit-graph", "write", "--reachable"], cwd=path, check=True)


def digest(folder: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            h.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "repo"
        start = time.perf_counter()
        build_repo(repo, args.count)
        print(f"store of {args.count:,} admissions built in {time.perf_counter() - start:.1f} s")
        times = []
        cpu = []
        digests = []
        for run in range(3):
            out = Path(tmp) / f"site-{run}"
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(
                ["gitmem", "site", "--out", str(out), "--web", "https://github.com/acme/shop"],
                cwd=repo,
                check=True,
                stdout=subprocess.DEVNULL,
            )
            times.append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
            digests.append(digest(out))
        size = sum(p.stat().st_size for p in (Path(tmp) / "site-0").rglob("*") if p.is_file())
        files = sum(1 for p in (Path(tmp) / "site-0").rglob("*") if p.is_file())
        print(
            f"gitmem site of {args.count:,} entries (whole process, median of 3): "
            f"{statistics.median(times):.2f} s (runs {', '.join(f'{t:.2f}' for t in times)}; "
            "target < 20 s)"
        )
        print(
            f"  CPU time of that process and its git children, median: "
            f"{statistics.median(cpu):.2f} s "
            "(what a machine with a core to itself would take, less the waits for git)"
        )
        print(
            f"  {files:,} files, {size / 1e6:.1f} MB; same bytes in every run: "
            f"{len(set(digests)) == 1}"
        )
        os.chdir(repo)
        from gitmem.repo.workspace import open_workspace
        from gitmem.site import build, collect

        start = time.perf_counter()
        memory = collect.collect(open_workspace(), web="https://github.com/acme/shop")
        read = time.perf_counter() - start
        start = time.perf_counter()
        pages = build.generate(memory)
        made = time.perf_counter() - start
        start = time.perf_counter()
        build.write(pages, Path(tmp) / "site-split")
        written = time.perf_counter() - start
        search_js = len(pages["search.js"])
        print(
            f"  in process: read the memory and its history {read:.2f} s, pages and search "
            f"index {made:.2f} s (search.js {search_js / 1e6:.1f} MB), write {written:.2f} s"
        )


if __name__ == "__main__":
    main()
