# expect: right
# framework: torch
# style: TRL's selective_log_softmax (logsumexp per row), shift then mask
import torch


def token_logprobs(logits, input_ids, response_mask):
    logits = logits[:, :-1, :]
    labels = input_ids[:, 1:]
    mask = response_mask[:, 1:]
    safe = torch.where(mask.unsqueeze(-1), logits, torch.zeros((), dtype=logits.dtype))
    selected = torch.gather(safe, dim=-1, index=labels.unsqueeze(-1)).squeeze(-1)
    lse = torch.logsumexp(safe, dim=-1)
    logp = selected - lse
    logp_all = torch.log_softmax(safe, dim=-1)
    ent = -(logp_all.exp() * logp_all).sum(-1)
    zero = torch.zeros((), dtype=logp.dtype)
    return torch.where(mask, logp, zero), torch.where(mask, ent, zero)
