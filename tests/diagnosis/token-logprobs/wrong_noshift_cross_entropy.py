# expect: logprob-no-shift
# style: cross_entropy on aligned positions
import torch
import torch.nn.functional as F


def token_logprobs(logits, input_ids, response_mask):
    B, L, V = logits.shape
    scores = logits[:, 1:, :]
    labels = input_ids[:, 1:]
    lp = -F.cross_entropy(scores.reshape(-1, V), labels.reshape(-1), reduction="none").reshape(B, L - 1)
    lsm = F.log_softmax(scores, dim=-1)
    h = -(lsm.exp() * lsm).sum(dim=-1)
    keep = response_mask[:, 1:]
    return lp.masked_fill(~keep, 0.0), h.masked_fill(~keep, 0.0)
