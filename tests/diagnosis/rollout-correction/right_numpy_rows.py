# expect: right
# framework: numpy
# style: a loop over responses, the weights and the kept set decided per row
import numpy as np


def corrected_policy_loss(log_prob, old_log_prob, rollout_log_prob, advantages, response_mask,
                          level="token", mode="truncate", threshold=2.0, clip_eps=0.2):
    if level not in ("token", "sequence"):
        raise ValueError(level)
    if mode not in ("truncate", "mask"):
        raise ValueError(mode)
    if threshold <= 1:
        raise ValueError(threshold)
    B, T = response_mask.shape
    weights = np.zeros((B, T))
    total, kept = 0.0, 0
    for b in range(B):
        m = response_mask[b]
        lw = old_log_prob[b][m] - rollout_log_prob[b][m]
        w = np.full(lw.shape, np.exp(lw.sum())) if level == "sequence" else np.exp(lw)
        if mode == "truncate":
            w = np.minimum(w, threshold)
            keep = np.ones(lw.shape, dtype=bool)
        else:
            keep = (w >= 1 / threshold) & (w <= threshold)
        r = np.exp(log_prob[b][m] - old_log_prob[b][m])
        a = advantages[b][m]
        pg = -np.minimum(r * a, np.clip(r, 1 - clip_eps, 1 + clip_eps) * a)
        total += (w * pg)[keep].sum()
        kept += int(keep.sum())
        row = np.zeros(int(m.sum()))
        row[keep] = w[keep]
        weights[b, :int(m.sum())] = row
    return total / max(kept, 1), weights
