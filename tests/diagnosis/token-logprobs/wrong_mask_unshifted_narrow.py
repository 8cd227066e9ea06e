# expect: logprob-mask-not-shifted
# style: narrow() on the mask
import torch
import torch.nn.functional as F


def token_logprobs(logits, input_ids, response_mask):
    L = logits.shape[1]
    logp = F.log_softmax(logits.narrow(1, 0, L - 1), dim=-1)
    picked = torch.gather(logp, 2, input_ids.narrow(1, 1, L - 1).unsqueeze(2)).squeeze(2)
    ent = -(logp.exp() * logp).sum(2)
    mask = response_mask.narrow(1, 0, L - 1)
    zero = torch.zeros((), dtype=picked.dtype)
    return torch.where(mask, picked, zero), torch.where(mask, ent, zero)
