"""Find secrets and hidden characters in memory text before they reach a commit or a prompt.

A memory entry is read by every agent and pasted into prompts, so a secret in it is leaked the
moment it is admitted. This module is the one scanner every gate uses (pre-commit, pre-push,
pre-receive, CI, propose, import), so it must be both thorough and cheap.

What it reports (each as a `Finding` with a stable kebab-case rule id):

- provider credentials by their documented formats, from the catalogue in
  `gitmem.gate.secretrules` (cloud, forges, CI, chat, payment, registries, AI providers,
  observability, databases, identity, secret managers, messaging, SaaS APIs): a format with a
  distinctive prefix or shape anywhere in a line, bare in prose; one without (a hex or base64
  key) as the value of a key that names its provider;
- private-key blocks across lines (PEM, OpenSSH, PGP, PuTTY), JWTs, passwords in URLs (and
  a generated token as a URL's user, `https://<token>@host`),
  `curl -u user:password`, `docker login -p`, `--password value`, `Authorization:` and API-key
  headers, .NET/XML `key="…Password" value="…"` settings, and `key: value` / `key = value`
  assignments in a dozen syntaxes whose key names a secret (front matter and body alike),
  and a password an SQL statement sets (`IDENTIFIED BY '…'`, `WITH PASSWORD '…'`);
- a password given by a program's short option (`sqlcmd -P`, `7z -p…`, `openssl -passin
  pass:…`, `keytool -storepass`, `smbclient -U user%…`, `xfreerdp /p:`, PowerShell's
  `-Password` and `ConvertTo-SecureString '…' -AsPlainText`), by a server's configuration
  directive (`requirepass`, `rootpw`), or under the word for it in another language
  (`Passwort: …`, `mot de passe : …`, `пароль: …`, `密码：…`);
- a `name`/`value` pair whose name names a secret (`- name: DB_PASSWORD` + `value: …`, as
  container environments, task definitions and Terraform write one);
- values handed to a program on its command line that look generated, as a token key's value
  must: after an option that names a secret as a key would (`--db-password`,
  `--secret-string`) or carries the value to keep (`--value`, `--body`, `--from-literal=K=…`),
  and the `NAME=value` arguments of a command that sets values (`config:set`, `kv put`,
  `--set`, `-e`), whatever the name;
- high-entropy strings within a few words of a secret word (`token`, `secret`, `key`…), or on
  the line right after a `password:` style key;
- names of secret-like files (`.env`, `id_rsa`, `*.pem`, `*.tfstate`…) mentioned as paths in the
  text (`scan_text`) or cited in an entry's `files` (`scan_file_names`);
- hidden characters: zero-width, bidirectional controls, tag characters and other invisible
  format characters, and control characters but tab and line ends (an escape sequence, a
  backspace or a lone carriage return can hide or overwrite text on a reviewer's terminal),
  also when the front matter writes one as a YAML escape (`"\\uFEFF"`, `"\\e"`), which YAML
  decodes into the field's value (`scan_hidden_unicode`; `scan_text` includes these findings
  too, so one call covers a whole file: do not call both on the same text).

Normalise, then scan: text that renders as a secret is judged as it renders. Lines holding a
control character (an ANSI color sequence of a copied terminal log, a NUL, as a UTF-16 file
read as UTF-8 holds between its letters, a lone carriage return, a backspace overstrike), a
Markdown backslash escape (`ghp\\_…`), a YAML one (`ghp\\x5F…`, `\\u005F`), an HTML entity
(`ghp&#95;…`), URL-encoding (`%5F`), a
Unicode compatibility form (full-width `ｇｈｐ＿`) or a letter of another script that passes
for a Latin one inside a run of token characters (a Cyrillic `р` for the `p` of `ghp_`; a word
wholly in another script is prose and stays as it is) are rewritten line by line (NFKC,
look-alikes, entities, percent-decoding of runs that make UTF-8, escapes; twice, for double
encodings) and scanned
again; a finding on such a line comes from the rendered form and names the original line, and
has the fingerprint of what it renders as. Runs of base64 (also wrapped
over several lines, as in a code block) and of hex are decoded when they decode to text, and
the text is scanned in turn, two levels deep at most and `MAX_DECODED_CHARS` in all; a finding
inside names the line where the run starts. A token broken over lines (a terminal copy, a hard
wrap at a fixed column) is read joined where its prefix stands whole on its first line, or
where that line ends in the start of a literal prefix (`gh` + `p_…`) (`_wrapped`).

Not reported: placeholders and fillers (`${VAR}`, `$VAR`, `<token>`, `{{ secret }}`, `xxxx`,
`****`, `####`, `…`, values containing `example`, `dummy`, `placeholder`, `changeme`, `your-`,
`redacted`, AWS's documented example keys, a repeated chunk such as `abcd1234abcd1234…`, a
counting run such as `123456` or `abcdef`, one character over most of the value), references
(`os.environ[…]`, `settings.PASSWORD`, `${{ secrets.X }}`, `op://…`), values that are
identifiers or prose rather than secrets, keys that name something else (`token_url`,
`public_key`, `primary_key`, `secret_name`, `keyVaultToStoreSecrets`), UUIDs, and git object ids
on a line that talks about commits or hashes. An assignment never takes its value from the next
line, unless the syntax says so (a YAML `|` or `>` block, an indented YAML value, an XML
element).

Reviewed exceptions: every finding carries a fingerprint, ``rule-id:`` and 32 hex digits of a
SHA-256 of the rule id and the secret with its spaces and quotes taken off (never the secret
itself; for hidden characters, of the line that holds them). A reviewer who is not the author
records a fingerprint (gitmem.settings.policy says where); the gates then drop findings whose
fingerprint is recorded. Nothing in the text exempts it: a ``gitmem:allow`` marker an author
types is ordinary text, and suppresses nothing anywhere.

How it stays fast and safe on hostile input: every pattern is an RE2 pattern (linear time, no
backtracking). One `re2.Set` pass over the text says which rules can match at all; it looks for
each rule's gate (a provider's literal prefix, a provider's name, a secret word: cheap literals
that match wherever the rule's pattern does, which is tested), and only those rules run, Python
confirming their candidates (placeholder filters, entropy, JWT headers, decoding). The patterns
are compiled on the first scan, not at import. A text longer than `MAX_SCAN_CHARS` is scanned up
to the cap and also gets one ``scan-size-cap`` finding, so the gate fails closed.

Lines are 1-based and counted by ``\\n`` (plus ``line_offset``). Excerpts never hold a whole
secret: at most its first 4 characters (fewer for short values) and its length.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import accumulate
from typing import Any, Final

from gitmem.gate import secretrules
from gitmem.gate.secretrules import KEYED, OPERATOR, RANDOM, SHAPE
from gitmem.model.terminal import HIDDEN_CLASS

MAX_SCAN_CHARS = 256 * 1024
"""Characters scanned per text; a longer text gets a ``scan-size-cap`` finding."""

MAX_DECODED_CHARS = 64 * 1024
"""Characters of decoded base64 and hex a text may add to its scan, however many runs it has."""

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
# Rules. Patterns are RE2 syntax over UTF-8 bytes, compiled in Latin-1 mode (every pattern is
# ASCII, so each byte is one character: smaller automata, same meaning). The provider formats
# come from the catalogue (gitmem.gate.secretrules); the structural rules below are the ones no
# single provider owns.

(_TOKEN, _PEM, _JWT, _URL, _ASSIGN, _ENTROPY, _FILE, _CURL, _HEADER, _BASE64, _HEXRUN) = range(11)
_K8S, _SETTING = 11, 12

# Tiers: a finding is dropped when it overlaps one from a lower tier (a more specific rule).
_TIER = {
    _TOKEN: 0, _PEM: 0, _JWT: 0, _FILE: 0, _BASE64: 0, _HEXRUN: 0,
    _URL: 1, _CURL: 1, _HEADER: 1, _K8S: 1, _ASSIGN: 2, _SETTING: 2, _ENTROPY: 3,
}  # fmt: skip

# What a key names, for the assignment rules: nothing secret, a token or key (its value must
# look generated), a password or secret (a literal counts, if it is not a name or prose).
_NOT_SECRET, _TOKEN_KEY, _PASSWORD_KEY = range(3)
#: an assignment rule's key_kind when its key is a command-line option (see `_option_kind`)
_OPTION_KEY = -2


class _Rule:
    """One pattern: its rule id, description, family, RE2 pattern, kind, check and gates."""

    __slots__ = (
        "check",
        "description",
        "family",
        "gates",
        "id",
        "key_kind",
        "kind",
        "pattern",
        "tier",
    )

    def __init__(
        self,
        rule_id: str,
        description: str,
        pattern: str,
        kind: int,
        *,
        family: str = "generic",
        check: int = SHAPE,
        gates: tuple[str, ...] = (),
        key_kind: int = -1,
    ) -> None:
        self.id = rule_id
        self.description = description
        self.family = family
        self.pattern = pattern
        self.kind = kind
        self.check = check
        self.tier = _TIER[kind]
        # What the one Set pass looks for instead of the pattern: patterns that all match
        # wherever the pattern does (tested); the rule's regex then decides.
        self.gates = gates or (pattern,)
        # for an assignment rule: what its key names (-1: judge the key's own name)
        self.key_kind = key_kind


# Words that make a nearby random-looking string suspicious.
_SECRET_WORDS = (
    r"passw|passphrase|pwd|secret|token|api[_.\- ]?key|apikey|access[_.\- ]?key"
    r"|private[_.\- ]?key|auth|credential|bearer|key"
)
_ANY_SECRET_WORD = f"(?i)(?:{_SECRET_WORDS})"
_RUN20 = r"[A-Za-z0-9+/_\-]{20}"  # a random-looking run's start; shared by several gates

# A key naming a secret, its closing quote, the operator, and the value: double-, single- or
# back-quoted (an escaped quote inside a JSON string too) or bare up to a separator.
_KEY_WORDS = r"pass|pwd|secret|token|key|auth|cred|bearer|\bpw\b"
_VALUE = (
    r"(?:\\?\"([^\"\n]*)\"|\\?'([^'\n]*)'|`([^`\n]*)`"
    r"|([^\s\"'`,;<>&|\\][^\s\"'`,;<>&|]*))"
)
# what the Set looks for: the key and the operator's first character (no counted repetition:
# those multiply the Set's states)
_ASSIGNMENT_KEY = (
    rf"(?i)(?:{_KEY_WORDS})[\w.\-]*[\\\"'`\])]*[ \t]*"
    r"(?::?[ \t]*(?:string|str|bytes|\[\]byte)[ \t]*)?[=:>,<?+.!|\-]"
)
_ASSIGNMENT = rf"(?i)((?:{_KEY_WORDS})[\w.\-]{{0,40}}){secretrules.KEY_CLOSE}({OPERATOR}){_VALUE}"
_OPTION_VALUE = r"(?:\"([^\"\n]*)\"|'([^'\n]*)'|`([^`\n]*)`|([^\s\"'`,;\-][^\s\"'`,;]*))"
#: the words of an option's name that make it carry the value a program is to keep, whatever
#: that value is called elsewhere on the line (`--value`, `--body`, `--secret-string`,
#: `--from-literal=NAME=…`); the generic option rule reads these and the secret words
_VALUE_OPTION_WORDS = r"value|body|literal|string"
#: the words that start a command's `NAME=value` settings (`heroku config:set`, `vault kv put`,
#: `helm --set`, `docker run -e`), as a pattern and as the argument each setting is
_SETTING_WORDS = r"(?:[a-z][a-z0-9\-]*:)?(?:set|put)|--set(?:-string)?|-e|--env|--build-arg"


def _utf8_pattern(words: str) -> str:
    """An RE2 alternation over Latin-1 bytes matching each word's UTF-8 spelling, as written
    and capitalised (the patterns must be ASCII, and RE2's case folding over Latin-1 knows no
    Cyrillic or Greek capitals)."""
    spelled = []
    for word in words.split():
        word = word.replace("_", " ")
        for form in dict.fromkeys((word, word.capitalize(), word.upper())):
            spelled.append(
                "".join(
                    c if c.isascii() else "".join(f"\\x{b:02x}" for b in c.encode()) for c in form
                ).replace(" ", "[ \\t_]")
            )
    return "|".join(spelled)


#: "password" in other languages than English: German, French, Spanish, Portuguese, Dutch,
#: Polish, Swedish, Norwegian, Danish, Finnish, Czech and Slovak, Hungarian, Italian and
#: Romanian (parola), Turkish, Russian and Ukrainian, Greek, Chinese, Japanese, Korean
_OTHER_LANGUAGE_PASSWORD = _utf8_pattern(
    "passwort kennwort mot_de_passe contraseña contrasena senha wachtwoord hasło haslo "
    "lösenord losenord passord adgangskode salasana heslo jelszó jelszo parola şifre sifre "
    "пароль κωδικός 密码 密碼 パスワード 비밀번호"
)

_STRUCTURAL: tuple[_Rule, ...] = (
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
        r"\b(e[wy][A-Za-z0-9_\-]{10,}\.e[wy][A-Za-z0-9_\-/\\]{10,}(?:\.[A-Za-z0-9_\-/\\+]*={0,2})?)",
        _JWT,
        gates=(r"[A-Za-z0-9_\-]\.e[wy][A-Za-z0-9_\-/\\]",),
    ),
    _Rule(
        "authorization-header",
        "credentials in an Authorization header",
        r"(?i)\bauthorization[\"']?[ \t]*[:=][ \t]*[\"']?"
        r"((?:bearer|basic|token|api-token|apikey|sso-key|digest|jwt|key)[ \t]+)?"
        r"([A-Za-z0-9._~+/=@\-]{8,})",
        _HEADER,
        gates=(r"(?i)authorization",),
    ),
    _Rule(
        "authorization-header",
        "credentials in a request header",
        r"(?i)(?:-H|--header)[ \t]*=?[ \t]*[\"']"
        r"([a-z0-9\-]*(?:api-?key|token|secret|auth|key|password|subscription-key)[a-z0-9\-]*)"
        r"[ \t]*:[ \t]*()([^\s\"']{8,})",
        _HEADER,
        gates=(r"(?i)(?:-H|--header)",),
    ),
    _Rule(
        "password-in-url",
        "password in a URL",
        r"(?i)\b([a-z][a-z0-9+.\-]{1,30})://([^\s:/?#@\"'<>\[\]\\]*):([^\s/?@\"'<>\[\]\\]+)@"
        r"[A-Za-z0-9_\[]",
        _URL,
        gates=(r"://[^\s:/?#@\"'<>\[\]\\]*:[^\s/?@\"'<>\[\]\\]+@",),
    ),
    _Rule(
        "password-in-url",
        "token as the user of a URL",
        r"(?i)\b([a-z][a-z0-9+.\-]{1,30})://()([A-Za-z0-9_.~\-]{16,256})@[A-Za-z0-9_\[]",
        _URL,
        check=RANDOM,
        gates=(r"(?i)://[A-Za-z0-9_.~\-]{16}",),
    ),
    _Rule(
        "curl-credentials",
        "user and password passed to curl",
        r"(?i)\bcurl\b(?:[^\n]*\\[ \t]*\r?\n){0,8}[^\n]*?[ \t](?:-u|--user)(?:=|[ \t]+)"
        r"((?:\"[^\"\n]*\"|'[^'\n]*'|[^\s\"'])+)",
        _CURL,
        gates=(r"(?i)\bcurl\b", r"(?:-u|--user)"),
    ),
    _Rule(
        "password-assignment",
        "secret assigned to a secret-like key",
        _ASSIGNMENT,
        _ASSIGN,
        gates=(_ASSIGNMENT_KEY,),
    ),
    _Rule(
        "password-assignment",
        "secret named in prose (the password is '…')",
        r"(?i)\b(pass(?:word|phrase|wd)?|pwd|secret|token|api[ _\-]?key)"
        r"([ \t]+(?:is|was)[ \t]+(?:set[ \t]+to[ \t]+)?)"
        r"(?:\"([^\"\n]{3,64})\"|'([^'\n]{3,64})'|`([^`\n]{3,64})`)",
        _ASSIGN,
        gates=(r"(?i)(?:is|was)[ \t]+(?:set[ \t]+to[ \t]+)?[\"'`]",),
    ),
    _Rule(
        "password-assignment",
        "secret in an XML or .NET setting",
        r"(?i)<[A-Za-z:]+[ \t]+(?:key|name)[ \t]*=[ \t]*\"([^\"\n]*(?:pass|pwd|secret|token|key"
        r"|cred|auth)[^\"\n]*)\"[ \t]+value[ \t]*=[ \t]*()\"([^\"\n]*)\"",
        _ASSIGN,
        gates=(r"(?i)value[ \t]*=",),
    ),
    _Rule(
        "password-assignment",
        "secret passed as a command-line option",
        r"(?i)(?:^|[ \t])(--(?:password|passwd|pass|pwd|token|secret|api-key|apikey|api-token"
        r"|access-token|auth-token|access-key|secret-key|client-secret|secret-access-key"
        r"|private-key|registration-token|http-password|proxy-password))(=|[ \t]+)" + _OPTION_VALUE,
        _ASSIGN,
        gates=(
            r"(?i)--(?:pass|pwd|token|secret|api|access|auth|client|private|registration"
            r"|http|proxy)",
        ),
    ),
    _Rule(
        "password-assignment",
        "password set by an SQL statement",
        r"(?i)\b(identified(?:[ \t]+with[ \t]+[a-z_]{1,32})?[ \t]+by|password)([ \t]*=?[ \t]*)"
        r"'([^'\n]{1,128})'",
        _ASSIGN,
        gates=(r"(?i)(?:by|password)[ \t]*=?[ \t]*'",),
        key_kind=_PASSWORD_KEY,
    ),
    _Rule(
        "password-assignment",
        "secret given as a name and value pair",
        r"(?i)\b(?:name|key)[\"']?[ \t]*[:=][ \t]*[\"']?([A-Za-z0-9_.\-]*(?:pass|pwd|secret|token"
        r"|key|auth|cred)[A-Za-z0-9_.\-]*)[\"']?[ \t]*,?[ \t]*(?:\r?\n[ \t]*)?-?[ \t]*[\"']?value"
        r"[\"']?([ \t]*[:=][ \t]*)" + _VALUE,
        _ASSIGN,
        gates=(r"(?i)value[\"']?[ \t]*[:=]",),
    ),
    _Rule(
        "password-assignment",
        "secret passed as a command-line option",
        rf"(?i)(?:^|[ \t])--([a-z0-9_\-]*(?:{_KEY_WORDS}|{_VALUE_OPTION_WORDS})"
        r"[a-z0-9_\-]*)(=|[ \t]+)(?:[A-Za-z_][\w.\-]{0,40}=)?" + _OPTION_VALUE,
        _ASSIGN,
        gates=(rf"(?i)--[a-z0-9_\-]*(?:{_KEY_WORDS}|{_VALUE_OPTION_WORDS})",),
        key_kind=_OPTION_KEY,
    ),
    _Rule(
        "password-assignment",
        "secret set by a command (`config:set NAME=…`, `--set`, `-e`)",
        rf"(?i)(?:^|[ \t])(?:{_SETTING_WORDS})[ \t][^\n]*",
        _SETTING,
        gates=(rf"(?i)(?:{_SETTING_WORDS})[ \t]",),
    ),
    _Rule(
        "password-assignment",
        "password passed to a registry login",
        r"(?i)\b(?:docker|podman|nerdctl|buildah|skopeo|helm|oras|crane)\b[^\n]*?\blogin\b"
        r"[^\n]*?[ \t](-p)(=|[ \t]+)" + _OPTION_VALUE,
        _ASSIGN,
        gates=(r"(?i)\b(?:docker|podman|nerdctl|buildah|skopeo|helm|oras|crane)\b",),
        key_kind=_PASSWORD_KEY,
    ),
    _Rule(
        "password-assignment",
        "password passed to a database or SSH client",
        r"(?i)\b(?:mysql(?:dump|admin|sh)?|mariadb|sshpass|redis-cli|psexec(?:64)?)\b[^\n]*?"
        r"[ \t](-p|-a)([ \t]*)" + _OPTION_VALUE,
        _ASSIGN,
        gates=(r"(?i)\b(?:mysql|mariadb|sshpass|redis-cli|psexec)",),
        key_kind=_PASSWORD_KEY,
    ),
    _Rule(
        "password-assignment",
        "password passed to a database or directory tool",
        r"(?i)\b(?:sqlcmd|bcp|osql|mongo(?:sh|dump|restore|export|import|stat|top)?"
        r"|ldap(?:search|add|modify|delete|passwd|compare|whoami|modrdn))\b[^\n]*?"
        r"[ \t](-p|-w)([ \t]*)" + _OPTION_VALUE,
        _ASSIGN,
        gates=(r"(?i)\b(?:sqlcmd|bcp|osql|mongo|ldap)",),
        key_kind=_PASSWORD_KEY,
    ),
    _Rule(
        "password-assignment",
        "password in a .netrc entry",
        r"(?i)\bmachine[ \t]+[^\s]+[ \t]+(?:login[ \t]+[^\s]+[ \t]+)?(password)([ \t]+)"
        + _OPTION_VALUE,
        _ASSIGN,
        gates=(r"(?i)\bmachine[ \t]",),
        key_kind=_PASSWORD_KEY,
    ),
    _Rule(
        "password-assignment",
        "password glued to an archive tool's option (`7z a -p…`, `rar a -hp…`)",
        r"(?i)\b(?:7z[arz]?|7zz|rar|unrar)\b[^\n]*?[ \t](-h?p)()" + _OPTION_VALUE,
        _ASSIGN,
        gates=(r"(?i)\b(?:7z[arz]?|7zz|rar|unrar)\b",),
        key_kind=_PASSWORD_KEY,
    ),
    _Rule(
        "password-assignment",
        "password passed to zip, unzip or openssl (`zip -P`, `openssl enc -k`)",
        r"\b(?:(?:un)?zip|openssl)\b[^\n]*?[ \t](-P|-k)([ \t]+)" + _OPTION_VALUE,
        _ASSIGN,
        gates=(r"(?:zip|openssl)\b",),
        key_kind=_PASSWORD_KEY,
    ),
    _Rule(
        "password-assignment",
        "password given by a single-dash option (`-passin pass:…`, `-storepass`, `-Password`)",
        r"(?i)(?:^|[ \t])(-[a-z]{0,12}pass(?:word|wd|phrase|in|out)?)([ \t]+|[=:])(?:[\"']?pass:)?"
        + _OPTION_VALUE,
        _ASSIGN,
        gates=(r"(?i)(?:^|[ \t])-[a-z]{0,12}pass",),
        key_kind=_PASSWORD_KEY,
    ),
    _Rule(
        "password-assignment",
        "password after a Samba user's name (`smbclient -U user%…`)",
        r"(?i)\b(?:smb[a-z]*|rpcclient|net|winexe|mount\.cifs)\b[^\n]*?[ \t](-U|--user(?:name)?)"
        r"(=|[ \t]*)[\"']?[^\s%\"']{1,64}%" + _OPTION_VALUE,
        _ASSIGN,
        gates=(r"(?i)(?:-U|--user)[^\n%]*%",),
        key_kind=_PASSWORD_KEY,
    ),
    _Rule(
        "password-assignment",
        "password given to a Windows remote desktop or credential tool (`xfreerdp /p:`)",
        r"(?i)\b(?:(?:x|wl|sdl-)?freerdp3?|cmdkey)\b[^\n]*?[ \t](/p(?:ass(?:word)?)?)(:)"
        + _OPTION_VALUE,
        _ASSIGN,
        gates=(r"(?i)(?:freerdp|cmdkey)",),
        key_kind=_PASSWORD_KEY,
    ),
    _Rule(
        "password-assignment",
        "password made a PowerShell SecureString (`ConvertTo-SecureString '…' -AsPlainText`)",
        r"(?i)\b(ConvertTo-SecureString)((?:[ \t]+-(?:AsPlainText|Force)(?::\$true)?)*"
        r"[ \t]+(?:-String[ \t]+)?)" + _OPTION_VALUE,
        _ASSIGN,
        gates=(r"(?i)ConvertTo-SecureString",),
        key_kind=_PASSWORD_KEY,
    ),
    _Rule(
        "password-assignment",
        "password in a server's configuration directive (`requirepass …`, `rootpw …`)",
        r"(?i)(?:^|[ \t\"'`\-])(requirepass|masterauth|rootpw|bindpw)([ \t]+)" + _OPTION_VALUE,
        _ASSIGN,
        gates=(r"(?i)(?:requirepass|masterauth|rootpw|bindpw)[ \t]",),
        key_kind=_PASSWORD_KEY,
    ),
    _Rule(
        "password-assignment",
        "password named in another language (`Passwort: …`, `mot de passe : …`)",
        rf"(?i)({_OTHER_LANGUAGE_PASSWORD})([ \t]*[:=][ \t]*)" + _VALUE,
        _ASSIGN,
        gates=(rf"(?i)(?:{_OTHER_LANGUAGE_PASSWORD})[ \t]*[:=]",),
        key_kind=_PASSWORD_KEY,
    ),
    _Rule(
        "kubernetes-secret",
        "value of a Kubernetes Secret (data: base64, stringData: plain)",
        r"(?im)^[ \t]*kind:[ \t]*[\"']?secret[\"']?[ \t]*$",
        _K8S,
        gates=(r"(?i)kind:[ \t]*[\"']?secret",),
    ),
    _Rule(
        "high-entropy-near-secret-word",
        "high-entropy string next to a secret word",
        rf"(?i)(?:{_SECRET_WORDS})[^\n]*[A-Za-z0-9+/_\-]{{20}}"
        rf"|[A-Za-z0-9+/_\-]{{20}}[^\n]*(?:{_SECRET_WORDS})"
        rf"|(?:{_SECRET_WORDS})[A-Za-z_]*[\"']?\s*[:=][ \t|>+\-]*\r?\n[ \t]*[\"']?"
        r"[A-Za-z0-9+/_\-]{20}",
        _ENTROPY,
        gates=(_ANY_SECRET_WORD, _RUN20),
    ),
    _Rule(
        "encoded-secret",
        "a base64 run",
        r"(?:[A-Za-z0-9+/]{16,}={0,2}[ \t]*\r?\n[ \t]*)*[A-Za-z0-9+/]{24,}={0,2}",
        _BASE64,
        gates=(r"[A-Za-z0-9+/]{24}",),
    ),
    _Rule("encoded-secret", "a hex run", r"\b[0-9a-fA-F]{32,}\b", _HEXRUN),
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

_RULES: tuple[_Rule, ...] = (
    *(
        _Rule(
            f.id, f.description, f.pattern, _TOKEN, family=f.family, check=f.check, gates=(f.gate,)
        )
        for f in secretrules.FORMATS
    ),
    *_STRUCTURAL,
)

_EXTRA_RULE_IDS = (
    "gcp-service-account-key",
    "hidden-unicode",
    "scan-size-cap",
)  # not from a pattern
_INTERNAL_RULE_IDS = frozenset({"encoded-secret"})  # decodes; reports what it finds inside


def rule_ids() -> tuple[str, ...]:
    """Every rule id this scanner can report, sorted (for docs and the tests)."""
    ids = {r.id for r in _RULES} - _INTERNAL_RULE_IDS
    return tuple(sorted(ids | set(_EXTRA_RULE_IDS)))


def rule_families() -> dict[str, str]:
    """Rule id -> the family of providers it belongs to (``generic`` for structural rules)."""
    families = {r.id: r.family for r in _RULES if r.id not in _INTERNAL_RULE_IDS}
    families.update({i: "generic" for i in _EXTRA_RULE_IDS})
    return families


# --------------------------------------------------------------------------------------------
# The compiled engine, built on first use.


class _Engine:
    """The compiled patterns: one Set over every distinct gate; each rule's own regex,
    compiled on need."""

    __slots__ = (
        *("_compile", "_gate_regexes", "_joint", "_regexes", "_solo"),
        *("candidates", "chain", "set", "words"),
    )

    def __init__(self, rule_set: Any, gates: list[str], compile_rule: Callable[[str], Any]) -> None:
        """`gates`: the Set's patterns in order, the rules' gates and then `_broken_prefix`."""
        self.set = rule_set
        self._compile = compile_rule
        self._regexes: list[Any] = [None] * len(_RULES)
        self._gate_regexes: dict[int, Any] = {}
        # the Set's patterns are the distinct gates, in order: which rules each one serves
        # alone (most rules have one gate), and the few rules that need several gates at once
        where = {gate: i for i, gate in enumerate(gates)}
        self._solo: list[tuple[int, ...]] = [() for _ in gates]  # the last serves no rule
        self._joint: list[tuple[int, tuple[int, ...]]] = []
        for index, rule in enumerate(_RULES):
            own = tuple(dict.fromkeys(where[g] for g in rule.gates))
            if len(own) == 1:
                self._solo[own[0]] += (index,)
            else:
                self._joint.append((index, own))
        self.words = compile_rule(_ANY_SECRET_WORD)  # for the entropy rule
        self.candidates = compile_rule(r"[A-Za-z0-9+/_\-]{20,}={0,2}")  # random-looking runs
        self.chain = compile_rule(_CHAIN)  # a token broken over lines (_wrapped)

    def rules_in(self, data: bytes) -> list[int]:
        """The rules that can match data (every gate matched), in rule order."""
        return self.match(data)[0]

    def match(self, data: bytes) -> tuple[list[int], bool]:
        """rules_in(data), and whether a line of data ends in the start of a token's prefix
        (`_broken_prefix`: the one pass looks for that too)."""
        matched = self.set.Match(data)
        if not matched:
            return [], False
        solo = self._solo
        found = [index for i in matched for index in solo[i]]
        seen = set(matched)
        found += [index for index, own in self._joint if all(g in seen for g in own)]
        found.sort()
        return found, len(solo) - 1 in seen

    def regex(self, index: int) -> Any:
        """Rule `index`'s own regex: most texts match few rules, so most are never compiled."""
        rx = self._regexes[index]
        if rx is None:
            rx = self._regexes[index] = self._compile(_RULES[index].pattern)
        return rx

    def gates_of(self, index: int) -> Any:
        """A regex matching any one of rule `index`'s gates (where a broken token's prefix
        stands), compiled on need."""
        rx = self._gate_regexes.get(index)
        if rx is None:
            either = "|".join(f"(?:{g})" for g in _RULES[index].gates)
            rx = self._gate_regexes[index] = self._compile(either)
        return rx


def _re2_options(max_mem: int | None = None) -> Any:
    """RE2's options for every pattern here: over bytes as Latin-1 (the patterns are ASCII,
    the text UTF-8), with max_mem when given. re2 is imported here: hooks that never scan do
    not pay for it."""
    import re2

    options = re2.Options()
    options.encoding = re2.Options.Encoding.LATIN1
    if max_mem is not None:
        options.max_mem = max_mem
    return options


@functools.cache
def _engine() -> _Engine:
    import re2

    rule_opts = _re2_options(8 << 20)
    # The Set runs one DFA for all gates; give it room so hostile text cannot exhaust it.
    rule_set = re2.Set.SearchSet(_re2_options(128 << 20))
    gates = list(dict.fromkeys(gate for rule in _RULES for gate in rule.gates))
    gates.append(_broken_prefix_pattern())
    for gate in gates:
        rule_set.Add(gate.encode("ascii"))
    rule_set.Compile()
    return _Engine(rule_set, gates, lambda pattern: re2.compile(pattern.encode("ascii"), rule_opts))


# --------------------------------------------------------------------------------------------
# Confirming candidates: placeholders, fillers, randomness. The judges of a value are pure
# functions of its bytes, kept per value: a candidate and the entry admitted from it hold the
# same values, and hostile text repeats one value thousands of times.

_PLACEHOLDER_MARKERS = (
    b"example",
    b"dummy",
    b"placeholder",
    b"changeme",
    b"change_me",
    b"change-me",
    b"changeit",
    b"replaceme",
    b"replace_me",
    b"replace-me",
    b"your-",
    b"your_",
    b"yourtoken",
    b"yourkey",
    b"yoursecret",
    b"yourpass",
    b"yourapi",
    b"redacted",
    b"****",
    b"####",
    b"${",
    b"{{",
    b"<",
    b">",
    b"...",
    b"\xe2\x80\xa6",  # …
    b"\xe2\x80\xa2\xe2\x80\xa2",  # ••
    b"1234567890",
    b"0123456789",
    b"abcdefghij",
    b"sample",
    b"notreal",
    b"not-real",
    b"not_real",
    b"goes_here",
    b"goes-here",
    b"token_here",
    b"key_here",
    b"secret_here",
)

# Short markers, matched in one case only: mixed-case random text holds `XxxX` now and then.
_CASED_MARKERS = tuple(
    form for m in (b"xxxx", b"fake", b"lorem", b"ipsum") for form in (m, m.upper(), m.title())
)


def _any_of(words: tuple[bytes, ...]) -> re.Pattern[bytes]:
    """One pattern that finds any of words in a text: whether a token is made up is asked of
    every match of every rule, and one search of an alternation costs a fraction of a
    substring test per word. The three below are compiled on first use: most texts a hook
    scans hold no token to ask about, and the hook should not pay for them as it imports the
    scanner. (A cache keyed by the word tuple cost more per call than the search: hashing
    the tuple.)"""
    return re.compile(b"|".join(re.escape(word) for word in words))


@functools.cache
def _placeholder_marker() -> re.Pattern[bytes]:
    return _any_of(_PLACEHOLDER_MARKERS)


@functools.cache
def _cased_marker() -> re.Pattern[bytes]:
    return _any_of(_CASED_MARKERS)


@functools.cache
def _counting_run() -> re.Pattern[bytes]:
    return _any_of(_counting_runs())


_PLACEHOLDER_VALUES = frozenset(
    b"""password passwd pass pwd secret secrets token key apikey api_key changeme changeit
    example test testing dummy placeholder redacted hidden masked none null nil true false
    yes no on off required optional string str bytes env value undefined todo tbd xxx foo bar
    baz foobar mysecret mypassword yourpassword yoursecret bearer basic
    digest oauth oauth2 jwt header cookie session ntlm kerberos saml oidc mtls sso ldap
    vault aws gcp azure github gitlab file path default auto enabled disabled admin root user
    username guest letmein qwerty mytoken usertoken apitoken accesstoken authtoken
    refreshtoken testtest secretkey secret_key privatekey private_key""".split()
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


@functools.lru_cache(maxsize=8192)
def _fake(secret: bytes, *, max_period: int = 16) -> bool:
    """A placeholder, a documented example, or a filler (see `_filler`; a password may repeat
    a word, so for one only chunks of up to `max_period=4` characters count)."""
    low = secret.lower()
    if _placeholder_marker().search(low):
        return True
    if _cased_marker().search(secret):  # `XxxX` or `fAkE` turns up in random text
        return True
    if secret[:1] in (b"$", b"%") or low in _PLACEHOLDER_VALUES:
        return True
    tail = secret[len(secret) // 3 :]
    if len(set(tail)) <= 2 or _filler(secret, max_period=max_period):
        return True
    # a token of parts (a JWT, `t1.…`, `sm_pat_…`) whose random part is made up is made up;
    # a part is judged alone from twelve characters on (one of a UUID's eight may repeat a
    # hex digit five times, a few keys in a thousand)
    parts = _PARTS.split(secret)
    return len(parts) > 1 and any(
        _filler(part, max_period=max_period)
        for part in parts[1:]
        if len(part) >= 12 and not part.isdigit()  # an account number is no filler
    )


_PARTS = re.compile(rb"[._\-]")


def _filler(value: bytes, *, max_period: int = 16) -> bool:
    """Obviously made up: one character over 40% or more of the value (60% of one under 16
    characters, where a random hex string may repeat a digit four times), a short chunk
    repeated over three quarters of it, two and a half times or more (`abcd1234abcd1234…`,
    `123123123…`; `hunter2hunter2` may be a password), or a counting run of six (`123456`,
    `abcdef`, `fedcba`). Random tokens do none of these: a run of six ascending characters
    turns up about once in 10^9 positions of a 62-letter alphabet."""
    v = value[:256]
    n = len(v)
    if n < 8:
        return False
    low = v.lower()
    if _counting_run().search(low):
        return True
    if max(Counter(v).values()) * 10 >= n * (4 if n >= 16 else 6):
        return True
    number = int.from_bytes(v, "big")
    for period in range(1, min(max_period, n * 2 // 5) + 1):
        # bytes equal to the one `period` places on are zero bytes of the XOR
        shifted = (number >> (8 * period)) ^ (number & ((1 << (8 * (n - period))) - 1))
        same = shifted.to_bytes(n - period, "big").count(0)
        if same * 4 >= (n - period) * 3:
            return True
    return False


def _counting_runs() -> tuple[bytes, ...]:
    runs = []
    for alphabet in (b"0123456789", b"abcdefghijklmnopqrstuvwxyz"):
        for i in range(len(alphabet) - 5):
            runs.append(alphabet[i : i + 6])
            runs.append(alphabet[i : i + 6][::-1])
    return tuple(runs)


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


@functools.lru_cache(maxsize=8192)
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
    if (lower or chars & _SEPARATORS) and _wordy(core) and not _cut_by_numbers(core):
        return False
    if _pathlike(core):
        return False
    return _entropy(core) >= _entropy_floor(n)


def _cut_by_numbers(value: bytes) -> bool:
    """Lower-case letters cut by three numbers or more, and no separator (`vdga8gxb…4hh53…`).

    In a value of one case `_wordy` takes every run of three letters for a word, so about a
    quarter of random lower-case-and-digit keys (a common shape: `[a-z0-9]{32}`) read as names
    and went unreported next to a secret word. A lower-case name holds one or two numbers
    (`base64urlencoded`, `ipv4toipv6`); a random value of twenty characters or more, a number
    every few letters. Measured: random `[a-z0-9]` values of 32 characters missed 22 % → 1.4 %;
    of the 30,000 names of twenty characters or more in Python's standard library, ten more read
    as random, all of them random test data or hex counting runs."""
    chars = set(value)
    return len(value) >= 20 and not chars & (_SEPARATORS | _UPPER) and _digit_runs(value) >= 3


_VOWELS = frozenset(b"aeiouyAEIOUY")


def _readable(body: bytes) -> bool:
    """Words rather than a generated string, for formats whose prefix may start ordinary text
    (`glimt-my-tokens_are-correct…`, `sk_test_ThisIsNotAKey`, `pat.some.thing`), or too little
    entropy to be random. Words: three or more `-`/`_`/`.` parts, most of them lower-case or
    capitalised letters holding a vowel; or three or more camel-case words (letters only)
    averaging three letters or more, most with a vowel. Random bodies almost never pass this: their
    parts mix cases and digits, and random capitals cut letters into words of about two
    (measured on the catalogue's shapes: under 0.5% of random tokens are read as words)."""
    n = len(body)
    if n >= 16 and _entropy(body) < 2.5:
        return True
    parts = [p for p in _PARTS.split(body) if p]
    if len(parts) >= 3:
        words = [p for p in parts if _word_like(p)]
        covered = sum(len(w) for w in words)
        if len(words) * 3 >= len(parts) * 2 and covered * 10 >= n * 6:
            return True
    camel = _CAMEL_WORDS.findall(body)
    if len(camel) < 3 or not body.isalpha():
        return False
    voiced = sum(bool(set(w) & _VOWELS) for w in camel)
    return sum(map(len, camel)) >= len(camel) * 3 and voiced * 5 >= len(camel) * 4


def _word_like(part: bytes) -> bool:
    return (
        len(part) >= 2
        and part.isalpha()
        and (part.islower() or part.istitle())
        and bool(set(part) & _VOWELS)
        and not set(part) <= _VOWELS
    )


_CAMEL_WORDS = re.compile(rb"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")


def _keyed_value(value: bytes) -> bool:
    """A value named by its provider's key: generated keys mix the character classes their
    alphabet has and spread over many distinct characters; fillers and placeholders do not.
    Laxer than `_looks_random` (the key already says what the value is), so that lower-case
    keys such as `[a-z0-9]{32}`, which read like words half the time, are still found."""
    core = value.rstrip(b"=")
    n = len(core)
    if n < 8:
        return False
    chars = set(core)
    if len(chars) < min(10, n // 3):
        return False
    classes = sum(bool(chars & s) for s in (_DIGITS, _LOWER, _UPPER))
    if classes >= 2:
        return True
    return n >= 20 and _entropy(core) >= 3.5


_SEPARATORS = frozenset(b"_-./+")


_BIT_SIZES = frozenset(b"16 32 64 96 128 160 192 224 256 384 448 512 521".split())


def _wordy(value: bytes) -> bool:
    """An identifier made of words (`MalwareDomainsStrict`, `OID_ECDSA_WITH_SHA256`).

    Random strings rarely hold three letters of one case in a row; names are mostly words. So:
    at least 70 % of the letters and digits sit in words (`_reads_as_word`: three letters or
    more of one case, a capital starting a lower-case run belonging to it) or in numbers of
    four digits or more (`gh24141`, `2025`). Or: snake_case or kebab-case of three or more
    parts, each a word, a number, or a word and a number (`test_case_sha3_512_0`).
    """
    parts = value.replace(b"-", b"_").split(b"_")
    if len(parts) >= 3 and all(_segments(p) <= 2 for p in parts):
        return True
    tokens = _CAMEL_WORDS.findall(value)
    alnum = sum(map(len, tokens))
    both_cases = value.lower() != value and value.upper() != value
    in_words = sum(len(t) for t in tokens if _reads_as_word(t, both_cases=both_cases))
    if not both_cases:
        # a size in bits after a word, as algorithms, hashes and curves are named (`SHA384`,
        # `secp521r1`, `aes128-gcm`): any number after a word would make random values of
        # one case read as names too often
        in_words += sum(
            len(t) for w, t in itertools.pairwise(tokens) if t in _BIT_SIZES and w.isalpha()
        )
    return alnum > 0 and in_words * 10 >= alnum * 7


def _reads_as_word(token: bytes, *, both_cases: bool) -> bool:
    """Whether one `_CAMEL_WORDS` token of a name is a word or a long number.

    In a value of both cases a run of letters must also read like a word: hold a vowel, or be
    an acronym of up to five capitals (`HTTPS`, `SQL`). Random letters of both cases cut into
    runs of three or more often enough (`YBYTRKS`, `Tphhh`, `Jgpvxq`) that without this a
    sixth of random mixed-case values with a digit or two were read as names (one in sixteen
    now); in a value of one case (`handle_xmlrpc`, `HAVE_WCSXFRM`) the runs are the words,
    vowels or not. The price: a name with a vowelless abbreviation (`CrtCrc32Checksum`,
    `PyStdPrinter_Type`) reads as random more often, 663 rather than 583 of the 147,000 names
    of sixteen characters or more in Python's standard library."""
    if token[:1].isdigit():
        return len(token) >= 4
    if len(token) < 3:
        return False
    return not both_cases or bool(set(token) & _VOWELS) or (token.isupper() and len(token) <= 5)


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


def _masked(value: bytes) -> bool:
    return value.count(b"*") >= 3 or value.count(b"\xe2\x80\xa2") >= 3  # ****, •••


# --------------------------------------------------------------------------------------------
# Keys and assigned values.

# A key's words (a key is short: Python's re is fine and linear on it).
_WORD_SPLIT = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_PASSWORD_WORDS = _words(
    "password passwd passphrase passcode pass pwd pw secret secrets credential credentials "
    "creds cred"
)
_TOKEN_WORDS = _words("token tokens key keys apikey auth bearer")
_PASSWORD_ENDINGS = ("password", "passwd", "passphrase", "secret", "credential", "credentials")
_TOKEN_ENDINGS = ("token", "apikey", "accesskey", "secretkey", "privatekey", "authkey")
_KEY_COMPOUNDS = _words(
    "api access secret private signing sign master encryption enc crypt license auth app "
    "consumer session client ssh gpg pgp hmac jwt deploy service account storage admin root "
    "subscription webhook cookie shared psk priv"
)
# ordinary words that end like a secret word
_LOOK_ALIKES = _words(
    "bypass compass encompass surpass trespass overpass underpass monkey turkey donkey hockey "
    "jockey whiskey hotkey passkey"
)
# A word after the secret word that makes the key name something else: `token_url`,
# `secret_name`, `password_file`, `key_id`, `KeyVault…`.
_QUALIFIERS = _words(
    """id ids name names url urls uri endpoint host hostname file files filename path paths
    dir directory length len size type types kind mode format version count index prefix
    suffix field fields header headers param params var variable env ref reference alias
    label policy rotation expiry expires expiration expire expired ttl timeout lifetime age
    limit location region provider manager scope scopes audience issuer algorithm alg usage
    enabled enable disabled required regex pattern placeholder text hint message msg
    description title column vault store ring pair board code press pressed down up left
    right frame frames mesh selector stone word words hash hashed digest checksum fingerprint
    schema spec handler validator validation generator factory helper class method function
    callback event events list map set table cache source status state error errors reset
    forgot change changed confirm strength complexity reminder input form button rule rules
    history last created updated date time seconds minutes hours days count number num flag
    is has use used allow allowed exchange request response service endpoint arn secret_arn
    location storetype tab chain length plugin module ui page view button icon image"""
)
# A word right before the secret word that makes it something else: `public_key`,
# `primary_key`, `csrf_token`, `max_tokens`, `next_token`.
_PREFIX_QUALIFIERS = _words(
    """public pub primary foreign partition sort hot idx index natural schema sequence bucket
    cache lookup unique composite csrf xsrf max min num next page continuation cursor sync
    shortcut map dict row column foreign surrogate candidate object s3 range routing group
    grouping dedupe dedup idempotency lock mutex shard secondary child parent entity record
    item property prop translation i18n cdn sitekey site recaptcha captcha registry
    verification publishable anon anonymous client_id input output"""
)


def _key_words(key: bytes) -> list[str]:
    """A key's name as lower-case words: `mySecretString` -> my, secret, string."""
    return [w.lower() for w in _WORD_SPLIT.findall(key.decode("ascii", "replace"))]


def _secret_word(word: str) -> int:
    """What one word of a key names: _PASSWORD_KEY, _TOKEN_KEY or _NOT_SECRET."""
    if word in _LOOK_ALIKES:
        return _NOT_SECRET
    if word in _PASSWORD_WORDS or (word.endswith(_PASSWORD_ENDINGS) and len(word) > 6):
        return _PASSWORD_KEY
    if len(word) <= 8 and word.endswith(("pass", "pwd")) and word not in _LOOK_ALIKES:
        return _PASSWORD_KEY  # dbpass, sqlpwd
    if word in _TOKEN_WORDS or word.endswith(_TOKEN_ENDINGS):
        return _TOKEN_KEY
    if word.endswith("key") and word[:-3] in _KEY_COMPOUNDS:
        return _TOKEN_KEY
    return _NOT_SECRET


@functools.lru_cache(maxsize=8192)
def _key_kind(key: bytes) -> int:
    """What a key names: `db_password` a password, `GITHUB_TOKEN` a token, `token_url` or
    `public_key` neither."""
    words = _key_words(key)
    kinds = [_secret_word(w) for w in words]
    secret_at = [i for i, k in enumerate(kinds) if k]
    if not secret_at:
        return _NOT_SECRET
    first = secret_at[0]
    if any(w in _QUALIFIERS for w in words[first + 1 :]):
        return _NOT_SECRET
    if first and words[first - 1] in _PREFIX_QUALIFIERS:
        return _NOT_SECRET
    if first > 1 and f"{words[first - 2]}_{words[first - 1]}" in _PREFIX_QUALIFIERS:
        return _NOT_SECRET
    return max(kinds[i] for i in secret_at)


def _key_before(data: bytes, at: int) -> bytes:
    """The identifier that runs through `at`, from its start to its end (at most 64
    characters either side: a key is a name, and the work stays linear)."""
    start, first = at, max(0, at - 64)
    while start > first and data[start - 1] in _KEY_CHARS:
        start -= 1
    end, last = at, min(len(data), at + 64)
    while end < last and data[end] in _KEY_CHARS and data[end] not in b"$@":
        end += 1
    return data[start:end].lstrip(b"$@")


_KEY_CHARS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-$@")


_REFERENCE_STARTS = (
    b"$",
    b"%",
    b"#{",
    b"{{",
    b"<",
    b"&",
    b"ENC[",
    b"vault:",
    b"op://",
    b"arn:",
    b"sm://",
    b"ref+",
    b"env:",
    b"file:",
    b"keyvault:",
    b"secretsmanager",
    b"projects/",
    b"azurekeyvault",
    b"akv://",
    b"gcp-secret",
    b"secret://",
    b"data.",
    b"var.",
    b"local.",
)
_FUNCTION_WORDS = _words(
    """the a an to of in on for with and or is are be it this that from by at as use see set
    not no your you we our will can should must please enter here value default same new
    old when if then than into via per"""
)


def _reference(value: bytes) -> bool:
    """A reference to a secret kept elsewhere, not the secret: a variable, a template, a
    secret manager's address, an expression."""
    if value[:1] in (b"@", b"!"):
        if _sigil_reference(value):
            return True
        value = value.lstrip(b"@!")
    if value.startswith(_REFERENCE_STARTS) or b"${" in value or b"{{" in value:
        return True
    return b"%(" in value or b"#{" in value or b"@{" in value or b"$(" in value


def _sigil_reference(value: bytes) -> bool:
    """Whether a value starting with `@` or `!` is a reference: an Azure Key Vault reference
    (`@Microsoft.KeyVault(…)`), a Ruby or SQL variable (`@db_password`), a YAML tag (`!Ref
    Param`, `!secret name`, `!!binary`), a build's token (`@DB_PASSWORD@`). Generated
    passwords start with these characters too, a policy asking for a symbol often putting it
    first (`@Pj3yp!!i8lWY7Z`): after the sigil, a reference is a name, a call or a tag with
    its argument, and a password is not."""
    rest = value.strip(b"@!")  # `@DB_PASSWORD@`: a build's token to replace, as Ant writes one
    if not rest or any(c in rest for c in b" \t(){}[]<>/.:"):
        return True  # a call, a template, a tag's argument; an address (`@host.example/…`)
    if re.fullmatch(rb"[A-Za-z_][\w\-]*", rest):
        return len(rest) < 8 or _wordy(rest)  # a name is made of words; a password is not
    return False


def _identifier(value: bytes) -> bool:
    """A name in code rather than a secret: `settings.DATABASE_PASSWORD`, `DB_PASSWORD`,
    `real_key`, `api_token`, `X25519.secret_length`."""
    text = value.decode("ascii", "replace")
    if not re.fullmatch(r"[A-Za-z_$][\w$]*(?:[.:][A-Za-z_$][\w$]*)*", text):
        return False
    parts = re.split(r"[.:]", text)
    if len(parts) > 1 and all(_wordy(p.encode()) or len(p) <= 3 for p in parts):
        return True  # a dotted name: module.attribute, this.token
    if re.fullmatch(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+", text) and _wordy(value):
        return True  # an environment variable's name
    words = _key_words(value)
    if len(words) >= 2 and ("_" in text or text != text.lower()):
        # a snake_case or camelCase name with a secret word in it: a name for a secret
        return any(_secret_word(w) for w in words) and _wordy(value)
    return False


def _passphrase(value: bytes) -> bool:
    """A quoted password with spaces, rather than a sentence: two to six words, none of them
    the little words prose is made of, not ending like a sentence."""
    words = value.decode("utf-8", "replace").split()
    if not 2 <= len(words) <= 6 or value.rstrip()[-1:] in (b".", b"?", b":"):
        return False
    if any(c in value for c in b"()[]{};=<>") or b" + " in value or b" . " in value:
        return False  # code between two string literals: `" + getPassword() + "`
    if any(w.lower().strip(",;") in _FUNCTION_WORDS for w in words):
        return False
    return sum(len(w) for w in words) >= 8


def _generated(value: bytes) -> bool:
    """A value that looks machine-made, as a token or key is: a UUID, or twelve characters or
    more, random-looking or mixing letters and digits, that are not a name made of words
    (`sessionTimeout30s`, `utf8mb4_unicode_ci`, `test_case_sha3_512_0`); a value of letters
    only must be long, of both cases, and read as no words."""
    if _uuid(value):
        return True
    chars = set(value)
    if len(value) < 12 or len(chars) < 8 or not chars & (_LOWER | _UPPER):
        return False
    if _named(value) or _separated_words(value):
        return False
    if _looks_random(value):
        return True
    if not chars & _DIGITS:
        return (
            len(value) >= 20
            and bool(chars & _LOWER and chars & _UPPER)
            and not _readable(value)
            and not _wordy(value)
        )
    return not _wordy(value) or _digit_runs(value) >= 3


def _digit_runs(value: bytes) -> int:
    return sum(1 for t in _CAMEL_WORDS.findall(value) if t[:1].isdigit())


def _named(value: bytes) -> bool:
    """A name made of words and a few numbers: its letters, most of them, in words of four
    letters on average (random capitals cut a random string into words of about two), each
    longer word with a vowel, and at most two numbers."""
    tokens = _CAMEL_WORDS.findall(value)
    words = [t for t in tokens if t.isalpha()]
    if len(words) < 2 or len(tokens) - len(words) > 2:
        return False
    letters = sum(map(len, words))
    if letters * 10 < len(value) * 7 or letters < len(words) * 4:
        return False
    return all(len(w) <= 2 or set(w) & _VOWELS for w in words)


def _separated_words(value: bytes) -> bool:
    """snake_case, kebab-case or dotted: three or more parts, each a word, a number, or a word
    and a number (`test_case_sha3_512_0`); random parts mix more classes than that."""
    parts = [p for p in _PARTS.split(value) if p]
    return (
        len(parts) >= 3
        and all(_segments(p) <= 2 for p in parts)
        and any(len(p) >= 3 and p.isalpha() for p in parts)
    )


@functools.lru_cache(maxsize=8192)
def _assigned_secret(value: bytes, *, quoted: bool, kind: int, loose_op: bool) -> bool:
    """Whether a value assigned to a secret-like key is a literal secret rather than a
    reference, a placeholder, a name or prose.

    `kind`: what the key names (a password key takes any literal that is not a name; a token
    key wants a generated-looking value). `loose_op`: the operator is one prose also uses
    (`,`), so the value must look generated whatever the key."""
    value = value.strip().rstrip(b"\\")
    if len(value) > 2 and value[:1] in b"\"'`" and value[-1:] == value[:1]:
        value = value[1:-1]  # quoted twice: `'"951bc…"'` in a Gradle buildConfigField
    if not quoted and not value.isascii() and _spaced(value):
        # a bare value ends at a space: a no-break or thin space too (`see\u00a0the\u00a0vault`)
        value = (value.decode("utf-8", "replace").split() or [""])[0].encode()
    if not quoted and value.endswith(b".") and not value.endswith(b".."):
        value = value[:-1]
    if _length(value) < 4 or len(value) > 512:
        return False
    if _masked(value) or _reference(value) or value.startswith(_PUBLIC_PREFIXES):
        return False
    # a made-up token is a filler; a password may repeat a word (`hunter2hunter2hunter2`)
    if _fake(value, max_period=4 if kind == _PASSWORD_KEY and not loose_op else 16):
        return False
    low = value.lower()
    if low in _PLACEHOLDER_VALUES or value.replace(b".", b"", 1).lstrip(b"-+").isdigit():
        return False
    if value.startswith((b"/", b"./", b"../", b"~/", b"\\")) or b"://" in value:
        return False  # a path or a URL: the URL rule judges URLs
    if value[1:3] == b":\\" or value.endswith(b":"):
        return False  # a Windows path; a YAML key on the next line
    if _qualified_name(value) or _source_path(value):
        return False  # `Secret::Manager::fetch` after its key's `::`; `pkg/tokenCache.rs`
    if b" " in value or b"\t" in value or (quoted and not value.isascii() and _spaced(value)):
        return quoted and kind == _PASSWORD_KEY and not loose_op and _passphrase(value)
    if any(c in value for c in b"()[]{}") and (
        not (quoted and kind == _PASSWORD_KEY) or re.search(rb"\w\(|^[\[{(]", value)
    ):
        return False  # code: a call, an index, a template
    if _identifier(value):
        return False
    if loose_op or kind == _TOKEN_KEY:
        return _generated(value)
    # a password or secret key
    if quoted:
        return _length(value) >= 6 or _mixed(value)
    if _length(value) < 6:
        return False
    bare = value.replace(b"_", b"").replace(b".", b"").replace(b"-", b"")
    if bare.isalpha() or (not bare.isascii() and _prose_word(bare)):
        return False  # an identifier or a word: `password = user_password`, `secret: rotate`
    return _mixed(value) or _generated(value)


#: Punctuation an editor or a writer puts inside and around words where plain text has `'`,
#: `"`, `-` or `...`: curly quotes and apostrophes, primes, guillemets, hyphens and dashes, an
#: ellipsis. In prose they join a word's letters (`don’t`, `self‑hosted`, `wait…`) as `_`
#: and `-` join an identifier's.
_TYPOGRAPHIC = (
    "\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f\u2032\u2033\u02bc\u00ab\u00bb\u2039\u203a"
)
_TYPOGRAPHIC += "\u2010\u2011\u2012\u2013\u2014\u2015\u2026\u00b7"
_TYPOGRAPHIC_MAP = str.maketrans("", "", _TYPOGRAPHIC)
#: opening curly quotes and the quote that closes each (German and Polish open low)
_CURLY_PAIRS = {
    "\u201c": "\u201d", "\u2018": "\u2019", "\u201e": "\u201c\u201d", "\u201a": "\u2018\u2019",
    "\u00ab": "\u00bb", "\u00bb": "\u00ab", "\u2039": "\u203a", "\u203a": "\u2039",
}  # fmt: skip


def _length(value: bytes) -> int:
    """Characters, not bytes: `don’t` is five long, as `don't` is."""
    return len(value) if value.isascii() else len(value.decode("utf-8", "replace"))


def _prose_word(value: bytes) -> bool:
    """A word of prose in any script, typographic punctuation inside it or around it included
    (`You’re`, `naïve`, `später`, `L’Oréal`, `well‐known`): letters only, once the punctuation
    that joins words is set aside. A password holding such a character is still judged by its
    other characters, as one holding `_` or `-` is: `7fK’q9zR2w` mixes cases and digits."""
    text = value.decode("utf-8", "replace").translate(_TYPOGRAPHIC_MAP)
    return text.isalpha()


def _spaced(value: bytes) -> bool:
    """Whether a value holds a space other than an ASCII one (a no-break or thin space)."""
    return any(c.isspace() for c in value.decode("utf-8", "replace"))


def _curly_quoted(data: bytes, start: int, end: int) -> tuple[int, int, bool] | None:
    """A bare value that opens with a curly quote (`“Use the vault”`, `„geheim“`), read as the
    same value in straight quotes would be: up to the quote that closes it on the line (then
    quoted), or, with no closing quote, without its opening one. None when the value opens
    with no curly quote. The value regex ends a bare value at a space, so this looks on in
    the line, at most 512 bytes: an assigned value is never longer."""
    head = data[start : start + 3].decode("utf-8", "ignore")[:1]
    closers = _CURLY_PAIRS.get(head)
    if closers is None:
        return None
    inner = start + len(head.encode())
    eol = data.find(b"\n", inner, inner + 513)
    tail = data[inner : inner + 513 if eol < 0 else eol].decode("utf-8", "ignore")
    close = min((i for i in (tail.find(c) for c in closers) if i >= 0), default=-1)
    if close < 0:
        return inner, max(inner, end), False
    return inner, inner + len(tail[:close].encode()), True


_SCOPED = re.compile(rb":[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*")


def _qualified_name(value: bytes) -> bool:
    """The rest of a qualified name whose first part holds a secret word (`Secret::Manager`,
    `pass_cache::evict_all`): the assignment rule reads the first `:` of a C++, Rust, Ruby or
    Perl scope operator as its operator, and the value then starts with the second. Each part
    is a name made of words; a generated value after `::` is still judged."""
    if not _SCOPED.fullmatch(value):
        return False
    return all(len(p) <= 3 or _wordy(p) for p in value[1:].split(b"::"))


_SOURCE_PATH = re.compile(rb"(?:[A-Za-z_][\w\-]*/)+[A-Za-z_][\w\-]*(?:\.[a-z][a-z0-9]{0,3})+")
_EXTENSIONS = re.compile(rb"(?:\.[a-z][a-z0-9]{0,3})+(?![\w/])")


def _source_path(value: bytes) -> bool:
    """A relative path to a file, `dir/name.ext` (`src/tknCchMgr.rs`, `generic/tclCmdsSZ.c`):
    folders and a name that start with a letter and hold no other punctuation than `_` and
    `-`, then an extension of lower-case letters, the folders named in words. Base64 has no
    `.`, base64url and hex no `/`; a file's name abbreviated (`tclCmdsSZ`) reads as random as
    a token does, so only the folders are asked to read as names."""
    if _SOURCE_PATH.fullmatch(value) is None:
        return False
    return all(len(p) <= 3 or _wordy(p) for p in value.split(b"/")[:-1])


def _mixed(value: bytes) -> bool:
    """At least two of lower case, upper case, digits, punctuation (other than _ - .)."""
    chars = set(value)
    punct = chars - _DIGITS - _LOWER - _UPPER - set(b"_-.")
    classes = sum(bool(chars & s) for s in (_DIGITS, _LOWER, _UPPER)) + bool(punct)
    return classes >= 2 and len(value) >= 6


# --------------------------------------------------------------------------------------------
# Hits: a finding before its line number and fingerprint are known.


class _Hit:
    """A finding before its line number and fingerprint are known; offsets are in bytes."""

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


class _Scan:
    """One text's scan: the engine, how deep in decoded text it is, and the decoding budget
    it shares with the scans of what it decodes."""

    __slots__ = ("budget", "depth", "eng")

    def __init__(self, eng: _Engine, depth: int = 0, budget: list[int] | None = None) -> None:
        self.eng = eng
        self.depth = depth
        self.budget = budget if budget is not None else [MAX_DECODED_CHARS]

    def deeper(self) -> _Scan:
        return _Scan(self.eng, self.depth + 1, self.budget)


_Handler = Callable[[_Rule, Any, bytes, list[_Hit], _Scan], None]


def _group(m: Any, n: int) -> tuple[int, int] | None:
    if m.re.groups >= n and m.start(n) >= 0:
        return int(m.start(n)), int(m.end(n))
    return None


def _secret_span(m: Any) -> tuple[int, int]:
    return _group(m, 1) or (int(m.start()), int(m.end()))


_FILLERS_AFTER = (b"###", b"***", b"...", b"xxx", b"XXX", b"\xe2\x80\xa6")


def _filler_after(data: bytes, end: int) -> bool:
    """A placeholder's filler right after a match (`xoxp-1234-####`, `eyJ….eyJ…###`)."""
    return data[end : end + 3] in _FILLERS_AFTER


def _handle_token(rule: _Rule, rx: Any, data: bytes, hits: list[_Hit], scan: _Scan) -> None:
    for m in rx.finditer(data):
        s, e = _secret_span(m)
        secret = data[s:e]
        body_span = _group(m, 2)
        body = data[body_span[0] : body_span[1]] if body_span else secret
        if _fake(secret) or (body is not secret and _fake(body)):
            continue
        if _filler_after(data, e):
            continue  # `xoxp-…-####`: the rest of a placeholder
        if rule.check == RANDOM and _readable(body):
            continue
        if rule.check == KEYED and (
            not _keyed_value(body) or _key_kind_of_keyed(data, int(m.start())) is None
        ):
            continue
        hits.append(_Hit(s, e, rule.tier, rule.id, _redact(secret), rule.description))


def _key_kind_of_keyed(data: bytes, at: int) -> int | None:
    """None when the provider's key names something other than a secret (`HEROKU_APP_ID`,
    `stripe_public_key`); the provider's name alone counts as naming its secret."""
    key = _key_before(data, at)
    words = _key_words(key)
    if any(w in _QUALIFIERS for w in words[1:]) or (
        words and words[-1] in _PREFIX_QUALIFIERS | {"public", "pub", "publishable"}
    ):
        return None
    if any(w in ("public", "publishable", "pub", "client_id") for w in words):
        return None
    return _TOKEN_KEY


_NON_B64 = bytes(
    c
    for c in range(256)
    if c not in b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="
)
_PEM_WINDOW = 64 * 1024


def _handle_pem(rule: _Rule, rx: Any, data: bytes, hits: list[_Hit], scan: _Scan) -> None:
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
        if len(payload) < (40 if putty else 64) or len(set(payload)) < 16:
            continue
        # A body encodes a binary structure whose fixed header (OpenSSH's `openssh-key-v1`,
        # `none`, `none` and its zero-padded counts) looks like filler in base64: only a body
        # made up at both ends is a placeholder.
        tail = payload.rstrip(b"=")[-64:]
        if _fake(payload[:64]) and _fake(tail):
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


def _b64decode(data: bytes) -> bytes:
    """Lenient base64 (standard or URL-safe, padding optional, stray characters skipped)."""
    import binascii

    data = data.translate(_URLSAFE_TO_STD)
    data = data[: len(data) - len(data) % 4] if len(data) % 4 == 1 else data
    try:
        return binascii.a2b_base64(data + b"=" * (-len(data) % 4), strict_mode=False)
    except (binascii.Error, ValueError):
        return b""


_URLSAFE_TO_STD = bytes.maketrans(b"-_", b"+/")


def _handle_jwt(rule: _Rule, rx: Any, data: bytes, hits: list[_Hit], scan: _Scan) -> None:
    """A JWS: a header naming its algorithm, then a JSON payload (a signature may follow).
    The header is decoded leniently: a token with a damaged header still names `"alg"`."""
    import hashlib

    for m in rx.finditer(data):
        s, e = _secret_span(m)
        token = data[s:e]
        head = _b64decode(token.split(b".", 1)[0][:4096])
        if b'"alg"' not in head[:256].replace(b" ", b""):
            continue
        if hashlib.sha256(token).hexdigest() in _KNOWN_EXAMPLES or _fake(token):
            continue
        if _filler_after(data, e):
            continue
        hits.append(_Hit(s, e, 0, rule.id, _redact(token), rule.description))


def _handle_url(rule: _Rule, rx: Any, data: bytes, hits: list[_Hit], scan: _Scan) -> None:
    """A URL's password (`user:password@`), or with `RANDOM` its user alone when it looks
    generated (`https://<token>@host`, how forges take a token; a name is no secret)."""
    for m in rx.finditer(data):
        user, password = m.group(2), m.group(3)
        if rule.check == RANDOM and not _looks_random(password):
            continue
        if (
            len(password) < 3
            or password == user
            or _fake(password)
            or _masked(password)
            or password[:1] in (b"{", b"[", b"(", b":")
            or password.split(b"#", 1)[0].isdigit()  # a port, then a fragment: `host:80#a@b`
        ):
            continue
        scheme = m.group(1).decode("ascii", "replace").lower()
        s, e = int(m.start(3)), int(m.end(3))
        hits.append(_Hit(s, e, 1, rule.id, _redact(password), f"password in a {scheme}:// URL"))


_CURL_PLACEHOLDERS = frozenset(
    b"pass password passwd pwd test token secret changeme changeit apikey api_key key".split()
)


def _handle_curl(rule: _Rule, rx: Any, data: bytes, hits: list[_Hit], scan: _Scan) -> None:
    """`curl -u user:password` (or `--user`), quoted any way a shell allows."""
    for m in rx.finditer(data):
        s, e = int(m.start(1)), int(m.end(1))
        word = data[s:e].replace(b'"', b"").replace(b"'", b"")
        user, colon, password = word.partition(b":")
        if not colon:
            continue
        secret = password
        if not password:  # `-u "key:"`: an API key as the user name
            secret = user
            if not _generated(user):
                continue
        if secret.startswith(b"{") and secret.endswith(b"}") and not secret.startswith(b"{{"):
            secret = secret[1:-1]
        if (
            len(secret) < 3
            or secret == user
            or secret.lower() in _CURL_PLACEHOLDERS
            or secret.lower() in _PLACEHOLDER_VALUES
            or _fake(secret)
            or _masked(secret)
            or _reference(secret)
            or _reference(user)
            or secret[:1] in (b"[", b"(")
        ):
            continue
        hits.append(_Hit(s, e, rule.tier, rule.id, _redact(secret), rule.description))


def _handle_header(rule: _Rule, rx: Any, data: bytes, hits: list[_Hit], scan: _Scan) -> None:
    """An Authorization header's credentials, or an API key in a request header."""
    for m in rx.finditer(data):
        scheme = (m.group(1) or b"").strip().lower()
        s, e = int(m.start(2 if m.re.groups == 2 else 3)), int(m.end(2 if m.re.groups == 2 else 3))
        value = data[s:e]
        if _fake(value) or _masked(value) or _reference(value) or len(value) < 8:
            continue
        if scheme == b"basic":
            decoded = _b64decode(value)
            if len(decoded) < 3 or not decoded.isascii():
                continue
        elif not (_generated(value) or (_mixed(value) and not _readable(value))):
            continue
        hits.append(_Hit(s, e, rule.tier, rule.id, _redact(value), rule.description))


def _handle_assign(rule: _Rule, rx: Any, data: bytes, hits: list[_Hit], scan: _Scan) -> None:
    """A value assigned to a key that names a secret (group 1 the key, group 2 the operator,
    groups 3-6 the value: double-, single- or back-quoted, or bare)."""
    for m in rx.finditer(data):
        value_group = next((g for g in range(3, min(6, m.re.groups) + 1) if m.start(g) >= 0), None)
        if value_group is None:
            continue
        kind = rule.key_kind
        if kind == _OPTION_KEY:
            kind = _option_kind(m.group(1))
        elif kind < 0:
            kind = _key_kind(_key_before(data, int(m.start(1))))
        if kind == _NOT_SECRET:
            continue
        quoted = value_group < 6
        s, e = int(m.start(value_group)), int(m.end(value_group))
        if not quoted and data[s] >= 0x80:
            curly = _curly_quoted(data, s, e)
            if curly is not None:
                s, e, quoted = curly
        op = m.group(2).strip() if m.start(2) >= 0 else b""
        value = data[s:e]
        if not _assigned_secret(value, quoted=quoted, kind=kind, loose_op=op == b","):
            continue
        hits.append(_Hit(s, e, 2, rule.id, _redact(value.strip()), rule.description))


_VALUE_OPTIONS = frozenset(_VALUE_OPTION_WORDS.split("|"))


@functools.lru_cache(maxsize=1024)
def _option_kind(name: bytes) -> int:
    """What a long option's value is to the assignment rules: a token (its value must look
    generated) when the option names a secret as a key would (`--db-password`,
    `--github-token`; not `--token-file`, `--secret-id`) or carries the value a program is to
    keep (`--value`, `--body`, `--from-literal`); nothing otherwise. Never a password's laxer
    judgement, which takes any literal: an option that takes no value (`--ask-vault-pass`) is
    followed by an argument (`site-2024.yml`), which must look generated to count."""
    words = _key_words(name)
    if _key_kind(name) != _NOT_SECRET or (words and words[-1] in _VALUE_OPTIONS):
        return _TOKEN_KEY
    return _NOT_SECRET


#: one `NAME=value` argument of a setting command (the value as _OPTION_VALUE takes it)
_SETTING_ARG = re.compile(
    rb"(?:^|[ \t])([A-Za-z_][\w.\-]{0,63})=(?:\"([^\"\n]*)\"|'([^'\n]*)'|([^\s\"'`,;]+))"
)


def _handle_setting(rule: _Rule, rx: Any, data: bytes, hits: list[_Hit], scan: _Scan) -> None:
    """The `NAME=value` arguments of a command that sets values (`heroku config:set`, `vault
    kv put`, `helm --set`, `docker run -e`): a value that looks generated is a secret, as a
    token key's would be, whatever its name (a name that says what else it is, `SESSION_ID`,
    `BUILD_HASH`, aside; a name that says it is a secret is the assignment rule's). The match
    is the rest of the line, so each line is read once."""
    for m in rx.finditer(data):
        s = int(m.start())
        for arg in _SETTING_ARG.finditer(data, s, int(m.end())):
            key = arg.group(1)
            if any(w in _QUALIFIERS for w in _key_words(key)):
                continue
            group = next(g for g in (2, 3, 4) if arg.start(g) >= 0)
            vs, ve = arg.start(group), arg.end(group)
            value = data[vs:ve]
            if _object_id(value) or not _assigned_secret(
                value, quoted=group < 4, kind=_TOKEN_KEY, loose_op=False
            ):
                continue
            hits.append(_Hit(vs, ve, rule.tier, rule.id, _redact(value), rule.description))


def _object_id(value: bytes) -> bool:
    """A git object id or a SHA-256 digest: 40 or 64 hex digits."""
    return len(value) in (40, 64) and set(value) <= _HEX


_GIT_CONTEXT = (
    *(b"commit", b"sha", b"hash", b"revision", b"rev ", b"merge", b"digest", b"checksum"),
    b"pinned",
)
_WORD_WINDOW = 80


def _handle_entropy(rule: _Rule, rx: Any, data: bytes, hits: list[_Hit], scan: _Scan) -> None:
    """Random-looking strings within a few words of a secret word, or under a `key:` line.

    The rule's pattern finds candidate lines; each line is then examined once: its secret words
    and its long runs, paired by distance with a binary search (linear-log, whatever the line).
    """
    eng = scan.eng
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
    sops = _sops_values(line) if _SOPS_ENVELOPE in line else []
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
        if token.startswith(_PUBLIC_PREFIXES) or _uuid(token) or not _looks_random(token):
            continue
        if token.startswith((b"eyJ", b"ewo")) and line[ce : ce + 1] == b".":
            continue  # a JWT's header: the JWT rule judges the whole token
        if _placeholder_word(line, cs, ce):
            continue  # part of a larger placeholder: `t1.<random>.xxxxxxxx`
        ext = _EXTENSIONS.match(line, ce) if b"/" in token else None
        if ext is not None and _source_path(token + ext.group()):
            continue  # a source file's path, its extension after the run: `lib/kvSecRdr.go`
        if _value_of_other_key(line, cs):
            continue  # `primary_key = …`, `next_page_token: …`: named, but no secret
        if _fake(token):
            continue
        if sops and _inside(sops, cs):
            continue  # ciphertext SOPS wrote: random by design, and no secret
        if set(token) <= _HEX and (git_context or _pinned_object_id(line, cs, ce)):
            continue
        found.append((cs, ce, _redact(token)))
    return tuple(found)


#: How SOPS opens an encrypted value (github.com/getsops/sops, "Encrypted file format"):
#: `ENC[AES256_GCM,data:…,iv:…,tag:…,type:…]`.
_SOPS_ENVELOPE = b"ENC[AES256_GCM,"


def _sops_values(line: bytes) -> list[tuple[int, int]]:
    """The spans of the values SOPS encrypted in a line (`db-password: ENC[AES256_GCM,data:…]`):
    their data, initialisation vector and tag are random by design and made to be committed
    beside the key they are under, so nothing inside one is a secret. One pass over the line."""
    spans = []
    at = line.find(_SOPS_ENVELOPE)
    while at >= 0:
        end = line.find(b"]", at)
        end = len(line) if end < 0 else end
        spans.append((at, end))
        at = line.find(_SOPS_ENVELOPE, end)
    return spans


def _inside(spans: list[tuple[int, int]], at: int) -> bool:
    """Whether `at` lies in one of the sorted, disjoint `spans`."""
    i = bisect.bisect_right(spans, at, key=lambda span: span[0]) - 1
    return i >= 0 and at < spans[i][1]


def _pinned_object_id(line: bytes, start: int, end: int) -> bool:
    """Whether line[start:end] is a git object id pinned after an `@` (`owner/repo@<sha>`,
    `path@<sha>`): how workflows and lock files name an action or a dependency, often on a
    line that also speaks of a token (`token: ${{ … }}`)."""
    return start > 1 and line[start - 1] == ord("@") and end - start in (40, 64)


def _value_of_other_key(line: bytes, start: int) -> bool:
    """Whether line[start:] is the value assigned to a key that holds a secret word but names
    something else (`primary_key`, `cache_key`, `next_page_token`, `public_key`)."""
    before = line[max(0, start - 96) : start].rstrip(b" \t\"'`")
    for op in (b":=", b"=>", b"=", b":"):
        if before.endswith(op):
            before = before[: -len(op)].rstrip(b" \t\"'`])")
            break
    else:
        return False
    key = _key_before(before, len(before))
    if not any(_secret_word(w) for w in _key_words(key)):
        return False
    return _key_kind(key) == _NOT_SECRET


_WORD_CHARS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-.=~:")


def _placeholder_word(line: bytes, start: int, end: int) -> bool:
    """Whether the whitespace-free word around line[start:end] (up to 128 characters each
    side: the work stays linear in the line) holds a placeholder marker."""
    first, last = max(0, start - 128), min(len(line), end + 128)
    while start > first and line[start - 1] in _WORD_CHARS:
        start -= 1
    while end < last and line[end] in _WORD_CHARS:
        end += 1
    word = line[start:end]
    low = word.lower()
    return bool(_placeholder_marker().search(low) or _cased_marker().search(word))


def _handle_file(rule: _Rule, rx: Any, data: bytes, hits: list[_Hit], scan: _Scan) -> None:
    if scan.depth:
        return  # a file name inside decoded text is no file of this entry
    for m in rx.finditer(data):
        s, e = int(m.start(1)), int(m.end(1))
        path = data[s:e].decode("utf-8", "replace")
        why = _secret_file_kind(path, mention=True)
        if why is None:
            continue
        hits.append(_Hit(s, e, 0, rule.id, _shorten(path), f"mentions a secret-like file ({why})"))


# --------------------------------------------------------------------------------------------
# Decoding: base64 and hex runs that decode to text are scanned in turn.

_MAX_DEPTH = 2


def _handle_base64(rule: _Rule, rx: Any, data: bytes, hits: list[_Hit], scan: _Scan) -> None:
    """Base64 runs (one line, or wrapped over several as in a code block) that decode to
    text: the text is scanned and what it holds is reported on the run's first line."""
    if scan.depth >= _MAX_DEPTH:
        return
    for m in rx.finditer(data):
        s, e = int(m.start()), int(m.end())
        run = data[s:e]
        chars = set(run)
        if not (chars & _UPPER and chars & _LOWER and chars & _DIGITS):
            continue  # a name or a path: base64 of text mixes all three
        if b"\n" in run:
            run = b"".join(run.split())
        _scan_decoded(_b64decode(run), s, e, "base64", hits, scan)


def _handle_hex(rule: _Rule, rx: Any, data: bytes, hits: list[_Hit], scan: _Scan) -> None:
    if scan.depth >= _MAX_DEPTH:
        return
    for m in rx.finditer(data):
        s, e = int(m.start()), int(m.end())
        if (e - s) % 2:
            continue
        _scan_decoded(bytes.fromhex(data[s:e].decode("ascii")), s, e, "hex", hits, scan)


def _scan_decoded(
    decoded: bytes, start: int, end: int, encoding: str, hits: list[_Hit], scan: _Scan
) -> None:
    if len(decoded) < 12 or scan.budget[0] <= 0 or not _text_like(decoded):
        return
    decoded = decoded[: scan.budget[0]]
    scan.budget[0] -= len(decoded)
    for h in _scan_hits(scan.deeper(), decoded):
        note = f"{h.description} ({encoding}-encoded)"
        hits.append(_Hit(start, end, h.tier, h.rule, h.excerpt, note, h.block))


def _text_like(decoded: bytes) -> bool:
    """Decoded bytes that are text (UTF-8, printable), not the binary a random token or a DER
    key decodes to."""
    try:
        text = decoded.decode("utf-8")
    except UnicodeDecodeError:
        return False
    printable = sum(1 for c in text if c.isprintable() or c in "\n\r\t")
    return printable * 100 >= len(text) * 95 and sum(c.isalnum() for c in text) >= 8


_K8S_SECTION = re.compile(rb"^([ \t]*)(data|stringData):[ \t]*$")
_K8S_ENTRY = re.compile(rb"^([ \t]+)([\w.\-]+):[ \t]*(.*?)[ \t]*$")


def _handle_k8s(rule: _Rule, rx: Any, data: bytes, hits: list[_Hit], scan: _Scan) -> None:
    """The values of a `kind: Secret` manifest: under `data:` base64 (of anything: a secret
    need not be text), under `stringData:` plain text judged as a password. The manifest is
    the YAML document (between `---` lines) that says `kind: Secret`; a `kind: SopsSecret` or
    `ExternalSecret` holds references, not values, and is not one."""
    for m in rx.finditer(data):
        at = int(m.start())
        start = data.rfind(b"\n---", 0, at)
        start = 0 if start < 0 else start + 4
        end = data.find(b"\n---", at)
        end = len(data) if end < 0 else end
        _k8s_document(rule, data, start, end, hits)


def _k8s_document(rule: _Rule, data: bytes, start: int, end: int, hits: list[_Hit]) -> None:
    section: bytes | None = None
    indent = b""
    pos = start
    block_key = False  # the previous entry was `key: |`: this line is its value
    while pos < end:
        eol = data.find(b"\n", pos, end)
        eol = end if eol < 0 else eol
        line = data[pos:eol].rstrip(b"\r")
        head = _K8S_SECTION.match(line)
        if head:
            section, indent, block_key = head.group(2), head.group(1), False
        elif section is not None and line.strip() and not line.lstrip().startswith(b"#"):
            entry = _K8S_ENTRY.match(line)
            if not line.startswith(indent) or len(line) - len(line.lstrip()) <= len(indent):
                section = None  # the section ended
            elif block_key:
                _k8s_value(rule, section, line.strip(), pos + line.find(line.strip()), hits)
                block_key = False
            elif entry:
                value = entry.group(3)
                if value in (b"|", b">", b"|-", b">-", b"|+", b">+"):
                    block_key = True
                elif value:
                    _k8s_value(rule, section, value, pos + int(entry.start(3)), hits)
        pos = eol + 1


def _k8s_value(rule: _Rule, section: bytes, value: bytes, at: int, hits: list[_Hit]) -> None:
    plain = value.strip(b"\"'")
    if section == b"data":
        if len(plain) < 12 or not re.fullmatch(rb"[A-Za-z0-9+/]+={0,3}", plain) or _fake(plain):
            return
        if not _b64decode(plain):
            return
    elif not _assigned_secret(plain, quoted=True, kind=_PASSWORD_KEY, loose_op=False):
        return
    s = at + value.find(plain)
    hits.append(_Hit(s, s + len(plain), rule.tier, rule.id, _redact(plain), rule.description))


_HANDLERS: dict[int, _Handler] = {
    _TOKEN: _handle_token,
    _PEM: _handle_pem,
    _JWT: _handle_jwt,
    _URL: _handle_url,
    _ASSIGN: _handle_assign,
    _ENTROPY: _handle_entropy,
    _FILE: _handle_file,
    _CURL: _handle_curl,
    _HEADER: _handle_header,
    _BASE64: _handle_base64,
    _HEXRUN: _handle_hex,
    _K8S: _handle_k8s,
    _SETTING: _handle_setting,
}


def _scan_hits(scan: _Scan, data: bytes, rules: list[int] | None = None) -> list[_Hit]:
    """Every rule over data (those that can match, `rules` when the caller has them already),
    overlapping hits of less specific rules dropped."""
    hits: list[_Hit] = []
    eng = scan.eng
    for index in eng.rules_in(data) if rules is None else rules:
        rule = _RULES[index]
        _HANDLERS[rule.kind](rule, eng.regex(index), data, hits, scan)
    return _dedupe(hits) if hits else hits


# --------------------------------------------------------------------------------------------
# Normalising: text that renders as a secret is scanned as it renders.

# What a line needs to render differently from its bytes: a Markdown backslash escape, an HTML
# entity or a percent-escape (one alternation of bounded pieces: linear).
_TRIGGERS = re.compile(
    r"\\[!-/:-@\[-`{-~]|&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]{1,31};)"
    r"|%[0-9A-Fa-f]{2}|\\(?:x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8})"
)
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
#: HTML elements that render inline, so that their tags join the text on either side (not a
#: table cell's or a paragraph's: `KEY</td><td>value` is two cells, and the rules read it so)
_INLINE_TAGS = (
    r"(?i:a|abbr|b|bdi|bdo|cite|code|data|del|dfn|em|font|i|ins|kbd|mark|q|s|samp|small|span"
    r"|strong|sub|sup|time|u|var|wbr)\b"
)
#: Markdown and HTML that renders as nothing around or inside a token: emphasis wrapped round
#: one (`_ghp_…_`, `**AKIA…**` where no word character borders it), emphasis, a code span's
#: backticks, empty tags or a comment between two of its characters (`gh**p**_…`, `gh<!-- -->p`;
#: tags and comments beside a hyphen too: `glpat-<b></b>…`, `sk-<!---->proj-…`)
_MARKUP = re.compile(
    r"(?<![A-Za-z0-9_*`>])[_*]{1,3}(?=[A-Za-z0-9])|(?<=[A-Za-z0-9])[_*]{1,3}(?![A-Za-z0-9_*`<])"
    r"|(?<=[A-Za-z0-9_])(?:\*{1,3}|`{1,3})(?=[A-Za-z0-9_])"
    r"|(?<=[A-Za-z0-9_\-])(?:<!--.{0,64}?-->|</?"
    + _INLINE_TAGS
    + r"(?:\s[^<>]{0,64})?/?>)+(?=[A-Za-z0-9_\-])"
)
#: variation selectors: invisible after a letter, left out of the hidden characters for emoji
_VARIATION = re.compile("[\ufe00-\ufe0f]")
#: what makes a line worth rendering for its markup: emphasis before a token-long run of
#: token characters or a URL, or markup between two of them (not a code span's closing
#: backtick, which most entries hold: every line it sent to the renderer made the scanner five
#: times slower)
_MARKUP_TRIGGER_PATTERN = (
    r"(?:^|[^A-Za-z0-9])[_*]{1,3}(?:[A-Za-z0-9][A-Za-z0-9_\-]{11}|[A-Za-z][A-Za-z0-9+.\-]{0,20}://)"
    r"|[A-Za-z0-9_](?:\*{1,3}[A-Za-z0-9_]|`{1,3}[A-Za-z0-9_])"
    r"|[A-Za-z0-9_\-](?:<!--|</?" + _INLINE_TAGS + r"[^<>\n]{0,80}>[\w<\-])"
)


@functools.cache
def _markup_trigger() -> Any:
    """_MARKUP_TRIGGER_PATTERN compiled by RE2, over bytes (Latin-1: the pattern is ASCII): it
    is searched in every text, where Python's engine, trying each position, took half of the
    scanner's time."""
    import re2

    return re2.compile(_MARKUP_TRIGGER_PATTERN.encode("ascii"), _re2_options())


def _has_markup(text: str) -> bool:
    """Whether text may hold markup that hides a token (any text: a lone surrogate too)."""
    return _markup_trigger().search(text.encode("utf-8", "surrogatepass")) is not None


#: YAML's escapes of a double-quoted scalar that name a code point; an escaped backslash first,
#: so that `\\\\x5F` stays a backslash and text
_YAML_ESCAPE = re.compile(r"\\\\|\\x([0-9A-Fa-f]{2})|\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")


def _yaml_unescaped(m: re.Match[str]) -> str:
    digits = m.group(1) or m.group(2) or m.group(3)
    if digits is None or int(digits, 16) > 0x10FFFF:
        return m.group()
    return chr(int(digits, 16))


_PERCENT_RUN = re.compile(r"(?:%[0-9A-Fa-f]{2})+")


def _unquote_run(m: re.Match[str]) -> str:
    """A run of percent-escapes as the text it encodes, or as written when it encodes no UTF-8:
    a `%` inside a password (`O%E3d4`, perhaps written `O&#37;E3d4`) is a character, not an
    escape, and decoding it would break the value a reader sees."""
    try:
        return bytes.fromhex(m.group().replace("%", "")).decode("utf-8")
    except UnicodeDecodeError:
        return m.group()


#: Letters of other scripts that a reader takes for a Latin letter, chosen by hand from the
#: Cyrillic, Greek, Armenian and IPA letters NFKC leaves alone (a subset of what Unicode's
#: confusables list names). A token whose `p` is a Cyrillic `р` still reads, and copies into a
#: prompt, as the token; the scanner reads it as a reader does.
_LOOKALIKES: Final = str.maketrans(
    "аеорсухѕіјԁһԛԝӏɑɡıοαρνυικτχ"  # lower case
    "АВЕКМНОРСТХУЅІЈԚԜΑΒΕΖΗΙΚΜΝΟΡΤΥΧ"  # upper case
    "օսհոգ",  # Armenian
    "aeopcyxsijdhqwlagioapvuiktxABEKMHOPCTXYSIJQWABEZHIKMNOPTYXouhnq",
)
#: a look-alike letter beside a Latin letter, digit, `_` or `-`: a token written with one mixes
#: scripts there, and a word written wholly in another script (Russian or Greek prose) does
#: not, so it is never folded into something that reads as a token
_LOOKALIKE_CHARS = "".join(sorted(chr(c) for c in _LOOKALIKES))
_MIXED_PAIR = re.compile(f"[A-Za-z0-9_\\-][{_LOOKALIKE_CHARS}]|[{_LOOKALIKE_CHARS}][A-Za-z0-9_\\-]")
_TOKEN_RUN = re.compile(r"[\w\-]+")


def _fold_lookalikes(line: str) -> str:
    """line with the look-alike letters of each run of token characters that mixes scripts
    written as the Latin letters they pass for (each run is matched once: linear time)."""
    if _MIXED_PAIR.search(line) is None:
        return line

    def fold(m: re.Match[str]) -> str:
        run = m.group()
        return run.translate(_LOOKALIKES) if _MIXED_PAIR.search(run) else run

    return _TOKEN_RUN.sub(fold, line)


#: a control character that draws nothing or moves the cursor (a carriage return only when
#: no line feed follows it): what a terminal or an editor does not show between two letters
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\r(?!\n)")
#: an ANSI escape sequence, as a colored terminal log holds them: a control sequence
#: (`ESC [ 1;31 m`), an operating-system command to its terminator (a hyperlink,
#: `ESC ] 8;;url BEL`), or a two-character escape; bounded, so linear
_ANSI = re.compile(
    r"\x1b(?:\[[0-?]{0,32}[ -/]{0,8}[@-~]|\][^\x07\x1b\n]{0,512}(?:\x07|\x1b\\)?|[@-Z\\-_])"
)
#: a character struck over by the next (`c\bc` is a bold c, `_\bc` an underlined one)
_OVERSTRUCK = re.compile(r"[^\x08\n]\x08")


def _normalised(text: str, *, plain: bool = False) -> tuple[str, frozenset[int]] | None:
    """The text as it renders, line for line, and the (1-based) lines that changed; None when
    it renders as it is written (most texts: one search, and an NFKC check for non-ASCII).
    `plain`: the caller knows the text is ASCII without control characters or backslashes
    (`_ascii_plain`), so it holds no control to render.
    A front-matter line that ends in an escaped line break is rendered joined with the lines
    it continues (YAML reads `"…ghp_ab\\` + `  cd…"` as one value, `ghp_abcd…`)."""
    triggers = _TRIGGERS
    joins = "\\\n" in text or "\\\r\n" in text
    if text.isascii():
        escaped = ("\\" in text or "&" in text or "%" in text) and triggers.search(text)
        controls = not plain and _CONTROL.search(text) is not None
        if not escaped and not joins and not controls and not _has_markup(text):
            return None
    else:
        import unicodedata

        if (
            unicodedata.is_normalized("NFKC", text)
            and not joins
            and triggers.search(text) is None
            and not _has_markup(text)
            and _hidden_re().search(text) is None
            and _VARIATION.search(text) is None
            and _MIXED_PAIR.search(text) is None
        ):
            return None
    lines = text.split("\n")
    joined = dict(_continued(lines)) if joins else {}
    changed = set()
    for number, written in enumerate(lines, 1):
        line = joined.get(number - 1, written)
        if (
            not line.isascii()
            or triggers.search(line) is not None
            or _CONTROL.search(line) is not None
            or _has_markup(line)
        ):
            line = _render(line)
        if line != written:
            lines[number - 1] = line
            changed.add(number)
    if not changed:
        return None
    return "\n".join(lines), frozenset(changed)


#: how many lines one escaped line break may join: a longer value is cut, not followed
_MAX_CONTINUED = 16


def _continued(lines: list[str]) -> Iterator[tuple[int, str]]:
    """(index, the line joined with those it continues) for each front-matter line that ends
    in an escaped line break: an odd number of backslashes, which in a double-quoted YAML
    scalar joins the next line, its leading blanks dropped."""
    if not lines or lines[0].removeprefix("\ufeff").rstrip("\r") != "---":
        return
    for i in range(1, len(lines) - 1):
        line = lines[i].rstrip("\r")
        if line in ("---", "..."):
            return
        value, j = line, i
        while j - i < _MAX_CONTINUED and j + 1 < len(lines):
            head = value.rstrip("\\")
            if (len(value) - len(head)) % 2 == 0:
                break
            j += 1
            value = value[:-1] + lines[j].rstrip("\r").lstrip(" \t")
        if j > i:
            yield i, value


def _render(line: str) -> str:
    """One line as a reader sees it: ANSI escape sequences and overstruck characters, as a
    terminal draws them, and invisible and control characters dropped, compatibility forms folded
    (NFKC: full-width letters), HTML entities and percent-escapes decoded, Markdown backslash
    escapes undone, markup that renders as nothing around or inside a token removed; twice,
    for a double encoding. Never more lines than it had."""
    import html
    import unicodedata

    for _ in range(2):
        before = line
        if "\x1b" in line or "\b" in line:
            line = _OVERSTRUCK.sub("", _ANSI.sub("", line))
        if not line.isascii() or _CONTROL.search(line) is not None:
            line = _VARIATION.sub("", _hidden_re().sub("", line))
        if not line.isascii():
            line = _fold_lookalikes(unicodedata.normalize("NFKC", line))
        if "&" in line:
            line = html.unescape(line)
        if "%" in line:
            line = _PERCENT_RUN.sub(_unquote_run, line)
        if "\\" in line:
            line = _ESCAPE.sub(r"\1", _YAML_ESCAPE.sub(_yaml_unescaped, line))
        line = _MARKUP.sub("", line)
        if line == before:
            break
    return line.replace("\n", " ")


# --------------------------------------------------------------------------------------------
# Secret-like file names.

_ENV_SAFE = frozenset(
    (
        "example",
        "examples",
        "sample",
        "samples",
        "template",
        "templates",
        "tmpl",
        "tpl",
        "dist",
        "defaults",
        "default",
        "schema",
    )
)
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
    "priv",
    "server",
    "tls",
    "ssl",
    "client",
    "secret",
    "sign",
    "host",
    "cert",
    "domain",
    "jwt",
    "api",
    "key",
    "ca",
    "root",
    "cosign",
    "deploy",
    "master",
    "id_",
)


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


@functools.cache
def _hidden_re() -> re.Pattern[str]:
    return re.compile(HIDDEN_CLASS)  # a single character class: linear by construction


#: the bytes of an ASCII text that need no look: printable ASCII but the backslash (a YAML
#: escape in the front matter may name a hidden character), tab and line feed
_ASCII_PLAIN = bytes(c for c in range(0x20, 0x7F) if c != 0x5C) + b"\t\n"


def _ascii_plain(text: str) -> bool:
    """Whether an ASCII text is sure to hold nothing that scan_hidden_unicode reports: no control
    character but tab and line ends (a carriage return counts as one when a line feed
    follows it), no backslash. What is left of its bytes after deleting the plain ones says
    so in one pass in C; a regular expression over every ASCII file cost the scanner 40% of
    its time."""
    others = text.encode("ascii").translate(None, _ASCII_PLAIN)
    if others.count(b"\r") < len(others):
        return False  # a control character or a backslash
    return not others or text.count("\r") == text.count("\r\n")


#: a YAML escape of a double-quoted scalar that makes a character (an escaped backslash first)
_YAML_CHAR = re.compile(r"\\(?:\\|x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|[0abefvrN])")
_YAML_LETTERS = {"0": 0, "a": 7, "b": 8, "e": 0x1B, "f": 0x0C, "v": 0x0B, "r": 0x0D, "N": 0x85}


def _hidden_kind(cp: int) -> str:
    if cp < 0x20 or 0x7F <= cp <= 0x9F:
        return "control character"
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
    if text.isascii() and _ascii_plain(text):
        return []

    seen: dict[tuple[int, int], list[int]] = {}  # (line, code point) -> [column, count]
    line, last = 1, 0
    for m in _hidden_re().finditer(text):
        i = m.start()
        ch = text[i]
        cp = ord(ch)
        if (cp == 0xFEFF and i == 0) or (cp == 0x0D and text.startswith("\n", i + 1)):
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
        name = _char_name(cp)
        times = f", {count} times" if count > 1 else ""
        excerpt = f"U+{cp:04X} {name} at column {column}{times}"
        findings.append(Finding("hidden-unicode", ln + line_offset, excerpt, _hidden_kind(cp)))
    for ln, cp, column, written in _front_matter_escapes(text):
        name = _char_name(cp)
        excerpt = f"U+{cp:04X} {name} written {written} at column {column}"
        kind = f"{_hidden_kind(cp)}, as a YAML escape the field's value decodes"
        findings.append(Finding("hidden-unicode", ln + line_offset, excerpt, kind))
    return findings


def _char_name(cp: int) -> str:
    """A character's Unicode name; a control character has none, so its escape (`'\\x1b'`)."""
    import unicodedata

    return unicodedata.name(chr(cp), "") or repr(chr(cp))


def _front_matter_escapes(text: str) -> Iterator[tuple[int, int, int, str]]:
    """(line, code point, column, escape) for each YAML escape in the front matter that makes
    a hidden or control character (tab and line feed aside): YAML decodes `"\\uFEFF"` in a
    double-quoted value to the character itself, which the written text does not hold. Any
    such escape in the front matter counts, quoted or not: an entry has no need of one."""
    lines = text.split("\n", 200)
    if lines[0].removeprefix("\ufeff").rstrip("\r") != "---":
        return
    for number, line in enumerate(lines[1:-1], 2):
        if line.rstrip("\r") in ("---", "..."):
            return
        if "\\" not in line:
            continue
        for m in _YAML_CHAR.finditer(line):
            escape = m.group()
            if escape == "\\\\":
                continue
            letter = escape[1]
            cp = _YAML_LETTERS[letter] if letter in _YAML_LETTERS else int(escape[2:], 16)
            if cp <= 0x10FFFF and cp not in (0x09, 0x0A) and _hidden_re().match(chr(cp)):
                yield number, cp, m.start() + 1, escape


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


_Located = tuple[int, _Hit, str]
"""A hit with its line and its fingerprint."""


def _located(data: bytes, hits: list[_Hit]) -> list[_Located]:
    """(line, hit, fingerprint) for each hit, in text order; the fingerprint is taken from the
    text the hit's offsets point into (the rendered text for a rendered line's hit, so
    `ghp\\_…` and the bare token share it)."""
    located = []
    line, last = 1, 0
    for h in sorted(hits, key=lambda h: h.start):
        line += data.count(b"\n", last, h.start)
        last = h.start
        located.append((line, h, fingerprint(h.rule, data[h.start : h.end])))
    return located


def _merged(
    written: list[_Located], rendered: list[_Located], changed: frozenset[int]
) -> list[_Located]:
    """The hits of the text as written, and on the lines that render differently those of the
    rendered text: a hit only the written form shows stays unless the rendered line holds a
    more specific one (`ghp\\_…` is a GitHub token, not a generic assignment)."""
    by_line: dict[int, list[_Located]] = {}
    for located in rendered:
        if located[0] in changed:
            by_line.setdefault(located[0], []).append(located)
    merged = [located for ls in by_line.values() for located in ls]
    for located in written:
        line, h, _ = located
        found = [r for _, r, _ in by_line.get(line, ())]
        if (
            line not in changed
            or not found
            or (h.rule not in {r.rule for r in found} and h.tier <= min(r.tier for r in found))
        ):
            merged.append(located)
    merged.sort(key=lambda lh: (lh[0], lh[1].start))
    return merged


# --------------------------------------------------------------------------------------------
# Tokens broken over lines, as a wrapping editor or a terminal copy leaves them.

#: the rules a broken token is looked for with: formats that carry their own prefix or shape,
#: which need no key or secret word beside them (a key or word sits on one of the lines, whose
#: own scan reads it)
_WRAPPED_KINDS = frozenset((_TOKEN, _JWT))
#: token characters, and a line break with the indentation (or a block quote's `>`) after it
_RUN_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.")
_RUN = r"[A-Za-z0-9_\-.]"  # _RUN_BYTES as a class
_BREAK = r"\r?\n[ \t>]*"
_RUN_REST = re.compile(f"{_RUN}*".encode("ascii"))
#: a chain: a run of token characters that ends its line, and the runs that start the next
#: lines; a line that is one run wholly carries the chain on
_CHAIN = f"{_RUN}+(?:{_BREAK}{_RUN}+)+"
_LINE_END = re.compile(_BREAK.encode("ascii"))
#: the longest reading of a chain (no credential format is longer), and how many bytes of
#: readings a text may make: _WRAP_BUDGET per byte of its own, and _WRAP_FLOOR at least. A
#: list of hostnames or keys one per line makes many readings; past the budget the rest of
#: the text's chains are not read (the lines' own scan still is)
_WRAP_MAX = 1024
_WRAP_BUDGET = 2
_WRAP_FLOOR = 16 * 1024


def _chain_starts(data: bytes, eng: _Engine, wanted: Iterable[int]) -> list[int]:
    """Where each chain that holds a wanted rule's gate in its first run starts: the start
    of that run, which ends its line. Each run is looked at once per rule (linear time)."""
    starts = set()
    for index in wanted:
        covered = -1
        for gate in eng.gates_of(index).finditer(data):
            if gate.start() < covered:
                continue  # a run already looked at
            rest = _RUN_REST.match(data, gate.end())  # `*`: always a match, maybe empty
            end = covered = rest.end() if rest else gate.end()
            if data[end : end + 1] not in (b"\n", b"\r"):
                continue
            starts.add(_run_start(data, gate.start()))
    return sorted(starts)


def _run_start(data: bytes, at: int) -> int:
    """The start of the run of token characters that holds `at` (at most _WRAP_MAX back)."""
    start, floor = at, max(0, at - _WRAP_MAX)
    while start > floor and data[start - 1] in _RUN_BYTES:
        start -= 1
    return start


def _literal_starts(pattern: str, limit: int = 64) -> tuple[list[str], bool]:
    """The strings the start of a gate pattern stands for (`(?:AKIA|ASIA)` two, `dd[po]_`
    two), read up to its first repetition, class escape or anything else a literal cannot say,
    at most `limit` of them; and whether the whole pattern was read."""
    outs = [""]
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern) and not pattern[i + 1].isalnum():
            options, i = [pattern[i + 1]], i + 2
        elif ch == "[" and (close := pattern.find("]", i + 2)) > 0:
            options, i = _class_members(pattern[i + 1 : close]), close + 1
        elif ch == "(" and pattern.startswith("(?:", i) and (close := pattern.find(")", i)) > 0:
            branches = [_literal_starts(b, limit) for b in pattern[i + 3 : close].split("|")]
            if "(" in pattern[i + 1 : close] or not all(whole for _, whole in branches):
                return outs, False
            options, i = [o for strings, _ in branches for o in strings], close + 1
        elif ch.isalnum() or ch in "_-:~=!@#%&/,<>'\"":
            options, i = [ch], i + 1
        else:
            return outs, False
        if not options or (i < len(pattern) and pattern[i] in "{*+?"):
            return outs, False  # an empty class, or a unit that repeats: stop before it
        longer = [o + x for o in outs for x in options]
        if len(longer) > limit:
            return outs, False
        outs = longer
    return outs, True


def _class_members(body: str) -> list[str]:
    """The characters of a bracket class of plain characters and ranges (`po`, `A-Z0-9`);
    none for a class it cannot list (negated, or holding an escape)."""
    if body.startswith("^") or "\\" in body:
        return []
    members, i = [], 0
    while i < len(body):
        if i + 2 < len(body) and body[i + 1] == "-":
            members += [chr(c) for c in range(ord(body[i]), ord(body[i + 2]) + 1)]
            i += 3
        else:
            members.append(body[i])
            i += 1
    return members


@functools.cache
def _broken_prefix_pattern() -> str:
    """A pattern for a run that ends its line in the start of a token format's literal prefix
    and a line that goes on with a run (`gh` + `p_…`): the place a token broken inside its
    prefix starts. Its alternation lists every proper start of the token rules' literal
    prefixes (gates written `\\b` + literal). The Set pass looks for it with the gates, so a
    text pays nothing more unless a line of it ends so (a search of its own cost a tenth of
    the scan); group 1 is the start of the prefix."""
    starts: set[str] = set()
    for rule in _RULES:
        gate = rule.gates[0]
        caseless = gate.startswith("(?i)")
        gate = gate.removeprefix("(?i)")
        if rule.kind not in _WRAPPED_KINDS or not gate.startswith("\\b"):
            continue
        for literal in _literal_starts(gate[2:])[0]:
            for written in {literal, literal.lower(), literal.upper()} if caseless else {literal}:
                for k in range(1, len(written)):
                    if set(written[: k + 1].encode()) <= _RUN_BYTES:
                        starts.add(written[:k])
    either = "|".join(re.escape(p) for p in sorted(starts, key=lambda p: (-len(p), p)))
    return f"(?:^|[^A-Za-z0-9_])({either}){_BREAK}{_RUN}"  # `^` the text's start: `\\n` is a [^…]


@functools.cache
def _broken_prefix() -> Any:
    """_broken_prefix_pattern compiled on its own, for the few texts the Set pass says hold it."""
    import re2

    return re2.compile(_broken_prefix_pattern().encode("ascii"), _re2_options(16 << 20))


def _broken_starts(data: bytes, eng: _Engine) -> tuple[list[int], set[int]]:
    """Where tokens broken inside their prefix may start (see `_broken_prefix`), and the
    token rules whose gate their joined prefixes match. Both empty for almost every text: a
    line must end in a short run that starts a known prefix."""
    starts, joins = [], []
    for m in _broken_prefix().finditer(data):
        start = int(m.start(1))
        rest = _RUN_REST.match(data, int(m.end()) - 1)
        starts.append(start)
        joins.append(m.group(1) + (rest.group() if rest else b"")[:_WRAP_MAX])
    if not starts:
        return [], set()
    found = eng.rules_in(b"\n".join(joins))
    return starts, {i for i in found if _RULES[i].kind in _WRAPPED_KINDS}


def _wrapped(data: bytes, scan: _Scan, rules: list[int], *, broken: bool) -> list[_Located]:
    """The tokens broken over line ends, each found on the line where it starts.

    A broken token is looked for where a token rule whose gate data matched (`rules`) has
    that gate, its prefix, in a run of token characters that ends its line: the chain of
    runs from there (`_CHAIN`) is read every way the token could lie in it, to the end of
    each later run, up to _WRAP_MAX characters. The readings, one per line of a text, are
    scanned once by those rules. A hit counts when it lies across a join and no one line's
    run holds it alone (the lines' own scan has those); of one chain's hits by one rule,
    the longest reading's stands, as a reader joining the lines reads it. A token broken
    inside its prefix (`gh` + `p_…`) has its gate on no line: where the Set pass says a line
    ends in the start of a literal prefix (`broken`), `_broken_starts` names the rules its
    joined prefix matches and the chains start there too. Not found: a prefix written as a
    pattern with no literal start, or holding a character no run holds (`sha256~`, `perm:`),
    and a token hidden past the budget of readings: this reads what a wrapping editor or a
    terminal leaves, not what an author set out to disguise (who could as well write the
    token in two code spans)."""
    if b"\n" not in data:
        return []
    eng = scan.eng
    wanted = [i for i in rules if _RULES[i].kind in _WRAPPED_KINDS]
    starts_in_prefix, broken_rules = _broken_starts(data, eng) if broken else ([], set())
    if broken_rules - set(wanted):
        wanted = sorted(broken_rules.union(wanted))
    if not wanted:
        return []
    readings: list[tuple[int, int, list[bytes]]] = []  # (chain, its line, the runs read)
    budget = max(_WRAP_FLOOR, _WRAP_BUDGET * len(data))
    line, last = 1, 0
    starts = _chain_starts(data, eng, wanted)
    if broken_rules:
        starts = sorted(set(starts).union(_run_start(data, s) for s in starts_in_prefix))
    for start in starts:
        # no reading is longer than _WRAP_MAX: the chain is read as far as that can reach
        chain = eng.chain.match(data, start, start + 2 * _WRAP_MAX)
        if chain is None:
            continue
        line += data.count(b"\n", last, start)
        last = start
        runs = _LINE_END.split(chain.group())
        size = len(runs[0])
        for end in range(1, len(runs)):
            size += len(runs[end])
            if size > min(_WRAP_MAX, budget):
                break
            budget -= size
            readings.append((start, line, runs[: end + 1]))
    if not readings:
        return []
    joined = b"\n".join(b"".join(runs) for *_, runs in readings)
    offsets = list(accumulate((sum(map(len, r[2])) + 1 for r in readings), initial=0))
    best: dict[tuple[int, int, str], tuple[int, _Located]] = {}
    for index in set(wanted).intersection(eng.rules_in(joined)):
        rule = _RULES[index]
        regex = eng.regex(index)
        hits: list[_Hit] = []
        _HANDLERS[rule.kind](rule, regex, joined, hits, scan)
        for number, h, print_ in _located(joined, hits):
            chain_start, line, runs = readings[number - 1]
            # where each run starts in joined; the runs the hit lies across
            bounds = list(accumulate(map(len, runs), initial=offsets[number - 1]))
            first = bisect.bisect_right(bounds, h.start) - 1
            end = bisect.bisect_left(bounds, h.end) - 1
            if first == end or any(regex.search(r) for r in runs[first : end + 1]):
                continue
            key = (chain_start, h.start - offsets[number - 1], rule.id)
            if key not in best or best[key][0] < len(runs):
                best[key] = (len(runs), (line + first, h, print_))
    return [located for _, located in best.values()]


@functools.cache
def _rule_id_set() -> frozenset[str]:
    return frozenset(rule_ids())


def is_fingerprint(text: str) -> bool:
    """Whether text is a fingerprint this scanner gives: one of its rule ids, a colon and 32
    hex digits. allowed.md's fingerprint column is not scanned, so it may hold nothing else
    (a lower-case token in the rule id's place would stand there unread)."""
    rule, _, digest = text.partition(":")
    return rule in _rule_id_set() and _DIGEST.fullmatch(digest) is not None


_DIGEST = re.compile(r"[0-9a-f]{32}")


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
    scan = _Scan(eng)
    rules, broken = eng.match(data)
    located = _located(data, _scan_hits(scan, data, rules))
    # ASCII text free of control characters and backslashes (most texts) holds no hidden
    # character and no control to render: one byte filter says so for both
    plain = text.isascii() and _ascii_plain(text)
    rendered = _normalised(text, plain=plain)
    if rendered is not None:
        rendered_data = rendered[0].encode("utf-8", "surrogatepass")
        again = _located(rendered_data, _scan_hits(scan, rendered_data))
        located = _merged(located, again, rendered[1])
    seen = {(line, print_) for line, _, print_ in located}
    located += [w for w in _wrapped(data, scan, rules, broken=broken) if (w[0], w[2]) not in seen]
    hidden = [] if plain else scan_hidden_unicode(text)
    if not located and not hidden:
        return [k[3] for k in keyed]
    for line, h, print_ in located:
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


def may_hold_secret(text: str) -> bool:
    """Whether the secret scanner finds a secret in text, the reviewers' exceptions not yet
    taken off: a first look, so that main's allowed.md is read only for a text it flags."""
    return any(finding.rule != "hidden-unicode" for finding in scan_text(text))
