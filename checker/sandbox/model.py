"""The data that crosses the sandbox boundary: what the checker asks for (`Limits`, `Call`) and what
comes back (`RunResult`, `CallResult`, `SandboxError`, `CallError`, `ReturnedArray`, `Opaque`).

These are plain values with no behaviour that could run a candidate's code: a result is built by
the trusted parent from a decoded frame, never from an object the child made.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

#: The error kinds the sandbox reports. ("signature" is decided by the caller from `signature`.)
ERROR_KINDS = ("syntax", "missing-function", "exception", "timeout", "memory", "crash", "output")


@dataclass(frozen=True)
class Limits:
    """Resource limits for one run (all calls together).

    `wall_s` bounds the whole run (the parent kills the child); `cpu_s` is RLIMIT_CPU (SIGKILL at
    the limit). `memory_mb` is headroom above what the forked child already maps (it inherits the
    parent's address space, torch included), applied as RLIMIT_AS per process. `output_bytes` of
    stdout+stderr are kept; the child is killed once it has printed `output_kill_bytes`.
    `max_result_bytes` caps the array bytes sent back. `max_processes` is RLIMIT_NPROC (threads count).
    """
    wall_s: float = 10.0
    cpu_s: int = 10
    memory_mb: int = 2048
    output_bytes: int = 64 * 1024
    max_result_bytes: int = 64 * 1024 * 1024
    output_kill_bytes: int = 1024 * 1024
    max_processes: int = 8


@dataclass(frozen=True)
class Call:
    """One call of the candidate's function.

    `args`/`kwargs` hold numpy arrays, torch tensors, Python scalars, None, and tuples, lists and
    dicts of those; each call gets fresh copies in the child. `grad_of` is None or a path into the
    output to backpropagate from: "" (the output itself), "0" (first element of a returned tuple),
    "1.loss" (key "loss" of the second element); a non-scalar output is summed first. `grad_wrt`
    names torch-tensor arguments (by parameter name, or "arg0".."argN" by position) created with
    requires_grad=True; their `.grad` is reported. `expect_error`: the call is meant to raise
    (input-contract probes), so an exception is this call's result rather than a failed run.
    """
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    grad_of: str | None = None
    grad_wrt: tuple[str, ...] = ()
    expect_error: bool = False


class ReturnedArray(np.ndarray):
    """A numpy array decoded from the candidate's output, remembering what it was.

    `origin`: "numpy" (an ndarray), "numpy-scalar" (a numpy scalar such as np.float64, given back
    as a 0-d array) or "torch" (a tensor). `source_dtype`: the dtype as the candidate had it
    ("float32", "torch.bfloat16"; the data may be widened to a dtype numpy holds). For tensors,
    `requires_grad` and `grad_fn` (the grad_fn class name, or None) as returned.
    """

    origin: str
    source_dtype: str
    requires_grad: bool
    grad_fn: str | None

    def __new__(cls, data: np.ndarray, origin: str, source_dtype: str,
                requires_grad: bool = False, grad_fn: str | None = None):
        obj = np.asarray(data).view(cls)
        obj.origin = origin
        obj.source_dtype = source_dtype
        obj.requires_grad = requires_grad
        obj.grad_fn = grad_fn
        return obj

    def __array_finalize__(self, obj):
        # Arrays derived by arithmetic keep the labels of the array they came from.
        self.origin = getattr(obj, "origin", "numpy")
        source_dtype = getattr(obj, "source_dtype", None)  # str(dtype) only when needed: it is slow
        self.source_dtype = str(self.dtype) if source_dtype is None else source_dtype
        self.requires_grad = getattr(obj, "requires_grad", False)
        self.grad_fn = getattr(obj, "grad_fn", None)

    @property
    def is_torch(self) -> bool:
        return self.origin == "torch"

    def plain(self) -> np.ndarray:
        """The data as a plain ndarray (no labels)."""
        return self.view(np.ndarray)


@dataclass(frozen=True)
class Opaque:
    """A returned value of a type the sandbox does not decode; only its names cross the boundary."""
    type_name: str
    repr_text: str


@dataclass(frozen=True)
class CallError:
    """An exception raised by a call marked `expect_error`."""
    type: str
    message: str
    line: int | None = None


@dataclass(frozen=True)
class CallResult:
    """The outcome of one call: `value` and `grads` when ok, else `error` (expect_error calls only).

    `grads` maps each `grad_wrt` name to an ndarray, or None when no gradient reached it;
    `grad_error` says why backpropagation could not run (output not a tensor, no grad_fn, ...).
    """
    index: int
    ok: bool
    value: Any = None
    grads: dict[str, np.ndarray | None] = field(default_factory=dict)
    grad_error: str | None = None
    error: CallError | None = None


@dataclass(frozen=True)
class SandboxError:
    """Why a run failed. `kind` is one of ERROR_KINDS; `message` is for the candidate; `line` is their
    line when known; `detail` a short traceback of their frames; `call_index` the call that was
    running (None at import); `exc_type` the exception class name when there was one."""
    kind: str
    message: str
    line: int | None = None
    detail: str = ""
    call_index: int | None = None
    exc_type: str | None = None


@dataclass(frozen=True)
class RunResult:
    """Everything one run produced. `ok` is True when the module loaded and every call finished
    (calls marked expect_error may have raised). `results` holds the calls completed, in order, also
    when the run failed part-way. `signature` lists the function's parameters as
    {"name", "kind", "default", "has_default"} (None when it could not be read). `timings` holds
    millisecond figures (setup, load, calls, total) for benchmarks."""
    ok: bool
    error: SandboxError | None
    signature: list[dict] | None
    results: list[CallResult]
    stdout: str
    stdout_truncated: bool
    elapsed_ms: float
    notes: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    call_ms: list[float] = field(default_factory=list)  # how long each reported call took, as the child says
