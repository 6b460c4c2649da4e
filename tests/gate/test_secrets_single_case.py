"""Random lower-case-and-digit keys read as random, not as names made of words."""

from __future__ import annotations

import pytest

from gitmem.gate.secrets import scan_text

# Random values of lower-case letters and digits, drawn for this test: every run of three
# letters in them could pass for a word, yet numbers cut them every few letters, as names
# never are.
RANDOM_ONE_CASE = [
    "vdgaj8gxbenyjqwx4hh5344t",
    "6vompzom75wbbr4qmw2wxfogo4mvn4a4wfhym4l1",
    "k2mzqwtbvh7rnxp4dsgjl9cwfq",
    "pqtv3xhnw8zkrbm5gjdcs0ylwq4vhe",
]

# Lower-case names: words and one or two numbers.
NAMES_ONE_CASE = [
    "base64urlencodedsha256value",
    "monthdays2calendarweekdays",
    "ipv4addresstoipv6mapping",
    "s3bucket2region9",
]


@pytest.mark.parametrize("value", RANDOM_ONE_CASE)
def test_random_one_case_value_next_to_a_secret_word_is_found(value: str) -> None:
    findings = scan_text(f"the signing key we use is {value} for now")
    assert [f.rule for f in findings] == ["high-entropy-near-secret-word"]


@pytest.mark.parametrize("value", RANDOM_ONE_CASE)
def test_random_one_case_value_in_a_wrapped_xml_secret_is_found(value: str) -> None:
    findings = scan_text(f"<secret>{{staging {value}}}</secret>")
    assert findings, value


@pytest.mark.parametrize("value", NAMES_ONE_CASE)
def test_one_case_name_with_few_numbers_is_no_secret(value: str) -> None:
    assert scan_text(f"the signing key we use is {value} for now") == []


@pytest.mark.parametrize("value", RANDOM_ONE_CASE)
def test_random_one_case_value_assigned_to_a_secret_key_is_found(value: str) -> None:
    assert scan_text(f'signing_key = "{value}"'), value


# twenty characters or more, where numbers are counted: a shorter value after a secret key
# is judged as a password, which may be words and digits (`s3bucket2region9`)
@pytest.mark.parametrize("value", [name for name in NAMES_ONE_CASE if len(name) >= 20])
def test_one_case_name_assigned_to_a_secret_key_is_no_secret(value: str) -> None:
    assert scan_text(f"signing_key = {value}") == []
