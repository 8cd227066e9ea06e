# expect: value-no-clip
# framework: torch
# style: plain 0.5 * MSE
import torch


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    return 0.5 * ((values - returns.detach()) ** 2).mean()
