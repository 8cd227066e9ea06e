# expect: policy-clip-advantage
# framework: numpy
# style: advantage clipped to [-eps, eps] (another band), ratio left alone
import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    ratio = np.exp(new_logp - old_logp)
    adv_clipped = np.clip(advantages, -clip_eps, clip_eps)
    return -np.mean(np.minimum(ratio * advantages, ratio * adv_clipped))
