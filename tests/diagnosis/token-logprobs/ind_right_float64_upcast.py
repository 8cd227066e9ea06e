# expect: right
# framework: torch
# style: upcast to float64 for the softmax, cast back at the end
import torch


def token_logprobs(logits, input_ids, response_mask):
    dtype = logits.dtype
    keep = response_mask[:, 1:]
    z = logits[:, :-1].double()
    z = z.masked_fill(~keep.unsqueeze(-1), 0.0)
    logp = torch.log_softmax(z, dim=-1)
    tok = input_ids[:, 1:].unsqueeze(-1)
    chosen = logp.gather(-1, tok).squeeze(-1)
    p = torch.softmax(z, dim=-1)
    h = -(p * logp).sum(-1)
    chosen = torch.where(keep, chosen, torch.zeros_like(chosen))
    h = torch.where(keep, h, torch.zeros_like(h))
    return chosen.to(dtype), h.to(dtype)
