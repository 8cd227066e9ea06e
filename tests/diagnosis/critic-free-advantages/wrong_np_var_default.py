# expect: rpp-population-variance
# framework: numpy
# style: np.var's default ddof=0
import numpy as np


def critic_free_advantages(scores, old_log_prob, ref_log_prob, response_mask, group_size=1,
                           estimator="reinforce_pp", kl_coef=0.01):
    if estimator not in ("reinforce_pp", "reinforce_pp_baseline", "dr_grpo"):
        raise ValueError(estimator)
    if group_size < 1 or len(scores) % group_size:
        raise ValueError(group_size)
    m = response_mask
    if estimator != "dr_grpo" and m.sum() < 2:
        raise ValueError("too few")
    if estimator == "reinforce_pp":
        r = np.where(m, -kl_coef * (old_log_prob - ref_log_prob), 0.0)
        r[np.arange(len(scores)), m.sum(1) - 1] += scores
        x = np.where(m, np.flip(np.cumsum(np.flip(r, 1), 1), 1), 0.0)
    else:
        s = scores.reshape(-1, group_size)
        x = np.where(m, (s - s.mean(1, keepdims=True)).reshape(-1, 1), 0.0)
        if estimator == "dr_grpo":
            return x
    v = x[m]
    return np.where(m, (x - v.mean()) / np.sqrt(v.var() + 1e-8), 0.0)
