"""Fixtures the gate's push tests share: a bare remote with the server hook installed, and a
clone of the `memory` fixture's repository connected to it."""

from __future__ import annotations

from pathlib import Path

import pytest
from remote import connect, make_server


@pytest.fixture
def server(tmp_path: Path) -> Path:
    return make_server(tmp_path)


@pytest.fixture
def clone(memory: Path, server: Path) -> Path:
    return connect(memory, server)
