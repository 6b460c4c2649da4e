"""A password given by the short option of a database, directory or archive tool (`sqlcmd -P`,
`mongosh -p`, `ldapsearch -w`, `zip -P`) is found; a port, a flag or a reference in the same
place is not."""

from __future__ import annotations

import random

import pytest
from secret_samples import ALNUM, rnd

from gitmem.gate.secrets import scan_text

PASSWORD = rnd(14, ALNUM + "!#", random.Random(7272))


@pytest.mark.parametrize(
    "template",
    [
        "sqlcmd -S db.internal -U sa -P {} -Q 'select 1'",
        "bcp dbo.orders out orders.dat -S db -U sa -P '{}' -c",
        "mongosh mongodb://db:27017/admin -u admin -p '{}'",
        "mongodump --host db -u backup -p {} --out /backup",
        "ldapsearch -x -H ldap://dir -D cn=admin,dc=corp -w {} -b dc=corp",
        "zip -P {} backup.zip dump.sql",
    ],
)
def test_a_password_given_by_a_tools_short_option_is_found(template: str) -> None:
    findings = scan_text(template.format(PASSWORD))
    assert [f.rule for f in findings] == ["password-assignment"], findings


@pytest.mark.parametrize(
    "text",
    [
        "ldapsearch -x -H ldap://dir -p 389 -b dc=corp",
        "sqlcmd -S db -U sa -P $SQL_PASSWORD -Q 'select 1'",
        "mongosh mongodb://db:27017 -u admin -p",
        "zip -r backup.zip dump-2024.sql",
        "ldapsearch -x -W -D cn=admin,dc=corp -b dc=corp",
        "7z x -p archive.7z",
        "unzip -P $ZIP_PASSWORD backup.zip",
    ],
)
def test_a_tools_option_without_a_password_is_none(text: str) -> None:
    assert scan_text(text) == []
