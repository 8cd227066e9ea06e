# expect: right
# framework: torch
# style: TRL selective_log_softmax (gather then subtract logsumexp), verl entropy_from_logits
import torch


def _selective_log_softmax(logits, index):
    picked = torch.gather(logits, dim=-1, index=index.unsqueeze(-1)).squeeze(-1)
    return picked - torch.logsumexp(logits, dim=-1)


def _entropy_from_logits(logits):
    pd = torch.softmax(logits, dim=-1)
    return torch.logsumexp(logits, dim=-1) - torch.sum(pd * logits, dim=-1)


def token_logprobs(logits, input_ids, response_mask):
    valid = response_mask[:, 1:]
    shifted = logits[:, :-1, :]
    # unused positions may hold NaN/inf: give them harmless logits first
    shifted = torch.where(valid.unsqueeze(-1), shifted, torch.zeros_like(shifted))
    labels = input_ids[:, 1:]
    lp = _selective_log_softmax(shifted, labels)
    ent = _entropy_from_logits(shifted)
    zero = torch.zeros_like(lp)
    return torch.where(valid, lp, zero), torch.where(valid, ent, zero)
