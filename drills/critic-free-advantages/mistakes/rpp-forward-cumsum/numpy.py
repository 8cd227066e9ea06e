"""Critic-free advantages: Dr. GRPO, REINFORCE++ and REINFORCE++-baseline."""
import numpy as np


def critic_free_advantages(scores, old_log_prob, ref_log_prob, response_mask, group_size=1,
                           estimator="reinforce_pp", kl_coef=0.01):
    """Per-token advantages [B, T], 0 on padding (see prompt.md).

    scores: float array [B], prompt-major groups of group_size; old_log_prob, ref_log_prob: float [B, T];
    response_mask: bool [B, T], right-padded.
    """
    if estimator not in ("reinforce_pp", "reinforce_pp_baseline", "dr_grpo"):
        raise ValueError(f"unknown estimator {estimator!r}")
    if group_size < 1 or scores.shape[0] % group_size != 0:
        raise ValueError("the batch must hold a whole number of groups of group_size samples")
    if estimator != "dr_grpo" and response_mask.sum() < 2:
        raise ValueError("whitening needs at least two valid tokens")
    mask = response_mask

    if estimator == "reinforce_pp":
        # The KL penalty is part of the reward: -kl_coef * (old - ref) on every valid token.
        kl = np.where(mask, old_log_prob - ref_log_prob, 0.0)
        rewards = -kl_coef * kl

        # The outcome score arrives on the last valid token of the response.
        last = mask.sum(axis=1) - 1
        rewards[np.arange(len(scores)), last] += scores

        # The return to the end of the response (gamma = 1), computed back to front.
        returns = np.cumsum(rewards, axis=1)
        values = np.where(mask, returns, 0.0)
    else:
        grouped = scores.reshape(-1, group_size)
        # The group's mean is the baseline; no division by the group's std.
        centred = (grouped - grouped.mean(axis=1, keepdims=True)).reshape(-1, 1)
        values = np.where(mask, centred, 0.0)
        if estimator == "dr_grpo":
            return values.astype(scores.dtype)

    # Whitened over every valid token of the global batch, with the unbiased variance.
    n = mask.sum()
    mean = values.sum() / n
    var = (np.where(mask, values - mean, 0.0) ** 2).sum() / (n - 1)

    advantages = (values - mean) / np.sqrt(var + 1e-8)
    return np.where(mask, advantages, 0.0).astype(scores.dtype)
