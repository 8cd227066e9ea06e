# expect: logprob-no-shift
# style: per-position loop
import torch


def token_logprobs(logits, input_ids, response_mask):
    B, L, V = logits.shape
    lp = torch.zeros(B, L - 1, dtype=logits.dtype)
    ent = torch.zeros(B, L - 1, dtype=logits.dtype)
    for t in range(L - 1):
        dist = torch.log_softmax(logits[:, t + 1], dim=-1)
        here = dist[torch.arange(B), input_ids[:, t + 1]]
        h = -(dist.exp() * dist).sum(-1)
        ok = response_mask[:, t + 1]
        lp[:, t] = torch.where(ok, here, torch.zeros_like(here))
        ent[:, t] = torch.where(ok, h, torch.zeros_like(h))
    return lp, ent
