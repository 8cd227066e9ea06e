"""A run's calls as bytes, from the trusted process to the zygote: `encode_calls`, `decode_calls`.

The zygote, and every answer's process forked from it, holds nothing of the checker but the sandbox, so
the inputs reach it as data: tagged JSON plus raw array bytes, as results come back (frames.py). Only what
a drill hands an answer crosses: numpy arrays and scalars, torch tensors (dtype and `requires_grad` kept),
Python numbers, strings and None, tuples, lists and dicts of them, and the objects registered in
`checker.handouts` (by name, rebuilt from that package). Decoding makes nothing else, so bytes that are not
calls fail to decode; nothing is ever unpickled or evaluated.

Each decoded input is a fresh object, never shared with another input or call: the child hands each call
its inputs as they are.
"""
from __future__ import annotations

import json
import math
import struct
import sys
from typing import Any

import numpy as np

from checker.sandbox.model import Call

_PREFIX = struct.Struct("<IQ")
#: numpy dtypes an input array may have
_NUMPY_DTYPES = {name: np.dtype(name) for name in (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128")}
#: torch dtypes an input tensor may have, by the name `str(dtype)` gives, and the numpy dtype its bytes
#: travel as (bfloat16 has none: its bits travel as int16)
_TORCH_DTYPES = {"torch.bool": "bool", "torch.uint8": "uint8", "torch.int8": "int8", "torch.int16": "int16",
                 "torch.int32": "int32", "torch.int64": "int64", "torch.float16": "float16",
                 "torch.bfloat16": "int16", "torch.float32": "float32", "torch.float64": "float64",
                 "torch.complex64": "complex64", "torch.complex128": "complex128"}


class CallsError(ValueError):
    """Bytes that are not a run's calls, or a call holding something that cannot cross."""


def encode_calls(calls: list[Call]) -> bytes:
    """The calls as one payload (a prefix, a JSON description, then every array's bytes)."""
    blobs: list[bytes] = []
    offset = [0]

    def blob(data: bytes) -> tuple[int, int]:
        at = offset[0]
        blobs.append(data)
        offset[0] += len(data)
        return at, len(data)

    def encode(value: Any) -> dict:
        if value is None:
            return {"t": "none"}
        if type(value) in (bool, int, str):
            return {"t": type(value).__name__, "v": value}
        if type(value) is float:
            return {"t": "float", "v": value if math.isfinite(value) else repr(value)}
        if isinstance(value, (tuple, list)):
            return {"t": type(value).__name__ if type(value) in (tuple, list) else "list",
                    "items": [encode(v) for v in value]}
        if isinstance(value, dict):
            if not all(type(k) is str for k in value):
                raise CallsError("a dict input with keys that are not strings")
            return {"t": "dict", "items": [[k, encode(v)] for k, v in value.items()]}
        if isinstance(value, (np.ndarray, np.generic)):
            arr = np.ascontiguousarray(value)
            if arr.dtype.name not in _NUMPY_DTYPES or arr.dtype.byteorder not in ("=", "|"):
                raise CallsError(f"an input array of dtype {arr.dtype}")
            at, n = blob(arr.tobytes())
            return {"t": "array" if isinstance(value, np.ndarray) else "scalar", "dtype": arr.dtype.name,
                    "shape": list(arr.shape), "off": at, "n": n,
                    "writeable": bool(getattr(value, "flags", None) is None or value.flags.writeable)}
        torch = sys.modules.get("torch")
        if torch is not None and isinstance(value, torch.Tensor):
            name = str(value.dtype)
            if name not in _TORCH_DTYPES or value.layout != torch.strided or value.device.type != "cpu":
                raise CallsError(f"an input tensor of dtype {name} on {value.device}")
            data = value.detach().contiguous()
            if data.dtype == torch.bfloat16:
                data = data.view(torch.int16)
            at, n = blob(data.numpy().tobytes())
            return {"t": "tensor", "dtype": name, "shape": list(value.shape), "off": at, "n": n,
                    "requires_grad": bool(value.requires_grad)}
        from checker.handouts import name_of

        name = name_of(value)
        if name is None:
            raise CallsError(f"an input of type {type(value).__name__} that the sandbox cannot hand over")
        return {"t": "handout", "name": name}

    described = [{"args": encode(tuple(c.args)), "kwargs": encode(dict(c.kwargs)), "grad_of": c.grad_of,
                  "grad_wrt": list(c.grad_wrt), "expect_error": bool(c.expect_error)} for c in calls]
    head = json.dumps(described, separators=(",", ":")).encode()
    data = b"".join(blobs)
    return _PREFIX.pack(len(head), len(data)) + head + data


def decode_calls(payload: bytes) -> list[Call]:
    """The calls `encode_calls` made `payload` of; raises CallsError on anything else."""
    if len(payload) < _PREFIX.size:
        raise CallsError("a calls payload too short")
    hlen, blen = _PREFIX.unpack_from(payload)
    if _PREFIX.size + hlen + blen != len(payload):
        raise CallsError("a calls payload of the wrong length")
    try:
        described = json.loads(payload[_PREFIX.size:_PREFIX.size + hlen])
    except (ValueError, RecursionError) as exc:
        raise CallsError(f"a calls payload that is not JSON: {exc}") from None
    blob = memoryview(payload)[_PREFIX.size + hlen:]
    if not isinstance(described, list):
        raise CallsError("a calls payload that is not a list")
    calls = []
    for c in described:
        if not isinstance(c, dict):
            raise CallsError("a call that is not an object")
        args, kwargs = _decode(c.get("args"), blob), _decode(c.get("kwargs"), blob)
        grad_of, grad_wrt = c.get("grad_of"), c.get("grad_wrt")
        if not (isinstance(args, tuple) and isinstance(kwargs, dict) and (grad_of is None or isinstance(grad_of, str))
                and isinstance(grad_wrt, list) and all(isinstance(g, str) for g in grad_wrt)):
            raise CallsError("a malformed call")
        calls.append(Call(args, kwargs, grad_of, tuple(grad_wrt), c.get("expect_error") is True))
    return calls


def _decode(node: Any, blob: memoryview, depth: int = 0) -> Any:
    if depth > 64 or not isinstance(node, dict):
        raise CallsError("a malformed input")
    tag = node.get("t")
    if tag == "none":
        return None
    if tag in ("bool", "int", "str"):
        value = node.get("v")
        if type(value) is not {"bool": bool, "int": int, "str": str}[tag]:
            raise CallsError(f"a malformed {tag}")
        return value
    if tag == "float":
        value = node.get("v")
        if type(value) in (int, float) or value in ("nan", "inf", "-inf"):
            return float(value)
        raise CallsError("a malformed float")
    if tag in ("tuple", "list"):
        items = node.get("items")
        if not isinstance(items, list):
            raise CallsError("a malformed sequence")
        out = [_decode(v, blob, depth + 1) for v in items]
        return tuple(out) if tag == "tuple" else out
    if tag == "dict":
        items = node.get("items")
        if not isinstance(items, list) or not all(isinstance(p, list) and len(p) == 2 and isinstance(p[0], str)
                                                  for p in items):
            raise CallsError("a malformed dict")
        return {k: _decode(v, blob, depth + 1) for k, v in items}
    if tag in ("array", "scalar"):
        arr = _array(node, blob, _NUMPY_DTYPES.get(node.get("dtype")))
        if tag == "scalar":
            return arr.reshape(()).copy()[()]
        if node.get("writeable") is False:
            arr.flags.writeable = False
        return arr
    if tag == "tensor":
        import torch

        name = node.get("dtype")
        arr = _array(node, blob, _NUMPY_DTYPES.get(_TORCH_DTYPES.get(name, "")))
        tensor = torch.from_numpy(arr)
        if name == "torch.bfloat16":
            tensor = tensor.view(torch.bfloat16)
        if node.get("requires_grad") is True:
            tensor.requires_grad_(True)
        return tensor
    if tag == "handout":
        from checker.handouts import HANDOUTS

        if node.get("name") not in HANDOUTS:
            raise CallsError(f"an unknown handout {node.get('name')!r}")
        return HANDOUTS[node["name"]]
    raise CallsError(f"an unknown input tag {tag!r}")


def _array(node: dict, blob: memoryview, dtype) -> np.ndarray:
    if dtype is None:
        raise CallsError(f"an input of dtype {node.get('dtype')!r}")
    shape, off, n = node.get("shape"), node.get("off"), node.get("n")
    if not (isinstance(shape, list) and len(shape) <= 32 and all(type(d) is int and d >= 0 for d in shape)
            and type(off) is int and type(n) is int and 0 <= off and 0 <= n and off + n <= len(blob)
            and math.prod(shape) * dtype.itemsize == n):
        raise CallsError("a malformed input array")
    return np.frombuffer(blob[off:off + n], dtype=dtype).reshape(shape).copy()
