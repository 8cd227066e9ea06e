# expect: mis-weight-inverted
# framework: numpy
# style: the engine's probability over the trainer's, via probabilities
import numpy as np


def corrected_policy_loss(log_prob, old_log_prob, rollout_log_prob, advantages, response_mask,
                          level="token", mode="truncate", threshold=2.0, clip_eps=0.2):
    if level not in ("token", "sequence") or mode not in ("truncate", "mask") or threshold <= 1:
        raise ValueError("settings")
    m = response_mask
    p_train = np.exp(np.where(m, old_log_prob, 0.0))
    p_roll = np.exp(np.where(m, rollout_log_prob, 0.0))
    w = p_roll / p_train
    if level == "sequence":
        w = np.repeat(np.prod(np.where(m, w, 1.0), axis=1, keepdims=True), m.shape[1], axis=1)
    if mode == "truncate":
        keep, w = m, np.minimum(w, threshold)
    else:
        keep = m & (w >= 1 / threshold) & (w <= threshold)
    w = np.where(keep, w, 0.0)
    r = np.exp(np.where(m, log_prob - old_log_prob, 0.0))
    a = np.where(m, advantages, 0.0)
    pg = -np.minimum(r * a, np.clip(r, 1 - clip_eps, 1 + clip_eps) * a)
    return float(np.where(keep, w * pg, 0.0).sum() / max(keep.sum(), 1)), w
