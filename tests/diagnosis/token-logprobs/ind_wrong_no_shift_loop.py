# expect: logprob-no-shift
# framework: torch
# style: loop; the token at t+1 scored by the logits at t+1
import torch


def token_logprobs(logits, input_ids, response_mask):
    B, L, _ = logits.shape
    lp = torch.zeros(B, L - 1, dtype=logits.dtype)
    ent = torch.zeros(B, L - 1, dtype=logits.dtype)
    for b in range(B):
        for t in range(1, L):
            if response_mask[b, t]:
                logp = torch.log_softmax(logits[b, t], dim=-1)
                lp[b, t - 1] = logp[input_ids[b, t]]
                ent[b, t - 1] = -(logp.exp() * logp).sum()
    return lp, ent
