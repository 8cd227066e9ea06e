# expect: policy-advantages-normalised
# framework: torch
# style: TRL-like whiten helper (rsqrt of var + 1e-8) applied to the advantages
import torch


def whiten(values, shift_mean=True):
    mean, var = torch.mean(values), torch.var(values)
    whitened = (values - mean) * torch.rsqrt(var + 1e-8)
    if not shift_mean:
        whitened += mean
    return whitened


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    adv = whiten(advantages.detach())
    ratio = torch.exp(new_logp - old_logp.detach())
    return -torch.min(ratio * adv, ratio.clamp(1 - clip_eps, 1 + clip_eps) * adv).mean()
