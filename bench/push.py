"""Push benchmark: the server-side history check, admission and indexing at store sizes.

    python bench/push.py                        # stores of 1,000 and 100,000 entries
    python bench/push.py --sizes 1000,10000     # quicker

Prints, each as a whole process (interpreter start included), median of several runs:

- pre-receive check of a push adding one candidate, at each store size (it must scale with
  the push, not with the store);
- `gitmem admit` of one candidate into the store, and `gitmem index` of the store
  (a checkout; at the largest size only);
- a push of 10,000 new admitted entries (10,000 admit merges and their candidate commits,
  packed as a received push leaves them): entries judged per second, median of 3 runs;
- a push of 10,000 new candidate branches at once: entries judged per second, median of 3;
- a push of 1,000 code-only commits, beside `git log --raw` reading the same commits.

Stores are built straight into the object database (bench/generate.py entries), so building
them takes seconds, not the time of 100,000 `git add`s.
"""

from __future__ import annotations

import argparse
import os
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
from gitmem.repo.store import BLOB, ZERO, Store  # noqa: E402

ENV = {
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
}


def run(cmd: list[str], cwd: Path, stdin: str | None = None) -> float:
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, input=stdin, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stdout}\n{done.stderr}")
    return elapsed


def median(cmd: list[str], cwd: Path, stdin: str | None = None, runs: int = 5) -> float:
    return statistics.median(run(cmd, cwd, stdin) for _ in range(runs))


def judged_per_second(what: str, count: int, repo: Path, stdin: str) -> None:
    """Print the pre-receive check of a push of count entries: the median of 3 runs, its
    rate, and each run (this machine's timings move by a third from minute to minute)."""
    times = sorted(run(["gitmem", "check", "--pre-receive"], repo, stdin) for _ in range(3))
    print(
        f"a push of {what}, median of 3: {times[1]:.2f} s, {count / times[1]:,.0f} entries/s "
        f"(runs {', '.join(f'{t:.2f}' for t in times)} s)"
    )


def build_store(path: Path, count: int) -> tuple[Store, str]:
    """A bare repository whose main holds count admitted entries, INDEX.md and refused.md,
    streamed through `git fast-import` (one pack, seconds even at 100,000 entries)."""
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(path)], check=True)
    files: dict[str, bytes] = {code: b"# code\n" for code in PATHS}
    lines = []
    for entry in Generator(seed=count).entries(count):
        files[f".gitmem/entries/{entry.type}/{entry.id}.md"] = entry.render().encode()
        lines.append(
            index_mod.IndexLine(
                entry.id,
                entry.type,
                index_mod.line_for(entry.type, entry.id, entry.status, entry.title, ""),
            )
        )
    files[".gitmem/INDEX.md"] = index_mod.render(lines).encode()
    files[".gitmem/refused.md"] = refused.HEADER.encode()
    files[".gitmem.toml"] = b'[memory]\nproject = "shop"\n'
    chunks = [
        b"commit refs/heads/main\ncommitter bench <bench@example.com> 0 +0000\n",
        b"data 5\nstore\n",
    ]
    for name, data in files.items():
        chunks.append(b"M 100644 inline " + name.encode() + b"\n")
        chunks.append(b"data %d\n" % len(data) + data + b"\n")
    subprocess.run(["git", "fast-import", "--quiet"], cwd=path, input=b"".join(chunks), check=True)
    os.sync()  # the timings below should not pay for writing the new store to disk
    store = Store.open(path)
    tip = store.branch_tip("main")
    assert tip
    return store, tip


def candidate_commit(store: Store, main: str, n: int) -> tuple[str, str]:
    entry = Generator(seed=999_000 + n).entry(n, status="candidate")
    entry = entry.with_meta(id=f"shop-{entry.type}-{entry.created.replace('-', '')}-bench-{n}")
    path = f".gitmem/candidates/{entry.id}.md"
    tree = store.build_tree(
        store.tree_of(main), {path: (store.write_blob(entry.render().encode()), BLOB)}
    )
    return entry.id, store.write_commit(tree, [main], f"gitmem: propose {entry.id}")


def bench_candidate_push(sizes: list[int], tmp: Path) -> None:
    print("pre-receive check of a push adding one candidate (whole process, median of 5):")
    for size in sizes:
        repo = tmp / f"store-{size}.git"
        start = time.perf_counter()
        store, main = build_store(repo, size)
        built = time.perf_counter() - start
        entry_id, commit = candidate_commit(store, main, 1)
        stdin = f"{ZERO} {commit} refs/heads/gitmem/{entry_id}\n"
        elapsed = median(["gitmem", "check", "--pre-receive"], repo, stdin)
        print(f"  {size:>7,} entries: {elapsed * 1000:6.0f} ms   (store built in {built:.1f} s)")


def bench_admit_and_index(size: int, tmp: Path) -> None:
    repo = tmp / f"store-{size}.git"
    if not repo.exists():
        build_store(repo, size)
    store = Store.open(repo)
    main = store.branch_tip("main")
    assert main
    times = []
    for n in range(3):
        entry_id, commit = candidate_commit(store, store.branch_tip("main") or main, 10 + n)
        store.update_ref(f"refs/heads/gitmem/{entry_id}", commit, None, "bench")
        times.append(run(["gitmem", "admit", entry_id, "--by", "human:bench"], repo))
    print(
        f"gitmem admit into {size:,} entries (whole process, median of 3): "
        f"{statistics.median(times) * 1000:.0f} ms"
    )
    checkout = tmp / f"checkout-{size}"
    subprocess.run(["git", "clone", "-q", str(repo), str(checkout)], check=True)
    (checkout / ".gitmem/INDEX.md").unlink()
    elapsed = run(["gitmem", "index"], checkout)
    print(f"gitmem index of {size:,} entries (regenerated from the checkout): {elapsed:.2f} s")
    elapsed = median(["gitmem", "index", "--check"], checkout, runs=3)
    print(f"gitmem index --check of {size:,} entries: {elapsed:.2f} s")


def bench_many_admissions(count: int, tmp: Path) -> None:
    repo = tmp / "admissions.git"
    store, base = build_store(repo, 100)
    main = base
    gen = Generator(seed=4242)
    lines = (
        index_mod.parse_index(
            (store.read_path(store.tree_of(base), ".gitmem/INDEX.md") or b"").decode()
        )
        or {}
    )
    for n in range(count):
        entry = gen.entry(n, status="candidate")
        entry = entry.with_meta(id=f"{entry.id}-{n}")
        cand_path = f".gitmem/candidates/{entry.id}.md"
        cand_tree = store.build_tree(
            store.tree_of(main), {cand_path: (store.write_blob(entry.render().encode()), BLOB)}
        )
        cand = store.write_commit(cand_tree, [main], f"gitmem: propose {entry.id}")
        admitted = entry.with_meta(
            status="admitted", admitted_by="human:bench", admitted=entry.created
        )
        path = f".gitmem/entries/{entry.type}/{entry.id}.md"
        tree = store.build_tree(
            store.tree_of(main), {path: (store.write_blob(admitted.render().encode()), BLOB)}
        )
        main = store.write_commit(tree, [main, cand], f"gitmem: admit {entry.id}\n")
        lines[entry.id] = index_mod.IndexLine(
            entry.id,
            entry.type,
            index_mod.line_for(entry.type, entry.id, "admitted", entry.title, ""),
        )
    index_blob = store.write_blob(index_mod.render(lines.values()).encode())
    tree = store.build_tree(store.tree_of(main), {".gitmem/INDEX.md": (index_blob, BLOB)})
    main = store.write_commit(tree, [main], "regenerate INDEX.md")
    # A push arrives as a pack, whose deltas (chains up to 50 deep of the growing type
    # folders) are what reading it costs; pack the new objects as git would.
    subprocess.run(["git", "update-ref", "refs/bench/pushed", main], cwd=repo, check=True)
    subprocess.run(["git", "repack", "-adq"], cwd=repo, check=True)
    os.sync()
    subprocess.run(["git", "update-ref", "-d", "refs/bench/pushed"], cwd=repo, check=True)
    stdin = f"{base} {main} refs/heads/main\n"
    what = f"{count:,} new admitted entries ({2 * count:,} commits)"
    judged_per_second(what, count, repo, stdin)


def bench_many_candidates(count: int, tmp: Path) -> None:
    """A push of count candidate branches at once (as `gitmem import` and then `git push
    --all` would make), each one commit adding its candidate, to a store of 1,000 entries."""
    repo = tmp / "candidates.git"
    store, main = build_store(repo, 1000)
    lines = []
    for n in range(count):
        entry_id, commit = candidate_commit(store, main, 20_000 + n)
        lines.append(f"{ZERO} {commit} refs/heads/gitmem/{entry_id}\n")
    subprocess.run(["git", "repack", "-adq"], cwd=repo, check=True)
    os.sync()
    judged_per_second(f"{count:,} new candidate branches", count, repo, "".join(lines))


def bench_code_only(count: int, tmp: Path) -> None:
    repo = tmp / "code.git"
    store, base = build_store(repo, 1000)
    main = base
    for n in range(count):
        tree = store.build_tree(
            store.tree_of(main),
            {f"src/module_{n % 50}.py": (store.write_blob(f"value = {n}\n".encode()), BLOB)},
        )
        main = store.write_commit(tree, [main], f"code {n}")
    stdin = f"{base} {main} refs/heads/main\n"
    ours = median(["gitmem", "check", "--pre-receive"], repo, stdin, runs=3)
    reading = median(["git", "log", "--raw", "--format=%H %P", f"{base}..{main}"], repo, runs=3)
    startup = median(["gitmem", "--version"], repo, runs=3)
    print(
        f"a push of {count:,} code-only commits: {ours * 1000:.0f} ms; `git log --raw` of the "
        f"same commits: {reading * 1000:.0f} ms; gitmem's own start: {startup * 1000:.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000,100000")
    parser.add_argument("--admissions", type=int, default=10_000)
    parser.add_argument("--code-commits", type=int, default=1_000)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    os.environ.update(ENV)
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        bench_candidate_push(sizes, tmp)
        bench_admit_and_index(max(sizes), tmp)
        bench_many_admissions(args.admissions, tmp)
        bench_many_candidates(args.admissions, tmp)
        bench_code_only(args.code_commits, tmp)


if __name__ == "__main__":
    main()
