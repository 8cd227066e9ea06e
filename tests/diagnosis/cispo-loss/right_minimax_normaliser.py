# expect: right
# framework: torch
# style: MiniMax-M1's 1 / sum_i |o_i| written as per-row sums over the row lengths
import torch


def cispo_loss(log_prob, old_log_prob, advantages, response_mask, eps_high=0.28, eps_low=None):
    if eps_high <= 0:
        raise ValueError("eps_high <= 0")
    if eps_low is not None and not (0.0 < eps_low <= 1.0):
        raise ValueError("eps_low out of range")
    m = response_mask
    z = torch.zeros((), dtype=log_prob.dtype)
    logp = torch.where(m, log_prob, z)
    log_ratio = torch.where(m, log_prob.detach() - old_log_prob.detach(), z)
    r_hat = torch.exp(log_ratio)
    r_hat = torch.clamp(r_hat, max=1.0 + eps_high)
    if eps_low is not None:
        r_hat = torch.clamp(r_hat, min=1.0 - eps_low)
    r_hat = torch.where(m, r_hat, z)
    adv = torch.where(m, advantages.detach(), z)
    lengths = m.sum(dim=-1)
    row_sums = (r_hat * adv * logp).sum(dim=-1)
    return -row_sums.sum() / lengths.sum(), r_hat
