"""A password named in another language than English (`Passwort: …`, `mot de passe : …`,
`пароль: …`, `密码：…`) is found, as `password: …` is; prose about one, in the same language,
is not."""

from __future__ import annotations

import random

import pytest
from secret_samples import ALNUM, rnd

from gitmem.gate.secrets import scan_text

PASSWORD = rnd(14, ALNUM + "!#", random.Random(5151))


TEMPLATES = [
    "Passwort: {}",
    "Kennwort = {}",
    "mot de passe : {}",
    "Mot_de_passe={}",
    'contraseña = "{}"',
    "Senha: {}",
    "wachtwoord: {}",
    "Hasło: {}",
    "lösenord: {}",
    "salasana = {}",
    "heslo: {}",
    "jelszó: {}",
    "parola: {}",
    "Şifre: {}",
    "пароль: {}",
    "Пароль: {}",
    "κωδικός: {}",
    "密码：{}",
    "密碼: {}",
    "パスワード: {}",
    "비밀번호: {}",
]


@pytest.mark.parametrize("template", TEMPLATES)
def test_a_password_named_in_another_language_is_found(template: str) -> None:
    findings = scan_text(template.format(PASSWORD))
    assert [f.rule for f in findings] == ["password-assignment"], findings


@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize(
    "placed",
    ["The test server's account (until Friday): {} and nothing else.", "- `{}`", "    {}\n"],
    ids=["in prose", "a list item in code", "indented"],
)
def test_the_password_is_found_inside_a_sentence_or_a_list(template: str, placed: str) -> None:
    findings = scan_text(placed.format(template.format(PASSWORD)))
    assert "password-assignment" in [f.rule for f in findings], findings


@pytest.mark.parametrize(
    "text",
    [
        "Passwort: siehe Tresor",
        "mot de passe : voir le coffre-fort",
        "contraseña: ${DB_PASSWORD}",
        "пароль: хранится в Vault",
        "密码：请联系管理员",
        "parola: ciao",
    ],
)
def test_prose_about_a_password_in_another_language_is_none(text: str) -> None:
    assert scan_text(text) == []
