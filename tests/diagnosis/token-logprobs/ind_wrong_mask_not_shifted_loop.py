# expect: logprob-mask-not-shifted
# framework: torch
# style: position loop, validity read at t instead of t + 1
import torch


def token_logprobs(logits, input_ids, response_mask):
    B, L, V = logits.shape
    lp = logits.new_zeros(B, L - 1)
    ent = logits.new_zeros(B, L - 1)
    for t in range(L - 1):
        keep = response_mask[:, t]
        row = torch.where(keep[:, None], logits[:, t], torch.zeros_like(logits[:, t]))
        logp = torch.log_softmax(row, dim=-1)
        picked = logp[torch.arange(B), input_ids[:, t + 1]]
        h = -(logp.exp() * logp).sum(-1)
        lp[:, t] = torch.where(keep, picked, torch.zeros_like(picked))
        ent[:, t] = torch.where(keep, h, torch.zeros_like(h))
    return lp, ent
