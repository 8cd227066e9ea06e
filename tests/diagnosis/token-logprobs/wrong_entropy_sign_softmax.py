# expect: logprob-entropy-sign
# style: softmax times log_softmax, no minus
import torch
import torch.nn.functional as F


def token_logprobs(logits, input_ids, response_mask):
    x = logits[:, :-1]
    lsm = F.log_softmax(x, dim=-1)
    p = F.softmax(x, dim=-1)
    lp = lsm.gather(2, input_ids[:, 1:].unsqueeze(2)).squeeze(2)
    h = (p * lsm).sum(dim=2)
    valid = response_mask[:, 1:]
    return lp.masked_fill(~valid, 0.0), h.masked_fill(~valid, 0.0)
