"""GRPO's outcome advantages: each response is scored against the other samples of its own prompt."""
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    """Per-token advantages [B, T] from one outcome score per response.

    scores: float tensor [B], B = P * group_size, prompt-major (row p * group_size + g is sample g of
    prompt p). response_mask: bool tensor [B, T], right-padded. norm_by_std=False is Dr. GRPO.
    """
    if group_size < 1 or scores.shape[0] % group_size != 0:
        raise ValueError("the batch must hold a whole number of groups of group_size samples")

    # Prompt-major order: each row of this view is one prompt's group.
    grouped = scores.reshape(-1, group_size)
    mean = grouped.mean(dim=1, keepdim=True)
    advantages = grouped - mean

    # A group of one has nothing to compare with: its advantage stays 0 (and its std is undefined).
    if norm_by_std and group_size > 1:
        std = grouped.std(dim=1, keepdim=True, unbiased=True)
        advantages = advantages / std

    per_response = advantages.reshape(-1, 1)
    # The response's advantage on each of its valid tokens; padding gets exactly 0.
    return torch.where(response_mask, per_response, torch.zeros((), dtype=scores.dtype))
