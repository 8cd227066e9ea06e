# expect: logprob-mask-multiplied
# framework: torch
# style: row loop, every position computed then multiplied by its 0/1 flag
import torch


def token_logprobs(logits, input_ids, response_mask):
    out_lp, out_h = [], []
    for b in range(logits.shape[0]):
        flag = response_mask[b, 1:].double().to(logits.dtype)
        lse = torch.logsumexp(logits[b, :-1], dim=-1)
        chosen = logits[b, :-1].gather(1, input_ids[b, 1:, None])[:, 0] - lse
        p = torch.softmax(logits[b, :-1], dim=-1)
        h = lse - (p * logits[b, :-1]).sum(-1)
        out_lp.append(chosen * flag)
        out_h.append(h * flag)
    return torch.stack(out_lp), torch.stack(out_h)
