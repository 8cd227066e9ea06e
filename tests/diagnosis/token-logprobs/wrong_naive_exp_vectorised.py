# expect: logprob-naive-softmax
# style: vectorised exp, normalise, log, masked_fill
import torch


def token_logprobs(logits, input_ids, response_mask):
    p = torch.exp(logits[..., :-1, :])
    p = p / p.sum(dim=-1, keepdim=True)
    logp = torch.log(p)
    lp = logp.gather(2, input_ids[..., 1:].unsqueeze(2)).squeeze(2)
    entropy = -(p * logp).sum(dim=2)
    keep = response_mask[..., 1:]
    return lp.masked_fill(~keep, 0.0), entropy.masked_fill(~keep, 0.0)
