# expect: right
# framework: numpy
# style: the rejection test done on log-weights against +-log(threshold)
import numpy as np


def corrected_policy_loss(log_prob, old_log_prob, rollout_log_prob, advantages, response_mask,
                          level="token", mode="truncate", threshold=2.0, clip_eps=0.2):
    if level not in {"token", "sequence"} or mode not in {"truncate", "mask"} or threshold <= 1:
        raise ValueError("invalid settings")
    m = response_mask
    log_w = np.where(m, old_log_prob - rollout_log_prob, 0.0)
    if level == "sequence":
        log_w = np.repeat(log_w.sum(1, keepdims=True), m.shape[1], axis=1)
    if mode == "mask":
        bound = np.log(threshold)
        keep = m & (np.abs(log_w) <= bound)
        w = np.where(keep, np.exp(log_w), 0.0)
    else:
        keep = m
        w = np.where(m, np.exp(np.minimum(log_w, np.log(threshold))), 0.0)
    lr = np.where(m, log_prob - old_log_prob, 0.0)
    r = np.exp(lr)
    a = np.where(m, advantages, 0.0)
    obj = np.minimum(r * a, np.clip(r, 1 - clip_eps, 1 + clip_eps) * a)
    return float(-(np.where(keep, w * obj, 0.0)).sum() / max(keep.sum(), 1)), w
