# expect: logprob-naive-softmax
# framework: torch
# style: loop over tokens, log of the partition function from raw exps
import math
import torch


def token_logprobs(logits, input_ids, response_mask):
    B, L, V = logits.shape
    lp_rows, h_rows = [], []
    for b in range(B):
        lps, hs = [], []
        for t in range(L - 1):
            if response_mask[b, t + 1]:
                row = logits[b, t]
                log_z = torch.log(torch.exp(row).sum())
                logp = row - log_z
                lps.append(logp[input_ids[b, t + 1]])
                hs.append(-(torch.exp(logp) * logp).sum())
            else:
                lps.append(torch.zeros((), dtype=logits.dtype))
                hs.append(torch.zeros((), dtype=logits.dtype))
        lp_rows.append(torch.stack(lps))
        h_rows.append(torch.stack(hs))
    return torch.stack(lp_rows), torch.stack(h_rows)
