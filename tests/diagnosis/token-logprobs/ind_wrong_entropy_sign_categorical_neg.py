# expect: logprob-entropy-sign
# framework: torch
# style: Categorical, then "negative entropy" kept as in a loss term
import torch
from torch.distributions import Categorical


def token_logprobs(logits, input_ids, response_mask):
    m = response_mask[:, 1:]
    x = logits[:, :-1].masked_fill(~m[..., None], 0.0)
    dist = Categorical(logits=x)
    lp = dist.log_prob(input_ids[:, 1:])
    neg_ent = -dist.entropy()
    return lp.masked_fill(~m, 0.0), neg_ent.masked_fill(~m, 0.0)
