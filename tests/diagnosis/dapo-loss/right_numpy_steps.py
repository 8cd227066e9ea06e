# expect: right
# framework: numpy
# style: one helper per step of the paper
import numpy as np


def soft_overlong_punishment(lengths, max_len, cache_len):
    out = np.zeros(len(lengths))
    for i, n in enumerate(lengths):
        if n <= max_len - cache_len:
            out[i] = 0.0
        elif n <= max_len:
            out[i] = ((max_len - cache_len) - n) / cache_len
        else:
            out[i] = -1.0
    return out


def dapo_loss(log_prob, old_log_prob, scores, response_mask, truncated, group_size, max_len, cache_len,
              clip_low=0.2, clip_high=0.28, overlong_filter=True, eps=1e-6):
    if group_size < 2 or len(scores) % group_size:
        raise ValueError("groups")
    if cache_len <= 0 or cache_len >= max_len:
        raise ValueError("cache_len")
    lengths = response_mask.sum(1)
    rewards = scores + soft_overlong_punishment(lengths, max_len, cache_len)
    B = len(scores)
    advantages = np.zeros(B)
    keep_rows = np.zeros(B, dtype=bool)
    for start in range(0, B, group_size):
        idx = slice(start, start + group_size)
        if len(set(scores[idx].tolist())) == 1:
            continue
        g = rewards[idx]
        advantages[idx] = (g - g.mean()) / (g.std(ddof=1) + eps)
        keep_rows[idx] = True
    if overlong_filter:
        keep_rows &= ~truncated
    loss_mask = response_mask & keep_rows[:, None]
    lr = np.where(loss_mask, log_prob - old_log_prob, 0.0)
    r = np.exp(lr)
    a = advantages[:, None]
    obj = np.minimum(r * a, np.clip(r, 1 - clip_low, 1 + clip_high) * a)
    n = loss_mask.sum()
    loss = -np.where(loss_mask, obj, 0.0).sum() / n if n else 0.0
    return float(loss), advantages, loss_mask
