# expect: right
# framework: torch
# style: log_softmax on the raw logits, garbage removed by where afterwards (value only; gradient on finite batches)
import torch


def token_logprobs(logits, input_ids, response_mask):
    next_tokens = input_ids[:, 1:]
    m = response_mask[:, 1:]
    log_p = torch.nn.functional.log_softmax(logits[:, :-1], dim=2)
    tok_lp = torch.take_along_dim(log_p, next_tokens[:, :, None], dim=2)[:, :, 0]
    ent = -torch.sum(torch.exp(log_p) * log_p, dim=2)
    return torch.where(m, tok_lp, torch.tensor(0.0, dtype=tok_lp.dtype)), torch.where(m, ent, torch.tensor(0.0, dtype=ent.dtype))
