# expect: right
# framework: numpy
# style: NumPy max-shifted log-sum-exp on the valid positions only
import numpy as np


def token_logprobs(logits, input_ids, response_mask):
    B, L, V = logits.shape
    valid = response_mask[:, 1:]
    out_lp = np.zeros((B, L - 1), dtype=logits.dtype)
    out_ent = np.zeros((B, L - 1), dtype=logits.dtype)
    b_idx, t_idx = np.nonzero(valid)
    x = logits[b_idx, t_idx].astype(np.float64)
    z = x - x.max(axis=-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    tok = input_ids[b_idx, t_idx + 1]
    out_lp[b_idx, t_idx] = logp[np.arange(len(tok)), tok]
    out_ent[b_idx, t_idx] = -(np.exp(logp) * logp).sum(axis=-1)
    return out_lp, out_ent
