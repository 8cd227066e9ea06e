# expect: logprob-gather-wrong-dim
# framework: torch
# style: per row, gather on dim 0 of the [L-1, V] matrix (the positions)
import torch


def token_logprobs(logits, input_ids, response_mask):
    rows_lp, rows_h = [], []
    for b in range(logits.shape[0]):
        m = response_mask[b, 1:]
        x = logits[b, :-1].masked_fill(~m[:, None], 0.0)
        logp = torch.log_softmax(x, dim=-1)
        lp = logp.gather(0, input_ids[b, 1:].unsqueeze(-1)).squeeze(-1)
        h = -(logp.exp() * logp).sum(-1)
        rows_lp.append(torch.where(m, lp, 0.0))
        rows_h.append(torch.where(m, h, 0.0))
    return torch.stack(rows_lp), torch.stack(rows_h)
