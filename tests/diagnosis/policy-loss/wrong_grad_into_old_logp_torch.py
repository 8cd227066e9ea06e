# expect: grad-into-old-logp
# framework: torch
# style: advantages detached, old log-probs kept in the graph
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    adv = advantages.detach()
    ratio = (new_logp - old_logp).exp()
    clipped = ratio.clamp(1 - clip_eps, 1 + clip_eps)
    return -torch.minimum(ratio * adv, clipped * adv).mean()
