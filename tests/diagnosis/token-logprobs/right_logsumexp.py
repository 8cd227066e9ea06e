# expect: right
# style: x - logsumexp, verl entropy formula
import torch


def token_logprobs(logits, input_ids, response_mask):
    x = logits[:, :-1].double()
    lse = torch.logsumexp(x, dim=-1)
    chosen = torch.gather(x, 2, input_ids[:, 1:, None]).squeeze(2)
    logp = chosen - lse
    p = torch.softmax(x, dim=-1)
    entropy = lse - (p * x).sum(-1)
    keep = response_mask[:, 1:]
    logp = torch.where(keep, logp, torch.zeros_like(logp))
    entropy = torch.where(keep, entropy, torch.zeros_like(entropy))
    return logp, entropy
