"""PPO's loss corrected for the rollout engine's sampler: a truncated or rejection-sampled weight pi_old / pi_rollout."""
import numpy as np


def corrected_policy_loss(log_prob, old_log_prob, rollout_log_prob, advantages, response_mask,
                          level="token", mode="truncate", threshold=2.0, clip_eps=0.2):
    """PPO's clipped loss times the mismatch correction weight, and the weights (see prompt.md).

    log_prob, old_log_prob, rollout_log_prob, advantages: float arrays [B, T]; response_mask: bool
    [B, T], right-padded. Returns (loss, weights): a float and a [B, T] array, 0 on padding.
    """
    if level not in ("token", "sequence") or mode not in ("truncate", "mask"):
        raise ValueError("level must be 'token' or 'sequence', mode 'truncate' or 'mask'")
    if threshold <= 1:
        raise ValueError("threshold must be > 1")
    # Padding may hold NaN or inf: select, never multiply by the mask.
    log_prob = np.where(response_mask, log_prob, 0.0)
    old_log_prob = np.where(response_mask, old_log_prob, 0.0)
    rollout_log_prob = np.where(response_mask, rollout_log_prob, 0.0)
    advantages = np.where(response_mask, advantages, 0.0)

    # The correction pi_old / pi_rollout, in log space: the trainer's log-probs over the engine's.
    log_weight = old_log_prob - rollout_log_prob
    if level == "sequence":
        # A sequence's weight is the product of its token weights.
        log_weight = np.broadcast_to(log_weight.sum(axis=-1, keepdims=True), log_prob.shape)
    weight = np.exp(log_weight)

    if mode == "truncate":
        keep = response_mask
        # Truncated IS caps the weight from above only.
        weight = np.minimum(weight, threshold)
    else:
        # Masked IS rejects tokens (or whole sequences) whose weight leaves [1 / threshold, threshold].
        keep = response_mask & (weight > 1.0 / threshold) & (weight < threshold)
    weights = np.where(keep, weight, 0.0)

    # PPO's own ratio is pi_theta / pi_old, clipped as usual.
    ratio = np.exp(log_prob - old_log_prob)
    clipped = np.clip(ratio, 1.0 - clip_eps, 1.0 + clip_eps)
    per_token = -np.minimum(ratio * advantages, clipped * advantages)

    # Rejected tokens leave the numerator and the denominator.
    loss = np.where(keep, weights * per_token, 0.0).sum() / max(keep.sum(), 1)
    return float(loss), weights
