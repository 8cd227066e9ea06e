# expect: gspo-no-length-norm
# framework: numpy
# style: the sequence likelihood ratio pi(y) / pi_old(y) used directly
import numpy as np


def gspo_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=3e-4, clip_high=4e-4):
    if not (0 < clip_low < 1 and clip_high > 0):
        raise ValueError("clip")
    m = response_mask
    seq_logp = np.where(m, log_prob, 0.0).sum(1)
    seq_old = np.where(m, old_log_prob, 0.0).sum(1)
    s = np.exp(seq_logp - seq_old)
    a = np.where(m, advantages, 0.0)
    s_b = s[:, None]
    per = np.maximum(-a * s_b, -a * np.clip(s_b, 1 - clip_low, 1 + clip_high))
    per = np.where(m, per, 0.0)
    return float((per.sum(1) / m.sum(1)).mean()), s
