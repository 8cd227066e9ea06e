# expect: right
# framework: torch
# style: verl logprobs_from_logits on already-shifted logits, masked by a helper
import torch


def logprobs_from_logits(logits, labels):
    logp = logits.log_softmax(dim=-1)
    return logp.gather(dim=-1, index=labels.unsqueeze(-1)).squeeze(-1)


def entropy_from_logits(logits):
    logp = logits.log_softmax(dim=-1)
    return -(logp.exp() * logp).sum(dim=-1)


def _zero_invalid(x, mask):
    return torch.where(mask, x, x.new_zeros(()))


def token_logprobs(logits, input_ids, response_mask):
    mask = response_mask[:, 1:]
    shifted = _zero_invalid(logits[:, :-1], mask.unsqueeze(-1))
    labels = input_ids[:, 1:]
    return (_zero_invalid(logprobs_from_logits(shifted, labels), mask),
            _zero_invalid(entropy_from_logits(shifted), mask))
