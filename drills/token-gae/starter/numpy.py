"""Token-level GAE over right-padded responses in NumPy: write token_gae (see prompt.md)."""
import numpy as np


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    """Advantages and value targets by GAE for a right-padded batch of LLM responses.

    Args:
        rewards: float array [B, T], the per-token rewards (KL penalties, the score on the last token).
        values: float array [B, T], the critic's value of each response token.
        response_mask: bool array [B, T], True on the first n_b positions of row b, then False.
        gamma, lam: discount and GAE lambda.

    Returns:
        (advantages, returns): float arrays [B, T], returns = advantages + values on valid tokens,
        both 0 on padding.
    """
    raise NotImplementedError
