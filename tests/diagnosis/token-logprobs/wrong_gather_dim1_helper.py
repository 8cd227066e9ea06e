# expect: logprob-gather-wrong-dim
# style: helper function, gather on the sequence axis
import torch


def _gather_tokens(logp, ids):
    return logp.gather(dim=1, index=ids[:, :, None])[:, :, 0]


def token_logprobs(logits, input_ids, response_mask):
    logp = logits[:, :-1].log_softmax(-1)
    lp = _gather_tokens(logp, input_ids[:, 1:])
    h = -(logp.exp() * logp).sum(-1)
    keep = response_mask[:, 1:]
    return torch.where(keep, lp, torch.zeros_like(lp)), torch.where(keep, h, torch.zeros_like(h))
