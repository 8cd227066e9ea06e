# expect: logprob-entropy-sign
# framework: torch
# style: loop over rows, entropy written as the expected log-prob
import torch


def token_logprobs(logits, input_ids, response_mask):
    B, L, V = logits.shape
    out_lp = torch.zeros(B, L - 1, dtype=logits.dtype)
    out_h = torch.zeros(B, L - 1, dtype=logits.dtype)
    for b in range(B):
        for t in range(L - 1):
            if not response_mask[b, t + 1]:
                continue
            logp = torch.log_softmax(logits[b, t], dim=0)
            out_lp[b, t] = logp[input_ids[b, t + 1]]
            out_h[b, t] = torch.sum(torch.exp(logp) * logp)   # E_p[log p]
    return out_lp, out_h
