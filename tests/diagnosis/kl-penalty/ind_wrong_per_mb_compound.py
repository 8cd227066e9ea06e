# expect: klpen-per-minibatch
# framework: torch
# style: beta updated after every minibatch from its own KL, used by the next
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
    old, A = old_logp.detach(), advantages.detach()
    losses = []
    for m in range(new_logp.shape[0]):
        r = torch.exp(new_logp[m] - old[m])
        losses.append(-(r * A[m]).mean() + beta * kl[m].mean())
        d = kl[m].detach().mean().item()
        if d > kl_target * 1.5:
            beta = beta * 2
        elif d < kl_target / 1.5:
            beta = beta / 2
    return torch.stack(losses), beta
