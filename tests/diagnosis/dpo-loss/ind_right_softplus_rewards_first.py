# expect: right
# framework: torch
# style: implicit rewards first, loss = softplus(-(r_c - r_r)) of them
import torch
import torch.nn.functional as F


def _check(logps, mask, name):
    if logps.shape != mask.shape:
        raise ValueError(f"{name}: log-probs {tuple(logps.shape)} and mask {tuple(mask.shape)} differ")
    if not bool(mask.any(dim=-1).all()):
        raise ValueError(f"{name}: a response has no valid token")


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps,
             chosen_mask, rejected_mask, beta=0.1):
    _check(policy_chosen_logps, chosen_mask, "policy_chosen_logps")
    _check(ref_chosen_logps, chosen_mask, "ref_chosen_logps")
    _check(policy_rejected_logps, rejected_mask, "policy_rejected_logps")
    _check(ref_rejected_logps, rejected_mask, "ref_rejected_logps")
    if not beta > 0:
        raise ValueError("beta must be positive")
    m_c, m_r = chosen_mask, rejected_mask
    zc, zr = torch.zeros_like(policy_chosen_logps), torch.zeros_like(policy_rejected_logps)
    logratio_c = torch.where(m_c, policy_chosen_logps - ref_chosen_logps.detach(), zc).sum(-1)
    logratio_r = torch.where(m_r, policy_rejected_logps - ref_rejected_logps.detach(), zr).sum(-1)
    r_c = beta * logratio_c
    r_r = beta * logratio_r
    loss = F.softplus(-(r_c - r_r)).mean()
    stats = {"chosen_rewards": r_c.detach(), "rejected_rewards": r_r.detach(),
             "reward_accuracy": float((r_c > r_r).sum()) / r_c.shape[0]}
    return loss, stats
