# expect: dpo-reference-sign
# framework: torch
# style: TRL-like helper, the reference log-ratio added
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
    s = lambda x, m: (x * m).sum(-1)
    pi_logratios = s(policy_chosen_logps, chosen_mask) - s(policy_rejected_logps, rejected_mask)
    with torch.no_grad():
        ref_logratios = s(ref_chosen_logps, chosen_mask) - s(ref_rejected_logps, rejected_mask)
        chosen_rewards = beta * (s(policy_chosen_logps, chosen_mask) - s(ref_chosen_logps, chosen_mask))
        rejected_rewards = beta * (s(policy_rejected_logps, rejected_mask) - s(ref_rejected_logps, rejected_mask))
    loss = -F.logsigmoid(beta * (pi_logratios + ref_logratios)).mean()
    return loss, {"chosen_rewards": chosen_rewards, "rejected_rewards": rejected_rewards,
                  "reward_accuracy": (chosen_rewards > rejected_rewards).float().mean().item()}
