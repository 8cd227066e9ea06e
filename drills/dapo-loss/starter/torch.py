"""DAPO's batch step: write dapo_loss (see prompt.md)."""
import torch


def dapo_loss(log_prob, old_log_prob, scores, response_mask, truncated, group_size, max_len, cache_len,
              clip_low=0.2, clip_high=0.28, overlong_filter=True, eps=1e-6):
    """DAPO's policy loss with its reward shaping and filters.

    Args:
        log_prob: float tensor [B, T], log pi_theta of each sampled token (trainable in PyTorch).
        old_log_prob: float tensor [B, T], log pi_old of the same tokens (data).
        scores: float tensor [B], one outcome score per response; B = P * group_size, prompt-major.
        response_mask: bool tensor [B, T], right-padded, at least one valid token per row; padded
            positions of the log-probs may hold anything, NaN and inf included.
        truncated: bool tensor [B], True for a response cut off at max_len before it finished.
        group_size: samples per prompt (>= 2). max_len: the response length limit L_max.
        cache_len: L_cache, the length of the soft overlong buffer before max_len.
        clip_low, clip_high: the ratio is clipped to [1 - clip_low, 1 + clip_high].
        overlong_filter: leave truncated responses out of the loss.
        eps: added to the group std.

    Returns:
        (loss, advantages, loss_mask): loss a 0-d tensor; advantages a [B] tensor; loss_mask a bool [B, T] tensor
        of the tokens that enter the loss.

    Raises:
        ValueError: when group_size < 2, B is not a multiple of group_size, or cache_len is not strictly
            between 0 and max_len.
    """
    raise NotImplementedError
