# expect: right
# framework: torch
# style: OpenRLHF DPOLoss (label_smoothing 0), where-masked sums
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
    def seq_logp(x, m):
        return torch.where(m, x, torch.zeros_like(x)).sum(dim=1)

    policy_chosen = seq_logp(policy_chosen_logps, chosen_mask)
    policy_rejected = seq_logp(policy_rejected_logps, rejected_mask)
    reference_chosen = seq_logp(ref_chosen_logps.detach(), chosen_mask)
    reference_rejected = seq_logp(ref_rejected_logps.detach(), rejected_mask)
    pi_logratios = policy_chosen - policy_rejected
    ref_logratios = reference_chosen - reference_rejected
    logits = pi_logratios - ref_logratios
    label_smoothing = 0.0
    losses = -F.logsigmoid(beta * logits) * (1 - label_smoothing) - F.logsigmoid(-beta * logits) * label_smoothing
    loss = losses.mean()
    chosen_rewards = beta * (policy_chosen - reference_chosen).detach()
    rejected_rewards = beta * (policy_rejected - reference_rejected).detach()
    acc = (chosen_rewards > rejected_rewards).float().mean().item()
    return loss, {"chosen_rewards": chosen_rewards, "rejected_rewards": rejected_rewards, "reward_accuracy": acc}
