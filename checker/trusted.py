"""Running OUR OWN code (model solutions, catalogued mistakes) in the checker's process.

The catalogue of known mistakes is trusted content, so it runs in-process, fast, with results shaped
exactly like the sandbox's (`CallResult` holding `ReturnedArray`s), so a candidate's output and a
mistake's output are compared by the same code. Candidate code never comes here.
"""
from __future__ import annotations

import inspect
import warnings
from typing import Any, Callable

import numpy as np
import torch

from checker.sandbox.model import Call, CallError, CallResult, Opaque, ReturnedArray


class TrustedFunction:
    """One of our own functions with its parameter names, read once (`inspect.signature` is slow, and
    `run_trusted` maps a call's inputs to names for every call). Called like the function itself."""

    def __init__(self, fn: Callable) -> None:
        self.fn = fn
        self.params = [p.name for p in inspect.signature(fn).parameters.values()]

    def __call__(self, *args, **kwargs):
        return self.fn(*args, **kwargs)


def load_function(source: str, function: str, filename: str) -> TrustedFunction:
    """Compile trusted `source` and return its `function` (the catalogue compiles each form once and keeps
    it for as long as it lives)."""
    namespace: dict[str, Any] = {"__name__": f"trusted:{filename}"}
    exec(compile(source, filename, "exec", dont_inherit=True), namespace)  # noqa: S102 - our own files
    return TrustedFunction(namespace[function])


def normalize(value: Any) -> Any:
    """A returned value in the sandbox's decoded form (tensors and arrays become `ReturnedArray`)."""
    if isinstance(value, torch.Tensor):
        t = value.detach().cpu()
        data = t.to(torch.float64).numpy() if t.is_floating_point() else t.numpy()
        return ReturnedArray(data.copy(), "torch", str(value.dtype), value.requires_grad,
                             type(value.grad_fn).__name__ if value.grad_fn is not None else None)
    if isinstance(value, np.ndarray):
        return ReturnedArray(value.copy(), "numpy", str(value.dtype))
    if isinstance(value, np.generic):
        return ReturnedArray(np.asarray(value), "numpy-scalar", str(value.dtype))
    if isinstance(value, tuple):
        return tuple(normalize(v) for v in value)
    if isinstance(value, list):
        return [normalize(v) for v in value]
    if isinstance(value, dict):
        return {str(k): normalize(v) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return Opaque(type(value).__name__, repr(value)[:200])


def _fresh(value: Any, requires_grad: bool):
    if isinstance(value, torch.Tensor):
        t = value.detach().clone()
        return t.requires_grad_(True) if requires_grad else t
    if isinstance(value, np.ndarray):
        return value.copy()
    return value


def run_trusted(fn: TrustedFunction | Callable, calls: list[Call]) -> list[CallResult]:
    """Call `fn` once per `Call` with fresh inputs; back-propagate and collect grads like the sandbox."""
    if not isinstance(fn, TrustedFunction):
        fn = TrustedFunction(fn)
    params = fn.params
    results = []
    for index, call in enumerate(calls):
        wrt = set(call.grad_wrt)
        named: dict[str, Any] = {}
        args = []
        for i, a in enumerate(call.args):
            name = params[i] if i < len(params) else f"arg{i}"
            fresh = _fresh(a, name in wrt or f"arg{i}" in wrt)
            named[name] = named[f"arg{i}"] = fresh
            args.append(fresh)
        kwargs = {k: _fresh(v, k in wrt) for k, v in call.kwargs.items()}
        named.update(kwargs)
        try:
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out = fn.fn(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - a mistake may raise (e.g. a contract probe)
            results.append(CallResult(index, False, error=CallError(type(exc).__name__, str(exc))))
            continue
        grads: dict[str, np.ndarray | None] = {name: None for name in call.grad_wrt}
        grad_error = None
        if call.grad_of is not None:
            target = out
            for part in [p for p in call.grad_of.split(".") if p]:
                target = target[part] if isinstance(target, dict) else target[int(part)]
            if isinstance(target, torch.Tensor) and target.requires_grad:
                (target if target.dim() == 0 else target.sum()).backward()
                for name in call.grad_wrt:
                    t = named.get(name)
                    if isinstance(t, torch.Tensor) and t.grad is not None:
                        grads[name] = t.grad.detach().to(torch.float64).numpy().copy()
            else:
                grad_error = "the output does not require grad"
        results.append(CallResult(index, True, value=normalize(out), grads=grads, grad_error=grad_error))
    return results
