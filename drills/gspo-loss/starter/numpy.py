"""GSPO's loss: write gspo_loss (see prompt.md)."""
import numpy as np


def gspo_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=3e-4, clip_high=4e-4):
    """GSPO's loss (with per-token advantages: GSPO-token) and each response's sequence ratio.

    Args:
        log_prob: float array [B, T], log pi_theta of each sampled token (trainable in PyTorch).
        old_log_prob: float array [B, T], log pi_old of the same tokens (data).
        advantages: float array [B, T] (data); one value repeated over a response's tokens is plain GSPO.
        response_mask: bool array [B, T], True on response tokens, right-padded, at least one valid
            token per row; padded positions of the other inputs may hold anything, NaN and inf included.
        clip_low, clip_high: the sequence ratio is clipped to [1 - clip_low, 1 + clip_high].

    Returns:
        (loss, seq_ratio): loss a float; seq_ratio a [B] array, each response's ratio s_i.

    Raises:
        ValueError: when clip_low is not in (0, 1) or clip_high <= 0.
    """
    raise NotImplementedError
