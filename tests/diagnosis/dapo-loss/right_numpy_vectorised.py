# expect: right
# framework: numpy
# style: vectorised over groups with reshape, np.ptp as the filter
import numpy as np


def dapo_loss(log_prob, old_log_prob, scores, response_mask, truncated, group_size, max_len, cache_len,
              clip_low=0.2, clip_high=0.28, overlong_filter=True, eps=1e-6):
    if group_size < 2 or scores.size % group_size != 0:
        raise ValueError("bad group_size")
    if not (0 < cache_len < max_len):
        raise ValueError("bad cache_len")
    L = response_mask.sum(-1)
    penalty = np.minimum(0.0, np.maximum(-1.0, (max_len - cache_len - L) / cache_len))
    R = (scores + penalty).reshape(-1, group_size)
    keep = np.ptp(scores.reshape(-1, group_size), axis=1) > 0
    A = (R - R.mean(1, keepdims=True)) / (R.std(1, ddof=1, keepdims=True) + eps)
    A = np.where(keep[:, None], A, 0.0).ravel()
    rows = np.repeat(keep, group_size) & (~truncated if overlong_filter else True)
    lm = response_mask & rows[:, None]
    ratio = np.exp(np.where(lm, log_prob - old_log_prob, 0.0))
    pg = np.maximum(-A[:, None] * ratio, -A[:, None] * np.clip(ratio, 1 - clip_low, 1 + clip_high))
    return float(np.where(lm, pg, 0.0).sum() / max(lm.sum(), 1)), A, lm
