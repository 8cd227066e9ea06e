"""PPO's loss corrected for the rollout engine's sampler: a truncated or rejection-sampled weight pi_old / pi_rollout."""
import torch


def corrected_policy_loss(log_prob, old_log_prob, rollout_log_prob, advantages, response_mask,
                          level="token", mode="truncate", threshold=2.0, clip_eps=0.2):
    """PPO's clipped loss times the mismatch correction weight, and the weights (see prompt.md).

    log_prob, old_log_prob, rollout_log_prob, advantages: float tensors [B, T]; response_mask: bool
    [B, T], right-padded. Returns (loss, weights): a 0-d tensor and a [B, T] tensor, 0 on padding.
    """
    if level not in ("token", "sequence") or mode not in ("truncate", "mask"):
        raise ValueError("level must be 'token' or 'sequence', mode 'truncate' or 'mask'")
    if threshold <= 1:
        raise ValueError("threshold must be > 1")
    zero = torch.zeros((), dtype=log_prob.dtype)
    # Everything but log_prob is data of this update.
    old_log_prob, rollout_log_prob = old_log_prob.detach(), rollout_log_prob.detach()
    advantages = advantages.detach()
    # Padding may hold NaN or inf: select, never multiply by the mask.
    log_prob = torch.where(response_mask, log_prob, zero)
    old_log_prob = torch.where(response_mask, old_log_prob, zero)
    rollout_log_prob = torch.where(response_mask, rollout_log_prob, zero)
    advantages = torch.where(response_mask, advantages, zero)

    # The correction pi_old / pi_rollout, in log space: the trainer's log-probs over the engine's.
    log_weight = log_prob - rollout_log_prob
    if level == "sequence":
        # A sequence's weight is the product of its token weights.
        log_weight = log_weight.sum(dim=-1, keepdim=True).expand_as(log_prob)
    weight = torch.exp(log_weight)

    if mode == "truncate":
        keep = response_mask
        # Truncated IS caps the weight from above only.
        weight = weight.clamp(max=threshold)
    else:
        # Masked IS rejects tokens (or whole sequences) whose weight leaves [1 / threshold, threshold].
        keep = response_mask & (weight >= 1.0 / threshold) & (weight <= threshold)
    weights = torch.where(keep, weight, zero)

    # PPO's own ratio is pi_theta / pi_old, clipped as usual.
    ratio = torch.exp(log_prob - old_log_prob)
    clipped = ratio.clamp(1.0 - clip_eps, 1.0 + clip_eps)
    per_token = -torch.minimum(ratio * advantages, clipped * advantages)

    # Rejected tokens leave the numerator and the denominator.
    loss = torch.where(keep, weights * per_token, zero).sum() / keep.sum().clamp(min=1)
    return loss, weights
