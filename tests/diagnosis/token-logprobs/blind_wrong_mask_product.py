# expect: logprob-mask-multiplied
# framework: torch
# style: outputs multiplied by the float mask
import torch


def token_logprobs(logits, input_ids, response_mask):
    lg = logits[:, :-1]
    logp_all = torch.log_softmax(lg, dim=-1)
    picked = logp_all.gather(-1, input_ids[:, 1:].unsqueeze(-1)).squeeze(-1)
    ent = -(logp_all.exp() * logp_all).sum(-1)
    m = response_mask[:, 1:].to(picked.dtype)
    return picked * m, ent * m
