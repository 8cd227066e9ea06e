# expect: right
# framework: numpy
# style: element loop with min/max builtins
import numpy as np


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    acc = 0.0
    for v, v_old, ret in zip(values, old_values, returns):
        change = min(max(v - v_old, -clip_eps), clip_eps)
        unclipped = (v - ret) ** 2
        clipped = (v_old + change - ret) ** 2
        acc += max(unclipped, clipped)
    return 0.5 * acc / len(values)
