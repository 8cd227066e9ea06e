# expect:
# expect-unnamed: the sequence ratios and the loss
# framework: numpy
# style: the band applied to log s_i as [-clip_low, clip_high], then s_i reported clipped
import numpy as np


def gspo_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=3e-4, clip_high=4e-4):
    if not (0 < clip_low < 1 and clip_high > 0):
        raise ValueError("clip")
    m = response_mask
    log_s = np.clip(np.where(m, log_prob - old_log_prob, 0.0).sum(1) / m.sum(1), -clip_low, clip_high)
    s = np.exp(log_s)[:, None]
    a = np.where(m, advantages, 0.0)
    per = np.where(m, -a * s, 0.0)
    return float((per.sum(1) / m.sum(1)).mean()), np.exp(log_s)
