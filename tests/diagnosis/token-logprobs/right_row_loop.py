# expect: right
# style: TRL selective_log_softmax row loop, lists then stack
import torch


def token_logprobs(logits, input_ids, response_mask):
    lps, ents = [], []
    for row_logits, row_ids, row_mask in zip(logits, input_ids, response_mask):
        lsm = row_logits[:-1].log_softmax(dim=-1)
        lp = lsm.gather(-1, row_ids[1:].unsqueeze(-1)).squeeze(-1)
        ent = -(lsm.exp() * lsm).sum(-1)
        ok = row_mask[1:]
        lps.append(torch.where(ok, lp, 0.0))
        ents.append(torch.where(ok, ent, 0.0))
    return torch.stack(lps), torch.stack(ents)
