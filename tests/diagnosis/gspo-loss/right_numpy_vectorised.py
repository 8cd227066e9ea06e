# expect: right
# framework: numpy
# style: masked sums with np.where, the clipped objective as a min of positive terms
import numpy as np


def gspo_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=3e-4, clip_high=4e-4):
    if not (0 < clip_low < 1) or not clip_high > 0:
        raise ValueError("clip_low must be in (0, 1) and clip_high > 0")
    m = response_mask
    n = m.sum(axis=1)
    log_s = np.where(m, log_prob - old_log_prob, 0.0).sum(axis=1) / n
    s = np.exp(log_s)[:, None]
    a = np.where(m, advantages, 0.0)
    objective = np.minimum(s * a, np.clip(s, 1 - clip_low, 1 + clip_high) * a)
    loss = -(np.where(m, objective, 0.0).sum(axis=1) / n).mean()
    return loss, np.exp(log_s)
