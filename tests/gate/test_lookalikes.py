"""Letters of other scripts that pass for Latin ones: a token written with a Cyrillic `р` for
its `p` reads, and copies into a prompt, as the token, so the scanner reads it so; a word
written wholly in another script is prose, and stays as it is."""

from __future__ import annotations

from pathlib import Path

import pytest
from clirunner import run, write
from secret_samples import github_token, rnd

from gitmem.gate.secrets import scan_text

from entries import text

TOKEN = github_token(5151)
CANDIDATE = ".gitmem/candidates/shop-method-20261129-run-hooks-through-gitmem.md"


def swapped(token: str, latin: str, other: str) -> str:
    assert latin in token
    return token.replace(latin, other, 1)


OPENAI = "sk-proj-" + rnd(20) + "T3BlbkFJ" + rnd(20)


@pytest.mark.parametrize(
    ("written", "plain"),
    [
        (swapped(TOKEN, "p", "\u0440"), TOKEN),  # Cyrillic er in the prefix
        (swapped(TOKEN, "h", "\u04bb"), TOKEN),  # Cyrillic shha
        (swapped(OPENAI, "o", "\u03bf"), OPENAI),  # Greek omicron
    ],
    ids=["cyrillic-p", "cyrillic-h", "greek-o"],
)
def test_a_token_with_a_look_alike_letter_is_found_as_the_token(written: str, plain: str) -> None:
    [found] = scan_text(f"the bot uses {plain} now\n")
    findings = scan_text(f"## Content\nfirst line\nthe bot uses {written} now\n")
    mine = [f for f in findings if f.rule == found.rule]
    assert [f.line for f in mine] == [3], findings
    assert mine[0].fingerprint == found.fingerprint


def test_a_look_alike_in_every_letter_of_the_prefix_is_still_the_token() -> None:
    written = "\u0261\u04bb\u0440" + TOKEN[3:]  # IPA script g, Cyrillic shha and er
    assert [f.rule for f in scan_text(f"token {written}\n")] == ["github-pat"]


@pytest.mark.parametrize(
    "prose",
    [
        "Пароль и токен хранятся в хранилище секретов, а не в коде: ключ API смотри в Vault.",
        "Ο κωδικός πρόσβασης και το κλειδί API φυλάσσονται στο θησαυροφυλάκιο, όχι στον κώδικα.",
        "Токен: ${GITHUB_TOKEN}; пароль: <password>; secret key: смотри в хранилище.",
    ],
    ids=["russian", "greek", "placeholders"],
)
def test_prose_in_another_script_is_not_folded_into_a_finding(prose: str) -> None:
    assert scan_text(f"## Content\n{prose}\n") == []


def test_check_refuses_the_entry_and_withholds_the_token(repo: Path) -> None:
    written = swapped(TOKEN, "p", "\u0440")
    write(
        repo,
        CANDIDATE,
        text(body=f"## Context\nc\n\n## Content\nUse {written}.\n\n## Evidence\ne\n"),
    )
    result = run(repo, "check")
    assert result.exit_code == 1, result.output
    assert "SECRET" in result.output and "github-pat" in result.output
    assert written not in result.output and TOKEN not in result.output
