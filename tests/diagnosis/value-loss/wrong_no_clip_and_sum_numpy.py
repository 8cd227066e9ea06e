# expect: value-no-clip
# expect-unnamed: summed instead of averaged
# framework: numpy
# style: sum of squared errors times 0.5
import numpy as np


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    err = np.asarray(values, dtype=float) - np.asarray(returns, dtype=float)
    return 0.5 * np.sum(err * err)
