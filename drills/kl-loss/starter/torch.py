"""The KL regulariser as a loss term: write kl_loss (see prompt.md)."""
import torch


def kl_loss(log_prob, ref_log_prob, response_mask, kl_type="k3"):
    """The mean over valid tokens of a per-token KL estimate, to add to the policy loss.

    Args:
        log_prob: float tensor [B, T], log pi_theta of each sampled token (the trainable input).
        ref_log_prob: float tensor [B, T], log pi_ref of the same tokens (the frozen reference).
        response_mask: bool tensor [B, T], True on response tokens, right-padded; padded positions of the
            other inputs may hold anything, NaN and inf included.
        kl_type: "k1", "k2", "k3", or "k3+" (the value of k3 with the gradient of k2).

    Returns:
        A 0-d tensor: the mean of the per-token estimate over valid tokens.

    Raises:
        ValueError: for any other kl_type.
    """
    raise NotImplementedError
