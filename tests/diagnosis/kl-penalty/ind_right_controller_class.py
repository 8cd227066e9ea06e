# expect: right
# framework: torch
# style: a small adaptive controller object (update once per iteration)
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
    class AdaptiveKL:
        def __init__(self, value, target):
            self.value, self.target = value, target

        def update(self, current):
            if current > 1.5 * self.target:
                self.value *= 2.0
            elif current < self.target / 1.5:
                self.value *= 0.5

    ctl = AdaptiveKL(beta, kl_target)
    losses = torch.stack([
        -(torch.exp(new_logp[m] - old_logp[m].detach()) * advantages[m].detach()).mean() + ctl.value * kl[m].mean()
        for m in range(new_logp.shape[0])
    ])
    ctl.update(kl.detach().mean().item())
    return losses, ctl.value
