"""A password whose first character is `@` or `!` is found; a reference written with one of
those sigils (`@Microsoft.KeyVault(…)`, `@db_password`, `@DB_PASSWORD@`, `!Ref Param`,
`!secret name`) is not.

Both characters start references in configuration (an Azure Key Vault reference, a Ruby or SQL
variable, a YAML tag), and both start generated passwords too, which a password policy asking
for a symbol often puts first."""

from __future__ import annotations

import random

import pytest
from secret_samples import ALNUM, rnd

from gitmem.gate.secrets import scan_text

_rng = random.Random(4242)
PASSWORDS = [
    "@" + rnd(14, ALNUM + "!#%^", _rng),
    "!" + rnd(13, ALNUM, _rng),
    "@" + rnd(11, ALNUM, _rng) + "!!" + rnd(3, ALNUM, _rng),
]


@pytest.mark.parametrize("password", PASSWORDS)
@pytest.mark.parametrize(
    "template",
    [
        'DB_PASSWD="{}"',
        "db_password: '{}'",
        '$db_password = "{}";',
        '<add key="ClearTextPassword" value="{}" />',
    ],
)
def test_a_password_starting_with_a_sigil_is_found(password: str, template: str) -> None:
    findings = scan_text(template.format(password))
    assert [f.rule for f in findings] == ["password-assignment"], findings


@pytest.mark.parametrize(
    "text",
    [
        "DB_PASSWORD=@Microsoft.KeyVault(SecretUri=https://vault.example/secrets/db/)",
        "password: '@db_password'",
        "client_secret: @CLIENT_SECRET@",
        "<password>@db.password@</password>",
        "db_password = @DbPassword",
        "api_key: !Ref ApiKeyParameter",
        "password: !GetAZs",  # a short tag is a reference even when it reads as no words
        "wifi_password: !secret wifi_password",
        "secret_key: !!binary",
        "token = \"@{variables('deployToken')}\"",
        'password = "!{env.DB_PASSWORD}"',
    ],
)
def test_a_reference_written_with_a_sigil_is_none(text: str) -> None:
    assert scan_text(text) == [], scan_text(text)
