# expect: policy-clip-advantage
# framework: torch
# style: advantage clamped to [-1, 1] as a "trust region" on the signal, CleanRL max of negated
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    mb_adv = advantages.detach()
    ratio = (new_logp - old_logp.detach()).exp()
    pg1 = -mb_adv * ratio
    pg2 = -mb_adv.clamp(-1.0, 1.0) * ratio
    return torch.max(pg1, pg2).mean()
