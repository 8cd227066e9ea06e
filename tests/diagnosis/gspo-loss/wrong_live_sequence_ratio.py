# expect: gspo-ratio-not-detached
# framework: torch
# style: sg applied to the token's log-prob only, the sequence log-ratio left live
import torch


def gspo_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=3e-4, clip_high=4e-4):
    if not (0 < clip_low < 1 and clip_high > 0):
        raise ValueError("clip")
    m = response_mask
    z = torch.zeros_like(log_prob)
    lp = torch.where(m, log_prob, z)
    log_s = (lp - torch.where(m, old_log_prob.detach(), z)).sum(-1) / m.sum(-1)
    s_tok = torch.exp(log_s[:, None] + lp - lp.detach())
    a = torch.where(m, advantages.detach(), z)
    per = torch.where(m, torch.maximum(-a * s_tok, -a * s_tok.clamp(1 - clip_low, 1 + clip_high)), z)
    return (per.sum(-1) / m.sum(-1)).mean(), log_s.exp().detach()
