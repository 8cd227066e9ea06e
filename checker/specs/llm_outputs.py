"""Shared machinery of the LLM objective drills (rollout correction, GSPO, DAPO, CISPO, the KL loss, the
critic-free advantages, micro-batch loss scaling): answers that return a loss and per-token ([B, T]) or
per-sequence ([B]) arrays over a right-padded batch whose padding may hold NaN or inf.

Each per-token output is compared on the tokens where the drill says it is defined (a derived field
"<name> on valid tokens", zero elsewhere) and separately on the padding ("<name> on padding", which must
be exactly 0), so a slip in the mask is diagnosed apart from a slip in the formula. A boolean output (a
loss mask) may come back as bools or as 0/1 numbers.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from checker.sandbox.model import ReturnedArray
from checker.specs.base import (
    Axis,
    Check,
    Example,
    OutputProblem,
    cut_tokens,
    describe,
    first_where,
    relation_compare,
    rounded,
    single_rows,
)
from checker.specs.pref_base import NamedOutputsSpec


def right_padded(lengths, T: int) -> np.ndarray:
    return np.arange(T)[None, :] < np.asarray(lengths)[:, None]


def poison_padding(arrays: dict, mask: np.ndarray, names: tuple[str, ...], fills=(np.nan, -np.inf, np.inf)) -> dict:
    """`arrays` with the padding of each named [B, T] input refilled with NaN, -inf, inf (cycling)."""
    out = dict(arrays)
    for i, name in enumerate(names):
        out[name] = np.where(mask, arrays[name], fills[i % len(fills)])
    return out


def finite_padding(ex: Example, names: tuple[str, ...], mask_name: str = "response_mask") -> bool:
    """Every named input is finite and moderate on padding (an answer that forgets the mask is then wrong
    only by what the padding adds, never by a NaN)."""
    m = ex.arrays[mask_name]
    return all((np.isfinite(ex.arrays[k][~m]) & (np.abs(ex.arrays[k][~m]) < 1e3)).all() for k in names
               if ex.arrays[k].shape == m.shape)


class LlmOutputsSpec(NamedOutputsSpec):
    """A drill returning `outputs` in order: (name, kind) with kind "scalar" (a loss), "bt" (a [B, T]
    float array), "mask" (a [B, T] bool array, 0/1 numbers accepted) or "b" (a [B] float array)."""

    mask_name = "response_mask"
    outputs: tuple[tuple[str, str], ...] = ()
    grad_of = "0"          # the loss, the first of the returned values
    shape_words = "one value per token of the batch"

    @property
    def output_fields(self) -> tuple[str, ...]:  # type: ignore[override]
        return tuple(name for name, _ in self.outputs)

    # ---- where each per-token output is defined ------------------------------------------------
    def defined(self, ex: Example, name: str) -> np.ndarray:
        """Where per-token output `name` is compared with the reference (default: the valid tokens)."""
        return ex.arrays[self.mask_name]

    @staticmethod
    def on_valid(name: str) -> str:
        return f"{name} on valid tokens"

    @staticmethod
    def on_padding(name: str) -> str:
        return f"{name} on padding"

    def with_derived(self, ex: Example, outputs: dict) -> dict:
        out = dict(outputs)
        mask = ex.arrays[self.mask_name]
        for name, kind in self.outputs:
            if kind in ("bt", "mask") and name in outputs:
                x = np.asarray(outputs[name], dtype=np.float64)
                out[self.on_valid(name)] = np.where(self.defined(ex, name), x, 0.0)
                out[self.on_padding(name)] = np.where(mask, 0.0, x)
        return out

    def compared(self, name: str) -> str:
        """The field a check compares for output `name`."""
        kind = dict(self.outputs)[name]
        return self.on_valid(name) if kind in ("bt", "mask") else name

    # ---- reference and extraction ----------------------------------------------------------------
    def reference(self, ex: Example, framework: str):
        exp = super().reference(ex, framework)
        if exp.error is None:
            exp.outputs = self.with_derived(ex, exp.outputs)
        return exp

    def extract(self, value: Any, ex: Example, framework: str) -> dict:
        names = ", ".join(n for n, _ in self.outputs)
        if len(self.outputs) > 1:
            values = self.tuple_of(value, len(self.outputs), f"{self.function} must return ({names})")
        else:
            values = (value,)
        B, T = ex.arrays[self.mask_name].shape
        out = {}
        for (name, kind), v in zip(self.outputs, values):
            if kind == "scalar":
                out[name] = self.scalar(v, framework, what=name)
            elif kind == "b":
                out[name] = self.array(v, framework, (B,), name, "one value per response")
                self.real(v, name)
            elif kind == "mask":
                out[name] = self.bool_like(v, framework, (B, T), name)
            else:
                out[name] = self.array(v, framework, (B, T), name, self.shape_words)
                self.real(v, name)
        return self.with_derived(ex, out)

    @staticmethod
    def bool_like(value: Any, framework: str, shape: tuple, what: str) -> np.ndarray:
        want = "torch tensor" if framework == "torch" else "NumPy array"
        if not isinstance(value, ReturnedArray) or (value.is_torch != (framework == "torch")):
            raise OutputProblem("output-type", f"{what} must be a boolean {want}; yours is {describe(value)}")
        if tuple(value.shape) != tuple(shape):
            raise OutputProblem("output-shape", f"{what} must have shape {tuple(shape)} like response_mask; yours "
                                                f"has shape {tuple(value.shape)}")
        x = np.asarray(value.plain(), dtype=np.float64)
        if not np.isin(x, (0.0, 1.0)).all():
            raise OutputProblem("output-type", f"{what} must be a mask (True/False, or 0/1); yours holds "
                                               f"{x[~np.isin(x, (0.0, 1.0))].flat[0]:.6g}")
        return x

    # ---- shrinking and places --------------------------------------------------------------------
    def shrink(self, ex: Example) -> list[Example]:
        """Single rows (whole groups where the drill has groups), shorter prefixes, rounder numbers."""
        if ex.invalid is not None:
            return []
        B, T = ex.arrays[self.mask_name].shape
        out = single_rows(ex, B, self.row_step(ex))
        longest = int(ex.arrays[self.mask_name].sum(axis=1).max())
        if longest < T and self.can_cut(ex):
            out.append(cut_tokens(ex, longest, T))
        return out + rounded(ex)

    def row_step(self, ex: Example) -> int:
        """How many rows a shrunk example keeps together (a group, for the group drills)."""
        return 1

    def can_cut(self, ex: Example) -> bool:
        """Whether dropping trailing all-padding columns leaves the result unchanged."""
        return True

    def where(self, mismatch) -> str:
        if not mismatch.index:
            return ""
        if len(mismatch.index) == 1:
            return f"row {mismatch.index[0]}"
        return f"row {mismatch.index[0]}, t = {mismatch.index[1]}"

    # ---- shared checks and axes ------------------------------------------------------------------
    def padding_zero_check(self, names: tuple[str, ...] | None = None) -> Check:
        names = names or tuple(n for n, k in self.outputs if k in ("bt", "mask"))

        def check(ex: Example, got: dict) -> str | None:
            pad = ~ex.arrays[self.mask_name]
            for name in names:
                g = np.asarray(got[name], dtype=np.float64)
                bad = pad & ~(g == 0.0)
                if bad.any():
                    b, t = first_where(bad)
                    return f"your {name} at row {b}, t = {t} (a padded position) is {g[b, t]:.6g}, not 0"
            return None
        what = " and ".join(names)
        return Check("padding-zero", f"{what} are exactly 0 on padding",
                     f"Padded positions (response_mask False) must hold exactly 0 in {what}, whatever the inputs "
                     "hold there: {detail}. Select with where(mask, x, 0) rather than multiplying by the mask, "
                     "since NaN * 0 is NaN.", custom=check)

    def padding_relation(self, fields: tuple[str, ...]) -> Check:
        return Check("padding-contents", "what padding holds changes no output and no gradient",
                     "Positions where response_mask is False must not count, whatever they hold: {detail}.",
                     relation="padding", compare=relation_compare("changed", "as-given",
                                                                  "with NaN, -inf and inf in the padding",
                                                                  "with zeros there"))

    def defaults_relation(self, words: str) -> Check:
        return Check("defaults", f"the defaults are {words}",
                     f"Called without the keyword arguments your function must behave as with {words} passed: "
                     "{detail}.", relation="defaults",
                     compare=relation_compare("implicit", "explicit", "called without them", "with the defaults passed"))

    def padding_pair(self, arrays: dict, hyper: dict, label: str, names: tuple[str, ...]) -> list[Example]:
        mask = arrays[self.mask_name]
        zeroed = {k: (np.where(mask, v, 0.0) if k in names else v) for k, v in arrays.items()}
        return [Example(zeroed, dict(hyper), f"edge: {label}, zeros in the padding", relation=("padding", "as-given")),
                Example(poison_padding(zeroed, mask, names), dict(hyper), f"edge: {label}, NaN and inf in the padding",
                        relation=("padding", "changed"))]

    def output_axes(self, framework: str, applies: Callable[[Example], bool] = lambda ex: True,
                    suffix: str = "", names: tuple[str, ...] | None = None) -> list[Axis]:
        """One axis per output (per-token outputs on their defined tokens and on padding)."""
        out = []
        for name, kind in self.outputs:
            if names is not None and name not in names:
                continue
            if kind in ("bt", "mask"):
                out.append(Axis(f"{name}{suffix}", f"{name} where defined{suffix}", self.on_valid(name), applies,
                                group=f"{name}{suffix}"))
                if not suffix:
                    out.append(Axis(f"{name}-padding", f"{name} on padded positions", self.on_padding(name),
                                    group=f"{name}-padding"))
            else:
                out.append(Axis(f"{name}{suffix}", f"the {name}{suffix}", name, applies, group=f"{name}{suffix}"))
        return out

    def gradient_axes(self, framework: str, applies: Callable[[Example], bool] = lambda ex: True,
                      suffix: str = "", group: str | None = None) -> list[Axis]:
        if framework != "torch":
            return []
        out = [Axis(f"grad:{n}{suffix}", f"the gradient w.r.t. {n}{suffix}", f"grad:{n}", applies,
                    group=group or f"grad:{n}{suffix}") for n in self.trainable]
        if not suffix:
            out += [Axis(f"nograd:{n}", f"the gradient reaching {n}", f"nograd:{n}", group=f"nograd:{n}")
                    for n in self.constants]
        return out

    def axes(self, framework: str) -> list[Axis]:
        return self.output_axes(framework) + self.gradient_axes(framework)
