# expect: logprob-mask-multiplied
# framework: torch
# style: float mask multiplied into both outputs (no sanitising of the logits)
import torch


def token_logprobs(logits, input_ids, response_mask):
    mask = response_mask[:, 1:].to(logits.dtype)
    logp = torch.log_softmax(logits[:, :-1], dim=-1)
    lp = logp.gather(-1, input_ids[:, 1:].unsqueeze(-1)).squeeze(-1)
    ent = -(logp.exp() * logp).sum(-1)
    return lp * mask, ent * mask
