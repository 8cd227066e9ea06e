# expect: logprob-mask-multiplied
# style: cross_entropy times mask
import torch
import torch.nn.functional as F


def token_logprobs(logits, input_ids, response_mask):
    B, L, V = logits.shape
    lg = logits[:, :-1]
    nll = F.cross_entropy(lg.reshape(-1, V), input_ids[:, 1:].reshape(-1), reduction="none").view(B, L - 1)
    lsm = lg.log_softmax(-1)
    ent = -(lsm.exp() * lsm).sum(-1)
    mask = response_mask[:, 1:].float()
    return -nll * mask, ent * mask
