# expect: value-clip-absolute
# framework: torch
# style: torch.max(torch.min(v, eps), -eps) on the raw prediction
import torch


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    target = returns.detach()
    hi = torch.full_like(values, clip_eps)
    v_clip = torch.max(torch.min(values, hi), -hi)
    return 0.5 * torch.maximum(torch.square(values - target), torch.square(v_clip - target)).mean()
