# expect: grad-into-advantages
# framework: torch
# style: torch.where piecewise form; only the ratio side is protected
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    with torch.no_grad():
        old = old_logp.clone()
    ratio = torch.exp(new_logp - old)
    bounded = torch.where(advantages > 0, ratio.clamp(max=1 + clip_eps), ratio.clamp(min=1 - clip_eps))
    return -(bounded * advantages).mean()
