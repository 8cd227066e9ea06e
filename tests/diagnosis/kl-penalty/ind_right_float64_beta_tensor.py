# expect: right
# framework: torch
# style: float64 compute, beta returned as a 0-d tensor
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
    lp = new_logp.double()
    ratio = torch.exp(lp - old_logp.detach().double())
    losses = (-(ratio * advantages.detach().double()).mean(1) + beta * kl.double().mean(1)).to(new_logp.dtype)
    d = kl.detach().double().mean()
    factor = 2.0 if d > kl_target * 1.5 else (0.5 if d < kl_target / 1.5 else 1.0)
    return losses, torch.tensor(beta * factor, dtype=torch.float64)
