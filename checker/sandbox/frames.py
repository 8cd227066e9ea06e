"""The safe wire format between the sandboxed child and the trusted parent.

A frame is `MAGIC | u32 header length | u64 blob length | JSON header | raw bytes`. Values are
tagged JSON; arrays travel as raw bytes referenced by offset, with a dtype taken from an allow-list
and a shape checked against the byte count. Nothing is ever unpickled or evaluated: a child can
send garbage, and garbage is rejected with `FrameError`, never executed.

`encode_value` runs in the child (it may see any object the candidate returns); `decode_value` and
`FrameReader` run in the parent.
"""
from __future__ import annotations

import json
import math
import os
import struct
import sys
from typing import Any

import numpy as np

from checker.sandbox.model import Opaque, ReturnedArray
from checker.sandbox.text import visible

MAGIC = b"PDSB"
_PREFIX = struct.Struct("<4sIQ")
MAX_HEADER_BYTES = 8 * 1024 * 1024
MAX_DEPTH = 32
MAX_ITEMS = 100_000
MAX_STR = 64 * 1024
MAX_REPR = 300

#: dtypes an array may have on the wire; anything else (object, structured, strings) is refused.
ALLOWED_DTYPES = {
    name: np.dtype(name)
    for name in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                 "float16", "float32", "float64", "complex64", "complex128")
}


class FrameError(ValueError):
    """The child sent bytes that are not a well-formed frame or value."""


# ----------------------------------------------------------------------------------------- child side

def pack_frame(header: dict, blobs: list[bytes] | None = None) -> bytes:
    """Serialise one frame (header must be JSON-able; blobs are concatenated raw bytes)."""
    body = json.dumps(header, allow_nan=True, separators=(",", ":")).encode()
    blob = b"".join(blobs or ())
    return _PREFIX.pack(MAGIC, len(body), len(blob)) + body + blob


def write_all(fd: int, data: bytes) -> None:
    """Write every byte (pipes accept partial writes)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


class Encoder:
    """Turns candidate values into tagged JSON plus blobs; unknown types become opaque descriptions."""

    def __init__(self) -> None:
        self.blobs: list[bytes] = []
        self.offset = 0
        self.items = 0

    def _blob(self, data: bytes) -> tuple[int, int]:
        off = self.offset
        self.blobs.append(data)
        self.offset += len(data)
        return off, len(data)

    def encode(self, value: Any, depth: int = 0) -> dict:
        self.items += 1
        if depth > MAX_DEPTH or self.items > MAX_ITEMS:
            return _opaque(value, "nested too deeply or too many items")
        if value is None:
            return {"t": "none"}
        if type(value) is bool:
            return {"t": "bool", "v": value}
        if type(value) is int:
            if -(2 ** 63) <= value < 2 ** 63:
                return {"t": "int", "v": value}
            return {"t": "opaque", "type": "int", "repr": f"<an integer of {value.bit_length()} bits>"}
        if type(value) is float:
            return {"t": "float", "v": _float_text(value)}
        if type(value) is str:
            return {"t": "str", "v": value[:MAX_STR], "cut": len(value) > MAX_STR}
        np_ = sys.modules.get("numpy")
        if np_ is not None and isinstance(value, (np_.ndarray, np_.generic)):
            return self._numpy(value)
        torch = sys.modules.get("torch")
        if torch is not None and isinstance(value, torch.Tensor):
            return self._tensor(value, torch)
        if isinstance(value, (tuple, list)):
            tag = "tuple" if isinstance(value, tuple) else "list"
            return {"t": tag, "items": [self.encode(v, depth + 1) for v in value]}
        if isinstance(value, dict):
            if all(type(k) is str for k in value):
                return {"t": "dict", "items": [[k, self.encode(v, depth + 1)] for k, v in value.items()]}
            return _opaque(value)
        return _opaque(value)

    def _numpy(self, value) -> dict:
        origin = "numpy" if isinstance(value, np.ndarray) else "numpy-scalar"
        arr = np.asarray(value)
        name = arr.dtype.name
        if name not in ALLOWED_DTYPES or arr.dtype.byteorder not in ("=", "|"):
            return _opaque(value, label=f"numpy {'array' if origin == 'numpy' else 'scalar'} of dtype {arr.dtype}")
        off, n = self._blob(arr.tobytes())  # C order whatever the strides
        return {"t": "array", "origin": origin, "dtype": name, "source_dtype": name,
                "shape": list(arr.shape), "off": off, "n": n}

    def _tensor(self, value, torch) -> dict:
        try:
            if value.layout != torch.strided or value.device.type != "cpu" or value.is_quantized:
                return _opaque(value)
            data = value.detach()
            if data.is_conj():
                data = data.resolve_conj()
            if data.is_neg():
                data = data.resolve_neg()
            source = str(value.dtype)
            if value.dtype == torch.bfloat16:
                data = data.to(torch.float32)
            elif value.dtype == torch.complex32:
                data = data.to(torch.complex64)
            arr = data.numpy()
        except Exception:  # noqa: BLE001 - a tensor subclass may refuse anything; describe it instead
            return _opaque(value)
        if arr.dtype.name not in ALLOWED_DTYPES:
            return _opaque(value)
        grad_fn = value.grad_fn
        off, n = self._blob(arr.tobytes())
        return {"t": "array", "origin": "torch", "dtype": arr.dtype.name, "source_dtype": source,
                "shape": list(arr.shape), "off": off, "n": n,
                "requires_grad": bool(value.requires_grad),
                "grad_fn": None if grad_fn is None else type(grad_fn).__name__}


def _float_text(x: float):
    # JSON has no NaN/inf literals in the standard; tag them explicitly rather than rely on extensions.
    if math.isfinite(x):
        return x
    return "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")


def _opaque(value: Any, why: str = "", label: str | None = None) -> dict:
    cls = type(value)
    module = getattr(cls, "__module__", "") or ""
    name = getattr(cls, "__qualname__", None) or getattr(cls, "__name__", "?")
    type_name = label or (name if module in ("builtins", "", "__answer__") else f"{module}.{name}")
    try:
        text = repr(value)
    except BaseException:  # noqa: BLE001 - a hostile __repr__ may raise anything
        text = f"<{type_name} with a failing repr>"
    if not isinstance(text, str):
        text = f"<{type_name}>"
    if why:
        text = f"{text[:MAX_REPR]} ({why})"
    return {"t": "opaque", "type": str(type_name)[:200], "repr": text[:MAX_REPR]}


# ---------------------------------------------------------------------------------------- parent side

class FrameReader:
    """Incremental parser: feed bytes as they arrive, collect complete (header, blob) frames."""

    def __init__(self, max_blob_bytes: int, shared=None) -> None:
        self.max_blob_bytes = max_blob_bytes
        self.buffer = bytearray()
        self.total_blob = 0
        self.shared = shared  # an object whose `blob` counts the bytes of several readers together

    def feed(self, data: bytes) -> list[tuple[dict, bytes]]:
        self.buffer += data
        frames = []
        while len(self.buffer) >= _PREFIX.size:
            magic, hlen, blen = _PREFIX.unpack_from(self.buffer)
            if magic != MAGIC:
                raise FrameError("bad frame magic")
            if hlen > MAX_HEADER_BYTES:
                raise FrameError("frame header too large")
            total = self.shared.blob if self.shared is not None else self.total_blob
            if blen > self.max_blob_bytes or total + blen > self.max_blob_bytes:
                raise ResultTooLarge(total + blen)
            end = _PREFIX.size + hlen + blen
            if len(self.buffer) < end:
                break
            body = bytes(self.buffer[_PREFIX.size:_PREFIX.size + hlen])
            blob = bytes(self.buffer[_PREFIX.size + hlen:end])
            del self.buffer[:end]
            self.total_blob += blen
            if self.shared is not None:
                self.shared.blob += blen
            try:
                header = json.loads(body)
            except (ValueError, RecursionError) as exc:
                raise FrameError(f"frame header is not JSON: {exc}") from None
            if not isinstance(header, dict) or not isinstance(header.get("type"), str):
                raise FrameError("frame header is not an object with a type")
            frames.append((header, blob))
        return frames

    @property
    def pending(self) -> int:
        """Bytes of an incomplete frame still buffered."""
        return len(self.buffer)


class ResultTooLarge(FrameError):
    """The child tried to send more result bytes than the limit allows."""


def decode_value(node: Any, blob: bytes, depth: int = 0) -> Any:
    """Rebuild a value from its tagged JSON; validates every field, raises FrameError on any doubt."""
    if depth > MAX_DEPTH + 1 or not isinstance(node, dict):
        raise FrameError("malformed value")
    tag = node.get("t")
    if tag == "none":
        return None
    if tag == "bool":
        return _typed(node.get("v"), bool)
    if tag == "int":
        v = node.get("v")
        if type(v) is not int:
            raise FrameError("malformed int")
        return v
    if tag == "float":
        v = node.get("v")
        if isinstance(v, str) and v in ("nan", "inf", "-inf"):
            return float(v)
        if type(v) in (int, float):
            return float(v)
        raise FrameError("malformed float")
    if tag == "str":  # whatever an answer or a test file names or says reaches a terminal: made visible
        return visible(_typed(node.get("v"), str))
    if tag in ("tuple", "list"):
        items = _typed(node.get("items"), list)
        out = [decode_value(v, blob, depth + 1) for v in items]
        return tuple(out) if tag == "tuple" else out
    if tag == "dict":
        out = {}
        for pair in _typed(node.get("items"), list):
            if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)):
                raise FrameError("malformed dict item")
            out[visible(pair[0])] = decode_value(pair[1], blob, depth + 1)
        return out
    if tag == "array":
        return _decode_array(node, blob)
    if tag == "opaque":
        return Opaque(visible(str(_typed(node.get("type"), str))[:200]),
                      visible(str(_typed(node.get("repr"), str))[:1000]))
    raise FrameError(f"unknown value tag {tag!r}")


def _typed(value, kind):
    if type(value) is not kind:
        raise FrameError(f"expected {kind.__name__}")
    return value


def _decode_array(node: dict, blob: bytes) -> ReturnedArray:
    dtype = ALLOWED_DTYPES.get(node.get("dtype"))  # type: ignore[arg-type]
    if dtype is None:
        raise FrameError(f"dtype {node.get('dtype')!r} is not allowed")
    shape = node.get("shape")
    if (not isinstance(shape, list) or len(shape) > 32
            or not all(type(d) is int and d >= 0 for d in shape)):
        raise FrameError("malformed array shape")
    off, n = node.get("off"), node.get("n")
    if type(off) is not int or type(n) is not int or off < 0 or n < 0 or off + n > len(blob):
        raise FrameError("array bytes out of range")
    if math.prod(shape) * dtype.itemsize != n:
        raise FrameError("array byte count does not match its shape and dtype")
    origin = node.get("origin")
    if origin not in ("numpy", "numpy-scalar", "torch"):
        raise FrameError("malformed array origin")
    source_dtype = node.get("source_dtype")
    grad_fn = node.get("grad_fn")
    if not isinstance(source_dtype, str) or not (grad_fn is None or isinstance(grad_fn, str)):
        raise FrameError("malformed array labels")
    data = np.frombuffer(blob, dtype=dtype, count=n // dtype.itemsize, offset=off).reshape(shape).copy()
    return ReturnedArray(data, origin, visible(source_dtype[:64]), bool(node.get("requires_grad", False)),
                         None if grad_fn is None else visible(grad_fn[:100]))
