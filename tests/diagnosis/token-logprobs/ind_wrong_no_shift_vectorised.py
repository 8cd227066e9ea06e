# expect: logprob-no-shift
# framework: torch
# style: drops the first position of both logits and tokens (aligned, not shifted)
import torch


def token_logprobs(logits, input_ids, response_mask):
    valid = response_mask[:, 1:]
    x = logits[:, 1:]
    x = torch.where(valid.unsqueeze(-1), x, torch.zeros_like(x))
    logp = x.log_softmax(dim=-1)
    lp = logp.gather(-1, input_ids[:, 1:].unsqueeze(-1)).squeeze(-1)
    ent = -(logp.exp() * logp).sum(-1)
    return torch.where(valid, lp, 0.0), torch.where(valid, ent, 0.0)
