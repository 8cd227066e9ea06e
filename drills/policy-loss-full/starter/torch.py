"""The full LLM policy loss: write compute_policy_loss (see prompt.md)."""
import torch

MODES = ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm")


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    """PPO's clipped policy loss over the response tokens of a right-padded batch, with its statistics.

    Args:
        log_prob: float tensor [B, T], log-probs of the sampled tokens under the policy being trained
            (requires grad).
        old_log_prob: float tensor [B, T], log-probs recorded at sampling time; no gradient.
        advantages: float tensor [B, T]; no gradient.
        response_mask: bool tensor [B, T], True on response tokens (right padding; every row has one).
            Padded slots of the three float tensors may hold anything, NaN and inf included.
        clip_low, clip_high: the band [1 - clip_low, 1 + clip_high] for the ratio.
        dual_clip: None, or c > 1: on tokens with A < 0 the objective is at least c * A.
        loss_agg_mode: one of MODES (seq-mean-token-sum-norm divides by T = log_prob.shape[-1]).

    Returns:
        (loss, stats): loss a 0-d tensor; stats a dict of floats "clip_frac", "approx_kl", "ratio_min",
        "ratio_max" over valid tokens (see prompt.md for their definitions).

    Raises:
        ValueError: for an unknown loss_agg_mode or a dual_clip that is not greater than 1.
    """
    raise NotImplementedError
