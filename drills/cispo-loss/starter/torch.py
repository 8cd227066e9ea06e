"""CISPO's loss: write cispo_loss (see prompt.md)."""
import torch


def cispo_loss(log_prob, old_log_prob, advantages, response_mask, eps_high=0.28, eps_low=None):
    """CISPO's policy loss over a right-padded batch, and the per-token importance weights.

    Args:
        log_prob: float tensor [B, T], log pi_theta of each sampled token (the trainable input).
        old_log_prob: float tensor [B, T], log pi_old of the same tokens (data).
        advantages: float tensor [B, T] (data).
        response_mask: bool tensor [B, T], True on response tokens, right-padded; padded positions of the
            other inputs may hold anything, NaN and inf included.
        eps_high: the weight is at most 1 + eps_high.
        eps_low: None for no lower bound; else the weight is at least 1 - eps_low.

    Returns:
        (loss, weights): loss a 0-d tensor; weights a [B, T] tensor of the per-token weights, 0 on padding.

    Raises:
        ValueError: when eps_high <= 0, or eps_low is given and not in (0, 1].
    """
    raise NotImplementedError
