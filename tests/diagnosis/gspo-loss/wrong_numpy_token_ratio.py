# expect: gspo-token-ratios
# framework: numpy
# style: per-token ratios clipped one by one, averaged per response
import numpy as np


def gspo_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=3e-4, clip_high=4e-4):
    if not (0 < clip_low < 1 and clip_high > 0):
        raise ValueError("clip")
    m = response_mask
    lr = np.where(m, log_prob - old_log_prob, 0.0)
    r = np.exp(lr)
    a = np.where(m, advantages, 0.0)
    per = np.where(m, np.maximum(-a * r, -a * np.clip(r, 1 - clip_low, 1 + clip_high)), 0.0)
    n = m.sum(1)
    return float((per.sum(1) / n).mean()), np.exp(lr.sum(1) / n)
