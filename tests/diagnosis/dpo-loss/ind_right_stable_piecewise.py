# expect:
# expect-unnamed: relu(-x) + log1p(exp(-|x|)) has the right value but autograd gives gradient 0 at a zero gap
#   (relu'(0) = 0 and d|x|/dx = 0 there), where the true gradient of softplus(-x) is -1/2
# framework: torch
# style: stable -log sigmoid written as relu(-x) + log1p(exp(-|x|))
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
    zc = torch.zeros_like(policy_chosen_logps)
    zr = torch.zeros_like(policy_rejected_logps)
    pc = torch.where(chosen_mask, policy_chosen_logps, zc).sum(-1)
    pr = torch.where(rejected_mask, policy_rejected_logps, zr).sum(-1)
    rc = torch.where(chosen_mask, ref_chosen_logps, zc).sum(-1).detach()
    rr = torch.where(rejected_mask, ref_rejected_logps, zr).sum(-1).detach()
    x = beta * ((pc - pr) - (rc - rr))
    loss = (torch.relu(-x) + torch.log1p(torch.exp(-x.abs()))).mean()
    cr = (beta * (pc - rc)).detach()
    rj = (beta * (pr - rr)).detach()
    return loss, {"chosen_rewards": cr, "rejected_rewards": rj,
                  "reward_accuracy": float((cr > rj).float().mean())}
