"""Shared machinery of the preference, RLOO, importance-weight and KL-penalty drills: answers whose
outputs are a few named numbers or arrays (not only one loss), a float64 reference that returns every
output by name, gradients by autograd from one of them, and readers for the returned structure."""
from __future__ import annotations

from typing import Any

import numpy as np
import torch

from checker.sandbox.model import ReturnedArray
from checker.specs.base import (
    Example,
    Expected,
    OutputProblem,
    describe,
    rounded,
    single_rows,
)
from checker.specs.losses import LossSpec


class NamedOutputsSpec(LossSpec):
    """A drill whose answer returns named outputs; subclasses write `reference_outputs` and `extract`.

    `grad_field` is the output the PyTorch gradients are taken from (summed when not a scalar)."""

    grad_field: str = "loss"

    def reference_outputs(self, t: dict, hyper: dict) -> dict:
        """Every output as a float64 tensor, from float64 tensors (trainable ones require grad)."""
        raise NotImplementedError

    def reference(self, ex: Example, framework: str) -> Expected:
        hyper = {**self.hyper_defaults, **ex.hyper}
        grad = framework == "torch" and ex.invalid is None
        tensors = {k: (torch.from_numpy(v.copy()) if v.dtype == bool else
                       torch.tensor(v, dtype=torch.float64, requires_grad=grad and k in self.trainable))
                   for k, v in ex.arrays.items()}
        try:
            out = self.reference_outputs(tensors, hyper)
        except ValueError as exc:
            return Expected({}, {}, error=str(exc))
        grads: dict = {}
        if grad and self.trainable:
            target = out[self.grad_field]
            (target if target.dim() == 0 else target.sum()).backward()
            grads = {k: (tensors[k].grad.numpy().copy() if tensors[k].grad is not None
                         else np.zeros(ex.arrays[k].shape)) for k in self.trainable}
            grads.update({k: None for k in self.constants})
        return Expected({k: v.detach().numpy().astype(np.float64) for k, v in out.items()}, grads)

    def shrink(self, ex: Example) -> list[Example]:
        """Fewer rows (the first dim of every input), then rounder numbers."""
        if ex.invalid is not None:
            return []
        first = ex.arrays[self.positional[0]]
        return single_rows(ex, first.shape[0] if first.ndim else 0) + rounded(ex)

    def where(self, mismatch) -> str:
        if not mismatch.index:
            return ""
        if len(mismatch.index) == 1:
            return f"index {mismatch.index[0]}"
        return "(" + ", ".join(str(i) for i in mismatch.index) + ")"

    # ---- readers ---------------------------------------------------------------------------
    @staticmethod
    def tuple_of(value: Any, n: int, what: str) -> tuple:
        if not isinstance(value, (tuple, list)) or len(value) != n:
            raise OutputProblem("output-type", f"{what}; yours returned {describe(value)}")
        return tuple(value)

    @staticmethod
    def number(value: Any, what: str) -> np.ndarray:
        """A plain number: a float, an int, a 0-d array or a 0-d tensor (a Python bool is not one)."""
        if isinstance(value, bool) or value is None:
            raise OutputProblem("output-type", f"{what} must be a number; yours is {describe(value)}")
        if isinstance(value, (int, float)):
            return np.asarray(float(value))
        if isinstance(value, ReturnedArray) and value.shape == ():
            return np.asarray(value.plain(), dtype=np.float64)
        raise OutputProblem("output-type", f"{what} must be a number (a float or a 0-d array or tensor); "
                                           f"yours is {describe(value)}")
