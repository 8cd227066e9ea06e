# expect: logprob-padding-kept
# style: cross_entropy, no masking
import torch
import torch.nn.functional as F


def token_logprobs(logits, input_ids, response_mask):
    B, L, V = logits.shape
    lg = logits[:, :-1]
    lp = -F.cross_entropy(lg.reshape(-1, V), input_ids[:, 1:].reshape(-1), reduction="none").view(B, L - 1)
    lsm = F.log_softmax(lg, -1)
    return lp, -(lsm.exp() * lsm).sum(-1)
