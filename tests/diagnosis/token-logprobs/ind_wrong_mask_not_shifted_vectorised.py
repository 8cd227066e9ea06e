# expect: logprob-mask-not-shifted
# framework: torch
# style: tokens shifted, mask cut at the end instead of the start
import torch


def token_logprobs(logits, input_ids, response_mask):
    valid = response_mask[:, :-1]
    x = logits[:, :-1]
    x = torch.where(valid[..., None], x, torch.zeros_like(x))
    logp = torch.log_softmax(x, -1)
    tok = torch.gather(logp, -1, input_ids[:, 1:][..., None])[..., 0]
    ent = -(logp * logp.exp()).sum(-1)
    return torch.where(valid, tok, 0.0), torch.where(valid, ent, 0.0)
