# expect: grad-into-returns
# framework: torch
# style: the targets left in the graph
import torch


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    old_values = old_values.detach()
    v_clipped = old_values + (values - old_values).clamp(-clip_eps, clip_eps)
    l1 = (values - returns) ** 2
    l2 = (v_clipped - returns) ** 2
    return 0.5 * torch.maximum(l1, l2).mean()
