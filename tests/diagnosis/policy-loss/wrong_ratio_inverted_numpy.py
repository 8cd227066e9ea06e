# expect: ratio-inverted
# framework: numpy
# style: "logratio" named after the k1 KL sign convention, old - new
import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    logratio = old_logp - new_logp
    ratio = np.exp(logratio)
    pg1 = -advantages * ratio
    pg2 = -advantages * np.clip(ratio, 1 - clip_eps, 1 + clip_eps)
    return float(np.max([pg1, pg2], axis=0).mean())
