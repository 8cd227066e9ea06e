"""Small conversions shared by the reference modules: everything is computed in float64."""
from __future__ import annotations

import torch


def f64(x) -> torch.Tensor:
    """`x` as a float64 tensor; tensors keep their autograd graph (`.to` is differentiable)."""
    if isinstance(x, torch.Tensor):
        return x if x.dtype == torch.float64 else x.to(torch.float64)
    return torch.as_tensor(x, dtype=torch.float64)


def as_mask(mask, like: torch.Tensor) -> torch.Tensor:
    """A boolean mask broadcast to `like`'s shape; None means every position is valid."""
    if mask is None:
        return torch.ones(like.shape, dtype=torch.bool)
    m = torch.as_tensor(mask)
    m = m if m.dtype == torch.bool else m != 0
    return m.expand(like.shape)
