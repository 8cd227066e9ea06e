# expect: grad-into-advantages
# framework: torch
# style: TorchRL-like log-space clip, advantage not detached
import math

import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    lw = new_logp - old_logp.detach()
    lw_clip = lw.clamp(math.log1p(-clip_eps), math.log1p(clip_eps))
    gain = torch.min(lw.exp() * advantages, lw_clip.exp() * advantages)
    return -gain.mean()
