# expect: logprob-mask-multiplied
# style: one-hot einsum, multiplied mask
import torch


def token_logprobs(logits, input_ids, response_mask):
    V = logits.shape[-1]
    logp = torch.log_softmax(logits[:, :-1], dim=-1)
    onehot = torch.nn.functional.one_hot(input_ids[:, 1:], V).to(logp.dtype)
    mask = response_mask[:, 1:].to(logp.dtype)
    lp = torch.where(onehot.bool(), logp, torch.zeros((), dtype=logp.dtype)).sum(-1)
    ent = -(logp.exp() * logp).sum(-1)
    return lp * mask, ent * mask
