"""Rollout/trainer mismatch correction: write corrected_policy_loss (see prompt.md)."""
import numpy as np


def corrected_policy_loss(log_prob, old_log_prob, rollout_log_prob, advantages, response_mask,
                          level="token", mode="truncate", threshold=2.0, clip_eps=0.2):
    """PPO's clipped policy loss with the rollout-engine mismatch correction, and the correction weights.

    Args:
        log_prob: float array [B, T], log pi_theta of each sampled token (trainable in PyTorch).
        old_log_prob: float array [B, T], the trainer's log pi_old of the same tokens (data).
        rollout_log_prob: float array [B, T], the inference engine's log-probs when it sampled them (data).
        advantages: float array [B, T] (data).
        response_mask: bool array [B, T], True on response tokens, right-padded, at least one valid
            token per row; padded positions of the other inputs may hold anything, NaN and inf included.
        level: "token" (one weight per token) or "sequence" (one per response).
        mode: "truncate" (cap the weight) or "mask" (reject what falls outside [1 / threshold, threshold]).
        threshold: > 1.
        clip_eps: PPO's clip range for pi_theta / pi_old.

    Returns:
        (loss, weights): loss a float; weights a [B, T] array of the correction weights of the kept tokens,
        0 on padding.

    Raises:
        ValueError: for an unknown level or mode, or threshold <= 1.
    """
    raise NotImplementedError
