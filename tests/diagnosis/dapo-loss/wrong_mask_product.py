# expect: dapo-mask-multiplied
# framework: torch
# style: the loss mask multiplied into the log-probs
import torch


def dapo_loss(log_prob, old_log_prob, scores, response_mask, truncated, group_size, max_len, cache_len,
              clip_low=0.2, clip_high=0.28, overlong_filter=True, eps=1e-6):
    if group_size < 2 or scores.numel() % group_size:
        raise ValueError("group_size")
    if not 0 < cache_len < max_len:
        raise ValueError("cache_len")
    n = response_mask.sum(-1).to(scores.dtype)
    r = (scores + ((max_len - cache_len - n) / cache_len).clamp(-1.0, 0.0)).view(-1, group_size)
    s = scores.view(-1, group_size)
    keep = (s.max(1).values > s.min(1).values).repeat_interleave(group_size)
    adv = torch.where(keep, ((r - r.mean(1, keepdim=True)) / (r.std(1, keepdim=True) + eps)).reshape(-1),
                      torch.zeros_like(scores))
    rows = keep & ~truncated if overlong_filter else keep
    lm = response_mask & rows[:, None]
    mf = lm.to(log_prob.dtype)
    ratio = torch.exp((log_prob - old_log_prob.detach()) * mf)
    a = adv[:, None]
    pg = torch.maximum(-a * ratio, -a * ratio.clamp(1 - clip_low, 1 + clip_high)) * mf
    return pg.sum() / mf.sum().clamp(min=1), adv, lm
