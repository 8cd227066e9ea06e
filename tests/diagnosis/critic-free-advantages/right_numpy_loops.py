# expect: right
# framework: numpy
# style: plain Python loops over responses and tokens
import numpy as np


def critic_free_advantages(scores, old_log_prob, ref_log_prob, response_mask, group_size=1,
                           estimator="reinforce_pp", kl_coef=0.01):
    if estimator not in ("reinforce_pp", "reinforce_pp_baseline", "dr_grpo"):
        raise ValueError(f"unknown estimator {estimator}")
    B, T = response_mask.shape
    if group_size < 1 or B % group_size != 0:
        raise ValueError("partial group")
    values = np.zeros((B, T))
    if estimator == "reinforce_pp":
        for b in range(B):
            n = int(response_mask[b].sum())
            rewards = [-kl_coef * (old_log_prob[b, t] - ref_log_prob[b, t]) for t in range(n)]
            rewards[-1] += scores[b]
            acc = 0.0
            for t in range(n - 1, -1, -1):
                acc += rewards[t]
                values[b, t] = acc
    else:
        for p in range(B // group_size):
            rows = range(p * group_size, (p + 1) * group_size)
            mean = np.mean([scores[b] for b in rows])
            for b in rows:
                values[b, :int(response_mask[b].sum())] = scores[b] - mean
        if estimator == "dr_grpo":
            return values
    valid = values[response_mask]
    if valid.size < 2:
        raise ValueError("nothing to whiten")
    mean, var = valid.mean(), valid.var(ddof=1)
    return np.where(response_mask, (values - mean) / np.sqrt(var + 1e-8), 0.0)
