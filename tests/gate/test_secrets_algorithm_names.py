"""Algorithms, hashes and curves named with a size in bits (`SECP521R1`, `sha384`) read as
names beside "key" in a value of one case; random values of one case are still found."""

from __future__ import annotations

import pytest

from gitmem.gate.secrets import scan_text

NAMES = [
    "We moved the signing key to ECDSA-SECP521R1-SHA512 last quarter.",
    "the key exchange now offers mlkem768x25519-sha256 first",
]

# Drawn for this test: one case, digits, separators, some of them holding a size in bits.
RANDOM = [
    "the api key is q7w2k9zt-x4m8r1vb-256pn3hd",
    "the api key is K7Q2W9ZT-X4M8R1VB-P3HD5N6J",
    "the api key is b5x8m3qk_t2v9w4zr_j6n1h7pd_c384f0yg",
]


@pytest.mark.parametrize("line", NAMES)
def test_an_algorithm_named_beside_a_secret_word_is_no_secret(line: str) -> None:
    assert scan_text(line) == []


@pytest.mark.parametrize("line", RANDOM)
def test_a_random_value_of_one_case_is_still_found(line: str) -> None:
    assert [f.rule for f in scan_text(line)] == ["high-entropy-near-secret-word"]
