# expect: logprob-softmax-then-log
# framework: torch
# style: torch.softmax then torch.log, gathered
import torch


def token_logprobs(logits, input_ids, response_mask):
    valid = response_mask[:, 1:]
    x = logits[:, :-1].masked_fill(~valid.unsqueeze(-1), 0.0)
    probs = torch.softmax(x, dim=-1)
    logp = torch.log(probs)
    lp = logp.gather(-1, input_ids[:, 1:].unsqueeze(-1)).squeeze(-1)
    ent = -(probs * torch.log_softmax(x, -1)).sum(-1)
    return lp.masked_fill(~valid, 0.0), ent.masked_fill(~valid, 0.0)
