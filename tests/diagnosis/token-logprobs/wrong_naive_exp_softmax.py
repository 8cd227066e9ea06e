# expect: logprob-naive-softmax
# style: softmax written by hand as exp / sum, then log
import torch


def token_logprobs(logits, input_ids, response_mask):
    e = torch.exp(logits[:, :-1])
    probs = e / e.sum(dim=-1, keepdim=True)
    logp = torch.log(probs)
    lp = logp.gather(-1, input_ids[:, 1:].unsqueeze(-1)).squeeze(-1)
    ent = -(probs * logp).sum(-1)
    m = response_mask[:, 1:]
    return torch.where(m, lp, 0.0), torch.where(m, ent, 0.0)
