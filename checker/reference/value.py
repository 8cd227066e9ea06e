"""The clipped value loss of PPO2-style implementations (OpenAI Baselines ppo2, CleanRL ppo.py with clip_vloss)."""
from __future__ import annotations

import torch

from checker.reference._tensor import f64
from checker.reference.masking import masked_mean


def value_loss(values, old_values, returns, mask=None, clip: float | None = 0.2) -> torch.Tensor:
    """0.5 * masked_mean(max((V - R)^2, (V_old + clip(V - V_old, -clip, clip) - R)^2)).

    The move of V away from the rollout's V_old is limited to +-clip, and the max makes the loss
    pessimistic like the policy's min: clipping removes the incentive to move further, it does not
    clamp V itself. `clip=None` gives the plain 0.5 * MSE. old_values and returns are constants.
    (Andrychowicz et al. 2021 found value clipping hurts regardless of the threshold; it is the default
    in many LLM PPO frameworks, hence its place here.)
    """
    v, old, r = f64(values), f64(old_values).detach(), f64(returns).detach()
    per_token = (v - r) ** 2
    if clip is not None:
        moved = old + (v - old).clamp(-clip, clip)
        per_token = torch.maximum(per_token, (moved - r) ** 2)
    return 0.5 * masked_mean(per_token, mask)
