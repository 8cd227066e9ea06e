# expect: clip-around-zero reduction-sum
# framework: numpy
# style: loop over samples, band around 0 and the terms summed
import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    loss = 0.0
    for i in range(len(advantages)):
        r = np.exp(new_logp[i] - old_logp[i])
        rc = min(max(r, -clip_eps), clip_eps)
        loss -= min(r * advantages[i], rc * advantages[i])
    return loss
