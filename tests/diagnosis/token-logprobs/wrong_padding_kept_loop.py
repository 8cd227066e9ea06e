# expect: logprob-padding-kept
# style: loop, forgot the mask
import torch


def token_logprobs(logits, input_ids, response_mask):
    B, L, _ = logits.shape
    lp = torch.empty(B, L - 1, dtype=logits.dtype)
    ent = torch.empty(B, L - 1, dtype=logits.dtype)
    for t in range(L - 1):
        d = logits[:, t].log_softmax(-1)
        lp[:, t] = d.gather(1, input_ids[:, t + 1:t + 2]).squeeze(1)
        ent[:, t] = -(d.exp() * d).sum(-1)
    return lp, ent
