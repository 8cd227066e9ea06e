# expect: logprob-detached
# style: torch.no_grad() around the whole computation
import torch


def token_logprobs(logits, input_ids, response_mask):
    with torch.no_grad():
        logp = torch.log_softmax(logits[:, :-1], dim=-1)
        lp = logp.gather(-1, input_ids[:, 1:].unsqueeze(-1)).squeeze(-1)
        ent = -(logp.exp() * logp).sum(-1)
    valid = response_mask[:, 1:]
    return torch.where(valid, lp, 0.0), torch.where(valid, ent, 0.0)
