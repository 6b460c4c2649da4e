"""Settings: defaults, precedence, the autoAdmitAudited rule, and bad values set aside safely."""

from __future__ import annotations

import json
import os
from importlib.resources import files
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitmem.settings.load import (
    AGENT_FOLDERS,
    DEFAULT_TYPES,
    Settings,
    check_branch_name,
    check_memory_dir,
    default_branch,
    load_settings,
    project_from_url,
    user_settings_path,
)


def load(
    project: str | None = None,
    pyproject: str | None = None,
    user: str | None = None,
    env: dict[str, str] | None = None,
    **kwargs: Any,
) -> Settings:
    """Load with explicit sources only: nothing from the real environment or user folder."""
    return load_settings(
        project_toml=project, pyproject_toml=pyproject, user_toml=user, environ=env or {}, **kwargs
    )


def only_warning(result: Settings) -> str:
    assert len(result.warnings) == 1, result.warnings
    return str(result.warnings[0])


def lines(result: Settings) -> tuple[str, ...]:
    """The warnings as every reader prints them."""
    return tuple(result.warning_lines())


# --- defaults -----------------------------------------------------------------------------------


def test_every_key_has_its_default() -> None:
    result = load()
    assert result == Settings()
    assert result.dir == ".gitmem"
    assert result.project == "local"
    assert result.branch == "main"
    assert result.auto_admit_audited is False
    assert result.types == ()
    assert result.max_body == 2000
    assert result.require_pusher_match is False
    assert result.warnings == ()
    assert result.all_types == DEFAULT_TYPES == ("decision", "method", "code-structure", "mistake")


def test_project_default_comes_from_origin_and_branch_from_remote_head() -> None:
    result = load(remote_url="git@example.com:acme/Shop_App.git", remote_default_branch="trunk")
    assert (result.project, result.branch) == ("shop-app", "trunk")
    assert result.warnings == ()


@pytest.mark.parametrize(
    ("reported", "expected"),
    [
        ("refs/remotes/origin/develop", "develop"),
        ("refs/heads/release/2", "release/2"),
        ("", "main"),
        (None, "main"),
        ("bad..name", "main"),
        ("-x", "main"),
    ],
)
def test_branch_default_uses_only_a_valid_remote_branch(
    reported: str | None, expected: str
) -> None:
    assert load(remote_default_branch=reported).branch == expected


FALLBACK = "the default; origin names no default branch, HEAD's none with commits"


@pytest.mark.parametrize(
    ("remote", "head", "main", "expected"),
    [
        ("trunk", "master", True, ("trunk", "origin's default branch")),
        (
            None,
            "master",
            False,
            ("master", "the branch HEAD names; origin names no default branch"),
        ),
        (None, "feature", True, ("main", "the default; origin names no default branch")),
        (None, None, False, ("main", FALLBACK)),
        (None, "bad..name", False, ("main", FALLBACK)),
        (
            "bad..name",
            "master",
            False,
            ("master", "the branch HEAD names; origin names no default branch"),
        ),
    ],
)
def test_branch_default_is_the_remotes_then_heads_with_commits_then_main(
    remote: str | None, head: str | None, main: bool, expected: tuple[str, str]
) -> None:
    """Issue 14, case 3: a repository on master, or created by a push (no origin/HEAD)."""
    assert default_branch(remote, head, main) == expected
    result = load(remote_default_branch=remote, head_branch=head, main_has_commits=main)
    assert (result.branch, result.branch_from) == expected
    assert load(env={"GITMEM_BRANCH": "x"}, head_branch=head).branch_from == "GITMEM_BRANCH"


def test_without_a_remote_the_reasons_say_there_is_none() -> None:
    """remote None (branch_facts, in a repository without a remote): no reason names origin,
    and each is the same words wherever it is built, as bootstrap and workspace compare."""
    expected = [
        ("master", "the branch HEAD names; there is no remote"),
        ("main", "the default; there is no remote"),
        ("main", "the default; there is no remote, HEAD's none with commits"),
    ]
    cases = [("master", False), ("feature", True), (None, False)]
    assert [default_branch(None, head, main, None) for head, main in cases] == expected
    for (head, main), (_, why) in zip(cases, expected, strict=True):
        loaded = load(head_branch=head, main_has_commits=main, remote=None)
        assert loaded.branch_from == why and loaded.remote is None


def test_project_default_is_local_when_the_url_gives_no_name() -> None:
    assert load(remote_url="https://example.com/").project == "local"
    assert load(remote_url="").project == "local"


def test_user_settings_path_is_in_the_config_folder(isolated_env: Path) -> None:
    assert user_settings_path() == isolated_env / "gitmem" / "config.toml"


def test_user_file_is_read_from_disk_by_default(isolated_env: Path) -> None:
    empty = load_settings(project_toml=None, pyproject_toml=None, environ={})
    assert empty == Settings()
    path = isolated_env / "gitmem" / "config.toml"
    path.parent.mkdir()
    path.write_text("[memory]\nmaxBody = 1234\n", encoding="utf-8")
    assert load_settings(project_toml=None, pyproject_toml=None, environ={}).max_body == 1234


def test_unreadable_user_file_is_one_warning(isolated_env: Path) -> None:
    path = isolated_env / "gitmem" / "config.toml"
    path.parent.mkdir()
    path.write_bytes(b"[memory]\nproject = '\xff'\n")
    result = load_settings(project_toml=None, pyproject_toml=None, environ={})
    assert result.project == "local"
    assert str(path) in only_warning(result)


@pytest.mark.parametrize("kind", ["folder", "dangling link"])
def test_a_user_file_that_is_no_file_is_one_warning(isolated_env: Path, kind: str) -> None:
    """A folder (or a link to nothing) at the user's config.toml was taken silently for no
    file: the user's settings were all dropped with nothing said."""
    path = isolated_env / "gitmem" / "config.toml"
    path.parent.mkdir()
    if kind == "folder":
        path.mkdir()
    else:
        path.symlink_to(isolated_env / "gone.toml")
    result = load_settings(project_toml=None, pyproject_toml=None, environ={})
    assert f"{path}: not a regular file" in only_warning(result)


def test_environ_defaults_to_the_process_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITMEM_MAX_BODY", "777")
    assert load_settings(project_toml=None, pyproject_toml=None, user_toml=None).max_body == 777


# --- every value, and precedence ----------------------------------------------------------------

FULL = """
[memory]
dir = "docs/memory"
project = "shop"
branch = "trunk"
autoAdmitAudited = true
types = ["incident", "runbook"]
maxBody = 5000
requirePusherMatch = true
"""


def test_every_key_is_read_from_the_project_file() -> None:
    result = load(FULL, user="[memory]\nautoAdmitAudited = true\n")
    assert result == Settings(
        dir="docs/memory",
        project="shop",
        branch="trunk",
        auto_admit_audited=True,
        types=("incident", "runbook"),
        max_body=5000,
        require_pusher_match=True,
    )
    assert result.all_types == (*DEFAULT_TYPES, "incident", "runbook")


# (TOML key, Settings field, env var, project value, user value, env text, env value)
LEVELS = [
    ("dir", "dir", "GITMEM_DIR", '"p-dir"', '"u-dir"', "e-dir", "e-dir"),
    ("project", "project", "GITMEM_PROJECT", '"p"', '"u"', "e", "e"),
    ("branch", "branch", "GITMEM_BRANCH", '"p"', '"u"', "e", "e"),
    ("types", "types", "GITMEM_TYPES", '["p"]', '["u"]', "e", ("e",)),
    ("maxBody", "max_body", "GITMEM_MAX_BODY", "100", "200", "300", 300),
    ("requirePusherMatch", "require_pusher_match", "GITMEM_REQUIRE_PUSHER_MATCH", "true", "false",
     "true", True),
]  # fmt: skip


@pytest.mark.parametrize(("key", "attr", "var", "p", "u", "e_text", "e"), LEVELS)
def test_precedence_env_over_user_over_project_over_default(
    key: str, attr: str, var: str, p: str, u: str, e_text: str, e: object
) -> None:
    project = f"[memory]\n{key} = {p}\n"
    user = f"[memory]\n{key} = {u}\n"
    default = getattr(Settings(), attr)
    from_project = getattr(load(project), attr)
    from_user = getattr(load(project, user=user), attr)
    from_env = getattr(load(project, user=user, env={var: e_text}), attr)
    assert from_project != default
    assert from_user != from_project
    assert from_env == e
    assert from_env != from_user
    assert getattr(load(user=user), attr) == from_user
    assert getattr(load(env={var: e_text}), attr) == e


def test_precedence_is_decided_key_by_key() -> None:
    result = load(
        "[memory]\nproject = 'p'\nbranch = 'pb'\nmaxBody = 10\n",
        user="[memory]\nbranch = 'ub'\n",
        env={"GITMEM_MAX_BODY": "30"},
    )
    assert (result.project, result.branch, result.max_body) == ("p", "ub", 30)


# --- pyproject.toml -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "[project]\nname = 'x'\n\n[tool.gitmem.memory]\ndir = 'mem'\nmaxBody = 99\n",
        "[tool.gitmem]\nmemory.dir = 'mem'\nmemory.maxBody = 99\n",
        "[tool.gitmem]\nmemory = { dir = 'mem', maxBody = 99 }\n",
    ],
)
def test_pyproject_tool_gitmem_in_each_spelling(text: str) -> None:
    result = load(pyproject=text)
    assert (result.dir, result.max_body, result.warnings) == ("mem", 99, ())


def test_pyproject_without_tool_gitmem_is_no_source() -> None:
    assert load(pyproject="[project]\nname = 'gitmem-demo'\n") == Settings()
    assert load(pyproject="[tool.ruff]\nline-length = 100\n") == Settings()


def test_gitmem_toml_wins_over_pyproject_with_a_warning() -> None:
    result = load(
        "[memory]\ndir = 'a'\n", pyproject="[tool.gitmem.memory]\ndir = 'b'\nmaxBody = 5\n"
    )
    assert (result.dir, result.max_body) == ("a", 2000)
    warning = only_warning(result)
    assert warning.startswith("pyproject.toml: [tool.gitmem] is ignored because .gitmem.toml")


def test_both_files_without_tool_gitmem_is_silent() -> None:
    assert load("[memory]\ndir = 'a'\n", pyproject="[project]\nname = 'a'\n").warnings == ()
    assert load("", pyproject="[project\n").warnings == ()  # not ours to judge


def test_pyproject_errors_name_the_table_path() -> None:
    result = load(pyproject="[tool.gitmem.memory]\nmaxBody = 'x'\n")
    assert only_warning(result).startswith(
        "pyproject.toml: tool.gitmem.memory.maxBody: expected a whole number"
    )
    result = load(pyproject="[tool]\ngitmem = 3\n")
    assert only_warning(result).startswith("pyproject.toml: tool.gitmem: expected a table")
    result = load(pyproject="[tool.gitmem]\ndir = 'x'\n")
    assert "put it in the [tool.gitmem.memory] table" in only_warning(result)
    assert result.dir == ".gitmem"


# --- invalid values -----------------------------------------------------------------------------

INVALID = [
    ("dir", "3", "expected a folder path"),
    ("dir", "''", "expected a folder path"),
    ("dir", "'.claude/x'", "memory.dir '.claude/x' is inside .claude/: choose a folder outside it"),
    ("dir", "'/abs'", "is absolute"),
    ("project", "'Shop App'", "expected a slug"),
    ("project", "'shop--app'", "expected a slug"),
    ("project", "'-shop'", "expected a slug"),
    ("project", '"shop\\n"', "is not a slug"),
    ("project", f"'{'a' * 65}'", "expected a slug"),
    ("project", "[]", "expected a slug"),
    ("branch", "'a..b'", "is not a valid git branch name (it contains '..')"),
    ("branch", "'has space'", "is not a valid git branch name (it contains a space)"),
    ("branch", "'-x'", "it starts with '-'"),
    ("branch", "''", "expected a git branch name"),
    ("branch", "1", "expected a git branch name"),
    ("branch", "'gitmem/x'", "is where candidates live (gitmem/<id>)"),
    ("branch", "'GitMem/x'", "is where candidates live (gitmem/<id>)"),
    (
        "branch",
        "'refs/heads/trunk'",
        "is a ref's full name (its branch is trunk): choose a name like main",
    ),
    ("branch", "'refs/tags/v1'", "names a tag, which no admission can move: choose a name like"),
    ("autoAdmitAudited", "'yes'", "expected true or false, got 'yes'"),
    ("autoAdmitAudited", "1", "expected true or false, got 1"),
    ("types", "'incident'", "expected a list of distinct slugs"),
    ("types", "['Incident']", "expected a list of distinct slugs"),
    ("types", "['a', 'a']", "expected a list of distinct slugs"),
    ("types", "[1]", "expected a list of distinct slugs"),
    ("types", '["a\\n"]', "which is not a slug"),
    ("maxBody", "'abc'", "expected a whole number from 1 to 100000, got 'abc'"),
    ("maxBody", "0", "expected a whole number from 1 to 100000, got 0"),
    ("maxBody", "-5", "got -5"),
    ("maxBody", "100001", "got 100001"),
    ("maxBody", "12.5", "got 12.5"),
    ("maxBody", "true", "got true"),
    ("maxBody", "1979-05-27", "got '1979-05-27'"),
    ("maxBody", "{ a = 1 }", "got a table"),
    ("requirePusherMatch", "'true'", "expected true or false, got 'true'"),
]


@pytest.mark.parametrize(("key", "value", "fragment"), INVALID)
def test_invalid_project_value_is_one_warning_and_the_default(
    key: str, value: str, fragment: str
) -> None:
    result = load(f"[memory]\n{key} = {value}\n")
    assert result == Settings(warnings=result.warnings)
    warning = only_warning(result)
    assert warning.startswith(".gitmem.toml: memory.")
    assert f"memory.{key}" in warning
    assert fragment in warning
    assert warning.endswith("; using the default " + _default_text(key))
    assert "\n" not in warning


def _default_text(key: str) -> str:
    return {
        "dir": ".gitmem",
        "project": "local",
        "branch": "main",
        "autoAdmitAudited": "false",
        "types": "[]",
        "maxBody": "2000",
        "requirePusherMatch": "false",
    }[key]


@pytest.mark.parametrize(("key", "value", "fragment"), INVALID[:12])
def test_invalid_user_value_names_the_user_file(key: str, value: str, fragment: str) -> None:
    result = load(user=f"[memory]\n{key} = {value}\n")
    warning = only_warning(result)
    assert warning.startswith(f"{user_settings_path()}: memory.{key}")
    assert fragment in warning


@pytest.mark.parametrize(
    ("var", "text", "fragment"),
    [
        ("GITMEM_DIR", ".GIT/x", "GITMEM_DIR '.GIT/x' is inside .GIT/, git's own folder"),
        ("GITMEM_PROJECT", "Shop", "GITMEM_PROJECT: expected a slug"),
        ("GITMEM_BRANCH", "a b", "GITMEM_BRANCH 'a b' is not a valid git branch name"),
        ("GITMEM_AUTO_ADMIT_AUDITED", "maybe", "GITMEM_AUTO_ADMIT_AUDITED: expected true or false"),
        ("GITMEM_TYPES", "ok,Not Ok", "GITMEM_TYPES: expected distinct slugs"),
        ("GITMEM_MAX_BODY", "abc", "GITMEM_MAX_BODY: expected a whole number from 1 to 100000"),
        ("GITMEM_MAX_BODY", "-3", "got '-3'"),
        ("GITMEM_MAX_BODY", "0", "got 0"),
        ("GITMEM_REQUIRE_PUSHER_MATCH", "2", "GITMEM_REQUIRE_PUSHER_MATCH: expected true or"),
    ],
)
def test_invalid_environment_value_names_the_variable(var: str, text: str, fragment: str) -> None:
    result = load(env={var: text})
    warning = only_warning(result)
    assert warning.startswith(f"environment: {var}")
    assert fragment in warning
    assert result == Settings(warnings=result.warnings)


def test_an_invalid_value_falls_back_to_the_next_source_down() -> None:
    result = load(
        "[memory]\nmaxBody = 3000\n",
        user="[memory]\nmaxBody = 'lots'\n",
        env={"GITMEM_DIR": ".git", "GITMEM_PROJECT": "from-env"},
    )
    assert result.max_body == 3000
    assert result.dir == ".gitmem"
    assert lines(result) == (
        f"{user_settings_path()}: memory.maxBody: expected a whole number from 1 to 100000, "
        "got 'lots'; using 3000 from .gitmem.toml",
        "environment: GITMEM_DIR '.git' is .git/ itself, git's own folder: choose a folder "
        "outside it, e.g. .gitmem; using the default .gitmem",
    )


def test_the_warning_tells_the_value_that_wins_from_above() -> None:
    result = load("[memory]\nmaxBody = 'x'\n", env={"GITMEM_MAX_BODY": "42"})
    assert only_warning(result).endswith("; using 42 from GITMEM_MAX_BODY")


def test_each_invalid_key_falls_back_on_its_own() -> None:
    result = load("[memory]\ndir = '..'\nproject = 'Bad!'\nbranch = 'dev'\nmaxBody = 10\n")
    assert (result.dir, result.project, result.branch, result.max_body) == (
        ".gitmem",
        "local",
        "dev",
        10,
    )
    assert [w.split(" ")[1] for w in lines(result)] == ["memory.dir", "memory.project:"]


def test_hostile_values_stay_on_one_short_line() -> None:
    result = load('[memory]\nproject = "a\\nb\\u001b[31m' + "x" * 500 + '"\n')
    warning = only_warning(result)
    assert "\n" not in warning and "\x1b" not in warning
    assert len(warning) < 300
    result = load('[memory]\n"' + "\\n" * 5000 + '" = 1\n[' + "y" * 9000 + "]\n")
    assert len(result.warnings) == 2
    assert all(len(w) < 300 and "\n" not in w for w in lines(result))


# --- bad TOML, unknown keys ---------------------------------------------------------------------


def test_bad_toml_is_one_warning_with_file_and_line_and_the_file_is_ignored() -> None:
    result = load("[memory]\nmaxBody = 10\ndir = \n", env={"GITMEM_BRANCH": "dev"})
    assert result == Settings(branch="dev", warnings=result.warnings)
    warning = only_warning(result)
    assert warning.startswith(".gitmem.toml:3: invalid TOML (")
    assert warning.endswith("the whole file is ignored until it is fixed")


def test_bad_toml_in_the_user_file_leaves_the_project_file() -> None:
    result = load("[memory]\nmaxBody = 10\n", user="[memory\n")
    assert result.max_body == 10
    assert only_warning(result).startswith(f"{user_settings_path()}:1: invalid TOML")


def test_bad_pyproject_is_reported_when_it_is_the_project_source() -> None:
    result = load(pyproject="[tool.gitmem.memory]\ndir = 'x\n")
    assert result.dir == ".gitmem"
    assert only_warning(result).startswith("pyproject.toml:2: invalid TOML")


def test_byte_order_mark_is_tolerated() -> None:
    assert load("\ufeff[memory]\nmaxBody = 7\n").max_body == 7


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("[memory]\ncolour = 'red'\n", "memory.colour: unknown setting; remove it (known: dir,"),
        ("[memory]\nmax_body = 3\n", "memory.max_body: unknown setting; did you mean memory.maxB"),
        ("[memory]\nmaxbody = 3\n", "did you mean memory.maxBody?"),
        ("[memory]\nbrnach = 'x'\n", "did you mean memory.branch?"),
        ('[memory]\n"a\\nb" = 1\n', 'memory."a\\nb": unknown setting'),
        ("maxBody = 3\n", "maxBody: unknown setting; put it in the [memory] table as memory.max"),
        ("[hooks]\nx = 1\n", "hooks: unknown setting; gitmem reads only the [memory] table"),
        ("memory = 3\n", "memory: expected a table [memory], got 3; ignored"),
    ],
)  # fmt: skip
def test_unknown_keys_are_one_warning_each(text: str, fragment: str) -> None:
    result = load(text)
    assert result == Settings(warnings=result.warnings)
    warning = only_warning(result)
    assert warning.startswith(".gitmem.toml: ")
    assert fragment in warning
    assert "\n" not in warning


def test_unknown_key_does_not_spoil_the_known_ones() -> None:
    result = load("[memory]\nmaxBody = 9\ncolour = 'red'\n")
    assert result.max_body == 9
    assert len(result.warnings) == 1


# --- autoAdmitAudited ---------------------------------------------------------------------------

SIDE = [None, False, True]


@pytest.mark.parametrize("project", SIDE)
@pytest.mark.parametrize("user", SIDE)
@pytest.mark.parametrize("env", [None, "false", "true", "TRUE", "0", "1", "off", "yes"])
def test_auto_admit_needs_the_project_and_the_user(
    project: bool | None, user: bool | None, env: str | None
) -> None:
    def table(value: bool | None) -> str | None:
        return None if value is None else f"[memory]\nautoAdmitAudited = {str(value).lower()}\n"

    environ = {} if env is None else {"GITMEM_AUTO_ADMIT_AUDITED": env}
    result = load(table(project), user=table(user), env=environ)
    user_side = (env.lower() in ("true", "1", "yes")) if env is not None else bool(user)
    assert result.auto_admit_audited is (bool(project) and user_side)
    assert result.warnings == ()


def test_a_shared_file_alone_never_switches_auto_admit_on() -> None:
    on = "[memory]\nautoAdmitAudited = true\n"
    assert load(on).auto_admit_audited is False
    assert (
        load(pyproject="[tool.gitmem.memory]\nautoAdmitAudited = true\n").auto_admit_audited
        is False
    )
    assert load(user=on).auto_admit_audited is False
    assert load(env={"GITMEM_AUTO_ADMIT_AUDITED": "true"}).auto_admit_audited is False
    assert load(
        pyproject="[tool.gitmem.memory]\nautoAdmitAudited = true\n", user=on
    ).auto_admit_audited


def test_invalid_auto_admit_counts_as_false() -> None:
    result = load(
        "[memory]\nautoAdmitAudited = 'true'\n", user="[memory]\nautoAdmitAudited = true\n"
    )
    assert result.auto_admit_audited is False
    assert only_warning(result).endswith("; using the default false")
    result = load(
        "[memory]\nautoAdmitAudited = true\n",
        user="[memory]\nautoAdmitAudited = true\n",
        env={"GITMEM_AUTO_ADMIT_AUDITED": "perhaps"},
    )
    assert result.auto_admit_audited is True  # the env value is set aside, the user file holds
    assert only_warning(result).endswith("; using true")


# --- GITMEM_TYPES and other variables -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("incident", ("incident",)),
        ("incident,runbook", ("incident", "runbook")),
        (" incident , runbook ,", ("incident", "runbook")),
        ("a,,b", ("a", "b")),
        ("", ()),  # empty means: no extra types, even when a file names some
        (" , ", ()),
    ],
)
def test_gitmem_types_parsing(text: str, expected: tuple[str, ...]) -> None:
    result = load("[memory]\ntypes = ['runbook', 'other']\n", env={"GITMEM_TYPES": text})
    assert result.types == expected
    assert result.warnings == ()


@pytest.mark.parametrize(
    ("var", "text", "example"),
    [
        ("GITMEM_TYPES", '["incident"]', "e.g. incident,runbook"),
        ("GITMEM_POLICY_ADMINS", "alice smith", "e.g. alice,bob"),
        ("GITMEM_RETIRE_BY", '["human","audit"]', "e.g. human,audit"),
        ("GITMEM_OWNERS", '{ decision = "@acme/architects" }', "e.g. decision=@acme/architects"),
    ],
)
def test_a_variable_in_the_toml_form_is_told_the_variable_form(
    var: str, text: str, example: str
) -> None:
    """A variable holds a list comma-separated; the warning showed the TOML form
    (`e.g. ["incident"]`), and a person who set the variable that way got the same warning."""
    warning = only_warning(load(env={var: text}))
    assert warning.startswith(f"environment: {var}: expected ")
    assert "comma-separated" in warning and example in warning
    assert "e.g. [" not in warning and "e.g. {" not in warning


@pytest.mark.parametrize("text", ['["alice"]', '["alice", "bob"]', "'alice'", "alice,[bob]"])
def test_policy_admins_in_the_toml_form_are_refused_not_taken_for_names(text: str) -> None:
    """GITMEM_POLICY_ADMINS='["alice"]' (the TOML form put in the variable) was accepted as
    an admin literally named `["alice"]`, whom no server names as a pusher, so nobody could
    change the policy and nothing said why. A name holds no bracket or quote (GitHub, GitLab
    and Gitea allow none): the value is refused with the variable form, as a name with a
    space is, and the default kept."""
    result = load(env={"GITMEM_POLICY_ADMINS": text})
    assert result.policy_admins == ()
    warning = only_warning(result)
    assert warning.startswith("environment: GITMEM_POLICY_ADMINS: expected distinct user names")
    assert "without spaces, brackets or quotes, comma-separated, e.g. alice,bob" in warning
    file = only_warning(load(f"[memory]\npolicyAdmins = [{json.dumps(text)}]\n"))
    assert "memory.policyAdmins" in file and 'e.g. ["alice"]' in file


@pytest.mark.parametrize(
    "name", ["alice", "alice.smith", "alice_s-1", "alice@example.com", "DOM\\al"]
)
def test_policy_admins_take_the_names_servers_give(name: str) -> None:
    result = load(env={"GITMEM_POLICY_ADMINS": name})
    assert result.policy_admins == (name,) and result.warnings == ()


def test_a_builtin_type_listed_is_accepted_and_said_to_do_nothing() -> None:
    """A built-in type in memory.types is no extra type: it was dropped without a word, and
    the person who wrote it took it for a setting that did something."""
    result = load("[memory]\ntypes = ['mistake', 'incident']\n")
    assert result.types == ("incident",)
    assert result.all_types == (*DEFAULT_TYPES, "incident")
    assert only_warning(result) == (
        ".gitmem.toml: memory.types holds the built-in type 'mistake', which is accepted "
        "without being listed: remove it from memory.types"
    )
    assert not result.warnings[0].set_aside  # nothing set aside: the pre-commit hook passes
    result = load(env={"GITMEM_TYPES": "decision,incident,method"})
    assert result.types == ("incident",)
    assert only_warning(result) == (
        "environment: GITMEM_TYPES holds the built-in types 'decision', 'method', which are "
        "accepted without being listed: remove them from GITMEM_TYPES"
    )


def test_empty_scalar_variables_count_as_unset() -> None:
    env = {name: "" for name in ("GITMEM_DIR", "GITMEM_PROJECT", "GITMEM_MAX_BODY")}
    result = load("[memory]\ndir = 'mem'\nproject = 'p'\nmaxBody = 5\n", env=env)
    assert (result.dir, result.project, result.max_body, result.warnings) == ("mem", "p", 5, ())


def test_variable_spellings() -> None:
    result = load(env={"GITMEM_MAX_BODY": " 1500 ", "GITMEM_REQUIRE_PUSHER_MATCH": " On "})
    assert (result.max_body, result.require_pusher_match) == (1500, True)


def test_dir_is_tidied() -> None:
    assert load("[memory]\ndir = './docs//memory/'\n").dir == "docs/memory"


def test_max_body_whole_float_is_accepted_as_int() -> None:
    result = load("[memory]\nmaxBody = 3000.0\n")
    assert result.max_body == 3000 and isinstance(result.max_body, int)


# --- memory.dir ---------------------------------------------------------------------------------

REFUSED_DIRS = [
    ("", "is empty"),
    ("   ", "is empty"),
    (".", "is empty"),
    ("./", "is the repository root itself"),
    ("/srv/memory", "is absolute"),
    ("C:/memory", "is absolute"),
    ("c:memory", "is absolute"),
    ("~/memory", "starts with '~'"),
    ("..", "contains '..'"),
    ("../memory", "contains '..'"),
    ("docs/../memory", "contains '..'"),
    ("docs/..", "contains '..'"),
    ("...", "made only of dots and spaces"),
    (".. ", "made only of dots and spaces"),
    ("docs\\memory", "contains a backslash"),
    ("mem\x00ory", "contains a control character"),
    ("mem\nory", "contains a control character"),
    ("mem\x1bory", "contains a control character"),
    ("mem\x7fory", "contains a control character"),
    ("mem:ory", "contains ':'"),
    ("memory ", "ends with a space"),
    (" memory/x", "starts or ends with a space"),
    ("docs./memory", "ends with '.'"),
    (".git::$INDEX_ALLOCATION", "contains ':'"),
    (".git", "is .git/ itself, git's own folder"),
    (".git/memory", "is inside .git/, git's own folder"),
    (".GIT/x", "is inside .GIT/, git's own folder"),
    (".Git", "is .Git/ itself, git's own folder"),
    ("sub/.gIt/x", "is inside sub/.gIt/, git's own folder"),
    (".git.", "git's own folder"),
    (".git /x", "git's own folder"),
    (".g\u200cit", "git's own folder"),
    ("GIT~1", "Windows short name"),
    ("CLAUDE~1/x", "Windows short name"),
    (".claude", "is .claude/ itself: choose a folder outside it, e.g. .gitmem"),
    (".claude/x", "is inside .claude/: choose a folder outside it, e.g. .gitmem"),
    (".CLAUDE/x", "is inside .CLAUDE/: choose"),
    (".Claude/memory/deep", "is inside .Claude/: choose"),
    ("docs/.claude/x", "is inside docs/.claude/: choose"),
    (".cursor/memory", "is inside .cursor/, an AI agent's own memory folder"),
    (".Cursor", "is .Cursor/ itself, an AI agent's own memory folder"),
    (".codex/m", "an AI agent's own memory folder"),
    (".GEMINI/m", "an AI agent's own memory folder"),
    (".windsurf", "an AI agent's own memory folder"),
    (".continue/x", "an AI agent's own memory folder"),
    (".aider.tags.cache.v3", "an AI agent's own memory folder"),
    (".Aider", "an AI agent's own memory folder"),
    (".clinerules", "an AI agent's own memory folder"),
    (".roo/x", "an AI agent's own memory folder"),
    ("memory-bank", "an AI agent's own memory folder"),
    ("Memory-Bank/x", "an AI agent's own memory folder"),
    ("agent-memory", "an AI agent's own memory folder"),
    (".serena/memories", "an AI agent's own memory folder"),
    (".github/copilot", "is .github/copilot/, GitHub Copilot's folder"),
    (".GitHub/Copilot-memory/x", "is inside .GitHub/Copilot-memory/, GitHub Copilot's folder"),
    (".github/instructions", "GitHub Copilot's folder"),
]


@pytest.mark.parametrize(("value", "fragment"), REFUSED_DIRS)
def test_memory_dir_refusals(value: str, fragment: str) -> None:
    message = check_memory_dir(value)
    assert message is not None
    assert message.startswith("memory.dir ")
    assert fragment in message
    assert "\n" not in message
    result = load(env={"GITMEM_DIR": value}) if value.strip() else None
    if result is not None:
        assert result.dir == ".gitmem"
        assert len(result.warnings) == 1


@pytest.mark.parametrize("name", AGENT_FOLDERS)
def test_every_listed_agent_folder_is_refused_in_any_case(name: str) -> None:
    for spelling in (name, name.upper(), name.title()):
        assert check_memory_dir(spelling) is not None
        assert check_memory_dir(f"{spelling}/memory") is not None
        assert check_memory_dir(f"docs/{spelling}/memory") is not None


@pytest.mark.parametrize(
    "value",
    [
        ".gitmem",
        "memory",
        "docs/memory",
        "./docs/memory/",
        ".gitmemory",
        ".github/gitmem",
        "git",
        ".gitignore-notes",
        "claude-notes",
        "my.claude",
        "cursor",
        "documentation/agents-guide",
        "mémoire",
        "notes~draft",
    ],
)
def test_memory_dir_accepted(value: str, tmp_path: Path) -> None:
    assert check_memory_dir(value) is None
    assert check_memory_dir(value, tmp_path) is None


def test_symlink_leading_outside_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    outside = tmp_path / "elsewhere"
    root.mkdir()
    outside.mkdir()
    (root / "mem").symlink_to(outside, target_is_directory=True)
    message = check_memory_dir("mem", root)
    assert message is not None
    assert "symbolic link 'mem'" in message and "outside the repository" in message
    assert check_memory_dir("mem/sub", root) is not None
    assert check_memory_dir("mem") is None  # no work tree (bare repository): nothing to follow
    result = load(env={"GITMEM_DIR": "mem/sub"}, root=root)
    assert result.dir == ".gitmem"
    assert "outside the repository" in only_warning(result)


def test_symlinked_parent_leading_outside_is_refused(repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    (outside / "memory").mkdir(parents=True)
    (repo / "docs").symlink_to(outside)
    message = check_memory_dir("docs/memory", repo)
    assert message is not None and "symbolic link 'docs'" in message


def test_dangling_symlink_outside_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "mem").symlink_to(tmp_path / "not-there")
    assert check_memory_dir("mem", root) is not None


def test_symlink_into_git_folder_is_refused(repo: Path) -> None:
    (repo / "mem").symlink_to(repo / ".git" / "info")
    message = check_memory_dir("mem", repo)
    assert message is not None and "is inside .git/, git's own folder" in message
    (repo / "rootlink").symlink_to(repo)
    assert "repository root" in (check_memory_dir("rootlink", repo) or "")


def test_symlink_inside_the_repository_is_refused_naming_the_real_folder(repo: Path) -> None:
    """`gitmem init --dir link/mem`, link a committed link to real/: the files landed in
    real/mem while propose wrote link/mem into git's tree, turning the link into a folder
    on the candidate branch, which admit then refused as changing more than its file."""
    (repo / "real").mkdir()
    (repo / "link").symlink_to("real", target_is_directory=True)
    message = check_memory_dir("link/mem", repo)
    assert message is not None and "symbolic link 'link' to 'real'" in message
    assert "name the real folder, e.g. real/mem" in message
    assert check_memory_dir("real/mem", repo) is None
    assert check_memory_dir("not/there/yet", repo) is None


def test_symlink_loop_is_refused(tmp_path: Path) -> None:
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    message = check_memory_dir("a", tmp_path)
    assert message is not None


def test_a_folder_of_a_submodule_or_a_nested_clone_is_refused(memory: Path) -> None:
    """memory.dir inside a submodule's work tree: `gitmem init` wrote the memory's files into
    the submodule (where this repository's `git add` refuses them), and `gitmem propose` wrote
    a candidate whose tree held a folder in place of the submodule's commit, so its admission
    deleted the submodule from main. Such a folder belongs to another repository."""
    from clirunner import SECRETS, ok, proposed, run

    from conftest import git, new_repo

    library = new_repo(memory.parent / "library")
    git(memory, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(library),
        "vendor")  # fmt: skip
    git(memory, "commit", "-q", "-m", "a submodule")
    for value in ("vendor/mem", "vendor", "vendor/deep/mem"):
        message = check_memory_dir(value, memory)
        assert message is not None and "another git repository" in message, value
    (memory / "nested").mkdir()
    git(memory / "nested", "init", "-q")
    assert "another git repository" in (check_memory_dir("nested/mem", memory) or "")
    assert check_memory_dir("vendor/mem") is None  # no work tree to look at

    (memory / ".gitmem.toml").write_text('[memory]\ndir = "vendor/mem"\n')
    git(memory, "add", ".gitmem.toml")
    git(memory, "commit", "-q", "--no-verify", "-m", "memory in the submodule")
    done = ok(run(memory, *SECRETS))
    assert "memory.dir 'vendor/mem' is inside vendor/, the work tree of another" in done.stderr
    tree = git(memory, "ls-tree", f"gitmem/{proposed(done.output)}", "vendor")
    assert tree.startswith("160000 commit "), tree


# --- branch names -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["main", "trunk", "release/2.0", "feature/x-y_z", "memory", "ünïcode", "a@b"]
)
def test_valid_branch_names(name: str) -> None:
    assert check_branch_name(name) is None


@pytest.mark.parametrize(
    "name",
    ["", "a..b", "a b", "-x", "HEAD", "@", "a@{b", "/a", "a/", "a//b", "a.", ".a", "a/.b",
     "a.lock", "a.lock/b", "a~1", "a^", "a:b", "a?", "a*", "a[b", "a\\b", "a\tb", "a\x7f"],
)  # fmt: skip
def test_invalid_branch_names(name: str) -> None:
    assert check_branch_name(name) is not None


BRANCH_SAMPLES = ["main", "release/2.0", "a..b", "a b", "-x", "HEAD", "a@{b", "a//b", "a.", ".a",
                  "a/.b", "a.lock", "a/b.lock/c", "a~1", "a^", "a:b", "a?", "a*", "a[b", "a\\b",
                  "ünïcode", "a@b", "@{-1}", "x/y/z", "a\tb"]  # fmt: skip


@pytest.mark.parametrize("name", BRANCH_SAMPLES)
def test_branch_check_is_never_looser_than_git(name: str, tmp_path: Path) -> None:
    import subprocess

    done = subprocess.run(
        ["git", "check-ref-format", "--branch", name], cwd=tmp_path, capture_output=True
    )
    if check_branch_name(name) is None:
        assert done.returncode == 0
    if done.returncode != 0:
        assert check_branch_name(name) is not None


# --- project_from_url ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://example.com/org/Shop-App.git", "shop-app"),
        ("https://example.com/org/Shop-App.git/", "shop-app"),
        ("https://example.com/org/Shop-App", "shop-app"),
        ("https://example.com/org/Shop-App/", "shop-app"),
        ("https://user:token@example.com:8443/org/shop-app.git?x=1#y", "shop-app"),
        ("http://example.com/a/b/c/Shop%20App.git", "shop-app"),
        ("git@example.com:org/shop_app.git", "shop-app"),
        ("git@example.com:shop_app.git", "shop-app"),
        ("example.com:org/ShopApp.git", "shopapp"),
        ("ssh://git@example.com/org/shop.app.git", "shop-app"),
        ("ssh://git@example.com:2222/~user/Shop_App.git/", "shop-app"),
        ("git://example.com/org/shop-app.git", "shop-app"),
        ("file:///srv/git/shop-app.git", "shop-app"),
        ("/srv/git/shop-app.git", "shop-app"),
        ("/srv/git/shop-app.git/", "shop-app"),
        ("/home/me/work/Shop-App/.git", "shop-app"),
        ("../shop-app", "shop-app"),
        ("C:\\repos\\Shop App\\", "shop-app"),
        ("C:/repos/shop-app.git", "shop-app"),
        ("https://dev.example.com/org/proj/_git/Shop.App", "shop-app"),
        ("  https://example.com/org/Café-Crème.git  ", "cafe-creme"),
        ("https://example.com/org/__x__.git", "x"),
        ("https://example.com/org/" + "word-" * 30 + "end.git", None),
        ("https://example.com/", None),
        ("https://example.com/org/.git", "org"),
        ("https://example.com/org/---.git", None),
        ("", None),
        ("..", None),
    ],
)
def test_project_from_url(url: str, expected: str | None) -> None:
    result = project_from_url(url)
    if expected is None and "word-" in url:
        assert result is not None and len(result) <= 64 and result.startswith("word-word")
        assert not result.endswith("-")
    else:
        assert result == expected


# --- the schema ---------------------------------------------------------------------------------


def _schema() -> dict[str, Any]:
    text = (files("gitmem") / "schemas" / "settings.schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def test_schema_is_valid_and_documents_every_key() -> None:
    schema = _schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] and schema["title"] and schema["description"]
    assert schema["additionalProperties"] is False
    properties = schema["properties"]
    assert set(properties) == {
        "dir",
        "project",
        "branch",
        "autoAdmitAudited",
        "types",
        "maxBody",
        "requirePusherMatch",
        "semantic",
        "owners",
        "policyAdmins",
        "retireBy",
    }
    for name, spec in properties.items():
        assert spec.get("title") and spec.get("description"), name


def test_schema_defaults_match_the_code() -> None:
    properties = _schema()["properties"]
    defaults = Settings()
    assert properties["dir"]["default"] == defaults.dir
    assert properties["maxBody"]["default"] == defaults.max_body
    assert properties["autoAdmitAudited"]["default"] is defaults.auto_admit_audited
    assert properties["requirePusherMatch"]["default"] is defaults.require_pusher_match
    assert properties["semantic"]["default"] is defaults.semantic
    assert properties["types"]["default"] == list(defaults.types)
    assert properties["policyAdmins"]["default"] == list(defaults.policy_admins)


def test_the_example_of_a_full_file_passes_the_schema() -> None:
    import tomllib

    table = tomllib.loads(FULL)["memory"]
    assert list(jsonschema.Draft202012Validator(_schema()).iter_errors(table)) == []


# --- never an exception -------------------------------------------------------------------------

_values = st.one_of(
    st.text(max_size=30).map(json.dumps),
    st.integers(min_value=-(10**9), max_value=10**9).map(str),
    st.booleans().map(lambda value: str(value).lower()),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.lists(st.text(max_size=8), max_size=4).map(json.dumps),
    st.just("{ a = 1 }"),
)
_keys = st.sampled_from(
    ["dir", "project", "branch", "autoAdmitAudited", "types", "maxBody", "requirePusherMatch", "x"]
)


@settings(max_examples=300, deadline=None)
@given(
    entries=st.dictionaries(_keys, _values, max_size=8),
    env=st.dictionaries(
        st.sampled_from(
            ["GITMEM_DIR", "GITMEM_PROJECT", "GITMEM_BRANCH", "GITMEM_AUTO_ADMIT_AUDITED",
             "GITMEM_TYPES", "GITMEM_MAX_BODY", "GITMEM_REQUIRE_PUSHER_MATCH"]
        ),
        st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=20),
        max_size=7,
    ),
    noise=st.text(max_size=40),
)  # fmt: skip
def test_any_input_gives_settings_and_one_line_warnings(
    entries: dict[str, str], env: dict[str, str], noise: str
) -> None:
    text = "[memory]\n" + "".join(f"{key} = {value}\n" for key, value in entries.items())
    for project in (text, noise, text + noise):
        result = load(project, user=noise, env=env)
        assert isinstance(result, Settings)
        assert all("\n" not in warning for warning in lines(result))
        assert check_memory_dir(result.dir) is None
        assert check_branch_name(result.branch) is None
        assert 1 <= result.max_body <= 100_000
        assert all(set(t) <= set("abcdefghijklmnopqrstuvwxyz0123456789-") for t in result.types)


def test_loading_touches_no_home(isolated_env: Path) -> None:
    # HOME lies below a file: reading settings must not need it
    assert not Path(os.environ["HOME"]).exists()
    assert load_settings(project_toml=None, pyproject_toml=None).warnings == ()


def test_warnings_follow_the_order_of_the_sources() -> None:
    result = load(
        "[memory]\nmaxBody = 'x'\n",
        user="[memory\n",
        env={"GITMEM_BRANCH": "a b"},
    )
    assert [w.split(":")[0] for w in lines(result)] == [
        ".gitmem.toml",
        str(user_settings_path()),
        "environment",
    ]


def test_each_warning_keeps_its_file_and_line_apart_from_its_text() -> None:
    """The pre-commit SETTINGS rule reads the file and the line from these fields: parsing
    them back out of the printed line missed every shape but `<file>[:<line>]: <text>`."""
    result = load(
        "[memory]\nmaxBody = 'x'\n",
        pyproject="[tool.gitmem.memory]\ndir = 'a'\n",
        user="[memory\n",
        env={"GITMEM_BRANCH": "a b"},
    )
    project, pyproject, user, environment = result.warnings
    assert (project.file, project.line) == (".gitmem.toml", None)
    assert project.text.startswith("memory.maxBody: expected a whole number")
    assert (pyproject.file, pyproject.line) == ("pyproject.toml", None)
    assert pyproject.text.startswith("[tool.gitmem] is ignored because .gitmem.toml exists")
    assert (user.file, user.line) == (str(user_settings_path()), 1)
    assert str(user) == f"{user.file}:1: {user.text}"
    assert user.text.startswith("invalid TOML (")
    # the environment is no file: it is named in the text, as it always was
    assert (environment.file, environment.line) == (None, None)
    assert str(environment) == environment.text
    assert environment.text.startswith("environment: GITMEM_BRANCH 'a b' is not a valid")


# --- the quick schema check agrees with jsonschema ----------------------------------------------

_any_value = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**6), max_value=10**6)
    | st.floats(allow_nan=False)
    | st.text(max_size=70)
    | st.sampled_from(["main", "shop-app", "a", "x\n", "-a", "a-", ".gitmem", "3000"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=8,
)


@settings(max_examples=500, deadline=None)
@given(key=st.sampled_from(sorted(_schema()["properties"])), value=_any_value)
def test_quick_check_never_accepts_what_jsonschema_rejects(key: str, value: Any) -> None:
    from gitmem.settings.load import _surely_valid

    spec = _schema()["properties"][key]
    reference = not list(jsonschema.Draft202012Validator(spec).iter_errors(value))
    quick = _surely_valid(spec, value)
    assert quick == reference or (not quick and reference), (key, value)
    if isinstance(value, str | int | float | bool) or (
        isinstance(value, list) and all(isinstance(item, str) for item in value)
    ):
        assert quick == reference, (key, value)


def test_quick_check_is_unsure_of_keywords_it_does_not_know() -> None:
    from gitmem.settings.load import _surely_valid

    assert _surely_valid({"type": "string"}, "x")
    assert not _surely_valid({"type": "string", "format": "email"}, "x")
    assert not _surely_valid({"type": ["string", "null"]}, "x")


def test_valid_settings_do_not_import_jsonschema(tmp_path: Path) -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from gitmem.settings.load import load_settings\n"
        f"s = load_settings(project_toml={FULL!r}, pyproject_toml=None, user_toml=None,"
        " environ={'GITMEM_MAX_BODY': '10'})\n"
        "assert s.max_body == 10 and not s.warnings, s\n"
        "print('jsonschema' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path
    )
    assert done.stdout.strip() == "False"


def test_semantic_recall_can_be_switched_off() -> None:
    assert load_settings(project_toml=None, pyproject_toml=None, user_toml=None).semantic
    off = load_settings(project_toml="[memory]\nsemantic = false\n", pyproject_toml=None,
                        user_toml=None, environ={})  # fmt: skip
    assert off.semantic is False
    env = load_settings(project_toml=None, pyproject_toml=None, user_toml=None,
                        environ={"GITMEM_SEMANTIC": "0"})  # fmt: skip
    assert env.semantic is False


def test_owners_from_files_and_environment() -> None:
    text = '[memory]\nowners = { mistake = "@acme/qa  @bob", decision = "@acme/architects" }\n'
    loaded = load_settings(project_toml=text, pyproject_toml=None, user_toml=None, environ={})
    assert loaded.owners == (("decision", "@acme/architects"), ("mistake", "@acme/qa @bob"))
    assert loaded.warnings == ()
    env = {"GITMEM_OWNERS": "method=@acme/devs, decision=me@example.com"}
    loaded = load_settings(project_toml=text, pyproject_toml=None, user_toml=None, environ=env)
    assert loaded.owners == (("decision", "me@example.com"), ("method", "@acme/devs"))
    for bad in ('{ Decision = "@a" }', '{ decision = "a b" }', "{ decision = 3 }", '"@a"'):
        loaded = load_settings(
            project_toml=f"[memory]\nowners = {bad}\n",
            pyproject_toml=None,
            user_toml=None,
            environ={},
        )
        assert loaded.owners == ()
        assert loaded.warnings and "memory.owners: expected a table" in str(loaded.warnings[0])
        assert str(loaded.warnings[0]).endswith("; using the default {}"), loaded.warnings
    # set aside in the environment, the project file's table is what is used, as written
    loaded = load_settings(
        project_toml=text, pyproject_toml=None, user_toml=None, environ={"GITMEM_OWNERS": "x"}
    )
    assert str(loaded.warnings[0]).endswith(
        '; using { decision = "@acme/architects", mistake = "@acme/qa @bob" } from .gitmem.toml'
    ), loaded.warnings
