"""A secret given as a `name`/`value` pair, as container environments, task definitions and
Terraform write one (`- name: DB_PASSWORD` then `value: …`), is an assignment to that name;
a reference in the pair (`valueFrom`, `${…}`) and a name that is no secret are not."""

from __future__ import annotations

import random

import pytest
from secret_samples import ALNUM, rnd

from gitmem.gate.secrets import scan_text

VALUE = rnd(24, ALNUM + "!#", random.Random(4444))


@pytest.mark.parametrize(
    "template",
    [
        "env:\n  - name: DB_PASSWORD\n    value: {}\n",
        'env:\n  - name: "api-token"\n    value: "{}"\n',
        '"environment": [{{"name": "DB_PASSWORD", "value": "{}"}}]',
        '"environment": [\n  {{\n    "name": "STRIPE_SECRET_KEY",\n    "value": "{}"\n  }}\n]',
        'env {{ name = "DB_PASSWORD", value = "{}" }}',
        "- key: deployToken\n  value: '{}'\n",
    ],
)
def test_a_secret_named_by_its_pair_is_found(template: str) -> None:
    findings = scan_text(template.format(VALUE))
    assert [f.rule for f in findings] == ["password-assignment"], findings


@pytest.mark.parametrize(
    "text",
    [
        "env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db\n",
        "env:\n  - name: DB_PASSWORD\n    value: ${DB_PASSWORD}\n",
        "env:\n  - name: LOG_LEVEL\n    value: " + VALUE + "\n",
        "env:\n  - name: TOKEN_URL\n    value: https://auth.internal/token\n",
        '[{"name": "password_min_length", "value": "12"}]',
        "- name: api-token\n  value: changeme\n",
    ],
)
def test_a_pair_without_a_literal_secret_is_none(text: str) -> None:
    assert scan_text(text) == []
