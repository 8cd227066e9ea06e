# expect: dpo-grad-into-reference
# framework: torch
# style: detach only where the rewards are logged
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
    fc, fr = chosen_mask.to(policy_chosen_logps.dtype), rejected_mask.to(policy_rejected_logps.dtype)
    pc = (policy_chosen_logps * fc).sum(-1)
    pr = (policy_rejected_logps * fr).sum(-1)
    rc = (ref_chosen_logps * fc).sum(-1)
    rr = (ref_rejected_logps * fr).sum(-1)
    pi_logratios = pc - pr
    ref_logratios = rc - rr
    loss = -F.logsigmoid(beta * (pi_logratios - ref_logratios)).mean()
    cr = beta * (pc - rc.detach()).detach()
    rj = beta * (pr - rr.detach()).detach()
    return loss, {"chosen_rewards": cr, "rejected_rewards": rj, "reward_accuracy": float((cr > rj).float().mean())}
