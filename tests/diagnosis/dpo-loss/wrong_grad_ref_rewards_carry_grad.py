# expect: dpo-grad-into-reference
# framework: torch
# style: reference summed without no_grad, rewards detached only at the end
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
    cm, rm = chosen_mask.to(policy_chosen_logps.dtype), rejected_mask.to(policy_rejected_logps.dtype)
    chosen_rewards = beta * ((policy_chosen_logps - ref_chosen_logps) * cm).sum(-1)
    rejected_rewards = beta * ((policy_rejected_logps - ref_rejected_logps) * rm).sum(-1)
    loss = -F.logsigmoid(chosen_rewards - rejected_rewards).mean()
    return loss, {"chosen_rewards": chosen_rewards.detach(), "rejected_rewards": rejected_rewards.detach(),
                  "reward_accuracy": (chosen_rewards > rejected_rewards).float().mean().item()}
