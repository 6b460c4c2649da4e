"""onnxruntime's C API through ctypes: the model's session made and run without its Python binding.

Why not `import onnxruntime`: its binding imports numpy when it loads (140-170 ms on the
development machine) and then itself (some 75 ms), both holding the GIL, and a recall or an
admission in a fresh process runs the model once or twice. Since 1.19 the onnxruntime wheel
ships its C library beside the binding (`capi/libonnxruntime.so.<version>`,
`libonnxruntime.<version>.dylib`, `onnxruntime.dll`) so that other packages can use the same
runtime (onnxruntime-genai loads it from there too). Loading that library takes a few
milliseconds, and ctypes releases the GIL during each call, so the session (some 60 ms to make)
is made in one thread while Python work goes on in another.

The C API is one table of function pointers (`OrtApi`, onnxruntime_c_api.h). onnxruntime only
ever appends to it, so an entry's position is fixed for every version: `_API` names the ones
used here by that position, all present since the first version of the table. Each call
returns an `OrtStatus` (NULL when it succeeded), turned here into `OnnxError`.

Only what gitmem's model needs: a session made from bytes in memory (so that the bytes whose
SHA-256 was checked are the bytes that run) with the options gitmem.recall.semantic chooses,
int64 inputs, one float32 or double output, copied out before its buffer is released.
"""

from __future__ import annotations

import ctypes
import math
import os
import sys
import threading
import weakref
from array import array
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from importlib.util import find_spec
from pathlib import Path
from typing import Any, Final

__all__ = ["OnnxError", "Session", "library", "prepare"]

_P = ctypes.c_void_p
_PP = ctypes.POINTER(ctypes.c_void_p)
_STRINGS = ctypes.POINTER(ctypes.c_char_p)
_I64S = ctypes.POINTER(ctypes.c_int64)

#: The OrtApi entries used, by position, with their argument types (onnxruntime_c_api.h).
_API: Final[dict[str, tuple[int, tuple[Any, ...]]]] = {
    "GetErrorMessage": (2, (_P,)),
    "CreateEnv": (3, (ctypes.c_int, ctypes.c_char_p, _PP)),
    "DisableTelemetryEvents": (6, (_P,)),
    "CreateSessionFromArray": (8, (_P, ctypes.c_char_p, ctypes.c_size_t, _P, _PP)),
    "Run": (9, (_P, _P, _STRINGS, _PP, ctypes.c_size_t, _STRINGS, ctypes.c_size_t, _PP)),
    "CreateSessionOptions": (10, (_PP,)),
    "DisableMemPattern": (17, (_P,)),
    "SetSessionLogSeverityLevel": (22, (_P, ctypes.c_int)),
    "SetSessionGraphOptimizationLevel": (23, (_P, ctypes.c_int)),
    "SetIntraOpNumThreads": (24, (_P, ctypes.c_int)),
    "SetInterOpNumThreads": (25, (_P, ctypes.c_int)),
    "CreateTensorWithDataAsOrtValue": (
        49,
        (_P, _P, ctypes.c_size_t, _I64S, ctypes.c_size_t, ctypes.c_int, _PP),
    ),
    "GetTensorMutableData": (51, (_P, _PP)),
    "GetTensorElementType": (60, (_P, ctypes.POINTER(ctypes.c_int))),
    "GetDimensionsCount": (61, (_P, ctypes.POINTER(ctypes.c_size_t))),
    "GetDimensions": (62, (_P, _I64S, ctypes.c_size_t)),
    "GetTensorTypeAndShape": (65, (_P, _PP)),
    "CreateCpuMemoryInfo": (69, (ctypes.c_int, ctypes.c_int, _PP)),
    "ReleaseStatus": (93, (_P,)),
    "ReleaseSession": (95, (_P,)),
    "ReleaseValue": (96, (_P,)),
    "ReleaseTensorTypeAndShapeInfo": (99, (_P,)),
    "ReleaseSessionOptions": (100, (_P,)),
}
#: The table's version asked for: the first whose onnxruntime ships the C library in its wheel.
_API_VERSION: Final = 19
#: The entries that return nothing (the others but GetErrorMessage return an OrtStatus*).
_RETURN_NOTHING: Final = {name for name in _API if name.startswith("Release")}
# enums of onnxruntime_c_api.h
_LOG_ERROR: Final = 3  # OrtLoggingLevel ORT_LOGGING_LEVEL_ERROR
_DISABLE_ALL: Final = 0  # GraphOptimizationLevel ORT_DISABLE_ALL
_ARENA_ALLOCATOR, _MEM_DEFAULT = 1, 0  # OrtAllocatorType, OrtMemType
_FLOAT, _INT64, _DOUBLE = 1, 7, 11  # ONNXTensorElementDataType
#: The library's file name in the wheel, by platform.
_NAMES: Final = {
    "linux": "libonnxruntime.so.*",
    "darwin": "libonnxruntime.*.dylib",
    "win32": "onnxruntime.dll",
}


class OnnxError(RuntimeError):
    """onnxruntime refused a call; the message is its own."""


def library() -> Path | None:
    """The C library inside the installed onnxruntime package (found without importing it)."""
    try:
        spec = find_spec("onnxruntime")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    capi = Path(next(iter(spec.submodule_search_locations))) / "capi"
    found = sorted(capi.glob(_NAMES.get(sys.platform, _NAMES["linux"])))
    return found[0] if found else None


class _Api:
    """The library's OrtApi table, as Python callables named after its entries."""

    def __init__(self, path: Path) -> None:
        try:
            lib = ctypes.CDLL(os.fspath(path))
        except OSError as exc:  # a library this system cannot load (another libc, a bad file)
            raise OnnxError(f"cannot load {path}: {exc}") from exc

        class Base(ctypes.Structure):
            _fields_ = [
                ("GetApi", ctypes.CFUNCTYPE(_P, ctypes.c_uint32)),
                ("GetVersionString", ctypes.CFUNCTYPE(ctypes.c_char_p)),
            ]

        lib.OrtGetApiBase.restype = ctypes.POINTER(Base)
        base = lib.OrtGetApiBase().contents
        table = base.GetApi(_API_VERSION)
        if not table:
            version = base.GetVersionString().decode()
            raise OnnxError(f"onnxruntime {version} lacks C API version {_API_VERSION}")
        size = max(position for position, _ in _API.values()) + 1
        entries = ctypes.cast(table, ctypes.POINTER(_P * size)).contents
        self._lib = lib  # kept: the table lives in it
        self.fn: dict[str, Callable[..., Any]] = {}
        for name, (position, args) in _API.items():
            if name == "GetErrorMessage":
                result: Any = ctypes.c_char_p
            elif name in _RETURN_NOTHING:
                result = None
            else:
                result = _P  # an OrtStatus*, NULL when the call succeeded
            address = entries[position]
            if not address:
                raise OnnxError(f"onnxruntime's C API has no {name}")
            self.fn[name] = ctypes.CFUNCTYPE(result, *args)(address)

    def __call__(self, name: str, *args: Any) -> None:
        """Call an entry that returns a status; OnnxError when it is not NULL."""
        status = self.fn[name](*args)
        if status:
            message = self.fn["GetErrorMessage"](status)
            self.fn["ReleaseStatus"](status)
            raise OnnxError(f"onnxruntime {name}: {message.decode(errors='replace')}")


#: Held while the runtime is made: two threads may ask for it at once (`prepare`).
_making = threading.Lock()


def prepare() -> None:
    """Load the library and make the process's environment now (tens of ms), for a thread that
    has nothing else to do while another one reads the bytes of a session to come."""
    _runtime()


def _runtime() -> tuple[_Api, _P, _P]:
    with _making:
        return _made()


@cache
def _made() -> tuple[_Api, _P, _P]:
    """The library's table, the process's one OrtEnv and a CPU memory description, made once
    (onnxruntime allows one environment a process) and kept for the process's life."""
    path = library()
    if path is None:
        raise OnnxError("onnxruntime's C library was not found in its package")
    # gitmem runs inside git hooks and agents' tools and sends nothing anywhere. On Linux and
    # macOS onnxruntime's own builds keep a device id (~/.cache/Microsoft/DeveloperTools) and
    # an offline event cache, and upload events, unless ORT_DISABLE_TELEMETRY is set before
    # the library initialises: the one opt-out it reads, from the process's environment (a
    # value the user set is left as it is). DisableTelemetryEvents below only quiets the
    # events it calls non-essential.
    os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
    api = _Api(path)
    env = _P()
    api("CreateEnv", _LOG_ERROR, b"gitmem", ctypes.byref(env))
    api("DisableTelemetryEvents", env)
    memory = _P()
    api("CreateCpuMemoryInfo", _ARENA_ALLOCATOR, _MEM_DEFAULT, ctypes.byref(memory))
    return api, env, memory


class Session:
    """One model's session: made from the model's bytes, run on int64 inputs.

    The options are the ones gitmem.recall.semantic's model needs: one thread within and one
    between nodes (a build runs two processes, one a core), graph optimisations off, no memory
    pattern (`semantic._Model` says why), errors only in the log."""

    def __init__(self, model: bytes) -> None:
        api, env, _ = _runtime()
        options = _P()
        api("CreateSessionOptions", ctypes.byref(options))
        try:
            api("SetIntraOpNumThreads", options, 1)
            api("SetInterOpNumThreads", options, 1)
            api("SetSessionGraphOptimizationLevel", options, _DISABLE_ALL)
            api("SetSessionLogSeverityLevel", options, _LOG_ERROR)
            api("DisableMemPattern", options)
            session = _P()
            api("CreateSessionFromArray", env, model, len(model), options, ctypes.byref(session))
        finally:
            api.fn["ReleaseSessionOptions"](options)
        self._api = api
        self._session = session
        weakref.finalize(self, api.fn["ReleaseSession"], session)

    def run(
        self, inputs: Mapping[str, array[int]], shape: Sequence[int], output: str
    ) -> tuple[tuple[int, ...], array[float]]:
        """Run the model on int64 inputs of one shape; (shape, values) of the float32 or
        double output.

        The inputs' buffers are lent to onnxruntime for the run, not copied; the output is
        copied out of onnxruntime's buffer before that is released."""
        api = self._api
        _, _, memory = _runtime()
        dims = (ctypes.c_int64 * len(shape))(*shape)
        count = math.prod(shape)
        values = (_P * len(inputs))()
        names = (ctypes.c_char_p * len(inputs))(*(name.encode() for name in inputs))
        out = (_P * 1)()
        try:
            for i, data in enumerate(inputs.values()):
                if data.typecode != "q" or len(data) != count:
                    raise ValueError(f"input {i} is not {count} int64 values")
                address, _ = data.buffer_info()
                tensor = _P()
                api(
                    "CreateTensorWithDataAsOrtValue",
                    memory,
                    address,
                    8 * count,
                    dims,
                    len(shape),
                    _INT64,
                    ctypes.byref(tensor),
                )
                values[i] = tensor.value
            wanted = (ctypes.c_char_p * 1)(output.encode())
            api("Run", self._session, None, names, values, len(inputs), wanted, 1, out)
            if not out[0]:
                raise OnnxError(f"the model gave no {output}")
            return self._floats(out[0])
        finally:
            for value in (*values, out[0]):
                if value:
                    api.fn["ReleaseValue"](value)

    def _floats(self, value: int) -> tuple[tuple[int, ...], array[float]]:
        api = self._api
        info = _P()
        api("GetTensorTypeAndShape", value, ctypes.byref(info))
        try:
            kind = ctypes.c_int()
            api("GetTensorElementType", info, ctypes.byref(kind))
            rank = ctypes.c_size_t()
            api("GetDimensionsCount", info, ctypes.byref(rank))
            dims = (ctypes.c_int64 * rank.value)()
            api("GetDimensions", info, dims, rank.value)
        finally:
            api.fn["ReleaseTensorTypeAndShapeInfo"](info)
        if kind.value not in (_FLOAT, _DOUBLE):
            raise OnnxError(f"the output is of element type {kind.value}, not float or double")
        shape = tuple(dims)
        count = math.prod(shape)
        data = _P()
        api("GetTensorMutableData", value, ctypes.byref(data))
        values = array("d" if kind.value == _DOUBLE else "f")
        if count and data.value:
            values.frombytes(ctypes.string_at(data.value, values.itemsize * count))
        return shape, values
