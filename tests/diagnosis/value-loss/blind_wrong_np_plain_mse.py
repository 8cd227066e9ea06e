# expect: value-no-clip
# framework: numpy
# style: the unclipped half MSE
import numpy as np


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    return 0.5 * float(((values - returns) ** 2).mean())
