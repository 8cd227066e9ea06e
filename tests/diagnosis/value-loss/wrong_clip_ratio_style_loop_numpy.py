# expect: value-clip-ratio-style
# framework: numpy
# style: loop computing a value "ratio" like the policy ratio
import numpy as np


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    total = 0.0
    for v, vo, r in zip(values, old_values, returns):
        ratio = v / vo
        ratio = min(max(ratio, 1 - clip_eps), 1 + clip_eps)
        v_clip = vo * ratio
        total += max((v - r) ** 2, (v_clip - r) ** 2)
    return 0.5 * total / len(values)
