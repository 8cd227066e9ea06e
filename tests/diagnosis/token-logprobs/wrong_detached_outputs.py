# expect: logprob-detached
# style: detach() on the returned tensors
import torch
import torch.nn.functional as F


def token_logprobs(logits, input_ids, response_mask):
    B, L, V = logits.shape
    lp = -F.cross_entropy(logits[:, :-1].reshape(-1, V), input_ids[:, 1:].reshape(-1), reduction="none")
    lp = lp.view(B, L - 1)
    lsm = logits[:, :-1].log_softmax(-1)
    ent = -(lsm.exp() * lsm).sum(-1)
    keep = response_mask[:, 1:]
    return lp.masked_fill(~keep, 0.0).detach(), ent.masked_fill(~keep, 0.0).detach()
