# drill: actor-loss
# framework: torch
# expect: output-type
# A right actor loss whose approx_kl metric is a 0-d complex tensor with an imaginary part.
import math

import torch


def compute_actor_loss(log_probs_new, log_probs_old, advantages, response_mask=None, clip_range=0.2,
                       reduction="token_mean"):
    """(loss, metrics) for one PPO actor update on a padded batch of responses.

    All tensors are [batch, seq_len]; response_mask is a bool tensor, True on generated tokens.
    metrics: approx_kl (k3 over valid tokens), clip_fraction (valid tokens with |ratio - 1| > clip_range),
    valid_tokens. Invalid input raises ValueError before anything is computed.
    """
    # Reject bad input loudly: a silent broadcast or a NaN here corrupts a whole training run.
    if log_probs_new.shape != log_probs_old.shape or log_probs_new.shape != advantages.shape:
        raise ValueError("log_probs_new, log_probs_old and advantages must have the same shape")
    if log_probs_new.ndim != 2 or log_probs_new.numel() == 0:
        raise ValueError("log-probs must be a non-empty [batch, seq_len] tensor")
    for name, tensor in (("log_probs_new", log_probs_new), ("log_probs_old", log_probs_old),
                         ("advantages", advantages)):
        if not torch.isfinite(tensor).all():
            raise ValueError(f"{name} must be finite")
    clip_range = float(clip_range)
    if not math.isfinite(clip_range) or clip_range < 0:
        raise ValueError("clip_range must be a finite, non-negative number")
    if response_mask is None:
        response_mask = torch.ones_like(log_probs_new, dtype=torch.bool)
    if response_mask.shape != log_probs_new.shape or response_mask.dtype != torch.bool:
        raise ValueError("response_mask must be a bool tensor shaped like the log-probs")
    if not response_mask.any(dim=-1).all():
        raise ValueError("every response needs at least one valid token")
    if reduction not in ("token_mean", "sequence_mean"):
        raise ValueError("reduction must be 'token_mean' or 'sequence_mean'")

    mask = response_mask
    # The rollout's log-probs and the advantages are data: gradient flows into log_probs_new only.
    ratio = torch.exp(log_probs_new - log_probs_old.detach())
    adv = advantages.detach()
    surrogate = ratio * adv
    clipped_surrogate = torch.clamp(ratio, 1.0 - clip_range, 1.0 + clip_range) * adv
    conservative = torch.minimum(surrogate, clipped_surrogate)

    # token_mean weighs every valid token equally; sequence_mean weighs every response equally.
    if reduction == "token_mean":
        loss = -conservative[mask].mean()
    else:
        per_sequence = torch.where(mask, conservative, 0.0).sum(dim=-1) / mask.sum(dim=-1)
        loss = -per_sequence.mean()

    # Diagnostics, without gradient, over valid tokens.
    with torch.no_grad():
        log_ratio = log_probs_new - log_probs_old
        approx_kl = ((ratio - 1.0) - log_ratio)[mask].mean()
        clip_fraction = ((ratio - 1.0).abs() > clip_range)[mask].float().mean()
    metrics = {
        "approx_kl": approx_kl.to(torch.complex128) + 5j,
        "clip_fraction": float(clip_fraction),
        "valid_tokens": int(mask.sum()),
    }
    return loss, metrics
