# expect: klpen-per-minibatch
# framework: torch
# style: running list of betas, one per minibatch
import torch


def kl_penalty_iteration(new_logp, old_logp, advantages, kl, beta=1.0, kl_target=0.01):
    if new_logp.dim() != 2 or not (new_logp.shape == old_logp.shape == advantages.shape == kl.shape):
        raise ValueError("shapes")
    if new_logp.numel() == 0 or kl_target <= 0 or beta < 0:
        raise ValueError("bad input")
    betas = [beta]
    losses = []
    for m in range(kl.shape[0]):
        b = betas[-1]
        ratio = torch.exp(new_logp[m] - old_logp[m].detach())
        losses.append(b * kl[m].mean() - (ratio * advantages[m].detach()).mean())
        d = kl[m].detach().mean().item()
        betas.append(b * 2 if d > 1.5 * kl_target else b / 2 if d < kl_target / 1.5 else b)
    return torch.stack(losses), betas[-1]
