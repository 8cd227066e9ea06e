# expect: policy-max-instead-of-min
# framework: torch
# style: torch.maximum on the objective
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    ratio = (new_logp - old_logp.detach()).exp()
    adv = advantages.detach()
    obj = torch.maximum(ratio * adv, ratio.clamp(1 - clip_eps, 1 + clip_eps) * adv)
    return -obj.mean()
