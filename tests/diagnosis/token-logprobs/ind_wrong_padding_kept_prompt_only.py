# expect: logprob-padding-kept
# framework: torch
# style: sanitises the garbage logits but never zeroes the outputs
import torch


def token_logprobs(logits, input_ids, response_mask):
    valid = response_mask[:, 1:]
    x = torch.where(valid[..., None], logits[:, :-1], torch.zeros((), dtype=logits.dtype))
    lse = torch.logsumexp(x, dim=-1)
    lp = torch.gather(x, 2, input_ids[:, 1:, None]).squeeze(2) - lse
    p = torch.softmax(x, dim=-1)
    ent = lse - (p * x).sum(-1)
    return lp, ent
