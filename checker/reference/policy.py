"""The clipped surrogate policy loss (PPO, Schulman et al., 2017, eq. 7) with the LLM-era options the
seeds teach: asymmetric clip (DAPO clip-higher), dual clip for A < 0 (Ye et al., 2020), a token mask
and the four aggregation modes, plus the diagnostics a trainer logs."""
from __future__ import annotations

from dataclasses import dataclass

import torch

from checker.reference._tensor import as_mask, f64
from checker.reference.aggregate import aggregate
from checker.reference.masking import masked_count, masked_mean


@dataclass(frozen=True)
class PolicyStats:
    """Diagnostics over valid tokens (floats, no gradient).

    clip_frac_active: fraction of valid tokens where the clipped branch is active, i.e. strictly
        smaller than the unclipped one (verl, OpenRLHF, TRL). These are exactly the tokens
        whose gradient the clip zeroes.
    clip_frac_band: fraction of valid tokens whose ratio lies outside the band
        [1 - clip_low, 1 + clip_high], whatever the sign of A (CleanRL, SB3, TorchRL).
    approx_kl: k3 estimate of KL(pi_old || pi_theta), mean of (ratio - 1 - log ratio) >= 0.
    ratio_min, ratio_max: extremes of the ratio over valid tokens (1.0 when none is valid).
    """

    clip_frac_active: float
    clip_frac_band: float
    approx_kl: float
    ratio_min: float
    ratio_max: float


def policy_objective(logp, old_logp, advantages, clip_low: float = 0.2, clip_high: float | None = None,
                     dual_clip: float | None = None):
    """Per-token clipped objective (to be MAXIMISED) and its parts.

        ratio     = exp(logp - old_logp)            (log space: no overflow/underflow of pi itself)
        unclipped = ratio * A
        clipped   = clip(ratio, 1 - clip_low, 1 + clip_high) * A
        objective = min(unclipped, clipped)         (a pessimistic lower bound of the surrogate)
        dual clip (A < 0 only): objective = max(objective, c * A), c > 1 (typically 3)

    old_logp and advantages are constants of the update (detached here). Returns
    (objective, ratio, unclipped, clipped, log_ratio).
    """
    clip_high = clip_low if clip_high is None else clip_high
    logp, old, adv = f64(logp), f64(old_logp).detach(), f64(advantages).detach()
    log_ratio = logp - old
    ratio = torch.exp(log_ratio)
    unclipped = ratio * adv
    clipped = ratio.clamp(1.0 - clip_low, 1.0 + clip_high) * adv
    objective = torch.minimum(unclipped, clipped)
    if dual_clip is not None:
        if dual_clip <= 1.0:
            raise ValueError(f"dual_clip must be > 1, got {dual_clip}")
        objective = torch.where(adv < 0, torch.maximum(objective, dual_clip * adv), objective)
    return objective, ratio, unclipped, clipped, log_ratio


def policy_loss(logp, old_logp, advantages, mask=None, clip_low: float = 0.2, clip_high: float | None = None,
                dual_clip: float | None = None, mode: str = "token_mean", norm_const: float | None = None):
    """Clipped policy loss -aggregate(objective) over valid tokens, and its `PolicyStats`.

    logp, old_logp, advantages, mask: [..., T] (advantages may also be one per sequence, [...], and is
    then broadcast over T). clip_high defaults to clip_low (the symmetric PPO band). See
    `policy_objective` for the formula and `aggregate` for the modes.
    """
    logp = f64(logp)
    adv = f64(advantages)
    if adv.dim() == logp.dim() - 1:
        adv = adv.unsqueeze(-1)
    adv = adv.expand(logp.shape)
    objective, ratio, unclipped, clipped, log_ratio = policy_objective(
        logp, old_logp, adv, clip_low, clip_high, dual_clip)
    m = as_mask(mask, logp)
    loss = aggregate(-objective, m, mode, norm_const)
    with torch.no_grad():
        hi = 1.0 + (clip_low if clip_high is None else clip_high)
        lo = 1.0 - clip_low
        n = masked_count(ratio, m).clamp_min(1.0)
        active = ((clipped < unclipped) & m).to(torch.float64).sum() / n
        band = (((ratio < lo) | (ratio > hi)) & m).to(torch.float64).sum() / n
        kl = masked_mean(torch.expm1(log_ratio) - log_ratio, m)  # k3; expm1 keeps tiny log-ratios >= 0
        valid = ratio.detach()[m]
        rmin = float(valid.min()) if valid.numel() else 1.0
        rmax = float(valid.max()) if valid.numel() else 1.0
    stats = PolicyStats(float(active), float(band), float(kl), rmin, rmax)
    return loss, stats
