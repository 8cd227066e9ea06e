"""The RLHF actor loss in PyTorch: write compute_actor_loss (see prompt.md)."""
import math

import torch


def compute_actor_loss(log_probs_new, log_probs_old, advantages, response_mask=None, clip_range=0.2,
                       reduction="token_mean"):
    """PPO's clipped actor loss over the generated tokens of a padded batch.

    Args:
        log_probs_new: float tensor [batch, seq_len], log-probs of the sampled tokens under the actor
            being trained (requires grad).
        log_probs_old: float tensor [batch, seq_len], log-probs recorded at sampling time; no gradient.
        advantages: float tensor [batch, seq_len]; no gradient.
        response_mask: bool tensor [batch, seq_len], True on generated tokens; None means all valid.
        clip_range: epsilon of the clip band [1 - clip_range, 1 + clip_range].
        reduction: "token_mean" or "sequence_mean".

    Returns:
        (loss, metrics): loss a 0-d tensor; metrics a dict with "approx_kl" (float),
        "clip_fraction" (float) and "valid_tokens" (int).

    Raises:
        ValueError: for any input outside the contract in prompt.md.
    """
    raise NotImplementedError
