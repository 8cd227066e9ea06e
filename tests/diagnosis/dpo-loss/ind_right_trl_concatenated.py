# expect: right
# framework: torch
# style: TRL dpo_loss: (logps * mask).sum(-1) (padding is finite here), sigmoid loss type
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
    pi_c = (policy_chosen_logps * chosen_mask).sum(-1)
    pi_r = (policy_rejected_logps * rejected_mask).sum(-1)
    with torch.no_grad():
        ref_c = (ref_chosen_logps * chosen_mask).sum(-1)
        ref_r = (ref_rejected_logps * rejected_mask).sum(-1)
    pi_logratios = pi_c - pi_r
    ref_logratios = ref_c - ref_r
    logits = pi_logratios - ref_logratios
    losses = -F.logsigmoid(beta * logits)
    chosen_rewards = beta * (pi_c - ref_c).detach()
    rejected_rewards = beta * (pi_r - ref_r).detach()
    stats = {"chosen_rewards": chosen_rewards, "rejected_rewards": rejected_rewards,
             "reward_accuracy": (chosen_rewards > rejected_rewards).float().mean().item()}
    return losses.mean(), stats
