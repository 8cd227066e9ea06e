"""Bradley-Terry reward-model loss in NumPy."""
import numpy as np


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    """Mean over pairs of -log sigmoid(r_chosen - r_rejected - margin).

    r_chosen, r_rejected: float arrays [N]. Returns a scalar.
    """
    r_chosen = np.asarray(r_chosen, dtype=np.float64)
    r_rejected = np.asarray(r_rejected, dtype=np.float64)
    if r_chosen.shape != r_rejected.shape or r_chosen.ndim != 1 or r_chosen.size == 0:
        raise ValueError("r_chosen and r_rejected must be non-empty 1-D arrays of the same shape")
    gap = r_chosen - r_rejected - margin
    # -log sigmoid(x) = log(1 + exp(-x)) = softplus(-x), finite for any x.
    per_pair = np.logaddexp(0.0, -gap)
    loss = per_pair.sum()
    return loss
