"""Bradley-Terry reward-model loss in PyTorch."""
import torch
import torch.nn.functional as F


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    """Mean over pairs of -log sigmoid(r_chosen - r_rejected - margin).

    r_chosen, r_rejected: float tensors [N] (both trainable). Returns a 0-d tensor.
    """
    if r_chosen.shape != r_rejected.shape or r_chosen.dim() != 1 or r_chosen.numel() == 0:
        raise ValueError("r_chosen and r_rejected must be non-empty 1-D tensors of the same shape")
    gap = r_chosen - r_rejected - margin
    # logsigmoid stays finite where sigmoid underflows to 0.
    # probabilities first, then binary cross-entropy (which clamps log(0) at -100)
    p = torch.sigmoid(gap)
    per_pair = F.binary_cross_entropy(p, torch.ones_like(p), reduction="none")
    loss = per_pair.mean()
    return loss
