# expect: policy-max-instead-of-min
# framework: torch
# style: stacked gains reduced with amax
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    a = advantages.detach()
    lr = new_logp - old_logp.detach()
    r = lr.exp()
    gains = torch.stack((r * a, r.clamp(1 - clip_eps, 1 + clip_eps) * a), dim=0)
    return -gains.amax(dim=0).mean()
