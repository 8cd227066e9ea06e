"""Masked statistics over valid tokens: sum, mean, advantage whitening, explained variance.

Padding never leaks into a statistic: masked positions are replaced by 0 with `torch.where` (not
multiplied by the mask), so NaN or inf in padding cannot poison the result (`NaN * 0` is NaN).
"""
from __future__ import annotations

import torch

from checker.reference._tensor import as_mask, f64


def masked_sum(x, mask=None, dim=None) -> torch.Tensor:
    """sum over valid positions of x (all dims when `dim` is None)."""
    x = f64(x)
    m = as_mask(mask, x)
    picked = torch.where(m, x, torch.zeros((), dtype=x.dtype))
    return picked.sum() if dim is None else picked.sum(dim=dim)


def masked_count(x, mask=None, dim=None) -> torch.Tensor:
    """Number of valid positions (as float64), over all dims or along `dim`."""
    m = as_mask(mask, f64(x)).to(torch.float64)
    return m.sum() if dim is None else m.sum(dim=dim)


def masked_mean(x, mask=None, dim=None) -> torch.Tensor:
    """sum(x * m) / sum(m) over valid positions; 0 where there is no valid position."""
    total = masked_sum(x, mask, dim)
    count = masked_count(x, mask, dim)
    return total / count.clamp_min(1.0)


def masked_whiten(advantages, mask=None, eps: float = 1e-8, shift_mean: bool = True) -> torch.Tensor:
    """(A - mean) / sqrt(var + eps) with mean and (population) variance over valid tokens only.

    Whitened advantages have mean 0 and std 1 over the valid tokens (up to eps); `eps` keeps a batch
    whose advantages are all equal finite (it maps them to 0). Padded positions are returned as 0.
    Population variance (divide by N) is used so that the std of the result is exactly 1; verl and TRL
    use the Bessel-corrected variance, which differs by a factor sqrt(N / (N - 1)).
    """
    a = f64(advantages)
    m = as_mask(mask, a)
    mean = masked_mean(a, m)
    centred = torch.where(m, a - mean, torch.zeros((), dtype=a.dtype))
    var = masked_mean(centred**2, m)
    out = centred * torch.rsqrt(var + eps)
    if not shift_mean:
        out = torch.where(m, out + mean, out)
    return out


def explained_variance(values, returns, mask=None) -> torch.Tensor:
    """1 - Var[R - V] / Var[R] over valid positions: 1 is a perfect critic, 0 no better than a constant,
    negative worse than one. NaN when the returns have zero variance (nothing to explain)."""
    v, r = f64(values), f64(returns)
    m = as_mask(mask, r)
    var_r = masked_mean((r - masked_mean(r, m)) ** 2, m)
    resid = r - v
    var_resid = masked_mean((resid - masked_mean(resid, m)) ** 2, m)
    if var_r == 0:
        return torch.tensor(float("nan"), dtype=torch.float64)
    return 1.0 - var_resid / var_r
