"""Shared machinery of the token-level drills (log-probs from logits, KL estimators, KL-shaped reward,
token GAE, masked whitening): right-padded masks of very different row lengths, padded slots filled
with garbage (NaN, inf, huge values) that must not leak, outputs that are [B, T] tensors (or a 0-d
mean), and candidate-only checks such as "padding is exactly 0".

All these drills take a bool `response_mask` that is True on a prefix of each row (right padding)
and False after it, with at least one valid token per row.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from checker.specs.base import (
    Axis,
    Check,
    DrillSpec,
    Example,
    Expected,
    Mismatch,
    OutputProblem,
    describe,
    first_where,
    relation_same_on,
    rounded,
    single_rows,
)

# What padded slots may hold, for the strategies: harmless zeros, ordinary numbers, and the poison
# that `x * mask` lets through (NaN * 0 is NaN, inf * 0 is NaN).
GARBAGE = ("zeros", "numbers", "huge", "nan", "inf")


def prefix_mask(lengths, T: int) -> np.ndarray:
    """[B, T] bool mask, True on the first lengths[b] positions of row b."""
    return np.arange(T)[None, :] < np.asarray(lengths)[:, None]


def fill_padding(x: np.ndarray, mask: np.ndarray, kind: str, rng_values=None) -> np.ndarray:
    """A copy of `x` whose positions outside `mask` (broadcast over trailing dims) hold `kind`."""
    out = np.array(x, copy=True)
    pad = ~mask
    while pad.ndim < out.ndim:
        pad = pad[..., None]
    pad = np.broadcast_to(pad, out.shape)
    if kind == "zeros":
        fill = 0.0
    elif kind == "numbers":
        fill = out if rng_values is None else rng_values
    elif kind == "huge":
        fill = 1e30
    elif kind == "nan":
        fill = np.nan
    elif kind == "inf":
        fill = np.inf
    elif kind == "-inf":
        fill = -np.inf
    else:
        raise ValueError(kind)
    return np.where(pad, fill, out).astype(out.dtype)


def draw_lengths(draw, B: int, T: int) -> list[int]:
    """Row lengths from 1 to T, often very different (one full row, one of length 1)."""
    from hypothesis import strategies as st

    lengths = draw(st.lists(st.integers(1, T), min_size=B, max_size=B))
    if B > 1 and draw(st.booleans()):
        lengths[0], lengths[-1] = T, 1
    return lengths


def padding_zero(names: tuple[str, ...], mask_of: Callable[[Example], np.ndarray]) -> Callable:
    """A custom check: each named output is exactly 0 wherever `mask_of(example)` is False."""
    def check(ex: Example, got: dict) -> str | None:
        pad = ~mask_of(ex)
        for name in names:
            g = np.asarray(got[name], dtype=np.float64)
            bad = pad & ~(g == 0.0)
            if bad.any():
                b, t = first_where(bad)
                return f"your {name} at row {b}, t = {t} (a padded position) is {g[b, t]:.6g}, not 0"
        return None
    return check


def has_garbage(ex: Example) -> bool:
    """Some padded slot of some float input holds a non-finite or huge value."""
    return ex.label.endswith(("nan padding", "inf padding", "huge padding")) or any(
        a.dtype.kind == "f" and ((~np.isfinite(a)).any() or (np.abs(a[np.isfinite(a)]) > 1e20).any())
        for a in ex.arrays.values())


class TokenSpec(DrillSpec):
    """A token-level drill: float [B, T] inputs, a bool right-padded mask, [B, T] (or 0-d) outputs."""

    mask_name = "response_mask"
    # (name, kind) for each returned value, in order: kind "bt" = shaped like the mask, "scalar" = 0-d.
    outputs: tuple[tuple[str, str], ...] = ()

    @property
    def output_fields(self) -> tuple[str, ...]:  # type: ignore[override]
        return tuple(name for name, _ in self.outputs)

    def out_shape(self, ex: Example) -> tuple:
        return ex.arrays[self.mask_name].shape

    def valid(self, ex: Example) -> np.ndarray:
        """Where the outputs are valid (shaped like the outputs)."""
        return ex.arrays[self.mask_name]

    @staticmethod
    def on_valid(name: str) -> str:
        """The derived field holding output `name` with its padded positions set to 0: value checks
        compare it, so a slip in the padding is diagnosed by the padding checks alone."""
        return f"{name} on valid tokens"

    @staticmethod
    def on_padding(name: str) -> str:
        """The derived field holding output `name` on padded positions only (0 on valid tokens)."""
        return f"{name} on padding"

    def with_derived(self, ex: Example, outputs: dict) -> dict:
        valid = self.valid(ex)
        out = dict(outputs)
        for name, kind in self.outputs:
            if kind == "bt" and name in outputs:
                x = np.asarray(outputs[name], dtype=np.float64)
                out[self.on_valid(name)] = np.where(valid, x, 0.0)
                out[self.on_padding(name)] = np.where(valid, 0.0, x)
        return out

    def axis_classes(self) -> list[tuple[str, Callable[[Example], bool]]]:
        """Classes of examples whose behaviour is independent (e.g. one per estimator): (suffix, applies)."""
        return [("", lambda ex: True)]

    def axes(self, framework: str) -> list:
        """For the per-axis diagnosis: each per-token output on valid tokens (per example class) and on
        padding, and each scalar output, as independent axes."""
        out = []
        for name, kind in self.outputs:
            for suffix, applies in self.axis_classes():
                label = f"{name}{suffix}"
                if kind == "bt":
                    out.append(Axis(label, f"{name} on valid tokens{suffix}", self.on_valid(name), applies,
                                    group=label))
                else:
                    out.append(Axis(label, f"{name}{suffix}", name, applies, group=label))
            if kind == "bt":
                out.append(Axis(f"{name}-padding", f"{name} on padded positions", self.on_padding(name),
                                group=f"{name}-padding"))
        if framework == "torch":
            out += [Axis(f"grad:{n}", f"the gradient w.r.t. {n}", f"grad:{n}", group=f"grad:{n}")
                    for n in self.trainable]
        return out

    def reference_outputs(self, ex: Example) -> dict:
        """The reference's outputs (float64 numpy arrays) on a valid example."""
        raise NotImplementedError

    def reference(self, ex: Example, framework: str) -> Expected:
        if ex.invalid is not None:
            return Expected({}, error=ex.invalid)
        return Expected(self.with_derived(ex, self.reference_outputs(ex)))

    def extract(self, value, ex: Example, framework: str) -> dict:
        return self.with_derived(ex, self._extract(value, ex, framework))

    def _extract(self, value, ex: Example, framework: str) -> dict:
        names = ", ".join(n for n, _ in self.outputs)
        if len(self.outputs) > 1:
            if not isinstance(value, (tuple, list)) or len(value) != len(self.outputs):
                raise OutputProblem("output-type", f"{self.function} must return ({names}); yours returned "
                                                   f"{describe(value)}")
            values = list(value)
        else:
            values = [value]
        out = {}
        for (name, kind), v in zip(self.outputs, values):
            if kind == "scalar":
                out[name] = self.scalar(v, framework, what=name)
            else:
                out[name] = self.array(v, framework, self.out_shape(ex), name)
        return out

    def shrink(self, ex: Example) -> list[Example]:
        """Single rows first (the smallest batch that still fails), then rounder numbers."""
        return single_rows(ex, ex.arrays[self.mask_name].shape[0]) + rounded(ex)

    def where(self, mismatch: Mismatch) -> str:
        if not mismatch.index:
            return ""
        if len(mismatch.index) == 1:
            return f"row {mismatch.index[0]}"
        return f"row {mismatch.index[0]}, t = {mismatch.index[1]}"

    def padding_pair(self, arrays: dict, hyper: dict, label: str, fills: dict[str, dict[str, str]]) -> list[Example]:
        """Examples for the metamorphic padding check: `arrays` as given (role "as-given") and, for each
        role in `fills` ({role: {input: fill kind}}), the same arrays with those inputs' padding refilled
        (NaN, inf, 1e30, ...). Valid tokens must come out the same whatever the padding holds."""
        out = [Example(dict(arrays), dict(hyper), f"edge: {label}, padding as given", relation=("padding", "as-given"))]
        for role, kinds in fills.items():
            a = dict(arrays)
            for name, kind in kinds.items():
                a[name] = fill_padding(a[name], self.valid_input_mask(arrays, name), kind)
            out.append(Example(a, dict(hyper), f"edge: {label}, {role} padding", relation=("padding", role)))
        return out

    def valid_input_mask(self, arrays: dict, name: str) -> np.ndarray:
        """Where input `name` is valid (default: the mask itself)."""
        return arrays[self.mask_name]

    def padding_relation_check(self, fields: tuple[str, ...], what: str) -> Check:
        return Check("padding-ignored", f"whatever padding holds (NaN, inf, 1e30), {what} are unchanged",
                     "Padded positions may hold anything (NaN, inf, 1e30), and what they hold must not change the "
                     "valid results: {detail}.", relation="padding",
                     compare=relation_same_on("as-given", fields, "with the padding as given"))

    def padding_check(self, names: tuple[str, ...] | None = None) -> Check:
        names = names or tuple(n for n, k in self.outputs if k == "bt")
        return Check("padding-zero", "padded positions are exactly 0",
                     "Padded positions (response_mask False) must hold exactly 0 in every per-token output, "
                     "whatever the inputs hold there: {detail}.",
                     custom=padding_zero(names, self.valid), frameworks=("numpy", "torch"))
