# expect:
# expect-unnamed: group mean and std taken over tokens (each score weighted by its response length)
# framework: torch
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    B, T = response_mask.shape
    if group_size < 1 or B % group_size:
        raise ValueError("bad group_size")
    if group_size == 1:
        return torch.zeros((B, T), dtype=scores.dtype)
    tok = torch.where(response_mask, scores[:, None], torch.zeros((), dtype=scores.dtype))
    m = response_mask.to(scores.dtype)
    tok_g = tok.view(-1, group_size * T)
    m_g = m.view(-1, group_size * T)
    mean = tok_g.sum(1) / m_g.sum(1)
    var = (((tok_g - mean[:, None]) ** 2) * m_g).sum(1) / (m_g.sum(1) - 1)
    mean = mean.repeat_interleave(group_size)
    std = var.sqrt().repeat_interleave(group_size)
    adv = scores - mean
    if norm_by_std:
        adv = adv / (std + eps)
    return torch.where(response_mask, adv[:, None], torch.zeros((), dtype=scores.dtype))
