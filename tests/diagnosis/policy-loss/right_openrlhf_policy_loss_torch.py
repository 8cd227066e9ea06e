# expect: right
# framework: torch
# style: OpenRLHF PolicyLoss.forward: surr1 / surr2, loss = -min, masked mean with no mask
import torch


def masked_mean(tensor, mask=None, dim=None):
    if mask is None:
        return tensor.mean() if dim is None else tensor.mean(dim=dim)
    return (tensor * mask).sum(dim=dim) / mask.sum(dim=dim)


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    log_ratio = new_logp - old_logp.detach()
    ratio = log_ratio.exp()
    adv = advantages.detach()
    surr1 = ratio * adv
    surr2 = ratio.clamp(1 - clip_eps, 1 + clip_eps) * adv
    loss = -torch.min(surr1, surr2)
    return masked_mean(loss, None)
