# expect: logprob-padding-kept
# style: mask accepted but never used
import torch


def token_logprobs(logits, input_ids, response_mask):
    logp = torch.log_softmax(logits[:, :-1], dim=-1)
    lp = logp.gather(-1, input_ids[:, 1:].unsqueeze(-1)).squeeze(-1)
    entropy = -(logp.exp() * logp).sum(-1)
    return lp, entropy
