# expect: right
# framework: torch
# style: piecewise torch.where of the clipped objective
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    a = advantages.detach()
    r = torch.exp(new_logp - old_logp.detach())
    obj = torch.where(a >= 0, torch.minimum(r, torch.tensor(1 + clip_eps, dtype=r.dtype)) * a,
                      torch.maximum(r, torch.tensor(1 - clip_eps, dtype=r.dtype)) * a)
    return -obj.mean()
