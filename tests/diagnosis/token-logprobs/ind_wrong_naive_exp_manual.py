# expect: logprob-naive-softmax
# framework: torch
# style: softmax written by hand without subtracting the max
import torch


def token_logprobs(logits, input_ids, response_mask):
    valid = response_mask[:, 1:]
    x = logits[:, :-1].masked_fill(~valid.unsqueeze(-1), 0.0)
    e = torch.exp(x)
    z = e.sum(-1, keepdim=True)
    logp = x - torch.log(z)
    lp = logp.gather(-1, input_ids[:, 1:].unsqueeze(-1)).squeeze(-1)
    p = e / z
    ent = -(p * logp).sum(-1)
    return lp.masked_fill(~valid, 0.0), ent.masked_fill(~valid, 0.0)
