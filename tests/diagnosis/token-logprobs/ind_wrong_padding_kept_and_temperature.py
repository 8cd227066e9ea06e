# expect: logprob-padding-kept
# expect-unnamed: logits divided by a temperature of 0.7 before the softmax
# framework: torch
import torch


def token_logprobs(logits, input_ids, response_mask, temperature=0.7):
    x = torch.where(response_mask[:, 1:, None], logits[:, :-1], torch.zeros((), dtype=logits.dtype))
    x = x / temperature
    logp = torch.log_softmax(x, -1)
    lp = logp.gather(-1, input_ids[:, 1:, None]).squeeze(-1)
    ent = -(logp.exp() * logp).sum(-1)
    return lp, ent
