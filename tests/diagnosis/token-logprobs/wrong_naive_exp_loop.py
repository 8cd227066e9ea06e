# expect: logprob-naive-softmax
# style: per-row loop, exp / sum
import torch


def token_logprobs(logits, input_ids, response_mask):
    lps, ents = [], []
    for lg, ids, m in zip(logits, input_ids, response_mask):
        z = lg[:-1].exp()
        p = z / z.sum(-1, keepdim=True)
        logp = p.log()
        lp = logp[torch.arange(logp.shape[0]), ids[1:]]
        h = -(p * logp).sum(-1)
        lps.append(torch.where(m[1:], lp, torch.zeros_like(lp)))
        ents.append(torch.where(m[1:], h, torch.zeros_like(h)))
    return torch.stack(lps), torch.stack(ents)
