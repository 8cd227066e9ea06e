# expect: logprob-gather-wrong-dim
# style: torch.gather with dim=-2
import torch


def token_logprobs(logits, input_ids, response_mask):
    shifted = logits[..., :-1, :]
    labels = input_ids[..., 1:]
    logp = torch.nn.functional.log_softmax(shifted, dim=-1)
    picked = torch.gather(logp, dim=-2, index=labels.unsqueeze(-1)).squeeze(-1)
    entropy = -torch.sum(torch.exp(logp) * logp, dim=-1)
    on = response_mask[..., 1:]
    zero = torch.zeros((), dtype=picked.dtype)
    return torch.where(on, picked, zero), torch.where(on, entropy, zero)
