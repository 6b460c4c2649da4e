"""gitmem.recall.onnxgraph: the rewritten graph computes what the pinned one does, bit for bit.

The pinned model is run both ways on the same inputs in onnxruntime; small models built here,
byte by byte, try the pattern's edges (a scale per column, a table read twice, operands in the
other order) in the same runtime. Hostile bytes come back unchanged, never raise."""

from __future__ import annotations

import struct
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitmem.recall import onnxgraph, semantic

needs_extra = pytest.mark.skipif(not semantic.available(), reason="gitmem[semantic] not installed")


def _ort() -> Any:
    return pytest.importorskip("onnxruntime")


def _run(model: bytes, feeds: dict[str, Any]) -> Any:
    ort = _ort()
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    options.log_severity_level = 3
    return ort.InferenceSession(model, options, providers=["CPUExecutionProvider"]).run(
        None, feeds
    )[0]


def _ops(model: bytes) -> list[tuple[str, list[str]]]:
    """(op_type, inputs) of each node of the model's graph, read by the module's own parser."""
    fields = list(onnxgraph._fields(model, 0, len(model)))
    graph = next(f for f in fields if f[0] == 7)
    nodes = [
        onnxgraph._Node(model, f[2], f[3])
        for f in onnxgraph._fields(model, graph[2], graph[3])
        if f[0] == 1
    ]
    return [(n.op_type, n.inputs) for n in nodes]


# -- the pinned model


@needs_extra
def test_the_pinned_model_runs_the_same_after_the_rewrite() -> None:
    """Every output element of the pinned model equals the rewritten one's exactly, for batches
    of several lengths with padding, token ids across the whole vocabulary included."""
    np = pytest.importorskip("numpy")
    original = semantic._verified(semantic._MODEL_FILE)
    rewritten = onnxgraph.gather_first(original)
    assert rewritten != original
    rng = np.random.default_rng(20)
    for batch, width in ((1, 3), (1, 64), (3, 17), (2, 128)):
        ids = rng.integers(0, 30522, (batch, width))
        ids[:, 0] = 101
        ids[-1, :2] = (30521, 0)
        mask = np.ones_like(ids)
        mask[0, width // 2 + 1 :] = 0
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        before, after = _run(original, feeds), _run(rewritten, feeds)
        assert before.dtype == after.dtype and before.shape == after.shape
        assert np.array_equal(before, after), (batch, width)


@needs_extra
def test_the_rewrite_no_longer_dequantises_the_embedding_tables() -> None:
    """The whole-table Cast of both embedding tables is gone; each table's int8 rows and scales
    are gathered first. The other weights are dequantised as before (that would change what
    the model computes)."""
    original = semantic._verified(semantic._MODEL_FILE)
    before, after = _ops(original), _ops(onnxgraph.gather_first(original))
    tables = ("inner.embeddings.word_embeddings.weight", "inner.embeddings.position_embeddings")
    whole = [i for op, i in before if op == "Cast" and i[0].startswith(tables)]
    assert len(whole) == 2
    assert not [i for op, i in after if op == "Cast" and i[0].startswith(tables)]
    gathered = [i[0] for op, i in after if op == "Gather" and i[0].startswith(tables)]
    assert sorted(gathered) == sorted(
        f"{t}.weight_{part}"
        for t in ("inner.embeddings.word_embeddings", "inner.embeddings.position_embeddings")
        for part in ("q", "scale")
    )
    assert sum(op == "Cast" for op, _ in after) == sum(op == "Cast" for op, _ in before)
    assert len(after) == len(before) + 2  # two Gathers became four nodes each; four nodes went


# -- small models, built here


def _varint(value: int) -> bytes:
    return onnxgraph._encode_varint(value)


def _len(field: int, payload: bytes) -> bytes:
    return onnxgraph._len_field(field, payload)


def _tensor(name: str, dims: tuple[int, ...], data_type: int, raw: bytes) -> bytes:
    """A TensorProto: dims (packed), data_type, name, raw_data."""
    packed = b"".join(_varint(d) for d in dims)
    return (
        _len(1, packed)
        + bytes([2 << 3])
        + _varint(data_type)
        + _len(8, name.encode())
        + (_len(9, raw))
    )


def _value_info(name: str, elem_type: int, dims: tuple[int | str, ...]) -> bytes:
    shape = b"".join(
        _len(1, _len(2, d.encode()) if isinstance(d, str) else bytes([1 << 3]) + _varint(d))
        for d in dims
    )
    tensor_type = bytes([1 << 3]) + _varint(elem_type) + _len(2, shape)
    return _len(1, name.encode()) + _len(2, _len(1, tensor_type))


def _gather_model(
    *, rows: int, width: int, scale_dims: tuple[int, ...], swap: bool, second_reader: bool
) -> bytes:
    """ids -> Gather(Mul(Cast(q), scale), ids) [-> also Identity of the table]."""
    q = bytes((i * 37 + 11) % 256 for i in range(rows * width))
    count = scale_dims[0] * scale_dims[1]
    scale = struct.pack(f"<{count}f", *(0.01 * (i + 1) + 1 / 3 for i in range(count)))
    mul_inputs = ["scale", "table_f"] if swap else ["table_f", "scale"]
    nodes = [
        onnxgraph._node("Cast", ["table_q"], "table_f", to=1),
        onnxgraph._node("Mul", mul_inputs, "table"),
        onnxgraph._node("Gather", ["table", "ids"], "out"),
    ]
    outputs = [_value_info("out", 1, ("b", "n", width))]
    if second_reader:
        nodes.append(onnxgraph._node("Identity", ["table"], "also"))
        outputs.append(_value_info("also", 1, (rows, width)))
    graph = b"".join(
        [
            *nodes,
            _len(2, b"g"),
            _len(5, _tensor("table_q", (rows, width), 3, q)),
            _len(5, _tensor("scale", scale_dims, 1, scale)),
            _len(11, _value_info("ids", 7, ("b", "n"))),
            *(_len(12, o) for o in outputs),
        ]
    )
    opset = _len(1, b"") + bytes([2 << 3]) + _varint(17)
    return bytes([1 << 3]) + _varint(8) + _len(8, opset) + _len(7, graph)


@pytest.mark.parametrize("swap", [False, True])
def test_a_per_row_scaled_table_is_rewritten_and_computes_the_same(swap: bool) -> None:
    np = pytest.importorskip("numpy")
    model = _gather_model(rows=50, width=6, scale_dims=(50, 1), swap=swap, second_reader=False)
    rewritten = onnxgraph.gather_first(model)
    assert [op for op, _ in _ops(rewritten)] == ["Gather", "Cast", "Gather", "Mul"]
    ids = np.array([[0, 49, 7, 7], [3, 2, 1, 0]], dtype=np.int64)
    before, after = _run(model, {"ids": ids}), _run(rewritten, {"ids": ids})
    assert before.shape == (2, 4, 6) and np.array_equal(before, after)
    assert not np.array_equal(before[0, 0], before[0, 1])  # the rows really differ


@pytest.mark.parametrize(
    ("scale_dims", "second_reader"),
    [((1, 6), False), ((50, 6), False), ((50, 1), True)],
    ids=["scale-per-column", "scale-per-element", "table-read-twice"],
)
def test_other_patterns_are_left_as_they_are(
    scale_dims: tuple[int, int], second_reader: bool
) -> None:
    """A scale per column cannot be gathered by row; a table something else reads must still
    be made whole: either way the model comes back unchanged, the same object."""
    model = _gather_model(
        rows=50, width=6, scale_dims=scale_dims, swap=False, second_reader=second_reader
    )
    assert onnxgraph.gather_first(model) is model
    _run(model, {"ids": pytest.importorskip("numpy").zeros((1, 2), dtype="int64")})


@given(st.binary(max_size=300))
@settings(max_examples=300, deadline=None)
def test_any_bytes_come_back_unchanged_or_rewritten_never_raise(data: bytes) -> None:
    assert onnxgraph.gather_first(data) is data


def test_a_truncated_or_edited_model_is_returned_unchanged() -> None:
    model = _gather_model(rows=8, width=4, scale_dims=(8, 1), swap=False, second_reader=False)
    assert onnxgraph.gather_first(model) != model
    for cut in range(0, len(model), 7):
        broken = model[:cut]
        result = onnxgraph.gather_first(broken)
        assert result is broken
    odd = model.replace(b"Cast", b"Cash")
    assert onnxgraph.gather_first(odd) is odd


# -- the sentence's vector pooled in the graph


@needs_extra
def test_the_pooled_output_is_the_mean_of_the_kept_states_at_unit_length() -> None:
    """SENTENCE equals the mean pooling of the model's own output (sentence-transformers'),
    computed here with numpy in double, exactly, for batches with padding; the model's own
    output is still the one gather_first's graph gives, bit for bit."""
    np = pytest.importorskip("numpy")
    original = semantic._verified(semantic._MODEL_FILE)
    pooled_model = onnxgraph.sentence_model(original, "last_hidden_state", "attention_mask")
    gathered = onnxgraph.gather_first(original)
    rng = np.random.default_rng(7)
    for batch, width in ((1, 2), (3, 17), (2, 64)):
        ids = rng.integers(0, 30522, (batch, width))
        mask = np.ones_like(ids)
        mask[0, max(2, width // 2) :] = 0
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        ort = _ort()
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        states, sentence = ort.InferenceSession(
            pooled_model, options, providers=["CPUExecutionProvider"]
        ).run(["last_hidden_state", onnxgraph.SENTENCE], feeds)
        assert np.array_equal(states, _run(gathered, feeds))
        kept = states.astype(np.float64) * mask[:, :, None]
        expected = kept.sum(axis=1) / mask.sum(axis=1, keepdims=True)
        assert sentence.shape == (batch, 384) and sentence.dtype == np.float64
        assert np.array_equal(sentence, expected)


def test_pooling_needs_the_named_output_and_input() -> None:
    """A graph without the states or the mask to pool, or bytes that are no model, are a
    ValueError: there is nothing the pooling could read."""
    model = _gather_model(rows=8, width=4, scale_dims=(8, 1), swap=False, second_reader=False)
    with pytest.raises(ValueError, match="no output 'last_hidden_state'"):
        onnxgraph.sentence_model(model, "last_hidden_state", "attention_mask")
    with pytest.raises(ValueError, match="input 'mask'"):
        onnxgraph.sentence_model(model, "out", "mask")
    with pytest.raises(ValueError, match="not an ONNX model"):
        onnxgraph.sentence_model(model[:-3], "out", "ids")


@given(st.binary(max_size=300))
@settings(max_examples=200, deadline=None)
def test_pooling_any_bytes_gives_a_model_or_a_value_error(data: bytes) -> None:
    """Hostile bytes never raise anything but ValueError (a parser's IndexError, a decoding
    error), and what does come back is a longer model: the original's bytes and the pooling."""
    try:
        pooled = onnxgraph.sentence_model(data, "out", "ids")
    except ValueError:
        return
    assert len(pooled) > len(data)
