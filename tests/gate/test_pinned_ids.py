"""A git object id pinned after an `@` names an action or a dependency, not a secret, even on a
line that speaks of a token; a hex secret beside a secret word still is one."""

from __future__ import annotations

import random

import pytest

from gitmem.gate.secrets import scan_text

_RNG = random.Random(7)
SHA1 = "".join(_RNG.choice("0123456789abcdef") for _ in range(40))
SHA256 = "".join(_RNG.choice("0123456789abcdef") for _ in range(64))


@pytest.mark.parametrize(
    "line",
    [
        f"uses: actions/checkout@{SHA1} # token: read",
        f"the token step is pinned to tj-actions/changed-files@{SHA1}",
        f"GITHUB_TOKEN goes to octo/deploy-action, pinned at {SHA1}",
        f"the token image: ghcr.io/acme/runner@sha256:{SHA256}",
        f"token scope: acme/tools/lint.yml@{SHA256}",
    ],
    ids=["action", "prose", "pinned-at", "image-digest", "sha256-object"],
)
def test_a_pinned_object_id_is_not_a_secret(line: str) -> None:
    assert scan_text(f"## Content\n{line}\n") == []


@pytest.mark.parametrize(
    "line", [f"api token {SHA1}", f"token = {SHA1}", f"the deploy token is {SHA256}"]
)
def test_a_hex_secret_beside_a_secret_word_is_still_found(line: str) -> None:
    assert scan_text(f"## Content\n{line}\n"), line
