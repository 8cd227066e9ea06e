# expect: right
# framework: torch
# style: new beta as a 0-d tensor from torch.where
import torch


def kl_penalty_iteration(new_logp, old_logp, advantages, kl, beta=1.0, kl_target=0.01):
    if new_logp.dim() != 2 or not (new_logp.shape == old_logp.shape == advantages.shape == kl.shape):
        raise ValueError("shapes")
    if new_logp.numel() == 0 or kl_target <= 0 or beta < 0:
        raise ValueError("bad input")
    ratio = (new_logp - old_logp.detach()).exp()
    losses = (beta * kl - ratio * advantages.detach()).mean(dim=1)
    d = kl.detach().mean()
    b = torch.tensor(float(beta), dtype=torch.float64)
    new_beta = torch.where(d > 1.5 * kl_target, 2 * b, torch.where(d < kl_target / 1.5, b / 2, b))
    return losses, new_beta
