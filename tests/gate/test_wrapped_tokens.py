"""A token broken over lines, as a terminal copy or a hard wrap at a fixed column leaves it,
is found as the token on the line where it starts; prose wrapped the same way gives nothing
new, and a token whole on its line is not reported twice."""

from __future__ import annotations

import textwrap

import pytest
from recall_dev import corpus
from secret_samples import github_token, jwt, rnd

from gitmem.gate.secrets import scan_text

TOKEN = github_token(6060)


def whole(token: str) -> str:
    [finding] = scan_text(f"the bot uses {token} now\n")
    return finding.fingerprint


@pytest.mark.parametrize("cut", [4, 5, 12, 20, 30, 39])
def test_a_token_broken_after_its_prefix_is_found_on_its_first_line(cut: int) -> None:
    text = f"## Content\nfirst line\nthe bot uses {TOKEN[:cut]}\n{TOKEN[cut:]} now\n"
    [finding] = scan_text(text)
    assert (finding.rule, finding.line) == ("github-pat", 3)
    assert finding.fingerprint == whole(TOKEN)
    assert TOKEN[:5] not in finding.excerpt


@pytest.mark.parametrize(
    "broken",
    [
        f"{TOKEN[:12]}\n{TOKEN[12:24]}\n{TOKEN[24:]}",  # over three lines
        f"{TOKEN[:12]}\r\n{TOKEN[12:]}",  # CRLF
        f"{TOKEN[:16]}\n    {TOKEN[16:]}",  # an indented continuation
        f"{TOKEN[:16]}\n> {TOKEN[16:]}",  # a block quote's
    ],
    ids=["three-lines", "crlf", "indented", "quoted"],
)
def test_a_broken_token_is_found_however_its_lines_continue(broken: str) -> None:
    [finding] = scan_text(f"use {broken} here\n")
    assert (finding.rule, finding.line, finding.fingerprint) == ("github-pat", 1, whole(TOKEN))


def test_a_jwt_broken_over_lines_is_found() -> None:
    """At 50 columns its first line holds the header and the payload's start, the rule's
    gate (at 40 the break falls just before the payload's `.eyJ`: a break inside the gate is
    the documented limit)."""
    token = jwt()
    broken = "\n".join(token[i : i + 50] for i in range(0, len(token), 50))
    findings = scan_text(f"Authorization cookie\n{broken}\n")
    assert [f.fingerprint for f in findings if f.rule == "jwt"] == [whole(token)]


def test_a_whole_token_beside_a_random_line_is_one_finding() -> None:
    text = f"the bot uses {TOKEN}\n{rnd(30)} next\n{rnd(12)}\n"
    assert [(f.rule, f.line) for f in scan_text(text)] == [("github-pat", 1)]


def test_real_records_wrapped_at_72_columns_give_no_new_finding() -> None:
    """The development corpus's records (text other teams wrote), hard-wrapped as an editor
    would: the findings are the same as unwrapped."""
    for doc in corpus():
        text = f"{doc.title}\n{doc.applies_when}\n{doc.body}"
        wrapped = "\n".join(textwrap.wrap(text, 72, break_long_words=True))
        before = {f.fingerprint for f in scan_text(text) if f.rule != "hidden-unicode"}
        after = {f.fingerprint for f in scan_text(wrapped) if f.rule != "hidden-unicode"}
        assert after <= before, doc.id
