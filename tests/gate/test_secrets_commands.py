"""Secrets handed to a program on its command line: an option's value, a `KEY=value` argument
of a command that sets values, found when it looks generated; references and placeholders in
the same places are not.

Values are built at run time from fixed seeds (tests/secret_samples.py's `rnd`), so nothing
here is a secret a forge would block, and every run draws the same ones.
"""

from __future__ import annotations

import random

import pytest
from secret_samples import ALNUM, B64, HEX, LOWERNUM, rnd

from gitmem.gate.secrets import scan_text

#: a command line with `{}` where the secret goes: none names the secret beside its option
COMMANDS = [
    "aws ssm put-parameter --name /prod/db --value '{}' --type SecureString",
    "aws ssm put-parameter --name /prod/db --overwrite --value {}",
    'aws secretsmanager create-secret --name prod/db --secret-string "{}"',
    "psql-admin --db-password {} --host db.internal",
    "deploy.sh --github-token={}",
    "kubectl create secret generic app --from-literal=api={}",
    "gh secret set X --body {}",
    "heroku config:set STRIPE={} -a shop",
    "heroku config:set LOG_LEVEL=info UPSTREAM={} -a shop",
    "helm upgrade app ./chart --set upstream.credential={}",
    "docker run -e UPSTREAM={} ghcr.io/acme/app:1.4",
    "az keyvault secret set --vault-name kv --name db --value {}",
]

#: random values of the shapes credentials take (a password with punctuation, base64, hex)
VALUES = {
    "alnum32": lambda r: rnd(32, ALNUM, r),
    "alnum16": lambda r: rnd(16, ALNUM, r),
    "password20": lambda r: rnd(19, ALNUM + "#%&", r) + "!",
    "lowernum32": lambda r: rnd(32, LOWERNUM, r),
    "hex32": lambda r: rnd(32, HEX, r),
    "base64": lambda r: rnd(43, B64, r) + "=",
}


@pytest.mark.parametrize("value", sorted(VALUES))
@pytest.mark.parametrize("command", COMMANDS)
def test_a_generated_value_given_on_a_command_line_is_found(command: str, value: str) -> None:
    secret = VALUES[value](random.Random(f"{command}-{value}"))
    findings = scan_text(command.format(secret))
    assert [f.rule for f in findings] == ["password-assignment"], (secret, findings)
    assert secret[:4] not in findings[0].excerpt[4:]


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize(
    "value",
    [
        "$DB_PASSWORD",
        "${DB_PASSWORD}",
        "${{ secrets.DEPLOY_KEY }}",
        "<your-token>",
        "changeme",
        "xxxxxxxxxxxxxxxxxxxxxxxx",
        "$(cat token.txt)",
        "file://secret.json",
        "@secret.json",
        "op://vault/item/field",
        "REPLACE_ME",
        "true",
        "8080",
    ],
)
def test_a_reference_or_a_placeholder_on_a_command_line_is_none(command: str, value: str) -> None:
    assert scan_text(command.format(value)) == []


@pytest.mark.parametrize(
    "line",
    [
        "aws ssm put-parameter --name /prod/db --value 'the primary database host'",
        "aws ssm get-parameter --name /prod/db --with-decryption",
        "gh secret set DEPLOY_KEY --body-file key.txt",
        "kubectl create secret generic app --from-file=ssh-privatekey=./id_ed25519.pub",
        "docker login -u ci --password-stdin registry-2024.internal",
        "ansible-playbook site-2024.yml --ask-vault-pass deploy-prod-2024.yml",
        "gpg --recv-keys --keyserver keys.openpgp.org",
        "vault kv put secret/app ttl=30m max_ttl=24h",
        "aws secretsmanager get-secret-value --secret-id prod/db/primary-2024",
        "mytool --token-file ~/.config/app/token --secret-name prod-db-credentials-v2",
        "heroku config:set WEB_CONCURRENCY=4 RAILS_ENV=production -a shop",
        "helm upgrade app ./chart --set image.tag=v2.14.3-alpine --set replicas=3",
        "docker run -e TZ=Europe/Berlin -e LANG=en_US.UTF-8 app",
        "heroku config:set SOURCE_VERSION=" + rnd(40, HEX, random.Random(1)),
        "we set the value to 42 and the body to empty",
    ],
)
def test_an_option_that_takes_no_secret_raises_nothing(line: str) -> None:
    assert scan_text(line) == []
