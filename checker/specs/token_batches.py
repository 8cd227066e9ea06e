"""Helpers shared by the specs of the token-level drills: right-padded masks drawn by response length,
per-row and per-group views of a candidate's [B, T] output, and the value checks of its output dict."""
from __future__ import annotations

import dataclasses

import numpy as np

from checker.specs.base import (
    Axis,
    Check,
    Example,
    OutputProblem,
    describe,
    relation_compare,
)


def right_padded(lengths, T: int) -> np.ndarray:
    """A bool [B, T] mask with `lengths[b]` leading True positions in row b (right padding)."""
    return np.arange(T)[None, :] < np.asarray(lengths)[:, None]


def draw_lengths(draw, B: int, T: int) -> list[int]:
    """Response lengths 1..T, often very different from each other (a full row beside a one-token row)."""
    from hypothesis import strategies as st

    return [draw(st.sampled_from([1, T, T, max(1, T // 2)]) | st.integers(1, T)) for _ in range(B)]


def fill_padding(draw, values: np.ndarray, mask: np.ndarray, allow_nonfinite: bool = True) -> np.ndarray:
    """`values` with its padded slots overwritten by garbage: large numbers, and NaN or inf when allowed."""
    from hypothesis import strategies as st

    out = values.copy()
    garbage = [1e4, -1e4, 37.0, -5.5] + ([np.nan, np.inf, -np.inf] if allow_nonfinite else [])
    for idx in zip(*np.nonzero(~mask)):
        if draw(st.booleans()):
            out[idx] = draw(st.sampled_from(garbage))
    return out



def maybe_fill_padding(draw, arrays: dict, mask: np.ndarray, keys) -> dict:
    """Half the time, every float input in `keys` gets garbage in its padded slots (half of those times NaN
    and inf too): the draws a token-batch strategy makes, in one place."""
    from hypothesis import strategies as st

    if draw(st.booleans()):
        nonfinite = draw(st.booleans())
        arrays = dict(arrays)
        for k in keys:
            arrays[k] = fill_padding(draw, arrays[k], mask, allow_nonfinite=nonfinite)
    return arrays


def as_float32(arrays: dict, keys) -> dict:
    """The same inputs with the float ones in `keys` as float32 (the edge every token drill checks)."""
    return {k: (v.astype(np.float32) if k in keys else v) for k, v in arrays.items()}

def number(value, what: str) -> float:
    """A statistic the candidate returned: a Python number or a 0-d array/tensor (not a bool)."""
    if isinstance(value, bool) or not (isinstance(value, (int, float)) or getattr(value, "shape", None) == ()):
        raise OutputProblem("output-type", f"{what} must be a number (a float or a 0-d tensor); yours is "
                                           f"{describe(value)}")
    return float(np.asarray(value))


def relations_supported() -> bool:
    """Whether this checker compares an answer with itself across related examples (metamorphic checks)."""
    return "relation" in {f.name for f in dataclasses.fields(Example)}


def related(arrays: dict, hyper: dict, label: str, relation: str, role: str):
    """An example playing `role` in the metamorphic relation `relation` (a plain example where the checker
    has no relations: it is then still compared with the reference)."""
    if relations_supported():
        return Example(dict(arrays), dict(hyper), label, relation=(relation, role))
    return Example(dict(arrays), dict(hyper), label)


def relation_check(check_id: str, title: str, message: str, relation: str, first: str, second: str,
                   first_words: str, second_words: str) -> list:
    """A metamorphic check comparing the answer's outputs in role `first` with those in role `second`
    (none where the checker has no relations)."""
    if not relations_supported():
        return []

    return [Check(check_id, title, message, relation=relation,
                  compare=relation_compare(first, second, first_words, second_words))]


def mode_axes(modes, mode_of, trainable: str | None, stats=(), constants=()):
    """Per-axis diagnosis: the loss (and its gradient) under each aggregation mode, each statistic, and
    the (absent) gradient of each constant input, as independent axes."""
    out = []
    for m in modes:
        applies = (lambda mode: lambda ex: mode_of(ex) == mode)(m)
        out.append(Axis(f"loss-{m}", f"the loss with {m}", "loss", applies=applies, group=m))
        if trainable:
            out.append(Axis(f"grad-{m}", f"the gradient w.r.t. {trainable} with {m}", f"grad:{trainable}",
                            applies=applies, group=m))
    out += [Axis(s, f"stats[{s!r}]", s, group=s) for s in stats]
    out += [Axis(f"nograd:{c}", f"the gradient reaching {c}", f"nograd:{c}", group=f"nograd:{c}") for c in constants]
    return out
