# expect: logprob-mask-multiplied
# framework: torch
# style: cross_entropy, then in-place mul_ by the mask
import torch
import torch.nn.functional as F


def token_logprobs(logits, input_ids, response_mask):
    B, L, V = logits.shape
    z = logits[:, :-1].reshape(-1, V)
    y = input_ids[:, 1:].reshape(-1)
    lp = -F.cross_entropy(z, y, reduction="none").view(B, L - 1)
    logp = F.log_softmax(z, dim=-1)
    ent = (-(logp.exp() * logp).sum(-1)).view(B, L - 1)
    m = response_mask[:, 1:]
    lp = lp.mul(m)
    ent.mul_(m)
    return lp, ent
