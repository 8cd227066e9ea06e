# expect: right
# framework: torch
# style: reference sums under torch.no_grad, policy sums with boolean masks
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
    with torch.no_grad():
        ref_c = torch.where(chosen_mask, ref_chosen_logps, 0.0).sum(-1)
        ref_r = torch.where(rejected_mask, ref_rejected_logps, 0.0).sum(-1)
    pol_c = torch.where(chosen_mask, policy_chosen_logps, 0.0).sum(-1)
    pol_r = torch.where(rejected_mask, policy_rejected_logps, 0.0).sum(-1)
    chosen_logratios = pol_c - ref_c
    rejected_logratios = pol_r - ref_r
    loss = -F.logsigmoid(beta * (chosen_logratios - rejected_logratios)).mean()
    chosen_rewards = beta * chosen_logratios.detach()
    rejected_rewards = beta * rejected_logratios.detach()
    return loss, {"chosen_rewards": chosen_rewards, "rejected_rewards": rejected_rewards,
                  "reward_accuracy": (chosen_rewards > rejected_rewards).float().mean().item()}
