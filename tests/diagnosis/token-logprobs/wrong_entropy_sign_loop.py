# expect: logprob-entropy-sign
# style: row loop, entropy as expected log-prob
import torch


def token_logprobs(logits, input_ids, response_mask):
    lps, hs = [], []
    for lg, ids, m in zip(logits, input_ids, response_mask):
        logp = lg[:-1].log_softmax(-1)
        lp = logp[torch.arange(logp.shape[0]), ids[1:]]
        expected_logp = (logp.exp() * logp).sum(-1)
        lps.append(torch.where(m[1:], lp, 0.0))
        hs.append(torch.where(m[1:], expected_logp, 0.0))
    return torch.stack(lps), torch.stack(hs)
