# expect: policy-advantages-normalised
# framework: numpy
# style: NumPy standardisation with population std before the surrogate
import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    adv = np.asarray(advantages, dtype=float)
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    ratio = np.exp(new_logp - old_logp)
    return -np.mean(np.minimum(ratio * adv, np.clip(ratio, 1 - clip_eps, 1 + clip_eps) * adv))
