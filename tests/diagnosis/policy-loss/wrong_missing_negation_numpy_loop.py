# expect: policy-missing-negation
# framework: numpy
# style: loop accumulating the objective, returned as is
import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    objective = []
    for lp_new, lp_old, adv in zip(new_logp, old_logp, advantages):
        ratio = np.exp(lp_new - lp_old)
        objective.append(min(ratio * adv, np.clip(ratio, 1 - clip_eps, 1 + clip_eps) * adv))
    return float(np.mean(objective))
