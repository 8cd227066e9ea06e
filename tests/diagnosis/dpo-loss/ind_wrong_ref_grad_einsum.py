# expect: dpo-grad-into-reference
# framework: torch
# style: einsum sums of all four tensors, no detach
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
    fc = chosen_mask.to(policy_chosen_logps.dtype)
    fr = rejected_mask.to(policy_rejected_logps.dtype)
    pc, rc = torch.einsum("bt,bt->b", policy_chosen_logps, fc), torch.einsum("bt,bt->b", ref_chosen_logps, fc)
    pr, rr = torch.einsum("bt,bt->b", policy_rejected_logps, fr), torch.einsum("bt,bt->b", ref_rejected_logps, fr)
    chosen_rewards = beta * (pc - rc)
    rejected_rewards = beta * (pr - rr)
    loss = F.softplus(rejected_rewards - chosen_rewards).mean()
    cr, rj = chosen_rewards.detach(), rejected_rewards.detach()
    return loss, {"chosen_rewards": cr, "rejected_rewards": rj, "reward_accuracy": (cr > rj).float().mean().item()}
