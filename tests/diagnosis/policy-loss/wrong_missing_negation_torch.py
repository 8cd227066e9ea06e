# expect: policy-missing-negation
# framework: torch
# style: surrogate objective returned as the loss
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    adv = advantages.detach()
    ratio = torch.exp(new_logp - old_logp.detach())
    surrogate = torch.min(ratio * adv, torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps) * adv)
    return surrogate.mean()
