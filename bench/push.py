"""Push benchmark: the server-side history check, admission and indexing at store sizes.

    python bench/push.py                        # stores of 1,000 and 100,000 entries
    python bench/push.py --sizes 1000,10000     # quicker
    python bench/push.py --admit                # only gitmem admit and gitmem index

Prints, each as a whole process (interpreter start included), median of several runs:

- pre-receive check of a push adding one candidate, at each store size (it must scale with
  the push, not with the store);
- `gitmem admit` of one candidate into the store, and `gitmem index` of the store
  (a checkout; at the largest size only); then `gitmem admit` in that checkout, with main
  checked out, so that the working tree and git's index follow the admission;
- a push of 10,000 new admitted entries (10,000 admit merges and their candidate commits,
  packed as a received push leaves them): entries judged per second, median of 3 runs;
- a push of 10,000 new candidate branches at once: entries judged per second, median of 3;
- a push of 1,000 code-only commits, beside `git log --raw` reading the same commits;
- the server hook's overhead on a real `git push` of one candidate into a 100,000-entry store:
  the push to a remote with the hook minus the same push to a twin remote without it, each a
  median of 5 (`--overhead`);
- a push of 2,000 commits that each append one refusal to refused.md (`--refusals`).

Every commit of main's first-parent chain must carry an INDEX.md that matches its tree (the
invariant, gitmem.gate.history), so the admissions of the push of many admissions each write
their own INDEX.md, through `git fast-import` (which stores each version as a delta).

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


COMMITTER = b"committer bench <bench@example.com> 0 +0000\n"


def data(payload: bytes) -> bytes:
    """A `git fast-import` data command."""
    return b"data %d\n" % len(payload) + payload + b"\n"


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
    # the server's policy, as `gitmem hooks install --server` would write it
    settings = (
        ("gitmem.branch", "main"),
        ("gitmem.dir", ".gitmem"),
        ("receive.fsckObjects", "true"),
    )
    for key, value in settings:
        subprocess.run(["git", "config", key, value], cwd=path, check=True)
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
    subprocess.run(["git", "checkout", "-q", "--", ".gitmem/INDEX.md"], cwd=checkout, check=True)
    local = Store.open(checkout)
    times = []
    for n in range(3):
        tip = local.branch_tip("main")
        assert tip
        entry_id, commit = candidate_commit(local, tip, 20 + n)
        local.update_ref(f"refs/heads/gitmem/{entry_id}", commit, None, "bench")
        times.append(run(["gitmem", "admit", entry_id, "--by", "human:bench"], checkout))
    print(
        f"gitmem admit in a checkout of main, {size:,} entries (whole process, median of 3; "
        f"the working tree and git's index follow): {statistics.median(times) * 1000:.0f} ms"
    )


def bench_many_admissions(count: int, tmp: Path) -> None:
    """A push of count admissions (an admit merge and its candidate commit each, every merge
    with its own INDEX.md), into a store of 100 entries, packed as a received push is."""
    repo = tmp / "admissions.git"
    store, base = build_store(repo, 100)
    gen = Generator(seed=4242)
    lines = (
        index_mod.parse_index(
            (store.read_path(store.tree_of(base), ".gitmem/INDEX.md") or b"").decode()
        )
        or {}
    )
    # streamed to git fast-import as made: the INDEX.md versions alone are gigabytes
    importer = subprocess.Popen(["git", "fast-import", "--quiet"], cwd=repo, stdin=subprocess.PIPE)
    assert importer.stdin is not None
    chunks = [b"reset refs/bench/pushed\nfrom %s\n" % base.encode()]
    for n in range(count):
        entry = gen.entry(n, status="candidate")
        entry = entry.with_meta(id=f"{entry.id}-{n}")
        cand_path = f".gitmem/candidates/{entry.id}.md".encode()
        admitted = entry.with_meta(
            status="admitted", admitted_by="human:bench", admitted=entry.created
        )
        lines[entry.id] = index_mod.IndexLine(
            entry.id,
            entry.type,
            index_mod.line_for(entry.type, entry.id, "admitted", entry.title, ""),
        )
        # the candidate: main's tip plus its file, on a branch of its own
        chunks += [b"commit refs/bench/candidate\n", b"mark :%d\n" % (2 * n + 1), COMMITTER]
        chunks += [data(f"gitmem: propose {entry.id}".encode())]
        tip = b":%d" % (2 * n) if n else base.encode()  # main as the last admission left it
        chunks += [b"from " + tip + b"\n", b"M 100644 inline " + cand_path + b"\n"]
        chunks += [data(entry.render().encode())]
        # its admission: main plus the entry and INDEX.md, second parent the candidate
        chunks += [b"commit refs/bench/pushed\n", b"mark :%d\n" % (2 * n + 2), COMMITTER]
        chunks += [data(f"gitmem: admit {entry.id}\n".encode())]
        chunks += [b"merge :%d\n" % (2 * n + 1)]
        path = f".gitmem/entries/{entry.type}/{entry.id}.md".encode()
        chunks += [b"M 100644 inline " + path + b"\n", data(admitted.render().encode())]
        chunks += [b"M 100644 inline .gitmem/INDEX.md\n"]
        chunks += [data(index_mod.render(lines.values()).encode())]
        importer.stdin.write(b"".join(chunks))
        chunks = []
    importer.stdin.close()
    if importer.wait() != 0:
        raise SystemExit("git fast-import failed")
    main = store.resolve("refs/bench/pushed")
    assert main
    # A push arrives as a pack, whose deltas (chains up to 50 deep of the growing type
    # folders) are what reading it costs; pack the new objects as git would.
    subprocess.run(["git", "repack", "-adq"], cwd=repo, check=True)
    os.sync()
    for ref in ("refs/bench/pushed", "refs/bench/candidate"):
        subprocess.run(["git", "update-ref", "-d", ref], cwd=repo, check=True)
    stdin = f"{base} {main} refs/heads/main\n"
    what = f"{count:,} new admitted entries ({2 * count:,} commits)"
    judged_per_second(what, count, repo, stdin)


def bench_refusals(count: int, tmp: Path) -> None:
    """A push of count commits that each append one refusal to refused.md (1,000 entries)."""
    repo = tmp / "refusals.git"
    store, base = build_store(repo, 1000)
    text = (store.read_path(store.tree_of(base), ".gitmem/refused.md") or b"").decode()
    chunks = [b"reset refs/bench/pushed\nfrom %s\n" % base.encode()]
    for n in range(count):
        row = refused.Refusal(
            f"bench-topic-{n}", f"refused in round {n}", f"shop-x-{n}", "2026-12-01", "b", 0
        )
        text = refused.append(text, row)
        chunks += [b"commit refs/bench/pushed\n", COMMITTER]
        chunks += [data(f"gitmem: refuse shop-x-{n}\n".encode())]
        chunks += [b"M 100644 inline .gitmem/refused.md\n", data(text.encode())]
    subprocess.run(["git", "fast-import", "--quiet"], cwd=repo, input=b"".join(chunks), check=True)
    main = store.resolve("refs/bench/pushed")
    assert main
    subprocess.run(["git", "repack", "-adq"], cwd=repo, check=True)
    os.sync()
    subprocess.run(["git", "update-ref", "-d", "refs/bench/pushed"], cwd=repo, check=True)
    stdin = f"{base} {main} refs/heads/main\n"
    times = sorted(run(["gitmem", "check", "--pre-receive"], repo, stdin) for _ in range(3))
    print(
        f"a push of {count:,} commits each appending to refused.md, median of 3: "
        f"{times[1]:.2f} s (runs {', '.join(f'{t:.2f}' for t in times)} s)"
    )


def bench_push_overhead(size: int, tmp: Path) -> None:
    """What the server's hook adds to a real `git push` of one candidate into a store of
    size entries: the same push to a twin remote without the hook is the yardstick."""
    from gitmem.hooks import installer

    hooked = tmp / f"hooked-{size}.git"
    build_store(hooked, size)
    twin = tmp / f"twin-{size}.git"
    subprocess.run(["cp", "-a", str(hooked), str(twin)], check=True)
    installer.install(hooked, server=True)
    client = tmp / f"client-{size}.git"
    subprocess.run(
        ["git", "clone", "-q", "--bare", "--shared", str(hooked), str(client)], check=True
    )
    store = Store.open(client)
    main = store.branch_tip("main")
    assert main
    timings: dict[Path, list[tuple[float, float]]] = {hooked: [], twin: []}
    for n in range(5):
        entry_id, commit = candidate_commit(store, main, 500 + n)
        ref = f"refs/heads/gitmem/{entry_id}"
        for remote in (twin, hooked):  # one after the other, so both see the same machine
            timings[remote].append(
                wall_and_cpu(["git", "push", "-q", str(remote), f"{commit}:{ref}"], client)
            )
            subprocess.run(["git", "update-ref", "-d", ref], cwd=remote, check=True)

    def medians(remote: Path) -> tuple[float, float]:
        walls, cpus = zip(*timings[remote], strict=True)
        return statistics.median(walls), statistics.median(cpus)

    (with_hook, with_cpu), (without, without_cpu) = medians(hooked), medians(twin)
    print(
        f"git push of one candidate into {size:,} entries, median of 5: {with_hook * 1000:.0f} ms "
        f"with the hook, {without * 1000:.0f} ms to a twin without it: the hook adds "
        f"{(with_hook - without) * 1000:.0f} ms wall, {(with_cpu - without_cpu) * 1000:.0f} ms "
        f"CPU (the push and every process it ran; load average {os.getloadavg()[0]:.1f})"
    )


def wall_and_cpu(cmd: list[str], cwd: Path) -> tuple[float, float]:
    """A command's wall time and the CPU time of it and every process it ran (the hook)."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = run(cmd, cwd)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


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
    parser.add_argument("--refusal-commits", type=int, default=2_000)
    parser.add_argument("--overhead", action="store_true", help="only the push overhead")
    parser.add_argument("--refusals", action="store_true", help="only the refused.md push")
    parser.add_argument(
        "--admit", action="store_true", help="only gitmem admit and gitmem index, largest size"
    )
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    os.environ.update(ENV)
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        if args.overhead or args.refusals or args.admit:
            if args.admit:
                bench_admit_and_index(max(sizes), tmp)
            if args.overhead:
                bench_push_overhead(max(sizes), tmp)
            if args.refusals:
                bench_refusals(args.refusal_commits, tmp)
            return
        bench_push_overhead(max(sizes), tmp)
        bench_refusals(args.refusal_commits, tmp)
        bench_candidate_push(sizes, tmp)
        bench_admit_and_index(max(sizes), tmp)
        bench_many_admissions(args.admissions, tmp)
        bench_many_candidates(args.admissions, tmp)
        bench_code_only(args.code_commits, tmp)


if __name__ == "__main__":
    main()
