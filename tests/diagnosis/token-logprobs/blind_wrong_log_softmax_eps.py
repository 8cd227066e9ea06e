# expect: logprob-softmax-then-log
# framework: torch
# style: log of softmax with a 1e-12 floor
import torch


def token_logprobs(logits, input_ids, response_mask):
    valid = response_mask[:, 1:]
    lg = torch.where(valid.unsqueeze(-1), logits[:, :-1], torch.zeros((), dtype=logits.dtype))
    probs = torch.softmax(lg, dim=-1)
    logp_all = torch.log(probs + 1e-12)
    picked = logp_all.gather(-1, input_ids[:, 1:].unsqueeze(-1)).squeeze(-1)
    ent = -(probs * logp_all).sum(-1)
    zero = torch.zeros((), dtype=picked.dtype)
    return torch.where(valid, picked, zero), torch.where(valid, ent, zero)
