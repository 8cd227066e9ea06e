# expect: ratio-wrong-denominator
# framework: torch
# style: ratio against the current policy's detached log-probs (old log-probs recomputed with the same network)
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    behaviour_logp = new_logp.detach()
    ratio = torch.exp(new_logp - behaviour_logp)
    adv = advantages.detach()
    return -torch.min(ratio * adv, ratio.clamp(1 - clip_eps, 1 + clip_eps) * adv).mean()
