# expect: logprob-naive-softmax
# framework: numpy
# style: NumPy, x - log(sum(exp(x))) without the max shift, unused logits zeroed first
# (written after the catalogue files were seen: not part of the independent set)
import numpy as np


def token_logprobs(logits, input_ids, response_mask):
    valid = response_mask[:, 1:]
    x = np.where(valid[..., None], logits[:, :-1], 0.0)
    with np.errstate(over="ignore", invalid="ignore"):
        logp = x - np.log(np.exp(x).sum(-1, keepdims=True))
        lp = np.take_along_axis(logp, input_ids[:, 1:, None], axis=-1)[..., 0]
        ent = -(np.exp(logp) * logp).sum(-1)
    return np.where(valid, lp, 0.0), np.where(valid, ent, 0.0)
