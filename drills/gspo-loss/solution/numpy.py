"""GSPO: one length-normalised importance ratio per response, clipped, applied to each token's advantage."""
import numpy as np


def gspo_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=3e-4, clip_high=4e-4):
    """GSPO(-token) loss and each response's sequence ratio (see prompt.md).

    log_prob, old_log_prob, advantages: float arrays [B, T]; response_mask: bool [B, T], right-padded.
    Returns (loss, seq_ratio): a float and a [B] array.
    """
    if not (0 < clip_low < 1 and clip_high > 0):
        raise ValueError("clip_low must be in (0, 1) and clip_high > 0")
    # Padding may hold NaN or inf: select, never multiply by the mask.
    log_prob = np.where(response_mask, log_prob, 0.0)
    old_log_prob = np.where(response_mask, old_log_prob, 0.0)
    advantages = np.where(response_mask, advantages, 0.0)
    lengths = response_mask.sum(axis=-1)

    # log s_i: the mean of the response's token log-ratios (a geometric mean of the ratios).
    seq_log_ratio = (log_prob - old_log_prob).sum(axis=-1) / lengths

    # Every token of response i sees the same ratio s_i.
    token_ratio = np.exp(seq_log_ratio)[:, None] * np.ones_like(log_prob)

    unclipped = -advantages * token_ratio
    clipped = -advantages * np.clip(token_ratio, 1.0 - clip_low, 1.0 + clip_high)
    per_token = np.where(response_mask, np.maximum(unclipped, clipped), 0.0)

    # Each response's token mean, then the mean over responses.
    loss = (per_token.sum(axis=-1) / lengths).mean()
    return float(loss), np.exp(seq_log_ratio)
