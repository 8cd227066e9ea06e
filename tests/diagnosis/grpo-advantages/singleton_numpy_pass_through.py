# expect: grpo-singleton-raw-score
# framework: numpy
# style: loop; a lone sample keeps its score
import numpy as np


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or len(scores) % group_size:
        raise ValueError("scores must form whole groups")
    per = np.empty(len(scores), dtype=np.float64)
    for s in range(0, len(scores), group_size):
        g = scores[s:s + group_size].astype(np.float64)
        if len(g) == 1:
            per[s] = g[0]
            continue
        a = g - g.mean()
        if norm_by_std:
            a = a / (g.std(ddof=1) + eps)
        per[s:s + group_size] = a
    return np.where(response_mask, per[:, None], 0.0).astype(scores.dtype)
