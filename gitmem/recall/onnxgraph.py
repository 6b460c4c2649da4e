"""The pinned model's graph as gitmem runs it: embedding rows gathered before they are
dequantised (the same outputs, sooner), and the sentence's vector pooled in the graph.

The int8 export of all-MiniLM-L6-v2 that gitmem pins (gitmem.recall.semantic) stores every
weight as int8 with a float scale and turns it back into float32 in the graph itself, by a
Cast and a Mul that run on every call of the model. For the two embedding tables that means
dequantising the whole vocabulary (30,522 x 384 floats, 47 MB) and every position (512 x 384)
to read the few rows a query's tokens pick: most of a query's run, and on a process's first
run most of its page faults (`python bench/recall.py --phases`).

`gather_first` rewrites those two lookups so that the rows are gathered from the int8 table and
its per-row scales first, then cast and scaled: Gather(Cast(q) * s, ids) becomes
Cast(Gather(q, ids)) * Gather(s, ids). Each output element is the same float32 product of the
same two numbers, so the model's outputs are bit-identical (tests/recall/test_onnxgraph.py runs
both graphs); the pinned file's hash still guards the weights, and the rewrite is made in
memory from the very bytes that were verified. Measured on the development machine: a
process's first run of the model 77-186 ms before, 30 ms after; each later run 31-40 ms before,
19-26 ms after; the process's peak memory 206 MB before, 122 MB after.

`sentence_model` also appends the pooling sentence-transformers applies to the model's output:
the mean of the token states the attention mask keeps (Cast, Unsqueeze, Mul, ReduceSum, Div),
in double, as a second output, SENTENCE; gitmem.recall.semantic scales it to unit length. The
model's own output is unchanged; pooled in Python, a build's 100,000 entries took some 40 s
of CPU more.

The rewrite reads and writes the protobuf wire format of ONNX's ModelProto directly, at the two
levels it needs (the model's graph field, the graph's nodes), and copies every other field,
the weights included, byte for byte: the `onnx` package (and protobuf) would cost a
dependency and more time to import than the rewrite takes. A graph that does not hold the
gather pattern keeps its lookups: that rewrite is an optimisation, never a requirement.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

__all__ = ["SENTENCE", "gather_first", "sentence_model"]

#: The output `sentence_model` adds: each text's token states' mean, in double.
SENTENCE: Final = "gitmem/sentence_embedding"

# ONNX's protobuf field numbers (onnx/onnx.proto), and the wire types used here.
_MODEL_GRAPH: Final = 7
_GRAPH_NODE: Final = 1
_GRAPH_INITIALIZER: Final = 5
_NODE_INPUT, _NODE_OUTPUT, _NODE_OP_TYPE, _NODE_ATTRIBUTE = 1, 2, 4, 5
_GRAPH_INPUT, _GRAPH_OUTPUT = 11, 12
_VALUE_NAME, _VALUE_TYPE = 1, 2
_TYPE_TENSOR, _TENSOR_ELEM_TYPE = 1, 1
_TENSOR_DIMS, _TENSOR_DATA_TYPE, _TENSOR_INT64_DATA, _TENSOR_NAME = 1, 2, 7, 8
_ATTR_NAME, _ATTR_INT, _ATTR_TYPE = 1, 3, 20
_ATTR_TYPE_INT: Final = 2
_INT64, _DOUBLE = 7, 11  # TensorProto.INT64, DOUBLE
_FLOAT: Final = 1  # TensorProto.FLOAT, the Cast's target
_VARINT, _I64, _LEN, _I32 = 0, 1, 2, 5


class _Malformed(ValueError):
    """The bytes are not the protobuf this module expects."""


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    """(value, position after it) of the varint at `pos`."""
    value = shift = 0
    while True:
        if pos >= len(data) or shift > 63:
            raise _Malformed("truncated varint")
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, pos
        shift += 7


def _encode_varint(value: int) -> bytes:
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


#: One field of a message: number, wire type, where its payload starts and ends, where the
#: whole field (key included) starts. Offsets into the model's bytes, so no field is copied.
_Field = tuple[int, int, int, int, int]


def _fields(data: bytes, pos: int, stop: int) -> Iterator[_Field]:
    """The fields of the message held in data[pos:stop], in order."""
    while pos < stop:
        start = pos
        key = data[pos]
        pos += 1
        if key >= 0x80:  # a field number above 15
            key, pos = _varint(data, start)
        field, wire = key >> 3, key & 7
        if wire == _VARINT:
            payload, end = pos, _varint(data, pos)[1]
        elif wire == _I64:
            payload, end = pos, pos + 8
        elif wire == _I32:
            payload, end = pos, pos + 4
        elif wire == _LEN:
            size, payload = _varint(data, pos)
            end = payload + size
        else:
            raise _Malformed(f"wire type {wire}")
        if end > stop:
            raise _Malformed("field runs past its message")
        yield field, wire, payload, end, start
        pos = end


def _len_field(field: int, payload: bytes) -> bytes:
    return _encode_varint(field << 3 | _LEN) + _encode_varint(len(payload)) + payload


def _int_field(field: int, value: int) -> bytes:
    return _encode_varint(field << 3 | _VARINT) + _encode_varint(value)


def _node(op_type: str, inputs: list[str], output: str, **ints: int) -> bytes:
    """A NodeProto (as a graph's node field) with int attributes, e.g. Cast's `to`."""
    parts = [_len_field(_NODE_INPUT, name.encode()) for name in inputs]
    parts.append(_len_field(_NODE_OUTPUT, output.encode()))
    parts.append(_len_field(_NODE_OP_TYPE, op_type.encode()))
    for name, value in ints.items():
        attribute = (
            _len_field(_ATTR_NAME, name.encode())
            + _int_field(_ATTR_INT, value)
            + _int_field(_ATTR_TYPE, _ATTR_TYPE_INT)
        )
        parts.append(_len_field(_NODE_ATTRIBUTE, attribute))
    return _len_field(_GRAPH_NODE, b"".join(parts))


def _int64s(name: str, values: list[int]) -> bytes:
    """A one-dimensional int64 TensorProto, as a graph's initializer field."""
    tensor = (
        _int_field(_TENSOR_DIMS, len(values))
        + _int_field(_TENSOR_DATA_TYPE, _INT64)
        + _len_field(_TENSOR_INT64_DATA, b"".join(_encode_varint(v) for v in values))
        + _len_field(_TENSOR_NAME, name.encode())
    )
    return _len_field(_GRAPH_INITIALIZER, tensor)


def _double_output(name: str) -> bytes:
    """A ValueInfoProto for a double tensor of any shape, as a graph's output field."""
    tensor = _len_field(_TYPE_TENSOR, _int_field(_TENSOR_ELEM_TYPE, _DOUBLE))
    value = _len_field(_VALUE_NAME, name.encode()) + _len_field(_VALUE_TYPE, tensor)
    return _len_field(_GRAPH_OUTPUT, value)


def _pooling(states: str, mask: str) -> list[_Part]:
    """Nodes, initializers and the output that make SENTENCE from the (batch, tokens, dim)
    token states and the (batch, tokens) int64 attention mask: the mean of the states the mask
    keeps, in double. A sum of a few hundred float32 states in double is exact whatever its
    order unless their magnitudes lie some 2^20 apart, and then off by a part in 2^52, far
    below the float16 a vector is stored in: a text's vector comes out the same alone or
    padded in a batch (in float32 it did not), and the same as when it was summed in Python.
    Every text has at least two tokens ([CLS] and [SEP]), so the count is never zero."""
    p = "gitmem/pool"
    return [
        _int64s(f"{p}/axis1", [1]),
        _int64s(f"{p}/axis2", [2]),
        _node("Cast", [states], f"{p}/states", to=_DOUBLE),
        _node("Cast", [mask], f"{p}/mask", to=_DOUBLE),
        _node("Unsqueeze", [f"{p}/mask", f"{p}/axis2"], f"{p}/mask3"),
        _node("Mul", [f"{p}/states", f"{p}/mask3"], f"{p}/kept"),
        _node("ReduceSum", [f"{p}/kept", f"{p}/axis1"], f"{p}/sum", keepdims=0),
        _node("ReduceSum", [f"{p}/mask", f"{p}/axis1"], f"{p}/count", keepdims=1),
        _node("Div", [f"{p}/sum", f"{p}/count"], SENTENCE),
        _double_output(SENTENCE),
    ]


class _Node:
    """What the rewrite reads of a NodeProto: its operator, inputs, outputs and int attributes
    (None for an attribute of another kind)."""

    def __init__(self, data: bytes, pos: int, stop: int) -> None:
        self.op_type = ""
        self.inputs: list[str] = []
        self.outputs: list[str] = []
        self.ints: dict[str, int | None] = {}
        for field, wire, start, end, _ in _fields(data, pos, stop):
            if wire != _LEN:
                continue
            if field == _NODE_INPUT:
                self.inputs.append(data[start:end].decode())
            elif field == _NODE_OUTPUT:
                self.outputs.append(data[start:end].decode())
            elif field == _NODE_OP_TYPE:
                self.op_type = data[start:end].decode()
            elif field == _NODE_ATTRIBUTE:
                name, number = "", None
                for a_field, a_wire, a_start, a_end, _ in _fields(data, start, end):
                    if a_field == _ATTR_NAME and a_wire == _LEN:
                        name = data[a_start:a_end].decode()
                    elif a_field == _ATTR_INT and a_wire == _VARINT:
                        number = _varint(data, a_start)[0]
                self.ints[name] = number


def _dims(data: bytes, pos: int, stop: int) -> tuple[str, tuple[int, ...]]:
    """(name, dims) of a TensorProto; its data, often megabytes, is skipped, never copied."""
    name, dims = "", []
    for field, wire, start, end, _ in _fields(data, pos, stop):
        if field == _TENSOR_NAME and wire == _LEN:
            name = data[start:end].decode()
        elif field == _TENSOR_DIMS and wire == _VARINT:
            dims.append(_varint(data, start)[0])
        elif field == _TENSOR_DIMS and wire == _LEN:  # packed
            while start < end:
                dim, start = _varint(data, start)
                dims.append(dim)
    return name, tuple(dims)


#: A part of the rewritten model: new bytes, or a (start, end) range of the original's.
_Part = bytes | tuple[int, int]


def _graph(model: bytes) -> tuple[_Field, list[_Field]]:
    """The model's graph field and the graph's own fields."""
    at = next(f for f in _fields(model, 0, len(model)) if f[:2] == (_MODEL_GRAPH, _LEN))
    return at, list(_fields(model, at[2], at[3]))


def _gathered_first(data: bytes, fields: list[_Field]) -> list[_Part] | None:
    """The graph of these fields with its dequantise-then-gather lookups rewritten, or None if
    it has none: a Gather (axis 0) of Mul(Cast(T_q) to float, T_scale), where T_q is an
    initialiser of shape (rows, width), T_scale one of shape (rows, 1), and nothing else reads
    the Mul's or the Cast's output."""
    nodes = {i: _Node(data, f[2], f[3]) for i, f in enumerate(fields) if f[0] == _GRAPH_NODE}
    shapes = dict(_dims(data, f[2], f[3]) for f in fields if f[:2] == (_GRAPH_INITIALIZER, _LEN))
    made_by = {out: i for i, node in nodes.items() for out in node.outputs}
    readers: dict[str, list[int]] = {}
    for i, node in nodes.items():
        for name in node.inputs:
            readers.setdefault(name, []).append(i)

    def dequantised(table: str) -> tuple[int, int, str, str] | None:
        """(the Mul, the Cast, T_q, T_scale) that make `table`, when they are the pattern."""
        mul = made_by.get(table)
        if mul is None or nodes[mul].op_type != "Mul" or len(nodes[mul].inputs) != 2:
            return None
        for made, scale in (nodes[mul].inputs, reversed(nodes[mul].inputs)):
            cast = made_by.get(made)
            if cast is None or nodes[cast].op_type != "Cast" or len(nodes[cast].inputs) != 1:
                continue
            if nodes[cast].ints != {"to": _FLOAT} or readers.get(made) != [mul]:
                continue
            quantised = nodes[cast].inputs[0]
            rows = shapes.get(quantised, ())
            if len(rows) == 2 and shapes.get(scale) == (rows[0], 1):
                return mul, cast, quantised, scale
        return None

    replaced: dict[int, list[_Part]] = {}
    for i, node in nodes.items():
        if node.op_type != "Gather" or len(node.inputs) != 2 or len(node.outputs) != 1:
            continue
        if node.ints not in ({}, {"axis": 0}) or readers.get(node.inputs[0]) != [i]:
            continue
        found = dequantised(node.inputs[0])
        if found is None:
            continue
        mul, cast, quantised, scale = found
        ids, output = node.inputs[1], node.outputs[0]
        replaced[i] = [
            _node("Gather", [quantised, ids], f"{output}/gathered_q"),
            _node("Cast", [f"{output}/gathered_q"], f"{output}/gathered_f", to=_FLOAT),
            _node("Gather", [scale, ids], f"{output}/gathered_scale"),
            _node("Mul", [f"{output}/gathered_f", f"{output}/gathered_scale"], output),
        ]
        replaced[mul] = replaced[cast] = []
    if not replaced:
        return None
    return [p for i, f in enumerate(fields) for p in replaced.get(i, [(f[4], f[3])])]


def gather_first(model: bytes) -> bytes:
    """The ONNX model with its embedding tables dequantised after the lookup (module docstring).

    Returns `model` itself when it holds no such lookup, or is not a model this reader
    understands: the rewrite changes how fast the model runs, never what it computes."""
    try:
        at, fields = _graph(model)
        graph = _gathered_first(model, fields)
    except (_Malformed, UnicodeDecodeError, StopIteration):
        return model
    if graph is None:
        return model
    return _with_graph(model, at, graph)


def sentence_model(model: bytes, states: str, mask: str) -> bytes:
    """`gather_first`'s model with SENTENCE added: the mean of the `states` output over the
    tokens the `mask` input keeps (module docstring).

    ValueError when the bytes are not a model this reader understands or the graph has no
    such output and input: without them there is nothing to pool."""
    try:
        at, fields = _graph(model)
        declared = {
            (f[0], _value_name(model, f[2], f[3]))
            for f in fields
            if f[:2] in ((_GRAPH_INPUT, _LEN), (_GRAPH_OUTPUT, _LEN))
        }
        graph = _gathered_first(model, fields)
    except (_Malformed, UnicodeDecodeError, StopIteration) as exc:
        raise ValueError(f"not an ONNX model this rewrite reads: {exc}") from exc
    if (_GRAPH_OUTPUT, states) not in declared or (_GRAPH_INPUT, mask) not in declared:
        raise ValueError(f"the graph has no output {states!r} and input {mask!r} to pool")
    if graph is None:
        graph = [(f[4], f[3]) for f in fields]
    return _with_graph(model, at, [*graph, *_pooling(states, mask)])


def _value_name(data: bytes, pos: int, stop: int) -> str:
    """The name of a ValueInfoProto (a graph's input or output)."""
    for field, wire, start, end, _ in _fields(data, pos, stop):
        if field == _VALUE_NAME and wire == _LEN:
            return data[start:end].decode()
    return ""


def _with_graph(model: bytes, at: _Field, graph: list[_Part]) -> bytes:
    """The model's bytes with its graph field (`at`) made of `graph`'s parts."""
    size = sum(len(p) if isinstance(p, bytes) else p[1] - p[0] for p in graph)
    head = _encode_varint(_MODEL_GRAPH << 3 | _LEN) + _encode_varint(size)
    parts: list[_Part] = [(0, at[4]), head, *graph, (at[3], len(model))]
    # adjacent ranges of the original are copied as one
    merged: list[_Part] = []
    for part in parts:
        last = merged[-1] if merged else None
        if isinstance(part, tuple) and isinstance(last, tuple) and last[1] == part[0]:
            merged[-1] = (last[0], part[1])
        else:
            merged.append(part)
    view = memoryview(model)
    return b"".join(p if isinstance(p, bytes) else view[p[0] : p[1]] for p in merged)
