# expect: dpo-log-of-sigmoid
# framework: torch
# style: log(sigmoid + 1e-10)
import torch


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps,
             chosen_mask, rejected_mask, beta=0.1):
    if not beta > 0:
        raise ValueError("beta")
    for lp, m in ((policy_chosen_logps, chosen_mask), (ref_chosen_logps, chosen_mask),
                  (policy_rejected_logps, rejected_mask), (ref_rejected_logps, rejected_mask)):
        if lp.shape != m.shape:
            raise ValueError("shape")
    if not (chosen_mask.any(-1).all() and rejected_mask.any(-1).all()):
        raise ValueError("empty")
    z = torch.zeros((), dtype=policy_chosen_logps.dtype)
    s = lambda x, m: torch.where(m, x, z).sum(-1)  # noqa: E731
    cr = beta * (s(policy_chosen_logps, chosen_mask) - s(ref_chosen_logps.detach(), chosen_mask))
    rr = beta * (s(policy_rejected_logps, rejected_mask) - s(ref_rejected_logps.detach(), rejected_mask))
    loss = -torch.log(torch.sigmoid(cr - rr) + 1e-10).mean()
    return loss, {"chosen_rewards": cr.detach(), "rejected_rewards": rr.detach(),
                  "reward_accuracy": (cr > rr).float().mean().item()}
