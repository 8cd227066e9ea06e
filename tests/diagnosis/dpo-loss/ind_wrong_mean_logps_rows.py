# expect: dpo-mean-logps
# framework: torch
# style: row loop, masked_select(...).mean()
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
    def per_row(x, m):
        return torch.stack([torch.masked_select(x[b], m[b]).mean() for b in range(x.shape[0])])

    pc, pr = per_row(policy_chosen_logps, chosen_mask), per_row(policy_rejected_logps, rejected_mask)
    rc, rr = per_row(ref_chosen_logps.detach(), chosen_mask), per_row(ref_rejected_logps.detach(), rejected_mask)
    loss = F.softplus(-beta * ((pc - pr) - (rc - rr))).mean()
    cr = (beta * (pc - rc)).detach()
    rj = (beta * (pr - rr)).detach()
    stats = {"chosen_rewards": cr, "rejected_rewards": rj, "reward_accuracy": (cr > rj).float().mean().item()}
    return loss, stats
