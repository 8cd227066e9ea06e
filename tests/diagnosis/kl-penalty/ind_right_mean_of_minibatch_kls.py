# expect: right
# framework: torch
# style: KL of the iteration as the mean of the (equal-size) minibatch means
import torch


def _validate(new_logp, old_logp, advantages, kl, beta, kl_target):
    shapes = {tuple(t.shape) for t in (new_logp, old_logp, advantages, kl)}
    if len(shapes) != 1 or new_logp.dim() != 2:
        raise ValueError("inputs must be [M, N] tensors of one shape")
    if new_logp.numel() == 0:
        raise ValueError("empty inputs")
    if kl_target <= 0:
        raise ValueError("kl_target must be positive")
    if beta < 0:
        raise ValueError("beta must be >= 0")

def kl_penalty_iteration(new_logp, old_logp, advantages, kl, beta=1.0, kl_target=0.01):
    _validate(new_logp, old_logp, advantages, kl, beta, kl_target)
    mb_kls = []
    losses = []
    for m in range(new_logp.shape[0]):
        r = torch.exp(new_logp[m] - old_logp[m].detach())
        mb_kl = kl[m].mean()
        losses.append(beta * mb_kl - torch.mean(r * advantages[m].detach()))
        mb_kls.append(mb_kl.detach())
    d = torch.stack(mb_kls).mean().item()
    if d < kl_target / 1.5:
        new_beta = beta / 2
    elif d > kl_target * 1.5:
        new_beta = beta * 2
    else:
        new_beta = beta
    return torch.stack(losses), new_beta
