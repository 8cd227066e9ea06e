# expect: right
# framework: numpy
# style: NumPy, logsumexp via np.logaddexp.reduce on sanitised logits, fancy indexing for the gather
# (written after the catalogue files were seen: not part of the independent set)
import numpy as np


def token_logprobs(logits, input_ids, response_mask):
    valid = response_mask[:, 1:]
    # float64: np.logaddexp.reduce accumulates term by term, and over 32000 float32 terms that drifts
    # past the 1e-5 tolerance
    x = np.where(valid[..., None], logits[:, :-1], 0.0).astype(np.float64)
    lse = np.logaddexp.reduce(x, axis=-1)
    B, Lm1 = valid.shape
    rows = np.arange(B)[:, None]
    cols = np.arange(Lm1)[None, :]
    lp = x[rows, cols, input_ids[:, 1:]] - lse
    logp = x - lse[..., None]
    ent = -(np.exp(logp) * logp).sum(-1)
    return np.where(valid, lp, 0.0).astype(logits.dtype), np.where(valid, ent, 0.0).astype(logits.dtype)
