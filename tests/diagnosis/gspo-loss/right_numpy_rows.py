# expect: right
# framework: numpy
# style: a loop over responses, each one's ratio from its valid tokens
import numpy as np


def gspo_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=3e-4, clip_high=4e-4):
    if not 0 < clip_low < 1 or clip_high <= 0:
        raise ValueError("clip range")
    per_response, ratios = [], []
    for lp, old, adv, m in zip(log_prob, old_log_prob, advantages, response_mask):
        s = np.exp(np.mean(lp[m] - old[m]))
        s_clip = min(max(s, 1 - clip_low), 1 + clip_high)
        terms = np.maximum(-adv[m] * s, -adv[m] * s_clip)
        per_response.append(terms.mean())
        ratios.append(s)
    return float(np.mean(per_response)), np.array(ratios)
