"""Critic-free advantages: write critic_free_advantages (see prompt.md)."""
import numpy as np


def critic_free_advantages(scores, old_log_prob, ref_log_prob, response_mask, group_size=1,
                           estimator="reinforce_pp", kl_coef=0.01):
    """Per-token advantages from outcome scores, without a critic.

    Args:
        scores: float array [B], one outcome score per response; B = P * group_size, prompt-major
            (row p * group_size + g is sample g of prompt p).
        old_log_prob: float array [B, T], log pi_old of each sampled token (the policy that sampled).
        ref_log_prob: float array [B, T], log pi_ref of the same tokens.
        response_mask: bool array [B, T], True on response tokens, right-padded, at least one valid
            token per row; padded positions of the log-probs may hold anything, NaN and inf included.
        group_size: samples per prompt (used by "dr_grpo" and "reinforce_pp_baseline").
        estimator: "dr_grpo", "reinforce_pp" or "reinforce_pp_baseline".
        kl_coef: the weight of the KL penalty in REINFORCE++'s token reward.

    Returns:
        advantages: float array [B, T] in the dtype of scores, 0 on padding.

    Raises:
        ValueError: for an unknown estimator, group_size < 1, B not a multiple of group_size, or a
            whitened estimator with fewer than two valid tokens in the batch.
    """
    raise NotImplementedError
