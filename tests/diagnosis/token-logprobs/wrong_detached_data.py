# expect: logprob-detached
# style: .data on the logits before the log-softmax
import torch


def token_logprobs(logits, input_ids, response_mask):
    x = logits.data[:, :-1]
    logp_all = x - torch.logsumexp(x, dim=-1, keepdim=True)
    picked = torch.gather(logp_all, 2, input_ids[:, 1:, None])[..., 0]
    entropy = -(logp_all.exp() * logp_all).sum(-1)
    m = response_mask[:, 1:]
    zero = torch.zeros((), dtype=picked.dtype)
    return torch.where(m, picked, zero), torch.where(m, entropy, zero)
