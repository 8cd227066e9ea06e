# expect: gspo-mask-multiplied
# framework: torch
# style: masked sums as (x * mask).sum(-1)
import torch


def gspo_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=3e-4, clip_high=4e-4):
    if not (0 < clip_low < 1 and clip_high > 0):
        raise ValueError("clip")
    mf = response_mask.to(log_prob.dtype)
    lr = (log_prob - old_log_prob.detach()) * mf
    log_s = lr.sum(-1) / mf.sum(-1)
    ratio = torch.exp(log_prob - log_prob.detach() + log_s.detach()[:, None])
    a = advantages.detach()
    per = torch.maximum(-a * ratio, -a * ratio.clamp(1 - clip_low, 1 + clip_high)) * mf
    return (per.sum(-1) / mf.sum(-1)).mean(), log_s.exp().detach()
