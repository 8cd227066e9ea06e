# expect: clip-around-zero
# framework: torch
# style: bounds computed in variables, torch.max(torch.min(x, hi), lo)
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    low, high = -clip_eps, clip_eps
    r = (new_logp - old_logp.detach()).exp()
    a = advantages.detach()
    r_clipped = torch.max(torch.min(r, torch.tensor(high, dtype=r.dtype)), torch.tensor(low, dtype=r.dtype))
    obj = torch.min(r * a, r_clipped * a)
    return -obj.mean()
