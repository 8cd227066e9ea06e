# expect: logprob-mask-not-shifted
# style: mask[:, :-1] like the logits
import torch


def token_logprobs(logits, input_ids, response_mask):
    lsm = logits[:, :-1].log_softmax(-1)
    lp = lsm.gather(-1, input_ids[:, 1:, None]).squeeze(-1)
    ent = -(lsm.exp() * lsm).sum(-1)
    m = response_mask[:, :-1]
    return lp.masked_fill(~m, 0.0), ent.masked_fill(~m, 0.0)
