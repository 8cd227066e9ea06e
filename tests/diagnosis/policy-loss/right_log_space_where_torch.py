# expect: right
# framework: torch
# style: decide the clip in log space: where(A >= 0, min(log r, log1p(eps)), max(log r, log1p(-eps))), exp once
import math

import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    adv = advantages.detach()
    log_ratio = new_logp - old_logp.detach()
    hi = torch.full_like(log_ratio, math.log1p(clip_eps))
    lo = torch.full_like(log_ratio, math.log1p(-clip_eps) if clip_eps < 1 else -math.inf)
    bounded = torch.where(adv >= 0, torch.minimum(log_ratio, hi), torch.maximum(log_ratio, lo))
    return -(bounded.exp() * adv).mean()
