# expect:
# expect-unnamed: entropy divided by log(V) (normalised entropy), log-probs right
# framework: torch
import math
import torch


def token_logprobs(logits, input_ids, response_mask):
    valid = response_mask[:, 1:]
    x = logits[:, :-1].masked_fill(~valid.unsqueeze(-1), 0.0)
    logp = x.log_softmax(-1)
    lp = logp.gather(-1, input_ids[:, 1:].unsqueeze(-1)).squeeze(-1)
    ent = -(logp.exp() * logp).sum(-1) / math.log(x.shape[-1])
    return lp.masked_fill(~valid, 0.0), ent.masked_fill(~valid, 0.0)
