# expect: right
# framework: numpy
# style: NumPy loop over the valid positions only, max-shifted softmax per position
# (written after the catalogue files were seen: not part of the independent set)
import numpy as np


def token_logprobs(logits, input_ids, response_mask):
    B, L, V = logits.shape
    lp = np.zeros((B, L - 1), dtype=logits.dtype)
    ent = np.zeros((B, L - 1), dtype=logits.dtype)
    for b in range(B):
        for t in range(L - 1):
            if not response_mask[b, t + 1]:
                continue
            row = logits[b, t].astype(np.float64)
            z = row - row.max()
            logp = z - np.log(np.exp(z).sum())
            lp[b, t] = logp[input_ids[b, t + 1]]
            ent[b, t] = -(np.exp(logp) * logp).sum()
    return lp, ent
