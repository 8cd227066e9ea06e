# expect: dpo-rewards-without-beta
# framework: torch
# style: per-pair loop, rewards appended before scaling
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
    crs, rjs, losses = [], [], []
    for b in range(policy_chosen_logps.shape[0]):
        c = torch.masked_select(policy_chosen_logps[b] - ref_chosen_logps[b].detach(), chosen_mask[b]).sum()
        r = torch.masked_select(policy_rejected_logps[b] - ref_rejected_logps[b].detach(), rejected_mask[b]).sum()
        crs.append(c.detach())
        rjs.append(r.detach())
        losses.append(-F.logsigmoid(beta * (c - r)))
    cr, rj = torch.stack(crs), torch.stack(rjs)
    return torch.stack(losses).mean(), {"chosen_rewards": cr, "rejected_rewards": rj,
                                        "reward_accuracy": (cr > rj).float().mean().item()}
