# expect: dpo-rewards-without-beta
# framework: torch
# style: rewards computed before beta is applied
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
    def seq(x, m):
        return torch.where(m, x, torch.zeros_like(x)).sum(-1)
    pc = seq(policy_chosen_logps, chosen_mask)
    pr = seq(policy_rejected_logps, rejected_mask)
    rc = seq(ref_chosen_logps.detach(), chosen_mask)
    rr = seq(ref_rejected_logps.detach(), rejected_mask)
    logits = (pc - pr) - (rc - rr)
    loss = -F.logsigmoid(beta * logits).mean()
    chosen_rewards = ((pc - rc) * 1.0).detach()
    rejected_rewards = ((pr - rr) * 1.0).detach()
    accuracy = (chosen_rewards > rejected_rewards).float().mean().item()
    return loss, {"chosen_rewards": chosen_rewards, "rejected_rewards": rejected_rewards, "reward_accuracy": accuracy}
