# expect: policy-max-instead-of-min
# framework: torch
# style: SB3 form with th.max
import torch as th


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    advantages = advantages.detach()
    ratio = th.exp(new_logp - old_logp.detach())
    l1 = advantages * ratio
    l2 = advantages * th.clamp(ratio, 1 - clip_eps, 1 + clip_eps)
    return -th.max(l1, l2).mean()
