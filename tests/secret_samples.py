"""Fake secrets for the scanner's tests, built at import time from a fixed seed.

No realistic secret is written here whole: every token is a documented prefix joined to random
characters of the provider's alphabet and length, so this file never trips a secret scanner
(ours or a forge's), while the built values have exactly the shape the rules look for.
"""

from __future__ import annotations

import base64
import json
import random
import string

_rng = random.Random(20261129)

UPPER = string.ascii_uppercase
LOWER = string.ascii_lowercase
DIGITS = string.digits
ALNUM = string.ascii_letters + string.digits
URLSAFE = ALNUM + "-_"
B64 = ALNUM + "+/"
HEX = "0123456789abcdef"
BASE32 = UPPER + "234567"
BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"


def rnd(n: int, alphabet: str = ALNUM) -> str:
    """n random characters, drawn again until they mix classes like a real token would."""
    classes = [s for s in (UPPER, LOWER, DIGITS) if set(s) & set(alphabet)]
    need = min(2, n, len(classes))
    while True:
        value = "".join(_rng.choice(alphabet) for _ in range(n))
        if sum(any(c in s for c in value) for s in classes) >= need:
            return value


def hexs(n: int) -> str:
    return rnd(n, HEX)


def digits(n: int) -> str:
    return str(_rng.randrange(1, 10)) + "".join(_rng.choice(DIGITS) for _ in range(n - 1))


def uuid() -> str:
    return "-".join(hexs(n) for n in (8, 4, 4, 4, 12))


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def jwt(header: dict[str, object] | None = None) -> str:
    head = header if header is not None else {"alg": "HS256", "typ": "JWT"}
    payload = {"sub": digits(8), "iat": 1764000000, "scope": "repo"}
    return ".".join(
        [b64url(json.dumps(head).encode()), b64url(json.dumps(payload).encode()), rnd(43, URLSAFE)]
    )


def pem_body(chars: int = 1600) -> str:
    body = rnd(chars, B64)
    return "\n".join(body[i : i + 64] for i in range(0, len(body), 64))


def pem(kind: str, body: str | None = None, *, armor: str = "") -> str:
    label = f"{kind} PRIVATE KEY" if kind else "PRIVATE KEY"
    if kind == "PGP":
        label = "PGP PRIVATE KEY BLOCK"
    dashes = "-" * 5
    return (
        f"{dashes}BEGIN {label}{dashes}\n{armor}{pem_body() if body is None else body}\n"
        f"{dashes}END {label}{dashes}\n"
    )


# (rule id, text, the secret inside it). The secret must be on the text's last line.
POSITIVES: list[tuple[str, str, str]] = []


def _add(rule: str, secret: str, template: str = "{}") -> None:
    POSITIVES.append((rule, template.format(secret), secret))


_add("aws-access-key-id", "AK" + "IA" + rnd(16, BASE32), "aws_access_key_id = {}")
_add("aws-access-key-id", "AS" + "IA" + rnd(16, BASE32), "export AWS_KEY_ID={}")
_add("aws-secret-access-key", rnd(40, B64), "aws_secret_access_key = {}")
_add("aws-secret-access-key", rnd(40, B64), '"SecretAccessKey": "{}"')
_add("google-api-key", "AI" + "za" + rnd(35, URLSAFE), "firebase apiKey: {}")
_add("google-oauth-client-secret", "GOCSPX-" + rnd(28, URLSAFE), "client secret {}")
_add("google-oauth-token", "ya29." + rnd(120, URLSAFE), "curl -H 'X-Goog: {}'")
_add(
    "azure-storage-account-key",
    rnd(86, B64) + "==",
    "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={};EndpointSuffix=core.windows.net",
)
_add(
    "azure-sas-token",
    rnd(43, ALNUM) + "%3D",
    "https://acct.blob.core.windows.net/c/f.txt?sv=2022-11-02&sp=r&se=2026-01-01&sig={}",
)
_add("azure-ad-client-secret", rnd(3) + "8Q~" + rnd(34, ALNUM + "_~.-"), "AZURE_CLIENT_SECRET={}")
_add("digitalocean-token", "dop_v1_" + hexs(64), "doctl auth init -t {}")
_add("alibaba-access-key-id", "LTAI" + rnd(20), "accessKeyId: {}")
_add("tencent-secret-id", "AKID" + rnd(32), "SecretId={}")
_add("ibm-cloud-api-key", rnd(44, URLSAFE), "IBM_CLOUD_API_KEY={}")
_add("cloudflare-api-token", rnd(40, URLSAFE), "CLOUDFLARE_API_TOKEN={}")
_add("heroku-api-key", "HRKU-" + rnd(60, URLSAFE), "heroku token {}")
_add("heroku-api-key", uuid(), "HEROKU_API_KEY={}")
_add("github-pat", "gh" + "p_" + rnd(36), "token: {}")
_add("github-oauth-token", "gh" + "o_" + rnd(36), "{}")
_add("github-user-token", "gh" + "u_" + rnd(36), "{}")
_add("github-server-token", "gh" + "s_" + rnd(36), "GITHUB_TOKEN={}")
_add("github-refresh-token", "gh" + "r_" + rnd(76), "refresh {}")
_add("github-fine-grained-pat", "github_" + "pat_" + rnd(22) + "_" + rnd(59), "use {} here")
_add("gitlab-token", "gl" + "pat-" + rnd(20, URLSAFE), "GITLAB_TOKEN={}")
_add("gitlab-token", "gl" + "rt-" + rnd(20, URLSAFE), "runner {}")
_add("gitlab-runner-registration-token", "GR1348941" + rnd(20, URLSAFE), "--registration-token {}")
_add("bitbucket-app-password", "ATBB" + rnd(32), "app password {}")
_add("atlassian-api-token", "ATATT3" + rnd(180, URLSAFE), "JIRA {}")
_add("gitea-token", hexs(40), "GITEA_TOKEN={}")
_add("circleci-token", "CCIPAT_" + rnd(22) + "_" + hexs(40), "{}")
_add("circleci-token", hexs(40), "CIRCLE_TOKEN={}")
_add("travis-token", rnd(22, URLSAFE), "TRAVIS_API_TOKEN={}")
_add("buildkite-token", "bkua_" + hexs(40), "{}")
_add("sonar-token", "sqp_" + hexs(40), "SONAR={}")
_add("jfrog-token", "AKCp" + rnd(69), "artifactory {}")
_add("slack-bot-token", "xo" + "xb-" + digits(12) + "-" + digits(13) + "-" + rnd(24), "{}")
_add("slack-user-token", "xo" + "xp-" + digits(12) + "-" + digits(12) + "-" + hexs(32), "{}")
_add("slack-token", "xo" + "xe.xoxp-1-" + rnd(150), "config token {}")
_add(
    "slack-app-token",
    "xa" + "pp-1-A0" + rnd(9, UPPER + DIGITS) + "-" + digits(13) + "-" + hexs(64),
    "{}",
)
_add(
    "slack-webhook-url",
    "T" + rnd(10, UPPER + DIGITS) + "/B" + rnd(10, UPPER + DIGITS) + "/" + rnd(24),
    "https://hooks.slack.com/services/{}",
)
_add("discord-bot-token", "M" + rnd(25) + "." + rnd(6) + "." + rnd(38, URLSAFE), "bot {}")
_add(
    "discord-webhook-url",
    rnd(68, URLSAFE),
    "https://discord.com/api/webhooks/" + digits(18) + "/{}",
)
_add("telegram-bot-token", digits(10) + ":AA" + rnd(33, URLSAFE), "TELEGRAM={}")
_add(
    "teams-webhook-url",
    f"{uuid()}@{uuid()}/IncomingWebhook/{hexs(32)}/{uuid()}",
    "https://contoso.webhook.office.com/webhookb2/{}",
)
_add("stripe-secret-key", "sk" + "_live_" + rnd(99), "STRIPE_KEY={}")
_add("stripe-secret-key", "sk" + "_test_" + rnd(24), "stripe test key {}")
_add("stripe-restricted-key", "rk" + "_live_" + rnd(99), "{}")
_add("stripe-webhook-secret", "wh" + "sec_" + rnd(32), "{}")
_add("square-access-token", "EAAA" + rnd(60, URLSAFE), "square {}")
_add("square-access-token", "sq0" + "atp-" + rnd(22, URLSAFE), "square {}")
_add("square-oauth-secret", "sq0" + "csp-" + rnd(43, URLSAFE), "square {}")
_add(
    "braintree-access-token",
    "access_token$" + "production$" + rnd(16, LOWER + DIGITS) + "$" + hexs(32),
    "{}",
)
_add("shopify-access-token", "shp" + "at_" + hexs(32), "{}")
_add("shopify-shared-secret", "shp" + "ss_" + hexs(32), "{}")
_add("flutterwave-secret-key", "FLWSECK-" + hexs(32) + "-X", "{}")
_add("facebook-access-token", "EAAB" + rnd(150), "fb {}")
_add("npm-token", "np" + "m_" + rnd(36), "//registry.npmjs.org/:_authToken={}")
_add("pypi-token", "pypi-" + "AgEIcHlwaS5vcmc" + rnd(70, URLSAFE), "password = {}")
_add("rubygems-api-key", "rubygems_" + hexs(48), "{}")
_add("nuget-api-key", "oy2" + rnd(43, LOWER + DIGITS), "nuget push -k {}")
_add("dockerhub-token", "dckr" + "_pat_" + rnd(27, URLSAFE), "docker login -p {}")
_add("crates-io-token", "cio" + rnd(32), "cargo login {}")
_add("clojars-token", "CLOJARS_" + rnd(60, LOWER + DIGITS), "{}")
_add("anthropic-api-key", "sk-" + "ant-api03-" + rnd(93, URLSAFE) + "AA", "ANTHROPIC_API_KEY={}")
_add("openai-api-key", "sk-" + "proj-" + rnd(120, URLSAFE), "OPENAI_API_KEY={}")
_add("openai-api-key", "sk-" + rnd(20) + "T3Blbk" + "FJ" + rnd(20), "{}")
_add("huggingface-token", "hf" + "_" + rnd(34, string.ascii_letters), "HF_TOKEN={}")
_add("groq-api-key", "gs" + "k_" + rnd(52), "{}")
_add("replicate-api-token", "r8" + "_" + rnd(37), "{}")
_add("xai-api-key", "xa" + "i-" + rnd(80), "{}")
_add("perplexity-api-key", "pp" + "lx-" + rnd(48), "{}")
_add("langsmith-api-key", "lsv2" + "_pt_" + hexs(32) + "_" + hexs(10), "{}")
_add("cohere-api-key", rnd(40), "COHERE_API_KEY={}")
_add("mistral-api-key", rnd(32), "MISTRAL_API_KEY={}")
_add("planetscale-token", "pscale" + "_tkn_" + rnd(43, URLSAFE), "{}")
_add("supabase-token", "sb" + "p_" + hexs(40), "{}")
_add("databricks-token", "da" + "pi" + hexs(32), "{}")
_add("sendgrid-api-key", "SG." + rnd(22, URLSAFE) + "." + rnd(43, URLSAFE), "{}")
_add("mailgun-api-key", "key-" + hexs(32), "mailgun {}")
_add("mailchimp-api-key", hexs(32) + "-us12", "{}")
_add("brevo-api-key", "xkeysib-" + hexs(64) + "-" + rnd(16), "{}")
_add("twilio-api-key", "SK" + hexs(32), "{}")
_add("twilio-credentials", "AC" + hexs(32) + ":" + hexs(32), "curl -u {}")
_add("twilio-credentials", hexs(32), "TWILIO_AUTH_TOKEN={}")
_add("sentry-dsn", hexs(32), "dsn: https://{}@o" + digits(6) + ".ingest.sentry.io/" + digits(7))
_add("sentry-auth-token", "sntry" + "s_" + rnd(80, B64), "{}")
_add("datadog-api-key", hexs(32), "DD_API_KEY={}")
_add("newrelic-key", "NR" + "AK-" + rnd(27, UPPER + DIGITS), "{}")
_add("dynatrace-token", "dt0c01." + rnd(24, UPPER + DIGITS) + "." + rnd(64, UPPER + DIGITS), "{}")
_add("linear-api-key", "lin" + "_api_" + rnd(40), "{}")
_add("notion-token", "secret" + "_" + rnd(43), "NOTION={}")
_add("notion-token", "ntn" + "_" + digits(11) + rnd(35), "NOTION={}")
_add("postman-api-key", "PM" + "AK-" + hexs(24) + "-" + hexs(34), "{}")
_add("airtable-token", "pat" + rnd(14) + "." + hexs(64), "{}")
_add("figma-token", "fi" + "gd_" + rnd(40, URLSAFE), "{}")
_add("netlify-token", "nf" + "p_" + rnd(36), "{}")
_add("prefect-api-key", "pn" + "u_" + rnd(36), "{}")
_add("easypost-api-key", "EZAK" + rnd(54), "{}")
_add("shippo-api-token", "shippo" + "_live_" + hexs(40), "{}")
_add("contentful-token", "CF" + "PAT-" + rnd(43, URLSAFE), "{}")
_add("mapbox-secret-token", "sk." + "eyJ1Ijoi" + rnd(40) + "." + rnd(22, URLSAFE), "{}")
_add("firebase-messaging-key", "AAAA" + rnd(7) + ":APA91b" + rnd(134, URLSAFE), "{}")
_add("dropbox-token", "sl." + rnd(140, URLSAFE), "{}")
_add("tailscale-key", "tskey" + "-auth-" + rnd(12) + "-" + rnd(30), "{}")
_add("vault-token", "hv" + "s." + rnd(90, URLSAFE), "VAULT_TOKEN={}")
_add("doppler-token", "dp" + ".pt." + rnd(43), "{}")
_add("pulumi-token", "pu" + "l-" + hexs(40), "{}")
_add("terraform-cloud-token", rnd(14) + ".atlas" + "v1." + rnd(67, URLSAFE), "{}")
_add("grafana-token", "gl" + "c_" + rnd(80, B64), "{}")
_add("grafana-token", "gl" + "sa_" + rnd(32) + "_" + hexs(8), "{}")
_add("okta-api-token", "00" + rnd(40, URLSAFE), "OKTA_API_TOKEN={}")
_add("okta-api-token", "00" + rnd(40, URLSAFE), "Authorization: SSWS {}")
_add("age-secret-key", "AGE-SECRET-" + "KEY-1" + rnd(58, BECH32), "{}")
_add("jwt", jwt(), "cookie {}")
_add("authorization-header", rnd(40, URLSAFE), "Authorization: Bearer {}")
_add("authorization-header", rnd(28, B64) + "==", 'headers = {{"Authorization": "Basic {}"}}')
_add("password-in-url", "S3cr" + rnd(12), "DATABASE_URL=postgres://app:{}@db.internal:5432/app")
_add("password-in-url", rnd(16), "mysql://root:{}@127.0.0.1/shop")
_add("password-in-url", rnd(16), "mongodb+srv://svc:{}@cluster0.abcde.mongodb.net/db")
_add("password-in-url", rnd(16), "redis://:{}@cache:6379/0")
_add("password-assignment", "hunter2hunter2", "---\ntitle: x\npassword: {}\n---")
_add("password-assignment", "hunter2hunter2", '---\ntitle: x\npassword: "{}"')
_add("password-assignment", "hunter2hunter2", "password: '{}'")
_add("password-assignment", "S3cret-Passw0rd!", "db_password = '{}'")
_add("password-assignment", "correcthorse", 'PASSWORD="{}"')
_add("password-assignment", "Tr0ub4dor&3x", "MYSQL_PWD={}")
_add("password-assignment", "hunter2hunter2", "mysqladmin --password {}")
_add("password-assignment", rnd(24), "client_secret: {}")
_add("password-assignment", rnd(18, LOWER + DIGITS), '{{"apiKey": "{}"}}')
_add("high-entropy-near-secret-word", rnd(40, B64), "the signing key we use is {} for now")
_add("high-entropy-near-secret-word", rnd(40, B64), "{} is the staging token")
_add("high-entropy-near-secret-word", rnd(48, B64), "password: |\n  {}")
_add("high-entropy-near-secret-word", hexs(64), "api token (hex) {}")
_add("secret-file-name", ".env", "copy the `{}` file from the vault")
_add("secret-file-name", "config/.env.production", "values live in {}")
_add("secret-file-name", "~/.ssh/id_rsa", "ssh -i {} host")
_add("secret-file-name", "certs/tls.key", "load {}")
_add("secret-file-name", "server.pem", "the nginx cert is {}.")
_add("secret-file-name", "terraform.tfstate", "state in {}")
_add("secret-file-name", "~/.aws/credentials", "see {}")
_add("secret-file-name", ".kube/config", "KUBECONFIG={}")
_add("secret-file-name", "service-account-prod.json", "gcloud uses {}")
_add("secret-file-name", ".npmrc", "token in ({})")


def _block(rule: str, text: str) -> None:
    """A key block: its secret is the first line of the body (the header is no secret)."""
    lines = text.split("\n")
    body = next(line for line in lines[1:] if len(line) >= 40 and ":" not in line)
    POSITIVES.append((rule, text, body))


for kind in ("RSA", "OPENSSH", "DSA", "", "ENCRYPTED"):
    _block("private-key-block", pem(kind))
_block("private-key-block", pem("EC", pem_body(220)))
_block(
    "private-key-block",
    pem("RSA", armor=f"Proc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,{hexs(32).upper()}\n\n"),
)
_block("private-key-block", pem("PGP", armor="Version: GnuPG v2\n\n"))
_block(
    "private-key-block",
    "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: k\nPublic-Lines: 2\n"
    f"{rnd(64, B64)}\n{rnd(20, B64)}\nPrivate-Lines: 1\n{rnd(64, B64)}\n"
    f"Private-MAC: {hexs(64)}\n",
)
_GCP_BODY = [rnd(64, B64) for _ in range(20)]
POSITIVES.append(
    (
        "gcp-service-account-key",
        '{"type": "service_account", "private_key_id": "'
        + hexs(40)
        + '", "private_key": "-----BEGIN PRIVATE KEY-----\\n'
        + "\\n".join(_GCP_BODY)
        + '\\n-----END PRIVATE KEY-----\\n"}',
        _GCP_BODY[0],
    )
)

# (rule id, text): the rule must not fire on the text.
NEGATIVES: list[tuple[str, str]] = [
    ("aws-access-key-id", "aws_access_key_id = AKIA" + "IOSFODNN7" + "EXAMPLE"),
    ("aws-access-key-id", "AKIA" + "X" * 16),
    ("aws-access-key-id", "AKIA" + "ABCDEFGHIJKLMNOP"),
    (
        "aws-secret-access-key",
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY",
    ),
    ("google-api-key", "AIza" + "your-api-key-here-0000000000000000000"),
    ("github-pat", "token: ghp_" + "x" * 36),
    ("github-pat", "token: ghp_" + "A" * 36),
    ("github-pat", "token: ghp_your_personal_access_token_goes_here"),
    ("github-pat", "token: ghp_" + rnd(20)),  # too short
    ("gitlab-token", "GITLAB_TOKEN=glpat-xxxxxxxxxxxxxxxxxxxx"),
    ("slack-bot-token", "SLACK_TOKEN=xoxb-your-bot-token-here-please"),
    (
        "slack-webhook-url",
        "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
    ),
    ("telegram-bot-token", "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11"),
    ("stripe-secret-key", "STRIPE_PUBLISHABLE_KEY=pk" + "_live_" + rnd(99)),
    ("high-entropy-near-secret-word", "STRIPE_PUBLISHABLE_KEY=pk" + "_live_" + rnd(99)),
    ("password-assignment", "STRIPE_PUBLISHABLE_KEY=pk" + "_live_" + rnd(99)),
    ("stripe-secret-key", "sk" + "_live_" + "1234567890abcdefghijklmnop"),
    ("openai-api-key", "OPENAI_API_KEY=sk-..."),
    ("openai-api-key", "OPENAI_API_KEY=<your-openai-key>"),
    ("anthropic-api-key", "ANTHROPIC_API_KEY=${ANTHROPIC_API_KEY}"),
    ("twilio-api-key", "SK" + "0" * 32),
    ("heroku-api-key", "HEROKU_API_KEY=$HEROKU_API_KEY"),
    ("cohere-api-key", "COHERE_API_KEY=" + "x" * 40),
    (
        "jwt",
        "eyJ"
        + "hbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lI"
        "iwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    ),  # jwt.io's example
    ("jwt", b64url(b'{"foo": 1}') + "." + b64url(b'{"a":1}') + "." + rnd(43, URLSAFE)),
    ("jwt", jwt({"typ": "JWT"})),  # no alg: not a JWT header
    (
        "private-key-block",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIE...\n-----END RSA PRIVATE KEY-----",
    ),
    (
        "private-key-block",
        "-----BEGIN OPENSSH PRIVATE KEY-----\n<your key here>\n-----END OPENSSH PRIVATE KEY-----",
    ),
    (
        "private-key-block",
        "-----BEGIN PUBLIC KEY-----\n" + pem_body() + "\n-----END PUBLIC KEY-----",
    ),
    (
        "private-key-block",
        "-----BEGIN CERTIFICATE-----\n" + pem_body() + "\n-----END CERTIFICATE-----",
    ),
    (
        "private-key-block",
        "-----BEGIN PRIVATE KEY-----\n" + "A" * 64 * 4 + "\n-----END PRIVATE KEY-----",
    ),
    ("authorization-header", 'curl -H "Authorization: Bearer $TOKEN" https://api.example.com'),
    ("authorization-header", "Authorization: Bearer <token>"),
    ("password-in-url", "postgres://user:password@localhost:5432/db"),
    ("password-in-url", "postgres://postgres:postgres@localhost/test"),
    ("password-in-url", "postgres://user:${DB_PASSWORD}@db/app"),
    ("password-in-url", "https://user:****@example.org/"),
    ("password-in-url", 'f"postgres://{user}:{password}@{host}/db"'),
    ("password-in-url", "git+ssh://git@github.com:org/repo.git"),
    ("password-in-url", "see http://localhost:8080/path@v2"),
    ("password-assignment", "---\npassword: ${DB_PASSWORD}\n---"),
    ("password-assignment", "password: <your-password>"),
    ("password-assignment", 'token: "{{ secrets.GITHUB_TOKEN }}"'),
    ("password-assignment", "password: changeme"),
    ("password-assignment", 'password: "********"'),
    ("password-assignment", "api_key: xxxxxxxxxxxxxxxx"),
    ("password-assignment", "secret: $SECRET"),
    ("password-assignment", "password = get_password()"),
    ("password-assignment", "password = settings.DATABASE_PASSWORD"),
    ("password-assignment", 'token = os.environ["GITHUB_TOKEN"]'),
    ("password-assignment", "max_tokens: 4096"),
    ("password-assignment", "token_url: https://auth.example.org/token"),
    ("password-assignment", "author: Jane Doe"),
    ("password-assignment", "passwordless: true"),
    ("password-assignment", "secret: true"),
    ("password-assignment", "Secret: rotate monthly"),
    ("password-assignment", "POSTGRES_PASSWORD_FILE=/run/secrets/db"),
    ("password-assignment", 'password = "correct horse battery staple"'),
    ("password-assignment", "auth: oauth2"),
    ("password-assignment", 'api_key: "X-Api-Key"'),
    ("password-assignment", "header_token: X-Request-Token2"),
    ("password-assignment", 'token: "refresh"'),
    ("password-assignment", "credentials: ./creds.json"),
    ("password-assignment", "export GITHUB_TOKEN=$(gh auth token)"),
    ("password-assignment", "apikey=12345678"),
    ("password-assignment", 'password=""'),
    ("password-assignment", "pwd: /home/user"),
    ("high-entropy-near-secret-word", "fixed by commit " + hexs(40) + " (the key change)"),
    ("high-entropy-near-secret-word", "request " + uuid() + " used the api key"),
    ("high-entropy-near-secret-word", "the `MalwareDomainsStrictOrder` key"),
    ("high-entropy-near-secret-word", "token handling lives in `gitmem_secrets_scanner_module_v2`"),
    (
        "high-entropy-near-secret-word",
        "users enter their GitHub username/password/2FA during login",
    ),
    ("high-entropy-near-secret-word", "the key: " + "a" * 40),
    ("high-entropy-near-secret-word", "sha256 digest of the key file: " + hexs(64)),
    ("secret-file-name", "copy `.env.example` to start"),
    ("secret-file-name", "publish ~/.ssh/id_rsa.pub"),
    ("secret-file-name", "if (event.key === 'Enter')"),
    ("secret-file-name", "read process.env.NODE_ENV"),
    ("secret-file-name", "convert it to the .pem format"),
    ("secret-file-name", "set the KUBECONFIG variable"),
]

# Prose that should raise nothing at all.
CLEAN = [
    "We chose pygit2 over subprocess git because one process per hook call costs more than the "
    "whole check. See commit " + hexs(40) + " and request id " + uuid() + ".",
    "The primary key on `user_account_settings` is a UUID; the cache key is `(tree_oid, path)`.",
    "Use `RepositoryOpenFlag.FROM_ENV` inside hooks so `GIT_INDEX_FILE` is honoured.",
    "Rotate the API token monthly; store it in the CI secret store, never in memory.",
    "Tokens are counted with `max_tokens = 4096` and the tokenizer is `cl100k_base`.",
    "Résumé — naïve café, 中文, emoji 👍 and an em dash — are all fine.",
    "Family emoji 👨\u200d👩\u200d👧 joins with zero-width joiners between emoji.",
]
