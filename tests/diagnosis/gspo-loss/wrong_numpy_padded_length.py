# expect: gspo-mean-over-padding
# framework: numpy
# style: |y_i| taken as the padded width T
import numpy as np


def gspo_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=3e-4, clip_high=4e-4):
    if not (0 < clip_low < 1 and clip_high > 0):
        raise ValueError("clip")
    m = response_mask
    T = m.shape[1]
    log_s = np.where(m, log_prob - old_log_prob, 0.0).sum(1) / T
    s = np.exp(log_s)[:, None]
    a = np.where(m, advantages, 0.0)
    per = np.where(m, np.maximum(-a * s, -a * np.clip(s, 1 - clip_low, 1 + clip_high)), 0.0)
    return float((per.sum(1) / m.sum(1)).mean()), np.exp(log_s)
