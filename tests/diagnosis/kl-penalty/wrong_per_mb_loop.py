# expect: klpen-per-minibatch
# framework: torch
# style: adapt after each minibatch
import torch


def kl_penalty_iteration(new_logp, old_logp, advantages, kl, beta=1.0, kl_target=0.01):
    if new_logp.dim() != 2 or not (new_logp.shape == old_logp.shape == advantages.shape == kl.shape):
        raise ValueError("shapes")
    if new_logp.numel() == 0 or kl_target <= 0 or beta < 0:
        raise ValueError("bad input")
    out = []
    for m in range(new_logp.shape[0]):
        ratio = torch.exp(new_logp[m] - old_logp[m].detach())
        out.append(-(ratio * advantages[m].detach()).mean() + beta * kl[m].mean())
        mb_kl = kl[m].detach().mean().item()
        if mb_kl > 1.5 * kl_target:
            beta = beta * 2
        elif mb_kl < kl_target / 1.5:
            beta = beta / 2
    return torch.stack(out), beta
