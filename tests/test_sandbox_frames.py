"""The wire format between the sandboxed child and the parent: every supported value survives the
trip with its labels, and anything malformed is refused with FrameError (never executed)."""
from __future__ import annotations

import json
import math
import struct

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from checker.sandbox.frames import (
    ALLOWED_DTYPES,
    MAGIC,
    Encoder,
    FrameError,
    FrameReader,
    ResultTooLarge,
    decode_value,
    pack_frame,
)
from checker.sandbox.model import Opaque, ReturnedArray


def roundtrip(value, chunk: int | None = None):
    enc = Encoder()
    node = enc.encode(value)
    data = pack_frame({"type": "call", "value": node}, enc.blobs)
    reader = FrameReader(1 << 30)
    frames = []
    step = chunk or len(data)
    for i in range(0, len(data), step):
        frames += reader.feed(data[i:i + step])
    assert len(frames) == 1 and reader.pending == 0
    header, blob = frames[0]
    return decode_value(header["value"], blob)


def test_python_scalars_and_containers_keep_their_types():
    value = (None, True, 3, -2.5, "text", [1, (2.0,)], {"loss": 1.0, "metrics": {"kl": 0.1}})
    assert roundtrip(value) == value
    back = roundtrip(value)
    assert type(back) is tuple and type(back[5]) is list and type(back[5][1]) is tuple


def test_non_finite_floats_survive():
    nan, inf, ninf = roundtrip((math.nan, math.inf, -math.inf))
    assert math.isnan(nan) and inf == math.inf and ninf == -math.inf


def test_numpy_arrays_keep_shape_dtype_and_origin():
    arr = np.arange(12, dtype=np.float32).reshape(3, 4).T  # not contiguous
    back = roundtrip(arr)
    assert isinstance(back, ReturnedArray) and back.origin == "numpy" and back.source_dtype == "float32"
    assert back.dtype == np.float32 and back.shape == (4, 3)
    np.testing.assert_array_equal(back, arr)
    back[0, 0] = 99.0  # decoded arrays are writable copies


def test_zero_d_values_keep_their_zero_d_shape_and_origin():
    a0, s0, t0 = roundtrip((np.array(1.5), np.float64(2.5), torch.tensor(3.5)))
    assert (a0.shape, a0.origin) == ((), "numpy")
    assert (s0.shape, s0.origin, s0.source_dtype) == ((), "numpy-scalar", "float64")
    assert (t0.shape, t0.origin, t0.source_dtype, float(t0)) == ((), "torch", "torch.float32", 3.5)


def test_tensors_report_grad_labels_and_odd_dtypes():
    leaf = torch.ones(3, requires_grad=True)
    loss = (leaf * 2).mean()
    back_leaf, back_loss, half, ints = roundtrip((leaf, loss, torch.ones(2, dtype=torch.bfloat16),
                                                  torch.arange(3)))
    assert back_leaf.requires_grad and back_leaf.grad_fn is None
    assert back_loss.requires_grad and back_loss.grad_fn == "MeanBackward0"
    assert half.source_dtype == "torch.bfloat16" and half.dtype == np.float32
    assert ints.dtype == np.int64 and ints.source_dtype == "torch.int64" and not ints.requires_grad


def test_unsupported_values_come_back_opaque():
    class Thing:
        def __repr__(self):
            return "Thing()"

    class BadRepr:
        def __repr__(self):
            raise RuntimeError("no")

    obj_arr = np.array([object()], dtype=object)
    thing, bad, keyed, objs, big, gen = roundtrip((Thing(), BadRepr(), {1: 2}, obj_arr, 2 ** 80,
                                                   (i for i in range(2))))
    assert thing.repr_text == "Thing()" and thing.type_name.endswith("Thing")
    assert isinstance(bad, Opaque) and "failing repr" in bad.repr_text
    assert isinstance(keyed, Opaque) and keyed.type_name == "dict"
    assert isinstance(objs, Opaque) and objs.type_name == "numpy array of dtype object"
    assert isinstance(big, Opaque) and big.type_name == "int"
    assert isinstance(gen, Opaque) and gen.type_name == "generator"


def test_deep_nesting_is_cut_off():
    value = []
    for _ in range(100):
        value = [value]
    back = roundtrip(value)
    depth = 0
    while isinstance(back, list):
        back, depth = back[0], depth + 1
    assert isinstance(back, Opaque) and depth < 40


@given(hnp.arrays(st.sampled_from(sorted(ALLOWED_DTYPES)), hnp.array_shapes(min_dims=0, max_dims=3,
                                                                         min_side=0, max_side=4)))
def test_any_allowed_array_roundtrips_in_small_chunks(arr):
    back = roundtrip(arr, chunk=7)
    assert back.dtype == arr.dtype and back.shape == arr.shape
    np.testing.assert_array_equal(back.plain(), arr)


def frame(header: dict, blob: bytes = b"") -> bytes:
    body = json.dumps(header).encode()
    return MAGIC + struct.pack("<IQ", len(body), len(blob)) + body + blob


def decode_call(data: bytes):
    (header, blob), = FrameReader(1 << 20).feed(data)
    return decode_value(header["value"], blob)


ARRAY = {"t": "array", "origin": "numpy", "dtype": "float64", "source_dtype": "float64",
         "shape": [2], "off": 0, "n": 16}


@pytest.mark.parametrize("bad", [
    {"dtype": "object"}, {"dtype": "O"}, {"dtype": "<f8"}, {"shape": [3]}, {"shape": [-2, -1]},
    {"shape": "2"}, {"off": 8}, {"n": 24}, {"origin": "pickle"}, {"grad_fn": 5},
])
def test_malformed_arrays_are_refused(bad):
    with pytest.raises(FrameError):
        decode_call(frame({"type": "call", "value": {**ARRAY, **bad}}, b"\0" * 16))


@pytest.mark.parametrize("node", [
    {"t": "pickle", "v": "gASV"}, {"t": "bool", "v": 1}, {"t": "int", "v": 1.5}, {"t": "float", "v": "1e3"},
    {"t": "dict", "items": [[1, {"t": "none"}]]}, {"t": "tuple", "items": "ab"}, "none", None,
])
def test_malformed_values_are_refused(node):
    with pytest.raises(FrameError):
        decode_call(frame({"type": "call", "value": node}))


def test_malformed_frames_are_refused():
    with pytest.raises(FrameError):
        FrameReader(100).feed(b"XXXX" + bytes(12))
    with pytest.raises(FrameError):
        FrameReader(100).feed(MAGIC + struct.pack("<IQ", 3, 0) + b"{{{")
    with pytest.raises(FrameError):
        FrameReader(100).feed(frame({"no": "type"}))
    with pytest.raises(ResultTooLarge):
        FrameReader(100).feed(frame({"type": "call"}, b"x" * 101))
    reader = FrameReader(100)  # the limit is for all frames of a run together
    reader.feed(frame({"type": "call"}, b"x" * 60))
    with pytest.raises(ResultTooLarge):
        reader.feed(frame({"type": "call"}, b"x" * 60))


@given(st.binary(max_size=300))
def test_random_bytes_never_raise_anything_but_frame_error(data):
    reader = FrameReader(1 << 16)
    try:
        for header, blob in reader.feed(MAGIC + data[:12] + data[12:]):
            decode_value(header.get("value"), blob)
    except FrameError:
        pass


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 40) | st.floats() | st.sampled_from(
        ["t", "array", "float64", "object", "numpy", "torch", "opaque", "dict", "tuple", "nan"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["t", "v", "items", "dtype", "shape", "off", "n", "origin", "source_dtype",
                         "type", "repr", "grad_fn"]), inner, max_size=8),
    max_leaves=30)


@given(JSON, st.binary(max_size=64))
def test_arbitrary_json_values_decode_or_raise_frame_error(node, blob):
    try:
        decode_value(node, blob)
    except FrameError:
        pass
