"""`make demo` runs tests/demo.sh: the whole story must keep working, so the suite runs it."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

# the whole demo, end to end
pytestmark = pytest.mark.e2e

DEMO = Path(__file__).parent / "demo.sh"
ROOT = Path(__file__).parent.parent


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_the_readmes_two_make_targets_resolve() -> None:
    """`make demo` and `make test`, the README's first two commands, name the demo and the
    suite: a dry run of each (`make -n`, nothing executed) must find every prerequisite. A
    botched edit of the Makefile's head once turned `demo` into a rule needing targets
    called `into` and `.venv`, and `make demo` failed for days while the suite stayed green."""
    for target, runs in (("demo", "tests/demo.sh"), ("test", "pytest")):
        done = subprocess.run(
            ["make", "-n", "-C", str(ROOT), target], capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, (target, done.stderr)
        assert runs in done.stdout, (target, done.stdout)


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


def test_the_demos_commands_paste_as_shown(tmp_path: Path) -> None:
    """Every command the demo echoes reads back as the words it ran (issue 14: titles with
    spaces were echoed unquoted), and the hand-made leaky and forged files show how."""
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env["PATH"]])
    out = subprocess.run(["bash", str(DEMO)], capture_output=True, text=True, env=env).stdout
    commands = []
    lines = iter(out.splitlines())
    for line in lines:
        if line.startswith("$ "):
            command = line[2:]
            while command.endswith("\\"):
                command = command[:-1] + next(lines)
            commands.append(command)
    for command in commands:
        done = subprocess.run(["bash", "-n", "-c", command], capture_output=True, text=True)
        assert done.returncode == 0, (command, done.stderr)
    propose = next(c for c in commands if c.startswith("gitmem propose --type decision"))
    words = shlex.split(propose)
    assert words[words.index("--title") + 1] == "Retry payments with idempotency keys"
    assert words[words.index("--evidence") + 1] == "Incident 2026-11-02; src/payments.py"
    assert any(c.startswith("sed ") and "leaky.md'" in c for c in commands)
    assert any(c.startswith("sed ") and "forged.md'" in c for c in commands)
