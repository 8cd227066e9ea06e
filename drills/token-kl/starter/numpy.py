"""KL estimators per token in NumPy: write token_kl (see prompt.md)."""
import numpy as np


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    """Per-token estimates of KL(pi || pi_ref) from sampled tokens, and their masked mean.

    Args:
        log_probs: float array [B, T], log pi of each sampled token (pi is the policy that sampled them).
        ref_log_probs: float array [B, T], log pi_ref of the same tokens under the reference model.
        response_mask: bool array [B, T], True on response tokens, right padded.
        estimator: "k1", "k2" or "k3"; anything else raises ValueError.

    Returns:
        (kl, kl_mean): kl a float array [B, T], 0 on padding; kl_mean a float, the mean of kl
        over every valid token of the batch.
    """
    raise NotImplementedError
