"""The gate's policy: the settings that decide what the history judge accepts, and whose they are.

A push must never relax the rules that judge it, nor the pushes after it. So the judge never
reads its policy from the commits it judges:

- on a git server (`gitmem check --pre-receive`), the policy is the bare repository's own git
  config, keys under ``gitmem.``, which ``gitmem hooks install --server`` writes from the
  project's settings at install time (run it again to update them, or use ``git config``)::

      gitmem.branch              main        where admitted memory lives
      gitmem.dir                 .gitmem     the memory folder
      gitmem.requirePusherMatch  false       admitted_by must name the pusher
      gitmem.autoAdmitAudited    false       an audit may admit audited candidates
      gitmem.types               (several)   extra entry types, one value each
      gitmem.maxBody             2000        body characters
      gitmem.policyAdmins        (several)   who may push a change of these settings
      gitmem.retireBy            human       which sources may retire an entry, one value each
      gitmem.allow               (several)   reviewed secret exceptions (fingerprints)

  A server whose config holds no ``gitmem.branch`` has no policy: the hook refuses every push
  (rule POLICY) until an administrator installs it, rather than guess one from a pushed tree.
- for ``gitmem check --range A..B`` (CI) and ``--pre-push``, the policy is the one committed at
  the trusted base, the commit the remote already has (A; for pre-push, the remote's tip of
  the memory branch), read from its ``.gitmem.toml`` (or pyproject.toml) with no user file and
  no environment; never from the commits being judged.

A push to the memory branch that changes these settings in the tree is judged by the policy
above all the same, and is refused unless the pusher is one of the policy's admins. The
pusher is who the server says pushed: GitLab sets GL_USERNAME, Gitea GITEA_PUSHER_NAME, GitHub
Enterprise GITHUB_USER_LOGIN; a hook run behind an SSH forced command or a web server can set
GITMEM_PUSHER or REMOTE_USER. Nothing a pusher controls sets these variables; a client-side
check (pre-push, CI) knows a pusher only when its runner sets one.

The enforcement mode is the server's too (``gitmem.enforcement``: ``enforce``, the default, or
``warn``), and never a project setting: in warn mode the hook judges every push in full, prints
every finding under a banner, and lets it in, save for a secret or a text too large to scan
(gitmem.gate.check.ALWAYS_REFUSED), for teams adopting gitmem on a repository with history.
It is set by ``gitmem hooks install --server --warn`` and turned off by ``--enforce`` (or
``git config --unset gitmem.enforcement``); re-running the installer without either keeps it,
as it keeps ``gitmem.allow``, since no committed file holds it.

Reviewed secret exceptions are fingerprints (gitmem.gate.secrets: the rule id and a hash of the
normalised secret, never the secret), recorded by someone other than the author: in
``gitmem.allow`` here, or in ``<dir>/allowed.md`` on the memory branch, which changes only in
an admit merge (gitmem.gate.history).

This module reads no git itself: the repository layer passes the config's values in.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from gitmem.model.names import DEFAULT_DIR
from gitmem.settings.load import (
    DEFAULT_BRANCH,
    DEFAULT_MAX_BODY,
    MAX_BODY_LIMIT,
    Settings,
    check_memory_branch,
    check_memory_dir,
)

#: Where the server says who pushed, first found wins (see the module docstring).
PUSHER_VARIABLES: Final = (
    "GL_USERNAME",
    "GITEA_PUSHER_NAME",
    "GITHUB_USER_LOGIN",
    "GITMEM_PUSHER",
    "REMOTE_USER",
)

#: The config keys, in the order the installer writes them.
KEYS: Final = (
    "gitmem.branch",
    "gitmem.dir",
    "gitmem.requirePusherMatch",
    "gitmem.autoAdmitAudited",
    "gitmem.types",
    "gitmem.maxBody",
    "gitmem.policyAdmins",
    "gitmem.retireBy",
    "gitmem.allow",
)
#: Keys that hold several values (one `git config --add` each).
MULTI_KEYS: Final = frozenset(
    {"gitmem.types", "gitmem.policyAdmins", "gitmem.retireBy", "gitmem.allow"}
)
#: The sources whose admitter may retire an entry (memory.retireBy), and the default.
RETIRE_SOURCES: Final = ("human", "audit")
DEFAULT_RETIRE_BY: Final = ("human",)

_SLUG: Final = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
#: A user name as policyAdmins takes it (the settings schema's pattern): no whitespace, comma,
#: bracket or quote. GitHub, GitLab and Gitea give none such, nor does a web server's
#: REMOTE_USER in practice, and `["alice"]` is a TOML list written where names go.
_NAME: Final = re.compile(r"[^\s,\[\]\"']{1,100}")
_FINGERPRINT: Final = re.compile(r"[a-z0-9][a-z0-9-]*:[0-9a-f]{32}")
_TRUE: Final = frozenset({"true", "yes", "on", "1"})
_FALSE: Final = frozenset({"false", "no", "off", "0"})


class PolicyError(ValueError):
    """A policy value that cannot be used; the message names the key and what to do."""


@dataclass(frozen=True)
class Policy:
    """What the gate accepts. Every field has the meaning of the setting of the same name."""

    branch: str = DEFAULT_BRANCH
    dir: str = DEFAULT_DIR
    require_pusher_match: bool = False
    auto_admit_audited: bool = False
    types: tuple[str, ...] = ()
    max_body: int = DEFAULT_MAX_BODY
    admins: tuple[str, ...] = ()
    allowed: frozenset[str] = field(default_factory=frozenset)
    #: where it was read, for messages: "the server's git config", "the base commit 1a2b3c4d"
    source: str = "the defaults"
    #: the sources whose admitter may retire an entry (memory.retireBy)
    retire_by: tuple[str, ...] = DEFAULT_RETIRE_BY

    @property
    def main_ref(self) -> str:
        return f"refs/heads/{self.branch}"

    def settings(self) -> Settings:
        """The policy as the Settings the file rules take (memory folder, types, body)."""
        return Settings(
            dir=self.dir,
            branch=self.branch,
            auto_admit_audited=self.auto_admit_audited,
            types=self.types,
            max_body=self.max_body,
            require_pusher_match=self.require_pusher_match,
            policy_admins=self.admins,
            retire_by=self.retire_by,
        )

    def is_admin(self, pusher: str | None) -> bool:
        return pusher is not None and pusher in self.admins

    def may_retire(self, by: str) -> bool:
        """Whether an admitter (human:NAME, audit:FILE) is of a source that may retire."""
        kind, _, name = by.partition(":")
        return bool(name) and kind in self.retire_by

    def with_allowed(self, fingerprints: Sequence[str]) -> Policy:
        return replace(self, allowed=self.allowed | frozenset(fingerprints))


#: The settings a tree can carry that are policy, as (Policy attribute, name in messages).
TREE_KEYS: Final = (
    ("branch", "memory.branch"),
    ("dir", "memory.dir"),
    ("require_pusher_match", "memory.requirePusherMatch"),
    ("auto_admit_audited", "memory.autoAdmitAudited"),
    ("types", "memory.types"),
    ("max_body", "memory.maxBody"),
    ("admins", "memory.policyAdmins"),
    ("retire_by", "memory.retireBy"),
)


def from_settings(settings: Settings, *, project_auto_admit: bool, source: str) -> Policy:
    """The policy a project's committed settings describe. project_auto_admit is the project
    file's own memory.autoAdmitAudited (no user's file takes part in a gate's policy)."""
    return Policy(
        branch=settings.branch,
        dir=settings.dir,
        require_pusher_match=settings.require_pusher_match,
        auto_admit_audited=project_auto_admit,
        types=settings.types,
        max_body=settings.max_body,
        admins=settings.policy_admins,
        retire_by=settings.retire_by,
        source=source,
    )


def changed_keys(before: Policy, after: Policy) -> list[str]:
    """The policy settings (their names) that differ between two trees' policies."""
    return [name for attr, name in TREE_KEYS if getattr(before, attr) != getattr(after, attr)]


def from_config(values: Mapping[str, Sequence[str]]) -> Policy | None:
    """The policy in a server's git config (key -> its values, last one wins for single
    keys); None when it holds none (no gitmem.branch). Raises PolicyError naming the key when
    a value cannot be used: the server then refuses, rather than judge with a guess."""
    by_lower = {key.lower(): key for key in KEYS}
    values = {by_lower[k.lower()]: v for k, v in values.items() if k.lower() in by_lower}
    if not values.get("gitmem.branch"):
        return None

    def one(key: str) -> str | None:
        found = values.get(key) or []
        return found[-1].strip() if found else None

    branch = one("gitmem.branch") or DEFAULT_BRANCH
    reason = check_memory_branch(branch)
    if reason is not None:
        raise PolicyError(f"gitmem.branch {branch!r} {reason}")
    folder = one("gitmem.dir") or DEFAULT_DIR
    reason = check_memory_dir(folder)
    if reason is not None:
        raise PolicyError(f"gitmem.dir: {reason}")
    folder = "/".join(part for part in folder.split("/") if part not in ("", "."))
    types = tuple(dict.fromkeys(v.strip() for v in values.get("gitmem.types", ()) if v.strip()))
    for name in types:
        if not _SLUG.fullmatch(name):
            raise PolicyError(f"gitmem.types {name!r} is not a slug (lowercase words joined by -)")
    body = one("gitmem.maxBody")
    max_body = DEFAULT_MAX_BODY
    if body is not None:
        if not (body.isascii() and body.isdigit() and 1 <= int(body) <= MAX_BODY_LIMIT):
            raise PolicyError(f"gitmem.maxBody {body!r} is not a whole number 1..{MAX_BODY_LIMIT}")
        max_body = int(body)
    admins = tuple(dict.fromkeys(v.strip() for v in values.get("gitmem.policyAdmins", ())))
    for name in admins:
        if not _NAME.fullmatch(name):
            raise PolicyError(f"gitmem.policyAdmins {name!r} is not a user name")
    retire_by = tuple(dict.fromkeys(v.strip() for v in values.get("gitmem.retireBy", ())))
    for name in retire_by:
        if name not in RETIRE_SOURCES:
            raise PolicyError(
                f"gitmem.retireBy {name!r} is not a source that may retire: "
                f"use {' or '.join(RETIRE_SOURCES)}, one value each"
            )
    allowed = frozenset(v.strip() for v in values.get("gitmem.allow", ()))
    for fingerprint in allowed:
        if not _FINGERPRINT.fullmatch(fingerprint):
            raise PolicyError(
                f"gitmem.allow {fingerprint!r} is not a finding's fingerprint "
                "(rule-id:32 hex digits, as a SECRET message prints it)"
            )
    return Policy(
        branch=branch,
        dir=folder,
        require_pusher_match=_flag(values, "gitmem.requirePusherMatch"),
        auto_admit_audited=_flag(values, "gitmem.autoAdmitAudited"),
        types=types,
        max_body=max_body,
        admins=admins,
        retire_by=retire_by or DEFAULT_RETIRE_BY,
        allowed=allowed,
        source="the server's git config",
    )


def _flag(values: Mapping[str, Sequence[str]], key: str) -> bool:
    found = values.get(key) or []
    if not found:
        return False
    word = found[-1].strip().lower()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    raise PolicyError(f"{key} {found[-1]!r} is not true or false")


def config_values(policy: Policy) -> list[tuple[str, str]]:
    """The (key, value) pairs the installer writes, multi-valued keys once per value."""
    out = [
        ("gitmem.branch", policy.branch),
        ("gitmem.dir", policy.dir),
        ("gitmem.requirePusherMatch", "true" if policy.require_pusher_match else "false"),
        ("gitmem.autoAdmitAudited", "true" if policy.auto_admit_audited else "false"),
        ("gitmem.maxBody", str(policy.max_body)),
    ]
    out += [("gitmem.types", name) for name in policy.types]
    out += [("gitmem.policyAdmins", name) for name in policy.admins]
    out += [("gitmem.retireBy", name) for name in policy.retire_by]
    out += [("gitmem.allow", fingerprint) for fingerprint in sorted(policy.allowed)]
    return out


def pusher(environ: Mapping[str, str] | None = None) -> str | None:
    """Who pushed, as the server says (PUSHER_VARIABLES); None when nothing says."""
    env = os.environ if environ is None else environ
    return next((env[name] for name in PUSHER_VARIABLES if env.get(name)), None)


#: The server's enforcement mode, a key of its own beside KEYS: the installer sets it only when
#: asked (--warn, --enforce), never from committed settings.
ENFORCEMENT_KEY: Final = "gitmem.enforcement"
ENFORCE: Final = "enforce"
WARN: Final = "warn"
MODES: Final = (ENFORCE, WARN)


def enforcement(values: Mapping[str, Sequence[str]]) -> str:
    """The enforcement mode in a server's git config (ENFORCE when unset; the last value wins).
    Raises PolicyError naming the key for any other word: a typo must not weaken the gate, nor
    silently leave a team that asked for warn mode rejected without knowing why."""
    found = next((v for k, v in values.items() if k.lower() == ENFORCEMENT_KEY.lower()), [])
    if not found:
        return ENFORCE
    word = found[-1].strip().lower()
    if word not in MODES:
        raise PolicyError(f"{ENFORCEMENT_KEY} {found[-1]!r} is not one of {', '.join(MODES)}")
    return word
