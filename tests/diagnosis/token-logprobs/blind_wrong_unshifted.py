# expect: logprob-no-shift
# framework: numpy
# style: logits and ids aligned without the shift
import numpy as np


def token_logprobs(logits, input_ids, response_mask):
    valid = response_mask[:, 1:]
    x = np.where(valid[..., None], logits[:, 1:], 0.0).astype(np.float64)
    z = x - x.max(-1, keepdims=True)
    lp = z - np.log(np.exp(z).sum(-1, keepdims=True))
    picked = np.take_along_axis(lp, input_ids[:, 1:, None], -1)[..., 0]
    ent = -(np.exp(lp) * lp).sum(-1)
    return np.where(valid, picked, 0.0), np.where(valid, ent, 0.0)
