"""The secret scanner on prose nobody on the project wrote: how many texts raise a finding.

    python bench/prose.py            # counts per source
    python bench/prose.py --list     # and every finding, to classify by hand

A finding refuses an entry, so one on prose that holds no secret is a false alarm. Sources:

- the decision records of other teams that the recall development set and the ADR corpus
  hold (tests/data/recall-dev/corpus.json, tests/data/recall/adr-entries.json), every string
  field of a record joined into one text;
- the comments and docstrings of this interpreter's standard library, each comment block and
  each docstring a text (read with tokenize), every distinct text once;
- the documentation a Debian system installs (READMEs, NEWS, changelogs, copyright files of
  each package), when the machine has it, split in two by the parity of the first byte of the
  SHA-256 of the package's name (`tune`, looked at while fixing; `report`, not).

The counts are findings; whether each is a false alarm (no secret in any shape), an example
value in a secret's shape, or a file name the file-name rule reports by design is decided by
reading the --list output: the README says how the last classification came out.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import json
import sysconfig
import tokenize
from collections.abc import Iterator
from pathlib import Path

from gitmem.gate.secrets import scan_text

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
DEBIAN_DOCS = Path("/usr/share/doc")
#: Bytes read of one documentation file: changelogs run to megabytes; their heads suffice.
DOC_LIMIT = 200_000


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def records() -> list[str]:
    texts = []
    for path in (DATA / "recall-dev" / "corpus.json", DATA / "recall" / "adr-entries.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        items = (
            data
            if isinstance(data, list)
            else next(v for v in data.values() if isinstance(v, list))
        )
        texts += ["\n".join(_strings(item)) for item in items]
    return texts


def stdlib() -> list[str]:
    """Each comment block and docstring of the standard library's modules, once."""
    seen: dict[str, None] = {}
    for path in sorted(Path(sysconfig.get_paths()["stdlib"]).rglob("*.py")):
        if "site-packages" in path.parts:
            continue
        try:
            tokens = list(tokenize.tokenize(io.BytesIO(path.read_bytes()).readline))
        except (SyntaxError, tokenize.TokenError, UnicodeDecodeError, OSError):
            continue
        block: list[str] = []
        previous = tokenize.NEWLINE
        for token in tokens:
            if token.type == tokenize.COMMENT:
                block.append(token.string.lstrip("#").strip())
                continue
            if block and token.type not in (tokenize.NL, tokenize.NEWLINE):
                seen.setdefault("\n".join(block))
                block = []
            if token.type == tokenize.STRING and previous in (tokenize.INDENT, tokenize.NEWLINE):
                text = token.string.lstrip("rRbBuU")
                if text.startswith(('"""', "'''")):
                    seen.setdefault(text[3:-3])
            if token.type not in (tokenize.NL, tokenize.COMMENT):
                previous = token.type
    return list(seen)


def debian_docs() -> dict[str, list[str]]:
    """The installed packages' documentation, split by the package name's hash."""
    parts: dict[str, list[str]] = {"tune": [], "report": []}
    if not DEBIAN_DOCS.is_dir():
        return parts
    for package in sorted(DEBIAN_DOCS.iterdir()):
        half = "tune" if hashlib.sha256(package.name.encode()).digest()[0] % 2 == 0 else "report"
        seen: dict[str, None] = {}
        for path in sorted(package.rglob("*")):
            name = path.name.lower()
            if path.is_symlink() or not path.is_file():
                continue
            if not name.startswith(("readme", "news", "changelog", "copyright", "changes")):
                continue
            try:
                raw = path.read_bytes()[:DOC_LIMIT]
                if name.endswith(".gz"):
                    raw = gzip.decompress(path.read_bytes())[:DOC_LIMIT]
                seen.setdefault(raw.decode("utf-8"))
            except (OSError, EOFError, UnicodeDecodeError, gzip.BadGzipFile):
                continue
        parts[half] += list(seen)
    return parts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="print every finding")
    args = parser.parse_args()
    docs = debian_docs()
    sources = {
        "decision records of other teams": records(),
        "standard library comments and docstrings": stdlib(),
        "Debian documentation, tune": docs["tune"],
        "Debian documentation, report": docs["report"],
    }
    for name, texts in sources.items():
        if not texts:
            print(f"{name}: none on this machine")
            continue
        flagged = 0
        by_rule: dict[str, int] = {}
        for text in texts:
            findings = scan_text(text)
            flagged += bool(findings)
            for finding in findings:
                by_rule[finding.rule] = by_rule.get(finding.rule, 0) + 1
                if args.list:
                    line = text.splitlines()[finding.line - 1] if finding.line else ""
                    print(f"  [{name}] {finding.rule}: {line.strip()[:160]!r}")
        rules = ", ".join(f"{rule} {count}" for rule, count in sorted(by_rule.items()))
        print(f"{name}: {len(texts):,} texts, {flagged:,} with a finding ({rules or 'none'})")


if __name__ == "__main__":
    main()
