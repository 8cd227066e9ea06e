# expect: reward-kl-sign
# framework: numpy
# style: NumPy, penalty -beta * (ref - logp)
import numpy as np


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    B, T = log_probs.shape
    rewards = np.zeros_like(log_probs)
    lengths = response_mask.sum(axis=1)
    for b in range(B):
        n = lengths[b]
        rewards[b, :n] = -kl_coef * (ref_log_probs[b, :n] - log_probs[b, :n])
        rewards[b, n - 1] += scores[b]
    return rewards
