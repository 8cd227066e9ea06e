# expect: right
# framework: torch
# style: OpenRLHF PolicyLoss (surr1 / surr2, dual clip via torch.where), objective space
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    modes = {"token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"}
    if loss_agg_mode not in modes:
        raise ValueError(loss_agg_mode)
    if dual_clip is not None:
        if dual_clip <= 1:
            raise ValueError("dual_clip must be greater than 1")
    mask = response_mask
    log_probs = log_prob.masked_fill(~mask, 0.0)
    old_log_probs = old_log_prob.detach().masked_fill(~mask, 0.0)
    adv = advantages.detach().masked_fill(~mask, 0.0)
    ratio = (log_probs - old_log_probs).exp()
    surr1 = ratio * adv
    surr2 = ratio.clamp(1 - clip_low, 1 + clip_high) * adv
    obj = torch.min(surr1, surr2)
    if dual_clip is not None:
        obj = torch.where(adv < 0, torch.max(obj, dual_clip * adv), obj)
    loss_tok = (-obj).masked_fill(~mask, 0.0)
    fm = mask.to(loss_tok.dtype)
    n_b = fm.sum(-1)
    if loss_agg_mode == "token-mean":
        loss = loss_tok.sum() / fm.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        loss = (loss_tok.sum(-1) / n_b).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        loss = loss_tok.sum(-1).mean()
    else:
        loss = (loss_tok.sum(-1) / loss_tok.shape[-1]).mean()
    with torch.no_grad():
        clipped = (surr2 < surr1) & mask
        r = ratio[mask]
        log_r = (log_probs - old_log_probs)[mask]
        stats = dict(
            clip_frac=float(clipped.sum() / mask.sum()),
            approx_kl=float(((r - 1) - log_r).mean()),
            ratio_min=float(r.min()),
            ratio_max=float(r.max()),
        )
    return loss, stats
