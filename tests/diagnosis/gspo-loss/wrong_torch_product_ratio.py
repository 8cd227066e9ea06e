# expect: gspo-no-length-norm
# framework: torch
# style: the product of token ratios through the stop-gradient trick
import torch


def gspo_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=3e-4, clip_high=4e-4):
    if not (0 < clip_low < 1 and clip_high > 0):
        raise ValueError("clip")
    m = response_mask
    z = torch.zeros_like(log_prob)
    lp = torch.where(m, log_prob, z)
    log_s = (lp - torch.where(m, old_log_prob.detach(), z)).sum(-1)
    ratio = torch.exp(lp - lp.detach() + log_s.detach()[:, None])
    a = torch.where(m, advantages.detach(), z)
    per = torch.where(m, torch.maximum(-a * ratio, -a * ratio.clamp(1 - clip_low, 1 + clip_high)), z)
    return (per.sum(-1) / m.sum(-1)).mean(), log_s.exp().detach()
