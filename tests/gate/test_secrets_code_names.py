"""Names from code quoted in prose next to a secret word: a scope-qualified name whose first
part holds the word (`Token::Cache`), and a source file's path (`src/tknCchMgr.rs`), read as
names; a generated value in the same place is still found."""

from __future__ import annotations

import pytest

from gitmem.gate.secrets import scan_text

NAMES = [
    "pass_dce::remove_dead_stores, pass_vrp::fold_stmt_range: split",
    "secret_ops::load_from_disk now retries",
    "Calls go through Secret::Backend::rotate_all now.",
    "passwd_db::lookup_user_entry",
    "the token check lives in internal/tknVrfCmdsQZ.go",
    "the key loader: internal/kldrCmdsXZw.c",
    "token: pkg/tknCchMgr.rs",
    "key code: library/kmsWrpCmdsXQ.rs and library/kmsWrpCmdsXQ.h",
]

GENERATED = [
    "password::Rt5Wq9Zm2Lx7",
    "token::Qv7Tz2Wm9Kp4Hx8N",
    "token: Qv7Tz2Wm9Kp4/Hx8Rb3Ny6.rs",
    "the key is Qv7Tz2Wm9Kp4/Hx8Rb3Ny6.x",
    "token: Zp4Xw8Qk3Vn6Rt2/Lm9Hb5.go",
]


@pytest.mark.parametrize("line", NAMES)
def test_a_name_from_code_next_to_a_secret_word_is_no_secret(line: str) -> None:
    assert scan_text(line) == []


@pytest.mark.parametrize("line", GENERATED)
def test_a_generated_value_in_the_same_place_is_found(line: str) -> None:
    assert scan_text(line), line
