# drill: policy-loss
# framework: numpy
# expect: output-type
# A boolean where the loss is asked.
import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    return np.bool_(True)
