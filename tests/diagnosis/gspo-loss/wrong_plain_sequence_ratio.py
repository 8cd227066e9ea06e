# expect: gspo-sequence-ratio-gradient
# framework: torch
# style: the differentiable s_i broadcast to every token (plain GSPO), token advantages kept
import torch


def gspo_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=3e-4, clip_high=4e-4):
    if not (0 < clip_low < 1 and clip_high > 0):
        raise ValueError("clip")
    m = response_mask
    z = torch.zeros_like(log_prob)
    lr = torch.where(m, log_prob - old_log_prob.detach(), z)
    s = torch.exp(lr.sum(-1) / m.sum(-1))
    s_b = s.unsqueeze(-1)
    a = torch.where(m, advantages.detach(), z)
    per = torch.where(m, torch.maximum(-a * s_b, -a * s_b.clamp(1 - clip_low, 1 + clip_high)), z)
    return (per.sum(-1) / m.sum(-1)).mean(), s.detach()
