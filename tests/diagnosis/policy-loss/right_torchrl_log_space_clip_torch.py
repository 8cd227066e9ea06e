# expect: right
# framework: torch
# style: TorchRL ClipPPOLoss: log_weight clamped to [log1p(-eps), log1p(eps)], gains compared
import math

import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    advantage = advantages.detach()
    log_weight = new_logp - old_logp.detach()
    gain1 = log_weight.exp() * advantage
    log_weight_clip = log_weight.clamp(math.log1p(-clip_eps), math.log1p(clip_eps))
    gain2 = log_weight_clip.exp() * advantage
    gain = torch.stack([gain1, gain2], -1).min(dim=-1)[0]
    loss_objective = -gain
    return loss_objective.mean()
