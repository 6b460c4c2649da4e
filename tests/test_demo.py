"""`make demo` runs tests/demo.sh: the whole story must keep working, so the suite runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

# the whole demo, end to end
pytestmark = pytest.mark.e2e

DEMO = Path(__file__).parent / "demo.sh"


def test_demo_runs_end_to_end(tmp_path: Path) -> None:
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env["PATH"]])
    done = subprocess.run(["bash", str(DEMO)], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    out = done.stdout + done.stderr
    assert "demo: every step behaved as it should" in out
    assert "(pre-receive hook declined)" in out
    assert "SECRET github-pat" in out and "HISTORY-ADMIT" in out
    assert "ID-DATE" not in out  # the forged entry is wrong for one reason only
    assert "admitted shop-decision-" in out
    assert "retry-payments-with-idempotency-keys\n" in out.split("gitmem recall")[-2]
    assert out.split("gitmem recall")[-1].count("no precedent") == 1
