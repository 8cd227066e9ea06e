"""GRPO's group-normalised outcome advantages: the critic replaced by a baseline from the group."""
from __future__ import annotations

import torch

from checker.reference._tensor import f64


def grpo_advantages(rewards, eps: float = 1e-6, unbiased: bool = True) -> torch.Tensor:
    """(r - mean_group) / (std_group + eps) with each group on the last dim ([..., G] -> [..., G]).

    Samples of one prompt form a group; their mean is the baseline. `unbiased=True` uses the
    Bessel-corrected std as torch.std and verl do; a group of one has no spread and gets advantage 0
    (verl instead passes the raw score through for singleton groups).
    """
    r = f64(rewards)
    G = r.shape[-1]
    mean = r.mean(dim=-1, keepdim=True)
    if G == 1:
        return torch.zeros_like(r)
    std = r.std(dim=-1, keepdim=True, unbiased=unbiased)
    return (r - mean) / (std + eps)
