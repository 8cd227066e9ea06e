# expect: logprob-no-shift
# framework: torch
# style: F.cross_entropy over the whole sequence, then the first column dropped
import torch
import torch.nn.functional as F


def token_logprobs(logits, input_ids, response_mask):
    B, L, V = logits.shape
    m = response_mask
    z = logits.masked_fill(~m.unsqueeze(-1), 0.0)
    lp = -F.cross_entropy(z.reshape(B * L, V), input_ids.reshape(B * L), reduction="none").view(B, L)
    logp = F.log_softmax(z, dim=-1)
    ent = -(logp.exp() * logp).sum(-1)
    lp = lp.masked_fill(~m, 0.0)
    ent = ent.masked_fill(~m, 0.0)
    return lp[:, 1:], ent[:, 1:]
