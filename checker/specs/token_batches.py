"""Helpers shared by the specs of the token-level drills: right-padded masks drawn by response length,
per-row and per-group views of a candidate's [B, T] output, and the value checks of its output dict."""
from __future__ import annotations

import numpy as np

from checker.specs.base import OutputProblem, describe


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


def number(value, what: str) -> float:
    """A statistic the candidate returned: a Python number or a 0-d array/tensor (not a bool)."""
    if isinstance(value, bool) or not (isinstance(value, (int, float)) or getattr(value, "shape", None) == ()):
        raise OutputProblem("output-type", f"{what} must be a number (a float or a 0-d tensor); yours is "
                                           f"{describe(value)}")
    return float(np.asarray(value))
