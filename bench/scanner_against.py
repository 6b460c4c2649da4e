"""The secret scanner's throughput: this checkout against an earlier revision, in one run.

    python bench/scanner_against.py eb7ef6d             # 10,000 entries, six rounds
    python bench/scanner_against.py HEAD~5 --rounds 10

A throughput figure taken in one session and compared with one from another session says
more about the machine's load on each day than about the code: the README's scanner figure
moved from 35.6 to 22.8 MB/s between two sessions whose code differed by a few percent. This
script compares like with like. It writes the revision's `gitmem` package (``git archive``)
into a temporary folder, generates one store of realistic entries (bench/generate.py), and
then, round after round, runs the scanner of each side over the same texts in a fresh
process, the two sides alternating so that the machine's load falls on both alike. Each
process reports the CPU time (not the wall time, which other processes inflate) of its best
of three passes; the script prints every round and each side's median, and the ratio.

Both sides run in this interpreter with its installed dependencies; a revision whose
scanner needs a dependency this environment lacks cannot be compared this way.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from generate import write_store  # noqa: E402

ROOT = BENCH.parent

# Run in each side's process: the scanner over the texts, best of three passes, in CPU time.
_PASS = """
import json, sys, time
import gitmem
from gitmem.gate import secrets
assert gitmem.__file__.startswith(sys.argv[2]), gitmem.__file__
texts = json.loads(open(sys.argv[1], encoding="utf-8").read())
secrets.scan_text("warm up")
best = float("inf")
for _ in range(3):
    start = time.process_time()
    for text in texts:
        secrets.scan_text(text)
    best = min(best, time.process_time() - start)
print(best)
"""


def archive(revision: str, into: Path) -> None:
    """The revision's gitmem package, unpacked under `into`."""
    tar = subprocess.run(
        ["git", "archive", "--format=tar", revision, "gitmem"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout
    into.mkdir(parents=True)
    archived = into / "gitmem.tar"
    archived.write_bytes(tar)
    with tarfile.open(archived) as bundle:
        bundle.extractall(into, filter="data")
    archived.unlink()


def seconds(package_root: Path, texts_file: Path) -> float:
    """One fresh process's best CPU time over the texts, scanning with `package_root`'s gitmem."""
    env = {**os.environ, "PYTHONPATH": str(package_root)}
    out = subprocess.run(
        [sys.executable, "-c", _PASS, str(texts_file), str(package_root)],
        env=env,
        cwd=package_root,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return float(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("revision", help="the earlier revision to compare with (any git rev)")
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        store = work / "store"
        store.mkdir()
        texts = [f.read_text(encoding="utf-8") for f in write_store(store, args.entries)]
        megabytes = sum(len(t.encode()) for t in texts) / 1e6
        texts_file = work / "texts.json"
        texts_file.write_text(json.dumps(texts), encoding="utf-8")
        # This checkout's side is its working tree, uncommitted edits included.
        sides = {"this checkout": ROOT, args.revision: work / "earlier"}
        archive(args.revision, sides[args.revision])
        print(f"store: {len(texts):,} entries, {megabytes:.1f} MB; {args.rounds} rounds")
        taken: dict[str, list[float]] = {name: [] for name in sides}
        for round_ in range(1, args.rounds + 1):
            row = []
            for name, package_root in sides.items():
                rate = megabytes / seconds(package_root, texts_file)
                taken[name].append(rate)
                row.append(f"{name} {rate:6.1f} MB/s")
            print(f"round {round_}: " + "   ".join(row))
        medians = {name: statistics.median(rates) for name, rates in taken.items()}
        for name, median in medians.items():
            print(f"median, {name}: {median:6.1f} MB/s")
        this, earlier = medians.values()
        print(f"this checkout / {args.revision}: {this / earlier:.2f}")


if __name__ == "__main__":
    main()
