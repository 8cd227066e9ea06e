import torch


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    # two slips: the min of the two errors, and returns left attached to the graph
    clipped = old_values.detach() + (values - old_values.detach()).clamp(-clip_eps, clip_eps)
    return 0.5 * torch.min((values - returns) ** 2, (clipped - returns) ** 2).mean()
