# expect: logprob-entropy-sign
# framework: torch
# style: logsumexp form with the two terms the wrong way round
import torch


def token_logprobs(logits, input_ids, response_mask):
    valid = response_mask[:, 1:]
    z = logits[:, :-1]
    z = torch.where(valid.unsqueeze(-1), z, torch.zeros_like(z))
    lse = torch.logsumexp(z, dim=-1)
    lp = z.gather(-1, input_ids[:, 1:, None]).squeeze(-1) - lse
    probs = torch.softmax(z, dim=-1)
    entropy = (probs * z).sum(-1) - lse
    return torch.where(valid, lp, 0.0), torch.where(valid, entropy, 0.0)
