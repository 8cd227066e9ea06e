# expect: dpo-padding-summed
# framework: torch
# style: torch.sum(dim=1) without the masks, rewards first
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
    chosen_logratios = torch.sum(policy_chosen_logps - ref_chosen_logps.detach(), dim=1)
    rejected_logratios = torch.sum(policy_rejected_logps - ref_rejected_logps.detach(), dim=1)
    cr_g = beta * chosen_logratios
    rj_g = beta * rejected_logratios
    loss = -F.logsigmoid(cr_g - rj_g).mean()
    cr, rj = cr_g.detach(), rj_g.detach()
    return loss, {"chosen_rewards": cr, "rejected_rewards": rj, "reward_accuracy": (cr > rj).float().mean().item()}
