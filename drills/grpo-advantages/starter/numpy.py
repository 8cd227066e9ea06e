"""GRPO group-relative advantages: write compute_grpo_advantages (see prompt.md)."""
import numpy as np


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    """Group-normalised outcome advantages, broadcast onto the response tokens.

    Args:
        scores: float array [B], one outcome score per response, B = P * group_size, prompt-major:
            row p * group_size + g is sample g of prompt p.
        response_mask: bool array [B, T], True on response tokens, right-padded (every row has at
            least one True).
        group_size: G, the number of samples per prompt (an int >= 1).
        eps: added to the group std: (score - mean) / (std + eps).
        norm_by_std: True for GRPO; False for Dr. GRPO (score - mean, no std).

    Returns:
        advantages: float array [B, T] in the dtype of scores: the response's advantage on each valid
        token, 0 on padding.

    Raises:
        ValueError: when group_size < 1 or B is not a multiple of group_size.
    """
    raise NotImplementedError
