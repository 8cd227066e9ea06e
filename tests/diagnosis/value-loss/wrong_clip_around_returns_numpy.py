# expect: value-clip-around-returns
# framework: numpy
# style: np.clip(values, returns - eps, returns + eps)
import numpy as np


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    vpredclipped = np.clip(values, returns - clip_eps, returns + clip_eps)
    vf1 = (values - returns) ** 2
    vf2 = (vpredclipped - returns) ** 2
    return 0.5 * np.maximum(vf1, vf2).mean()
