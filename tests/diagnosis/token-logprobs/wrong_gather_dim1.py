# expect: logprob-gather-wrong-dim
# style: gather(1, ...)
import torch


def token_logprobs(logits, input_ids, response_mask):
    lsm = torch.log_softmax(logits[:, :-1], dim=2)
    idx = input_ids[:, 1:].unsqueeze(2)
    lp = lsm.gather(1, idx).squeeze(2)
    ent = -(lsm.exp() * lsm).sum(2)
    mask = response_mask[:, 1:]
    return lp.masked_fill(~mask, 0.0), ent.masked_fill(~mask, 0.0)
