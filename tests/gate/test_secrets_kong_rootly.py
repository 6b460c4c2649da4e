"""Kong Konnect access tokens (`kpat_`/`spat_` + 49) and Rootly API keys (`rootly_` + 64 hex),
each by its own rule, bare in prose and assigned; the prefixes named in prose, placeholders in
their shape and values cut short are no secrets."""

from __future__ import annotations

import pytest

from gitmem.gate.secrets import scan_text

# Drawn for this test.
KONG = "kpat_T4qW9zR2mX7vB3nK8pL5sD1fG6hJ0cY2aE9uQ3wZ7xV4bN8mR"
KONG_SYSTEM = "spat_Hb3Nq8Wz2Kd7Rm5Xv9Tc1Lp4Yf6Gs0Ja2Ue8Qo3Zi7Bw5Mn1E"
ROOTLY = "rootly_9c4e1b7a2f8d3e6c0b5a9f2e7d1c4b8a3f6e0d9c2b7a5f1e8d4c3b6a0f9e2d7c"


@pytest.mark.parametrize(
    ("line", "rule"),
    [
        (f"the release script printed {KONG} before it failed", "kong-konnect-token"),
        (f"KONNECT_TOKEN={KONG_SYSTEM}", "kong-konnect-token"),
        (f"the incident bot ran with {ROOTLY} until we rotated it", "rootly-api-key"),
        (f'rootly_api_key: "{ROOTLY}"', "rootly-api-key"),
    ],
)
def test_each_token_is_found_by_its_own_rule_bare_and_assigned(line: str, rule: str) -> None:
    assert [f.rule for f in scan_text(line)] == [rule]


@pytest.mark.parametrize(
    "line",
    [
        "Kong personal access tokens start with kpat_ and system account tokens with spat_.",
        "Rootly keys look like rootly_ followed by 64 hex digits.",
        "KONNECT_TOKEN=kpat_" + "x" * 49,
        "rootly_api_key: rootly_" + "0" * 64,
        "the pat is kpat_shortvalue123",
    ],
)
def test_the_prefixes_in_prose_and_placeholders_are_no_secret(line: str) -> None:
    assert scan_text(line) == []
