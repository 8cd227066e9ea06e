# expect: logprob-detached
# framework: torch
# style: helper decorated with torch.inference_mode (as for the reference model), reused for the actor
import torch


@torch.inference_mode()
def _score(logits, labels):
    logp = torch.log_softmax(logits, dim=-1)
    lp = logp.gather(-1, labels.unsqueeze(-1)).squeeze(-1)
    ent = -(logp.exp() * logp).sum(-1)
    return lp, ent


def token_logprobs(logits, input_ids, response_mask):
    mask = response_mask[:, 1:]
    x = logits[:, :-1].masked_fill(~mask.unsqueeze(-1), 0.0)
    lp, ent = _score(x, input_ids[:, 1:])
    lp = lp.clone()
    ent = ent.clone()
    return lp.masked_fill(~mask, 0.0), ent.masked_fill(~mask, 0.0)
