"""A token broken over lines inside its prefix (`gh` at the end of one line, `p_…` on the
next, as a hard wrap at a fixed column leaves it) is found as the token on its first line;
prose whose lines happen to end in the start of a prefix gives nothing."""

from __future__ import annotations

import random
import textwrap

import pytest
from recall_dev import corpus
from secret_samples import FORMATS, github_token, rnd

from gitmem.gate.secrets import scan_text

TOKEN = github_token(7070)


def whole(token: str) -> str:
    [finding] = scan_text(f"the bot uses {token} now\n")
    return finding.fingerprint


@pytest.mark.parametrize("cut", [1, 2, 3])
@pytest.mark.parametrize(
    "brk", ["\n", "\r\n", "\n    ", "\n> "], ids=["lf", "crlf", "indent", "quote"]
)
def test_a_token_broken_inside_its_prefix_is_found_on_its_first_line(cut: int, brk: str) -> None:
    text = f"## Content\nfirst line\nthe bot uses {TOKEN[:cut]}{brk}{TOKEN[cut:]} now\n"
    [finding] = scan_text(text)
    assert (finding.rule, finding.line) == ("github-pat", 3)
    assert finding.fingerprint == whole(TOKEN)


def test_every_format_found_broken_after_its_prefix_is_found_broken_inside_it() -> None:
    """Each catalogue format with a fixed prefix, bare in prose: where it is found broken four
    characters after its prefix's start (the chain of runs it lies in reads it), it is found
    broken after the prefix's second character too."""
    rng = random.Random(7071)
    checked, missed = 0, []
    for fmt in FORMATS:
        if fmt.key or "\n" in fmt.context:
            continue
        tokens = [fmt.token(rng) for _ in range(3)]
        if len({t[:3] for t in tokens}) > 1 or not tokens[0][:3].isalnum():
            continue  # no fixed prefix of its own
        value = fmt.context.format(tokens[0])
        at = value.index(tokens[0])

        def found(cut: int, value: str = value, rule: str = fmt.rule) -> bool:
            text = f"the bot uses {value[:cut]}\n{value[cut:]} now\n"
            return rule in {f.rule for f in scan_text(text)}

        if not found(at + 8):
            continue
        checked += 1
        if not found(at + 2):
            missed.append(fmt.rule)
    assert checked >= 100
    assert missed == []


def test_prose_wrapped_at_every_width_gives_no_new_finding() -> None:
    """The development corpus's records hard-wrapped at widths from 20 to 80 columns: lines
    that end in `gh`, `sk` or `AK` are words, and the next line does not make them a token."""
    for doc in corpus()[:60]:
        text = f"{doc.title}\n{doc.applies_when}\n{doc.body}"
        before = {f.fingerprint for f in scan_text(text) if f.rule != "hidden-unicode"}
        for width in range(20, 81, 7):
            wrapped = "\n".join(textwrap.wrap(text, width, break_long_words=True))
            after = {f.fingerprint for f in scan_text(wrapped) if f.rule != "hidden-unicode"}
            assert after <= before, (doc.id, width)


def test_a_line_ending_in_a_prefix_start_before_an_ordinary_line_is_nothing() -> None:
    text = "we use gh\npr create for reviews, and sk\nlearn for models; AK\n47 is no key\n"
    assert scan_text(text) == []
    assert scan_text(f"gh\n{rnd(36)}\n") == []  # `gh` + a random line holds no `ghp_`
