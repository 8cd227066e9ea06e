# expect: logprob-softmax-then-log
# style: F.softmax then torch.log, loop over rows
import torch
import torch.nn.functional as F


def token_logprobs(logits, input_ids, response_mask):
    out_lp, out_h = [], []
    for b in range(logits.shape[0]):
        p = F.softmax(logits[b, :-1], dim=-1)
        lp_all = torch.log(p)
        lp = lp_all[torch.arange(p.shape[0]), input_ids[b, 1:]]
        h = -torch.sum(p * lp_all, dim=-1)
        keep = response_mask[b, 1:]
        out_lp.append(torch.where(keep, lp, torch.zeros_like(lp)))
        out_h.append(torch.where(keep, h, torch.zeros_like(h)))
    return torch.stack(out_lp), torch.stack(out_h)
