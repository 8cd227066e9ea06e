# expect: policy-missing-negation
# framework: torch
# style: CleanRL's max of negated terms, then negated once more "to maximise"
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    adv = advantages.detach()
    ratio = (new_logp - old_logp.detach()).exp()
    pg_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - clip_eps, 1 + clip_eps)).mean()
    return -pg_loss
