# expect: klpen-new-beta-in-loss
# framework: torch
# style: controller updated, then its value read for the penalty
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
    class Ctl:
        def __init__(self, v):
            self.v = v

        def step(self, d):
            if d > 1.5 * kl_target:
                self.v *= 2
            elif d < kl_target / 1.5:
                self.v /= 2

    ctl = Ctl(beta)
    ctl.step(kl.detach().mean().item())
    ratio = (new_logp - old_logp.detach()).exp()
    return ctl.v * kl.mean(-1) - (ratio * advantages.detach()).mean(-1), ctl.v
