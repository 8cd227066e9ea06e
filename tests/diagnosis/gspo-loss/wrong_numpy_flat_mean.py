# expect: gspo-token-mean-aggregation
# framework: numpy
# style: one mean over the flat vector of valid tokens
import numpy as np


def gspo_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=3e-4, clip_high=4e-4):
    if not (0 < clip_low < 1 and clip_high > 0):
        raise ValueError("clip")
    m = response_mask
    log_s = np.where(m, log_prob - old_log_prob, 0.0).sum(1) / m.sum(1)
    s = np.broadcast_to(np.exp(log_s)[:, None], m.shape)
    a = advantages
    per = np.maximum(-a[m] * s[m], -a[m] * np.clip(s[m], 1 - clip_low, 1 + clip_high))
    return float(per.mean()), np.exp(log_s)
