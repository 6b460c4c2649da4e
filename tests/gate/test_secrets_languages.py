"""A password named in another language than English (`Passwort: …`, `mot de passe : …`,
`пароль: …`, `密码：…`) is found, as `password: …` is; prose about one, in the same language,
is not."""

from __future__ import annotations

import random

import pytest
from secret_samples import ALNUM, rnd

from gitmem.gate.secrets import scan_text

PASSWORD = rnd(14, ALNUM + "!#", random.Random(5151))


@pytest.mark.parametrize(
    "template",
    [
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
    ],
)
def test_a_password_named_in_another_language_is_found(template: str) -> None:
    findings = scan_text(template.format(PASSWORD))
    assert [f.rule for f in findings] == ["password-assignment"], findings


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
