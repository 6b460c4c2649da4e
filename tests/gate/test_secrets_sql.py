"""A password set by an SQL statement (`IDENTIFIED BY '…'`, `WITH PASSWORD '…'`) is found;
SQL without one is not."""

from __future__ import annotations

import random

import pytest
from secret_samples import ALNUM, rnd

from gitmem.gate.secrets import scan_text

PASSWORD = rnd(14, ALNUM, random.Random(6161))


@pytest.mark.parametrize(
    "template",
    [
        "CREATE USER 'app'@'%' IDENTIFIED BY '{}';",
        "ALTER USER app IDENTIFIED WITH mysql_native_password BY '{}';",
        "ALTER USER app WITH PASSWORD '{}';",
        "CREATE ROLE app LOGIN ENCRYPTED PASSWORD '{}' VALID UNTIL 'infinity';",
        "CREATE LOGIN app WITH PASSWORD = '{}';",
    ],
)
def test_a_password_in_an_sql_statement_is_found(template: str) -> None:
    findings = scan_text(template.format(PASSWORD))
    assert [f.rule for f in findings] == ["password-assignment"], findings


@pytest.mark.parametrize(
    "text",
    [
        "ALTER USER app WITH PASSWORD NULL;",
        "CREATE USER 'app'@'%' IDENTIFIED BY '${DB_PASSWORD}';",
        "ALTER USER app IDENTIFIED BY 'changeme';",
        "SELECT name FROM users ORDER BY 'created';",
        "ALTER ROLE app PASSWORD '********';",
    ],
)
def test_sql_without_a_password_is_none(text: str) -> None:
    assert scan_text(text) == []
