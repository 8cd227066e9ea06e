# expect: grad-into-old-values
# framework: torch
# style: verl-like clip_by_value bounds built from old values still in the graph
import torch


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    ret = returns.detach()
    vclip = torch.clamp(values, old_values - clip_eps, old_values + clip_eps)
    return 0.5 * torch.maximum((values - ret) ** 2, (vclip - ret) ** 2).mean()
