# expect: dpo-rewards-without-beta
# framework: torch
# style: stats from the unscaled log-ratios
import torch
import torch.nn.functional as F


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps,
             chosen_mask, rejected_mask, beta=0.1):
    if beta <= 0:
        raise ValueError("beta must be > 0")
    pairs = [(policy_chosen_logps, chosen_mask), (ref_chosen_logps, chosen_mask),
             (policy_rejected_logps, rejected_mask), (ref_rejected_logps, rejected_mask)]
    if any(x.shape != m.shape for x, m in pairs):
        raise ValueError("shape mismatch")
    if (chosen_mask.sum(-1) == 0).any() or (rejected_mask.sum(-1) == 0).any():
        raise ValueError("empty response")
    seq = lambda x, m: torch.where(m, x, torch.zeros_like(x)).sum(-1)
    chosen_logratio = seq(policy_chosen_logps, chosen_mask) - seq(ref_chosen_logps, chosen_mask).detach()
    rejected_logratio = seq(policy_rejected_logps, rejected_mask) - seq(ref_rejected_logps, rejected_mask).detach()
    loss = F.softplus(-beta * (chosen_logratio - rejected_logratio)).mean()
    stats = {"chosen_rewards": chosen_logratio.detach(), "rejected_rewards": rejected_logratio.detach()}
    stats["reward_accuracy"] = (stats["chosen_rewards"] > stats["rejected_rewards"]).float().mean().item()
    return loss, stats
