# expect: dpo-mean-logps
# framework: torch
# style: masked_mean helper per response (average_log_prob=True)
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
    def masked_mean(x, m):
        return (x * m).sum(-1) / m.sum(-1)

    pc = masked_mean(policy_chosen_logps, chosen_mask)
    pr = masked_mean(policy_rejected_logps, rejected_mask)
    with torch.no_grad():
        rc = masked_mean(ref_chosen_logps, chosen_mask)
        rr = masked_mean(ref_rejected_logps, rejected_mask)
    loss = -F.logsigmoid(beta * ((pc - rc) - (pr - rr))).mean()
    cr = (beta * (pc - rc)).detach()
    rj = (beta * (pr - rr)).detach()
    stats = {"chosen_rewards": cr, "rejected_rewards": rj, "reward_accuracy": (cr > rj).float().mean().item()}
    return loss, stats
