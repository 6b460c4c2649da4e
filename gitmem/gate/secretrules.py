"""The secret scanner's catalogue: one entry per documented credential format.

Each entry says what a provider's credential looks like, written from the provider's own
documentation (the comment above each group names the page) and checked against how the
well-known scanners describe the same format. The table is data: `gitmem.gate.secrets` compiles it,
runs it and confirms what it finds; nothing here runs at import beyond building tuples.

Two kinds of entry:

- `token()`: a format with a distinctive prefix or shape. It is found anywhere in a line, bare
  in a sentence or assigned, without a keyword nearby. Group 1 of the pattern is the secret and
  group 2 its random part (the body), which is what the checks judge.
- `keyed()`: a format with no prefix (a hex or base64 key). It is found only as the value of a
  key that names the provider (`HEROKU_API_KEY=…`, `"datadog": {"api_key": …}` on one line,
  `<twilioToken>…</twilioToken>`), in any of the assignment syntaxes of `ASSIGN`.

Every match must then pass its `check` (see `gitmem.gate.secrets`): `SHAPE` (every rule: not a
placeholder, a filler, a counting run or a repeated chunk), `RANDOM` (the format allows
readable text, so the body must also look machine-generated) or `KEYED` (a keyed value: no
filler, and it mixes the character classes its alphabet allows, as generated keys do).

Families group the entries for the quality report (`python bench/check.py --quality`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

CLOUD: Final = "cloud"
FORGE: Final = "forge"
CI: Final = "ci"
CHAT: Final = "chat"
PAYMENT: Final = "payment"
REGISTRY: Final = "registry"
AI: Final = "ai"
OBSERVABILITY: Final = "observability"
DATABASE: Final = "database"
IDENTITY: Final = "identity"
SECRETS: Final = "secrets-manager"
MESSAGING: Final = "messaging"
SAAS: Final = "saas"

FAMILIES: Final = (
    CLOUD,
    FORGE,
    CI,
    CHAT,
    PAYMENT,
    REGISTRY,
    AI,
    OBSERVABILITY,
    DATABASE,
    IDENTITY,
    SECRETS,
    MESSAGING,
    SAAS,
)

SHAPE: Final = 0
RANDOM: Final = 1
KEYED: Final = 2


@dataclass(frozen=True, slots=True)
class Format:
    """One credential format: its rule id, what it is, its family, its RE2 pattern (ASCII,
    over UTF-8 bytes; group 1 the secret, group 2 when present its random body), what the
    one Set pass looks for instead of the whole pattern (`gate`, never narrower than the
    pattern: tested), and the check a match must pass."""

    id: str
    description: str
    family: str
    pattern: str
    gate: str
    check: int


# Where a token may end: not inside a longer run of its own characters.
END: Final = r"(?:[^A-Za-z0-9_]|$)"
END_DASH: Final = r"(?:[^A-Za-z0-9_\-]|$)"
END_B64: Final = r"(?:[^A-Za-z0-9_+/=\-]|$)"

# ---- how a value is assigned to a key, in the syntaxes memory text quotes: INI and .env,
# shell, YAML (plain, quoted, `|` and `>` blocks), JSON (also escaped inside a string), TOML,
# Python, Go (`:=`, typed `var x string =`), Java/C#/Kotlin, PHP (`=>`, `.=`), Makefile
# (`:=`, `::=`, `?=`, `+=`), R (`<-`), CSV (`key,value`), XML elements, Markdown and HTML
# table rows (`| KEY | value |`) and `gh secret set NAME --body VALUE`.

#: After the key's name: its closing quote or bracket, and an optional type annotation.
KEY_CLOSE: Final = r"(?:\\?[\"'`\]\)]){0,3}(?:[ \t]*:?[ \t]*(?:string|String|str|bytes|\[\]byte))?"
#: The assignment operator, on the same line; a YAML block scalar or an XML element may put
#: the value on the next, indented line (an empty `key=` never takes the next line).
OPERATOR: Final = (
    r"(?:[ \t]*(?:=>|:{1,3}=|[?+.!]?=|<-|,|\|)[ \t]*|[ \t]+--body[ \t]+|</t[dh]>[ \t]*<td>"
    r"|[ \t]*:(?:[ \t]*[|>][-+]?[0-9]?[ \t]*\r?\n[ \t]+|[ \t]*\r?\n[ \t]+|[ \t]*)"
    r"|>(?:[ \t]*\r?\n)?[ \t]*)"
)
#: An opening quote (or an escaped one inside a JSON string).
OPEN_QUOTE: Final = r"(?:\\?[\"'`]){0,2}"
ASSIGN: Final = KEY_CLOSE + OPERATOR + OPEN_QUOTE


def token(
    rule_id: str,
    description: str,
    family: str,
    prefix: str,
    body: str,
    *,
    suffix: str = "",
    check: int = SHAPE,
    end: str = END,
    gate: str = "",
    start: str = r"\b",
    context: bool = False,
) -> Format:
    """A format found by its prefix (or shape) anywhere in a line.

    `prefix` and `body` are RE2 fragments; the secret is prefix + body + suffix. The Set pass
    looks for `gate`, by default the start boundary and the prefix (cheap literals), and for the
    whole pattern when the prefix is too short to be worth a gate of its own."""
    if context:  # the prefix says where the secret is, but is no part of it (`AccountKey=`)
        pattern = rf"{start}{prefix}(({body}){suffix}){end}"
    else:
        pattern = rf"{start}({prefix}({body}){suffix}){end}"
    if not gate:
        fixed, units = _fixed_start(prefix)
        gate = rf"{start}{fixed}" if units >= 3 else pattern
    return Format(rule_id, description, family, pattern, gate, check)


def keyed(
    rule_id: str,
    description: str,
    family: str,
    names: str,
    value: str,
    *,
    check: int = KEYED,
    end: str = END_DASH,
) -> Format:
    """A format with no prefix: the value of a key whose name names the provider.

    The key is any identifier holding one of `names`; the value must fill `value` exactly,
    bounded by `end`. Both are read case-insensitively: providers document an alphabet, and a
    key pasted from a console, a vault or a sample may come in either case."""
    pattern = rf"(?i:{names})[\w.\-]{{0,40}}{ASSIGN}((?i:{value})){end}"
    return Format(rule_id, description, family, pattern, rf"(?i){names}", check)


def _fixed_start(fragment: str) -> tuple[str, int]:
    """The longest start of a prefix fragment that repeats nothing, and how many characters it
    stands for (a character class counts as one, an alternation as its shortest branch). A gate
    is that start: cheap for the Set, where a repetition would multiply the states."""
    units = 0
    i = cut = 0
    cut_units = 0
    while i < len(fragment):
        ch = fragment[i]
        if ch in "{*+?":
            return fragment[:cut], cut_units  # the token before it repeats: stop before it
        cut, cut_units = i, units
        if ch == "\\":
            units += 1
            i += 2
        elif ch == "[":
            units += 1
            i = fragment.index("]", i + 2) + 1
        elif ch == "(":
            close = fragment.find(")", i)
            body = fragment[i + 1 : close].removeprefix("?:").removeprefix("?i:")
            branches = [_fixed_start(b) for b in body.split("|")]
            if (
                close < 0
                or "(" in body
                or any(start != b for (start, _), b in zip(branches, body.split("|"), strict=True))
            ):
                return fragment[:cut], cut_units
            units += min(n for _, n in branches)
            i = close + 1
        elif ch in "|^$)":
            return fragment[:cut], cut_units
        else:
            units += 1
            i += 1
    return fragment, units


_UUID: Final = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
_HEX32: Final = r"[a-fA-F0-9]{32}"
_HEX40: Final = r"[a-fA-F0-9]{40}"
_HEX64: Final = r"[a-fA-F0-9]{64}"
_KEYWORDS: Final = r"key|token|secret|pass|pwd|auth|cred"

# fmt: off
FORMATS: Final[tuple[Format, ...]] = (
    # ======================================================================== cloud
    # AWS: docs.aws.amazon.com/IAM/latest/UserGuide/reference_identifiers.html
    # #identifiers-unique-ids
    # (unique-id prefixes; the 16 characters after them are base32) and
    # docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_access-keys.html (the secret key:
    # 40 base64 characters, no prefix).
    token("aws-access-key-id", "AWS access key id", CLOUD, r"(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])",
        r"[A-Z2-7]{16}"),
    keyed("aws-secret-access-key", "AWS secret access key", CLOUD,
        r"aws[\w.\-]{0,24}secret|secret[_.\-]?access|aws[\w.\-]{0,8}key", r"[A-Za-z0-9/+]{40}",
        end=r"(?:[^A-Za-z0-9/+=]|$)"),
    keyed("aws-session-token", "AWS session token", CLOUD,
        r"aws[_.\-]?session[_.\-]?token|x-amz-security-token", r"[A-Za-z0-9/+=]{100,}",
        end=r"(?:[^A-Za-z0-9/+=]|$)"),
    # docs.aws.amazon.com/bedrock/latest/userguide/api-keys-how.html: long-term keys start
    # ABSK (base64 of "BedrockAPIKey-…"), short-term ones bedrock-api-key- (base64 of a URL).
    token("aws-bedrock-api-key", "Amazon Bedrock API key", CLOUD, r"(?:ABSK|bedrock-api-key-)",
        r"[A-Za-z0-9+/]{60,}={0,2}", check=RANDOM, end=END_B64),
    # cloud.google.com/docs/authentication/api-keys (AIza + 35); developers.google.com/
    # identity/protocols/oauth2 (access tokens ya29., refresh tokens 1//0, client secrets
    # GOCSPX-).
    token("google-api-key", "Google API key", CLOUD, r"AIza", r"[0-9A-Za-z_\-]{35}", end=END_DASH),
    token("google-oauth-client-secret", "Google OAuth client secret", CLOUD, r"GOCSPX-",
        r"[A-Za-z0-9_\-]{28}", end=END_DASH),
    token("google-oauth-token", "Google OAuth access token", CLOUD, r"ya29\.",
        r"[0-9A-Za-z_\-]{30,}", end=END_DASH),
    token("google-oauth-refresh-token", "Google OAuth refresh token", CLOUD, r"1//0",
        r"[0-9A-Za-z_\-]{40,}", check=RANDOM, end=END_DASH, start=r"(?:^|[^0-9A-Za-z/])",
        gate=r"1//0[0-9A-Za-z_\-]{8}"),
    # cloud.google.com/storage/docs/authentication/hmackeys (Cloud Storage HMAC keys: an access
    # id of GOOG and upper-case letters and digits, 61 characters for a service account, 24 for
    # a user account (the page's example has 23); a 40-character base64 secret). An id never
    # goes on as GOOGLE….
    token("gcs-hmac-key", "Google Cloud Storage HMAC access id", CLOUD, r"GOOG",
        r"(?:[A-KM-Z0-9][A-Z0-9]|L[A-DF-Z0-9])(?:[A-Z0-9]{17,18}|[A-Z0-9]{55})", check=RANDOM),
    keyed("gcs-hmac-key", "Google Cloud Storage HMAC secret", CLOUD,
        r"hmac[_.\-]?secret|gcs[\w.\-]{0,16}secret|storage[_.\-]?hmac", r"[A-Za-z0-9/+]{40}",
        end=r"(?:[^A-Za-z0-9/+=]|$)"),
    # learn.microsoft.com/azure/storage/common/storage-account-keys-manage (88-character base64
    # account keys in AccountKey=) and learn.microsoft.com/azure/storage/common/
    # storage-sas-overview (sig=); Microsoft's identifiable keys carry a fixed signature
    # (+ASt storage, ACDb Cosmos DB, +ASb Service Bus, +AEh Event Hubs, +ARm Relay, APIM,
    # +ACR container registry, AzFu Functions, AzSe Search, AzCa Cache for Redis, AIoT IoT
    # Hub): learn.microsoft.com/azure/key-vault/general/identifiable-secrets (the
    # security-utilities scanning rules).
    token("azure-storage-account-key", "Azure storage account key", CLOUD,
        r"(?i:AccountKey)[ \t]*=[ \t]*", r"[A-Za-z0-9+/]{86}==", start=r"", end=END_B64,
        gate=r"(?i)AccountKey", context=True),
    token("azure-storage-account-key", "Azure storage account key", CLOUD, r"",
        r"[A-Za-z0-9+/]{76}\+ASt[A-Za-z0-9+/]{5}[AQgw]==", start=r"(?:^|[^A-Za-z0-9+/])",
        end=END_B64, gate=r"\+ASt[A-Za-z0-9+/]{5}[AQgw]=="),
    token("azure-identifiable-key",
        "Azure identifiable service key (Cosmos DB, Service Bus, Event Hubs, Relay, APIM)", CLOUD,
        r"", r"[A-Za-z0-9+/]{76}(?:ACDb|\+ASb|\+AEh|\+ARm|APIM)[A-Za-z0-9+/]{5}[AQgw]==",
        start=r"(?:^|[^A-Za-z0-9+/])", end=END_B64,
        gate=r"(?:ACDb|\+ASb|\+AEh|\+ARm|APIM)[A-Za-z0-9+/]{5}[AQgw]=="),
    token("azure-identifiable-key",
        "Azure identifiable service key (Container Registry, Functions, Search, Cache for Redis)",
        CLOUD, r"",
        r"[A-Za-z0-9+/]{42}\+ACR[A-Za-z0-9+/]{6}|[A-Za-z0-9_\-]{44}AzFu[A-Za-z0-9_\-]{5}[AQgw]=="
        r"|[A-Za-z0-9]{42}AzSe[A-Za-z0-9]{6}|[A-Za-z0-9]{33}AzCa[A-P][A-Za-z0-9]{5}=",
        start=r"(?:^|[^A-Za-z0-9+/_\-])", end=END_B64, gate=r"(?:\+ACR|AzFu|AzSe|AzCa)"),
    token("azure-identifiable-key",
        "Azure common annotated security key (Azure DevOps, AI services, and others)", CLOUD, r"",
        r"[A-Za-z0-9]{52}JQQJ9[9DH][A-Za-z0-9][A-L][A-Za-z0-9]{16}[A-Za-z][A-Za-z0-9]{7}",
        start=r"(?:^|[^A-Za-z0-9])", gate=r"JQQJ9[9DH]"),
    token("azure-sas-token", "Azure shared access signature (sig=)", CLOUD, r"[?&;](?i:sig)=",
        r"[A-Za-z0-9%+/]{30,}(?:%3D|%3d|=){0,2}", check=RANDOM, start=r"", end=END_B64,
        gate=r"(?i)[?&;]sig=", context=True),
    token("azure-connection-string-key", "Azure SharedAccessKey in a connection string", CLOUD,
        r"(?i:SharedAccessKey)[ \t]*=[ \t]*", r"[A-Za-z0-9+/]{42,86}=", start=r"", end=END_B64,
        gate=r"(?i)SharedAccessKey", context=True),
    # learn.microsoft.com/entra/identity-platform/how-to-add-credentials (client secrets:
    # 3 characters, a digit, Q~, then 31-34).
    token("azure-ad-client-secret", "Microsoft Entra ID (Azure AD) client secret", CLOUD, r"",
        r"[A-Za-z0-9_~.\-]{3}[0-9]Q~[A-Za-z0-9_~.\-]{31,34}", check=RANDOM,
        start=r"(?:^|[^A-Za-z0-9_~.\-])", end=r"(?:[^A-Za-z0-9_~.\-]|$)", gate=r"[0-9]Q~"),
    # learn.microsoft.com/azure/devops/organizations/accounts/use-personal-access-tokens-to-
    # authenticate (52 lower-case base32 characters; the 84-character format is the CASK
    # entry above).
    keyed("azure-devops-pat", "Azure DevOps personal access token", CLOUD,
        r"azure[_.\-]?devops|\bado[_.\-]|\bazdo|devops[_.\-]?pat|vsts", r"[a-z2-7]{52}"),
    # docs.digitalocean.com/reference/api/create-personal-access-token (dop_v1_, doo_v1_ OAuth,
    # dor_v1_ refresh; 64 hex).
    token("digitalocean-token", "DigitalOcean token", CLOUD, r"do[opr]_v1_", r"[a-fA-F0-9]{64}"),
    # alibabacloud.com/help/en/ram/user-guide/create-an-accesskey-pair (LTAI ids; secrets of 30).
    token("alibaba-access-key-id", "Alibaba Cloud AccessKey id", CLOUD, r"LTAI",
        r"[A-Za-z0-9]{12,20}", check=RANDOM),
    keyed("alibaba-secret-key", "Alibaba Cloud AccessKey secret", CLOUD, r"alibaba|aliyun",
        r"[A-Za-z0-9]{30}"),
    # cloud.tencent.com/document/product/598/40488 (SecretId AKID + 32; SecretKey 32).
    token("tencent-secret-id", "Tencent Cloud SecretId", CLOUD, r"AKID", r"[A-Za-z0-9]{32}",
        check=RANDOM),
    keyed("tencent-secret-key", "Tencent Cloud SecretKey", CLOUD, r"tencent|\bqcloud",
        r"[A-Za-z0-9]{32}"),
    # cloud.ibm.com/docs/account?topic=account-manapikey (44 characters).
    keyed("ibm-cloud-api-key", "IBM Cloud API key", CLOUD, r"\bibm", r"[A-Za-z0-9_\-]{44}"),
    # developers.cloudflare.com/fundamentals/api/get-started/create-token (40-character API
    # tokens, 37-hex global keys, v1.0- Origin CA keys).
    keyed("cloudflare-api-token", "Cloudflare API token", CLOUD, r"cloudflare|\bcf[_.\-]",
        r"[A-Za-z0-9_\-]{40}"),
    keyed("cloudflare-global-api-key", "Cloudflare global API key", CLOUD, r"cloudflare",
        r"[a-fA-F0-9]{37}"),
    token("cloudflare-origin-ca-key", "Cloudflare Origin CA key", CLOUD, r"v1\.0-",
        r"[a-fA-F0-9]{24}-[a-fA-F0-9]{146}"),
    # developers.cloudflare.com/fundamentals/api/get-started/token-formats (the scannable
    # format of every new credential: cfk_ global API keys, cfut_ user and cfat_ account API
    # tokens, each 40 characters and a checksum).
    token("cloudflare-api-token", "Cloudflare API token (user or account)", CLOUD, r"cf[ua]t_",
        r"[A-Za-z0-9]{44,56}"),
    token("cloudflare-global-api-key", "Cloudflare global API key", CLOUD, r"cfk_",
        r"[A-Za-z0-9]{44,56}"),
    # devcenter.heroku.com/articles/authentication (HRKU- tokens; older keys are UUIDs).
    token("heroku-api-key", "Heroku API key", CLOUD, r"HRKU-", r"[A-Za-z0-9_\-]{58,}",
        end=END_DASH),
    keyed("heroku-api-key", "Heroku API key", CLOUD, r"heroku", _UUID),
    # fly.io/docs/security/tokens (fo1_ org tokens, fm1a_/fm1r_/fm2_ macaroons).
    token("flyio-token", "Fly.io access token", CLOUD, r"(?:fo1_|fm1[ar]_|fm2_)",
        r"[A-Za-z0-9+/_\-]{40,}={0,3}", check=RANDOM, end=END_B64),
    # docs.openshift.com/container-platform/latest/authentication/managing-oauth-access-tokens
    # (sha256~ + 43).
    token("openshift-user-token", "OpenShift user token", CLOUD, r"sha256~", r"[\w\-]{43}",
        check=RANDOM, end=END_DASH),
    # vercel.com/docs/rest-api#authentication (24-character tokens, no prefix).
    keyed("vercel-token", "Vercel access token", CLOUD, r"vercel", r"[A-Za-z0-9]{24}"),
    # render.com/docs/api#1-create-an-api-key (rnd_ + 32).
    token("render-api-key", "Render API key", CLOUD, r"rnd_", r"[A-Za-z0-9]{32}", check=RANDOM),
    # netlify.com/docs/cli/get-started/#obtain-a-token-via-the-command-line (nfp_ + 36).
    token("netlify-token", "Netlify personal access token", CLOUD, r"nf[pcou]_", r"[A-Za-z0-9]{36}",
        check=RANDOM),
    keyed("netlify-token", "Netlify access token", CLOUD, r"netlify", r"[A-Za-z0-9_\-]{40,46}"),
    # techdocs.akamai.com/developer/docs/set-up-authentication-credentials (akab- hosts and
    # tokens).
    token("akamai-edgegrid-token", "Akamai EdgeGrid access or client token", CLOUD, r"akab-",
        r"[a-z0-9]{16}-[a-z0-9]{16}", check=RANDOM),
    # linode.com/docs/products/tools/api/guides/manage-api-tokens (64 hex).
    keyed("linode-token", "Linode (Akamai) API token", CLOUD, r"linode", _HEX64),
    # docs.vultr.com/platform/other/api-keys (36 upper-case base32).
    keyed("vultr-api-key", "Vultr API key", CLOUD, r"vultr", r"[A-Z0-9]{36}"),
    # docs.hetzner.cloud/#authentication (64 characters).
    keyed("hetzner-token", "Hetzner Cloud API token", CLOUD, r"hetzner|\bhcloud",
        r"[A-Za-z0-9]{64}"),
    # scaleway.com/en/docs/iam/concepts/#api-key (SCW access keys; UUID secrets).
    token("scaleway-access-key", "Scaleway access key", CLOUD, r"SCW", r"[A-Z0-9]{17}",
        check=RANDOM),
    keyed("scaleway-secret-key", "Scaleway secret key", CLOUD, r"scaleway|\bscw", _UUID),
    # yandex.cloud/en/docs/iam/concepts/authorization/api-key (AQVN, YC, t1. IAM tokens).
    token("yandex-api-key", "Yandex Cloud API key", CLOUD, r"AQVN", r"[A-Za-z0-9_\-]{35,38}",
        check=RANDOM, end=END_DASH),
    keyed("yandex-access-key", "Yandex Cloud static access key", CLOUD, r"yandex",
        r"YC[A-Za-z0-9_\-]{38}"),
    keyed("yandex-iam-token", "Yandex Cloud IAM token", CLOUD, r"yandex",
        r"t1\.[A-Za-z0-9_\-]+={0,2}\.[A-Za-z0-9_\-]{86}={0,2}"),
    # doc.scalingo.com/platform/user-management/api-tokens (tk-us- + 48).
    token("scalingo-token", "Scalingo API token", CLOUD, r"tk-us-", r"[\w\-]{48}", end=END_DASH),
    # docs.doppler.com/docs/deno-deploy (Deno Deploy access tokens: ddp_ personal, ddo_
    # organization), then 36 characters as the dashboard issues them.
    token("deno-deploy-token", "Deno Deploy access token", CLOUD, r"dd[po]_", r"[A-Za-z0-9]{36}"),
    # docs.fastly.com/en/guides/using-api-tokens (API tokens, sent as Fastly-Key: 32
    # URL-safe characters, no prefix).
    keyed("fastly-api-token", "Fastly API token", CLOUD, r"fastly", r"[A-Za-z0-9_\-]{32}"),
    # ======================================================================== forges
    # docs.github.com/en/authentication/keeping-your-account-and-data-secure/
    # about-authentication-to-github#githubs-token-formats
    token("github-pat", "GitHub personal access token", FORGE, r"ghp_", r"[A-Za-z0-9]{36,251}"),
    token("github-oauth-token", "GitHub OAuth access token", FORGE, r"gho_",
        r"[A-Za-z0-9]{36,251}"),
    token("github-user-token", "GitHub user-to-server token", FORGE, r"ghu_",
        r"[A-Za-z0-9]{36,251}"),
    token("github-server-token", "GitHub server-to-server token", FORGE, r"ghs_",
        r"[A-Za-z0-9]{36,251}"),
    token("github-refresh-token", "GitHub refresh token", FORGE, r"ghr_", r"[A-Za-z0-9]{36,251}"),
    token("github-fine-grained-pat", "GitHub fine-grained personal access token", FORGE,
        r"github_pat_", r"[A-Za-z0-9]{22}_[A-Za-z0-9]{59}|[A-Za-z0-9_]{70,245}"),
    # docs.gitlab.com/security/tokens/#token-prefixes (and the routable token format of the
    # GitLab handbook's cells design: payload, a two-character version, a base36 CRC).
    token("gitlab-token", "GitLab routable token", FORGE,
        r"gl(?:pat|rt|dt|cbt|ptt|oas|ft|imt|soat|agent|ffct|wt|rtr)-",
        r"[0-9A-Za-z_\-]{27,300}\.[0-9a-z]{2}\.?[0-9a-z]{7}", check=RANDOM),
    token("gitlab-token", "GitLab token", FORGE,
        r"gl(?:pat|rt|dt|cbt|ptt|oas|ft|imt|soat|agent|ffct|wt|rtr)-", r"[0-9A-Za-z_\-]{20,64}",
        check=RANDOM, end=END_DASH),
    token("gitlab-token", "GitLab runner authentication token", FORGE, r"glrt-t[0-9]_",
        r"[0-9A-Za-z_\-]{20,300}", check=RANDOM, end=END_DASH),
    token("gitlab-runner-registration-token", "GitLab runner registration token", FORGE,
        r"GR1348941", r"[0-9A-Za-z_\-]{20}", check=RANDOM, end=END_DASH),
    token("gitlab-session-cookie", "GitLab session cookie", FORGE, r"_gitlab_session=",
        r"[0-9a-z]{32}", start=r"", context=True),
    # support.atlassian.com/bitbucket-cloud/docs/app-passwords (ATBB); Atlassian API tokens
    # (ATATT3, ATCTT3): support.atlassian.com/atlassian-account/docs/manage-api-tokens
    token("bitbucket-app-password", "Bitbucket app password", FORGE, r"ATBB",
        r"[A-Za-z0-9_=.\-]{32,}", check=RANDOM, end=END_DASH),
    keyed("bitbucket-client-secret", "Bitbucket OAuth client secret", FORGE, r"bitbucket",
        r"[A-Za-z0-9=_\-]{64}"),
    token("atlassian-api-token", "Atlassian API token", FORGE, r"AT[AC]TT3",
        r"[A-Za-z0-9_=\-]{100,}", end=END_DASH),
    keyed("atlassian-api-token", "Atlassian (Jira, Confluence) API token", FORGE,
        r"atlassian|confluence|jira", r"[A-Za-z0-9]{24}"),
    # docs.gitea.com/development/api-usage (40 hex; Forgejo alike).
    keyed("gitea-token", "Gitea or Forgejo access token", FORGE, r"gitea|forgejo", _HEX40),
    # sourcegraph.com/docs/cli/how-tos/creating_an_access_token (sgp_<instance>_ + 40 hex).
    token("sourcegraph-token", "Sourcegraph access token", FORGE, r"sgp_",
        r"(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}"),
    # jetbrains.com/help/youtrack/devportal/authentication-with-permanent-token.html (YouTrack
    # and Hub permanent tokens: perm:, the base64 login, a dot, the base64 token name, a dot
    # and 30 random characters).
    token("youtrack-permanent-token", "YouTrack / JetBrains Hub permanent token", FORGE,
        r"perm:[A-Za-z0-9+/_\-]{2,100}={0,2}\.[A-Za-z0-9+/_\-]{2,200}={0,2}\.",
        r"[A-Za-z0-9]{30}", check=RANDOM),
    # ======================================================================== CI and build
    # circleci.com/docs/managing-api-tokens (CCIPAT_/CCIPRJ_; older tokens 40 hex).
    token("circleci-token", "CircleCI API token", CI, r"CCIP(?:AT|RJ)_",
        r"[A-Za-z0-9]{20,}_[a-fA-F0-9]{40}"),
    keyed("circleci-token", "CircleCI API token", CI, r"circle", _HEX40),
    # docs.travis-ci.com/user/triggering-builds (22-character API tokens).
    keyed("travis-token", "Travis CI API token", CI, r"travis", r"[A-Za-z0-9_\-]{22}"),
    # buildkite.com/docs/apis/managing-api-tokens (bkua_ + 40 hex; bkcli_ agent tokens).
    token("buildkite-token", "Buildkite API access token", CI, r"bk(?:ua|cli)_",
        r"[a-fA-F0-9]{40}"),
    # docs.sonarsource.com/sonarqube-server/latest/user-guide/managing-tokens (sqp_ project,
    # squ_ user, sqa_ global analysis: 40 hex).
    token("sonar-token", "SonarQube / SonarCloud token", CI, r"sq[pau]_", r"[a-fA-F0-9]{40}"),
    keyed("sonar-token", "SonarQube / SonarCloud token", CI, r"sonar[_.\-]?(?:login|token)",
        r"[A-Za-z0-9=_\-]{40}"),
    # jfrog.com/help/r/jfrog-platform-administration-documentation/access-tokens (AKCp API keys,
    # cmVmdGtuOjAxOj reference tokens: base64 of "reftkn:01:").
    token("jfrog-token", "JFrog Artifactory API key", CI, r"AKCp", r"[A-Za-z0-9]{69}"),
    token("jfrog-token", "JFrog Artifactory reference token", CI, r"cmVmd", r"[A-Za-z0-9]{59,}"),
    keyed("jfrog-token", "JFrog access token", CI, r"jfrog|artifactory|bintray|xray",
        r"[A-Za-z0-9]{64}|[A-Za-z0-9]{73}"),
    # docs.drone.io/cli/setup (32-character tokens).
    keyed("droneci-token", "Drone CI access token", CI, r"drone", r"[A-Za-z0-9]{32}"),
    # docs.codecov.com/docs/codecov-tokens (UUIDs or 32 characters).
    keyed("codecov-token", "Codecov upload token", CI, r"codecov", _UUID + r"|[A-Za-z0-9]{32}"),
    # developer.harness.io/docs/platform/automation/api/add-and-manage-api-keys
    # (pat.<account>.<id>.<secret>, sat. for service accounts).
    token("harness-token", "Harness personal or service-account token", CI, r"(?:pat|sat)\.",
        r"[A-Za-z0-9_\-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}", check=RANDOM),
    # octopus.com/docs/octopus-rest-api/how-to-create-an-api-key (API- + 26 to 32).
    token("octopus-deploy-api-key", "Octopus Deploy API key", CI, r"API-", r"[A-Z0-9]{26,32}",
        check=RANDOM),
    # developer.hashicorp.com/terraform/cloud-docs/users-teams-organizations/api-tokens
    # (<14>.atlasv1.<60-70>).
    token("terraform-cloud-token", "HCP Terraform / Terraform Cloud API token", CI,
        r"[A-Za-z0-9]{14}\.atlasv1\.", r"[A-Za-z0-9_=\-]{60,70}", gate=r"\.atlasv1\.",
        end=END_DASH),
    # pulumi.com/docs/pulumi-cloud/access-management/access-tokens (pul- + 40 hex).
    token("pulumi-token", "Pulumi access token", CI, r"pul-", r"[a-fA-F0-9]{40}"),
    # infracost.io/docs/#2-get-api-key (ico- + 32).
    token("infracost-api-key", "Infracost API key", CI, r"ico-", r"[A-Za-z0-9]{32}"),
    # docs.snyk.io/snyk-api/authentication-for-api (UUIDs).
    keyed("snyk-token", "Snyk API token", CI, r"snyk", _UUID),
    # jenkins.io/doc/book/using/remote-access-api (API tokens: 11 + 32 hex).
    keyed("jenkins-api-token", "Jenkins API token", CI, r"jenkins", r"11[a-fA-F0-9]{32}"),
    # jetbrains.com/help/teamcity/configuring-your-user-profile.html#Managing+Access+Tokens
    # (eyJ0eXAiOiAiVENWMiJ9 is base64 of {"typ": "TCV2"}).
    token("teamcity-token", "TeamCity access token", CI, r"eyJ0eXAiOiAiVENWMiJ9\.",
        r"[A-Za-z0-9_\-]{36}\.[A-Za-z0-9_\-]{48}", end=END_DASH),
    # docs.docker.com/security/for-developers/access-tokens (dckr_pat_, dckr_oat_).
    token("dockerhub-token", "Docker Hub access token", REGISTRY, r"dckr_(?:pat|oat)_",
        r"[A-Za-z0-9_\-]{27,}", end=END_DASH),
    # ======================================================================== chat
    # api.slack.com/authentication/token-types (xoxb- bot, xoxp- user, xoxa-/xoxr- legacy
    # workspace, xoxo-/xoxs- legacy, xoxe- refresh, xoxe.xoxp- configuration, xapp- app-level)
    # and api.slack.com/messaging/webhooks. A legacy token goes on with numbers (team, user)
    # or a generated run of ten characters or more, never with a word and a number as a
    # page's slug does (`xoxo-festival-7.jpg`).
    token("slack-bot-token", "Slack bot token", CHAT, r"xoxb-", r"[0-9]{8,14}-[A-Za-z0-9\-]{10,}",
        end=END_DASH),
    token("slack-user-token", "Slack user token", CHAT, r"xoxp-", r"[0-9]{8,14}-[A-Za-z0-9\-]{16,}",
        end=END_DASH),
    token("slack-token", "Slack legacy or workspace token", CHAT, r"xox[aorse]-",
        r"(?:[0-9]-)?(?:[0-9]{4,}-[A-Za-z0-9\-]{4,}|[A-Za-z0-9]{10,}[A-Za-z0-9\-]*)",
        check=RANDOM, end=END_DASH),
    token("slack-config-token", "Slack configuration token", CHAT, r"xoxe\.xox[bp]-",
        r"[0-9]-[A-Za-z0-9]{60,}"),
    token("slack-app-token", "Slack app-level token", CHAT, r"xapp-",
        r"[0-9]-[A-Za-z0-9]+-[0-9]+-[A-Za-z0-9]+", end=END_DASH),
    token("slack-webhook-url", "Slack incoming webhook URL", CHAT,
        r"hooks\.slack\.com/(?:services|workflows|triggers)/", r"[A-Za-z0-9+/_\-]{30,}", start=r"",
        end=END_B64, context=True),
    # discord.com/developers/docs/reference#authentication (bot tokens: base64 user id, a
    # timestamp and an HMAC) and discord.com/developers/docs/resources/webhook
    token("discord-bot-token", "Discord bot token", CHAT, r"",
        r"[MNO][A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40}", check=RANDOM,
        start=r"(?:^|[^A-Za-z0-9_\-.])", end=r"(?:[^A-Za-z0-9_\-.]|$)",
        gate=r"[A-Za-z0-9_\-]\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]"),
    token("discord-webhook-url", "Discord webhook URL", CHAT,
        r"discord(?:app)?\.com/api/webhooks/[0-9]{17,20}/", r"[A-Za-z0-9_\-]{60,}", start=r"",
        end=END_DASH, context=True),
    keyed("discord-client-secret", "Discord client secret or key", CHAT, r"discord",
        r"[a-fA-F0-9]{64}|[A-Za-z0-9=_\-]{32}"),
    # core.telegram.org/bots/api#authorizing-your-bot (<bot id>:<35 characters>).
    token("telegram-bot-token", "Telegram bot token", CHAT, r"[0-9]{5,16}:A", r"[A-Za-z0-9_\-]{34}",
        start=r"(?:^|[^0-9A-Za-z_\-:])", end=END_DASH, gate=r"[0-9]:A[A-Za-z0-9_\-]{8}"),
    # learn.microsoft.com/microsoftteams/platform/webhooks-and-connectors/how-to/
    # add-incoming-webhook
    token("teams-webhook-url", "Microsoft Teams incoming webhook URL", CHAT,
        r"\.webhook\.office\.com/webhookb2/", r"[A-Za-z0-9@/\-]{60,}", start=r"[A-Za-z0-9\-]+",
        end=END_DASH, gate=r"\.webhook\.office\.com/webhookb2/", context=True),
    token("teams-webhook-url", "Microsoft Teams workflow webhook URL", CHAT,
        r"\.logic\.azure\.com(?::443)?/workflows/[0-9a-f]{32}/triggers/manual/paths/invoke\?"
        r"[^\s\"'<>]*sig=", r"[A-Za-z0-9_\-%]{20,}", start=r"prod-[0-9]+\.[a-z0-9]+",
        end=END_DASH, gate=r"\.logic\.azure\.com", context=True),
    # developers.mattermost.com/integrate/reference/personal-access-token (26 characters).
    keyed("mattermost-token", "Mattermost access token", CHAT, r"mattermost", r"[a-z0-9]{26}"),
    # developers.gitter.im (40 characters).
    keyed("gitter-token", "Gitter access token", CHAT, r"gitter", r"[A-Za-z0-9_\-]{40}"),
    # sendbird.com/docs/chat/platform-api/v3/prepare-to-use-api#2-authentication
    keyed("sendbird-token", "Sendbird API token", CHAT, r"sendbird", _HEX40),
    # developers.zoom.us/docs/internal-apps/s2s-oauth (32-character secrets).
    keyed("zoom-client-secret", "Zoom OAuth client secret", CHAT, r"zoom", r"[A-Za-z0-9]{32}"),
    # developers.intercom.com/docs/build-an-integration/learn-more/authentication (60 chars).
    keyed("intercom-token", "Intercom access token", CHAT, r"intercom", r"[A-Za-z0-9=_\-]{60}"),
    # ======================================================================== payment
    # docs.stripe.com/keys (sk_ secret, rk_ restricted, live/test; whsec_ webhook signing).
    token("stripe-secret-key", "Stripe secret key", PAYMENT, r"sk_(?:live|test|prod)_",
        r"[A-Za-z0-9]{10,247}", check=RANDOM),
    token("stripe-restricted-key", "Stripe restricted key", PAYMENT, r"rk_(?:live|test|prod)_",
        r"[A-Za-z0-9]{10,247}", check=RANDOM),
    token("stripe-webhook-secret", "Stripe webhook signing secret", PAYMENT, r"whsec_",
        r"[A-Za-z0-9+/]{32,}={0,2}", end=END_B64),
    # developer.squareup.com/docs/build-basics/access-tokens (EAAA, sq0atp-, sq0csp-).
    token("square-access-token", "Square access token", PAYMENT, r"(?:EAAA|sq0atp-)",
        r"[A-Za-z0-9_\-]{22,60}", check=RANDOM, end=END_DASH),
    token("square-oauth-secret", "Square OAuth secret", PAYMENT, r"sq0csp-", r"[A-Za-z0-9_\-]{43}",
        end=END_DASH),
    # developer.paypal.com/braintree/docs/guides/authorization/access-token
    token("braintree-access-token", "PayPal Braintree access token", PAYMENT,
        r"access_token\$(?:production|sandbox)\$", r"[a-z0-9]{16}\$[a-fA-F0-9]{32}"),
    keyed("paypal-client-secret", "PayPal client secret", PAYMENT, r"paypal",
        r"E[A-Za-z0-9_\-]{79}"),
    # shopify.dev/docs/apps/build/authentication-authorization/access-tokens (shpat_ admin,
    # shpca_ custom, shppa_ private, shpss_ shared secret).
    token("shopify-access-token", "Shopify access token", PAYMENT, r"shp(?:at|ca|pa)_",
        r"[a-fA-F0-9]{32}"),
    token("shopify-shared-secret", "Shopify shared secret", PAYMENT, r"shpss_", r"[a-fA-F0-9]{32}"),
    # developer.flutterwave.com/docs/integration-guides/authentication
    token("flutterwave-secret-key", "Flutterwave secret key", PAYMENT, r"FLWSECK(?:_TEST)?-",
        r"[a-hA-H0-9]{32}", suffix=r"-X"),
    token("flutterwave-encryption-key", "Flutterwave encryption key", PAYMENT, r"FLWSECK_TEST",
        r"[a-hA-H0-9]{12}"),
    # razorpay.com/docs/api/authentication (rzp_live_/rzp_test_ key ids, 24-character secrets).
    token("razorpay-key", "Razorpay API key id", PAYMENT, r"rzp_(?:live|test)_",
        r"[A-Za-z0-9]{14}"),
    keyed("razorpay-secret", "Razorpay API key secret", PAYMENT, r"razorpay", r"[A-Za-z0-9]{24}"),
    # docs.adyen.com/development-resources/api-credentials (AQE API keys).
    token("adyen-api-key", "Adyen API key", PAYMENT, r"AQE[a-zA-Z0-9]{4}",
        r"[A-Za-z0-9+/=_\-]{60,}", check=RANDOM, end=END_B64),
    # plaid.com/docs/api/#api-access (access-<env>-<uuid> tokens, 30-character secrets).
    token("plaid-access-token", "Plaid access token", PAYMENT,
        r"access-(?:sandbox|development|production)-", _UUID),
    keyed("plaid-secret", "Plaid secret or client id", PAYMENT, r"plaid",
        r"[a-z0-9]{30}|[a-z0-9]{24}"),
    # developer.gocardless.com/getting-started/api/making-your-first-request (live_ + 40).
    keyed("gocardless-token", "GoCardless access token", PAYMENT, r"gocardless",
        r"(?:live|sandbox)_[A-Za-z0-9_=\-]{40}"),
    # docs.cdp.coinbase.com (64-character keys), docs.kraken.com, kucoin, bittrex.
    keyed("coinbase-token", "Coinbase access token", PAYMENT, r"coinbase", r"[A-Za-z0-9_\-]{64}"),
    keyed("kraken-token", "Kraken API key", PAYMENT, r"kraken", r"[A-Za-z0-9/=_+\-]{80,90}",
        end=END_B64),
    keyed("kucoin-key", "KuCoin API key or secret", PAYMENT, r"kucoin", r"[a-f0-9]{24}|" + _UUID),
    keyed("bittrex-key", "Bittrex API key or secret", PAYMENT, r"bittrex", r"[a-z0-9]{32}"),
    # docs.finicity.com (32 hex keys, 20-character secrets).
    keyed("finicity-key", "Finicity API key or secret", PAYMENT, r"finicity",
        r"[a-f0-9]{32}|[a-z0-9]{20}"),
    # apidocs.chargebee.com/docs/api/auth (live_/test_ site keys).
    keyed("chargebee-api-key", "Chargebee API key", PAYMENT, r"chargebee",
        r"(?:live|test)_[A-Za-z0-9]{20,40}"),
    # duffel.com/docs/api/overview/making-requests/authentication (duffel_live_/duffel_test_).
    token("duffel-token", "Duffel API token", PAYMENT, r"duffel_(?:test|live)_",
        r"[A-Za-z0-9_=\-]{43}", end=END_DASH),
    # developer.paddle.com/api-reference/about/api-keys (pdl_live_apikey_ / pdl_sdbx_apikey_,
    # then a ULID, an underscore, 22 characters, an underscore and 3: 69 in all).
    token("paddle-api-key", "Paddle API key", PAYMENT, r"pdl_(?:live|sdbx)_apikey_",
        r"[0-9a-z]{26}_[A-Za-z0-9]{22}_[A-Za-z0-9]{3}"),
    # docs.xendit.co/docs/api-keys (secret keys xnd_development_ / xnd_production_; public keys
    # are xnd_public_… and no secret).
    token("xendit-secret-key", "Xendit secret API key", PAYMENT,
        r"xnd_(?:development|production)_", r"[A-Za-z0-9]{50,70}", check=RANDOM),
    # mercadopago.com/developers/en/docs/your-integrations/credentials (access tokens
    # APP_USR- in production, TEST- in test: the application id, a date stamp, 32 hex and the
    # user id; public keys are APP_USR- + a UUID and no secret).
    token("mercadopago-access-token", "Mercado Pago access token", PAYMENT, r"(?:APP_USR|TEST)-",
        r"[0-9]{12,20}-[0-9]{6}-[a-f0-9]{32}-[0-9]{6,12}"),
    # ======================================================================== registries
    # docs.npmjs.com/about-access-tokens (npm_ + 36).
    token("npm-token", "npm access token", REGISTRY, r"npm_", r"[A-Za-z0-9]{36}"),
    # pypi.org/help/#apitoken (macaroons: pypi-AgEIcHlwaS5vcmc…, TestPyPI AgENdGVzdC5weXBp…).
    token("pypi-token", "PyPI API token", REGISTRY,
        r"pypi-(?:AgEIcHlwaS5vcmc|AgENdGVzdC5weXBpLm9yZw)", r"[A-Za-z0-9_\-]{50,1000}",
        end=END_DASH),
    # guides.rubygems.org/api-key-scopes (rubygems_ + 48 hex).
    token("rubygems-api-key", "RubyGems API key", REGISTRY, r"rubygems_", r"[a-fA-F0-9]{48}"),
    # learn.microsoft.com/nuget/nuget-org/publish-a-package#create-an-api-key (oy2 + 43).
    token("nuget-api-key", "NuGet API key", REGISTRY, r"oy2", r"[a-z0-9]{43}", check=RANDOM),
    # doc.rust-lang.org/cargo/reference/registry-web-api.html (cio + 32).
    token("crates-io-token", "crates.io API token", REGISTRY, r"cio", r"[A-Za-z0-9]{32}",
        check=RANDOM),
    # github.com/clojars/clojars-web/wiki/Deploy-Tokens (CLOJARS_ + 60).
    token("clojars-token", "Clojars deploy token", REGISTRY, r"(?i:CLOJARS_)", r"[a-z0-9]{60}",
        gate=r"(?i)\bclojars_"),
    # packagist.org/about#how-to-update-packages (API tokens; packagist_ prefixes on
    # private packagist).
    token("packagist-token", "Packagist access token", REGISTRY, r"packagist_[our]{1,2}[at]_",
        r"[a-f0-9]{64,68}"),
    # ======================================================================== AI providers
    # docs.anthropic.com/en/api/getting-started (sk-ant-api03-, admin keys sk-ant-admin01-,
    # OAuth sk-ant-oat01-: 93 characters and AA).
    token("anthropic-api-key", "Anthropic API key", AI, r"sk-ant-(?:api|oat|ort|sid)[0-9]{2}-",
        r"[A-Za-z0-9_\-]{80,}", end=END_DASH),
    token("anthropic-admin-key", "Anthropic admin API key", AI, r"sk-ant-admin[0-9]{2}-",
        r"[A-Za-z0-9_\-]{80,}", end=END_DASH),
    # platform.openai.com/docs/api-reference/authentication (sk-proj-, sk-svcacct-, sk-admin-,
    # legacy sk- keys with the T3BlbkFJ marker: base64 of "OpenAI").
    token("openai-api-key", "OpenAI API key", AI, r"sk-(?:proj|svcacct|admin|None)-",
        r"[A-Za-z0-9_\-]{40,}", end=END_DASH),
    token("openai-api-key", "OpenAI API key", AI, r"sk-",
        r"[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}|[A-Za-z0-9_\-]{20,74}T3BlbkFJ[A-Za-z0-9_\-]{20,74}",
        gate=r"T3BlbkFJ", end=END_DASH),
    token("openai-api-key", "OpenAI API key (legacy)", AI, r"sk-", r"[A-Za-z0-9]{48}",
        check=RANDOM),
    # openrouter.ai/docs/api-reference/authentication (sk-or-v1- + 64 hex).
    token("openrouter-api-key", "OpenRouter API key", AI, r"sk-or-v1-", r"[a-fA-F0-9]{64}"),
    # huggingface.co/docs/hub/security-tokens (hf_ user tokens, api_org_ organisation).
    token("huggingface-token", "Hugging Face access token", AI, r"(?:hf_|api_org_)",
        r"[A-Za-z0-9]{34}", check=RANDOM),
    # console.groq.com/docs/quickstart (gsk_ + 52).
    token("groq-api-key", "Groq API key", AI, r"gsk_", r"[A-Za-z0-9]{52}"),
    # replicate.com/docs/reference/http#authentication (r8_ + 37).
    token("replicate-api-token", "Replicate API token", AI, r"r8_", r"[A-Za-z0-9]{37}"),
    # docs.x.ai/docs/overview (xai- + 80).
    token("xai-api-key", "xAI API key", AI, r"xai-", r"[A-Za-z0-9]{80}"),
    # docs.perplexity.ai/guides/getting-started (pplx- + 48).
    token("perplexity-api-key", "Perplexity API key", AI, r"pplx-", r"[A-Za-z0-9]{48}"),
    # docs.smith.langchain.com/administration/how_to_guides/organization_management/
    # create_account_api_key (lsv2_pt_, lsv2_sk_).
    token("langsmith-api-key", "LangSmith API key", AI, r"lsv2_(?:pt|sk)_",
        r"[a-fA-F0-9]{32}_[a-fA-F0-9]{10}"),
    # langfuse.com/docs/get-started (sk-lf- secret keys, UUID bodies).
    token("langfuse-secret-key", "Langfuse secret key", AI, r"sk-lf-", _UUID),
    # docs.nvidia.com/nim (nvapi- + 64).
    token("nvidia-api-key", "NVIDIA API key", AI, r"nvapi-", r"[A-Za-z0-9_\-]{64}", end=END_DASH),
    # docs.tavily.com (tvly- keys), docs.firecrawl.dev (fc- + 32 hex), jina.ai (jina_),
    # docs.pinecone.io (pcsk_), docs.voyageai.com (pa-).
    token("tavily-api-key", "Tavily API key", AI, r"tvly-(?:dev-|prod-)?", r"[A-Za-z0-9]{32}"),
    token("firecrawl-api-key", "Firecrawl API key", AI, r"fc-", r"[a-fA-F0-9]{32}"),
    token("jina-api-key", "Jina AI API key", AI, r"jina_", r"[a-fA-F0-9]{32}[A-Za-z0-9_\-]{28,}",
        end=END_DASH),
    token("pinecone-api-key", "Pinecone API key", AI, r"pcsk_",
        r"[A-Za-z0-9]{5,8}_[A-Za-z0-9]{50,70}"),
    token("voyage-api-key", "Voyage AI API key", AI, r"pa-", r"[A-Za-z0-9_\-]{43}", check=RANDOM,
        end=END_DASH),
    # docs.together.ai (tgp_v1_ keys; older 64 hex).
    token("together-api-key", "Together AI API key", AI, r"tgp_v1_", r"[A-Za-z0-9_\-]{43}",
        end=END_DASH),
    # docs.cohere.com/reference/about (40 characters), docs.mistral.ai (32),
    # wandb.ai/authorize (40 hex), elevenlabs.io/docs (sk_ + 48 hex), assemblyai.com (32 hex),
    # developers.deepgram.com (40 hex), deepseek (sk- + 32 hex), Azure OpenAI (32 hex).
    keyed("cohere-api-key", "Cohere API key", AI, r"cohere|co_api_key", r"[A-Za-z0-9]{40}"),
    keyed("mistral-api-key", "Mistral AI API key", AI, r"mistral", r"[A-Za-z0-9]{32}"),
    keyed("wandb-api-key", "Weights & Biases API key", AI, r"wandb", _HEX40),
    keyed("elevenlabs-api-key", "ElevenLabs API key", AI, r"elevenlabs|xi[_\-]api[_\-]key",
        r"(?:sk_)?[a-fA-F0-9]{32,48}"),
    keyed("assemblyai-api-key", "AssemblyAI API key", AI, r"assemblyai", _HEX32),
    keyed("deepgram-api-key", "Deepgram API key", AI, r"deepgram", _HEX40),
    keyed("deepseek-api-key", "DeepSeek API key", AI, r"deepseek", r"sk-[a-fA-F0-9]{32}"),
    keyed("azure-openai-api-key", "Azure OpenAI API key", AI, r"azure[_.\-]?openai|aoai", _HEX32),
    keyed("privateai-api-key", "Private AI API key", AI, r"private[_\-]?ai", r"[a-z0-9]{32}"),
    # ======================================================================== observability
    # docs.datadoghq.com/account_management/api-app-keys (32-hex API keys, 40-hex app keys).
    keyed("datadog-api-key", "Datadog API or application key", OBSERVABILITY, r"datadog|\bdd[_.\-]",
        r"[a-fA-F0-9]{40}|[a-fA-F0-9]{32}|[a-z0-9]{40}"),
    # docs.newrelic.com/docs/apis/intro-apis/new-relic-api-keys (NRAK- user, NRII- insert,
    # NRJS- browser, …NRAL license).
    token("newrelic-key", "New Relic API key", OBSERVABILITY, r"NR(?:AK|II|IQ|JS|RA|AA|SP)-",
        r"[A-Za-z0-9\-]{19,32}", check=RANDOM, end=END_DASH),
    token("newrelic-key", "New Relic license key", OBSERVABILITY, r"", r"[a-fA-F0-9]{36}NRAL",
        gate=r"NRAL"),
    keyed("newrelic-key", "New Relic API key", OBSERVABILITY, r"new[_\-]?relic",
        r"[A-Za-z0-9]{64}|[a-fA-F0-9]{40}"),
    # docs.dynatrace.com/docs/manage/access-control/access-tokens (dt0c01.<24>.<64>).
    token("dynatrace-token", "Dynatrace API token", OBSERVABILITY, r"dt0[a-z][0-9]{2}\.",
        r"[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}"),
    # docs.sentry.io/product/accounts/auth-tokens (sntrys_ org tokens, sntryu_ user tokens);
    # docs.sentry.io/concepts/key-terms/dsn-explainer
    token("sentry-auth-token", "Sentry organisation auth token", OBSERVABILITY, r"sntrys_",
        r"eyJ[A-Za-z0-9+/=]{30,}_[A-Za-z0-9+/]{43}", end=END_B64),
    token("sentry-auth-token", "Sentry user auth token", OBSERVABILITY, r"sntryu_",
        r"[a-fA-F0-9]{64}"),
    keyed("sentry-auth-token", "Sentry auth token", OBSERVABILITY, r"sentry", _HEX64),
    token("sentry-dsn", "Sentry DSN with its key", OBSERVABILITY, r"(?i:https?)://",
        r"[a-fA-F0-9]{32}(?::[a-fA-F0-9]{32})?",
        suffix=r"@[A-Za-z0-9.\-]+(?::[0-9]+)?/(?:[A-Za-z0-9_\-]+/)*[0-9]+",
        gate=r"://[a-fA-F0-9]{8}", context=True),
    # grafana.com/docs/grafana/latest/administration/service-accounts (glsa_), Grafana Cloud
    # access policies (glc_), legacy API keys (base64 JSON {"k":…}).
    token("grafana-token", "Grafana Cloud access policy token", OBSERVABILITY, r"glc_",
        r"[A-Za-z0-9+/]{32,400}={0,3}", end=END_B64),
    token("grafana-token", "Grafana service account token", OBSERVABILITY, r"glsa_",
        r"[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}"),
    token("grafana-token", "Grafana API key", OBSERVABILITY, r"eyJrIjoi",
        r"[A-Za-z0-9]{40,400}={0,3}", end=END_B64),
    # docs.honeycomb.io/get-started/configure/environments/manage-api-keys (hcaik_/hcxik_
    # ingest keys; classic 32-hex and 22-character configuration keys).
    token("honeycomb-api-key", "Honeycomb ingest key", OBSERVABILITY, r"hc[ax][ik]k_",
        r"[0-9a-z]{58,}"),
    keyed("honeycomb-api-key", "Honeycomb API key", OBSERVABILITY, r"honeycomb",
        r"[A-Za-z0-9]{22}|[a-f0-9]{32}"),
    # posthog.com/docs/api (phx_ personal API keys; phc_ project keys are public).
    token("posthog-personal-key", "PostHog personal API key", OBSERVABILITY, r"phx_",
        r"[A-Za-z0-9]{43}"),
    # axiom.co/docs/reference/tokens (API tokens xaat-, personal access tokens xapt-, each a
    # UUID).
    token("axiom-token", "Axiom API or personal access token", OBSERVABILITY, r"xa[ap]t-", _UUID),
    # logfire.pydantic.dev/docs/how-to-guides/create-write-tokens (write tokens
    # pylf_v1_<region>_ + 44 characters).
    token("logfire-write-token", "Pydantic Logfire write token", OBSERVABILITY,
        r"pylf_v1_[a-z]{2}_", r"[A-Za-z0-9]{40,64}"),
    # docs.launchdarkly.com/home/account/api (api-/sdk- + UUID; 40-character keys).
    token("launchdarkly-key", "LaunchDarkly API or SDK key", OBSERVABILITY, r"(?:api|sdk)-", _UUID),
    keyed("launchdarkly-key", "LaunchDarkly access token", OBSERVABILITY, r"launchdarkly",
        r"[A-Za-z0-9=_\-]{40}"),
    # help.sumologic.com/docs/manage/security/access-keys (su + 12 ids, 64-character keys).
    keyed("sumologic-key", "Sumo Logic access id or key", OBSERVABILITY, r"sumo",
        r"su[A-Za-z0-9]{12}|[A-Za-z0-9]{64}"),
    # docs.splunk.com (HEC tokens: UUIDs), docs.bugsnag.com (32 hex), docs.rollbar.com (32),
    # support.pagerduty.com (20), docs.opsgenie (UUID), docs.logz.io (32).
    keyed("splunk-hec-token", "Splunk HTTP Event Collector token", OBSERVABILITY, r"splunk|\bhec",
        _UUID),
    keyed("bugsnag-api-key", "Bugsnag API key", OBSERVABILITY, r"bugsnag", _HEX32),
    keyed("rollbar-token", "Rollbar access token", OBSERVABILITY, r"rollbar", _HEX32),
    keyed("pagerduty-token", "PagerDuty API key", OBSERVABILITY, r"pagerduty|\bpd[_.\-]",
        r"[A-Za-z0-9_+\-]{20}"),
    keyed("opsgenie-api-key", "Opsgenie API key", OBSERVABILITY, r"opsgenie", _UUID),
    keyed("logzio-token", "Logz.io token", OBSERVABILITY, r"logz", r"[A-Za-z]{32}"),
    keyed("airbrake-key", "Airbrake project key", OBSERVABILITY, r"airbrake", _HEX32),
    # ======================================================================== databases
    # planetscale.com/docs/concepts/service-tokens (pscale_tkn_, pscale_pw_ passwords,
    # pscale_oauth_).
    token("planetscale-token", "PlanetScale token or password", DATABASE,
        r"pscale_(?:tkn|pw|oauth)_", r"[A-Za-z0-9_=.\-]{32,64}", end=END_B64),
    # supabase.com/docs/guides/api/api-keys (sbp_ access tokens, sb_secret_ keys).
    token("supabase-token", "Supabase access token", DATABASE, r"sbp_(?:v0_)?", r"[a-fA-F0-9]{40}"),
    token("supabase-token", "Supabase secret key", DATABASE, r"sb_secret_", r"[A-Za-z0-9_\-]{30,}",
        end=END_DASH),
    # docs.databricks.com/dev-tools/auth/pat.html (dapi + 32 hex, -N suffix on Azure).
    token("databricks-token", "Databricks access token", DATABASE, r"dapi", r"[a-fA-F0-9]{32}",
        suffix=r"(?:-[0-9])?"),
    # clickhouse.com/docs/cloud/manage/openapi (4b1d secret keys).
    token("clickhouse-secret-key", "ClickHouse Cloud API secret key", DATABASE, r"4b1d",
        r"[A-Za-z0-9]{38}", check=RANDOM),
    # neon.tech/docs/manage/api-keys (napi_ + 64).
    token("neon-api-key", "Neon API key", DATABASE, r"napi_", r"[a-z0-9]{64}"),
    # cockroachlabs.com/docs/cockroachcloud/managing-access (service-account API keys start
    # CCDB1_; Cockroach Labs' Terraform provider spells the shape out: CCDB1_, a 22-character
    # id, an underscore and a 40-character secret).
    token("cockroachdb-cloud-api-key", "CockroachDB Cloud API key", DATABASE, r"CCDB1_",
        r"[A-Za-z0-9]{22}_[A-Za-z0-9]{40}"),
    # xata.io/docs/getting-started/api-keys (XATA_API_KEY=xau_…, 33 characters after the
    # prefix as `xata init` writes it).
    token("xata-api-key", "Xata API key", DATABASE, r"xau_", r"[A-Za-z0-9]{30,40}"),
    # mongodb.com/docs/atlas/configure-api-access (UUID private keys).
    keyed("mongodb-atlas-key", "MongoDB Atlas API private key", DATABASE,
        r"mongo|atlas[_.\-]?(?:api|private)", _UUID),
    # firebase.google.com/docs/cloud-messaging/auth-server (legacy FCM server keys).
    token("firebase-messaging-key", "Firebase Cloud Messaging server key", DATABASE,
        r"AAAA[A-Za-z0-9_\-]{7}:APA91b", r"[A-Za-z0-9_\-]{100,}", end=END_DASH, gate=r":APA91b"),
    # aiven.io/docs/platform/concepts/authentication-tokens, upstash.com/docs, redis cloud.
    keyed("aiven-token", "Aiven API token", DATABASE, r"aiven", r"[A-Za-z0-9/+=]{372}",
        end=END_B64),
    # ======================================================================== identity
    # developer.okta.com/docs/guides/create-an-api-token (00 + 40; SSWS scheme).
    keyed("okta-api-token", "Okta API token", IDENTITY, r"okta", r"00[A-Za-z0-9_=\-]{40}"),
    token("okta-api-token", "Okta API token", IDENTITY, r"SSWS[ \t]+", r"00[A-Za-z0-9_\-]{40}",
        start=r"\b", end=END_DASH, context=True),
    # ory.com/docs/concepts/personal-access-token (Ory Network project API keys ory_pat_, and
    # ory_apikey_ / ory_wak_ workspace keys).
    token("ory-api-key", "Ory Network API key", IDENTITY, r"ory_(?:pat|apikey|wak)_",
        r"[A-Za-z0-9]{32,64}"),
    # auth0.com/docs/get-started/applications/application-settings (64-character secrets).
    keyed("auth0-client-secret", "Auth0 client secret", IDENTITY, r"auth0", r"[A-Za-z0-9_\-]{64}"),
    # developer.1password.com/docs/service-accounts (ops_eyJ… tokens) and
    # support.1password.com/secret-key-security (A3-XXXXXX-XXXXXX-XXXXX-XXXXX-XXXXX-XXXXX).
    token("1password-service-account-token", "1Password service account token", SECRETS,
        r"ops_eyJ", r"[A-Za-z0-9+/]{250,}={0,3}", end=END_B64),
    token("1password-secret-key", "1Password secret key", SECRETS, r"A3-",
        r"[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}",
        end=END_DASH),
    # authress.io/knowledge-base/docs/authorization/service-clients (sc_/ext_… acc- keys).
    token("authress-access-key", "Authress service client access key", IDENTITY,
        r"(?:sc|ext|scauth|authress)_",
        r"[A-Za-z0-9]{5,30}\.[A-Za-z0-9]{4,6}\.acc[_\-][A-Za-z0-9\-]{10,32}\.[A-Za-z0-9+/_=\-]{30,120}",
        end=END_B64),
    # age-encryption.org/v1 (bech32 AGE-SECRET-KEY-1…).
    token("age-secret-key", "age secret key", IDENTITY, r"AGE-SECRET-KEY-1",
        r"[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}"),
    # docs.clerk.com/deployments/clerk-environment-variables (sk_live_/sk_test_ are Stripe's
    # shape too); keycloak and Duo secrets have no prefix:
    keyed("duo-secret-key", "Duo secret key", IDENTITY, r"\bduo", r"[A-Za-z0-9]{40}"),
    # docs.defined.net/guides/automating-host-creation (dnkey-).
    token("defined-networking-token", "Defined Networking API token", IDENTITY, r"dnkey-",
        r"[a-z0-9=_\-]{26}-[a-z0-9=_\-]{52}", end=END_DASH),
    # ======================================================================== secrets managers
    # developer.hashicorp.com/vault/docs/concepts/tokens#token-prefixes (hvs. service, hvb.
    # batch, hvr. recovery; legacy s. + 24).
    token("vault-token", "HashiCorp Vault token", SECRETS, r"hv[sbr]\.", r"[A-Za-z0-9_\-]{24,}",
        end=END_DASH),
    token("vault-token", "HashiCorp Vault token (legacy)", SECRETS, r"[sbr]\.", r"[A-Za-z0-9]{24}",
        check=RANDOM, start=r"(?:^|[^A-Za-z0-9_.\-/@])", gate=r"[sbr]\.[A-Za-z0-9]{8}"),
    # docs.doppler.com/docs/service-tokens (dp.pt. personal, dp.st. service, dp.sa., dp.ct.,
    # dp.scim., dp.audit.).
    token("doppler-token", "Doppler token", SECRETS, r"dp\.(?:pt|st|sa|ct|scim|audit)\.",
        r"[A-Za-z0-9]{40,44}"),
    # infisical.com/docs/documentation/platform/token (st.<id>.<key> service tokens).
    token("infisical-token", "Infisical service token", SECRETS, r"st\.",
        r"[a-f0-9\-]{36}\.[a-f0-9]{32}\.[a-f0-9]{32}", start=r"\b"),
    # bitwarden.com/help/access-tokens (machine accounts: 0.<uuid>.<secret>:<base64 key>).
    token("bitwarden-access-token", "Bitwarden Secrets Manager access token", SECRETS, r"0\.",
        _UUID + r"\.[A-Za-z0-9]{30}:[A-Za-z0-9+/]{22}==", end=END_B64,
        gate=r"\b0\.[0-9a-fA-F]{8}-"),
    # docs.ansible.com/ansible/latest/vault_guide (vault files: $ANSIBLE_VAULT;1.1;AES256 + hex).
    token("ansible-vault", "Ansible Vault encrypted secret", SECRETS, r"\$ANSIBLE_VAULT;[0-9.]+;",
        r"AES256(?:;[A-Za-z0-9_]+)?[ \t]*\r?\n[ \t]*[0-9a-f]{64,}", start=r"",
        gate=r"\$ANSIBLE_VAULT;", context=True),
    # ======================================================================== email, SMS, messaging
    # docs.sendgrid.com/ui/account-and-settings/api-keys (SG.<22>.<43>).
    token("sendgrid-api-key", "SendGrid API key", MESSAGING, r"SG\.",
        r"[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{16,64}|[A-Za-z0-9_=.\-]{66}", end=END_DASH),
    # documentation.mailgun.com/docs/mailgun/user-manual/get-started/#primary-account-api-key
    # (key- + 32 hex; pubkey-; webhook signing keys).
    token("mailgun-api-key", "Mailgun API key", MESSAGING, r"(?:key|pubkey)-", r"[a-fA-F0-9]{32}",
        check=RANDOM),
    keyed("mailgun-api-key", "Mailgun webhook signing key", MESSAGING, r"mailgun",
        r"[a-hA-H0-9]{32}-[a-hA-H0-9]{8}-[a-hA-H0-9]{8}"),
    # mailchimp.com/developer/marketing/guides/quick-start (32 hex + -us<dc>).
    token("mailchimp-api-key", "Mailchimp API key", MESSAGING, r"", r"[a-fA-F0-9]{32}-us[0-9]{1,2}",
        gate=r"[a-fA-F0-9]{8}-us[0-9]"),
    # developers.brevo.com/docs/getting-started (xkeysib-, xsmtpsib-).
    token("brevo-api-key", "Brevo (Sendinblue) API key", MESSAGING, r"x(?:key|smtp)sib-",
        r"[a-fA-F0-9]{64}-[A-Za-z0-9]{16}"),
    # developers.mailersend.com (mlsn. + 64), resend.com/docs (re_), postmarkapp.com (UUID),
    # sparkpost (40 hex), mailjet (32 hex).
    token("mailersend-api-key", "MailerSend API key", MESSAGING, r"mlsn\.", r"[a-fA-F0-9]{64}"),
    token("resend-api-key", "Resend API key", MESSAGING, r"re_", r"[A-Za-z0-9]{8}_[A-Za-z0-9]{24}",
        check=RANDOM),
    keyed("postmark-token", "Postmark server token", MESSAGING, r"postmark", _UUID),
    keyed("sparkpost-api-key", "SparkPost API key", MESSAGING, r"sparkpost", _HEX40),
    keyed("mailjet-api-key", "Mailjet API key", MESSAGING, r"mailjet", _HEX32),
    # twilio.com/docs/iam/api-keys (SK + 32 hex key SIDs; AC account SIDs; 32-hex auth tokens).
    token("twilio-api-key", "Twilio API key SID", MESSAGING, r"SK", r"[0-9a-fA-F]{32}",
        check=RANDOM, gate=r"\bSK[0-9a-fA-F]{4}"),
    token("twilio-credentials", "Twilio account SID with auth token", MESSAGING, r"AC",
        r"[a-fA-F0-9]{32}:[a-fA-F0-9]{32}", gate=r"\bAC[a-fA-F0-9]{4}"),
    keyed("twilio-credentials", "Twilio auth token", MESSAGING, r"twilio", _HEX32),
    # developer.vonage.com/en/account/secret-management (8-hex keys, 16-character secrets).
    keyed("vonage-api-secret", "Vonage (Nexmo) API secret", MESSAGING, r"vonage|nexmo",
        r"[A-Za-z0-9]{16}"),
    # developers.messagebird.com/api/#authentication (25 characters).
    keyed("messagebird-api-key", "MessageBird API key", MESSAGING, r"message[_\-]?bird",
        r"[A-Za-z0-9]{25}"),
    # documentation.onesignal.com/docs/keys-and-ids (App and Organization API keys:
    # os_v2_app_ / os_v2_org_ and lower-case base32).
    token("onesignal-api-key", "OneSignal App or Organization API key", MESSAGING,
        r"os_v2_(?:app|org)_", r"[a-z2-7]{90,120}"),
    # developer.nylas.com/docs/v3/auth (v3 API keys: nyk_v0_ + 64).
    token("nylas-api-key", "Nylas API key", MESSAGING, r"nyk_v0_", r"[A-Za-z0-9]{60,70}"),
    # docs.confluent.io/cloud/current/security/authenticate/workload-identities/service-accounts/
    # api-keys/overview.html (API secrets: cflt + 60 base64 characters since July 2025, 64
    # before; the 16-character key id is no secret).
    token("confluent-api-secret", "Confluent Cloud API secret", MESSAGING, r"cflt",
        r"[A-Za-z0-9+/]{60}", check=RANDOM, start=r"(?:^|[^A-Za-z0-9+/])", end=END_B64),
    keyed("confluent-api-secret", "Confluent Cloud API secret", MESSAGING, r"confluent",
        r"[A-Za-z0-9+/]{64}", end=END_B64),
    # ======================================================================== SaaS APIs
    # linear.app/developers/graphql#personal-api-keys (lin_api_, lin_oauth_).
    token("linear-api-key", "Linear API key", SAAS, r"lin_(?:api|oauth)_", r"[A-Za-z0-9]{40,64}"),
    keyed("linear-client-secret", "Linear client secret", SAAS, r"linear", _HEX32),
    # developers.notion.com/docs/authorization (secret_ + 43; ntn_ + 11 digits + 35).
    token("notion-token", "Notion integration token", SAAS, r"secret_", r"[A-Za-z0-9]{43}",
        check=RANDOM),
    token("notion-token", "Notion integration token", SAAS, r"ntn_", r"[0-9]{11}[A-Za-z0-9]{35}"),
    # learning.postman.com/docs/developer/postman-api/authentication (PMAK-<24>-<34>).
    token("postman-api-key", "Postman API key", SAAS, r"PMAK-", r"[a-fA-F0-9]{24}-[a-fA-F0-9]{34}"),
    # airtable.com/developers/web/guides/personal-access-tokens (pat<14>.<64 hex>).
    token("airtable-token", "Airtable personal access token", SAAS, r"pat",
        r"[A-Za-z0-9]{14}\.[a-fA-F0-9]{64}", gate=r"\bpat[A-Za-z0-9]{14}\."),
    keyed("airtable-api-key", "Airtable API key", SAAS, r"airtable", r"key[A-Za-z0-9]{14}"),
    # help.figma.com/hc/en-us/articles/8085703771159 (figd_, figu_ …).
    token("figma-token", "Figma access token", SAAS, r"fig[dpu]_", r"[A-Za-z0-9_\-]{40,}",
        end=END_DASH),
    # docs.prefect.io/v3/manage/cloud/manage-users/api-keys (pnu_, pnb_ + 36).
    token("prefect-api-key", "Prefect API key", SAAS, r"pn[ub]_", r"[A-Za-z0-9]{36}"),
    # docs.easypost.com/docs/authentication (EZAK live, EZTK test + 54).
    token("easypost-api-key", "EasyPost API key", SAAS, r"EZ[AT]K", r"[A-Za-z0-9]{54}"),
    # docs.goshippo.com/docs/guides_general/authentication (shippo_live_/shippo_test_ + 40 hex).
    token("shippo-api-token", "Shippo API token", SAAS, r"shippo_(?:live|test)_",
        r"[a-fA-F0-9]{40}"),
    # contentful.com/developers/docs/references/authentication (CFPAT- + 43; delivery tokens
    # 43 characters).
    token("contentful-token", "Contentful personal access token", SAAS, r"CFPAT-",
        r"[A-Za-z0-9_\-]{43}", end=END_DASH),
    keyed("contentful-token", "Contentful delivery API token", SAAS, r"contentful",
        r"[A-Za-z0-9=_\-]{43}"),
    # docs.mapbox.com/accounts/guides/tokens (sk. secret tokens: base64 JSON, a dot, 22+).
    token("mapbox-secret-token", "Mapbox secret token", SAAS, r"sk\.eyJ",
        r"[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{20,}", end=END_DASH),
    # developers.dropbox.com/oauth-guide (sl. short-lived, sl.u. user; long-lived 64).
    token("dropbox-token", "Dropbox access token", SAAS, r"sl\.(?:u\.)?", r"[A-Za-z0-9_\-=]{130,}",
        end=END_B64),
    keyed("dropbox-token", "Dropbox API key or long-lived token", SAAS, r"dropbox",
        r"[A-Za-z0-9]{11}AAAAAAAAAA[A-Za-z0-9_=\-]{43}|[a-z0-9]{15}"),
    # tailscale.com/kb/1085/auth-keys (tskey-auth-, tskey-api-, …).
    token("tailscale-key", "Tailscale API or auth key", SAAS,
        r"tskey-(?:api|auth|client|scim|webhook)-", r"[A-Za-z0-9]{6,}-[A-Za-z0-9]{20,}"),
    # developers.hubspot.com/docs/api/private-apps (pat-na1-<uuid>; legacy UUID keys).
    token("hubspot-token", "HubSpot private app token", SAAS, r"pat-(?:na|eu)[0-9]-", _UUID),
    keyed("hubspot-api-key", "HubSpot API key", SAAS, r"hubspot", _UUID),
    # developer.typeform.com/get-started/personal-access-token (tfp_ + 59).
    token("typeform-token", "Typeform personal access token", SAAS, r"tfp_",
        r"[A-Za-z0-9_=.\-]{59}", end=END_DASH),
    # docs.readme.com/main/reference/intro/authentication (rdme_ + 70).
    token("readme-api-key", "ReadMe API key", SAAS, r"rdme_", r"[a-z0-9]{70}"),
    # developer.frame.io/docs/getting-started/authentication (fio-u- + 64).
    token("frameio-token", "Frame.io developer token", SAAS, r"fio-u-", r"[A-Za-z0-9_=\-]{64}",
        end=END_DASH),
    # clickup.com/api/developer-portal/authentication (pk_<user>_<32>).
    token("clickup-token", "ClickUp personal API token", SAAS, r"pk_[0-9]{6,10}_", r"[A-Z0-9]{32}"),
    # dev.maxmind.com/geoip/docs/web-services (license keys ending _mmk).
    token("maxmind-license-key", "MaxMind license key", SAAS, r"",
        r"[A-Za-z0-9]{6}_[A-Za-z0-9]{29}", suffix=r"_mmk", gate=r"_mmk"),
    # adobe.io docs (p8e- client secrets; 32-hex client ids).
    token("adobe-client-secret", "Adobe client secret", SAAS, r"p8e-", r"[A-Za-z0-9]{32}"),
    keyed("adobe-client-id", "Adobe client id", SAAS, r"adobe", _HEX32),
    # developer.asana.com/docs/personal-access-token (2/<user>/<app>:<32 hex>, older 1/…).
    token("asana-token", "Asana personal access token", SAAS, r"[12]/[0-9]{10,20}",
        r"(?:/[0-9]{10,20})?:[a-fA-F0-9]{32}", gate=r"[0-9]:[a-fA-F0-9]{8}"),
    keyed("asana-token", "Asana client secret", SAAS, r"asana", r"[a-z0-9]{32}|[0-9]{16}"),
    # developer.atlassian.com/cloud/trello/guides/rest-api/authorization (32-hex keys,
    # ATTA tokens).
    token("trello-token", "Trello API token", SAAS, r"ATTA", r"[A-Za-z0-9]{56,64}[A-Fa-f0-9]{8}"),
    keyed("trello-api-key", "Trello API key", SAAS, r"trello", r"[a-f0-9]{32}|[a-f0-9]{64}"),
    # developer.zendesk.com/api-reference/introduction/security-and-auth (40 characters).
    keyed("zendesk-token", "Zendesk API token", SAAS, r"zendesk", r"[A-Za-z0-9]{40}"),
    # developer.x.com/en/docs/authentication (bearer tokens start AAAAAAAAAAAAAAAAAAAAA).
    keyed("twitter-token", "X (Twitter) API key or token", SAAS, r"twitter|\bx[_\-]api",
        r"A{22}[A-Za-z0-9%]{80,100}|[0-9]{15,25}-[A-Za-z0-9]{20,40}|[A-Za-z0-9]{25}"
        r"|[A-Za-z0-9]{45}|[A-Za-z0-9]{50}"),
    # developers.facebook.com/docs/facebook-login/guides/access-tokens (EAA… user and page
    # tokens; app tokens <app id>|<secret>; 32-hex app secrets).
    token("facebook-access-token", "Meta (Facebook) access token", SAAS, r"EAA[A-Za-z0-9]",
        r"[A-Za-z0-9]{90,}", check=RANDOM),
    keyed("facebook-secret", "Meta (Facebook) app secret", SAAS, r"facebook|\bfb[_.\-]",
        r"[a-fA-F0-9]{32}|[0-9]{15,16}(?:\||%7C)[A-Za-z0-9_\-]{27,40}"),
    # learn.microsoft.com/linkedin/shared/authentication (16-character secrets).
    keyed("linkedin-client-secret", "LinkedIn client secret", SAAS, r"linked[_\-]?in",
        r"[A-Za-z0-9]{16}|[A-Za-z0-9]{14}"),
    # dev.twitch.tv/docs/authentication (30 characters).
    keyed("twitch-token", "Twitch API token", SAAS, r"twitch", r"[a-z0-9]{30}"),
    # algolia.com/doc/guides/security/api-keys (32 characters).
    keyed("algolia-api-key", "Algolia API key", SAAS, r"algolia", r"[a-zA-Z0-9]{32}"),
    # docs.rapidapi.com/docs/keys (50 characters).
    keyed("rapidapi-key", "RapidAPI key", SAAS, r"rapid[_\-]?api", r"[A-Za-z0-9_\-]{50}"),
    # developers.squarespace.com, etsy, flickr, freshbooks, nytimes, finnhub, lob, adafruit,
    # beamer, yelp, box, shortcut, monday, pipedrive, mixpanel, zapier, calendly:
    # keys without a prefix, named by their provider.
    keyed("squarespace-token", "Squarespace access token", SAAS, r"squarespace", _UUID),
    keyed("etsy-token", "Etsy API token", SAAS, r"etsy", r"[a-z0-9]{24}"),
    keyed("flickr-token", "Flickr API key", SAAS, r"flickr", r"[a-z0-9]{32}"),
    keyed("freshbooks-token", "FreshBooks access token", SAAS, r"freshbooks", r"[a-z0-9]{64}"),
    keyed("nytimes-token", "New York Times API key", SAAS, r"nytimes|new[_\-]?york[_\-]?times",
        r"[A-Za-z0-9=_\-]{32}"),
    keyed("finnhub-token", "Finnhub API key", SAAS, r"finnhub", r"[a-z0-9]{20}"),
    keyed("lob-api-key", "Lob API key", SAAS, r"\blob[_.\-]",
        r"(?:live|test)_(?:pub_)?[a-f0-9]{31,35}"),
    keyed("adafruit-api-key", "Adafruit IO key", SAAS, r"adafruit", r"[A-Za-z0-9_\-]{32}"),
    keyed("beamer-api-key", "Beamer API key", SAAS, r"beamer", r"b_[A-Za-z0-9=_\-]{44}"),
    keyed("yelp-api-key", "Yelp API key", SAAS, r"yelp", r"[A-Za-z0-9_\-]{128}"),
    keyed("box-token", "Box developer token", SAAS, r"\bbox[_.\-]", r"[A-Za-z0-9]{32}"),
    keyed("shortcut-token", "Shortcut API token", SAAS, r"shortcut|clubhouse", _UUID),
    keyed("pipedrive-token", "Pipedrive API token", SAAS, r"pipedrive", _HEX40),
    keyed("mixpanel-secret", "Mixpanel API secret", SAAS, r"mixpanel", _HEX32),
    keyed("calendly-token", "Calendly personal access token", SAAS, r"calendly",
        r"eyJ[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-.]{20,}"),
    keyed("freshdesk-api-key", "Freshdesk or Freshservice API key", SAAS, r"fresh(?:desk|service)",
        r"[A-Za-z0-9]{20}"),
    # developer.cisco.com/meraki/api-v1/authorization (Dashboard API keys: 40 hex).
    keyed("meraki-api-key", "Cisco Meraki Dashboard API key", SAAS, r"meraki", _HEX40),
    # settlemint.com/documentation (sm_pat_, sm_aat_, sm_sat_ + 16).
    token("settlemint-token", "SettleMint access token", SAAS, r"sm_[aps]at_", r"[A-Za-z0-9]{16}"),
    # docs.intra.42.fr (s-s4t2ud-, s-s4t2af- + 64 hex).
    token("intra42-client-secret", "42 Intra client secret", SAAS, r"s-s4t2(?:ud|af)-",
        r"[a-fA-F0-9]{64}"),
    # docs.dependencytrack.org/integrations/rest-api (odt_ + 32).
    token("dependency-track-key", "Dependency-Track API key", SAAS, r"odt_", r"[A-Za-z0-9]{32,}"),
    # docs.cast.ai/docs/authentication (castai_v1_? 64 hex keys named CASTAI).
    keyed("castai-api-key", "CAST AI API key", SAAS, r"castai|cast[_\-]ai", _HEX64),
    # freemius.com/help/documentation (sk_ + 29 in PHP secret_key arrays).
    keyed("freemius-secret-key", "Freemius secret key", SAAS, r"freemius|secret_key",
        r"sk_[A-Za-z0-9!#$%&()*+,\-./:;<=>?@\[\]^_{|}~]{29}"),
    # docs.looker.com/admin-options/settings/users#api_keys (20-character ids, 24 secrets).
    keyed("looker-client-secret", "Looker API client secret", SAAS, r"looker",
        r"[A-Za-z0-9]{24}|[A-Za-z0-9]{20}"),
    # sidekiq.org (contribsys credentials: 8 hex : 8 hex, set as BUNDLE_ENTERPRISE__CONTRIBSYS__COM
    # or `bundle config enterprise.contribsys.com`; any key naming contribsys names them).
    keyed("sidekiq-secret", "Sidekiq Enterprise credentials", SAAS, r"contribsys",
        r"[a-f0-9]{8}:[a-f0-9]{8}"),
    token("sidekiq-secret", "Sidekiq Enterprise credentials in a URL", SAAS, r"(?i:https?)://",
        r"[a-f0-9]{8}:[a-f0-9]{8}", suffix=r"@(?:gems|enterprise)\.contribsys\.com",
        gate=r"contribsys\.com", context=True),
    token("sidekiq-secret", "Sidekiq Enterprise credentials in bundle config", SAAS,
        r"(?i:(?:enterprise|gems)\.contribsys\.com)[ \t]+", r"[a-f0-9]{8}:[a-f0-9]{8}",
        gate=r"contribsys\.com", context=True),
    # docs.konghq.com/konnect/org-management/access-tokens (personal access tokens kpat_,
    # system account tokens spat_, each followed by 49 characters).
    token("kong-konnect-token", "Kong Konnect access token", SAAS, r"[ks]pat_",
        r"[A-Za-z0-9]{49}"),
    # docs.rootly.com/api-reference (API keys: rootly_ + 64 hex).
    token("rootly-api-key", "Rootly API key", OBSERVABILITY, r"rootly_", r"[a-fA-F0-9]{64}"),
)
# fmt: on
