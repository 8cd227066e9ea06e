# expect: dpo-grad-into-reference
# framework: torch
# style: TRL-like concatenated batch, reference pass not under no_grad
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
    pol = torch.cat([torch.where(chosen_mask, policy_chosen_logps, 0.0).sum(-1),
                     torch.where(rejected_mask, policy_rejected_logps, 0.0).sum(-1)])
    ref = torch.cat([torch.where(chosen_mask, ref_chosen_logps, 0.0).sum(-1),
                     torch.where(rejected_mask, ref_rejected_logps, 0.0).sum(-1)])
    B = chosen_mask.shape[0]
    logits = (pol[:B] - pol[B:]) - (ref[:B] - ref[B:])
    loss = -F.logsigmoid(beta * logits).mean()
    rewards = (beta * (pol - ref)).detach()
    cr, rr = rewards[:B], rewards[B:]
    return loss, {"chosen_rewards": cr, "rejected_rewards": rr, "reward_accuracy": (cr > rr).float().mean().item()}
