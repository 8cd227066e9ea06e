# expect: dpo-rewards-without-beta
# framework: torch
# style: TRL names, beta forgotten on the logged rewards
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
    policy_chosen = (policy_chosen_logps * chosen_mask).sum(-1)
    policy_rejected = (policy_rejected_logps * rejected_mask).sum(-1)
    with torch.no_grad():
        reference_chosen = (ref_chosen_logps * chosen_mask).sum(-1)
        reference_rejected = (ref_rejected_logps * rejected_mask).sum(-1)
    logits = (policy_chosen - policy_rejected) - (reference_chosen - reference_rejected)
    losses = -F.logsigmoid(beta * logits)
    chosen_rewards = (policy_chosen - reference_chosen).detach()
    rejected_rewards = (policy_rejected - reference_rejected).detach()
    return losses.mean(), {"chosen_rewards": chosen_rewards, "rejected_rewards": rejected_rewards,
                           "reward_accuracy": (chosen_rewards > rejected_rewards).float().mean().item()}
