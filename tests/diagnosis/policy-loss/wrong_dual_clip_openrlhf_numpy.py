# expect: policy-dual-clip
# framework: numpy
# style: OpenRLHF dual_clip form in NumPy, c = 5
import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    dual_clip = 5.0
    ratio = np.exp(new_logp - old_logp)
    surr1 = ratio * advantages
    surr2 = np.clip(ratio, 1 - clip_eps, 1 + clip_eps) * advantages
    loss1 = -np.minimum(surr1, surr2)
    loss2 = np.minimum(loss1, -dual_clip * advantages)
    return np.where(advantages < 0, loss2, loss1).mean()
