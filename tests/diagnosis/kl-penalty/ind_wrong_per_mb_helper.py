# expect: klpen-per-minibatch
# framework: torch
# style: adapt() called inside the minibatch loop
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
    def adapt(b, d):
        if d > 1.5 * kl_target:
            return 2.0 * b
        if d < kl_target / 1.5:
            return 0.5 * b
        return b

    losses = []
    for m in range(new_logp.shape[0]):
        ratio = (new_logp[m] - old_logp[m].detach()).exp()
        losses.append(beta * kl[m].mean() - (ratio * advantages[m].detach()).mean())
        beta = adapt(beta, float(kl[m].detach().mean()))
    return torch.stack(losses), beta
