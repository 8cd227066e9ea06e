# expect: value-clip-around-returns grad-into-returns
# framework: torch
# style: band around the returns, returns kept in the graph (old_values unused)
import torch


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    v_clip = torch.max(torch.min(values, returns + clip_eps), returns - clip_eps)
    return 0.5 * torch.max((values - returns).pow(2), (v_clip - returns).pow(2)).mean()
