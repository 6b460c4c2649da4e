"""The gate's policy: read from a server's git config, written back, compared, and who pushed."""

from __future__ import annotations

import pytest

from gitmem.settings import policy
from gitmem.settings.load import Settings
from gitmem.settings.policy import Policy, PolicyError, config_values, from_config

PRINT = "github-pat:" + "ab" * 16


def test_no_branch_in_the_config_is_no_policy() -> None:
    assert from_config({}) is None
    assert from_config({"gitmem.dir": [".gitmem"]}) is None
    assert from_config({"gitmem.branch": []}) is None


def test_a_full_config_is_read_in_any_letter_case_last_value_winning() -> None:
    found = from_config(
        {
            "gitmem.branch": ["old", "trunk"],
            "gitmem.dir": ["./docs//memory/"],
            "gitmem.requirepushermatch": ["Yes"],
            "GITMEM.AUTOADMITAUDITED": ["on"],
            "gitmem.types": ["incident", " runbook ", "incident", ""],
            "gitmem.maxbody": ["900"],
            "gitmem.policyadmins": ["alice", "bob", "alice"],
            "gitmem.allow": [f" {PRINT} "],
            "gitmem.retireby": ["human", "audit", "human"],
            "gitmem.unknown": ["ignored"],
            "core.bare": ["true"],
        }
    )
    assert found == Policy(
        branch="trunk",
        dir="docs/memory",
        require_pusher_match=True,
        auto_admit_audited=True,
        types=("incident", "runbook"),
        max_body=900,
        admins=("alice", "bob"),
        allowed=frozenset({PRINT}),
        source="the server's git config",
        retire_by=("human", "audit"),
    )
    assert found.main_ref == "refs/heads/trunk"
    assert found.may_retire("audit:verdicts.md") and found.may_retire("human:bob")
    assert not found.may_retire("human:") and not found.may_retire("bob")


def test_flags_default_to_false_and_say_no_in_every_spelling() -> None:
    for word in ("false", "No", "off", "0"):
        found = from_config({"gitmem.branch": ["main"], "gitmem.requirePusherMatch": [word]})
        assert found is not None and found.require_pusher_match is False
    found = from_config({"gitmem.branch": ["main"]})
    assert found == Policy(source="the server's git config")
    assert found.max_body == 2000 and found.dir == ".gitmem"
    assert found.retire_by == ("human",)  # people only, by default
    assert found.may_retire("human:bob") and not found.may_retire("audit:verdicts.md")


@pytest.mark.parametrize(
    ("values", "words"),
    [
        ({"gitmem.branch": ["a..b"]}, "gitmem.branch"),
        ({"gitmem.branch": ["Gitmem/x"]}, "gitmem.branch 'Gitmem/x' is where candidates live"),
        ({"gitmem.dir": [".git/memory"]}, "gitmem.dir"),
        ({"gitmem.dir": ["../outside"]}, "gitmem.dir"),
        ({"gitmem.types": ["Not A Slug"]}, "gitmem.types"),
        ({"gitmem.maxBody": ["0"]}, "gitmem.maxBody"),
        ({"gitmem.maxBody": ["100001"]}, "gitmem.maxBody"),
        ({"gitmem.maxBody": ["lots"]}, "gitmem.maxBody"),
        ({"gitmem.policyAdmins": ["two words"]}, "gitmem.policyAdmins"),
        ({"gitmem.policyAdmins": ['["alice"]']}, "gitmem.policyAdmins"),
        ({"gitmem.allow": ["github-pat:short"]}, "gitmem.allow"),
        ({"gitmem.requirePusherMatch": ["maybe"]}, "gitmem.requirePusherMatch"),
        ({"gitmem.retireBy": ["robot"]}, "gitmem.retireBy"),
    ],
)
def test_an_unusable_value_is_an_error_naming_the_key(
    values: dict[str, list[str]], words: str
) -> None:
    with pytest.raises(PolicyError, match=words):
        from_config({"gitmem.branch": ["main"], **values})


def test_the_edges_of_max_body_are_accepted() -> None:
    for value in ("1", "100000"):
        found = from_config({"gitmem.branch": ["main"], "gitmem.maxBody": [value]})
        assert found is not None and found.max_body == int(value)


def test_config_values_read_back_as_the_same_policy() -> None:
    written = Policy(
        branch="trunk",
        dir="mem",
        require_pusher_match=True,
        auto_admit_audited=False,
        types=("incident",),
        max_body=1500,
        admins=("alice",),
        allowed=frozenset({PRINT}),
        source="the server's git config",
        retire_by=("audit",),
    )
    pairs = config_values(written)
    values: dict[str, list[str]] = {}
    for key, value in pairs:
        values.setdefault(key, []).append(value)
    assert from_config(values) == written
    assert ("gitmem.autoAdmitAudited", "false") in pairs
    assert [k for k, _ in pairs].count("gitmem.branch") == 1


def test_from_settings_takes_the_project_files_audit_word_and_the_rest() -> None:
    settings = Settings(dir="m", branch="b", types=("t",), max_body=7, policy_admins=("a",))
    made = policy.from_settings(settings, project_auto_admit=True, source="base")
    assert made == Policy("b", "m", False, True, ("t",), 7, ("a",), frozenset(), "base")
    assert made.settings().dir == "m" and made.settings().policy_admins == ("a",)


def test_changed_keys_names_each_policy_setting_that_differs() -> None:
    base = Policy()
    assert policy.changed_keys(base, base) == []
    other = Policy(branch="x", dir="y", require_pusher_match=True, auto_admit_audited=True,
                   types=("t",), max_body=1, admins=("a",), allowed=frozenset({PRINT}),
                   retire_by=("human", "audit"))  # fmt: skip
    assert policy.changed_keys(base, other) == [name for _, name in policy.TREE_KEYS]


def test_admins_and_allowed() -> None:
    made = Policy(admins=("alice",))
    assert made.is_admin("alice") and not made.is_admin("bob") and not made.is_admin(None)
    assert made.with_allowed([PRINT]).allowed == {PRINT}
    assert made.with_allowed([PRINT]).with_allowed(["x:y"]).allowed == {PRINT, "x:y"}


def test_the_pusher_is_the_first_variable_the_server_sets() -> None:
    assert policy.pusher({}) is None
    assert policy.pusher({"REMOTE_USER": "web", "GITMEM_PUSHER": "ssh"}) == "ssh"
    assert policy.pusher({"GL_USERNAME": "gl", "GITEA_PUSHER_NAME": "gt"}) == "gl"
    assert policy.pusher({"GL_USERNAME": "", "GITHUB_USER_LOGIN": "gh"}) == "gh"
    for name in policy.PUSHER_VARIABLES:
        assert policy.pusher({name: "who"}) == "who"


def test_the_enforcement_mode_is_enforce_unless_the_config_says_warn() -> None:
    assert policy.enforcement({}) == policy.ENFORCE
    assert policy.enforcement({"gitmem.branch": ["main"]}) == "enforce"
    assert policy.enforcement({"gitmem.enforcement": ["warn"]}) == "warn"
    assert policy.enforcement({"GITMEM.Enforcement": ["warn", " Enforce "]}) == "enforce"
    for word in ("wran", "off", "", "true"):
        with pytest.raises(
            PolicyError, match=r"gitmem\.enforcement .* is not one of enforce, warn"
        ):
            policy.enforcement({"gitmem.enforcement": [word]})


def test_the_mode_is_not_a_policy_key_the_installer_rewrites() -> None:
    """It never comes from committed settings: not among KEYS (written from them) nor the
    tree's policy settings."""
    assert policy.ENFORCEMENT_KEY not in policy.KEYS
    assert all("enforce" not in name and "warn" not in name for _, name in policy.TREE_KEYS)
    assert from_config({"gitmem.branch": ["main"], "gitmem.enforcement": ["warn"]}) == Policy(
        source="the server's git config"
    )
