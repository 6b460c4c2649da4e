"""Check benchmark: gitmem's validator and secret scanner against detect-secrets.

    python bench/check.py                 # 10,000 entries
    python bench/check.py --entries 2000  # quicker
    python bench/check.py --quality       # the scanner's recall and false alarms only
    python bench/check.py --scanner-only  # the scanner's throughput alone (run it a few
                                          # times on a shared machine and keep the best)

Prints, for a generated store of realistic entries (bench/generate.py):

- the scanner alone (gitmem.gate.secrets over every file's text): MB/s and entries/s;
- the whole validator (`gitmem check` of the memory folder, in process): entries/s, MB/s;
- the same as a whole process (`gitmem check`, interpreter start included);
- detect-secrets scanning the same files in the same run (`detect-secrets scan --all-files`,
  installed in this bench's own virtual environment, bench/.venv-detect-secrets), and the
  ratio;
- the no-op path: `gitmem check --staged` as a whole process in a repository whose staged
  change touches no memory file (median of 20 runs).

With --quality, instead: the secret scanner over the labelled set of tests/secret_corpus.py,
in its two fixed splits (`tune`, which the rules were adjusted against, and `held-out`, other
templates and seeds not looked at while tuning): the share of secrets found per placement
(bare in prose, assigned, in a command, encoded) and per family of providers, the share found
by the format's own rule, and the false-alarm rate on each kind of look-alike.

Figures depend on the machine; the README quotes one run and says how it was made.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from generate import write_store  # noqa: E402

DETECT_VENV = BENCH / ".venv-detect-secrets"
ROOT = BENCH.parent


def detect_secrets() -> Path:
    """detect-secrets in the bench's own environment (never a dependency of gitmem)."""
    exe = DETECT_VENV / "bin" / "detect-secrets"
    if not exe.exists():
        subprocess.run([sys.executable, "-m", "venv", str(DETECT_VENV)], check=True)
        subprocess.run(
            [str(DETECT_VENV / "bin" / "pip"), "install", "-q", "detect-secrets"], check=True
        )
    return exe


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def timed(fn: object) -> float:
    start = time.perf_counter()
    fn()  # type: ignore[operator]
    return time.perf_counter() - start


def quality(verbose: bool, shown: str | None) -> None:
    """Recall and false alarms of the secret scanner on the labelled set, per split; with
    `verbose`, what was missed and what raised a false alarm, of split `shown` only (the
    held-out split's figures are a check: reading its misses would tune the rules to it)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from collections import Counter, defaultdict

    from secret_corpus import PLACEMENTS, SPLITS, TUNE, corpus

    from gitmem.gate import secrets

    families = secrets.rule_families()
    print(
        "secret scanner on the labelled set (tests/secret_corpus.py); the rules were tuned on "
        f"the `{TUNE}` split, the `held-out` split was not looked at while tuning"
    )
    for split in SPLITS:
        samples = corpus(split)
        found: Counter[str] = Counter()
        own: Counter[str] = Counter()
        total: Counter[str] = Counter()
        fam_found: Counter[str] = Counter()
        fam_total: Counter[str] = Counter()
        alarms: Counter[str] = Counter()
        looked: Counter[str] = Counter()
        missed: dict[str, list[str]] = defaultdict(list)
        false_alarms: list[tuple[str, str]] = []
        for sample in samples:
            rules = {f.rule for f in secrets.scan_text(sample.text)}
            if sample.positive:
                family = families.get(sample.rule, "generic")
                total[sample.kind] += 1
                fam_total[family] += 1
                if rules:
                    found[sample.kind] += 1
                    fam_found[family] += 1
                    own[sample.kind] += sample.rule in rules
                else:
                    missed[sample.kind].append(sample.text)
            else:
                looked[sample.kind] += 1
                alarms[sample.kind] += bool(rules)
                if rules:
                    false_alarms.append((sample.kind, sample.text))
        positives = sum(total.values())
        negatives = sum(looked.values())
        print(f"\n{split}: {positives:,} secrets, {negatives:,} look-alikes")
        for placement in PLACEMENTS:
            n = total[placement]
            print(
                f"  found {placement:<9} {found[placement] / n:7.1%}  ({found[placement]:,}/{n:,};"
                f" by the format's own rule {own[placement] / n:.1%})"
            )
        print(f"  found, all         {sum(found.values()) / positives:7.1%}")
        fams = ", ".join(
            f"{f} {fam_found[f] / fam_total[f]:.1%}" for f in sorted(fam_total, key=str)
        )
        print(f"  by family: {fams}")
        print(
            f"  false alarms       {sum(alarms.values()) / negatives:7.1%}  "
            f"({sum(alarms.values())}/{negatives}: "
            + ", ".join(f"{k} {alarms[k]}/{looked[k]}" for k in sorted(looked))
            + ")"
        )
        if verbose and split == shown:
            for placement, texts in missed.items():
                for text in texts[:20]:
                    print(f"    missed {placement}: {text[:140]!r}")
            for kind, text in false_alarms[:20]:
                print(f"    false alarm {kind}: {text[:140]!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--skip-detect-secrets", action="store_true")
    parser.add_argument("--quality", action="store_true", help="labelled-set figures only")
    parser.add_argument(
        "-v",
        action="store_true",
        help="with --quality: list the misses and false alarms of the split --split names",
    )
    parser.add_argument(
        "--split", default="tune", help="with -v: the split whose misses are listed (tune)"
    )
    parser.add_argument(
        "--scanner-only", action="store_true", help="the scanner's throughput alone, no process"
    )
    args = parser.parse_args()
    if args.quality:
        quality(args.v, args.split)
        return

    from gitmem.gate import secrets
    from gitmem.gate.check import check_worktree
    from gitmem.repo.workspace import open_workspace

    env = {
        **os.environ,
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_AUTHOR_NAME": "b",
        "GIT_AUTHOR_EMAIL": "b@x",
        "GIT_COMMITTER_NAME": "b",
        "GIT_COMMITTER_EMAIL": "b@x",
    }
    os.environ.update(env)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "store"
        root.mkdir()
        git(root, "init", "-q", "-b", "main")
        files = write_store(root, args.entries)
        texts = [f.read_text(encoding="utf-8") for f in files]
        megabytes = sum(len(t.encode()) for t in texts) / 1e6
        print(f"store: {len(files):,} entries, {megabytes:.1f} MB")

        secrets.scan_text("warm up")
        scan = timed(lambda: [secrets.scan_text(t) for t in texts])
        print(
            f"scanner alone:        {megabytes / scan:8.1f} MB/s  {len(texts) / scan:10,.0f} "
            f"entries/s  ({scan:.2f} s)"
        )
        if args.scanner_only:
            return

        os.chdir(root)
        ws = open_workspace(root)
        report = None

        def run_check() -> None:
            nonlocal report
            report = check_worktree(ws, [])

        whole = timed(run_check)
        assert report is not None and report.ok, report.problems[:3] if report else None
        print(
            f"gitmem check (in process): {len(files) / whole:8,.0f} entries/s  "
            f"{megabytes / whole:6.1f} MB/s  ({whole:.2f} s)"
        )
        # the console script beside this interpreter (its environment need not be activated)
        gitmem = shutil.which("gitmem", path=str(Path(sys.executable).parent)) or "gitmem"
        proc = timed(lambda: subprocess.run([gitmem, "check"], check=True, capture_output=True))
        print(f"gitmem check (process):   {proc:.2f} s for {len(files):,} entries")

        if not args.skip_detect_secrets:
            exe = detect_secrets()
            ds = timed(
                lambda: subprocess.run(
                    [str(exe), "scan", "--all-files", ".gitmem"], check=True, capture_output=True
                )
            )
            print(
                f"detect-secrets scan:       {ds:.2f} s  ({megabytes / ds:.2f} MB/s, "
                f"{len(files) / ds:,.0f} entries/s)"
            )
            print(
                f"gitmem check vs detect-secrets, whole process: {ds / proc:.2f}x faster; "
                f"scanner alone vs detect-secrets: {ds / scan:.1f}x"
            )

        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", "store")
        (root / "code.py").write_text("print('hello')\n")
        git(root, "add", "code.py")
        runs = []
        for _ in range(20):
            runs.append(
                timed(
                    lambda: subprocess.run(
                        [gitmem, "check", "--staged"], check=True, capture_output=True
                    )
                )
            )
        print(
            f"no-op pre-commit (`gitmem check --staged`, code-only change), whole process: "
            f"median {statistics.median(runs) * 1000:.0f} ms, min {min(runs) * 1000:.0f} ms"
        )


if __name__ == "__main__":
    main()
