# expect: right
# style: sanitise unused logits first, then vectorised
import torch


def token_logprobs(logits, input_ids, response_mask):
    m = response_mask[:, 1:]
    x = torch.where(m[..., None], logits[:, :-1], torch.zeros((), dtype=logits.dtype))
    logp_all = x - x.logsumexp(-1, keepdim=True)
    lp = logp_all.gather(-1, input_ids[:, 1:].unsqueeze(-1)).squeeze(-1) * m
    ent = (-(logp_all.exp() * logp_all).sum(-1)) * m
    return lp, ent
