# expect: klpen-update-inverted
# framework: torch
# style: factor table with the two factors exchanged
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
    losses = torch.stack([
        beta * kl[m].mean() - (torch.exp(new_logp[m] - old_logp[m].detach()) * advantages[m].detach()).mean()
        for m in range(new_logp.shape[0])
    ])
    d = kl.detach().mean().item()
    factor = {"over": 0.5, "under": 2.0, "ok": 1.0}
    state = "over" if d > 1.5 * kl_target else ("under" if d < kl_target / 1.5 else "ok")
    return losses, beta * factor[state]
