# expect: right
# framework: torch
# style: OpenRLHF PolicyLoss idiom (surr1, surr2, dual clip in objective space)
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if dual_clip is not None and not dual_clip > 1:
        raise ValueError("dual_clip must exceed 1")
    mask = response_mask
    old = torch.where(mask, old_log_prob.detach(), log_prob.detach())
    adv = advantages.detach().masked_fill(~mask, 0.0)
    lp = log_prob.masked_fill(~mask, 0.0)
    old = old.masked_fill(~mask, 0.0)
    log_ratio = lp - old
    ratio = log_ratio.exp()
    surr1 = ratio * adv
    surr2 = ratio.clamp(1 - clip_low, 1 + clip_high) * adv
    obj = torch.min(surr1, surr2)
    if dual_clip is not None:
        obj = torch.where(adv < 0, torch.max(obj, dual_clip * adv), obj)
    loss_tok = -obj
    n = mask.sum(-1)
    if loss_agg_mode == "token-mean":
        loss = loss_tok.sum() / n.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        loss = (loss_tok.sum(-1) / n).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        loss = loss_tok.sum(-1).mean()
    elif loss_agg_mode == "seq-mean-token-sum-norm":
        loss = (loss_tok.sum(-1) / loss_tok.shape[-1]).mean()
    else:
        raise ValueError(f"unknown loss_agg_mode {loss_agg_mode}")
    with torch.no_grad():
        valid = mask
        stats = {
            "clip_frac": (surr2 < surr1)[valid].double().mean().item(),
            "approx_kl": (ratio[valid] - 1 - log_ratio[valid]).mean().item(),
            "ratio_min": ratio[valid].min().item(),
            "ratio_max": ratio[valid].max().item(),
        }
    return loss, stats
