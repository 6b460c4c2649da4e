"""The secret scanner: every rule fires on a realistic fake and stays quiet on its look-alikes.

Fake secrets come from tests/secret_samples.py, built at import from documented prefixes and
random characters, so no real-looking secret is committed whole. Each provider format (`Fmt`)
makes fresh tokens of its documented shape: it is checked bare in prose and assigned in several
syntaxes, and against its own fillers, its truncation and (for a keyed format) an unrelated key.
"""

from __future__ import annotations

import base64
import random
import subprocess
import sys
import unicodedata
from collections.abc import Callable
from typing import Any

import pytest
import secret_samples as samples
from hypothesis import given, settings
from hypothesis import strategies as st
from secret_samples import CLEAN, FORMATS, NEGATIVES, POSITIVES, Fmt, placed, rnd

from gitmem.gate import secretrules, secrets
from gitmem.gate.secrets import (
    MAX_SCAN_CHARS,
    Finding,
    scan_file_names,
    scan_hidden_unicode,
    scan_text,
)

TOKEN_RULES = set(secrets.rule_ids()) - {"hidden-unicode", "scan-size-cap"}


def rules_of(findings: list[Finding]) -> set[str]:
    return {f.rule for f in findings}


def assert_redacted(finding: Finding, secret: str) -> None:
    """The excerpt never holds the secret whole, nor more than its first four characters."""
    assert secret not in finding.excerpt
    for n in range(5, len(secret) + 1):
        assert secret[:n] not in finding.excerpt


# ------------------------------------------------------------------------- rule coverage


def test_every_rule_has_a_positive_sample() -> None:
    covered = {rule for rule, _, _ in POSITIVES}
    assert TOKEN_RULES - covered == set()


GENERIC = {
    "private-key-block",
    "gcp-service-account-key",
    "jwt",
    "authorization-header",
    "password-in-url",
    "curl-credentials",
    "password-assignment",
    "high-entropy-near-secret-word",
    "secret-file-name",
}


def test_at_least_two_hundred_provider_formats_in_every_family() -> None:
    assert len(TOKEN_RULES - GENERIC) >= 200
    families = secrets.rule_families()
    for family in secretrules.FAMILIES:
        assert sum(families[r] == family for r in TOKEN_RULES) >= 5, family


def test_every_provider_format_has_a_sample_of_its_own() -> None:
    """Each catalogue entry (not only each rule id) is exercised by a sample of its shape."""
    compiled = secrets._engine()
    indexes = {i for i, r in enumerate(secrets._RULES) if r.kind == secrets._TOKEN}
    seen = set()
    for fmt in FORMATS:
        data = placed(fmt, fmt.token()).encode()
        seen |= {i for i in indexes if compiled.regex(i).search(data) is not None}
    missing = sorted(secrets._RULES[i].id + " " + secrets._RULES[i].description
                     for i in indexes - seen)  # fmt: skip
    assert missing == []


@pytest.mark.parametrize(("rule", "text", "secret"), POSITIVES, ids=[p[0] for p in POSITIVES])
def test_positive(rule: str, text: str, secret: str) -> None:
    findings = scan_text(text)
    matching = [f for f in findings if f.rule == rule]
    assert matching, f"{rule} did not fire; got {findings}"
    block = rule in {"private-key-block", "gcp-service-account-key"}
    expected_line = 1 if block else text.count("\n", 0, text.index(secret)) + 1
    assert [f.line for f in matching] == [expected_line]
    for f in findings:
        assert f.description
        if f.rule == "secret-file-name":
            assert f.excerpt == secret  # a file name is no secret: it is shown as is
        else:
            assert_redacted(f, secret)


TOKEN_POSITIVES = [
    p
    for p in POSITIVES
    if p[0] not in {"private-key-block", "gcp-service-account-key", "secret-file-name"}
    and len(p[2]) >= 14
]


@pytest.mark.parametrize(
    ("rule", "text", "secret"), TOKEN_POSITIVES, ids=[p[0] for p in TOKEN_POSITIVES]
)
@pytest.mark.parametrize(
    "placeholder",
    [
        lambda s: s[: len(s) // 2] + "EXAMPLE" + s[len(s) // 2 + 7 :],
        lambda s: s[: len(s) // 2] + "x" * (len(s) - len(s) // 2),
        lambda s: "${SECRET_VALUE}",
        lambda s: "<your-secret>",
    ],
    ids=["example", "xxxx", "variable", "angle"],
)
def test_every_rule_ignores_placeholders_of_its_own_sample(
    rule: str, text: str, secret: str, placeholder: Callable[[str], str]
) -> None:
    assert scan_text(text.replace(secret, placeholder(secret))) == []


@pytest.mark.parametrize(("rule", "text"), NEGATIVES, ids=[n[0] for n in NEGATIVES])
def test_negative(rule: str, text: str) -> None:
    assert rule not in rules_of(scan_text(text))


@pytest.mark.parametrize("text", CLEAN)
def test_clean_prose_raises_nothing(text: str) -> None:
    assert scan_text(text) == []


# ------------------------------------------------------------------------- provider formats

FORMAT_IDS = [f"{i}-{fmt.rule}" for i, fmt in enumerate(FORMATS)]


def _rng(i: int, salt: int = 0) -> random.Random:
    return random.Random(i * 7919 + salt)


def _fixed_prefix(fmt: Fmt, i: int) -> str:
    """What every token of the format starts with: the common start of several fresh ones."""
    tokens = [fmt.token(_rng(i, n)) for n in range(6)]
    prefix = tokens[0]
    for t in tokens[1:]:
        while not t.startswith(prefix):
            prefix = prefix[:-1]
    return prefix


ASSIGNED = [
    "{key}: {value}",
    '{key}: "{value}"',
    "export {key}='{value}'",
    '{{"{key}": "{value}"}}',
    "<{key}>{value}</{key}>",
    '{key} := "{value}"',
]


@pytest.mark.parametrize("i", range(len(FORMATS)), ids=FORMAT_IDS)
def test_format_is_found_bare_and_assigned(i: int) -> None:
    """A fresh token of the format's documented shape: bare in a sentence (a format with a
    prefix), and assigned in several syntaxes (to its provider's key, for a keyed format)."""
    fmt = FORMATS[i]
    for n in range(3):
        token = fmt.token(_rng(i, 100 + n))
        texts = [] if fmt.key else [placed(fmt, token)]
        key = fmt.key or "deploy_value"
        value = fmt.context.format(token)
        if "\n" not in value:
            texts += [t.format(key=key, value=value) for t in ASSIGNED]
        else:
            texts.append(f"{key}={value}")
        for text in texts:
            findings = scan_text("intro line\n" + text)
            mine = [f for f in findings if f.rule == fmt.rule]
            assert mine, (text, findings)
            assert mine[0].line == 2
            for f in findings:
                assert_redacted(f, token)


def test_random_tokens_of_every_shape_are_found_by_their_own_rule() -> None:
    """The checks that keep readable text out (`glimt-my-tokens…`) let random bodies through:
    40 fresh tokens of every format, bare (or under their key), are found by the format's own
    rule, all but a handful."""
    missed = []
    for i, fmt in enumerate(FORMATS):
        rng = _rng(i, 5000)
        misses = sum(
            fmt.rule not in rules_of(scan_text(placed(fmt, fmt.token(rng)))) for _ in range(40)
        )
        if misses:
            missed.append((fmt.rule, misses))
    assert sum(n for _, n in missed) <= len(FORMATS) * 40 // 500, missed  # under 0.2%
    assert all(n <= 2 for _, n in missed), missed


FILLERS = [
    lambda n: "x" * n,
    lambda n: "#" * n,
    lambda n: "*" * n,
    lambda n: ("ab12" * n)[:n],
    lambda n: ("0123456789" * n)[:n],
    lambda n: ("EXAMPLE" + "0" * n)[:n],
]


@pytest.mark.parametrize("i", range(len(FORMATS)), ids=FORMAT_IDS)
def test_format_ignores_fillers_in_its_shape(i: int) -> None:
    """The format's prefix followed by a filler of the body's length is a placeholder."""
    fmt = FORMATS[i]
    token = fmt.token(_rng(i))
    prefix = _fixed_prefix(fmt, i)
    body = len(token) - len(prefix)
    for filler in FILLERS:
        fake = prefix + filler(body)
        assert scan_text(placed(fmt, fake)) == [], fake
        assert scan_text(placed(fmt, fake, "assigned")) == [], fake


@pytest.mark.parametrize("i", range(len(FORMATS)), ids=FORMAT_IDS)
def test_format_needs_its_whole_shape(i: int) -> None:
    """Cut short, or glued to the word before it, the token is not the format's."""
    fmt = FORMATS[i]
    token = fmt.token(_rng(i))
    prefix = _fixed_prefix(fmt, i)
    short = token[: len(prefix) + 6]
    assert fmt.rule not in rules_of(scan_text(placed(fmt, short)))
    if not fmt.key and fmt.context == "{}":
        assert fmt.rule not in rules_of(scan_text(f"the build printed x{token} then"))


@pytest.mark.parametrize(
    "i", [i for i, f in enumerate(FORMATS) if f.key], ids=[n for n, f in
                                                       zip(FORMAT_IDS, FORMATS, strict=True)
                                                       if f.key]
)  # fmt: skip
def test_keyed_format_needs_its_provider_named(i: int) -> None:
    """A value with no prefix is the provider's only under a key naming the provider; bare, or
    under an unrelated key, it is not (the generic rules may still judge it)."""
    fmt = FORMATS[i]
    token = fmt.token(_rng(i))
    for text in (f"build_number={token}", f"the build printed {token} then"):
        assert fmt.rule not in rules_of(scan_text(text)), text
    # the provider's key naming something else: an id, a URL, a public key
    stem = fmt.key.rsplit("_", 1)[0]
    for other in (f"{stem}_ID", f"{stem}_URL", f"{stem}_PUBLIC_KEY"):
        assert fmt.rule not in rules_of(scan_text(f"{other}={token}")), other


def test_specific_rule_wins_over_generic_ones() -> None:
    token = "gh" + "p_" + rnd(36)
    findings = scan_text(f'GITHUB_TOKEN="{token}"')
    assert rules_of(findings) == {"github-pat"}


def test_line_numbers_and_offset() -> None:
    token = "gl" + "pat-" + rnd(20)
    text = f"---\nid: x\n---\n\n## Context\nuse {token}\n"
    [finding] = scan_text(text)
    assert finding.line == 6
    [shifted] = scan_text(text, line_offset=10)
    assert shifted.line == 16


def test_findings_sorted_by_line_then_rule() -> None:
    text = (
        "b " + "np" + "m_" + rnd(36) + " a " + "AK" + "IA" + rnd(16, samples.BASE32) + "\n"
        "password: hunter2hunter2\n"
    )
    findings = scan_text(text)
    assert [(f.line, f.rule) for f in findings] == [
        (1, "aws-access-key-id"),
        (1, "npm-token"),
        (2, "password-assignment"),
    ]


def test_excerpt_shape() -> None:
    token = "gh" + "p_" + rnd(36)
    [finding] = scan_text(token)
    assert finding.excerpt == "ghp_… (40 chars)"
    [short] = scan_text("password: 'hunter2hunter2'")
    assert short.excerpt == "hun… (14 chars)"


# ------------------------------------------------------------------------- structures


def test_pem_block_reported_once_at_its_begin_line() -> None:
    text = "## Content\nthe deploy key:\n\n" + samples.pem("OPENSSH") + "\nmore prose\n"
    findings = scan_text(text)
    assert [(f.rule, f.line) for f in findings] == [("private-key-block", 4)]
    assert "OPENSSH PRIVATE KEY" in findings[0].excerpt


def test_two_pem_blocks_two_findings() -> None:
    text = samples.pem("RSA") + "\n" + samples.pem("EC")
    assert [f.rule for f in scan_text(text)] == ["private-key-block", "private-key-block"]


def test_truncated_pem_without_end_still_found() -> None:
    text = "-----BEGIN RSA PRIVATE KEY-----\n" + samples.pem_body(800)
    assert rules_of(scan_text(text)) == {"private-key-block"}


def test_jwt_header_must_decode_to_json_with_alg() -> None:
    token = samples.jwt({"alg": "RS256", "kid": "k1"})
    [finding] = scan_text(f"Cookie: session={token}")
    assert finding.rule == "jwt"
    assert_redacted(finding, token)


def test_password_in_url_names_the_scheme() -> None:
    password = rnd(16)
    [finding] = scan_text(f"url = 'postgresql://app:{password}@db:5432/x'")
    assert finding.rule == "password-in-url"
    assert "postgresql" in finding.description
    assert_redacted(finding, password)


def test_a_url_password_may_hold_a_hash_sign_a_port_before_a_fragment_is_none() -> None:
    """Connection strings are written with the password as it is (`#` unescaped), and the
    libraries that read them take everything up to the last `@`."""
    password = rnd(6) + "#" + rnd(4) + "%" + rnd(6)
    [finding] = scan_text(f"DATABASE_URL=postgres://app:{password}@db:5432/app")
    assert finding.rule == "password-in-url"
    assert_redacted(finding, password)
    assert scan_text("see http://docs.internal:8080#install@top") == []


def test_front_matter_assignments_quoted_and_unquoted() -> None:
    text = (
        "---\n"
        "id: shop-method-20261129-db\n"
        "password: hunter2hunter2\n"
        'api_key: "' + rnd(32) + '"\n'
        "token: '" + rnd(24) + "'\n"
        "---\n"
    )
    findings = scan_text(text)
    assert [(f.rule, f.line) for f in findings] == [
        ("password-assignment", 3),
        ("password-assignment", 4),
        ("password-assignment", 5),
    ]


@pytest.mark.parametrize(
    "line",
    [
        "db.password = 'S3cr3tPassw0rd'",
        "DB_PASSWORD=S3cr3tPassw0rd",
        '"password": "S3cr3tPassw0rd"',
        "'password' => 'S3cr3tPassw0rd',",
        'password := "S3cr3tPassw0rd"',
        "Server=db;Database=app;User Id=sa;Password=S3cr3tPassw0rd;",
        'jwt_secret: "hello-world-secret"',
        "auth = 'aB3dE5fG7hJ9kL1m'",
        "npm config set _auth=dXNlcjpwYXNzd29yZDEyMw==",
        "credential: S3cr3tPassw0rd",
    ],
)
def test_assignment_syntaxes(line: str) -> None:
    assert rules_of(scan_text(line)) == {"password-assignment"}


def test_entropy_rule_ignores_git_sha_and_uuid_in_prose() -> None:
    text = (
        "Fixed in commit " + samples.hexs(40) + "; see request " + samples.uuid() + ".\n"
        "The token rotation landed in " + samples.hexs(40) + " (merge commit).\n"
    )
    assert scan_text(text) == []


def test_entropy_rule_needs_a_secret_word_nearby() -> None:
    blob = rnd(40, samples.B64)
    assert scan_text(f"the checksum of the tarball is {blob}") == []
    far = "word " * 30
    assert scan_text(f"token {far}{blob}") == []
    assert rules_of(scan_text(f"token {blob}")) == {"high-entropy-near-secret-word"}


# ------------------------------------------------------------------------- normalise, then scan

GH = "ghp_" + rnd(36)


@pytest.mark.parametrize(
    "written",
    [
        GH.replace("_", "\\_"),  # a Markdown escape
        GH.replace("_", "&#95;"),  # an HTML entity
        GH.replace("_", "&lowbar;"),
        GH.replace("_", "%5F"),  # URL-encoding
        GH.replace("_", "&amp;#95;"),  # encoded twice
        "".join(chr(ord(c) + 0xFEE0) if c.isalnum() or c == "_" else c for c in GH),  # full-width
        GH[:10] + "\u200b" + GH[10:],  # split by a zero-width space
    ],
    ids=["markdown", "entity", "named-entity", "url", "double", "full-width", "zero-width"],
)
def test_a_token_that_renders_as_one_is_found_on_its_line(written: str) -> None:
    findings = scan_text(f"## Content\nfirst line\nthe bot uses {written} now\nlast line\n")
    mine = [f for f in findings if f.rule == "github-pat"]
    assert [f.line for f in mine] == [3], findings
    assert_redacted(mine[0], GH)
    assert "password-assignment" not in rules_of(findings)


def test_escaped_json_is_read_as_json() -> None:
    token = rnd(32)
    text = '\\{\n    \\"deploy_token\\": \\"' + token + '\\"\n\\}'
    assert [(f.rule, f.line) for f in scan_text(text)] == [("password-assignment", 2)]


def test_an_encoded_url_password_is_still_found() -> None:
    password = "p%40" + rnd(14)  # p@…, percent-encoded as a URL requires
    [finding] = scan_text(f"DATABASE_URL=postgres://app:{password}@db:5432/app")
    assert finding.rule == "password-in-url"


def test_a_percent_sign_that_encodes_no_text_stays_a_character() -> None:
    """`%E3d4` in a password is three characters; decoding it as an escape would break the
    value, written plainly or as an HTML entity (`&#37;`)."""
    value = "sk_" + rnd(6) + "%E3" + rnd(20)
    assert secrets._render(f"k={value} %C3%A9 %41") == f"k={value} \u00e9 A"
    for written in (value, value.replace("%", "&#37;"), value.replace("_", "&#95;")):
        line = f"<td>FREEMIUS_SECRET_KEY</td><td>{written}</td>"
        assert "freemius-secret-key" in rules_of(scan_text(line)), written


def test_text_that_renders_as_itself_is_scanned_once() -> None:
    assert secrets._normalised("plain ascii, 50% done & more\n") is None
    assert secrets._normalised("café — naïve\n") is None
    rendered = secrets._normalised("a\nb &amp; c\nd\\_e\n")
    assert rendered == ("a\nb & c\nd_e\n", frozenset({2, 3}))


def test_rendering_never_adds_lines() -> None:
    rendered = secrets._normalised("x%0Ay%0D%0Az\nnext")
    assert rendered is not None and rendered[0].count("\n") == 1


@pytest.mark.parametrize(
    "wrap",
    [
        lambda s: base64.b64encode(s.encode()).decode(),
        lambda s: base64.b64encode(base64.b64encode(s.encode())).decode(),
        lambda s: s.encode().hex(),
    ],
    ids=["base64", "base64-twice", "hex"],
)
def test_encoded_tokens_are_decoded_and_found(wrap: Callable[[str], str]) -> None:
    token = "sk_live_" + rnd(40)
    findings = scan_text(f"intro\nthe value is {wrap('key=' + token)} here\n")
    [mine] = [f for f in findings if f.rule == "stripe-secret-key"]
    assert mine.line == 2 and "encoded" in mine.description
    assert_redacted(mine, token)


def test_a_key_pair_base64_in_a_code_block_is_found() -> None:
    """A Kubernetes secret's tls.key, as kubectl prints it: base64 of a PEM file, wrapped."""
    encoded = base64.encodebytes(samples.pem("RSA").encode()).decode()
    text = (
        "## Evidence\n```yaml\ndata:\n  tls.key: |\n"
        + "".join(f"    {line}\n" for line in encoded.splitlines())
        + "```\n"
    )
    findings = scan_text(text)
    blocks = [f for f in findings if f.rule == "private-key-block"]
    assert [f.line for f in blocks] == [5] and "base64" in blocks[0].description
    single = base64.b64encode(samples.pem("EC", samples.pem_body(300)).encode()).decode()
    assert "private-key-block" in rules_of(scan_text(f"tls.key: {single}"))


def test_a_base64_wrapped_jwt_is_found() -> None:
    token = samples.jwt()
    wrapped = base64.b64encode(token.encode()).decode()
    assert wrapped.startswith("ZXlK")
    assert "jwt" in rules_of(scan_text(f"session blob {wrapped}"))


def test_decoding_is_bounded_in_depth_and_size() -> None:
    token = "sk_live_" + rnd(40)
    nested = "key=" + token
    for _ in range(3):  # three levels: deeper than the scanner decodes
        nested = base64.b64encode(nested.encode()).decode()
    assert "stripe-secret-key" not in rules_of(scan_text(nested))
    # a text full of decodable runs (paragraphs apart) decodes MAX_DECODED_CHARS of them
    run = base64.b64encode(b"just some words of prose, no secret here " * 40).decode()
    text = (
        "\n\n".join([run] * (4 * secrets.MAX_DECODED_CHARS // len(run)))
        + "\n\nx="
        + (base64.b64encode(("key=" + token).encode()).decode())
    )
    assert "stripe-secret-key" not in rules_of(scan_text(text[: secrets.MAX_SCAN_CHARS]))


def test_random_base64_and_hashes_decode_to_nothing() -> None:
    blob = base64.b64encode(random.Random(1).randbytes(48)).decode()
    text = f"checksum {blob} and {samples.hexs(64)}"
    assert scan_text(text) == []


# ------------------------------------------------------------------------- false alarms


@pytest.mark.parametrize(
    "text",
    [
        "snowflake.password=\njdbc.snowflake.url=jdbc:snowflake://acct.snowflakecomputing.com",
        "GITHUB_API_KEY=\nDYNATRACE_API_KEY=\n",
        "password:\nusername: deploy\n",
        "token =\n  # filled in by CI\n",
    ],
)
def test_an_empty_assignment_never_takes_the_next_line(text: str) -> None:
    assert scan_text(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "password: |\n  " + rnd(32),
        "deploy_token: >-\n  " + rnd(32),
        "<deployToken>\n    " + rnd(32) + "\n</deployToken>",
        "credentials:\n  " + rnd(32),
    ],
)
def test_a_block_or_an_element_takes_its_value_from_the_next_line(text: str) -> None:
    assert [f.line for f in scan_text(text)] == [2]


@pytest.mark.parametrize(
    "text",
    [
        "xoxp-" + samples.digits(12) + "-####################",
        "SLACK=xoxb-" + samples.digits(12) + "-" + samples.digits(12) + "-************************",
        "api_key=" + "abcd1234" * 4,
        "GR1348941" + "123" * 7,
        "token: " + "0123456789" * 4,
        "secret_key = '" + "x" * 40 + "'",
        "ghp_" + "XXXX" * 9,
        "client_secret: " + "ab" * 16,
        "glimt-my-tokens_are-correct-and-long",
        "glpat-this_is-my-gitlab-token",
        "sk_live_ThisIsAnExampleOfAKey",
        'password: "real_key"',
        "password: 'db_password_here'",
        "keyVaultToStoreSecrets: cmp2-qat-1208358310",
        "secret_name: prod-db-credentials-v2",
        "token_type: bearer_jwt_v2_signed",
        "max_tokens = 4096",
        "the key_id is 7f3c9e2a-1d4b-4e8f-9a6c-2b5d8e1f0a3c in the logs",
        "primary_key = " + rnd(30),
        "cache_key: " + rnd(32),
        "next_page_token: " + rnd(40),
        "idempotency_key = " + samples.uuid(),
    ],
)
def test_placeholders_fillers_and_names_are_no_secrets(text: str) -> None:
    assert scan_text(text) == [], scan_text(text)


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ('password = "P@ss w0rd 2024!"', "password-assignment"),
        ("user = 'Aladdin'\npassword = 'open sesame'", "password-assignment"),
        ('PASSWORD="correct horse battery staple"', "password-assignment"),
        ("The password is 'Secret123' for the staging box", "password-assignment"),
        ('so just make sure the password is "centipede" and press On', "password-assignment"),
        ('<add key="ClearTextPassword" value="' + rnd(14) + '!" />', "password-assignment"),
        ('<add key="FromEmailPassword" value="Prestig1tariu$"/>', "password-assignment"),
        ("curl -u elastic:" + rnd(10) + "$1 https://localhost:9200", "curl-credentials"),
        ("curl --user 'api:" + rnd(20) + "' https://api.mail.example.net", "curl-credentials"),
        ('curl -s -u ":' + rnd(14) + '" https://localhost:9200', "curl-credentials"),
        ("curl -X POST https://x.internal \\\n  -d 'world' \\\n  -u dev:" + rnd(16),
         "curl-credentials"),
        ("docker login -u ci -p " + rnd(24) + " registry.internal", "password-assignment"),
        ("echo x | docker login --username ci --password " + rnd(24), "password-assignment"),
        ("mysql -u root -p" + rnd(12) + " shop", "password-assignment"),
        ("machine api.heroku.com login me@example.org password " + rnd(20), "password-assignment"),
        ("psexec \\\\host -u admin -p " + rnd(12) + " cmd.exe", "password-assignment"),
        ('curl -H "X-Octopus-ApiKey: ' + samples.uuid() + '" https://octo', "authorization-header"),
        ('curl -H "Api-Token: ' + rnd(11) + '" https://x.internal', "authorization-header"),
        ("Authorization: " + samples.uuid(), "authorization-header"),
        ('"Authorization": "Basic ' + samples.b64(b"svc:" + rnd(12).encode()) + '"',
         "authorization-header"),
        ('utils.GetEnvOrDefault("api_token", "' + samples.uuid() + '")', "password-assignment"),
        ("deployToken,'" + rnd(30) + "',", "password-assignment"),
        ("$deployToken .= \"" + rnd(30) + "\";", "password-assignment"),
        ("DEPLOY_TOKEN ?= " + rnd(30), "password-assignment"),
        ("var deployToken string = \"" + rnd(30) + "\"", "password-assignment"),
    ],
)  # fmt: skip
def test_credentials_in_commands_and_config(text: str, rule: str) -> None:
    assert rule in rules_of(scan_text(text)), scan_text(text)


@pytest.mark.parametrize(
    "text",
    [
        "curl -u user:pass https://x.internal",
        "curl -u username:token https://x.internal",
        "curl --user xxx:yyy https://x.internal",
        'curl -u "SRVC_JENKINS:${APPID}" https://x.internal',
        "curl -u neo4j:[PASSWORD] http://[IP]:7474",
        'curl -X POST --user "$(cat ./login.txt):$(cat ./password.txt)"',
        "docker login -u ci -p $CI_REGISTRY_PASSWORD registry.internal",
        "docker run -p 8080:8080 nginx",
        "mysql -u root -p shop",
        "machine api.heroku.com login me@example.org password $HEROKU_TOKEN",
        "the machine learning password policy",
        'curl -H "Authorization: Bearer XXXXXXXXXXXX" https://x.internal',
        'curl -H "Authorization: Bearer $(gcloud auth print-access-token)" https://x',
        '<add key="SchemaTable" value="G:\\SchemaTable.xml" />',
        '<add key="PasswordPolicy" value="strict" />',
        "The password is stored in the vault, not here.",
        'password = "the one from the vault"',
        'sb.append("MasterUserPassword: " + getMasterUserPassword() + ",");',
        "echo 'export DATABASE_PASSWORD=\"'$PRECOMPILE_PASSWORD'\"' >> deploy.sh",
    ],
)
def test_commands_and_config_without_credentials(text: str) -> None:
    assert scan_text(text) == [], scan_text(text)


def test_jwt_forms() -> None:
    unsigned = samples.jwt().rsplit(".", 1)[0] + "."
    assert "jwt" in rules_of(scan_text(f"token {unsigned}"))
    damaged = "eyJhbGciOi" + "eeei" + samples.jwt()[14:]  # a header damaged after "alg"
    assert "jwt" in rules_of(scan_text(damaged))
    assert "jwt" in rules_of(scan_text("Authorization: Bearer " + samples.jwt()))


# ------------------------------------------------------------------------- file names


@pytest.mark.parametrize(
    "path",
    [
        ".env",
        "app/.env.local",
        ".env.production",
        "deploy/prod.env",
        "id_rsa",
        ".ssh/id_ed25519",
        "id_ecdsa",
        "id_dsa",
        "certs/server.pem",
        "tls.key",
        "store.p12",
        "cert.pfx",
        "release.jks",
        "app.keystore",
        "credentials.json",
        "service-account-prod.json",
        ".npmrc",
        ".pypirc",
        ".netrc",
        "_netrc",
        ".git-credentials",
        "kubeconfig",
        "home/.kube/config",
        "infra/terraform.tfstate",
        "infra/terraform.tfstate.backup",
        ".htpasswd",
        "config/secrets.yml",
    ],
)
def test_secret_file_names(path: str) -> None:
    [finding] = scan_file_names([path])
    assert finding == Finding("secret-file-name", 0, path, finding.description)
    assert finding.description.startswith("secret-like file name")


@pytest.mark.parametrize(
    "path",
    [
        ".env.example",
        ".env.sample",
        ".env.template",
        "config/.env.dist",
        "id_rsa.pub",
        ".ssh/id_ed25519.pub",
        "gitmem/secrets.py",
        "docs/keys.md",
        "environment.yml",
        "src/env.ts",
        "kube/config.yaml",
        "example.env",
    ],
)
def test_ordinary_file_names(path: str) -> None:
    assert scan_file_names([path]) == []


def test_scan_file_names_keeps_order() -> None:
    found = scan_file_names(["README.md", "b/.env", "a/id_rsa"])
    assert [f.excerpt for f in found] == ["b/.env", "a/id_rsa"]


# ------------------------------------------- reviewed exceptions: fingerprints, never markers


@pytest.mark.parametrize(
    "marker",
    ["<!-- gitmem:allow -->", "# gitmem:allow github-pat", "gitmem:allow because it is revoked"],
)
def test_an_inline_allow_marker_exempts_nothing(marker: str) -> None:
    """An author's own `gitmem:allow` once hid the finding on its line; it is text now."""
    token = "gh" + "p_" + rnd(36)
    assert rules_of(scan_text(f"use {token} {marker}\n")) == {"github-pat"}
    block = samples.pem("RSA")
    assert rules_of(scan_text(f"{marker}\n{block}")) == {"private-key-block"}
    assert rules_of(scan_text(f"a\u202eb {marker}")) == {"hidden-unicode"}


def test_a_finding_is_fingerprinted_by_its_rule_and_secret_never_holding_it() -> None:
    token = "gh" + "p_" + rnd(36)
    [found] = scan_text(f"use {token} here\n")
    rule, _, digest = found.fingerprint.partition(":")
    assert rule == "github-pat" and len(digest) == 32 and int(digest, 16) >= 0
    assert token not in found.fingerprint and token[4:12] not in found.fingerprint
    assert found.fingerprint == secrets.fingerprint("github-pat", token.encode())
    # the same secret elsewhere, on another line, quoted: the same fingerprint
    [moved] = scan_text(f"intro\n\nGITHUB_TOKEN = '{token}'\n")
    assert moved.fingerprint == found.fingerprint and moved.line == 3
    [other] = scan_text(f"use {'gh' + 'p_' + rnd(36)} here\n")
    assert other.fingerprint != found.fingerprint
    assert secrets.fingerprint("jwt", token.encode()) != found.fingerprint


def test_a_token_written_in_another_form_has_the_fingerprint_of_the_token_it_renders_as() -> None:
    """A reviewer allows a secret once, however a later entry escapes or encodes it."""
    body = rnd(36)
    bare = secrets.fingerprint("github-pat", f"ghp_{body}".encode())
    wide = "".join(chr(ord(c) + 0xFEE0) for c in f"ghp_{body}")
    for written in (f"ghp\\_{body}", f"ghp&#95;{body}", f"ghp%5F{body}", wide):
        [found] = scan_text(f"intro\nuse {written} here\n")
        assert (found.rule, found.line, found.fingerprint) == ("github-pat", 2, bare), written
    encoded = base64.b64encode(f"token ghp_{body} for the bot".encode()).decode()
    [decoded] = scan_text(f"config: {encoded}\n")
    assert decoded.rule == "github-pat" and decoded.fingerprint.startswith("github-pat:")
    assert decoded.fingerprint == scan_text(f"again: {encoded}\n")[0].fingerprint


def test_hidden_characters_are_fingerprinted_by_their_line() -> None:
    [first] = scan_text("a\u202eb\n")
    [same] = scan_text("x\na\u202eb\n")
    [other] = scan_text("c\u202ed\n")
    assert first.fingerprint == same.fingerprint != other.fingerprint
    assert first.fingerprint.startswith("hidden-unicode:")


# ------------------------------------------------------------------------- hidden unicode


@pytest.mark.parametrize(
    ("char", "kind"),
    [
        ("\u200b", "zero-width"),
        ("\u200c", "zero-width"),
        ("\u200d", "zero-width"),
        ("\u2060", "zero-width"),
        ("\ufeff", "zero-width"),
        ("\u202a", "bidirectional"),
        ("\u202b", "bidirectional"),
        ("\u202c", "bidirectional"),
        ("\u202d", "bidirectional"),
        ("\u202e", "bidirectional"),
        ("\u2066", "bidirectional"),
        ("\u2067", "bidirectional"),
        ("\u2068", "bidirectional"),
        ("\u2069", "bidirectional"),
        ("\u200e", "bidirectional"),
        ("\u200f", "bidirectional"),
        ("\u061c", "bidirectional"),
        ("\U000e0041", "tag"),
        ("\U000e0001", "tag"),
        ("\u00ad", "invisible format"),
        ("\u2063", "invisible format"),
        ("\u180e", "invisible format"),
        ("\ufff9", "invisible format"),
        ("\U0001d173", "invisible format"),
    ],
)
def test_hidden_unicode_each_class(char: str, kind: str) -> None:
    text = f"---\ntitle: ok\n---\nadmin{char}istrator\n"
    [finding] = scan_hidden_unicode(text)
    code = f"U+{ord(char):04X}"
    assert finding.rule == "hidden-unicode"
    assert finding.line == 4
    assert finding.excerpt.startswith(f"{code} {unicodedata.name(char)}")
    assert "column 6" in finding.excerpt
    assert kind in finding.description
    [scanned] = scan_text(text)
    assert (scanned.rule, scanned.line, scanned.excerpt) == (finding.rule, 4, finding.excerpt)


def test_hidden_unicode_counts_repeats_per_line() -> None:
    [finding] = scan_hidden_unicode("a\u200bb\u200bc\u200b\n")
    assert finding.excerpt.endswith("3 times")


def test_hidden_unicode_allows_leading_bom_and_emoji_joiners() -> None:
    assert scan_hidden_unicode("\ufeff# title\n") == []
    assert scan_hidden_unicode("team 👩\u200d💻 ready") == []


def test_hidden_unicode_line_offset() -> None:
    [finding] = scan_hidden_unicode("x\n\u202e", line_offset=5)
    assert finding.line == 7


def test_hidden_unicode_covers_every_invisible_format_character() -> None:
    """Every Cf character this Python knows, except the visible prepended marks, is caught."""
    visible = {0x0600, 0x0601, 0x0602, 0x0603, 0x0604, 0x0605, 0x06DD, 0x070F, 0x0890, 0x0891}
    visible |= {0x08E2, 0x110BD, 0x110CD}
    missing = [
        f"U+{cp:04X}"
        for cp in range(0x110000)
        if cp not in visible
        and unicodedata.category(chr(cp)) == "Cf"
        and not scan_hidden_unicode(f"x{chr(cp)}x")
    ]
    assert missing == []


#: Default_Ignorable_Code_Point (Unicode's DerivedCoreProperties.txt, as of Unicode 16), written
#: out: Python's unicodedata does not give the property. Renderers draw these as nothing, so
#: they hide inside a token; the emoji variation selectors U+FE00-FE0F are left out (emoji).
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)  # fmt: skip


def test_hidden_unicode_covers_every_default_ignorable_character() -> None:
    """Not only Cf: the Khmer inherent vowels are marks (Mn) and U+FFF0-FFF8 and most of
    U+E0000-E0FFF are unassigned, yet all render as nothing."""
    missing = [
        f"U+{cp:04X}"
        for low, high in DEFAULT_IGNORABLE
        for cp in range(low, high + 1)
        if not scan_hidden_unicode(f"x{chr(cp)}x")
    ]
    assert missing == []


@pytest.mark.parametrize("char", ["\u17b4", "\u17b5", "\ufff0", "\U000e0080", "\U000e0fff"])
def test_a_token_split_by_an_invisible_mark_is_the_token(char: str) -> None:
    token = "ghp_" + rnd(36)
    findings = scan_text(f"the bot uses {token[:7]}{char}{token[7:]} now\n")
    assert rules_of(findings) == {"github-pat", "hidden-unicode"}, findings
    [found] = [f for f in findings if f.rule == "github-pat"]
    assert_redacted(found, token)
    assert found.fingerprint == secrets.fingerprint("github-pat", token.encode())


@pytest.mark.parametrize(
    ("written", "code"),
    [
        ("\x1b[8m", "U+001B"),  # an escape sequence: conceals what follows on a terminal
        ("\x08\x08", "U+0008"),  # backspaces overwrite what came before
        ("a\rb", "U+000D"),  # a carriage return with no line feed overwrites the line
        ("\x00", "U+0000"),
        ("\x0c", "U+000C"),
        ("\x7f", "U+007F"),
        ("\x9b", "U+009B"),  # C1: the one-byte control sequence introducer
    ],
)
def test_control_characters_are_hidden_text(written: str, code: str) -> None:
    """A control character other than tab and line ends hides or overwrites text on the
    terminal a reviewer reads `gitmem review` in, ASCII text included."""
    text = f"---\ntitle: ok\n---\nAlways verify.{written} Set verify=False.\n"
    [finding] = scan_hidden_unicode(text)
    assert (finding.rule, finding.line) == ("hidden-unicode", 4)
    assert finding.excerpt.startswith(code) and "control character" in finding.description
    assert [f.rule for f in scan_text(text)] == ["hidden-unicode"]


def test_tabs_and_line_ends_are_no_control_characters() -> None:
    assert scan_hidden_unicode("---\r\ntitle: ok\r\n---\r\na\tb\r\n\n") == []


@pytest.mark.parametrize(
    ("escape", "code"),
    [("\\uFEFF", "U+FEFF"), ("\\u200b", "U+200B"), ("\\x1b", "U+001B"), ("\\e", "U+001B"),
     ("\\U000E0041", "U+E0041"), ("\\r", "U+000D")],
)  # fmt: skip
def test_a_yaml_escape_in_the_front_matter_is_the_character_it_decodes_to(
    escape: str, code: str
) -> None:
    """YAML decodes an escape in a double-quoted value to the character (the written text
    holds only ASCII); in the body the same letters are text."""
    text = f'---\nid: x\ntitle: "Pay with {escape}care"\n---\n\nWrite {escape} in Python.\n'
    [finding] = scan_hidden_unicode(text)
    assert (finding.rule, finding.line) == ("hidden-unicode", 3)
    assert finding.excerpt.startswith(code) and f"written {escape} " in finding.excerpt
    assert "YAML escape" in finding.description
    assert scan_hidden_unicode('---\ntitle: "a \\\\uFEFF b"\n---\n') == []  # a backslash


def test_a_token_written_with_yaml_escapes_is_the_token() -> None:
    """`ghp\\u005f…` and `ghp\\x5F…` in a double-quoted value are the token YAML decodes,
    found with the bare token's fingerprint."""
    token = samples.github_token(31)
    [bare] = scan_text(f"title: {token}\n")
    for escaped in (token.replace("_", "\\u005f", 1), token.replace("_", "\\x5F", 1)):
        [found] = scan_text(f'---\ntitle: "{escaped}"\n---\n')
        assert (found.rule, found.fingerprint) == (bare.rule, bare.fingerprint)


# ------------------------------------------------------------------------- size and hostility


def test_size_cap_finding_and_still_scans_the_prefix() -> None:
    token = "gh" + "p_" + rnd(36)
    text = token + "\n" + "a" * MAX_SCAN_CHARS
    rules = [f.rule for f in scan_text(text)]
    assert rules == ["github-pat", "scan-size-cap"]


def test_under_cap_no_cap_finding() -> None:
    assert scan_text("a" * MAX_SCAN_CHARS) == []


MEGABYTE = 1 << 20
TOKEN = "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
HOSTILE = {
    "a": "a" * MEGABYTE,
    "begin": "-----BEGIN" * (MEGABYTE // 10),
    "begin-headers": "-----BEGIN RSA PRIVATE KEY-----\n" * (MEGABYTE // 32),
    "colons": "A:" * (MEGABYTE // 2),
    "scheme": "://" * (MEGABYTE // 3),
    "equals": "=" * MEGABYTE,
    "assign-chain": "password=" * (MEGABYTE // 9),
    "assign-lines": "password=aB3dE5fG7h\n" * (MEGABYTE // 20),
    "token-words": ("token " + TOKEN[:24] + " ") * (MEGABYTE // 31),
    "near-tokens": ("ghp_" + TOKEN[:35] + " ") * (MEGABYTE // 40),
    "jwt-ish": "eyJhbGciOiJIUzI1NiJ9." * (MEGABYTE // 21),
    "url-ish": "postgres://u:p@" * (MEGABYTE // 15),
    "url-no-at": "x://u:" * (MEGABYTE // 6),
    "words": ("a" * 30 + " key ") * (MEGABYTE // 35),
    "env-mentions": " .env" * (MEGABYTE // 5),
    "zero-width": "\u200b" * MEGABYTE,
    "allow-markers": "gitmem:allow x\n" * (MEGABYTE // 15),
    "one-long-line": ("password: " + TOKEN + " ") * (MEGABYTE // 47),
}


def _calls(text: str) -> tuple[int, list[Finding]]:
    """The function calls (Python and built-in) one scan of text makes, and its findings."""
    calls = [0]

    def count(frame: Any, event: str, arg: Any) -> None:
        if event in ("call", "c_call"):
            calls[0] += 1

    sys.setprofile(count)
    try:
        findings = scan_text(text)
    finally:
        sys.setprofile(None)
    return calls[0], findings


def assert_linear(text: str) -> list[Finding]:
    """Scan a quarter of the text, then all of it: linear work makes about four times as
    many calls for the whole, a quadratic blow-up sixteen. The work is counted, not timed (a
    timed bound or a ratio of times fails on a busy shared machine): the function calls the
    scan makes, Python's and built-in ones, each part scanned twice and the second scan
    counted, so that the first has compiled the patterns and filled the caches. On the
    hostile texts the whole makes 1.0 to 4.0 times the quarter's calls (up to 1.2 million);
    on random hex-like text 4.1 times, plus the secret placed at its end. A rescan per
    candidate, per line or per decoded part shows up as calls; work inside one call does
    not: the rules' patterns are RE2 (linear), and a backtracking blow-up in one of the
    Python `re` helpers is left to tests/gate/test_hostile.py, which still times it."""
    # Each counted scan starts from an empty line memory: what earlier tests in this process
    # left in it (it empties when full) would otherwise make one count cheaper than the other.
    _calls(text[: len(text) // 4])
    secrets._LINE_MEMO.clear()
    quarter, _ = _calls(text[: len(text) // 4])
    _calls(text)
    secrets._LINE_MEMO.clear()
    whole, findings = _calls(text)
    # the slack is the fixed cost of findings the whole holds and the quarter does not: the
    # secret placed at the end of a text costs some 7,000 calls
    assert whole <= 5 * quarter + 10_000, (whole, quarter)
    return findings


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_input_is_linear_and_capped(name: str) -> None:
    findings = assert_linear(HOSTILE[name][: MAX_SCAN_CHARS + 1])
    assert "scan-size-cap" in rules_of(findings)


def _random_text(alphabet: str) -> str:
    rng = random.Random(5)
    return "".join(rng.choice(alphabet) for _ in range(MAX_SCAN_CHARS))


def _fragment_soup() -> str:
    rng = random.Random(6)
    parts = ["token", "key", "password=", "ghp_", "AKIA", "-----BEGIN ", "PRIVATE KEY-----"]
    parts += ["eyJ", "://", "a:b@", ".env", "sk-", "xoxb-", "\n", " ", "M", "Q~", "=", '"', "'"]
    out: list[str] = []
    while sum(map(len, out)) < MAX_SCAN_CHARS:
        out.append(rng.choice(parts) + rnd(rng.randrange(1, 40)))
    return "".join(out)


@pytest.mark.parametrize(
    "prefix",
    [
        lambda: ("token " + TOKEN + " password=" + rnd(30) + " -----BEGIN x ://a:b@") * 2000,
        lambda: _random_text(samples.B64),
        lambda: _random_text(samples.HEX + "MNO.-_:"),
        _fragment_soup,
    ],
    ids=["repeated-near-matches", "random-base64", "random-hexish", "fragment-soup"],
)
def test_secret_after_hostile_prefix_is_still_found(prefix: Callable[[], str]) -> None:
    """The one-pass rule set never gives up on a text, however many states it needs."""
    token = "gh" + "p_" + rnd(36)
    text = prefix()[: MAX_SCAN_CHARS - 200].replace("gitmem:allow", "") + "\n" + token
    findings = assert_linear(text)
    line = text.count("\n") + 1
    assert any(f.rule == "github-pat" and f.line == line for f in findings)


def test_import_is_cheap() -> None:
    """Importing the module compiles nothing and does not import re2."""
    code = "import sys, gitmem.gate.secrets; print('re2' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ------------------------------------------------------------------------- properties

FRAGMENTS = [
    "ghp_",
    "AKIA",
    "xoxb-",
    "sk-ant-api03-",
    "eyJ",
    "eyJhbGciOiJIUzI1NiJ9",
    ".",
    "-----BEGIN RSA PRIVATE KEY-----",
    "-----END RSA PRIVATE KEY-----",
    "PuTTY-User-Key-File-3: ",
    "Private-Lines: 1",
    "password",
    "token",
    "key",
    ": ",
    "=",
    '"',
    "'",
    "://",
    "@",
    ":",
    "\n",
    " ",
    "gitmem:allow",
    "gitmem:allow jwt",
    ".env",
    "id_rsa",
    "/",
    "\u200b",
    "\u202e",
    "\ufeff",
    "\ud800",
    TOKEN,
    "a1B2",
    "0123456789abcdef",
    # what rendering and decoding act on
    "\\_",
    "&#95;",
    "&amp;",
    "%5F",
    "%0A",
    "\uff47\uff48\uff50\uff3f",  # full-width ghp_
    "Z2hwXw==",  # base64 of ghp_
    "676870",  # hex of ghp
    # the structural rules' contexts
    "curl -u ",
    "docker login -p ",
    '<add key="Password" value="',
    "kind: Secret\ndata:\n  a: ",
    "| API_KEY | ",
    "--body ",
    "Authorization: Bearer ",
    "the password is '",
    "7z a -p",
    "rar a -hp",
    "unzip -P ",
    "openssl enc -k ",
    " -passin pass:",
    " -storepass ",
    "smbclient -U ",
    "%",
    "xfreerdp /p:",
    "cmdkey /pass:",
    "ConvertTo-SecureString ",
    " -AsPlainText",
    "requirepass ",
    "Passwort",
    "mot de passe",
    "\u043f\u0430\u0440\u043e\u043b\u044c",  # Russian for password
    "\u5bc6\u7801",  # Chinese for password
    "\uff1a",  # a full-width colon
]

# Each catalogue format's gate text, for the property below: fragments that start a match.
GATE_FRAGMENTS = sorted({fmt.token(random.Random(n))[:12] for n, fmt in enumerate(FORMATS)})


def check_findings(text: str, offset: int) -> None:
    findings = scan_text(text, line_offset=offset)
    assert isinstance(findings, list)
    lines = text[:MAX_SCAN_CHARS].count("\n") + 1
    for f in findings:
        assert isinstance(f, Finding)
        assert offset + 1 <= f.line <= offset + lines
        assert f.rule in secrets.rule_ids()
    assert findings == sorted(findings, key=lambda f: (f.line, f.rule))


@settings(max_examples=300, deadline=None)
@given(st.text(), st.integers(min_value=0, max_value=1000))
def test_any_text_gives_findings_never_an_exception(text: str, offset: int) -> None:
    check_findings(text, offset)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=80).map("".join))
def test_secret_shaped_noise_gives_findings_never_an_exception(text: str) -> None:
    check_findings(text, 0)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=40)))
def test_any_file_names(paths: list[str]) -> None:
    for f in scan_file_names(paths):
        assert f.rule == "secret-file-name" and f.line == 0 and f.excerpt


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_hidden_unicode_findings_name_code_points(text: str) -> None:
    for f in scan_hidden_unicode(text):
        assert f.excerpt.startswith("U+")
        assert chr(int(f.excerpt[2:].split()[0], 16)) in text


_ASCII_PIECES = st.sampled_from(
    ["---\n", "title: ", '"', "a", " ", "\\", "x1b", "u200B", "e", "0", "\r", "\n", "\r\n",
     "\t", "\x00", "\x1b", "\x0c", "\x7f", "...\n"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(_ASCII_PIECES, max_size=30).map("".join))
def test_an_ascii_texts_shortcut_reports_what_the_full_scan_reports(text: str) -> None:
    """ASCII text is let through by a byte filter (`_ascii_plain`); a harmless non-ASCII
    letter at its very end takes the full scan, whose findings must be the same."""
    assert scan_hidden_unicode(text) == scan_hidden_unicode(text + "\u00e9")


def _rules_whose_pattern_matches(data: bytes) -> set[int]:
    eng = secrets._engine()
    return {i for i in range(len(secrets._RULES)) if eng.regex(i).search(data) is not None}


def test_gates_are_cheap_literals_and_ascii() -> None:
    """A provider format's gate is its prefix (or a provider's name): no counted repetition of
    its own, which would multiply the Set's states; only short prefixes stand as whole
    patterns."""
    import re

    for r in secrets._RULES:
        assert all(g.isascii() for g in r.gates)
        if r.kind != secrets._TOKEN or r.gates == (r.pattern,):
            continue
        for gate in r.gates:
            counted = [int(n) for n in re.findall(r"\{(\d+)", gate)]
            assert all(n <= 32 for n in counted), (r.id, gate)


@pytest.mark.parametrize(
    "text",
    [p[1] for p in POSITIVES] + [n[0] for n in NEGATIVES] + CLEAN,
)
def test_the_set_pass_keeps_every_rule_whose_pattern_matches(text: str) -> None:
    """The one Set pass looks for the rules' gates, not their patterns: it must still name
    every rule whose own pattern matches, or a secret would go unseen."""
    data = text.encode("utf-8", "surrogatepass")
    assert _rules_whose_pattern_matches(data) <= set(secrets._engine().rules_in(data))


@settings(max_examples=600, deadline=None)
@given(
    st.lists(
        st.sampled_from([*FRAGMENTS, *GATE_FRAGMENTS, "user", "s3cr3tPa55", "https", "x" * 20]),
        max_size=60,
    )
)
def test_gates_are_never_narrower_than_their_patterns(parts: list[str]) -> None:
    data = "".join(parts).encode("utf-8", "surrogatepass")
    assert _rules_whose_pattern_matches(data) <= set(secrets._engine().rules_in(data))


def test_a_remembered_line_is_reported_wherever_it_comes_back() -> None:
    """The entropy rule remembers what each line yields; the same line elsewhere, in another
    text or after a `key:` line, is reported at its own place, and the memory stays bounded."""
    blob = rnd(32)
    line = f"the deploy token is {blob}"
    assert [(f.rule, f.line) for f in scan_text(line)] == [("high-entropy-near-secret-word", 1)]
    found = scan_text(f"intro\n{line}\nmiddle\n{line}\n")
    assert [(f.rule, f.line) for f in found] == [
        ("high-entropy-near-secret-word", n) for n in (2, 4)
    ]
    # the same bare value: found under a `password:` line only
    assert scan_text(f"{blob}\n") == []
    assert [f.line for f in scan_text(f"password:\n{blob}\n")] == [2]
    assert scan_text(f"{blob}\n") == []
    long_line = "x " * 600 + line  # over the memo's line length: judged, not remembered
    assert [f.line for f in scan_text(long_line)] == [1]
    assert all(len(key[0]) <= secrets._LINE_MEMO_CHARS for key in secrets._LINE_MEMO)
    assert len(secrets._LINE_MEMO) <= secrets._LINE_MEMO_SIZE


def test_the_line_memory_is_emptied_when_full(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(secrets, "_LINE_MEMO_SIZE", 2)
    monkeypatch.setattr(secrets, "_LINE_MEMO", {})
    # a seeded draw: about 2% of random 32-character blobs after "api token" fall under the
    # entropy threshold, which made a draw from the shared generator fail now and then
    blobs = [rnd(32, rng=random.Random(seed)) for seed in range(5)]
    for blob in blobs:
        assert [f.line for f in scan_text(f"api token {blob}")] == [1]
        assert len(secrets._LINE_MEMO) <= 2
    assert [f.line for f in scan_text(f"api token {blobs[0]}")] == [1]


# ------------------------------------------------------------------------- Kubernetes secrets

K8S_SECRET = """apiVersion: v1
kind: Secret
metadata:
  name: db-user-pass
type: Opaque
data:
  # base64 of the password
  password: {b64}
  username: YWRtaW4=
  .dockerconfigjson: |
    {b64}
stringData:
  api-token: {plain}
  empty: ""
"""


def test_the_values_of_a_kubernetes_secret_are_secrets() -> None:
    b64 = samples.b64(rnd(24).encode())
    text = K8S_SECRET.format(b64=b64, plain=rnd(16))
    found = [f.line for f in scan_text(text) if f.rule == "kubernetes-secret"]
    assert found == [8, 11, 13]  # not the 8-character user name, not the empty value
    # data before kind, in the same document
    before = "apiVersion: v1\ndata:\n  password: " + b64 + "\nkind: Secret\n"
    assert [f.line for f in scan_text(before)] == [3]


def test_references_and_other_kinds_are_no_kubernetes_secrets() -> None:
    b64 = samples.b64(rnd(24).encode())
    for kind in ("SopsSecret", "ExternalSecret", "SealedSecret", "ConfigMap"):
        text = K8S_SECRET.format(b64=b64, plain=rnd(16)).replace("kind: Secret", f"kind: {kind}")
        # the values are judged as any value is (a password key, a random value), not as a
        # Secret's: a random data entry under a plain name is no secret by itself
        assert "kubernetes-secret" not in rules_of(scan_text(text))
    templated = "kind: Secret\ndata:\n  password: {{ .Values.password }}\n  token: ''\n"
    assert scan_text(templated) == []


# ------------------------------------------------------------- markup that renders as nothing

_GH = "gh" + "p_" + "aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6"


@pytest.mark.parametrize(
    "written",
    [
        f"_{_GH}_",  # Markdown emphasis wrapped round the token
        f"__{_GH}__",
        f"*{_GH}*",
        f"***{_GH}***",
        "gh**p**_" + _GH[4:],  # emphasis inside it
        "gh`p_`" + _GH[4:],  # code spans inside it
        _GH[:10] + "<span></span>" + _GH[10:],  # empty inline elements
        "gh<!-- -->p_" + _GH[4:],  # a comment
        "&#103" + _GH[1:],  # a numeric reference without its semicolon, as HTML5 reads it
        "&#00000000103;" + _GH[1:],  # zero-padded past seven digits
        _GH[:10] + "\ufe0f" + _GH[10:],  # a variation selector, invisible after a letter
    ],
)
def test_a_token_hidden_by_markup_is_found_as_it_renders(written: str) -> None:
    assert "github-pat" in rules_of(scan_text(f"the bot logs in with {written} daily\n"))
    assert "github-pat" in rules_of(scan_text(f'GITHUB_TOKEN = "{written}"\n'))  # assigned


_GL = "glpat-" + rnd(20)
_OPENAI = "sk-proj-" + rnd(48)


@pytest.mark.parametrize(
    ("written", "rule"),
    [
        ("glpat-<span></span>" + _GL[6:], "gitlab-token"),  # after the prefix's hyphen
        ("glpat<b></b>-" + _GL[6:], "gitlab-token"),  # before it
        ("glpat-<!-- -->" + _GL[6:], "gitlab-token"),
        ("sk-<!---->proj-" + _OPENAI[8:], "openai-api-key"),
        ("sk-proj<wbr>-" + _OPENAI[8:], "openai-api-key"),
    ],
)
def test_markup_beside_a_hyphen_inside_a_token_is_read_as_it_renders(
    written: str, rule: str
) -> None:
    """An empty element or a comment renders as nothing next to a hyphen as next to a
    letter: GitLab's and OpenAI's prefixes end in one."""
    findings = scan_text(f"the bot logs in with {written} daily\n")
    assert rule in rules_of(findings), findings


@pytest.mark.parametrize(
    "text",
    [
        "call it with **kwargs and *args, then `make test`\n",
        "keep _private_helper_function_name_ and __init__ as they are\n",
        "the <b>bold</b>text and a<!-- note -->b stay prose\n",
        'token_name = "<span>placeholder</span>"\n',
        "a ```code``` block and `ghp_` as a prefix alone\n",
    ],
)
def test_markup_without_a_token_behind_it_is_no_finding(text: str) -> None:
    assert scan_text(text) == []


def test_a_key_block_made_up_at_both_ends_is_a_placeholder() -> None:
    """The real header of an OpenSSH key and filler after it: an example, not a key."""
    header = samples.openssh_key().split("\n")[1][:64]
    body = header + "A" * 300
    lines = "\n".join(body[i : i + 70] for i in range(0, len(body), 70))
    label = "-" * 5 + "{} OPENSSH PRIVATE KEY" + "-" * 5
    assert scan_text(f"{label.format('BEGIN')}\n{lines}\n{label.format('END')}\n") == []


def test_a_password_in_an_emphasised_url_is_found() -> None:
    url = "postgres://deploy:Xk3pQ9rT2mW8vB5n@db.internal:5432/app"
    assert "password-in-url" in rules_of(scan_text(f"- the database: _{url}_\n"))


def test_table_cells_stay_apart_and_code_spans_stay_quiet() -> None:
    """Only inline elements join the text either side: a table row's cells are two values."""
    assert secrets._render("<td>KEY</td><td>value</td>") == "<td>KEY</td><td>value</td>"
    assert secrets._render("run `make test` and __init__ and snake_case") == (
        "run `make test` and init and snake_case"
    )


def test_a_token_split_by_an_escaped_line_break_in_the_front_matter_is_found() -> None:
    """YAML joins a double-quoted value's escaped line break with the next line's text, its
    indentation dropped: the field holds the whole token, so the scan reads it whole."""
    head, tail = _GH[:18], _GH[18:]
    text = f'---\napplies_when: "the bot logs in with {head}\\\n    {tail} daily"\n---\n\nbody\n'
    [finding] = scan_text(text)
    assert (finding.rule, finding.line) == ("github-pat", 2)
    assert finding.fingerprint == scan_text(f"the bot logs in with {_GH}\n")[0].fingerprint
    # an escaped backslash ends no line early, and the body is Markdown (a hard line break)
    assert scan_text(f'---\ntitle: "a \\\\\\\\\n  {tail}"\n---\n') == []
    assert scan_text(f"---\ntitle: t\n---\n\n{head}\\\n{tail}\n") == []


@pytest.mark.parametrize("part", ["39999c95", "0aaaaa1b", "77d77777"])
def test_a_short_random_part_that_repeats_a_digit_is_no_filler(part: str) -> None:
    """One part of eight characters of a UUID-shaped key may repeat a hex digit five times (a
    few keys in a thousand do); the part was judged made up, and the key let through. A part
    is judged alone from twelve characters on; the whole key still is judged at any length."""
    key = f"api-{part}-1f2e-4d3c-9b8a-0f1e2d3c4b5a"
    assert rules_of(scan_text(f"LAUNCHDARKLY_SDK_KEY={key}\n")) == {"launchdarkly-key"}
