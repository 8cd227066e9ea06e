# expect: total-coefs-swapped
# framework: torch
# style: weights dict keyed by term with the two coefficients exchanged
import torch


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    weights = {"policy": 1.0, "value": ent_coef, "entropy": vf_coef}
    a = advantages.detach()
    r = (new_logp - old_logp.detach()).exp()
    terms = {
        "policy": torch.max(-a * r, -a * r.clamp(1 - clip_eps, 1 + clip_eps)).mean(),
        "value": 0.5 * torch.max((values - returns.detach()) ** 2,
                                 (old_values.detach() + (values - old_values.detach()).clamp(-clip_eps, clip_eps)
                                  - returns.detach()) ** 2).mean(),
        "entropy": -entropy.mean(),
    }
    return sum(weights[k] * terms[k] for k in terms)
