# expect: logprob-gather-wrong-dim logprob-entropy-sign
# framework: torch
# style: gather on axis 1, entropy as sum p log p
import torch


def token_logprobs(logits, input_ids, response_mask):
    keep = response_mask[:, 1:]
    z = logits[:, :-1].masked_fill(~keep.unsqueeze(-1), 0.0)
    logp = z.log_softmax(-1)
    lp = logp.gather(1, input_ids[:, 1:].unsqueeze(-1)).squeeze(-1)
    ent = (logp.exp() * logp).sum(-1)
    return lp.masked_fill(~keep, 0.0), ent.masked_fill(~keep, 0.0)
