"""A token given as the user of a URL (`https://<token>@git.internal/…`, how forges take one)
is found; a URL whose user is a name is not."""

from __future__ import annotations

import random

import pytest
from secret_samples import ALNUM, rnd

from gitmem.gate.secrets import scan_text

TOKEN = rnd(36, ALNUM, random.Random(6162))


@pytest.mark.parametrize(
    "template",
    [
        "git clone https://{}@git.internal/team/repo.git",
        "git remote set-url origin https://{}@github.com/acme/app",
        "pip install git+https://{}@git.internal/team/lib.git",
    ],
)
def test_a_token_as_the_user_of_a_url_is_found(template: str) -> None:
    findings = scan_text(template.format(TOKEN))
    assert [f.rule for f in findings] == ["password-in-url"], findings


@pytest.mark.parametrize(
    "text",
    [
        "git clone ssh://git@github.com/acme/app.git",
        "https://firstname.lastname@wiki.internal/page",
        "https://deploy-bot-production@ci.internal/job",
        "https://${GITHUB_TOKEN}@github.com/acme/app",
        "https://x-access-token@github.com/acme/app",
        "mailto://reports-weekly-summary@lists.internal",
    ],
)
def test_a_url_whose_user_is_a_name_is_none(text: str) -> None:
    assert scan_text(text) == []
