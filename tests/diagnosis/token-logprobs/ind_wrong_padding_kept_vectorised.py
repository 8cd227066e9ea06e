# expect: logprob-padding-kept
# framework: torch
# style: verl logprobs_from_logits without any mask
import torch


def token_logprobs(logits, input_ids, response_mask):
    logp = torch.log_softmax(logits[:, :-1], dim=-1)
    log_probs = logp.gather(dim=-1, index=input_ids[:, 1:].unsqueeze(-1)).squeeze(-1)
    entropy = -(torch.softmax(logits[:, :-1], dim=-1) * logp).sum(-1)
    return log_probs, entropy
