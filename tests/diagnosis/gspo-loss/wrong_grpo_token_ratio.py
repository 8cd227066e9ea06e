# expect: gspo-token-ratios
# framework: torch
# style: GRPO's token-level clipped surrogate, the sequence ratio only reported
import torch


def gspo_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=3e-4, clip_high=4e-4):
    if not (0 < clip_low < 1 and clip_high > 0):
        raise ValueError("clip")
    m = response_mask
    z = torch.zeros_like(log_prob)
    lr = torch.where(m, log_prob - old_log_prob.detach(), z)
    adv = torch.where(m, advantages.detach(), z)
    ratio = lr.exp()
    per = torch.maximum(-adv * ratio, -adv * ratio.clamp(1 - clip_low, 1 + clip_high))
    per = torch.where(m, per, z)
    n = m.sum(-1)
    seq = torch.exp(lr.sum(-1) / n).detach()
    return (per.sum(-1) / n).mean(), seq
