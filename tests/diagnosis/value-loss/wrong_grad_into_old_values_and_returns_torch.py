# expect: grad-into-old-values grad-into-returns
# framework: torch
# style: nothing detached: both old_values and returns stay in the graph
import torch


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    values_clipped = old_values + (values - old_values).clamp(-clip_eps, clip_eps)
    surr1 = (values_clipped - returns) ** 2
    surr2 = (values - returns) ** 2
    return 0.5 * torch.max(surr1, surr2).mean()
