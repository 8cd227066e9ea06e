# expect: right
# framework: torch
# style: loop over rows and positions, lists then stack
import torch


def token_logprobs(logits, input_ids, response_mask):
    B, L, _ = logits.shape
    lp_rows, ent_rows = [], []
    for b in range(B):
        lps, ents = [], []
        for t in range(L - 1):
            if bool(response_mask[b, t + 1]):
                row = logits[b, t]
                logz = torch.logsumexp(row, dim=0)
                logp = row - logz
                lps.append(logp[input_ids[b, t + 1]])
                ents.append(-(logp.exp() * logp).sum())
            else:
                z = logits.new_zeros(())
                lps.append(z)
                ents.append(z)
        lp_rows.append(torch.stack(lps))
        ent_rows.append(torch.stack(ents))
    return torch.stack(lp_rows), torch.stack(ent_rows)
