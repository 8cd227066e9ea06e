# expect: right
# framework: torch
# style: OpenRLHF DPOLoss idiom: pi_logratios minus ref_logratios, label smoothing 0
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
    label_smoothing = 0.0
    def masked_sum(x, m):
        return torch.where(m.bool(), x, torch.zeros((), dtype=x.dtype)).sum(dim=-1)
    policy_chosen = masked_sum(policy_chosen_logps, chosen_mask)
    policy_rejected = masked_sum(policy_rejected_logps, rejected_mask)
    reference_chosen = masked_sum(ref_chosen_logps, chosen_mask).detach()
    reference_rejected = masked_sum(ref_rejected_logps, rejected_mask).detach()
    pi_logratios = policy_chosen - policy_rejected
    ref_logratios = reference_chosen - reference_rejected
    logits = pi_logratios - ref_logratios
    losses = (-F.logsigmoid(beta * logits) * (1 - label_smoothing)
              - F.logsigmoid(-beta * logits) * label_smoothing)
    loss = losses.mean()
    chosen_rewards = beta * (policy_chosen - reference_chosen).detach()
    rejected_rewards = beta * (policy_rejected - reference_rejected).detach()
    return loss, {"chosen_rewards": chosen_rewards, "rejected_rewards": rejected_rewards,
                  "reward_accuracy": float((chosen_rewards > rejected_rewards).float().mean())}
