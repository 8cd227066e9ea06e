# expect: value-clip-around-returns
# framework: numpy
# style: loop, each prediction clipped into [R - eps, R + eps]
import numpy as np


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    losses = []
    for v, r in zip(values, returns):
        vc = min(max(v, r - clip_eps), r + clip_eps)
        losses.append(max((v - r) ** 2, (vc - r) ** 2))
    return 0.5 * np.mean(losses)
