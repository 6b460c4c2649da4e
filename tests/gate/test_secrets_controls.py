"""Control characters in text are read as a terminal or an editor shows them before the scan:
a token colored by ANSI escapes (a copied terminal log), split by a NUL, a lone carriage
return or a DEL, overstruck with backspaces, or a whole file in UTF-16 (NUL bytes between its
letters when read as UTF-8) is found as the token, not only as a hidden character that a
reviewer may allow or warn mode let through."""

from __future__ import annotations

import pytest
from secret_samples import github_token

from gitmem.gate import scanner
from gitmem.gate.secrets import scan_text

TOKEN = github_token(5151)
ENTRY = "---\nid: x\ntitle: t\n---\n\n## Content\nthe bot uses {} now\n"


def whole() -> str:
    [finding] = scan_text(f"the bot uses {TOKEN} now\n")
    return finding.fingerprint


@pytest.mark.parametrize(
    "written",
    [
        f"\x1b[32m{TOKEN}\x1b[0m",  # a colored terminal log
        f"\x1b[1;31m{TOKEN[:9]}\x1b[0m{TOKEN[9:]}",
        f"gh\x1b[0mp_{TOKEN[4:]}",
        f"\x1b]8;;https://x.internal\x07{TOKEN}\x1b]8;;\x07",  # a terminal hyperlink
        f"{TOKEN[:6]}\x00{TOKEN[6:]}",
        f"g\x00h{TOKEN[2:]}",
        f"{TOKEN[:6]}\r{TOKEN[6:]}",
        f"{TOKEN[:6]}\x7f{TOKEN[6:]}",
        "".join(c + "\b" + c for c in TOKEN),  # bold, as `man` writes it
    ],
    ids=["ansi", "ansi-middle", "ansi-prefix", "osc-link", "nul", "nul-prefix", "cr", "del", "bs"],
)
def test_a_token_with_control_characters_is_found_as_the_token(written: str) -> None:
    findings = scan_text(ENTRY.format(written))
    assert [f.fingerprint for f in findings if f.rule == "github-pat"] == [whole()]
    assert {f.line for f in findings} == {7}


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_a_file_in_utf16_or_utf32_is_scanned_as_its_text(encoding: str) -> None:
    findings = scanner.scan(ENTRY.format(TOKEN).encode(encoding))
    assert [f.fingerprint for f in findings if f.rule == "github-pat"] == [whole()]


def test_control_characters_around_prose_add_no_secret_finding() -> None:
    text = "\x1b[32mok\x1b[0m the deploy\x00 token\r rotated; key\x7f policy\r\nnext line\r\n"
    assert {f.rule for f in scan_text(text)} == {"hidden-unicode"}
    assert scan_text("line one\r\nline two\r\n") == []
