# expect: right
# framework: torch
# style: verl's agg_loss with batch_num_tokens and dp_size
import torch


def _agg(loss_mat, loss_mask, mode, dp_size, batch_num_tokens, global_batch_size):
    if mode == "token-mean":
        return torch.where(loss_mask, loss_mat, torch.zeros_like(loss_mat)).sum() / batch_num_tokens * dp_size
    seq_len = loss_mask.sum(-1)
    seq_loss = torch.where(loss_mask, loss_mat, torch.zeros_like(loss_mat)).sum(-1) / seq_len.clamp(min=1)
    return seq_loss.sum() / global_batch_size * dp_size


def micro_batch_losses(loss_mat, loss_mask, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean"):
        raise ValueError(loss_agg_mode)
    dp_size, accum = loss_mat.shape[:2]
    batch_num_tokens = loss_mask.sum()
    global_batch_size = (loss_mask.sum(-1) > 0).sum()
    rows = [torch.stack([_agg(loss_mat[r, m], loss_mask[r, m], loss_agg_mode, dp_size, batch_num_tokens,
                              global_batch_size) for m in range(accum)]) for r in range(dp_size)]
    return torch.stack(rows)
