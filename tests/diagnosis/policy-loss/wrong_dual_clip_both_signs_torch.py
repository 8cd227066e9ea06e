# expect: policy-dual-clip
# framework: torch
# style: tianshou-like dual clip applied whatever the advantage's sign: max(min(s1, s2), c * A)
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    c = 3.0
    a = advantages.detach()
    ratio = (new_logp - old_logp.detach()).exp()
    surr1 = ratio * a
    surr2 = ratio.clamp(1 - clip_eps, 1 + clip_eps) * a
    clip1 = torch.min(surr1, surr2)
    clip2 = torch.max(clip1, c * a)
    return -clip2.mean()
