# expect: logprob-softmax-then-log
# framework: numpy
# style: NumPy softmax with a 1e-9 inside the log, float64
import numpy as np


def token_logprobs(logits, input_ids, response_mask):
    valid = response_mask[:, 1:]
    x = np.where(valid[..., None], logits[:, :-1].astype(np.float64), 0.0)
    e = np.exp(x - x.max(-1, keepdims=True))
    p = e / e.sum(-1, keepdims=True)
    lp_all = np.log(p + 1e-9)
    lp = np.take_along_axis(lp_all, input_ids[:, 1:, None], -1)[..., 0]
    ent = -(p * np.log(np.where(p > 0, p, 1.0))).sum(-1)
    return np.where(valid, lp, 0.0).astype(logits.dtype), np.where(valid, ent, 0.0).astype(logits.dtype)
