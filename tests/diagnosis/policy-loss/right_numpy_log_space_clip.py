# expect: right
# framework: numpy
# style: log-space clipping in NumPy: clip the log-ratio to [log(1 - eps), log(1 + eps)]
import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    log_ratio = np.subtract(new_logp, old_logp)
    clipped_log_ratio = np.clip(log_ratio, np.log1p(-clip_eps), np.log1p(clip_eps))
    surrogate = np.minimum(np.exp(log_ratio) * advantages, np.exp(clipped_log_ratio) * advantages)
    return -surrogate.mean()
