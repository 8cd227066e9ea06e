# expect: dpo-padding-summed
# framework: torch
# style: whole rows summed
import torch
import torch.nn.functional as F


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps,
             chosen_mask, rejected_mask, beta=0.1):
    if not beta > 0:
        raise ValueError("beta must be positive")
    for lp, m in ((policy_chosen_logps, chosen_mask), (ref_chosen_logps, chosen_mask),
                  (policy_rejected_logps, rejected_mask), (ref_rejected_logps, rejected_mask)):
        if lp.shape != m.shape:
            raise ValueError("log-probs and mask differ in shape")
    if not chosen_mask.any(-1).all() or not rejected_mask.any(-1).all():
        raise ValueError("a response has no valid token")

    pc = policy_chosen_logps.sum(-1)
    pr = policy_rejected_logps.sum(-1)
    rc = ref_chosen_logps.detach().sum(-1)
    rr = ref_rejected_logps.detach().sum(-1)
    loss = -F.logsigmoid(beta * ((pc - pr) - (rc - rr))).mean()
    cr = beta * (pc - rc).detach()
    rj = beta * (pr - rr).detach()
    return loss, {"chosen_rewards": cr, "rejected_rewards": rj, "reward_accuracy": (cr > rj).float().mean().item()}
