"""Find secrets and hidden characters in memory text before they reach a commit or a prompt.

A memory entry is read by every agent and pasted into prompts, so a secret in it is leaked the
moment it is admitted. This module is the one scanner every gate uses (pre-commit, pre-push,
pre-receive, CI, propose, import), so it must be both thorough and cheap.

What it reports (each as a `Finding` with a stable kebab-case rule id):

- provider tokens by their documented formats (cloud, forges, CI, chat, payment, package
  registries, AI providers, databases, observability, secret managers; see `rule_ids()`);
- private-key blocks across lines (PEM, OpenSSH, PGP, PuTTY), JWTs, passwords in URLs,
  `key: value` / `key = value` / `--flag value` assignments whose key is secret-like
  (front matter and body alike), `Authorization:` headers;
- high-entropy strings within a few words of a secret word (`token`, `secret`, `key`…), or on
  the line right after a `password:` style key;
- names of secret-like files (`.env`, `id_rsa`, `*.pem`, `*.tfstate`…) mentioned as paths in the
  text (`scan_text`) or cited in an entry's `files` (`scan_file_names`);
- hidden characters: zero-width, bidirectional controls, tag characters and other invisible
  format characters (`scan_hidden_unicode`; `scan_text` includes these findings too, so one call
  covers a whole file: do not call both on the same text).

Not reported: placeholders and documented examples (`${VAR}`, `$VAR`, `<token>`,
`{{ secret }}`, `xxxx`, `****`, values containing `example`, `dummy`, `placeholder`,
`changeme`, `your-`, `redacted`, AWS's documented example keys, strings of one repeated
character), UUIDs, and git object ids on a line that talks about commits or hashes.

Reviewed exceptions: every finding carries a fingerprint, ``rule-id:`` and 32 hex digits of a
SHA-256 of the rule id and the secret with its spaces and quotes taken off (never the secret
itself; for hidden characters, of the line that holds them). A reviewer who is not the author
records a fingerprint (gitmem.settings.policy says where); the gates then drop findings whose
fingerprint is recorded. Nothing in the text exempts it: a ``gitmem:allow`` marker an author
types is ordinary text, and suppresses nothing anywhere.

How it stays fast and safe on hostile input: every pattern is an RE2 pattern (linear time, no
backtracking). One `re2.Set` pass over the text says which rules can match at all; only those
rules run, and Python confirms their candidates (placeholder filters, entropy, JWT headers). The
patterns are compiled on the first scan, not at import. A text longer than `MAX_SCAN_CHARS` is
scanned up to the cap and also gets one ``scan-size-cap`` finding, so the gate fails closed.

Lines are 1-based and counted by ``\\n`` (plus ``line_offset``). Excerpts never hold a whole
secret: at most its first 4 characters (fewer for short values) and its length.
"""

from __future__ import annotations

import bisect
import functools
import math
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

MAX_SCAN_CHARS = 256 * 1024
"""Characters scanned per text; a longer text gets a ``scan-size-cap`` finding."""

#: The inline marker older versions honoured; now only named in messages (it exempts nothing).
ALLOW_MARKER = "gitmem:allow"


@dataclass(frozen=True)
class Finding:
    """One suspected secret or hidden character: which rule, where, and a redacted excerpt."""

    rule: str
    line: int
    excerpt: str
    description: str
    fingerprint: str = ""


# --------------------------------------------------------------------------------------------
# Rule table. Patterns are RE2 syntax over UTF-8 bytes, compiled in Latin-1 mode (every pattern
# is ASCII, so each byte is one character: smaller automata, same meaning). In token rules,
# group 1 (or the whole match) is the secret.

_TOKEN, _PEM, _JWT, _URL, _ASSIGN, _ENTROPY, _FILE = range(7)

# Tiers: a finding is dropped when it overlaps one from a lower tier (a more specific rule).
_TIER = {_TOKEN: 0, _PEM: 0, _JWT: 0, _FILE: 0, _URL: 1, _ASSIGN: 2, _ENTROPY: 3}


class _Rule:
    """One pattern: its rule id, description, RE2 pattern, kind and confirmation knobs."""

    __slots__ = ("description", "gates", "id", "kind", "pattern", "strict", "tier")

    def __init__(
        self,
        rule_id: str,
        description: str,
        pattern: str,
        kind: int = _TOKEN,
        strict: bool = False,
        tier: int = -1,
        gates: tuple[str, ...] = (),
    ) -> None:
        self.id = rule_id
        self.description = description
        self.pattern = pattern
        self.kind = kind
        self.strict = strict  # a token rule whose shape alone is weak: also demand randomness
        self.tier = tier if tier >= 0 else _TIER[kind]
        # What the one Set pass looks for instead of the pattern: patterns that all match
        # wherever the pattern does (tested), for a rule whose own pattern would multiply the
        # Set's automaton (counted runs after `[^\n]*`); the rule's regex then decides.
        self.gates = gates or (pattern,)


_SEP = r"""["']?\s*(?:=>|:=|=|:)\s*["']?"""
_END = r"(?:[^A-Za-z0-9_\-]|$)"


def _tok(rule_id: str, description: str, pattern: str, *, strict: bool = False) -> _Rule:
    return _Rule(rule_id, description, pattern, _TOKEN, strict)


def _near(
    rule_id: str, description: str, names: str, keys: str, value: str, *, strict: bool = True
) -> _Rule:
    """A provider whose tokens have no prefix: the value of a key naming the provider.

    `strict` (the default) also demands a random-looking value; a value whose shape is telling
    on its own (a UUID) does not need it.
    """
    pattern = rf"(?i)(?:{names})[\w.\-]{{0,24}}(?:{keys}){_SEP}({value}){_END}"
    return _Rule(rule_id, description, pattern, _TOKEN, strict=strict)


_KEYS = r"key|token|secret"

_RULES: tuple[_Rule, ...] = (
    # ---- cloud
    _tok(
        "aws-access-key-id",
        "AWS access key id",
        r"\b((?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})\b",
    ),
    _Rule(
        "aws-secret-access-key",
        "AWS secret access key",
        r"(?i)(?:aws[\w.\-]{0,24}secret|secret[_.\-]?access)[\w.\-]{0,24}"
        rf"{_SEP}([A-Za-z0-9/+]{{40}})(?:[^A-Za-z0-9/+=]|$)",
        strict=True,
    ),
    _tok(
        "google-api-key",
        "Google API key (Google Cloud, Firebase or Google AI)",
        rf"\b(AIza[0-9A-Za-z_\-]{{35}}){_END}",
    ),
    _tok(
        "google-oauth-client-secret",
        "Google OAuth client secret",
        rf"\b(GOCSPX-[A-Za-z0-9_\-]{{28}}){_END}",
    ),
    _tok("google-oauth-token", "Google OAuth access token", r"\b(ya29\.[0-9A-Za-z_\-]{30,})"),
    _tok(
        "azure-storage-account-key",
        "Azure storage account key (connection string AccountKey=)",
        r"(?i)AccountKey=([A-Za-z0-9+/]{40,}={0,2})",
    ),
    _tok(
        "azure-sas-token",
        "Azure shared access signature (sig=)",
        r"(?i)[?&;]sig=([A-Za-z0-9%+/]{30,}(?:%3D|=){0,2})",
        strict=True,
    ),
    _tok(
        "azure-ad-client-secret",
        "Microsoft Entra ID (Azure AD) client secret",
        r"(?:^|[^A-Za-z0-9_~.\-])([A-Za-z0-9_~.\-]{3}[0-9]Q~[A-Za-z0-9_~.\-]{31,34})"
        r"(?:[^A-Za-z0-9_~.\-]|$)",
        strict=True,
    ),
    _tok("digitalocean-token", "DigitalOcean token", r"\b(do[opr]_v1_[a-f0-9]{64})\b"),
    _tok(
        "alibaba-access-key-id",
        "Alibaba Cloud access key id",
        r"\b(LTAI[A-Za-z0-9]{12,20})\b",
        strict=True,
    ),
    _tok(
        "tencent-secret-id",
        "Tencent Cloud SecretId",
        r"\b(AKID[A-Za-z0-9]{32})\b",
        strict=True,
    ),
    _near(
        "ibm-cloud-api-key",
        "IBM Cloud API key",
        "ibm",
        r"api[_.\-]?key|apikey|key",
        r"[A-Za-z0-9_\-]{44}",
    ),
    _near(
        "cloudflare-api-token",
        "Cloudflare API token",
        r"cloudflare|\bcf[_.\-]",
        _KEYS,
        r"[A-Za-z0-9_\-]{37,40}",
    ),
    _tok(
        "heroku-api-key",
        "Heroku API key",
        r"\b(HRKU-[A-Za-z0-9_\-]{40,})",
    ),
    _near(
        "heroku-api-key",
        "Heroku API key",
        "heroku",
        _KEYS,
        r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
        strict=False,
    ),
    # ---- forges
    _tok("github-pat", "GitHub personal access token", r"\b(ghp_[A-Za-z0-9]{36,255})\b"),
    _tok("github-oauth-token", "GitHub OAuth access token", r"\b(gho_[A-Za-z0-9]{36,255})\b"),
    _tok("github-user-token", "GitHub user-to-server token", r"\b(ghu_[A-Za-z0-9]{36,255})\b"),
    _tok("github-server-token", "GitHub server-to-server token", r"\b(ghs_[A-Za-z0-9]{36,255})\b"),
    _tok("github-refresh-token", "GitHub refresh token", r"\b(ghr_[A-Za-z0-9]{36,255})\b"),
    _tok(
        "github-fine-grained-pat",
        "GitHub fine-grained personal access token",
        r"\b(github_pat_[A-Za-z0-9_]{50,255})\b",
    ),
    _tok(
        "gitlab-token",
        "GitLab token",
        r"\b((?:glpat|gldt|glrt|glrtr|glptt|glcbt|glft|glimt|glagent|glsoat|gloas|glffct|glwt)"
        r"-[A-Za-z0-9_\-.]{20,})",
    ),
    _tok(
        "gitlab-runner-registration-token",
        "GitLab runner registration token",
        r"\b(GR1348941[A-Za-z0-9_\-]{20,})",
    ),
    _tok(
        "bitbucket-app-password",
        "Bitbucket app password",
        r"\b(ATBB[A-Za-z0-9_=.\-]{32,})\b",
        strict=True,
    ),
    _tok("atlassian-api-token", "Atlassian API token", r"\b(ATATT3[A-Za-z0-9_=\-]{100,})"),
    _near("gitea-token", "Gitea access token", "gitea|forgejo", _KEYS, r"[a-f0-9]{40}"),
    # ---- CI
    _tok(
        "circleci-token",
        "CircleCI API token",
        r"\b(CCIP(?:AT|RJ)_[A-Za-z0-9]{20,}_[a-f0-9]{40})\b",
    ),
    _near("circleci-token", "CircleCI API token", "circle", _KEYS, r"[a-f0-9]{40}"),
    _near("travis-token", "Travis CI API token", "travis", _KEYS, r"[A-Za-z0-9_\-]{22}"),
    _tok("buildkite-token", "Buildkite API access token", r"\b(bkua_[a-f0-9]{40})\b"),
    _tok("sonar-token", "SonarQube / SonarCloud token", r"\b(sq[pau]_[a-f0-9]{40})\b"),
    _tok(
        "jfrog-token",
        "JFrog Artifactory API key or reference token",
        r"\b(AKCp[A-Za-z0-9]{69}|cmVmdGtuOjAxOj[A-Za-z0-9]{40,})\b",
    ),
    # ---- chat
    _tok("slack-bot-token", "Slack bot token", r"\b(xoxb-[0-9]+-[A-Za-z0-9\-]{16,})"),
    _tok("slack-user-token", "Slack user token", r"\b(xoxp-[0-9]+-[A-Za-z0-9\-]{16,})"),
    _tok(
        "slack-token",
        "Slack token",
        r"\b(xox[aeors]-[A-Za-z0-9\-]{16,}|xoxe\.xox[bp]-1-[A-Za-z0-9]{60,})",
    ),
    _tok("slack-app-token", "Slack app-level token", r"\b(xapp-[0-9]+-[A-Za-z0-9\-]{30,})"),
    _tok(
        "slack-webhook-url",
        "Slack incoming webhook URL",
        r"hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9+/_\-]{30,})",
    ),
    _tok(
        "discord-bot-token",
        "Discord bot token",
        r"(?:^|[^A-Za-z0-9_\-.])([MNO][A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6}"
        r"\.[A-Za-z0-9_\-]{27,40})(?:[^A-Za-z0-9_\-.]|$)",
        strict=True,
    ),
    _tok(
        "discord-webhook-url",
        "Discord webhook URL",
        r"discord(?:app)?\.com/api/webhooks/[0-9]{17,20}/([A-Za-z0-9_\-]{60,})",
    ),
    _tok(
        "telegram-bot-token",
        "Telegram bot token",
        rf"(?:^|[^0-9A-Za-z_\-:])([0-9]{{8,10}}:AA[A-Za-z0-9_\-]{{33}}){_END}",
    ),
    _tok(
        "teams-webhook-url",
        "Microsoft Teams incoming webhook URL",
        r"[A-Za-z0-9\-]+\.webhook\.office\.com/webhookb2/([A-Za-z0-9@/\-]{60,})",
    ),
    # ---- payment
    _tok(
        "stripe-secret-key",
        "Stripe secret key",
        r"\b(sk_(?:live|test)_[A-Za-z0-9]{20,247})\b",
    ),
    _tok(
        "stripe-restricted-key",
        "Stripe restricted key",
        r"\b(rk_(?:live|test)_[A-Za-z0-9]{20,247})\b",
    ),
    _tok("stripe-webhook-secret", "Stripe webhook signing secret", r"\b(whsec_[A-Za-z0-9]{32,})\b"),
    _tok(
        "square-access-token",
        "Square access token",
        rf"\b(EAAA[A-Za-z0-9_\-]{{60}}|sq0atp-[A-Za-z0-9_\-]{{22}}){_END}",
    ),
    _tok("square-oauth-secret", "Square OAuth secret", rf"\b(sq0csp-[A-Za-z0-9_\-]{{43}}){_END}"),
    _tok(
        "braintree-access-token",
        "PayPal Braintree access token",
        r"\b(access_token\$(?:production|sandbox)\$[a-z0-9]{16}\$[a-f0-9]{32})\b",
    ),
    _tok(
        "shopify-access-token",
        "Shopify access token",
        r"\b(shp(?:at|ca|pa)_[a-fA-F0-9]{32})\b",
    ),
    _tok("shopify-shared-secret", "Shopify shared secret", r"\b(shpss_[a-fA-F0-9]{32})\b"),
    _tok(
        "flutterwave-secret-key",
        "Flutterwave secret key",
        r"\b(FLWSECK(?:_TEST)?-[a-f0-9]{32}-X)\b",
    ),
    _tok("facebook-access-token", "Meta (Facebook) access token", r"\b(EAA[A-Za-z0-9]{100,})\b"),
    # ---- package registries
    _tok("npm-token", "npm access token", r"\b(npm_[A-Za-z0-9]{36})\b"),
    _tok(
        "pypi-token",
        "PyPI API token",
        r"\b(pypi-(?:AgEIcHlwaS5vcmc|AgENdGVzdC5weXBpLm9yZw)[A-Za-z0-9_\-]{50,})",
    ),
    _tok("rubygems-api-key", "RubyGems API key", r"\b(rubygems_[a-f0-9]{48})\b"),
    _tok("nuget-api-key", "NuGet API key", r"\b(oy2[a-z0-9]{43})\b", strict=True),
    _tok(
        "dockerhub-token",
        "Docker Hub access token",
        r"\b(dckr_(?:pat|oat)_[A-Za-z0-9_\-]{27,})",
    ),
    _tok("crates-io-token", "crates.io API token", r"\b(cio[A-Za-z0-9]{32})\b", strict=True),
    _tok("clojars-token", "Clojars deploy token", r"\b(CLOJARS_[a-z0-9]{60})\b"),
    # ---- AI providers
    _tok(
        "anthropic-api-key",
        "Anthropic API key",
        r"\b(sk-ant-(?:api|admin|oat|ort|sid)[0-9]{2}-[A-Za-z0-9_\-]{80,})",
    ),
    _tok(
        "openai-api-key",
        "OpenAI API key",
        r"\b(sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_\-]{40,}"
        r"|sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}|sk-[A-Za-z0-9]{48})\b",
    ),
    _tok(
        "huggingface-token",
        "Hugging Face access token",
        r"\b((?:hf|api_org)_[A-Za-z0-9]{34})\b",
        strict=True,
    ),
    _tok("groq-api-key", "Groq API key", r"\b(gsk_[A-Za-z0-9]{52})\b"),
    _tok("replicate-api-token", "Replicate API token", r"\b(r8_[A-Za-z0-9]{37})\b"),
    _tok("xai-api-key", "xAI API key", r"\b(xai-[A-Za-z0-9]{80})\b"),
    _tok("perplexity-api-key", "Perplexity API key", r"\b(pplx-[A-Za-z0-9]{48})\b"),
    _tok(
        "langsmith-api-key",
        "LangSmith API key",
        r"\b(lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10})\b",
    ),
    _near("cohere-api-key", "Cohere API key", "cohere", r"api[_.\-]?key|key", r"[A-Za-z0-9]{40}"),
    _near(
        "mistral-api-key", "Mistral AI API key", "mistral", r"api[_.\-]?key|key", r"[A-Za-z0-9]{32}"
    ),
    # ---- databases
    _tok(
        "planetscale-token",
        "PlanetScale token or password",
        r"\b(pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_\-.]{32,64})",
    ),
    _tok(
        "supabase-token",
        "Supabase access token or secret key",
        r"\b(sbp_[a-f0-9]{40}|sb_secret_[A-Za-z0-9_\-]{30,})",
    ),
    _tok("databricks-token", "Databricks access token", r"\b(dapi[a-f0-9]{32}(?:-[0-9])?)\b"),
    # ---- mail, messaging, observability, SaaS
    _tok(
        "sendgrid-api-key",
        "SendGrid API key",
        rf"\b(SG\.[A-Za-z0-9_\-]{{22}}\.[A-Za-z0-9_\-]{{43}}){_END}",
    ),
    _tok("mailgun-api-key", "Mailgun API key", r"\b(key-[a-f0-9]{32})\b"),
    _tok("mailchimp-api-key", "Mailchimp API key", r"\b([a-f0-9]{32}-us[0-9]{1,2})\b"),
    _tok(
        "brevo-api-key", "Brevo (Sendinblue) API key", r"\b(xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16})\b"
    ),
    _tok("twilio-api-key", "Twilio API key SID", r"\b(SK[0-9a-f]{32})\b", strict=True),
    _tok(
        "twilio-credentials",
        "Twilio account SID with auth token",
        r"\b(AC[a-f0-9]{32}:[a-f0-9]{32})\b",
    ),
    _near(
        "twilio-credentials",
        "Twilio auth token",
        "twilio",
        r"auth[_.\-]?token|token",
        r"[a-f0-9]{32}",
    ),
    _tok(
        "sentry-dsn",
        "Sentry DSN with its key",
        r"(?i)\bhttps?://([a-f0-9]{32}(?::[a-f0-9]{32})?)@[A-Za-z0-9.\-]+(?::[0-9]+)?/(?:[A-Za-z0-9_\-]+/)*[0-9]+",
    ),
    _tok("sentry-auth-token", "Sentry auth token", r"\b(sntry[su]_[A-Za-z0-9+/=_]{40,})"),
    _near(
        "datadog-api-key",
        "Datadog API or application key",
        r"datadog|\bdd[_.\-]",
        r"api[_.\-]?key|app(?:lication)?[_.\-]?key|key",
        r"[a-f0-9]{40}|[a-f0-9]{32}",
    ),
    _tok(
        "newrelic-key",
        "New Relic API or license key",
        r"\b(NR(?:AK|II|IQ|JS|RA|AA)-[A-Za-z0-9]{19,32}|[a-f0-9]{36}NRAL)\b",
    ),
    _tok(
        "dynatrace-token",
        "Dynatrace API token",
        r"\b(dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64})\b",
    ),
    _tok(
        "linear-api-key", "Linear API key", r"\b(lin_api_[A-Za-z0-9]{40}|lin_oauth_[a-f0-9]{64})\b"
    ),
    _tok(
        "notion-token",
        "Notion integration token",
        r"\b(secret_[A-Za-z0-9]{43}|ntn_[0-9]{11}[A-Za-z0-9]{35})\b",
        strict=True,
    ),
    _tok("postman-api-key", "Postman API key", r"\b(PMAK-[a-f0-9]{24}-[a-f0-9]{34})\b"),
    _tok(
        "airtable-token",
        "Airtable personal access token",
        r"\b(pat[A-Za-z0-9]{14}\.[a-f0-9]{64})\b",
    ),
    _tok("figma-token", "Figma personal access token", r"\b(figd_[A-Za-z0-9_\-]{40,})"),
    _tok("netlify-token", "Netlify personal access token", r"\b(nfp_[A-Za-z0-9]{36})\b"),
    _tok("prefect-api-key", "Prefect API key", r"\b(pnu_[A-Za-z0-9]{36})\b"),
    _tok("easypost-api-key", "EasyPost API key", r"\b(EZ[AT]K[A-Za-z0-9]{54})\b"),
    _tok("shippo-api-token", "Shippo API token", r"\b(shippo_(?:live|test)_[a-f0-9]{40})\b"),
    _tok(
        "contentful-token",
        "Contentful personal access token",
        rf"\b(CFPAT-[A-Za-z0-9_\-]{{43}}){_END}",
    ),
    _tok(
        "mapbox-secret-token",
        "Mapbox secret token",
        r"\b(sk\.eyJ[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{20,})",
    ),
    _tok(
        "firebase-messaging-key",
        "Firebase Cloud Messaging server key",
        r"\b(AAAA[A-Za-z0-9_\-]{7}:APA91b[A-Za-z0-9_\-]{100,})",
    ),
    _tok("dropbox-token", "Dropbox access token", r"\b(sl\.[A-Za-z0-9_\-]{130,})"),
    _tok(
        "tailscale-key",
        "Tailscale API or auth key",
        r"\b(tskey-(?:api|auth|client|scim|webhook)-[A-Za-z0-9]{6,}-[A-Za-z0-9]{20,})\b",
    ),
    # ---- secret managers and infrastructure
    _tok("vault-token", "HashiCorp Vault token", r"\b(hv[sbr]\.[A-Za-z0-9_\-]{24,})"),
    _tok(
        "doppler-token",
        "Doppler token",
        r"\b(dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44})\b",
    ),
    _tok("pulumi-token", "Pulumi access token", r"\b(pul-[a-f0-9]{40})\b"),
    _tok(
        "terraform-cloud-token",
        "Terraform Cloud / HCP Terraform token",
        r"\b([A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_\-=]{60,70})",
    ),
    _tok(
        "grafana-token",
        "Grafana token or API key",
        r"\b(glc_[A-Za-z0-9+/]{32,}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}"
        r"|eyJrIjoi[A-Za-z0-9]{40,}={0,2})",
    ),
    _near("okta-api-token", "Okta API token", "okta", _KEYS, r"00[A-Za-z0-9_\-]{40}"),
    _tok("okta-api-token", "Okta API token", rf"\bSSWS\s+(00[A-Za-z0-9_\-]{{40}}){_END}"),
    _tok(
        "age-secret-key",
        "age secret key",
        r"\b(AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58})\b",
    ),
    # ---- structural rules
    _Rule(
        "private-key-block",
        "private key block",
        r"-{3,5} ?BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)? ?-{3,5}"
        r"|PuTTY-User-Key-File-[0-9]+: ",
        _PEM,
    ),
    _Rule(
        "jwt",
        "JSON Web Token",
        r"\b(eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{16,})",
        _JWT,
    ),
    _Rule(
        "authorization-header",
        "credentials in an Authorization header",
        r"(?i)\bauthorization[\"']?\s*[:=]\s*[\"']?(?:bearer|basic|token|digest)\s+"
        r"([A-Za-z0-9._~+/=\-]{12,})",
        _TOKEN,
        strict=True,
        tier=1,
    ),
    _Rule(
        "password-in-url",
        "password in a URL",
        r"(?i)\b([a-z][a-z0-9+.\-]{1,30})://([^\s:/?#@\"'<>\[\]\\]*):([^\s/?#@\"'<>\[\]\\]+)@"
        r"[A-Za-z0-9_\[]",
        _URL,
        gates=(r"://[^\s:/?#@\"'<>\[\]\\]*:[^\s/?#@\"'<>\[\]\\]+@",),
    ),
    _Rule(
        "password-assignment",
        "secret assigned to a secret-like key",
        r"(?im)(?:pass(?:word|wd|phrase)|(?:^|[^A-Za-z])(?:pass|pwd|auth)|secret|token"
        r"|api[_.\-]?key|apikey|(?:access|secret|private|client|signing|encryption|master|session"
        r"|app|consumer|account|storage|service|deploy|license|webhook|hmac|jwt|ssh|gpg|pgp"
        r"|cookie)[_.\-]?key|authtoken|credentials?|bearer)s?"
        r"(?:[_.\-](?:base|value|b64|base64|hex|raw|plain|plaintext|str|string))?"
        r"[\"']?\s*(?:=>|:=|=|:)\s*"
        r"(?:\"([^\"\n]*)\"|'([^'\n]*)'|([^\s\"'`,;]+))",
        _ASSIGN,
    ),
    _Rule(
        "password-assignment",
        "secret passed as a command-line option",
        r"(?i)--(?:password|passwd|pass|token|secret|api-key|apikey|access-key|secret-key"
        r"|client-secret|auth-token)\s+(?:\"([^\"\n]*)\"|'([^'\n]*)'|([^\s\"'`,;\-][^\s\"'`,;]*))",
        _ASSIGN,
    ),
    _Rule(
        "high-entropy-near-secret-word",
        "high-entropy string next to a secret word",
        r"(?i)(?:{w})[^\n]*[A-Za-z0-9+/_\-]{{20}}|[A-Za-z0-9+/_\-]{{20}}[^\n]*(?:{w})"
        r"|(?:{w})[A-Za-z_]*[\"']?\s*[:=][ \t|>+\-]*\r?\n[ \t]*[\"']?[A-Za-z0-9+/_\-]{{20}}",
        _ENTROPY,
    ),
    _Rule(
        "secret-file-name",
        "mentions a secret-like file",
        r"(?im)(?:^|[\s\"'`(\[<{=:,;*])((?:[A-Za-z0-9_.~\-]+/)*(?:[A-Za-z0-9_.\-]*\.env"
        r"(?:\.[A-Za-z0-9_\-]+)*|id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?(?:\.pub)?"
        r"|[A-Za-z0-9_.\-]+\.(?:pem|key|p12|pfx|jks|keystore|ppk|kdbx|tfstate)(?:\.backup)?"
        r"|[A-Za-z0-9_.\-]*(?:credentials|secrets?)\.(?:json|ya?ml|toml)"
        r"|service[_\-]?account[A-Za-z0-9_.\-]*\.json|\.npmrc|\.pypirc|[._]netrc"
        r"|\.git-credentials|\.htpasswd|\.pgpass|\.dockercfg|\.boto|\.s3cfg"
        r"|kubeconfig(?:\.[A-Za-z0-9]+)?|[A-Za-z0-9_.\-]+\.kubeconfig|\.kube/config"
        r"|\.docker/config\.json|\.aws/credentials))(?:$|[\s\"'`)\]>},;:*!?]|\.(?:\s|$))",
        _FILE,
    ),
)

# Words that make a nearby random-looking string suspicious.
_SECRET_WORDS = (
    r"passw|passphrase|pwd|secret|token|api[_.\- ]?key|apikey|access[_.\- ]?key"
    r"|private[_.\- ]?key|auth|credential|bearer|key"
)
_ANY_SECRET_WORD = f"(?i)(?:{_SECRET_WORDS})"
_RULES = tuple(
    _Rule(
        r.id,
        r.description,
        r.pattern.format(w=_SECRET_WORDS),
        r.kind,
        r.strict,
        r.tier,
        gates=(_ANY_SECRET_WORD, r"[A-Za-z0-9+/_\-]{20}"),
    )
    if r.kind == _ENTROPY
    else r
    for r in _RULES
)

_EXTRA_RULE_IDS = (
    "gcp-service-account-key",
    "hidden-unicode",
    "scan-size-cap",
)  # not from a pattern


def rule_ids() -> tuple[str, ...]:
    """Every rule id this scanner can report, sorted (for docs and `gitmem:allow` checks)."""
    return tuple(sorted({r.id for r in _RULES} | set(_EXTRA_RULE_IDS)))


# --------------------------------------------------------------------------------------------
# The compiled engine, built on first use.


class _Engine:
    """The compiled patterns: one Set over every rule's gates; each rule's own regex, compiled
    on need."""

    __slots__ = (
        *("_compile", "_gated", "_owner", "_regexes"),
        *("candidates", "known_ids", "set", "words"),
    )

    def __init__(self, rule_set: Any, compile_rule: Callable[[str], Any]) -> None:
        self.set = rule_set
        self._compile = compile_rule
        self._regexes: list[Any] = [None] * len(_RULES)
        # the Set's patterns are the rules' gates, in order: which rule each one is of
        self._owner = [index for index, rule in enumerate(_RULES) for _ in rule.gates]
        self._gated = {index: len(rule.gates) for index, rule in enumerate(_RULES)}
        self.words = compile_rule(_ANY_SECRET_WORD)  # for the entropy rule
        self.candidates = compile_rule(r"[A-Za-z0-9+/_\-]{20,}={0,2}")  # random-looking runs
        self.known_ids = frozenset(rule_ids())

    def rules_in(self, data: bytes) -> list[int]:
        """The rules that can match data (every gate matched), in rule order."""
        owners = [self._owner[i] for i in self.set.Match(data) or ()]
        return sorted({index for index in owners if owners.count(index) == self._gated[index]})

    def regex(self, index: int) -> Any:
        """Rule `index`'s own regex: most texts match few rules, so most are never compiled."""
        rx = self._regexes[index]
        if rx is None:
            rx = self._regexes[index] = self._compile(_RULES[index].pattern)
        return rx


@functools.cache
def _engine() -> _Engine:
    import re2  # imported here: hooks that never scan do not pay for it

    def options(max_mem: int) -> Any:
        opts = re2.Options()
        opts.encoding = re2.Options.Encoding.LATIN1
        opts.max_mem = max_mem
        return opts

    rule_opts = options(8 << 20)
    # The Set runs one DFA for all patterns; give it room so hostile text cannot exhaust it.
    rule_set = re2.Set.SearchSet(options(128 << 20))
    for rule in _RULES:
        for gate in rule.gates:
            rule_set.Add(gate.encode("ascii"))
    rule_set.Compile()
    return _Engine(rule_set, lambda pattern: re2.compile(pattern.encode("ascii"), rule_opts))


# --------------------------------------------------------------------------------------------
# Confirming candidates.

_PLACEHOLDER_MARKERS = (
    b"example",
    b"dummy",
    b"placeholder",
    b"changeme",
    b"change_me",
    b"change-me",
    b"your-",
    b"your_",
    b"yourtoken",
    b"yourkey",
    b"yoursecret",
    b"redacted",
    b"xxxx",
    b"****",
    b"${",
    b"{{",
    b"<",
    b">",
    b"...",
    b"\xe2\x80\xa6",  # …
    b"1234567890",
    b"0123456789",
    b"abcdefghij",
    b"fake",
    b"sample",
    b"notreal",
    b"not-real",
    b"not_real",
)

_PLACEHOLDER_VALUES = frozenset(
    b"""password passwd pass pwd secret secrets token key apikey api_key changeme changeit
    example test testing dummy placeholder redacted hidden masked none null nil true false
    yes no on off required optional string str bytes env value undefined todo tbd xxx foo bar
    baz foobar mysecret mypassword yourpassword yoursecret secret123 password123 bearer basic
    digest oauth oauth2 jwt header cookie session ntlm kerberos saml oidc mtls sso ldap
    vault aws gcp azure github gitlab file path default auto enabled disabled""".split()
)

# Known public examples that are not placeholders by their text: sha-256 of the value.
_KNOWN_EXAMPLES = frozenset(
    {
        # the JSON Web Token on jwt.io ("John Doe", HS256, secret "your-256-bit-secret")
        "7f75367e7881255134e1375e723d1dea8ad5f6a4fdb79d938df1f1754a830606",
    }
)


# Tokens their providers publish on purpose (Stripe publishable keys): never reported.
_PUBLIC_PREFIXES = (b"pk_live_", b"pk_test_")


def _fake(secret: bytes) -> bool:
    """A placeholder, a documented example, or obviously made-up (one or two repeated chars)."""
    low = secret.lower()
    if any(marker in low for marker in _PLACEHOLDER_MARKERS):
        return True
    if secret[:1] in (b"$", b"%") or low in _PLACEHOLDER_VALUES:
        return True
    tail = secret[len(secret) // 3 :]
    return len(set(tail)) <= 2


def _entropy(value: bytes) -> float:
    """Shannon entropy in bits per character."""
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in Counter(value).values())


_HEX = frozenset(b"0123456789abcdefABCDEF")
_DIGITS = frozenset(b"0123456789")
_LOWER = frozenset(b"abcdefghijklmnopqrstuvwxyz")
_UPPER = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _entropy_floor(length: int) -> float:
    """Bits per character a random string of this length almost always exceeds.

    n random characters over a 32- to 64-symbol alphabet carry close to log2(n) bits each while
    n is small, levelling off near 4.5-5; identifiers sit lower because they repeat letters.
    Measured with `_looks_random` as a whole: 1-3 % of random base32, base64 and hex strings of
    20-64 characters are missed (a quarter of random lower-case-and-digit ones, which read like
    words and numbers), and 0.1 % of the long names in the Python standard library pass.
    """
    return min(3.9, math.log2(length) - 1.0)


def _looks_random(value: bytes) -> bool:
    """True for a string that looks machine-generated rather than a word, path or identifier."""
    core = value.rstrip(b"=")
    n = len(core)
    if n < 16:
        return False
    chars = set(core)
    digits, lower, upper = bool(chars & _DIGITS), bool(chars & _LOWER), bool(chars & _UPPER)
    if chars <= _HEX:
        return n >= 20 and digits and (lower or upper) and _entropy(core) >= 3.0
    if digits + lower + upper < 2:
        return False
    if (lower or chars & _SEPARATORS) and _wordy(core):
        return False
    if _pathlike(core):
        return False
    return _entropy(core) >= _entropy_floor(n)


_SEPARATORS = frozenset(b"_-./+")


def _wordy(value: bytes) -> bool:
    """An identifier made of words (`MalwareDomainsStrict`, `OID_ECDSA_WITH_SHA256`).

    Random strings rarely hold three letters of one case in a row; names are mostly words. So:
    at least 70 % of the letters and digits sit in letter runs of three or more (`Word`,
    `word`, `WORD`; a capital starting a lower-case run belongs to it) or in numbers of four
    digits or more (`gh24141`, `2025`). Or: snake_case or kebab-case of three or more parts,
    each a word, a number, or a word and a number (`test_case_sha3_512_0`).
    """
    parts = value.replace(b"-", b"_").split(b"_")
    if len(parts) >= 3 and all(_segments(p) <= 2 for p in parts):
        return True
    alnum = in_words = run = 0
    previous = 0  # 1 lower, 2 upper, 3 digit, 0 other
    for c in value:
        kind = 1 if c in _LOWER else 2 if c in _UPPER else 3 if c in _DIGITS else 0
        if kind:
            alnum += 1
        if kind == previous or (previous == 2 and kind == 1):
            if kind == 1 and previous == 2 and run > 1:
                # `HTTPServer`: the last capital starts the next word
                in_words += run - 1 if run - 1 >= 3 else 0
                run = 1
            run += 1
        else:
            if (previous in (1, 2) and run >= 3) or (previous == 3 and run >= 4):
                in_words += run
            run = 1
        previous = kind
    if (previous in (1, 2) and run >= 3) or (previous == 3 and run >= 4):
        in_words += run
    return alnum > 0 and in_words * 10 >= alnum * 7


def _segments(value: bytes) -> int:
    """Runs of one character class; a capital followed by lower case joins it (`Word`)."""
    segments = previous = run = 0
    for c in value:
        kind = 1 if c in _LOWER else 2 if c in _UPPER else 3 if c in _DIGITS else 0
        if kind == previous:
            run += 1
            continue
        if kind and not (previous == 2 and kind == 1 and run == 1):
            segments += 1
        previous, run = kind, 1
    return segments


def _pathlike(value: bytes) -> bool:
    """A path or URL tail: three or more `/` parts, most of them words."""
    parts = [p for p in value.split(b"/") if p]
    if len(parts) < 3:
        return False
    return sum(_wordy(p) for p in parts) * 2 >= len(parts)


def _uuid(value: bytes) -> bool:
    parts = value.split(b"-")
    return [len(p) for p in parts] == [8, 4, 4, 4, 12] and all(set(p) <= _HEX for p in parts)


def _redact(secret: bytes) -> str:
    """At most the first 4 characters (fewer for a short value) and the length."""
    text = secret.decode("utf-8", "replace")
    shown = text[: min(4, len(text) // 4)]
    return f"{shown}… ({len(text)} chars)"


# --------------------------------------------------------------------------------------------
# Hits: a finding before line numbers and allow markers are applied.


class _Hit:
    """A finding before line numbers and allow markers are applied; offsets are in bytes."""

    __slots__ = ("block", "description", "end", "excerpt", "rule", "start", "tier")

    def __init__(
        self,
        start: int,
        end: int,
        tier: int,
        rule: str,
        excerpt: str,
        description: str,
        block: bool = False,
    ) -> None:
        self.start = start
        self.end = end
        self.tier = tier
        self.rule = rule
        self.excerpt = excerpt
        self.description = description
        self.block = block  # a key block, across lines


_Handler = Callable[[_Rule, Any, bytes, list[_Hit]], None]


def _secret_span(m: Any) -> tuple[int, int]:
    if m.re.groups and m.start(1) >= 0:
        return int(m.start(1)), int(m.end(1))
    return int(m.start()), int(m.end())


def _handle_token(rule: _Rule, rx: Any, data: bytes, hits: list[_Hit]) -> None:
    tier = rule.tier
    for m in rx.finditer(data):
        s, e = _secret_span(m)
        secret = data[s:e]
        if _fake(secret) or (rule.strict and not _looks_random(secret)):
            continue
        hits.append(_Hit(s, e, tier, rule.id, _redact(secret), rule.description))


_NON_B64 = bytes(
    c
    for c in range(256)
    if c not in b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="
)
_PEM_WINDOW = 64 * 1024


def _handle_pem(rule: _Rule, rx: Any, data: bytes, hits: list[_Hit]) -> None:
    """A key header followed by a real base64 body (not `...` or `<your key>`).

    Each body ends at its END line, at the next header, or after a window, so bodies never
    overlap and the work stays linear however many headers a hostile text repeats.
    """
    heads = [(int(m.start()), int(m.end())) for m in rx.finditer(data)]
    for i, (start, head_end) in enumerate(heads):
        limit = min(heads[i + 1][0] if i + 1 < len(heads) else len(data), head_end + _PEM_WINDOW)
        header = data[start:head_end]
        putty = header.startswith(b"PuTTY")
        end = data.find(b"Private-MAC:" if putty else b"END ", head_end, limit)
        body = data[head_end : end if end >= 0 else limit]
        if putty:
            cut = body.find(b"Private-Lines:")
            if cut < 0:
                continue
            body = body[cut + len(b"Private-Lines:") :]
        payload = b"".join(
            line.translate(None, _NON_B64) for line in body.split(b"\n") if b":" not in line
        )
        if len(payload) < 64 or len(set(payload)) < 16 or _fake(payload[:64]):
            continue
        kind = header.strip(b"- ").decode("ascii", "replace").removeprefix("BEGIN ")
        if putty:
            kind = "PuTTY PRIVATE KEY"
        rule_id, description = rule.id, f"{kind} block"
        if b'"private_key"' in data[max(0, start - 64) : start]:
            rule_id, description = (
                "gcp-service-account-key",
                "Google Cloud service-account key (JSON private_key)",
            )
        excerpt = f"{kind} ({len(payload)} base64 chars)"
        hits.append(_Hit(start, head_end + len(body), 0, rule_id, excerpt, description, True))


def _handle_jwt(rule: _Rule, rx: Any, data: bytes, hits: list[_Hit]) -> None:
    import base64
    import binascii
    import hashlib
    import json

    for m in rx.finditer(data):
        s, e = _secret_span(m)
        token = data[s:e]
        head = token.split(b".", 1)[0][:4096]
        try:
            header = json.loads(base64.urlsafe_b64decode(head + b"=" * (-len(head) % 4)))
        except (ValueError, binascii.Error, UnicodeDecodeError):
            continue
        if not isinstance(header, dict) or not isinstance(header.get("alg"), str):
            continue
        if hashlib.sha256(token).hexdigest() in _KNOWN_EXAMPLES or _fake(token):
            continue
        hits.append(_Hit(s, e, 0, rule.id, _redact(token), rule.description))


def _masked(value: bytes) -> bool:
    return value.count(b"*") >= 3 or value.count(b"\xe2\x80\xa2") >= 3  # ****, •••


def _handle_url(rule: _Rule, rx: Any, data: bytes, hits: list[_Hit]) -> None:
    for m in rx.finditer(data):
        user, password = m.group(2), m.group(3)
        if (
            len(password) < 3
            or password == user
            or _fake(password)
            or _masked(password)
            or password[:1] in (b"{", b"[", b"(", b":")
        ):
            continue
        scheme = m.group(1).decode("ascii", "replace").lower()
        s, e = int(m.start(3)), int(m.end(3))
        hits.append(_Hit(s, e, 1, rule.id, _redact(password), f"password in a {scheme}:// URL"))


def _secret_value(value: bytes, *, quoted: bool, password_key: bool) -> bool:
    """Whether an assigned value is a literal secret rather than a reference or a placeholder.

    `password_key`: the key names a password or secret, so any quoted literal counts.
    """
    value = value.strip()
    if len(value) < 6 or _fake(value) or _masked(value) or value.startswith(_PUBLIC_PREFIXES):
        return False
    low = value.lower()
    if low in _PLACEHOLDER_VALUES or value.replace(b".", b"", 1).isdigit():
        return False
    if value.startswith((b"/", b"./", b"../", b"~/", b"\\")) or b"://" in value:
        return False  # a path or a URL: the URL rule judges URLs
    if any(c in value for c in b"()[]{}"):
        return False  # code: a call, an index, a template
    if quoted:
        if any(c in value for c in b" \t"):
            return False  # prose, a sentence, a command
        if password_key:
            return True
    if len(value) < 8:
        return False
    bare = value.replace(b"_", b"").replace(b".", b"").replace(b"-", b"")
    if bare.isalpha() and not quoted:
        return False  # an identifier or a word: `password = user_password`, `token: rotate`
    if _looks_random(value):
        return True
    # `hunter2hunter2` as a password; but `X-Api-Key` or `k8s-prod-eu` as a token is a name
    named = any(c in value for c in b"-_.") and _wordy(value)
    return _mixed(value) and (password_key or not named)


def _mixed(value: bytes) -> bool:
    """At least two of lower case, upper case, digits, punctuation (other than _ - .)."""
    chars = set(value)
    punct = chars - _DIGITS - _LOWER - _UPPER - set(b"_-.")
    classes = sum(bool(chars & s) for s in (_DIGITS, _LOWER, _UPPER)) + bool(punct)
    return classes >= 2 and len(value) >= 8


def _handle_assign(rule: _Rule, rx: Any, data: bytes, hits: list[_Hit]) -> None:
    for m in rx.finditer(data):
        group = next(g for g in (1, 2, 3) if m.start(g) >= 0)
        quoted = group < 3
        s, e = int(m.start(group)), int(m.end(group))
        key = data[m.start() : m.start(group)].lower()
        # keys whose quoted literal is a secret whatever it looks like (`jwt_secret: "hello"`);
        # for tokens and keys, a literal must also look generated (`api_key: "X-Api-Key"`)
        password_key = any(w in key for w in (b"pass", b"pwd", b"secret", b"credential"))
        value = data[s:e]
        if not _secret_value(value, quoted=quoted, password_key=password_key):
            continue
        hits.append(_Hit(s, e, 2, rule.id, _redact(value), rule.description))


_GIT_CONTEXT = (b"commit", b"sha", b"hash", b"revision", b"rev ", b"merge", b"digest", b"checksum")
_WORD_WINDOW = 80


def _handle_entropy(rule: _Rule, rx: Any, data: bytes, hits: list[_Hit]) -> None:
    """Random-looking strings within a few words of a secret word, or under a `key:` line.

    The rule's pattern finds candidate lines; each line is then examined once: its secret words
    and its long runs, paired by distance with a binary search (linear-log, whatever the line).
    """
    eng = _engine()
    done_until = -1
    for m in rx.finditer(data):
        ms = int(m.start())
        if ms < done_until:
            continue
        ls = data.rfind(b"\n", 0, ms) + 1
        le = data.find(b"\n", int(m.end()) - 1)
        le = len(data) if le < 0 else le
        done_until = le
        # the lines touched by this match (two for the `key:` + next-line form)
        pos = ls
        while pos <= le:
            end = data.find(b"\n", pos, le)
            end = le if end < 0 else end
            _entropy_line(rule, eng, data, pos, end, hits)
            pos = end + 1


def _entropy_line(
    rule: _Rule, eng: _Engine, data: bytes, ls: int, le: int, hits: list[_Hit]
) -> None:
    prev_key = False
    if ls > 0:
        ps = data.rfind(b"\n", 0, ls - 1) + 1
        prev = data[ps : ls - 1].rstrip(b" \t\r|>+-")
        if prev.endswith((b":", b"=")) and eng.words.search(data, ps, ls - 1) is not None:
            prev_key = True
    line = data[ls:le]
    found = _LINE_MEMO.get((line, prev_key))
    if found is None:
        found = _line_hits(eng, line, prev_key)
        if len(line) <= _LINE_MEMO_CHARS:
            if len(_LINE_MEMO) >= _LINE_MEMO_SIZE:
                _LINE_MEMO.clear()
            _LINE_MEMO[line, prev_key] = found
    for start, end, excerpt in found:
        hits.append(_Hit(ls + start, ls + end, 3, rule.id, excerpt, rule.description))


#: The entropy hits of a line, by its bytes and whether the line before is a secret `key:`
#: line, which is all they depend on. The same lines come back again and again: a candidate
#: and the entry admitted from it differ in two lines, file paths and ids recur.
_LINE_MEMO: dict[tuple[bytes, bool], tuple[tuple[int, int, str], ...]] = {}
_LINE_MEMO_SIZE = 16384
_LINE_MEMO_CHARS = 1024  # at most 16 MiB of lines kept, whatever a text holds


def _line_hits(eng: _Engine, line: bytes, prev_key: bool) -> tuple[tuple[int, int, str], ...]:
    """(start, end, excerpt) of each random-looking run near a secret word in one line.

    A line is bounded by newlines or the text's ends, and neither pattern looks past a newline,
    so the line alone gives the same matches as the whole text would."""
    words = [(int(w.start()), int(w.end())) for w in eng.words.finditer(line)]
    if not words and not prev_key:
        return ()
    starts = [w[0] for w in words]
    lowered = line.lower()
    git_context = any(word in lowered for word in _GIT_CONTEXT)
    first = True
    found = []
    for c in eng.candidates.finditer(line):
        cs, ce = int(c.start()), int(c.end())
        near = prev_key and first and not line[:cs].strip(b" \t\"'")
        first = False
        if not near and words:
            i = bisect.bisect_left(starts, cs)
            # the nearest words before and after the candidate
            before = words[i - 1] if i > 0 else None
            after = words[i] if i < len(words) else None
            near = (before is not None and cs - before[1] <= _WORD_WINDOW) or (
                after is not None and after[0] - ce <= _WORD_WINDOW
            )
            # a word inside the candidate itself (`api_key_abc…`) counts as well
            if not near and before is not None and before[1] > cs:
                near = True
        if not near:
            continue
        token = line[cs:ce]
        if token.startswith(_PUBLIC_PREFIXES) or _fake(token) or _uuid(token):
            continue
        if not _looks_random(token):
            continue
        if git_context and set(token) <= _HEX:
            continue
        found.append((cs, ce, _redact(token)))
    return tuple(found)


def _handle_file(rule: _Rule, rx: Any, data: bytes, hits: list[_Hit]) -> None:
    for m in rx.finditer(data):
        s, e = int(m.start(1)), int(m.end(1))
        path = data[s:e].decode("utf-8", "replace")
        why = _secret_file_kind(path, mention=True)
        if why is None:
            continue
        hits.append(_Hit(s, e, 0, rule.id, _shorten(path), f"mentions a secret-like file ({why})"))


_HANDLERS: dict[int, _Handler] = {
    _TOKEN: _handle_token,
    _PEM: _handle_pem,
    _JWT: _handle_jwt,
    _URL: _handle_url,
    _ASSIGN: _handle_assign,
    _ENTROPY: _handle_entropy,
    _FILE: _handle_file,
}


# --------------------------------------------------------------------------------------------
# Secret-like file names.

_ENV_SAFE = frozenset(
    ("example", "examples", "sample", "samples", "template", "templates", "tmpl", "tpl", "dist",
     "defaults", "default", "schema")
)  # fmt: skip
_FILE_EXTENSIONS = (
    (".tfstate.backup", "Terraform state backup"),
    (".tfstate", "Terraform state"),
    (".pem", "PEM key or certificate"),
    (".key", "private key"),
    (".p12", "PKCS#12 key store"),
    (".pfx", "PKCS#12 key store"),
    (".jks", "Java key store"),
    (".keystore", "key store"),
    (".ppk", "PuTTY private key"),
    (".kdbx", "KeePass database"),
)
_FILE_NAMES = {
    ".npmrc": "npm credentials",
    ".pypirc": "PyPI credentials",
    ".netrc": "netrc credentials",
    "_netrc": "netrc credentials",
    ".git-credentials": "git credentials",
    ".htpasswd": "htpasswd file",
    ".pgpass": "PostgreSQL password file",
    ".dockercfg": "Docker credentials",
    ".boto": "AWS/GCS credentials",
    ".s3cfg": "S3 credentials",
    "credentials.json": "credentials file",
    "secrets.yml": "secrets file",
    "secrets.yaml": "secrets file",
    "secrets.json": "secrets file",
    "secrets.toml": "secrets file",
    "secret.yml": "secrets file",
    "secret.yaml": "secrets file",
    "secret.json": "secrets file",
}
_SSH_KEYS = frozenset(
    ("id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk", "identity")
)
_PATH_SUFFIXES = {
    ".kube/config": "Kubernetes config",
    ".docker/config.json": "Docker credentials",
    ".aws/credentials": "AWS credentials",
}
# In prose `event.key` is code, not a file: a `.key` mention needs a path or a telling name.
_KEY_STEMS = (
    "priv", "server", "tls", "ssl", "client", "secret", "sign", "host", "cert", "domain",
    "jwt", "api", "key", "ca", "root", "cosign", "deploy", "master", "id_",
)  # fmt: skip


@functools.lru_cache(maxsize=4096)
def _secret_file_kind(path: str, *, mention: bool = False) -> str | None:
    """What kind of secret file `path` names, or None. `mention`: a path seen in prose.
    Kept per path: a push of many entries cites the same few files again and again."""
    norm = path.replace("\\", "/").strip()
    while norm.startswith("./"):
        norm = norm[2:]
    base = norm.rsplit("/", 1)[-1]
    low = base.lower()
    has_dir = "/" in norm
    for suffix, why in _PATH_SUFFIXES.items():
        if ("/" + norm.lower()).endswith("/" + suffix):
            return why
    if low == ".env":
        return "environment file"
    if low.startswith(".env."):
        rest = low[len(".env.") :]
        if rest in _ENV_SAFE or any(p in _ENV_SAFE for p in rest.split(".")):
            return None
        return "environment file"
    if low.endswith(".env") and (has_dir or not mention):
        stem = low[: -len(".env")]
        if stem and not any(stem.endswith(s) or stem.startswith(s) for s in _ENV_SAFE):
            return "environment file"
        return None
    if low in _SSH_KEYS:
        return "SSH private key"
    if low in _FILE_NAMES:
        return _FILE_NAMES[low]
    if low.startswith(("service-account", "service_account", "serviceaccount")) and low.endswith(
        ".json"
    ):
        return "service-account key"
    if low.endswith(("-credentials.json", "_credentials.json")):
        return "credentials file"
    kube = base if mention else low
    if kube == "kubeconfig" or kube.startswith("kubeconfig.") or kube.endswith(".kubeconfig"):
        if not mention or has_dir or "." in base:
            return "Kubernetes config"
        return None
    for ext, why in _FILE_EXTENSIONS:
        if low.endswith(ext) and len(low) > len(ext):
            stem = low[: -len(ext)]
            if any(s in stem for s in _ENV_SAFE):
                return None
            if mention and ext == ".key" and not has_dir and not stem.startswith(_KEY_STEMS):
                return None
            return why
    return None


def _shorten(path: str, limit: int = 120) -> str:
    return path if len(path) <= limit else path[: limit - 1] + "…"


def scan_file_names(paths: Iterable[str]) -> list[Finding]:
    """Findings (line 0) for secret-like file names, e.g. an entry's `files:` list."""
    findings = []
    for path in paths:
        why = _secret_file_kind(path)
        if why is not None:
            findings.append(
                Finding("secret-file-name", 0, _shorten(path), f"secret-like file name ({why})")
            )
    return findings


# --------------------------------------------------------------------------------------------
# Hidden Unicode.

_BIDI = frozenset([0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)])
_ZERO_WIDTH = frozenset([0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF])
# Category Cf (format) characters that render as nothing, plus invisible fillers and selectors
# outside Cf. Left out on purpose: the visible prepended marks of Arabic, Syriac and Kaithi
# (U+0600-0605, U+06DD, U+070F, U+0890-0891, U+08E2, U+110BD, U+110CD) and the emoji variation
# selectors U+FE00-FE0F.
_HIDDEN_CLASS = (
    "[\u00ad\u034f\u061c\u115f\u1160\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f"
    "\u3164\ufeff\uffa0\ufff9-\ufffb\U00013430-\U0001343f\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0000-\U000e007f\U000e0100-\U000e01ef]"
)


@functools.cache
def _hidden_re() -> Any:
    import re  # a single character class: linear by construction

    return re.compile(_HIDDEN_CLASS)


def _hidden_kind(cp: int) -> str:
    if cp in _BIDI:
        return "bidirectional control character"
    if cp in _ZERO_WIDTH:
        return "zero-width character"
    if 0xE0000 <= cp <= 0xE007F:
        return "invisible tag character"
    return "invisible format character"


def _emoji(ch: str) -> bool:
    cp = ord(ch)
    return cp >= 0x1F000 or 0x2600 <= cp <= 0x27BF or cp in (0xFE0F, 0x2640, 0x2642, 0x2695)


def scan_hidden_unicode(text: str, *, line_offset: int = 0) -> list[Finding]:
    """Zero-width, bidirectional-control, tag and other invisible characters.

    One finding per line and code point (the excerpt names the code point, its column and how
    often it occurs on that line). Allowed: a byte-order mark at the very start, and a zero-width
    joiner between two emoji (it builds emoji sequences such as family or profession emoji).
    """
    if text.isascii():
        return []
    import unicodedata

    seen: dict[tuple[int, int], list[int]] = {}  # (line, code point) -> [column, count]
    line, last = 1, 0
    for m in _hidden_re().finditer(text):
        i = m.start()
        ch = text[i]
        cp = ord(ch)
        if cp == 0xFEFF and i == 0:
            continue
        if cp == 0x200D and 0 < i < len(text) - 1 and _emoji(text[i - 1]) and _emoji(text[i + 1]):
            continue
        line += text.count("\n", last, i)
        last = i
        key = (line, cp)
        if key in seen:
            seen[key][1] += 1
        else:
            column = i - text.rfind("\n", 0, i)
            seen[key] = [column, 1]
    findings = []
    for (ln, cp), (column, count) in seen.items():
        name = unicodedata.name(chr(cp), "UNNAMED")
        times = f", {count} times" if count > 1 else ""
        excerpt = f"U+{cp:04X} {name} at column {column}{times}"
        findings.append(Finding("hidden-unicode", ln + line_offset, excerpt, _hidden_kind(cp)))
    return findings


# --------------------------------------------------------------------------------------------
# The scan.


def _dedupe(hits: list[_Hit]) -> list[_Hit]:
    """Drop a hit that overlaps one from a more specific tier, and exact duplicates."""
    kept: list[_Hit] = []
    starts: list[int] = []
    max_ends: list[int] = []  # running maximum of ends, in start order
    for tier in sorted({h.tier for h in hits}):
        layer = []
        seen: set[tuple[str, int]] = set()
        for h in hits:
            if h.tier != tier or (h.rule, h.start) in seen:
                continue
            seen.add((h.rule, h.start))
            i = bisect.bisect_left(starts, h.end)
            if i and max_ends[i - 1] > h.start:
                continue  # overlaps a kept hit of a lower tier
            layer.append(h)
        kept.extend(layer)
        spans = sorted((h.start, h.end) for h in kept)
        starts = [s for s, _ in spans]
        max_ends, top = [], -1
        for _, e in spans:
            top = max(top, e)
            max_ends.append(top)
    return kept


def fingerprint(rule: str, secret: bytes) -> str:
    """A finding's fingerprint (see the module docstring): what a reviewer records to allow it.
    Spaces and quotes are taken off so that the same secret, re-wrapped or quoted, keeps it."""
    import hashlib

    value = b"".join(secret.split()).strip(b"'\"")
    digest = hashlib.sha256(rule.encode("utf-8") + b"\0" + value).hexdigest()[:32]
    return f"{rule}:{digest}"


def scan_text(text: str, *, line_offset: int = 0) -> list[Finding]:
    """Every rule over the whole text (front matter and body alike), hidden Unicode included.

    Returns findings sorted by (line, rule), then by position; lines are 1-based plus
    `line_offset`. Over `MAX_SCAN_CHARS`, the first `MAX_SCAN_CHARS` characters are scanned and a
    ``scan-size-cap`` finding (on the last line scanned) says the rest was not.
    """
    keyed: list[tuple[int, str, int, Finding]] = []  # (line, rule, position, finding)
    if len(text) > MAX_SCAN_CHARS:
        text = text[:MAX_SCAN_CHARS]
        line = text.count("\n") + 1
        cap = Finding(
            "scan-size-cap",
            line + line_offset,
            f"scanned the first {MAX_SCAN_CHARS} characters only",
            f"text longer than {MAX_SCAN_CHARS} characters: shorten or split it",
        )
        keyed.append((line, cap.rule, MAX_SCAN_CHARS, cap))
    data = text.encode("utf-8", "surrogatepass")
    eng = _engine()
    hits: list[_Hit] = []
    for index in eng.rules_in(data):
        rule = _RULES[index]
        _HANDLERS[rule.kind](rule, eng.regex(index), data, hits)
    hidden = scan_hidden_unicode(text)
    if not hits and not hidden:
        return [k[3] for k in keyed]
    line, last = 1, 0
    for h in sorted(_dedupe(hits), key=lambda h: h.start):
        line += data.count(b"\n", last, h.start)
        last = h.start
        print_ = fingerprint(h.rule, data[h.start : h.end])
        finding = Finding(h.rule, line + line_offset, h.excerpt, h.description, print_)
        keyed.append((line, h.rule, h.start, finding))
    lines = text.split("\n") if hidden else []
    for f in hidden:
        held = lines[f.line - 1].encode("utf-8", "surrogatepass") if f.line <= len(lines) else b""
        finding = Finding(
            f.rule, f.line + line_offset, f.excerpt, f.description, fingerprint(f.rule, held)
        )
        keyed.append((f.line, f.rule, 0, finding))
    keyed.sort(key=lambda k: k[:3])
    return [k[3] for k in keyed]
