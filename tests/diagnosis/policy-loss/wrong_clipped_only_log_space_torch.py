# expect: policy-clipped-only
# framework: torch
# style: log-space clip, only the clipped gain kept
import math

import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    log_w = (new_logp - old_logp.detach()).clamp(math.log(1 - clip_eps), math.log(1 + clip_eps))
    return -(log_w.exp() * advantages.detach()).mean()
