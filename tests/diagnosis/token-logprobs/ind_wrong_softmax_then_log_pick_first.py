# expect: logprob-softmax-then-log
# framework: torch
# style: gathers the probability of the token, then logs it
import torch
import torch.nn.functional as F


def token_logprobs(logits, input_ids, response_mask):
    mask = response_mask[:, 1:]
    z = torch.where(mask.unsqueeze(-1), logits[:, :-1], torch.zeros_like(logits[:, :-1]))
    p = F.softmax(z, dim=-1)
    p_tok = torch.gather(p, 2, input_ids[:, 1:].unsqueeze(2)).squeeze(2)
    lp = p_tok.log()
    ent = -(p * F.log_softmax(z, dim=-1)).sum(-1)
    zero = torch.zeros_like(lp)
    return torch.where(mask, lp, zero), torch.where(mask, ent, zero)
