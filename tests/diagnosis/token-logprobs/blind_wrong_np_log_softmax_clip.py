# expect: logprob-softmax-then-log
# framework: numpy
# style: NumPy softmax, then log of the clipped probability
import numpy as np


def token_logprobs(logits, input_ids, response_mask):
    valid = response_mask[:, 1:]
    x = np.where(valid[..., None], logits[:, :-1], 0.0)
    x = x - x.max(axis=-1, keepdims=True)
    p = np.exp(x)
    p = p / p.sum(axis=-1, keepdims=True)
    logp_all = np.log(np.clip(p, 1e-10, 1.0))
    picked = np.take_along_axis(logp_all, input_ids[:, 1:, None], axis=-1)[..., 0]
    ent = -(p * logp_all).sum(-1)
    return np.where(valid, picked, 0.0).astype(logits.dtype), np.where(valid, ent, 0.0).astype(logits.dtype)
