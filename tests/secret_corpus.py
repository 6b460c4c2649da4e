"""A labelled sample set for the secret scanner's quality, in two fixed splits.

Positives: every provider format of tests/secret_samples.py (fresh tokens of its documented
shape), placed four ways: bare in prose (formats with a prefix), assigned to a key, in a shell
command, and encoded as text renders it or carries it (a Markdown escape, an HTML entity,
URL-encoding, full-width letters, base64, hex; with its key, as a format without a prefix is
found only next to one); plus the structural credentials no provider
owns (passwords in URLs and assignments, curl -u, registry logins, XML settings, key blocks,
JWTs). Negatives: placeholders in each format's shape, identifiers, hashes in commit talk,
UUIDs, prose about secrets, and configuration without secrets.

The two splits differ in their seeds *and* in their templates: `TUNE` is what the rules were
adjusted against while they were written; `HELDOUT` uses other wordings, syntaxes and
encodings, written at the same time and not looked at while tuning. Both are written by the
people who wrote the rules, so the held-out figure is a check, not an outside measurement:
`python bench/check.py --quality` prints both, and says which is which.
"""

from __future__ import annotations

import base64
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import quote

from secret_samples import ALNUM, FORMATS, URLSAFE, Fmt, hexs, pem, rnd, uuid

TUNE, HELDOUT = "tune", "held-out"
SPLITS = (TUNE, HELDOUT)
PLACEMENTS = ("bare", "assigned", "command", "encoded")


@dataclass(frozen=True)
class Sample:
    """One labelled text: a positive holds `secret` (the rule that owns its format is `rule`),
    a negative holds none (`kind` says what it is instead)."""

    split: str
    text: str
    positive: bool
    kind: str  # a placement for a positive, a kind of look-alike for a negative
    rule: str = ""
    secret: str = ""


# ---------------------------------------------------------------------------------- templates

Template = Callable[[str, str], str]  # (key, value) -> text


def _fullwidth(value: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in value)


def _entity(value: str) -> str:
    return "".join(f"&#{ord(c)};" if not c.isalnum() else c for c in value)


def _named_entity(value: str) -> str:
    names = {"_": "&lowbar;", "-": "&hyphen;", ".": "&period;", "/": "&sol;", "+": "&plus;",
             "=": "&equals;", ":": "&colon;", "~": "&tilde;"}  # fmt: skip
    return "".join(names.get(c, c) for c in value)


def _markdown(value: str) -> str:
    return "".join("\\" + c if c in "_*-.~+" else c for c in value)


TEMPLATES: dict[str, dict[str, list[Template]]] = {
    TUNE: {
        "bare": [
            lambda k, v: f"the deploy log printed {v} before the job failed",
            lambda k, v: f"Rotated {v} after the incident on Tuesday.",
            lambda k, v: f"- staging uses {v} (see the runbook)",
            lambda k, v: f"| billing | `{v}` | owner: ops |",
        ],
        "assigned": [
            lambda k, v: f"{k}={v}",
            lambda k, v: f'{k}: "{v}"',
            lambda k, v: f'  "{k}": "{v}",',
            lambda k, v: f"{k} = '{v}'",
            lambda k, v: f"<{k}>{v}</{k}>",
        ],
        "command": [
            lambda k, v: f"export {k}={v}",
            lambda k, v: f"docker run -e {k}={v} ghcr.io/acme/app:1.4",
            lambda k, v: f"gh secret set {k} --body {v}",
            lambda k, v: f"env {k}='{v}' ./deploy.sh --prod",
        ],
        "encoded": [
            lambda k, v: f"in the wiki it reads {_markdown(k)}: {_markdown(v)} (escaped)",
            lambda k, v: f"<td>{k}</td><td>{_entity(v)}</td>",
            lambda k, v: f"https://ci.internal/run?{k}={quote(v, safe='')}",
            lambda k, v: f"blob: {base64.b64encode(f'{k}={v}'.encode()).decode()}",
        ],
    },
    HELDOUT: {
        "bare": [
            lambda k, v: f"We pasted {v} into the ticket by mistake.",
            lambda k, v: f"1. run the migration, then check {v} in the dashboard",
            lambda k, v: f"> {v}",
            lambda k, v: f"(it was {v}, now removed)",
        ],
        "assigned": [
            lambda k, v: f'{k} := "{v}"',
            lambda k, v: f"{k}: {v}",
            lambda k, v: f'{k} = "{v}"  # production',
            lambda k, v: f'$env:{k} = "{v}"',
            lambda k, v: f"{k}: |\n  {v}",
        ],
        "command": [
            lambda k, v: f"kubectl create secret generic app --from-literal={k}={v}",
            lambda k, v: f"heroku config:set {k}={v} -a shop",
            lambda k, v: f"aws ssm put-parameter --name /app/{k} --value '{v}' --type SecureString",
            lambda k, v: f"set {k}={v} && npm run release",
        ],
        "encoded": [
            lambda k, v: f"the page shows {k} = {_named_entity(v)}",
            lambda k, v: f"{k}%3D{quote(v, safe='')}",
            lambda k, v: f"copied from the PDF: {_fullwidth(k)}={_fullwidth(v)}",
            lambda k, v: (
                "config.json (base64): " + base64.b64encode(json.dumps({k: v}).encode()).decode()
            ),
            lambda k, v: f"hexdump {f'{k}={v}'.encode().hex()}",
        ],
    },
}

# The key a format without its own key is assigned to, by split.
GENERIC_KEYS = {
    TUNE: ["DEPLOY_TOKEN", "api_key", "serviceSecret", "AUTH_TOKEN"],
    HELDOUT: ["ciAccessToken", "INTEGRATION_SECRET", "upload_api_key", "svc-credential"],
}


def _key_variants(key: str) -> list[str]:
    """A provider's key as different codebases spell it: HEROKU_API_KEY, heroku_api_key,
    herokuApiKey."""
    words = key.lower().split("_")
    return [key, key.lower(), words[0] + "".join(w.title() for w in words[1:])]


def _positives(split: str, rng: random.Random) -> list[Sample]:
    samples = []
    pools = TEMPLATES[split]
    for fmt in FORMATS:
        for placement in PLACEMENTS:
            if placement == "bare" and fmt.key:
                continue  # a keyed format is found only next to its key
            token = fmt.token(rng)
            value = fmt.context.format(token)
            if "\n" in value and placement != "assigned":
                continue  # a format that spans lines: assigned only
            key = rng.choice(_key_variants(fmt.key) if fmt.key else GENERIC_KEYS[split])
            template = rng.choice(pools[placement])
            text = template(key, value)
            samples.append(Sample(split, text, True, placement, fmt.rule, token))
    return samples


def _structural(split: str, rng: random.Random) -> list[Sample]:
    """Credentials no provider owns, two wordings per split."""
    password = rnd(14, ALNUM + "!#%", rng)
    tune = [
        ("assigned", "password-in-url", f"DATABASE_URL=postgres://app:{password}@db:5432/app"),
        ("assigned", "password-assignment", f"db_password: '{password}'"),
        ("assigned", "password-assignment", f'<add key="ClearTextPassword" value="{password}" />'),
        ("command", "curl-credentials", f"curl -u deploy:{password} https://ci.internal/api"),
        ("command", "password-assignment", f"docker login -u ci -p {password} registry.internal"),
        ("bare", "private-key-block", pem("RSA")),
        ("bare", "jwt", _jwt(rng)),
    ]
    heldout = [
        ("assigned", "password-in-url", f"amqp://svc:{password}@rabbit.internal:5672/prod"),
        ("assigned", "password-assignment", f'"AdminPassword" : "{password}"'),
        ("assigned", "password-assignment",
         f"Server=db;Database=shop;User Id=sa;Password={password};"),
        ("command", "curl-credentials", f"curl -s --user 'api:{password}' https://mail.internal"),
        ("command", "password-assignment", f"mysql -u root -p{password} shop"),
        ("bare", "private-key-block", pem("OPENSSH")),
        ("bare", "jwt", "Authorization: Bearer " + _jwt(rng)),
    ]  # fmt: skip
    chosen = tune if split == TUNE else heldout
    return [Sample(split, text, True, kind, rule, "") for kind, rule, text in chosen]


def _jwt(rng: random.Random) -> str:
    def part(obj: object) -> str:
        return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")

    head = {"alg": rng.choice(["HS256", "RS256", "ES256"]), "typ": "JWT"}
    body = {"sub": rnd(10, ALNUM, rng), "iat": 1764000000 + rng.randrange(10**6)}
    return f"{part(head)}.{part(body)}.{rnd(43, URLSAFE, rng)}"


# ---------------------------------------------------------------------------------- negatives

FILLERS: dict[str, list[Callable[[int], str]]] = {
    TUNE: [lambda n: "x" * n, lambda n: "#" * n, lambda n: ("ab12" * n)[:n],
           lambda n: ("EXAMPLE" + "0" * n)[:n]],
    HELDOUT: [lambda n: "X" * n, lambda n: "*" * n, lambda n: ("0123456789" * n)[:n],
              lambda n: ("abc" * n)[:n]],
}  # fmt: skip


def _prefix(fmt: Fmt) -> str:
    rng = random.Random(fmt.rule)
    tokens = [fmt.token(rng) for _ in range(6)]
    prefix = tokens[0]
    for t in tokens[1:]:
        while not t.startswith(prefix):
            prefix = prefix[:-1]
    return prefix


def _placeholders(split: str, rng: random.Random) -> list[Sample]:
    samples = []
    wrappers = {
        TUNE: [lambda v: f"TOKEN={v}", lambda v: f"use {v} here"],
        HELDOUT: [lambda v: f'"credential": "{v}"', lambda v: f"e.g. {v}"],
    }[split]
    for fmt in FORMATS[::2] if split == TUNE else FORMATS[1::2]:
        token = fmt.token(rng)
        prefix = _prefix(fmt)
        fake = prefix + rng.choice(FILLERS[split])(len(token) - len(prefix))
        value = fmt.context.format(fake)
        text = f"{fmt.key}={value}" if fmt.key else rng.choice(wrappers)(value)
        samples.append(Sample(split, text, False, "placeholder"))
    words = {
        TUNE: ["${API_TOKEN}", "<your-token>", "{{ secrets.DEPLOY_KEY }}", "changeme",
               "********", "your_api_key_here", "%API_KEY%", "REDACTED"],
        HELDOUT: ["$GITHUB_TOKEN", "<api key>", "${{ secrets.NPM_TOKEN }}", "dummy-password",
                  "••••••••", "insert-token-here", "@SECRET@", "sk-...", "op://vault/item/field"],
    }[split]  # fmt: skip
    keys = ["api_key", "password", "token", "client_secret"]
    for word in words:
        samples.append(Sample(split, f"{rng.choice(keys)}: {word}", False, "placeholder"))
    return samples


NEGATIVES: dict[str, dict[str, list[str]]] = {
    TUNE: {
        "identifier": [
            "set `max_retry_token_bucket_size` to 32 before the load test",
            "`UserAccessTokenRepository.findByOwner` loads it lazily",
            "the column is `password_hash_algorithm_version`",
            "call refresh_oauth_token_if_expired() first",
            "token_type: bearer",
            "auth_method: client_secret_post",
            "secret_name: prod/payments/stripe",
            "api_key_header: X-Api-Key",
            "password_min_length: 12",
            "KEY_ROTATION_INTERVAL_DAYS=90",
        ],
        "hash": [
            "fixed in commit {hex40} (the key change)",
            "sha256 of the release tarball: {hex64}",
            "docker pull app@sha256:{hex64}",
            "the merge commit {hex40} reverted the token refactor",
            "checksum {hex32} for the archive",
        ],
        "uuid": [
            "request id {uuid} failed with 401 while refreshing the token",
            "tenant_id: {uuid}",
            "the key_id in the log was {uuid}",
        ],
        "prose": [
            "Rotate the API token every 90 days and keep it in the vault, never in memory.",
            "The password policy requires twelve characters and a second factor.",
            "Tokens expire after an hour; refresh them with the refresh endpoint.",
            "Never paste a private key into a ticket; use the secrets manager.",
            "The secret store is read by the deploy job through its service account.",
        ],
        "config": [
            "timeout: 30s\nretries: 5\nregion: eu-west-1",
            "DATABASE_URL=${DATABASE_URL}\nREDIS_URL=${REDIS_URL}",
            "password: ${{ secrets.DB_PASSWORD }}",
            "token_url: https://auth.internal/oauth/token",
            "auth:\n  provider: oidc\n  issuer: https://login.internal",
            "[database]\nhost = db.internal\nport = 5432\nuser = app",
        ],
    },
    HELDOUT: {
        "identifier": [
            "see `SecretKeyRingProvider.rotateAll()` for the schedule",
            "the env var is called `GITHUB_TOKEN_PERMISSIONS`",
            "import { getAccessToken, refreshToken } from './auth/session'",
            "max_tokens = 8192",
            "credentials_path: ~/.config/app/credentials.json",
            "public_key_fingerprint: SHA256",
            "passwordless_login_enabled = true",
            "keyboard_shortcuts_enabled: false",
            "csrf_token_header = X-CSRF-Token",
            "monkey_patch_tokenizer(False)",
        ],
        "hash": [
            "git show {hex40} -- src/auth.py",
            "the image digest is sha256:{hex64}",
            "md5 {hex32} matches the mirror",
            "revision {hex40} introduced the secret scanner",
            "sha1sum gave {hex40}",
        ],
        "uuid": [
            "correlation-id {uuid} in the gateway logs",
            'client_id = "{uuid}"',
            "the idempotency_key {uuid} was reused",
        ],
        "prose": [
            "If the token leaks, revoke it first and then tell security.",
            "We keep passwords out of memory entries; reviewers reject them.",
            "The API key is scoped to read-only access on the staging project.",
            "Store the signing key in the HSM; the app only sees a handle.",
            "A secret in an environment file is still a secret once it is committed.",
        ],
        "config": [
            'log_level = "info"\nworkers = 4\nbind = "0.0.0.0:8080"',
            '{"auth": {"type": "oauth2", "scopes": ["read", "write"]}}',
            "secret:\n  secretName: app-tls\n  items:\n    - key: tls.crt",
            "api_key: !Ref ApiKeyParameter",
            "password_file: /run/secrets/db_password",
            "AWS_PROFILE=staging\nAWS_REGION=eu-central-1",
        ],
    },
}


def _negatives(split: str, rng: random.Random) -> list[Sample]:
    samples = _placeholders(split, rng)
    for kind, texts in NEGATIVES[split].items():
        for text in texts:
            filled = (
                text.format(
                    hex40=hexs(40, rng), hex64=hexs(64, rng), hex32=hexs(32, rng), uuid=uuid(rng)
                )
                if "{" in text and "}" in text and kind in ("hash", "uuid")
                else text
            )
            samples.append(Sample(split, filled, False, kind))
    # hashes and ids inside ordinary lines, over and over: what memory text is full of
    for _ in range(20):
        samples.append(Sample(split, f"See commit {hexs(40, rng)}.", False, "hash"))
        samples.append(Sample(split, f"trace {uuid(rng)} ok", False, "uuid"))
    return samples


def corpus(split: str) -> list[Sample]:
    """The labelled samples of one split, the same every time."""
    rng = random.Random(f"secret-corpus-{split}")
    return _positives(split, rng) + _structural(split, rng) + _negatives(split, rng)
