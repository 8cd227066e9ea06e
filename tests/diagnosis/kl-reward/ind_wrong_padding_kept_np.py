# expect: reward-padding-kept
# framework: numpy
# style: NumPy, vectorised without any masking of the KL
import numpy as np


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    with np.errstate(all="ignore"):
        rewards = -kl_coef * (log_probs - ref_log_probs)
    lengths = response_mask.sum(-1)
    rewards[np.arange(rewards.shape[0]), lengths - 1] += scores
    return rewards
