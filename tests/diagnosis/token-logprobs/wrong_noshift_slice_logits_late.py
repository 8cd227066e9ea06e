# expect: logprob-no-shift
# style: vectorised, labels shifted but logits not
import torch


def token_logprobs(logits, input_ids, response_mask):
    targets = input_ids[:, 1:]
    logp = torch.log_softmax(logits[:, 1:], dim=-1)
    tok = logp.gather(-1, targets[..., None])[..., 0]
    ent = -(logp.exp() * logp).sum(-1)
    valid = response_mask[:, 1:]
    z = torch.zeros((), dtype=tok.dtype)
    return torch.where(valid, tok, z), torch.where(valid, ent, z)
