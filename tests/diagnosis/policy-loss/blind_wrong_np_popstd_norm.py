# expect: policy-advantages-normalised
# framework: numpy
# style: advantages whitened with np.std inside the loss
import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    adv = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    ratio = np.exp(new_logp - old_logp)
    return float(np.mean(-np.minimum(ratio * adv, np.clip(ratio, 1 - clip_eps, 1 + clip_eps) * adv)))
