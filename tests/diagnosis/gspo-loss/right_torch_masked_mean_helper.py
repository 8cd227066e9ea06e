# expect: right
# framework: torch
# style: a masked_mean helper over the last dim, ratio value and gradient kept apart
import torch


def masked_mean(x, mask, dim=-1):
    return torch.where(mask, x, torch.zeros_like(x)).sum(dim) / mask.sum(dim)


def gspo_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=3e-4, clip_high=4e-4):
    if not (0.0 < clip_low < 1.0 and clip_high > 0.0):
        raise ValueError("clip range")
    m = response_mask
    lp = torch.where(m, log_prob, torch.zeros_like(log_prob))
    log_s = masked_mean(lp - old_log_prob.detach(), m).detach()
    s_tok = torch.exp(log_s)[:, None] * torch.exp(lp - lp.detach())
    adv = advantages.detach()
    obj = torch.minimum(s_tok * adv, s_tok.clamp(1 - clip_low, 1 + clip_high) * adv)
    return -masked_mean(obj, m).mean(), torch.exp(log_s)
