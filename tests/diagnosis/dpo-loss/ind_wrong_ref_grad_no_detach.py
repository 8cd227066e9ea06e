# expect: dpo-grad-into-reference
# framework: torch
# style: reference log-probs never detached
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
    pc = torch.where(chosen_mask, policy_chosen_logps, 0.0).sum(-1)
    pr = torch.where(rejected_mask, policy_rejected_logps, 0.0).sum(-1)
    rc = torch.where(chosen_mask, ref_chosen_logps, 0.0).sum(-1)
    rr = torch.where(rejected_mask, ref_rejected_logps, 0.0).sum(-1)
    loss = -F.logsigmoid(beta * ((pc - pr) - (rc - rr))).mean()
    cr = (beta * (pc - rc)).detach()
    rj = (beta * (pr - rr)).detach()
    stats = {"chosen_rewards": cr, "rejected_rewards": rj, "reward_accuracy": (cr > rj).float().mean().item()}
    return loss, stats
