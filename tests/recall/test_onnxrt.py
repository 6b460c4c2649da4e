"""gitmem.recall.onnxrt: the model run through onnxruntime's C library, as its binding runs it.

The pinned model is run both ways on the same inputs: every output element must be equal, so
the C path is the same runtime, not an approximation of it. Refusals come back as OnnxError
with onnxruntime's own message, never as a crash; and loading the model in a fresh process
imports neither numpy nor onnxruntime's binding, which is what the module is for."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from array import array
from pathlib import Path

import pytest

from gitmem.recall import onnxgraph, onnxrt, semantic

needs_extra = pytest.mark.skipif(not semantic.available(), reason="gitmem[semantic] not installed")


def _fresh_python(script: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """script run by this interpreter in a process of its own (nothing imported yet)."""
    return subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        cwd=cwd,
        check=False,
    )


@needs_extra
def test_the_library_is_the_one_inside_the_installed_onnxruntime() -> None:
    found = onnxrt.library()
    assert found is not None and found.is_file()
    assert found.parent.name == "capi" and found.parent.parent.name == "onnxruntime"


@needs_extra
def test_the_pinned_model_gives_what_onnxruntimes_binding_gives() -> None:
    """Every element of the output equals the binding's, for batches with padding."""
    np = pytest.importorskip("numpy")
    ort = pytest.importorskip("onnxruntime")
    model = onnxgraph.gather_first(semantic._verified(semantic._MODEL_FILE))
    options = ort.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    options.enable_mem_pattern = False
    binding = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    session = onnxrt.Session(model)
    rng = np.random.default_rng(4)
    for batch, width in ((1, 5), (3, 17), (2, 64)):
        ids = rng.integers(0, 30522, (batch, width)).astype(np.int64)
        mask = np.ones_like(ids)
        mask[0, width // 2 :] = 0  # padding in the first row
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": 0 * ids}
        expected = binding.run(["last_hidden_state"], feeds)[0]
        shape, got = session.run(
            {name: array("q", value.ravel().tolist()) for name, value in feeds.items()},
            (batch, width),
            "last_hidden_state",
        )
        assert shape == expected.shape
        assert np.array_equal(np.frombuffer(got, dtype=np.float32).reshape(shape), expected)


@needs_extra
def test_refusals_are_errors_with_onnxruntimes_message() -> None:
    with pytest.raises(onnxrt.OnnxError, match="CreateSessionFromArray"):
        onnxrt.Session(b"\x08\x07 not a model")
    session = onnxrt.Session(onnxgraph.gather_first(semantic._verified(semantic._MODEL_FILE)))
    ids = array("q", [101, 7592, 102])
    with pytest.raises(onnxrt.OnnxError, match="Run"):
        session.run({"no_such_input": ids}, (1, 3), "last_hidden_state")
    with pytest.raises(onnxrt.OnnxError, match="Run"):
        feeds = {"input_ids": ids, "attention_mask": ids, "token_type_ids": ids}
        session.run(feeds, (1, 3), "no_such_output")
    with pytest.raises(ValueError, match="not 6 int64 values"):
        session.run({"input_ids": ids}, (2, 3), "last_hidden_state")
    feeds = {"input_ids": ids, "attention_mask": array("q", [1] * 3)}
    feeds["token_type_ids"] = array("q", [0] * 3)
    shape, out = session.run(feeds, (1, 3), "last_hidden_state")
    assert shape == (1, 3, 384) and len(out) == 3 * 384


@needs_extra
def test_a_fresh_process_runs_the_model_without_numpy_or_the_binding(tmp_path: Path) -> None:
    """The point of the module: the model loads and answers, and neither numpy nor
    onnxruntime's Python package is imported; a home that cannot be written (where
    onnxruntime might store a telemetry id) makes no noise on stderr."""
    home = tmp_path / "home"
    home.mkdir()
    home.chmod(0o500)
    script = (
        "import sys\n"
        "from gitmem.recall import semantic\n"
        "v = semantic.embed_query('every Friday the nightly export times out halfway')\n"
        "assert v is not None and abs(sum(x * x for x in v) - 1) < 1e-9\n"
        "assert 'numpy' not in sys.modules, 'numpy imported'\n"
        "assert 'onnxruntime' not in sys.modules, 'the binding imported'\n"
    )
    done = _fresh_python(script, tmp_path, HOME=str(home))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


@needs_extra
def test_running_the_model_writes_no_device_id_nor_telemetry_cache(tmp_path: Path) -> None:
    """onnxruntime's builds for Linux and macOS keep a device id and an offline event cache
    (under ~/.cache/Microsoft/DeveloperTools and the temporary folder) unless told not to
    before they initialise: every recall with the extra wrote them. Nothing may be written
    outside gitmem's own cache."""
    home, temporary = tmp_path / "home", tmp_path / "tmp"
    home.mkdir()
    temporary.mkdir()
    script = "from gitmem.recall import semantic\nassert semantic.embed_query('retry payments')\n"
    env = {k: v for k, v in os.environ.items() if k != "ORT_DISABLE_TELEMETRY"}
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env={**env, "HOME": str(home), "TMPDIR": str(temporary), "XDG_CACHE_HOME": ""},
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert [p for p in (*home.rglob("*"), *temporary.rglob("*"))] == []


@needs_extra
def test_loading_ahead_leaves_the_model_loaded_and_no_thread_behind(tmp_path: Path) -> None:
    """In a fresh process the block runs while the model loads; at its end the model is
    loaded (the caller's first use waits for nothing) and the loading thread has ended,
    whether or not the block used the model."""
    script = (
        "import threading\n"
        "from gitmem.recall import semantic\n"
        "with semantic.loading_ahead():\n"
        "    assert any(t.name == 'gitmem-model-ahead' for t in threading.enumerate())\n"
        "assert semantic._loaded.cache_info().currsize == 1\n"
        "assert not any(t.name == 'gitmem-model-ahead' for t in threading.enumerate())\n"
        "with semantic.loading_ahead():\n"
        "    assert not any(t.name == 'gitmem-model-ahead' for t in threading.enumerate())\n"
    )
    done = _fresh_python(script, tmp_path)
    assert done.returncode == 0, done.stderr


def test_loading_ahead_without_the_extra_is_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(semantic, "_file", lambda spec: None)
    semantic._loaded.cache_clear()  # else a model an earlier test loaded ends it at once
    before = threading.active_count()
    with semantic.loading_ahead():
        assert threading.active_count() == before
    assert semantic._loaded.cache_info().currsize == 0


def test_an_onnxruntime_without_its_c_library_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where onnxruntime is installed but ships no C library (before 1.19), the error says
    so and how to get one, rather than asking for an extra that is already installed."""
    if not semantic.available():
        pytest.skip("gitmem[semantic] not installed")
    monkeypatch.setattr(onnxrt, "library", lambda: None)
    semantic._loaded.cache_clear()
    try:
        assert not semantic.available()
        with pytest.raises(semantic.SemanticUnavailable, match=r"onnxruntime>=1\.19"):
            semantic.embed_query("anything at all")
    finally:
        semantic._loaded.cache_clear()


def test_a_library_that_cannot_load_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A C library this system cannot load (here, a file that is not one) makes recall say
    what failed and how to go on without the model, rather than end in a traceback."""
    if not semantic.available():
        pytest.skip("gitmem[semantic] not installed")
    bad = tmp_path / "libonnxruntime.so.1.99.0"
    bad.write_bytes(b"not a shared library")
    monkeypatch.setattr(onnxrt, "library", lambda: bad)
    onnxrt._made.cache_clear()
    semantic._loaded.cache_clear()
    try:
        with pytest.raises(semantic.SemanticUnavailable, match="GITMEM_SEMANTIC=false") as raised:
            semantic.embed_query("anything at all")
        assert "cannot load" in str(raised.value) and str(bad) in str(raised.value)
    finally:
        onnxrt._made.cache_clear()
        semantic._loaded.cache_clear()


def test_importing_recall_does_not_load_ctypes(tmp_path: Path) -> None:
    """Every recall imports gitmem.recall.semantic, a keyword-only one too: ctypes (some 3 ms)
    is imported only where the model is asked for."""
    script = (
        "import sys\n"
        "import gitmem.recall.semantic, gitmem.recall.service, gitmem.recall.cache\n"
        "assert 'ctypes' not in sys.modules, 'ctypes imported'\n"
        "assert 'gitmem.recall.onnxrt' not in sys.modules, 'onnxrt imported'\n"
    )
    done = _fresh_python(script, tmp_path)
    assert done.returncode == 0, done.stderr
