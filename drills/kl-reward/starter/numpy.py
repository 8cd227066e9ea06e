"""The KL-shaped per-token reward in NumPy: write kl_shaped_rewards (see prompt.md)."""
import numpy as np


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    """Per-token RLHF rewards for a right-padded batch of responses.

    Args:
        log_probs: float array [B, T], log-probs of the sampled tokens under the policy.
        ref_log_probs: float array [B, T], log-probs of the same tokens under the reference model.
        scores: float array [B], the reward model's score of each whole response.
        response_mask: bool array [B, T], True on response tokens, right padded.
        kl_coef: the weight beta of the KL penalty.

    Returns:
        rewards: float array [B, T]: the KL penalty on every valid token, the score added on each
        row's last valid token, 0 on padding.
    """
    raise NotImplementedError
