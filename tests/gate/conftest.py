"""Fixtures the gate's push tests share: a bare remote with the server hook installed, and a
clone of the `memory` fixture's repository connected to it.

The connected pair is made once per test process and copied for each test (the push that
connects them runs the server's hook, which took most of a push test's set-up): a test gets
the same folders, the same names and the same history as if it had made them itself."""

from __future__ import annotations

from pathlib import Path

import pytest
from remote import admitted, connected_copy, connected_template, make_server

from conftest import isolated


@pytest.fixture(scope="session")
def connected(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The pair the `clone` fixture copies, made under the isolation every test runs in."""
    with isolated(tmp_path_factory.mktemp("connected-env")):
        return connected_template(tmp_path_factory.mktemp("connected"))


@pytest.fixture
def clone(connected: Path, tmp_path: Path) -> Path:
    """The `memory` repository (tmp_path/work), its origin a server with the hook
    (tmp_path/server.git), settings committed and main pushed (remote.connect)."""
    return connected_copy(connected, tmp_path)[0]


@pytest.fixture(scope="session")
def connected_admitted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The pair `admitted_clone` copies, and the id of the entry admitted in it."""
    with isolated(tmp_path_factory.mktemp("admitted-env")):
        root = connected_template(tmp_path_factory.mktemp("admitted"))
        return root, admitted(root / "work")


@pytest.fixture
def admitted_clone(connected_admitted: tuple[Path, str], tmp_path: Path) -> tuple[Path, str]:
    """The `clone` with one method entry proposed, admitted and pushed (remote.admitted, the
    start of many attacks), and the entry's id."""
    root, entry_id = connected_admitted
    return connected_copy(root, tmp_path)[0], entry_id


@pytest.fixture
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """A bare remote with the server hook: the clone's origin when the test has a clone, else
    an empty one."""
    for clone in ("clone", "admitted_clone"):
        if clone in request.fixturenames:
            request.getfixturevalue(clone)
            return tmp_path / "server.git"
    return make_server(tmp_path)
