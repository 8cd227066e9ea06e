# expect: right
# framework: numpy
# style: SB3's policy loss in NumPy
import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    ratio = np.exp(new_logp - old_logp)
    policy_loss_1 = advantages * ratio
    policy_loss_2 = advantages * np.clip(ratio, 1 - clip_eps, 1 + clip_eps)
    return float(-np.minimum(policy_loss_1, policy_loss_2).mean())
