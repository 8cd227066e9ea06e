import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    log_ratio = (np.asarray(new_logp) - np.asarray(old_logp)).astype(np.float32)
    ratio = np.exp(log_ratio)
    adv = np.asarray(advantages, dtype=np.float32)
    surr1 = ratio * adv
    surr2 = np.clip(ratio, 1.0 - clip_eps, 1.0 + clip_eps) * adv
    return -np.minimum(surr1, surr2).mean()
