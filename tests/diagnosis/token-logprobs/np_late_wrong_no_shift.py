# expect: logprob-no-shift
# framework: numpy
# style: NumPy, logits[:, 1:] against input_ids[:, 1:]
# (written after the catalogue files were seen: not part of the independent set)
import numpy as np


def token_logprobs(logits, input_ids, response_mask):
    valid = response_mask[:, 1:]
    x = np.where(valid[..., None], logits[:, 1:], 0.0)
    z = x - x.max(-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(-1, keepdims=True))
    lp = np.take_along_axis(logp, input_ids[:, 1:, None], axis=-1)[..., 0]
    ent = -(np.exp(logp) * logp).sum(-1)
    return np.where(valid, lp, 0.0), np.where(valid, ent, 0.0)
