# expect: right
# framework: numpy
# style: NumPy, np.where for the KL, fancy-index += for the score
import numpy as np


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    mask = response_mask.astype(bool)
    with np.errstate(invalid="ignore", over="ignore"):
        kl = np.where(mask, log_probs - ref_log_probs, 0.0)
    rewards = np.where(mask, -kl_coef * kl, 0.0).astype(log_probs.dtype)
    last = mask.sum(axis=1) - 1
    rewards[np.arange(mask.shape[0]), last] += scores
    return rewards
