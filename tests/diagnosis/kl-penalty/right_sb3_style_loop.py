# expect: right
# framework: torch
# style: training-loop style: losses collected in a list, KL logged, beta adapted after the epoch (the PPO paper's rule)
import torch


def kl_penalty_iteration(new_logp, old_logp, advantages, kl, beta=1.0, kl_target=0.01):
    if new_logp.dim() != 2 or not (new_logp.shape == old_logp.shape == advantages.shape == kl.shape):
        raise ValueError("shapes")
    if new_logp.numel() == 0 or kl_target <= 0 or beta < 0:
        raise ValueError("bad input")
    losses, kls = [], []
    for mb in range(new_logp.shape[0]):
        log_ratio = new_logp[mb] - old_logp[mb].detach()
        pg = -(log_ratio.exp() * advantages[mb].detach()).mean()
        losses.append(pg + beta * kl[mb].mean())
        kls.append(kl[mb].detach())
    mean_kl = torch.cat(kls).mean().item()
    factor = 2.0 if mean_kl > kl_target * 1.5 else (0.5 if mean_kl < kl_target / 1.5 else 1.0)
    return torch.stack(losses), beta * factor
