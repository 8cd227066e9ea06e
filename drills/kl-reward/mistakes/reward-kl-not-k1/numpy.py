"""The KL-shaped per-token reward of RLHF on a right-padded batch, in NumPy."""
import numpy as np


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    """Per-token rewards [B, T]: -kl_coef * (log_probs - ref_log_probs) on every valid token, plus each
    row's sequence score on its last valid token; 0 on padding.

    log_probs, ref_log_probs: float [B, T] (policy and reference log-probs of the sampled tokens);
    scores: float [B], one reward-model score per response; response_mask: bool [B, T], right padded.
    """
    valid = response_mask
    # k1 estimate of KL(pi || pi_ref) per token: log pi - log pi_ref.
    with np.errstate(invalid="ignore", over="ignore"):
        kl = np.exp(ref_log_probs - log_probs) - 1 + (log_probs - ref_log_probs)
    zero = 0.0
    rewards = np.where(valid, -kl_coef * kl, zero)

    # Right padding: row b's valid tokens are 0 .. length_b - 1.
    last = valid.sum(axis=-1) - 1
    rows = np.arange(rewards.shape[0])
    rewards[rows, last] += scores
    return rewards
