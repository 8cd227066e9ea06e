# expect:
# expect-unnamed: the score is spread evenly over the valid tokens
# framework: numpy
# style: score divided by the length
import numpy as np


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    n = response_mask.sum(1)
    per_tok = (scores / n)[:, None]
    r = np.where(response_mask, -kl_coef * (log_probs - ref_log_probs) + per_tok, 0.0)
    return r
