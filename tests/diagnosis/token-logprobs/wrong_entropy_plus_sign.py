# expect: logprob-entropy-sign
# style: sum p log p
import torch


def token_logprobs(logits, input_ids, response_mask):
    logp = torch.log_softmax(logits[:, :-1], -1)
    lp = torch.gather(logp, -1, input_ids[:, 1:].unsqueeze(-1)).squeeze(-1)
    entropy = torch.sum(logp.exp() * logp, dim=-1)
    keep = response_mask[:, 1:]
    return torch.where(keep, lp, 0.0), torch.where(keep, entropy, 0.0)
