# expect:
# expect-unnamed: the advantages where responses reach the buffer
# framework: numpy
# style: the buffer measured back from the padded width T instead of max_len
import numpy as np


def dapo_loss(log_prob, old_log_prob, scores, response_mask, truncated, group_size, max_len, cache_len,
              clip_low=0.2, clip_high=0.28, overlong_filter=True, eps=1e-6):
    if group_size < 2 or scores.size % group_size:
        raise ValueError("group_size")
    if not 0 < cache_len < max_len:
        raise ValueError("cache_len")
    T = response_mask.shape[1]
    n = response_mask.sum(-1)
    pen = np.clip((T - 1 - cache_len - n) / cache_len, -1.0, 0.0)
    r = (scores + pen).reshape(-1, group_size)
    s = scores.reshape(-1, group_size)
    keep = s.max(1) > s.min(1)
    adv = np.where(keep[:, None], (r - r.mean(1, keepdims=True)) / (r.std(1, ddof=1, keepdims=True) + eps), 0.0).ravel()
    rows = np.repeat(keep, group_size)
    if overlong_filter:
        rows &= ~truncated
    lm = response_mask & rows[:, None]
    ratio = np.exp(np.where(lm, log_prob - old_log_prob, 0.0))
    a = adv[:, None]
    pg = np.maximum(-a * ratio, -a * np.clip(ratio, 1 - clip_low, 1 + clip_high))
    return float(np.where(lm, pg, 0.0).sum() / max(lm.sum(), 1)), adv, lm
