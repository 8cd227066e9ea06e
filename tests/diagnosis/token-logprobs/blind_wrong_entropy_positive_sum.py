# expect: logprob-entropy-sign
# framework: torch
# style: entropy without its minus
import torch


def token_logprobs(logits, input_ids, response_mask):
    valid = response_mask[:, 1:]
    lg = torch.where(valid.unsqueeze(-1), logits[:, :-1], torch.zeros((), dtype=logits.dtype))
    lp = torch.log_softmax(lg, -1)
    picked = lp.gather(-1, input_ids[:, 1:, None]).squeeze(-1)
    ent = (lp.exp() * lp).sum(-1)
    z = torch.zeros((), dtype=lp.dtype)
    return torch.where(valid, picked, z), torch.where(valid, ent, z)
