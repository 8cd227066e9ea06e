# expect: right
# framework: torch
# style: TorchRL: a dict of loss_objective / loss_critic / loss_entropy, summed; log-space ratio clip
import math

import torch


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    adv = advantages.detach()
    log_weight = new_logp - old_logp.detach()
    gain1 = log_weight.exp() * adv
    gain2 = log_weight.clamp(math.log1p(-clip_eps), math.log1p(clip_eps)).exp() * adv
    old_sv = old_values.detach()
    target = returns.detach()
    clipped = old_sv + (values - old_sv).clamp(-clip_eps, clip_eps)
    critic = torch.maximum((values - target).pow(2), (clipped - target).pow(2))
    td_out = {
        "loss_objective": -torch.min(gain1, gain2).mean(),
        "loss_critic": vf_coef * 0.5 * critic.mean(),
        "loss_entropy": -ent_coef * entropy.mean(),
    }
    return sum(td_out.values())
