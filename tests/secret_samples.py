"""Fake secrets for the scanner's tests, built at import time from a fixed seed.

No realistic secret is written here whole: every token is a documented prefix joined to random
characters of the provider's alphabet and length (written from the provider's documentation,
not copied from the scanner's patterns), so this file never trips a secret scanner (ours or a
forge's), while the built values have exactly the shape the formats describe. The tests then
check the format, not a constant: each `Fmt` makes a fresh token every time it is called.
"""

from __future__ import annotations

import base64
import json
import random
import string
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

_rng = random.Random(20261129)

UPPER = string.ascii_uppercase
LOWER = string.ascii_lowercase
DIGITS = string.digits
ALNUM = string.ascii_letters + string.digits
LOWERNUM = LOWER + DIGITS
UPPERNUM = UPPER + DIGITS
URLSAFE = ALNUM + "-_"
B64 = ALNUM + "+/"
HEX = "0123456789abcdef"
BASE32 = UPPER + "234567"
BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"


def rnd(n: int, alphabet: str = ALNUM, rng: random.Random = _rng) -> str:
    """n random characters, drawn again until they mix classes like a real token would."""
    classes = [s for s in (UPPER, LOWER, DIGITS) if set(s) & set(alphabet)]
    need = min(2, n, len(classes))
    while True:
        value = "".join(rng.choice(alphabet) for _ in range(n))
        if sum(any(c in s for c in value) for s in classes) >= need:
            return value


def github_token(seed: int) -> str:
    """A GitHub classic token of the documented shape, random from `seed`, for the tests of
    other modules that need one secret the scanner surely reports (a repeated chunk such as
    `ghp_` + `Z9y8` * 9 is a placeholder to the scanner, so it would not do)."""
    return "ghp_" + "".join(random.Random(seed).choices(ALNUM, k=36))


def hexs(n: int, rng: random.Random = _rng) -> str:
    return rnd(n, HEX, rng)


def digits(n: int, rng: random.Random = _rng) -> str:
    return str(rng.randrange(1, 10)) + "".join(rng.choice(DIGITS) for _ in range(n - 1))


def uuid(rng: random.Random = _rng) -> str:
    return "-".join(hexs(n, rng) for n in (8, 4, 4, 4, 12))


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


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


def _ssh_string(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


def openssh_key(kind: str = "ed25519", rng: random.Random = _rng) -> str:
    """An unencrypted private key laid out as ssh-keygen writes it (openssh-key-v1: the fixed
    header, `none`, `none`, one key, its public blob, the private section padded to eight
    bytes), random where a key is random: random bodies alone never showed the fixed
    header, which once read as filler and let every real ed25519 key through."""
    if kind == "ed25519":
        name, public = b"ssh-ed25519", rng.randbytes(32)
        blob = _ssh_string(name) + _ssh_string(public)
        secret = _ssh_string(public) + _ssh_string(rng.randbytes(32) + public)
    else:
        name, curve = b"ecdsa-sha2-nistp256", b"nistp256"
        public = b"\x04" + rng.randbytes(64)
        blob = _ssh_string(name) + _ssh_string(curve) + _ssh_string(public)
        secret = _ssh_string(curve) + _ssh_string(public) + _ssh_string(b"\x00" + rng.randbytes(32))
    check = rng.randbytes(4)
    private = check + check + _ssh_string(name) + secret + _ssh_string(b"user@host")
    private += bytes(range(1, 1 + (-len(private) % 8)))
    data = b"openssh-key-v1\x00" + _ssh_string(b"none") + _ssh_string(b"none") + _ssh_string(b"")
    data += (1).to_bytes(4, "big") + _ssh_string(blob) + _ssh_string(private)
    body = base64.b64encode(data).decode()
    lines = "\n".join(body[i : i + 70] for i in range(0, len(body), 70))
    label = "-" * 5 + "{} OPENSSH PRIVATE KEY" + "-" * 5
    return f"{label.format('BEGIN')}\n{lines}\n{label.format('END')}\n"


def azure_key(signature: str, rng: random.Random = _rng) -> str:
    """An identifiable 64-byte Azure key: 76 base64 characters, the service's signature, five
    more and the last character of a 64-byte encoding, then the padding."""
    return rnd(76, B64, rng) + signature + rnd(5, B64, rng) + rng.choice("AQgw") + "=="


# ---------------------------------------------------------------------------------- formats


@dataclass(frozen=True)
class Fmt:
    """A provider format: the rule that reports it, a maker of fresh tokens in its documented
    shape, and for a format without a prefix the key that names its provider (it is found
    only there). `context`: the token needs the text around it (a webhook's host)."""

    rule: str
    make: Callable[[random.Random], str]
    key: str = ""
    context: str = "{}"

    def token(self, rng: random.Random = _rng) -> str:
        return self.make(rng)


def F(rule: str, make: Callable[[random.Random], str], key: str = "", context: str = "{}") -> Fmt:
    return Fmt(rule, make, key, context)


# fmt: off
FORMATS: list[Fmt] = [
    # cloud
    F("aws-access-key-id",
      lambda r: r.choice(["AKIA", "ASIA", "ABIA", "ACCA"]) + rnd(16, BASE32, r)),
    F("aws-secret-access-key", lambda r: rnd(40, B64, r), "AWS_SECRET_ACCESS_KEY"),
    F("aws-session-token", lambda r: "IQoJb3JpZ2lu" + rnd(300, B64, r), "AWS_SESSION_TOKEN"),
    F("aws-bedrock-api-key",
      lambda r: "ABSK" + b64(b"BedrockAPIKey-" + rnd(90, ALNUM, r).encode())),
    F("google-api-key", lambda r: "AIza" + rnd(35, URLSAFE, r)),
    F("google-oauth-client-secret", lambda r: "GOCSPX-" + rnd(28, URLSAFE, r)),
    F("google-oauth-token", lambda r: "ya29." + rnd(150, URLSAFE, r)),
    F("google-oauth-refresh-token", lambda r: "1//0" + rnd(100, URLSAFE, r)),
    F("gcs-hmac-key", lambda r: "GOOG1E" + rnd(55, UPPERNUM, r)),
    F("gcs-hmac-key", lambda r: "GOOG" + rnd(20, UPPERNUM, r)),
    F("gcs-hmac-key", lambda r: rnd(40, B64, r), "GCS_HMAC_SECRET"),
    F("azure-storage-account-key", lambda r: rnd(86, B64, r) + "==", "",
      "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={};EndpointSuffix=core.windows.net"),
    F("azure-storage-account-key", lambda r: azure_key("+ASt", r)),
    F("azure-identifiable-key", lambda r: azure_key(r.choice(["ACDb", "+ASb", "+AEh", "+ARm"]), r)),
    F("azure-identifiable-key", lambda r: rnd(42, B64, r) + "+ACR" + rnd(6, B64, r)),
    F("azure-identifiable-key",
      lambda r: rnd(52, ALNUM, r) + "JQQJ99" + rnd(1, ALNUM, r) + r.choice("ABCDEFGHIJKL")
      + rnd(16, ALNUM, r) + "AZDO" + rnd(4, ALNUM, r)),
    F("azure-sas-token", lambda r: rnd(43, ALNUM, r) + "%3D", "",
      "https://acct.blob.core.windows.net/c/f.txt?sv=2022-11-02&sp=r&se=2026-01-01&sig={}"),
    F("azure-connection-string-key", lambda r: rnd(43, B64, r) + "=", "",
      "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey={}"),
    F("azure-ad-client-secret", lambda r: rnd(3, ALNUM, r) + "8Q~" + rnd(34, ALNUM + "_~.-", r)),
    F("azure-devops-pat", lambda r: rnd(52, LOWER + "234567", r), "AZURE_DEVOPS_PAT"),
    F("digitalocean-token", lambda r: r.choice(["dop", "doo", "dor"]) + "_v1_" + hexs(64, r)),
    F("alibaba-access-key-id", lambda r: "LTAI" + rnd(20, ALNUM, r)),
    F("alibaba-secret-key", lambda r: rnd(30, ALNUM, r), "ALIBABA_CLOUD_ACCESS_KEY_SECRET"),
    F("tencent-secret-id", lambda r: "AKID" + rnd(32, ALNUM, r)),
    F("tencent-secret-key", lambda r: rnd(32, ALNUM, r), "TENCENTCLOUD_SECRET_KEY"),
    F("ibm-cloud-api-key", lambda r: rnd(44, URLSAFE, r), "IBM_CLOUD_API_KEY"),
    F("cloudflare-api-token", lambda r: rnd(40, URLSAFE, r), "CLOUDFLARE_API_TOKEN"),
    F("cloudflare-global-api-key", lambda r: hexs(37, r), "CLOUDFLARE_API_KEY"),
    F("cloudflare-origin-ca-key", lambda r: "v1.0-" + hexs(24, r) + "-" + hexs(146, r)),
    F("cloudflare-api-token",
      lambda r: r.choice(["cfut_", "cfat_"]) + rnd(40, ALNUM, r) + hexs(8, r)),
    F("cloudflare-global-api-key", lambda r: "cfk_" + rnd(40, ALNUM, r) + hexs(8, r)),
    F("heroku-api-key", lambda r: "HRKU-AA" + rnd(58, URLSAFE, r)),
    F("heroku-api-key", uuid, "HEROKU_API_KEY"),
    F("flyio-token", lambda r: "fo1_" + rnd(43, URLSAFE, r)),
    F("flyio-token", lambda r: "fm2_" + rnd(300, B64, r)),
    F("openshift-user-token", lambda r: "sha256~" + rnd(43, URLSAFE, r)),
    F("vercel-token", lambda r: rnd(24, ALNUM, r), "VERCEL_TOKEN"),
    F("render-api-key", lambda r: "rnd_" + rnd(32, ALNUM, r)),
    F("netlify-token", lambda r: "nfp_" + rnd(36, ALNUM, r)),
    F("netlify-token", lambda r: rnd(43, URLSAFE, r), "NETLIFY_AUTH_TOKEN"),
    F("akamai-edgegrid-token",
      lambda r: "akab-" + rnd(16, LOWERNUM, r) + "-" + rnd(16, LOWERNUM, r)),
    F("linode-token", lambda r: hexs(64, r), "LINODE_TOKEN"),
    F("vultr-api-key", lambda r: rnd(36, UPPERNUM, r), "VULTR_API_KEY"),
    F("hetzner-token", lambda r: rnd(64, ALNUM, r), "HCLOUD_TOKEN"),
    F("scaleway-access-key", lambda r: "SCW" + rnd(17, UPPERNUM, r)),
    F("scaleway-secret-key", uuid, "SCW_SECRET_KEY"),
    F("yandex-api-key", lambda r: "AQVN" + rnd(36, URLSAFE, r)),
    F("yandex-access-key", lambda r: "YC" + rnd(38, URLSAFE, r), "YANDEX_ACCESS_KEY"),
    F("yandex-iam-token", lambda r: "t1." + rnd(60, URLSAFE, r) + "." + rnd(86, URLSAFE, r),
      "YANDEX_IAM_TOKEN"),
    F("scalingo-token", lambda r: "tk-us-" + rnd(48, URLSAFE, r)),
    F("deno-deploy-token", lambda r: r.choice(["ddp_", "ddo_"]) + rnd(36, ALNUM, r)),
    F("fastly-api-token", lambda r: rnd(32, URLSAFE, r), "FASTLY_API_TOKEN"),
    # forges
    F("github-pat", lambda r: "ghp_" + rnd(36, ALNUM, r)),
    F("github-oauth-token", lambda r: "gho_" + rnd(36, ALNUM, r)),
    F("github-user-token", lambda r: "ghu_" + rnd(36, ALNUM, r)),
    F("github-server-token", lambda r: "ghs_" + rnd(36, ALNUM, r)),
    F("github-refresh-token", lambda r: "ghr_" + rnd(76, ALNUM, r)),
    F("github-fine-grained-pat",
      lambda r: "github_pat_" + rnd(22, ALNUM, r) + "_" + rnd(59, ALNUM, r)),
    F("gitlab-token",
      lambda r: r.choice(["glpat", "gldt", "glrt", "glft", "glsoat", "glffct"]) + "-"
      + rnd(20, URLSAFE, r)),
    F("gitlab-token", lambda r: "glpat-" + rnd(38, URLSAFE, r) + ".01." + rnd(7, LOWERNUM, r)),
    F("gitlab-token", lambda r: "glrt-t1_" + rnd(27, URLSAFE, r)),
    F("gitlab-runner-registration-token", lambda r: "GR1348941" + rnd(20, URLSAFE, r)),
    F("gitlab-session-cookie", lambda r: rnd(32, LOWERNUM, r), "", "_gitlab_session={}"),
    F("bitbucket-app-password", lambda r: "ATBB" + rnd(32, ALNUM, r)),
    F("bitbucket-client-secret", lambda r: rnd(64, URLSAFE, r), "BITBUCKET_CLIENT_SECRET"),
    F("atlassian-api-token", lambda r: "ATATT3xFfGF0" + rnd(180, URLSAFE, r)),
    F("atlassian-api-token", lambda r: rnd(24, ALNUM, r), "JIRA_API_TOKEN"),
    F("gitea-token", lambda r: hexs(40, r), "GITEA_TOKEN"),
    F("sourcegraph-token", lambda r: "sgp_" + hexs(16, r) + "_" + hexs(40, r)),
    F("sourcegraph-token", lambda r: "sgp_local_" + hexs(40, r)),
    F("youtrack-permanent-token", lambda r: "perm:" + b64(rnd(8, LOWER, r).encode()) + "."
      + b64(rnd(10, LOWER, r).encode()) + "." + rnd(30, ALNUM, r)),
    # CI and build
    F("circleci-token", lambda r: "CCIPAT_" + rnd(22, ALNUM, r) + "_" + hexs(40, r)),
    F("circleci-token", lambda r: hexs(40, r), "CIRCLE_TOKEN"),
    F("travis-token", lambda r: rnd(22, URLSAFE, r), "TRAVIS_API_TOKEN"),
    F("buildkite-token", lambda r: "bkua_" + hexs(40, r)),
    F("sonar-token", lambda r: r.choice(["sqp", "squ", "sqa"]) + "_" + hexs(40, r)),
    F("sonar-token", lambda r: rnd(40, LOWERNUM, r), "SONAR_TOKEN"),
    F("jfrog-token", lambda r: "AKCp" + rnd(69, ALNUM, r)),
    F("jfrog-token", lambda r: "cmVmdGtuOjAxOj" + rnd(50, ALNUM, r)),
    F("jfrog-token", lambda r: rnd(64, ALNUM, r), "ARTIFACTORY_TOKEN"),
    F("droneci-token", lambda r: rnd(32, ALNUM, r), "DRONE_TOKEN"),
    F("codecov-token", uuid, "CODECOV_TOKEN"),
    F("harness-token", lambda r: "pat." + rnd(22, URLSAFE, r) + "." + rnd(24, ALNUM, r) + "."
      + rnd(20, ALNUM, r)),
    F("octopus-deploy-api-key", lambda r: "API-" + rnd(27, UPPERNUM, r)),
    F("terraform-cloud-token", lambda r: rnd(14, ALNUM, r) + ".atlasv1." + rnd(67, URLSAFE, r)),
    F("pulumi-token", lambda r: "pul-" + hexs(40, r)),
    F("infracost-api-key", lambda r: "ico-" + rnd(32, ALNUM, r)),
    F("snyk-token", uuid, "SNYK_TOKEN"),
    F("jenkins-api-token", lambda r: "11" + hexs(32, r), "JENKINS_API_TOKEN"),
    F("teamcity-token", lambda r: "eyJ0eXAiOiAiVENWMiJ9." + rnd(36, URLSAFE, r) + "."
      + rnd(48, URLSAFE, r)),
    F("dockerhub-token", lambda r: "dckr_pat_" + rnd(27, URLSAFE, r)),
    # chat
    F("slack-bot-token", lambda r: "xoxb-" + digits(12, r) + "-" + digits(13, r) + "-"
      + rnd(24, ALNUM, r)),
    F("slack-user-token", lambda r: "xoxp-" + digits(12, r) + "-" + digits(12, r) + "-"
      + digits(13, r) + "-" + hexs(32, r)),
    F("slack-token", lambda r: r.choice(["xoxa", "xoxr"]) + "-2-" + rnd(40, ALNUM, r)),
    F("slack-config-token", lambda r: "xoxe.xoxp-1-" + rnd(150, ALNUM, r)),
    F("slack-app-token", lambda r: "xapp-1-A0" + rnd(9, UPPERNUM, r) + "-" + digits(13, r) + "-"
      + hexs(64, r)),
    F("slack-webhook-url", lambda r: "T" + rnd(10, UPPERNUM, r) + "/B" + rnd(10, UPPERNUM, r) + "/"
      + rnd(24, ALNUM, r), "", "https://hooks.slack.com/services/{}"),
    F("discord-bot-token", lambda r: "M" + rnd(25, ALNUM, r) + "." + rnd(6, ALNUM, r) + "."
      + rnd(38, URLSAFE, r)),
    F("discord-webhook-url", lambda r: rnd(68, URLSAFE, r), "",
      "https://discord.com/api/webhooks/" + digits(18) + "/{}"),
    F("discord-client-secret", lambda r: rnd(32, URLSAFE, r), "DISCORD_CLIENT_SECRET"),
    F("telegram-bot-token", lambda r: digits(10, r) + ":AA" + rnd(33, URLSAFE, r)),
    F("teams-webhook-url", lambda r: f"{uuid(r)}@{uuid(r)}/IncomingWebhook/{hexs(32, r)}/{uuid(r)}",
      "", "https://contoso.webhook.office.com/webhookb2/{}"),
    F("teams-webhook-url", lambda r: rnd(43, URLSAFE, r), "",
      "https://prod-11.westeurope.logic.azure.com:443/workflows/" + hexs(32)
      + "/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun"
      "&sv=1.0&sig={}"),
    F("mattermost-token", lambda r: rnd(26, LOWERNUM, r), "MATTERMOST_TOKEN"),
    F("gitter-token", lambda r: rnd(40, URLSAFE, r), "GITTER_TOKEN"),
    F("sendbird-token", lambda r: hexs(40, r), "SENDBIRD_API_TOKEN"),
    F("zoom-client-secret", lambda r: rnd(32, ALNUM, r), "ZOOM_CLIENT_SECRET"),
    F("intercom-token", lambda r: rnd(60, URLSAFE, r), "INTERCOM_ACCESS_TOKEN"),
    # payment
    F("stripe-secret-key", lambda r: "sk_" + r.choice(["live", "test"]) + "_" + rnd(99, ALNUM, r)),
    F("stripe-restricted-key",
      lambda r: "rk_" + r.choice(["live", "test"]) + "_" + rnd(99, ALNUM, r)),
    F("stripe-webhook-secret", lambda r: "whsec_" + rnd(32, ALNUM, r)),
    F("square-access-token", lambda r: "EAAA" + rnd(60, URLSAFE, r)),
    F("square-access-token", lambda r: "sq0atp-" + rnd(22, URLSAFE, r)),
    F("square-oauth-secret", lambda r: "sq0csp-" + rnd(43, URLSAFE, r)),
    F("braintree-access-token", lambda r: "access_token$production$" + rnd(16, LOWERNUM, r) + "$"
      + hexs(32, r)),
    F("paypal-client-secret", lambda r: "E" + rnd(79, URLSAFE, r), "PAYPAL_CLIENT_SECRET"),
    F("shopify-access-token", lambda r: r.choice(["shpat", "shpca", "shppa"]) + "_" + hexs(32, r)),
    F("shopify-shared-secret", lambda r: "shpss_" + hexs(32, r)),
    F("flutterwave-secret-key", lambda r: "FLWSECK-" + hexs(32, r) + "-X"),
    F("flutterwave-encryption-key", lambda r: "FLWSECK_TEST" + hexs(12, r)),
    F("razorpay-key", lambda r: "rzp_live_" + rnd(14, ALNUM, r)),
    F("razorpay-secret", lambda r: rnd(24, ALNUM, r), "RAZORPAY_KEY_SECRET"),
    F("adyen-api-key", lambda r: "AQE" + rnd(4, ALNUM, r) + rnd(100, B64, r)),
    F("plaid-access-token", lambda r: "access-production-" + uuid(r)),
    F("plaid-secret", lambda r: rnd(30, LOWERNUM, r), "PLAID_SECRET"),
    F("gocardless-token", lambda r: "live_" + rnd(40, URLSAFE, r), "GOCARDLESS_ACCESS_TOKEN"),
    F("coinbase-token", lambda r: rnd(64, URLSAFE, r), "COINBASE_API_SECRET"),
    F("kraken-token", lambda r: rnd(86, B64, r), "KRAKEN_API_SECRET"),
    F("kucoin-key", lambda r: hexs(24, r), "KUCOIN_API_KEY"),
    F("bittrex-key", lambda r: rnd(32, LOWERNUM, r), "BITTREX_API_SECRET"),
    F("finicity-key", lambda r: hexs(32, r), "FINICITY_APP_KEY"),
    F("chargebee-api-key", lambda r: "live_" + rnd(32, ALNUM, r), "CHARGEBEE_API_KEY"),
    F("duffel-token", lambda r: "duffel_live_" + rnd(43, URLSAFE, r)),
    F("paddle-api-key", lambda r: "pdl_" + r.choice(["live", "sdbx"]) + "_apikey_"
      + rnd(26, LOWERNUM, r) + "_" + rnd(22, ALNUM, r) + "_" + rnd(3, ALNUM, r)),
    F("xendit-secret-key", lambda r: "xnd_" + r.choice(["development", "production"]) + "_"
      + rnd(60, ALNUM, r)),
    F("mercadopago-access-token", lambda r: r.choice(["APP_USR-", "TEST-"]) + digits(16, r) + "-"
      + digits(6, r) + "-" + hexs(32, r) + "-" + digits(9, r)),
    # registries
    F("npm-token", lambda r: "npm_" + rnd(36, ALNUM, r)),
    F("pypi-token", lambda r: "pypi-AgEIcHlwaS5vcmc" + rnd(70, URLSAFE, r)),
    F("rubygems-api-key", lambda r: "rubygems_" + hexs(48, r)),
    F("nuget-api-key", lambda r: "oy2" + rnd(43, LOWERNUM, r)),
    F("crates-io-token", lambda r: "cio" + rnd(32, ALNUM, r)),
    F("clojars-token", lambda r: "CLOJARS_" + rnd(60, LOWERNUM, r)),
    F("packagist-token", lambda r: "packagist_uut_" + hexs(64, r)),
    # AI providers
    F("anthropic-api-key", lambda r: "sk-ant-api03-" + rnd(93, URLSAFE, r) + "AA"),
    F("anthropic-admin-key", lambda r: "sk-ant-admin01-" + rnd(93, URLSAFE, r) + "AA"),
    F("openai-api-key", lambda r: "sk-proj-" + rnd(120, URLSAFE, r)),
    F("openai-api-key", lambda r: "sk-" + rnd(20, ALNUM, r) + "T3BlbkFJ" + rnd(20, ALNUM, r)),
    F("openrouter-api-key", lambda r: "sk-or-v1-" + hexs(64, r)),
    F("huggingface-token", lambda r: r.choice(["hf_", "api_org_"]) + rnd(34, ALNUM, r)),
    F("groq-api-key", lambda r: "gsk_" + rnd(52, ALNUM, r)),
    F("replicate-api-token", lambda r: "r8_" + rnd(37, ALNUM, r)),
    F("xai-api-key", lambda r: "xai-" + rnd(80, ALNUM, r)),
    F("perplexity-api-key", lambda r: "pplx-" + rnd(48, ALNUM, r)),
    F("langsmith-api-key", lambda r: "lsv2_pt_" + hexs(32, r) + "_" + hexs(10, r)),
    F("langfuse-secret-key", lambda r: "sk-lf-" + uuid(r)),
    F("nvidia-api-key", lambda r: "nvapi-" + rnd(64, URLSAFE, r)),
    F("tavily-api-key", lambda r: "tvly-" + rnd(32, ALNUM, r)),
    F("firecrawl-api-key", lambda r: "fc-" + hexs(32, r)),
    F("jina-api-key", lambda r: "jina_" + hexs(32, r) + rnd(28, URLSAFE, r)),
    F("pinecone-api-key", lambda r: "pcsk_" + rnd(6, ALNUM, r) + "_" + rnd(60, ALNUM, r)),
    F("voyage-api-key", lambda r: "pa-" + rnd(43, URLSAFE, r)),
    F("together-api-key", lambda r: "tgp_v1_" + rnd(43, URLSAFE, r)),
    F("cohere-api-key", lambda r: rnd(40, ALNUM, r), "COHERE_API_KEY"),
    F("mistral-api-key", lambda r: rnd(32, ALNUM, r), "MISTRAL_API_KEY"),
    F("wandb-api-key", lambda r: hexs(40, r), "WANDB_API_KEY"),
    F("elevenlabs-api-key", lambda r: "sk_" + hexs(48, r), "ELEVENLABS_API_KEY"),
    F("assemblyai-api-key", lambda r: hexs(32, r), "ASSEMBLYAI_API_KEY"),
    F("deepgram-api-key", lambda r: hexs(40, r), "DEEPGRAM_API_KEY"),
    F("deepseek-api-key", lambda r: "sk-" + hexs(32, r), "DEEPSEEK_API_KEY"),
    F("azure-openai-api-key", lambda r: hexs(32, r), "AZURE_OPENAI_API_KEY"),
    F("privateai-api-key", lambda r: rnd(32, LOWERNUM, r), "PRIVATE_AI_API_KEY"),
    # observability
    F("datadog-api-key", lambda r: hexs(32, r), "DD_API_KEY"),
    F("newrelic-key", lambda r: "NRAK-" + rnd(27, UPPERNUM, r)),
    F("newrelic-key", lambda r: hexs(36, r) + "NRAL"),
    F("newrelic-key", lambda r: rnd(64, ALNUM, r), "NEW_RELIC_USER_KEY"),
    F("dynatrace-token", lambda r: "dt0c01." + rnd(24, UPPERNUM, r) + "." + rnd(64, UPPERNUM, r)),
    F("sentry-auth-token", lambda r: "sntrys_" + b64(json.dumps({"iat": 1764000000.5,
      "url": "https://sentry.io", "region_url": "https://us.sentry.io", "org": rnd(8, LOWER, r)
      }).encode()) + "_" + rnd(43, B64, r)),
    F("sentry-auth-token", lambda r: "sntryu_" + hexs(64, r)),
    F("sentry-auth-token", lambda r: hexs(64, r), "SENTRY_AUTH_TOKEN"),
    F("sentry-dsn", lambda r: hexs(32, r), "",
      "dsn: https://{}@o" + digits(6) + ".ingest.sentry.io/" + digits(7)),
    F("grafana-token", lambda r: "glc_" + rnd(80, B64, r)),
    F("grafana-token", lambda r: "glsa_" + rnd(32, ALNUM, r) + "_" + hexs(8, r)),
    F("grafana-token", lambda r: "eyJrIjoi" + rnd(70, ALNUM, r)),
    F("honeycomb-api-key", lambda r: "hcaik_" + rnd(58, LOWERNUM, r)),
    F("honeycomb-api-key", lambda r: rnd(22, ALNUM, r), "HONEYCOMB_API_KEY"),
    F("posthog-personal-key", lambda r: "phx_" + rnd(43, ALNUM, r)),
    F("axiom-token", lambda r: r.choice(["xaat-", "xapt-"]) + uuid(r)),
    F("logfire-write-token",
      lambda r: "pylf_v1_" + r.choice(["us", "eu"]) + "_" + rnd(44, ALNUM, r)),
    F("launchdarkly-key", lambda r: "sdk-" + uuid(r)),
    F("launchdarkly-key", lambda r: rnd(40, URLSAFE, r), "LAUNCHDARKLY_ACCESS_TOKEN"),
    F("sumologic-key", lambda r: rnd(64, ALNUM, r), "SUMO_ACCESS_KEY"),
    F("splunk-hec-token", uuid, "SPLUNK_HEC_TOKEN"),
    F("bugsnag-api-key", lambda r: hexs(32, r), "BUGSNAG_API_KEY"),
    F("rollbar-token", lambda r: hexs(32, r), "ROLLBAR_ACCESS_TOKEN"),
    F("pagerduty-token", lambda r: "u+" + rnd(18, URLSAFE, r), "PAGERDUTY_TOKEN"),
    F("opsgenie-api-key", uuid, "OPSGENIE_API_KEY"),
    F("logzio-token", lambda r: rnd(32, string.ascii_letters, r), "LOGZIO_TOKEN"),
    F("airbrake-key", lambda r: hexs(32, r), "AIRBRAKE_PROJECT_KEY"),
    # databases
    F("planetscale-token", lambda r: "pscale_" + r.choice(["tkn", "pw", "oauth"]) + "_"
      + rnd(43, URLSAFE, r)),
    F("supabase-token", lambda r: "sbp_" + hexs(40, r)),
    F("supabase-token", lambda r: "sb_secret_" + rnd(40, URLSAFE, r)),
    F("databricks-token", lambda r: "dapi" + hexs(32, r)),
    F("clickhouse-secret-key", lambda r: "4b1d" + rnd(38, ALNUM, r)),
    F("neon-api-key", lambda r: "napi_" + rnd(64, LOWERNUM, r)),
    F("cockroachdb-cloud-api-key",
      lambda r: "CCDB1_" + rnd(22, ALNUM, r) + "_" + rnd(40, ALNUM, r)),
    F("xata-api-key", lambda r: "xau_" + rnd(33, ALNUM, r)),
    F("mongodb-atlas-key", uuid, "MONGODB_ATLAS_PRIVATE_KEY"),
    F("firebase-messaging-key",
      lambda r: "AAAA" + rnd(7, ALNUM, r) + ":APA91b" + rnd(134, URLSAFE, r)),
    F("aiven-token", lambda r: rnd(372, B64, r), "AIVEN_TOKEN"),
    # identity
    F("okta-api-token", lambda r: "00" + rnd(40, URLSAFE, r), "OKTA_API_TOKEN"),
    F("okta-api-token", lambda r: "00" + rnd(40, URLSAFE, r), "", "Authorization: SSWS {}"),
    F("ory-api-key", lambda r: "ory_pat_" + rnd(32, ALNUM, r)),
    F("auth0-client-secret", lambda r: rnd(64, URLSAFE, r), "AUTH0_CLIENT_SECRET"),
    F("1password-service-account-token", lambda r: "ops_eyJ" + rnd(300, B64, r)),
    F("1password-secret-key",
      lambda r: "A3-" + "-".join(rnd(n, UPPERNUM, r) for n in (6, 6, 5, 5, 5, 5))),
    F("authress-access-key", lambda r: "sc_" + rnd(12, ALNUM, r) + "." + rnd(5, ALNUM, r) + ".acc_"
      + rnd(20, LOWERNUM, r) + "." + rnd(60, URLSAFE, r)),
    F("age-secret-key", lambda r: "AGE-SECRET-KEY-1" + rnd(58, BECH32, r)),
    F("duo-secret-key", lambda r: rnd(40, ALNUM, r), "DUO_SECRET_KEY"),
    F("defined-networking-token",
      lambda r: "dnkey-" + rnd(26, LOWERNUM, r) + "-" + rnd(52, LOWERNUM, r)),
    # secret managers
    F("vault-token", lambda r: "hvs." + rnd(90, URLSAFE, r)),
    F("vault-token", lambda r: "s." + rnd(24, ALNUM, r)),
    F("doppler-token", lambda r: "dp.pt." + rnd(43, ALNUM, r)),
    F("infisical-token", lambda r: "st." + uuid(r) + "." + hexs(32, r) + "." + hexs(32, r)),
    F("bitwarden-access-token",
      lambda r: "0." + uuid(r) + "." + rnd(30, ALNUM, r) + ":" + rnd(22, B64, r) + "=="),
    F("ansible-vault", lambda r: "AES256\n" + hexs(80, r), "", "$ANSIBLE_VAULT;1.1;{}"),
    # messaging
    F("sendgrid-api-key", lambda r: "SG." + rnd(22, URLSAFE, r) + "." + rnd(43, URLSAFE, r)),
    F("mailgun-api-key", lambda r: "key-" + hexs(32, r)),
    F("mailgun-api-key", lambda r: hexs(32, r) + "-" + hexs(8, r) + "-" + hexs(8, r),
      "MAILGUN_WEBHOOK_SIGNING_KEY"),
    F("mailchimp-api-key", lambda r: hexs(32, r) + "-us" + str(r.randrange(1, 21))),
    F("brevo-api-key", lambda r: "xkeysib-" + hexs(64, r) + "-" + rnd(16, ALNUM, r)),
    F("mailersend-api-key", lambda r: "mlsn." + hexs(64, r)),
    F("resend-api-key", lambda r: "re_" + rnd(8, ALNUM, r) + "_" + rnd(24, ALNUM, r)),
    F("postmark-token", uuid, "POSTMARK_SERVER_TOKEN"),
    F("sparkpost-api-key", lambda r: hexs(40, r), "SPARKPOST_API_KEY"),
    F("mailjet-api-key", lambda r: hexs(32, r), "MAILJET_API_SECRET"),
    F("twilio-api-key", lambda r: "SK" + hexs(32, r)),
    F("twilio-credentials", lambda r: "AC" + hexs(32, r) + ":" + hexs(32, r)),
    F("twilio-credentials", lambda r: hexs(32, r), "TWILIO_AUTH_TOKEN"),
    F("vonage-api-secret", lambda r: rnd(16, ALNUM, r), "VONAGE_API_SECRET"),
    F("messagebird-api-key", lambda r: rnd(25, ALNUM, r), "MESSAGEBIRD_API_KEY"),
    F("onesignal-api-key",
      lambda r: "os_v2_" + r.choice(["app", "org"]) + "_" + rnd(103, LOWER + "234567", r)),
    F("nylas-api-key", lambda r: "nyk_v0_" + rnd(64, ALNUM, r)),
    F("confluent-api-secret", lambda r: "cflt" + rnd(60, B64, r)),
    F("confluent-api-secret", lambda r: rnd(64, B64, r), "CONFLUENT_CLOUD_API_SECRET"),
    # SaaS APIs
    F("linear-api-key", lambda r: "lin_api_" + rnd(40, ALNUM, r)),
    F("linear-client-secret", lambda r: hexs(32, r), "LINEAR_CLIENT_SECRET"),
    F("notion-token", lambda r: "secret_" + rnd(43, ALNUM, r)),
    F("notion-token", lambda r: "ntn_" + digits(11, r) + rnd(35, ALNUM, r)),
    F("postman-api-key", lambda r: "PMAK-" + hexs(24, r) + "-" + hexs(34, r)),
    F("airtable-token", lambda r: "pat" + rnd(14, ALNUM, r) + "." + hexs(64, r)),
    F("airtable-api-key", lambda r: "key" + rnd(14, ALNUM, r), "AIRTABLE_API_KEY"),
    F("figma-token", lambda r: "figd_" + rnd(40, URLSAFE, r)),
    F("prefect-api-key", lambda r: "pnu_" + rnd(36, ALNUM, r)),
    F("easypost-api-key", lambda r: "EZAK" + rnd(54, ALNUM, r)),
    F("shippo-api-token", lambda r: "shippo_live_" + hexs(40, r)),
    F("contentful-token", lambda r: "CFPAT-" + rnd(43, URLSAFE, r)),
    F("contentful-token", lambda r: rnd(43, URLSAFE, r), "CONTENTFUL_DELIVERY_TOKEN"),
    F("mapbox-secret-token",
      lambda r: "sk.eyJ1Ijoi" + rnd(40, ALNUM, r) + "." + rnd(22, URLSAFE, r)),
    F("dropbox-token", lambda r: "sl." + rnd(140, URLSAFE, r)),
    F("dropbox-token", lambda r: rnd(11, ALNUM, r) + "AAAAAAAAAA" + rnd(43, URLSAFE, r),
      "DROPBOX_ACCESS_TOKEN"),
    F("tailscale-key", lambda r: "tskey-auth-" + rnd(12, ALNUM, r) + "-" + rnd(30, ALNUM, r)),
    F("hubspot-token", lambda r: "pat-na1-" + uuid(r)),
    F("hubspot-api-key", uuid, "HUBSPOT_API_KEY"),
    F("typeform-token", lambda r: "tfp_" + rnd(59, URLSAFE, r)),
    F("readme-api-key", lambda r: "rdme_" + rnd(70, LOWERNUM, r)),
    F("frameio-token", lambda r: "fio-u-" + rnd(64, URLSAFE, r)),
    F("clickup-token", lambda r: "pk_" + digits(8, r) + "_" + rnd(32, UPPERNUM, r)),
    F("maxmind-license-key", lambda r: rnd(6, ALNUM, r) + "_" + rnd(29, ALNUM, r) + "_mmk"),
    F("adobe-client-secret", lambda r: "p8e-" + rnd(32, ALNUM, r)),
    F("adobe-client-id", lambda r: hexs(32, r), "ADOBE_CLIENT_TOKEN"),
    F("asana-token", lambda r: "2/" + digits(16, r) + "/" + digits(16, r) + ":" + hexs(32, r)),
    F("asana-token", lambda r: rnd(32, LOWERNUM, r), "ASANA_CLIENT_SECRET"),
    F("trello-token", lambda r: "ATTA" + rnd(60, ALNUM, r) + hexs(8, r)),
    F("trello-api-key", lambda r: hexs(32, r), "TRELLO_API_KEY"),
    F("zendesk-token", lambda r: rnd(40, ALNUM, r), "ZENDESK_API_TOKEN"),
    F("twitter-token", lambda r: "A" * 22 + rnd(90, ALNUM, r), "TWITTER_BEARER_TOKEN"),
    F("facebook-access-token", lambda r: "EAAB" + rnd(150, ALNUM, r)),
    F("facebook-secret", lambda r: hexs(32, r), "FACEBOOK_APP_SECRET"),
    F("linkedin-client-secret", lambda r: rnd(16, ALNUM, r), "LINKEDIN_CLIENT_SECRET"),
    F("twitch-token", lambda r: rnd(30, LOWERNUM, r), "TWITCH_CLIENT_SECRET"),
    F("algolia-api-key", lambda r: rnd(32, ALNUM, r), "ALGOLIA_ADMIN_API_KEY"),
    F("rapidapi-key", lambda r: rnd(50, URLSAFE, r), "RAPIDAPI_KEY"),
    F("squarespace-token", uuid, "SQUARESPACE_API_KEY"),
    F("etsy-token", lambda r: rnd(24, LOWERNUM, r), "ETSY_API_KEY"),
    F("flickr-token", lambda r: rnd(32, LOWERNUM, r), "FLICKR_API_KEY"),
    F("freshbooks-token", lambda r: rnd(64, LOWERNUM, r), "FRESHBOOKS_ACCESS_TOKEN"),
    F("nytimes-token", lambda r: rnd(32, URLSAFE, r), "NYTIMES_API_KEY"),
    F("finnhub-token", lambda r: rnd(20, LOWERNUM, r), "FINNHUB_API_KEY"),
    F("lob-api-key", lambda r: "live_" + hexs(35, r), "LOB_API_KEY"),
    F("adafruit-api-key", lambda r: rnd(32, URLSAFE, r), "ADAFRUIT_IO_KEY"),
    F("beamer-api-key", lambda r: "b_" + rnd(44, URLSAFE, r), "BEAMER_API_KEY"),
    F("yelp-api-key", lambda r: rnd(128, URLSAFE, r), "YELP_API_KEY"),
    F("box-token", lambda r: rnd(32, ALNUM, r), "BOX_DEVELOPER_TOKEN"),
    F("shortcut-token", uuid, "SHORTCUT_API_TOKEN"),
    F("pipedrive-token", lambda r: hexs(40, r), "PIPEDRIVE_API_TOKEN"),
    F("mixpanel-secret", lambda r: hexs(32, r), "MIXPANEL_API_SECRET"),
    F("calendly-token", lambda r: jwt({"kid": "1ce1e136", "typ": "PAT", "alg": "ES256"}),
      "CALENDLY_TOKEN"),
    F("freshdesk-api-key", lambda r: rnd(20, ALNUM, r), "FRESHDESK_API_KEY"),
    F("meraki-api-key", lambda r: hexs(40, r), "MERAKI_DASHBOARD_API_KEY"),
    F("settlemint-token", lambda r: "sm_pat_" + rnd(16, ALNUM, r)),
    F("intra42-client-secret", lambda r: "s-s4t2ud-" + hexs(64, r)),
    F("dependency-track-key", lambda r: "odt_" + rnd(32, ALNUM, r)),
    F("castai-api-key", lambda r: hexs(64, r), "CASTAI_API_TOKEN"),
    F("freemius-secret-key", lambda r: "sk_" + rnd(29, ALNUM + "!#%&*+-.:;=?@^_~", r),
      "FREEMIUS_SECRET_KEY"),
    F("looker-client-secret", lambda r: rnd(24, ALNUM, r), "LOOKERSDK_CLIENT_SECRET"),
    F("sidekiq-secret", lambda r: hexs(8, r) + ":" + hexs(8, r),
      "BUNDLE_ENTERPRISE__CONTRIBSYS__COM"),
    F("sidekiq-secret", lambda r: hexs(8, r) + ":" + hexs(8, r), "",
      "https://{}@gems.contribsys.com/"),
    F("sidekiq-secret", lambda r: hexs(8, r) + ":" + hexs(8, r), "bundleEnterpriseContribsysCom"),
    F("sidekiq-secret", lambda r: hexs(8, r) + ":" + hexs(8, r), "",
      "bundle config --local enterprise.contribsys.com {}"),
    F("kong-konnect-token", lambda r: r.choice(["kpat_", "spat_"]) + rnd(49, ALNUM, r)),
    F("rootly-api-key", lambda r: "rootly_" + hexs(64, r)),
]
# fmt: on


def placed(fmt: Fmt, token: str, how: str = "bare") -> str:
    """A text holding the token: bare in a sentence (no secret word nearby), or assigned to
    the format's key (a keyed format is only ever assigned)."""
    text = fmt.context.format(token)
    if fmt.key or how == "assigned":
        return f"{fmt.key or 'deploy_value'}={text}"
    return f"the release script printed {text} before it stopped"


# (rule id, text, the secret inside it). The secret must be on the text's last line.
POSITIVES: list[tuple[str, str, str]] = []


def _add(rule: str, secret: str, template: str = "{}") -> None:
    POSITIVES.append((rule, template.format(secret), secret))


# Each format's sample is drawn from a seed of its own (its rule and how many formats of that
# rule came before it), so adding a format redraws no other sample, here or in the tests.
_drawn: Counter[str] = Counter()
for _fmt in FORMATS:
    _token = _fmt.token(random.Random(f"{_fmt.rule}#{_drawn[_fmt.rule]}"))
    _drawn[_fmt.rule] += 1
    _add(_fmt.rule, _token, placed(_fmt, "{}"))

_add("jwt", jwt(), "cookie {}")
_add("authorization-header", rnd(40, URLSAFE), "Authorization: Bearer {}")
_add("authorization-header", b64(b"svc-deploy:" + rnd(20).encode()),
     'headers = {{"Authorization": "Basic {}"}}')  # fmt: skip
_add("authorization-header", rnd(32, ALNUM), "curl -H 'X-Api-Key: {}' https://api.internal/v2")
_add("password-in-url", "S3cr" + rnd(12), "DATABASE_URL=postgres://app:{}@db.internal:5432/app")
_add("password-in-url", rnd(16), "mysql://root:{}@127.0.0.1/shop")
_add("password-in-url", rnd(16), "mongodb+srv://svc:{}@cluster0.abcde.mongodb.net/db")
_add("password-in-url", rnd(16), "redis://:{}@cache:6379/0")
_add("curl-credentials", "deploy:" + rnd(14), "curl -u {} https://ci.internal/api")
_add("curl-credentials", "api:" + rnd(20), "curl -s --user '{}' https://api.mail.example.net/v3")
_add("password-assignment", "hunter2hunter2", "---\ntitle: x\npassword: {}\n---")
_add("password-assignment", "hunter2hunter2", '---\ntitle: x\npassword: "{}"')
_add("password-assignment", "hunter2hunter2", "password: '{}'")
_add("password-assignment", "S3cret-Passw0rd!", "db_password = '{}'")
_add("password-assignment", "correcthorse", 'PASSWORD="{}"')
_add("password-assignment", "Tr0ub4dor&3x", "MYSQL_PWD={}")
_add("password-assignment", "hunter2hunter2", "mysqladmin --password {}")
_add("password-assignment", rnd(24), "client_secret: {}")
# a short legacy workspace token, no team number: a generated part of twelve
_add("slack-token", "xoxr-" + rnd(12, ALNUM, random.Random("slack-token-short")),
     "the old workspace token {} still works")  # fmt: skip
# a legacy token: numbers (a short team number) then a hex part
_legacy = random.Random("slack-token-legacy")
_add("slack-token", "xoxs-" + digits(7, _legacy) + "-" + digits(9, _legacy) + "-"
     + digits(10, _legacy) + "-" + hexs(10, _legacy), "SLACK_LEGACY={}")  # fmt: skip
_add("password-assignment", rnd(18, LOWER + DIGITS), '{{"apiKey": "{}"}}')
_add("password-assignment", "open sesame 42", 'password = "{}"')
_add("password-assignment", rnd(16) + "!", '<add key="ClearTextPassword" value="{}" />')
_add("password-assignment", rnd(20), "docker login -u deploy -p {} registry.internal")
_add("password-assignment", rnd(48, B64), "password: |\n  {}")
_add("password-assignment", rnd(30), "<deployToken>{}</deployToken>")
_add(
    "kubernetes-secret",
    b64(rnd(18).encode()),
    "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: Opaque\ndata:\n  password: {}",
)
_add("kubernetes-secret", rnd(16), "kind: Secret\nstringData:\n  api-token: '{}'")
_add("high-entropy-near-secret-word", rnd(40, B64), "the signing key we use is {} for now")
_add("high-entropy-near-secret-word", rnd(40, B64), "{} is the staging token")
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
_block("private-key-block", openssh_key("ed25519"))
_block("private-key-block", openssh_key("ecdsa"))
_block(  # an ed25519 key's private part is 48 characters on one line
    "private-key-block",
    "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: k\nPublic-Lines: 2\n"
    f"{rnd(64, B64)}\n{rnd(4, B64)}\nPrivate-Lines: 1\n{rnd(47, B64)}=\n"
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
    ("aws-access-key-id", "the primers ACCA" + "GTTACGATCGATGCA and ASIA" + "ATCGATCGATCGATCGA"),
    (
        "aws-secret-access-key",
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY",
    ),
    ("google-api-key", "AIza" + "your-api-key-here-0000000000000000000"),
    ("github-pat", "token: ghp_" + "x" * 36),
    ("github-pat", "token: ghp_" + "A" * 36),
    ("github-pat", "token: ghp_your_personal_access_token_goes_here"),
    ("github-pat", "token: ghp_" + rnd(20)),  # too short
    ("github-pat", "token: ghp_" + "abcd1234" * 5),  # a repeated chunk
    ("gitlab-token", "GITLAB_TOKEN=glpat-xxxxxxxxxxxxxxxxxxxx"),
    ("gitlab-token", "glimt-my-tokens_are-correct-and-long"),
    ("gitlab-runner-registration-token", "GR1348941" + "123" * 7),
    ("slack-bot-token", "SLACK_TOKEN=xoxb-your-bot-token-here-please"),
    ("slack-user-token", "xoxp-" + "1" * 10 + "-" + "#" * 20),
    ("slack-user-token", "SLACK_TOKEN=xoxp-" + digits(12) + "-####################"),
    # a slug that happens to start like a legacy token: a word and a number, no generated part
    ("slack-token", "the poster is at https://cdn.example.org/2019/xoxo-festival-7.jpg"),
    ("slack-token", "see the #xoxs-meetups-2 channel"),
    (
        "slack-webhook-url",
        "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
    ),
    ("telegram-bot-token", "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11"),
    ("stripe-secret-key", "STRIPE_PUBLISHABLE_KEY=pk" + "_live_" + rnd(99)),
    ("high-entropy-near-secret-word", "STRIPE_PUBLISHABLE_KEY=pk" + "_live_" + rnd(99)),
    ("password-assignment", "STRIPE_PUBLISHABLE_KEY=pk" + "_live_" + rnd(99)),
    ("stripe-secret-key", "sk" + "_live_" + "1234567890abcdefghijklmnop"),
    ("stripe-secret-key", "sk_test_ThisIsNotARealKeyJustWords"),
    ("openai-api-key", "OPENAI_API_KEY=sk-..."),
    ("openai-api-key", "OPENAI_API_KEY=<your-openai-key>"),
    ("anthropic-api-key", "ANTHROPIC_API_KEY=${ANTHROPIC_API_KEY}"),
    ("twilio-api-key", "SK" + "0" * 32),
    ("twilio-api-key", "SKETCHES" + "a" * 26),
    ("heroku-api-key", "HEROKU_API_KEY=$HEROKU_API_KEY"),
    ("heroku-api-key", "heroku_app_id: " + uuid()),
    ("cohere-api-key", "COHERE_API_KEY=" + "x" * 40),
    ("vault-token", "see s.abcdefghijklmnopqrstuvwx for the type"),
    ("harness-token", "pat." + "a" * 22 + "." + "b" * 24 + "." + "c" * 20),
    ("gcs-hmac-key", "the GOOGLEAPISCLIENTLIBRARYFORJAVASCRIPT bundle"),
    ("gcs-hmac-key", "GOOGOLPLEXISAVERYLARGENUMBERINDEED"),
    # a public key: APP_USR- and a UUID
    ("mercadopago-access-token", "initMercadoPago('APP_USR-7c1e5a3b-4d2f-4a6e-9b8c-1f2e3d4c5b6a')"),
    ("xendit-secret-key", "XENDIT_PUBLIC_KEY=xnd_public_development_" + "Qm7Xc2Lp9" * 7),
    ("confluent-api-secret", "apiKey: cfltApiKey, apiSecret: cfltApiSecret"),
    ("youtrack-permanent-token", "chmod with perm:rw.owner.group on the share"),
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
    ("authorization-header", 'curl -H "Authorization: Token **********" https://x.internal'),
    ("authorization-header", 'curl -H "X-Api-Key: $API_KEY" https://x.internal'),
    ("curl-credentials", "curl -u user:password https://x.internal"),
    ("curl-credentials", "curl -u 'test:test' https://x.internal"),
    ("curl-credentials", 'curl -u "$USER:$PASS" https://x.internal'),
    ("curl-credentials", 'curl --user "${{ env.ID }}:${{ env.PASS }}" https://x.internal'),
    ("curl-credentials", "curl -u <user:password> https://x.internal"),
    ("curl-credentials", 'curl -u "deploy" https://x.internal'),
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
    ("password-assignment", 'password = "see the vault for the current one"'),
    ("password-assignment", "auth: oauth2"),
    ("password-assignment", 'api_key: "X-Api-Key"'),
    ("password-assignment", "header_token: X-Request-Token2"),
    ("password-assignment", 'token: "refresh"'),
    ("password-assignment", "credentials: ./creds.json"),
    ("password-assignment", "export GITHUB_TOKEN=$(gh auth token)"),
    ("password-assignment", "apikey=12345678"),
    ("password-assignment", 'password=""'),
    ("password-assignment", "pwd: /home/user"),
    ("password-assignment", 'password: "real_key"'),
    ("password-assignment", "keyVaultToStoreSecrets: cmp2-qat-1208358310"),
    ("password-assignment", "snowflake.password=\njdbc.snowflake.url=jdbc:snowflake://acct"),
    ("password-assignment", "GITHUB_API_KEY=\nDYNATRACE_API_KEY="),
    ("password-assignment", f"public_key = {rnd(43)}"),
    ("password-assignment", f"primaryKey={rnd(30)}"),
    ("password-assignment", f"csrf-token={rnd(60, B64)}=="),
    ("password-assignment", f"credentialsId: '{uuid()}'"),
    ("password-assignment", 'SECRET_NAME = "NEXUS-GPT4-API-KEY"'),
    ("password-assignment", "secret_length = X25519.secret_length"),
    ("password-assignment", "access_token_url='https://github.com/login/oauth/access_token'"),
    ("password-assignment", "accessor: rA1wk0Y45YCufyfq"),
    ("password-assignment", "op run --env-file .env -- token: op://vault/item/credential"),
    ("password-assignment", "the token, 4096 bytes at most, is read once"),
    ("kubernetes-secret", "kind: Secret\ndata:\n  htpasswd: ''\n  token: {{ .Values.token }}\n"),
    ("kubernetes-secret", "kind: Secret\ndata:\n  extra: YmFyCg==\n"),  # too short to matter
    (
        "kubernetes-secret",
        "kind: ExternalSecret\nspec:\n  data:\n    - secretKey: api-key\n"
        "      remoteRef:\n        key: my-secrets-manager-secret\n",
    ),
    (
        "kubernetes-secret",
        "kind: ConfigMap\ndata:\n  a: " + b64(rnd(18).encode()) + "\n---\nkind: Secret",
    ),
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
    "The `password` field is hashed with argon2id; see `auth/passwords.py` and ADR 12.",
    "Set `DB_PASSWORD` in the CI settings; the job reads it as `${{ secrets.DB_PASSWORD }}`.",
    "We escape underscores in Markdown (`snake\\_case`) and write `&amp;` for ampersands; 50% "
    "of the page weight is images (`%20` is a space).",
    "The k8s secret is mounted from `kind: Secret` with `data:` filled by the operator.",
]
