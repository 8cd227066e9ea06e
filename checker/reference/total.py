"""The total PPO loss and the entropy it subtracts (Schulman et al. 2017, §5, eq. 9, negated)."""
from __future__ import annotations

import torch

from checker.reference._tensor import f64
from checker.reference.masking import masked_mean


def entropy_from_logits(logits) -> torch.Tensor:
    """H(pi) = -sum_a p(a) log p(a) over the last dim, from unnormalised logits (log-softmax, stable)."""
    logp = torch.log_softmax(f64(logits), dim=-1)
    return -(logp.exp() * logp).sum(dim=-1)


def total_loss(policy_loss, value_loss, entropy, vf_coef: float = 0.5, ent_coef: float = 0.01,
               mask=None) -> torch.Tensor:
    """policy_loss + vf_coef * value_loss - ent_coef * mean(entropy).

    The entropy bonus is SUBTRACTED: minimising the loss then maximises entropy, which keeps the policy
    exploring (adding it instead is a classic mistake). Typical coefficients: vf_coef 0.5,
    ent_coef 0.01 (CleanRL defaults). `entropy` may be per token; its mean is over valid tokens.
    """
    return f64(policy_loss) + vf_coef * f64(value_loss) - ent_coef * masked_mean(entropy, mask)
