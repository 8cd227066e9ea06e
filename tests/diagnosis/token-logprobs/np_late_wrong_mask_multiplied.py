# expect: logprob-mask-multiplied
# framework: numpy
# style: NumPy, outputs multiplied by the float mask
# (written after the catalogue files were seen: not part of the independent set)
import numpy as np


def token_logprobs(logits, input_ids, response_mask):
    m = response_mask[:, 1:].astype(logits.dtype)
    x = logits[:, :-1]
    with np.errstate(invalid="ignore", over="ignore"):
        z = x - x.max(-1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(-1, keepdims=True))
        lp = np.take_along_axis(logp, input_ids[:, 1:, None], axis=-1)[..., 0]
        ent = -(np.exp(logp) * logp).sum(-1)
        return lp * m, ent * m
