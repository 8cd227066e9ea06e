# expect: dpo-mean-logps
# framework: torch
# style: per-row loop, average token log-prob
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
        return torch.stack([x[i][m[i]].mean() for i in range(x.shape[0])])
    pc, pr = seq(policy_chosen_logps, chosen_mask), seq(policy_rejected_logps, rejected_mask)
    rc, rr = seq(ref_chosen_logps.detach(), chosen_mask), seq(ref_rejected_logps.detach(), rejected_mask)
    chosen_rewards = beta * (pc - rc)
    rejected_rewards = beta * (pr - rr)
    loss = -F.logsigmoid(chosen_rewards - rejected_rewards).mean()
    return loss, {"chosen_rewards": chosen_rewards.detach(), "rejected_rewards": rejected_rewards.detach(),
                  "reward_accuracy": (chosen_rewards > rejected_rewards).float().mean().item()}
