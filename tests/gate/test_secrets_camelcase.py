"""Random mixed-case letters with a digit or two are a token, not a camelCase name.

A generated value of letters of both cases holds runs of three letters of one case now and
then; read as words whether or not they held a vowel, a sixth of such values were taken for
identifiers and missed. Names made
of words stay names. Values are drawn at run time from fixed seeds.
"""

from __future__ import annotations

import random
import string

import pytest

from gitmem.gate.secrets import scan_text


def camel_random(rng: random.Random, length: int, digits: int = 1) -> str:
    """`length` random letters of both cases with `digits` digits among them, none first."""
    chars = [rng.choice(string.ascii_letters) for _ in range(length - digits)]
    for _ in range(digits):
        chars.insert(rng.randrange(1, len(chars)), rng.choice(string.digits))
    return "".join(chars)


@pytest.mark.parametrize("length", [20, 24, 32, 40])
@pytest.mark.parametrize(
    "template",
    ["token: {}", "the deploy token was {} until Tuesday", "deploy.sh --api-key {}"],
)
def test_random_mixed_case_with_one_digit_is_found(template: str, length: int) -> None:
    rng = random.Random(f"{template}-{length}")
    values = [camel_random(rng, length) for _ in range(200)]
    missed = [v for v in values if not scan_text(template.format(v))]
    # random letters read as words now and then: fewer than one in ten (a sixth before)
    assert len(missed) * 10 < len(values), missed[:5]


@pytest.mark.parametrize(
    "name",
    [
        "getUserById2",
        "parseHttpResponseHeaders",
        "parseHttpResponseHeaders2",
        "XMLHttpRequestUpload",
        "MalwareDomainsStrict",
        "refreshOauthTokenIfExpired",
        "UserAccessTokenRepository",
        "listSecretsByOwnerPaginated",
        "SqlConnectionStringBuilder",
        "readKeyFromHsmV2",
    ],
)
@pytest.mark.parametrize(
    "template",
    ["the token is refreshed by {} now", "see {} for the secret rotation"],
)
def test_camel_case_names_near_a_secret_word_are_no_secret(template: str, name: str) -> None:
    assert scan_text(template.format(name)) == []
