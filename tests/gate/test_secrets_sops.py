"""A value SOPS encrypted (`ENC[AES256_GCM,data:…,iv:…,tag:…,type:str]`) is ciphertext, made to
be committed beside its key: it is no secret, however random its parts look and whatever its key
is called. The same random run left unencrypted under that key still is one."""

from __future__ import annotations

import base64
import random

import pytest

from gitmem.gate.secrets import scan_text

_rng = random.Random(7070)


def _b64(n: int) -> str:
    return base64.b64encode(_rng.randbytes(n)).decode()


# the shape SOPS documents for an encrypted value: the cipher, then the ciphertext, the
# initialisation vector (32 bytes), the authentication tag (16 bytes) and the value's type
def _enc(kind: str = "str") -> str:
    return (
        f"ENC[AES256_GCM,data:{_b64(_rng.randint(6, 40))},iv:{_b64(32)},tag:{_b64(16)},type:{kind}]"
    )


@pytest.mark.parametrize(
    "template",
    [
        "db-password: {}",
        "    api_token: {}",
        '"client_secret": "{}",',
        "DB_PASSWORD={}",
        "secret_key = {}",
    ],
)
def test_a_value_sops_encrypted_is_no_secret(template: str) -> None:
    assert scan_text(template.format(_enc())) == [], scan_text(template.format(_enc()))


@pytest.mark.parametrize("after", [True, False], ids=["after", "before"])
def test_a_random_run_beside_the_envelope_is_still_judged(after: bool) -> None:
    secret = _b64(30)
    if after:
        text = f"db-password: {_enc()} # old one was token {secret}"
    else:
        text = f"token {secret} was replaced by db-password: {_enc()}"
    findings = scan_text(text)
    assert [f.rule for f in findings] == ["high-entropy-near-secret-word"]
    assert findings[0].excerpt == secret[:4] + f"… ({len(secret)} chars)"
