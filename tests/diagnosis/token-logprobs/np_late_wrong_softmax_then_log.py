# expect: logprob-softmax-then-log
# framework: numpy
# style: NumPy stable softmax (max subtracted), then np.log of the probabilities
# (written after the catalogue files were seen: not part of the independent set)
import numpy as np


def token_logprobs(logits, input_ids, response_mask):
    valid = response_mask[:, 1:]
    x = np.where(valid[..., None], logits[:, :-1], 0.0)
    e = np.exp(x - x.max(-1, keepdims=True))
    p = e / e.sum(-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        logp = np.log(p)
        lp = np.take_along_axis(logp, input_ids[:, 1:, None], axis=-1)[..., 0]
        z = x - x.max(-1, keepdims=True)
        stable = z - np.log(np.exp(z).sum(-1, keepdims=True))
        ent = -(p * stable).sum(-1)
    return np.where(valid, lp, 0.0), np.where(valid, ent, 0.0)
