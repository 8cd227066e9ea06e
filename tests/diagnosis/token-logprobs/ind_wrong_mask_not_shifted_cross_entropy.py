# expect: logprob-mask-not-shifted
# framework: torch
# style: F.cross_entropy with ignore of positions via the unshifted mask[..., :L-1]
import torch
import torch.nn.functional as F


def token_logprobs(logits, input_ids, response_mask):
    B, L, V = logits.shape
    action_mask = response_mask[..., : L - 1]
    z = logits[:, :-1].masked_fill(~action_mask.unsqueeze(-1), 0.0)
    nll = F.cross_entropy(z.transpose(1, 2), input_ids[:, 1:], reduction="none")
    lp = (-nll).masked_fill(~action_mask, 0.0)
    logp = F.log_softmax(z, -1)
    ent = (-(logp.exp() * logp).sum(-1)).masked_fill(~action_mask, 0.0)
    return lp, ent
