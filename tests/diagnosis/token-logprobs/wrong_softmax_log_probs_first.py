# expect: logprob-softmax-then-log
# style: probabilities gathered, then logged
import torch


def token_logprobs(logits, input_ids, response_mask):
    p = torch.softmax(logits[:, :-1], dim=-1)
    logp_all = torch.log(p)
    ent = -(p * logp_all).sum(dim=-1)
    p_tok = torch.gather(p, -1, input_ids[:, 1:].unsqueeze(-1)).squeeze(-1)
    lp = torch.log(p_tok)
    valid = response_mask[:, 1:]
    zero = torch.zeros((), dtype=lp.dtype)
    return torch.where(valid, lp, zero), torch.where(valid, ent, zero)
