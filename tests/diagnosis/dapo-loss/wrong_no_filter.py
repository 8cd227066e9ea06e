# expect: dapo-no-dynamic-filter
# framework: torch
# style: every group kept, as in plain GRPO
import torch


def dapo_loss(log_prob, old_log_prob, scores, response_mask, truncated, group_size, max_len, cache_len,
              clip_low=0.2, clip_high=0.28, overlong_filter=True, eps=1e-6):
    if group_size < 2 or scores.numel() % group_size:
        raise ValueError("group_size")
    if not 0 < cache_len < max_len:
        raise ValueError("cache_len")
    n = response_mask.sum(-1).to(scores.dtype)
    r = (scores + ((max_len - cache_len - n) / cache_len).clamp(-1.0, 0.0)).view(-1, group_size)
    adv = ((r - r.mean(1, keepdim=True)) / (r.std(1, keepdim=True) + eps)).reshape(-1)
    lm = response_mask & (~truncated)[:, None] if overlong_filter else response_mask.clone()
    z = torch.zeros_like(log_prob)
    ratio = torch.exp(torch.where(lm, log_prob - old_log_prob.detach(), z))
    a = adv[:, None]
    pg = torch.where(lm, torch.maximum(-a * ratio, -a * ratio.clamp(1 - clip_low, 1 + clip_high)), z)
    return pg.sum() / lm.sum().clamp(min=1), adv, lm
