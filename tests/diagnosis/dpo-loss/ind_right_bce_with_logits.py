# expect: right
# framework: torch
# style: binary_cross_entropy_with_logits of beta * h against 1
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
    pc = policy_chosen_logps.masked_fill(~chosen_mask, 0).sum(1)
    pr = policy_rejected_logps.masked_fill(~rejected_mask, 0).sum(1)
    rc = ref_chosen_logps.detach().masked_fill(~chosen_mask, 0).sum(1)
    rr = ref_rejected_logps.detach().masked_fill(~rejected_mask, 0).sum(1)
    h = (pc - rc) - (pr - rr)
    z = beta * h
    loss = F.binary_cross_entropy_with_logits(z, torch.ones_like(z))
    cr, rj = (beta * (pc - rc)).detach(), (beta * (pr - rr)).detach()
    return loss, {"chosen_rewards": cr, "rejected_rewards": rj, "reward_accuracy": (cr > rj).double().mean().item()}
