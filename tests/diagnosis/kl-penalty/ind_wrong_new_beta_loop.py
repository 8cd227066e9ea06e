# expect: klpen-new-beta-in-loss
# framework: torch
# style: new_beta computed before the minibatch loop and used inside it
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
    d = float(kl.detach().mean())
    if d < kl_target / 1.5:
        new_beta = beta / 2
    elif d > kl_target * 1.5:
        new_beta = beta * 2
    else:
        new_beta = beta
    losses = []
    for m in range(new_logp.shape[0]):
        r = torch.exp(new_logp[m] - old_logp[m].detach())
        losses.append(-(r * advantages[m].detach()).mean() + new_beta * kl[m].mean())
    return torch.stack(losses), new_beta
