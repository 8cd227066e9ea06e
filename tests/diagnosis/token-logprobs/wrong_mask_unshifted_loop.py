# expect: logprob-mask-not-shifted
# style: loop using the mask at t
import torch


def token_logprobs(logits, input_ids, response_mask):
    B, L, V = logits.shape
    lps, hs = [], []
    for t in range(L - 1):
        d = torch.log_softmax(logits[:, t], dim=-1)
        lp = d[torch.arange(B), input_ids[:, t + 1]]
        h = -(d.exp() * d).sum(-1)
        valid = response_mask[:, t]
        lps.append(torch.where(valid, lp, torch.zeros_like(lp)))
        hs.append(torch.where(valid, h, torch.zeros_like(h)))
    return torch.stack(lps, 1), torch.stack(hs, 1)
