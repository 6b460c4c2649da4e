"""Front-matter bench: gitmem's quick readers beside the YAML library they stand in for.

    python bench/quickread.py                     # 20,000 generated entries (a push of 10,000
                                                 # admissions parses that many)

gitmem reads the front matter it writes itself (`key: plain text`, `key: [a, b]`) without
YAML, and hands anything else to PyYAML (gitmem.model.entry, gitmem.model.fields); property
tests hold the quick readers to the library's answers. This prints what that is worth, so the
readers stay only while it is a cost a user would feel:

- the front matter of every entry, read by the quick reader and by PyYAML (the C loader where
  libyaml is there), in process: entries/s, and the seconds a push of 10,000 admissions would
  spend on it either way;
- the `files:` of five entries, as a warm `gitmem recall` reads them (quick_fields), beside
  the same through PyYAML including the import of PyYAML and python-frontmatter, each in a
  fresh process (median of 9): what a warm recall would pay;
- the settings' schema check as every command makes it (gitmem.settings.load's quick
  checker, which asks jsonschema only when unsure) beside jsonschema_rs, import included,
  each in a fresh process (median of 9): what recall, list, show, index and the post-* hooks,
  which validate no entry, would pay.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from generate import Generator  # noqa: E402

from gitmem.model import entry as entry_mod  # noqa: E402
from gitmem.model import fields, yamltext  # noqa: E402

FIVE = """\
import sys
from gitmem.model import fields
texts = sys.stdin.read().split("\\0")
if sys.argv[1] == "quick":
    found = [fields.quick_fields(t, ("files",)) for t in texts]
else:
    from gitmem.model import yamltext
    found = [yamltext.read("\\n" + t[4 : fields.closing_line(t)]) for t in texts]
assert all(f is not None for f in found)
"""


SETTINGS = """\
import sys
from gitmem.settings import load
table = {"dir": ".gitmem", "project": "shop", "branch": "main", "maxBody": 2000}
if sys.argv[1] == "quick":
    assert load._failed_keys(table) == set()
else:
    import jsonschema_rs
    from gitmem.model.schema import load as schema
    assert jsonschema_rs.validator_for(schema("settings.schema.json")).is_valid(table)
"""


def fresh(script: str, ways: tuple[str, str], stdin: bytes = b"") -> tuple[float, float]:
    """The median whole-process time of script run each way, alternated, 9 times."""
    times: dict[str, list[float]] = {way: [] for way in ways}
    for _ in range(9):
        for way in ways:
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", script, way], input=stdin, check=True)
            times[way].append(time.perf_counter() - start)
    first, second = (statistics.median(times[w]) * 1000 for w in ways)
    return first, second


def front(text: str) -> str:
    return "\n" + text[4 : fields.closing_line(text)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entries", type=int, default=20_000)
    args = parser.parse_args()
    texts = [e.render() for e in Generator(seed=7).entries(args.entries)]
    blocks = [front(t) for t in texts]

    start = time.perf_counter()
    quick = [entry_mod._fast_front_matter(b) for b in blocks]
    quick_s = time.perf_counter() - start
    start = time.perf_counter()
    slow = [yamltext.read(b) for b in blocks]
    yaml_s = time.perf_counter() - start
    assert quick == slow, "the quick reader and PyYAML disagree: a property test should fail too"
    n = len(blocks)
    print(f"front matter of {n:,} entries, in process:")
    print(f"  quick reader: {quick_s:.2f} s ({n / quick_s:,.0f} entries/s)")
    print(f"  PyYAML ({'C' if 'CBaseLoader' in dir(yamltext.yaml) else 'Python'} loader): "
          f"{yaml_s:.2f} s ({n / yaml_s:,.0f} entries/s)")  # fmt: skip
    per_push = 20_000 / n
    print(
        f"  a push of 10,000 admissions (20,000 entries): {quick_s * per_push:.2f} s quick, "
        f"{yaml_s * per_push:.2f} s with PyYAML (+{(yaml_s - quick_s) * per_push:.2f} s)"
    )

    q, y = fresh(FIVE, ("quick", "yaml"), "\0".join(texts[:5]).encode())
    print(
        f"files of five entries, whole process (median of 9): quick {q:.0f} ms, "
        f"through PyYAML {y:.0f} ms (+{y - q:.0f} ms on every warm recall)"
    )

    q, r = fresh(SETTINGS, ("quick", "rs"))
    print(
        f"settings schema check, whole process (median of 9): quick checker {q:.0f} ms, "
        f"jsonschema_rs {r:.0f} ms (+{r - q:.0f} ms on every command that validates no entry)"
    )


if __name__ == "__main__":
    main()
