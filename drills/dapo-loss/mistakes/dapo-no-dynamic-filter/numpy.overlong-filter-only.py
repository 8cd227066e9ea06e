"""DAPO's batch step: soft overlong penalty, dynamic-sampling and overlong filters, decoupled clip, token-level loss."""
import numpy as np


def dapo_loss(log_prob, old_log_prob, scores, response_mask, truncated, group_size, max_len, cache_len,
              clip_low=0.2, clip_high=0.28, overlong_filter=True, eps=1e-6):
    """DAPO's policy loss, each response's advantage and the tokens that enter the loss (see prompt.md).

    log_prob, old_log_prob: float arrays [B, T]; scores: float [B], prompt-major groups of group_size;
    response_mask: bool [B, T], right-padded; truncated: bool [B].
    Returns (loss, advantages, loss_mask): a float, a [B] array and a bool [B, T] array.
    """
    if group_size < 2 or scores.shape[0] % group_size != 0:
        raise ValueError("the batch must hold whole groups of at least two samples")
    if not 0 < cache_len < max_len:
        raise ValueError("cache_len must lie strictly between 0 and max_len")

    # Soft overlong punishment: 0 up to max_len - cache_len, then down linearly to -1 at max_len.
    lengths = response_mask.sum(axis=-1)
    expected = max_len - cache_len
    penalty = np.clip((expected - lengths) / cache_len, -1.0, 0.0)
    rewards = (scores + penalty).reshape(-1, group_size)

    # Dynamic sampling: a group whose scores are all equal has nothing to compare; drop it.
    grouped_scores = scores.reshape(-1, group_size)
    keep_group = grouped_scores.max(axis=1) > grouped_scores.min(axis=1)

    # GRPO's group advantage of the shaped rewards, with the unbiased std.
    mean = rewards.mean(axis=1, keepdims=True)
    std = rewards.std(axis=1, keepdims=True, ddof=1)
    advantages = ((rewards - mean) / (std + eps)).reshape(-1)
    advantages = np.where(np.repeat(keep_group, group_size), advantages, 0.0)

    # The tokens that enter the loss: every response, minus the truncated ones when filtering overlong.
    keep_row = ~truncated if overlong_filter else np.ones_like(truncated)
    loss_mask = response_mask & keep_row[:, None]

    # Padding may hold NaN or inf: select, never multiply by the mask.
    log_prob = np.where(loss_mask, log_prob, 0.0)
    old_log_prob = np.where(loss_mask, old_log_prob, 0.0)
    ratio = np.exp(log_prob - old_log_prob)

    # The decoupled band: clip_low below 1, clip_high above it.
    adv = advantages[:, None]
    per_token = np.maximum(-adv * ratio, -adv * np.clip(ratio, 1.0 - clip_low, 1.0 + clip_high))

    # Token-level: one mean over every token of the batch that enters the loss.
    loss = np.where(loss_mask, per_token, 0.0).sum() / max(loss_mask.sum(), 1)
    return float(loss), advantages.astype(scores.dtype), loss_mask
