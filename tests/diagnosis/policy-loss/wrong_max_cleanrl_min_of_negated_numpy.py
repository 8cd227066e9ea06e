# expect: policy-max-instead-of-min
# framework: numpy
# style: CleanRL's negated terms combined with np.minimum (the pessimistic choice inverted)
import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    ratio = np.exp(new_logp - old_logp)
    pg_loss1 = -advantages * ratio
    pg_loss2 = -advantages * np.clip(ratio, 1 - clip_eps, 1 + clip_eps)
    return np.minimum(pg_loss1, pg_loss2).mean()
