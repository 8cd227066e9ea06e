# expect: logprob-mask-multiplied
# style: multiply by mask.float()
import torch


def token_logprobs(logits, input_ids, response_mask):
    logp = torch.log_softmax(logits[:, :-1], dim=-1)
    lp = logp.gather(-1, input_ids[:, 1:].unsqueeze(-1)).squeeze(-1)
    ent = -(logp.exp() * logp).sum(-1)
    m = response_mask[:, 1:].to(lp.dtype)
    return lp * m, ent * m
